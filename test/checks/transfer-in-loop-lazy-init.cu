// A lazy initialization, `static T *p = NULL; if (!p) cudaMalloc(&p, n);`,
// runs once per run of the program, however often the code around it runs:
// a helper that flushes the L2 cache between timed runs allocates its
// scratch buffer on the first call only (PMPP's benchmark.cu). The same in
// the loop itself, with a global. Look-alikes keep their findings: a local
// pointer tested for null (a new one on every call), a static pointer that
// the helper frees and resets each time (by assignment, or through a `T *&`
// parameter), a global that another function resets, a test that does not
// write the pointer, and the helper's copy outside the guard.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cstdio>
#include <cuda_runtime.h>

__global__ void work(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

void clearL2(size_t bytes) {
  static unsigned char *scratch = NULL;
  if (!scratch)
    cudaMalloc(&scratch, bytes);
  cudaMemset(scratch, 0, bytes);
}

float *g_buffer = nullptr;

void scratchEveryCall(size_t bytes) {
  unsigned char *scratch = NULL;
  if (scratch == NULL)
    cudaMalloc(&scratch, bytes);
  cudaMemset(scratch, 0, bytes);
  cudaFree(scratch);
}

void reallocEveryCall(size_t bytes) {
  static unsigned char *scratch = NULL;
  if (scratch == nullptr)
    cudaMalloc(&scratch, bytes);
  cudaMemset(scratch, 0, bytes);
  cudaFree(scratch);
  scratch = NULL;
}

void reportMissing(const float *p) {
  static int misses = 0;
  if (!p) {
    float h;
    cudaMemcpy(&h, p, sizeof h, cudaMemcpyDeviceToHost);
    ++misses;
  }
}

template <class T> void safeCudaFree(T *&p) {
  cudaFree(p);
  p = nullptr;
}

// A reset through a reference parameter (SAFE_FREE) every call.
void scratchSafeFree(size_t bytes) {
  static unsigned char *scratch = nullptr;
  if (!scratch)
    cudaMalloc(&scratch, bytes);
  cudaMemset(scratch, 0, bytes);
  safeCudaFree(scratch);
}

// A global acquired and released by two functions, both called every step.
float *g_work = nullptr;
void acquireWork(size_t bytes) {
  if (!g_work)
    cudaMalloc(&g_work, bytes);
}
void releaseWork() {
  cudaFree(g_work);
  g_work = nullptr;
}

void uploadCached(float *h, size_t bytes) {
  static float *d = nullptr;
  if (!d)
    cudaMalloc(&d, bytes);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
}

int main(int argc, char **argv) {
  int n = 1 << 20;
  float *d, *h = new float[n];
  cudaMalloc(&d, n * sizeof(float));
  for (int r = 0; r < argc + 100; ++r) {
    clearL2(64 << 20);
    if (g_buffer == NULL)
      cudaMalloc(&g_buffer, n * sizeof(float));
    work<<<n / 256, 256>>>(d, n);
    // CHECK: transfer-in-loop-lazy-init.cu:[[@LINE+1]]:5: warning: 'scratchEveryCall' calls cudaMalloc and runs on every iteration
    scratchEveryCall(64 << 20);
    // CHECK: transfer-in-loop-lazy-init.cu:[[@LINE+1]]:5: warning: 'reallocEveryCall' calls cudaMalloc and runs on every iteration
    reallocEveryCall(64 << 20);
    // CHECK: transfer-in-loop-lazy-init.cu:[[@LINE+1]]:5: warning: 'reportMissing' calls cudaMemcpy and runs on every iteration
    reportMissing(d);
    // CHECK: transfer-in-loop-lazy-init.cu:[[@LINE+1]]:5: warning: 'scratchSafeFree' calls cudaMalloc and runs on every iteration
    scratchSafeFree(64 << 20);
    // CHECK: transfer-in-loop-lazy-init.cu:[[@LINE+1]]:5: warning: 'acquireWork' calls cudaMalloc and runs on every iteration
    acquireWork(64 << 20);
    // CHECK: transfer-in-loop-lazy-init.cu:[[@LINE+1]]:5: warning: 'releaseWork' calls cudaFree and runs on every iteration
    releaseWork();
    // CHECK: transfer-in-loop-lazy-init.cu:[[@LINE+1]]:5: warning: 'uploadCached' calls cudaMemcpy and runs on every iteration
    uploadCached(h, n * sizeof(float));
  }
  cudaDeviceSynchronize();
  std::printf("%f\n", h[0]);
  return 0;
}
