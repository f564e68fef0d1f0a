// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-shared-bank-conflict' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:' --implicit-check-not='error:'
// The bundled CUDA declarations (no toolkit) give the same findings.
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,access-shared-bank-conflict' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:' --implicit-check-not='error:'
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-shared-bank-conflict' --format=json %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=JSON
// REQUIRES: cuda

#include <cuda_runtime.h>

// ---------------------------------------------------------------- positives

__global__ void transposeConflicted(const float *in, float *out, int n) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  // CHECK: :[[@LINE+2]]:20: warning: 32-way shared-memory bank conflict on 'tile': consecutive threads are 32 4-byte words apart, so 32 lanes hit the same bank and the access takes 32 shared-memory wavefronts instead of 1; pad the rows by one element ('tile[32][33]') [access-shared-bank-conflict]
  // CHECK: :[[@LINE-7]]:20: note: 'tile' declared here
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void everyOtherWord(float *out) {
  __shared__ float s[64];
  // CHECK: :[[@LINE+1]]:3: warning: 2-way shared-memory bank conflict on 's': consecutive threads are 2 4-byte words apart, so 2 lanes hit the same bank and the access takes 2 shared-memory wavefronts instead of 1 [access-shared-bank-conflict]
  s[2 * threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void doubleColumns(double *out) {
  __shared__ double d[32][32];
  d[threadIdx.y][threadIdx.x] = 0;
  __syncthreads();
  // CHECK: :[[@LINE+1]]:22: warning: 16-way shared-memory bank conflict on 'd': consecutive threads are 64 4-byte words apart with 8-byte elements, served 16 lanes at a time, so 16 lanes hit the same bank and the access takes 32 shared-memory wavefronts instead of 2; pad the rows by one element ('d[32][33]') [access-shared-bank-conflict]
  out[threadIdx.x] = d[threadIdx.x][threadIdx.y];
}

__global__ void interleavedReduction(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x)
      // Both accesses of the statement have the conflict: one finding, a note for the other.
      // CHECK: :[[@LINE+2]]:7: warning: at least 2-way shared-memory bank conflict on 'sdata': consecutive threads are `2 * s` 4-byte words apart, so whatever its value (other than 0) at least 2 lanes of a warp hit the same bank and the access is replayed that many times (2 accesses of this statement have this conflict) [access-shared-bank-conflict]
      // CHECK: :[[@LINE+1]]:23: note: another access of 'sdata' with the same conflict
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Look-alike: the same reduction over a 32-float array (a one-warp block).
// Different words of 32 consecutive words lie in different banks, whatever
// the stride: no conflict.
__global__ void interleavedReductionOneWarp(const float *in, float *out) {
  __shared__ float sdata[32];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 32 + tid];
  __syncwarp();
  for (unsigned s = 1; s < 32; s *= 2) {
    int index = 2 * s * tid;
    if (index < 32)
      sdata[index] += sdata[index + s];
    __syncwarp();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

#define TILE 16
__global__ void matmulTransposedTile(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0;
  for (int m = 0; m < n / TILE; ++m) {
    As[ty][tx] = A[row * n + m * TILE + tx];
    // CHECK: :[[@LINE+1]]:5: warning: 8-way shared-memory bank conflict on 'Bs': consecutive threads are 16 4-byte words apart (threadIdx.x stays below 16 in this array), so 8 lanes hit the same bank and the access takes 8 shared-memory wavefronts instead of 1; pad the rows by one element ('Bs[16][17]') [access-shared-bank-conflict]
    Bs[tx][ty] = B[(m * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[ty][k] * Bs[tx][k];
    // CHECK: :[[@LINE-1]]:26: warning: 8-way shared-memory bank conflict on 'Bs'
    __syncthreads();
  }
  C[row * n + col] = sum;
}

__global__ void dynamicColumn(float *out) {
  extern __shared__ float smem[];
  smem[threadIdx.x] = 0;
  __syncthreads();
  // CHECK: :[[@LINE+1]]:22: warning: 32-way shared-memory bank conflict on 'smem': consecutive threads are 32 4-byte words apart, so 32 lanes hit the same bank and the access takes 32 shared-memory wavefronts instead of 1 [access-shared-bank-conflict]
  out[threadIdx.x] = smem[threadIdx.x * 32];
}

__device__ float columnRead(const float *s, int ld) {
  // CHECK: :[[@LINE+1]]:10: warning: 32-way shared-memory bank conflict on 's' into 'buf'
  return s[threadIdx.x * ld];
}

__global__ void throughHelper(float *out) {
  __shared__ float buf[32 * 32];
  buf[threadIdx.x] = 1;
  __syncthreads();
  // CHECK: :[[@LINE+1]]:22: note: reached from kernel 'throughHelper' through this call
  out[threadIdx.x] = columnRead(buf, 32);
}

// ---------------------------------------------------------------- negatives

// (Of ints: a padded float tile beside transposeConflicted's would make that
// one the baseline of the pair, access-shared-bank-conflict-baseline.cu.)
__global__ void transposePadded(const int *in, int *out, int n) {
  __shared__ int tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void unitAndBroadcast(float *out, int k) {
  __shared__ float s[256];
  __shared__ float total;
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x == 0)
    total = 0;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x] + s[0] + s[threadIdx.y] + s[k] + total;
}

__global__ void wideElements(double *out, float4 *out4) {
  __shared__ double d[256];
  __shared__ float4 f4[256];
  __shared__ char c[256];
  __shared__ short h[256];
  d[threadIdx.x] = 1.0;
  f4[threadIdx.x] = make_float4(0, 0, 0, 0);
  c[threadIdx.x] = 1;
  h[threadIdx.x] = 2;
  __syncthreads();
  out[threadIdx.x] = d[threadIdx.x] + c[threadIdx.x] + h[threadIdx.x];
  out4[threadIdx.x] = f4[threadIdx.x];
}

__global__ void sequentialReduction(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void matmulTiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0;
  for (int m = 0; m < n / TILE; ++m) {
    As[ty][tx] = A[row * n + m * TILE + tx];
    Bs[ty][tx] = B[(m * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

__global__ void oddAndUnknownStrides(float *out, const int *idx, int ld) {
  __shared__ float s[32 * 33];
  s[3 * threadIdx.x] = 0;
  s[33 * threadIdx.x] = 0;
  s[threadIdx.x * ld] = 0; // An unknown stride: no claim.
  __syncthreads();
  out[threadIdx.x] = s[idx[threadIdx.x]];
}

__global__ void histogram(const int *in, int *bins, int n) {
  __shared__ int h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&h[in[i] & 255], 1);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

// A column filter on an array 16 elements wide in threadIdx.x: with 16-wide
// blocks, rows of 81 words collide once per warp (lane 0 and lane 31), but if
// the block is 32 wide and lanes 16-31 are idle, nothing collides: no claim.
__global__ void columnFilter(float *dst, const float *src, int pitch) {
  __shared__ float s_Data[16][81];
  src += (blockIdx.y * 64 + threadIdx.y) * pitch + blockIdx.x * 16 + threadIdx.x;
  if (threadIdx.x < 16)
    s_Data[threadIdx.x][threadIdx.y] = src[0];
  __syncthreads();
  dst[threadIdx.x] = s_Data[threadIdx.y][threadIdx.x];
}

__global__ void warpSums(const float *in, float *out) {
  __shared__ float partial[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0)
    out[blockIdx.x] = partial[lane];
}

// ------------------------------------------------ real-world style kernels

// The CUDA samples' reductions: SharedMemory<T> hands out the dynamic
// shared array through a conversion operator.
template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

template <class T>
__global__ void reduceInterleaved(const T *g_idata, T *g_odata, unsigned n) {
  T *sdata = SharedMemory<T>();
  unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x)
      // CHECK: :[[@LINE+1]]:7: warning: at least 2-way shared-memory bank conflict on 'sdata' into '__smem': consecutive threads are `2 * s` 4-byte words apart
      sdata[index] += sdata[index + s];
    // CHECK: :[[@LINE-1]]:23: note: another access of 'sdata' into '__smem' with the same conflict
    __syncthreads();
  }
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0];
}

template <class T>
__global__ void reduceSequential(const T *g_idata, T *g_odata, unsigned n) {
  T *sdata = SharedMemory<T>();
  unsigned tid = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  T mySum = i < n ? g_idata[i] : 0;
  if (i + blockDim.x < n)
    mySum += g_idata[i + blockDim.x];
  sdata[tid] = mySum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] = mySum = mySum + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    g_odata[blockIdx.x] = mySum;
}

// Work-efficient (Blelloch) scan: the up-sweep's ai/bi are 2 * offset words
// apart across threads; the padded version (CONFLICT_FREE_OFFSET) is not
// affine and gives no claim.
__global__ void scanBlelloch(float *out, const float *in, int n) {
  extern __shared__ float temp[];
  int thid = threadIdx.x, offset = 1;
  // Each thread moves two neighbouring words: every instruction is 2-way
  // (a float2 access would not be). Two consecutive statements with the same
  // conflict: one finding, a note for the other.
  // CHECK: :[[@LINE+2]]:3: warning: 2-way shared-memory bank conflict on 'temp': consecutive threads are 2 4-byte words apart{{.*}}(2 accesses of 2 consecutive statements have this conflict)
  // CHECK: :[[@LINE+2]]:3: note: another access of 'temp' with the same conflict
  temp[2 * thid] = in[2 * thid];
  temp[2 * thid + 1] = in[2 * thid + 1];
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      // CHECK: :[[@LINE+2]]:7: warning: at least 2-way shared-memory bank conflict on 'temp': consecutive threads are `2 * offset` 4-byte words apart
      // CHECK: :[[@LINE+1]]:19: note: another access of 'temp' with the same conflict
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  __syncthreads();
  // CHECK: :[[@LINE+2]]:19: warning: 2-way shared-memory bank conflict on 'temp'{{.*}}(2 accesses of 2 consecutive statements have this conflict)
  // CHECK: :[[@LINE+2]]:23: note: another access of 'temp' with the same conflict
  out[2 * thid] = temp[2 * thid];
  out[2 * thid + 1] = temp[2 * thid + 1];
}

// A tile loaded in the branch of a bounds check and zero-filled in the other
// (at the edges only): the two stores are one access to fix, reported at the
// load's; the same element read back later is a load, a finding of its own.
__global__ void tileEdges(const float *b, float *out, int n, int k) {
  __shared__ float tile[16][64];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int j = 0; j < 4; ++j) {
    // CHECK: :[[@LINE+3]]:7: warning: 2-way shared-memory bank conflict on 'tile': consecutive threads are 4 4-byte words apart{{.*}}(2 accesses of 2 statements have this conflict)
    // CHECK: :[[@LINE+4]]:7: note: another access of 'tile' with the same conflict
    if (tx * 4 + j < n && ty < k)
      tile[ty][tx * 4 + j] = b[ty * n + tx * 4 + j];
    else
      tile[ty][tx * 4 + j] = 0.0f;
  }
  __syncthreads();
  // CHECK: :[[@LINE+1]]:23: warning: 2-way shared-memory bank conflict on 'tile': consecutive threads are 4 4-byte words apart
  out[ty * 64 + tx] = tile[ty][tx * 4];
}

#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)
__global__ void scanBlellochPadded(float *out, const float *in, int n) {
  extern __shared__ float temp[];
  int thid = threadIdx.x, offset = 1;
  int ai = thid, bi = thid + n / 2;
  temp[ai + CONFLICT_FREE_OFFSET(ai)] = in[ai];
  temp[bi + CONFLICT_FREE_OFFSET(bi)] = in[bi];
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      temp[b] += temp[a];
    }
    offset *= 2;
  }
  __syncthreads();
  out[ai] = temp[ai + CONFLICT_FREE_OFFSET(ai)];
  out[bi] = temp[bi + CONFLICT_FREE_OFFSET(bi)];
}

// The same transposed tile read, launched with 8-wide blocks: a warp then
// spans 4 rows, which the 16-wide array layout does not describe: no claim.
__global__ void tileLaunchedNarrow(float *out) {
  __shared__ float Ts[16][16];
  Ts[threadIdx.y][threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = Ts[threadIdx.x][threadIdx.y];
}

// A float4 unpacked into a padded tile by four consecutive stores: each has
// the same 4-way conflict, one finding with the other three as notes. The
// same stores with a barrier between two of them are two runs: two findings.
__global__ void unpackTile(const float4 *in, float *out, int n) {
  __shared__ float tile[8 * (128 + 5)];
  int col = threadIdx.x % 32, row = threadIdx.x / 32;
  float4 v = in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK: :[[@LINE+1]]:3: warning: 4-way shared-memory bank conflict on 'tile': consecutive threads are 4 4-byte words apart, so 4 lanes hit the same bank and the access takes 4 shared-memory wavefronts instead of 1 (4 accesses of 4 consecutive statements have this conflict) [access-shared-bank-conflict]
  tile[row * (128 + 5) + col * 4 + 0] = v.x;
  tile[row * (128 + 5) + col * 4 + 1] = v.y;
  tile[row * (128 + 5) + col * 4 + 2] = v.z;
  tile[row * (128 + 5) + col * 4 + 3] = v.w;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x];
}
__global__ void unpackTileSplit(const float4 *in, float *out, int n) {
  __shared__ float tile[8 * (128 + 5)];
  int col = threadIdx.x % 32, row = threadIdx.x / 32;
  float4 v = in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK: :[[@LINE+1]]:3: warning: 4-way shared-memory bank conflict on 'tile'{{.*}}(2 accesses of 2 consecutive statements have this conflict) [access-shared-bank-conflict]
  tile[row * (128 + 5) + col * 4 + 0] = v.x;
  tile[row * (128 + 5) + col * 4 + 1] = v.y;
  __syncthreads();
  // CHECK: :[[@LINE+1]]:3: warning: 4-way shared-memory bank conflict on 'tile'{{.*}}(2 accesses of 2 consecutive statements have this conflict) [access-shared-bank-conflict]
  tile[row * (128 + 5) + col * 4 + 2] = v.z;
  tile[row * (128 + 5) + col * 4 + 3] = v.w;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x];
}

