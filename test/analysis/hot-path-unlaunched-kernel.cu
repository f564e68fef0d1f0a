// A kernel of a whole program (main is in the file) that no code launches or
// names never runs (a tutorial's earlier step whose launch is in `#if 0`):
// its findings are off the hot path. A kernel launched through
// cudaLaunchKernel (named, not called), or one of a file without main (a
// library whose callers are elsewhere), keeps its findings.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced' %s -- -x cuda \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,access-uncoalesced' %s -- -x cuda \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced' %s -- -x cuda -DNO_MAIN \
// RUN:   2>&1 | FileCheck %s --check-prefix=LIBRARY --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>

// Each thread walks a row of its own: consecutive threads are 512 bytes apart.
__global__ void naiveRows(const float *a, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int d = 0; d < 128; ++d)
    // COLD-DAG: hot-path-unlaunched-kernel.cu:[[@LINE+2]]:10: note: uncoalesced global load of 'a'
    // LIBRARY: hot-path-unlaunched-kernel.cu:[[@LINE+1]]:10: warning: uncoalesced global load of 'a'
    s += a[t * 128 + d];
  out[t] = s;
}
// COLD-DAG: note: off the hot path: a kernel that this program never launches (main is in this file, and no code of it launches or names the kernel)

__global__ void launchedByPointer(const float *a, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int d = 0; d < 128; ++d)
    // DEFAULT: hot-path-unlaunched-kernel.cu:[[@LINE+3]]:10: warning: uncoalesced global load of 'a'
    // COLD-DAG: hot-path-unlaunched-kernel.cu:[[@LINE+2]]:10: warning: uncoalesced global load of 'a'
    // LIBRARY: hot-path-unlaunched-kernel.cu:[[@LINE+1]]:10: warning: uncoalesced global load of 'a'
    s += a[t * 128 + d];
  out[t] = s;
}

__global__ void tiled(const float *a, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = a[t] * 2.0f;
}

#ifndef NO_MAIN
int main() {
  const int n = 1 << 16;
  float *a, *out;
  cudaMalloc(&a, n * 128 * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
#if 0
  naiveRows<<<n / 256, 256>>>(a, out, n);
#endif
  void *args[] = {&a, &out, (void *)&n};
  cudaLaunchKernel((void *)launchedByPointer, dim3(n / 256), dim3(256), args, 0, 0);
  tiled<<<n / 256, 256>>>(a, out, n);
  cudaDeviceSynchronize();
  return 0;
}
#endif
