// RUN: %expect-exit 1 %cuda-advisor --checks='-*,launch-grid-truncation' %s -- -x cuda \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// The bundled CUDA declarations (no toolkit) give the same findings.
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,launch-grid-truncation' %s -- -x cuda \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,launch-grid-truncation' --format=json %s -- -x cuda \
// RUN:   | FileCheck %s --check-prefix=JSON
// REQUIRES: cuda

#include <cuda_runtime.h>

__global__ void add(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1;
}
__global__ void add2d(float *x, int w, int h) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c < w && r < h) x[r * w + c] += 1;
}
__global__ void add3d(float *x, int w, int h, int d) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  int s = blockIdx.z * blockDim.z + threadIdx.z;
  if (c < w && r < h && s < d) x[(s * h + r) * w + c] += 1;
}
// A grid-stride loop covers any n with any grid.
__global__ void strided(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    x[i] += 1;
}

void bad(float *d, int n, int w, int h) {
  int threads = 256;
  // CHECK: :[[@LINE+2]]:9: warning: grid of n / threads blocks drops the last n % threads elements when n is not a multiple of threads; round up [launch-grid-truncation]
  // CHECK-NEXT: {{^}} {{ *}}[[@LINE+1]] |   add<<<n / threads, threads>>>(d, n);
  add<<<n / threads, threads>>>(d, n);
  // CHECK: (n + threads - 1) / threads

  const int count = 1000;
  // CHECK: :[[@LINE+2]]:9: warning: grid of count / 128 = 7 blocks covers 896 of 1000 elements: the last 104 are never processed; round up
  // CHECK: (count + 127) / 128
  add<<<count / 128, 128>>>(d, count);

  // Through a variable.
  int blocks = n / 512;
  // CHECK: :[[@LINE-1]]:16: warning: grid of n / 512 blocks drops the last n % 512 elements
  add<<<blocks, 512>>>(d, n);
  // CHECK: :[[@LINE-1]]:3: note: grid used by this launch

  // Both dimensions of a 2D grid: one grid to round up, one finding, with a
  // fix for each division.
  dim3 block(32, 8);
  // CHECK: :[[@LINE+4]]:13: warning: grid of (w / 32, h / 8) blocks truncates x and y: in x, the last w % 32 elements are dropped when w is not a multiple of 32; in y, the last h % 8 elements are dropped when h is not a multiple of 8; round up [launch-grid-truncation]
  // CHECK: (w + 31) / 32
  // CHECK: (h + 7) / 8
  // CHECK-NOT: warning:
  dim3 grid(w / 32, h / 8);
  add2d<<<grid, block>>>(d, w, h);

  // The dimensions on lines of their own: a note at the second division.
  // Constants: each dimension's lost elements.
  // CHECK: :[[@LINE+3]]:17: warning: grid of (1000 / 32, 100 / 8) blocks truncates x and y: in x, 31 blocks cover 992 of 1000 elements: the last 8 are never processed; in y, 12 blocks cover 96 of 100 elements: the last 4 are never processed; round up
  // CHECK: :[[@LINE+3]]:17: note: the grid's y dimension, 100 / 8, truncates too
  // CHECK-NOT: warning:
  dim3 constant(1000 / 32,
                100 / 8);
  add2d<<<constant, block>>>(d, w, h);

  // One division sizing both dimensions: one fix, no note.
  // CHECK: :[[@LINE+3]]:12: warning: grid of (w / 16, w / 16) blocks truncates x and y: in each, the last w % 16 elements
  // CHECK: (w + 15) / 16
  // CHECK-NOT: (w + 15) / 16
  int nb = w / 16;
  add2d<<<dim3(nb, nb), dim3(16, 16)>>>(d, w, h);

  // x and z truncate, y does not: each component says its axis.
  // CHECK: :[[@LINE+1]]:14: warning: grid of (x = w / 8, z = h / 4) blocks truncates x and z
  dim3 grid3(w / 8, 2, h / 4);
  add3d<<<grid3, dim3(8, 1, 4)>>>(d, w, 2, h);

  // Division by an expression: the fix-it keeps it whole.
  // CHECK: :[[@LINE+2]]:9: warning: grid of (n * 2) / (threads * 2) blocks
  // CHECK: ((n * 2) + (threads * 2) - 1) / (threads * 2)
  add<<<(n * 2) / (threads * 2), threads * 2>>>(d, n);
}

