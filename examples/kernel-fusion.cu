// kernel-fusion: the seed's step1/step2/step3 (x*2, x+1, x*x) as three
// element-wise kernels launched back to back on one stream over the same
// index and grid. Each one reads and writes the whole 64 MiB array, so the
// chain moves three times the bytes that one fused kernel moves, and pays
// three launches.
//
//   bad:   step1 -> step2 -> step3, passing the buffer from one to the next
//   fixed: fused_steps, which does all three in registers
//
// Usage: kernel-fusion [bad|fixed]   (no argument: both)
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
constexpr int Repeats = 20;

__global__ void step1(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
}

__global__ void step2(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + 1.0f;
}

__global__ void step3(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * in[i];
}

__global__ void fused_steps(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = in[i] * 2.0f;
    x = x + 1.0f;
    out[i] = x * x;
  }
}

static float elapsed(cudaEvent_t start, cudaEvent_t stop) {
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  return ms;
}

/// Milliseconds for Repeats passes after one warm-up pass.
static float runBad(const float *x, float *tmp1, float *tmp2, float *y, cudaEvent_t start,
                    cudaEvent_t stop) {
  const int blocks = (N + Threads - 1) / Threads;
  for (int r = 0; r <= Repeats; ++r) {
    if (r == 1)
      CUDA_CHECK(cudaEventRecord(start));
    step1<<<blocks, Threads>>>(x, tmp1, N);
    step2<<<blocks, Threads>>>(tmp1, tmp2, N);
    step3<<<blocks, Threads>>>(tmp2, y, N);
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop));
  return elapsed(start, stop);
}

static float runFixed(const float *x, float *y, cudaEvent_t start, cudaEvent_t stop) {
  const int blocks = (N + Threads - 1) / Threads;
  for (int r = 0; r <= Repeats; ++r) {
    if (r == 1)
      CUDA_CHECK(cudaEventRecord(start));
    fused_steps<<<blocks, Threads>>>(x, y, N);
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop));
  return elapsed(start, stop);
}

static bool verify(const std::vector<float> &in, const float *devOut) {
  std::vector<float> out(in.size());
  CUDA_CHECK(cudaMemcpy(out.data(), devOut, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < in.size(); i += 997) {
    float e = (in[i] * 2.0f + 1.0f) * (in[i] * 2.0f + 1.0f);
    if (std::fabs(out[i] - e) > 1e-4f * std::fabs(e)) {
      std::fprintf(stderr, "mismatch at %zu: %f != %f\n", i, out[i], e);
      return false;
    }
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
  std::vector<float> host(N);
  for (int i = 0; i < N; ++i)
    host[i] = static_cast<float>(i % 1024) / 1024.0f;
  float *x = nullptr, *tmp1 = nullptr, *tmp2 = nullptr, *y = nullptr;
  for (float **p : {&x, &tmp1, &tmp2, &y})
    CUDA_CHECK(cudaMalloc(p, N * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(x, host.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));

  bool ok = true;
  if (doBad) {
    float ms = runBad(x, tmp1, tmp2, y, start, stop);
    ok &= verify(host, y);
    std::printf("bad: %.3f ms\n", ms);
  }
  if (doFixed) {
    CUDA_CHECK(cudaMemset(y, 0, N * sizeof(float)));
    float ms = runFixed(x, y, start, stop);
    ok &= verify(host, y);
    std::printf("fixed: %.3f ms\n", ms);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  for (float *p : {x, tmp1, tmp2, y})
    CUDA_CHECK(cudaFree(p));
  return ok ? 0 : 1;
}
