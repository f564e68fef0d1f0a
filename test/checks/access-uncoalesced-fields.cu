// access-uncoalesced counts the bytes of an element that a thread uses over
// all its accesses at the same base, as the L1 sees them: x, y and z of a
// float4 read and updated in three statements use 12 of every 16 bytes
// moved (75%): the warp moves less than twice what it uses, which is no
// uncoalesced access. Three fields of a 32-byte struct (9 bytes) use 28.1%:
// reported, with that share; one field of a float4 alone uses 25%: reported.
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,access-uncoalesced' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>

__global__ void integrate(float4 *p, float4 *v, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  v[i].x += dt * p[i].w; v[i].y += dt * p[i].w; v[i].z += dt * p[i].w;
  p[i].x += v[i].x * dt;
  p[i].y += v[i].y * dt;
  p[i].z += v[i].z * dt;
}

struct Node {
  int x, y;
  bool wall;
  double cost, dist;
};

__global__ void toChars(const Node *nodes, char *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // CHECK: :[[@LINE+1]]:12: warning: uncoalesced global load of field 'wall' of 'Node': consecutive threads are 32 bytes apart (one 'Node' each), so a warp touches 32 sectors of 32 bytes where 1 would do and 28.1% of the bytes moved are used, with the thread's other accesses to the same element; a structure of arrays makes the access contiguous
  out[i] = nodes[i].wall ? '#' : (nodes[i].x + nodes[i].y) % 2 ? '.' : ' ';
}

__global__ void firstOnly(const float4 *p, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE+1]]:23: warning: uncoalesced global load of field 'x' of 'float4': consecutive threads are 16 bytes apart (one 'float4' each), so a warp touches 16 sectors of 32 bytes where 4 would do and 25% of the bytes moved are used; a structure of arrays makes the access contiguous
  if (i < n) out[i] = p[i].x;
}
