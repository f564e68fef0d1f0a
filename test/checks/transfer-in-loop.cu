// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --sort=location --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=CONTROL
// The bundled CUDA declarations (no toolkit) give the same findings.
// RUN: %expect-exit 1 %cuda-advisor --sort=location --cuda-path=bundled --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <vector>
#include <stdio.h>
#include <string.h>
#include <utility>

__global__ void twice(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

constexpr int N = 1 << 20;
constexpr size_t Bytes = N * sizeof(float);

// The seed's pattern: the same buffer uploaded and downloaded every step.
void seedLoop(float *h, float *d) {
  for (int it = 0; it < 100; ++it) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 MiB copied each time; its source, destination and size do not change in the loop: hoist it before the loop (100 iterations move 400 MiB in all) [transfer-in-loop]
    cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
    // CHECK: :[[@LINE-3]]:3: note: inside this loop
    twice<<<N / 256, 256>>>(d, N);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}: hoist it after the loop (100 iterations move 400 MiB in all) [transfer-in-loop]
    cudaMemcpy(h, d, Bytes, cudaMemcpyDeviceToHost);
  }
}

// The same round trip through a std::vector: data() and size() do not change.
void vectorLoop(float *d, int frames) {
  std::vector<float> host(N);
  for (int f = 0; f < frames; ++f) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; its source, destination and size do not change in the loop: hoist it before the loop [transfer-in-loop]
    cudaMemcpy(d, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
    twice<<<N / 256, 256>>>(d, N);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}: hoist it after the loop [transfer-in-loop]
    cudaMemcpy(host.data(), d, host.size() * sizeof(float), cudaMemcpyDeviceToHost);
  }
}
// The host grows the vector: its buffer may move.
void growing(float *d, int frames) {
  std::vector<float> host(N);
  for (int f = 0; f < frames; ++f) {
    host.push_back(1.0f);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 MiB copied each time; the host writes the source in the loop{{.*}} [transfer-in-loop]
    cudaMemcpy(d, host.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  }
}

// Different chunks each iteration: still a copy per iteration, no hoisting;
// the chunks are consecutive, so one copy can move them all.
void chunks(const float *h, float *d, int count) {
  int i = 0;
  while (i < count) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpyAsync runs on every iteration of this loop; 4 KiB copied each time; the iterations copy consecutive chunks of 4 KiB: batch them into one copy before the loop [transfer-in-loop]
    cudaMemcpyAsync(d + i * 1024, h + i * 1024, 1024 * sizeof(float), cudaMemcpyHostToDevice);
    ++i;
  }
}

// Allocations, frees and memsets per iteration.
static float ScratchInit[1024];
void scratch(int steps, size_t bytes) {
  for (int s = 0; s < steps; ++s) {
    float *tmp;
    // CHECK: :[[@LINE+1]]:5: warning: cudaMalloc allocates on every iteration of this loop; allocate once before the loop and reuse the buffer [transfer-in-loop]
    cudaMalloc(&tmp, bytes);
    // The memset of the scratch buffer is device-side work: no finding of its own.
    cudaMemset(tmp, 0, bytes);
    // A copy into the buffer and its free go with the allocation (one thief):
    // notes. The same copy into a buffer that outlives the iteration is the
    // copy's own finding (every other case in this file).
    // CONTROL: :[[@LINE+1]]:5: note: cudaMemcpy runs on every iteration of this loop
    cudaMemcpy(tmp, ScratchInit, bytes, cudaMemcpyHostToDevice);
    // CONTROL: note: off the hot path: its buffer 'tmp' is allocated and freed in every iteration: the copy goes with that allocation
    // CONTROL: :[[@LINE+1]]:5: note: cudaFree frees memory on every iteration of this loop; keep the buffer and free it once after the loop [transfer-in-loop]
    cudaFree(tmp);
    // CONTROL: note: off the hot path: it frees what the same loop allocates
  }
}

// The same scratch buffer from a stream-ordered pool (cudaMallocAsync /
// cudaFreeAsync, directly or in a helper): no device synchronization, the
// pool keeps the memory; that is the fix, not the problem.
static void poolScratch(float **p, size_t bytes, cudaStream_t st) { cudaMallocAsync(p, bytes, st); }
void scratchFromPool(int steps, size_t bytes, cudaStream_t st) {
  for (int s = 0; s < steps; ++s) {
    float *tmp, *tmp2;
    cudaMallocAsync(&tmp, bytes, st);
    poolScratch(&tmp2, bytes, st);
    cudaMemsetAsync(tmp, 0, bytes, st);
    cudaFreeAsync(tmp2, st);
    cudaFreeAsync(tmp, st);
  }
}

