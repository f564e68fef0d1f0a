// access-shared-bank-conflict: a tiled transpose whose 32x32 shared-memory
// tile is read down a column: tile[threadIdx.x][...] puts the 32 lanes of a
// warp 32 floats apart, all in one bank, so every read is replayed 32 times.
//
//   bad:   transpose_smem_conflicted: __shared__ float tile[32][32]
//   fixed: transpose_smem_padded:     __shared__ float tile[32][33] (one
//          column of padding moves each row to the next bank)
//
// Usage: access-shared-bank-conflict [bad|fixed]   (no argument: both)
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

constexpr int Width = 4096, Height = 4096; // 64 MiB per matrix.
constexpr int Tile = 32, BlockRows = 8;
constexpr int Repeats = 50;

__global__ void transpose_smem_conflicted(const float *in, float *out, int width, int height) {
  __shared__ float tile[Tile][Tile];
  int x = blockIdx.x * Tile + threadIdx.x;
  int y = blockIdx.y * Tile + threadIdx.y;
  for (int j = 0; j < Tile; j += BlockRows)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * Tile + threadIdx.x;
  y = blockIdx.x * Tile + threadIdx.y;
  for (int j = 0; j < Tile; j += BlockRows)
    if (x < height && y + j < width)
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_smem_padded(const float *in, float *out, int width, int height) {
  __shared__ float tile[Tile][Tile + 1];
  int x = blockIdx.x * Tile + threadIdx.x;
  int y = blockIdx.y * Tile + threadIdx.y;
  for (int j = 0; j < Tile; j += BlockRows)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * Tile + threadIdx.x;
  y = blockIdx.x * Tile + threadIdx.y;
  for (int j = 0; j < Tile; j += BlockRows)
    if (x < height && y + j < width)
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

/// Milliseconds for Repeats transposes (CUDA events), after one warm-up launch.
static float runBad(const float *in, float *out) {
  dim3 block(Tile, BlockRows);
  dim3 grid(Width / Tile, Height / Tile);
  transpose_smem_conflicted<<<grid, block>>>(in, out, Width, Height);
  CUDA_CHECK(cudaGetLastError());
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));
  for (int r = 0; r < Repeats; ++r)
    transpose_smem_conflicted<<<grid, block>>>(in, out, Width, Height);
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return ms;
}

static float runFixed(const float *in, float *out) {
  dim3 block(Tile, BlockRows);
  dim3 grid(Width / Tile, Height / Tile);
  transpose_smem_padded<<<grid, block>>>(in, out, Width, Height);
  CUDA_CHECK(cudaGetLastError());
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));
  for (int r = 0; r < Repeats; ++r)
    transpose_smem_padded<<<grid, block>>>(in, out, Width, Height);
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return ms;
}

static bool verify(const std::vector<float> &in, float *devOut) {
  std::vector<float> out(in.size());
  CUDA_CHECK(cudaMemcpy(out.data(), devOut, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int y = 0; y < Height; ++y)
    for (int x = 0; x < Width; ++x)
      if (out[static_cast<size_t>(x) * Height + y] != in[static_cast<size_t>(y) * Width + x]) {
        std::fprintf(stderr, "mismatch at (%d, %d)\n", x, y);
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
  const size_t elems = static_cast<size_t>(Width) * Height;
  std::vector<float> host(elems);
  for (size_t i = 0; i < elems; ++i)
    host[i] = static_cast<float>(i % 65536);
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, elems * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, elems * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(in, host.data(), elems * sizeof(float), cudaMemcpyHostToDevice));

  bool ok = true;
  if (doBad) {
    float ms = runBad(in, out);
    ok &= verify(host, out);
    std::printf("bad: %.3f ms\n", ms);
  }
  if (doFixed) {
    CUDA_CHECK(cudaMemset(out, 0, elems * sizeof(float)));
    float ms = runFixed(in, out);
    ok &= verify(host, out);
    std::printf("fixed: %.3f ms\n", ms);
  }
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  return ok ? 0 : 1;
}
