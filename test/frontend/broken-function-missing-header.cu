// A header that is not found stops the includes after it (Clang's fatal
// error): `std::cout` survives as a declaration of an invalid `int` typedef,
// and `std::cout << ...` is an error about a declared thing only in
// appearance; so is `&segments[it]` with `segments` of the missing header's
// type (a recovery inside the recovery). Such errors do not drop the
// function's findings (see broken-function-findings.cu): main's copy in its
// loop is still reported.
// RUN: %expect-exit 2 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

// CHECK: fatal error: 'no-such-project-header.hpp' file not found
#include "no-such-project-header.hpp"
#include <cuda_runtime.h>
#include <iostream>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

int main() {
  int n = 1 << 20;
  float *h = new float[n], *d;
  Segment *segments = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  for (int it = 0; it < 100; ++it) {
    // CHECK: broken-function-missing-header.cu:[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<n / 256, 256>>>(d, n);
    std::cout << "step " << it << std::endl;
    Segment *current = &segments[it]; // Segment: the missing header's type.
    (void)current;
  }
  return 0;
}