// Through a helper of the same file: the finding is at the call in the loop.
static void upload(float *d, const std::vector<float> &v) {
  cudaMemcpy(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice);
}

void viaHelper(float *d, const std::vector<float> &v, const bool &running) {
  do {
    // CHECK: :[[@LINE+1]]:5: warning: 'upload' calls cudaMemcpy and runs on every iteration of this loop [transfer-in-loop]
    upload(d, v);
    // CHECK: :[[@LINE-7]]:3: note: cudaMemcpy called here
  } while (running);
}

// Range-for.
void perTensor(std::vector<float *> &bufs, float *h) {
  for (float *b : bufs)
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 MiB copied each time; if each iteration needs new data, overlap the copies with computation (cudaMemcpyAsync from pinned memory on several streams) [transfer-in-loop]
    cudaMemcpy(b, h, Bytes, cudaMemcpyHostToDevice);
}

// ---- Which fix the message suggests. ----

// Downloads of consecutive chunks, with a constant trip count: the total.
void batchDownload(float *h, const float *d) {
  for (int c = 0; c < 8; ++c) {
    size_t off = static_cast<size_t>(c) * 1024;
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 KiB copied each time; the iterations copy consecutive chunks of 4 KiB: batch them into one copy of 32 KiB after the loop [transfer-in-loop]
    cudaMemcpy(h + off, d + off, 1024 * sizeof(float), cudaMemcpyDeviceToHost);
  }
}

// A chunk size known only at run time.
void batchSymbolic(const float *h, float *d, int chunk, int count) {
  for (int i = 0; i < count; ++i)
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; the iterations copy consecutive chunks: batch them into one copy before the loop [transfer-in-loop]
    cudaMemcpy(d + i * chunk, h + i * chunk, chunk * sizeof(float), cudaMemcpyHostToDevice);
}

// Rows of a wider host matrix into a packed device buffer: one 2D copy.
void batchRows(const float *h, float *d) {
  for (int r = 0; r < 64; ++r)
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 1 KiB copied each time; the iterations copy 1 KiB chunks 4 KiB apart: batch them into one cudaMemcpy2D (pitch 1 KiB on the destination, 4 KiB on the source) before the loop [transfer-in-loop]
    cudaMemcpy(d + r * 256, h + r * 1024, 256 * sizeof(float), cudaMemcpyHostToDevice);
}

// A host buffer bumped chunk by chunk into one device staging buffer: the
// device side does not advance, so nothing to batch: overlap.
void staging(const float *h, float *dStage, int count) {
  for (int i = 0; i < count; ++i) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 KiB copied each time; each iteration copies different data: overlap the copies with computation (cudaMemcpyAsync from pinned memory on several streams) [transfer-in-loop]
    cudaMemcpy(dStage, h, 1024 * sizeof(float), cudaMemcpyHostToDevice);
    twice<<<4, 256>>>(dStage, 1024);
    h += 1024;
  }
}

// The host refills the source every iteration: the upload is needed.
void hostWrites(float *h, float *d, int steps) {
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < N; ++i)
      h[i] = s;
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}do not change in the loop, but the host writes the source in the loop: overlap the copy with computation (cudaMemcpyAsync from pinned memory on a second stream) [transfer-in-loop]
    cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
    twice<<<N / 256, 256>>>(d, N);
  }
}

// The host reads every result: the download is needed.
float hostReads(float *h, float *d, int steps) {
  float sum = 0;
  for (int s = 0; s < steps; ++s) {
    twice<<<N / 256, 256>>>(d, N);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}, but the host reads the result in the loop: copy back only what it needs, or overlap the copy with computation (cudaMemcpyAsync to pinned memory on a second stream) [transfer-in-loop]
    cudaMemcpy(h, d, Bytes, cudaMemcpyDeviceToHost);
    sum += h[0];
  }
  return sum;
}

