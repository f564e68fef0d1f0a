// launch-block-size: block shapes that waste the hardware. A row-major image
// read by (16,16) blocks gives each warp two 64-byte row pieces, and (8,32)
// blocks four 32-byte pieces, where (32,8) gives one 128-byte row; a block of
// 250 threads leaves 6 lanes of its last warp idle.
//
//   bad:   blur3x3 launched with dim3(16,16) and dim3(8,32); axpy with 250
//          threads per block
//   fixed: blur3x3 launched twice with dim3(32,8); axpy with 256 threads
//
// Usage: launch-block-size [bad|fixed]   (no argument: both)
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

constexpr int Width = 4096, Height = 4096; // 64 MiB image.
constexpr int VectorElems = 1 << 24;       // 16M floats = 64 MiB.
constexpr int Repeats = 20;

__global__ void blur3x3(const float *in, float *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x <= 0 || y <= 0 || x >= width - 1 || y >= height - 1)
    return;
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      sum += in[(y + dy) * width + (x + dx)];
  out[y * width + x] = sum * (1.0f / 9.0f);
}

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

static dim3 gridFor(dim3 block) {
  return dim3((Width + block.x - 1) / block.x, (Height + block.y - 1) / block.y);
}

struct Buffers {
  float *image, *blurred, *x, *y;
};

static float elapsed(cudaEvent_t start, cudaEvent_t stop) {
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  return ms;
}

/// Milliseconds for Repeats rounds of (two blurs, one axpy), after a warm-up
/// round.
static float runBad(const Buffers &b, cudaEvent_t start, cudaEvent_t stop) {
  dim3 square(16, 16), tall(8, 32);
  const int threads = 250;
  const int blocks = (VectorElems + threads - 1) / threads;
  for (int r = 0; r <= Repeats; ++r) {
    if (r == 1)
      CUDA_CHECK(cudaEventRecord(start));
    blur3x3<<<gridFor(square), square>>>(b.image, b.blurred, Width, Height);
    blur3x3<<<gridFor(tall), tall>>>(b.image, b.blurred, Width, Height);
    axpy<<<blocks, threads>>>(0.5f, b.x, b.y, VectorElems);
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop));
  return elapsed(start, stop);
}

static float runFixed(const Buffers &b, cudaEvent_t start, cudaEvent_t stop) {
  dim3 wide(32, 8);
  const int threads = 256;
  const int blocks = (VectorElems + threads - 1) / threads;
  for (int r = 0; r <= Repeats; ++r) {
    if (r == 1)
      CUDA_CHECK(cudaEventRecord(start));
    blur3x3<<<gridFor(wide), wide>>>(b.image, b.blurred, Width, Height);
    blur3x3<<<gridFor(wide), wide>>>(b.image, b.blurred, Width, Height);
    axpy<<<blocks, threads>>>(0.5f, b.x, b.y, VectorElems);
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop));
  return elapsed(start, stop);
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
  const size_t pixels = static_cast<size_t>(Width) * Height;
  std::vector<float> host(pixels);
  for (size_t i = 0; i < pixels; ++i)
    host[i] = static_cast<float>(i % 255);
  Buffers b{};
  CUDA_CHECK(cudaMalloc(&b.image, pixels * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b.blurred, pixels * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b.x, VectorElems * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b.y, VectorElems * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(b.image, host.data(), pixels * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(b.x, 0, VectorElems * sizeof(float)));
  CUDA_CHECK(cudaMemset(b.y, 0, VectorElems * sizeof(float)));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));

  bool ok = true;
  auto check = [&] {
    // One interior pixel: the mean of its 3x3 neighbourhood.
    const int x = 1000, y = 777;
    float expect = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        expect += host[static_cast<size_t>(y + dy) * Width + (x + dx)];
    expect /= 9.0f;
    float got = 0.0f;
    CUDA_CHECK(cudaMemcpy(&got, b.blurred + static_cast<size_t>(y) * Width + x, sizeof(float),
                          cudaMemcpyDeviceToHost));
    if (std::fabs(got - expect) > 1e-3f) {
      std::fprintf(stderr, "blur mismatch: %f != %f\n", got, expect);
      ok = false;
    }
  };
  if (doBad) {
    float ms = runBad(b, start, stop);
    check();
    std::printf("bad: %.3f ms\n", ms);
  }
  if (doFixed) {
    CUDA_CHECK(cudaMemset(b.blurred, 0, pixels * sizeof(float)));
    float ms = runFixed(b, start, stop);
    check();
    std::printf("fixed: %.3f ms\n", ms);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  for (float *p : {b.image, b.blurred, b.x, b.y})
    CUDA_CHECK(cudaFree(p));
  return ok ? 0 : 1;
}
