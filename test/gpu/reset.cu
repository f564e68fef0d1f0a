// Work, cudaDeviceReset, more work: the records of both halves must arrive
// (2 kernels, 4 copies).
#include "gpu_check.h"

#include <vector>

static void round(std::vector<float> &host) {
  const int n = static_cast<int>(host.size());
  float *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  gpu_check_scale<<<(n + 255) / 256, 256>>>(in, out, n);
  CHECK(cudaMemcpy(host.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
}

int main() {
  std::vector<float> host(1 << 20, 1.0f);
  round(host);
  CHECK(cudaDeviceReset());
  round(host);
  std::printf("reset: %f\n", host[0]);
  return 0;
}
