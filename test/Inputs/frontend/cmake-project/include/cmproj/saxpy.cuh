// The kernel lives in a header, as in many projects.
#pragma once
#include <cmproj/api.h>

#ifndef CMPROJ_BLOCK
#error "CMPROJ_BLOCK comes from the target's compile definitions"
#endif

__global__ void saxpyKernel(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
