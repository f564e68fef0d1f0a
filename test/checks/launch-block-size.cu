// RUN: %expect-exit 1 %cuda-advisor --checks='-*,launch-block-size' %s -- -x cuda \
// RUN:   | FileCheck %s --implicit-check-not='warning:' --implicit-check-not='error:'
// The bundled CUDA declarations (no toolkit) give the same findings.
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,launch-block-size' %s -- -x cuda \
// RUN:   | FileCheck %s --implicit-check-not='warning:' --implicit-check-not='error:'
// With --show-cold, the notes off the hot path too.
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,launch-block-size' %s -- -x cuda \
// RUN:   | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <cooperative_groups.h>

__global__ void k1(float *x) { x[threadIdx.x] = 0; }
__global__ void k2(float *x) { x[threadIdx.y * blockDim.x + threadIdx.x] = 0; }
__global__ void k2c(char *x) { x[threadIdx.y * blockDim.x + threadIdx.x] = 0; }
__global__ void k2n(float *x, int n) { x[threadIdx.y * n + threadIdx.x] = 0; }
__global__ void k2w(float *x) {
  int c = blockIdx.x * 8 + threadIdx.x, r = blockIdx.y * 8 + threadIdx.y;
  x[r * 640 + c] = 1;
}
__global__ void k2s(const float *x, float *y) {
  int c = blockIdx.x * 8 + threadIdx.x, r = blockIdx.y * 8 + threadIdx.y;
  y[r * 640 + c] = x[r * 640 + c - 1];
}
__global__ void k2p(float *x) { printf("%d %d %d\n", threadIdx.x, threadIdx.y, threadIdx.z); }

constexpr int kThreads = 96;