// JSON: "check": "launch-grid-truncation"
// JSON: "replacement": "(n + threads - 1) / threads"

void good(float *d, int n, int w, int h, int tile) {
  int threads = 256;
  add<<<(n + threads - 1) / threads, threads>>>(d, n);
  add<<<(n + 255) / 256, 256>>>(d, n);
  add<<<n / threads + 1, threads>>>(d, n);
  int blocks = n / threads;
  if (n % threads)
    ++blocks;
  add<<<blocks, threads>>>(d, n);
  // Exact: 4096 is a multiple of 256.
  add<<<4096 / 256, 256>>>(d, 4096);
  // Grid-stride kernel.
  strided<<<n / threads, threads>>>(d, n);
  // Divided by something that is not the block size (tiles per block).
  add<<<n / tile, threads>>>(d, n);
  add2d<<<dim3((w + 31) / 32, (h + 7) / 8), dim3(32, 8)>>>(d, w, h);
}

// The program rejects sizes the block does not divide before it sizes the grid:
// the truncating division is what the author meant.
int checked(float *d, int side) {
  const int Tile = 32;
  if (side % Tile != 0)
    return 1;
  dim3 tiles(side / Tile, side / Tile), threads(Tile, 8);
  add2d<<<tiles, threads>>>(d, side, side);
  return 0;
}

// A test of a multiple's remainder makes the size a multiple of the block
// too: n % 32 == 0 guarantees n % 16 == 0.
int checkedMultiple(float *d, int n) {
  if (n == 0 || n % 32 != 0)
    return 1;
  add<<<n / 16, 16>>>(d, n);
  // Look-alike: a multiple of 32 need not be one of 64.
  // CHECK: :[[@LINE+1]]:9: warning: grid of n / 64 blocks drops the last n % 64 elements
  add<<<n / 64, 64>>>(d, n);
  return 0;
}

// A multiple of the block size less a constant counts blocks, not elements:
// (k * 64 - 1) / 64 is k - 1 blocks (Hetero-Mark's `half * +block.x - 1`).
// Look-alike: an element count less a constant, (cols - 2) / threads below.
void blocksLessOne(float *d, int population) {
  dim3 block(64);
  dim3 grid((population / 2 * +block.x - 1) / block.x);
  add<<<grid, block>>>(d, population / 2);
}

// A test of some other remainder says nothing about this grid.
void unrelated(float *d, int n) {
  if (n % 2 != 0)
    return;
  // CHECK: :[[@LINE+1]]:9: warning: grid of n / 64 blocks drops the last n % 64 elements
  add<<<n / 64, 64>>>(d, n);
}

// Divided by a member of the launch's own block variable, whatever the block
// holds (assigned after its declaration, or sized at run time).
void byMember(float *d, int n, int side) {
  dim3 threads;
  threads = dim3(128, 1);
  dim3 blocks(n / threads.x, 1);
  // CHECK: :[[@LINE-1]]:15: warning: grid of n / threads.x blocks drops the last n % threads.x elements
  add<<<blocks, threads>>>(d, n);
  // CHECK: :[[@LINE-1]]:3: note: grid used by this launch
  dim3 square(side, side);
  // x divided by the block's y extent: not this dimension's block size.
  dim3 grid2(n / square.y, (n + square.y - 1) / square.y);
  add2d<<<grid2, square>>>(d, n, n);
  dim3 tile(side, side), grid3((n + tile.x - 1) / tile.x, n / 4);
  add2d<<<grid3, tile>>>(d, n, n); // Rounded in x; y divided by 4, not tile.y.
}

// Values known at compile time: a size that every call of the helper passes
// as the same constant is that constant (1024 * 256 is a multiple of 256,
// 1000 is not); calls that disagree leave it unknown. Enumerators are
// constants too.
static void launchExact(float *d, int num) { add<<<num / 256, 256>>>(d, num); }
static void launchRagged(float *d, int num) {
  // CHECK: :[[@LINE+1]]:9: warning: grid of num / 256 = 3 blocks covers 768 of 1000 elements: the last 232 are never processed; round up
  add<<<num / 256, 256>>>(d, num);
}
static void launchEither(float *d, int num) {
  // CHECK: :[[@LINE+1]]:9: warning: grid of num / 256 blocks drops the last num % 256 elements when num is not a multiple of 256
  add<<<num / 256, 256>>>(d, num);
}
enum { kElements = 64 * 256, kRagged = 1000 };
#define NUM (1024 * 256)
void sizes(float *d) {
  launchExact(d, NUM);
  launchExact(d, 1024 * 256);
  launchRagged(d, kRagged);
  launchEither(d, 4096);
  launchEither(d, 1000);
  add<<<kElements / 256, 256>>>(d, kElements);
}

