// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,kernel-fusion' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:' --implicit-check-not='error:'
// The bundled CUDA declarations (no toolkit) give the same findings.
// RUN: %expect-exit 1 %cuda-advisor --sort=location --cuda-path=bundled --checks='-*,kernel-fusion' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:' --implicit-check-not='error:'
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,kernel-fusion' --format=json %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=JSON
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                                   \
  do {                                                                                     \
    cudaError_t err_ = (call);                                                             \
    if (err_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s\n", cudaGetErrorString(err_));                              \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

constexpr int N = 1 << 20;
constexpr int Threads = 256;

__global__ void scale(const float *in, float *out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * in[i];
}
__global__ void shift(const float *in, float *out, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + b;
}
__global__ void square(float *x, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n)
    x[i] = x[i] * x[i];
}
__global__ void axpyGridStride(const float *x, float *y, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] += a * x[i];
}
__global__ void reluGridStride(float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = y[i] > 0 ? y[i] : 0;
}
template <typename T>
__global__ void addOne(T *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += T(1);
}
__global__ void image2d(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = in[y * w + x] * 0.5f;
}
__global__ void gamma2d(float *img, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    img[y * w + x] = sqrtf(img[y * w + x]);
}

// Kernels that are not fusable.
__global__ void blur(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3;
}
__global__ void blockSum(const float *in, float *sums) {
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0;
    for (int k = 0; k < 256; ++k)
      t += s[k];
    sums[blockIdx.x] = t;
  }
}
__global__ void accumulate(const float *in, float *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(total, in[i]);
}
__global__ void normalize(const float *in, const float *total, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] / total[0];
}
__global__ void offsetCopy(const float *in, float *out, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + offset;
  out[i] = in[i];
}
__global__ void external(float *x, int n); // Defined in another file.

// ---------------------------------------------------------------- positives

void chain(const float *x, float *tmp, float *y) {
  const int blocks = (N + Threads - 1) / Threads;
  // CHECK: :[[@LINE+1]]:3: warning: 3 element-wise kernels (scale -> shift -> square) run back to back on one stream over the same index and share 'tmp' and 'y' through global memory: one fused kernel saves 2 launches and the write and re-read of each intermediate buffer (16 MiB of memory traffic per pass) [kernel-fusion]
  scale<<<blocks, Threads>>>(x, tmp, 2.0f, N);
  // CHECK: :[[@LINE+1]]:3: note: 'shift' reads 'tmp' written by 'scale'
  shift<<<blocks, Threads>>>(tmp, y, 1.0f, N);
  CUDA_CHECK(cudaGetLastError());
  // CHECK: :[[@LINE+1]]:3: note: 'square' reads 'y' written by 'shift'
  square<<<blocks, Threads>>>(y, N);
}

void onStream(const float *x, float *y, int n, cudaStream_t stream) {
  dim3 grid(120), block(256);
  // CHECK: :[[@LINE+1]]:3: warning: 2 element-wise kernels (axpyGridStride -> reluGridStride) run back to back on one stream over the same index and share 'y' through global memory: one fused kernel saves 1 launch and the write and re-read of each intermediate buffer [kernel-fusion]
  axpyGridStride<<<grid, block, 0, stream>>>(x, y, 3.0f, n);
  reluGridStride<<<grid, block, 0, stream>>>(y, n);
}

void templates(double *v, int n) {
  // CHECK: :[[@LINE+1]]:3: warning: 2 element-wise kernels (addOne -> addOne)
  addOne<<<(n + 127) / 128, 128>>>(v, n);
  addOne<<<(n + 127) / 128, 128>>>(v, n);
}

void images(const float *in, float *out, int w, int h) {
  dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
  // CHECK: :[[@LINE+1]]:3: warning: 2 element-wise kernels (image2d -> gamma2d)
  image2d<<<grid, block>>>(in, out, w, h);
  gamma2d<<<grid, block>>>(out, w, h);
}

// ---------------------------------------------------------------- negatives

void copyBetween(const float *x, float *tmp, float *y, float *host) {
  const int blocks = N / Threads;
  scale<<<blocks, Threads>>>(x, tmp, 2.0f, N);
  cudaMemcpy(host, tmp, N * sizeof(float), cudaMemcpyDeviceToHost);
  shift<<<blocks, Threads>>>(tmp, y, 1.0f, N);
}

void syncBetween(const float *x, float *tmp, float *y) {
  scale<<<N / Threads, Threads>>>(x, tmp, 2.0f, N);
  CUDA_CHECK(cudaDeviceSynchronize());
  shift<<<N / Threads, Threads>>>(tmp, y, 1.0f, N);
}

