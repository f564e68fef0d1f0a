// --device-pass parses each CUDA file a second time for the GPU
// (--cuda-device-only): code under #if __CUDA_ARCH__ is then analyzed too,
// and host code with <<<>>> launches still parses (Clang is told the CUDA
// version, which picks the launch API). Findings of both passes are merged.
// (`-fgpu-rdc`, as nvcc's -rdc=true, which device-side launches need.)
//
// RUN: %expect-exit 0 %cuda-advisor --checks='-*,compat-removed-api' %s -- -x cuda \
// RUN:   --cuda-gpu-arch=sm_80 -fgpu-rdc 2>&1 | FileCheck %s --check-prefixes=CHECK,HOST --implicit-check-not=error: --implicit-check-not=note:
// RUN: %expect-exit 0 %cuda-advisor --device-pass --checks='-*,compat-removed-api' %s -- -x cuda \
// RUN:   --cuda-gpu-arch=sm_80 -fgpu-rdc 2>&1 | FileCheck %s --check-prefixes=CHECK,DEVICE,HOST --implicit-check-not=error: --implicit-check-not=note:
// RUN: %expect-exit 0 %cuda-advisor --cuda-path=bundled --device-pass --checks='-*,compat-removed-api' \
// RUN:   %s -- -x cuda --cuda-gpu-arch=sm_80 -fgpu-rdc 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,DEVICE,HOST --implicit-check-not=error: --implicit-check-not=note:
// REQUIRES: cuda

#include <cuda_runtime.h>

// CHECK: device-pass.cu:[[@LINE+1]]:1: note: texture<> was removed{{.*}}[compat-removed-api]
texture<float, 1, cudaReadModeElementType> tex;

__global__ void gather(float *out) {
  int i = threadIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  // DEVICE: device-pass.cu:[[@LINE+1]]:12: note: tex1Dfetch was removed{{.*}}[compat-removed-api]
  out[i] = tex1Dfetch(tex, i);
#else
  out[i] = 0.0f;
#endif
}

// Dynamic parallelism (a launch from device code): nvcc accepts it with
// -rdc, Clang reports it only when it emits device code; the device pass
// does not count it as a parse error.
__global__ void child(float *out) { out[threadIdx.x] += 1.0f; }
__global__ void parent(float *out) {
  if (threadIdx.x == 0)
    child<<<1, 128>>>(out);
}

void launch(float *d) {
  gather<<<1, 128>>>(d);
#ifndef __CUDA_ARCH__
  // HOST: device-pass.cu:[[@LINE+1]]:3: note: cudaThreadSynchronize was removed{{.*}}[compat-removed-api]
  cudaThreadSynchronize();
#endif
}
