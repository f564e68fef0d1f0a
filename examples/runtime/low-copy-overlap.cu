// low-copy-overlap (runtime-low-copy-overlap): copies between pinned host
// memory and the GPU, and kernels, all queued on one stream: each chunk's
// upload waits behind the previous chunk's kernel and each kernel behind the
// previous chunk's download, although none needs the other. The GPU's copy
// engines run beside its SMs when the work is on separate streams.
//
//   bad:   8 chunks of 8 MiB (H2D, kernel, D2H each) on one stream, pinned
//   fixed: the same chunks round robin on 4 streams
//
// Usage: low-copy-overlap [bad|fixed]   (no argument: both)
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

constexpr int NumStreams = 4;
constexpr int NumChunks = 8;
constexpr int ChunkElems = 2 << 20; // 2M floats = 8 MiB per chunk, 64 MiB in all.
constexpr int TotalElems = NumChunks * ChunkElems;
constexpr int Repeats = 5;
constexpr int Threads = 256;

// About as long per chunk as the chunk's copies: the case where overlapping
// them pays.
__global__ void overlap_compute(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i];
  float acc = 0.0f;
  for (int k = 0; k < 64; ++k)
    acc = fmaf(acc, 0.5f, sinf(x + 0.01f * k));
  out[i] = acc;
}

static double milliseconds(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
}

// One pass over the chunks, chunk c on streams[c % numStreams].
static double run(cudaStream_t *streams, int numStreams, const float *hostIn, float *hostOut,
                  float *devIn, float *devOut) {
  const size_t chunkBytes = ChunkElems * sizeof(float);
  double best = 1e30;
  for (int rep = 0; rep <= Repeats; ++rep) { // rep 0 is the warm-up.
    auto start = std::chrono::steady_clock::now();
    for (int c = 0; c < NumChunks; ++c) {
      cudaStream_t s = streams[c % numStreams];
      size_t offset = static_cast<size_t>(c) * ChunkElems;
      CUDA_CHECK(cudaMemcpyAsync(devIn + offset, hostIn + offset, chunkBytes,
                                 cudaMemcpyHostToDevice, s));
      overlap_compute<<<(ChunkElems + Threads - 1) / Threads, Threads, 0, s>>>(
          devIn + offset, devOut + offset, ChunkElems);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemcpyAsync(hostOut + offset, devOut + offset, chunkBytes,
                                 cudaMemcpyDeviceToHost, s));
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
  float *hostIn = nullptr, *hostOut = nullptr, *devIn = nullptr, *devOut = nullptr;
  CUDA_CHECK(cudaMallocHost(&hostIn, TotalElems * sizeof(float)));
  CUDA_CHECK(cudaMallocHost(&hostOut, TotalElems * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&devIn, TotalElems * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&devOut, TotalElems * sizeof(float)));
  for (int i = 0; i < TotalElems; ++i)
    hostIn[i] = static_cast<float>(i % 4096) / 4096.0f;

  float badSum = 0.0f, fixedSum = 0.0f;
  if (doBad) {
    std::printf("bad: %.3f ms\n", run(streams, 1, hostIn, hostOut, devIn, devOut));
    badSum = hostOut[12345] + hostOut[TotalElems - 1];
  }
  if (doFixed) {
    std::printf("fixed: %.3f ms\n", run(streams, NumStreams, hostIn, hostOut, devIn, devOut));
    fixedSum = hostOut[12345] + hostOut[TotalElems - 1];
  }
  int rc = 0;
  if (doBad && doFixed && std::fabs(badSum - fixedSum) > 1e-3f * std::fabs(badSum)) {
    std::fprintf(stderr, "results differ: %f vs %f\n", badSum, fixedSum);
    rc = 1;
  }
  for (cudaStream_t s : streams)
    CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFreeHost(hostIn));
  CUDA_CHECK(cudaFreeHost(hostOut));
  CUDA_CHECK(cudaFree(devIn));
  CUDA_CHECK(cudaFree(devOut));
  return rc;
}
