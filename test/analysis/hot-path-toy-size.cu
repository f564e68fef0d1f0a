// A kernel whose whole work is a toy: every launch has a constant grid and
// block, runs once (outside loops, in code that runs once), and the kernel's
// loops around the finding have constant trip counts, so that the code runs
// fewer than 2^20 times per run of the program. Its findings are notes off
// the hot path, whatever the access costs each time. Look-alikes keep the
// warning: a large constant launch, a toy launch repeated in a loop, a grid
// known only at run time, a kernel loop whose trip count is not constant,
// a __device__ helper's loop, and a file without main (other files may launch
// the kernel).
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced' %s -- -x cuda \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,access-uncoalesced' %s -- -x cuda \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced' %s -- -x cuda -DNO_MAIN \
// RUN:   2>&1 | FileCheck %s --check-prefix=LIBRARY
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced' %s -- -x cuda -DHUGE_GRID \
// RUN:   2>&1 | FileCheck %s --check-prefix=HUGE
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <stdlib.h>

// Each thread walks a row of its own: consecutive threads are 512 bytes apart.
__global__ void toyRows(const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int d = 0; d < 128; ++d)
    // COLD: hot-path-toy-size.cu:[[@LINE+2]]:10: note: uncoalesced global load of 'a'
    // LIBRARY: hot-path-toy-size.cu:[[@LINE+1]]:10: warning: uncoalesced global load of 'a'
    s += a[t * 128 + d];
  out[t] = s;
}
// COLD: note: off the hot path: a toy size: the kernel is launched once (line {{[0-9]+}}) with 256 threads in all, so this code runs 32768 times per run of the program

__global__ void bigRows(const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int d = 0; d < 128; ++d)
    // DEFAULT-DAG: hot-path-toy-size.cu:[[@LINE+1]]:10: warning: uncoalesced global load of 'a'
    s += a[t * 128 + d];
  out[t] = s;
}

__global__ void repeatedRows(const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int d = 0; d < 128; ++d)
    // DEFAULT-DAG: hot-path-toy-size.cu:[[@LINE+1]]:10: warning: uncoalesced global load of 'a'
    s += a[t * 128 + d];
  out[t] = s;
}

__global__ void runtimeGridRows(const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int d = 0; d < 128; ++d)
    // DEFAULT-DAG: hot-path-toy-size.cu:[[@LINE+1]]:10: warning: uncoalesced global load of 'a'
    s += a[t * 128 + d];
  out[t] = s;
}

__global__ void longRows(const float *a, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int d = 0; d < n; ++d)
    // DEFAULT-DAG: hot-path-toy-size.cu:[[@LINE+1]]:10: warning: uncoalesced global load of 'a'
    s += a[t * n + d];
  out[t] = s;
}

// A __device__ helper's own loop is not the kernel's: a toy launch of a
// kernel whose helper walks 2^22 elements per thread keeps the warning.
__device__ float longRowSum(const float *a, int t) {
  float s = 0;
  for (int d = 0; d < (1 << 22); ++d)
    // DEFAULT-DAG: hot-path-toy-size.cu:[[@LINE+1]]:10: warning: uncoalesced global load of 'a'
    s += a[t * (1 << 22) + d];
  return s;
}
__global__ void toyLaunchOfHelper(const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = longRowSum(a, t);
}

#ifndef NO_MAIN
void repeat(const float *a, float *out) {
  for (int it = 0; it < 1000; ++it)
    repeatedRows<<<4, 64>>>(a, out);
}

#ifdef HUGE_GRID
int hugeMain();
#endif
int main(int argc, char **argv) {
#ifdef HUGE_GRID
  hugeMain(); // Called: a function nothing calls would be dead code.
#endif
  float *a, *out;
  cudaMalloc(&a, 1 << 30);
  cudaMalloc(&out, 1 << 24);
  toyRows<<<4, 64>>>(a, out);
  bigRows<<<4096, 256>>>(a, out);
  repeat(a, out);
  runtimeGridRows<<<atoi(argv[1]), 64>>>(a, out);
  longRows<<<4, 64>>>(a, out, atoi(argv[2]));
  toyLaunchOfHelper<<<4, 64>>>(a, out);
  cudaDeviceSynchronize();
  return 0;
}
#endif
// DEFAULT: 5 findings in 1 file; 1 off the hot path not shown
// A grid whose thread count overflows 64 bits is no toy (and no crash).
#ifdef HUGE_GRID
__global__ void hugeRows(const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int d = 0; d < 128; ++d)
    // HUGE: hot-path-toy-size.cu:[[@LINE+1]]:10: warning: uncoalesced global load of 'a'
    s += a[t * 128 + d];
  out[t] = s;
}
int hugeMain() {
  hugeRows<<<dim3(1 << 30, 1 << 30, 1 << 30), dim3(1024, 1024)>>>(nullptr, nullptr);
  return 0;
}
#endif
