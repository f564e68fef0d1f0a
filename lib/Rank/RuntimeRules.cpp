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
#include "RuntimeRules.h"
#include "cuda-advisor/Rank/Occupancy.h"
#include "cuda-advisor/Rank/Rank.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

using namespace llvm;
using namespace cuda_advisor::profile;

namespace cuda_advisor::rank {

const std::vector<CheckInfo> &runtimeRules() {
  static const std::vector<CheckInfo> Rules = {
      {"runtime-repeated-copies",
       "the same copy (direction, size, host memory and call site) repeated many times: upload "
       "the data once if it does not change, download only the result that is needed",
       Severity::Warning, true},
      {"runtime-pageable-copies",
       "copies between the GPU and pageable host memory, which the runtime stages and makes "
       "synchronous: pin the host buffers",
       Severity::Warning, true},
      {"runtime-small-copies",
       "many small copies whose fixed per-copy cost dominates their transfer time: batch them",
       Severity::Warning, true},
      {"runtime-gpu-idle-gaps",
       "long gaps between GPU work while the host computes: the CPU is the bottleneck",
       Severity::Warning, true},
      {"runtime-sync-heavy",
       "frequent synchronizations that drain the GPU's queue and leave it idle (a jagged "
       "timeline)",
       Severity::Warning, true},
      {"runtime-low-occupancy",
       "launches whose theoretical occupancy is low for their block size, registers and shared "
       "memory, where another block size does better",
       Severity::Warning, true},
      {"runtime-launch-bound",
       "streams of kernels shorter than their launch overhead, back to back: fuse them or "
       "capture them in a CUDA Graph",
       Severity::Warning, true},
  };
  return Rules;
}

std::vector<StringRef> coveringChecks(StringRef RuleId) {
  if (RuleId == "runtime-repeated-copies" || RuleId == "runtime-small-copies")
    return {"transfer-in-loop"};
  if (RuleId == "runtime-pageable-copies")
    return {"transfer-pageable-async"};
  if (RuleId == "runtime-sync-heavy")
    return {"sync-in-loop", "sync-redundant"};
  if (RuleId == "runtime-launch-bound")
    return {"kernel-fusion"};
  if (RuleId == "runtime-low-occupancy")
    return {"launch-block-size"};
  return {};
}

namespace {

std::string describe(const SourceLocation &L) {
  return L.File + ":" + std::to_string(L.Line);
}

/// A short display name for a kernel: demangled, without return type and
/// parameters, shortened in the middle when long.
std::string kernelName(const Kernel &K) {
  std::string N = kernelKey(K.Demangled.empty() ? K.Name : K.Demangled);
  if (N.size() > 90)
    N = N.substr(0, 60) + "..." + N.substr(N.size() - 25);
  return N;
}

class Rules {
public:
  Rules(const CostModel &Model, const Config &Cfg)
      : Model(Model), Index(Model.index()), P(Index.profile()), Cfg(Cfg) {}

