// Static priority: findings inside a timed region (and the repetition loops
// around it) come first; set-up, warm-up, verification and problem-size sweeps
// are off the hot path: hidden by default, notes with --show-cold.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop,sync-in-loop,launch-block-size,launch-grid-truncation' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:' --implicit-check-not='note: off the hot path'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,transfer-in-loop,sync-in-loop,launch-block-size,launch-grid-truncation' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// RUN: %expect-exit 1 %cuda-advisor --format=json --checks='-*,transfer-in-loop,sync-in-loop,launch-block-size,launch-grid-truncation' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=JSON
// RUN: %expect-exit 1 %cuda-advisor --format=json --checks='-*,transfer-in-loop,sync-in-loop,launch-block-size,launch-grid-truncation' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=WHY
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <chrono>
#include <stdio.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

constexpr int N = 1 << 20;

// Called only from the verification code: off the hot path too.
void checkSlice(float *h, const float *d, int i) {
  cudaMemcpy(h + i, d + i, 64 * sizeof(float), cudaMemcpyDeviceToHost);
}

int timedWithEvents(float *h, float *d) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  // Warm-up before the first timing call.
  for (int w = 0; w < 3; ++w) {
    scale<<<N / 100, 100>>>(d, N);
    cudaDeviceSynchronize();
  }
  cudaEventRecord(start);
  for (int it = 0; it < 100; ++it) {
    cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<N / 100, 100>>>(d, N);
  }
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  // Verification after the last timing call.
  for (int i = 0; i < N; i += 4096) {
    checkSlice(h, d, i);
    if (h[i] != 2.0f) return 1;
  }
  return 0;
}

// Timed repetitions: the timed part is hot, the readback after it a check.
void timedWithChrono(float *h, float *d) {
  for (int rep = 0; rep < 10; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    scale<<<N / 256, 256>>>(d, N);
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
    cudaMemcpy(h, d, N * sizeof(float), cudaMemcpyDeviceToHost);
  }
}

// A sweep over problem sizes: each size allocates and copies once.
void sweep(float *h) {
  for (int n = 1 << 10; n <= N; n *= 2) {
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<(n + 255) / 256, 256>>>(d, n);
    cudaFree(d);
  }
}

// No timing and no sweep: the loop that launches the kernels is the hot path.
void untimed(float *h, float *d) {
  for (int it = 0; it < 100; ++it) {
    cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<N / 256, 256>>>(d, N);
  }
}

// Nothing says where the time goes: a plain warning, after the hot ones.
void uploadRows(float *h, float *d, int rows) {
  for (int r = 0; r < rows; ++r)
    cudaMemcpy(d + r * 1024, h, 1024 * sizeof(float), cudaMemcpyHostToDevice);
}

// A launch configuration computed before the timing calls for a launch
// between them: the launch decides, so it is on the hot path; the same grid
// for a launch before the timing calls is set-up.
void gridBeforeTimer(float *d, int n) {
  int blocks = n / 256;
  int warmBlocks = n / 512;
  scale<<<warmBlocks, 512>>>(d, n);
  auto t0 = std::chrono::steady_clock::now();
  scale<<<blocks, 256>>>(d, n);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}

// A loop repeating a function that times itself (a benchmark's passes): each
// iteration is a whole timed run, so the copy the call makes is not this
// loop's cost.
void timedRun(float *h, float *d) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<N / 256, 256>>>(d, N);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
}
void passes(float *h, float *d) {
  for (int pass = 0; pass < 5; ++pass)
    timedRun(h, d);
}

// The look-alike: a loop calling a function that does not time itself is the
// program's own iteration, and the copy the call makes is this loop's cost.
void stepOnce(float *h, float *d) {
  cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<N / 256, 256>>>(d, N);
}
void steps(float *h, float *d) {
  for (int s = 0; s < 5; ++s)
    stepOnce(h, d);
}

// A sweep whose sizes come from a table through locals declared in any order.
void tableSweep(const int *sizes, int count) {
  for (int j = 0; j < count; ++j) {
    const unsigned bytes = 1024 * sizes[j];
    const unsigned floats = bytes / sizeof(float);
    float *d;
    cudaMalloc(&d, floats * sizeof(float));
    scale<<<floats / 256, 256>>>(d, floats);
    cudaFree(d);
  }
}

