// A project header (found with -I): its findings are shown.
#pragma once
#include <cuda_runtime.h>
inline void userHeaderLoop(float *d, const float *h, int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpy(d, h, 256, cudaMemcpyHostToDevice);
}
