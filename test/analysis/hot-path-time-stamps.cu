// A clock read for a time stamp (the name of a log file, a report's date:
// the reading goes to to_time_t, localtime, put_time, strftime...) measures
// nothing: it starts no timed region. Here the loop times only the solve of
// each repetition, so the allocations before it are each repetition's
// set-up. Look-alikes: a helper that returns a clock reading as a number is
// a timer; a function that stamps one reading and times with two others
// keeps its timed region.
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>

__global__ void solve(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * 0.5f + 1.0f;
}

std::string logFileName() {
  auto now = std::chrono::system_clock::now();
  auto t = std::chrono::system_clock::to_time_t(now);
  std::stringstream ss;
  ss << std::put_time(std::localtime(&t), "%Y%m%d_%H%M%S");
  return "log_" + ss.str() + ".csv";
}

double nowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch()).count();
}

void stamped(int n) {
  std::ofstream log(logFileName());
  for (int it = 0; it < 100; ++it) {
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    solve<<<(n + 255) / 256, 256>>>(d, n);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    log << ms << "\n";
    cudaFree(d);
  }
}

// The helper returns a reading as a number: a timer around the whole loop.
void timedByHelper(int n) {
  double t0 = nowMs();
  for (int it = 0; it < 100; ++it) {
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    solve<<<(n + 255) / 256, 256>>>(d, n);
    cudaFree(d);
  }
  cudaDeviceSynchronize();
  double t1 = nowMs();
  printf("%f\n", t1 - t0);
}
// CHECK: hot-path-time-stamps.cu:[[@LINE-8]]:5: warning: cudaMalloc allocates on every iteration

// One reading is stamped, the two around the loop time it.
void stampAndTime(int n) {
  std::time_t date = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  printf("%s", std::ctime(&date));
  auto t0 = std::chrono::system_clock::now();
  for (int it = 0; it < 100; ++it) {
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    solve<<<(n + 255) / 256, 256>>>(d, n);
    cudaFree(d);
  }
  cudaDeviceSynchronize();
  auto t1 = std::chrono::system_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}
// CHECK: hot-path-time-stamps.cu:[[@LINE-8]]:5: warning: cudaMalloc allocates on every iteration

// The readings around the loop are printed as dates and subtracted: a
// timer (the events inside time only the kernel of each repetition).
void stampedAndTimed(int n) {
  auto start = std::chrono::system_clock::now();
  for (int it = 0; it < 100; ++it) {
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a);
    solve<<<(n + 255) / 256, 256>>>(d, n);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    cudaFree(d);
  }
  auto end = std::chrono::system_clock::now();
  std::time_t st = std::chrono::system_clock::to_time_t(start);
  std::time_t et = std::chrono::system_clock::to_time_t(end);
  printf("%s %s %f\n", std::ctime(&st), std::ctime(&et),
         std::chrono::duration<double>(end - start).count());
}
// CHECK: hot-path-time-stamps.cu:[[@LINE-18]]:5: warning: cudaMalloc allocates on every iteration

int main() {
  stamped(1 << 20);
  timedByHelper(1 << 20);
  stampAndTime(1 << 20);
  stampedAndTimed(1 << 20);
  return 0;
}
// CHECK: 3 findings in 1 file
