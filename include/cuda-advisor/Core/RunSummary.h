//===- RunSummary.h - What a profile says about the whole run --*- C++ -*-===//
#ifndef CUDA_ADVISOR_CORE_RUNSUMMARY_H
#define CUDA_ADVISOR_CORE_RUNSUMMARY_H

#include <cstdint>
#include <string>
#include <vector>

namespace cuda_advisor {

/// Filled by the Rank layer when profiles were given; printed first by every
/// emitter ("GPU busy 412 ms of 1.2 s; 4 findings could save about 290 ms").
struct RunSummary {
  std::vector<std::string> Profiles; ///< The files read.
  uint64_t WallNs = 0;               ///< Profiled wall time, all processes.
  uint64_t GpuBusyNs = 0;            ///< Union of kernel/copy/memset intervals.
  uint64_t KernelNs = 0, CopyNs = 0, MemsetNs = 0;
  /// nvvp's time share: the union of kernel intervals and the union of copy
  /// and memset intervals, per process and device, summed. With GpuBusyNs
  /// and WallNs they split the run into compute, transfers alone, transfers
  /// under kernels and GPU idle (formatTimeShare).
  uint64_t KernelBusyNs = 0, TransferBusyNs = 0;
  uint64_t Kernels = 0, Copies = 0, ApiCalls = 0;
  unsigned RankedFindings = 0;       ///< Findings matched to the profile.
  uint64_t TotalSavingNs = 0;        ///< Sum of their estimated savings.
  std::vector<std::string> Warnings; ///< E.g. "the run hit a CUDA error".
};

} // namespace cuda_advisor

#endif
