__global__ void d(double *x) { x[threadIdx.x] *= 0.1; }
__global__ void d2(float *x) { x[threadIdx.x] *= 0.7; }
