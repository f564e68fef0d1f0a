// Kernels written with cooperative groups parse, and are analyzed, with a
// toolkit and with the bundled declarations alike (which declare the groups,
// tiles and collectives of cooperative_groups.h and its reduce.h).
//
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-shared-bank-conflict' %s -- -x cuda \
// RUN:   -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,access-shared-bank-conflict' %s \
// RUN:   -- -x cuda -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --device-pass \
// RUN:   --checks='-*,access-shared-bank-conflict' %s -- -x cuda -std=c++17 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// REQUIRES: cuda

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// Flip a 32x32 tile through shared memory; the block syncs through its group.
__global__ void flip(float *out, const float *in, int width) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float tile[32][32];
  int col = blockIdx.x * 32 + threadIdx.x;
  for (int r = threadIdx.y; r < 32; r += blockDim.y)
    tile[r][threadIdx.x] = in[(blockIdx.y * 32 + r) * width + col];
  cg::sync(block);
  for (int r = threadIdx.y; r < 32; r += blockDim.y)
    // CHECK: cooperative-groups.cu:[[@LINE+1]]:48: warning: 32-way shared-memory bank conflict on 'tile'
    out[(blockIdx.x * 32 + r) * width + col] = tile[threadIdx.x][r];
}

// A warp-level sum with a tile of 32 and the reduce collective.
__global__ void warpSums(const float *in, float *sums, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = warp.size() / 2; offset > 0; offset /= 2)
    v += warp.shfl_down(v, offset);
  float total = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0)
    sums[i / 32] = total + v * 0.0f;
  block.sync();
}

int main() {
  float *d = nullptr;
  cudaMalloc(&d, 1 << 22);
  flip<<<dim3(32, 32), dim3(32, 8)>>>(d, d, 1024);
  warpSums<<<256, 256>>>(d, d, 1 << 16);
  cudaDeviceSynchronize();
  return 0;
}