void bad(float *d, int n) {
  // CHECK: :[[@LINE+1]]:16: warning: 80 threads per block (80) is not a multiple of the warp size (32): the last warp of every block runs with 16 of 32 lanes active; use 96 or another multiple of 32 [launch-block-size]
  k1<<<n / 80, 80>>>(d);
  // 6 idle lanes of 256 (2.3%): a note off the hot path.
  // COLD: :[[@LINE+2]]:17: note: 250 threads per block (250) is not a multiple of the warp size (32): the last warp of every block runs with 26 of 32 lanes active; use 256 or another multiple of 32 [launch-block-size]
  // COLD: note: off the hot path: 6 of the block's 256 lanes idle (2.3%), at most 1/8 of its issue slots: a multiple of 32 gains little
  k1<<<n / 250, 250>>>(d);

  int threads = 100; // A local assigned once.
  // CHECK: :[[@LINE+1]]:17: warning: 100 threads per block (100) is not a multiple of the warp size (32): {{.*}} use 128
  k1<<<n / 100, threads>>>(d);
  // Look-alike: a grid of known size with at most one block per
  // multiprocessor (10 blocks) runs in one wave, one block's time whatever
  // its shape; so do a toy reduction over 10 elements in blocks of 4 and a
  // 2D launch of 8 blocks with a narrow x.
  k1<<<10, threads>>>(d);
  constexpr int Toy = 10, ToyBlock = 4;
  k1<<<(Toy + ToyBlock - 1) / ToyBlock, ToyBlock>>>(d);
  k2<<<8, dim3(8, 32)>>>(d);
  // But 1000 such blocks are many waves.
  // CHECK: :[[@LINE+1]]:14: warning: 100 threads per block (100) is not a multiple of the warp size (32)
  k1<<<1000, threads>>>(d);
  // A grid counted with ceil() or floor() of a quotient of known whole
  // numbers, as course code writes it: 75 atoms in blocks of 32 are 3 blocks
  // (ceil((double)atoms / 32)), 2 with floor or with ceil of an integer
  // quotient; one wave. Look-alikes: the same over 750,000 atoms, and
  // ceil() of a quotient of a runtime n.
  int atoms = 75, big = 750000;
  k1<<<(int)ceil((double)atoms / 32), 32>>>(d);
  k1<<<ceil(atoms / 32), 32>>>(d);
  k1<<<floorf(atoms / 32.0f), 32>>>(d);
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: warning: only 32 threads per block
  k1<<<(int)ceil((double)big / 32), 32>>>(d);
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: warning: only 32 threads per block
  k1<<<(int)ceil((double)n / 32), 32>>>(d);

  // CHECK: :[[@LINE+1]]:11: warning: only 32 threads per block: at most 32 blocks fit on a multiprocessor, so at most 50% of its 2048 thread slots can be used; use at least 64 threads per block [launch-block-size]
  k1<<<n, 32>>>(d);

  // A narrow x over 1-byte elements: 16-byte row pieces, half a sector.
  dim3 square(16, 16);
  // CHECK: :[[@LINE+1]]:12: warning: blockDim.x is 16 in a 16x16 block: each warp writes 2 separate 16-byte row pieces of 'x' (1-byte elements along threadIdx.x), and each uses 16 bytes of its 32-byte sector; blockDim.x of at least 32 avoids it; use (32, 8) [launch-block-size]
  k2c<<<n, square>>>((char *)d);
  // CHECK: :[[@LINE-3]]:8: note: block size set here

  // 8 floats: 32-byte pieces, two sectors each when they start off a boundary
  // (a row pitch of n floats).
  // CHECK: :[[@LINE+1]]:12: warning: blockDim.x is 8 in a 8x32 block: each warp writes 4 separate 32-byte row pieces of 'x' (4-byte elements along threadIdx.x), and each touches two sectors where it needs one when it does not start on a 32-byte boundary; blockDim.x of at least 16 makes the extra sector one in three or fewer; use (32, 8) [launch-block-size]
  k2n<<<n, dim3(8, 32)>>>(d, n);
  // Look-alikes: 32-byte pieces that start on a boundary, whole sectors
  // fetched whole: a pitch of blockDim.x floats (the warp's 4 rows are one
  // contiguous 128 bytes), and a constant pitch of 640 floats with the
  // block's columns at blockIdx.x * 8.
  k2<<<n, dim3(8, 32)>>>(d);
  k2w<<<dim3(80, 60), dim3(8, 8)>>>(d);
  // But a shifted column (a stencil's x - 1) starts off a boundary.
  // CHECK: :[[@LINE+1]]:23: warning: blockDim.x is 8 in a 8x8 block: each warp reads 4 separate 32-byte row pieces of 'x' (4-byte
  k2s<<<dim3(80, 60), dim3(8, 8)>>>(d, d + 1);

  // CHECK: :[[@LINE+1]]:11: error: a block of 64x32 = 2048 threads exceeds the limit of 1024 threads per block: the launch fails with cudaErrorInvalidConfiguration [launch-block-size]
  k2<<<n, dim3(64, 32)>>>(d);

  void *args[] = {&d};
  // CHECK: :[[@LINE+1]]:41: warning: 48 threads per block (48)
  cudaLaunchKernel((const void *)k1, n, 48, args, 0, 0);
}

void good(float *d, int n, int runtimeThreads) {
  // Over floats, 16 lanes read 64-byte pieces: about as many sectors per warp
  // as a 32-wide block (5% on the H200, docs/cost-model.md).
  k2<<<n, dim3(16, 16)>>>(d);
  // A kernel that touches no global memory.
  k2p<<<n, dim3(4, 4, 4)>>>(d);
  // 100 blocks of 32 threads: no multiprocessor gets 32 blocks anyway.
  k1<<<100, 32>>>(d);
  k1<<<(n + 255) / 256, 256>>>(d);
  k1<<<n, kThreads>>>(d);
  k2<<<n, dim3(32, 8)>>>(d);
  k2<<<n, dim3(32, 32)>>>(d);
  k1<<<n, 1024>>>(d);
  // Unknown at compile time: no claim.
  k1<<<n, runtimeThreads>>>(d);
  int changes = 128;
  if (n > 10)
    changes = 200;
  k1<<<n, changes>>>(d);
  dim3 b(32, 4);
  b.x = 20; // Changed after construction: not the constructor's value.
  k2<<<n, b>>>(d);
}

