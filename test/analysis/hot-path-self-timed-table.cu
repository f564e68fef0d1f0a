// A microbenchmark whose kernels all time themselves in cycles, launched
// through a table of specializations (spec.kernel<<<...>>>): each call of
// the run in a loop is one self-timed run, off the hot path. Its look-alike
// (a file where some kernel does not read the clock) is in
// hot-path-timed-runs.cu (runPointer).
// RUN: %expect-exit 0 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:'
// RUN: %expect-exit 0 %cuda-advisor --show-cold --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>

__device__ void body(float *x, unsigned long long *elapsed, int depth) {
  unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0));
  for (int i = 0; i < depth; ++i)
    x[threadIdx.x] = x[threadIdx.x] * 1.5f + 1.0f;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1));
  if (threadIdx.x == 0) *elapsed = t1 - t0;
}

__global__ void depth4(float *x, unsigned long long *e) { body(x, e, 4); }
__global__ void depth16(float *x, unsigned long long *e) { body(x, e, 16); }

struct Spec {
  void (*kernel)(float *, unsigned long long *);
  int depth;
};
constexpr Spec kSpecs[2] = {{depth4, 4}, {depth16, 16}};

unsigned long long runOnce(const Spec &spec, float *d) {
  unsigned long long *e, h;
  cudaMalloc(&e, sizeof(h));
  spec.kernel<<<1, 128>>>(d, e);
  cudaMemcpy(&h, e, sizeof(h), cudaMemcpyDeviceToHost);
  cudaFree(e);
  return h;
}

int main(int argc, char **argv) {
  float *d;
  cudaMalloc(&d, 128 * sizeof(float));
  for (const Spec &spec : kSpecs)
    for (int rep = 0; rep < argc * 10; ++rep)
      runOnce(spec, d);
  return 0;
}

// DEFAULT: 0 findings{{.*}}
// COLD: hot-path-self-timed-table.cu:46:7: note: 'runOnce' calls cudaMemcpy{{.*}}[transfer-in-loop]
// COLD: note: off the hot path: repeats 'runOnce', which times one run itself (it launches a kernel through a pointer, and every kernel of this file reads the GPU's clock at the start and the end of what it measures): each iteration is a whole timed run
