// The headers of the CUDA installation parse with no error: cooperative
// groups, Thrust, CUB and libcu++ (CUDA 13 moved them to include/cccl, which
// nvcc adds by itself), the half/bfloat16 types, WMMA, cuRAND's device API,
// texture objects. The analysis still runs (one finding at the end).
//
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %cuda-advisor --device-pass --checks='-*,transfer-in-loop' %s -- -x cuda \
// RUN:   -std=c++17 --cuda-gpu-arch=sm_80 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
//
// How the installation is used: cccl added, the stand-in only for the header
// CUDA 13 lacks and only behind the real directories, the version warning off.
// RUN: %expect-exit 1 %cuda-advisor --verbose --checks='-*,transfer-in-loop' %s -- -x cuda \
// RUN:   2>&1 | FileCheck %s --check-prefix=ARGS
// REQUIRES: cuda

// ARGS: host parse: {{.*}} -Wno-unknown-cuda-version
// ARGS-SAME: -isystem {{[^ ]*}}/include/cccl
// ARGS-SAME: -idirafter {{[^ ]*}}/stand-ins/texture_fetch_functions
// ARGS-NOT: stand-ins/texture_indirect_functions
// ARGS-NOT: -isystem {{[^ ]*}}stand-ins

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/cub.cuh>
#include <cuda/std/atomic>
#include <cuda/std/type_traits>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <mma.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>

namespace cg = cooperative_groups;

__global__ void reduceKernel(const float *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0)
    atomicAdd(out, v);
}

__global__ void blockSum(const int *in, int *out) {
  typedef cub::BlockReduce<int, 128> Reduce;
  __shared__ typename Reduce::TempStorage temp;
  int s = Reduce(temp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0)
    *out = s;
}

__global__ void halves(__half *h, __nv_bfloat16 *b, cudaTextureObject_t tex, curandState *st) {
  int i = threadIdx.x;
  h[i] = __hadd(h[i], __float2half(1.0f));
  b[i] = __float2bfloat16(tex1Dfetch<float>(tex, i) + curand_uniform(&st[i]));
  static_assert(cuda::std::is_same<cuda::std::remove_cv_t<const int>, int>::value, "");
}

__global__ void wmma(const __half *a, const __half *b, float *c) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

struct Square {
  __host__ __device__ float operator()(float x) const { return x * x; }
};

float thrustPart(int n) {
  thrust::host_vector<float> h(n, 1.0f);
  thrust::device_vector<float> d = h;
  thrust::transform(d.begin(), d.end(), d.begin(), Square());
  return thrust::reduce(d.begin(), d.end());
}

void stepLoop(float *dev, const float *host, int steps) {
  for (int s = 0; s < steps; ++s)
    // CHECK: cuda-headers.cu:[[@LINE+1]]:5: warning: {{.*}}[transfer-in-loop]
    cudaMemcpy(dev, host, 1024, cudaMemcpyHostToDevice);
}
