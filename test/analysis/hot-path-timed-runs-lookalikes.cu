// Look-alikes of the timed runs of hot-path-timed-runs.cu, each a real
// per-iteration copy that must keep its warning: a step whose kernel waits
// with a clock64() timeout (a spin-wait measures nothing) beside a kernel
// that does not read the clock; a step that uploads through one helper and
// times a kernel in another (no mere forwarder); a density profile walked by
// a range-for after the loop (a container's begin()/end() return pointers);
// a radial profile whose constructor clears its bins through begin()/end();
// scoped timers after the loop whose destructors report (each times its own
// scope, no region from one to the other).
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <stdio.h>
#include <vector>

__global__ void update(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

__global__ void waitFlag(volatile int *flag, long long timeout) {
  long long t0 = clock64();
  while (*flag == 0 && clock64() - t0 < timeout) {}
}
void spinStep(float *h, float *d, int *flag, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  update<<<(n + 255) / 256, 256>>>(d, n);
  waitFlag<<<1, 1>>>(flag, 1000000);
}
void spinning(float *h, float *d, int *flag, int n, int steps) {
  for (int t = 0; t < steps; ++t)
    // CHECK: :[[@LINE+1]]:5: warning: 'spinStep' calls cudaMemcpy{{.*}}[transfer-in-loop]
    spinStep(h, d, flag, n);
}

void upload(float *h, float *d, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
}
float timedKernel(float *d, int n) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  update<<<(n + 255) / 256, 256>>>(d, n);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}
void helperStep(float *h, float *d, int n) {
  upload(h, d, n);
  timedKernel(d, n);
}
void helpers(float *h, float *d, int n, int steps) {
  for (int t = 0; t < steps; ++t)
    // CHECK: :[[@LINE+1]]:5: warning: 'helperStep' calls cudaMemcpy{{.*}}[transfer-in-loop]
    helperStep(h, d, n);
}

struct DensityProfile {
  std::vector<float> bins;
  float *begin() { return bins.data(); }
  float *end() { return bins.data() + bins.size(); }
};
void profiled(float *h, float *d, int n, int steps) {
  DensityProfile prof;
  for (int t = 0; t < steps; ++t) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    update<<<(n + 255) / 256, 256>>>(d, n);
  }
  for (float v : prof)
    printf("%f\n", v);
}

struct RadialProfile {
  float bins[64];
  RadialProfile() { std::fill(begin(), end(), 0.0f); }
  float *begin() { return bins; }
  float *end() { return bins + 64; }
};
void radial(float *h, float *d, int n, int steps) {
  RadialProfile density, velocity;
  for (int t = 0; t < steps; ++t) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    update<<<(n + 255) / 256, 256>>>(d, n);
  }
  printf("%f %f\n", density.bins[0], velocity.bins[0]);
}

struct ScopedTimer {
  const char *Name;
  std::chrono::steady_clock::time_point T0;
  ScopedTimer(const char *N) : Name(N) { T0 = std::chrono::steady_clock::now(); }
  ~ScopedTimer() {
    auto T1 = std::chrono::steady_clock::now();
    printf("%s: %f s\n", Name, std::chrono::duration<double>(T1 - T0).count());
  }
};
void scoped(float *h, float *d, int n, int steps) {
  for (int t = 0; t < steps; ++t) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    update<<<(n + 255) / 256, 256>>>(d, n);
  }
  { ScopedTimer t("download"); cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); }
  { ScopedTimer t("write"); printf("%f\n", h[0]); }
}

int main(int argc, char **argv) {
  int n = argc << 20, steps = 1000 * argc;
  float *h = new float[n], *d;
  int *flag;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&flag, 4);
  spinning(h, d, flag, n, steps);
  helpers(h, d, n, steps);
  profiled(h, d, n, steps);
  radial(h, d, n, steps);
  scoped(h, d, n, steps);
  return 0;
}
