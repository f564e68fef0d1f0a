//===- Occupancy.h - Theoretical occupancy of a launch ---------*- C++ -*-===//
//
// How many blocks of a launch fit on one multiprocessor, given its block
// size, registers per thread and shared memory, and the device's limits:
// NVIDIA's own calculator (third_party/cuda_occupancy/cuda_occupancy.h, the
// same code as cudaOccupancyMaxActiveBlocksPerMultiprocessor), fed by hand
// from the profile's device record, for compute capability 7.0 to 12.x.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_RANK_OCCUPANCY_H
#define CUDA_ADVISOR_RANK_OCCUPANCY_H

#include "cuda-advisor/Profile/Profile.h"

#include <optional>
#include <string>

namespace cuda_advisor::rank {

struct LaunchResources {
  int BlockThreads = 0;
  int RegistersPerThread = 0;
  uint64_t StaticSharedMem = 0;  ///< Per block, bytes.
  uint64_t DynamicSharedMem = 0; ///< Per block, bytes.
};

struct Occupancy {
  int ActiveBlocksPerSM = 0;
  int ActiveWarpsPerSM = 0;
  int MaxWarpsPerSM = 0;
  double Share = 0;    ///< ActiveWarpsPerSM / MaxWarpsPerSM.
  std::string Limiter; ///< "warps", "registers", "shared memory", "blocks per SM"...
};

/// The theoretical occupancy of R on D; nullopt when D lacks the limits the
/// calculator needs or has an unknown compute capability.
std::optional<Occupancy> theoreticalOccupancy(const profile::Device &D, const LaunchResources &R);

/// The block size (a multiple of the warp size) with the highest
/// theoretical occupancy for R's registers and shared memory.
std::optional<int> bestBlockSize(const profile::Device &D, const LaunchResources &R);

} // namespace cuda_advisor::rank

#endif