// The kernel works in place on the upload and the result goes elsewhere: the
// copy restores the input each time, which a device-to-device copy does faster.
void restores(const float *hInput, float *hOut, float *d, int steps) {
  for (int s = 0; s < steps; ++s) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}do not change in the loop, but the loop's kernels may write the destination: if the copy restores it, keep a copy on the device and restore it with a device-to-device cudaMemcpy [transfer-in-loop]
    cudaMemcpy(d, hInput, Bytes, cudaMemcpyHostToDevice);
    twice<<<N / 256, 256>>>(d, N);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}; each iteration copies different data: overlap{{.*}} [transfer-in-loop]
    cudaMemcpy(hOut + s * N, d, Bytes, cudaMemcpyDeviceToHost);
  }
}

// A convergence flag read by the loop condition: the cost is the wait for the
// GPU on every test, not the four bytes. Such loop-control copies are the
// algorithm's own protocol, cheap unless the rounds are many and short:
// notes off the hot path (--show-cold), with the advice.
void converge(float *dErr, float tol) {
  float err = 1;
  while (err > tol) {
    twice<<<1, 256>>>(dErr, 1);
    // CONTROL: :[[@LINE+1]]:5: note: cudaMemcpy runs on every iteration of this loop; 4 bytes copied each time; the loop tests the value it copies back, so every iteration waits for the GPU to finish and the GPU idles until the next launch: test it every few iterations, or keep the loop on the GPU [transfer-in-loop]
    cudaMemcpy(&err, dErr, sizeof(float), cudaMemcpyDeviceToHost);
  }
}

// A frontier sweep: the host clears a flag, the kernels set it when they
// change anything, and the loop runs until a pass changes nothing.
void sweep(float *d, int *dChanged) {
  int changed = 0;
  do {
    changed = 0;
    // CONTROL: :[[@LINE+1]]:5: note: cudaMemcpy runs on every iteration of this loop; 4 bytes copied each time; it resets the value the loop tests, and a copy from pageable memory first waits for the GPU's earlier work: reset it with cudaMemsetAsync or in the kernel [transfer-in-loop]
    cudaMemcpy(dChanged, &changed, sizeof(int), cudaMemcpyHostToDevice);
    twice<<<N / 256, 256>>>(d, N);
    // CONTROL: :[[@LINE+1]]:5: note: cudaMemcpy runs on every iteration{{.*}}; the loop tests the value it copies back
    cudaMemcpy(&changed, dChanged, sizeof(int), cudaMemcpyDeviceToHost);
  } while (changed);
}

// The same protocol with the test inside the body.
void sweepBreak(float *d, int *dDone) {
  for (;;) {
    twice<<<N / 256, 256>>>(d, N);
    int done = 0;
    // CONTROL: :[[@LINE+1]]:5: note: cudaMemcpy runs on every iteration{{.*}}; the loop tests the value it copies back
    cudaMemcpy(&done, dDone, sizeof(int), cudaMemcpyDeviceToHost);
    if (done)
      break;
  }
}

// The flag decides through another variable: `if (changes == 0) finished =
// true;` with `while (!finished)`.
void sweepFinished(float *d, int *dChanges) {
  bool finished = false;
  while (!finished) {
    twice<<<N / 256, 256>>>(d, N);
    int changes = 0;
    // CONTROL: :[[@LINE+1]]:5: note: cudaMemcpy runs on every iteration{{.*}}; the loop tests the value it copies back
    cudaMemcpy(&changes, dChanges, sizeof(int), cudaMemcpyDeviceToHost);
    if (changes == 0)
      finished = true;
  }
}

// The flag reached through a pointer that the loop tests dereferenced (a
// level-synchronous BFS given the flag's address): the same protocol.
void bfsLevels(float *d, bool *done, bool *dDone) {
  while (!*done) {
    *done = true;
    // CONTROL: :[[@LINE+1]]:5: note: cudaMemcpy runs on every iteration{{.*}}; it resets the value the loop tests
    cudaMemcpy(dDone, done, sizeof(bool), cudaMemcpyHostToDevice);
    twice<<<N / 256, 256>>>(d, N);
    // CONTROL: :[[@LINE+1]]:5: note: cudaMemcpy runs on every iteration{{.*}}; the loop tests the value it copies back
    cudaMemcpy(done, dDone, sizeof(bool), cudaMemcpyDeviceToHost);
  }
}

// Look-alike: a pointer that the condition compares, but that walks a host
// buffer in 64-byte steps: each iteration uploads new data.
void walkChunks(float *dChunk, float *h, float *end) {
  for (float *p = h; p < end; p += 16) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 64 bytes copied each time
    cudaMemcpy(dChunk, p, 16 * sizeof(float), cudaMemcpyHostToDevice);
    twice<<<1, 16>>>(dChunk, 16);
  }
}

