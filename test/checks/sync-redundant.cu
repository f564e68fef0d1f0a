// A redundant synchronization outside every loop of its function costs one
// runtime call per call of the function: a note off the hot path, shown
// with --show-cold (sync-redundant-once.cu). The one in a loop stays a warning.
// RUN: %expect-exit 1 %cuda-advisor --show-cold --sort=location --checks='-*,sync-redundant' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// The bundled CUDA declarations (no toolkit) give the same findings.
// RUN: %expect-exit 1 %cuda-advisor --show-cold --sort=location --cuda-path=bundled --checks='-*,sync-redundant' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// A --header-filter that shows findings in every header does not make the
// CUDA declarations user code (it dropped most findings: library calls such
// as cudaMemcpy and fprintf were looked at as the user's own functions).
// RUN: %expect-exit 1 %cuda-advisor --show-cold --sort=location --header-filter='.*' --checks='-*,sync-redundant' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// With non-blocking streams in the file, a blocking cudaMemcpy no longer
// waits for everything cudaDeviceSynchronize does (it still waits for the
// legacy stream and the blocking streams); with the per-thread default
// stream it waits for none of them: only the sync-before-sync findings remain
// (notes: none is in a loop, so the exit code is 0).
// RUN: %expect-exit 0 %cuda-advisor --show-cold --sort=location --checks='-*,sync-redundant' %s -- -x cuda -std=c++17 -DNONBLOCKING \
// RUN:   | FileCheck %s --check-prefixes=NB,SYNCS --implicit-check-not='warning:'
// RUN: %expect-exit 0 %cuda-advisor --show-cold --sort=location --checks='-*,sync-redundant' %s -- -x cuda -std=c++17 \
// RUN:   -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1 | FileCheck %s --check-prefix=SYNCS --implicit-check-not='warning:'
// The fix-it removes the whole statement, error-check macro included.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/sync-redundant.cu
// RUN: %expect-exit 1 %cuda-advisor --show-cold --sort=location --checks='-*,sync-redundant' --fix %t/sync-redundant.cu -- -x cuda -std=c++17 > /dev/null 2>&1
// RUN: FileCheck %s --check-prefix=FIXED < %t/sync-redundant.cu
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                                \
  do {                                                                                  \
    cudaError_t err_ = (call);                                                          \
    if (err_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(err_));         \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

inline void gpuAssert(cudaError_t code, const char *file, int line) {
  if (code != cudaSuccess) {
    std::fprintf(stderr, "%s %s:%d\n", cudaGetErrorString(code), file, line);
    std::exit(code);
  }
}
#define gpuErrchk(ans) { gpuAssert((ans), __FILE__, __LINE__); }

__global__ void work(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

#ifdef NONBLOCKING
void makesNonBlocking(cudaStream_t *s) { cudaStreamCreateWithFlags(s, cudaStreamNonBlocking); }
#endif

// ---- A synchronize right before an operation that waits anyway. ----

// FIXED-LABEL: {{^}}void copyBack(float *h, float *d, int n) {
// FIXED-NOT: {{^}}  CUDA_CHECK(cudaDeviceSynchronize());
// FIXED: {{^}}  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
void copyBack(float *h, float *d, int n) {
  work<<<n / 256, 256>>>(d, n);
  // CHECK: :[[@LINE+1]]:14: note: cudaDeviceSynchronize is redundant: the blocking cudaMemcpy (DeviceToHost) right after it waits for the same work on the legacy default stream; it only adds a runtime call and, for pinned host memory, a host round trip before the copy starts; remove it [sync-redundant]
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  // CHECK: :[[@LINE-1]]:14: note: cudaMemcpy waits here
}

// Per iteration, with an error check of the launch in between.
void loop(float *h, float *d, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
    work<<<n / 256, 256>>>(d, n);
    CUDA_CHECK(cudaGetLastError());
    // CHECK: :[[@LINE+1]]:5: warning: cudaDeviceSynchronize is redundant{{.*}}(DeviceToHost){{.*}}; remove it [sync-redundant]
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
}

// Host to device: a blocking copy waits for earlier work as well.
void upload(float *h, float *d, int n) {
  work<<<n / 256, 256>>>(d, n);
  // CHECK: :[[@LINE+1]]:3: note: cudaDeviceSynchronize is redundant{{.*}}(HostToDevice){{.*}} [sync-redundant]
  cudaDeviceSynchronize();
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
}

// cudaMemcpyDefault with pointers whose memory is known.
void defaultKind(int n) {
  float *d, *h = (float *)std::malloc(n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  work<<<n / 256, 256>>>(d, n);
  // CHECK: :[[@LINE+1]]:3: note: cudaDeviceSynchronize is redundant{{.*}}(DeviceToHost){{.*}} [sync-redundant]
  cudaDeviceSynchronize();
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDefault);
}

// The default stream, and a blocking stream created here.
void streams(float *h, float *d, int n) {
  work<<<n / 256, 256>>>(d, n);
  // CHECK: :[[@LINE+2]]:3: note: cudaStreamSynchronize is redundant{{.*}}(DeviceToHost){{.*}} [sync-redundant]
  // NB: :[[@LINE+1]]:3: note: cudaStreamSynchronize is redundant{{.*}}(DeviceToHost){{.*}} [sync-redundant]
  cudaStreamSynchronize(0);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaStream_t s;
  cudaStreamCreate(&s);
  work<<<n / 256, 256, 0, s>>>(d, n);
  // CHECK: :[[@LINE+2]]:3: note: cudaStreamSynchronize is redundant{{.*}}(DeviceToHost){{.*}} [sync-redundant]
  // NB: :[[@LINE+1]]:3: note: cudaStreamSynchronize is redundant{{.*}}(DeviceToHost){{.*}} [sync-redundant]
  cudaStreamSynchronize(s);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaStreamDestroy(s);
}

// A synchronize right before one that covers it.
void twice(cudaStream_t s, cudaEvent_t e) {
  // CHECK: :[[@LINE+2]]:3: note: cudaDeviceSynchronize is redundant: cudaDeviceSynchronize right after it waits for all work on the device, which includes everything this waits for{{.*}} [sync-redundant]
  // SYNCS: :[[@LINE+1]]:3: note: cudaDeviceSynchronize is redundant
  cudaDeviceSynchronize();
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE+2]]:3: note: cudaStreamSynchronize is redundant: cudaDeviceSynchronize right after it{{.*}} [sync-redundant]
  // SYNCS: :[[@LINE+1]]:3: note: cudaStreamSynchronize is redundant
  cudaStreamSynchronize(s);
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE+2]]:3: note: cudaStreamSynchronize is redundant: the cudaStreamSynchronize right after it waits for the same stream{{.*}} [sync-redundant]
  // SYNCS: :[[@LINE+1]]:3: note: cudaStreamSynchronize is redundant
  cudaStreamSynchronize(s);
  cudaStreamSynchronize(s);
  // CHECK: :[[@LINE+2]]:3: note: cudaEventSynchronize is redundant: the cudaEventSynchronize right after it waits for the same event{{.*}} [sync-redundant]
  // SYNCS: :[[@LINE+1]]:3: note: cudaEventSynchronize is redundant
  cudaEventSynchronize(e);
  cudaEventSynchronize(e);
}

