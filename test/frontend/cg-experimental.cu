// cooperative_groups::experimental (block_tile_memory<TileCommunicationSize,
// MaxBlockSize>, this_thread_block(scratch), tiled_partition of several
// warps), which CUDA 11 and 12 code uses with _CG_ABI_EXPERIMENTAL and CUDA
// 13 no longer has: the file parses with CUDA 13 and without a toolkit, the
// uses are noted by compat-removed-api, and the kernels are analyzed.
//
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-shared-bank-conflict,compat-removed-api' %s -- \
// RUN:   -x cuda -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning: \
// RUN:   --implicit-check-not=compat-removed-api --check-prefixes=CHECK,NOTES
// RUN: %expect-exit 1 %cuda-advisor --device-pass --checks='-*,access-shared-bank-conflict' %s -- \
// RUN:   -x cuda -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,access-shared-bank-conflict' %s -- \
// RUN:   -x cuda -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// REQUIRES: cuda

#define _CG_ABI_EXPERIMENTAL
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// Interleaved addressing: threads 2 * s words apart (positive).
__global__ void sumInterleaved(const float *in, float *out) {
  __shared__ float part[256];
  cg::thread_block block = cg::this_thread_block();
  unsigned t = threadIdx.x;
  part[t] = in[blockIdx.x * blockDim.x + t];
  block.sync();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned k = 2 * s * t;
    if (k < blockDim.x)
      // CHECK: cg-experimental.cu:[[@LINE+1]]:7: warning: at least 2-way shared-memory bank conflict on 'part'
      part[k] += part[k + s];
    block.sync();
  }
  if (t == 0)
    out[blockIdx.x] = part[0];
}

// Sequential addressing and a two-warp tile on experimental scratch (negative).
template <unsigned BlockSize>
__global__ void sumTiles(const float *in, float *out, unsigned n) {
  __shared__ float part[BlockSize / 64];
  // NOTES: cg-experimental.cu:[[@LINE+1]]:14: note: cooperative_groups::experimental::block_tile_memory was removed in CUDA 13.0{{.*}}[compat-removed-api]
  __shared__ cg::experimental::block_tile_memory<sizeof(float), BlockSize> scratch;
  // NOTES: cg-experimental.cu:[[@LINE+1]]:34: note: cooperative_groups::experimental::this_thread_block was removed in CUDA 13.0{{.*}}[compat-removed-api]
  auto block = cg::experimental::this_thread_block(scratch);
  auto pair = cg::experimental::tiled_partition<64>(block);
  unsigned i = blockIdx.x * BlockSize + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = cg::reduce(pair, v, cg::plus<float>());
  if (pair.thread_rank() == 0)
    part[pair.meta_group_rank()] = v;
  cg::sync(block);
  for (unsigned s = BlockSize / 128; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      part[threadIdx.x] += part[threadIdx.x + s];
    cg::sync(block);
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = part[0];
}

void run(const float *in, float *out, unsigned n) {
  sumInterleaved<<<n / 256, 256>>>(in, out);
  sumTiles<256><<<n / 256, 256>>>(in, out, n);
}
