// A timed region that makes CUDA calls but launches no kernel (nor calls code
// that does, nor a GPU library) measures those calls: an allocator or
// bandwidth microbenchmark. Its copies and allocations are the measurement,
// off the hot path. Look-alikes stay hot: a timed loop that also launches a
// kernel, directly, through a helper, through cuBLAS, or as a CUDA graph.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <chrono>
#include <stdio.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

constexpr int N = 1 << 20;

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) printf("%d\n", e); } while (0)

static void check(cudaError_t e) {
  if (e != cudaSuccess)
    printf("error %d\n", e);
}

// The allocator's speed is what is timed: cold.
double mallocSpeed(int iterations) {
  void *p;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) {
    // COLD: hot-path-timed-api-only.cu:[[@LINE+3]]:{{[0-9]+}}: note: cudaMalloc allocates on every iteration
    // COLD: note: inside this loop
    // COLD: note: off the hot path: inside the timed region (lines [[@LINE-4]]-{{[0-9]+}}), which launches no kernel: it measures these CUDA calls themselves
    CHECK(cudaMalloc(&p, N));
    // COLD: hot-path-timed-api-only.cu:[[@LINE+1]]:{{[0-9]+}}: note: cudaFree frees memory on every iteration
    CHECK(cudaFree(p));
  }
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

// A bandwidth test with events, through an error-check helper: cold.
float bandwidth(float *d, const float *h, int iterations) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int i = 0; i < iterations; ++i)
    // COLD: hot-path-timed-api-only.cu:[[@LINE+3]]:{{[0-9]+}}: note: cudaMemcpy runs on every iteration
    // COLD: note: inside this loop
    // COLD: note: off the hot path: inside the timed region (lines {{[0-9]+}}-{{[0-9]+}}), which launches no kernel
    check(cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice));
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

void step(float *d) { scale<<<N / 256, 256>>>(d, N); }

// Look-alike: the timed loop copies and launches: hot.
double copyAndLaunch(float *d, const float *h, int iterations) {
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) {
    // DEFAULT: hot-path-timed-api-only.cu:[[@LINE+1]]:{{[0-9]+}}: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<N / 256, 256>>>(d, N);
  }
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

// Look-alike: the kernel is launched by a helper the timed loop calls: hot.
double copyAndStep(float *d, const float *h, int iterations) {
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) {
    // DEFAULT: hot-path-timed-api-only.cu:[[@LINE+1]]:{{[0-9]+}}: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);
    step(d);
  }
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

// Look-alike: a helper defined in another file may launch: hot.
void externalStep(float *d);
double copyAndExternal(float *d, const float *h, int iterations) {
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) {
    // DEFAULT: hot-path-timed-api-only.cu:[[@LINE+1]]:{{[0-9]+}}: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);
    externalStep(d);
  }
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

// Look-alike: the timed loop calls cuBLAS, which launches kernels: hot.
extern "C" int cublasSscal_v2(void *handle, int n, const float *alpha, float *x, int incx);
double copyAndBlas(void *handle, float *d, const float *h, int iterations) {
  const float two = 2.0f;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) {
    // DEFAULT: hot-path-timed-api-only.cu:[[@LINE+1]]:{{[0-9]+}}: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);
    cublasSscal_v2(handle, N, &two, d, 1);
  }
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

// Look-alike: the timed loop launches a CUDA graph (a runtime call that the
// toolkit's header declares, and that queues kernels): hot.
double copyAndGraph(cudaGraphExec_t g, float *d, const float *h, int iterations) {
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) {
    // DEFAULT: hot-path-timed-api-only.cu:[[@LINE+1]]:{{[0-9]+}}: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);
    cudaGraphLaunch(g, 0);
  }
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

int main() {
  float *d, *h = new float[N];
  cudaMalloc(&d, N * sizeof(float));
  printf("%f %f\n", mallocSpeed(100), bandwidth(d, h, 100));
  printf("%f %f %f\n", copyAndLaunch(d, h, 100), copyAndStep(d, h, 100), copyAndExternal(d, h, 100));
  printf("%f %f\n", copyAndBlas(nullptr, d, h, 100), copyAndGraph(nullptr, d, h, 100));
  return 0;
}
