#include <cuda_runtime.h>
#ifndef FROM_DATABASE
#error "FROM_DATABASE is not defined"
#endif

void loop(float *d, const float *h, int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice);
}
