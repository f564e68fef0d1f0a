//===- RuleContext.h - What the runtime rules share (private to lib/Rank) -*- C++ -*-===//
//
// The class whose member functions are the runtime-* rules (RuntimeRules.cpp,
// PyTorchRules.cpp) and the helpers they share: a record's user call site,
// the threshold a saving must pass, how a finding is made.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_LIB_RANK_RULECONTEXT_H
#define CUDA_ADVISOR_LIB_RANK_RULECONTEXT_H

#include "RuntimeRules.h"
#include "cuda-advisor/Core/Units.h"
#include "cuda-advisor/Rank/Join.h"
#include "cuda-advisor/Rank/Rank.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cuda_advisor::rank {

inline std::string describe(const SourceLocation &L) {
  return L.File + ":" + std::to_string(L.Line);
}

/// A short display name for a kernel: demangled, without return type and
/// parameters, shortened in the middle when long.
inline std::string kernelName(const profile::Kernel &K) {
  std::string N = kernelKey(K.Demangled.empty() ? K.Name : K.Demangled);
  if (N.size() > 90)
    N = N.substr(0, 60) + "..." + N.substr(N.size() - 25);
  return N;
}

/// The launch site of kernel K (launched by call I): the user frame of the
/// call's stack that is not the kernel's own host stub (nvcc and Clang route
/// a <<<>>> launch through a function named like the kernel).
inline const SourceLocation *launchSite(const ProfileIndex &Index, size_t I,
                                        const profile::Kernel &K) {
  const profile::Stack *S = Index.stackOf(I);
  if (!S || !S->userFrame())
    return nullptr;
  std::string Key = kernelKey(K.Demangled.empty() ? K.Name : K.Demangled);
  for (size_t F = static_cast<size_t>(S->UserFrame); F < S->Symbols.size(); ++F) {
    const profile::StackFrame &Fr = S->Symbols[F];
    if (Fr.Library || !Fr.Loc.isValid())
      continue;
    if (!Fr.Function.empty() && kernelKey(Fr.Function) == Key)
      continue;
    return &Fr.Loc;
  }
  return &S->userFrame()->Loc;
}

class Rules {
public:
  Rules(const CostModel &Model, const Config &Cfg, const GlobList &Enabled)
      : Model(Model), Index(Model.index()), P(Index.profile()), Cfg(Cfg), Enabled(Enabled) {}

  void repeatedCopies(std::vector<RuntimeFinding> &Out);
  void pageableCopies(std::vector<RuntimeFinding> &Out);
  void smallCopies(std::vector<RuntimeFinding> &Out);
  void idleGaps(std::vector<RuntimeFinding> &Out);
  void syncHeavy(std::vector<RuntimeFinding> &Out);
  void lowOccupancy(std::vector<RuntimeFinding> &Out);
  void launchBound(std::vector<RuntimeFinding> &Out);
  // PyTorchRules.cpp: what PyTorch programs need most.
  void tensorCoresUnused(std::vector<RuntimeFinding> &Out);
  void repeatedSequence(std::vector<RuntimeFinding> &Out);
  void elementwiseChain(std::vector<RuntimeFinding> &Out);
  void lowCopyOverlap(std::vector<RuntimeFinding> &Out);
  void lowKernelConcurrency(std::vector<RuntimeFinding> &Out);
  void lowCopyThroughput(std::vector<RuntimeFinding> &Out);
  void dataLoading(std::vector<RuntimeFinding> &Out);

private:
  /// What runtime-data-loading reports, computed once: its findings and the
  /// records they are about. runtime-gpu-idle-gaps leaves out the GPU's idle
  /// gaps before these copies and runtime-sync-heavy these synchronizations,
  /// so that no time is counted twice (docs/checks/runtime-data-loading.md).
  struct Loading {
    std::vector<RuntimeFinding> Findings;
    std::set<size_t> Copies, Syncs; ///< API calls.
  };
  /// runtime-data-loading's findings; empty when the rule is not enabled.
  const Loading &loading();
  std::optional<Loading> LoadingCache;

