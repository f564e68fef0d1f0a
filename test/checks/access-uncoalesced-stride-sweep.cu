// A strided access whose stride is a kernel parameter that every launch
// passes from the variable of a host loop timing each launch by itself is the
// experiment of a stride benchmark (`for (k...) { start; copy<<<..>>>(x, k);
// stop; print(k, bandwidth); }`, as in "How to Access Global Memory
// Efficiently" and the course exercises copied from it): the program measures
// the cost of the stride, it does not suffer it. Such a finding is a note,
// shown with --show-cold. A loop of passes that passes a changing stride (a
// butterfly, a tree of passes) without timing each pass, a timer around the
// whole loop, a swept value that is not the stride, a loop over problem sizes
// timing each size, and a step the program repeats that times each of its
// passes keep the finding.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:' --implicit-check-not='note: off the hot path'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,access-uncoalesced' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cstdio>
#include <cuda_runtime.h>

__global__ void strideCopy(float *out, const float *in, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // COLD: access-uncoalesced-stride-sweep.cu:[[@LINE+2]]:{{[0-9]+}}: note: uncoalesced global store of 'out'
  // COLD: note: off the hot path: every launch passes 'stride' from the variable of the loop at line [[#SWEEP:]], which times each launch by itself: a sweep that measures this strided access
  out[i * stride] = in[i * stride];
}

// Look-alike: the same kernel body, launched by passes of a butterfly whose
// stride doubles each pass, timed as a whole: the strided access is the
// program's work.
__global__ void butterfly(float *data, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // DEFAULT: access-uncoalesced-stride-sweep.cu:[[@LINE+1]]:{{[0-9]+}}: warning: uncoalesced global read-modify-write of 'data'
  data[i * stride] += data[i * stride + stride / 2];
}

// Look-alike: the sweep varies the scale, not the stride; the stride is
// another parameter.
__global__ void scaledCopy(float *out, const float *in, int ld, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // DEFAULT: access-uncoalesced-stride-sweep.cu:[[@LINE+1]]:{{[0-9]+}}: warning: uncoalesced global store of 'out'
  out[i * ld] = scale * in[i];
}

// Look-alike: the stride comes from a loop variable, but no timer measures
// each launch: a solver's passes.
__global__ void gather(float *out, const float *in, int step) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // DEFAULT: access-uncoalesced-stride-sweep.cu:[[@LINE+1]]:{{[0-9]+}}: warning: uncoalesced global load of 'in'
  out[i] = in[i * step];
}

// Look-alike: a loop over problem sizes (n sizes the allocation and the
// grid), each size timed: the stride is the size, the access the program's.
__global__ void matvec(const float *a, const float *x, float *y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  // DEFAULT: access-uncoalesced-stride-sweep.cu:[[@LINE+1]]:{{[0-9]+}}: warning: uncoalesced global load of 'a'
  for (int k = 0; k < n; ++k) s += a[row * n + k] * x[k];
  y[row] = s;
}

void sizes(cudaEvent_t start, cudaEvent_t stop) {
  for (int n = 1024; n <= 16384; n *= 2) {
    float *a, *x, *y, ms;
    cudaMalloc(&a, sizeof(float) * n * n);
    cudaMalloc(&x, sizeof(float) * n);
    cudaMalloc(&y, sizeof(float) * n);
    cudaEventRecord(start);
    matvec<<<n / 256, 256>>>(a, x, y, n);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    printf("%d %f\n", n, ms);
    cudaFree(a);
    cudaFree(x);
    cudaFree(y);
  }
}

// Look-alike: a step the program repeats (called in main's loop) that times
// each direction of a line sweep for a log: the program's work.
__global__ void lineSweep(float *u, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // DEFAULT: access-uncoalesced-stride-sweep.cu:[[@LINE+1]]:{{[0-9]+}}: warning: uncoalesced global read-modify-write of 'u'
  u[i * stride] *= 0.5f;
}

void adiStep(float *u, int n, cudaEvent_t start, cudaEvent_t stop) {
  const int strides[3] = {1, n, n * n};
  for (int dir = 0; dir < 3; ++dir) {
    float ms;
    cudaEventRecord(start);
    lineSweep<<<n * n / 256, 256>>>(u, strides[dir]);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    printf("%d %f\n", dir, ms);
  }
}

void transform(float *data, int n);
void solve(float *out, const float *in, int n, int passes);

int main(int argc, char **argv) {
  const int n = 1 << 20;
  float *in, *out;
  cudaMalloc(&in, 64 * n * sizeof(float));
  cudaMalloc(&out, 64 * n * sizeof(float));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  float ms;
  for (int k = 1; k <= 32; ++k) {
    cudaEventRecord(start);
    strideCopy<<<n / 256, 256>>>(out, in, k);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    printf("%d %f\n", k, 2 * n * 4 / ms / 1e6);
  }
  for (float s = 1.0f; s < 8.0f; s *= 2.0f) {
    cudaEventRecord(start);
    scaledCopy<<<n / 256, 256>>>(out, in, argc + 1, s);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    printf("%f %f\n", s, ms);
  }
  transform(out, n);
  sizes(start, stop);
  for (int step = 0; step < argc + 100; ++step)
    adiStep(out, 128, start, stop);
  solve(out, in, n, argc + 8);
  return 0;
}

void transform(float *data, int n) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int s = 2; s <= n; s *= 2)
    butterfly<<<n / 256, 256>>>(data, s);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms;
  cudaEventElapsedTime(&ms, start, stop);
  printf("%f\n", ms);
}

void solve(float *out, const float *in, int n, int passes) {
  for (int p = 1; p < passes; ++p)
    gather<<<n / 256, 256>>>(out, in, p);
}
