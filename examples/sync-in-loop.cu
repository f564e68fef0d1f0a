// sync-in-loop: a cudaDeviceSynchronize after every launch of a loop of short
// kernels makes the CPU wait for each one, so the next launch is only queued
// after the GPU went idle: the GPU spends the launch latency doing nothing,
// every step.
//
//   bad:   1000 steps of (relax_step, cudaDeviceSynchronize)
//   fixed: 1000 steps of relax_step, one cudaDeviceSynchronize after the loop
//          (kernels on one stream run in order anyway)
//
// Usage: sync-in-loop [bad|fixed]   (no argument: both)
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

constexpr int N = 1 << 20; // 1M floats: each step runs a few microseconds.
constexpr int Steps = 1000;
constexpr int Threads = 256;

/// One Jacobi-style relaxation step: out = average of in's neighbours.
__global__ void relax_step(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= 0 || i >= n - 1)
    return;
  out[i] = 0.5f * in[i] + 0.25f * (in[i - 1] + in[i + 1]);
}

static double milliseconds(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
}

static double runBad(float *a, float *b) {
  const int blocks = (N + Threads - 1) / Threads;
  auto start = std::chrono::steady_clock::now();
  for (int step = 0; step < Steps; ++step) {
    relax_step<<<blocks, Threads>>>(a, b, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::swap(a, b);
  }
  return milliseconds(start);
}

static double runFixed(float *a, float *b) {
  const int blocks = (N + Threads - 1) / Threads;
  auto start = std::chrono::steady_clock::now();
  for (int step = 0; step < Steps; ++step) {
    relax_step<<<blocks, Threads>>>(a, b, N);
    CUDA_CHECK(cudaGetLastError());
    std::swap(a, b);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  return milliseconds(start);
}

static void reset(float *a, float *b, const std::vector<float> &host) {
  CUDA_CHECK(cudaMemcpy(a, host.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(b, host.data(), N * sizeof(float), cudaMemcpyHostToDevice));
}

static float probe(const float *a) {
  float v = 0.0f;
  CUDA_CHECK(cudaMemcpy(&v, a + N / 2, sizeof(float), cudaMemcpyDeviceToHost));
  return v;
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
  std::vector<float> host(N);
  for (int i = 0; i < N; ++i)
    host[i] = (i % 2) ? 1.0f : 0.0f;
  float *a = nullptr, *b = nullptr;
  CUDA_CHECK(cudaMalloc(&a, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b, N * sizeof(float)));
  // Warm-up launch: module loading and the first launch are not part of the loop.
  reset(a, b, host);
  relax_step<<<(N + Threads - 1) / Threads, Threads>>>(a, b, N);
  CUDA_CHECK(cudaDeviceSynchronize());

  // Steps is even, so after the loop the result is in a again.
  float badValue = 0.0f, fixedValue = 0.0f;
  if (doBad) {
    reset(a, b, host);
    double ms = runBad(a, b);
    badValue = probe(a);
    std::printf("bad: %.3f ms\n", ms);
  }
  if (doFixed) {
    reset(a, b, host);
    double ms = runFixed(a, b);
    fixedValue = probe(a);
    std::printf("fixed: %.3f ms\n", ms);
  }
  int rc = 0;
  if (doBad && doFixed && std::fabs(badValue - fixedValue) > 1e-6f) {
    std::fprintf(stderr, "results differ: %f vs %f\n", badValue, fixedValue);
    rc = 1;
  }
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
  return rc;
}