// Look-alike: a count copied back and summed, which decides nothing.
int sweepCount(float *d, int *dCount, int steps) {
  int total = 0;
  for (int s = 0; s < steps; ++s) {
    twice<<<N / 256, 256>>>(d, N);
    int count = 0;
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 bytes copied each time
    cudaMemcpy(&count, dCount, sizeof(int), cudaMemcpyDeviceToHost);
    if (count > 0)
      total += count;
  }
  return total;
}
// CONTROL: note: off the hot path: it carries the flag that decides whether the loop goes on

// The host reads a statistic from what it copies back, then uploads the same
// buffer unchanged: the device already holds it.
float statistic(const float *h) { return h[0] + h[1]; }
void readBack(float *h, float *d, int steps) {
  float q = 0;
  for (int s = 0; s < steps; ++s) {
    q += statistic(h) + h[2];
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 MiB copied each time; {{.*}}the loop copies the device buffer back into the source while the host only reads it: from the second iteration on, the upload sends the device what it already holds; hoist it before the loop
    cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
    twice<<<N / 256, 256>>>(d, N);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}the host reads the result in the loop
    cudaMemcpy(h, d, Bytes, cudaMemcpyDeviceToHost);
  }
}

// The same, but the host changes the buffer before the upload: new data.
void editBack(float *h, float *d, int steps) {
  for (int s = 0; s < steps; ++s) {
    h[0] = static_cast<float>(s);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}the host writes the source in the loop
    cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
    twice<<<N / 256, 256>>>(d, N);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration{{.*}}the host reads the result in the loop
    cudaMemcpy(h, d, Bytes, cudaMemcpyDeviceToHost);
  }
}

// A scalar the loop does not test is plain data: the usual advice.
void scalarParameter(float *dScale, int steps) {
  for (int s = 0; s < steps; ++s) {
    float scale = 1.0f / (s + 1);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 bytes copied each time; if each iteration needs new data, overlap
    cudaMemcpy(dScale, &scale, sizeof(float), cudaMemcpyHostToDevice);
    twice<<<1, 256>>>(dScale, 1);
  }
}

// A device-to-device copy each iteration restores the input on the GPU, at
// device-memory bandwidth and without waiting for the host: the fix the
// check itself suggests for uploads that restore an input. No finding, with
// the kind given or read from where the pointers come from; the upload next
// to it is still reported.
void deviceCopies(float *d, const float *dInit, const float *h, int steps) {
  for (int s = 0; s < steps; ++s) {
    cudaMemcpy(d, dInit, Bytes, cudaMemcpyDeviceToDevice);
    twice<<<N / 256, 256>>>(d, N);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 MiB copied each time; its source, destination and size do not change in the loop, but the loop's kernels may write the destination
    cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
  }
}
void deviceCopiesDefault(int steps) {
  float *dA, *dB;
  cudaMalloc(&dA, Bytes);
  cudaMalloc(&dB, Bytes);
  for (int s = 0; s < steps; ++s) {
    cudaMemcpyAsync(dA, dB, Bytes, cudaMemcpyDefault);
    twice<<<N / 256, 256>>>(dA, N);
  }
}

// Memsets of device memory are fill kernels: resetting an accumulator, or
// flushing the L2 cache between timed runs of a benchmark. A memset of
// pinned host memory waits for the host, and is reported.
void deviceMemsets(float *dAcc, size_t l2Bytes, int repeats) {
  void *flush;
  cudaMalloc(&flush, l2Bytes);
  float *hPinned;
  cudaMallocHost(&hPinned, Bytes);
  for (int r = 0; r < repeats; ++r) {
    cudaMemset(flush, 0, l2Bytes);
    cudaMemset(dAcc, 0, Bytes);
    twice<<<N / 256, 256>>>(dAcc, N);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemset runs on every iteration of this loop; 4 MiB set each time [transfer-in-loop]
    cudaMemset(hPinned, 0, Bytes);
  }
}