void hostBranch(const float *x, float *tmp, float *y, const int *flags) {
  scale<<<N / Threads, Threads>>>(x, tmp, 2.0f, N);
  if (flags[0])
    std::printf("flagged\n");
  shift<<<N / Threads, Threads>>>(tmp, y, 1.0f, N);
}

void otherShapes(const float *x, float *tmp, float *y, cudaStream_t s1, cudaStream_t s2) {
  scale<<<N / Threads, Threads>>>(x, tmp, 2.0f, N);
  shift<<<N / 128, 128>>>(tmp, y, 1.0f, N);
  scale<<<N / Threads, Threads, 0, s1>>>(x, tmp, 2.0f, N);
  shift<<<N / Threads, Threads, 0, s2>>>(tmp, y, 1.0f, N);
  scale<<<N / Threads, Threads>>>(x, tmp, 2.0f, N);
  shift<<<N / Threads, Threads, 0, s2>>>(tmp, y, 1.0f, N);
}

void notElementWise(const float *x, float *tmp, float *y, float *sums, float *total) {
  const int blocks = N / Threads;
  scale<<<blocks, Threads>>>(x, tmp, 2.0f, N);
  blur<<<blocks, Threads>>>(tmp, y, N);
  scale<<<blocks, Threads>>>(x, tmp, 2.0f, N);
  blockSum<<<blocks, Threads>>>(tmp, sums);
  scale<<<blocks, Threads>>>(x, tmp, 2.0f, N);
  accumulate<<<blocks, Threads>>>(tmp, total, N);
  normalize<<<blocks, Threads>>>(tmp, total, y, N);
  shift<<<blocks, Threads>>>(x, tmp, 1.0f, N);
  normalize<<<blocks, Threads>>>(x, tmp, y, N); // Reads tmp[0], which every thread of shift wrote.
  scale<<<blocks, Threads>>>(x, tmp, 2.0f, N);
  external<<<blocks, Threads>>>(tmp, N);
  scale<<<blocks, Threads, 1024>>>(x, tmp, 2.0f, N);
  square<<<blocks, Threads>>>(tmp, N);
}

void unrelatedOrShifted(const float *x, float *a, float *b, float *c, int off) {
  const int blocks = N / Threads;
  scale<<<blocks, Threads>>>(x, a, 2.0f, N);
  shift<<<blocks, Threads>>>(b, c, 1.0f, N); // Shares no buffer with the launch before.
  offsetCopy<<<blocks, Threads>>>(c, a, off);
  square<<<blocks, Threads>>>(a, N); // offsetCopy's index is shifted by `off`.
}

__global__ void addPair(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[i] + b[i];
}

__global__ void scale4(const float4 *in, float4 *out, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  out[i] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
}

void views(float *x, float *tmp, float *y) {
  const int blocks = N / Threads;
  // The second kernel reads tmp shifted by one element: thread i needs what
  // thread i + 1 of the first wrote.
  scale<<<blocks, Threads>>>(x, tmp, 2.0f, N);
  addPair<<<blocks, Threads>>>(tmp, tmp + 1, y, N - 1);
  // float4 elements in one kernel, floats in the next: not the same element.
  scale4<<<blocks / 4, Threads>>>((const float4 *)x, (float4 *)tmp, 2.0f);
  scale<<<blocks / 4, Threads>>>(tmp, y, 2.0f, N / 4);
}

// Each thread's result depends on its warp or block: not element-wise.
__global__ void warpSum(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_xor_sync(0xffffffff, v, off);
  out[i] = v;
}
#if __has_include(<cub/block/block_reduce.cuh>)
#include <cub/block/block_reduce.cuh>
__global__ void blockSumBroadcast(const float *in, float *out) {
  typedef cub::BlockReduce<float, 256> Reduce;
  __shared__ typename Reduce::TempStorage temp;
  __shared__ float total;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = Reduce(temp).Sum(in[i]);
  if (threadIdx.x == 0)
    total = s;
  __syncthreads();
  out[i] = in[i] / total;
}
#else
__global__ void blockSumBroadcast(const float *in, float *out) {
  __shared__ float total;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    total = 1;
  __syncthreads();
  out[i] = in[i] / total;
}
#endif

void collectives(float *x, float *tmp, float *y) {
  scale<<<N / Threads, Threads>>>(x, tmp, 2.0f, N);
  warpSum<<<N / Threads, Threads>>>(tmp, y);
  scale<<<N / Threads, Threads>>>(x, tmp, 2.0f, N);
  blockSumBroadcast<<<N / Threads, Threads>>>(tmp, y);
}

void oneLaunchPerIteration(float *y, int steps) {
  for (int s = 0; s < steps; ++s)
    square<<<N / Threads, Threads>>>(y, N);
}

