// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-pageable-async' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,transfer-pageable-async' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// The bundled CUDA declarations (no toolkit) give the same findings.
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,transfer-pageable-async' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

constexpr int N = 1 << 20;
constexpr size_t Bytes = N * sizeof(float);

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

// ---- Pageable host memory: the "async" copy is synchronous. ----

void fromMalloc(float *d, cudaStream_t s) {
  float *h = static_cast<float *>(std::malloc(Bytes));
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync from pageable host memory (malloc) is not asynchronous: the host first stages the data through a pinned buffer and the call returns only when it is staged, so the copy overlaps neither host work nor other streams (4 MiB); allocate the host buffer with cudaMallocHost or pin it with cudaHostRegister [transfer-pageable-async]
  cudaMemcpyAsync(d, h, Bytes, cudaMemcpyHostToDevice, s);
  // CHECK: :[[@LINE-3]]:35: note: the host buffer comes from malloc here
  scale<<<N / 256, 256, 0, s>>>(d, N);
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync to pageable host memory (malloc) is not asynchronous: it returns only when the copy has finished, after all earlier work in the stream, so the copy overlaps neither host work nor other streams (4 MiB); {{.*}} [transfer-pageable-async]
  cudaMemcpyAsync(h, d, Bytes, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  std::free(h);
}

// Chunks through pointer arithmetic, in a loop, on rotating streams.
void chunked(float *d, cudaStream_t *streams) {
  float *h = new float[4 * N];
  for (int c = 0; c < 4; ++c) {
    size_t off = static_cast<size_t>(c) * N;
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpyAsync from pageable host memory (new[]) is not asynchronous{{.*}} [transfer-pageable-async]
    cudaMemcpyAsync(d + off, h + off, Bytes, cudaMemcpyHostToDevice, streams[c % 2]);
    // CHECK: :[[@LINE-4]]:3: note: the copy runs on every iteration of this loop
  }
  delete[] h;
}

void containers(float *d, cudaStream_t s, const std::vector<float> &param) {
  std::vector<float> v(N);
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync from pageable host memory (std::vector){{.*}} [transfer-pageable-async]
  cudaMemcpyAsync(d, v.data(), Bytes, cudaMemcpyHostToDevice, s);
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync to pageable host memory (std::vector){{.*}} [transfer-pageable-async]
  cudaMemcpyAsync(&v[0], d, Bytes, cudaMemcpyDeviceToHost, s);
  // A vector's buffer is std::allocator memory, wherever the vector lives.
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync from pageable host memory (std::vector){{.*}} [transfer-pageable-async]
  cudaMemcpyAsync(d, param.data(), param.size() * sizeof(float), cudaMemcpyHostToDevice, s);
  std::unique_ptr<float[]> u(new float[N]);
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync from pageable host memory (new[]){{.*}} [transfer-pageable-async]
  cudaMemcpyAsync(d, u.get(), Bytes, cudaMemcpyHostToDevice, s);
  std::string text(64, 'x');
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync from pageable host memory (std::string){{.*}} [transfer-pageable-async]
  cudaMemcpyAsync(d, text.data(), text.size(), cudaMemcpyHostToDevice, s);
}

// The stack: small parameter blocks and results copied "asynchronously".
// At most 64 bytes (a few scalars): staging costs nothing measurable and the
// host waits for such a value before using it anyway: notes off the hot
// path, shown with --show-cold. A larger block is reported.
float stack(float *d, const float *dSum, cudaStream_t s) {
  float coeffs[16] = {};
  // COLD: :[[@LINE+1]]:3: note: cudaMemcpyAsync from pageable host memory (the stack array 'coeffs'){{.*}}(64 bytes){{.*}} [transfer-pageable-async]
  cudaMemcpyAsync(d, coeffs, sizeof(coeffs), cudaMemcpyHostToDevice, s);
  float table[1024] = {};
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync from pageable host memory (the stack array 'table'){{.*}}(4 KiB){{.*}} [transfer-pageable-async]
  cudaMemcpyAsync(d, table, sizeof(table), cudaMemcpyHostToDevice, s);
  float sum = 0;
  // COLD: :[[@LINE+1]]:3: note: cudaMemcpyAsync to pageable host memory (the stack variable 'sum'){{.*}}(4 bytes){{.*}} [transfer-pageable-async]
  cudaMemcpyAsync(&sum, dSum, sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  return sum;
}
// COLD: note: off the hot path: it copies 4 bytes: staging so few bytes costs no measurable time

// cudaMemcpyDefault: the pageable side is host memory.
void defaultKind(cudaStream_t s) {
  float *d;
  cudaMalloc(&d, Bytes);
  float *h = (float *)calloc(N, sizeof(float));
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync to pageable host memory (calloc){{.*}} [transfer-pageable-async]
  cudaMemcpyAsync(h, d, Bytes, cudaMemcpyDefault, s);
}

// 2D and symbol variants.
__constant__ float table[256];
void variants(float *d, size_t pitch, cudaStream_t s) {
  float *h = (float *)malloc(256 * 64 * sizeof(float));
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpy2DAsync from pageable host memory (malloc){{.*}}(64 KiB){{.*}} [transfer-pageable-async]
  cudaMemcpy2DAsync(d, pitch, h, 256 * sizeof(float), 256 * sizeof(float), 64, cudaMemcpyHostToDevice, s);
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyToSymbolAsync from pageable host memory (malloc){{.*}} [transfer-pageable-async]
  cudaMemcpyToSymbolAsync(table, h, sizeof(table), 0, cudaMemcpyHostToDevice, s);
}

// cudaMemcpy3DAsync: the host side is in the parameter struct.
void volume(cudaArray_t dst, cudaStream_t s) {
  float *h = new float[64 * 64 * 64];
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(h, 64 * sizeof(float), 64, 64);
  p.dstArray = dst;
  p.extent = make_cudaExtent(64, 64, 64);
  p.kind = cudaMemcpyHostToDevice;
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpy3DAsync from pageable host memory (new[]){{.*}} [transfer-pageable-async]
  cudaMemcpy3DAsync(&p, s);
  float *pinned;
  cudaMallocHost(&pinned, 64 * 64 * 64 * sizeof(float));
  cudaMemcpy3DParms q = {};
  q.srcPtr = make_cudaPitchedPtr(pinned, 64 * sizeof(float), 64, 64);
  q.dstArray = dst;
  q.extent = make_cudaExtent(64, 64, 64);
  q.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3DAsync(&q, s); // pinned: clean
}

// One level of parameters: a helper of this file only ever given malloc'ed buffers.
static void uploadAsync(float *d, const float *src, cudaStream_t s) {
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync from pageable host memory (malloc){{.*}} [transfer-pageable-async]
  cudaMemcpyAsync(d, src, Bytes, cudaMemcpyHostToDevice, s);
}
void callsHelper(float *d, cudaStream_t s) {
  float *h = (float *)malloc(Bytes);
  // CHECK: :[[@LINE+1]]:3: note: passed in by this call
  uploadAsync(d, h, s);
}

// Struct members assigned once.
struct HostBuffers {
  float *in = nullptr;
  float *out = nullptr;
};
void members(HostBuffers &b, float *d, cudaStream_t s) {
  b.in = (float *)malloc(Bytes);
  cudaMallocHost(&b.out, Bytes);
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync from pageable host memory (malloc){{.*}} [transfer-pageable-async]
  cudaMemcpyAsync(d, b.in, Bytes, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(b.out, d, Bytes, cudaMemcpyDeviceToHost, s); // pinned: clean
}

// ---- Negative cases: look alike, but the host side is pinned or unknown. ----

void pinned(float *d, cudaStream_t s) {
  float *h = nullptr;
  cudaMallocHost(&h, Bytes);
  cudaMemcpyAsync(d, h, Bytes, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(h, d, Bytes, cudaMemcpyDeviceToHost, s);
  float *m;
  cudaHostAlloc((void **)&m, Bytes, cudaHostAllocMapped);
  cudaMemcpyAsync(d, m + 16, Bytes / 2, cudaMemcpyHostToDevice, s);
  cudaFreeHost(h);
  cudaFreeHost(m);
}

// malloc'ed, then registered: pinned.
void registered(float *d, cudaStream_t s) {
  float *h = (float *)malloc(Bytes);
  cudaHostRegister(h, Bytes, cudaHostRegisterDefault);
  cudaMemcpyAsync(d, h, Bytes, cudaMemcpyHostToDevice, s);
  std::vector<float> v(N);
  cudaHostRegister(v.data(), Bytes, 0);
  cudaMemcpyAsync(v.data(), d, Bytes, cudaMemcpyDeviceToHost, s);
}

// Unknown provenance: a parameter, a function of another file.
float *externalBuffer();
void unknown(float *h, float *d, cudaStream_t s) {
  cudaMemcpyAsync(d, h, Bytes, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(d, externalBuffer(), Bytes, cudaMemcpyHostToDevice, s);
}

// The pageable pointer is on the device side of the copy, or both are host.
void otherSides(float *d, float *d2, cudaStream_t s) {
  float *h = (float *)malloc(Bytes);
  float *h2 = (float *)malloc(Bytes);
  cudaMemcpyAsync(d2, d, Bytes, cudaMemcpyDeviceToDevice, s);
  cudaMemcpyAsync(h2, h, Bytes, cudaMemcpyHostToHost, s);
  cudaMemcpyAsync(h2, h, Bytes, cudaMemcpyDefault, s);
  // Blocking copies are not this check's business.
  cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
}

// A helper called with pageable and pinned buffers: no single answer.
static void mixedHelper(float *d, const float *src, cudaStream_t s) {
  cudaMemcpyAsync(d, src, Bytes, cudaMemcpyHostToDevice, s);
}
void callsMixed(float *d, cudaStream_t s) {
  float *h = (float *)malloc(Bytes);
  float *p;
  cudaMallocHost(&p, Bytes);
  mixedHelper(d, h, s);
  mixedHelper(d, p, s);
}

// A member given pinned memory in one place and pageable in another.
struct Staging {
  float *buf;
};
void stagingA(Staging &st) { st.buf = (float *)malloc(Bytes); }
void stagingB(Staging &st) { cudaMallocHost(&st.buf, Bytes); }
void useStaging(Staging &st, float *d, cudaStream_t s) {
  cudaMemcpyAsync(d, st.buf, Bytes, cudaMemcpyHostToDevice, s);
}

// Suppressed.
void suppressed(float *d, cudaStream_t s) {
  float *h = (float *)malloc(Bytes);
  cudaMemcpyAsync(d, h, Bytes, cudaMemcpyHostToDevice, s); // NOLINT(transfer-pageable-async)
}