  void repeatedCopies(std::vector<RuntimeFinding> &Out);
  void pageableCopies(std::vector<RuntimeFinding> &Out);
  void smallCopies(std::vector<RuntimeFinding> &Out);
  void idleGaps(std::vector<RuntimeFinding> &Out);
  void syncHeavy(std::vector<RuntimeFinding> &Out);
  void lowOccupancy(std::vector<RuntimeFinding> &Out);
  void launchBound(std::vector<RuntimeFinding> &Out);

private:
  int64_t option(StringRef Rule, StringRef Name, int64_t Default) const {
    return Cfg.Options.getInt(Rule, Name, Default);
  }
  double optionShare(StringRef Rule, StringRef Name, double Default) const {
    return Cfg.Options.getDouble(Rule, Name, Default);
  }
  /// The user call site of call I, if its stack has one.
  const SourceLocation *siteOf(size_t I) const {
    const Stack *S = Index.stackOf(I);
    const StackFrame *F = S ? S->userFrame() : nullptr;
    return F ? &F->Loc : nullptr;
  }
  /// The launch site of kernel K (launched by call I): the user frame of
  /// the call's stack that is not the kernel's own host stub (nvcc and
  /// Clang route a <<<>>> launch through a function named like the kernel).
  const SourceLocation *launchSiteOf(size_t I, const Kernel &K) const {
    const Stack *S = Index.stackOf(I);
    if (!S || !S->userFrame())
      return nullptr;
    std::string Key = kernelKey(K.Demangled.empty() ? K.Name : K.Demangled);
    for (size_t F = static_cast<size_t>(S->UserFrame); F < S->Symbols.size(); ++F) {
      const StackFrame &Fr = S->Symbols[F];
      if (Fr.Library || !Fr.Loc.isValid())
        continue;
      if (!Fr.Function.empty() && kernelKey(Fr.Function) == Key)
        continue;
      return &Fr.Loc;
    }
    return &S->userFrame()->Loc;
  }
  /// Whether Saving is worth a finding: at least MinShare of the stretch
  /// from the process's first to its last GPU work (the process's wall time
  /// also holds CUDA's start-up, which dwarfs short programs).
  /// Idle gaps of the GPU at least this long are phases of the program
  /// (start-up, loading a data set, evaluation, I/O), not the rhythm of its
  /// loops: a whole `python train.py` spends seconds importing and building
  /// before its first step.
  uint64_t phaseGapNs(StringRef Rule) const {
    return static_cast<uint64_t>(option(Rule, "PhaseGapMs", 1000)) * 1000000;
  }
  /// The time from the first to the last GPU work of Busy, less its phase gaps.
  uint64_t activeSpan(StringRef Rule, const IntervalSet &Busy) const {
    if (Busy.empty())
      return 0;
    Interval Span{Busy.intervals().front().Start, Busy.intervals().back().End};
    uint64_t Length = Span.length();
    for (const Interval &G : Busy.gaps(Span))
      if (G.length() >= phaseGapNs(Rule))
        Length -= G.length();
    return Length;
  }
  /// Overlapping the host's work with the GPU's hides the shorter of the
  /// two: a saving Idle of such overlap is at most the GPU's busy time
  /// GpuBusy (a start-up of seconds before a few ms of GPU work saves ms).
  /// Returns the bounded saving and says so in How when it bounds it.
  static uint64_t boundByGpuBusy(uint64_t Idle, uint64_t GpuBusy, std::string &How) {
    if (Idle <= GpuBusy)
      return Idle;
    How += formatv("; overlapping the host's work with the GPU's hides at most the GPU's own "
                   "{0} of work, so the saving is that",
                   formatDuration(GpuBusy))
               .str();
    return GpuBusy;
  }
  bool worthIt(StringRef Rule, ProcessIndex Proc, uint64_t Saving) const {
    double MinShare = optionShare(Rule, "MinSavingShare", 0.01);
    const IntervalSet &Busy = Index.busy(Proc);
    uint64_t Base = Busy.empty() ? Index.wallNs(Proc) : activeSpan(Rule, Busy);
    return Saving > 0 && static_cast<double>(Saving) >= MinShare * static_cast<double>(Base);
  }
  RuntimeFinding finding(StringRef Rule, std::string Message, const SourceLocation *Site,
                         Cost C) const {
    RuntimeFinding R;
    R.F.CheckId = Rule.str();
    R.F.Level = Severity::Warning;
    R.F.Message = std::move(Message);
    if (Site)
      R.F.Loc = *Site;
    R.F.Ranking = std::move(C);
    return R;
  }
  /// The copy records of call I.
  SmallVector<const Copy *, 2> copiesOf(size_t I) const {
    SmallVector<const Copy *, 2> Out;
    for (WorkRef W : Index.workOf(I))
      if (W.Kind == WorkKind::Copy)
        Out.push_back(&P.Copies[W.Index]);
    return Out;
  }
  /// Host intervals of the calls that make the host wait for the GPU.
  IntervalSet waitingCalls(ProcessIndex Proc) const {
    std::vector<Interval> V;
    for (size_t I = 0; I < P.ApiCalls.size(); ++I) {
      const ApiCall &A = P.ApiCalls[I];
      StringRef F = apiFamily(A.Name);
      if (A.Process == Proc && (F == "sync" || F == "free" || F == "alloc" || Index.blocks(I)))
        V.push_back({A.Start, A.End});
    }
    return IntervalSet(std::move(V));
  }

