// transfer-in-loop: work on a loop's way out, and loops over devices through
// a project's own set-device wrapper.
// - A block inside the loop that leaves it on every path (`if (err) {
//   release(p); return nullptr; }`, `{ cudaFree(tmp); break; }`) runs at most
//   once per run of the loop: not reported. A block that only may leave (an
//   `if` without a return on every path), or whose `break` leaves a switch,
//   still runs on every iteration: reported.
// - `set_device(devs[i])`, a function that passes its parameter to
//   cudaSetDevice, makes each iteration another device's set-up, as
//   cudaSetDevice(devs[i]) does; a wrapper called with a constant does not.
//   An error-checking macro around it (`CHECK(cudaSetDevice(gpu))`, a
//   `do { } while (0)`) changes nothing, with a constant device as without.
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <cstdlib>

struct Pipeline { float *dev[8]; float *host; int n; };

void pipelineFree(Pipeline *p) {
  for (int i = 0; i < p->n; ++i)
    cudaFree(p->dev[i]);
  cudaFreeHost(p->host);
}

Pipeline *pipelineInit(int n, size_t bytes) {
  Pipeline *p = new Pipeline{};
  p->n = n;
  for (int i = 0; i < n; ++i) {
    if (cudaMalloc(&p->dev[i], bytes) != cudaSuccess) {
      pipelineFree(p); // Error path: once, then return.
      return nullptr;
    }
  }
  return p;
}

// The operand of a `return` (or `throw`) runs once, on the way out: an
// error handler called as `return fail(...)` is no per-iteration free. The
// same handler called as a statement of the loop, with no return, is.
enum Result { Ok, OutOfMemory };
Result setUpFields(float **fields, float *scratch, int n, size_t bytes) {
  auto fail = [&](Result r) {
    cudaFree(scratch);
    return r;
  };
  for (int i = 0; i < n; ++i) {
    if (cudaMalloc(&fields[i], bytes) != cudaSuccess)
      return fail(OutOfMemory);
    if (fields[i] == nullptr)
      throw fail(OutOfMemory);
  }
  for (int i = 0; i < n; ++i) {
    // CHECK: :[[@LINE+1]]:5: warning: the lambda 'fail' calls cudaFree and runs on every iteration
    fail(Ok);
  }
  return Ok;
}

void step(float *d, const float *h, size_t bytes, int iters) {
  for (int it = 0; it < iters; ++it) {
    float *tmp;
    cudaMalloc(&tmp, bytes);
    // CHECK: :[[@LINE-1]]:5: warning: cudaMalloc allocates on every iteration
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration
    cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    if (d[0] > 1.0f) {
      cudaFree(tmp); // Leaves through break: once.
      break;
    }
    if (h[0] < 0.0f) {
      // CHECK: :[[@LINE+1]]:7: warning: cudaMemcpy runs on every iteration
      cudaMemcpy((void *)h, d, bytes, cudaMemcpyDeviceToHost); // May fall through: every iteration.
      if (h[1] < 0.0f)
        return;
    }
    switch (it % 3) {
    case 0: {
      // Into a buffer allocated and freed in each iteration: a note beside the
      // allocation's finding.
      cudaMemcpy(tmp, h, bytes, cudaMemcpyHostToDevice); // `break` leaves the switch, not the loop.
      break;
    }
    default:
      break;
    }
    cudaFree(tmp); // Goes with the allocation: a note.
  }
}

// A `break` leaves the innermost loop or switch: in a retry loop that runs
// once, it does not make the block an exit of the outer loop.
void retryInside(float *d, const float *h, size_t bytes, int iters) {
  for (int it = 0; it < iters; ++it) {
    for (int attempt = 0; attempt < 3; ++attempt) {
      // CHECK: :[[@LINE+1]]:7: warning: cudaMemcpy runs on every iteration
      cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
      break;
    }
  }
}

// A project's set-device wrapper.
static void set_device(int device) { cudaSetDevice(device); }

void perDevice(const int *devs, int n, float **bufs, const float *h, size_t bytes) {
  for (int i = 0; i < n; ++i) {
    set_device(devs[i]);
    float *scratch;
    cudaMalloc(&scratch, bytes);
    cudaMemcpy(bufs[i], h, bytes, cudaMemcpyHostToDevice);
    cudaFree(scratch);
  }
  // The same wrapper with a constant: one device, every iteration repeats.
  for (int i = 0; i < n; ++i) {
    set_device(0);
    float *scratch;
    // CHECK: :[[@LINE+1]]:5: warning: cudaMalloc allocates on every iteration
    cudaMalloc(&scratch, bytes);
    cudaFree(scratch); // Goes with the allocation: a note.
  }
}

#define CHECK(call)                                                            \
  do {                                                                         \
    const cudaError_t e = call;                                                \
    if (e != cudaSuccess)                                                      \
      abort();                                                                 \
  } while (0)

void perDeviceChecked(int gpus, float **bufs, const float *h, size_t bytes) {
  for (int gpu = 0; gpu < gpus; ++gpu) {
    CHECK(cudaSetDevice(gpu));
    float *scratch;
    CHECK(cudaMalloc(&scratch, bytes));
    CHECK(cudaMemcpy(bufs[gpu], h, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaFree(scratch));
  }
  // Look-alike: the same macro around a constant device: every iteration
  // repeats the allocation on device 0.
  for (int gpu = 0; gpu < gpus; ++gpu) {
    CHECK(cudaSetDevice(0));
    float *scratch;
    // CHECK: :[[@LINE+1]]:11: warning: cudaMalloc allocates on every iteration
    CHECK(cudaMalloc(&scratch, bytes));
    CHECK(cudaFree(scratch)); // Goes with the allocation: a note.
  }
}

// A helper that frees or allocates, called on another object each iteration
// (the object of a member call counts as an argument): tear-down, not
// repetition. The same object every iteration is the scratch pattern.
struct HostBuffer {
  float *ptr = nullptr;
  void alloc(size_t bytes) { cudaMallocHost(&ptr, bytes); }
  void free() { cudaFreeHost(ptr); }
};
void tearDown(HostBuffer *bufs, int n) {
  for (int i = 0; i < n; ++i)
    bufs[i].free();
}
void scratch(HostBuffer &tmp, int iters, size_t bytes) {
  for (int it = 0; it < iters; ++it) {
    // CHECK: :[[@LINE+1]]:5: warning: 'alloc' calls cudaMallocHost and runs on every iteration
    tmp.alloc(bytes);
    // CHECK: :[[@LINE+1]]:5: warning: 'free' calls cudaFreeHost and runs on every iteration
    tmp.free();
  }
}
