// access-shared-bank-conflict and CUDA vector types: the fields of one
// element of a double2 or float4 (a struct of one scalar type aligned to its
// size) that a thread accesses together, covering the element
// (`s[t].x += s[t + i].x; s[t].y += s[t + i].y;`), are one vector access:
// nvcc merges them (ld.shared.v2.f64), and a 16-byte access per lane at a
// 16-byte stride is served a quarter-warp at a time without conflict.
// Look-alikes that stay findings: only .x of a double2 (an 8-byte access at
// a 16-byte stride: 2-way), and all four fields of a float4 at a stride of
// two elements (16-byte accesses 32 bytes apart: 2-way).
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,access-shared-bank-conflict' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>

__global__ void reduceComplex(const double2 *in, double2 *out) {
  extern __shared__ double2 sdata[];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned i = blockDim.x / 2; i > 0; i >>= 1) {
    if (tid < i) {
      sdata[tid].x += sdata[tid + i].x;
      sdata[tid].y += sdata[tid + i].y;
    }
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void realParts(const double2 *in, double *out) {
  __shared__ double2 s[256];
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE+1]]:45: warning: 2-way shared-memory bank conflict on 's': consecutive threads are 4 4-byte words apart with 8-byte elements
  out[blockIdx.x * 256 + threadIdx.x] = 2 * s[threadIdx.x].x;
}

__global__ void everyOtherFloat4(const float4 *in, float4 *out) {
  __shared__ float4 s[512];
  s[threadIdx.x] = in[threadIdx.x];
  s[threadIdx.x + 256] = in[threadIdx.x + 256];
  __syncthreads();
  float4 r;
  // CHECK: :[[@LINE+1]]:9: warning: 2-way shared-memory bank conflict on 's': consecutive threads are 8 4-byte words apart with 16-byte elements
  r.x = s[2 * threadIdx.x].x;
  r.y = s[2 * threadIdx.x].y;
  r.z = s[2 * threadIdx.x].z;
  r.w = s[2 * threadIdx.x].w;
  out[threadIdx.x] = r;
}
