// A file whose own code declares CUDA runtime functions with signatures that
// conflict with the toolkit's (`void cudaMalloc(void **, size_t)`, the
// stand-in runtime of a CUDA-to-FPGA flow such as FCUDA, or of a CPU
// emulation) is written for another implementation of CUDA: its kernels never
// run on a GPU as written, and none of its findings is reported (the
// compiler's errors, naming the declarations, say why). Look-alikes keep
// their findings: a file with an unrelated error, a file that adds a
// compatible overload of a runtime function of its own, and an overload whose
// parameter type is unknown (its header missing).
// RUN: %expect-exit 2 %cuda-advisor --checks='-*,access-uncoalesced,transfer-in-loop' %s -- -x cuda -std=c++17 -I %S/Inputs \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='warning:'
// The project's headers searched as system headers (-isystem, -idirafter): the same.
// RUN: %expect-exit 2 %cuda-advisor --checks='-*,access-uncoalesced,transfer-in-loop' %s -- -x cuda -std=c++17 -idirafter %S/Inputs \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 2 %cuda-advisor --checks='-*,access-uncoalesced,transfer-in-loop' %s -- -x cuda -std=c++17 -DUNRELATED_ERROR \
// RUN:   2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: %expect-exit 2 %cuda-advisor --checks='-*,access-uncoalesced,transfer-in-loop' %s -- -x cuda -std=c++17 -DUNKNOWN_TYPE_OVERLOAD \
// RUN:   2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced,transfer-in-loop' %s -- -x cuda -std=c++17 -DOWN_OVERLOAD \
// RUN:   2>&1 | FileCheck %s --check-prefix=OTHER
// REQUIRES: cuda

#include <cuda_runtime.h>
#if defined(UNRELATED_ERROR)
int broken = undeclared_name;
#elif defined(UNKNOWN_TYPE_OVERLOAD)
// A typed overload whose parameter type comes from a header that is missing
// (a generated one): an unknown type name, not a conflicting runtime.
cudaError_t cudaMemcpy(HalfBuffer &dst, const float *src, size_t n);
#elif defined(OWN_OVERLOAD)
// A typed convenience overload, compatible with the runtime's.
template <class T> cudaError_t cudaMalloc(T **p, size_t n, int) { return cudaMalloc((void **)p, n); }
#else
// CHECK: fpga_runtime.h:{{[0-9]+}}:6: error: functions that differ only in their return type cannot be overloaded
#include "fpga_runtime.h"
#endif

__global__ void column(float *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // OTHER: foreign-runtime.cu:[[@LINE+1]]:{{[0-9]+}}: warning: uncoalesced global {{.*}}'m'
  m[i * n] += 1.0f;
}

int main() {
  int n = 4096;
  float *h = new float[n * n], *d;
  cudaMalloc((void **)&d, n * n * sizeof(float));
  for (int it = 0; it < 100; ++it) {
    // OTHER: foreign-runtime.cu:[[@LINE+1]]:{{[0-9]+}}: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(d, h, n * n * sizeof(float), cudaMemcpyHostToDevice);
    column<<<n / 256, 256>>>(d, n);
  }
  return 0;
}
