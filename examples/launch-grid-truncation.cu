// launch-grid-truncation: `n / threads` blocks leave the last n % threads
// elements unprocessed whenever n is not a multiple of the block size; the
// result is silently wrong rather than slow.
//
//   bad:   grid = n / threads, kernel without a bounds check
//   fixed: grid = (n + threads - 1) / threads, kernel with `if (i < n)`
//
// Usage: launch-grid-truncation [bad|fixed]   (no argument: both)
#include <cuda_runtime.h>

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

constexpr int N = (1 << 24) + 77; // Not a multiple of the block size.
constexpr int Repeats = 20;

__global__ void scale_truncated(const float *in, float *out, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * factor;
}

__global__ void scale_bounded(const float *in, float *out, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * factor;
}

static float elapsed(cudaEvent_t start, cudaEvent_t stop) {
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  return ms;
}

/// Milliseconds for Repeats launches after one warm-up launch.
static float runBad(const float *in, float *out, int n, cudaEvent_t start, cudaEvent_t stop) {
  const int threads = 256;
  const int grid = n / threads;
  scale_truncated<<<grid, threads>>>(in, out, 3.0f);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(start));
  for (int r = 0; r < Repeats; ++r)
    scale_truncated<<<grid, threads>>>(in, out, 3.0f);
  CUDA_CHECK(cudaEventRecord(stop));
  return elapsed(start, stop);
}

static float runFixed(const float *in, float *out, int n, cudaEvent_t start, cudaEvent_t stop) {
  const int threads = 256;
  const int grid = (n + threads - 1) / threads;
  scale_bounded<<<grid, threads>>>(in, out, 3.0f, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(start));
  for (int r = 0; r < Repeats; ++r)
    scale_bounded<<<grid, threads>>>(in, out, 3.0f, n);
  CUDA_CHECK(cudaEventRecord(stop));
  return elapsed(start, stop);
}

/// Elements of out that do not hold 3 * in.
static int unprocessed(const std::vector<float> &in, const float *devOut) {
  std::vector<float> out(in.size());
  CUDA_CHECK(cudaMemcpy(out.data(), devOut, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int missing = 0;
  for (size_t i = 0; i < in.size(); ++i)
    if (out[i] != in[i] * 3.0f)
      ++missing;
  return missing;
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
    host[i] = 1.0f + static_cast<float>(i % 100);
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, N * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(in, host.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));

  int rc = 0;
  if (doBad) {
    CUDA_CHECK(cudaMemset(out, 0, N * sizeof(float)));
    float ms = runBad(in, out, N, start, stop);
    int missing = unprocessed(host, out);
    std::printf("bad: %d of %d elements left unprocessed\n", missing, N);
    std::printf("bad: %.3f ms\n", ms);
  }
  if (doFixed) {
    CUDA_CHECK(cudaMemset(out, 0, N * sizeof(float)));
    float ms = runFixed(in, out, N, start, stop);
    int missing = unprocessed(host, out);
    std::printf("fixed: %d of %d elements left unprocessed\n", missing, N);
    std::printf("fixed: %.3f ms\n", ms);
    if (missing != 0)
      rc = 1;
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  return rc;
}