// Symbols: kernels cannot write __constant__ memory, but they may write a
// __device__ variable.
__constant__ float coeffs[16];
__device__ float state[16];
__global__ void useSymbols(float *o) {
  o[threadIdx.x] = coeffs[threadIdx.x];
  state[threadIdx.x] = 1;
}
void symbols(const float *h, float *d) {
  for (int i = 0; i < 10; ++i) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpyToSymbol runs on every iteration of this loop; 64 bytes copied each time; its source, destination and size do not change in the loop: hoist it before the loop (10 iterations move 640 bytes in all) [transfer-in-loop]
    cudaMemcpyToSymbol(coeffs, h, sizeof(coeffs));
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpyToSymbol runs on every iteration{{.*}}, but the loop's kernels may write the destination{{.*}} [transfer-in-loop]
    cudaMemcpyToSymbol(state, h, sizeof(state));
    useSymbols<<<1, 16>>>(d);
  }
}

// ---- Negative cases: look alike, but no copy runs per iteration. ----

// Multi-stream pipelines: the copies already overlap with the kernels.
void pipelineVector(float *hPinned, float *d, std::vector<cudaStream_t> &streams) {
  int chunk = N / static_cast<int>(streams.size());
  for (size_t i = 0; i < streams.size(); ++i) {
    cudaMemcpyAsync(d + i * chunk, hPinned + i * chunk, chunk * sizeof(float),
                    cudaMemcpyHostToDevice, streams[i]);
    twice<<<chunk / 256, 256, 0, streams[i]>>>(d + i * chunk, chunk);
    cudaMemcpyAsync(hPinned + i * chunk, d + i * chunk, chunk * sizeof(float),
                    cudaMemcpyDeviceToHost, streams[i]);
  }
}
void pipeline(const float *hPinned, float *d, cudaStream_t *streams) {
  for (int c = 0; c < 8; ++c) {
    size_t off = static_cast<size_t>(c) * N;
    cudaMemcpyAsync(d + off, hPinned + off, Bytes, cudaMemcpyHostToDevice, streams[c % 4]);
    twice<<<N / 256, 256, 0, streams[c % 4]>>>(d + off, N);
  }
}


void hoisted(float *h, float *d) {
  cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
  for (int it = 0; it < 100; ++it)
    twice<<<N / 256, 256>>>(d, N);
  cudaMemcpy(h, d, Bytes, cudaMemcpyDeviceToHost);
}

// A helper that copies, called once; a loop that only launches.
void once(float *d, const std::vector<float> &v) {
  upload(d, v);
  for (int i = 0; i < 3; ++i)
    twice<<<1, 256>>>(d, 256);
}

// Device code never calls the host API in a host loop.
__device__ void deviceLoop(float *x) {
  for (int i = 0; i < 4; ++i)
    x[i] = 0;
}

// A user function that happens to be named like the API, in a namespace.
namespace mine {
int cudaMemcpy(void *, const void *, size_t, int) { return 0; }
}
void notTheApi(float *a, float *b) {
  for (int i = 0; i < 10; ++i)
    mine::cudaMemcpy(a, b, 4, 0);
}

// do { ... } while (0) runs once: the macro idiom is not a loop.
#define UPLOAD(d, v) do { upload(d, v); } while (0)
void macroOnce(float *d, const std::vector<float> &v) {
  UPLOAD(d, v);
  do {
    cudaMemcpy(d, v.data(), 4, cudaMemcpyHostToDevice);
  } while (false);
}

// Suppressed.
void suppressed(float *h, float *d) {
  for (int it = 0; it < 2; ++it) {
    cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice); // NOLINT(transfer-in-loop)
    // NOLINTNEXTLINE(transfer-*)
    cudaMemcpy(h, d, Bytes, cudaMemcpyDeviceToHost);
  }
}

// Set-up and tear-down loops over distinct buffers or devices: each
// iteration allocates, frees or exchanges a different object.
struct Device {
  int Id;
  float *Data, *Inbox;
  cudaStream_t Stream;
};
static void setUp(Device &D) {
  cudaSetDevice(D.Id);
  cudaMalloc(&D.Data, Bytes);
  cudaMalloc(&D.Inbox, Bytes);
}
void perBuffer(std::vector<Device> &Devs, int count) {
  float *a, *b, *c;
  for (float **p : {&a, &b, &c})
    cudaMalloc(p, Bytes);
  float *bufs[8];
  for (int i = 0; i < 8; ++i)
    cudaMalloc(&bufs[i], Bytes);
  for (Device &D : Devs)
    setUp(D);
  for (int i = 0; i < count; ++i) {
    Device &From = Devs[i], &To = Devs[(i + 1) % count];
    cudaMemcpyPeerAsync(To.Inbox, To.Id, From.Data, From.Id, Bytes, From.Stream);
  }
  for (float *p : {a, b, c})
    cudaFree(p);
  for (int i = 0; i < 8; ++i)
    cudaFree(bufs[i]);
}

