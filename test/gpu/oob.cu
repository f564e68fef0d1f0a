// The failure the issue saw: a kernel with an out-of-bounds index makes every
// later call fail (cudaErrorIllegalAddress is sticky). Like a careless
// program, the loop goes on without checking. The profile must say which call
// failed first, where, and how many failed.
#include "gpu_check.h"

#include <vector>

__global__ void gpu_check_out_of_bounds(float *p, int n) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  // 1 << 40 floats past the buffer: far outside any allocation.
  if (i < static_cast<size_t>(n))
    p[i + (static_cast<size_t>(1) << 40)] = 1.0f;
}

int main() {
  const int n = 1 << 20;
  std::vector<float> host(n, 1.0f);
  float *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  int failures = 0;
  for (int it = 0; it < 100; ++it) {
    failures += cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess;
    if (it == 0)
      gpu_check_out_of_bounds<<<(n + 255) / 256, 256>>>(out, n);
    else
      gpu_check_scale<<<(n + 255) / 256, 256>>>(in, out, n);
    failures += cudaMemcpy(host.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess;
  }
  std::printf("oob: %d failed copies; last error %s\n", failures,
              cudaGetErrorName(cudaGetLastError()));
  return failures ? 1 : 0;
}
