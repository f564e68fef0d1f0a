// A macro whose whole expansion is a double literal (`#define DAMP 0.01`), or
// a double constant, that promotes several float computations of a file is
// one thing to fix: one finding at its first use, counting the computations
// and functions, with a note at the definition, and every use's fix. A
// generated benchmark of thousands of kernels using one such macro gave one
// finding per statement (round 18 of docs/evaluation.md). Look-alikes keep a
// finding each: literals written out at each use, a function-like macro,
// a computation whose causes are the macro and a double function.
// RUN: echo "{CheckOptions: {kernel-double-promotion.ReportMemoryBound: 1}}" > %t.yaml
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,kernel-double-promotion' --config %t.yaml %s \
// RUN:   -- -x cuda -std=c++17 -DCMDLINE=0.25 | FileCheck %s --implicit-check-not='warning:'
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/named.cu
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,kernel-double-promotion' --config %t.yaml --fix %t/named.cu \
// RUN:   -- -x cuda -std=c++17 -DCMDLINE=0.25 > /dev/null 2>&1
// RUN: FileCheck %s --check-prefix=FIXED < %t/named.cu
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <cmath>

#define DAMP 0.01
#define SCALED(x) ((x) * 0.3)
const double kGain = 0.7;

__global__ void relax(float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = x[i] + x[i] * DAMP;
    y[i] = y[i] - y[i] * DAMP;
  }
}

__global__ void relax2(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] + x[i] * DAMP;
}

__global__ void gain(float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = x[i] + x[i] * kGain;
    y[i] = y[i] + y[i] * kGain;
  }
}

// A macro of the command line: its note says so.
__global__ void cmdline(float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = x[i] + x[i] * CMDLINE;
    y[i] = y[i] + y[i] * CMDLINE;
  }
}

// Look-alikes: one finding per computation.
__global__ void written(float *x, float *y, float *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = x[i] + x[i] * 0.01;
    y[i] = y[i] - y[i] * 0.01;
    z[i] = z[i] + SCALED(z[i]);
    x[i] = x[i] - SCALED(y[i]);
  }
}

// A computation whose causes are the macro and a double function is its own.
__global__ void mixed(float *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = z[i] + sqrt(z[i] * DAMP);
}

// CHECK: kernel-double-promotion-named-causes.cu:28:26: warning: float arithmetic promoted to double by the double literal DAMP (0.01) in 3 computations of 2 functions of this file: {{.*}}; use static_cast<float>(DAMP) at each use, or define it as a float literal where no double code uses it [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:21:14: note: 'DAMP' is defined here
// CHECK: kernel-double-promotion-named-causes.cu:29:12: note: another computation it promotes
// CHECK: kernel-double-promotion-named-causes.cu:36:12: note: another computation it promotes
// CHECK: kernel-double-promotion-named-causes.cu:42:26: warning: float arithmetic promoted to double by the double constant 'kGain' in 2 computations of this file: {{.*}}; use float constants at each use, or declare it float where no double code uses it [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:23:14: note: 'kGain' is declared double here
// CHECK: kernel-double-promotion-named-causes.cu:43:12: note: another computation it promotes
// CHECK: kernel-double-promotion-named-causes.cu:51:26: warning: {{.*}}the double literal CMDLINE (0.25) in 2 computations of this file{{.*}} [kernel-double-promotion]
// CHECK: note: 'CMDLINE' is defined on the command line (-DCMDLINE=...)
// CHECK: kernel-double-promotion-named-causes.cu:52:12: note: another computation it promotes
// CHECK: kernel-double-promotion-named-causes.cu:60:26: warning: {{.*}}the double literal 0.01: {{.*}}; use 0.01f [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:61:26: warning: {{.*}}the double literal 0.01: {{.*}}; use 0.01f [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:62:19: warning: {{.*}}the double literal SCALED (0.3): {{.*}} [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:63:19: warning: {{.*}}the double literal SCALED (0.3): {{.*}} [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:71:19: warning: {{.*}}the double literal DAMP (0.01) and the double function sqrt: {{.*}} [kernel-double-promotion]
//
// FIXED: x[i] = x[i] + x[i] * static_cast<float>(DAMP);
// FIXED: y[i] = y[i] - y[i] * static_cast<float>(DAMP);
// FIXED: x[i] = x[i] + x[i] * static_cast<float>(DAMP);
// FIXED: x[i] = x[i] + x[i] * static_cast<float>(kGain);
// FIXED: y[i] = y[i] + y[i] * static_cast<float>(kGain);
