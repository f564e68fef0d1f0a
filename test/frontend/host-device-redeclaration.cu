// nvcc takes a definition without attributes of a function declared
// __host__ __device__ for that function; Clang rejects it ("__host__
// function cannot overload __host__ __device__ function",
// llvm/llvm-project#141922). The front end parses such a file again with the
// attributes written before those definitions: the file is analyzed, with
// no compiler error, and the lines of its findings are those on disk.
//
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s \
// RUN:   -- -x cuda -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %cuda-advisor --verbose --checks='-*,transfer-in-loop' %s \
// RUN:   -- -x cuda -std=c++17 2>&1 | FileCheck %s --check-prefix=VERBOSE
//
// Look-alike: another error of the same file is still one (the attributes do
// not hide it).
// RUN: %expect-exit 2 %cuda-advisor --checks='-*,transfer-in-loop' %s \
// RUN:   -- -x cuda -std=c++17 -DWITH_ERROR 2>&1 | FileCheck %s --check-prefix=ERROR
//
// A finding on the line of a rewritten definition, after it, has the column
// of the file on disk.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s \
// RUN:   -- -x cuda -std=c++17 -DSAME_LINE 2>&1 | FileCheck %s --check-prefix=SAME
//
// More such definitions than Clang's error limit (50) reports in one parse:
// parsed again until none is left.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %python -c "n = 60; open('%t.dir/m.cuh', 'w').write('#pragma once\nstruct M {\n' + ''.join('  __host__ __device__ float f%%d(float a) const;\n' %% i for i in range(n)) + '};\n'); open('%t.dir/b.cu', 'w').write('#include \"m.cuh\"\n' + ''.join('float M::f%%d(float a) const { return a + %%d; }\n' %% (i, i) for i in range(n)))"
// RUN: %cuda-advisor --cuda-path=bundled %t.dir/b.cu -- -x cuda -std=c++17 2>&1 | FileCheck %s --check-prefix=MANY
// MANY: 0 findings in 1 file.
//
// The result cache keeps the digest of the file on disk: a second run hits.
// RUN: rm -rf %t.cache
// RUN: %expect-exit 1 %cuda-advisor --verbose --cache-dir=%t.cache --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 >/dev/null 2>&1
// RUN: %expect-exit 1 %cuda-advisor --verbose --cache-dir=%t.cache --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 2>&1 | FileCheck %s --check-prefix=CACHE
// CACHE: result cache: 1 hit, 0 misses, 0 stored
// REQUIRES: cuda

#include <cuda_runtime.h>
#include "Inputs/host-device-vec.cuh"

Vec3::Vec3() : x(0), y(0), z(0) {}
Vec3::Vec3(float x, float y, float z) : x(x), y(y), z(z) {}
// Clang accepts a destructor defined so: no attributes written before it.
Vec3::~Vec3() {}
float Vec3::dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
Vec3 Vec3::operator+(const Vec3 &o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
float length2(const Vec3 &v) { return v.dot(v); }

#ifdef SAME_LINE
// SAME: host-device-redeclaration.cu:[[@LINE+1]]:117: warning: cudaMemcpy runs on every iteration
float sum(const Vec3 &v) { return v.x + v.y + v.z; } void copyAll(float *d, float *h) { for (int i = 0; i < 4; ++i) cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice); }
#endif

__global__ void step(Vec3 *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = p[i] + Vec3(1, 0, 0);
}

#ifdef WITH_ERROR
// ERROR: :[[@LINE+1]]:1: error: unknown type name 'undeclared_t'
undeclared_t broken;
#endif

int main() {
  const int n = 1 << 20;
  Vec3 *h = new Vec3[n], *d;
  cudaMalloc(&d, n * sizeof(Vec3));
  for (int it = 0; it < 100; ++it) {
    // CHECK: host-device-redeclaration.cu:[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop
    cudaMemcpy(d, h, n * sizeof(Vec3), cudaMemcpyHostToDevice);
    step<<<n / 256, 256>>>(d, n);
    // CHECK: host-device-redeclaration.cu:[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop
    cudaMemcpy(h, d, n * sizeof(Vec3), cudaMemcpyDeviceToHost);
#ifdef SAME_LINE
    copyAll((float *)d, (float *)h); // Called: an uncalled function would be dead code.
#endif
  }
  // CHECK: 2 findings in 1 file
  return length2(h[0]) > 0;
}
// VERBOSE: parsed again with __host__ __device__ before 5 definitions of functions declared so
