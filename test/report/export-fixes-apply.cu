// clang-apply-replacements applies what --export-fixes writes, and the
// result is what --fix writes.
// RUN: rm -rf %t && mkdir -p %t/fixes %t/inplace
// RUN: cp %s %t/fix.cu && cp %s %t/inplace/fix.cu
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,launch-grid-truncation' --export-fixes=%t/fixes/fix.yaml %t/fix.cu -- -x cuda > /dev/null
// RUN: %clang-apply-replacements %t/fixes
// RUN: FileCheck %s < %t/fix.cu
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,launch-grid-truncation' --fix %t/inplace/fix.cu -- -x cuda > /dev/null
// RUN: diff %t/fix.cu %t/inplace/fix.cu
// REQUIRES: clang-apply-replacements

#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}
__global__ void scale2d(float *x, int w, int h) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c < w && r < h) x[r * w + c] *= 2.0f;
}

void run(float *d, int n, int w, int h) {
  int threads = 256;
  scale<<<n / threads, threads>>>(d, n);
  dim3 grid(w / 32, h / 8);
  scale2d<<<grid, dim3(32, 8)>>>(d, w, h);
}

// CHECK: {{^}}  scale<<<(n + threads - 1) / threads, threads>>>(d, n);
// CHECK-NEXT: {{^}}  dim3 grid((w + 31) / 32, (h + 7) / 8);
