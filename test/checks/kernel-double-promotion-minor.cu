// A promotion whose FP64 work is at most 1/8 of another promotion's in the
// same kernel (loop trips counted: the constant trip count, 8 when it is not
// a constant) is a note, shown with --show-cold: fixing the heavy one first is
// the saving; the light one is a few percent of the kernel at most.
// RUN: echo "{CheckOptions: {kernel-double-promotion.ReportMemoryBound: 1}}" > %t.yaml
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,kernel-double-promotion' --config %t.yaml %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:' --implicit-check-not='note: off the hot path'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,kernel-double-promotion' --config %t.yaml %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>

// A path loop nested in a step loop, then a flat epilogue loop: the
// epilogue's promotion is a note. Both lines do the same FP64 work (two
// widened floats, two double operations), one loop level of unknown trips
// apart: exactly 1/8, the inclusive bound.
__global__ void pathThenPortfolio(float *L, float *out, int nmat, int n) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f, b = 1.0f;
  for (int s = 0; s < nmat; ++s)
    for (int i = s + 1; i < n; ++i)
      // DEFAULT: kernel-double-promotion-minor.cu:[[@LINE+1]]:{{[0-9]+}}: warning: float arithmetic promoted to double by the double literal 0.5
      v += L[p * n + i] * 0.5;
  for (int s = 0; s < nmat; ++s)
    // COLD: kernel-double-promotion-minor.cu:[[@LINE+2]]:{{[0-9]+}}: note: float arithmetic promoted to double by the double literal 1.0
    // COLD: note: off the hot path: its FP64 work is at most 1/8 of that of the promotion at line [[@LINE-3]] in the same kernel (counting loop trips): fix that one first
    b = b / (1.0 + L[p * n + s]);
  out[p] = v + b;
}

// Look-alike: two promotions in loops of the same depth: both are findings.
__global__ void twoLoops(float *x, float *out, int n) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  float a = 0.0f, b = 0.0f;
  for (int i = 0; i < n; ++i)
    // DEFAULT: kernel-double-promotion-minor.cu:[[@LINE+1]]:{{[0-9]+}}: warning: float arithmetic promoted to double by the double literal 0.25
    a += x[p * n + i] * 0.25;
  for (int i = 0; i < n; ++i)
    // DEFAULT: kernel-double-promotion-minor.cu:[[@LINE+1]]:{{[0-9]+}}: warning: float arithmetic promoted to double by the double literal 0.75
    b += x[p * n + i] * 0.75;
  out[p] = a + b;
}

// Constant trip counts decide, not the nesting: the flat 1000-trip loop
// outweighs the 2 x 2 nest, whose promotion is the note.
__global__ void tripsDecide(float *x, float *out) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  float a = 0.0f, b = 0.0f;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      // COLD: kernel-double-promotion-minor.cu:[[@LINE+2]]:{{[0-9]+}}: note: float arithmetic promoted to double by the double literal 0.125
      // COLD: note: off the hot path: its FP64 work is at most 1/8 of that of the promotion at line {{[0-9]+}} in the same kernel
      a += x[p * 4 + i * 2 + j] * 0.125;
  for (int i = 0; i < 1000; ++i)
    // DEFAULT: kernel-double-promotion-minor.cu:[[@LINE+1]]:{{[0-9]+}}: warning: float arithmetic promoted to double by the double literal 0.375
    b += x[p + i] * 0.375;
  out[p] = a + b;
}

// Look-alike: a light promotion alone in its kernel is a finding.
__global__ void alone(float *x, float *out) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  // DEFAULT: kernel-double-promotion-minor.cu:[[@LINE+1]]:{{[0-9]+}}: warning: float arithmetic promoted to double by the double literal 1.1
  out[p] = x[p] * 1.1;
}