// ... but the same scratch buffer allocated and freed each iteration is
// reported, also through a helper called with the same arguments each time.
static void scratchStep(float **tmp) {
  cudaMalloc(tmp, Bytes);
}
void scratchViaHelper(int steps) {
  float *tmp;
  for (int s = 0; s < steps; ++s) {
    // CHECK: :[[@LINE+1]]:5: warning: 'scratchStep' calls cudaMalloc and runs on every iteration of this loop; 4 MiB allocated each time [transfer-in-loop]
    scratchStep(&tmp);
    // CONTROL: :[[@LINE+1]]:5: note: cudaFree frees memory on every iteration of this loop
    cudaFree(tmp);
  }
}

// Streaming a device buffer to a file in chunks through two pinned buffers
// that the loop swaps: the async copy of one chunk overlaps the host writing
// the other. Double buffering is the overlapped form: no finding. The same
// loop through a single buffer is reported.
void saveDoubleBuffered(FILE *out, const char *dSrc, size_t total, size_t chunk, cudaStream_t s) {
  char *pinned;
  cudaMallocHost(&pinned, 2 * chunk);
  void *front = pinned, *back = pinned + chunk;
  size_t done = 0, pending = 0;
  while (done < total) {
    size_t n = total - done < chunk ? total - done : chunk;
    cudaMemcpyAsync(front, dSrc + done, n, cudaMemcpyDeviceToHost, s);
    if (pending)
      fwrite(back, 1, pending, out);
    cudaStreamSynchronize(s);
    std::swap(front, back);
    pending = n;
    done += n;
  }
  fwrite(back, 1, pending, out);
  cudaFreeHost(pinned);
}
void saveSingleBuffered(FILE *out, const char *dSrc, size_t total, size_t chunk, cudaStream_t s) {
  char *pinned;
  cudaMallocHost(&pinned, chunk);
  size_t done = 0;
  while (done < total) {
    size_t n = total - done < chunk ? total - done : chunk;
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpyAsync runs on every iteration of this loop; the host reads the result in the loop
    cudaMemcpyAsync(pinned, dSrc + done, n, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    fwrite(pinned, 1, n, out);
    done += n;
  }
  cudaFreeHost(pinned);
}

// Loops whose iterations are not repetitions of the work: a body that runs at
// most once (it leaves on every path), work under a first- or last-iteration
// guard, and a loop over devices.
void runsOnce(float *h, float *d, int n) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
    break;
  }
  while (true) {
    cudaMemcpy(h, d, Bytes, cudaMemcpyDeviceToHost);
    if (n > 0)
      return;
    else
      break;
  }
}
void firstAndLast(float *h, float *d, int steps) {
  for (int iter = 0; iter < steps; ++iter) {
    if (iter == 0)
      cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
    twice<<<N / 256, 256>>>(d, N);
    if (iter == steps - 1)
      cudaMemcpy(h, d, Bytes, cudaMemcpyDeviceToHost);
  }
}
void perDevice(float **h, float **d, int devices) {
  for (int dev = 0; dev < devices; ++dev) {
    cudaSetDevice(dev);
    cudaMemcpy(d[dev], h[dev], Bytes, cudaMemcpyHostToDevice);
  }
}
// Look-alikes that do repeat: a break on one path only, a guard that holds on
// every iteration but the first, and one device selected again and again.
void repeats(float *h, float *d, int steps, const int *stop) {
  for (int iter = 0; iter < steps; ++iter) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 MiB copied each time
    cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
    twice<<<N / 256, 256>>>(d, N);
    if (stop[iter])
      break;
  }
  for (int iter = 0; iter < steps; ++iter) {
    if (iter > 0)
      // CHECK: :[[@LINE+1]]:7: warning: cudaMemcpy runs on every iteration of this loop; 4 MiB copied each time
      cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
    twice<<<N / 256, 256>>>(d, N);
  }
  for (int iter = 0; iter < steps; ++iter) {
    cudaSetDevice(0);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 MiB copied each time
    cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
    twice<<<N / 256, 256>>>(d, N);
  }
}

