#include <cmproj/saxpy.cuh>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void reduceKernel(const float *x, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float partial[CMPROJ_BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? x[i] : 0.0f;
  block.sync();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int k = 0; k < CMPROJ_BLOCK; ++k)
      s += partial[k];
    atomicAdd(out, s);
  }
}

float blockReduce(const float *x, int n) {
  float *out, result = 0;
  cudaMalloc(&out, sizeof(float));
  cudaMemset(out, 0, sizeof(float));
  reduceKernel<<<(n + CMPROJ_BLOCK - 1) / CMPROJ_BLOCK, CMPROJ_BLOCK>>>(x, out, n);
  cudaMemcpy(&result, out, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(out);
  return result;
}
