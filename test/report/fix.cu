// --fix rewrites the file in place; a file named twice gets its fix-its once;
// the fixed file has no finding left.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/fix.cu
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,launch-grid-truncation' --fix %t/fix.cu %t/fix.cu -- -x cuda \
// RUN:   2>&1 >/dev/null | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/fix.cu
// RUN: %cuda-advisor --cuda-path=bundled --checks='-*,launch-grid-truncation' %t/fix.cu -- -x cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CLEAN --implicit-check-not=warning:
// No toolkit needed: the bundled CUDA declarations (--cuda-path=bundled).

#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

void run(float *d, int n) {
  const int threads = 128;
  scale<<<n / threads, threads>>>(d, n);
  int blocks = n / 512;
  scale<<<blocks, 512>>>(d, n);
}

// APPLY: cuda-advisor: note: applied 2 fix-its in 1 file
// APPLY-NOT: warning

// FIXED: {{^}}  scale<<<(n + threads - 1) / threads, threads>>>(d, n);
// FIXED-NEXT: {{^}}  int blocks = (n + 511) / 512;
// FIXED-NEXT: {{^}}  scale<<<blocks, 512>>>(d, n);

// CLEAN: 0 findings in 1 file.
