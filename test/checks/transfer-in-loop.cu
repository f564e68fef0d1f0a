// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// The bundled CUDA declarations (no toolkit) give the same findings.
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <vector>

__global__ void twice(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

constexpr int N = 1 << 20;
constexpr size_t Bytes = N * sizeof(float);

// The seed's pattern: the same buffer uploaded and downloaded every step.
void seedLoop(float *h, float *d) {
  for (int it = 0; it < 100; ++it) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 MiB copied each time; its source, destination and size do not change in the loop: hoist it out of the loop [transfer-in-loop]
    cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
    // CHECK: :[[@LINE-3]]:3: note: inside this loop
    twice<<<N / 256, 256>>>(d, N);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}hoist it out of the loop [transfer-in-loop]
    cudaMemcpy(h, d, Bytes, cudaMemcpyDeviceToHost);
  }
}

// Different chunks each iteration: still a copy per iteration, no hoisting.
void chunks(const float *h, float *d, int count) {
  int i = 0;
  while (i < count) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpyAsync runs on every iteration of this loop; 4 KiB copied each time [transfer-in-loop]
    cudaMemcpyAsync(d + i * 1024, h + i * 1024, 1024 * sizeof(float), cudaMemcpyHostToDevice);
    ++i;
  }
}

// Allocations, frees and memsets per iteration.
void scratch(int steps, size_t bytes) {
  for (int s = 0; s < steps; ++s) {
    float *tmp;
    // CHECK: :[[@LINE+1]]:5: warning: cudaMalloc allocates on every iteration of this loop; allocate once before the loop and reuse the buffer [transfer-in-loop]
    cudaMalloc(&tmp, bytes);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemset runs on every iteration of this loop [transfer-in-loop]
    cudaMemset(tmp, 0, bytes);
    // CHECK: :[[@LINE+1]]:5: warning: cudaFree frees memory on every iteration of this loop; keep the buffer and free it once after the loop [transfer-in-loop]
    cudaFree(tmp);
  }
}

// Through a helper of the same file: the finding is at the call in the loop.
static void upload(float *d, const std::vector<float> &v) {
  cudaMemcpy(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice);
}

void viaHelper(float *d, const std::vector<float> &v, const bool &running) {
  do {
    // CHECK: :[[@LINE+1]]:5: warning: 'upload' calls cudaMemcpy and runs on every iteration of this loop [transfer-in-loop]
    upload(d, v);
    // CHECK: :[[@LINE-7]]:3: note: cudaMemcpy called here
  } while (running);
}

// Range-for.
void perTensor(std::vector<float *> &bufs, float *h) {
  for (float *b : bufs)
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 MiB copied each time [transfer-in-loop]
    cudaMemcpy(b, h, Bytes, cudaMemcpyHostToDevice);
}

// ---- Negative cases: look alike, but no copy runs per iteration. ----

void hoisted(float *h, float *d) {
  cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
  for (int it = 0; it < 100; ++it)
    twice<<<N / 256, 256>>>(d, N);
  cudaMemcpy(h, d, Bytes, cudaMemcpyDeviceToHost);
}

// A helper that copies, called once; a loop that only launches.
void once(float *d, const std::vector<float> &v) {
  upload(d, v);
  for (int i = 0; i < 3; ++i)
    twice<<<1, 256>>>(d, 256);
}

// Device code never calls the host API in a host loop.
__device__ void deviceLoop(float *x) {
  for (int i = 0; i < 4; ++i)
    x[i] = 0;
}

// A user function that happens to be named like the API, in a namespace.
namespace mine {
int cudaMemcpy(void *, const void *, size_t, int) { return 0; }
}
void notTheApi(float *a, float *b) {
  for (int i = 0; i < 10; ++i)
    mine::cudaMemcpy(a, b, 4, 0);
}

// do { ... } while (0) runs once: the macro idiom is not a loop.
#define UPLOAD(d, v) do { upload(d, v); } while (0)
void macroOnce(float *d, const std::vector<float> &v) {
  UPLOAD(d, v);
  do {
    cudaMemcpy(d, v.data(), 4, cudaMemcpyHostToDevice);
  } while (false);
}

// Suppressed.
void suppressed(float *h, float *d) {
  for (int it = 0; it < 2; ++it) {
    cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice); // NOLINT(transfer-in-loop)
    // NOLINTNEXTLINE(transfer-*)
    cudaMemcpy(h, d, Bytes, cudaMemcpyDeviceToHost);
  }
}
