// transfer-in-loop on the set-up of a toy program: main copies the rows of a
// 4x4 matrix one by one, in loops of a fixed 4 iterations. That is a few
// calls of microseconds, once per run: a note (shown with --show-cold), not
// a thief. Look-alikes keep the warning: a bound known only at run time, a
// total past 1 MiB, more than 64 calls, a fixed loop that launches a kernel,
// and the same loop in a function that main calls in a loop (each call runs
// the loop again).
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --sort=location --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <cstdlib>

__global__ void scale(double *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    m[i] *= 2;
}

void uploadRows(double *d, double **h, int size) {
  for (int i = 0; i < size; i++)
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 32 bytes copied each time
    cudaMemcpy(d + i * size, h[i], size * sizeof(double), cudaMemcpyHostToDevice);
}

int main(int argc, char **argv) {
  int size = 4;
  double **h = new double *[size];
  for (int i = 0; i < size; i++)
    h[i] = new double[size];
  double *d;
  cudaMalloc(&d, size * size * sizeof(double));
  for (int i = 0; i < size; i++)
    // COLD: :[[@LINE+2]]:5: note: cudaMemcpy runs on every iteration of this loop; 32 bytes copied each time
    // COLD: note: off the hot path: its loop runs a fixed 4 times in all, in code that runs once per run (32 bytes each time, 128 bytes in all): a one-time cost of microseconds
    cudaMemcpy(d + i * size, h[i], size * sizeof(double), cudaMemcpyHostToDevice);
  scale<<<1, 16>>>(d, size * size);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      // COLD: :[[@LINE+2]]:7: note: cudaMemcpy runs on every iteration of this loop; 8 bytes copied each time
      // COLD: note: off the hot path: its loops run a fixed 16 times in all, in code that runs once per run (8 bytes each time, 128 bytes in all)
      cudaMemcpy(&h[i][j], d + i * size + j, sizeof(double), cudaMemcpyDeviceToHost);

  // A bound known only at run time.
  int n = atoi(argv[1]);
  for (int i = 0; i < n; i++)
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 32 bytes copied each time
    cudaMemcpy(d, h[0], size * sizeof(double), cudaMemcpyHostToDevice);
  // 2 MiB in all.
  float *big = new float[1 << 18], *dBig;
  cudaMalloc(&dBig, (1 << 18) * sizeof(float));
  for (int i = 0; i < 2; i++)
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 1 MiB copied each time
    cudaMemcpy(dBig, big, (1 << 18) * sizeof(float), cudaMemcpyHostToDevice);
  // 128 calls.
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 8; j++)
      // CHECK: :[[@LINE+1]]:7: warning: cudaMemcpy runs on every iteration of this loop; 8 bytes copied each time
      cudaMemcpy(d, h[0], sizeof(double), cudaMemcpyHostToDevice);
  // A fixed loop that launches work: the program's computation, however small.
  for (int it = 0; it < 20; it++) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 32 bytes copied each time
    cudaMemcpy(d, h[0], size * sizeof(double), cudaMemcpyHostToDevice);
    scale<<<1, 16>>>(d, size * size);
  }
  // The same loop again on each of n rounds.
  for (int r = 0; r < n; r++)
    // CHECK: :[[@LINE+1]]:5: warning: 'uploadRows' calls cudaMemcpy and runs on every iteration of this loop
    uploadRows(d, h, size);
  return 0;
}
