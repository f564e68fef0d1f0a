// The join keys of kernel findings are the device symbols a profile shows
// (CUPTI kernel records, nsys), not the host stubs of a host-side parse.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,launch-block-size' --format=json %s -- -x cuda \
// RUN:   | FileCheck %s
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,launch-block-size' --format=json %s -- -x cuda \
// RUN:   | FileCheck %s

#include <cuda_runtime.h>

__global__ void add(float *x, int n) { x[threadIdx.x] = n; }
template <typename T> __global__ void fill(T *x) { x[threadIdx.x] = T(); }
namespace ns {
__global__ void scaled(float *x) { x[threadIdx.x] *= 2; }
}
extern "C" __global__ void plain(float *x) { x[threadIdx.x] = 0; }

void launch(float *d, double *e) {
  add<<<999, 100>>>(d, 1);
  fill<<<999, 100>>>(d);
  fill<<<999, 100>>>(e);
  ns::scaled<<<999, 100>>>(d);
  plain<<<999, 100>>>(d);
}

// Each launch names only the instantiation it launches.
// CHECK:      "kernels": [
// CHECK-NEXT:   "_Z3addPfi"
// CHECK-NEXT: ]
// CHECK:      "kernels": [
// CHECK-NEXT:   "_Z4fillIfEvPT_"
// CHECK-NEXT: ]
// CHECK:      "kernels": [
// CHECK-NEXT:   "_Z4fillIdEvPT_"
// CHECK-NEXT: ]
// CHECK:      "kernels": [
// CHECK-NEXT:   "_ZN2ns6scaledEPf"
// CHECK-NEXT: ]
// CHECK:      "kernels": [
// CHECK-NEXT:   "plain"
// CHECK-NEXT: ]
// CHECK-NOT: __device_stub__