// One thread per row: threadIdx.y never enters the index.
__global__ void rowSums(const float *m, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float acc = 0;
  for (int c = 0; c < cols; ++c)
    acc += m[r * cols + c];
  out[r] = acc;
}
__device__ int laneRow() { return threadIdx.y; }
// The same, with the row taken from a helper that reads threadIdx.y.
__global__ void rowSumsHelper(const float *m, float *out, int rows, int cols) {
  int r = (blockIdx.x * blockDim.y + laneRow()) * blockDim.x + threadIdx.x;
  if (r < rows)
    out[r] = m[r * cols];
}
// Threads told apart by an atomic ticket, not by their index.
__global__ void tickets(int *next, float *out) {
  int t = atomicAdd(next, 1);
  out[t] = 1.0f;
}

// The thread index through cooperative groups, a copy of threadIdx, or
// threadIdx passed whole to a helper: not known to ignore y.
__global__ void groupRank(float *out) {
  auto block = cooperative_groups::this_thread_block();
  out[block.thread_rank()] = 0;
}
__global__ void copiedIndex(float *out) {
  uint3 t = threadIdx;
  out[t.y * 32 + t.x] = 0;
}
__device__ int rowFrom(uint3 t) { return t.y; }
__global__ void passedIndex(float *out) { out[rowFrom(threadIdx) * 32 + threadIdx.x] = 0; }

void shapes(const float *m, float *out, int rows, int cols, int *next) {
  dim3 block(32, 8);
  // CHECK: :[[@LINE+1]]:31: warning: the block is 32x8 but 'rowSums' never reads threadIdx.y: its 8 rows of threads compute the same elements, so 7 of every 8 threads repeat the work (and their stores race); drop the y extent of the block, or fold it into x and divide the grid by 8 [launch-block-size]
  rowSums<<<(rows + 31) / 32, block>>>(m, out, rows, cols);
  // CHECK: :[[@LINE+1]]:31: warning: the block is 16x2x4 but 'rowSums' never reads threadIdx.y{{.*}} divide the grid by 2
  rowSums<<<(rows + 15) / 16, dim3(16, 2, 4)>>>(m, out, rows, cols);
  rowSums<<<(rows + 255) / 256, 256>>>(m, out, rows, cols);
  rowSumsHelper<<<(rows + 255) / 256, block>>>(m, out, rows, cols);
  tickets<<<rows, block>>>(next, out);
  groupRank<<<rows, block>>>(out);
  copiedIndex<<<rows, block>>>(out);
  passedIndex<<<rows, block>>>(out);
}

// A narrow blockDim.x costs a kernel whose rows run along threadIdx.x only
// when x is the contiguous index. Here x walks rows and y picks 16-byte
// vectors along a row (as a column-sum of bias gradients does): each warp
// reads four full 128-byte row segments, so no finding. The same block for a
// kernel that x indexes contiguously is reported, also when a run-time
// extent leaves the block's depth unknown.
__global__ void columnSumsAlongY(float *out, const float *in, int rows, int cols) {
  int c = (blockIdx.x * blockDim.y + threadIdx.y) * 4;
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int r = threadIdx.x + 4 * threadIdx.z; r < rows; r += 4 * blockDim.z) {
    float4 v = *reinterpret_cast<const float4 *>(in + r * cols + c);
    acc.x += v.x, acc.y += v.y, acc.z += v.z, acc.w += v.w;
  }
  if (threadIdx.x == 0 && threadIdx.z == 0)
    *reinterpret_cast<float4 *>(out + c) = acc;
}
__global__ void columnSumsAlongX(float *out, const float *in, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int r = threadIdx.y + 8 * threadIdx.z; r < rows; r += 8 * blockDim.z)
    acc += in[r * cols + c];
  out[c * blockDim.y + threadIdx.y] = acc;
}
void narrowX(float *out, const float *in, int rows, int cols, int warpsPerBlock) {
  dim3 deep(4, 8, 32);
  columnSumsAlongY<<<cols / 32, deep>>>(out, in, rows, cols);
  dim3 runtimeDepth = {4, 8, (unsigned)warpsPerBlock};
  columnSumsAlongY<<<cols / 32, runtimeDepth>>>(out, in, rows, cols);
  // CHECK: :[[@LINE+1]]:32: warning: blockDim.x is 4 in a 4x8x32 block: each warp reads 8 separate 16-byte row pieces{{.*}}use (32, 1, 32)
  columnSumsAlongX<<<cols / 4, deep>>>(out, in, rows, cols);
  // CHECK: :[[@LINE+1]]:32: warning: blockDim.x is 4 in a 4x8x? block: each warp reads 8 separate 16-byte row pieces of 'in' (4-byte elements along threadIdx.x), and each uses 16 bytes of its 32-byte sector; blockDim.x of at least 16 avoids it [launch-block-size]
  columnSumsAlongX<<<cols / 4, runtimeDepth>>>(out, in, rows, cols);
}