// Sizes padded to the block size where they are computed are multiples of it
// whatever the input: `192 * ((nel / 192) + 1)` (a product with the block
// size), a sum of multiples, a shift by at least the block's power of two, or
// a parameter every call passes such a value for. A chained assignment
// `m = n = 2048` stores the constant in both. Padding to another size, or one
// caller passing an unpadded size, keeps the finding.
static void launchPadded(float *d, int nelr) { add<<<nelr / 192, 192>>>(d, nelr); }
static void launchPaddedOnce(float *d, int nelr) {
  // CHECK: :[[@LINE+1]]:9: warning: grid of nelr / 192 blocks drops the last nelr % 192 elements when nelr is not a multiple of 192
  add<<<nelr / 192, 192>>>(d, nelr);
}
void padded(float *d, int nel, int rows) {
  int nelr = 192 * ((nel / 192) + (nel % 192 ? 1 : 0));
  launchPadded(d, nelr);
  launchPadded(d, rows * 384);
  launchExact(d, rows << 10);
  int half = 96 * ((nel + 95) / 96);
  // CHECK: :[[@LINE+1]]:9: warning: grid of half / 192 blocks drops the last half % 192 elements when half is not a multiple of 192
  add<<<half / 192, 192>>>(d, half);
  launchPaddedOnce(d, nelr);
  launchPaddedOnce(d, nel);
  int m, n;
  m = n = 2048;
  dim3 block(16, 16);
  add<<<dim3(m / block.x, n / block.y), block>>>(d, m * n);
}

// A constant taken off a value that is not a sum truncates as the value does:
// the interior of an image, (cols - 2) / threads. A sum minus a constant is
// the rounding idiom, (n + t) - 1.
void interior(float *d, int rows, int cols, int threads) {
  // CHECK: :[[@LINE+1]]:16: warning: grid of ((cols - 2) / threads, (rows - 2) / threads) blocks truncates x and y: in x, the last (cols - 2) % threads elements are dropped when (cols - 2) is not a multiple of threads; in y, the last (rows - 2) % threads elements
  dim3 dimGrid((cols - 2) / threads, (rows - 2) / threads);
  dim3 dimBlock(threads, threads);
  add2d<<<dimGrid, dimBlock>>>(d, cols, rows);
  add<<<(cols + 256 - 1) / 256, 256>>>(d, cols);
  add<<<(cols + 256 - 1 - 0) / 256, 256>>>(d, cols);
  add<<<(cols - threads) / 256, 256>>>(d, cols);
}

// Rounded in other forms. A helper given the count and the block size writes
// the count back (`work[0] = round_up(work[0], threads[0])`), or initializes
// the count (`size_t r = round_up(count, 256)`), before the launch: the count
// is a multiple of the block size. A rounded count scaled by a factor,
// `(count + ipb - 1) * tpi / threads` with ipb = threads / tpi, is the
// rounding idiom in instance units. A dimension whose block size is set to 1
// where the grid is made divides exactly. Look-alikes: rounding after the launch, min/max written back,
// a helper that is not given the block size, a block size set to 1 in one
// dimension and to 4 in another, and a scaled difference.
size_t round_up(size_t n, size_t t) { return (n + t - 1) / t * t; }
size_t clamp_count(size_t n, size_t limit);
size_t min_of(size_t a, size_t b) { return a < b ? a : b; }
void otherForms(float *d, size_t count, size_t tpi, size_t limit, int rows) {
  size_t work[3], threads[3];
  work[0] = count;
  work[1] = rows;
  work[2] = rows;
  threads[0] = 32;
  threads[1] = 1;
  threads[2] = 4;
  work[0] = round_up(work[0], threads[0]);
  // CHECK: :[[@LINE+1]]:57: warning: grid of work[2] / threads[2] blocks drops the last work[2] % threads[2] elements
  dim3 grid(work[0] / threads[0], work[1] / threads[1], work[2] / threads[2]);
  dim3 block(threads[0], threads[1], threads[2]);
  add3d<<<grid, block>>>(d, count, rows, rows);

  int t = 128, ipb = t / tpi, blocks = (count + ipb - 1) * tpi / t;
  add<<<blocks, t>>>(d, count);
  // CHECK: :[[@LINE+1]]:9: warning: grid of (count - 2) * tpi / t blocks drops the last
  add<<<(count - 2) * tpi / t, t>>>(d, count);

  size_t r = round_up(count, 256);
  add<<<r / 256, 256>>>(d, count);
  // Rounded only after the launch: the launch's grid truncates.
  size_t late = count;
  // CHECK: :[[@LINE+1]]:9: warning: grid of late / 256 blocks drops the last late % 256 elements
  add<<<late / 256, 256>>>(d, late);
  late = round_up(late, 256);

  size_t m = min_of(count, 256);
  // CHECK: :[[@LINE+1]]:9: warning: grid of m / 256 blocks drops the last m % 256 elements
  add<<<m / 256, 256>>>(d, m);
  size_t c = clamp_count(count, limit);
  // CHECK: :[[@LINE+1]]:9: warning: grid of c / 256 blocks drops the last c % 256 elements
  add<<<c / 256, 256>>>(d, c);
}

