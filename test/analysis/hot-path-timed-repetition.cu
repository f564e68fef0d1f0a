// A loop whose body times only part of each iteration (a benchmark's
// repetitions: upload, start the clock, run, stop it, read back) leaves its
// set-up and checks out of what it measures: the copies before the first and
// after the last timing call in the body are notes; a copy between them is a
// finding. Look-alikes: the clock around the whole loop (the seed's pattern),
// a body timed from its first to its last statement, and a body whose untimed
// part launches kernels (a solver loop after a timed first step: the
// program's work, whatever the clock measures) keep every copy.
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --sort=location --show-cold --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <chrono>
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2;
}

constexpr int N = 1 << 20;
static float Host[N], Out[N], Table[256];

double timedKernelOnly(float *d, float *table, int repeats) {
  double total = 0;
  for (int r = 0; r < repeats; ++r) {
    // COLD: :[[@LINE+1]]:5: note: cudaMemcpy runs on every iteration
    cudaMemcpy(d, Host, sizeof(Host), cudaMemcpyHostToDevice);
    auto start = std::chrono::steady_clock::now();
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(table, Table, sizeof(Table), cudaMemcpyHostToDevice);
    scale<<<N / 256, 256>>>(d, N);
    cudaDeviceSynchronize();
    auto stop = std::chrono::steady_clock::now();
    total += std::chrono::duration<double>(stop - start).count();
    // COLD: :[[@LINE+1]]:5: note: cudaMemcpy runs on every iteration
    cudaMemcpy(Out, d, sizeof(Out), cudaMemcpyDeviceToHost);
  }
  return total;
}
// COLD: note: off the hot path: in the loop at line 28, which times only lines 31-36 of each repetition: the rest is its set-up or check

double timedWholeLoop(float *d, int repeats) {
  auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repeats; ++r) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(d, Host, sizeof(Host), cudaMemcpyHostToDevice);
    scale<<<N / 256, 256>>>(d, N);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(Out, d, sizeof(Out), cudaMemcpyDeviceToHost);
  }
  auto stop = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(stop - start).count();
}

double timedWholeBody(float *d, int repeats) {
  double total = 0;
  for (int r = 0; r < repeats; ++r) {
    auto start = std::chrono::steady_clock::now();
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(d, Host, sizeof(Host), cudaMemcpyHostToDevice);
    scale<<<N / 256, 256>>>(d, N);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(Out, d, sizeof(Out), cudaMemcpyDeviceToHost);
    auto stop = std::chrono::steady_clock::now();
    total += std::chrono::duration<double>(stop - start).count();
  }
  return total;
}

double timedFirstStepOnly(float *d, int repeats, int steps) {
  double total = 0;
  for (int r = 0; r < repeats; ++r) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(d, Host, sizeof(Host), cudaMemcpyHostToDevice);
    auto start = std::chrono::steady_clock::now();
    scale<<<N / 256, 256>>>(d, N);
    cudaDeviceSynchronize();
    auto stop = std::chrono::steady_clock::now();
    total += std::chrono::duration<double>(stop - start).count();
    for (int s = 0; s < steps; ++s)
      scale<<<N / 256, 256>>>(d, N);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(Out, d, sizeof(Out), cudaMemcpyDeviceToHost);
  }
  return total;
}
