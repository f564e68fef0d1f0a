//===- RuntimeRules.cpp - Findings that need only a profile ---------------===//
//
// Each rule reads the timeline (ProfileIndex) through the cost model and
// reports what costs time whatever the source looks like: PyTorch programs
// and binaries without sources get the same advice. A finding has a source
// location only when the profile has a user call site for its records.
// docs/checks/runtime-*.md describe the rules; docs/cost-model.md their
// estimates.
//
//===----------------------------------------------------------------------===//
#include "RuleContext.h"
#include "RuntimeRules.h"
#include "cuda-advisor/Rank/Occupancy.h"
#include "cuda-advisor/Rank/Rank.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

using namespace llvm;
using namespace cuda_advisor::profile;

namespace cuda_advisor::rank {

namespace {
/// Copy calls grouped by what a rule compares.
struct CopyGroup {
  std::vector<size_t> Calls;
  std::vector<size_t> Waits; ///< Syncs right after the copies (runtime-small-copies).
  uint64_t Bytes = 0, Cost = 0;
  const SourceLocation *Site = nullptr;
};
} // namespace

void Rules::repeatedCopies(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-repeated-copies";
  uint64_t MinRepeats = static_cast<uint64_t>(option(Id, "MinRepeats"));
  uint64_t MinBytes = static_cast<uint64_t>(option(Id, "MinBytes"));
  // (process, device, direction, bytes, host memory kind, call site).
  std::map<std::tuple<ProcessIndex, uint32_t, int, uint64_t, int, std::string>, CopyGroup> Groups;
  std::map<std::tuple<ProcessIndex, uint32_t, int, uint64_t, int, std::string>,
           std::vector<uint64_t>>
      Costs;
  for (size_t I = 0; I < P.ApiCalls.size(); ++I) {
    SmallVector<const Copy *, 2> Cs = copiesOf(I);
    if (Cs.size() != 1 || Cs[0]->Bytes < MinBytes ||
        (Cs[0]->Kind != CopyKind::HtoD && Cs[0]->Kind != CopyKind::DtoH))
      continue;
    const Copy &C = *Cs[0];
    const SourceLocation *Site = siteOf(I);
    MemoryKind Host = C.Kind == CopyKind::HtoD ? C.Src : C.Dst;
    auto Key = std::make_tuple(P.ApiCalls[I].Process, C.Device, static_cast<int>(C.Kind), C.Bytes,
                               static_cast<int>(Host), Site ? describe(*Site) : std::string());
    CopyGroup &G = Groups[Key];
    G.Calls.push_back(I);
    G.Bytes += C.Bytes;
    uint64_t Cost = Model.transferCost(I);
    G.Cost += Cost;
    Costs[Key].push_back(Cost);
    G.Site = Site;
  }
  for (auto &[Key, G] : Groups) {
    uint64_t N = G.Calls.size();
    if (N < MinRepeats)
      continue;
    // One call site copying to several streams is a pipeline over the chunks
    // of a buffer, not one buffer copied again and again.
    std::set<uint32_t> Streams;
    for (size_t I : G.Calls)
      Streams.insert(copiesOf(I).front()->Stream);
    if (Streams.size() > 1)
      continue;
    // Where the profile has the calls' pointers (the collector's), the
    // copies' sources tell one buffer copied again and again (or two or
    // three, as allocators alternate) from a new buffer or a window sliding
    // over a large one each time: a training loop's batches.
    bool Known = llvm::all_of(G.Calls, [&](size_t I) { return P.ApiCalls[I].HasCopyPointers; });
    size_t Sources = 0;
    if (Known) {
      std::set<uint64_t> Distinct;
      for (size_t I : G.Calls)
        Distinct.insert(P.ApiCalls[I].CopySrc);
      Sources = Distinct.size();
      // More than three buffers in turn is a pool of batches (a DataLoader's
      // pinned blocks, a ring of staging buffers), not one buffer again.
      if (2 * Sources > N || Sources > 3)
        continue;
    }
    // One copy stays: the costliest is counted as the one kept.
    std::vector<uint64_t> &V = Costs[Key];
    uint64_t Saving = G.Cost - *std::max_element(V.begin(), V.end());
    ProcessIndex Proc = std::get<0>(Key);
    if (!worthIt(Id, Proc, Saving))
      continue;
    bool Up = static_cast<CopyKind>(std::get<2>(Key)) == CopyKind::HtoD;
    MemoryKind Host = static_cast<MemoryKind>(std::get<4>(Key));
    // Without pointers (torch.profiler traces), "the same" is the call site,
    // the direction and the size, and the message says no more.
    std::string What =
        Known ? formatv("the same {0} {1} copy {2} {3} memory ran {4} times from {5} and took {6}",
                        formatBytes(std::get<3>(Key)), Up ? "host-to-device" : "device-to-host",
                        Up ? "from" : "to", memoryKindName(Host), N,
                        Sources == 1 ? std::string("one source buffer")
                                     : formatv("{0} source buffers", Sources).str(),
                        formatDuration(G.Cost))
                    .str()
              : formatv("one call site ran a {0} {1} copy {2} {3} memory {4} times ({5})",
                        formatBytes(std::get<3>(Key)), Up ? "host-to-device" : "device-to-host",
                        Up ? "from" : "to", memoryKindName(Host), N, formatDuration(G.Cost))
                    .str();
    std::string Msg =
        What + (Up ? (Known ? ": if the data does not change, upload it once and keep it on the GPU"
                            : ": if it is the same data each time, upload it once and keep it "
                              "on the GPU")
                   : ": if the host needs only the last result, download it once after the loop");
    Cost C = Model.make(N, G.Cost, Saving,
                        formatv("if only one of the {0} copies is needed, the other {1} go: "
                                "their measured time (the costliest copy is kept)",
                                N, N - 1),
                        Host == MemoryKind::Pageable ? CostModel::Clock::Host
                                                     : CostModel::Clock::Gpu);
    RuntimeFinding R = finding(Id, std::move(Msg), G.Site, std::move(C));
    R.Calls.insert(G.Calls.begin(), G.Calls.end());
    // Without the copies' pointers, that it is the same data is a guess.
    R.Conditional = !Known;
    Out.push_back(std::move(R));
  }
}

void Rules::pageableCopies(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-pageable-copies";
  // By process, direction and call site.
  std::map<std::tuple<ProcessIndex, int, std::string>, CopyGroup> Groups;
  for (size_t I = 0; I < P.ApiCalls.size(); ++I) {
    SmallVector<const Copy *, 2> Cs = copiesOf(I);
    if (Cs.empty())
      continue;
    const Copy *Pageable = nullptr;
    for (const Copy *C : Cs)
      if ((C->Kind == CopyKind::HtoD && C->Src == MemoryKind::Pageable) ||
          (C->Kind == CopyKind::DtoH && C->Dst == MemoryKind::Pageable))
        Pageable = C;
    if (!Pageable)
      continue;
    const SourceLocation *Site = siteOf(I);
    CopyGroup &G = Groups[{P.ApiCalls[I].Process, static_cast<int>(Pageable->Kind),
                           Site ? describe(*Site) : ""}];
    G.Calls.push_back(I);
    G.Bytes += Pageable->Bytes;
    G.Cost += Index.blocks(I) ? Index.ownHostTime(I) : Pageable->duration();
    G.Site = Site;
  }
  // A few copies (an upload at the start, a download at the end) are not
  // worth pinning: cudaMallocHost and cudaHostRegister cost as much.
  uint64_t MinCopies = static_cast<uint64_t>(option(Id, "MinCopies"));
  for (auto &[Key, G] : Groups) {
    if (G.Calls.size() < MinCopies)
      continue;
    ProcessIndex Proc = std::get<0>(Key);
    CopyKind Dir = static_cast<CopyKind>(std::get<1>(Key));
    Interval Region = Model.spanThroughNextWait(Proc, G.Calls);
    WhatIf W;
    W.Pinned.insert(G.Calls.begin(), G.Calls.end());
    uint64_t After = std::min(Region.length(), Model.simulate(Proc, Region, W));
    uint64_t Saving = Region.length() - After;
    if (!worthIt(Id, Proc, Saving))
      continue;
    std::string Source;
    const Copy *First = copiesOf(G.Calls.front()).front();
    Model.pinnedBandwidth(Proc, First->Device, Dir, &Source);
    uint64_t N = G.Calls.size();
    std::string Msg =
        formatv("{0} {1} copies ({2} in all) {3} pageable host memory took {4}: the runtime "
                "stages them through a pinned buffer and the host waits for each; pin the host "
                "buffer (cudaMallocHost, cudaHostRegister, tensor.pin_memory())",
                N, copyKindName(Dir), formatBytes(G.Bytes),
                Dir == CopyKind::HtoD ? "from" : "to", formatDuration(G.Cost));
    Cost C = Model.make(N, G.Cost, Saving,
                        formatv("from pinned memory the copies run asynchronously at {0}; the "
                                "critical-path model of the {1} they span gives {2}",
                                Source, formatDuration(Region.length()), formatDuration(After)),
                        CostModel::Clock::Host);
    RuntimeFinding R = finding(Id, std::move(Msg), G.Site, std::move(C));
    R.Calls.insert(G.Calls.begin(), G.Calls.end());
    Out.push_back(std::move(R));
  }
}

void Rules::smallCopies(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-small-copies";
  uint64_t MaxBytes = static_cast<uint64_t>(option(Id, "MaxBytes"));
  uint64_t MinCount = static_cast<uint64_t>(option(Id, "MinCount"));
  std::map<std::tuple<ProcessIndex, int, std::string>, CopyGroup> Groups;
  std::map<std::tuple<ProcessIndex, int, std::string>, uint64_t> Overhead, MinOverhead;
  for (size_t I = 0; I < P.ApiCalls.size(); ++I) {
    SmallVector<const Copy *, 2> Cs = copiesOf(I);
    if (Cs.size() != 1 || Cs[0]->Bytes >= MaxBytes ||
        (Cs[0]->Kind != CopyKind::HtoD && Cs[0]->Kind != CopyKind::DtoH))
      continue;
    const SourceLocation *Site = siteOf(I);
    auto Key = std::make_tuple(P.ApiCalls[I].Process, static_cast<int>(Cs[0]->Kind),
                               Site ? describe(*Site) : std::string());
    CopyGroup &G = Groups[Key];
    // The copy's call, and the wait right after it when there is one
    // (PyTorch's tensor.cuda() from pageable memory: cudaMemcpyAsync, then
    // cudaStreamSynchronize): both are paid per copy. With a wait, an
    // asynchronous copy's cost is its call's host time plus the wait (which
    // covers its GPU time), not its GPU time as well.
    uint64_t Cost = Model.transferCost(I);
    std::optional<size_t> Wait = Model.syncAfter(I);
    if (Wait) {
      if (!Model.index().blocks(I))
        Cost = P.ApiCalls[I].duration();
      Cost += Model.waitFor(I, *Wait);
      G.Waits.push_back(*Wait);
    }
    double BW = Model.referenceBandwidth(*Cs[0]);
    uint64_t Moving = static_cast<uint64_t>(static_cast<double>(Cs[0]->Bytes) / BW);
    uint64_t Over = Cost > Moving ? Cost - Moving : 0;
    Overhead[Key] += Over;
    auto [It, New] = MinOverhead.try_emplace(Key, Over);
    if (!New)
      It->second = std::min(It->second, Over);
    G.Calls.push_back(I);
    G.Bytes += Cs[0]->Bytes;
    G.Cost += Cost;
    G.Site = Site;
  }
  for (auto &[Key, G] : Groups) {
    uint64_t N = G.Calls.size();
    if (N < MinCount)
      continue;
    uint64_t Saving = Overhead[Key] - MinOverhead[Key];
    ProcessIndex Proc = std::get<0>(Key);
    if (!worthIt(Id, Proc, Saving))
      continue;
    CopyKind Dir = static_cast<CopyKind>(std::get<1>(Key));
    std::string Waits =
        G.Waits.empty() ? std::string()
        : G.Waits.size() == N
            ? std::string(", each followed by a synchronization,")
            : formatv(", {0} of them followed by a synchronization,", G.Waits.size()).str();
    std::string Msg = formatv("{0} {1} copies of less than {2} ({3} in all){4} took {5}, mostly "
                              "fixed per-copy cost: gather the data into one buffer and copy it "
                              "at once",
                              N, copyKindName(Dir), formatBytes(MaxBytes), formatBytes(G.Bytes),
                              Waits, formatDuration(G.Cost));
    Cost C = Model.make(N, G.Cost, Saving,
                        formatv("each copy's host time (its call{0}) beyond its bytes at the "
                                "reference bandwidth is fixed overhead; one copy instead of {1} "
                                "pays it once",
                                G.Waits.empty() ? "" : " and the wait for it right after", N),
                        CostModel::Clock::Host);
    RuntimeFinding R = finding(Id, std::move(Msg), G.Site, std::move(C));
    R.Calls.insert(G.Calls.begin(), G.Calls.end());
    R.Calls.insert(G.Waits.begin(), G.Waits.end());
    Out.push_back(std::move(R));
  }
}

void Rules::idleGaps(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-gpu-idle-gaps";
  uint64_t MinGap = static_cast<uint64_t>(option(Id, "MinGapUs")) * 1000;
  // A few gaps are set-up and tear-down (filling inputs, checking results);
  // a host-bound loop makes many.
  uint64_t MinGaps = static_cast<uint64_t>(option(Id, "MinGaps"));
  double MinShare = optionShare(Id, "MinIdleShare");
  // Per GPU of each process: with one host thread per device, one GPU can
  // starve while the host drives another.
  std::set<std::pair<ProcessIndex, uint32_t>> Gpus;
  for (const Kernel &K : P.Kernels)
    Gpus.insert({K.Process, K.Device});
  for (const Copy &Cp : P.Copies)
    Gpus.insert({Cp.Process, Cp.Device});
  for (const Memset &M : P.Memsets)
    Gpus.insert({M.Process, M.Device});
  std::map<ProcessIndex, unsigned> GpusOf;
  for (auto &[Proc, Dev] : Gpus)
    ++GpusOf[Proc];
  for (auto &[Proc, Dev] : Gpus) {
    const IntervalSet &Busy = Index.busy(Proc, Dev);
    if (Busy.intervals().size() < 2)
      continue;
    Interval Span{Busy.intervals().front().Start, Busy.intervals().back().End};
    IntervalSet Waiting = notOwnHostWork(Proc);
    std::vector<std::pair<uint64_t, WorkRef>> Starts = workByStart(Proc, Dev);
    // The first run of a piece of work from one call stack pays the costs
    // that happen once (a library's handle and workspace, lazy module
    // loading, a kernel chosen by autotuning, a framework's first dispatch):
    // the gap before it is warm-up, not the rhythm of a loop, and no change
    // to the loop removes it.
    std::vector<bool> FirstRun = firstRuns(Starts);
    uint64_t Idle = 0, Count = 0, Longest = 0, Saving = 0, WarmUp = 0, WarmUpSpan = 0;
    uint64_t Active = activeSpan(Id, Busy), Phases = Span.length() - Active;
    // The host's work in each gap, by the call site of the work that ended
    // it: where the host was when the GPU got work again.
    std::map<std::string, std::pair<uint64_t, const SourceLocation *>> Sites;
    uint64_t PrevEnd = Span.Start;
    for (const Interval &G : Busy.gaps(Span)) {
      auto Next = std::lower_bound(Starts.begin(), Starts.end(), G.End,
                                   [](const auto &W, uint64_t T) { return W.first < T; });
      std::optional<size_t> Launcher;
      if (Next != Starts.end())
        Launcher = Index.launcher(Next->second);
      // The gap before a batch's copy is runtime-data-loading's, and so is
      // the GPU work before it that the loading would hide behind.
      if (Launcher && loading().Copies.count(*Launcher)) {
        PrevEnd = G.End;
        continue;
      }
      // The time the host spent inside calls that wait for the GPU belongs
      // to the synchronization and copy rules.
      uint64_t HostWork = Waiting.uncovered(G);
      if (G.length() < MinGap || HostWork < MinGap || G.length() >= phaseGapNs(Id))
        continue;
      if (Next != Starts.end() && FirstRun[Next - Starts.begin()]) {
        WarmUp += HostWork;
        WarmUpSpan += G.length();
        PrevEnd = G.End;
        continue;
      }
      Idle += HostWork;
      Longest = std::max(Longest, HostWork);
      ++Count;
      // Run ahead of the GPU, the host's work overlaps the GPU's work
      // before the gap: the shorter of the two is saved.
      Saving += std::min(HostWork, Busy.covered({PrevEnd, G.Start}));
      PrevEnd = G.End;
      if (Launcher)
        if (const SourceLocation *S = siteOf(*Launcher)) {
          auto &E = Sites[describe(*S)];
          E.first += HostWork;
          E.second = S;
        }
    }
    // The share is of the stretch past the warm-up gaps.
    uint64_t Steady = Active - WarmUpSpan;
    if (Count < MinGaps || static_cast<double>(Idle) < MinShare * static_cast<double>(Steady))
      continue;
    const SourceLocation *Top = nullptr;
    uint64_t TopIdle = 0;
    for (auto &[K, E] : Sites)
      if (E.first > TopIdle) {
        TopIdle = E.first;
        Top = E.second;
      }
    std::string Less;
    if (Phases)
      Less = formatv(", less {0} of idle phases of at least {1} (start-up, loading, evaluation)",
                     formatDuration(Phases), formatDuration(phaseGapNs(Id)))
                 .str();
    if (WarmUpSpan)
      Less += formatv("{0} {1} of warm-up gaps (before the first run of each kernel or copy)",
                      Phases ? " and" : ", less", formatDuration(WarmUpSpan))
                  .str();
    std::string Gpu = GpusOf[Proc] > 1 ? formatv("GPU {0}", Dev).str() : std::string("the GPU");
    std::string Msg =
        formatv("{5} waited for the CPU {0} times, {1} in all ({2}% of the {3} between its "
                "first and last work{6}; the longest gap {4}){7}: the host's own work between "
                "launches is the bottleneck; overlap it with the GPU (asynchronous data "
                "loading, more work per launch, CUDA Graphs)",
                Count, formatDuration(Idle),
                static_cast<int>(std::lround(100.0 * static_cast<double>(Idle) /
                                             static_cast<double>(Steady))),
                formatDuration(Steady), formatDuration(Longest), Gpu,
                Less,
                Top ? formatv("; {0} of it before the GPU work queued from there", formatDuration(TopIdle))
                          .str()
                    : std::string());
    std::string How =
        formatv("what overlap saves: gap by gap (gaps of at least {0} while the host was not "
                "waiting in a CUDA call), the shorter of the host's work in the gap and the "
                "GPU's work before it, as if the host had run ahead; the gaps' sum, {1}, is "
                "only an upper bound",
                formatDuration(MinGap), formatDuration(Idle))
            .str();
    if (WarmUp)
      How += formatv("; the gaps before the first run of each kernel or copy from its call "
                     "stack are warm-up (the host's {0} there) and left out",
                     formatDuration(WarmUp))
                 .str();
    Cost C = Model.make(Count, Idle, Saving, std::move(How), CostModel::Clock::Host);
    RuntimeFinding R = finding(Id, std::move(Msg), Top, std::move(C));
    R.Processes.insert(Proc);
    R.OverlapOf = Proc;
    setEvidence(R.F, evidence::Device, static_cast<int64_t>(Dev));
    Out.push_back(std::move(R));
  }
}

void Rules::syncHeavy(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-sync-heavy";
  uint64_t MinSyncs = static_cast<uint64_t>(option(Id, "MinSyncs"));
  double MinPerSecond = optionShare(Id, "MinSyncsPerGpuSecond");
  std::map<ProcessIndex, std::vector<size_t>> Syncs;
  // The synchronizations of a batch's copy are runtime-data-loading's.
  const std::set<size_t> &Claimed = loading().Syncs;
  for (size_t I = 0; I < P.ApiCalls.size(); ++I)
    if (apiFamily(P.ApiCalls[I].Name) == "sync" && P.ApiCalls[I].Name != "cudaStreamWaitEvent" &&
        !Claimed.count(I))
      Syncs[P.ApiCalls[I].Process].push_back(I);
  for (auto &[Proc, Calls] : Syncs) {
    uint64_t N = Calls.size();
    uint64_t Gpu = Index.busy(Proc).total();
    if (N < MinSyncs || Gpu == 0 ||
        static_cast<double>(N) / (static_cast<double>(Gpu) / 1e9) < MinPerSecond)
      continue;
    uint64_t Measured = 0, Idle = 0, Overlappable = 0;
    std::map<std::string, std::pair<uint64_t, const SourceLocation *>> Sites;
    for (size_t I : Calls) {
      Measured += P.ApiCalls[I].duration();
      uint64_t Around = Model.idleAroundReturn(I);
      if (Around >= phaseGapNs(Id))
        Around = 0; // A phase of the program (start-up, evaluation), not the sync's.
      Idle += Around;
      // Without the wait the host's work after it overlaps the GPU work it
      // waited for: at most the time it waited. A host-bound loop's syncs
      // find the GPU done; dropping them hides nothing more.
      Overlappable += std::min(Around, P.ApiCalls[I].duration());
      if (const SourceLocation *S = siteOf(I)) {
        auto &E = Sites[describe(*S)];
        E.first += Around;
        E.second = S;
      }
    }
    // Without the waits the host queues ahead and its work overlaps the
    // GPU's.
    std::string How = "the GPU's idle time around each synchronization's return, from its "
                      "last work to the next, less the gap of back-to-back work, but at most "
                      "the time the host waited in that synchronization (the GPU work its "
                      "later work could overlap)";
    if (Overlappable < Idle)
      How += formatv(": {0} of the {1} idle", formatDuration(Overlappable), formatDuration(Idle))
                 .str();
    uint64_t Saving = boundByGpuBusy(Overlappable, Gpu, How);
    if (!worthIt(Id, Proc, Saving))
      continue;
    const SourceLocation *Top = nullptr;
    uint64_t TopIdle = 0;
    for (auto &[K, E] : Sites)
      if (E.first > TopIdle) {
        TopIdle = E.first;
        Top = E.second;
      }
    const Process &Pr = P.Processes[Proc];
    bool Python = Pr.Format == "kineto" || StringRef(Pr.Command).contains("python");
    std::string Msg = formatv(
        "{0} synchronizations ({1} per second of GPU time) left the GPU idle {2} in all: each "
        "drains the GPU's queue before the host queues more work; synchronize only where the "
        "host needs the results{3}",
        N,
        static_cast<uint64_t>(static_cast<double>(N) / (static_cast<double>(Gpu) / 1e9)),
        formatDuration(Idle),
        Python ? " (in PyTorch, .item(), .cpu(), .tolist() and copies from or to pageable "
                 "memory synchronize)"
               : "");
    Cost C = Model.make(N, Measured, Saving, std::move(How), CostModel::Clock::Host);
    RuntimeFinding R = finding(Id, std::move(Msg), Top, std::move(C));
    R.Calls.insert(Calls.begin(), Calls.end());
    R.OverlapOf = Proc;
    Out.push_back(std::move(R));
  }
}

void Rules::lowOccupancy(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-low-occupancy";
  double MaxShare = optionShare(Id, "MaxOccupancy");
  struct Group {
    std::vector<size_t> Kernels;
    uint64_t Time = 0, Blocks = 0;
  };
  std::map<std::tuple<ProcessIndex, uint32_t, std::string, uint64_t, uint32_t, uint32_t, uint32_t>,
           Group>
      Groups;
  for (size_t I = 0; I < P.Kernels.size(); ++I) {
    const Kernel &K = P.Kernels[I];
    uint64_t Threads = static_cast<uint64_t>(K.Block[0]) * K.Block[1] * K.Block[2];
    if (!Threads)
      continue;
    Group &G = Groups[{K.Process, K.Device, K.Name.empty() ? K.Demangled : K.Name, Threads,
                       K.RegistersPerThread, K.StaticSharedMem, K.DynamicSharedMem}];
    G.Kernels.push_back(I);
    G.Time += K.duration();
    G.Blocks = std::max<uint64_t>(G.Blocks, static_cast<uint64_t>(K.Grid[0]) * K.Grid[1] * K.Grid[2]);
  }
  for (auto &[Key, G] : Groups) {
    const Kernel &K = P.Kernels[G.Kernels.front()];
    const Device *D = Index.deviceOf(K.Process, K.Device);
    if (!D)
      continue;
    LaunchResources R{static_cast<int>(std::get<3>(Key)), static_cast<int>(K.RegistersPerThread),
                      K.StaticSharedMem, K.DynamicSharedMem};
    std::optional<Occupancy> Now = theoreticalOccupancy(*D, R);
    if (!Now || Now->Share >= MaxShare || Now->ActiveBlocksPerSM == 0)
      continue;
    // A grid too small to fill the GPU is limited by its size, not by
    // occupancy.
    if (G.Blocks < static_cast<uint64_t>(D->NumSMs) * static_cast<uint64_t>(Now->ActiveBlocksPerSM))
      continue;
    std::optional<int> Best = bestBlockSize(*D, R);
    if (!Best)
      continue;
    LaunchResources B = R;
    B.BlockThreads = *Best;
    std::optional<Occupancy> Then = theoreticalOccupancy(*D, B);
    if (!Then || Then->Share < 1.5 * Now->Share)
      continue;
    uint64_t Saving = static_cast<uint64_t>(static_cast<double>(G.Time) * 0.5 *
                                            (1 - Now->Share / Then->Share));
    if (!worthIt(Id, K.Process, Saving))
      continue;
    std::string Msg = formatv(
        "kernel '{0}' ran {1} times at {2}% theoretical occupancy ({3} of {4} warps per SM, "
        "limited by {5}) with {6} threads per block, {7} registers per thread and {8} of shared "
        "memory; {9} threads per block allow {10}%",
        kernelName(K), G.Kernels.size(), static_cast<int>(std::lround(Now->Share * 100)),
        Now->ActiveWarpsPerSM, Now->MaxWarpsPerSM, Now->Limiter, R.BlockThreads,
        R.RegistersPerThread, formatBytes(R.StaticSharedMem + R.DynamicSharedMem), *Best,
        static_cast<int>(std::lround(Then->Share * 100)));
    Cost C = Model.make(G.Kernels.size(), G.Time, Saving,
                        "half of the relative occupancy gain is counted (CUDA's occupancy "
                        "calculator), as more resident warps only hide latency");
    const SourceLocation *Site = nullptr;
    if (std::optional<size_t> L = Index.launcher(WorkRef{WorkKind::Kernel, G.Kernels.front()}))
      Site = launchSiteOf(*L, K);
    RuntimeFinding F = finding(Id, std::move(Msg), Site, std::move(C));
    F.Kernels.insert(G.Kernels.begin(), G.Kernels.end());
    Out.push_back(std::move(F));
  }
}

void Rules::launchBound(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-launch-bound";
  uint64_t MinRun = static_cast<uint64_t>(option(Id, "MinKernels"));
  uint64_t MaxGap = static_cast<uint64_t>(option(Id, "MaxGapUs")) * 1000;
  std::map<std::tuple<ProcessIndex, uint32_t, uint32_t>, std::vector<size_t>> Streams;
  for (size_t I = 0; I < P.Kernels.size(); ++I)
    Streams[{P.Kernels[I].Process, P.Kernels[I].Device, P.Kernels[I].Stream}].push_back(I);
  struct Stretches {
    size_t Count = 0;
    uint64_t KernelNs = 0, GapNs = 0, Excess = 0, Launch = 0;
    std::vector<size_t> Kernels;
    const SourceLocation *Site = nullptr;
  };
  std::map<std::pair<ProcessIndex, std::string>, Stretches> Groups;
  std::map<ProcessIndex, IntervalSet> Waiting;
  for (auto &[Key, Ks] : Streams) {
    ProcessIndex Proc = std::get<0>(Key);
    auto [WIt, New] = Waiting.try_emplace(Proc);
    if (New)
      WIt->second = notOwnHostWork(Proc);
    const IntervalSet &Wait = WIt->second;
    llvm::sort(Ks, [&](size_t A, size_t B) { return P.Kernels[A].Start < P.Kernels[B].Start; });
    uint64_t Launch = Model.asyncCallNs(Proc);
    uint64_t Short = std::max<uint64_t>(Launch, 2000);
    // Runs of short kernels separated by short gaps with no waiting call.
    size_t Begin = 0;
    auto Flush = [&](size_t End) {
      if (End - Begin < MinRun)
        return;
      uint64_t KernelNs = 0, GapNs = 0, Excess = 0;
      for (size_t J = Begin; J < End; ++J) {
        KernelNs += P.Kernels[Ks[J]].duration();
        if (J + 1 < End) {
          uint64_t G = P.Kernels[Ks[J + 1]].Start - P.Kernels[Ks[J]].End;
          GapNs += G;
          Excess += G > 1000 ? G - 1000 : 0; // A graph's nodes still leave ~1 us.
        }
      }
      if (GapNs < KernelNs / 2)
        return;
      // The stretches launched from one call site (a loop whose stretches
      // a synchronization or a longer kernel separates) are one finding.
      const SourceLocation *Site = nullptr;
      if (std::optional<size_t> L = Index.launcher(WorkRef{WorkKind::Kernel, Ks[Begin]}))
        Site = launchSiteOf(*L, P.Kernels[Ks[Begin]]);
      std::string Where = Site ? describe(*Site)
                               : formatv("device {0} stream {1}", std::get<1>(Key),
                                         std::get<2>(Key))
                                     .str();
      Stretches &S = Groups[{Proc, Where}];
      ++S.Count;
      S.KernelNs += KernelNs;
      S.GapNs += GapNs;
      S.Excess += Excess;
      S.Launch = Launch;
      if (!S.Site)
        S.Site = Site;
      for (size_t J = Begin; J < End; ++J)
        S.Kernels.push_back(Ks[J]);
    };
    for (size_t J = 0; J < Ks.size(); ++J) {
      const Kernel &K = P.Kernels[Ks[J]];
      bool Breaks = K.duration() >= Short;
      if (!Breaks && J > Begin) {
        const Kernel &Prev = P.Kernels[Ks[J - 1]];
        Interval Gap{Prev.End, std::max(Prev.End, K.Start)};
        Breaks = Gap.length() > MaxGap || Wait.covered(Gap) > 0;
      }
      if (Breaks) {
        Flush(J);
        Begin = K.duration() >= Short ? J + 1 : J;
      }
    }
    Flush(Ks.size());
  }
  for (auto &[Key, S] : Groups) {
    ProcessIndex Proc = Key.first;
    if (!worthIt(Id, Proc, S.Excess))
      continue;
    uint64_t N = S.Kernels.size();
    std::string Msg = formatv(
        "{0} kernels of {1} on average ran back to back with {2} of idle GPU between them ({3}% "
        "of that stretch{5}): they are shorter than their launch overhead ({4} per launch); fuse "
        "them, or capture the sequence in a CUDA Graph (torch.cuda.graphs, torch.compile)",
        N, formatDuration(S.KernelNs / N), formatDuration(S.GapNs),
        static_cast<int>(std::lround(100.0 * static_cast<double>(S.GapNs) /
                                     static_cast<double>(S.GapNs + S.KernelNs))),
        formatDuration(S.Launch),
        S.Count > 1 ? formatv(", in {0} stretches", S.Count).str() : std::string());
    // Measured: the stretches of the timeline, kernels and gaps.
    Cost C = Model.make(N, S.KernelNs + S.GapNs, S.Excess,
                        "a CUDA Graph launches the sequence at once: the gaps between the "
                        "kernels shrink to about 1 us each",
                        CostModel::Clock::Host);
    RuntimeFinding F = finding(Id, std::move(Msg), S.Site, std::move(C));
    F.Kernels.insert(S.Kernels.begin(), S.Kernels.end());
    Out.push_back(std::move(F));
  }
}

static bool isHostDeviceCopy(const Copy &C) {
  return C.Kind == CopyKind::HtoD || C.Kind == CopyKind::DtoH;
}

void Rules::lowCopyOverlap(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-low-copy-overlap";
  double MaxOverlap = optionShare(Id, "MaxOverlapShare");
  uint64_t MinCopies = static_cast<uint64_t>(option(Id, "MinCopies"));
  struct Device {
    std::vector<Interval> CopyIv, KernelIv;
    std::vector<size_t> Copies, Kernels;
    std::set<uint32_t> Streams;
  };
  std::map<std::pair<ProcessIndex, uint32_t>, Device> Devices;
  for (size_t I = 0; I < P.Copies.size(); ++I) {
    const Copy &C = P.Copies[I];
    if (!isHostDeviceCopy(C) || !C.duration())
      continue;
    // A copy from or to pageable memory overlaps nothing on any stream: it
    // is runtime-pageable-copies' finding (and runtime-data-loading's).
    if (C.Src == MemoryKind::Pageable || C.Dst == MemoryKind::Pageable)
      continue;
    Device &D = Devices[{C.Process, C.Device}];
    D.CopyIv.push_back({C.Start, C.End});
    D.Copies.push_back(I);
    D.Streams.insert(C.Stream);
  }
  for (size_t I = 0; I < P.Kernels.size(); ++I) {
    const Kernel &K = P.Kernels[I];
    auto It = Devices.find({K.Process, K.Device});
    if (It == Devices.end() || !K.duration())
      continue;
    It->second.KernelIv.push_back({K.Start, K.End});
    It->second.Kernels.push_back(I);
    It->second.Streams.insert(K.Stream);
  }
  for (auto &[Key, D] : Devices) {
    if (D.Copies.size() < MinCopies || D.Kernels.size() < 2)
      continue;
    // Only copies issued between the device's kernels can be pipelined with
    // them as the program stands; an upload before all work and a download
    // after it cannot overlap without restructuring the program.
    uint64_t FirstKernel = UINT64_MAX, LastKernel = 0;
    for (const Interval &I : D.KernelIv) {
      FirstKernel = std::min(FirstKernel, I.Start);
      LastKernel = std::max(LastKernel, I.End);
    }
    uint64_t Between = llvm::count_if(D.CopyIv, [&](const Interval &I) {
      return I.Start >= FirstKernel && I.End <= LastKernel;
    });
    if (Between < MinCopies)
      continue;
    IntervalSet Copies(std::move(D.CopyIv)), Kernels(std::move(D.KernelIv));
    uint64_t Overlap = 0;
    for (const Interval &I : Copies.intervals())
      Overlap += Kernels.covered(I);
    uint64_t Shorter = std::min(Copies.total(), Kernels.total());
    if (!Shorter || static_cast<double>(Overlap) > MaxOverlap * static_cast<double>(Shorter))
      continue;
    // What separate streams save: the time work waited, already launched,
    // behind work of the other kind that it does not depend on. Uploads feed
    // later kernels and downloads drain earlier ones, so an upload queued
    // behind kernels (the next chunk's input) and kernels queued behind a
    // download (of an earlier result) could have run side by side; a kernel
    // behind its upload, or a download behind its kernels, could not. Work
    // the host launched only after the other had finished waited for
    // nothing: in a host-bound loop, or after a copy that blocked the host
    // (pageable memory), streams save nothing.
    ProcessIndex Proc = Key.first;
    uint64_t Latency = Model.launchLatencyNs(Proc);
    auto Waits = [&](WorkKind Kind, const std::vector<size_t> &Work, bool Uploads) {
      std::vector<Interval> V;
      for (size_t I : Work) {
        if (Kind == WorkKind::Copy && (P.Copies[I].Kind == CopyKind::HtoD) != Uploads)
          continue;
        WorkRef W{Kind, I};
        std::optional<size_t> L = Index.launcher(W);
        if (!L)
          continue;
        uint64_t Ready = P.ApiCalls[*L].Start + Latency;
        Interval Iv = Index.interval(W);
        if (Ready < Iv.Start)
          V.push_back({Ready, Iv.Start});
      }
      return IntervalSet(std::move(V));
    };
    std::vector<Interval> DownIv;
    for (size_t I : D.Copies)
      if (P.Copies[I].Kind == CopyKind::DtoH)
        DownIv.push_back({P.Copies[I].Start, P.Copies[I].End});
    IntervalSet Downloads(std::move(DownIv));
    IntervalSet KernelWaits = Waits(WorkKind::Kernel, D.Kernels, false),
                UploadWaits = Waits(WorkKind::Copy, D.Copies, true);
    uint64_t Queued = 0;
    for (const Interval &I : Downloads.intervals())
      Queued += KernelWaits.covered(I);
    for (const Interval &I : Kernels.intervals())
      Queued += UploadWaits.covered(I);
    // With copies and kernels pipelined over streams, the waiting work runs
    // beside the other: at best the shorter activity hides behind the longer.
    uint64_t Saving = std::min(Queued, Shorter - Overlap);
    if (!worthIt(Id, Proc, Saving))
      continue;
    int Share = static_cast<int>(std::lround(100.0 * static_cast<double>(Overlap) /
                                             static_cast<double>(Shorter)));
    std::string Msg = formatv(
        "copies between pinned host memory and the GPU overlapped kernels for only {0}% of the "
        "time they could: {1} of copies ({2}) and {3} of kernels ({4}) ran one after the other "
        "on {5} stream{6} of device {7}, and for {8} uploads waited behind kernels or kernels "
        "behind downloads that they did not need; split the data into chunks and issue each "
        "chunk's cudaMemcpyAsync and kernels on its own stream so that copies overlap other "
        "chunks' kernels (in PyTorch: non_blocking=True copies from pinned tensors on a side "
        "torch.cuda.Stream)",
        Share, formatDuration(Copies.total()), D.Copies.size(), formatDuration(Kernels.total()),
        D.Kernels.size(), D.Streams.size(), D.Streams.size() == 1 ? "" : "s", Key.second,
        formatDuration(Queued));
    Cost C = Model.make(D.Copies.size() + D.Kernels.size(), Copies.total() + Kernels.total(),
                        Saving,
                        "the time launched uploads waited behind kernels and launched kernels "
                        "behind downloads (from each launch, plus the launch latency, to the "
                        "work's start), which separate streams let run side by side; at most "
                        "the shorter of the two activities less what already overlaps: an upper "
                        "bound, as the first chunk's copy and the last one's kernel stay exposed");
    const SourceLocation *Site = nullptr;
    RuntimeFinding F = finding(Id, std::move(Msg), Site, std::move(C));
    for (size_t I : D.Copies)
      if (std::optional<size_t> L = Index.launcher(WorkRef{WorkKind::Copy, I}))
        F.Calls.insert(*L);
    F.Kernels.insert(D.Kernels.begin(), D.Kernels.end());
    if (!F.Calls.empty())
      if (const SourceLocation *S = siteOf(*F.Calls.begin()))
        F.F.Loc = *S;
    Out.push_back(std::move(F));
  }
}

void Rules::lowKernelConcurrency(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-low-kernel-concurrency";
  uint64_t MinKernels = static_cast<uint64_t>(option(Id, "MinKernels"));
  double MaxFill = optionShare(Id, "MaxSmShare");
  // (process, device) -> kernels by start.
  std::map<std::pair<ProcessIndex, uint32_t>, std::vector<size_t>> ByDevice;
  for (size_t I = 0; I < P.Kernels.size(); ++I)
    if (P.Kernels[I].duration())
      ByDevice[{P.Kernels[I].Process, P.Kernels[I].Device}].push_back(I);
  for (auto &[Key, Ks] : ByDevice) {
    const profile::Device *Dev = Index.deviceOf(Key.first, Key.second);
    if (!Dev || Dev->NumSMs <= 0)
      continue;
    llvm::sort(Ks, [&](size_t A, size_t B) { return P.Kernels[A].Start < P.Kernels[B].Start; });
    // Kernels that ran alone (no other kernel of the device overlapped
    // them) with fewer blocks than MaxFill of the SMs.
    std::vector<size_t> Alone;
    std::set<uint32_t> Streams;
    uint64_t Time = 0, Queued = 0;
    double IdleSmTime = 0, SmShareSum = 0;
    uint64_t PrevEnd = 0;
    uint64_t Latency = Model.launchLatencyNs(Key.first);
    for (size_t J = 0; J < Ks.size(); ++J) {
      const Kernel &K = P.Kernels[Ks[J]];
      bool OverlapsPrev = J > 0 && K.Start < PrevEnd;
      bool OverlapsNext = J + 1 < Ks.size() && P.Kernels[Ks[J + 1]].Start < K.End;
      PrevEnd = std::max(PrevEnd, K.End);
      uint64_t Blocks = static_cast<uint64_t>(K.Grid[0]) * K.Grid[1] * K.Grid[2];
      if (OverlapsPrev || OverlapsNext || !Blocks)
        continue;
      double Fill = std::min(1.0, static_cast<double>(Blocks) / Dev->NumSMs);
      if (Fill > MaxFill)
        continue;
      Alone.push_back(Ks[J]);
      Streams.insert(K.Stream);
      Time += K.duration();
      SmShareSum += Fill;
      // The idle SMs could only have run a kernel that was waiting: the
      // next one, from its launch (plus the launch latency) on. In a
      // host-bound loop the next kernel is launched after this one ends,
      // and concurrency gains nothing.
      if (J + 1 < Ks.size())
        if (std::optional<size_t> L = Index.launcher(WorkRef{WorkKind::Kernel, Ks[J + 1]})) {
          uint64_t Ready = std::max(K.Start, P.ApiCalls[*L].Start + Latency);
          uint64_t Waiting = K.End > Ready ? K.End - Ready : 0;
          Queued += Waiting;
          IdleSmTime += (1 - Fill) * static_cast<double>(Waiting);
        }
    }
    if (Alone.size() < MinKernels)
      continue;
    // Concurrent kernels share the SMs they leave idle, but also the
    // memory bandwidth and the launch queue: half of the idle SM time while
    // the next kernel waited is counted.
    uint64_t Saving = static_cast<uint64_t>(IdleSmTime / 2);
    if (!worthIt(Id, Key.first, Saving))
      continue;
    const Kernel &First = P.Kernels[Alone.front()];
    std::string Msg = formatv(
        "{0} kernels with fewer blocks than the GPU's {1} SMs (on average {2}% of the SMs, "
        "e.g. '{3}') ran one at a time on {4} stream{5}, {6} in all, {7} of it with the next "
        "kernel already launched and waiting: if they are independent, launch them on "
        "separate streams (or batch them into one launch) so that they share the GPU",
        Alone.size(), Dev->NumSMs,
        static_cast<int>(std::lround(100.0 * SmShareSum / static_cast<double>(Alone.size()))),
        kernelName(First), Streams.size(), Streams.size() == 1 ? "" : "s",
        formatDuration(Time), formatDuration(Queued));
    Cost C = Model.make(Alone.size(), Time, Saving,
                        "half of the SM time these kernels left idle (SMs without a block of "
                        "theirs) while the next kernel was launched and waiting (from its launch "
                        "plus the launch latency) is counted, as concurrent kernels also share "
                        "memory bandwidth");
    const SourceLocation *Site = nullptr;
    if (std::optional<size_t> L = Index.launcher(WorkRef{WorkKind::Kernel, Alone.front()}))
      Site = launchSiteOf(*L, First);
    RuntimeFinding F = finding(Id, std::move(Msg), Site, std::move(C));
    F.Kernels.insert(Alone.begin(), Alone.end());
    Out.push_back(std::move(F));
  }
}

void Rules::lowCopyThroughput(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-low-copy-throughput";
  double MinShare = optionShare(Id, "MinLinkShare");
  uint64_t SmallBytes = static_cast<uint64_t>(option(Id, "SmallBytes"));
  struct Group {
    std::vector<size_t> Copies;
    uint64_t Bytes = 0, Time = 0, Small = 0;
  };
  std::map<std::tuple<ProcessIndex, uint32_t, CopyKind>, Group> Groups;
  for (size_t I = 0; I < P.Copies.size(); ++I) {
    const Copy &C = P.Copies[I];
    if (!isHostDeviceCopy(C) || !C.duration() || !C.Bytes)
      continue;
    // Pageable copies are runtime-pageable-copies' finding.
    if (C.Src == MemoryKind::Pageable || C.Dst == MemoryKind::Pageable)
      continue;
    Group &G = Groups[{C.Process, C.Device, C.Kind}];
    G.Copies.push_back(I);
    G.Bytes += C.Bytes;
    G.Time += C.duration();
    if (C.Bytes < SmallBytes)
      ++G.Small;
  }
  for (auto &[Key, G] : Groups) {
    auto [Proc, Dev, Dir] = Key;
    std::string Source;
    double Link = Model.pinnedBandwidth(Proc, Dev, Dir, &Source);
    if (Link <= 0)
      continue;
    double Achieved = static_cast<double>(G.Bytes) / static_cast<double>(G.Time);
    if (Achieved >= MinShare * Link)
      continue;
    uint64_t AtLink = static_cast<uint64_t>(static_cast<double>(G.Bytes) / Link);
    uint64_t Saving = G.Time > AtLink ? G.Time - AtLink : 0;
    if (!worthIt(Id, Proc, Saving))
      continue;
    std::string Why =
        2 * G.Small >= G.Copies.size()
            ? formatv("{0} of the {1} copies are smaller than {2}, where the per-copy cost "
                      "dominates: batch them into fewer, larger copies",
                      G.Small, G.Copies.size(), formatBytes(SmallBytes))
                  .str()
            : std::string("the copies are neither small nor pageable: check for strided (2D) "
                          "copies or other traffic on the link");
    std::string Msg = formatv(
        "{0} {1} copies moved {2} at {3}, {4}% of the link's {5}: {6}", G.Copies.size(),
        copyKindName(Dir), formatBytes(G.Bytes), formatBandwidth(Achieved),
        static_cast<int>(std::lround(100.0 * Achieved / Link)), formatBandwidth(Link), Why);
    Cost C = Model.make(G.Copies.size(), G.Time, Saving,
                        formatv("the bytes at the link's bandwidth ({0}) instead of the "
                                "measured time",
                                Source)
                            .str());
    RuntimeFinding F = finding(Id, std::move(Msg), nullptr, std::move(C));
    for (size_t I : G.Copies)
      if (std::optional<size_t> L = Index.launcher(WorkRef{WorkKind::Copy, I}))
        F.Calls.insert(*L);
    if (!F.Calls.empty())
      if (const SourceLocation *S = siteOf(*F.Calls.begin()))
        F.F.Loc = *S;
    Out.push_back(std::move(F));
  }
}

std::vector<RuntimeFinding> runRuntimeRules(const CostModel &Model, const Config &Cfg,
                                            const GlobList &Enabled) {
  Rules R(Model, Cfg, Enabled);
  std::vector<RuntimeFinding> Out;
  // Rules.def's runtime rules, in its order; a Method Rules lacks does not
  // compile.
#define CUDA_ADVISOR_RUNTIME_RULE(Id, Method, Level, Summary)                               \
  if (Enabled.contains(Id))                                                                 \
    R.Method(Out);
#include "cuda-advisor/Core/Rules.def"
  return Out;
}

} // namespace cuda_advisor::rank
