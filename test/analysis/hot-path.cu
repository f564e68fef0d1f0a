// Static priority: findings inside a timed region (and the repetition loops
// around it) come first; set-up, warm-up, verification and problem-size sweeps
// are off the hot path: hidden by default, notes with --show-cold.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop,sync-in-loop,launch-block-size' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:' --implicit-check-not='note: off the hot path'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,transfer-in-loop,sync-in-loop,launch-block-size' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// RUN: %expect-exit 1 %cuda-advisor --format=json --checks='-*,transfer-in-loop,sync-in-loop,launch-block-size' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=JSON
// RUN: %expect-exit 1 %cuda-advisor --format=json --checks='-*,transfer-in-loop,sync-in-loop,launch-block-size' %s -- -x cuda -std=c++17 \
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
    // DEFAULT-DAG: :[[@LINE+2]]:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
    // COLD-DAG: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
    cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);
    // DEFAULT-DAG: :[[@LINE+1]]:5: warning: {{.*}}100 threads{{.*}}[launch-block-size]
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
// COLD-DAG: :34:5: note: {{.*}}100 threads{{.*}}[launch-block-size]
// COLD-DAG: off the hot path: before the timed region (lines 37-44): set-up or warm-up
// COLD-DAG: :35:5: note: {{.*}}[sync-in-loop]
// COLD-DAG: :24:3: note: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
// COLD-DAG: off the hot path: only called off the hot path (line 50, after the timed region (lines 37-44): verification or clean-up)

// The loop around the timing calls repeats the measured work: all of it is hot.
void timedWithChrono(float *h, float *d) {
  for (int rep = 0; rep < 10; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    scale<<<N / 256, 256>>>(d, N);
    // DEFAULT-DAG: :[[@LINE+1]]:5: warning: {{.*}}[sync-in-loop]
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
    // DEFAULT-DAG: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
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
// COLD-DAG: :[[@LINE-6]]:5: note: {{.*}}[transfer-in-loop]
// COLD-DAG: off the hot path: in a loop over problem sizes or launch configurations (line [[@LINE-9]])

// No timing and no sweep: the loop that launches the kernels is the hot path.
void untimed(float *h, float *d) {
  for (int it = 0; it < 100; ++it) {
    // DEFAULT-DAG: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
    cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<N / 256, 256>>>(d, N);
  }
}
// WHY: "priorityReason": "in the loop at line [[@LINE-7]], which launches the program's kernels"

// Nothing says where the time goes: a plain warning, after the hot ones.
void uploadRows(float *h, float *d, int rows) {
  for (int r = 0; r < rows; ++r)
    // DEFAULT-DAG: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
    cudaMemcpy(d + r * 1024, h, 1024 * sizeof(float), cudaMemcpyHostToDevice);
}
// DEFAULT: off the hot path not shown (--show-cold)

// In JSON, the hot findings come first, then the normal ones.
// JSON: "priority": "hot"
// JSON-NOT: "priority": "normal"
// JSON: "priorityReason": "inside the timed region
// JSON-NOT: "priority": "normal"
// JSON: "priority": "normal"
// JSON-NOT: "priority": "hot"
