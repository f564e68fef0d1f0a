// launch-block-size on a serial kernel of a toy program: `<<<1, 1>>>` over a
// 4 x 4 matrix in main makes 16 iterations on one thread, once per run: the
// finding is a note off the hot path (shown with --show-cold). Look-alikes
// keep the warning: a loop over a runtime n, a __device__ helper's loop
// over 2^20 elements, 1024 constant iterations (over the bound of 256), a
// helper defined in another file, and the toy launch repeated in a loop.
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,launch-block-size' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --sort=location --checks='-*,launch-block-size' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <cstdlib>

__global__ void doubleMatrix(double **in, double **out) {
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      out[i][j] = 2 * in[i][j];
}
__global__ void sumN(const float *x, float *out, int n) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  *out = s;
}
__device__ void addOne(float *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] += 1;
}
__global__ void viaHelper(float *x) {
  for (int k = 0; k < 2; k++)
    addOne(x, 1 << 20);
}
__global__ void bigConstant(float *x) {
  for (int i = 0; i < 1024; i++)
    x[i] += 1;
}
__device__ void elsewhere(float *x);
__global__ void unseenHelper(float *x) {
  for (int i = 0; i < 4; i++)
    elsewhere(x + i);
}

void steps(double **in, double **out, int n) {
  for (int s = 0; s < n; s++)
    // CHECK: :[[@LINE+1]]:23: warning: a single thread runs 'doubleMatrix' (one block of one thread)
    doubleMatrix<<<1, 1>>>(in, out);
}

int main(int argc, char **argv) {
  double **in = nullptr, **out = nullptr;
  float *x = nullptr, *s = nullptr;
  int n = atoi(argv[1]);
  // COLD: :[[@LINE+2]]:21: note: a single thread runs 'doubleMatrix' (one block of one thread)
  // COLD: note: off the hot path: a toy size: the loops of 'doubleMatrix' make at most 16 iterations on its one thread, launched in code that runs once per run: under a millisecond, once
  doubleMatrix<<<1, 1>>>(in, out);
  // CHECK: :[[@LINE+1]]:13: warning: a single thread runs 'sumN'
  sumN<<<1, 1>>>(x, s, n);
  // CHECK: :[[@LINE+1]]:18: warning: a single thread runs 'viaHelper'
  viaHelper<<<1, 1>>>(x);
  // CHECK: :[[@LINE+1]]:20: warning: a single thread runs 'bigConstant'
  bigConstant<<<1, 1>>>(x);
  // CHECK: :[[@LINE+1]]:21: warning: a single thread runs 'unseenHelper'
  unseenHelper<<<1, 1>>>(x);
  steps(in, out, n);
  return 0;
}
