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

// A pixel of `channels` bytes written out element by element (r, g and b at
// idx * channels + 0, 1, 2): the record of 3 is what the stride counts; no
// finding, loads nor stores. Look-alikes: elements 1 and 2 only (no record
// from the base), 0 and 2 (not contiguous), element 1 read and element 0
// written (a boundary condition of each row), and element 0 alone.
__global__ void rgbToGray(const unsigned char *in, unsigned char *gray, unsigned char *copy,
                          int n, int channels) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n)
    return;
  unsigned char r = in[idx * channels];
  unsigned char g = in[idx * channels + 1];
  unsigned char b = in[idx * channels + 2];
  gray[idx] = (unsigned char)(0.299f * r + 0.587f * g + 0.114f * b);
  copy[idx * channels] = r;
  copy[idx * channels + 1] = g;
  copy[idx * channels + 2] = b;
}
__global__ void greenBlue(const unsigned char *in, unsigned char *out, int n, int channels) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n)
    return;
  // CHECK: :[[@LINE+1]]:15: warning: uncoalesced global load of 'in': consecutive threads are `channels` elements apart (a symbolic stride)
  out[idx] = (in[idx * channels + 1] + in[idx * channels + 2]) / 2;
}
__global__ void firstAndThird(const float *m, float *out, int n, int ld) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n)
    return;
  // CHECK: :[[@LINE+1]]:12: warning: uncoalesced global load of 'm': consecutive threads are `ld` elements apart (a symbolic stride)
  out[r] = m[r * ld] + m[r * ld + 2];
}
__global__ void copyBoundary(float *f, int ny, int nx) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= ny)
    return;
  // CHECK: :[[@LINE+1]]:3: warning: uncoalesced global store of 'f': consecutive threads are `nx` elements apart (a symbolic stride)
  f[y * nx] = f[y * nx + 1];
}
__global__ void firstOfRow(const float *m, float *out, int n, int ld) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE+1]]:23: warning: uncoalesced global load of 'm': consecutive threads are `ld` elements apart (a symbolic stride)
  if (r < n) out[r] = m[r * ld];
}

// A field that straddles two sectors: 'position' (24 bytes at offset 24 of
// a 96-byte body) moves 2 sectors a lane, 64 a warp, 37.5% of them used;
// 'start' and 'end' of one sector (offsets 84 and 88 of a 96-byte node) use
// 8 of its 32 bytes: 25%, with the thread's other accesses to the element.
struct Vec3 {
  double x, y, z;
};
struct Body {
  bool dynamic;
  double mass, radius;
  Vec3 position, velocity, acceleration;
};
struct OctNode {
  Vec3 lo, hi, center;
  double mass;
  bool leaf;
  int start, end;
};
__global__ void positions(const Body *b, Vec3 *out, const OctNode *nodes, int *empty, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // CHECK: :[[@LINE+1]]:12: warning: uncoalesced global load of field 'position' of 'Body': consecutive threads are 96 bytes apart (one 'Body' each), so a warp touches 64 sectors of 32 bytes where 24 would do and 37.5% of the bytes moved are used
  out[i] = b[i].position;
  // CHECK: :[[@LINE+1]]:14: warning: uncoalesced global load of field 'start' of 'OctNode': consecutive threads are 96 bytes apart (one 'OctNode' each), so a warp touches 32 sectors of 32 bytes where 4 would do and 25% of the bytes moved are used, with the thread's other accesses to the same element
  empty[i] = nodes[i].start == -1 && nodes[i].end == -1;
}

// Look-alikes of the written-out record: a row-per-thread mat-vec unrolled
// by 4 (the elements change with the loop: a walk along the row), a row's
// one-sided boundary difference (two elements), and a 4-column panel of an n
// x n matrix whose side the kernel compares (`r >= n`): all reported.
__global__ void matvecUnrolled(const float *A, const float *x, float *y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n) return;
  float s = 0;
  for (int j = 0; j < n; j += 4) {
    // CHECK: :[[@LINE+1]]:10: warning: uncoalesced global load of 'A': consecutive threads are `n` elements apart (a symbolic stride)
    s += A[row * n + j] * x[j];
    s += A[row * n + j + 1] * x[j + 1];
    s += A[row * n + j + 2] * x[j + 2];
    s += A[row * n + j + 3] * x[j + 3];
  }
  y[row] = s;
}
__global__ void leftGradient(const float *u, float *g, int ny, int nx, float inv) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= ny) return;
  // CHECK: :[[@LINE+1]]:11: warning: uncoalesced global load of 'u': consecutive threads are `nx` elements apart (a symbolic stride)
  g[j] = (u[j * nx + 1] - u[j * nx]) * inv;
}
__global__ void panel(const double *M, double *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  // CHECK: :[[@LINE+1]]:14: warning: uncoalesced global load of 'M': consecutive threads are `n` elements apart (a symbolic stride)
  double a = M[r * n], b = M[r * n + 1], c = M[r * n + 2], d = M[r * n + 3];
  out[r] = a * d - b * c;
}
