// access-shared-bank-conflict under a guard on threadIdx.x:
// - `if (threadIdx.x < 8)` (or `if (tid >= 8) return;`) lets only the first
//   8 lanes take part: the degree counts those lanes, not the array's size
//   (a 32-word stride over 8 lanes is 8-way, not 32-way);
// - such a step that one warp of each block runs once (the guard keeps
//   threadIdx.x below 32, no loop is around it, the kernel never reads
//   threadIdx.y: a radix sort's spine step) costs a few wavefronts per
//   block: a note off the hot path, shown with --show-cold;
// - look-alikes that stay findings: the same guarded access inside a loop,
//   in a 2D kernel (the guard leaves lanes running in every warp), under a
//   guard of 64 threads (two full warps), and a guard that does not bound
//   threadIdx.x (`if (threadIdx.x > 8)`).
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,access-shared-bank-conflict' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:' --implicit-check-not='note: off the hot path'
// RUN: %expect-exit 1 %cuda-advisor --sort=location --show-cold --checks='-*,access-shared-bank-conflict' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>

__global__ void spine(const unsigned *in, unsigned *out) {
  __shared__ unsigned hist[8 * 32 * 8];
  hist[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  // COLD: :[[@LINE+3]]:5: note: 8-way shared-memory bank conflict on 'hist': consecutive threads are 32 4-byte words apart (only threadIdx.x < 8 runs it), so 8 lanes hit the same bank and the access takes 8 shared-memory wavefronts instead of 1
  // COLD: note: off the hot path: one warp of each block makes this access, once (a guard keeps threadIdx.x below 8 and no loop is around it): at most 7 extra shared-memory wavefronts per block
  if (threadIdx.x < 8)
    hist[threadIdx.x * 32] += hist[threadIdx.x * 32 + 1];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = hist[threadIdx.x];
}

__global__ void spineReturn(const unsigned *in, unsigned *out) {
  __shared__ unsigned hist[32 * 32];
  unsigned tid = threadIdx.x;
  if (tid >= 16)
    return;
  // COLD: :[[@LINE+1]]:3: note: 16-way shared-memory bank conflict on 'hist': consecutive threads are 32 4-byte words apart (only threadIdx.x < 16 runs it)
  hist[tid * 32] = in[blockIdx.x * 16 + tid];
  out[blockIdx.x * 16 + tid] = hist[tid * 32 + 1];
}

__global__ void spineInLoop(const unsigned *in, unsigned *out, int chunks) {
  __shared__ unsigned hist[32 * 32];
  for (int c = 0; c < chunks; ++c) {
    // DEFAULT: :[[@LINE+2]]:7: warning: 8-way shared-memory bank conflict on 'hist': consecutive threads are 32 4-byte words apart (only threadIdx.x < 8 runs it)
    if (threadIdx.x < 8)
      hist[threadIdx.x * 32] += in[c * 8 + threadIdx.x];
    __syncthreads();
  }
  out[threadIdx.x] = hist[threadIdx.x];
}

__global__ void guarded2D(const float *in, float *out, int n) {
  __shared__ float tile[8][32 * 32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * n + threadIdx.x];
  __syncthreads();
  // DEFAULT: :[[@LINE+2]]:5: warning: 8-way shared-memory bank conflict on 'tile'
  if (threadIdx.x < 8)
    tile[threadIdx.y][threadIdx.x * 32] = 0.0f;
  __syncthreads();
  out[threadIdx.y * n + threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}

__global__ void twoWarps(unsigned *out) {
  __shared__ unsigned hist[64 * 32];
  // DEFAULT: :[[@LINE+2]]:5: warning: 32-way shared-memory bank conflict on 'hist'
  if (threadIdx.x < 64)
    hist[threadIdx.x * 32] = 0;
  __syncthreads();
  out[threadIdx.x] = hist[threadIdx.x];
}

__global__ void lowerBound(unsigned *out) {
  __shared__ unsigned hist[32 * 32];
  // DEFAULT: :[[@LINE+2]]:5: warning: 32-way shared-memory bank conflict on 'hist'
  if (threadIdx.x > 8)
    hist[threadIdx.x * 32] = 0;
  __syncthreads();
  out[threadIdx.x] = hist[threadIdx.x];
}
