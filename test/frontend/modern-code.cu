// Constructs of current CUDA code that must parse, with a toolkit and with
// the bundled declarations alike: launch bounds, dynamic shared memory,
// managed and constant memory, inline PTX, half precision, warp intrinsics,
// extended lambdas, occupancy and attribute APIs, cudaLaunchKernel, graphs,
// cooperative launches, 3D copies, unified memory.
//
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %cuda-advisor --device-pass --checks='-*,transfer-in-loop' %s -- -x cuda \
// RUN:   -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,transfer-in-loop' %s -- -x cuda \
// RUN:   -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --device-pass --checks='-*,transfer-in-loop' \
// RUN:   %s -- -x cuda -std=c++17 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// REQUIRES: cuda

#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

__constant__ float weights[16];
__managed__ int counter;

template <typename T> struct Pair {
  T a, b;
  __host__ __device__ T sum() const { return a + b; }
};

__device__ __forceinline__ unsigned laneId() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

__global__ void __launch_bounds__(256, 2) dynamicShared(const float *__restrict__ in,
                                                        float *__restrict__ out, int n) {
  extern __shared__ float smem[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  smem[threadIdx.x] = i < n ? __ldg(&in[i]) * weights[threadIdx.x % 16] : 0.0f;
  __syncthreads();
  float v = smem[threadIdx.x];
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, off);
  unsigned mask = __ballot_sync(__activemask(), v > 0.0f);
  if (laneId() == 0 && i < n) {
    out[i / 32] = v + __popc(mask) + Pair<float>{v, 1.0f}.sum();
    atomicAdd(&counter, 1);
  }
}

__global__ void coop(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    x[i] = sqrtf(fabsf(x[i])) + __expf(x[i]) + fminf(x[i], 1.0f);
}

template <typename F> __global__ void apply(F f, float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = f(x[i]);
}

void host(float *d, const float *h, int n, cudaStream_t stream) {
  int minGrid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, dynamicShared, 0, 0);
  cudaFuncSetAttribute(dynamicShared, cudaFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024);
  dynamicShared<<<(n + 255) / 256, 256, 256 * sizeof(float), stream>>>(d, d, n);
  void *args[] = {&d, &n};
  cudaLaunchKernel((const void *)coop, dim3(64), dim3(256), args, 0, stream);
  cudaLaunchCooperativeKernel((void *)coop, dim3(64), dim3(256), args, 0, stream);
  float scale = 3.0f;
  apply<<<(n + 255) / 256, 256>>>([=] __device__(float v) { return v * scale; }, d, n);

  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  coop<<<64, 256, 0, stream>>>(d, n);
  cudaStreamEndCapture(stream, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  for (int step = 0; step < 10; ++step)
    cudaGraphLaunch(exec, stream);

  cudaPitchedPtr pitched;
  cudaExtent extent = make_cudaExtent(64 * sizeof(float), 64, 64);
  cudaMalloc3D(&pitched, extent);
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr((void *)h, 64 * sizeof(float), 64, 64);
  p.dstPtr = pitched;
  p.extent = extent;
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);

  float *managed;
  cudaMallocManaged(&managed, n * sizeof(float));
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  cudaMemPrefetchAsync(managed, n * sizeof(float), loc, 0, stream);
  cudaMemcpyToSymbol(weights, h, 16 * sizeof(float));

  for (int step = 0; step < 4; ++step)
    // CHECK: modern-code.cu:[[@LINE+1]]:5: warning: {{.*}}[transfer-in-loop]
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, stream);
  if (cudaStreamSynchronize(stream) != cudaSuccess || cudaGetLastError() != CUDA_SUCCESS)
    std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
