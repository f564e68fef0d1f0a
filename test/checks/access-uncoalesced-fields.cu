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

// A pixel of `channels` bytes that each thread reads and writes whole, in a
// loop over c < channels, where sum[c] (an array of 4) bounds channels by 4:
// the warp's pixels are adjacent, as the three fields of a float3 are; no
// finding, for the loads nor the stores, bytes or floats.
__global__ void blurPixels(const unsigned char *in, unsigned char *out, float *outF, int w,
                           int h, int channels) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float sum[4] = {0};
  for (int dx = -1; dx <= 1; dx++) {
    int idx = (y * w + min(max(x + dx, 0), w - 1)) * channels;
    for (int c = 0; c < channels; c++)
      sum[c] += in[idx + c] / 3.0f;
  }
  int outIdx = (y * w + x) * channels;
  for (int c = 0; c < channels; c++)
    out[outIdx + c] = (unsigned char)sum[c];
  for (int c = 0; c < channels; c++)
    outF[outIdx + c] = sum[c];
}

// Look-alikes: a row that each thread walks, bounded by nothing (a scalar
// sum; a local array indexed by c % 4), a record bounded by an array too big
// to be one (256 floats: more than the 64 elements, or the 1 KiB, that a
// covered constant stride may have), and a loop bound that is not the
// stride (the thread writes k of the n elements of its row).
__global__ void rowSum(const float *m, float *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int c = 0; c < n; c++)
    // CHECK: :[[@LINE+1]]:10: warning: uncoalesced global load of 'm': consecutive threads are `n` elements apart (a symbolic stride)
    s += m[r * n + c];
  out[r] = s;
}
__global__ void rowModulo(const float *m, float *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float acc[4] = {0};
  for (int c = 0; c < n; c++)
    // CHECK: :[[@LINE+1]]:19: warning: uncoalesced global load of 'm': consecutive threads are `n` elements apart (a symbolic stride)
    acc[c % 4] += m[r * n + c];
  out[r] = acc[0] + acc[1] + acc[2] + acc[3];
}
__global__ void rowInBigArray(const float *m, float *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float big[256];
  for (int c = 0; c < n; c++)
    // CHECK: :[[@LINE+1]]:14: warning: uncoalesced global load of 'm': consecutive threads are `n` elements apart (a symbolic stride)
    big[c] = m[r * n + c];
  out[r] = big[n / 2];
}
__global__ void rowPrefix(float *out, int n, int k) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float acc[4] = {1, 2, 3, 4};
  for (int c = 0; c < k; c++)
    // CHECK: :[[@LINE+1]]:5: warning: uncoalesced global store of 'out': consecutive threads are `n` elements apart (a symbolic stride)
    out[r * n + c] = acc[c];
}
