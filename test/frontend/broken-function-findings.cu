// Findings inside a function whose body Clang had to recover from errors are
// dropped: its types and values are guesses (a file analyzed without the -D
// flags its build passes: `TYPE` falls back to double, so `t.x` and
// `x * CONST` meet types the real build never has; round 18 of
// docs/evaluation.md). Findings in the file's other functions stay, and so
// does the compiler's error. With the flags, the file is whole again.
// RUN: %expect-exit 2 %cuda-advisor --checks='-*,kernel-double-promotion,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,kernel-double-promotion,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   -DTYPE=float4 -DCONST=0.01 -DTYPE_GIVEN 2>&1 | FileCheck %s --check-prefix=BUILT --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>

#ifndef TYPE
#define TYPE double
#define CONST 0.01
#endif

// CHECK: error: member reference base type 'double' is not a structure or union
// CHECK: error: unknown type name 'Timer'
// BUILT: broken-function-findings.cu:[[@LINE+8]]:21: warning: float arithmetic promoted to double by the double literal CONST (0.01){{.*}}[kernel-double-promotion]
__global__ void intensity(const TYPE *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  TYPE t = in[i];
  float x = t.x;
  for (int k = 0; k < 64; ++k)
    x = x + x * x * CONST;
  out[i] = x;
}

// Whole: its promotion is reported with and without the flags.
// CHECK: broken-function-findings.cu:[[@LINE+6]]:21: warning: float arithmetic promoted to double by the double literal 0.3{{.*}}[kernel-double-promotion]
// BUILT: broken-function-findings.cu:[[@LINE+5]]:21: warning: float arithmetic promoted to double by the double literal 0.3{{.*}}[kernel-double-promotion]
__global__ void whole(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = out[i];
  for (int k = 0; k < 64; ++k)
    x = x + x * x * 0.3;
  out[i] = x;
}

// Look-alike: main's errors are about names its missing header would declare
// (a timer class, an error-checking function): the rest of main is as
// written, and its finding stays.
int main() {
#ifndef TYPE_GIVEN
  Timer timer;
#endif
  int n = 1 << 20;
  float *h = new float[n], *d;
  TYPE *in;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&in, n * sizeof(TYPE));
  for (int it = 0; it < 100; ++it) {
    // CHECK: broken-function-findings.cu:[[@LINE+2]]:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
    // BUILT: broken-function-findings.cu:[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}[transfer-in-loop]
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    intensity<<<n / 256, 256>>>(in, d, n);
#ifndef TYPE_GIVEN
    checkLastError(cudaGetLastError());
    timer.reset();
#endif
    whole<<<n / 256, 256>>>(d, n);
  }
  return 0;
}
