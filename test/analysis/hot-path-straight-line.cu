// Static priority of straight-line code: in a function that runs once (main,
// or a helper called only from there outside loops), without timing calls,
// whose loops launch the program's kernels, the code outside every loop runs
// once around the iterations. Launches there of kernels the loops do not
// launch (set-up, verification) are off the hot path, and so are the kernels
// only they launch; a launch of a kernel that the loops launch too (a first or
// last step) is not, and nothing changes in a function that runs many times
// or that has no launching loop. (The toy kernels are memory-bound:
// ReportMemoryBound keeps their promotions as findings.)
// RUN: echo "{CheckOptions: {kernel-double-promotion.ReportMemoryBound: 1}}" > %t.yaml
// RUN: %expect-exit 1 %cuda-advisor --config %t.yaml --checks='-*,launch-block-size,kernel-double-promotion' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --config %t.yaml --show-cold --checks='-*,launch-block-size,kernel-double-promotion' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// RUN: %expect-exit 1 %cuda-advisor --config %t.yaml --checks='-*,launch-block-size,kernel-double-promotion' %s -- -x cuda -std=c++17 -DNO_LOOP \
// RUN:   2>&1 | FileCheck %s --check-prefix=NOLOOP --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>

constexpr int N = 1 << 22;

__global__ void initWave(float *a, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) a[i] = sinf(k * i) * 0.1;
}
__global__ void step(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) a[i] = a[i] * 0.3 + 1.7 * a[i] * a[i];
}
__global__ void verify(const float *a, int *bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N && a[i] > 1e30) atomicAdd(bad, 1);
}

// Called from main's loop: its straight-line code runs on every epoch.
void epoch(float *a) {
  initWave<<<N / 100, 100>>>(a, 0.5f);
  for (int s = 0; s < 10; ++s)
    step<<<N / 128, 128>>>(a);
}

// Called once from main, before its loop: set-up like main's own.
void prepare(float *a) { initWave<<<N / 100, 100>>>(a, 0.75f); }

#ifndef NO_LOOP
int main() {
  float *a;
  int *bad;
  cudaMalloc(&a, N * sizeof(float));
  cudaMalloc(&bad, sizeof(int));
  prepare(a);
  step<<<N / 100, 100>>>(a);
  for (int it = 0; it < 1000; ++it)
    step<<<N / 128, 128>>>(a);
  for (int e = 0; e < 3; ++e)
    epoch(a);
  verify<<<N / 100, 100>>>(a, bad);
  cudaFree(a);
  return 0;
}
#else
// No loop launches kernels: the straight-line launches are the program's work.
int main() {
  float *a;
  int *bad;
  cudaMalloc(&a, N * sizeof(float));
  cudaMalloc(&bad, sizeof(int));
  prepare(a);
  step<<<N / 100, 100>>>(a);
  verify<<<N / 100, 100>>>(a, bad);
  return 0;
}
#endif

// initWave's promotion: epoch() launches it on every iteration of main's loop.
// DEFAULT-DAG: hot-path-straight-line.cu:25:35: warning: float arithmetic promoted to double by the double literal 0.1
// DEFAULT-DAG: hot-path-straight-line.cu:29:28: warning: float arithmetic promoted to double by the double literals 0.3 and 1.7
// DEFAULT-DAG: hot-path-straight-line.cu:38:23: warning: 100 threads per block
// step before the loop: the loop launches it too.
// DEFAULT-DAG: hot-path-straight-line.cu:53:19: warning: 100 threads per block

// COLD: hot-path-straight-line.cu:33:23: note: float arithmetic promoted to double by the double literal 1e30
// COLD: note: off the hot path: only called off the hot path (line 58, after the loop at line 54 that launches the program's kernels, in code that runs once: results or clean-up)
// COLD: hot-path-straight-line.cu:44:46: note: 100 threads per block
// COLD: note: off the hot path: only called off the hot path (line 52, before the loop at line 54 that launches the program's kernels, in code that runs once: set-up)
// COLD: hot-path-straight-line.cu:58:21: note: 100 threads per block
// COLD: note: off the hot path: after the loop at line 54 that launches the program's kernels, in code that runs once: results or clean-up

// Without the loop nothing calls epoch(): its launch (line 38) is dead code, off the hot path.
// NOLOOP-DAG: hot-path-straight-line.cu:25:35: warning: float arithmetic promoted
// NOLOOP-DAG: hot-path-straight-line.cu:29:28: warning: float arithmetic promoted
// NOLOOP-DAG: hot-path-straight-line.cu:33:23: warning: float arithmetic promoted
// NOLOOP-DAG: hot-path-straight-line.cu:44:46: warning: 100 threads per block
// NOLOOP-DAG: hot-path-straight-line.cu:70:19: warning: 100 threads per block
// NOLOOP-DAG: hot-path-straight-line.cu:71:21: warning: 100 threads per block
