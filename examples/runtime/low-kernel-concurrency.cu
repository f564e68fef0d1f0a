// low-kernel-concurrency (runtime-low-kernel-concurrency): 64 independent
// small problems, each a kernel of 4 blocks, queued on one stream: each runs
// alone on 4 of the GPU's SMs (132 on an H200) while the next one waits.
// Launched round robin on 16 streams, they share the GPU.
//
//   bad:   64 launches of small_problem<<<4, 256>>> on one stream
//   fixed: the same launches on 16 streams
//
// Usage: low-kernel-concurrency [bad|fixed]   (no argument: both)
#include <cuda_runtime.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CUDA_CHECK(call)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                    \
                   cudaGetErrorString(err_));                                                      \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

constexpr int NumProblems = 64;
constexpr int NumStreams = 16;
constexpr int Blocks = 4;
constexpr int Threads = 256;
constexpr int ProblemElems = Blocks * Threads;
constexpr int Repeats = 10;

// A small, compute-bound problem: a few tens of microseconds on 4 SMs.
__global__ void small_problem(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i];
  float acc = 0.0f;
  for (int k = 0; k < 4096; ++k)
    acc = fmaf(acc, 0.999f, sinf(x + 0.001f * k));
  out[i] = acc;
}

static double milliseconds(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
}

static double run(cudaStream_t *streams, int numStreams, const float *in, float *out) {
  double best = 1e30;
  for (int rep = 0; rep <= Repeats; ++rep) { // rep 0 is the warm-up.
    auto start = std::chrono::steady_clock::now();
    for (int p = 0; p < NumProblems; ++p) {
      size_t offset = static_cast<size_t>(p) * ProblemElems;
      small_problem<<<Blocks, Threads, 0, streams[p % numStreams]>>>(in + offset, out + offset);
      CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    double ms = milliseconds(start);
    if (rep > 0 && ms < best)
      best = ms;
  }
  return best;
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
  cudaStream_t streams[NumStreams];
  for (cudaStream_t &s : streams)
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const size_t bytes = static_cast<size_t>(NumProblems) * ProblemElems * sizeof(float);
  float *host = static_cast<float *>(std::malloc(bytes));
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, bytes));
  CUDA_CHECK(cudaMalloc(&out, bytes));
  for (int i = 0; i < NumProblems * ProblemElems; ++i)
    host[i] = static_cast<float>(i % 1000) / 1000.0f;
  CUDA_CHECK(cudaMemcpy(in, host, bytes, cudaMemcpyHostToDevice));

  float badSum = 0.0f, fixedSum = 0.0f;
  if (doBad) {
    std::printf("bad: %.3f ms\n", run(streams, 1, in, out));
    CUDA_CHECK(cudaMemcpy(host, out, bytes, cudaMemcpyDeviceToHost));
    badSum = host[777] + host[NumProblems * ProblemElems - 1];
  }
  if (doFixed) {
    std::printf("fixed: %.3f ms\n", run(streams, NumStreams, in, out));
    CUDA_CHECK(cudaMemcpy(host, out, bytes, cudaMemcpyDeviceToHost));
    fixedSum = host[777] + host[NumProblems * ProblemElems - 1];
  }
  int rc = 0;
  if (doBad && doFixed && std::fabs(badSum - fixedSum) > 1e-3f * std::fabs(badSum)) {
    std::fprintf(stderr, "results differ: %f vs %f\n", badSum, fixedSum);
    rc = 1;
  }
  for (cudaStream_t s : streams)
    CUDA_CHECK(cudaStreamDestroy(s));
  std::free(host);
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  return rc;
}
