// sync-in-loop beside a Thrust algorithm whose result the host reads on every
// iteration (a pivot search with thrust::max_element, a residual with
// thrust::reduce): the algorithm brings its result back, waiting for the GPU's
// earlier work as the synchronization does, so removing the synchronization
// saves nothing: no finding. Look-alikes keep it: the result dropped
// (thrust::transform's end iterator is not waited for), and the reduction on
// some iterations only.
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,sync-in-loop' %s -- -x cuda -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>
#include <thrust/device_ptr.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>

__global__ void eliminate(double *m, int row, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    m[row * n + i] *= 0.5;
}

void gauss(double *dm, int n) {
  thrust::device_ptr<double> p(dm);
  for (int row = 0; row < n; ++row) {
    int pivot = int(thrust::max_element(p + row * n, p + (row + 1) * n) - (p + row * n));
    eliminate<<<(n + 255) / 256, 256>>>(dm, pivot, n);
    cudaDeviceSynchronize();
  }
}

double iterate(double *dm, int n, int steps) {
  thrust::device_ptr<double> p(dm);
  double r = 0;
  for (int s = 0; s < steps; ++s) {
    eliminate<<<(n + 255) / 256, 256>>>(dm, 0, n);
    cudaDeviceSynchronize();
    r = thrust::reduce(p, p + n);
  }
  return r;
}

void dropped(double *dm, int n, int steps) {
  thrust::device_ptr<double> p(dm);
  for (int s = 0; s < steps; ++s) {
    thrust::transform(p, p + n, p, thrust::negate<double>());
    eliminate<<<(n + 255) / 256, 256>>>(dm, 0, n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration of this loop
    cudaDeviceSynchronize();
  }
}

double sometimes(double *dm, int n, int steps) {
  thrust::device_ptr<double> p(dm);
  double r = 0;
  for (int s = 0; s < steps; ++s) {
    eliminate<<<(n + 255) / 256, 256>>>(dm, 0, n);
    // CHECK: :[[@LINE+1]]:5: warning: cudaDeviceSynchronize runs on every iteration of this loop
    cudaDeviceSynchronize();
    if (s % 100 == 0)
      r = thrust::reduce(p, p + n);
  }
  return r;
}
