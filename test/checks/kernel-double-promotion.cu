// The spelling of causes, fixes and sinks; the kernels here are toys that
// stay memory-bound, so ReportMemoryBound is on (the roofline gate has its own
// test, kernel-double-promotion-intensity.cu).
// RUN: echo "{CheckOptions: {kernel-double-promotion.ReportMemoryBound: 1}}" > %t.all.yaml
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,kernel-double-promotion' --config %t.all.yaml %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// The bundled CUDA declarations (no toolkit) give the same findings.
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,kernel-double-promotion' --config %t.all.yaml %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,kernel-double-promotion' --config %t.all.yaml --format json %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=JSON
// RUN: echo "{CheckOptions: {kernel-double-promotion.ReportFoldable: 1, kernel-double-promotion.ReportMemoryBound: 1}}" > %t.yaml
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,kernel-double-promotion' --config %t.yaml %s \
// RUN:   -- -x cuda -std=c++17 | FileCheck %s --check-prefix=FOLD
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <cmath>

#define SCALE 0.1
constexpr double kLn2 = 0.6931471805599453;

// ---- Float computations that run in double. ----

__global__ void literals(const float *in, float *out, int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i];
  // CHECK: :[[@LINE+1]]:16: warning: float arithmetic promoted to double by the double literal 0.1: it runs in FP64, at 1/2 of the FP32 rate on H100/H200 and 1/64 on GeForce and L4/L40S-class GPUs, plus conversions; use 0.1f [kernel-double-promotion]
  out[i] = x * 0.1;
  // CHECK: :[[@LINE+4]]:16: warning: float arithmetic promoted to double by the double literals 2.5 and 1.0{{.*}}; use 2.5f and 1.0f [kernel-double-promotion]
  // CHECK-NEXT: out[i] = x * 2.5 + 1.0;
  // CHECK-NEXT: ~~~~^~~~~~~~~
  // CHECK-NEXT: {{^}}      |                2.5f  1.0f{{$}}
  out[i] = x * 2.5 + 1.0;
  // The literal's spelling is kept.
  // CHECK: :[[@LINE+3]]:12: warning: {{.*}}the double literals 1.e-3 and 1.{{.*}}; use 1.e-3f and 1.f [kernel-double-promotion]
  // CHECK-NEXT: out[i] = 1.e-3 * x + 1.;
  // CHECK: {{^}}      |            1.e-3f      1.f{{$}}
  out[i] = 1.e-3 * x + 1.;
  // Converted to an integer: still computed in double.
  // CHECK: :[[@LINE+1]]:16: warning: {{.*}}the double literal 2.5{{.*}} [kernel-double-promotion]
  idx[i] = x * 2.5;
  // A comparison with a constant that is not exactly a float.
  // CHECK: :[[@LINE+1]]:11: warning: {{.*}}the double literal 1e-3{{.*}}; use 1e-3f [kernel-double-promotion]
  if (x < 1e-3)
    out[i] = 0.0f;
  // Two promoted computations on one line (one per argument) are one finding.
  // CHECK: :[[@LINE+1]]:18: warning: {{.*}}the double literals 0.7 and 0.8{{.*}}; use 0.7f and 0.8f [kernel-double-promotion]
  out[i] = fmaxf(0.7 - x, 0) - fmaxf(x - 0.8, 0);
  // Look-alike: on two lines, two findings.
  // CHECK: :[[@LINE+1]]:18: warning: {{.*}}the double literal 0.6{{.*}}; use 0.6f [kernel-double-promotion]
  out[i] = fmaxf(0.6 - x, 0);
  // CHECK: :[[@LINE+1]]:23: warning: {{.*}}the double literal 0.9{{.*}}; use 0.9f [kernel-double-promotion]
  out[i] -= fmaxf(x - 0.9, 0);
}