  /// Option Name of Rule: the configured value, or the default Rules.def
  /// declares (a name it lacks stops the program).
  int64_t option(llvm::StringRef Rule, llvm::StringRef Name) const {
    return intOption(Cfg.Options, Rule, Name);
  }
  double optionShare(llvm::StringRef Rule, llvm::StringRef Name) const {
    return doubleOption(Cfg.Options, Rule, Name);
  }
  /// The user call site of call I, if its stack has one.
  const SourceLocation *siteOf(size_t I) const {
    const profile::Stack *S = Index.stackOf(I);
    const profile::StackFrame *F = S ? S->userFrame() : nullptr;
    return F ? &F->Loc : nullptr;
  }
  const SourceLocation *launchSiteOf(size_t I, const profile::Kernel &K) const {
    return launchSite(Index, I, K);
  }
  /// Whether Saving is worth a finding: at least MinShare of the stretch
  /// from the process's first to its last GPU work (the process's wall time
  /// also holds CUDA's start-up, which dwarfs short programs).
  /// Idle gaps of the GPU at least this long are phases of the program
  /// (start-up, loading a data set, evaluation, I/O), not the rhythm of its
  /// loops: a whole `python train.py` spends seconds importing and building
  /// before its first step.
  uint64_t phaseGapNs(llvm::StringRef Rule) const {
    return static_cast<uint64_t>(option(Rule, "PhaseGapMs")) * 1000000;
  }
  /// The time from the first to the last GPU work of Busy, less its phase gaps.
  uint64_t activeSpan(llvm::StringRef Rule, const IntervalSet &Busy) const {
    if (Busy.empty())
      return 0;
    Interval Span{Busy.intervals().front().Start, Busy.intervals().back().End};
    uint64_t Length = Span.length();
    uint64_t Phase = phaseGapNs(Rule);
    for (const Interval &G : Busy.gaps(Span))
      if (G.length() >= Phase)
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
    How += llvm::formatv("; overlapping the host's work with the GPU's hides at most the GPU's own "
                   "{0} of work, so the saving is that",
                   formatDuration(GpuBusy))
               .str();
    return GpuBusy;
  }
  bool worthIt(llvm::StringRef Rule, profile::ProcessIndex Proc, uint64_t Saving) const {
    double MinShare = optionShare(Rule, "MinSavingShare");
    const IntervalSet &Busy = Index.busy(Proc);
    uint64_t Base = Busy.empty() ? Index.wallNs(Proc) : activeSpan(Rule, Busy);
    return Saving > 0 && static_cast<double>(Saving) >= MinShare * static_cast<double>(Base);
  }
  RuntimeFinding finding(llvm::StringRef Rule, std::string Message, const SourceLocation *Site,
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
  llvm::SmallVector<const profile::Copy *, 2> copiesOf(size_t I) const {
    llvm::SmallVector<const profile::Copy *, 2> Out;
    for (WorkRef W : Index.workOf(I))
      if (W.Kind == WorkKind::Copy)
        Out.push_back(&P.Copies[W.Index]);
    return Out;
  }
  /// The GPU work of one device of a process, by start.
  std::vector<std::pair<uint64_t, WorkRef>> workByStart(profile::ProcessIndex Proc,
                                                        uint32_t Dev) const {
    std::vector<std::pair<uint64_t, WorkRef>> Out;
    for (size_t I = 0; I < P.Kernels.size(); ++I)
      if (P.Kernels[I].Process == Proc && P.Kernels[I].Device == Dev)
        Out.push_back({P.Kernels[I].Start, WorkRef{WorkKind::Kernel, I}});
    for (size_t I = 0; I < P.Copies.size(); ++I)
      if (P.Copies[I].Process == Proc && P.Copies[I].Device == Dev)
        Out.push_back({P.Copies[I].Start, WorkRef{WorkKind::Copy, I}});
    for (size_t I = 0; I < P.Memsets.size(); ++I)
      if (P.Memsets[I].Process == Proc && P.Memsets[I].Device == Dev)
        Out.push_back({P.Memsets[I].Start, WorkRef{WorkKind::Memset, I}});
    std::sort(Out.begin(), Out.end(), [](const auto &A, const auto &B) {
      return A.first != B.first ? A.first < B.first : A.second.Index < B.second.Index;
    });
    return Out;
  }
  /// For each piece of work of Starts (in order), whether it is the first of
  /// its kind (kernel name, copy direction, memset) from its call stack.
  /// Stacks compare by their frames: a trace may give every call a stack
  /// record of its own.
  std::vector<bool> firstRuns(llvm::ArrayRef<std::pair<uint64_t, WorkRef>> Starts) const {
    std::map<const profile::Stack *, std::string> StackKeys;
    auto StackKey = [&](const profile::Stack *S) -> const std::string & {
      auto [It, New] = StackKeys.try_emplace(S);
      if (New && S) {
        for (uint64_t A : S->Frames)
          It->second += ' ' + std::to_string(A);
        if (S->Frames.empty())
          for (const profile::StackFrame &F : S->Symbols)
            It->second += llvm::formatv(" {0}:{1}:{2}", F.Loc.File, F.Loc.Line, F.Function).str();
      }
      return It->second;
    };
    std::set<std::string> Seen;
    std::vector<bool> First(Starts.size());
    for (size_t I = 0; I < Starts.size(); ++I) {
      WorkRef W = Starts[I].second;
      std::string Key = std::to_string(static_cast<int>(W.Kind)) + ' ';
      if (W.Kind == WorkKind::Kernel)
        Key += P.Kernels[W.Index].Name;
      else if (W.Kind == WorkKind::Copy)
        Key += copyKindName(P.Copies[W.Index].Kind);
      Key += StackKey(Index.stackOf(W));
      First[I] = Seen.insert(std::move(Key)).second;
    }
    return First;
  }
  /// Host intervals that are not the program's own work between launches:
  /// the calls that make the host wait for the GPU, and the profiler's own
  /// intervals (CUPTI's overhead records: its buffers and instrumentation,
  /// the driver's lazy loading of modules on first use; the collector's
  /// call-site captures), which a run without the profiler, or past its
  /// warm-up, does not pay.
  IntervalSet notOwnHostWork(profile::ProcessIndex Proc) const {
    std::vector<Interval> V;
    if (Proc < P.Processes.size())
      for (auto [Start, End] : P.Processes[Proc].Overheads)
        V.push_back({Start, End});
    apiCallIntervals(Proc, {"sync", "free", "alloc"}, V);
    return IntervalSet(std::move(V));
  }

  /// Appends to V the runtime calls of Proc of the given families, and the
  /// blocking ones; returns whether the recording has any call of Proc.
  bool apiCallIntervals(profile::ProcessIndex Proc,
                        std::initializer_list<llvm::StringRef> Families,
                        std::vector<Interval> &V) const {
    bool Any = false;
    for (size_t I = 0; I < P.ApiCalls.size(); ++I) {
      const profile::ApiCall &A = P.ApiCalls[I];
      if (A.Process != Proc)
        continue;
      Any = true;
      if (llvm::is_contained(Families, apiFamily(A.Name)) || Index.blocks(I))
        V.push_back({A.Start, A.End});
    }
    return Any;
  }

  /// The time the host of Proc spent waiting for device Dev while it was
  /// busy: inside synchronizations, blocking copies, frees and launches
  /// (a launch blocks when the queue is full), counted where the device
  /// ran work. Nothing when the recording holds no runtime calls of Proc.
  std::optional<uint64_t> hostWaitOnBusyGpu(profile::ProcessIndex Proc, uint32_t Dev) const {
    std::vector<Interval> V;
    if (!apiCallIntervals(Proc, {"sync", "free", "launch"}, V))
      return std::nullopt;
    const IntervalSet &Busy = Index.busy(Proc, Dev);
    uint64_t Waited = 0;
    IntervalSet Waits(std::move(V)); // Named: intervals() views its storage.
    for (const Interval &W : Waits.intervals())
      Waited += Busy.covered(W);
    return Waited;
  }

  const CostModel &Model;
  const ProfileIndex &Index;
  const profile::Profile &P;
  const Config &Cfg;
  const GlobList &Enabled;
};

} // namespace cuda_advisor::rank

#endif
