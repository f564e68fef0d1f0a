// A synchronization that follows another of the same iteration with no GPU
// work queued in between (pointer swaps only) finds the GPU idle: it is no
// wait of its own, and is put off the hot path with the line of the one that
// waited (round 18 of docs/evaluation.md: a recursive reduction's loop with
// two cudaDeviceSynchronize, both reported as waits). Look-alikes keep their
// warnings: work queued between the two (a launch, a launch under a
// condition, a helper that launches).
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,sync-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,sync-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>

__global__ void halve(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 2)
    out[i] = in[2 * i] + in[2 * i + 1];
}

void stepHelper(float *a, float *b, int n) { halve<<<(n + 255) / 256, 256>>>(a, b, n); }

void reduce(float *a, float *b, int n) {
  while (n > 256) {
    halve<<<(n + 255) / 256, 256>>>(a, b, n);
    // CHECK: sync-in-loop-idle.cu:[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration of this loop{{.*}}[sync-in-loop]
    cudaDeviceSynchronize();
    float *t = a;
    a = b;
    b = t;
    n /= 2;
    // COLD: sync-in-loop-idle.cu:[[@LINE+2]]:5: note: cudaDeviceSynchronize runs on every iteration of this loop{{.*}}[sync-in-loop]
    // COLD: note: off the hot path: the synchronization at line [[@LINE-6]] already waited for this iteration's GPU work, and no work is queued in between: this one finds the GPU idle
    cudaDeviceSynchronize();
  }
}

// Look-alikes: work between the two synchronizations.
void twoSteps(float *a, float *b, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
    halve<<<(n + 255) / 256, 256>>>(a, b, n);
    // CHECK: sync-in-loop-idle.cu:[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration{{.*}}[sync-in-loop]
    cudaDeviceSynchronize();
    halve<<<(n + 255) / 256, 256>>>(b, a, n);
    // CHECK: sync-in-loop-idle.cu:[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration{{.*}}[sync-in-loop]
    cudaDeviceSynchronize();
  }
}

void conditional(float *a, float *b, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
    halve<<<(n + 255) / 256, 256>>>(a, b, n);
    // CHECK: sync-in-loop-idle.cu:[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration{{.*}}[sync-in-loop]
    cudaDeviceSynchronize();
    if (s % 2)
      halve<<<(n + 255) / 256, 256>>>(b, a, n);
    // CHECK: sync-in-loop-idle.cu:[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration{{.*}}[sync-in-loop]
    cudaDeviceSynchronize();
  }
}

void viaHelper(float *a, float *b, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
    halve<<<(n + 255) / 256, 256>>>(a, b, n);
    // CHECK: sync-in-loop-idle.cu:[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration{{.*}}[sync-in-loop]
    cudaDeviceSynchronize();
    stepHelper(b, a, n);
    // CHECK: sync-in-loop-idle.cu:[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration{{.*}}[sync-in-loop]
    cudaDeviceSynchronize();
  }
}

// Look-alikes: two streams' synchronizations (the second waits for its own
// stream), and a device-to-device copy between two device-wide ones (it is
// queued work the host does not wait for).
void twoStreams(float *a, float *b, int n, int steps, cudaStream_t s1, cudaStream_t s2) {
  for (int s = 0; s < steps; ++s) {
    halve<<<(n + 255) / 256, 256, 0, s1>>>(a, b, n);
    halve<<<(n + 255) / 256, 256, 0, s2>>>(b, a, n);
    // CHECK: sync-in-loop-idle.cu:[[@LINE+1]]:5: warning: cudaStreamSynchronize runs on every iteration{{.*}}[sync-in-loop]
    cudaStreamSynchronize(s1);
    // CHECK: sync-in-loop-idle.cu:[[@LINE+1]]:5: warning: cudaStreamSynchronize runs on every iteration{{.*}}[sync-in-loop]
    cudaStreamSynchronize(s2);
  }
}

void deviceCopy(float *a, float *b, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
    halve<<<(n + 255) / 256, 256>>>(a, b, n);
    // CHECK: sync-in-loop-idle.cu:[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration{{.*}}[sync-in-loop]
    cudaDeviceSynchronize();
    cudaMemcpy(a, b, n * sizeof(float), cudaMemcpyDeviceToDevice);
    // CHECK: sync-in-loop-idle.cu:[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration{{.*}}[sync-in-loop]
    cudaDeviceSynchronize();
  }
}