// ------------------------------------------------ real-world style pipelines

// A time-stepping loop: the two launches of one iteration form a chain.
void timeSteps(float *u, float *tmp, const float *alpha, int steps) {
  for (int it = 0; it < steps; ++it) {
    // CHECK: :[[@LINE+1]]:5: warning: 2 element-wise kernels (scale -> shift)
    scale<<<N / Threads, Threads>>>(u, tmp, 0.5f, N);
    shift<<<N / Threads, Threads>>>(tmp, u, 0.25f, N);
    CUDA_CHECK(cudaGetLastError());
  }
}

// A stream pipeline whose stages are separated by copies and events: each
// launch waits for data from the host, nothing to fuse.
void pipeline(const float *hostIn, float *hostOut, float *d, float *e, cudaStream_t s,
              cudaEvent_t done) {
  cudaMemcpyAsync(d, hostIn, N * sizeof(float), cudaMemcpyHostToDevice, s);
  scale<<<N / Threads, Threads, 0, s>>>(d, e, 2.0f, N);
  cudaEventRecord(done, s);
  square<<<N / Threads, Threads, 0, s>>>(e, N);
  cudaMemcpyAsync(hostOut, e, N * sizeof(float), cudaMemcpyDeviceToHost, s);
}

// Normalization: a reduction feeds a scale; not element-wise.
void normalizeAll(float *x, float *y, float *total) {
  cudaMemsetAsync(total, 0, sizeof(float));
  accumulate<<<N / Threads, Threads>>>(x, total, N);
  normalize<<<N / Threads, Threads>>>(x, total, y, N);
}

// JSON: "check": "kernel-fusion",
// JSON-NEXT: "evidence": {
// JSON-NEXT: "intermediateBuffers": [
// JSON-NEXT: {
// JSON-NEXT: "bytes": 4194304,
// JSON-NEXT: "elementBytes": 4,
// JSON-NEXT: "name": "tmp"
// JSON: "name": "y"
// JSON: "intermediateBytes": 16777216,
// JSON-NEXT: "kernels": [
// JSON-NEXT: "scale",
// JSON-NEXT: "shift",
// JSON-NEXT: "square"
// JSON-NEXT: ],
// JSON-NEXT: "launches": 3,
// JSON-NEXT: "launchesSaved": 2,
// JSON-NEXT: "threads": 1048576
// JSON: "callSites": [

// Compute-bound kernels: a loop of arithmetic per element that touches no
// memory (a peak-FLOP benchmark). Fusing them saves no memory traffic.
__global__ void fmaChain(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = in[i], b = 0.5f, c = 0.25f;
  for (int k = 0; k < 4096; ++k) {
    a = a * b + c;
    b = b * a + c;
  }
  out[i] = a + b;
}
void peakFlops(const float *x, float *tmp, float *y) {
  fmaChain<<<N / Threads, Threads>>>(x, tmp, N);
  fmaChain<<<N / Threads, Threads>>>(tmp, y, N);
}

// The same launch twice (a warm-up, then the timed launch): the second one
// recomputes what the first wrote. Timing calls between launches also keep
// them apart.
void warmUp(const float *x, float *y) {
  scale<<<N / Threads, Threads>>>(x, y, 2.0f, N);
  scale<<<N / Threads, Threads>>>(x, y, 2.0f, N);
}
void timedApart(const float *x, float *tmp, float *y) {
  scale<<<N / Threads, Threads>>>(x, tmp, 2.0f, N);
  auto t0 = std::chrono::steady_clock::now();
  shift<<<N / Threads, Threads>>>(tmp, y, 1.0f, N);
  auto t1 = std::chrono::steady_clock::now();
  std::printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}

// Siblings that read the same input back to back (horizontal fusion): one
// kernel reads it once. Siblings reading different inputs share nothing.
__global__ void negate(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = -in[i];
}
void siblings(const float *x, const float *z, float *a, float *b) {
  // CHECK: :[[@LINE+1]]:3: warning: 2 element-wise kernels (scale, negate) run back to back on one stream over the same index and each read 'x' from global memory: one fused kernel saves 1 launch and reads it once instead of twice (4 MiB of memory traffic per pass) [kernel-fusion]
  scale<<<N / Threads, Threads>>>(x, a, 2.0f, N);
  // CHECK: :[[@LINE+1]]:3: note: 'negate' reads 'x' again after 'scale'
  negate<<<N / Threads, Threads>>>(x, b, N);
}
void cousins(const float *x, const float *z, float *a, float *b) {
  scale<<<N / Threads, Threads>>>(x, a, 2.0f, N);
  negate<<<N / Threads, Threads>>>(z, b, N);
}
