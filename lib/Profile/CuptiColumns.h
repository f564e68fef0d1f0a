//===- CuptiColumns.h - Columns of CUPTI activity tables (lib/Profile) -*- C++ -*-===//
//
// Nsight Systems exports and nvprof databases both store CUPTI activity
// records in CUPTI_ACTIVITY_KIND_* tables whose common columns have the same
// names: one reading of them for both readers.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_LIB_PROFILE_CUPTICOLUMNS_H
#define CUDA_ADVISOR_LIB_PROFILE_CUPTICOLUMNS_H

#include "Sqlite.h"
#include "cuda-advisor/Profile/Profile.h"

namespace cuda_advisor::profile::sqlite {

/// start, end, deviceId, streamId, correlationId: the columns of a GPU
/// activity (kernel, copy, memset) in both formats.
template <typename Activity> void readActivityColumns(const Row &R, Activity &A) {
  A.Start = R.u64("start");
  A.End = R.u64("end");
  A.Device = R.u32("deviceId");
  A.Stream = R.u32("streamId");
  A.Correlation = R.u64("correlationId");
}

/// The kernel columns of both formats besides its name: the activity
/// columns and the launch configuration.
inline void readKernelColumns(const Row &R, Kernel &K) {
  readActivityColumns(R, K);
  K.Grid = {R.u32("gridX"), R.u32("gridY"), R.u32("gridZ")};
  K.Block = {R.u32("blockX"), R.u32("blockY"), R.u32("blockZ")};
  K.RegistersPerThread = R.u32("registersPerThread");
  K.StaticSharedMem = R.u32("staticSharedMemory");
  K.DynamicSharedMem = R.u32("dynamicSharedMemory");
  K.LocalMemPerThread = R.u32("localMemoryPerThread");
}

} // namespace cuda_advisor::profile::sqlite

#endif
