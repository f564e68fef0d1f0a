//===- Activity.h - CUPTI activity records as profile lines ----*- C++ -*-===//
//
// Part of the CUPTI collector: turns one CUPTI activity record (CUDA 13.0
// structs: Kernel10, Memcpy6, MemcpyPtoP4, Memset4, Synchronization2, API,
// Device5, Context3, Overhead3, Name) into one line of the native profile
// format (docs/profile-format.md), and counts what it wrote for the end record.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_COLLECTOR_ACTIVITY_H
#define CUDA_ADVISOR_COLLECTOR_ACTIVITY_H

#include <cupti.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace cuda_advisor::collector {

struct ActivityCounters {
  std::atomic<uint64_t> Kernels{0}, Memcpys{0}, Memsets{0}, Syncs{0}, RuntimeCalls{0},
      DriverCalls{0}, Devices{0}, Contexts{0}, Overheads{0}, OverheadNs{0}, Names{0},
      Incomplete{0}, Other{0};
};

/// API names by callback id, without the "_v3020" version and the "_ptsz" /
/// "_ptds" per-thread-stream suffixes ("cudaMemcpy_ptds_v7000" -> "cudaMemcpy").
struct ApiNames {
  std::vector<std::string> Runtime, Driver;
  static std::string canonical(const char *CuptiName);
  void load(bool WithDriver);
};

/// Appends the line for Record to Out and returns true, or returns false for
/// a kind the profile does not keep.
bool appendActivity(const CUpti_Activity *Record, const ApiNames &Names, ActivityCounters &Counters,
                    std::string &Out);

const char *copyKindName(unsigned Kind);
const char *memoryKindName(unsigned Kind);

} // namespace cuda_advisor::collector

#endif
