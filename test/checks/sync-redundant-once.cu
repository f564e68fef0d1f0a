// A redundant synchronization outside every loop of its function costs one
// runtime call per call of the function (microseconds), while the operation
// after it waits for the same work anyway: a note off the hot path, shown
// with --show-cold. That holds for main's set-up and result, for a helper
// called only from there, and for a helper called from main's loop, whose
// own GPU work and copy dwarf the call. The same sync directly in a loop
// runs every iteration of that loop and stays a warning.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,sync-redundant' %s -- -x cuda \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:' --implicit-check-not='note: off'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,sync-redundant' %s -- -x cuda \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

// Called once, from main's set-up: its sync runs once.
void upload(float *d, const float *h, int n) {
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
}

// Called from main's loop: one call per step, beside the step's kernel and
// copy.
void stepResult(float *h, const float *d, int n) {
  scale<<<(n + 255) / 256, 256>>>((float *)d, n);
  // COLD-DAG: sync-redundant-once.cu:[[@LINE+1]]:3: note: cudaDeviceSynchronize is redundant
  cudaDeviceSynchronize();
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
}

// Look-alike: the sync directly in the loop.
void steps(float *h, const float *d, int n, int count) {
  for (int step = 0; step < count; ++step) {
    scale<<<(n + 255) / 256, 256>>>((float *)d, n);
    // DEFAULT-DAG: sync-redundant-once.cu:[[@LINE+2]]:5: warning: cudaDeviceSynchronize is redundant
    // COLD-DAG: sync-redundant-once.cu:[[@LINE+1]]:5: warning: cudaDeviceSynchronize is redundant
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
}

// Called once, after main's loop.
void finish(float *h, const float *d, int n) {
  scale<<<(n + 255) / 256, 256>>>((float *)d, n);
  cudaDeviceSynchronize();
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
}

void stepsPageable(const float *d, int n, int count);
void stepsPinned(const float *d, int n, int count);
int main() {
  const int n = 1 << 20;
  float *h, *d; // Pinned: the syncs before its copies delay them.
  cudaMallocHost(&h, n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  upload(d, h, n);
  for (int step = 0; step < 100; ++step)
    stepResult(h, d, n);
  steps(h, d, n, 100);
  finish(h, d, n);
  stepsPageable(d, n, 100); // Called: an uncalled function would be dead code.
  stepsPinned(d, n, 100);
  cudaFree(d);
  cudaFreeHost(h);
  return 0;
}
// The helpers that run once, as notes off the hot path.
// COLD-DAG: sync-redundant-once.cu:24:3: note: cudaDeviceSynchronize is redundant
// COLD-DAG: sync-redundant-once.cu:51:3: note: cudaDeviceSynchronize is redundant
// COLD-DAG: note: off the hot path: runs once per run (outside every loop, in code that runs once): it costs one runtime call
// COLD-DAG: note: off the hot path: outside every loop of 'stepResult': it costs one runtime call

// In a loop, before a blocking copy into pageable memory (a local malloc):
// the copy is staged through a driver buffer and takes several times the
// call, so the sync is a small share of each iteration: a note. Into pinned
// memory (cudaMallocHost) the copy would start the moment the kernel ends
// without it: a warning.
void stepsPageable(const float *d, int n, int count) {
  float *h = (float *)malloc(n * sizeof(float));
  for (int step = 0; step < count; ++step) {
    scale<<<(n + 255) / 256, 256>>>((float *)d, n);
    // COLD-DAG: sync-redundant-once.cu:[[@LINE+1]]:5: note: cudaDeviceSynchronize is redundant
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  free(h);
}
// COLD-DAG: note: off the hot path: the copy's host memory is pageable

void stepsPinned(const float *d, int n, int count) {
  float *h;
  cudaMallocHost(&h, n * sizeof(float));
  for (int step = 0; step < count; ++step) {
    scale<<<(n + 255) / 256, 256>>>((float *)d, n);
    // DEFAULT-DAG: sync-redundant-once.cu:[[@LINE+2]]:5: warning: cudaDeviceSynchronize is redundant
    // COLD-DAG: sync-redundant-once.cu:[[@LINE+1]]:5: warning: cudaDeviceSynchronize is redundant
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  cudaFreeHost(h);
}
