// A file without main whose host code launches kernels (a network layer's
// forward): a kernel of it that nothing launches and no header declares
// (an earlier version, its launch commented out) never runs, since no other
// file can name it: its findings are off the hot path. Look-alikes keep
// theirs: a kernel a header declares (another file may launch it), an
// extern "C" kernel (loaded by name, from Python or a module), and every
// kernel of a file whose host code launches nothing (a kernel library).
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced' %s -- -x cuda \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,access-uncoalesced' %s -- -x cuda \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced' %s -- -x cuda -DNO_HOST \
// RUN:   2>&1 | FileCheck %s --check-prefix=LIBRARY --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>
#include "Inputs/layer-kernels.cuh"

// Each thread walks a row of its own: consecutive threads are 512 bytes apart.
__global__ void rowsV1(const float *a, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int d = 0; d < 128; ++d)
    // COLD-DAG: hot-path-unlaunched-layer.cu:[[@LINE+2]]:10: note: uncoalesced global load of 'a'
    // LIBRARY: hot-path-unlaunched-layer.cu:[[@LINE+1]]:10: warning: uncoalesced global load of 'a'
    s += a[t * 128 + d];
  out[t] = s;
}
// COLD-DAG: note: off the hot path: a kernel that nothing launches (this file's host code launches other kernels, not this one, and no header declares it for another file)

__global__ void declaredInHeader(const float *a, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int d = 0; d < 128; ++d)
    // DEFAULT: hot-path-unlaunched-layer.cu:[[@LINE+2]]:10: warning: uncoalesced global load of 'a'
    // LIBRARY: hot-path-unlaunched-layer.cu:[[@LINE+1]]:10: warning: uncoalesced global load of 'a'
    s += a[t * 128 + d];
  out[t] = s;
}

extern "C" __global__ void loadedByName(const float *a, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int d = 0; d < 128; ++d)
    // DEFAULT: hot-path-unlaunched-layer.cu:[[@LINE+2]]:10: warning: uncoalesced global load of 'a'
    // LIBRARY: hot-path-unlaunched-layer.cu:[[@LINE+1]]:10: warning: uncoalesced global load of 'a'
    s += a[t * 128 + d];
  out[t] = s;
}

__global__ void rows(const float *a, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int d = 0; d < 128; ++d)
    // DEFAULT: hot-path-unlaunched-layer.cu:[[@LINE+2]]:10: warning: uncoalesced global load of 'a'
    // LIBRARY: hot-path-unlaunched-layer.cu:[[@LINE+1]]:10: warning: uncoalesced global load of 'a'
    s += a[t * 128 + d];
  out[t] = s;
}

#ifndef NO_HOST
void forward(const float *a, float *out, int n) {
  // rowsV1<<<n / 256, 256>>>(a, out, n);
  rows<<<n / 256, 256>>>(a, out, n);
}
#endif
