// Helper headers of public projects test the toolkit's include guards to see
// what the file included (an error-check macro defined only when the runtime
// types are there), and use CUDART_CB and the deprecated flag names. The
// bundled declarations must look the same to them as a real toolkit.
//
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,transfer-in-loop' %s -- -x cuda \
// RUN:   -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --device-pass --checks='-*,transfer-in-loop' \
// RUN:   %s -- -x cuda -std=c++17 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

// What such a helper header does.
#ifdef __DRIVER_TYPES_H__
template <typename Status> void reportFailure(Status S, const char *What) {
  if (S != cudaSuccess) {
    std::fprintf(stderr, "%s failed\n", What);
    std::exit(1);
  }
}
#define MUST(call) reportFailure((call), #call)
#endif

#ifdef __CUDA_RUNTIME_H__
inline int pickDevice() {
  int Count = 0;
  MUST(cudaGetDeviceCount(&Count));
  MUST(cudaSetDeviceFlags(cudaDeviceBlockingSync));
  return Count > 0 ? 0 : -1;
}
#endif

#if !defined(__VECTOR_TYPES_H__) || !defined(__CUDA_RUNTIME_API_H__)
#error "the runtime headers' guards should be defined"
#endif

static void CUDART_CB whenDone(cudaStream_t, cudaError_t, void *) {}

__global__ void bump(float *Data, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] += 1.0f;
}

int main() {
  const int N = 1 << 20;
  pickDevice();
  float *Host = static_cast<float *>(std::malloc(N * sizeof(float)));
  float *Dev = nullptr;
  MUST(cudaMalloc(&Dev, N * sizeof(float)));
  cudaStream_t S;
  MUST(cudaStreamCreate(&S));
  for (int Step = 0; Step < 100; ++Step) {
    // CHECK: header-guards.cu:[[@LINE+1]]:10: warning: cudaMemcpy runs on every iteration
    MUST(cudaMemcpy(Dev, Host, N * sizeof(float), cudaMemcpyHostToDevice));
    bump<<<(N + 255) / 256, 256, 0, S>>>(Dev, N);
  }
  MUST(cudaStreamAddCallback(S, whenDone, nullptr, 0));
  MUST(cudaStreamSynchronize(S));
  MUST(cudaFree(Dev));
  std::free(Host);
  return 0;
}
