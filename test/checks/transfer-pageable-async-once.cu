// A pageable async copy that runs once per run of the program (main's set-up
// and result, outside any loop, or a helper called only from there) has
// nothing to overlap with, and pinning the buffer costs about as much as it
// saves: not reported. The same copies in a loop, in a helper called from a
// loop, or in a function the file never calls but declares for other files
// (it may run any number of times) are; one that nothing calls or declares,
// in a file with main, is dead code.
//
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,transfer-pageable-async' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --sort=location --checks='-*,transfer-pageable-async' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <vector>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

// Called once from main, outside loops: runs once.
static void uploadOnce(float *d, const std::vector<float> &h, cudaStream_t s) {
  cudaMemcpyAsync(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice, s);
}

// Called from main's loop: runs every iteration.
static void uploadEach(float *d, const std::vector<float> &h, cudaStream_t s) {
  cudaMemcpyAsync(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice, s);
  // CHECK: transfer-pageable-async-once.cu:[[@LINE-1]]:3: warning: cudaMemcpyAsync from pageable host memory {{.*}}[transfer-pageable-async]
}

// Declared in a header for other files (a library entry point) and never
// called here: may run any number of times.
#include "Inputs/exported-upload.h"
void exported(float *d, const std::vector<float> &h, cudaStream_t s) {
  cudaMemcpyAsync(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice, s);
  // CHECK: transfer-pageable-async-once.cu:[[@LINE-1]]:3: warning: cudaMemcpyAsync from pageable host memory {{.*}}[transfer-pageable-async]
}

// Look-alike: neither called nor declared for other files, in a file with
// main: dead code, off the hot path (not shown by default).
void unused(float *d, const std::vector<float> &h, cudaStream_t s) {
  cudaMemcpyAsync(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice, s);
  // COLD: transfer-pageable-async-once.cu:[[@LINE-1]]:3: note: cudaMemcpyAsync from pageable host memory {{.*}}[transfer-pageable-async]
  // COLD: note: off the hot path: a function that this program never calls (main is in this file, and no code of it calls or names the function)
}

// A helper called only from a helper that runs once: runs once.
static void innerOnce(float *d, const std::vector<float> &h, cudaStream_t s) {
  cudaMemcpyAsync(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice, s);
}
static void outerOnce(float *d, const std::vector<float> &h, cudaStream_t s) { innerOnce(d, h, s); }

// Recursive: not once.
static void recursive(float *d, const std::vector<float> &h, cudaStream_t s, int depth) {
  cudaMemcpyAsync(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice, s);
  // CHECK: transfer-pageable-async-once.cu:[[@LINE-1]]:3: warning: cudaMemcpyAsync from pageable host memory {{.*}}[transfer-pageable-async]
  if (depth > 0)
    recursive(d, h, s, depth - 1);
}

int main() {
  const int n = 1 << 20;
  std::vector<float> a(n, 1.0f), b(n);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(d, a.data(), n * sizeof(float), cudaMemcpyHostToDevice, s);
  uploadOnce(d, a, s);
  outerOnce(d, a, s);
  recursive(d, a, s, 3);
  for (int step = 0; step < 10; ++step) {
    uploadEach(d, a, s);
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    cudaMemcpyAsync(b.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    // CHECK: transfer-pageable-async-once.cu:[[@LINE-1]]:5: warning: cudaMemcpyAsync to pageable host memory {{.*}}[transfer-pageable-async]
  }
  cudaMemcpyAsync(b.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  return 0;
}
