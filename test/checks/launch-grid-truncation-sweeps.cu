// launch-grid-truncation in a benchmark that times each launch of a sweep:
// sizes over powers of two from 2^10 (`N = 1 << j`, j counting up from 10)
// with blocks of 256, or with a block size doubled from 1 to 1024. Every
// block then divides every size and nothing is dropped: no finding.
// Look-alikes keep it: sizes from 2^4 with blocks of 256 (16 elements give a
// grid of 0 blocks), blocks doubled up to 2048 over sizes from 2^10, and a
// block that a call may change.
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,launch-grid-truncation' %s -- -x cuda \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <cstdio>

__global__ void add(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1;
}

static float timed(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  cudaEventSynchronize(b);
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

void clampBlock(int &block);

void powerSweeps(float *d, cudaEvent_t a, cudaEvent_t b) {
  for (int j = 10; j <= 23; j++) {
    int N = 1 << j;
    cudaEventRecord(a);
    add<<<N / 256, 256>>>(d, N);
    cudaEventRecord(b);
    printf("%d %f\n", N, timed(a, b));
  }
  for (int k = 1; k <= 1 << 10; k = k << 1)
    for (int j = 10; j <= 23; j++) {
      int N = 1 << j;
      cudaEventRecord(a);
      add<<<N / k, k>>>(d, N);
      cudaEventRecord(b);
      printf("%d %d %f\n", k, N, timed(a, b));
    }
  for (int j = 4; j <= 23; j++) {
    int N = 1 << j;
    cudaEventRecord(a);
    // CHECK: :[[@LINE+1]]:11: warning: grid of N / 256 blocks drops the last N % 256 elements
    add<<<N / 256, 256>>>(d, N);
    cudaEventRecord(b);
    printf("%d %f\n", N, timed(a, b));
  }
  for (int k = 1; k <= 2048; k *= 2)
    for (int j = 10; j <= 23; j++) {
      int N = 1 << j;
      cudaEventRecord(a);
      // CHECK: :[[@LINE+1]]:13: warning: grid of N / k blocks drops the last N % k elements
      add<<<N / k, k>>>(d, N);
      cudaEventRecord(b);
      printf("%d %d %f\n", k, N, timed(a, b));
    }
  // The doubled block also passed to a function that may change it.
  for (int k = 32; k <= 1024; k *= 2)
    for (int j = 10; j <= 23; j++) {
      int N = 1 << j;
      clampBlock(k);
      cudaEventRecord(a);
      // CHECK: :[[@LINE+1]]:13: warning: grid of N / k blocks drops the last N % k elements
      add<<<N / k, k>>>(d, N);
      cudaEventRecord(b);
      printf("%d %d %f\n", k, N, timed(a, b));
    }
}
