// transfer-in-loop: the seed's pattern. Every iteration copies the same,
// loop-invariant host buffer to the GPU, runs one element-wise kernel and
// copies the result back, so the GPU mostly waits for PCIe.
//
//   bad:   100 x (cudaMemcpy H2D of 4 MiB, scale_by_two, cudaMemcpy D2H)
//   fixed: cudaMemcpy H2D once, 100 x scale_by_two, cudaMemcpy D2H once
//
// Usage: transfer-in-loop [bad|fixed]   (no argument: both)
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

constexpr int N = 1 << 20; // 1M floats = 4 MiB.
constexpr int Iterations = 100;
constexpr int Threads = 256;

__global__ void scale_by_two(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
}

static double milliseconds(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
}

static double runBad(const float *hostIn, float *hostOut, float *devIn, float *devOut) {
  const size_t bytes = N * sizeof(float);
  const int blocks = (N + Threads - 1) / Threads;
  auto start = std::chrono::steady_clock::now();
  for (int iter = 0; iter < Iterations; ++iter) {
    CUDA_CHECK(cudaMemcpy(devIn, hostIn, bytes, cudaMemcpyHostToDevice));
    scale_by_two<<<blocks, Threads>>>(devIn, devOut, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hostOut, devOut, bytes, cudaMemcpyDeviceToHost));
  }
  return milliseconds(start);
}

static double runFixed(const float *hostIn, float *hostOut, float *devIn, float *devOut) {
  const size_t bytes = N * sizeof(float);
  const int blocks = (N + Threads - 1) / Threads;
  auto start = std::chrono::steady_clock::now();
  CUDA_CHECK(cudaMemcpy(devIn, hostIn, bytes, cudaMemcpyHostToDevice));
  for (int iter = 0; iter < Iterations; ++iter) {
    scale_by_two<<<blocks, Threads>>>(devIn, devOut, N);
    CUDA_CHECK(cudaGetLastError());
  }
  CUDA_CHECK(cudaMemcpy(hostOut, devOut, bytes, cudaMemcpyDeviceToHost));
  return milliseconds(start);
}

static bool verify(const std::vector<float> &in, const std::vector<float> &out) {
  for (int i = 0; i < N; ++i)
    if (std::fabs(out[i] - in[i] * 2.0f) > 1e-6f) {
      std::fprintf(stderr, "mismatch at %d: %f != %f\n", i, out[i], in[i] * 2.0f);
      return false;
    }
  return true;
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
  std::vector<float> hostIn(N), hostOut(N);
  for (int i = 0; i < N; ++i)
    hostIn[i] = static_cast<float>(i % 1000) * 0.001f;
  float *devIn = nullptr, *devOut = nullptr;
  CUDA_CHECK(cudaMalloc(&devIn, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&devOut, N * sizeof(float)));

  // Warm-up: context creation, module loading, first-touch of the buffers.
  CUDA_CHECK(cudaMemcpy(devIn, hostIn.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  scale_by_two<<<(N + Threads - 1) / Threads, Threads>>>(devIn, devOut, N);
  CUDA_CHECK(cudaMemcpy(hostOut.data(), devOut, N * sizeof(float), cudaMemcpyDeviceToHost));

  bool ok = true;
  if (doBad) {
    double ms = runBad(hostIn.data(), hostOut.data(), devIn, devOut);
    ok &= verify(hostIn, hostOut);
    std::printf("bad: %.3f ms\n", ms);
  }
  if (doFixed) {
    std::fill(hostOut.begin(), hostOut.end(), 0.0f);
    double ms = runFixed(hostIn.data(), hostOut.data(), devIn, devOut);
    ok &= verify(hostIn, hostOut);
    std::printf("fixed: %.3f ms\n", ms);
  }
  CUDA_CHECK(cudaFree(devIn));
  CUDA_CHECK(cudaFree(devOut));
  return ok ? 0 : 1;
}
