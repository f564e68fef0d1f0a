//===- Timeline.cpp - What ran when, indexed for the cost model -----------===//
#include "cuda-advisor/Rank/Timeline.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>

using namespace llvm;
using namespace cuda_advisor::profile;

namespace cuda_advisor::rank {

IntervalSet::IntervalSet(std::vector<Interval> Intervals) {
  llvm::erase_if(Intervals, [](const Interval &I) { return I.End <= I.Start; });
  llvm::sort(Intervals, [](const Interval &A, const Interval &B) { return A.Start < B.Start; });
  for (const Interval &I : Intervals) {
    if (!Parts.empty() && I.Start <= Parts.back().End) {
      Parts.back().End = std::max(Parts.back().End, I.End);
      continue;
    }
    Parts.push_back(I);
  }
  for (const Interval &I : Parts)
    Total += I.length();
}

uint64_t IntervalSet::covered(Interval I) const {
  if (I.End <= I.Start)
    return 0;
  auto It = std::upper_bound(Parts.begin(), Parts.end(), I.Start,
                             [](uint64_t T, const Interval &X) { return T < X.End; });
  uint64_t Sum = 0;
  for (; It != Parts.end() && It->Start < I.End; ++It)
    Sum += std::min(I.End, It->End) - std::max(I.Start, It->Start);
  return Sum;
}

std::optional<uint64_t> IntervalSet::nextBusy(uint64_t T) const {
  auto It = std::upper_bound(Parts.begin(), Parts.end(), T,
                             [](uint64_t X, const Interval &I) { return X < I.End; });
  if (It == Parts.end())
    return std::nullopt;
  return std::max(T, It->Start);
}

std::optional<uint64_t> IntervalSet::lastBusyBefore(uint64_t T) const {
  auto It = std::upper_bound(Parts.begin(), Parts.end(), T,
                             [](uint64_t X, const Interval &I) { return X < I.Start; });
  if (It == Parts.begin())
    return std::nullopt;
  return std::min(T, std::prev(It)->End);
}

std::vector<Interval> IntervalSet::gaps(Interval Within) const {
  std::vector<Interval> Out;
  uint64_t Cursor = Within.Start;
  auto It = std::upper_bound(Parts.begin(), Parts.end(), Within.Start,
                             [](uint64_t T, const Interval &X) { return T < X.End; });
  for (; It != Parts.end() && It->Start < Within.End; ++It) {
    if (It->Start > Cursor)
      Out.push_back({Cursor, It->Start});
    Cursor = std::max(Cursor, It->End);
  }
  if (Cursor < Within.End)
    Out.push_back({Cursor, Within.End});
  return Out;
}

uint64_t median(std::vector<uint64_t> V, uint64_t Default) {
  if (V.empty())
    return Default;
  auto Mid = V.begin() + static_cast<std::ptrdiff_t>(V.size() / 2);
  std::nth_element(V.begin(), Mid, V.end());
  return *Mid;
}

StringRef apiFamily(StringRef Name) {
  if (Name.starts_with("cudaMemcpy") || Name.starts_with("cuMemcpy"))
    return "copy";
  if (Name.starts_with("cudaMemset") || Name.starts_with("cuMemset") ||
      Name.starts_with("cuMemsetD"))
    return "memset";
  if (Name.starts_with("cudaMalloc") || Name == "cudaHostAlloc" || Name == "cudaHostRegister" ||
      Name.starts_with("cuMemAlloc") || Name.starts_with("cuMemHostAlloc"))
    return "alloc";
  if (Name.starts_with("cudaFree") || Name == "cudaHostUnregister" || Name.starts_with("cuMemFree"))
    return "free";
  if (Name.starts_with("cudaLaunch") || Name.starts_with("cuLaunch") ||
      Name == "cudaGraphLaunch")
    return "launch";
  if (Name == "cudaDeviceSynchronize" || Name == "cudaStreamSynchronize" ||
      Name == "cudaEventSynchronize" || Name == "cudaThreadSynchronize" ||
      Name == "cudaStreamWaitEvent" || Name.starts_with("cuCtxSynchronize") ||
      Name.starts_with("cuStreamSynchronize") || Name.starts_with("cuEventSynchronize"))
    return "sync";
  return "";
}

bool isSynchronousTransferApi(StringRef Name) {
  StringRef F = apiFamily(Name);
  return (F == "copy" || F == "memset") && !Name.contains("Async");
}

ProfileIndex::ProfileIndex(const Profile &P) : P(P) {
  std::map<std::pair<ProcessIndex, uint32_t>, std::vector<Interval>> Raw;
  for (const Kernel &K : P.Kernels)
    Raw[{K.Process, K.Device}].push_back({K.Start, K.End});
  for (const Copy &C : P.Copies)
    Raw[{C.Process, C.Device}].push_back({C.Start, C.End});
  for (const Memset &M : P.Memsets)
    Raw[{M.Process, M.Device}].push_back({M.Start, M.End});
  std::map<ProcessIndex, std::vector<Interval>> PerProcess;
  for (auto &[Key, V] : Raw) {
    llvm::append_range(PerProcess[Key.first], V);
    llvm::append_range(WorkByEnd[Key.first], V);
    IntervalSet S(std::move(V));
    GpuBusy += S.total();
    ByDevice.emplace(Key, std::move(S));
  }
  for (auto &[Proc, V] : PerProcess)
    ByProcess.emplace(Proc, IntervalSet(std::move(V)));
  for (auto &[Proc, V] : WorkByEnd)
    llvm::sort(V, [](const Interval &A, const Interval &B) { return A.End < B.End; });
  for (ProcessIndex I = 0; I < P.Processes.size(); ++I)
    Wall += wallNs(I);

  Work.resize(P.ApiCalls.size());
  for (size_t I = 0; I < P.ApiCalls.size(); ++I) {
    const ApiCall &A = P.ApiCalls[I];
    if (A.Correlation && !A.Driver)
      Launchers.emplace(std::make_pair(A.Process, A.Correlation), I);
  }
  // Driver calls only where no runtime call has the id (driver-only programs).
  for (size_t I = 0; I < P.ApiCalls.size(); ++I) {
    const ApiCall &A = P.ApiCalls[I];
    if (A.Correlation && A.Driver)
      Launchers.emplace(std::make_pair(A.Process, A.Correlation), I);
  }
  auto Link = [&](WorkKind Kind, size_t Index, ProcessIndex Proc, uint64_t Corr) {
    if (std::optional<size_t> L = launcher(Proc, Corr))
      Work[*L].push_back({Kind, Index});
  };
  for (size_t I = 0; I < P.Kernels.size(); ++I)
    Link(WorkKind::Kernel, I, P.Kernels[I].Process, P.Kernels[I].Correlation);
  for (size_t I = 0; I < P.Copies.size(); ++I)
    Link(WorkKind::Copy, I, P.Copies[I].Process, P.Copies[I].Correlation);
  for (size_t I = 0; I < P.Memsets.size(); ++I)
    Link(WorkKind::Memset, I, P.Memsets[I].Process, P.Memsets[I].Correlation);
}

const IntervalSet &ProfileIndex::busy(ProcessIndex Proc) const {
  auto It = ByProcess.find(Proc);
  return It == ByProcess.end() ? Empty : It->second;
}

const IntervalSet &ProfileIndex::busy(ProcessIndex Proc, uint32_t Device) const {
  auto It = ByDevice.find({Proc, Device});
  return It == ByDevice.end() ? Empty : It->second;
}

uint64_t ProfileIndex::wallNs(ProcessIndex Proc) const {
  if (Proc >= P.Processes.size())
    return 0;
  const Process &Pr = P.Processes[Proc];
  if (Pr.EndNs > Pr.StartNs)
    return Pr.EndNs - Pr.StartNs;
  const IntervalSet &B = busy(Proc);
  return B.empty() ? 0 : B.intervals().back().End - B.intervals().front().Start;
}

std::optional<size_t> ProfileIndex::launcher(ProcessIndex Proc, uint64_t Correlation) const {
  if (!Correlation)
    return std::nullopt;
  auto It = Launchers.find({Proc, Correlation});
  if (It == Launchers.end())
    return std::nullopt;
  return It->second;
}

std::optional<size_t> ProfileIndex::launcher(WorkRef W) const {
  switch (W.Kind) {
  case WorkKind::Kernel:
    return launcher(P.Kernels[W.Index].Process, P.Kernels[W.Index].Correlation);
  case WorkKind::Copy:
    return launcher(P.Copies[W.Index].Process, P.Copies[W.Index].Correlation);
  case WorkKind::Memset:
    return launcher(P.Memsets[W.Index].Process, P.Memsets[W.Index].Correlation);
  }
  return std::nullopt;
}

ArrayRef<WorkRef> ProfileIndex::workOf(size_t ApiIndex) const {
  return ApiIndex < Work.size() ? ArrayRef<WorkRef>(Work[ApiIndex]) : ArrayRef<WorkRef>();
}

Interval ProfileIndex::interval(WorkRef W) const {
  switch (W.Kind) {
  case WorkKind::Kernel:
    return {P.Kernels[W.Index].Start, P.Kernels[W.Index].End};
  case WorkKind::Copy:
    return {P.Copies[W.Index].Start, P.Copies[W.Index].End};
  case WorkKind::Memset:
    return {P.Memsets[W.Index].Start, P.Memsets[W.Index].End};
  }
  return {};
}

ProcessIndex ProfileIndex::process(WorkRef W) const {
  switch (W.Kind) {
  case WorkKind::Kernel:
    return P.Kernels[W.Index].Process;
  case WorkKind::Copy:
    return P.Copies[W.Index].Process;
  case WorkKind::Memset:
    return P.Memsets[W.Index].Process;
  }
  return 0;
}

uint32_t ProfileIndex::device(WorkRef W) const {
  switch (W.Kind) {
  case WorkKind::Kernel:
    return P.Kernels[W.Index].Device;
  case WorkKind::Copy:
    return P.Copies[W.Index].Device;
  case WorkKind::Memset:
    return P.Memsets[W.Index].Device;
  }
  return 0;
}

const Stack *ProfileIndex::stackOf(size_t ApiIndex) const {
  if (ApiIndex >= P.ApiCalls.size())
    return nullptr;
  int64_t S = P.ApiCalls[ApiIndex].StackIndex;
  return S >= 0 && static_cast<size_t>(S) < P.Stacks.size() ? &P.Stacks[static_cast<size_t>(S)]
                                                           : nullptr;
}

const Stack *ProfileIndex::stackOf(WorkRef W) const {
  std::optional<size_t> L = launcher(W);
  return L ? stackOf(*L) : nullptr;
}

uint64_t ProfileIndex::ownHostTime(size_t ApiIndex) const {
  const ApiCall &A = P.ApiCalls[ApiIndex];
  uint64_t OwnStart = A.End;
  for (WorkRef W : workOf(ApiIndex))
    OwnStart = std::min(OwnStart, std::max(A.Start, interval(W).Start));
  // The GPU work that finished inside the call before its own work began.
  uint64_t Waited = 0;
  auto Found = WorkByEnd.find(A.Process);
  if (Found != WorkByEnd.end()) {
    const std::vector<Interval> &V = Found->second;
    auto It = std::upper_bound(V.begin(), V.end(), A.Start,
                               [](uint64_t T, const Interval &I) { return T < I.End; });
    std::vector<Interval> Done;
    for (; It != V.end() && It->End <= OwnStart; ++It)
      Done.push_back({std::max(It->Start, A.Start), It->End});
    Waited = IntervalSet(std::move(Done)).total();
  }
  return A.duration() > Waited ? A.duration() - Waited : 0;
}

bool ProfileIndex::blocks(size_t ApiIndex) const {
  const ApiCall &A = P.ApiCalls[ApiIndex];
  if (isSynchronousTransferApi(A.Name))
    return true;
  StringRef F = apiFamily(A.Name);
  if (F != "copy" && F != "memset")
    return false;
  for (WorkRef W : workOf(ApiIndex)) {
    if (W.Kind != WorkKind::Copy)
      continue;
    const Copy &C = P.Copies[W.Index];
    if (C.Src == MemoryKind::Pageable || C.Dst == MemoryKind::Pageable)
      return true;
  }
  return false;
}

} // namespace cuda_advisor::rank