// A kernel with no bound check on its block index assumes the size is a
// multiple of the block by design: rounding the grid up would write past the
// end (cudabox's `c[blockIdx.x * blockDim.x + threadIdx.x] = ...`). A guard in
// the kernel, in a __device__ helper given the index, or a helper the
// analyzer cannot see keeps the finding; a 2D kernel guarded only in x keeps
// only the x finding.
__global__ void unguarded(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] += 1; }
__device__ bool inside(int i, int n) { return i < n; }
__global__ void helperGuard(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (inside(i, n)) x[i] += 1;
}
__device__ void opaque(float *x, int i, int n);
__global__ void opaqueUse(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  opaque(x, i, n);
}
__global__ void rowsOnly(float *x, int w, int h) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c < w) x[r * w + c] += 1;
}
void guards(float *d, int n, int w, int h) {
  unguarded<<<n / 256, 256>>>(d);
  // CHECK: :[[@LINE+1]]:17: warning: grid of n / 256 blocks drops the last n % 256 elements
  helperGuard<<<n / 256, 256>>>(d, n);
  // CHECK: :[[@LINE+1]]:15: warning: grid of n / 256 blocks drops the last n % 256 elements
  opaqueUse<<<n / 256, 256>>>(d, n);
  // CHECK: :[[@LINE+1]]:19: warning: grid of w / 32 blocks drops the last w % 32 elements
  rowsOnly<<<dim3(w / 32, h / 8), dim3(32, 8)>>>(d, w, h);
}

// A value loaded at the index is data, not the index: comparing it bounds
// nothing (drons/nbody's force kernel, `x1 = rx[n1]; ... if (r2 <
// MinDistance)`, and `*(p + i) > 0`), so the kernel stays guard-less.
// Look-alike: the same kernel that also compares the index itself.
__global__ void forces(const float *rx, float *f, float eps) {
  int n1 = blockDim.x * blockIdx.x + threadIdx.x;
  float x1 = rx[n1];
  float r2 = x1 * x1;
  if (r2 < eps) r2 = eps;
  if (*(rx + n1) > 0.0f) r2 *= 2.0f;
  f[n1] = r2;
}
__global__ void forcesGuarded(const float *rx, float *f, float eps, int n) {
  int n1 = blockDim.x * blockIdx.x + threadIdx.x;
  if (n1 >= n) return;
  float x1 = rx[n1];
  float r2 = x1 * x1;
  if (r2 < eps) r2 = eps;
  f[n1] = r2;
}
// Look-alikes that guard: an address compared with an end pointer
// (`&a[i] >= end`), and an element of a local array of coordinates.
__global__ void scalePtr(float *a, const float *end, float s) {
  float *p = &a[blockIdx.x * blockDim.x + threadIdx.x];
  if (p >= end) return;
  *p *= s;
}
__global__ void coords(float *out, int w) {
  const int c[1] = {(int)(blockIdx.x * blockDim.x + threadIdx.x)};
  if (c[0] >= w) return;
  out[c[0]] = 0.0f;
}
void loadedData(const float *rx, float *f, int n) {
  forces<<<n / 64, 64>>>(rx, f, 1e-6f);
  // CHECK: :[[@LINE+1]]:19: warning: grid of n / 64 blocks drops the last n % 64 elements
  forcesGuarded<<<n / 64, 64>>>(rx, f, 1e-6f, n);
  // CHECK: :[[@LINE+1]]:14: warning: grid of n / 64 blocks drops the last n % 64 elements
  scalePtr<<<n / 64, 64>>>(f, f + n, 2.0f);
  // CHECK: :[[@LINE+1]]:12: warning: grid of n / 64 blocks drops the last n % 64 elements
  coords<<<n / 64, 64>>>(f, n);
}

