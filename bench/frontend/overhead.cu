// The translation unit bench/frontend-overhead.sh analyzes: what a source
// file of a real CUDA project looks like (the runtime API, cooperative
// groups, Thrust and CUB, the C++ standard library, several kernels and a
// host driver with loops, streams and events), with findings for most checks.
#include <cooperative_groups.h>
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK_CUDA(call)                                                                     \
  do {                                                                                       \
    cudaError_t err_ = (call);                                                               \
    if (err_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));     \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

constexpr int Block = 256;
constexpr int Tile = 32;

struct Particle {
  float x, y, z, mass;
};

__global__ void saxpy(float a, const float *__restrict__ x, float *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void scaleByTwo(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = v[i] * 2.0;
}

__global__ void addOne(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += 1.0f;
}

__global__ void stencil2d(const float *in, float *out, int w, int h) {
  __shared__ float tile[Tile][Tile];
  int x = blockIdx.x * Tile + threadIdx.x, y = blockIdx.y * Tile + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  if (x > 0 && y > 0 && x < w - 1 && y < h - 1 && threadIdx.x > 0 && threadIdx.y > 0 &&
      threadIdx.x < Tile - 1 && threadIdx.y < Tile - 1)
    out[y * w + x] = 0.25f * (tile[threadIdx.y][threadIdx.x - 1] +
                              tile[threadIdx.y][threadIdx.x + 1] +
                              tile[threadIdx.y - 1][threadIdx.x] +
                              tile[threadIdx.y + 1][threadIdx.x]);
}

__global__ void transposeNaive(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n)
    out[x * n + y] = in[y * n + x];
}

__global__ void gravity(Particle *p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float fx = 0, fy = 0, fz = 0;
  for (int j = 0; j < n; ++j) {
    float dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z;
    float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-9f);
    float s = p[j].mass * inv * inv * inv;
    fx += dx * s;
    fy += dy * s;
    fz += dz * s;
  }
  p[i].x += fx * dt;
  p[i].y += fy * dt;
  p[i].z += fz * dt;
}

__global__ void blockSum(const float *in, float *out, int n) {
  typedef cub::BlockReduce<float, Block> Reduce;
  __shared__ typename Reduce::TempStorage temp;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  float s = Reduce(temp).Sum(v);
  if (threadIdx.x == 0)
    atomicAdd(out, s);
}

__global__ void warpSum(const float *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int off = warp.size() / 2; off > 0; off /= 2)
    v += warp.shfl_down(v, off);
  if (warp.thread_rank() == 0)
    atomicAdd(out, v);
}

template <typename T> __global__ void fill(T *v, T value, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v[i] = value;
}

struct Square {
  __host__ __device__ float operator()(float x) const { return x * x; }
};

class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t n) : N(n) { CHECK_CUDA(cudaMalloc(&Ptr, n * sizeof(float))); }
  ~DeviceBuffer() { cudaFree(Ptr); }
  float *get() const { return Ptr; }
  size_t size() const { return N; }
  void upload(const std::vector<float> &h) {
    CHECK_CUDA(cudaMemcpy(Ptr, h.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  }

private:
  float *Ptr = nullptr;
  size_t N;
};

static float thrustNorm(const std::vector<float> &h) {
  thrust::device_vector<float> d(h.begin(), h.end());
  thrust::transform(d.begin(), d.end(), d.begin(), Square());
  thrust::sort(d.begin(), d.end());
  return std::sqrt(thrust::reduce(d.begin(), d.end(), 0.0f));
}

static void timeStep(DeviceBuffer &x, DeviceBuffer &y, const std::vector<float> &hx, int steps) {
  int n = static_cast<int>(x.size());
  cudaStream_t stream;
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  cudaEventRecord(start, stream);
  for (int s = 0; s < steps; ++s) {
    x.upload(hx);
    saxpy<<<n / Block, Block, 0, stream>>>(2.0f, x.get(), y.get(), n);
    scaleByTwo<<<(n + 99) / 100, 100, 0, stream>>>(y.get(), n);
    addOne<<<(n + Block - 1) / Block, Block, 0, stream>>>(y.get(), n);
    cudaDeviceSynchronize();
  }
  cudaEventRecord(stop, stream);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  std::printf("%d steps: %.3f ms\n", steps, ms);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : (1 << 20);
  int w = 1024, h = 1024;
  std::vector<float> hx(n), hy(n);
  std::iota(hx.begin(), hx.end(), 0.0f);
  std::fill(hy.begin(), hy.end(), 1.0f);
  DeviceBuffer x(n), y(n);
  y.upload(hy);
  timeStep(x, y, hx, 100);

  float *img, *out, *sum;
  CHECK_CUDA(cudaMalloc(&img, w * h * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, w * h * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&sum, sizeof(float)));
  dim3 tiles(w / Tile, h / Tile), threads(Tile, Tile);
  stencil2d<<<tiles, threads>>>(img, out, w, h);
  dim3 small(16, 16);
  transposeNaive<<<dim3((w + 15) / 16, (h + 15) / 16), small>>>(img, out, w);
  blockSum<<<(n + Block - 1) / Block, Block>>>(x.get(), sum, n);
  warpSum<<<(n + Block - 1) / Block, Block>>>(x.get(), sum, n);
  fill<<<128, Block>>>(out, 0.0f, w * h);

  std::vector<Particle> ps(4096, Particle{1, 2, 3, 1});
  Particle *dp;
  CHECK_CUDA(cudaMalloc(&dp, ps.size() * sizeof(Particle)));
  for (int frame = 0; frame < 60; ++frame) {
    cudaMemcpy(dp, ps.data(), ps.size() * sizeof(Particle), cudaMemcpyHostToDevice);
    gravity<<<(4096 + 127) / 128, 128>>>(dp, 4096, 0.01f);
    cudaMemcpy(ps.data(), dp, ps.size() * sizeof(Particle), cudaMemcpyDeviceToHost);
  }
  float result = 0;
  cudaMemcpy(&result, sum, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("sum %f norm %f\n", result, thrustNorm(hx));
  cudaFree(img);
  cudaFree(out);
  cudaFree(sum);
  cudaFree(dp);
  return 0;
}
