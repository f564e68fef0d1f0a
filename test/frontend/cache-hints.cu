// The cache-hinted loads and stores of sm_32_intrinsics.h (__ldcs, __ldcg,
// __stcs, __stcg, ...) on builtin and vector types, which Clang's CUDA
// wrapper does not declare, and host code calling ::isfinite without
// including <math.h> (nvcc's headers include it): such files parse in all
// three modes, and the hinted accesses are analyzed as loads and stores.
//
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced' %s -- -x cuda -std=c++17 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %cuda-advisor --device-pass --checks='-*,access-uncoalesced' %s -- -x cuda \
// RUN:   -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,access-uncoalesced' %s -- -x cuda \
// RUN:   -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <stdio.h>
#if __has_include(<cuda_fp16.h>)
#include <cuda_fp16.h>
#define HAVE_FP16 1
#endif

// A 16-byte vector of any element type, loaded and stored with hints.
template <class T> struct alignas(16) Vec16 {
  T v[16 / sizeof(T)];
};
template <class T> __device__ Vec16<T> loadStreaming(const T *p) {
  int4 bits = __ldcs(reinterpret_cast<const int4 *>(p));
  Vec16<T> r;
  memcpy(&r, &bits, sizeof(bits));
  return r;
}
template <class T> __device__ void storeStreaming(T *p, Vec16<T> x) {
  int4 bits;
  memcpy(&bits, &x, sizeof(bits));
  __stcs(reinterpret_cast<int4 *>(p), bits);
}

__global__ void axpyStreaming(float *y, const float *x, float a, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i < n) {
    Vec16<float> vx = loadStreaming(x + i), vy = loadStreaming(y + i);
    for (int k = 0; k < 4; ++k)
      vy.v[k] += a * vx.v[k];
    storeStreaming(y + i, vy);
  }
}

// Scalar hints: a row per thread is uncoalesced, a column per thread is not.
__global__ void rowSums(float *sums, const float *m, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    // CHECK: cache-hints.cu:[[@LINE+1]]:10: warning: uncoalesced global load of 'm': consecutive threads are 64 bytes (16 elements) apart{{.*}}[access-uncoalesced]
    s += __ldcg(&m[r * cols + c]);
  __stcg(&sums[r], s);
}

__global__ void colSums(float *sums, const float *m, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0.0f;
  for (int r = 0; r < rows; ++r)
    s += __ldcg(&m[r * cols + c]);
  __stwt(&sums[c], s);
}

#ifdef HAVE_FP16
// The __half overloads of cuda_fp16.h still win over the generic ones.
__global__ void halves(__half *out, const __half *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __stcs(out + i, __ldcs(in + i));
}
#endif

// Host code: ::isfinite on a float without <math.h>.
int countFinite(const float *v, int n) {
  int k = 0;
  for (int i = 0; i < n; ++i)
    if (isfinite(v[i]))
      ++k;
  return k;
}

int main() {
  float *d = nullptr;
  cudaMalloc(&d, 1 << 20);
  axpyStreaming<<<256, 256>>>(d, d, 2.0f, 1 << 18);
  rowSums<<<4096, 256>>>(d, d, 1 << 20, 16);
  colSums<<<64, 256>>>(d, d, 16, 1 << 14);
  printf("%d\n", countFinite(d, 0));
  return 0;
}
