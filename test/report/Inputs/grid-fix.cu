// A file with one launch-grid-truncation fix-it (for the --fix tests).
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

void run(float *d, int n) {
  int threads = 256;
  scale<<<n / threads, threads>>>(d, n);
}