// A math function given the index computes, it does not bound it: the
// kernel stays guard-less (Rob Farber's VBO sine wave, `sinf(w + x)`).
// Look-alike: the same with a bound check. A kernel template launched from a
// template (a dependent call: `offset<<<n / b, b>>>(d_a, 0)` with `T *d_a`)
// is judged by its pattern; look-alike: a guarded one.
__global__ void wave(float *pos, unsigned w, float t) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  pos[x] = sinf(x * 0.1f + t) * cosf(t) + sqrtf((float)x);
}
__global__ void waveGuarded(float *pos, unsigned w, float t) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < w) pos[x] = sinf(x * 0.1f + t);
}
template <typename T> __global__ void bump(T *a, int s) {
  int i = blockDim.x * blockIdx.x + threadIdx.x + s;
  a[i] = a[i] + 1;
}
template <typename T> __global__ void bumpGuarded(T *a, int s, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x + s;
  if (i < n) a[i] = a[i] + 1;
}
template <typename T> void runBump(T *d, int n) {
  bump<<<n / 256, 256>>>(d, 0);
  // CHECK: :[[@LINE+1]]:17: warning: grid of n / 256 blocks drops the last n % 256 elements
  bumpGuarded<<<n / 256, 256>>>(d, 0, n);
}
template void runBump<float>(float *, int);
// A kernel the launch does not name (a function pointer) may be guarded: the
// finding stays.
void viaPointer(void (*k)(float *, int), float *d, int n) {
  // CHECK: :[[@LINE+1]]:7: warning: grid of n / 256 blocks drops the last n % 256 elements
  k<<<n / 256, 256>>>(d, n);
}
void math(float *d, unsigned w) {
  wave<<<w / 8, 8>>>(d, w, 1.f);
  // CHECK: :[[@LINE+1]]:17: warning: grid of w / 8 blocks drops the last w % 8 elements
  waveGuarded<<<w / 8, 8>>>(d, w, 1.f);
}

// Sizes read from a table of constants that are all multiples of the block
// (a test-size table: {256, 512, 1024, 2816}) divide exactly, as does their
// square. Look-alikes: a table with 1000, and a table the loop writes.
void tables(float *d, int m, int k) {
  int sizes[4] = {256, 512, 1024, 2816};
  int size = sizes[k];
  int sq = size * size;
  add2d<<<dim3(size / 32, size / 8), dim3(32, 8)>>>(d, size, size);
  add<<<sq / 256, 256>>>(d, sq);
  const int odd[] = {256, 1000};
  int oddSize = odd[k];
  // CHECK: :[[@LINE+1]]:9: warning: grid of oddSize / 256 blocks drops the last oddSize % 256 elements
  add<<<oddSize / 256, 256>>>(d, oddSize);
  int written[2] = {256, 512};
  written[1] = m;
  int writtenSize = written[k];
  // CHECK: :[[@LINE+1]]:9: warning: grid of writtenSize / 256 blocks drops the last writtenSize % 256 elements
  add<<<writtenSize / 256, 256>>>(d, writtenSize);
}

// A quotient of a rounded sum is rounded: (h + 3) / 2 / 2 is ceil(h / 4)
// (NVIDIA's video samples). Look-alike: h / 2 / 2.
void chained(float *d, int h) {
  add<<<(h + 3) / 2 / 2, 2>>>(d, h);
  // CHECK: :[[@LINE+1]]:9: warning: grid of h / 2 / 2 blocks drops the last h / 2 % 2 elements
  add<<<h / 2 / 2, 2>>>(d, h);
}

