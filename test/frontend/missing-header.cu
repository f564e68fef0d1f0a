// A header that is not found is a fatal error: Clang goes on parsing but
// stops instantiating templates, so `dim3 grid(divUp(n, 256))` keeps an
// initializer without a type. The launch checks must not follow it (they
// crashed on it); the rest of the file is still analyzed and the exit code
// is 2, in all three modes.
//
// RUN: %expect-exit 2 %cuda-advisor %s -- -x cuda -std=c++17 > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.out --implicit-check-not=warning:
// RUN: FileCheck %s --input-file=%t.err --check-prefix=ERR
// RUN: %expect-exit 2 %cuda-advisor --device-pass %s -- -x cuda -std=c++17 > %t.dev.out 2> %t.dev.err
// RUN: FileCheck %s --input-file=%t.dev.out --implicit-check-not=warning:
// RUN: %expect-exit 2 %cuda-advisor --cuda-path=bundled %s -- -x cuda -std=c++17 > %t.b.out 2> %t.b.err
// RUN: FileCheck %s --input-file=%t.b.out --implicit-check-not=warning:
// RUN: FileCheck %s --input-file=%t.b.err --check-prefix=ERR
// REQUIRES: cuda

// ERR: cuda-advisor: error: {{.*}}missing-header.cu: the file has compiler errors; findings come from what Clang could recover:
// ERR-NEXT: missing-header.cu:[[@LINE+1]]:10: fatal error: 'vendor_blas_v9.h' file not found
#include <vendor_blas_v9.h>
#include <cuda_runtime.h>

template <class T> __host__ __device__ T divUp(T a, T b) { return (a + b - 1) / b; }

__global__ void scaleRows(float *out, const float *in, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    out[r * cols + c] = 2.0f * in[r * cols + c];
}

// The grid and block come from template calls Clang did not instantiate.
void launchTemplated(float *out, const float *in, int rows, int cols, int side) {
  dim3 grid(divUp(cols, side), divUp(rows, side));
  dim3 block(side, side);
  scaleRows<<<grid, block>>>(out, in, rows, cols);
}

// A plain grid of the same file is still checked.
void launchPlain(float *out, const float *in, int n) {
  dim3 grid(n / 256);
  // CHECK: missing-header.cu:[[@LINE-1]]:13: warning: grid of n / 256 blocks drops the last n % 256 elements {{.*}}[launch-grid-truncation]
  scaleRows<<<grid, 256>>>(out, in, 1, n);
}
