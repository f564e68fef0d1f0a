// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:' --implicit-check-not='error:'
// The bundled CUDA declarations (no toolkit) give the same findings.
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,access-uncoalesced' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:' --implicit-check-not='error:'
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced' --format=json %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=JSON
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

struct Particle { float x, y, z, vx, vy, vz; };
struct Vec3 { float x, y, z; };

// ---------------------------------------------------------------- positives

__global__ void strided(const float *in, float *out, int stride, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // CHECK: :[[@LINE+1]]:14: warning: uncoalesced global load of 'in': consecutive threads are `stride` elements apart (a symbolic stride); when `stride` >= 8 every lane needs a 32-byte sector of its own, so 12.5% of the bytes moved are used (32 sectors per warp instead of 4) [access-uncoalesced]
    out[i] = in[i * stride];
}

__global__ void transposeNaive(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    // No launch of this file shows how wide its blocks are: the counts are
    // for 32 wide, and the message says what 16 x 16 and 8 x 8 blocks touch.
    // CHECK: :[[@LINE+1]]:5: warning: uncoalesced global store of 'out': consecutive threads are `h` elements apart (a symbolic stride); when `h` >= 8 every lane needs a 32-byte sector of its own, so 12.5% of the bytes moved are used (32 sectors per warp instead of 4); counted for a block at least 32 threads wide: 16 x 16 blocks, whose warps hold 2 rows of threadIdx.y, touch 16 sectors, 8 x 8 blocks 8; threadIdx.y walks the contiguous dimension: index it with threadIdx.x, or stage the tile through shared memory [access-uncoalesced]
    out[x * h + y] = in[y * w + x];
}

// Look-alike: launched below with 32 x 8 blocks, so a warp is one row of
// threadIdx.y and the counts need no condition.
__global__ void transposeWide(const double *in, double *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    // CHECK: :[[@LINE+1]]:5: warning: uncoalesced global store of 'out': consecutive threads are `h` elements apart (a symbolic stride); when `h` >= 4 every lane needs a 32-byte sector of its own, so 25% of the bytes moved are used (32 sectors per warp instead of 8); threadIdx.y walks the contiguous dimension: index it with threadIdx.x, or stage the tile through shared memory [access-uncoalesced]
    out[x * h + y] = in[y * w + x];
}

__global__ void rowPerThread(const float *m, float *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0;
  for (int c = 0; c < cols; ++c)
    // CHECK: :[[@LINE+1]]:10: warning: uncoalesced global load of 'm': consecutive threads are `cols` elements apart
    s += m[r * cols + c];
  // CHECK: :[[@LINE-3]]:3: note: each thread walks a row of its own in this loop; let threadIdx.x pick the column and loop over the rows instead
  sums[r] = s;
}

__global__ void particles(Particle *p, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // One pattern (one buffer, one stride), one finding; the other access is a note.
    // CHECK: :[[@LINE+2]]:5: warning: uncoalesced global read-modify-write of field 'x' of 'Particle': consecutive threads are 24 bytes apart (one 'Particle' each), so a warp touches 24 sectors of 32 bytes where 4 would do and 33.3% of the bytes moved are used, with the thread's other accesses to the same element; a structure of arrays makes the access contiguous [access-uncoalesced]
    // CHECK: :[[@LINE+1]]:15: note: another access of 'p' with the same stride
    p[i].x += p[i].vx * dt;
}

__global__ void everyOther(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE+1]]:12: warning: uncoalesced global load of 'in': consecutive threads are 8 bytes (2 elements) apart, so a warp touches 8 sectors of 32 bytes where 4 would do and 50% of the bytes moved are used [access-uncoalesced]
  out[i] = in[2 * i];
}

__device__ float loadStrided(const float *p, int i, int ld) {
  // CHECK: :[[@LINE+1]]:10: warning: uncoalesced global load of 'in': consecutive threads are `ld` elements apart
  return p[i * ld];
}

__global__ void throughHelper(const float *in, float *out, int ld) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE+1]]:12: note: reached from kernel 'throughHelper' through this call
  out[i] = loadStrided(in, i, ld);
}

template <int Stride>
__global__ void templated(double *a) {
  // CHECK: :[[@LINE+1]]:3: warning: uncoalesced global store of 'a': consecutive threads are 32 bytes (4 elements) apart, so a warp touches 32 sectors of 32 bytes where 8 would do and 25% of the bytes moved are used [access-uncoalesced]
  a[threadIdx.x * Stride] = 0;
}

// ---------------------------------------------------------------- negatives

