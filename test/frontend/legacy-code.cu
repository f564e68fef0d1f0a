// Code written for CUDA 11 and older, in the style of Rodinia (kmeans, bfs,
// srad, hotspot): texture references, the thread-management API, removed
// cudaDeviceProp fields, host min/max on floats, OpenMP host code. Against
// CUDA 13 it parses with no error (the compat declarations, each reported
// once as a note) and the checks run on it.
//
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,transfer-in-loop,compat-removed-api' %s \
// RUN:   -- -x cuda -fopenmp 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %expect-exit 1 %cuda-advisor --sort=location --device-pass --checks='-*,transfer-in-loop,compat-removed-api' \
// RUN:   %s -- -x cuda -fopenmp 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %expect-exit 1 %cuda-advisor --sort=location --cuda-path=bundled --checks='-*,transfer-in-loop,compat-removed-api' \
// RUN:   %s -- -x cuda -fopenmp 2>&1 | FileCheck %s --implicit-check-not=error:
//
// A host .cpp file of the same project (compiled by g++) gets the removed
// API too.
// RUN: %expect-exit 0 %cuda-advisor --sort=location --checks='-*,compat-removed-api' %inputs/frontend/legacy/host.cpp \
// RUN:   -- -std=c++14 2>&1 | FileCheck %s --check-prefix=HOST --implicit-check-not=error:
// REQUIRES: cuda

// HOST: host.cpp:9:3: note: cudaThreadSynchronize was removed in CUDA 13.0{{.*}}[compat-removed-api]
// HOST: host.cpp:13:20: note: cudaDeviceProp::clockRate was removed in CUDA 13.0{{.*}}[compat-removed-api]

#include <cuda.h>
#include <cuda_runtime.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK_SIZE 256
#define ASSUMED_NR_CLUSTERS 32

// kmeans: features read through 1D texture references, clusters in constant memory.
// CHECK: legacy-code.cu:[[@LINE+1]]:1: note: texture<> was removed in CUDA 12.0{{.*}}[compat-removed-api]
texture<float, 1, cudaReadModeElementType> t_features;
texture<float, 1, cudaReadModeElementType> t_features_flipped;
__constant__ float c_clusters[ASSUMED_NR_CLUSTERS * 34];

__global__ void invert_mapping(float *input, float *output, int npoints, int nfeatures) {
  int point_id = threadIdx.x + blockDim.x * blockIdx.x;
  if (point_id < npoints)
    for (int i = 0; i < nfeatures; i++)
      output[point_id + npoints * i] = input[point_id * nfeatures + i];
}

__global__ void kmeansPoint(int nfeatures, int npoints, int nclusters, int *membership) {
  unsigned int point_id = blockIdx.x * blockDim.x + threadIdx.x;
  if (point_id >= npoints)
    return;
  float min_dist = 3.4e38f;
  int index = -1;
  for (int i = 0; i < nclusters; i++) {
    float dist = 0;
    for (int l = 0; l < nfeatures; l++) {
      // CHECK: legacy-code.cu:[[@LINE+1]]:17: note: tex1Dfetch was removed in CUDA 12.0{{.*}}[compat-removed-api]
      float d = tex1Dfetch(t_features, point_id + l * npoints) - c_clusters[i * nfeatures + l];
      dist += d * d;
    }
    if (dist < min_dist) {
      min_dist = dist;
      index = i;
    }
  }
  membership[point_id] = index;
}

// hotspot/srad: 2D texture with normalized reads, min/max on floats in host code.
texture<unsigned char, 2, cudaReadModeNormalizedFloat> t_image;
__global__ void sample(float *out, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  // CHECK: legacy-code.cu:[[@LINE+1]]:20: note: tex2D was removed in CUDA 12.0{{.*}}[compat-removed-api]
  out[y * w + x] = tex2D(t_image, x + 0.5f, y + 0.5f);
}

float clampStep(float a, float b) { return min(max(a, 0.0f), b) + fmaxf(a, b); }

int kmeansHost(float *features, float *features_d, float *clusters, int npoints, int nfeatures,
               int nclusters, int *membership_d, int loops) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  // CHECK: legacy-code.cu:[[@LINE+2]]:62: note: cudaDeviceProp::clockRate was removed in CUDA 13.0{{.*}}[compat-removed-api]
  // CHECK: legacy-code.cu:[[@LINE+1]]:78: note: cudaDeviceProp::deviceOverlap was removed in CUDA 13.0{{.*}}[compat-removed-api]
  printf("%s: %d kHz, overlap %d, %d SMs\n", prop.name, prop.clockRate, prop.deviceOverlap,
         prop.multiProcessorCount);
  cudaChannelFormatDesc chDesc0 = cudaCreateChannelDesc<float>();
  t_features.filterMode = cudaFilterModePoint;
  t_features.normalized = false;
  t_features.channelDesc = chDesc0;
  // CHECK: legacy-code.cu:[[@LINE+1]]:3: note: cudaBindTexture was removed in CUDA 12.0{{.*}}[compat-removed-api]
  cudaBindTexture(NULL, &t_features, features_d, &chDesc0, npoints * nfeatures * sizeof(float));
  dim3 grid((npoints + BLOCK_SIZE - 1) / BLOCK_SIZE), threads(BLOCK_SIZE);
  int delta = 0;
  for (int it = 0; it < loops; ++it) {
    // CHECK: legacy-code.cu:[[@LINE+1]]:5: warning: {{.*}}[transfer-in-loop]
    cudaMemcpyToSymbol(c_clusters, clusters, nclusters * nfeatures * sizeof(float), 0,
                       cudaMemcpyHostToDevice);
    kmeansPoint<<<grid, threads>>>(nfeatures, npoints, nclusters, membership_d);
    // CHECK: legacy-code.cu:[[@LINE+1]]:5: note: cudaThreadSynchronize was removed in CUDA 13.0{{.*}}[compat-removed-api]
    cudaThreadSynchronize();
#pragma omp parallel for reduction(+ : delta)
    for (int i = 0; i < npoints; i++)
      delta += omp_get_thread_num() >= 0;
  }
  // CHECK: legacy-code.cu:[[@LINE+1]]:3: note: cudaUnbindTexture was removed in CUDA 12.0{{.*}}[compat-removed-api]
  cudaUnbindTexture(t_features);
  // CHECK: legacy-code.cu:[[@LINE+1]]:3: note: cudaThreadExit was removed in CUDA 13.0{{.*}}[compat-removed-api]
  cudaThreadExit();
  return delta;
}
