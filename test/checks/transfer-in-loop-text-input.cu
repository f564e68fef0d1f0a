// A loop whose iterations read a buffer's data as text, one value at a
// time (a lab's loop over the test cases of an input file: fscanf or an
// input stream's >> into its elements in a loop nested in the body, directly
// or in a helper of the file, or a number parsed into a scalar and then
// stored into the buffer or appended to it), spends tens of nanoseconds a
// number on it: the copies of that buffer and the allocation of its device
// twin cost less. Their findings are notes off the hot path. Look-alikes
// keep the warning: a loop reading one count per iteration, data parsed
// before the loop, a nested loop that prints (printing is usually a debug
// switch: the whole buffer under a flag), a nested bit shift with >>, a few
// parameters parsed beside a binary buffer, and parsing on the first
// iteration only.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <fstream>
#include <stdio.h>
#include <stdlib.h>
#include <string>
#include <vector>

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
// COLD: note: off the hot path: each iteration reads 'h' as text, one value at a time (fscanf at line [[@LINE-15]]): tens of nanoseconds a number, more than this call costs

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
// COLD: note: off the hot path: each iteration reads 'h' as text, one value at a time (the input stream's >> at line [[@LINE-15]])

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

// Parsed into a scalar, then appended; and a line converted with stof.
void pushBack(FILE *in, int cases) {
  for (int t = 0; t < cases; ++t) {
    int n;
    fscanf(in, "%d", &n);
    std::vector<float> v;
    for (int i = 0; i < n; ++i) {
      float x;
      fscanf(in, "%f", &x);
      v.push_back(x);
    }
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, v.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    add<<<(n + 255) / 256, 256>>>(d, d, n);
    cudaFree(d);
  }
}
// COLD: transfer-in-loop-text-input.cu:[[@LINE-6]]:5: note: cudaMalloc allocates on every iteration
// COLD: note: off the hot path: each iteration reads 'v' as text, one value at a time (fscanf at line [[@LINE-11]])
void lines(std::ifstream &in, float *h, int n, int cases) {
  for (int t = 0; t < cases; ++t) {
    std::string line;
    for (int i = 0; i < n && std::getline(in, line); ++i)
      h[i] = std::stof(line);
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    add<<<(n + 255) / 256, 256>>>(d, d, n);
    cudaFree(d);
  }
}
// COLD: transfer-in-loop-text-input.cu:[[@LINE-6]]:5: note: cudaMalloc allocates on every iteration
// COLD: note: off the hot path: each iteration reads 'h' as text, one value at a time (stof at line [[@LINE-9]])

// Two numbers parsed, stored together: the first parse is named.
void pairs(FILE *in, int n, int cases) {
  for (int t = 0; t < cases; ++t) {
    std::vector<float> v;
    for (int i = 0; i < n; ++i) {
      float x, w;
      fscanf(in, "%f", &x);
      fscanf(in, "%f", &w);
      v.push_back(x * w);
    }
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, v.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    add<<<(n + 255) / 256, 256>>>(d, d, n);
    cudaFree(d);
  }
}
// COLD: transfer-in-loop-text-input.cu:[[@LINE-6]]:5: note: cudaMalloc allocates on every iteration
// COLD: note: off the hot path: each iteration reads 'v' as text, one value at a time (fscanf at line [[@LINE-12]])

// The whole buffer printed under a debug flag.
void verbosePrint(float *h, float *d, int n, int steps, bool verbose) {
  for (int s = 0; s < steps; ++s) {
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    add<<<(n + 255) / 256, 256>>>(d, d, n);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; verbose && i < n; ++i)
      printf("%f\n", h[i]);
  }
}
// CHECK: transfer-in-loop-text-input.cu:[[@LINE-7]]:5: warning: cudaMemcpy runs on every iteration
// CHECK: transfer-in-loop-text-input.cu:[[@LINE-6]]:5: warning: cudaMemcpy runs on every iteration

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
  pushBack(in, 10);
  lines(s, h, n, 10);
  pairs(in, n, 10);
  verbosePrint(h, d, n, 100, false);
  return 0;
}
// CHECK: 7 findings in 1 file
