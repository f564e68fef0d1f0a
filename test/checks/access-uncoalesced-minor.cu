// A strided access whose extra sectors are at most 1/8 of the traffic of its
// kernel's coalesced global accesses (sectors per warp of each, weighted by
// the loops around it and around the calls that reach it: the constant trip
// count, 8 when it is not a constant) is a note, shown with --show-cold:
// those accesses dominate, and fixing it saves little (an epilogue store
// after a traversal, as in NVIDIA/gvdb-voxels' ray kernels). Strided accesses
// beside heavier strided ones stay findings: one remapping of the threads
// fixes them together (deepmd-kit's prod_virial_grad kernels in round 7).
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:' --implicit-check-not='note: off the hot path'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,access-uncoalesced' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>

struct Ray {
  float3 orig, dir, hit, normal;
  float t;
  int id, pad[2];
}; // 64 bytes

// A traversal in a device function: two nested loops of unknown trip count
// over a grid read coalesced (4 sectors per warp, weight 64: 256), then one
// strided store per thread (32 sectors where 4 would do: 28 extra, weight 1).
__device__ float traverse(const float *grid, int levels, int steps, int x) {
  float acc = 0.0f;
  for (int l = 0; l < levels; ++l)
    for (int s = 0; s < steps; ++s)
      acc += grid[(l * steps + s) * 4096 + x];
  return acc;
}

__global__ void castRays(Ray *rays, const float *grid, int levels, int steps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float d = traverse(grid, levels, steps, x);
  // COLD: access-uncoalesced-minor.cu:[[@LINE+2]]:{{[0-9]+}}: note: uncoalesced global store of field 't' of 'Ray'
  // COLD: note: off the hot path: its extra sectors are at most 1/8 of the traffic of the other, coalesced global accesses of kernel 'castRays' (sectors per warp, counting loop trips; a loop of unknown trip count as 8): those dominate
  rays[x].t = d;
}

// Look-alike: one loop level only (4 x 8 + 32 = 64 sectors against 28 x 8):
// the strided store is a finding.
__device__ float march(const float *grid, int steps, int x) {
  float acc = 0.0f;
  for (int s = 0; s < steps; ++s)
    acc += grid[s * 4096 + x];
  return acc;
}

__global__ void castRaysShallow(Ray *rays, const float *grid, int steps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float d = march(grid, steps, x);
  // DEFAULT: access-uncoalesced-minor.cu:[[@LINE+1]]:{{[0-9]+}}: warning: uncoalesced global store of field 't' of 'Ray'
  rays[x].t = d;
}

// Look-alike: the strided access is the one in the loops, the coalesced one
// is the epilogue: a finding.
__global__ void stridedInLoops(const float *in, float *out, int n, int m) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      // DEFAULT: access-uncoalesced-minor.cu:[[@LINE+1]]:{{[0-9]+}}: warning: uncoalesced global load of 'in': consecutive threads are 256 bytes (64 elements) apart
      acc += in[x * 64 + (i * m + j) % 64];
  out[x] = acc;
}

// Constant trip counts decide: a strided load in a 2 x 2 nest beside a
// coalesced 1000-trip loop is the note.
__global__ void tripsDecide(const float *in, const float *big, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float a = 0.0f;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      // COLD: access-uncoalesced-minor.cu:[[@LINE+2]]:{{[0-9]+}}: note: uncoalesced global load of 'in'
      // COLD: note: off the hot path: its extra sectors are at most 1/8 of the traffic of the other, coalesced global accesses of kernel 'tripsDecide'
      a += in[x * 16 + i * 2 + j];
  for (int k = 0; k < 1000; ++k)
    a += big[k * 4096 + x];
  out[x] = a;
}

// Look-alike: a strided epilogue beside a strided main loop (a thread per
// row: both walk rows of their own): a finding, as the loop's load is.
__global__ void rowPerThread(const float *m, float *rowSums, float *firsts, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int c = 0; c < n; ++c)
    // DEFAULT: access-uncoalesced-minor.cu:[[@LINE+1]]:{{[0-9]+}}: warning: uncoalesced global load of 'm'
    s += m[r * 1024 + c];
  rowSums[r] = s;
  // DEFAULT: access-uncoalesced-minor.cu:[[@LINE+1]]:{{[0-9]+}}: warning: uncoalesced global store of 'firsts'
  firsts[r * 16] = m[r * 1024];
}

// The loops around a helper's call count, also when the call initializes a
// variable: the helper's coalesced load runs 1000 times, the strided load
// once.
__device__ float load1(const float *g, int i) { return g[i]; }

__global__ void helperInLoop(const float *in, const float *big, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float a = 0.0f;
  for (int k = 0; k < 1000; ++k) {
    float v = load1(big, k * 4096 + x);
    a += v;
  }
  // COLD: access-uncoalesced-minor.cu:[[@LINE+2]]:{{[0-9]+}}: note: uncoalesced global load of 'in'
  // COLD: note: off the hot path: its extra sectors are at most 1/8 of the traffic of the other, coalesced global accesses of kernel 'helperInLoop'
  a += in[x * 16];
  out[x] = a;
}