// gpuErrchk-style macros with braces; both statements checked: removable.
// FIXED-LABEL: {{^}}void braces(float *h, float *d, int n) {
// FIXED-NOT: {{^}}  gpuErrchk(cudaDeviceSynchronize());
// FIXED: {{^}}  gpuErrchk(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
void braces(float *h, float *d, int n) {
  work<<<n / 256, 256>>>(d, n);
  // CHECK: :[[@LINE+1]]:13: note: cudaDeviceSynchronize is redundant{{.*}}; remove it [sync-redundant]
  gpuErrchk(cudaDeviceSynchronize());
  gpuErrchk(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
}

// The sync is error-checked but the copy is not: removing it would lose the
// check of the kernel's errors, so there is no fix-it.
// FIXED-LABEL: {{^}}void checkedSyncOnly(
// FIXED: {{^}}  CUDA_CHECK(cudaDeviceSynchronize());
// FIXED: {{^}}  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
void checkedSyncOnly(float *h, float *d, int n) {
  work<<<n / 256, 256>>>(d, n);
  // CHECK: :[[@LINE+1]]:14: note: cudaDeviceSynchronize is redundant{{.*}}; remove it (keeping its error check) [sync-redundant]
  CUDA_CHECK(cudaDeviceSynchronize());
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
}

// ---- Negative cases: the next operation does not wait for the same work. ----

void asyncNext(float *h, float *d, int n, cudaStream_t s) {
  work<<<n / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaDeviceSynchronize();
  cudaMemset(d, 0, n * sizeof(float)); // asynchronous for device memory
  cudaDeviceSynchronize();
  cudaFree(d);
}

void deviceToDevice(float *d, float *d2, int n) {
  work<<<n / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  cudaMemcpy(d2, d, n * sizeof(float), cudaMemcpyDeviceToDevice);
}

// The host reads managed memory right after the sync.
float managedRead(int n) {
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  work<<<n / 256, 256>>>(m, n);
  cudaDeviceSynchronize();
  float first = m[0];
  cudaMemcpy(m, m + 1, sizeof(float), cudaMemcpyDefault);
  return first;
}

// Timing around the sync.
double timing(float *h, float *d, int n, cudaEvent_t start, cudaEvent_t stop) {
  auto t0 = std::chrono::steady_clock::now();
  work<<<n / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaEventRecord(start);
  work<<<n / 256, 256>>>(d, n);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  return std::chrono::duration<double>(t1 - t0).count();
}

// A stream of unknown kind (it may be non-blocking), or two different streams.
void unknownStreams(float *h, float *d, int n, cudaStream_t s, cudaStream_t other) {
  work<<<n / 256, 256, 0, s>>>(d, n);
  cudaStreamSynchronize(s);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaDeviceSynchronize();
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  // The weaker sync after a device sync is not what this check reports.
  cudaDeviceSynchronize();
  cudaStreamSynchronize(s);
  work<<<n / 256, 256, 0, s>>>(d, n);
  cudaStreamSynchronize(s);
  cudaStreamSynchronize(other);
}

// A conditional sync, and something in between.
void notAdjacent(float *h, float *d, int n, bool debug) {
  work<<<n / 256, 256>>>(d, n);
  if (debug)
    cudaDeviceSynchronize();
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  work<<<n / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  std::printf("kernel done\n");
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
}

// Suppressed.
void suppressed(float *h, float *d, int n) {
  work<<<n / 256, 256>>>(d, n);
  cudaDeviceSynchronize(); // NOLINT(sync-redundant)
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
}
