// A macro whose whole expansion is a double literal (`#define DAMP 0.01`), or
// a double constant, that promotes several float computations of a function
// is one thing to fix: one finding at its first use, counting the
// computations, with a note at the definition, and every use's fix. A
// generated benchmark's kernels of a thousand statements using one such
// macro gave one finding per statement (round 18 of docs/evaluation.md).
// Each function has its own finding (its priority is its own), and a
// template's instantiations one. Look-alikes keep a finding each: literals
// written out at each use, a function-like macro, a computation whose causes
// are the macro and a double function.
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

// A template instantiated twice: one finding for its two computations.
template <typename T> __global__ void damped(float *x, T n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = x[i] + x[i] * DAMP;
    x[i] = x[i] - x[i] * DAMP;
  }
}
template __global__ void damped<int>(float *, int);
template __global__ void damped<long>(float *, long);


// CHECK: kernel-double-promotion-named-causes.cu:30:26: warning: float arithmetic promoted to double by the double literal DAMP (0.01) in 2 computations of 'relax': {{.*}}; use static_cast<float>(DAMP) at each use, or define it as a float literal where no double code uses it [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:23:14: note: 'DAMP' is defined here
// CHECK: kernel-double-promotion-named-causes.cu:31:12: note: another computation it promotes
// CHECK: kernel-double-promotion-named-causes.cu:38:26: warning: float arithmetic promoted to double by the double literal DAMP (0.01): {{.*}}; use static_cast<float>(DAMP) [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:44:26: warning: float arithmetic promoted to double by the double constant 'kGain' in 2 computations of 'gain': {{.*}}; use float constants at each use, or declare it float where no double code uses it [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:25:14: note: 'kGain' is declared double here
// CHECK: kernel-double-promotion-named-causes.cu:45:12: note: another computation it promotes
// CHECK: kernel-double-promotion-named-causes.cu:53:26: warning: {{.*}}the double literal CMDLINE (0.25) in 2 computations of 'cmdline'{{.*}} [kernel-double-promotion]
// CHECK: note: 'CMDLINE' is defined on the command line (-DCMDLINE=...)
// CHECK: kernel-double-promotion-named-causes.cu:54:12: note: another computation it promotes
// CHECK: kernel-double-promotion-named-causes.cu:62:26: warning: {{.*}}the double literal 0.01: {{.*}}; use 0.01f [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:63:26: warning: {{.*}}the double literal 0.01: {{.*}}; use 0.01f [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:64:19: warning: {{.*}}the double literal SCALED (0.3): {{.*}} [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:65:19: warning: {{.*}}the double literal SCALED (0.3): {{.*}} [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:73:19: warning: {{.*}}the double literal DAMP (0.01) and the double function sqrt: {{.*}} [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:80:26: warning: {{.*}}the double literal DAMP (0.01) in 2 computations of 'damped': {{.*}} [kernel-double-promotion]
// CHECK: kernel-double-promotion-named-causes.cu:81:12: note: another computation it promotes
//
// FIXED: x[i] = x[i] + x[i] * static_cast<float>(DAMP);
// FIXED: y[i] = y[i] - y[i] * static_cast<float>(DAMP);
// FIXED: x[i] = x[i] + x[i] * static_cast<float>(DAMP);
// FIXED: x[i] = x[i] + x[i] * static_cast<float>(kGain);
// FIXED: y[i] = y[i] + y[i] * static_cast<float>(kGain);