// An (8, 8) block whose x-contiguous access does not vary with threadIdx.y
// (a per-column index, as a pair-list kernel reads its bra indices): every
// row of the warp reads the same 32 bytes, fetched once, so no finding. The
// same block reading a row piece per threadIdx.y is reported.
__global__ void pairTiles(const int *bra, const int *ket, const float *x, float *out, int n) {
  int i = blockIdx.x * 8 + threadIdx.x, j = blockIdx.y * 8 + threadIdx.y;
  int a = bra[i], b = ket[j];
  out[i * n + j] = x[a] * x[b];
}
__global__ void rowTiles(const float *in, float *out, int n) {
  int i = blockIdx.x * 8 + threadIdx.x, j = blockIdx.y * 8 + threadIdx.y;
  out[j * n + i] = in[j * n + i] * 2.0f;
}
void tiles(const int *bra, const int *ket, const float *x, float *out, int n) {
  dim3 grid(n / 8, n / 8);
  pairTiles<<<grid, dim3(8, 8)>>>(bra, ket, x, out, n);
  // CHECK: :[[@LINE+1]]:20: warning: blockDim.x is 8 in a 8x8 block: each warp reads 4 separate 32-byte row pieces of 'in'{{.*}} [launch-block-size]
  rowTiles<<<grid, dim3(8, 8)>>>(x, out, n);
}

// One thread per block. Over one block, a kernel with a loop is serial code:
// the fix is to parallelize it, not another block size. A kernel without a
// loop (one-shot set-up) or one that prints (debugging) gives no finding.
// Over many blocks, each block is a warp with one lane active.
__global__ void serialSum(const float *x, float *out, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  *out = s;
}
__global__ void initCounters(int *counters, float *scale) {
  counters[0] = 0;
  counters[1] = 0;
  *scale = 1.0f;
}
__global__ void debugPrint(const float *x, int n) {
  for (int i = 0; i < n; ++i)
    printf("%f\n", x[i]);
}
__global__ void perBlock(float *x) { x[blockIdx.x] *= 2.0f; }
// Latency probes: serial on purpose (a pointer chase, a clock spin). The
// look-alike walks an index array without depending on what it loads.
__global__ void pointerChase(const int *next, int *sink, int steps) {
  int j = 0;
  for (int i = 0; i < steps; ++i)
    j = next[j];
  *sink = j;
}
__global__ void clockSpin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}
// Sleeps and waits: a spin on a clock's now() (cuda::std::chrono's
// high_resolution_clock in nvbench's sleep_kernel), a spin on a
// volatile flag the host sets (nvbandwidth's latch). The look-alike writes a
// volatile array in a loop whose condition is an ordinary count.
namespace dev {
namespace chrono {
struct high_resolution_clock {
  __device__ static long long now();
};
} // namespace chrono
} // namespace dev
__global__ void sleepFor(long long ns) {
  long long finish = dev::chrono::high_resolution_clock::now() + ns;
  while (dev::chrono::high_resolution_clock::now() < finish) {
  }
}
__global__ void waitForLatch(volatile int *latch) {
  while (!*latch) {
  }
}
__global__ void volatileFill(volatile float *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] = 0;
}
__global__ void gather(const int *idx, const float *x, float *out, int n) {
  float s = 0;
  int j = 0;
  for (int i = 0; i < n; ++i) {
    j = idx[i];
    s += x[j];
  }
  *out = s;
}
void singleThread(float *x, float *out, int *counters, int n) {
  pointerChase<<<1, 1>>>(counters, counters, n);
  clockSpin<<<1, 1>>>(1000);
  sleepFor<<<1, 1>>>(1000);
  waitForLatch<<<1, 1>>>(counters);
  // CHECK: :[[@LINE+1]]:21: warning: a single thread runs 'volatileFill' (one block of one thread)
  volatileFill<<<1, 1>>>(x, n);
  // CHECK: :[[@LINE+1]]:15: warning: a single thread runs 'gather' (one block of one thread)
  gather<<<1, 1>>>(counters, x, out, n);
  // CHECK: :[[@LINE+1]]:18: warning: a single thread runs 'serialSum' (one block of one thread): its loops run serially on one GPU thread, which no block size fixes; spread the work over threads (one thread per element, a grid-stride loop, or a parallel reduction for a sum) [launch-block-size]
  serialSum<<<1, 1>>>(x, out, n);
  initCounters<<<1, 1>>>(counters, out);
  debugPrint<<<1, 1>>>(x, n);
  // CHECK: :[[@LINE+1]]:17: warning: one thread per block: each block is a warp with 1 of its 32 lanes active, so 31 of every 32 lanes idle; launch blocks of 128 or 256 threads (and 1/128 or 1/256 as many blocks) and index with blockIdx.x * blockDim.x + threadIdx.x [launch-block-size]
  perBlock<<<n, 1>>>(x);
}

