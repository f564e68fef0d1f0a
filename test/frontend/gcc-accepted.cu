// What GCC, nvcc's host compiler, accepts with a warning and Clang refuses by
// default parses: `register` under C++17 and a typedef naming an anonymous
// struct with C++-only members. The checks still run (the copy in the loop
// is reported). A project flag after them turns the error back on.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %expect-exit 2 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 -Werror=register \
// RUN:   2>&1 | FileCheck %s --check-prefix=STRICT
// REQUIRES: cuda

#include <cuda_runtime.h>

typedef struct {
  int n = 0;
  float *data;
} Buffer;

__global__ void scale(float *x, int n) {
  register int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

int main() {
  Buffer b;
  b.n = 1 << 20;
  float *h = new float[b.n];
  cudaMalloc(&b.data, b.n * sizeof(float));
  for (int it = 0; it < 100; ++it) {
    // CHECK: gcc-accepted.cu:[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(b.data, h, b.n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<b.n / 256, 256>>>(b.data, b.n);
  }
  return 0;
}
// STRICT: error: ISO C++17 does not allow 'register' storage class specifier