// The example's kernel: a float accumulator fed by double literals and sqrt.
__global__ void accumulate(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i];
  float acc = 0.0f;
  for (int k = 0; k < 16; ++k) {
    // CHECK: :[[@LINE+3]]:16: warning: float arithmetic promoted to double by the double literals 2.5 and 0.5 and the double function sqrt{{.*}}; use 2.5f, 0.5f and sqrtf [kernel-double-promotion]
    // CHECK-NEXT: acc += x * 2.5 + sqrt(x * 0.5) + exp(x);
    // CHECK: {{^}}      |                2.5f  sqrtf    0.5f{{$}}
    acc += x * 2.5 + sqrt(x * 0.5) + exp(x);
    x = x * 0.9f + 0.01f;
  }
  out[i] = acc;
}

// Double math functions on float arguments.
__global__ void mathFunctions(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i];
  // pow(float, double) is the double overload: the literal decides.
  // CHECK: :[[@LINE+1]]:12: warning: {{.*}}the double literal 2.0 and the double function pow{{.*}}; use 2.0f and powf [kernel-double-promotion]
  out[i] = pow(x, 2.0);
  // fmax(float, int) has no float overload in C++: it computes in double.
  // CHECK: :[[@LINE+1]]:12: warning: {{.*}}by the double function fmax{{.*}}; use fmaxf [kernel-double-promotion]
  out[i] = fmax(x, 1);
  // CUDA gives rhypot no float overload.
  // CHECK: :[[@LINE+1]]:12: warning: {{.*}}by the double function rhypot{{.*}}; use rhypotf [kernel-double-promotion]
  out[i] = rhypot(x, x);
  // std::sqrt picks its float overload once the argument is float.
  // CHECK: :[[@LINE+1]]:12: warning: {{.*}}the double literal 0.7 and the double function sqrt{{.*}}; use 0.7f [kernel-double-promotion]
  out[i] = std::sqrt(x * 0.7);
}

// Macros and double constants.
__global__ void constants(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i];
  // CHECK: :[[@LINE+3]]:16: warning: {{.*}}the double literal SCALE (0.1){{.*}}; use static_cast<float>(SCALE) [kernel-double-promotion]
  // CHECK-NEXT: out[i] = x * SCALE;
  // CHECK: {{^}}      |                static_cast<float>(SCALE){{$}}
  out[i] = x * SCALE;
  // CHECK: :[[@LINE+1]]:16: warning: {{.*}}the double literal M_PI (3.14159265358979323846){{.*}} [kernel-double-promotion]
  out[i] = x * M_PI;
  // CHECK: :[[@LINE+2]]:16: warning: {{.*}}the double constant 'kLn2'{{.*}}; use float constants [kernel-double-promotion]
  // CHECK: :{{[0-9]+}}:18: note: 'kLn2' is declared double here
  out[i] = x * kLn2;
}

// A __device__ helper: the finding joins the kernels that call it.
__device__ float damp(float v) {
  // CHECK: :[[@LINE+1]]:14: warning: {{.*}}the double literal 3.3{{.*}} [kernel-double-promotion]
  return v / 3.3;
}
__global__ void usesHelper(float *out) { out[threadIdx.x] = damp(out[threadIdx.x]); }
// JSON: "function": "damp"
// JSON: "kernels": [
// JSON-NEXT: "{{.*}}usesHelper{{.*}}"

// A template instantiated for float: reported once, without a fix-it (the
// literal is shared with other instantiations).
template <typename T> __global__ void scaleAll(T *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE+4]]:34: warning: {{.*}}the double literal 0.3{{.*}} [kernel-double-promotion]
  // CHECK-NEXT: if (i < n) data[i] = data[i] * 0.3;
  // CHECK-NEXT: ~~~~~~~~^~~
  // CHECK-NOT: 0.3f
  if (i < n) data[i] = data[i] * 0.3;
}
template __global__ void scaleAll<float>(float *, int);
template __global__ void scaleAll<double>(double *, int);

// ---- Negative cases: look alike, but nothing runs in double. ----