__global__ void rowMajor(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = in[(size_t)y * w + x] * 2.0f;
}

__global__ void gridStride(float *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i] = a[i] * a[i];
}

__global__ void columnSums(const float *m, float *sums, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0;
  for (int r = 0; r < rows; ++r)
    s += m[r * cols + c];
  sums[c] = s;
}

__global__ void tiledTranspose(const float *in, float *out, int w, int h) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < w && y + j < h)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < h && y + j < w)
      out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void broadcast(const float *coeff, const float *in, float *out, const int *offsets) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float c = coeff[0] + coeff[blockIdx.x];
  int base = offsets[blockIdx.x];
  out[base + threadIdx.x] = in[i] * c;
}

__global__ void nonAffine(const float *in, float *out, const int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]] + in[(i * i) % n] + in[threadIdx.x * threadIdx.x];
}

__global__ void allFields(const Vec3 *v, float *len, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    len[i] = sqrtf(v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z);
}

struct Sample { float weight; double value; }; // 4 bytes of padding after weight.
__global__ void paddedStruct(const Sample *s, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = s[i].weight * s[i].value;
}

__global__ void interleaved(const float *iq, float *mag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float re = iq[2 * i], im = iq[2 * i + 1];
  mag[i] = re * re + im * im;
}

__global__ void fieldLoop(const float *xyz, float *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 3; ++k)
    s += xyz[3 * i + k];
  sum[i] = s;
}

__global__ void wholeStruct(const Particle *p, Particle *q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Particle t = p[i];
  t.x += t.vx;
  q[i] = t;
}

__global__ void vectorized(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = reinterpret_cast<const float4 *>(in)[i];
  reinterpret_cast<float4 *>(out)[i] = v;
}

__global__ void warpLanes(float *a) {
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  a[warp * 32 + lane] += 1.0f;
}

__global__ void loopScaled(float *a, int n) {
  for (int k = 1; k < n; ++k)
    a[threadIdx.x * k] = 0; // The stride changes every iteration, starting at 1.
}

__global__ void laneZeroWrites(const float *in, float *out, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
  float v = in[gid];
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_down_sync(0xffffffff, v, off);
  if (lane == 0) // One lane per warp: no warp-wide pattern.
    out[gid * 2] = v;
  if (threadIdx.x != 0)
    return;
  out[threadIdx.x * n + blockIdx.x] = v;
}

__device__ float loadAt(const float *p, int i) { return p[i]; }

__global__ void coalescedHelper(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = loadAt(in, i);
}

// ------------------------------------------------ real-world style kernels

// Naive matrix multiply with the row from threadIdx.x: A and C are walked
// down columns. (The usual version, row from threadIdx.y, is clean below.)
__global__ void matmulRowFromX(const float *A, const float *B, float *C, int N) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  float sum = 0;
  for (int k = 0; k < N; ++k)
    // CHECK: :[[@LINE+1]]:12: warning: uncoalesced global load of 'A': consecutive threads are `N` elements apart
    sum += A[row * N + k] * B[k * N + col];
  // CHECK: :[[@LINE-3]]:3: note: each thread walks a row of its own in this loop
  // The store of C runs once per thread against the loop's N loads of A, but
  // those are strided too (the same remapping fixes both): a finding, not a
  // note (access-uncoalesced-minor.cu).
  // CHECK: :[[@LINE+1]]:3: warning: uncoalesced global store of 'C': consecutive threads are `N` elements apart
  C[row * N + col] = sum;
}

__global__ void matmulNaive(const float *A, const float *B, float *C, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < N && col < N) {
    float sum = 0;
    for (int k = 0; k < N; ++k)
      sum += A[row * N + k] * B[k * N + col];
    C[row * N + col] = sum;
  }
}

#define TILE 16
__global__ void matmulTiled(const float *A, const float *B, float *C, int N) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0;
  for (int m = 0; m < N / TILE; ++m) {
    As[ty][tx] = A[row * N + m * TILE + tx];
    Bs[ty][tx] = B[(m * TILE + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = sum;
}

// Sparse matrix-vector products: CSR gathers through col[] (data-dependent:
// no claim); ELL stored row by row makes each thread walk its own row, ELL
// stored column by column (the usual layout) is coalesced.
__global__ void spmvCsr(int rows, const int *ptr, const int *col, const float *val,
                        const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float dot = 0;
    for (int j = ptr[r]; j < ptr[r + 1]; ++j)
      dot += val[j] * x[col[j]];
    y[r] = dot;
  }
}

__global__ void spmvEllRowMajor(int rows, int width, const int *col, const float *val,
                                const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float dot = 0;
    for (int k = 0; k < width; ++k)
      // CHECK: :[[@LINE+1]]:14: warning: uncoalesced global load of 'val': consecutive threads are `width` elements apart
      dot += val[r * width + k] * x[col[r * width + k]];
    // CHECK: :[[@LINE-1]]:37: warning: uncoalesced global load of 'col': consecutive threads are `width` elements apart
    y[r] = dot;
  }
}

