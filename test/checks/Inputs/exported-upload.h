// Declares transfer-pageable-async-once.cu's entry point for other files.
#include <cuda_runtime.h>
#include <vector>
void exported(float *d, const std::vector<float> &h, cudaStream_t s);
