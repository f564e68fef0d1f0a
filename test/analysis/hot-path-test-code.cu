// A test's speed is nobody's cost: a finding in a file of a test suite (its
// directory is tests/, test/, unittests/..., or its name is test_*.cu,
// *_test.cu) is a note, shown with --show-cold. Only the file's own
// directory counts: the same file in src/ below a folder named tests/ is the
// program, and so is a file whose name merely contains "test".
// RUN: rm -rf %t && mkdir -p %t/tests %t/src %t/tests/proj/src
// RUN: cp %s %t/tests/copy_loop.cu && cp %s %t/src/test_copy_loop.cu && cp %s %t/src/copy_loop_test.cu
// RUN: cp %s %t/tests/proj/src/copy_loop.cu && cp %s %t/src/latest_copy_loop.cu
// RUN: %expect-exit 0 %cuda-advisor --checks='-*,transfer-in-loop' %t/tests/copy_loop.cu %t/src/test_copy_loop.cu %t/src/copy_loop_test.cu -- -x cuda \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:'
// RUN: %expect-exit 0 %cuda-advisor --show-cold --checks='-*,transfer-in-loop' %t/tests/copy_loop.cu -- -x cuda \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %t/tests/proj/src/copy_loop.cu %t/src/latest_copy_loop.cu -- -x cuda \
// RUN:   2>&1 | FileCheck %s --check-prefix=PROGRAM
// REQUIRES: cuda

#include <cuda_runtime.h>

__global__ void twice(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2;
}

int main() {
  const int n = 1 << 20;
  static float host[n];
  float *dev;
  cudaMalloc(&dev, n * sizeof(float));
  for (int step = 0; step < 100; ++step) {
    cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice);
    twice<<<n / 256, 256>>>(dev, n);
  }
  cudaFree(dev);
}

// DEFAULT-NOT: warning:
// COLD: tests/copy_loop.cu:30:5: note: cudaMemcpy runs on every iteration of this loop
// COLD: off the hot path: in test code (copy_loop.cu): a test's speed is not the program's
// PROGRAM-DAG: proj/src/copy_loop.cu:30:5: warning: cudaMemcpy runs on every iteration of this loop
// PROGRAM-DAG: latest_copy_loop.cu:30:5: warning: cudaMemcpy runs on every iteration of this loop
