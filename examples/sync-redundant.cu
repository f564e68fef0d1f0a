// sync-redundant: cudaDeviceSynchronize right before a blocking cudaMemcpy.
// The copy waits for the preceding work on its stream anyway; the extra
// synchronization adds a round trip (and waits for all streams) every step.
//
//   bad:   300 steps of (partial_sums, cudaDeviceSynchronize, cudaMemcpy D2H)
//   fixed: the same steps without the cudaDeviceSynchronize
//
// Usage: sync-redundant [bad|fixed]   (no argument: both)
#include <cuda_runtime.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CUDA_CHECK(call)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                    \
                   cudaGetErrorString(err_));                                                      \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

constexpr int N = 1 << 22; // 4M floats = 16 MiB.
constexpr int Blocks = 1024, Threads = 256;
constexpr int Steps = 300;

/// One partial sum per block (grid-stride loop, shared-memory tree).
__global__ void partial_sums(const float *in, float *partial, int n, float scale) {
  __shared__ float sums[Threads];
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    s += in[i] * scale;
  sums[threadIdx.x] = s;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      sums[threadIdx.x] += sums[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = sums[0];
}

static double milliseconds(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
}

static double runBad(const float *in, float *partial, std::vector<float> &hostPartial,
                     double *total) {
  auto start = std::chrono::steady_clock::now();
  double sum = 0.0;
  for (int step = 0; step < Steps; ++step) {
    partial_sums<<<Blocks, Threads>>>(in, partial, N, 1.0f + step * 1e-3f);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(hostPartial.data(), partial, Blocks * sizeof(float),
                          cudaMemcpyDeviceToHost));
    for (float p : hostPartial)
      sum += p;
  }
  *total = sum;
  return milliseconds(start);
}

static double runFixed(const float *in, float *partial, std::vector<float> &hostPartial,
                       double *total) {
  auto start = std::chrono::steady_clock::now();
  double sum = 0.0;
  for (int step = 0; step < Steps; ++step) {
    partial_sums<<<Blocks, Threads>>>(in, partial, N, 1.0f + step * 1e-3f);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hostPartial.data(), partial, Blocks * sizeof(float),
                          cudaMemcpyDeviceToHost));
    for (float p : hostPartial)
      sum += p;
  }
  *total = sum;
  return milliseconds(start);
}

int main(int argc, char **argv) {
  bool doBad = true, doFixed = true;
  if (argc > 1) {
    doBad = std::strcmp(argv[1], "bad") == 0;
    doFixed = std::strcmp(argv[1], "fixed") == 0;
    if (!doBad && !doFixed) {
      std::fprintf(stderr, "usage: %s [bad|fixed]\n", argv[0]);
      return 2;
    }
  }
  std::vector<float> host(N, 0.5f), hostPartial(Blocks);
  float *in = nullptr, *partial = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&partial, Blocks * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(in, host.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  // Warm-up launch and copy.
  partial_sums<<<Blocks, Threads>>>(in, partial, N, 1.0f);
  CUDA_CHECK(cudaMemcpy(hostPartial.data(), partial, Blocks * sizeof(float),
                        cudaMemcpyDeviceToHost));

  double badTotal = 0.0, fixedTotal = 0.0;
  if (doBad)
    std::printf("bad: %.3f ms\n", runBad(in, partial, hostPartial, &badTotal));
  if (doFixed)
    std::printf("fixed: %.3f ms\n", runFixed(in, partial, hostPartial, &fixedTotal));
  int rc = 0;
  if (doBad && doFixed && std::fabs(badTotal - fixedTotal) > 1e-6 * std::fabs(badTotal)) {
    std::fprintf(stderr, "results differ: %f vs %f\n", badTotal, fixedTotal);
    rc = 1;
  }
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(partial));
  return rc;
}
