// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,sync-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// The bundled CUDA declarations (no toolkit) give the same findings.
// RUN: %expect-exit 1 %cuda-advisor --sort=location --cuda-path=bundled --checks='-*,sync-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// A --header-filter that shows findings in every header does not make the
// CUDA declarations user code (it dropped most findings: library calls such
// as cudaMemcpy and fprintf were looked at as the user's own functions).
// RUN: %expect-exit 1 %cuda-advisor --sort=location --header-filter='.*' --checks='-*,sync-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// The notes off the hot path:
// RUN: %expect-exit 1 %cuda-advisor --show-cold --sort=location --checks='-*,sync-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#define CUDA_CHECK(call)                                                                \
  do {                                                                                  \
    cudaError_t err_ = (call);                                                          \
    if (err_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(err_));         \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

__global__ void step(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.5f * in[i];
}

// ---- A synchronization per iteration that nothing needs. ----

void relax(float *a, float *b, int n) {
  for (int it = 0; it < 1000; ++it) {
    step<<<(n + 255) / 256, 256>>>(a, b, n);
    CUDA_CHECK(cudaGetLastError());
    // CHECK: :[[@LINE+1]]:16: warning: cudaDeviceSynchronize runs on every iteration of this loop (1000 iterations), which also queues GPU work: each time, the host waits until the GPU is idle and the GPU then waits for the host to queue more work; work on one stream runs in order without it: synchronize once after the loop [sync-in-loop]
    CUDA_CHECK(cudaDeviceSynchronize());
    // CHECK: :[[@LINE-5]]:3: note: inside this loop
    // CHECK: :[[@LINE-5]]:5: note: GPU work queued here
    std::swap(a, b);
  }
}

// Look-alike: a buffer allocated and freed on every iteration. cudaFree
// waits for the GPU anyway, so synchronizing once after the loop would remove
// no wait (the allocation in the loop is the thief: transfer-in-loop's); the
// same through a helper. A free on some iterations only does not wait on
// every one: the synchronization stays a finding.
void perIterationBuffer(float *a, int n) {
  for (int it = 0; it < 100; ++it) {
    float *tmp;
    cudaMalloc(&tmp, n * sizeof(float));
    step<<<n / 256, 256>>>(a, tmp, n);
    cudaDeviceSynchronize();
    cudaFree(tmp);
  }
}
static void reduceOnce(float *a, int n) {
  float *tmp;
  cudaMalloc(&tmp, n * sizeof(float));
  step<<<n / 256, 256>>>(a, tmp, n);
  cudaDeviceSynchronize();
  cudaFree(tmp);
}
void perIterationHelper(float *a, int n) {
  for (int it = 0; it < 10; ++it)
    reduceOnce(a, n);
}
void sometimesFreed(float *a, float *b, int n) {
  for (int it = 0; it < 100; ++it) {
    step<<<n / 256, 256>>>(a, b, n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration of this loop (100 iterations){{.*}} [sync-in-loop]
    cudaDeviceSynchronize();
    if (it == 50) {
      cudaFree(b);
      cudaMalloc(&b, n * sizeof(float));
    }
  }
}

// Look-alike: a blocking upload at the top of every iteration (a counter
// reset with cudaMemcpyToSymbol from a stack variable) waits for the previous
// iteration's kernels as the synchronization does: removing the sync alone
// saves nothing. An asynchronous reset, or a blocking upload on some
// iterations only, leaves the synchronization a finding.
__device__ int counter;
void blockingReset(float *a, float *b, int n) {
  for (int it = 0; it < 100; ++it) {
    int zero = 0;
    cudaMemcpyToSymbol(counter, &zero, sizeof(int));
    step<<<n / 256, 256>>>(a, b, n);
    cudaDeviceSynchronize();
  }
}
void asyncReset(float *a, float *b, int n) {
  for (int it = 0; it < 100; ++it) {
    int zero = 0;
    cudaMemcpyToSymbolAsync(counter, &zero, sizeof(int));
    step<<<n / 256, 256>>>(a, b, n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration of this loop (100 iterations){{.*}} [sync-in-loop]
    cudaDeviceSynchronize();
  }
}
void sometimesReset(float *a, float *b, int n) {
  for (int it = 0; it < 100; ++it) {
    int zero = 0;
    if (it % 10 == 0)
      cudaMemcpyToSymbol(counter, &zero, sizeof(int));
    step<<<n / 256, 256>>>(a, b, n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration of this loop (100 iterations){{.*}} [sync-in-loop]
    cudaDeviceSynchronize();
  }
}

// Look-alikes: the reset in a helper called on some iterations only, and the
// loop's kernels on a stream of their own (created non-blocking: the upload on
// the default stream does not wait for them).
static void resetCounter() {
  int zero = 0;
  cudaMemcpyToSymbol(counter, &zero, sizeof(int));
}
void sometimesResetByHelper(float *a, float *b, int n) {
  for (int it = 0; it < 100; ++it) {
    if (it % 10 == 0)
      resetCounter();
    step<<<n / 256, 256>>>(a, b, n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration of this loop (100 iterations){{.*}} [sync-in-loop]
    cudaDeviceSynchronize();
  }
}
void resetBesideStream(float *a, float *b, int n, cudaStream_t st) {
  for (int it = 0; it < 100; ++it) {
    int zero = 0;
    cudaMemcpyToSymbol(counter, &zero, sizeof(int));
    step<<<n / 256, 256, 0, st>>>(a, b, n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration of this loop (100 iterations){{.*}} [sync-in-loop]
    cudaDeviceSynchronize();
  }
}

// cudaFreeAsync returns the memory to the stream's pool without waiting.
void perIterationPool(float *a, int n, cudaStream_t st) {
  for (int it = 0; it < 100; ++it) {
    float *tmp;
    cudaMallocAsync(&tmp, n * sizeof(float), st);
    step<<<n / 256, 256, 0, st>>>(a, tmp, n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaStreamSynchronize runs on every iteration of this loop (100 iterations){{.*}} [sync-in-loop]
    cudaStreamSynchronize(st);
    cudaFreeAsync(tmp, st);
  }
}

// Streams, one after the other: the sync serializes them.
void perStream(float *d, cudaStream_t *streams, int count, int n) {
  for (int s = 0; s < count; ++s) {
    cudaMemsetAsync(d + s * n, 0, n * sizeof(float), streams[s]);
    step<<<n / 256, 256, 0, streams[s]>>>(d + s * n, d + s * n, n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaStreamSynchronize runs on every iteration of this loop, which also queues GPU work{{.*}} [sync-in-loop]
    cudaStreamSynchronize(streams[s]);
  }
}

// An event per step.
void events(float *d, cudaEvent_t done, int n) {
  int k = 0;
  while (k < 50) {
    step<<<n / 256, 256>>>(d, d, n);
    cudaEventRecord(done);
    // CHECK: :[[@LINE+1]]:5: warning: cudaEventSynchronize runs on every iteration of this loop (50 iterations){{.*}} [sync-in-loop]
    cudaEventSynchronize(done);
    ++k;
  }
}

// Through functions of this file: the launch in one, the sync in another.
static void launchStep(float *a, float *b, int n) { step<<<n / 256, 256>>>(a, b, n); }
static void waitForGpu() { cudaDeviceSynchronize(); }
void viaHelpers(float *a, float *b, int n, int steps) {
  for (int i = 0; i < steps; ++i) {
    launchStep(a, b, n);
    // CHECK: :[[@LINE+1]]:5: warning: 'waitForGpu' calls cudaDeviceSynchronize and runs on every iteration of this loop, which also queues GPU work{{.*}} [sync-in-loop]
    waitForGpu();
    // CHECK: :[[@LINE-4]]:3: note: inside this loop
    // CHECK: :[[@LINE-4]]:5: note: GPU work queued here
    // CHECK: :[[@LINE-8]]:28: note: cudaDeviceSynchronize called here
  }
}

// A helper that launches and syncs, called per iteration.
static void stepAndWait(float *a, int n) {
  step<<<n / 256, 256>>>(a, a, n);
  cudaDeviceSynchronize();
}
void helperLoop(float *a, int n) {
  for (int i = 0; i < 10; ++i)
    // CHECK: :[[@LINE+1]]:5: warning: 'stepAndWait' calls cudaDeviceSynchronize and runs on every iteration of this loop (10 iterations){{.*}} [sync-in-loop]
    stepAndWait(a, n);
}

// Multi-GPU: the sync per device serializes the devices. The loop walks
// devices, so the message speaks of devices, not of repetitions.
void allDevices(float **d, int devices, int n) {
  for (int dev = 0; dev < devices; ++dev) {
    cudaSetDevice(dev);
    step<<<n / 256, 256>>>(d[dev], d[dev], n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs once per device in this loop over devices, which also queues each device's work: the host waits for one device before it gives the next its work, so the devices run one after another; queue the work on every device first, then synchronize them in a second loop [sync-in-loop]
    cudaDeviceSynchronize();
  }
}

// Legacy code: cudaThreadSynchronize (removed in CUDA 13; the compat headers
// declare it) is cudaDeviceSynchronize.
void legacy(float *d, int n) {
  for (int it = 0; it < 20; ++it) {
    step<<<n / 256, 256>>>(d, d, n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaThreadSynchronize runs on every iteration of this loop (20 iterations){{.*}} [sync-in-loop]
    cudaThreadSynchronize();
  }
}

// Library work: a cuBLAS call per iteration (declared here as cublas_v2.h does).
typedef struct cublasContext *cublasHandle_t;
extern "C" int cublasSgemm_v2(cublasHandle_t, int, int, int, int, int, const float *, const float *,
                              int, const float *, int, const float *, float *, int);
extern "C" int cublasSdot_v2(cublasHandle_t, int, const float *, int, const float *, int, float *);
void gemmLoop(cublasHandle_t h, const float *A, float *C, int n, int iters) {
  const float alpha = 1.0f, beta = 0.0f;
  for (int it = 0; it < iters; ++it) {
    cublasSgemm_v2(h, 0, 0, n, n, n, &alpha, A, n, A, n, &beta, C, n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration of this loop, which also queues GPU work{{.*}} [sync-in-loop]
    cudaDeviceSynchronize();
  }
}

// A CUDA graph per iteration, and a class whose step() launches.
void graphs(cudaGraphExec_t exec, cudaStream_t s, int iters) {
  for (int it = 0; it < iters; ++it) {
    cudaGraphLaunch(exec, s);
    // CHECK: :[[@LINE+1]]:5: warning: cudaStreamSynchronize runs on every iteration{{.*}} [sync-in-loop]
    cudaStreamSynchronize(s);
  }
}
class Simulation {
public:
  void advance() { step<<<n_ / 256, 256, 0, stream_>>>(a_, b_, n_); }
  void run(int iters) {
    for (int i = 0; i < iters; ++i) {
      advance();
      // CHECK: :[[@LINE+1]]:18: warning: cudaStreamSynchronize runs on every iteration{{.*}} [sync-in-loop]
      CUDA_CHECK(cudaStreamSynchronize(stream_));
    }
  }

private:
  float *a_, *b_;
  int n_;
  cudaStream_t stream_;
};

// ---- Negative cases: look alike, but the host needs the wait, or nothing
// is launched per iteration. ----

// The host reads a result cuBLAS wrote through its address.
void dotLoop(cublasHandle_t h, const float *x, int n, int iters) {
  for (int it = 0; it < iters; ++it) {
    float r;
    cublasSdot_v2(h, n, x, 1, x, 1, &r);
    cudaDeviceSynchronize();
    if (r < 1.0f)
      break;
  }
}

// A virtual call may do anything, e.g. hand the results to another device.
struct Layer {
  virtual void forward(float *x) = 0;
  virtual ~Layer() {}
};
void layers(Layer **all, int count, float *x, int n) {
  for (int l = 0; l < count; ++l) {
    step<<<n / 256, 256>>>(x, x, n);
    all[l]->forward(x);
    cudaDeviceSynchronize();
  }
}

// Threads of an OpenMP team meet at a barrier after each step.
void teams(float **d, int n, int iters) {
#pragma omp parallel
  {
    int dev = 0;
    cudaSetDevice(dev);
    for (int it = 0; it < iters; ++it) {
      step<<<n / 256, 256>>>(d[dev], d[dev], n);
      cudaDeviceSynchronize();
#pragma omp barrier
    }
  }
}


// The sync after the loop.
void syncAfter(float *a, float *b, int n) {
  for (int it = 0; it < 1000; ++it) {
    step<<<n / 256, 256>>>(a, b, n);
    std::swap(a, b);
  }
  cudaDeviceSynchronize();
}

// Polling: the loop synchronizes but launches nothing.
void polling(const volatile bool *stop) {
  while (!*stop)
    cudaDeviceSynchronize();
  for (int dev = 0; dev < 4; ++dev) {
    cudaSetDevice(dev);
    cudaDeviceSynchronize();
  }
}

// A convergence check that reads a result copied back.
void converge(float *d, float *dErr, int n, float tol) {
  for (int it = 0; it < 100; ++it) {
    step<<<n / 256, 256>>>(d, d, n);
    cudaDeviceSynchronize();
    float hErr = 0;
    cudaMemcpy(&hErr, dErr, sizeof(float), cudaMemcpyDeviceToHost);
    if (hErr < tol)
      break;
  }
}

// Managed memory read by the host right after the sync.
void managed(int n) {
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  for (int it = 0; it < 100; ++it) {
    step<<<n / 256, 256>>>(m, m, n);
    cudaDeviceSynchronize();
    if (m[0] > 1.0f)
      break;
  }
}

// A flag in mapped pinned memory the kernel writes.
__global__ void setFlag(int *flag) { *flag = 1; }
void mapped() {
  int *hFlag, *dFlag;
  cudaHostAlloc((void **)&hFlag, sizeof(int), cudaHostAllocMapped);
  cudaHostGetDevicePointer((void **)&dFlag, hFlag, 0);
  for (int it = 0; it < 10; ++it) {
    setFlag<<<1, 1>>>(dFlag);
    cudaDeviceSynchronize();
    std::printf("%d\n", *hFlag);
  }
}

// Pinned buffers the host refills for the next async upload (the sync
// protects them from being overwritten while the copy still reads them).
void refill(float *d, float *pinned, cudaStream_t s, int n) {
  for (int it = 0; it < 10; ++it) {
    for (int i = 0; i < n; ++i)
      pinned[i] = it;
    cudaMemcpyAsync(d, pinned, n * sizeof(float), cudaMemcpyHostToDevice, s);
    step<<<n / 256, 256, 0, s>>>(d, d, n);
    cudaStreamSynchronize(s);
  }
}

// Timing each step.
void timed(float *d, int n) {
  double total = 0;
  for (int it = 0; it < 10; ++it) {
    auto t0 = std::chrono::steady_clock::now();
    step<<<n / 256, 256>>>(d, d, n);
    cudaDeviceSynchronize();
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  std::printf("%f\n", total);
}

// Results handed to a function of another file.
void writeOutput(const float *d, int n);
void handsOff(float *d, int n) {
  for (int it = 0; it < 10; ++it) {
    step<<<n / 256, 256>>>(d, d, n);
    cudaDeviceSynchronize();
    writeOutput(d, n);
  }
}

// Synchronizing only now and then is not per iteration.
void periodic(float *d, int n) {
  for (int it = 0; it < 1000; ++it) {
    step<<<n / 256, 256>>>(d, d, n);
    if (it % 100 == 0)
      cudaDeviceSynchronize();
  }
}

// Suppressed.
void suppressed(float *d, int n) {
  for (int it = 0; it < 10; ++it) {
    step<<<n / 256, 256>>>(d, d, n);
    cudaDeviceSynchronize(); // NOLINT(sync-in-loop)
  }
}

// A loop whose body runs at most once is no repetition; a synchronize under a
// first-iteration guard is conditional.
void syncOnce(float *d, int n, int steps) {
  while (true) {
    step<<<n / 256, 256>>>(d, d, n);
    cudaDeviceSynchronize();
    break;
  }
  for (int iter = 0; iter < steps; ++iter) {
    step<<<n / 256, 256>>>(d, d, n);
    if (iter == 0)
      cudaDeviceSynchronize();
  }
}
// A helper that synchronizes, called on every iteration through a lambda and
// a member function: the sync is in the loop.
struct Solver {
  float *d;
  int n;
  void advance() {
    step<<<n / 256, 256>>>(d, d, n);
    cudaDeviceSynchronize();
  }
};
void viaCallees(Solver &s, float *d, int n, int steps) {
  auto stepAndWaitLambda = [&] {
    step<<<n / 256, 256>>>(d, d, n);
    cudaDeviceSynchronize();
  };
  for (int it = 0; it < steps; ++it)
    // CHECK: :[[@LINE+1]]:5: warning: the lambda 'stepAndWaitLambda' calls cudaDeviceSynchronize and runs on every iteration of this loop
    stepAndWaitLambda();
  for (int it = 0; it < steps; ++it)
    // CHECK: :[[@LINE+1]]:5: warning: 'advance' calls cudaDeviceSynchronize and runs on every iteration of this loop
    s.advance();
}

// A clock read on one iteration only (the start of the timed iterations after
// a warm-up one): the syncs of the other iterations are part of no
// measurement, and are reported. A clock read on every iteration (per-launch
// timing) makes them part of one.
static double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
double timedFromSecondIteration(float *d, int iters) {
  double t = 0;
  for (int iter = 0; iter <= iters; ++iter) {
    if (iter == 1) {
      cudaDeviceSynchronize();
      t = nowSeconds();
    }
    step<<<1024, 256>>>(d, d, 1024 * 256);
    // CHECK: :[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration of this loop
    cudaDeviceSynchronize();
  }
  return nowSeconds() - t;
}
double timedEachIteration(float *d, int iters) {
  double total = 0;
  for (int iter = 0; iter < iters; ++iter) {
    double t0 = nowSeconds();
    step<<<1024, 256>>>(d, d, 1024 * 256);
    cudaDeviceSynchronize();
    total += nowSeconds() - t0;
  }
  return total;
}

// A multi-pass reduction: each pass divides the block count by 256, so the
// loop runs at most 4 times for any int: its waits are a note.
void reducePasses(float *d, int n) {
  int grid = (n + 255) / 256;
  while (grid > 1) {
    step<<<grid, 256>>>(d, d, n);
    // COLD: :[[@LINE+1]]:5: note: cudaDeviceSynchronize runs on every iteration of this loop
    cudaDeviceSynchronize();
    n = grid;
    grid = (n + 255) / 256;
  }
}
// COLD: note: off the hot path: the loop makes a few passes: each divides 'grid' by 256, so there are at most 4 for any 32-bit value: a few waits in all

// Look-alike: halving each pass (a tree reduction driven from the host) is
// up to 32 passes: a finding.
void halvingPasses(float *d, int n) {
  int width = n / 2;
  while (width > 0) {
    step<<<(width + 255) / 256, 256>>>(d, d, width);
    // CHECK: :[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration of this loop
    cudaDeviceSynchronize();
    width /= 2;
  }
}

// Look-alike: the same few-pass loop, repeated by a timing loop around it.
void timedPasses(float *d, int n, int reps) {
  for (int r = 0; r < reps; ++r) {
    int m = n, grid = (m + 255) / 256;
    while (grid > 1) {
      step<<<grid, 256>>>(d, d, m);
      // CHECK: :[[@LINE+1]]:7: warning: cudaDeviceSynchronize runs on every iteration of this loop
      cudaDeviceSynchronize();
      m = grid;
      grid = (m + 255) / 256;
    }
  }
}

// Look-alike: the few-pass loop in a helper that a loop of this file calls
// 1000 times, and in a lambda called in a loop: the waits repeat.
void reduceHelper(float *d, int n) {
  int grid = (n + 255) / 256;
  while (grid > 1) {
    step<<<grid, 256>>>(d, d, n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration of this loop
    cudaDeviceSynchronize();
    n = grid;
    grid = (n + 255) / 256;
  }
}
void callsReduceHelper(float *d, int n) {
  for (int t = 0; t < 1000; ++t)
    reduceHelper(d, n);
}
void reduceInLambda(float *d, int n) {
  auto reduce = [&](int m) {
    int grid = (m + 255) / 256;
    while (grid > 1) {
      step<<<grid, 256>>>(d, d, m);
      // CHECK: :[[@LINE+1]]:7: warning: cudaDeviceSynchronize runs on every iteration of this loop
      cudaDeviceSynchronize();
      m = grid;
      grid = (m + 255) / 256;
    }
  };
  for (int t = 0; t < 1000; ++t)
    reduce(n);
}