// In JSON, the hot findings come first, then the normal ones.
// (The lines below name the code above by its line numbers.)
//
// Default: the hot findings first, in source order, then the normal one; the
// warm-up (lines 35-38), the verification (line 50), the sweep (70-76) and the
// launch before the timer in gridBeforeTimer (line 99) are hidden and counted;
// the grid of line 97 is computed before the timer for the launch inside it (101).
// DEFAULT: hot-path.cu:41:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
// DEFAULT: hot-path.cu:42:13: warning: grid of N / 100 = 10485 blocks{{.*}}[launch-grid-truncation]
// DEFAULT: hot-path.cu:42:22: warning: 100 threads per block{{.*}}[launch-block-size]
// DEFAULT: hot-path.cu:82:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
// DEFAULT: hot-path.cu:97:16: warning: grid of n / 256 blocks{{.*}}[launch-grid-truncation]
// DEFAULT: hot-path.cu:90:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
// DEFAULT: hot-path.cu:135:5: warning: 'stepOnce' calls cudaMemcpy{{.*}}[transfer-in-loop]
// DEFAULT: 7 findings in 1 file; 12 off the hot path not shown (--show-cold).
//
// --show-cold: the same warnings, then the cold ones as notes saying why.
// COLD: hot-path.cu:135:5: warning:
// COLD-DAG: hot-path.cu:36:13: note: grid of N / 100{{.*}}[launch-grid-truncation]
// COLD-DAG: hot-path.cu:36:22: note: 100 threads per block{{.*}}[launch-block-size]
// COLD-DAG: hot-path.cu:37:5: note: cudaDeviceSynchronize runs on every iteration{{.*}}[sync-in-loop]
// COLD-DAG: note: off the hot path: before the timed region (lines 39-44): set-up or warm-up
// COLD-DAG: hot-path.cu:50:5: note: 'checkSlice' calls cudaMemcpy{{.*}}[transfer-in-loop]
// COLD-DAG: note: off the hot path: after the timed region (lines 39-44): verification or clean-up
// COLD-DAG: hot-path.cu:64:5: note: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
// COLD-DAG: note: off the hot path: in the loop at line 58, which times only lines 59-62 of each repetition: the rest is its set-up or check
// COLD-DAG: hot-path.cu:72:5: note: cudaMalloc allocates on every iteration{{.*}}[transfer-in-loop]
// COLD-DAG: hot-path.cu:73:5: note: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
// COLD-DAG: hot-path.cu:75:5: note: cudaFree frees memory on every iteration{{.*}}[transfer-in-loop]
// COLD-DAG: note: off the hot path: in a loop over problem sizes or launch configurations (line 70)
// COLD-DAG: hot-path.cu:98:20: note: grid of n / 512 blocks{{.*}}[launch-grid-truncation]
// COLD-DAG: note: off the hot path: before the timed region (lines 100-103): set-up or warm-up
// COLD-DAG: hot-path.cu:124:5: note: 'timedRun' calls cudaMemcpy{{.*}}[transfer-in-loop]
// COLD-DAG: note: off the hot path: repeats 'timedRun', which times one run itself (lines 114-117): each iteration is a whole timed run
// COLD-DAG: hot-path.cu:144:5: note: cudaMalloc allocates on every iteration{{.*}}[transfer-in-loop]
// COLD-DAG: hot-path.cu:146:5: note: cudaFree frees memory on every iteration{{.*}}[transfer-in-loop]
// COLD-DAG: note: off the hot path: in a loop over problem sizes or launch configurations (line 140)
// COLD-NOT: warning:
// COLD: 19 findings in 1 file.
//
// In JSON every finding has a priority, the five hot ones before the two
// normal ones.
// JSON-COUNT-5: "priority": "hot"
// JSON-NOT: "priority": "hot"
// JSON-COUNT-2: "priority": "normal"
// JSON-NOT: "priority": "hot"
// WHY-DAG: "priorityReason": "inside the timed region (lines 39-44)"
// WHY-DAG: "priorityReason": "inside the timed region (lines 100-103)"
// WHY-DAG: "priorityReason": "in the loop at line 81, which launches the program's kernels"