__global__ void reallyDouble(const double *in, double *out, const float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double d = in[i];
  out[i] = d * 0.1;          // double data
  out[i] = sqrt(d * 0.5);    // double data
  out[i] = f[i] * 0.1;       // the result is stored as a double
  double wide = f[i] * 2.5;  // likewise
  out[i] += wide;
}

__global__ void floatCode(const float *in, float *out, double *dbl, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i];
  out[i] = x * 0.1f + 1.0f;  // float literals
  out[i] = x * 2;            // an integer literal: float arithmetic
  out[i] = sqrtf(x * 0.5f) + expf(x) + sqrt(x) + exp(x); // float overloads
  out[i] = powf(x, 2) + pow(x, 2.0f); // powf, and pow(float, float): float
  const float k = 2.5;       // folded at compile time
  out[i] = k * x;
  float third = 1.0 / 3.0;   // likewise
  out[i] = third * x;
  out[i] = static_cast<float>(dbl[i]) * 0.5f; // an explicit narrowing of double data
  out[i] = float(dbl[i] * 0.5);               // double data
  out[i] = (float)((double)x * 0.1);          // asked for by the author
}

// pow(float, int): Clang's CUDA headers have a float overload, but nvcc
// follows C++11's <cmath> and computes it in double (its PTX has 18 FP64
// instructions for pow(x, 2), none for powf(x, 2)); std::pow too.
__global__ void intExponent(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i];
  // CHECK: :[[@LINE+1]]:12: warning: float arithmetic promoted to double by the double function pow: {{.*}}; use powf [kernel-double-promotion]
  out[i] = pow(x, 2);
  // CHECK: :[[@LINE+1]]:12: warning: float arithmetic promoted to double by the double function pow: {{.*}}; use powf [kernel-double-promotion]
  out[i] = std::pow(x, 3) * x;
}

// nvcc evaluates a single operation between a float and a constant that is
// exactly a float, rounded straight back to float, in float: no finding by
// default (ReportFoldable: 1 reports them).
__global__ void folded(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i];
  // FOLD: :[[@LINE+1]]:16: warning: {{.*}}the double literal 2.5{{.*}} [kernel-double-promotion]
  out[i] = x * 2.5;
  // FOLD: :[[@LINE+1]]:16: warning: {{.*}}the double literal 1.0{{.*}} [kernel-double-promotion]
  out[i] = x + 1.0;
  // FOLD: :[[@LINE+1]]:16: warning: {{.*}}the double literal 2.0{{.*}} [kernel-double-promotion]
  out[i] = x / 2.0;
  // FOLD: :[[@LINE+1]]:24: warning: {{.*}}the double literals 0.5 and 0.0{{.*}} [kernel-double-promotion]
  out[i] = n > 4 ? x * 0.5 : 0.0;
  // FOLD: :[[@LINE+1]]:11: warning: {{.*}}the double literal 0.5{{.*}} [kernel-double-promotion]
  if (x > 0.5)
    out[i] = 0;
  // FOLD: :[[@LINE+1]]:8: warning: {{.*}}the double literal 2.0{{.*}} [kernel-double-promotion]
  x *= 2.0;
  // A multiply by 1.0 is folded away first: 3. * (1. * x) is one exact
  // operation. Look-alike: 3. * (0.5 * x) is two.
  // FOLD: :[[@LINE+1]]:12: warning: {{.*}}the double literals 3. and 1.{{.*}} [kernel-double-promotion]
  out[i] = 3. * (1. * x);
  // CHECK: :[[@LINE+2]]:12: warning: {{.*}}the double literals 3. and 0.5{{.*}} [kernel-double-promotion]
  // FOLD: :[[@LINE+1]]:12: warning: {{.*}}the double literals 3. and 0.5{{.*}} [kernel-double-promotion]
  out[i] = 3. * (0.5 * x);
  out[i] = x;
}

// Host code is not this check's business.
float hostScale(float x) { return x * 0.1; }

// Suppressed.
__global__ void suppressed(float *out) {
  out[0] = out[1] * 0.1; // NOLINT(kernel-double-promotion)
}
