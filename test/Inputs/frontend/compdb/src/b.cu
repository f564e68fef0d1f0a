#include <cuda_runtime.h>
#include <vendor.h>
#if FROM_ARGUMENTS != 2
#error "the -D of the \"arguments\" entry did not reach the parse"
#endif

void scratch(int steps) {
  for (int s = 0; s < steps; ++s) {
    float *tmp;
    cudaMalloc(&tmp, VENDOR_COUNT * sizeof(float));
    cudaFree(tmp);
  }
}
