#include <cuda_runtime.h>
#ifndef FROM_DATABASE
#error "the compile command of compile_commands.json was not used"
#endif

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * 0.1;
}

void run(float *d, const float *h, int n) {
  for (int r = 0; r < 10; ++r) {
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<(n + 255) / 256, 256>>>(d, n);
  }
}
