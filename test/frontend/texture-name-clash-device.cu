// A name that clashes with the compat texture templates only in the device
// pass (#ifdef __CUDA_ARCH__) makes the device pass parse again without
// them; the compiler errors the host pass found still count.
//
// RUN: %expect-exit 2 %cuda-advisor --device-pass --checks='-*,transfer-in-loop' %s -- -x cuda \
// RUN:   --cuda-gpu-arch=sm_80 -DHOST_ERROR 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: %expect-exit 1 %cuda-advisor --device-pass --checks='-*,transfer-in-loop' %s -- -x cuda \
// RUN:   --cuda-gpu-arch=sm_80 2>&1 | FileCheck %s --check-prefix=FINE --implicit-check-not=error:
// REQUIRES: cuda

// BROKEN: error: {{.*}}texture-name-clash-device.cu: the file has compiler errors
// BROKEN: texture-name-clash-device.cu:[[@LINE+3]]:{{[0-9]+}}: error: unknown type name 'not_a_type'

#if !defined(__CUDA_ARCH__) && defined(HOST_ERROR)
not_a_type broken;
#endif

#include <cuda_runtime.h>

#ifdef __CUDA_ARCH__
__device__ int texture;
#endif

__global__ void scale(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2.0f;
}

void run(float *d, const float *h, int n) {
  for (int f = 0; f < 3; ++f) {
    // BROKEN: texture-name-clash-device.cu:[[@LINE+2]]:5: warning: {{.*}}[transfer-in-loop]
    // FINE: texture-name-clash-device.cu:[[@LINE+1]]:5: warning: {{.*}}[transfer-in-loop]
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<(n + 255) / 256, 256>>>(d, n);
  }
}
