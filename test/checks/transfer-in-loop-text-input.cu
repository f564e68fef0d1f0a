// A loop whose iterations read their data as text, one value at a time (a
// lab's loop over the test cases of an input file: fscanf or an input
// stream's >> in a loop nested in the body, directly or in a helper of the
// file), spends tens of nanoseconds a number parsing: the allocation and
// the copies of each iteration cost less. Their findings are notes off the
// hot path. Look-alikes keep the warning: a loop reading one count per
// iteration, data parsed before the loop, a nested loop that prints, and
// a nested loop that shifts bits with >>.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <fstream>
#include <stdio.h>
#include <stdlib.h>

__global__ void add(const float *a, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + 1.0f;
}

void testCases(FILE *in, FILE *out) {
  int cases, rows, cols;
  fscanf(in, "%d", &cases);
  for (int t = 0; t < cases; ++t) {
    fscanf(in, "%d %d", &rows, &cols);
    int n = rows * cols;
    float *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j)
        fscanf(in, "%f", &h[i * cols + j]);
    float *d, *dc;
    cudaMalloc(&d, n * sizeof(float));
    cudaMalloc(&dc, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    add<<<(n + 255) / 256, 256>>>(d, dc, n);
    cudaMemcpy(h, dc, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i)
      fprintf(out, "%.1f ", h[i]);
    cudaFree(d);
    cudaFree(dc);
    free(h);
  }
}
// COLD: transfer-in-loop-text-input.cu:[[@LINE-12]]:5: note: cudaMalloc allocates on every iteration
// COLD: note: off the hot path: each iteration reads or writes 'h' as text, one value at a time (fscanf at line [[@LINE-15]]): tens of nanoseconds a number, more than this call costs

void readMatrix(std::ifstream &in, float *m, int n) {
  for (int i = 0; i < n; ++i)
    in >> m[i];
}

// Through a helper, with a stream.
void streamCases(std::ifstream &in, float *h, int n, int cases) {
  for (int t = 0; t < cases; ++t) {
    readMatrix(in, h, n);
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    add<<<(n + 255) / 256, 256>>>(d, d, n);
    cudaFree(d);
  }
}
// COLD: transfer-in-loop-text-input.cu:[[@LINE-6]]:5: note: cudaMalloc allocates on every iteration
// COLD: note: off the hot path: each iteration reads or writes 'h' as text, one value at a time (the input stream's >> at line [[@LINE-15]])

// One count per iteration: the data are not parsed here.
void oneCount(FILE *in, float *h, int n, int steps) {
  for (int t = 0; t < steps; ++t) {
    int k;
    fscanf(in, "%d", &k);
    h[0] = (float)k;
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    add<<<(n + 255) / 256, 256>>>(d, d, n);
    cudaFree(d);
  }
}
// CHECK: transfer-in-loop-text-input.cu:[[@LINE-6]]:5: warning: cudaMalloc allocates on every iteration

// Parsed once, before the loop.
void parsedBefore(FILE *in, float *h, int n, int steps) {
  for (int i = 0; i < n; ++i)
    fscanf(in, "%f", &h[i]);
  for (int t = 0; t < steps; ++t) {
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    add<<<(n + 255) / 256, 256>>>(d, d, n);
    cudaFree(d);
  }
}
// CHECK: transfer-in-loop-text-input.cu:[[@LINE-6]]:5: warning: cudaMalloc allocates on every iteration

// A nested loop that prints, and one that shifts bits.
void printsAndShifts(float *h, unsigned *bits, int n, int steps) {
  for (int t = 0; t < steps; ++t) {
    for (int i = 0; i < 4; ++i)
      printf("%f\n", h[i]);
    for (int i = 0; i < n; ++i)
      bits[i] = bits[i] >> 1;
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    add<<<(n + 255) / 256, 256>>>(d, d, n);
    cudaFree(d);
  }
}
// CHECK: transfer-in-loop-text-input.cu:[[@LINE-6]]:5: warning: cudaMalloc allocates on every iteration

// A few parameters parsed beside a binary frame.
void binaryFrames(FILE *cfg, FILE *raw, float *h, int n) {
  for (int frame = 0; frame < 1000; ++frame) {
    float p[3];
    for (int k = 0; k < 3; ++k)
      fscanf(cfg, "%f", &p[k]);
    fread(h, sizeof(float), n, raw);
    float *tmp;
    cudaMalloc(&tmp, n * sizeof(float));
    cudaMemcpy(tmp, h, n * sizeof(float), cudaMemcpyHostToDevice);
    add<<<(n + 255) / 256, 256>>>(tmp, tmp, (int)p[0]);
    cudaFree(tmp);
  }
}
// CHECK: transfer-in-loop-text-input.cu:[[@LINE-6]]:5: warning: cudaMalloc allocates on every iteration

// Parsed on the first repetition only.
void parsedOnce(FILE *in, float *h, float *d, int n) {
  for (int rep = 0; rep < 1000; ++rep) {
    if (rep == 0)
      for (int i = 0; i < n; ++i)
        fscanf(in, "%f", &h[i]);
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    add<<<(n + 255) / 256, 256>>>(d, d, n);
  }
}
// CHECK: transfer-in-loop-text-input.cu:[[@LINE-4]]:5: warning: cudaMemcpy runs on every iteration

int main() {
  FILE *in = fopen("in.txt", "r"), *out = fopen("out.txt", "w");
  std::ifstream s("in.txt");
  const int n = 1 << 20;
  float *h = (float *)malloc(n * sizeof(float));
  unsigned *bits = (unsigned *)malloc(n * sizeof(unsigned));
  testCases(in, out);
  streamCases(s, h, n, 10);
  oneCount(in, h, n, 100);
  parsedBefore(in, h, n, 100);
  printsAndShifts(h, bits, n, 100);
  binaryFrames(in, in, h, n);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  parsedOnce(in, h, d, n);
  return 0;
}
// CHECK: 5 findings in 1 file
