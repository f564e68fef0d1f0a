// transfer-in-loop on a copy in a branch that runs on one iteration in K of
// its loop: drawing every DRAW_RATE-th step (a counter the branch resets), a
// log every `every` steps (`step % every == 0`). The message says how often
// it runs; with a period of at least 8 (or one known only at run time) it is
// periodic output, a note off the hot path. Look-alikes keep the warning: a
// period of 2, a remainder of a value the loop does not count, the same copy
// outside the branch, and conditions that are no period (below).
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --sort=location --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>

constexpr int DRAW_RATE = 10;
__global__ void step(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1;
}
int readSensor();

void draw(float *h, const float *d, int n) {
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
}

void simulate(float *h, float *d, int n, int steps, int printEvery, bool drawing) {
  int drawCount = 0;
  for (int s = 0; s < steps; ++s) {
    step<<<(n + 255) / 256, 256>>>(d, n);
    if (drawCount == DRAW_RATE && drawing) {
      // COLD: :[[@LINE+2]]:7: note: cudaMemcpy runs on one iteration in DRAW_RATE = 10 of this loop
      // COLD: note: off the hot path: it runs on one iteration in DRAW_RATE = 10 (the branch at line [[@LINE-2]]): periodic output (drawing, logging, a checkpoint), not the loop's per-iteration traffic
      cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
      drawCount = 0;
    }
    drawCount++;
    if (s % printEvery == 0)
      // COLD: :[[@LINE+2]]:7: note: 'draw' calls cudaMemcpy and runs on one iteration in printEvery of this loop
      // COLD: note: off the hot path: it runs on one iteration in printEvery (the branch at line [[@LINE-2]])
      draw(h, d, n);
    if (s % 2 == 0)
      // CHECK: :[[@LINE+1]]:7: warning: cudaMemcpy runs on one iteration in 2 of this loop
      cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    if (readSensor() % 10 == 0)
      // CHECK: :[[@LINE+1]]:7: warning: cudaMemcpy runs on every iteration of this loop
      cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop
    cudaMemcpy(h + 1, d, sizeof(float), cudaMemcpyDeviceToHost);
  }
}

// Through an error-check macro (the call initializes a variable): the same.
#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t e = (call);                                                                  \
    if (e != cudaSuccess)                                                                    \
      return;                                                                                \
  } while (0)
void checked(float *h, float *d, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
    step<<<(n + 255) / 256, 256>>>(d, n);
    if (s % 100 == 0)
      // COLD: :[[@LINE+2]]:13: note: cudaMemcpy runs on one iteration in 100 of this loop
      // COLD: note: off the hot path: it runs on one iteration in 100 (the branch at line [[@LINE-2]])
      CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  }
}

// Look-alikes that are no period of K: a counter stepped by 4 (t % 8 holds on
// one iteration in 2), a count stepped only on some iterations, and a count
// reset outside the branch (it may stay at K).
bool accept(int);
void notPeriodic(float *h, float *d, int n, int steps, bool flush) {
  for (int t = 0; t < steps; t += 4) {
    step<<<(n + 255) / 256, 256>>>(d, n);
    if (t % 8 == 0)
      // CHECK: :[[@LINE+1]]:7: warning: cudaMemcpy runs on one iteration in 2 of this loop
      cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  int accepted = 0, pending = 0;
  for (int s = 0; s < steps; ++s) {
    step<<<(n + 255) / 256, 256>>>(d, n);
    if (accept(s))
      ++accepted;
    if (accepted % 100 == 0)
      // CHECK: :[[@LINE+1]]:7: warning: cudaMemcpy runs on every iteration of this loop
      cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    ++pending;
    if (pending >= 16) {
      // CHECK: :[[@LINE+1]]:7: warning: cudaMemcpy runs on every iteration of this loop
      cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
      if (flush)
        pending = 0;
    }
  }
}
