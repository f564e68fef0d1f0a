//===- CostModel.cpp - Measured cost and estimated saving, per check ------===//
//
// docs/cost-model.md is the description of every estimate made here; keep
// the two in step.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Rank/CostModel.h"
#include "cuda-advisor/Core/Evidence.h"
#include "cuda-advisor/Core/RuleTable.h"
#include "cuda-advisor/Rank/Occupancy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace llvm;
using namespace cuda_advisor::profile;

namespace cuda_advisor::rank {

//===-- Formatting ---------------------------------------------------------===//

std::string formatBandwidth(double BytesPerNs) {
  return formatTrimmed(BytesPerNs, BytesPerNs < 10 ? 2 : 1) + " GB/s";
}

//===-- Helpers ------------------------------------------------------------===//

namespace {

uint64_t scaled(uint64_t V, double Factor) {
  if (!(Factor > 0))
    return 0;
  return static_cast<uint64_t>(std::llround(static_cast<double>(V) * std::min(Factor, 1.0)));
}

std::string plural(uint64_t N, const char *One, const char *Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many);
}

} // namespace

//===-- The building blocks -------------------------------------------------===//

CostModel::CostModel(const ProfileIndex &Index, const Joiner &Join, const Config &Cfg)
    : Index(Index), Join(Join), Cfg(Cfg) {
  const Profile &P = Index.profile();
  std::map<ProcessIndex, std::vector<uint64_t>> Launches, Latencies;
  for (size_t I = 0; I < P.ApiCalls.size(); ++I) {
    const ApiCall &A = P.ApiCalls[I];
    CallsByStart[A.Process].push_back(I);
    if (apiFamily(A.Name) != "launch")
      continue;
    Launches[A.Process].push_back(A.duration());
    for (WorkRef W : Index.workOf(I)) {
      Interval K = Index.interval(W);
      // Only launches to an idle GPU show the latency; queued ones wait.
      if (K.Start > A.Start && Index.busy(A.Process).covered({A.Start, K.Start}) == 0)
        Latencies[A.Process].push_back(K.Start - A.Start);
    }
  }
  for (const Copy &C : P.Copies)
    if ((C.Src == MemoryKind::Pinned || C.Dst == MemoryKind::Pinned) && C.Bytes >= (1u << 20)) {
      auto &[Bytes, Ns] = LargePinned[{C.Process, C.Device, static_cast<int>(C.Kind)}];
      Bytes += C.Bytes;
      Ns += C.duration();
    }
  for (size_t I = 0; I < P.ApiCalls.size(); ++I)
    for (WorkRef W : Index.workOf(I)) {
      if (W.Kind != WorkKind::Copy)
        continue;
      const Copy &C = P.Copies[W.Index];
      if (C.Bytes < (1u << 20) || (C.Src != MemoryKind::Pageable && C.Dst != MemoryKind::Pageable))
        continue;
      auto &[Bytes, Ns] = LargePageable[{C.Process, C.Device, static_cast<int>(C.Kind)}];
      Bytes += C.Bytes;
      Ns += transferCost(I);
    }
  for (auto &[Proc, Calls] : CallsByStart)
    llvm::sort(Calls, [&](size_t X, size_t Y) {
      return P.ApiCalls[X].Start < P.ApiCalls[Y].Start;
    });
  for (auto &[Proc, V] : Launches)
    AsyncCall[Proc] = median(std::move(V), 5000);
  // How long a synchronization takes to return once the GPU is done: over
  // the syncs during which work ended.
  std::map<ProcessIndex, std::vector<uint64_t>> Returns;
  for (const ApiCall &A : P.ApiCalls) {
    if (apiFamily(A.Name) != "sync")
      continue;
    std::optional<uint64_t> Last = Index.busy(A.Process).lastBusyBefore(A.End);
    if (Last && *Last > A.Start && *Last <= A.End)
      Returns[A.Process].push_back(A.End - *Last);
  }
  for (auto &[Proc, V] : Returns)
    SyncReturn[Proc] = median(std::move(V), 2000);
  for (auto &[Proc, V] : Latencies)
    LaunchLatency[Proc] = std::clamp<uint64_t>(median(std::move(V), 5000), 1000, 50000);

  // The gap between two kernels of a stream when the second was queued
  // before the first ended: what remains between back-to-back work.
  std::vector<uint64_t> Gaps;
  std::map<std::tuple<ProcessIndex, uint32_t, uint32_t>, std::vector<size_t>> ByStream;
  for (size_t I = 0; I < P.Kernels.size(); ++I)
    ByStream[{P.Kernels[I].Process, P.Kernels[I].Device, P.Kernels[I].Stream}].push_back(I);
  for (auto &[Key, Ks] : ByStream) {
    llvm::sort(Ks, [&](size_t X, size_t Y) { return P.Kernels[X].Start < P.Kernels[Y].Start; });
    for (size_t J = 1; J < Ks.size(); ++J) {
      const Kernel &Prev = P.Kernels[Ks[J - 1]], &Next = P.Kernels[Ks[J]];
      std::optional<size_t> L = Index.launcher(WorkRef{WorkKind::Kernel, Ks[J]});
      if (L && P.ApiCalls[*L].End < Prev.End && Next.Start >= Prev.End)
        Gaps.push_back(Next.Start - Prev.End);
    }
  }
  BackToBackGap = median(std::move(Gaps), 1000);
}