// A count every store makes a product with the block size is a multiple of
// it: a field set in the constructor to groups * per-group (VanitySearch), a
// local total = groups * per. Look-alike: a field also set to another value.
struct Engine {
  int perGroup, groups, total, other;
  Engine(int g) : perGroup(128), groups(g), total(g * perGroup), other(g * 128) {}
  void resize(int n) { other = n; }
  void launch(float *d) {
    add<<<total / perGroup, perGroup>>>(d, total);
    // CHECK: :[[@LINE+1]]:11: warning: grid of other / perGroup blocks drops the last other % perGroup elements
    add<<<other / perGroup, perGroup>>>(d, other);
  }
};
void stored(float *d, int groups) {
  int per = 64;
  int total = groups * per;
  add<<<total / per, per>>>(d, total);
}

// A stated precondition: the sizes are multiples by design (the Programming
// Guide's tiled multiply: "Matrix dimensions are assumed to be multiples of
// BLOCK_SIZE"), above the function, inside it, or at the kernel.
// Look-alikes: a comment that says "multiple" of something else, and one
// separated from the function by a blank line and code, and one that only
// mentions multiples.

// Matrix dimensions are assumed to be multiples of 16.
void documentedAbove(float *d, int w, int h) {
  add2d<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(d, w, h);
}
void documentedInside(float *d, int n) {
  // n must be divisible by 256: the caller pads it.
  add<<<n / 256, 256>>>(d, n);
}
/* Precondition: n is a multiple of the block size. */
__global__ void documentedKernel(float *x, int n);
void documentedAtKernel(float *d, int n) {
  documentedKernel<<<n / 128, 128>>>(d, n);
}
// Launches multiple blocks of 256 threads.
void multipleBlocks(float *d, int n) {
  // CHECK: :[[@LINE+1]]:9: warning: grid of n / 256 blocks drops the last n % 256 elements
  add<<<n / 256, 256>>>(d, n);
}
// Sizes must be multiples of 64 here.
int unrelatedHelper(int n) { return n * 64; }

void separated(float *d, int n) {
  // CHECK: :[[@LINE+1]]:9: warning: grid of n / 64 blocks drops the last n % 64 elements
  add<<<n / 64, 64>>>(d, n);
}
void mentionsOnly(float *d, int n) {
  // If n is not a multiple of 128 the tail is dropped.
  // CHECK: :[[@LINE+1]]:9: warning: grid of n / 128 blocks drops the last n % 128 elements
  add<<<n / 128, 128>>>(d, n);
}

// A kernel whose own tile loop truncates the same size by the same tile
// (PMPP's and the Programming Guide's tiled multiply: `m < n / TILE`) assumes
// multiples by design, even though it guards its store: rounding the grid up
// alone would not process the tail. Look-alikes: a kernel that rounds its
// loop up, and one that handles n % TILE.
#define TILE 16
__global__ void tiledTruncating(const float *a, float *c, int n) {
  __shared__ float t[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0;
  for (int m = 0; m < n / TILE; ++m) {
    t[threadIdx.y][threadIdx.x] = a[row * n + m * TILE + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += t[threadIdx.y][k];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = sum;
}
__global__ void tiledRounded(const float *a, float *c, int n) {
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0;
  for (int m = 0; m < (n + TILE - 1) / TILE; ++m)
    if (m * TILE + threadIdx.x < n) sum += a[row * n + m * TILE + threadIdx.x];
  if (row < n && col < n) c[row * n + col] = sum;
}
__global__ void tiledWithTail(const float *a, float *c, int n) {
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0;
  for (int m = 0; m < n / TILE; ++m) sum += a[row * n + m * TILE + threadIdx.x];
  if (threadIdx.x < n % TILE) sum += a[row * n + n / TILE * TILE + threadIdx.x];
  if (row < n && col < n) c[row * n + col] = sum;
}
void tiled(const float *a, float *c, int n) {
  dim3 block(TILE, TILE);
  tiledTruncating<<<dim3(n / TILE, n / TILE), block>>>(a, c, n);
  // CHECK: :[[@LINE+1]]:23: warning: grid of (n / TILE, n / TILE) blocks truncates x and y: in each, the last n % TILE elements are dropped when n is not a multiple of TILE; round up
  tiledRounded<<<dim3(n / TILE, n / TILE), block>>>(a, c, n);
  // CHECK: :[[@LINE+1]]:24: warning: grid of (n / TILE, n / TILE) blocks truncates x and y: in each, the last n % TILE elements
  tiledWithTail<<<dim3(n / TILE, n / TILE), block>>>(a, c, n);
}
