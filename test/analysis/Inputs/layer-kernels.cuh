// Declares a kernel of hot-path-unlaunched-layer.cu for other files to launch.
__global__ void declaredInHeader(const float *a, float *out, int n);
