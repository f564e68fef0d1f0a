__global__ void c(float *x) { x[threadIdx.x] += 1.0f; }
