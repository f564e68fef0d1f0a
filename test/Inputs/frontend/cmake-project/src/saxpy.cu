#include <cmproj/saxpy.cuh>

#ifndef CMPROJ_KERNELS
#error "CMPROJ_KERNELS is a private definition of the kernels target"
#endif

void saxpy(float a, const float *x, float *y, int n) {
  // A grid that drops the tail, and a block that is not a multiple of 32.
  saxpyKernel<<<n / CMPROJ_BLOCK, CMPROJ_BLOCK>>>(a, x, y, n);
  saxpyKernel<<<(n + 99) / 100, 100>>>(a, x, y, n);
}
