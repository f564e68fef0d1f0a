// --export-fixes writes clang-tidy's export format: every finding with a
// location, its replacements (offsets into the file), ranges and notes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --export-fixes=%t/fixes.yaml %s -- -x cuda > /dev/null
// RUN: FileCheck %s --match-full-lines --strict-whitespace < %t/fixes.yaml
// RUN: %expect-exit 2 %cuda-advisor --cuda-path=bundled --export-fixes=%t/no-such-dir/fixes.yaml %s -- -x cuda 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=ERROR
// No toolkit needed: the bundled CUDA declarations (--cuda-path=bundled).

#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

void run(float *h, float *d, int n) {
  int threads = 256;
  for (int it = 0; it < 10; ++it)
    cudaMemcpy(d, h, 4096, cudaMemcpyHostToDevice);
  scale<<<n / threads, threads>>>(d, n);
}

// CHECK:---
// CHECK-NEXT:MainSourceFile:  '{{.*}}export-fixes.cu'
// CHECK-NEXT:Diagnostics:
// CHECK-NEXT:  - DiagnosticName:  transfer-in-loop
// CHECK-NEXT:    DiagnosticMessage:
// CHECK-NEXT:      Message:         'cudaMemcpy runs on every iteration of this loop; 4 KiB copied each time; {{.*}}'
// CHECK-NEXT:      FilePath:        '{{/.*}}/export-fixes.cu'
// CHECK-NEXT:      FileOffset:      {{[0-9]+}}
// CHECK-NEXT:      Replacements:    []
// CHECK-NEXT:      Ranges:
// CHECK-NEXT:        - FilePath:        '{{/.*}}/export-fixes.cu'
// CHECK-NEXT:          FileOffset:      {{[0-9]+}}
// CHECK-NEXT:          Length:          46
// CHECK-NEXT:    Notes:
// CHECK-NEXT:      - Message:         inside this loop
// CHECK-NEXT:        FilePath:        '{{/.*}}/export-fixes.cu'
// CHECK-NEXT:        FileOffset:      {{[0-9]+}}
// CHECK-NEXT:        Replacements:    []
// CHECK-NEXT:    Level:           Warning
// CHECK-NEXT:    BuildDirectory:  '{{/.*}}'
// CHECK-NEXT:  - DiagnosticName:  launch-grid-truncation
// CHECK-NEXT:    DiagnosticMessage:
// CHECK-NEXT:      Message:         'grid of n / threads blocks drops the last n % threads elements when n is not a multiple of threads; round up'
// CHECK-NEXT:      FilePath:        '{{/.*}}/export-fixes.cu'
// CHECK-NEXT:      FileOffset:      [[OFFSET:[0-9]+]]
// CHECK-NEXT:      Replacements:
// CHECK-NEXT:        - FilePath:        '{{/.*}}/export-fixes.cu'
// CHECK-NEXT:          Offset:          [[OFFSET]]
// CHECK-NEXT:          Length:          11
// CHECK-NEXT:          ReplacementText: '(n + threads - 1) / threads'
// CHECK-NEXT:      Ranges:
// CHECK-NEXT:        - FilePath:        '{{/.*}}/export-fixes.cu'
// CHECK-NEXT:          FileOffset:      [[OFFSET]]
// CHECK-NEXT:          Length:          11
// CHECK-NEXT:    Level:           Warning
// CHECK-NEXT:    BuildDirectory:  '{{/.*}}'
// CHECK-NEXT:...

// ERROR: cuda-advisor: error: {{.*}}no-such-dir/fixes.yaml: cannot write the fix-its: {{.+}}
