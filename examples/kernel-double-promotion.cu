// kernel-double-promotion: a float kernel that computes in double. `2.5` and
// `0.5` are double literals, so `x * 2.5` and `sqrt(x * 0.5)` are evaluated in
// double precision, and the float result of `exp(x)` is widened to be added
// to them; double arithmetic runs at a fraction of the float rate, and
// sqrt/exp in double are long software sequences.
//
//   bad:   activation_promoted: x * 2.5 + sqrt(x * 0.5) + exp(x)
//   fixed: activation_float:    x * 2.5f + sqrtf(x * 0.5f) + expf(x)
//
// Usage: kernel-double-promotion [bad|fixed]   (no argument: both)
#include <cuda_runtime.h>

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

constexpr int N = 1 << 24; // 16M floats = 64 MiB.
constexpr int Threads = 256;
constexpr int Terms = 16;  // Work per element, so that arithmetic dominates.
constexpr int Repeats = 10;

__global__ void activation_promoted(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i];
  float acc = 0.0f;
  for (int k = 0; k < Terms; ++k) {
    acc += x * 2.5 + sqrt(x * 0.5) + exp(x);
    x = x * 0.9f + 0.01f;
  }
  out[i] = acc;
}

__global__ void activation_float(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i];
  float acc = 0.0f;
  for (int k = 0; k < Terms; ++k) {
    acc += x * 2.5f + sqrtf(x * 0.5f) + expf(x);
    x = x * 0.9f + 0.01f;
  }
  out[i] = acc;
}

static float elapsed(cudaEvent_t start, cudaEvent_t stop) {
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  return ms;
}

/// Milliseconds for Repeats launches after one warm-up launch.
static float runBad(const float *in, float *out, cudaEvent_t start, cudaEvent_t stop) {
  const int blocks = (N + Threads - 1) / Threads;
  activation_promoted<<<blocks, Threads>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(start));
  for (int r = 0; r < Repeats; ++r)
    activation_promoted<<<blocks, Threads>>>(in, out, N);
  CUDA_CHECK(cudaEventRecord(stop));
  return elapsed(start, stop);
}

static float runFixed(const float *in, float *out, cudaEvent_t start, cudaEvent_t stop) {
  const int blocks = (N + Threads - 1) / Threads;
  activation_float<<<blocks, Threads>>>(in, out, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(start));
  for (int r = 0; r < Repeats; ++r)
    activation_float<<<blocks, Threads>>>(in, out, N);
  CUDA_CHECK(cudaEventRecord(stop));
  return elapsed(start, stop);
}

/// Largest relative difference to a host computation in double.
static double maxError(const std::vector<float> &in, const float *devOut) {
  std::vector<float> out(in.size());
  CUDA_CHECK(cudaMemcpy(out.data(), devOut, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  double worst = 0.0;
  for (size_t i = 0; i < in.size(); i += 4099) {
    float x = in[i];
    double acc = 0.0;
    for (int k = 0; k < Terms; ++k) {
      acc += x * 2.5 + std::sqrt(x * 0.5) + std::exp(static_cast<double>(x));
      x = x * 0.9f + 0.01f;
    }
    worst = std::fmax(worst, std::fabs(out[i] - acc) / std::fabs(acc));
  }
  return worst;
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
    host[i] = static_cast<float>(i % 1000) / 1000.0f;
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(in, host.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));

  bool ok = true;
  if (doBad) {
    float ms = runBad(in, out, start, stop);
    ok &= maxError(host, out) < 1e-4;
    std::printf("bad: %.3f ms\n", ms);
  }
  if (doFixed) {
    float ms = runFixed(in, out, start, stop);
    ok &= maxError(host, out) < 1e-4;
    std::printf("fixed: %.3f ms\n", ms);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  return ok ? 0 : 1;
}
