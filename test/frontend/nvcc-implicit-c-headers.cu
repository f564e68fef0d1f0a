// nvcc's cuda_runtime.h reaches crt/common_functions.h, which includes
// <string.h>, <time.h>, <stdio.h>, <stdlib.h> and <assert.h>: host code that
// calls time(), clock(), memset(), strcpy(), rand() or assert() without
// including them compiles with nvcc, and parses here too (no compiler
// error; the checks run: the copy in the loop is reported). The device
// clock() (a kernel timing itself) is still the device one.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// REQUIRES: cuda

__global__ void scale(float *x, int n, long long *cycles) {
  long long t0 = clock64();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
  cycles[0] = clock64() - t0 + clock();
}

int main() {
  srand(time(NULL));
  char name[16];
  memset(name, 0, sizeof name);
  strcpy(name, "run");
  clock_t start = clock();
  int n = 1 << 20;
  float *h = (float *)malloc(n * sizeof(float));
  assert(h != NULL);
  float *d;
  long long *cycles;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&cycles, sizeof(long long));
  for (int it = 0; it < 100; ++it) {
    h[0] = (float)rand();
    // CHECK: nvcc-implicit-c-headers.cu:[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<n / 256, 256>>>(d, n, cycles);
  }
  printf("%s %ld\n", name, (long)(clock() - start));
  free(h);
  return 0;
}
// CHECK: 1 finding in 1 file
