// Visual Studio's formatter (and its CUDA project template) writes launches as
// `addKernel << <1, size >> > (...)`. nvcc accepts that; the front end reads
// it as `<<<` ... `>>>` in place, so the file parses and locations (line and
// column) are those of the file on disk. A look-alike in valid C++ (an
// operator<< with explicit template arguments, a shift of a shift) is read
// as written.
//
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop,sync-in-loop' %s \
// RUN:   -- -x cuda -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <ostream>

template <typename T> struct Box;
template <typename T> std::ostream &operator<<(std::ostream &, const Box<T> &);
template <typename T> struct Box {
  T V;
  friend std::ostream &operator<< <>(std::ostream &, const Box<T> &);
};

__global__ void addKernel(int *c, const int *a, const int *b) {
  int i = threadIdx.x;
  c[i] = a[i] + b[i];
}

int shifts(int a, int b) { return (a << b) >> (b >> 1); }

int main() {
  const int size = 256;
  int a[size], b[size], c[size];
  int *dev_a, *dev_b, *dev_c;
  cudaMalloc(&dev_a, size * sizeof(int));
  cudaMalloc(&dev_b, size * sizeof(int));
  cudaMalloc(&dev_c, size * sizeof(int));
  for (int step = 0; step < 100; ++step) {
    cudaMemcpy(dev_a, a, size * sizeof(int), cudaMemcpyHostToDevice);
    // CHECK: visual-studio-launches.cu:[[@LINE-1]]:5: warning: {{.*}}[transfer-in-loop]
    cudaMemcpy(dev_b, b, size * sizeof(int), cudaMemcpyHostToDevice);
    // CHECK: visual-studio-launches.cu:[[@LINE-1]]:5: warning: {{.*}}[transfer-in-loop]
    addKernel << <1, size >> > (dev_c, dev_a, dev_b);
    cudaMemcpy(c, dev_c, size * sizeof(int), cudaMemcpyDeviceToHost);
    // CHECK: visual-studio-launches.cu:[[@LINE-1]]:5: warning: {{.*}}[transfer-in-loop]
  }
  // CHECK: 3 findings in 1 file.
  return shifts(c[0], 2);
}