// A helper called with another object on each iteration: allocating it is
// set-up, but the upload it also does runs on every iteration and is
// reported. A helper that only allocates stays silent (setUp above).
static void uploadFrame(const float *h, float **d, size_t bytes) {
  cudaMalloc(d, bytes);
  cudaMemcpy(*d, h, bytes, cudaMemcpyHostToDevice);
}
void frames(const float *const *h, float **d, int count) {
  for (int i = 0; i < count; ++i)
    // CHECK: :[[@LINE+1]]:5: warning: 'uploadFrame' calls cudaMemcpy and runs on every iteration of this loop; 4 MiB copied each time [transfer-in-loop]
    uploadFrame(h[i], &d[i], Bytes);
  // CHECK: :[[@LINE-6]]:3: note: cudaMemcpy called here
}

// The host only reads the source in the loop (a comparison, a print): the
// upload sends the same bytes each time, so it is hoisted. A host write of
// the source is what makes the copy necessary.
__global__ void total(const float *x, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = x[i];
}
void readsSource(float *h, float *d, float *dOut, const float *ref, int steps) {
  for (int it = 0; it < steps; ++it) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 MiB copied each time; its source, destination and size do not change in the loop: hoist it before the loop [transfer-in-loop]
    cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
    total<<<N / 256, 256>>>(d, dOut);
    if (memcmp(h, ref, Bytes) != 0)
      printf("changed: %f\n", h[0]);
  }
}
void writesSource(float *h, float *d, float *dOut, int steps) {
  for (int it = 0; it < steps; ++it) {
    h[0] = float(it);
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop; 4 MiB copied each time; its source, destination and size do not change in the loop, but the host writes the source in the loop
    cudaMemcpy(d, h, Bytes, cudaMemcpyHostToDevice);
    total<<<N / 256, 256>>>(d, dOut);
  }
}

// A multi-pass reduction that downloads the partial sums after each pass:
// each pass divides the count by 512, so at most 4 copies for any int.
void partialPasses(float *h, float *d, int n) {
  int blocks = (n + 511) / 512;
  while (blocks > 1) {
    twice<<<blocks, 512>>>(d, n);
    // CONTROL: :[[@LINE+1]]:5: note: cudaMemcpy runs on every iteration of this loop
    cudaMemcpy(h, d, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    n = blocks;
    blocks = (n + 511) / 512;
  }
}
// CONTROL: note: off the hot path: the loop makes a few passes: each divides 'blocks' by 512, so there are at most 4 for any 32-bit value: a few copies in all

// Look-alike: the pass loop inside a loop over repetitions copies on every
// repetition's passes.
void repeatedPartialPasses(float *h, float *d, int n, int reps) {
  for (int r = 0; r < reps; ++r) {
    int m = n, blocks = (m + 511) / 512;
    while (blocks > 1) {
      twice<<<blocks, 512>>>(d, m);
      // CHECK: :[[@LINE+1]]:7: warning: cudaMemcpy runs on every iteration of this loop
      cudaMemcpy(h, d, blocks * sizeof(float), cudaMemcpyDeviceToHost);
      m = blocks;
      blocks = (m + 511) / 512;
    }
  }
}

// A sweep over sizes timed size by size (each size's allocation is inside its
// timed region): the size and the byte count are assigned from the loop's
// variable to variables declared outside the loop. Each iteration allocates
// for another size: a note. Look-alike: a size recomputed in the loop from
// values that do not change.
int sweepN, sweepBytes;
void timedSizeSweep(int start, int end, int step) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (int s = start; s < end; s += step) {
    sweepN = s;
    sweepBytes = sweepN * sweepN * sizeof(float);
    float *d;
    cudaEventRecord(e0);
    // CONTROL: :[[@LINE+1]]:5: note: cudaMalloc allocates on every iteration of this loop
    cudaMalloc(&d, sweepBytes);
    twice<<<(sweepN + 255) / 256, 256>>>(d, sweepN);
    cudaFree(d);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    printf("%d: %f ms\n", s, ms);
  }
}
// CONTROL: note: off the hot path: its size follows the loop's variable 's': each iteration allocates for another size (a sweep over sizes)
void recomputedSize(int n, int iters) {
  for (int it = 0; it < iters; ++it) {
    int bytes = n * sizeof(float);
    float *d;
    // CHECK: :[[@LINE+1]]:5: warning: cudaMalloc allocates on every iteration of this loop
    cudaMalloc(&d, bytes);
    twice<<<(n + 255) / 256, 256>>>(d, n);
    cudaFree(d);
  }
}
