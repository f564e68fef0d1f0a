// Host code compiled by the C++ compiler, calling the CUDA runtime.
#include <cmproj/api.h>
#include <cstdio>
#include <vector>

#ifndef CMPROJ_APP
#error "CMPROJ_APP is a private definition of the app target"
#endif

int main() {
  const int N = 1 << 20;
  std::vector<float> h(N, 1.0f);
  float *x, *y;
  cudaMalloc(&x, N * sizeof(float));
  cudaMalloc(&y, N * sizeof(float));
  for (int step = 0; step < 10; ++step) {
    cudaMemcpy(x, h.data(), N * sizeof(float), cudaMemcpyHostToDevice);
    saxpy(2.0f, x, y, N);
  }
  std::printf("%f\n", blockReduce(y, N));
  cudaFree(x);
  cudaFree(y);
}
