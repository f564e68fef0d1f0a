// Clang's layout: the gutter, the caret and '~' under the range (tabs
// expanded), the fix-it line; colours only with --color (or a terminal).
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,launch-*' %s -- -x cuda 2>/dev/null \
// RUN:   | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,launch-*' --no-color %s -- -x cuda 2>/dev/null \
// RUN:   | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,launch-*' --color %s -- -x cuda 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=COLOR
// The same gutter and caret as clang's for a diagnostic at the same place:
// RUN: not %clangxx -fsyntax-only -fno-color-diagnostics -DCLANG_REFERENCE -x c++ %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CLANG --match-full-lines --strict-whitespace
// No toolkit needed: the bundled CUDA declarations (--cuda-path=bundled).

#ifndef CLANG_REFERENCE
#include <cuda_runtime.h>

__global__ void k(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0;
}

void run(float *d, int n) {
  int threads = 256;
	k<<<n / threads, threads>>>(d, n);
  k<<<n, 100>>>(d, n);
}
#else
void run() {
  int threads = 256;
	int y = threads + undeclared;
}
#endif

// CHECK:{{.*}}text.cu:24:6: warning: grid of n / threads blocks drops the last n % threads elements when n is not a multiple of threads; round up [launch-grid-truncation]
// CHECK-NEXT:   24 |         k<<<n / threads, threads>>>(d, n);
// CHECK-NEXT:      |             ^~~~~~~~~~~
// CHECK-NEXT:      |             (n + threads - 1) / threads
// CHECK-NEXT:{{.*}}text.cu:25:10: warning: 100 threads per block (100) {{.*}} [launch-block-size]
// CHECK-NEXT:   25 |   k<<<n, 100>>>(d, n);
// CHECK-NEXT:      |          ^~~

// COLOR: {{.}}[1m{{.*}}text.cu:24:6: {{.}}[0m{{.}}[0;1;35mwarning: {{.}}[0m{{.}}[1mgrid of n / threads
// COLOR: {{.}}[0;1;32m            ^~~~~~~~~~~{{.}}[0m
// COLOR: {{.}}[0;32m            (n + threads - 1) / threads{{.}}[0m

// CLANG:{{.*}}text.cu:30:20: error: use of undeclared identifier 'undeclared'
// CLANG-NEXT:   30 |         int y = threads + undeclared;
// CLANG-NEXT:      |                           ^
