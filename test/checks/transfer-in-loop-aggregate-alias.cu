// transfer-in-loop: the host reaching a buffer through a pointer field of a
// local aggregate (`Bodies p = {(float4 *)buf, (float4 *)buf + n};` then
// `p.pos[i].x += ...`) reads and writes that buffer: the copy back is no
// hoisting candidate. A look-alike whose fields point elsewhere, or whose
// field is assigned another buffer later, leaves the copy's buffer
// untouched by the host: hoist it.
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <cstdlib>

struct Bodies { float4 *pos, *vel; };

__global__ void force(float4 *p, float4 *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i].x += p[i].x;
}

void simulate(int n, int steps) {
  size_t bytes = 2 * n * sizeof(float4);
  float *buf = (float *)malloc(bytes);
  Bodies p = {(float4 *)buf, ((float4 *)buf) + n};
  float *d_buf;
  cudaMalloc(&d_buf, bytes);
  Bodies d_p = {(float4 *)d_buf, ((float4 *)d_buf) + n};
  for (int s = 0; s < steps; ++s) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}the host writes the source in the loop
    cudaMemcpy(d_buf, buf, bytes, cudaMemcpyHostToDevice);
    force<<<(n + 255) / 256, 256>>>(d_p.pos, d_p.vel, n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}the host reads the result in the loop
    cudaMemcpy(buf, d_buf, bytes, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i)
      p.pos[i].x += p.vel[i].x * 0.01f;
  }
  free(buf);
  cudaFree(d_buf);
}

void lookAlike(int n, int steps) {
  size_t bytes = 2 * n * sizeof(float4);
  float *buf = (float *)malloc(bytes), *other = (float *)malloc(bytes);
  Bodies q = {(float4 *)other, ((float4 *)other) + n};
  Bodies r = {(float4 *)buf, ((float4 *)buf) + n};
  r.pos = (float4 *)other; // No longer buf's.
  float *d_buf;
  cudaMalloc(&d_buf, bytes);
  for (int s = 0; s < steps; ++s) {
    force<<<(n + 255) / 256, 256>>>((float4 *)d_buf, (float4 *)d_buf + n, n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}hoist it after the loop
    cudaMemcpy(buf, d_buf, bytes, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) {
      q.pos[i].x += q.vel[i].x * 0.01f;
      r.pos[i].x += 1.0f;
    }
  }
  free(buf);
  free(other);
  cudaFree(d_buf);
}