  const CostModel &Model;
  const ProfileIndex &Index;
  const Profile &P;
  const Config &Cfg;
};

/// Copy calls grouped by what a rule compares.
struct CopyGroup {
  std::vector<size_t> Calls;
  uint64_t Bytes = 0, Cost = 0;
  const SourceLocation *Site = nullptr;
};

void Rules::repeatedCopies(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-repeated-copies";
  uint64_t MinRepeats = static_cast<uint64_t>(option(Id, "MinRepeats", 10));
  uint64_t MinBytes = static_cast<uint64_t>(option(Id, "MinBytes", 256 * 1024));
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
      if (2 * Sources > N)
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
  uint64_t MinCopies = static_cast<uint64_t>(option(Id, "MinCopies", 10));
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
  uint64_t MaxBytes = static_cast<uint64_t>(option(Id, "MaxBytes", 64 * 1024));
  uint64_t MinCount = static_cast<uint64_t>(option(Id, "MinCount", 100));
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
    uint64_t Cost = Model.transferCost(I);
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
    std::string Msg = formatv("{0} {1} copies of less than {2} ({3} in all) took {4}, mostly "
                              "fixed per-copy cost: gather the data into one buffer and copy it "
                              "at once",
                              N, copyKindName(Dir), formatBytes(MaxBytes), formatBytes(G.Bytes),
                              formatDuration(G.Cost));
    Cost C = Model.make(N, G.Cost, Saving,
                        formatv("each copy's time beyond its bytes at the pinned bandwidth is "
                                "fixed overhead; one copy instead of {0} pays it once",
                                N),
                        CostModel::Clock::Host);
    RuntimeFinding R = finding(Id, std::move(Msg), G.Site, std::move(C));
    R.Calls.insert(G.Calls.begin(), G.Calls.end());
    Out.push_back(std::move(R));
  }
}

void Rules::idleGaps(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-gpu-idle-gaps";
  uint64_t MinGap = static_cast<uint64_t>(option(Id, "MinGapUs", 50)) * 1000;
  // A few gaps are set-up and tear-down (filling inputs, checking results);
  // a host-bound loop makes many.
  uint64_t MinGaps = static_cast<uint64_t>(option(Id, "MinGaps", 10));
  double MinShare = optionShare(Id, "MinIdleShare", 0.1);
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
    IntervalSet Waiting = waitingCalls(Proc);
    uint64_t Idle = 0, Count = 0, Longest = 0;
    uint64_t Active = activeSpan(Id, Busy), Phases = Span.length() - Active;
    for (const Interval &G : Busy.gaps(Span)) {
      // The time the host spent inside calls that wait for the GPU belongs
      // to the synchronization and copy rules.
      uint64_t HostWork = Waiting.uncovered(G);
      if (G.length() < MinGap || HostWork < MinGap || G.length() >= phaseGapNs(Id))
        continue;
      Idle += HostWork;
      Longest = std::max(Longest, HostWork);
      ++Count;
    }
    if (Count < MinGaps || static_cast<double>(Idle) < MinShare * static_cast<double>(Active))
      continue;
    std::string Gpu = GpusOf[Proc] > 1 ? formatv("GPU {0}", Dev).str() : std::string("the GPU");
    std::string Msg =
        formatv("{5} waited for the CPU {0} times, {1} in all ({2}% of the {3} between its "
                "first and last work{6}; the longest gap {4}): the host's own work between "
                "launches is the bottleneck; overlap it with the GPU (asynchronous data "
                "loading, more work per launch, CUDA Graphs)",
                Count, formatDuration(Idle),
                static_cast<int>(std::lround(100.0 * static_cast<double>(Idle) /
                                             static_cast<double>(Active))),
                formatDuration(Active), formatDuration(Longest), Gpu,
                Phases ? formatv(", less {0} of idle phases of at least {1} (start-up, "
                                 "loading, evaluation)",
                                 formatDuration(Phases), formatDuration(phaseGapNs(Id)))
                             .str()
                       : std::string());
    std::string How =
        formatv("an upper bound: the idle gaps of at least {0} while the host was not waiting "
                "in a CUDA call, if all that host work ran concurrently with the GPU",
                formatDuration(MinGap))
            .str();
    uint64_t Saving = boundByGpuBusy(Idle, Busy.total(), How);
    Cost C = Model.make(Count, Idle, Saving, std::move(How), CostModel::Clock::Host);
    RuntimeFinding R = finding(Id, std::move(Msg), nullptr, std::move(C));
    R.Processes.insert(Proc);
    R.OverlapOf = Proc;
    R.F.Evidence["device"] = static_cast<int64_t>(Dev);
    Out.push_back(std::move(R));
  }
}