__global__ void spmvEllColumnMajor(int rows, int width, const int *col, const float *val,
                                   const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float dot = 0;
    for (int k = 0; k < width; ++k)
      dot += val[k * rows + r] * x[col[k * rows + r]];
    y[r] = dot;
  }
}

__global__ void histogramGlobal(const unsigned char *in, unsigned *bins, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&bins[in[i]], 1u);
}

__global__ void stencil2d(const float *in, float *out, int w, int h) {
  __shared__ float halo[18][34];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  halo[threadIdx.y + 1][threadIdx.x + 1] = in[y * w + x];
  if (threadIdx.x == 0 && x > 0)
    halo[threadIdx.y + 1][0] = in[y * w + x - 1];
  __syncthreads();
  out[y * w + x] = halo[threadIdx.y + 1][threadIdx.x] + halo[threadIdx.y + 1][threadIdx.x + 2] +
                   halo[threadIdx.y][threadIdx.x + 1] + halo[threadIdx.y + 2][threadIdx.x + 1];
}

__global__ void bitonicStep(float *a, int j, int k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, ixj = i ^ j;
  if (ixj > i && ((i & k) == 0) == (a[i] > a[ixj])) {
    float t = a[i];
    a[i] = a[ixj];
    a[ixj] = t;
  }
}

__global__ void nbody(const float4 *pos, float4 *acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = pos[i], a = make_float4(0, 0, 0, 0);
  for (int j = 0; j < n; ++j) {
    float4 other = pos[j];
    float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-6f);
    a.x += dx * inv;
    a.y += dy * inv;
    a.z += dz * inv;
  }
  acc[i] = a;
}

template <typename T>
__global__ void saxpyT(int n, T a, const T *x, T *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
template __global__ void saxpyT<float>(int, float, const float *, float *);
template __global__ void saxpyT<double>(int, double, const double *, double *);

// Launched with one thread per row of the block: a warp is 32 values of
// threadIdx.y, which walks the contiguous dimension.
__global__ void columnBlocks(const float *in, float *out, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * h + y] = in[x * h + y];
}

// Reduced-precision elements: the conversions and operators of cuda_bf16.h
// and cuda_fp16.h take the value by const reference or as a const method,
// and read it. A row per thread is uncoalesced; a column per thread, and
// the vectorized pairs, are not.
__global__ void bf16RowSums(float *out, const __nv_bfloat16 *x, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    // CHECK: :[[@LINE+1]]:17: warning: uncoalesced global load of 'x': consecutive threads are `cols` elements apart (a symbolic stride); when `cols` >= 16 every lane needs a 32-byte sector of its own, so 6.2% of the bytes moved are used
    s += (float)x[r * cols + c];
  out[r] = s;
}
__global__ void bf16ColSums(float *out, const __nv_bfloat16 *x, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0.0f;
  for (int r = 0; r < rows; ++r)
    s += (float)x[r * cols + c];
  out[c] = s;
}
__global__ void halfRowMax(__half *out, const __half *x, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  __half m = __float2half(-65504.0f);
  for (int c = 1; c < cols; ++c)
    // CHECK: :[[@LINE+1]]:9: warning: uncoalesced global load of 'x': consecutive threads are `cols` elements apart
    if (x[r * cols + c] > m)
      // The same address again: a note of the finding above.
      // CHECK: :[[@LINE+1]]:11: note: another access of 'x' with the same stride
      m = x[r * cols + c];
  out[r] = m;
}
__global__ void halfAxpy(__half *y, const __half *x, __half a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// 16-byte vectors stored through a float pointer: the stride is counted in
// the buffer's floats, as the index is written. A row of four floats per
// thread is uncoalesced; consecutive vectors are not.
__device__ void storeVec(float *p, float4 v) { *reinterpret_cast<float4 *>(p) = v; }
__global__ void vecRows(float *out, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE-3]]:48: warning: uncoalesced global store of 'out': consecutive threads are `cols` elements apart with 16-byte accesses (a symbolic stride); when `cols` >= 8 every lane needs a 32-byte sector of its own, so 50% of the bytes moved are used (32 sectors per warp instead of 16)
  // CHECK: :[[@LINE+1]]:3: note: reached from kernel 'vecRows' through this call
  storeVec(out + r * cols, make_float4(1.f, 2.f, 3.f, 4.f));
}
__global__ void vecRun(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  storeVec(out + 4 * i, make_float4(1.f, 2.f, 3.f, 4.f));
}

