// A microbenchmark whose kernels time themselves in cycles (clock64() or
// %clock64 at the start and the end of what they measure) launches them in
// loops of its own: warm-up launches, then repetitions, each followed by a
// wait and a copy of the cycle count. What the host does between the launches
// is outside every measurement: the loop's waits and copies are off the hot
// path; the launches keep their priority. Look-alikes keep their warnings: a
// loop that also launches a kernel that does not time itself (a simulation
// step beside a probe, directly or through a helper), a kernel that reads
// the clock only in a spin-wait's condition or an `if` that leaves (a
// timeout), and a production step instrumented with per-block cycle counts
// whose loop copies its whole field back (more than a few results).
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,sync-in-loop,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,sync-in-loop,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cstdio>
#include <cuda_runtime.h>

struct Result {
  unsigned long long cycles;
  unsigned sink;
};

__global__ void latency(Result *out, const unsigned *chain, int iters) {
  unsigned long long start = clock64();
  unsigned p = 0;
  for (int i = 0; i < iters; ++i)
    p = chain[p];
  unsigned long long stop = clock64();
  if (threadIdx.x == 0) {
    out->cycles = stop - start;
    out->sink = p;
  }
}

__global__ void spin(const volatile int *flag, long long timeout, float *x) {
  long long t0 = clock64();
  while (*flag == 0 && clock64() - t0 < timeout) {
  }
  x[threadIdx.x] += 1.0f;
}

__global__ void step(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 0.5f;
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  }
}

void runLatency(Result *d_result, const unsigned *chain, int warmup, int repeats, int iters) {
  for (int i = 0; i < warmup; ++i) {
    latency<<<1, 1>>>(d_result, chain, iters);
    // COLD: hot-path-self-timed-loops.cu:[[@LINE+2]]:{{[0-9]+}}: note: cudaDeviceSynchronize runs on every iteration
    // COLD: note: off the hot path: in the loop at line [[@LINE-3]], whose only GPU work is kernels that read the GPU's clock at the start and the end of what they measure: what the host does between launches is outside the measurement
    check(cudaDeviceSynchronize(), "warmup");
  }
  for (int r = 0; r < repeats; ++r) {
    latency<<<1, 1>>>(d_result, chain, iters);
    check(cudaDeviceSynchronize(), "sync");
    Result h;
    // COLD: hot-path-self-timed-loops.cu:[[@LINE+1]]:{{[0-9]+}}: note: {{.*}}cudaMemcpy
    check(cudaMemcpy(&h, d_result, sizeof h, cudaMemcpyDeviceToHost), "copy");
    std::printf("%d %f\n", r, double(h.cycles) / iters);
  }
}

// Look-alike: the loop also runs the program's own step, which does not time
// itself: the waits and copies of the loop are the program's.
void simulate(Result *d_result, const unsigned *chain, float *x, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
    step<<<(n + 255) / 256, 256>>>(x, n);
    latency<<<1, 1>>>(d_result, chain, 16);
    cudaDeviceSynchronize();
    Result h;
    // DEFAULT: hot-path-self-timed-loops.cu:[[@LINE+1]]:{{[0-9]+}}: warning: {{.*}}cudaMemcpy
    cudaMemcpy(&h, d_result, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("%d %llu\n", s, h.cycles);
  }
}

// Look-alike: a kernel with a clock64() timeout measures nothing.
void poll(const int *flag, float *x, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    spin<<<1, 32>>>(flag, 1000000, x);
    cudaDeviceSynchronize();
    float h;
    // DEFAULT: hot-path-self-timed-loops.cu:[[@LINE+1]]:{{[0-9]+}}: warning: {{.*}}cudaMemcpy
    cudaMemcpy(&h, x, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("%f\n", h);
  }
}

__global__ void worker(float *x, long long timeout) {
  long long start = clock64();
  for (;;) {
    if (clock64() - start > timeout)
      break;
    x[threadIdx.x] += 1.0f;
  }
}

__global__ void profiledStep(float *u, int n, long long *prof) {
  long long t0 = clock64();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) u[i] *= 0.5f;
  if (threadIdx.x == 0) prof[blockIdx.x] = clock64() - t0;
}

void advance(float *x, int n) { step<<<(n + 255) / 256, 256>>>(x, n); }

void others(Result *d_result, const unsigned *chain, float *x, float *h, long long *prof, int n,
            int steps) {
  for (int s = 0; s < steps; ++s) {
    latency<<<1, 1>>>(d_result, chain, 16);
    advance(x, n);
    // DEFAULT: hot-path-self-timed-loops.cu:[[@LINE+1]]:{{[0-9]+}}: warning: {{.*}}cudaMemcpy
    cudaMemcpy(h, x, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  for (int s = 0; s < steps; ++s) {
    worker<<<1, 32>>>(x, 1000000);
    // DEFAULT: hot-path-self-timed-loops.cu:[[@LINE+1]]:{{[0-9]+}}: warning: {{.*}}cudaMemcpy
    cudaMemcpy(h, x, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  for (int s = 0; s < steps; ++s) {
    profiledStep<<<n / 256, 256>>>(x, n, prof);
    // DEFAULT: hot-path-self-timed-loops.cu:[[@LINE+1]]:{{[0-9]+}}: warning: {{.*}}cudaMemcpy
    cudaMemcpy(h, x, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
}

int main(int argc, char **argv) {
  Result *d_result;
  unsigned *chain;
  float *x;
  int *flag;
  cudaMalloc(&d_result, sizeof(Result));
  cudaMalloc(&chain, 1 << 24);
  cudaMalloc(&x, 1 << 24);
  cudaMalloc(&flag, sizeof(int));
  runLatency(d_result, chain, 3, argc + 10, 1 << 20);
  simulate(d_result, chain, x, 1 << 20, argc + 100);
  poll(flag, x, argc + 100);
  others(d_result, chain, x, new float[1 << 22], (long long *)flag, 1 << 22, argc + 100);
  return 0;
}