void Rules::syncHeavy(std::vector<RuntimeFinding> &Out) {
  static constexpr StringRef Id = "runtime-sync-heavy";
  uint64_t MinSyncs = static_cast<uint64_t>(option(Id, "MinSyncs", 50));
  double MinPerSecond = optionShare(Id, "MinSyncsPerGpuSecond", 1000);
  std::map<ProcessIndex, std::vector<size_t>> Syncs;
  for (size_t I = 0; I < P.ApiCalls.size(); ++I)
    if (apiFamily(P.ApiCalls[I].Name) == "sync" && P.ApiCalls[I].Name != "cudaStreamWaitEvent")
      Syncs[P.ApiCalls[I].Process].push_back(I);
  for (auto &[Proc, Calls] : Syncs) {
    uint64_t N = Calls.size();
    uint64_t Gpu = Index.busy(Proc).total();
    if (N < MinSyncs || Gpu == 0 ||
        static_cast<double>(N) / (static_cast<double>(Gpu) / 1e9) < MinPerSecond)
      continue;
    uint64_t Measured = 0, Idle = 0;
    std::map<std::string, std::pair<uint64_t, const SourceLocation *>> Sites;
    for (size_t I : Calls) {
      Measured += P.ApiCalls[I].duration();
      uint64_t Around = Model.idleAroundReturn(I);
      if (Around >= phaseGapNs(Id))
        Around = 0; // A phase of the program (start-up, evaluation), not the sync's.
      Idle += Around;
      if (const SourceLocation *S = siteOf(I)) {
        auto &E = Sites[describe(*S)];
        E.first += Around;
        E.second = S;
      }
    }
    // Without the waits the host queues ahead and its work overlaps the
    // GPU's.
    std::string How = "the GPU's idle time around each synchronization's return, from its "
                      "last work to the next, less the gap of back-to-back work";
    uint64_t Saving = boundByGpuBusy(Idle, Gpu, How);
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
  double MaxShare = optionShare(Id, "MaxOccupancy", 0.5);
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
  uint64_t MinRun = static_cast<uint64_t>(option(Id, "MinKernels", 20));
  uint64_t MaxGap = static_cast<uint64_t>(option(Id, "MaxGapUs", 50)) * 1000;
  std::map<std::tuple<ProcessIndex, uint32_t, uint32_t>, std::vector<size_t>> Streams;
  for (size_t I = 0; I < P.Kernels.size(); ++I)
    Streams[{P.Kernels[I].Process, P.Kernels[I].Device, P.Kernels[I].Stream}].push_back(I);
  std::map<ProcessIndex, IntervalSet> Waiting;
  for (auto &[Key, Ks] : Streams) {
    ProcessIndex Proc = std::get<0>(Key);
    auto [WIt, New] = Waiting.try_emplace(Proc);
    if (New)
      WIt->second = waitingCalls(Proc);
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
      if (GapNs < KernelNs / 2 || !worthIt(Id, Proc, Excess))
        return;
      uint64_t N = End - Begin;
      std::string Msg = formatv(
          "{0} kernels of {1} on average ran back to back with {2} of idle GPU between them ({3}% "
          "of that stretch): they are shorter than their launch overhead ({4} per launch); fuse "
          "them, or capture the sequence in a CUDA Graph (torch.cuda.graphs, torch.compile)",
          N, formatDuration(KernelNs / N), formatDuration(GapNs),
          static_cast<int>(std::lround(100.0 * static_cast<double>(GapNs) /
                                       static_cast<double>(GapNs + KernelNs))),
          formatDuration(Launch));
      // Measured: the stretch of the timeline, kernels and gaps.
      Cost C = Model.make(N, KernelNs + GapNs, Excess,
                          "a CUDA Graph launches the sequence at once: the gaps between the "
                          "kernels shrink to about 1 us each",
                          CostModel::Clock::Host);
      const SourceLocation *Site = nullptr;
      if (std::optional<size_t> L = Index.launcher(WorkRef{WorkKind::Kernel, Ks[Begin]}))
        Site = launchSiteOf(*L, P.Kernels[Ks[Begin]]);
      RuntimeFinding F = finding(Id, std::move(Msg), Site, std::move(C));
      for (size_t J = Begin; J < End; ++J)
        F.Kernels.insert(Ks[J]);
      Out.push_back(std::move(F));
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
}

} // namespace

std::vector<RuntimeFinding> runRuntimeRules(const CostModel &Model, const Config &Cfg,
                                            const GlobList &Enabled) {
  Rules R(Model, Cfg);
  std::vector<RuntimeFinding> Out;
  using RuleFn = void (Rules::*)(std::vector<RuntimeFinding> &);
  static const std::pair<const char *, RuleFn> All[] = {
      {"runtime-repeated-copies", &Rules::repeatedCopies},
      {"runtime-pageable-copies", &Rules::pageableCopies},
      {"runtime-small-copies", &Rules::smallCopies},
      {"runtime-gpu-idle-gaps", &Rules::idleGaps},
      {"runtime-sync-heavy", &Rules::syncHeavy},
      {"runtime-low-occupancy", &Rules::lowOccupancy},
      {"runtime-launch-bound", &Rules::launchBound},
  };
  for (auto [Id, Fn] : All)
    if (Enabled.contains(Id))
      (R.*Fn)(Out);
  return Out;
}

} // namespace cuda_advisor::rank
