// A timer object whose constructor starts the clock in a member initializer
// (`GpuTimer() : T0(clock::now()) {}`) times the run it is declared in, as one
// whose constructor body calls start(): a loop repeating that run is off the
// hot path. The look-alike initializes its members from no clock (a lap count,
// a copy of another time point): its loop keeps its warning.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='warning:'
// RUN: %expect-exit 1 %cuda-advisor --show-cold --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --check-prefix=COLD
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <chrono>

using Clock = std::chrono::steady_clock;

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

class InitTimer {
  Clock::time_point T0;
public:
  InitTimer() : T0(Clock::now()) {}
  double seconds() const { return std::chrono::duration<double>(Clock::now() - T0).count(); }
};

// Look-alike: its members come from the arguments, not from a clock.
class CopiedTimer {
  Clock::time_point T0;
  int Laps;
public:
  explicit CopiedTimer(Clock::time_point From) : T0(From), Laps(0) {}
  double seconds() const { return std::chrono::duration<double>(Clock::now() - T0).count(); }
};

double timedRun(const float *h, float *d, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  InitTimer t;
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  return t.seconds();
}

double copiedRun(const float *h, float *d, int n, Clock::time_point Origin) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  CopiedTimer t(Origin);
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  return t.seconds();
}

// A default member initializer that reads the clock, with a defaulted
// constructor: also started at its declaration.
class NsdmiTimer {
  Clock::time_point T0 = Clock::now();
public:
  NsdmiTimer() = default;
  double seconds() const { return std::chrono::duration<double>(Clock::now() - T0).count(); }
};

double nsdmiRun(const float *h, float *d, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  NsdmiTimer t;
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  return t.seconds();
}

int main(int argc, char **argv) {
  int n = argc << 20;
  float *h = new float[n], *d;
  cudaMalloc(&d, n * sizeof(float));
  double total = 0;
  Clock::time_point Origin{};
  for (int rep = 0; rep < 10 * argc; ++rep) {
    total += timedRun(h, d, n);
    total += copiedRun(h, d, n, Origin);
    total += nsdmiRun(h, d, n);
  }
  cudaFree(d);
  return total > 0;
}

// DEFAULT: hot-path-timer-initializers.cu:79:14: warning: 'copiedRun' calls cudaMemcpy{{.*}}[transfer-in-loop]
//
// COLD: hot-path-timer-initializers.cu:78:14: note: 'timedRun' calls cudaMemcpy{{.*}}[transfer-in-loop]
// COLD: note: off the hot path: repeats 'timedRun', which times one run itself (lines 40-43): each iteration is a whole timed run
// COLD: hot-path-timer-initializers.cu:80:14: note: 'nsdmiRun' calls cudaMemcpy{{.*}}[transfer-in-loop]
// COLD: note: off the hot path: repeats 'nsdmiRun', which times one run itself (lines 65-68): each iteration is a whole timed run
