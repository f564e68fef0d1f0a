// A loop that walks a buffer in chunks (each iteration copies the part of a
// buffer at an offset that follows the loop variable, the last chunk shorter)
// processes new data every iteration: its sizes follow the chunk, and it is
// the program's work, not a sweep over problem sizes. Sweeps over sizes (the
// size is the loop variable; the copies start at the buffer) stay off the
// hot path.
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,launch-block-size' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='warning:' --implicit-check-not='note:'
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <vector>

#define CHUNK 1024
__constant__ float atoms[CHUNK * 4];

__global__ void scatter(float *grid, int n, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) grid[i % n] += atoms[4 * i];
}

// The chunks of a constant-memory buffer (Programming Massively Parallel
// Processors, chapter 18): the launch of each chunk is the program's work.
void chunks(float *grid, int n, const float *host, int numatoms) {
  int chunkCount = (numatoms + CHUNK - 1) / CHUNK;
  for (int chunk = 0; chunk < chunkCount; chunk++) {
    int start = chunk * CHUNK;
    int count = (start + CHUNK <= numatoms) ? CHUNK : (numatoms - start);
    cudaMemcpyToSymbol(atoms, &host[start * 4], count * 4 * sizeof(float));
    scatter<<<(count + 99) / 100, 100>>>(grid, n, count);
    cudaDeviceSynchronize();
  }
}
// CHECK: hot-path-chunk-loop.cu:[[@LINE-4]]:{{[0-9]+}}: warning: 100 threads per block{{.*}}[launch-block-size]

// The same with pointer arithmetic and the offset as the loop variable.
void chunksByOffset(float *d, const float *h, int total, float *grid, int n) {
  for (int off = 0; off < total; off += CHUNK) {
    int count = total - off < CHUNK ? total - off : CHUNK;
    cudaMemcpy(d, h + off, count * sizeof(float), cudaMemcpyHostToDevice);
    scatter<<<(count + 99) / 100, 100>>>(grid, n, count);
    cudaDeviceSynchronize();
  }
}
// CHECK: hot-path-chunk-loop.cu:[[@LINE-4]]:{{[0-9]+}}: warning: 100 threads per block{{.*}}[launch-block-size]

// The chunks of a std::vector: `&host[...]` is its operator[].
void vectorChunks(float *grid, int n, const std::vector<float> &host, int numatoms) {
  for (int start = 0; start < numatoms; start += CHUNK) {
    int count = numatoms - start < CHUNK ? numatoms - start : CHUNK;
    cudaMemcpyToSymbol(atoms, &host[start * 4], count * 4 * sizeof(float));
    scatter<<<(count + 99) / 100, 100>>>(grid, n, count);
  }
}
// CHECK: hot-path-chunk-loop.cu:[[@LINE-3]]:{{[0-9]+}}: warning: 100 threads per block{{.*}}[launch-block-size]

// Look-alike: a sweep over sizes, each copy from the buffer's start.
void sizeSweep(float *d, const float *h, float *grid, int n) {
  for (int count = 1024; count <= (1 << 20); count *= 2) {
    cudaMemcpy(d, h, count * sizeof(float), cudaMemcpyHostToDevice);
    scatter<<<(count + 99) / 100, 100>>>(grid, n, count);
    cudaDeviceSynchronize();
  }
}
// CHECK: hot-path-chunk-loop.cu:[[@LINE-4]]:{{[0-9]+}}: note: 100 threads per block{{.*}}[launch-block-size]
// CHECK: note: off the hot path: in a loop over problem sizes or launch configurations (line [[@LINE-7]])

// Look-alike: a sweep over sizes whose copy is offset by another variable,
// fixed for the whole loop.
void sizeSweepFixedOffset(float *d, const float *h, int skip, float *grid, int n) {
  for (int count = 1024; count <= (1 << 20); count *= 2) {
    cudaMemcpy(d, h + skip, count * sizeof(float), cudaMemcpyHostToDevice);
    scatter<<<(count + 99) / 100, 100>>>(grid, n, count);
    cudaDeviceSynchronize();
  }
}
// CHECK: hot-path-chunk-loop.cu:[[@LINE-4]]:{{[0-9]+}}: note: 100 threads per block{{.*}}[launch-block-size]
// CHECK: note: off the hot path: in a loop over problem sizes or launch configurations (line [[@LINE-7]])

// Look-alike: a sweep over sizes that stores each size's result in its own
// slot (`&results[i]`): the offset follows the loop, the byte count does not.
void sizeSweepResults(float *d, float *dout, float *grid, int n, float *results) {
  const int sizes[] = {1 << 10, 1 << 14, 1 << 18, 1 << 22};
  for (int i = 0; i < 4; ++i) {
    int count = sizes[i];
    scatter<<<(count + 99) / 100, 100>>>(grid, n, count);
    cudaMemcpy(&results[i], dout, sizeof(float), cudaMemcpyDeviceToHost);
  }
}
// CHECK: hot-path-chunk-loop.cu:[[@LINE-4]]:{{[0-9]+}}: note: 100 threads per block{{.*}}[launch-block-size]
// CHECK: note: off the hot path: in a loop over problem sizes or launch configurations (line [[@LINE-7]])

int main() {
  const int n = 1 << 20, atomsCount = 1 << 16;
  float *grid, *d, *h = new float[4 * atomsCount];
  cudaMalloc(&grid, n * sizeof(float));
  cudaMalloc(&d, (1 << 20) * sizeof(float));
  chunks(grid, n, h, atomsCount);
  chunksByOffset(d, h, atomsCount, grid, n);
  sizeSweep(d, h, grid, n);
  sizeSweepFixedOffset(d, h, 16, grid, n);
  std::vector<float> v(4 * atomsCount);
  float results[4];
  vectorChunks(grid, n, v, atomsCount);
  sizeSweepResults(d, d, grid, n, results);
  return 0;
}