void launchReductions(float *a, float *b, unsigned n) {
  tileLaunchedNarrow<<<n, dim3(8, 32)>>>(a);
  reduceInterleaved<float><<<n / 256, 256, 256 * sizeof(float)>>>(a, b, n);
  reduceSequential<float><<<n / 512, 256, 256 * sizeof(float)>>>(a, b, n);
}

// JSON: "check": "access-shared-bank-conflict",
// JSON-NEXT: "evidence": {
// JSON-NEXT: "access": "load",
// JSON-NEXT: "buffer": "tile",
// JSON-NEXT: "conflictDegree": 32,
// JSON-NEXT: "degreeIsLowerBound": false,
// JSON-NEXT: "elementBytes": 4,
// JSON-NEXT: "idealWavefronts": 1,
// JSON-NEXT: "strideWords": 32,
// JSON-NEXT: "threadsX": 32,
// JSON-NEXT: "wavefronts": 32

// One statement, two accesses with different conflicts: two findings.
__global__ void mixedDegrees(float *out) {
  __shared__ float wide[32][32];
  __shared__ float half[32][2];
  wide[threadIdx.y][threadIdx.x] = threadIdx.x;
  half[threadIdx.x][threadIdx.y % 2] = 0;
  __syncthreads();
  // CHECK: :[[@LINE+2]]:22: warning: 32-way shared-memory bank conflict on 'wide'
  // CHECK: :[[@LINE+1]]:45: warning: 2-way shared-memory bank conflict on 'half'
  out[threadIdx.x] = wide[threadIdx.x][0] + half[threadIdx.x][1];
}

// Other files may launch the kernels above (test/analysis/hot-path-unlaunched-layer.cu).
#include "Inputs/access-shared-bank-conflict-decls.cuh"
