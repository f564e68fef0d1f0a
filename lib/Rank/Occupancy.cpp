//===- Occupancy.cpp - Theoretical occupancy through cuda_occupancy.h -----===//
#include "cuda-advisor/Rank/Occupancy.h"

#include "cuda_occupancy.h"

#include <climits>

namespace cuda_advisor::rank {
namespace {

std::optional<cudaOccDeviceProp> deviceProp(const profile::Device &D) {
  if (D.ComputeMajor < 7 || D.RegistersPerSM <= 0 || D.MaxWarpsPerSM <= 0 || D.SharedMemPerSM == 0)
    return std::nullopt;
  cudaOccDeviceProp P;
  P.computeMajor = D.ComputeMajor;
  P.computeMinor = D.ComputeMinor;
  P.warpSize = D.WarpSize > 0 ? D.WarpSize : 32;
  P.maxThreadsPerBlock = D.MaxThreadsPerBlock > 0 ? D.MaxThreadsPerBlock : 1024;
  P.maxThreadsPerMultiprocessor = D.MaxWarpsPerSM * P.warpSize;
  P.regsPerMultiprocessor = D.RegistersPerSM;
  P.regsPerBlock = D.MaxRegistersPerBlock > 0 ? D.MaxRegistersPerBlock : 65536;
  P.sharedMemPerMultiprocessor = D.SharedMemPerSM;
  P.sharedMemPerBlock = D.SharedMemPerBlock ? D.SharedMemPerBlock : 48 * 1024;
  P.sharedMemPerBlockOptin = D.SharedMemPerBlockOptin ? D.SharedMemPerBlockOptin
                                                      : P.sharedMemPerBlock;
  // The driver reserves 1 KiB of shared memory per block from Ampere (8.0) on;
  // the profile formats do not all record it.
  P.reservedSharedMemPerBlock =
      D.ReservedSharedMemPerBlock ? D.ReservedSharedMemPerBlock : (D.ComputeMajor >= 8 ? 1024 : 0);
  P.numSms = D.NumSMs;
  return P;
}

cudaOccFuncAttributes funcAttributes(const LaunchResources &R) {
  cudaOccFuncAttributes A;
  A.maxThreadsPerBlock = INT_MAX;
  A.numRegs = R.RegistersPerThread;
  A.sharedSizeBytes = R.StaticSharedMem;
  A.partitionedGCConfig = PARTITIONED_GC_OFF;
  // A launch that ran with more than 48 KiB opted in; allowing the opt-in
  // limit never changes the result of one that did not need it.
  A.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  A.maxDynamicSharedSizeBytes = R.DynamicSharedMem;
  A.numBlockBarriers = 1;
  return A;
}

const char *limiterName(int Factors) {
  if (Factors & OCC_LIMIT_REGISTERS)
    return "registers";
  if (Factors & OCC_LIMIT_SHARED_MEMORY)
    return "shared memory";
  if (Factors & OCC_LIMIT_BLOCKS)
    return "blocks per SM";
  if (Factors & OCC_LIMIT_BARRIERS)
    return "barriers";
  if (Factors & OCC_LIMIT_WARPS)
    return "warps";
  return "unknown";
}

} // namespace

std::optional<Occupancy> theoreticalOccupancy(const profile::Device &D, const LaunchResources &R) {
  std::optional<cudaOccDeviceProp> P = deviceProp(D);
  if (!P || R.BlockThreads <= 0)
    return std::nullopt;
  cudaOccFuncAttributes A = funcAttributes(R);
  cudaOccDeviceState State;
  cudaOccResult Result;
  if (cudaOccMaxActiveBlocksPerMultiprocessor(&Result, &*P, &A, &State, R.BlockThreads,
                                              R.DynamicSharedMem) != CUDA_OCC_SUCCESS)
    return std::nullopt;
  Occupancy O;
  O.ActiveBlocksPerSM = Result.activeBlocksPerMultiprocessor;
  int WarpsPerBlock = (R.BlockThreads + P->warpSize - 1) / P->warpSize;
  O.MaxWarpsPerSM = P->maxThreadsPerMultiprocessor / P->warpSize;
  O.ActiveWarpsPerSM = O.ActiveBlocksPerSM * WarpsPerBlock;
  O.Share = O.MaxWarpsPerSM ? static_cast<double>(O.ActiveWarpsPerSM) / O.MaxWarpsPerSM : 0;
  O.Limiter = limiterName(Result.limitingFactors);
  return O;
}

std::optional<int> bestBlockSize(const profile::Device &D, const LaunchResources &R) {
  std::optional<cudaOccDeviceProp> P = deviceProp(D);
  if (!P)
    return std::nullopt;
  cudaOccFuncAttributes A = funcAttributes(R);
  cudaOccDeviceState State;
  int MinGrid = 0, Block = 0;
  if (cudaOccMaxPotentialOccupancyBlockSize(&MinGrid, &Block, &*P, &A, &State,
                                            R.DynamicSharedMem) != CUDA_OCC_SUCCESS ||
      Block <= 0)
    return std::nullopt;
  return Block;
}

} // namespace cuda_advisor::rank