// A block of one warp. Built on block == warp (a warp-level scan whose lane
// 31 publishes the block's sum: cuSZp's look-back), or capped by its
// __launch_bounds__, a kernel computes something else or fails to launch with
// 64 threads: no finding; nor for a kernel defined in another file, which the
// advice cannot see. Look-alikes: the same 32-thread block for a plain
// elementwise kernel, and __launch_bounds__(256).
__global__ void warpScan(const int *in, int *blockSums) {
  int v = in[blockIdx.x * 32 + threadIdx.x];
  for (int o = 1; o < 32; o <<= 1) {
    int t = __shfl_up_sync(0xffffffffu, v, o);
    if (threadIdx.x >= o) v += t;
  }
  if (threadIdx.x == 31) blockSums[blockIdx.x] = v;
}
__launch_bounds__(32) __global__ void pinned(float *x) { x[blockIdx.x * 32 + threadIdx.x] = 0; }
__launch_bounds__(256) __global__ void roomy(float *x) { x[blockIdx.x * 32 + threadIdx.x] = 0; }
__global__ void elsewhere(float *x);
void oneWarp(int *in, int *sums, float *x, int n) {
  warpScan<<<n, 32>>>(in, sums);
  pinned<<<n, 32>>>(x);
  elsewhere<<<n, 32>>>(x);
  // CHECK: :[[@LINE+1]]:14: warning: only 32 threads per block
  roomy<<<n, 32>>>(x);
  // CHECK: :[[@LINE+1]]:11: warning: only 32 threads per block
  k1<<<n, 32>>>(x);
}

// A 3D shared tile with its halo (an 8x8x8 stencil tile): the block's shape
// is the tile's, and a wider x at the same thread count shrinks its interior;
// no finding. Look-alike: the same 8x8x8 block reading global memory
// directly, where the suggested shape keeps z.
__global__ void tiledStencil(const float *in, float *out, int n) {
  __shared__ float tile[8][8][8];
  int i = blockIdx.z * 6 + threadIdx.z - 1, j = blockIdx.y * 6 + threadIdx.y - 1,
      k = blockIdx.x * 6 + threadIdx.x - 1;
  tile[threadIdx.z][threadIdx.y][threadIdx.x] = in[(i * n + j) * n + k];
  __syncthreads();
  if (threadIdx.x > 0 && threadIdx.x < 7)
    out[(i * n + j) * n + k] = tile[threadIdx.z][threadIdx.y][threadIdx.x - 1];
}
__global__ void directStencil(const float *in, float *out, int n) {
  int i = blockIdx.z * 8 + threadIdx.z, j = blockIdx.y * 8 + threadIdx.y,
      k = blockIdx.x * 8 + threadIdx.x;
  out[(i * n + j) * n + k] = in[(i * n + j) * n + k - 1] + in[(i * n + j) * n + k + 1];
}
void volumes(const float *in, float *out, int n) {
  dim3 cube(8, 8, 8), grid(n / 6, n / 6, n / 6);
  tiledStencil<<<grid, cube>>>(in, out, n);
  // CHECK: :[[@LINE+1]]:25: warning: blockDim.x is 8 in a 8x8x8 block: {{.*}}; use (32, 2, 8) [launch-block-size]
  directStencil<<<grid, cube>>>(in, out, n);
}
