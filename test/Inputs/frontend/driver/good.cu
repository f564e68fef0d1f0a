// A file that parses, with one finding.
#include <cuda_runtime.h>

void stepLoop(float *dev, const float *host, int steps) {
  for (int s = 0; s < steps; ++s)
    cudaMemcpy(dev, host, 1024, cudaMemcpyHostToDevice);
}
