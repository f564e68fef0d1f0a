// RUN: %expect-exit 0 %cuda-advisor --checks='-*,compat-removed-api' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='note:' --implicit-check-not='warning:' --implicit-check-not='error:'
// The bundled CUDA declarations (no toolkit) give the same findings.
// RUN: %expect-exit 0 %cuda-advisor --cuda-path=bundled --checks='-*,compat-removed-api' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='note:' --implicit-check-not='warning:' --implicit-check-not='error:'
// REQUIRES: cuda
//
// Legacy code written for CUDA 11 and older: it parses against CUDA 13 only
// because cuda-advisor declares what the toolkit removed, and every such API
// is reported once per file (the first use), as a note (exit code 0).

#include <cuda_runtime.h>
#include <stdio.h>

// CHECK: :[[@LINE+1]]:1: note: texture<> was removed in CUDA 12.0; cuda-advisor declares it so the file can be analyzed: use a cudaTextureObject_t made with cudaCreateTextureObject [compat-removed-api]
texture<float, 1, cudaReadModeElementType> texA;
texture<float, 2> texB; // Same API: no second note.
texture<unsigned char, 2, cudaReadModeNormalizedFloat> texN;

__global__ void legacyKernel(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // CHECK: :[[@LINE+1]]:12: note: tex1Dfetch was removed in CUDA 12.0; cuda-advisor declares it so the file can be analyzed: fetch from a cudaTextureObject_t with tex1Dfetch<T> [compat-removed-api]
  out[i] = tex1Dfetch(texA, i) + tex1Dfetch(texA, i + 1);
  // CHECK: :[[@LINE+1]]:13: note: tex2D was removed in CUDA 12.0; cuda-advisor declares it so the file can be analyzed: fetch from a cudaTextureObject_t with tex2D<T> [compat-removed-api]
  out[i] += tex2D(texB, 0.5f, 0.5f) + tex2D(texN, 1.0f, 2.0f);
}

// Texture objects are the replacement: no note.
__global__ void modernKernel(cudaTextureObject_t tex, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch<float>(tex, i) + tex2D<float>(tex, 0.5f, 0.5f);
}

void legacyHost(float *d, int n) {
  // CHECK: :[[@LINE+1]]:3: note: cudaBindTexture was removed in CUDA 12.0; cuda-advisor declares it so the file can be analyzed: create a texture object with cudaCreateTextureObject [compat-removed-api]
  cudaBindTexture(0, texA, d, n * sizeof(float));
  cudaBindTexture(NULL, &texA, d, &texA.channelDesc, n * sizeof(float));
  texB.filterMode = cudaFilterModeLinear;
  texB.normalized = true;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  // CHECK: :[[@LINE+1]]:3: note: cudaBindTexture2D was removed in CUDA 12.0; cuda-advisor declares it so the file can be analyzed: create a texture object with cudaCreateTextureObject [compat-removed-api]
  cudaBindTexture2D(0, texB, d, desc, 32, 32, 32 * sizeof(float));
  legacyKernel<<<(n + 255) / 256, 256>>>(d, n);
  // CHECK: :[[@LINE+1]]:3: note: cudaThreadSynchronize was removed in CUDA 13.0; cuda-advisor declares it so the file can be analyzed: use cudaDeviceSynchronize [compat-removed-api]
  cudaThreadSynchronize();
  cudaThreadSynchronize(); // Reported once per file.
  // CHECK: :[[@LINE+1]]:3: note: cudaUnbindTexture was removed in CUDA 12.0; cuda-advisor declares it so the file can be analyzed: use cudaDestroyTextureObject [compat-removed-api]
  cudaUnbindTexture(texA);
  // CHECK: :[[@LINE+1]]:3: note: cudaThreadSetLimit was removed in CUDA 13.0; cuda-advisor declares it so the file can be analyzed: use cudaDeviceSetLimit [compat-removed-api]
  cudaThreadSetLimit(cudaLimitStackSize, 4096);
  cudaThreadExit(); // NOLINT(compat-removed-api)
}

void deviceInfo() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  // The fields CUDA 13 kept: no note.
  printf("%s %d.%d %d SMs\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
  // CHECK: :[[@LINE+2]]:26: note: cudaDeviceProp::clockRate was removed in CUDA 13.0; cuda-advisor declares it so the file can be analyzed: use cudaDeviceGetAttribute(&value, cudaDevAttrClockRate, device) [compat-removed-api]
  // CHECK: :[[@LINE+1]]:42: note: cudaDeviceProp::deviceOverlap was removed in CUDA 13.0; cuda-advisor declares it so the file can be analyzed: use cudaDeviceGetAttribute(&value, cudaDevAttrGpuOverlap, device) [compat-removed-api]
  printf("%d %d\n", prop.clockRate, prop.deviceOverlap);
  int clock = 0;
  cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0); // The replacement: no note.
  cudaDeviceProp *p = &prop;
  printf("%d\n", p->clockRate); // Same field again: no second note.
}

void unifiedMemory(float *m, size_t bytes, cudaStream_t s) {
  // CHECK: :[[@LINE+1]]:3: note: cudaMemPrefetchAsync(ptr, count, device, stream) was removed in CUDA 13.0; cuda-advisor declares it so the file can be analyzed: pass a cudaMemLocation and flags: cudaMemPrefetchAsync(ptr, count, {cudaMemLocationTypeDevice, device}, 0, stream) [compat-removed-api]
  cudaMemPrefetchAsync(m, bytes, 0, s);
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = 0;
  cudaMemPrefetchAsync(m, bytes, loc, 0, s); // CUDA 13's signature: no note.
  cudaMemAdvise(m, bytes, cudaMemAdviseSetReadMostly, loc);
}