Cost CostModel::make(uint64_t Calls, uint64_t MeasuredNs, uint64_t SavingNs, std::string Method,
                     Clock Measured) const {
  Cost C;
  C.Matched = true;
  C.Calls = Calls;
  C.MeasuredNs = MeasuredNs;
  C.SavingNs = SavingNs;
  if (Measured == Clock::Gpu && Index.gpuBusyNs())
    C.GpuShare = static_cast<double>(MeasuredNs) / static_cast<double>(Index.gpuBusyNs());
  if (Index.wallNs())
    C.WallShare = static_cast<double>(MeasuredNs) / static_cast<double>(Index.wallNs());
  C.Method = std::move(Method);
  return C;
}

uint64_t CostModel::transferCost(size_t I) const {
  if (Index.blocks(I))
    return Index.ownHostTime(I);
  uint64_t Sum = 0;
  for (WorkRef W : Index.workOf(I))
    Sum += Index.interval(W).length();
  return Sum;
}

std::optional<size_t> CostModel::syncAfter(size_t I) const {
  const Profile &P = Index.profile();
  const ApiCall &A = P.ApiCalls[I];
  auto It = CallsByStart.find(A.Process);
  if (It == CallsByStart.end())
    return std::nullopt;
  const std::vector<size_t> &Calls = It->second;
  auto Next = std::upper_bound(Calls.begin(), Calls.end(), A.Start, [&](uint64_t T, size_t C) {
    return T < P.ApiCalls[C].Start;
  });
  for (; Next != Calls.end(); ++Next) {
    const ApiCall &B = P.ApiCalls[*Next];
    if (B.Thread != A.Thread || *Next == I)
      continue;
    if (B.Start < A.End)
      continue; // A call the runtime made inside this one.
    // cudaStreamWaitEvent orders streams; the host does not wait in it.
    if (apiFamily(B.Name) == "sync" && !StringRef(B.Name).starts_with("cudaStreamWaitEvent"))
      return *Next;
    return std::nullopt;
  }
  return std::nullopt;
}

uint64_t CostModel::waitFor(size_t I, size_t Sync) const {
  const ApiCall &S = Index.profile().ApiCalls[Sync];
  uint64_t From = S.Start;
  ArrayRef<WorkRef> Work = Index.workOf(I);
  if (!Work.empty()) {
    uint64_t WorkStart = UINT64_MAX;
    for (WorkRef W : Work)
      WorkStart = std::min(WorkStart, Index.interval(W).Start);
    From = std::max(From, WorkStart);
  }
  return S.End > From ? S.End - From : 0;
}

double CostModel::pinnedBandwidth(ProcessIndex Proc, uint32_t Device, CopyKind Direction,
                                  std::string *Source) const {
  uint64_t Bytes = 0, Ns = 0;
  auto It = LargePinned.find({Proc, Device, static_cast<int>(Direction)});
  if (It != LargePinned.end())
    std::tie(Bytes, Ns) = It->second;
  if (Ns > 0) {
    double BW = static_cast<double>(Bytes) / static_cast<double>(Ns);
    if (Source)
      *Source = formatBandwidth(BW) + " measured on this run's pinned copies";
    return BW;
  }
  // Defaults: what a PCIe x16 link gives pinned copies (docs/cost-model.md).
  const profile::Device *D = Index.deviceOf(Proc, Device);
  double BW = D && D->ComputeMajor >= 9 ? 50.0 : 25.0;
  if (Source)
    *Source = formatBandwidth(BW) + (D && D->ComputeMajor >= 9 ? " (default for PCIe 5.0)"
                                                               : " (default for PCIe 4.0)");
  return BW;
}

double CostModel::referenceBandwidth(const Copy &C) const {
  if (C.Src == MemoryKind::Pageable || C.Dst == MemoryKind::Pageable) {
    auto It = LargePageable.find({C.Process, C.Device, static_cast<int>(C.Kind)});
    if (It != LargePageable.end() && It->second.second > 0)
      return static_cast<double>(It->second.first) / static_cast<double>(It->second.second);
  }
  return pinnedBandwidth(C.Process, C.Device, C.Kind);
}

uint64_t CostModel::asyncCallNs(ProcessIndex Proc) const {
  auto It = AsyncCall.find(Proc);
  return It == AsyncCall.end() ? 5000 : It->second;
}

uint64_t CostModel::syncReturnLatencyNs(ProcessIndex Proc) const {
  auto It = SyncReturn.find(Proc);
  return It == SyncReturn.end() ? 2000 : It->second;
}

uint64_t CostModel::launchLatencyNs(ProcessIndex Proc) const {
  auto It = LaunchLatency.find(Proc);
  return It == LaunchLatency.end() ? 5000 : It->second;
}

