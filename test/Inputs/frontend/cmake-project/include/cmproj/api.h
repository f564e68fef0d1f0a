// The host interface of the kernels library, for C++ files.
#pragma once
#include <cuda_runtime.h>

void saxpy(float a, const float *x, float *y, int n);
float blockReduce(const float *x, int n);
