// Versions of one computation that a branch chooses between (the arms of an
// if/else chain or the cases of a switch), each launched with the same
// arguments: a benchmark comparing a naive kernel with its improvements. A
// finding of one version that another version of the file does not have is
// the baseline of the comparison: a note off the hot path, naming the
// better version. Look-alikes keep their warnings: a problem that every
// version has, kernels that run one after the other (phases of a program),
// a branch whose kernels take other arguments, and a version defined in
// another file (nothing says it does without).
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced,launch-block-size' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,access-uncoalesced,launch-block-size' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>

__global__ void transposeNaive(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < n) out[x * n + y] = in[y * n + x];
}
// COLD: compared-versions.cu:[[@LINE-2]]:{{[0-9]+}}: note: uncoalesced global store of 'out'
// COLD: note: off the hot path: 'transposeNaive' is one of the versions of a computation that the branch at line [[@LINE+16]] chooses between (launched with the same arguments), and another, 'transposeTiled' (line [[@LINE+2]]), does without this: a baseline the file already improves on

__global__ void transposeTiled(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

enum Kind { Naive, Tiled };

void transpose(const float *in, float *out, int n, Kind kind) {
  dim3 grid(n / 32, n / 32), block(32, 32);
  if (kind == Naive)
    transposeNaive<<<grid, block>>>(in, out, n);
  else if (kind == Tiled)
    transposeTiled<<<grid, block>>>(in, out, n);
}

__global__ void sumA(const float *x, float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(s, x[i]);
}
__global__ void sumB(const float *x, float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(s, 2 * x[i]);
}
__global__ void sumC(const float *x, float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(s, 3 * x[i]);
}

// A switch: the first version's 100-thread blocks are its own.
void sum(const float *x, float *s, int n, int version) {
  switch (version) {
  case 0:
    sumA<<<(n + 99) / 100, 100>>>(x, s, n);
    break;
  case 1:
    sumB<<<(n + 255) / 256, 256>>>(x, s, n);
    break;
  default:
    sumC<<<(n + 255) / 256, 256>>>(x, s, n);
    break;
  }
}
// COLD: compared-versions.cu:[[@LINE-10]]:{{[0-9]+}}: note: 100 threads per block
// COLD: note: off the hot path: 'sumA' is one of the versions of a computation that the branch at line [[@LINE-13]] chooses between

// Every version has the problem: it stays.
__global__ void rowsA(const float *m, float *r, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; ++k) s += m[row * n + k];
  r[row] = s;
}
// CHECK-DAG: compared-versions.cu:[[@LINE-3]]:{{[0-9]+}}: warning: uncoalesced global load of 'm'
__global__ void rowsB(const float *m, float *r, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = n - 1; k >= 0; --k) s += m[row * n + k];
  r[row] = s;
}
// CHECK-DAG: compared-versions.cu:[[@LINE-3]]:{{[0-9]+}}: warning: uncoalesced global load of 'm'
void rows(const float *m, float *r, int n, bool reverse) {
  if (reverse)
    rowsB<<<n / 256, 256>>>(m, r, n);
  else
    rowsA<<<n / 256, 256>>>(m, r, n);
}

// Phases of a program, one after the other with the same buffers.
__global__ void phaseInit(float *u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) u[i * 32] = 0;
}
// CHECK-DAG: compared-versions.cu:[[@LINE-2]]:{{[0-9]+}}: warning: uncoalesced global store of 'u'
__global__ void phaseStep(float *u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) u[i] += 1;
}
void phases(float *u, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
    phaseInit<<<n / 256, 256>>>(u, n);
    phaseStep<<<n / 256, 256>>>(u, n);
  }
}

// A branch whose kernels take other arguments: not versions of one call.
__global__ void gatherCols(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i * n];
}
// CHECK-DAG: compared-versions.cu:[[@LINE-2]]:{{[0-9]+}}: warning: uncoalesced global load of 'a'
__global__ void copyRows(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i];
}
void either(const float *a, float *b, float *c, int n, bool cols) {
  if (cols)
    gatherCols<<<n / 256, 256>>>(a, b, n);
  else
    copyRows<<<n / 256, 256>>>(a, c, n);
}

// A version defined in another file.
__global__ void scaleStrided(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i * 16] = 2 * a[i * 16];
}
// CHECK-DAG: compared-versions.cu:[[@LINE-2]]:{{[0-9]+}}: warning: uncoalesced global store of 'b'
// CHECK-DAG: compared-versions.cu:[[@LINE-3]]:{{[0-9]+}}: warning: uncoalesced global load of 'a'
__global__ void scaleElsewhere(const float *a, float *b, int n);
void scale(const float *a, float *b, int n, bool fast) {
  if (fast)
    scaleElsewhere<<<n / 256, 256>>>(a, b, n);
  else
    scaleStrided<<<n / 256, 256>>>(a, b, n);
}

int main() {
  const int n = 1 << 12;
  float *a, *b, *c;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&b, n * n * sizeof(float));
  cudaMalloc(&c, n * n * sizeof(float));
  for (int k = 0; k < 2; ++k) {
    transpose(a, b, n, k == 0 ? Naive : Tiled);
    sum(a, b, n * n, k);
    rows(a, b, n, k == 1);
    either(a, b, c, n, k == 1);
    scale(a, b, n, k == 1);
  }
  phases(a, n * n, 100);
  return 0;
}
