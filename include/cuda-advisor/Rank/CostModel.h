//===- CostModel.h - Measured cost and estimated saving --------*- C++ -*-===//
//
// For each finding joined to a profile: the time the profile attributes to
// it and the time its fix would save, with one sentence saying how the
// estimate was made. docs/cost-model.md describes every estimate; the
// building blocks are public for the runtime rules and the tests.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_RANK_COSTMODEL_H
#define CUDA_ADVISOR_RANK_COSTMODEL_H

#include "cuda-advisor/Core/Config.h"
#include "cuda-advisor/Core/Finding.h"
#include "cuda-advisor/Core/Units.h"
#include "cuda-advisor/Rank/Join.h"
#include "cuda-advisor/Rank/Timeline.h"

#include <map>
#include <optional>
#include <set>
#include <string>

namespace cuda_advisor::rank {

/// A change to the run whose effect the critical-path model estimates.
struct WhatIf {
  /// Copy calls that become asynchronous copies from pinned memory: the
  /// host spends an asynchronous call's time in them and the copy runs at
  /// the pinned bandwidth.
  std::set<size_t> Pinned;
  /// Calls removed (synchronizations that are not needed).
  std::set<size_t> Removed;
  /// The host's own work (outside API calls) in these intervals moves to a
  /// loader that runs in parallel with the rest (a DataLoader worker that
  /// prefetches the next batch): it hides behind the host's other work and
  /// the GPU's, but a stretch never takes less than the loading itself.
  IntervalSet Prefetched;
};

class CostModel {
public:
  CostModel(const ProfileIndex &Index, const Joiner &Join, const Config &Cfg);

  /// The cost of a static finding given what it matched; nullopt when it
  /// matched nothing.
  std::optional<Cost> estimate(const Finding &F, const Match &M) const;

  /// Whether a measured time is GPU time (kernels, copies on the GPU) or
  /// host time (the host blocked in API calls); only GPU time has a share
  /// of the GPU's busy time.
  enum class Clock { Gpu, Host };
  /// A Cost with the shares filled in.
  Cost make(uint64_t Calls, uint64_t MeasuredNs, uint64_t SavingNs, std::string Method,
            Clock Measured = Clock::Gpu) const;

  /// What copy or memset call I cost the run: its own host time when it
  /// blocks the host, else the GPU time of its work.
  uint64_t transferCost(size_t ApiIndex) const;
  /// The synchronization that the thread of call I makes right after it
  /// (its next CUDA call, when that is a sync): a copy followed by a wait
  /// is how PyTorch copies from pageable memory (cudaMemcpyAsync, then
  /// cudaStreamSynchronize), and the wait is part of that copy's cost.
  std::optional<size_t> syncAfter(size_t ApiIndex) const;
  /// The host time that sync S spends on the work of call I: from the later
  /// of the sync's start and the start of I's GPU work to the sync's end
  /// (the time it waits for earlier work is not I's).
  uint64_t waitFor(size_t ApiIndex, size_t Sync) const;
  /// Bytes per nanosecond of pinned copies in Direction on the device:
  /// measured on this profile's pinned copies of at least 1 MiB, else a
  /// default for the device. Source says which (for the messages).
  double pinnedBandwidth(profile::ProcessIndex Proc, uint32_t Device, profile::CopyKind Direction,
                         std::string *Source = nullptr) const;
  /// The bandwidth a large copy of C's kind reaches in this run: pinned
  /// copies' (pinnedBandwidth), or for pageable ones what the run's pageable
  /// copies of at least 1 MiB in that direction achieved (their bytes over
  /// their cost), falling back to the pinned figure. Copy time beyond the
  /// bytes at this bandwidth is per-copy overhead.
  double referenceBandwidth(const profile::Copy &C) const;
  /// The host time of an asynchronous API call (the median cudaLaunchKernel
  /// of the process), and the time from a launch to its kernel's start on an
  /// idle GPU.
  uint64_t asyncCallNs(profile::ProcessIndex Proc) const;
  uint64_t launchLatencyNs(profile::ProcessIndex Proc) const;
  /// How long a synchronization takes to return once the GPU's work is done
  /// (the median over the process's synchronizations).
  uint64_t syncReturnLatencyNs(profile::ProcessIndex Proc) const;

  /// The critical-path model: how long Region of process Proc would take
  /// with W applied. The region is cut at the calls that make the host wait
  /// for the GPU; within a piece the host and the GPU overlap, and the GPU's
  /// time is the longest of its streams and of its engines (kernels, host-
  /// to-device copies, device-to-host copies).
  uint64_t simulate(profile::ProcessIndex Proc, Interval Region, const WhatIf &W) const;
  /// The time span of the calls and of their GPU work.
  Interval spanOf(llvm::ArrayRef<size_t> Calls) const;
  /// spanOf(Calls), extended to the end of the first later call that makes
  /// the host wait (or to the process's last GPU work): the stretch whose
  /// length changes when the calls stop blocking.
  Interval spanThroughNextWait(profile::ProcessIndex Proc, llvm::ArrayRef<size_t> Calls) const;

  /// The GPU idle time around the return of call I: from the end of the GPU
  /// work before its end (or its start, if later) to the start of the next
  /// GPU work, but no later than the launch latency after the host began its
  /// next call that creates GPU work; less the back-to-back gap that remains
  /// without it.
  uint64_t idleAroundReturn(size_t ApiIndex) const;

  uint64_t kernelTime(llvm::ArrayRef<size_t> Kernels) const;
  const ProfileIndex &index() const { return Index; }

private:
  std::optional<Cost> transferInLoop(const Finding &F, const Match &M) const;
  std::optional<Cost> pageableAsync(const Finding &F, const Match &M) const;
  std::optional<Cost> syncInLoop(const Finding &F, const Match &M) const;
  std::optional<Cost> syncRedundant(const Finding &F, const Match &M) const;
  std::optional<Cost> uncoalesced(const Finding &F, const Match &M) const;
  std::optional<Cost> bankConflict(const Finding &F, const Match &M) const;
  std::optional<Cost> fusion(const Finding &F, const Match &M) const;
  std::optional<Cost> blockSize(const Finding &F, const Match &M) const;
  std::optional<Cost> doublePromotion(const Finding &F, const Match &M) const;
  std::optional<Cost> gridTruncation(const Finding &F, const Match &M) const;
  std::optional<Cost> noEstimate(const Finding &F, const Match &M) const;
  std::optional<Cost> measuredOnly(const Finding &F, const Match &M, std::string Why) const;
  /// Whether call I makes the host wait for earlier GPU work.
  bool waits(size_t ApiIndex) const;

  const ProfileIndex &Index;
  const Joiner &Join;
  const Config &Cfg;
  std::map<profile::ProcessIndex, std::vector<size_t>> CallsByStart; ///< Sorted by start.
  std::map<profile::ProcessIndex, uint64_t> AsyncCall, LaunchLatency, SyncReturn;
  /// (process, device, copy kind) -> bytes and cost of large pageable
  /// copies, and bytes and GPU time of large pinned ones.
  std::map<std::tuple<profile::ProcessIndex, uint32_t, int>, std::pair<uint64_t, uint64_t>>
      LargePageable, LargePinned;
  uint64_t BackToBackGap = 1000;
};

/// "12.5 GB/s" from bytes per nanosecond.
std::string formatBandwidth(double BytesPerNs);

} // namespace cuda_advisor::rank

#endif
