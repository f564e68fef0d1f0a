// A file with a syntax error Clang cannot get past.
#include <cuda_runtime.h>

__global__ void kernel(float *x {
  x[threadIdx.x] = 0;
}