bool CostModel::waits(size_t I) const {
  const ApiCall &A = Index.profile().ApiCalls[I];
  StringRef F = apiFamily(A.Name);
  return F == "sync" || F == "free" || Index.blocks(I);
}

Interval CostModel::spanOf(ArrayRef<size_t> Calls) const {
  const Profile &P = Index.profile();
  Interval S{UINT64_MAX, 0};
  for (size_t I : Calls) {
    S.Start = std::min(S.Start, P.ApiCalls[I].Start);
    S.End = std::max(S.End, P.ApiCalls[I].End);
    for (WorkRef W : Index.workOf(I))
      S.End = std::max(S.End, Index.interval(W).End);
  }
  return S.Start == UINT64_MAX ? Interval{} : S;
}

Interval CostModel::spanThroughNextWait(ProcessIndex Proc, ArrayRef<size_t> Calls) const {
  Interval S = spanOf(Calls);
  if (Calls.empty())
    return S;
  const Profile &P = Index.profile();
  uint64_t LastEnd = 0;
  for (size_t I : Calls)
    LastEnd = std::max(LastEnd, P.ApiCalls[I].End);
  std::set<size_t> Own(Calls.begin(), Calls.end());
  auto It = CallsByStart.find(Proc);
  if (It != CallsByStart.end())
    for (size_t I : It->second)
      if (P.ApiCalls[I].Start >= LastEnd && !Own.count(I) && waits(I)) {
        S.End = std::max(S.End, P.ApiCalls[I].End);
        return S;
      }
  const IntervalSet &B = Index.busy(Proc);
  if (!B.empty())
    S.End = std::max(S.End, B.intervals().back().End);
  return S;
}

namespace {
/// One stretch of the run between two calls that make the host wait.
struct Piece {
  uint64_t Host = 0;
  uint64_t Loader = 0; ///< Host work moved to a parallel loader (WhatIf::Prefetched).
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> Streams; // (device, stream)
  uint64_t Compute = 0, HtoD = 0, DtoH = 0;
  uint64_t gpu() const {
    uint64_t G = std::max({Compute, HtoD, DtoH});
    for (auto &[K, V] : Streams)
      G = std::max(G, V);
    return G;
  }
};
} // namespace

uint64_t CostModel::simulate(ProcessIndex Proc, Interval Region, const WhatIf &W) const {
  auto It = CallsByStart.find(Proc);
  if (It == CallsByStart.end() || Region.length() == 0)
    return Region.length();
  const Profile &P = Index.profile();
  uint64_t Latency = launchLatencyNs(Proc), Async = asyncCallNs(Proc);
  uint64_t Total = 0, Cursor = Region.Start;
  Piece Cur;
  auto AddWork = [&](WorkRef R, uint64_t Duration) {
    uint32_t Stream = 0;
    CopyKind Kind = CopyKind::Unknown;
    if (R.Kind == WorkKind::Kernel)
      Stream = P.Kernels[R.Index].Stream;
    else if (R.Kind == WorkKind::Memset)
      Stream = P.Memsets[R.Index].Stream;
    else {
      Stream = P.Copies[R.Index].Stream;
      Kind = P.Copies[R.Index].Kind;
    }
    Cur.Streams[{Index.device(R), Stream}] += Duration;
    if (Kind == CopyKind::HtoD)
      Cur.HtoD += Duration;
    else if (Kind == CopyKind::DtoH)
      Cur.DtoH += Duration;
    else
      Cur.Compute += Duration;
  };
  auto Close = [&](uint64_t BoundaryOwn) {
    uint64_t G = Cur.gpu();
    Total += std::max({Cur.Host, Cur.Loader, G ? G + Latency : 0}) + BoundaryOwn;
    Cur = Piece();
  };
  // The host's own work between calls, less what a loader does in parallel.
  auto OwnWork = [&](Interval Between) {
    uint64_t Loading = W.Prefetched.covered(Between);
    Cur.Host += Between.length() - Loading;
    Cur.Loader += Loading;
  };
  for (size_t I : It->second) {
    const ApiCall &A = P.ApiCalls[I];
    if (A.Start < Region.Start)
      continue;
    if (A.Start >= Region.End)
      break;
    if (A.Start > Cursor)
      OwnWork({Cursor, A.Start});
    Cursor = std::max(Cursor, A.End);
    if (W.Removed.count(I))
      continue;
    if (W.Pinned.count(I)) {
      Cur.Host += std::min(Async, A.duration());
      for (WorkRef R : Index.workOf(I)) {
        if (R.Kind != WorkKind::Copy) {
          AddWork(R, Index.interval(R).length());
          continue;
        }
        const Copy &C = P.Copies[R.Index];
        double BW = pinnedBandwidth(Proc, C.Device, C.Kind);
        AddWork(R, std::min<uint64_t>(C.duration(), static_cast<uint64_t>(
                                                        static_cast<double>(C.Bytes) / BW)));
      }
      continue;
    }
    if (waits(I)) {
      Close(Index.ownHostTime(I));
      continue;
    }
    Cur.Host += A.duration();
    for (WorkRef R : Index.workOf(I))
      AddWork(R, Index.interval(R).length());
  }
  if (Region.End > Cursor)
    OwnWork({Cursor, Region.End});
  Close(0);
  return Total;
}

