// Host C++ of a legacy project, compiled by g++: calls the runtime API that
// CUDA 13 removed (see test/frontend/legacy-code.cu).
#include <cuda_runtime.h>
#include <stdio.h>

void finish(float *d) {
  cudaFree(d);
  // The thread-management API.
  cudaThreadSynchronize();
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  // A removed field.
  printf("%d\n", p.clockRate);
}
