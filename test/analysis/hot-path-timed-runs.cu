// A loop repeating a benchmark's run is off the hot path when the run times
// itself: a timer object whose constructor starts the clock, a profiler
// class's begin()/end(), a dispatcher that only forwards to the timed run,
// or a kernel that reads the GPU's clock at the start and the end of what it
// measures. The look-alikes keep their warnings: a timer whose constructor
// does not start it, a step that copies itself beside a timing helper, a
// kernel that reads the clock once (a seed), begin()/end() of a class that is
// no timer.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <chrono>
#include <stdio.h>

__global__ void work(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

// A timer started by its constructor (SpTimer t; ... t.stop()).
class SpTimer {
  std::chrono::high_resolution_clock::time_point Begin, End;
public:
  SpTimer() { start(); }
  void start() { Begin = std::chrono::high_resolution_clock::now(); }
  void stop() { End = std::chrono::high_resolution_clock::now(); }
};

// Look-alike: its constructor only clears the fields; only stop() reads the clock.
class LazyTimer {
  std::chrono::high_resolution_clock::time_point End;
  int Laps;
public:
  LazyTimer() : Laps(0) {}
  void stop() { End = std::chrono::high_resolution_clock::now(); }
};

void runWithTimer(const float *h, int n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  SpTimer t;
  work<<<(n + 255) / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  t.stop();
  cudaFree(d);
}

void runWithLazyTimer(const float *h, int n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  LazyTimer t;
  work<<<(n + 255) / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  t.stop();
  cudaFree(d);
}

// A profiler class whose methods another file defines (begin/end).
class CudaProfiling {
public:
  void begin();
  float end();
};

// Look-alike: a profile's begin()/end() return pointers: no clock methods
// (taken for a timer, they would put the loop after them off the hot path).
struct SpanProfile {
  int *begin();
  int *end();
};

void profiled(float *h, float *d, int n) {
  CudaProfiling prof;
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  prof.begin();
  for (int r = 0; r < 100; ++r)
    work<<<(n + 255) / 256, 256>>>(d, n);
  prof.end();
  for (int row = 0; row < 100; ++row)
    cudaMemcpy(h + row * 64, d + row * 64, 64 * sizeof(float), cudaMemcpyDeviceToHost);
}

void spanned(float *h, float *d, int n, SpanProfile &s) {
  s.begin();
  s.end();
  for (int r = 0; r < 100; ++r) {
    work<<<(n + 255) / 256, 256>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
}

// A timed run behind a dispatcher over specializations, which only forwards.
template <int Stages> void runStages(const float *h, float *d, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  work<<<(n + 255) / 256, 256>>>(d, n);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms;
  cudaEventElapsedTime(&ms, a, b);
}

void dispatch(int stages, const float *h, float *d, int n) {
  switch (stages) {
  case 2: runStages<2>(h, d, n); break;
  case 4: runStages<4>(h, d, n); break;
  default: break;
  }
}

// Look-alike: a step that copies itself and calls a timing helper.
float timeOneLaunch(float *d, int n) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  work<<<(n + 255) / 256, 256>>>(d, n);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

void step(const float *h, float *d, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  timeOneLaunch(d, n);
}

// A kernel that times itself in cycles, and one that reads the clock once.
__global__ void cycles(float *x, unsigned long long *elapsed) {
  long long t0 = clock64();
  x[threadIdx.x] *= 3.0f;
  long long t1 = clock64();
  if (threadIdx.x == 0) *elapsed = t1 - t0;
}

__global__ void seeded(float *x, unsigned long long *seed) {
  x[threadIdx.x] *= 3.0f;
  if (threadIdx.x == 0) *seed = clock64();
}

unsigned long long runCycles(float *d) {
  unsigned long long *e, h;
  cudaMalloc(&e, sizeof(h));
  cycles<<<1, 128>>>(d, e);
  cudaMemcpy(&h, e, sizeof(h), cudaMemcpyDeviceToHost);
  cudaFree(e);
  return h;
}

unsigned long long checkedCycles(float *d) {
  unsigned long long c = runCycles(d);
  if (c == 0) printf("no cycles\n");
  return c;
}

unsigned long long runSeeded(float *d) {
  unsigned long long *e, h;
  cudaMalloc(&e, sizeof(h));
  seeded<<<1, 128>>>(d, e);
  cudaMemcpy(&h, e, sizeof(h), cudaMemcpyDeviceToHost);
  cudaFree(e);
  return h;
}

// Look-alike of hot-path-self-timed-table.cu: a launch through a pointer in
// a file whose kernels do not all time themselves.
typedef void (*CycleKernel)(float *, unsigned long long *);
unsigned long long runPointer(CycleKernel k, float *d) {
  unsigned long long *e, h;
  cudaMalloc(&e, sizeof(h));
  k<<<1, 128>>>(d, e);
  cudaMemcpy(&h, e, sizeof(h), cudaMemcpyDeviceToHost);
  cudaFree(e);
  return h;
}

int main(int argc, char **argv) {
  int n = argc * (1 << 20);
  float *h = new float[n], *d;
  cudaMalloc(&d, n * sizeof(float));
  SpanProfile s;
  for (int rep = 0; rep < argc * 10; ++rep) {
    runWithTimer(h, n);
    runWithLazyTimer(h, n);
    dispatch(rep % 2 ? 2 : 4, h, d, n);
    step(h, d, n);
    checkedCycles(d);
    runSeeded(d);
    runPointer(cycles, d);
  }
  profiled(h, d, n);
  spanned(h, d, n, s);
  return 0;
}

// Default: the look-alikes only.
// DEFAULT: hot-path-timed-runs.cu:94:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
// DEFAULT: hot-path-timed-runs.cu:195:5: warning: 'runWithLazyTimer' calls cudaMemcpy{{.*}}[transfer-in-loop]
// DEFAULT: hot-path-timed-runs.cu:197:5: warning: 'step' calls cudaMemcpy{{.*}}[transfer-in-loop]
// DEFAULT: hot-path-timed-runs.cu:199:5: warning: 'runSeeded' calls cudaMemcpy{{.*}}[transfer-in-loop]
// DEFAULT: hot-path-timed-runs.cu:200:5: warning: 'runPointer' calls cudaMemcpy{{.*}}[transfer-in-loop]
//
// COLD-DAG: hot-path-timed-runs.cu:194:5: note: 'runWithTimer' calls cudaMemcpy{{.*}}[transfer-in-loop]
// COLD-DAG: note: off the hot path: repeats 'runWithTimer', which times one run itself (lines 46-49): each iteration is a whole timed run
// COLD-DAG: hot-path-timed-runs.cu:196:5: note: 'dispatch' calls cudaMemcpy{{.*}}[transfer-in-loop]
// COLD-DAG: note: off the hot path: repeats 'dispatch', which times one run itself (in 'runStages', lines 104-106): each iteration is a whole timed run
// COLD-DAG: hot-path-timed-runs.cu:198:5: note: 'checkedCycles' calls cudaMemcpy{{.*}}[transfer-in-loop]
// COLD-DAG: note: off the hot path: repeats 'checkedCycles', which times one run itself (in 'runCycles', its kernel 'cycles' reads the GPU's clock at the start and the end of what it measures): each iteration is a whole timed run
// COLD-DAG: hot-path-timed-runs.cu:86:5: note: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
// COLD-DAG: note: off the hot path: after the timed region (lines 81-84): verification or clean-up