uint64_t CostModel::idleAroundReturn(size_t I) const {
  const ApiCall &A = Index.profile().ApiCalls[I];
  const IntervalSet &B = Index.busy(A.Process);
  std::optional<uint64_t> Last = B.lastBusyBefore(A.End), Next = B.nextBusy(A.End);
  if (!Last || !Next || *Next <= A.End)
    return 0;
  uint64_t From = std::max(*Last, A.Start), To = *Next;
  // Time the host spends inside its next call before the work reaches the
  // GPU (staging a pageable copy, say) is that call's, not this one's.
  const std::vector<size_t> &Calls = CallsByStart.at(A.Process);
  auto It = std::lower_bound(Calls.begin(), Calls.end(), A.End, [&](size_t C, uint64_t T) {
    return Index.profile().ApiCalls[C].Start < T;
  });
  for (; It != Calls.end(); ++It)
    if (!Index.workOf(*It).empty()) {
      To = std::min(To, Index.profile().ApiCalls[*It].Start + launchLatencyNs(A.Process));
      break;
    }
  if (To <= From)
    return 0;
  uint64_t Gap = To - From;
  return Gap > BackToBackGap ? Gap - BackToBackGap : 0;
}

uint64_t CostModel::kernelTime(ArrayRef<size_t> Kernels) const {
  uint64_t Sum = 0;
  for (size_t I : Kernels)
    Sum += Index.profile().Kernels[I].duration();
  return Sum;
}

//===-- Per check ------------------------------------------------------------===//

std::optional<Cost> CostModel::measuredOnly(const Finding &F, const Match &M,
                                            std::string Why) const {
  uint64_t Measured = kernelTime(M.Kernels), Calls = M.Kernels.size();
  if (M.Kernels.empty()) {
    Calls = M.Calls.size();
    for (size_t I : M.Calls)
      Measured += Index.profile().ApiCalls[I].duration();
  }
  if (Calls == 0)
    return std::nullopt;
  return make(Calls, Measured, 0, std::move(Why), M.Kernels.empty() ? Clock::Host : Clock::Gpu);
}

std::optional<Cost> CostModel::transferInLoop(const Finding &F, const Match &M) const {
  const Profile &P = Index.profile();
  // The copies, memsets, allocations and frees (Rules.def's families).
  std::vector<StringRef> Families = apiFamilies(F.CheckId);
  std::vector<size_t> Calls;
  for (size_t I : M.Calls)
    if (is_contained(Families, apiFamily(P.ApiCalls[I].Name)))
      Calls.push_back(I);
  if (Calls.empty())
    return std::nullopt;
  uint64_t N = Calls.size(), Measured = 0;
  bool Transfers = false, Blocking = false;
  std::vector<uint64_t> Costs;
  for (size_t I : Calls) {
    StringRef Fam = apiFamily(P.ApiCalls[I].Name);
    bool IsTransfer = Fam == "copy" || Fam == "memset";
    Transfers |= IsTransfer;
    Costs.push_back(IsTransfer ? transferCost(I) : P.ApiCalls[I].duration());
    Measured += Costs.back();
    Blocking |= !IsTransfer || Index.blocks(I);
  }
  Clock On = Blocking ? Clock::Host : Clock::Gpu;
  // One call stays: the costliest is counted as the one kept (the first
  // call of a process also pays for CUDA's lazy initialization).
  uint64_t AllButOne = Measured - *std::max_element(Costs.begin(), Costs.end());
  if (!Transfers)
    return make(N, Measured, AllButOne,
                formatv("allocating once before the loop instead of {0} times saves the other "
                        "{1} allocations' measured time (the costliest one is kept)",
                        N, N - 1),
                On);
  if (F.Keys.CallSites.size() == 1 && getEvidence(F, evidence::LoopInvariant).value_or(false))
    return make(N, Measured, AllButOne,
                formatv("the copy moves the same data on every iteration: doing it once instead "
                        "of {0} times saves the other {1} copies' measured time (the costliest "
                        "one is kept)",
                        N, N - 1),
                On);
  // The data changes from one iteration to the next: only the per-copy
  // overhead goes away when the copies are batched into one.
  uint64_t Overhead = 0, MinOverhead = UINT64_MAX;
  for (size_t I : Calls) {
    uint64_t Cost = transferCost(I), Moving = 0;
    for (WorkRef W : Index.workOf(I))
      if (W.Kind == WorkKind::Copy) {
        const Copy &C = P.Copies[W.Index];
        Moving += static_cast<uint64_t>(static_cast<double>(C.Bytes) / referenceBandwidth(C));
      }
    uint64_t Over = Cost > Moving ? Cost - Moving : 0;
    Overhead += Over;
    MinOverhead = std::min(MinOverhead, Over);
  }
  uint64_t Saving = Overhead > MinOverhead ? Overhead - MinOverhead : 0;
  return make(N, Measured, Saving,
              formatv("the data may change between iterations, so only batching helps: one "
                      "transfer instead of {0} saves their per-copy overhead (measured time "
                      "minus the bytes at the copies' bandwidth)",
                      N),
              On);
}

