#include "scale.cuh"
__global__ void b(float *x) { x[threadIdx.x] = x[threadIdx.x] * 0.2 + 1.0f; }
