// --format=markdown: a table, then each finding with its source, notes and
// fix-it as a diff; paths relative to the current directory.
// RUN: cd %S && %expect-exit 1 %cuda-advisor --cuda-path=bundled --format=markdown markdown.cu -- -x cuda \
// RUN:   | FileCheck %s --match-full-lines --strict-whitespace
// No toolkit needed: the bundled CUDA declarations (--cuda-path=bundled).

#include <cuda_runtime.h>

__global__ void scale(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

void run(float *h, float *d, float *e, int n) {
  int threads = 256;
  for (int it = 0; it < 10; ++it) {
    cudaMemcpy(d, h, 4096, cudaMemcpyHostToDevice);
    scale<<<n / threads, threads>>>(d, e, n);
  }
}

// CHECK:## cuda-advisor: 2 warnings in 1 file
// CHECK-EMPTY:
// CHECK-NEXT:| # | finding | location |
// CHECK-NEXT:| ---: | --- | --- |
// CHECK-NEXT:| 1 | warning: cudaMemcpy runs on every iteration of this loop; 4 KiB copied each time; its source, destination and size do not change in the loop: hoist it before the loop (10 iterations move 40 KiB in all) `transfer-in-loop` | `markdown.cu:17:5` |
// CHECK-NEXT:| 2 | warning: grid of n / threads blocks drops the last n % threads elements when n is not a multiple of threads; round up `launch-grid-truncation` | `markdown.cu:18:13` |
// CHECK-EMPTY:
// CHECK-NEXT:### 1. `transfer-in-loop` at `markdown.cu:17:5`
// CHECK-EMPTY:
// CHECK-NEXT:**warning:** cudaMemcpy runs on every iteration of this loop; 4 KiB copied each time; its source, destination and size do not change in the loop: hoist it before the loop (10 iterations move 40 KiB in all)
// CHECK-EMPTY:
// CHECK-NEXT:```cuda
// CHECK-NEXT:    cudaMemcpy(d, h, 4096, cudaMemcpyHostToDevice);
// CHECK-NEXT:```
// CHECK-EMPTY:
// CHECK-NEXT:- **note:** inside this loop at `markdown.cu:16:3`: `for (int it = 0; it < 10; ++it) {`
// CHECK-EMPTY:
// CHECK-NEXT:### 2. `launch-grid-truncation` at `markdown.cu:18:13`
// CHECK-EMPTY:
// CHECK-NEXT:**warning:** grid of n / threads blocks drops the last n % threads elements when n is not a multiple of threads; round up
// CHECK-EMPTY:
// CHECK-NEXT:```cuda
// CHECK-NEXT:    scale<<<n / threads, threads>>>(d, e, n);
// CHECK-NEXT:```
// CHECK-EMPTY:
// CHECK-NEXT:**Suggested fix:**
// CHECK-EMPTY:
// CHECK-NEXT:```diff
// CHECK-NEXT:-    scale<<<n / threads, threads>>>(d, e, n);
// CHECK-NEXT:+    scale<<<(n + threads - 1) / threads, threads>>>(d, e, n);
// CHECK-NEXT:```