// Values known at compile time. A kernel parameter that every launch in the
// file passes as the same constant is that constant: `s` is 1 at the only
// launch, so each thread reads its own record of three floats (the warp's
// three loads together use every byte they fetch); `stride` is 16 at both
// launches of launchedWide. Launches that disagree, or pass a value known
// only at run time, leave the parameter symbolic.
__global__ void launchedRecord(const float *p, float *out, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float *row = p + 3 * i * s;
  out[i] = row[0 * s] + row[1 * s] + row[2 * s];
}
__global__ void launchedWide(const float *in, float *out, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE+1]]:12: warning: uncoalesced global load of 'in': consecutive threads are 64 bytes (16 elements) apart, so a warp touches 32 sectors of 32 bytes where 4 would do and 12.5% of the bytes moved are used [access-uncoalesced]
  out[i] = in[i * stride];
}
__global__ void launchedMixed(const float *in, float *out, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE+1]]:12: warning: uncoalesced global load of 'in': consecutive threads are `stride` elements apart (a symbolic stride)
  out[i] = in[i * stride];
}
__global__ void launchedRuntime(const float *in, float *out, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE+1]]:12: warning: uncoalesced global load of 'in': consecutive threads are `stride` elements apart (a symbolic stride)
  out[i] = in[i * stride];
}
#define WIDE 16
constexpr int kWide = 16;
void launchKnown(const float *p, float *out, int n, int runtimeStride) {
  int one = 1;
  launchedRecord<<<n / 256, 256>>>(p, out, one);
  launchedWide<<<n / 256, 256>>>(p, out, WIDE);
  launchedWide<<<n / 256, 256>>>(p, out, kWide);
  launchedMixed<<<n / 256, 256>>>(p, out, 1);
  launchedMixed<<<n / 256, 256>>>(p, out, 2);
  launchedRuntime<<<n / 256, 256>>>(p, out, runtimeStride);
}

// A thread's own small record, counted as the L1 sees a warp's accesses: the
// union of the bytes that the accesses to one buffer use. A 12-byte struct
// read whole or field by field, and a point's x, y, z at p[3 * i + k], fetch
// no byte in vain. One 4-byte field of a 64-byte struct, or one float in 64,
// wastes most of each sector.
struct Body { float x, y, z; };
struct Cell { float density; float pad[15]; };
__global__ void bodyWhole(const Body *b, Body *q, const float3 *p, float3 *r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Body t = b[i];
  q[i] = t;
  r[i] = p[i];
}
__global__ void pointXyz(const float *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[3 * i] + p[3 * i + 1] + p[3 * i + 2];
}
// The same through a pointer the kernel loads from memory in each
// statement (`img->data`, Round 7's RGB greyscale): one buffer, and r, g, b
// together use every byte. Look-alikes: another field's pointer
// (`img->alpha`) is another buffer: r alone uses a byte of three (reported),
// while two neighbouring bytes of alpha use two of three, more than half of
// what the warp moves (not reported).
struct Image { unsigned char *data; unsigned char *alpha; int width; };
__global__ void greyscale(const Image *img, unsigned char *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char r = img->data[3 * i];
  unsigned char g = img->data[3 * i + 1];
  unsigned char b = img->data[3 * i + 2];
  out[i] = (r + g + b) / 3;
}
__global__ void redGreen(const Image *img, unsigned char *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE+1]]:21: warning: uncoalesced global load of 'img->data': consecutive threads are 3 bytes (3 elements) apart
  unsigned char r = img->data[3 * i];
  unsigned char g = img->alpha[3 * i + 1];
  unsigned char a = img->alpha[3 * i + 2];
  out[i] = (r + g + a) / 3;
}
__global__ void cellDensity(const Cell *c, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE+1]]:12: warning: uncoalesced global load of field 'density' of 'Cell': consecutive threads are 64 bytes apart (one 'Cell' each), so a warp touches 32 sectors of 32 bytes where 4 would do and 12.5% of the bytes moved are used
  out[i] = c[i].density;
}
__global__ void farApart(const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE+1]]:12: warning: uncoalesced global load of 'a': consecutive threads are 256 bytes (64 elements) apart
  out[i] = a[i * 64];
}

