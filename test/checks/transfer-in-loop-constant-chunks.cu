// A loop that uploads another part of the data into a __constant__ symbol
// on each iteration (Programming Massively Parallel Processors, chapter 18:
// atoms in chunks of constant memory) cannot hoist or overlap the uploads:
// constant memory holds one chunk at a time, which the next launch reads.
// A note off the hot path. Look-alikes keep the warning: the same data
// uploaded into constant memory on every iteration (hoist it), and chunks
// copied into a device buffer (overlap them on streams).
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>

#define CHUNK 1024
__constant__ float atoms[CHUNK * 4];

__global__ void scatter(float *grid, const float *a, int n, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int k = 0; k < count; ++k)
      grid[i] += atoms[4 * k] + (a ? a[k] : 0.0f);
}

void constantChunks(float *grid, int n, const float *host, int numatoms) {
  for (int start = 0; start < numatoms; start += CHUNK) {
    int count = numatoms - start < CHUNK ? numatoms - start : CHUNK;
    cudaMemcpyToSymbol(atoms, &host[start * 4], count * 4 * sizeof(float));
    scatter<<<(n + 255) / 256, 256>>>(grid, nullptr, n, count);
  }
}
// COLD: transfer-in-loop-constant-chunks.cu:[[@LINE-4]]:5: note: cudaMemcpyToSymbol runs on every iteration
// COLD: note: off the hot path: each iteration uploads another part of the data into the __constant__ symbol 'atoms', which the next launch reads: constant memory holds one chunk at a time, so the uploads can neither leave the loop nor overlap the kernel that reads the previous one

void sameConstants(float *grid, int n, const float *host, int steps) {
  for (int s = 0; s < steps; ++s) {
    cudaMemcpyToSymbol(atoms, host, CHUNK * 4 * sizeof(float));
    scatter<<<(n + 255) / 256, 256>>>(grid, nullptr, n, CHUNK);
  }
}
// CHECK: transfer-in-loop-constant-chunks.cu:[[@LINE-4]]:5: warning: cudaMemcpyToSymbol runs on every iteration

void deviceChunks(float *grid, float *d, int n, const float *host, int numatoms) {
  for (int start = 0; start < numatoms; start += CHUNK) {
    int count = numatoms - start < CHUNK ? numatoms - start : CHUNK;
    cudaMemcpy(d, &host[start], count * sizeof(float), cudaMemcpyHostToDevice);
    scatter<<<(n + 255) / 256, 256>>>(grid, d, n, count);
  }
}
// CHECK: transfer-in-loop-constant-chunks.cu:[[@LINE-4]]:5: warning: cudaMemcpy runs on every iteration{{.*}}each iteration copies different data

int main() {
  const int n = 1 << 20, numatoms = 1 << 16;
  float *grid, *d, *h = new float[4 * numatoms];
  cudaMalloc(&grid, n * sizeof(float));
  cudaMalloc(&d, CHUNK * sizeof(float));
  constantChunks(grid, n, h, numatoms);
  sameConstants(grid, n, h, 100);
  deviceChunks(grid, d, n, h, numatoms);
  return 0;
}