std::optional<Cost> CostModel::pageableAsync(const Finding &F, const Match &M) const {
  const Profile &P = Index.profile();
  std::map<ProcessIndex, std::vector<size_t>> Pageable;
  uint64_t Measured = 0;
  std::string Source;
  for (size_t I : M.Calls) {
    bool IsPageable = false;
    for (WorkRef W : Index.workOf(I))
      if (W.Kind == WorkKind::Copy) {
        const Copy &C = P.Copies[W.Index];
        if (C.Src == MemoryKind::Pageable || C.Dst == MemoryKind::Pageable) {
          IsPageable = true;
          if (Source.empty())
            pinnedBandwidth(C.Process, C.Device, C.Kind, &Source);
        }
      }
    if (!IsPageable)
      continue;
    Pageable[P.ApiCalls[I].Process].push_back(I);
    Measured += Index.ownHostTime(I);
  }
  if (Pageable.empty())
    return measuredOnly(F, M, "the copies at this call site used pinned memory in this run");
  uint64_t Saving = 0, Before = 0, After = 0, N = 0;
  for (auto &[Proc, Calls] : Pageable) {
    Interval Region = spanThroughNextWait(Proc, Calls);
    WhatIf W;
    W.Pinned.insert(Calls.begin(), Calls.end());
    uint64_t Fixed = simulate(Proc, Region, W);
    Before += Region.length();
    After += std::min(Fixed, Region.length());
    N += Calls.size();
  }
  Saving = Before - After;
  return make(N, Measured, Saving,
              formatv("from pinned memory the {0} become asynchronous at {1}; the critical-path "
                      "model of the {2} they span gives {3} instead",
                      plural(N, "copy", "copies"), Source, formatDuration(Before),
                      formatDuration(After)),
              Clock::Host);
}

std::optional<Cost> CostModel::syncInLoop(const Finding &F, const Match &M) const {
  const Profile &P = Index.profile();
  std::map<ProcessIndex, std::vector<size_t>> Syncs;
  uint64_t Measured = 0, N = 0;
  for (size_t I : M.Calls) {
    Syncs[P.ApiCalls[I].Process].push_back(I);
    Measured += P.ApiCalls[I].duration();
    ++N;
  }
  if (Syncs.empty())
    return std::nullopt;
  uint64_t Before = 0, After = 0;
  for (auto &[Proc, Calls] : Syncs) {
    Interval Region = spanOf(Calls);
    // The loop's first iteration starts one period before the first sync.
    if (Calls.size() > 1)
      Region.Start -= std::min(Region.Start, Region.length() / (Calls.size() - 1));
    WhatIf W;
    W.Removed.insert(Calls.begin(), Calls.end());
    Before += Region.length();
    After += std::min(Region.length(), simulate(Proc, Region, W));
  }
  return make(N, Measured, Before - After,
              formatv("without the {0} the host queues the loop's work ahead of the GPU; the "
                      "critical-path model of the loop ({1}) gives {2}",
                      plural(N, "synchronization", "synchronizations"), formatDuration(Before),
                      formatDuration(After)),
              Clock::Host);
}

std::optional<Cost> CostModel::syncRedundant(const Finding &F, const Match &M) const {
  if (M.Calls.empty())
    return std::nullopt;
  // The operation after the sync waits for the same work itself, and pays
  // the same notification latency when it does: what goes is the sync's own
  // time beyond the wait and that latency.
  const Profile &P = Index.profile();
  uint64_t Measured = 0, Saving = 0;
  for (size_t I : M.Calls) {
    const ApiCall &A = P.ApiCalls[I];
    Measured += A.duration();
    uint64_t Idle = Index.busy(A.Process).uncovered({A.Start, A.End});
    uint64_t Latency = syncReturnLatencyNs(A.Process);
    Saving += Idle > Latency ? Idle - Latency : 0;
  }
  return make(M.Calls.size(), Measured, Saving,
              formatv("the operation after it waits for the same work anyway, and pays the same "
                      "{0} to learn that the GPU is done: the {1} save only their time beyond "
                      "the wait and that latency",
                      formatDuration(syncReturnLatencyNs(P.ApiCalls[M.Calls.front()].Process)),
                      plural(M.Calls.size(), "synchronization", "synchronizations")),
              Clock::Host);
}

