// Reference values for the occupancy calculator: prints, as CSV, what the CUDA
// runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor says on this GPU for
// every combination of
//   - a kernel with a given register count (the kernels below differ in how
//     many values each thread keeps live; the count is cudaFuncGetAttributes'
//     numRegs, and __launch_bounds__ variants cap it),
//   - a block size in {32, 64, 96, 128, 250, 256, 512, 768, 1024},
//   - dynamic shared memory in {0, 16K, 48K, 100K} bytes per block.
// test/Inputs/profiles/occupancy-h200.csv is its output on the H200.
//
//   nvcc -O3 -arch=sm_90 -o occupancy_reference occupancy_reference.cu
//   ./occupancy_reference > occupancy-h200.csv
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                    \
                   cudaGetErrorString(err_));                                                      \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

/// Each thread keeps Live values in registers across a dependent chain, so
/// the register count grows with Live; dynamic shared memory is touched so
/// that the kernel uses it.
template <int Live> __device__ void body(const float *in, float *out) {
  extern __shared__ float dyn[];
  float v[Live];
#pragma unroll
  for (int k = 0; k < Live; ++k)
    v[k] = in[threadIdx.x + k * blockDim.x];
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int k = 0; k < Live; ++k)
      v[k] = v[k] * v[(k + r + 1) % Live] + 1.0f;
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < Live; ++k)
    s += v[k];
  if (s == 123.0f)
    dyn[threadIdx.x] = s;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int Live> __global__ void occ_live(const float *in, float *out) { body<Live>(in, out); }

// The same code with the compiler told to fit 1024 and 256 threads per block:
// it spills rather than exceed 64 and 255 registers per thread.
template <int Live>
__global__ void __launch_bounds__(1024) occ_live_lb1024(const float *in, float *out) {
  body<Live>(in, out);
}
template <int Live>
__global__ void __launch_bounds__(256, 4) occ_live_lb256x4(const float *in, float *out) {
  body<Live>(in, out);
}

struct KernelInfo {
  const char *name;
  const void *func;
};

int main() {
  const KernelInfo kernels[] = {
      {"occ_live<1>", reinterpret_cast<const void *>(&occ_live<1>)},
      {"occ_live<8>", reinterpret_cast<const void *>(&occ_live<8>)},
      {"occ_live<24>", reinterpret_cast<const void *>(&occ_live<24>)},
      {"occ_live<40>", reinterpret_cast<const void *>(&occ_live<40>)},
      {"occ_live<64>", reinterpret_cast<const void *>(&occ_live<64>)},
      {"occ_live<100>", reinterpret_cast<const void *>(&occ_live<100>)},
      {"occ_live<160>", reinterpret_cast<const void *>(&occ_live<160>)},
      {"occ_live<220>", reinterpret_cast<const void *>(&occ_live<220>)},
      {"occ_live_lb1024<100>", reinterpret_cast<const void *>(&occ_live_lb1024<100>)},
      {"occ_live_lb256x4<100>", reinterpret_cast<const void *>(&occ_live_lb256x4<100>)},
  };
  const int blockSizes[] = {32, 64, 96, 128, 250, 256, 512, 768, 1024};
  const int dynamicShared[] = {0, 16 * 1024, 48 * 1024, 100 * 1024};

  int device = 0;
  CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("# %s, compute capability %d.%d, %d SMs, %d threads/SM, %d registers/SM, "
              "%zu B shared/SM, %zu B shared/block (opt-in %zu), %zu B reserved/block\n",
              prop.name, prop.major, prop.minor, prop.multiProcessorCount,
              prop.maxThreadsPerMultiProcessor, prop.regsPerMultiprocessor,
              prop.sharedMemPerMultiprocessor, prop.sharedMemPerBlock, prop.sharedMemPerBlockOptin,
              prop.reservedSharedMemPerBlock);
  std::printf("kernel,registers_per_thread,static_shared_bytes,local_bytes_per_thread,"
              "max_threads_per_block,block_size,dynamic_shared_bytes,active_blocks_per_sm,"
              "active_warps_per_sm,occupancy_pct\n");
  const int warpsPerSM = prop.maxThreadsPerMultiProcessor / prop.warpSize;
  for (const KernelInfo &k : kernels) {
    // Let every kernel use up to 100 KiB of dynamic shared memory.
    CHECK(cudaFuncSetAttribute(k.func, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, k.func));
    for (int block : blockSizes)
      for (int shared : dynamicShared) {
        int blocks = 0;
        cudaError_t err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k.func, block,
                                                                        shared);
        if (err != cudaSuccess) {
          cudaGetLastError();
          blocks = 0;
        }
        int warps = blocks * ((block + prop.warpSize - 1) / prop.warpSize);
        std::printf("%s,%d,%zu,%zu,%d,%d,%d,%d,%d,%.1f\n", k.name, attr.numRegs,
                    attr.sharedSizeBytes, attr.localSizeBytes, attr.maxThreadsPerBlock, block,
                    shared, blocks, warps, 100.0 * warps / warpsPerSM);
      }
  }
  return 0;
}
