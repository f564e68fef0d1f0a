// Modern code may use `texture` and `surface` as its own global names
// (OpenGL interop: a GL texture handle). The compat templates of the legacy
// texture references would clash: the file is parsed again without them, and
// parses with no error.
//
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop,compat-removed-api' %s \
// RUN:   -- -x cuda 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not='[compat-removed-api]'
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,transfer-in-loop,compat-removed-api' \
// RUN:   %s -- -x cuda 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not='[compat-removed-api]'
// RUN: %expect-exit 1 %cuda-advisor --verbose --checks='-*,transfer-in-loop' %s -- -x cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VERBOSE
// REQUIRES: cuda

// VERBOSE: note: {{.*}}texture-name-clash.cu: the file declares its own 'texture' or 'surface': parsed again without the legacy texture and surface references

#include <cuda_runtime.h>

typedef unsigned int GLuint;
GLuint texture;
struct surface {
  int width, height;
};
surface screen;

__global__ void shade(float *pixels, int n, cudaTextureObject_t tex) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    pixels[i] = tex1Dfetch<float>(tex, i);
}

void frame(float *d, const float *h, int n, cudaTextureObject_t tex) {
  for (int f = 0; f < 3; ++f) {
    // CHECK: texture-name-clash.cu:[[@LINE+1]]:5: warning: {{.*}}[transfer-in-loop]
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    shade<<<(n + 255) / 256, 256>>>(d, n, tex);
  }
  texture = 0;
  screen.width = 640;
  // cudaThreadSynchronize is still declared (it does not clash).
  // CHECK: texture-name-clash.cu:[[@LINE+1]]:3: note: cudaThreadSynchronize was removed{{.*}}[compat-removed-api]
  cudaThreadSynchronize();
}
