// A tutorial's unpadded shared-memory tile shipped beside the padded one it
// is timed against (transpose_shared's tile[32][32] and
// transpose_no_conflict's tile[32][33]): the conflict is the baseline the
// file measures its fix against, off the hot path. Look-alikes keep their
// warnings: a second tile of another width ([32][64], no padding), a padded
// tile of another element type.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-shared-bank-conflict' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,access-shared-bank-conflict' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>

#define TILE 32

__global__ void transpose_shared(const float *a, float *b, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = a[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  // COLD: access-shared-bank-conflict-baseline.cu:[[@LINE+2]]:18: note: 32-way shared-memory bank conflict on 'tile'{{.*}}[access-shared-bank-conflict]
  // COLD: note: off the hot path: the file's 'transpose_no_conflict' declares 'tile' as 'float[32][33]', the same array with its rows padded: this unpadded one is the baseline it is compared with
  b[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transpose_no_conflict(const float *a, float *b, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = a[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  b[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// Look-alikes: a variant with a wider array ([16][48], no padding), a
// padded array of another element type, a padded array of an unrelated
// kernel (columnSums beside transpose_no_conflict), a pad of 2 (which still
// conflicts).
__global__ void histogramRows(const int *in, int *out) {
  __shared__ int counts[16][16];
  counts[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  // CHECK: access-shared-bank-conflict-baseline.cu:[[@LINE+1]]:41: warning: 8-way shared-memory bank conflict on 'counts'{{.*}}[access-shared-bank-conflict]
  out[threadIdx.y * 16 + threadIdx.x] = counts[threadIdx.x][threadIdx.y];
}

__global__ void histogramWide(const int *in, int *out) {
  __shared__ int counts[16][48];
  counts[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = counts[threadIdx.y][threadIdx.x];
}

__global__ void transposeDouble(const double *a, double *b) {
  __shared__ double d[16][16];
  d[threadIdx.y][threadIdx.x] = a[threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  // CHECK: access-shared-bank-conflict-baseline.cu:[[@LINE+1]]:39: warning: 16-way shared-memory bank conflict on 'd'{{.*}}[access-shared-bank-conflict]
  b[threadIdx.x * 16 + threadIdx.y] = d[threadIdx.x][threadIdx.y];
}

__global__ void transposeFloat(const float *a, float *b) {
  __shared__ float f[16][17];
  f[threadIdx.y][threadIdx.x] = a[threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  b[threadIdx.x * 16 + threadIdx.y] = f[threadIdx.x][threadIdx.y];
}

__global__ void columnSums(const float *a, float *out) {
  __shared__ float rows[TILE][TILE];
  rows[threadIdx.y][threadIdx.x] = a[threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  // CHECK: access-shared-bank-conflict-baseline.cu:[[@LINE+1]]:43: warning: 32-way shared-memory bank conflict on 'rows'{{.*}}[access-shared-bank-conflict]
  out[threadIdx.y * TILE + threadIdx.x] = rows[threadIdx.x][threadIdx.y];
}

__global__ void stageTile(const float *a, float *b) {
  __shared__ float t[16][16];
  t[threadIdx.y][threadIdx.x] = a[threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  // CHECK: access-shared-bank-conflict-baseline.cu:[[@LINE+1]]:39: warning: {{.*}}shared-memory bank conflict on 't'{{.*}}[access-shared-bank-conflict]
  b[threadIdx.x * 16 + threadIdx.y] = t[threadIdx.x][threadIdx.y];
}

__global__ void stageTilePad2(const float *a, float *b) {
  __shared__ float t[16][18];
  t[threadIdx.y][threadIdx.x] = a[threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  b[threadIdx.x * 16 + threadIdx.y] = t[threadIdx.x][threadIdx.y];
}

int main() {
  float *a, *b;
  int *ci, *co;
  double *da, *db;
  cudaMalloc(&a, 1 << 22);
  cudaMalloc(&b, 1 << 22);
  cudaMalloc(&ci, 1 << 12);
  cudaMalloc(&co, 1 << 12);
  cudaMalloc(&da, 1 << 12);
  cudaMalloc(&db, 1 << 12);
  for (int it = 0; it < 100; ++it) {
    transpose_shared<<<dim3(32, 32), dim3(TILE, TILE)>>>(a, b, 1024);
    transpose_no_conflict<<<dim3(32, 32), dim3(TILE, TILE)>>>(a, b, 1024);
    histogramRows<<<1024, dim3(16, 16)>>>(ci, co);
    histogramWide<<<1024, dim3(16, 16)>>>(ci, co);
    transposeDouble<<<1024, dim3(16, 16)>>>(da, db);
    transposeFloat<<<1024, dim3(16, 16)>>>(a, b);
    columnSums<<<1024, dim3(TILE, TILE)>>>(a, b);
    stageTile<<<1024, dim3(16, 16)>>>(a, b);
    stageTilePad2<<<1024, dim3(16, 16)>>>(a, b);
  }
  return 0;
}
