// A third-party header found with -isystem: its findings are shown only when
// --header-filter matches it.
#pragma once
#include <cuda_runtime.h>
inline void vendorLoop(float *d, const float *h, int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpy(d, h, 512, cudaMemcpyHostToDevice);
}
