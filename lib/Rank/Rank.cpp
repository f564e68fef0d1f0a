//===- Rank.cpp - Joining findings to a profile and ranking them ----------===//
//
// rankFindings: the run summary (GPU busy time, wall time, totals, warnings
// about the run), the join and cost of every static finding, the runtime
// rules' findings (less those a static finding already covers), and the
// order: by estimated saving, then the findings not seen in the profile in
// their static order.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Rank/Rank.h"
#include "Locate.h"
#include "Merge.h"
#include "RuntimeRules.h"
#include "cuda-advisor/Rank/Chart.h"
#include "cuda-advisor/Rank/CostModel.h"
#include "cuda-advisor/Rank/Join.h"
#include "cuda-advisor/Rank/Timeline.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <set>

using namespace llvm;
using namespace cuda_advisor::profile;

namespace cuda_advisor::rank {
namespace {

/// No finding claims more time than the run had, whatever the records say.
void clampToRun(Cost &C, const RunSummary &S) {
  if (S.WallNs) {
    C.MeasuredNs = std::min(C.MeasuredNs, S.WallNs);
    C.SavingNs = std::min(C.SavingNs, S.WallNs);
  }
  C.GpuShare = std::clamp(C.GpuShare, 0.0, 1.0);
  C.WallShare = std::clamp(C.WallShare, 0.0, 1.0);
}

void summarize(const ProfileIndex &Index, RunSummary &S) {
  const Profile &P = Index.profile();
  for (const Process &Proc : P.Processes)
    if (llvm::find(S.Profiles, Proc.SourceFile) == S.Profiles.end())
      S.Profiles.push_back(Proc.SourceFile);
  S.WallNs = Index.wallNs();
  S.GpuBusyNs = Index.gpuBusyNs();
  for (const Kernel &K : P.Kernels)
    S.KernelNs += K.duration();
  for (const Copy &C : P.Copies)
    S.CopyNs += C.duration();
  for (const Memset &M : P.Memsets)
    S.MemsetNs += M.duration();
  std::map<std::pair<ProcessIndex, uint32_t>, std::vector<Interval>> KernelIv, TransferIv;
  for (const Kernel &K : P.Kernels)
    KernelIv[{K.Process, K.Device}].push_back({K.Start, K.End});
  for (const Copy &C : P.Copies)
    TransferIv[{C.Process, C.Device}].push_back({C.Start, C.End});
  for (const Memset &M : P.Memsets)
    TransferIv[{M.Process, M.Device}].push_back({M.Start, M.End});
  for (auto &[Key, V] : KernelIv)
    S.KernelBusyNs += IntervalSet(std::move(V)).total();
  for (auto &[Key, V] : TransferIv)
    S.TransferBusyNs += IntervalSet(std::move(V)).total();
  S.Kernels = P.Kernels.size();
  S.Copies = P.Copies.size();
  S.ApiCalls = P.ApiCalls.size();

  if (P.Kernels.empty() && !P.Metrics.empty())
    S.Warnings.push_back("the Nsight Compute measurements hold no timeline (ncu replays each "
                         "kernel): they refine the estimates of kernels that a recording of the "
                         "run (cuda-advisor record, torch.profiler) shows; give one with --profile");
  for (const Process &Proc : P.Processes) {
    std::string Who = Proc.SourceFile;
    if (Proc.FailedCalls > 0 || !Proc.FirstErrorApi.empty()) {
      std::string Error = !Proc.FirstErrorName.empty()
                              ? Proc.FirstErrorName
                              : "CUDA error " + std::to_string(Proc.FirstErrorCode);
      std::string Where;
      if (Proc.FirstErrorStack >= 0 && static_cast<size_t>(Proc.FirstErrorStack) < P.Stacks.size())
        if (const StackFrame *F = P.Stacks[static_cast<size_t>(Proc.FirstErrorStack)].userFrame())
          Where = " at " + F->Loc.File + ":" + std::to_string(F->Loc.Line);
      S.Warnings.push_back(formatv("{0}: the run hit CUDA errors: first {1} in {2}{3}; {4} "
                                   "{5} failed: the timings describe a broken run",
                                   Who, Error,
                                   Proc.FirstErrorApi.empty() ? "a CUDA call" : Proc.FirstErrorApi,
                                   Where, Proc.FailedCalls, Proc.FailedCalls == 1 ? "call" : "calls")
                               .str());
    }
    if (Proc.DroppedRecords > 0)
      S.Warnings.push_back(formatv("{0}: {1} records were dropped (CUPTI's buffers were full): "
                                   "the profile misses part of the run",
                                   Who, Proc.DroppedRecords)
                               .str());
    if (Proc.Signal != 0)
      S.Warnings.push_back(formatv("{0}: the program was killed by signal {1}: the profile "
                                   "covers the run until then",
                                   Who, Proc.Signal)
                               .str());
    for (const std::string &W : Proc.Warnings)
      S.Warnings.push_back(W);
  }
}

/// The records a static finding's cost is about, by check id.
struct Claims {
  std::map<std::string, std::set<size_t>> Calls, Kernels;
};

/// Shares against the runs the finding's records come from: several
/// profiles of different programs can be merged, and a finding about one of
/// them is a share of that one's time.
void shareOfOwnRuns(Cost &C, const ProfileIndex &Index, ArrayRef<size_t> Calls,
                    ArrayRef<size_t> Kernels, const std::set<ProcessIndex> &Extra) {
  const Profile &P = Index.profile();
  std::set<ProcessIndex> Procs(Extra);
  for (size_t I : Calls)
    Procs.insert(P.ApiCalls[I].Process);
  for (size_t I : Kernels)
    Procs.insert(P.Kernels[I].Process);
  if (Procs.empty() || Procs.size() == P.Processes.size())
    return;
  uint64_t Wall = 0, Busy = 0;
  for (ProcessIndex Proc : Procs) {
    Wall += Index.wallNs(Proc);
    Busy += Index.busy(Proc).total();
  }
  double Measured = static_cast<double>(C.MeasuredNs);
  if (C.GpuShare > 0 && Busy)
    C.GpuShare = Measured / static_cast<double>(Busy);
  if (Wall)
    C.WallShare = Measured / static_cast<double>(Wall);
}

/// With several processes merged (a multi-process run, several runs): which
/// process and GPU a runtime finding is about, in its message and evidence.
void sayWhere(RuntimeFinding &R, const Profile &P) {
  std::set<ProcessIndex> Procs = R.Processes;
  std::set<uint32_t> Devices;
  for (size_t I : R.Calls)
    Procs.insert(P.ApiCalls[I].Process);
  for (size_t I : R.Kernels) {
    Procs.insert(P.Kernels[I].Process);
    Devices.insert(P.Kernels[I].Device);
  }
  // The copies, memsets and kernels the calls made (same process, same
  // correlation id) name the GPUs.
  for (size_t I : R.Calls) {
    const ApiCall &A = P.ApiCalls[I];
    auto Same = [&](const auto &Rec) {
      return Rec.Process == A.Process && Rec.Correlation == A.Correlation && A.Correlation;
    };
    for (const Copy &Cp : P.Copies)
      if (Same(Cp))
        Devices.insert(Cp.Device);
    for (const Kernel &K : P.Kernels)
      if (Same(K))
        Devices.insert(K.Device);
  }
  if (std::optional<int64_t> Id = getEvidence(R.F, evidence::Device))
    Devices.insert(static_cast<uint32_t>(*Id));
  if (Procs.size() != 1)
    return;
  const Process &Proc = P.Processes[*Procs.begin()];
  std::string Where = " (process " + std::to_string(Proc.Pid);
  if (Devices.size() == 1)
    Where += ", GPU " + std::to_string(*Devices.begin());
  Where += ")";
  R.F.Message += Where;
  setEvidence(R.F, evidence::Pid, static_cast<int64_t>(Proc.Pid));
  if (!Proc.SourceFile.empty())
    setEvidence(R.F, evidence::ProfileFile, Proc.SourceFile);
  if (Devices.size() == 1)
    setEvidence(R.F, evidence::Device, static_cast<int64_t>(*Devices.begin()));
}

bool coveredByStatic(const RuntimeFinding &R, const Claims &C) {
  size_t Total = R.Calls.size() + R.Kernels.size();
  if (Total == 0)
    return false;
  size_t Covered = 0;
  for (StringRef Check : coveringChecks(R.F.CheckId)) {
    auto Cs = C.Calls.find(Check.str());
    if (Cs != C.Calls.end())
      for (size_t I : R.Calls)
        Covered += Cs->second.count(I);
    auto Ks = C.Kernels.find(Check.str());
    if (Ks != C.Kernels.end())
      for (size_t I : R.Kernels)
        Covered += Ks->second.count(I);
  }
  return 2 * Covered >= Total;
}

} // namespace

RunSummary rankFindings(std::vector<Finding> &Findings, const Profile &P, const Config &Cfg,
                        const RankOptions &Opts, TimelineChart *Chart) {
  RunSummary S;
  ProfileIndex Index(P);
  Joiner Join(Index);
  CostModel Model(Index, Join, Cfg);
  summarize(Index, S);

  // The static findings. Records[I]: the API calls and kernels finding I is
  // about, so that the total saving counts each record once.
  Claims C;
  std::vector<RecordSet> Records(Findings.size());
  for (size_t I = 0; I < Findings.size(); ++I) {
    Finding &F = Findings[I];
    Match M = Join.match(F);
    std::optional<Cost> Estimate = Model.estimate(F, M);
    if (!Estimate) {
      Cost Unmatched;
      Unmatched.Matched = false;
      F.Ranking = Unmatched;
      continue;
    }
    F.Ranking = std::move(*Estimate);
    shareOfOwnRuns(*F.Ranking, Index, M.Calls, M.Kernels, {});
    clampToRun(*F.Ranking, S);
    C.Calls[F.CheckId].insert(M.Calls.begin(), M.Calls.end());
    C.Kernels[F.CheckId].insert(M.Kernels.begin(), M.Kernels.end());
    llvm::sort(M.Calls);
    llvm::sort(M.Kernels);
    Records[I] = {std::move(M.Calls), std::move(M.Kernels)};
  }

  // The runtime rules. OverlapOf[I]: the process whose GPU busy time bounds
  // finding I's saving together with the others of that process
  // (RuntimeFinding::OverlapOf).
  std::map<size_t, ProcessIndex> OverlapOf;
  GlobList Enabled(Cfg.Checks);
  std::vector<RuntimeFinding> Runtime = runRuntimeRules(Model, Cfg, Enabled);
  // A static finding of the same fix (transfer-in-loop for repeated copies)
  // replaces the runtime one; one of another fix on the same records
  // absorbs it, as do runtime findings of each other: one thief, one finding.
  llvm::erase_if(Runtime, [&](const RuntimeFinding &R) { return coveredByStatic(R, C); });
  placeAtFunctions(Runtime, P);
  mergeIntoStatic(Runtime, Findings, Records);
  mergeRuntime(Runtime);
  for (RuntimeFinding &R : Runtime) {
    if (R.OverlapOf)
      OverlapOf[Findings.size()] = *R.OverlapOf;
    if (P.Processes.size() > 1)
      sayWhere(R, P);
    std::vector<size_t> Calls(R.Calls.begin(), R.Calls.end()),
        Kernels(R.Kernels.begin(), R.Kernels.end());
    shareOfOwnRuns(*R.F.Ranking, Index, Calls, Kernels, R.Processes);
    clampToRun(*R.F.Ranking, S);
    Findings.push_back(std::move(R.F));
    Records.push_back({std::move(Calls), std::move(Kernels)});
  }

  // Order: ranked by saving (then by measured time), the rest as they were.
  std::vector<size_t> Ranked, Unranked;
  for (size_t I = 0; I < Findings.size(); ++I)
    (Findings[I].Ranking && Findings[I].Ranking->Matched ? Ranked : Unranked).push_back(I);
  std::stable_sort(Ranked.begin(), Ranked.end(), [&](size_t A, size_t B) {
    const Cost &X = *Findings[A].Ranking, &Y = *Findings[B].Ranking;
    if (X.SavingNs != Y.SavingNs)
      return X.SavingNs > Y.SavingNs;
    return X.MeasuredNs > Y.MeasuredNs;
  });
  uint64_t MinSaving = Opts.MinSavingNs;
  if (Opts.MinSavingShare > 0) {
    uint64_t Base = S.GpuBusyNs ? S.GpuBusyNs : S.WallNs;
    MinSaving = std::max(MinSaving, static_cast<uint64_t>(Opts.MinSavingShare *
                                                          static_cast<double>(Base)));
  }
  if (MinSaving > 0)
    llvm::erase_if(Ranked, [&](size_t I) { return Findings[I].Ranking->SavingNs < MinSaving; });
  if (Opts.Top && Ranked.size() > *Opts.Top)
    Ranked.resize(*Opts.Top);

  // Findings about the same records are alternatives (pin the buffer, or
  // upload once): the total counts each record's saving once, from the
  // finding that saves the most.
  std::set<size_t> CountedCalls, CountedKernels;
  std::map<ProcessIndex, uint64_t> OverlapLeft;
  std::vector<Finding> Ordered;
  Ordered.reserve(Ranked.size() + Unranked.size());
  std::optional<ChartBuilder> Drawing;
  if (Chart)
    Drawing.emplace(Index);
  for (size_t I : Ranked) {
    const auto &[Calls, Kernels] = Records[I];
    if (Drawing)
      Findings[I].Ranking->Highlight = Drawing->addFinding(Calls, Kernels);
    size_t Total = Calls.size() + Kernels.size(), Fresh = 0;
    for (size_t R : Calls)
      Fresh += CountedCalls.insert(R).second;
    for (size_t R : Kernels)
      Fresh += CountedKernels.insert(R).second;
    uint64_t Saving = Findings[I].Ranking->SavingNs;
    uint64_t Counted = Total == 0 ? Saving
                                  : static_cast<uint64_t>(static_cast<double>(Saving) *
                                                          static_cast<double>(Fresh) /
                                                          static_cast<double>(Total));
    if (auto O = OverlapOf.find(I); O != OverlapOf.end()) {
      auto [Left, New] = OverlapLeft.try_emplace(O->second, Index.busy(O->second).total());
      Counted = std::min(Counted, Left->second);
      Left->second -= Counted;
    }
    S.TotalSavingNs += Counted;
    Ordered.push_back(std::move(Findings[I]));
  }
  // Unmatched runtime findings do not exist; unmatched static ones keep
  // their place after the ranked ones.
  for (size_t I : Unranked)
    Ordered.push_back(std::move(Findings[I]));
  S.RankedFindings = static_cast<unsigned>(Ranked.size());
  // Savings of different findings can overlap; their sum never exceeds the run.
  if (S.WallNs && S.TotalSavingNs > S.WallNs)
    S.TotalSavingNs = S.WallNs;
  Findings = std::move(Ordered);
  if (Drawing)
    *Chart = Drawing->take();
  return S;
}

} // namespace cuda_advisor::rank
