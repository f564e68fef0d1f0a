// Includes a project header and a system (-isystem) header with findings.
#include "user-header.cuh"
#include <vendor-lib.cuh>

void mainLoop(float *d, const float *h, int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpy(d, h, 128, cudaMemcpyHostToDevice);
}