std::optional<Cost> CostModel::uncoalesced(const Finding &F, const Match &M) const {
  if (M.Kernels.empty())
    return std::nullopt;
  uint64_t T = kernelTime(M.Kernels);
  const Profile &P = Index.profile();
  // Nsight Compute measured the sectors: the excess ones are the waste.
  double Sectors = 0, Excess = 0;
  for (size_t I : M.Metrics) {
    const KernelMetrics &K = P.Metrics[I];
    auto Get = [&](const char *Name) -> double {
      auto It = K.Values.find(Name);
      return It == K.Values.end() ? -1 : It->second;
    };
    double Ld = Get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
    double St = Get("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
    if (Ld < 0 || St < 0 || !K.GlobalLoadEfficiencyPct || !K.GlobalStoreEfficiencyPct)
      continue;
    Sectors += Ld + St;
    Excess += Ld * (1 - *K.GlobalLoadEfficiencyPct / 100) +
              St * (1 - *K.GlobalStoreEfficiencyPct / 100);
  }
  if (Sectors > 0) {
    double Share = Excess / Sectors;
    return make(M.Kernels.size(), T, scaled(T, Share),
                formatv("Nsight Compute measured {0}% of the kernel's global sectors as unused "
                        "bytes; a coalesced access pattern saves that share of its time",
                        static_cast<int>(std::lround(Share * 100))));
  }
  std::optional<double> Used = getEvidence(F, evidence::SectorUseFraction);
  if (!Used || *Used <= 0 || *Used >= 1)
    return measuredOnly(F, M, "the access's sector use is not known, so no saving is estimated");
  double Accesses =
      std::max(1.0, static_cast<double>(getEvidence(F, evidence::GlobalAccesses).value_or(2)));
  // The finding's accesses at distinct addresses (one buffer, one stride).
  double Strided = std::clamp(
      static_cast<double>(getEvidence(F, evidence::StridedAccesses).value_or(1)), 1.0, Accesses);
  // Sectors moved: each of these accesses 1/Used of its ideal, each other
  // access its ideal; the waste is their excess over the whole.
  double Waste = Strided * (1 / *Used - 1);
  double Share = Waste / (Accesses + Waste);
  return make(M.Kernels.size(), T, scaled(T, Share),
              formatv("the access uses {0}% of each 32-byte sector it moves; with {1} global "
                      "accesses in the kernel, its excess sectors are {2}% of the kernel's "
                      "traffic, the share of time a coalesced access saves if the kernel is "
                      "memory-bound",
                      static_cast<int>(std::lround(*Used * 100)), static_cast<int>(Accesses),
                      static_cast<int>(std::lround(Share * 100))));
}

std::optional<Cost> CostModel::bankConflict(const Finding &F, const Match &M) const {
  if (M.Kernels.empty())
    return std::nullopt;
  uint64_t T = kernelTime(M.Kernels);
  const Profile &P = Index.profile();
  // Wavefronts per request; without the request counts, the ideal
  // wavefronts are the wavefronts less the conflicts (each conflict replays
  // one wavefront).
  double Waves = 0, Requests = 0;
  auto Add = [&](const std::optional<double> &W, const std::optional<double> &R,
                 const std::optional<double> &Conflicts) {
    if (!W)
      return;
    if (R) {
      Waves += *W;
      Requests += *R;
    } else if (Conflicts && *W > *Conflicts) {
      Waves += *W;
      Requests += *W - *Conflicts;
    }
  };
  // The finding is about a load or a store: only those count.
  std::string Kind = getEvidence(F, evidence::Access).value_or("");
  for (size_t I : M.Metrics) {
    const KernelMetrics &K = P.Metrics[I];
    if (Kind != "store")
      Add(K.SharedWavefrontsLoad, K.SharedRequestsLoad, K.SharedBankConflictsLoad);
    if (Kind != "load")
      Add(K.SharedWavefrontsStore, K.SharedRequestsStore, K.SharedBankConflictsStore);
  }
  std::optional<double> Degree;
  if (std::optional<int64_t> Static = getEvidence(F, evidence::ConflictDegree))
    Degree = static_cast<double>(*Static);
  std::string From = "the static conflict degree";
  if (Requests > 0 && Waves >= Requests) {
    Degree = Waves / Requests;
    From = "Nsight Compute's shared-memory wavefronts per ideal wavefront";
  }
  if (!Degree || *Degree <= 1)
    return measuredOnly(F, M, "the conflict degree is not known, so no saving is estimated");
  double SharedPart =
      std::clamp(doubleOption(Cfg.Options, "access-shared-bank-conflict", "SharedTimeShare"), 0.0,
                 1.0);
  double Share = SharedPart * (*Degree - 1) / *Degree;
  return make(M.Kernels.size(), T, scaled(T, Share),
              formatv("{0} is {1}: padding removes {2}% of the shared-memory accesses' "
                      "replays, counted on the {3}% of the kernel's time assumed to be "
                      "shared-memory bound",
                      From, formatv("{0:f1}", *Degree).str(),
                      static_cast<int>(std::lround((*Degree - 1) / *Degree * 100)),
                      static_cast<int>(std::lround(SharedPart * 100))));
}

std::optional<Cost> CostModel::fusion(const Finding &F, const Match &M) const {
  if (M.Kernels.empty())
    return std::nullopt;
  const Profile &P = Index.profile();
  // Which of the chain's kernels ran, and the gaps between consecutive ones.
  std::set<std::string> Distinct;
  for (size_t I : M.Kernels)
    Distinct.insert(kernelKey(P.Kernels[I].Demangled.empty() ? P.Kernels[I].Name
                                                             : P.Kernels[I].Demangled));
  uint64_t K = Distinct.size();
  if (K < 2)
    return measuredOnly(F, M, "only one kernel of the chain ran");
  // The chain's order is the order of the finding's kernels; only the gap
  // from one kernel of the chain to the next goes (the one between passes
  // stays before the fused kernel).
  std::map<std::string, size_t> Position;
  for (size_t I = 0; I < F.Keys.Kernels.size(); ++I)
    Position.try_emplace(kernelKey(F.Keys.Kernels[I]), I);
  auto PositionOf = [&](const Kernel &K) -> std::optional<size_t> {
    auto It = Position.find(kernelKey(K.Demangled.empty() ? K.Name : K.Demangled));
    return It == Position.end() ? std::nullopt : std::optional<size_t>(It->second);
  };
  std::vector<size_t> Order(M.Kernels);
  llvm::sort(Order, [&](size_t A, size_t B) {
    const Kernel &X = P.Kernels[A], &Y = P.Kernels[B];
    return std::tie(X.Process, X.Device, X.Stream, X.Start) <
           std::tie(Y.Process, Y.Device, Y.Stream, Y.Start);
  });
  uint64_t Gaps = 0;
  constexpr uint64_t MaxLaunchGap = 100000; // Longer: the host did other work between.
  for (size_t J = 1; J < Order.size(); ++J) {
    const Kernel &A = P.Kernels[Order[J - 1]], &B = P.Kernels[Order[J]];
    std::optional<size_t> PA = PositionOf(A), PB = PositionOf(B);
    if (A.Process == B.Process && A.Device == B.Device && A.Stream == B.Stream && PA && PB &&
        *PB == *PA + 1 && B.Start >= A.End && B.Start - A.End < MaxLaunchGap)
      Gaps += B.Start - A.End;
  }
  uint64_t T = kernelTime(M.Kernels);
  double Share = static_cast<double>(K - 1) / static_cast<double>(K);
  uint64_t Traffic = scaled(T, Share);
  return make(M.Kernels.size(), T, Traffic + Gaps,
              formatv("one kernel instead of {0} keeps the {1} intermediate buffers in "
                      "registers: each element-wise kernel reads and writes memory, so {2}/{0} of "
                      "their time goes, plus the {3} of gaps between them",
                      K, K - 1, K - 1, formatDuration(Gaps)));
}

std::optional<Cost> CostModel::blockSize(const Finding &F, const Match &M) const {
  if (M.Kernels.empty())
    return std::nullopt;
  const Profile &P = Index.profile();
  uint64_t T = kernelTime(M.Kernels);
  const Kernel &K0 = P.Kernels[M.Kernels.front()];
  uint64_t Threads = static_cast<uint64_t>(K0.Block[0]) * K0.Block[1] * K0.Block[2];
  if (Threads == 0)
    Threads = static_cast<uint64_t>(getEvidence(F, evidence::Threads).value_or(0));
  uint32_t BlockX = K0.Block[0] ? K0.Block[0]
                                : static_cast<uint32_t>(getEvidence(F, evidence::BlockX).value_or(0));
  if (Threads == 0)
    return measuredOnly(F, M, "the block size is not known");
  const Device *D = Index.deviceOf(K0.Process, K0.Device);
  LaunchResources R{static_cast<int>(Threads), static_cast<int>(K0.RegistersPerThread),
                    K0.StaticSharedMem, K0.DynamicSharedMem};
  // Rows of threads that repeat the first row's work (the kernel never
  // reads threadIdx.y/z): all but one row's work goes.
  if (std::optional<int64_t> Rows = getEvidence(F, evidence::RepeatFactor); Rows && *Rows > 1) {
    double Repeat = static_cast<double>(*Rows);
    double Share = (Repeat - 1) / Repeat;
    return make(M.Kernels.size(), T, scaled(T, Share),
                formatv("{0} of every {1} threads repeat the same elements' work: an upper "
                        "bound of that share of the kernel's time, if the kernel's work "
                        "scales with its threads",
                        static_cast<int>(Repeat) - 1, static_cast<int>(Repeat)));
  }
  if (Threads % 32 != 0) {
    uint64_t Up = (Threads + 31) / 32 * 32;
    double Idle = static_cast<double>(Up - Threads) / static_cast<double>(Up);
    return make(M.Kernels.size(), T, scaled(T, Idle),
                formatv("{0} of the {1} lanes of each block's warps do nothing: at most that "
                        "share ({2}%) of the time, if the kernel is bound by its warps' issue",
                        Up - Threads, Up, formatv("{0:f1}", Idle * 100).str()));
  }
  if ((hasEvidence(F, evidence::BlockY) || K0.Block[1] > 1) && BlockX > 0 && BlockX < 32) {
    // Each warp covers 32 / blockDim.x row pieces of blockDim.x 4-byte
    // elements instead of one row of 128 bytes. Sectors per piece: half the
    // accesses are assumed to start on a sector boundary and half anywhere
    // (a stencil's neighbours, offsets), as nothing else is known here.
    auto Sectors = [](uint64_t Bytes) {
      double Aligned = static_cast<double>((Bytes + 31) / 32), Anywhere = 0;
      for (uint64_t Offset = 0; Offset < 32; Offset += 4)
        Anywhere += static_cast<double>((Offset + Bytes + 31) / 32);
      return 0.5 * Aligned + 0.5 * Anywhere / 8;
    };
    uint64_t Rows = 32 / BlockX;
    double Now = static_cast<double>(Rows) * Sectors(BlockX * 4), Ideal = Sectors(128);
    double Share = Now > Ideal ? 1 - Ideal / Now : 0;
    return make(M.Kernels.size(), T, scaled(T, Share),
                formatv("each warp reads {0} row pieces of {1} bytes, {2} sectors on average "
                        "where a row of 128 bytes takes {3}: a memory-bound kernel saves {4}% "
                        "with blockDim.x = 32",
                        Rows, BlockX * 4, formatv("{0:f2}", Now).str(),
                        formatv("{0:f2}", Ideal).str(),
                        static_cast<int>(std::lround(Share * 100))));
  }
  if (D) {
    std::optional<Occupancy> Now = theoreticalOccupancy(*D, R);
    LaunchResources Better = R;
    int64_t MinThreads = intOption(Cfg.Options, "launch-block-size", "MinThreads");
    Better.BlockThreads = static_cast<int>(std::max(MinThreads, static_cast<int64_t>(Threads)));
    if (std::optional<int> Best = bestBlockSize(*D, R))
      Better.BlockThreads = std::max(Better.BlockThreads, *Best);
    std::optional<Occupancy> Then = theoreticalOccupancy(*D, Better);
    if (Now && Then && Then->Share > Now->Share) {
      double Share = 0.5 * (1 - Now->Share / Then->Share);
      return make(M.Kernels.size(), T, scaled(T, Share),
                  formatv("theoretical occupancy {0}% (limited by {1}) against {2}% with {3} "
                          "threads per block; half of the relative gain is counted, as more "
                          "warps only hide latency",
                          static_cast<int>(std::lround(Now->Share * 100)), Now->Limiter,
                          static_cast<int>(std::lround(Then->Share * 100)),
                          Better.BlockThreads));
    }
  }
  return measuredOnly(F, M, "the block's shape costs no occupancy on this device");
}

std::optional<Cost> CostModel::doublePromotion(const Finding &F, const Match &M) const {
  if (M.Kernels.empty())
    return std::nullopt;
  const Profile &P = Index.profile();
  uint64_t T = kernelTime(M.Kernels);
  const Kernel &K0 = P.Kernels[M.Kernels.front()];
  const Device *D = Index.deviceOf(K0.Process, K0.Device);
  // Data-centre GPUs (x.0) run FP64 at half the FP32 rate, the others at
  // 1/32 to 1/64 (docs/cost-model.md).
  bool HalfRate = D && D->ComputeMinor == 0 && D->ComputeMajor >= 6 && D->ComputeMajor != 12;
  double Factor = doubleOption(Cfg.Options, "kernel-double-promotion",
                               HalfRate ? "SavingShareFullFP64" : "SavingShareSlowFP64");
  Factor = std::clamp(Factor, 0.0, 1.0);
  return make(M.Kernels.size(), T, scaled(T, Factor),
              formatv("double arithmetic runs at {0} the float rate on this GPU; at most {1}% of "
                      "the kernel's time goes if its arithmetic is what bounds it",
                      HalfRate ? "1/2" : "1/32 to 1/64",
                      static_cast<int>(std::lround(Factor * 100))));
}

std::optional<Cost> CostModel::gridTruncation(const Finding &F, const Match &M) const {
  return measuredOnly(F, M, "a correctness problem: the fix processes the missing elements and "
                            "adds work rather than saving it");
}

std::optional<Cost> CostModel::noEstimate(const Finding &F, const Match &M) const {
  return measuredOnly(F, M, "no cost model for this check: the measured time only");
}

std::optional<Cost> CostModel::estimate(const Finding &F, const Match &M) const {
  if (M.Calls.empty() && M.Kernels.empty())
    return std::nullopt;
  // Each check's estimator, as Rules.def names it: a check whose estimator
  // is missing does not compile.
  using Estimator = std::optional<Cost> (CostModel::*)(const Finding &, const Match &) const;
  static const StringMap<Estimator> Estimators = {
#define CUDA_ADVISOR_CHECK(Id, Class, Level, Est, Summary) {Id, &CostModel::Est},
#include "cuda-advisor/Core/Rules.def"
  };
  auto It = Estimators.find(F.CheckId);
  if (It == Estimators.end())
    return noEstimate(F, M);
  return (this->*It->second)(F, M);
}

} // namespace cuda_advisor::rank
