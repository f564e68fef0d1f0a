// 100 iterations of (copy in, kernel, copy out), nothing else: the profile
// must hold exactly 100 kernel and 200 copy records, all with durations.
#include "gpu_check.h"

#include <vector>

int main() {
  const int n = 1 << 20;
  std::vector<float> host(n, 1.0f);
  float *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  for (int it = 0; it < 100; ++it) {
    CHECK(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    gpu_check_scale<<<(n + 255) / 256, 256>>>(in, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(host.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  std::printf("copy_loop: %f\n", host[0]);
  return 0;
}