// A 2x2 block of elements per thread, written in one unrolled loop over
// k < 4 (`k / 2` the row, `k % 2` the column): the thread's two columns are
// neighbours, so the pair uses every byte of its 8-byte stride.
__global__ void quadPerThread(const float *acc, float *c, int ld) {
  int tx = threadIdx.x, ty = blockIdx.y;
  for (int k = 0; k < 4; ++k) {
    int r = k / 2, col = k % 2;
    c[(ty * 2 + r) * ld + tx * 2 + col] = acc[k];
  }
}
// The same block written with a shift and a mask.
__global__ void quadShiftMask(const float *acc, float *c, int ld) {
  int tx = threadIdx.x, ty = blockIdx.y;
  for (int k = 0; k < 4; ++k)
    c[(ty * 2 + (k >> 1)) * ld + tx * 2 + (k & 1)] = acc[k];
}
// Look-alike: the same loop with the thread's columns 4 apart leaves half of
// each 16-byte stride unused.
__global__ void quadSpread(const float *acc, float *c, int ld) {
  int tx = threadIdx.x, ty = blockIdx.y;
  for (int k = 0; k < 4; ++k) {
    int r = k / 2, col = k % 2;
    // CHECK: :[[@LINE+1]]:5: warning: uncoalesced global store of 'c': consecutive threads are 16 bytes (4 elements) apart, so a warp touches 16 sectors of 32 bytes where 4 would do and 50% of the bytes moved are used, with the thread's other accesses to the same element
    c[(ty * 2 + r) * ld + tx * 4 + col * 2] = acc[k];
  }
}

void launch(double *d, float *f, int h) {
  templated<1><<<1, 32>>>(d);
  templated<4><<<1, 32>>>(d);
  columnBlocks<<<dim3(h, h / 256), dim3(1, 256)>>>(f, f, h);
  transposeWide<<<dim3(h / 32, h / 8), dim3(32, 8)>>>(d, d, h, h);
}

// The evidence the cost model reads, and the kernel join key.
// JSON: "check": "access-uncoalesced",
// JSON-NEXT: "evidence": {
// JSON-NEXT: "access": "load",
// JSON-NEXT: "accessWeight": 1,
// JSON-NEXT: "buffer": "in",
// JSON-NEXT: "elementBytes": 4,
// JSON-NEXT: "globalAccesses": 2,
// JSON-NEXT: "idealSectorsPerRequest": 4,
// JSON-NEXT: "kernelSectorsWeighted": 4,
// JSON-NEXT: "sectorUseFraction": 0.125,
// JSON-NEXT: "sectorsPerRequest": 32,
// JSON-NEXT: "strideBytes": null,
// JSON-NEXT: "strideSymbolic": "4 * stride"
// JSON: "kernels": [
// JSON-NEXT: "_Z{{.*}}strided
// JSON: "check": "access-uncoalesced",
// JSON: "sectorUseFraction": 0.5,
// JSON-NEXT: "sectorsPerRequest": 8,
// JSON-NEXT: "strideBytes": 8

// The same address read, updated and written back (velocity[3 * i + 1] of a
// bouncing ball): one finding with notes. Another stride on the same buffer
// is another finding.
__global__ void bounce(float *velocity, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // CHECK: :[[@LINE+1]]:15: warning: uncoalesced global load of 'velocity': consecutive threads are 12 bytes (3 elements) apart
  float old = velocity[3 * i + 1];
  if (old < 0.f)
    // CHECK: :[[@LINE+1]]:5: note: another access of 'velocity' with the same stride
    velocity[3 * i + 1] *= 0.5f;
  // CHECK: :[[@LINE+1]]:3: note: another access of 'velocity' with the same stride
  velocity[3 * i + 1] += 9.8f * dt;
  // CHECK: :[[@LINE+1]]:3: warning: uncoalesced global store of 'velocity': consecutive threads are 16 bytes (4 elements) apart
  velocity[4 * i] = old;
}


// A pointer loaded from memory (a __constant__ parameter struct) is named by
// the expression that loaded it.
struct RendererParams { float *velocity; float *position; };
__constant__ RendererParams cuParams;
__global__ void advance(float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float *velocity = cuParams.velocity;
  // CHECK: :[[@LINE+1]]:3: warning: uncoalesced global read-modify-write of 'cuParams.velocity': consecutive threads are 12 bytes (3 elements) apart
  velocity[3 * i + 1] += 9.8f * dt;
}

// Other files may launch the kernels above (test/analysis/hot-path-unlaunched-layer.cu).
#include "Inputs/access-uncoalesced-decls.cuh"
