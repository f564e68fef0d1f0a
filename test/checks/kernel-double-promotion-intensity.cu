// kernel-double-promotion weighs a kernel's promoted FP64 work against its
// global memory traffic (a roofline, at the FP64 and conversion rates of the
// GPUs where FP64 is scarcest): a kernel that stays memory-bound with its
// promotions runs no slower for them, and is not reported unless
// ReportMemoryBound is set. Loops count their constant trip count (8 when it
// is not a constant), for the work and the traffic alike.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,kernel-double-promotion' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: echo "{CheckOptions: {kernel-double-promotion.ReportMemoryBound: 1}}" > %t.yaml
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,kernel-double-promotion' --config %t.yaml %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,ALL --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <cmath>

// ---- Compute-bound: reported. ----

// 16 terms per element, each with sqrt and exp in double, for 8 bytes moved.
__global__ void series(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i], acc = 0.0f;
  for (int k = 0; k < 16; ++k) {
    // CHECK: :[[@LINE+1]]:16: warning: float arithmetic promoted to double by the double literals 2.5 and 0.5 and the double function sqrt
    acc += x * 2.5 + sqrt(x * 0.5) + exp(x);
    x = x * 0.9f + 0.01f;
  }
  out[i] = acc;
}

// A lattice-Boltzmann equilibrium: nine directions, a polynomial each.
__constant__ float W[9];
__constant__ float CX[9], CY[9];
__global__ void equilibrium(const float *rho, const float *ux, const float *uy, float *feq, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float r = rho[i], u = ux[i], v = uy[i];
  for (int k = 0; k < 9; ++k) {
    float cu = CX[k] * u + CY[k] * v;
    // CHECK: :[[@LINE+1]]:34: warning: float arithmetic promoted to double by the double literals 1.0, 3.0, 4.5 and 1.5
    feq[k * n + i] = W[k] * r * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * (u * u + v * v));
  }
}

// The same through a parameter struct: its pointers and coefficient tables are
// read at one address by every lane (one transaction per warp), not traffic
// per thread.
struct Lattice { const float *w, *cx, *cy; float *feq; };
__global__ void equilibriumViaStruct(const Lattice *lat, const float *rho, const float *ux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float r = rho[i], u = ux[i];
  for (int k = 0; k < 9; ++k) {
    float cu = lat->cx[k] * u + lat->cy[k] * u;
    // CHECK: :[[@LINE+1]]:44: warning: float arithmetic promoted to double by the double literals 1.0, 3.0, 4.5 and 1.5
    lat->feq[k * n + i] = lat->w[k] * r * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * (u * u));
  }
}

// A pairwise interaction through a helper: pow in double for 12 bytes a pair.
__device__ float potential(float r2) {
  // CHECK: :[[@LINE+1]]:10: warning: float arithmetic promoted to double by the double literals 1.0, 6.0 and 3.0 and the double function pow
  return 1.0 / pow(r2, 6.0) - 1.0 / pow(r2, 3.0);
}
__global__ void energy(const float3 *pos, float *e, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0.0f;
  for (int j = 0; j < n; ++j) {
    float3 d = make_float3(pos[i].x - pos[j].x, pos[i].y - pos[j].y, pos[i].z - pos[j].z);
    s += potential(d.x * d.x + d.y * d.y + d.z * d.z);
  }
  e[i] = s;
}

// No kernel of this file calls it: its memory traffic is not known.
__device__ float libraryHelper(float v) {
  // CHECK: :[[@LINE+1]]:14: warning: float arithmetic promoted to double by the double literal 0.7
  return v * 0.7;
}

// ---- Memory-bound: the promotion hides behind the traffic. ----

// One promoted multiply per 8 bytes.
__global__ void scale(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // ALL: :[[@LINE+1]]:31: warning: float arithmetic promoted to double by the double literal 0.1
  if (i < n) out[i] = in[i] * 0.1;
}

// An array-of-structures update: three promoted subtractions per 24 bytes.
struct Particle { float x, y, z, vx, vy, vz; };
__global__ void drift(Particle *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    // ALL: :[[@LINE+1]]:15: warning: float arithmetic promoted to double by the double literal 0.0001
    p[i].x -= 0.0001;
    // ALL: :[[@LINE+1]]:15: warning: float arithmetic promoted to double by the double literal 0.0001
    p[i].y -= 0.0001;
    // ALL: :[[@LINE+1]]:15: warning: float arithmetic promoted to double by the double literal 0.0001
    p[i].z -= 0.0001;
  }
}

// A dot product over a row: the promotion is in the epilogue, the traffic in the loop.
__global__ void rowDot(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < n; ++k)
    s += a[i * n + k] * b[k];
  // ALL: :[[@LINE+1]]:14: warning: float arithmetic promoted to double by the double literals 0.1 and 1.0
  c[i] = s * 0.1 + 1.0;
}

// The same helper-shape as potential(), called from an element-wise kernel.
__device__ float damp(float v) {
  // ALL: :[[@LINE+1]]:14: warning: float arithmetic promoted to double by the double literal 3.3
  return v / 3.3;
}
__global__ void dampAll(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = damp(in[i]);
}
