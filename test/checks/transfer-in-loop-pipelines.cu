// transfer-in-loop: a copy pipeline unrolled by hand over two or more streams
// (each iteration copies two chunks, one on each stream, next to the kernels
// that use them) is already the overlapped form of its copies: not reported.
// The same loop on one stream (its copies wait for each other's kernels), or
// with the two chunks on one stream, is reported.
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>

constexpr int N = 1 << 20, FULL = 20 * N;

__global__ void kernel(const int *a, int *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) c[i] = a[i] + 1;
}

void twoStreams(int *h, int *d0, int *d1, int *c0, int *c1) {
  cudaStream_t s0, s1;
  cudaStreamCreate(&s0);
  cudaStreamCreate(&s1);
  for (int i = 0; i < FULL; i += 2 * N) {
    cudaMemcpyAsync(d0, h + i, N * sizeof(int), cudaMemcpyHostToDevice, s0);
    cudaMemcpyAsync(d1, h + i + N, N * sizeof(int), cudaMemcpyHostToDevice, s1);
    kernel<<<N / 256, 256, 0, s0>>>(d0, c0);
    kernel<<<N / 256, 256, 0, s1>>>(d1, c1);
    cudaMemcpyAsync(h + i, c0, N * sizeof(int), cudaMemcpyDeviceToHost, s0);
    cudaMemcpyAsync(h + i + N, c1, N * sizeof(int), cudaMemcpyDeviceToHost, s1);
  }
  cudaStreamSynchronize(s0);
  cudaStreamSynchronize(s1);
}

void oneStream(int *h, int *d0, int *c0) {
  cudaStream_t s0;
  cudaStreamCreate(&s0);
  for (int i = 0; i < FULL; i += N) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpyAsync runs on every iteration
    cudaMemcpyAsync(d0, h + i, N * sizeof(int), cudaMemcpyHostToDevice, s0);
    kernel<<<N / 256, 256, 0, s0>>>(d0, c0);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpyAsync runs on every iteration
    cudaMemcpyAsync(h + i, c0, N * sizeof(int), cudaMemcpyDeviceToHost, s0);
  }
  cudaStreamSynchronize(s0);
}

void twoChunksOneStream(int *h, int *d0, int *d1, int *c0, int *c1) {
  cudaStream_t s0;
  cudaStreamCreate(&s0);
  for (int i = 0; i < FULL; i += 2 * N) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpyAsync runs on every iteration
    cudaMemcpyAsync(d0, h + i, N * sizeof(int), cudaMemcpyHostToDevice, s0);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpyAsync runs on every iteration
    cudaMemcpyAsync(d1, h + i + N, N * sizeof(int), cudaMemcpyHostToDevice, s0);
    kernel<<<N / 256, 256, 0, s0>>>(d0, c0);
    kernel<<<N / 256, 256, 0, s0>>>(d1, c1);
  }
  cudaStreamSynchronize(s0);
}
