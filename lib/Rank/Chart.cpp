//===- Chart.cpp - The timeline picture of a profile ----------------------===//
#include "cuda-advisor/Rank/Chart.h"
#include "RuleContext.h"
#include "cuda-advisor/Core/Units.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <set>

using namespace llvm;
using namespace cuda_advisor::profile;

namespace cuda_advisor::rank {
namespace {

enum class Rec : uint8_t { Call, Kernel, Copy, Memset };

/// One record on its way into a row.
struct Item {
  uint64_t Start = 0, End = 0; ///< Absolute.
  BarKind Kind = BarKind::Kernel;
  Rec Type = Rec::Kernel;
  size_t Index = 0; ///< Into the Profile's vector of Type.
  uint64_t length() const { return End - Start; }
};

struct RowDraft {
  std::string Label;
  bool Host = false;
  uint32_t Device = 0, Stream = 0;
  std::vector<Item> Items;
  uint64_t BusyNs = 0;
};

BarKind kindOfCall(StringRef Name) {
  StringRef F = apiFamily(Name);
  if (F == "launch")
    return BarKind::ApiLaunch;
  if (F == "copy" || F == "memset")
    return BarKind::ApiTransfer;
  if (F == "sync")
    return BarKind::ApiSync;
  if (F == "alloc" || F == "free")
    return BarKind::ApiMemory;
  return BarKind::ApiOther;
}

BarKind kindOfCopy(CopyKind K) {
  switch (K) {
  case CopyKind::HtoD:
    return BarKind::CopyHtoD;
  case CopyKind::DtoH:
    return BarKind::CopyDtoH;
  case CopyKind::DtoD:
    return BarKind::CopyDtoD;
  default:
    return BarKind::CopyOther;
  }
}

/// Calls each Emit(B, E) with the range [B, E) of Items (sorted by start)
/// that becomes one bar at resolution Res: an item at least Res long alone;
/// shorter items together while each starts less than Res after the
/// previous ones end and the group spans at most MaxLength (a column of the
/// first view: a long loop of short kernels is drawn as its density per
/// column, not as one bar).
template <typename EmitFn>
void aggregate(ArrayRef<Item> Items, uint64_t Res, uint64_t MaxLength, EmitFn Emit) {
  size_t Begin = 0;
  uint64_t ClusterStart = 0, ClusterEnd = 0;
  bool Open = false;
  for (size_t I = 0; I < Items.size(); ++I) {
    const Item &It = Items[I];
    bool Short = It.length() < Res;
    if (Open && Short && It.Start < ClusterEnd + Res && It.End - ClusterStart <= MaxLength) {
      ClusterEnd = std::max(ClusterEnd, It.End);
      continue;
    }
    if (Open)
      Emit(Begin, I);
    Open = false;
    if (!Short) {
      Emit(I, I + 1);
      continue;
    }
    Begin = I;
    ClusterStart = It.Start;
    ClusterEnd = It.End;
    Open = true;
  }
  if (Open)
    Emit(Begin, Items.size());
}

size_t countBars(ArrayRef<RowDraft> Rows, uint64_t Res, uint64_t MaxLength) {
  size_t N = 0;
  for (const RowDraft &R : Rows)
    aggregate(R.Items, Res, MaxLength, [&](size_t, size_t) { ++N; });
  return N;
}

/// Keeps the first Max - 1 of Rows and merges the rest into a last row
/// labelled by Merged(count); returns the number merged.
unsigned capRows(std::vector<RowDraft> &Rows, size_t Max,
                 function_ref<std::string(size_t)> Merged) {
  if (Rows.size() <= Max || Max == 0)
    return 0;
  RowDraft Rest;
  Rest.Host = Rows[Max - 1].Host;
  Rest.Device = Rows[Max - 1].Device;
  size_t N = Rows.size() - (Max - 1);
  for (size_t I = Max - 1; I < Rows.size(); ++I) {
    llvm::append_range(Rest.Items, Rows[I].Items);
    Rest.BusyNs += Rows[I].BusyNs;
  }
  llvm::sort(Rest.Items, [](const Item &A, const Item &B) { return A.Start < B.Start; });
  Rest.Label = Merged(N);
  Rows.resize(Max - 1);
  Rows.push_back(std::move(Rest));
  return static_cast<unsigned>(N);
}

} // namespace

/// The records of one process, by type.
struct ChartBuilder::ProcessRecords {
  std::vector<size_t> Calls, Kernels, Copies, Memsets;
  bool empty() const {
    return Calls.empty() && Kernels.empty() && Copies.empty() && Memsets.empty();
  }
};

ChartBuilder::ChartBuilder(const ProfileIndex &Index, const ChartOptions &Opts)
    : Index(Index), Opts(Opts) {
  const Profile &P = Index.profile();
  Chart.Columns = Opts.Columns ? Opts.Columns : 1;
  CallPlace.resize(P.ApiCalls.size());
  KernelPlace.resize(P.Kernels.size());
  CopyPlace.resize(P.Copies.size());
  MemsetPlace.resize(P.Memsets.size());

  std::map<ProcessIndex, ProcessRecords> ByProcess;
  auto Timed = [](uint64_t Start, uint64_t End) { return Start != 0 || End != 0; };
  for (size_t I = 0; I < P.ApiCalls.size(); ++I)
    if (Timed(P.ApiCalls[I].Start, P.ApiCalls[I].End))
      ByProcess[P.ApiCalls[I].Process].Calls.push_back(I);
  for (size_t I = 0; I < P.Kernels.size(); ++I)
    if (Timed(P.Kernels[I].Start, P.Kernels[I].End))
      ByProcess[P.Kernels[I].Process].Kernels.push_back(I);
  for (size_t I = 0; I < P.Copies.size(); ++I)
    if (Timed(P.Copies[I].Start, P.Copies[I].End))
      ByProcess[P.Copies[I].Process].Copies.push_back(I);
  for (size_t I = 0; I < P.Memsets.size(); ++I)
    if (Timed(P.Memsets[I].Start, P.Memsets[I].End))
      ByProcess[P.Memsets[I].Process].Memsets.push_back(I);
  // A process with API calls but no GPU work still gets a panel: a run that
  // never reached the GPU is worth seeing.
  std::vector<ProcessIndex> Shown;
  for (auto &[Proc, Records] : ByProcess)
    if (!Records.empty() && Proc < P.Processes.size())
      Shown.push_back(Proc);
  if (Shown.size() > Opts.MaxPanels) {
    Chart.OmittedPanels = static_cast<unsigned>(Shown.size() - Opts.MaxPanels);
    Shown.resize(Opts.MaxPanels);
  }
  if (Shown.empty())
    return;
  size_t Budget = std::max(Opts.MinPanelBars, Opts.BarBudget / Shown.size());
  for (ProcessIndex Proc : Shown)
    addPanel(Proc, ByProcess[Proc], Budget);
}

void ChartBuilder::addPanel(ProcessIndex Proc, const ProcessRecords &Records, size_t Budget) {
  const Profile &P = Index.profile();
  const Process &Pr = P.Processes[Proc];
  uint32_t PanelIndex = static_cast<uint32_t>(Chart.Panels.size());

  // The host: one row per thread that called the runtime (the driver's
  // calls only in programs that call the driver alone), in order of their
  // first call.
  bool AnyRuntime =
      llvm::any_of(Records.Calls, [&](size_t I) { return !P.ApiCalls[I].Driver; });
  std::map<uint32_t, size_t> ThreadRow;
  std::vector<RowDraft> HostRows;
  for (size_t I : Records.Calls) {
    const ApiCall &A = P.ApiCalls[I];
    if (A.Driver && AnyRuntime)
      continue;
    auto [It, New] = ThreadRow.try_emplace(A.Thread, HostRows.size());
    if (New)
      HostRows.emplace_back().Host = true;
    uint64_t End = std::max(A.Start, A.End);
    HostRows[It->second].Items.push_back({A.Start, End, kindOfCall(A.Name), Rec::Call, I});
    HostRows[It->second].BusyNs += End - A.Start;
  }
  for (RowDraft &R : HostRows)
    llvm::sort(R.Items, [](const Item &A, const Item &B) { return A.Start < B.Start; });
  llvm::stable_sort(HostRows, [](const RowDraft &A, const RowDraft &B) {
    return A.Items.front().Start < B.Items.front().Start;
  });
  for (size_t I = 0; I < HostRows.size(); ++I)
    HostRows[I].Label = HostRows.size() == 1 ? "host" : "host thread " + std::to_string(I + 1);
  capRows(HostRows, Opts.MaxHostRows,
          [](size_t N) { return "host: " + std::to_string(N) + " more threads"; });

  // The GPU: one row per (device, stream), in that order.
  std::map<std::pair<uint32_t, uint32_t>, RowDraft> Streams;
  auto AddWork = [&](uint32_t Device, uint32_t Stream, uint64_t Start, uint64_t End, BarKind K,
                     Rec Type, size_t I) {
    RowDraft &R = Streams[{Device, Stream}];
    End = std::max(Start, End);
    R.Items.push_back({Start, End, K, Type, I});
    R.BusyNs += End - Start;
  };
  for (size_t I : Records.Kernels) {
    const Kernel &K = P.Kernels[I];
    AddWork(K.Device, K.Stream, K.Start, K.End, BarKind::Kernel, Rec::Kernel, I);
  }
  for (size_t I : Records.Copies) {
    const Copy &C = P.Copies[I];
    AddWork(C.Device, C.Stream, C.Start, C.End, kindOfCopy(C.Kind), Rec::Copy, I);
  }
  for (size_t I : Records.Memsets) {
    const Memset &M = P.Memsets[I];
    AddWork(M.Device, M.Stream, M.Start, M.End, BarKind::Memset, Rec::Memset, I);
  }
  std::vector<RowDraft> GpuRows;
  for (auto &[Key, R] : Streams) {
    R.Device = Key.first;
    R.Stream = Key.second;
    R.Label = formatv("GPU {0} stream {1}", Key.first, Key.second).str();
    llvm::sort(R.Items, [](const Item &A, const Item &B) { return A.Start < B.Start; });
    GpuRows.push_back(std::move(R));
  }
  unsigned Merged = 0;
  if (GpuRows.size() > Opts.MaxGpuRows && Opts.MaxGpuRows > 0) {
    // The busiest streams keep their rows.
    llvm::stable_sort(GpuRows,
                      [](const RowDraft &A, const RowDraft &B) { return A.BusyNs > B.BusyNs; });
    Merged = capRows(GpuRows, Opts.MaxGpuRows,
                     [](size_t N) { return std::to_string(N) + " more streams"; });
    std::stable_sort(GpuRows.begin(), GpuRows.end() - 1,
                     [](const RowDraft &A, const RowDraft &B) {
                       return std::make_pair(A.Device, A.Stream) <
                              std::make_pair(B.Device, B.Stream);
                     });
  }

  std::vector<RowDraft> Rows = std::move(HostRows);
  for (RowDraft &R : GpuRows)
    Rows.push_back(std::move(R));
  if (Rows.empty())
    return;

  // The axis: the profiled interval, widened to every record.
  uint64_t First = UINT64_MAX, Last = 0;
  for (const RowDraft &R : Rows)
    for (const Item &It : R.Items) {
      First = std::min(First, It.Start);
      Last = std::max(Last, It.End);
    }
  if (Pr.StartNs)
    First = std::min(First, Pr.StartNs);
  if (Pr.EndNs > Pr.StartNs)
    Last = std::max(Last, Pr.EndNs);

  TimelinePanel Panel;
  Panel.Title = Pr.Command;
  Panel.Pid = Pr.Pid;
  Panel.Profile = Pr.SourceFile;
  Panel.Origin = First;
  Panel.Span = std::max<uint64_t>(Last - First, 1);
  Panel.MergedStreams = Merged;

  // The first view: the GPU's work with a margin, unless it fills most of
  // the run anyway.
  Panel.ViewStart = 0;
  Panel.ViewEnd = Panel.Span;
  uint64_t GpuFirst = UINT64_MAX, GpuLast = 0;
  for (const RowDraft &R : Rows)
    if (!R.Host)
      for (const Item &It : R.Items) {
        GpuFirst = std::min(GpuFirst, It.Start - First);
        GpuLast = std::max(GpuLast, It.End - First);
      }
  if (GpuFirst < GpuLast && (GpuLast - GpuFirst) < Panel.Span / 10 * 6) {
    uint64_t Margin = std::max<uint64_t>((GpuLast - GpuFirst) / 25, 1);
    Panel.ViewStart = GpuFirst > Margin ? GpuFirst - Margin : 0;
    Panel.ViewEnd = std::min(Panel.Span, GpuLast + Margin);
  }

  // The finest resolution whose bars fit the budget.
  uint64_t ViewLength = Panel.ViewEnd - Panel.ViewStart;
  uint64_t Column = std::max<uint64_t>(1, (ViewLength + Chart.Columns - 1) / Chart.Columns);
  uint64_t Res = Column;
  for (unsigned Zoom = std::max(1u, Opts.MaxZoom); Zoom >= 1; Zoom /= 2) {
    Res = std::max<uint64_t>(1, Column / Zoom);
    if (Zoom == 1 || countBars(Rows, Res, Column) <= Budget)
      break;
  }
  Panel.ResolutionNs = Res;

  // Names and call sites.
  auto SiteOf = [&](const Item &It) -> const SourceLocation * {
    std::optional<size_t> Call;
    const Kernel *K = nullptr;
    switch (It.Type) {
    case Rec::Call:
      Call = It.Index;
      for (WorkRef W : Index.workOf(It.Index))
        if (W.Kind == WorkKind::Kernel)
          K = &P.Kernels[W.Index];
      break;
    case Rec::Kernel:
      Call = Index.launcher(P.Kernels[It.Index].Process, P.Kernels[It.Index].Correlation);
      K = &P.Kernels[It.Index];
      break;
    case Rec::Copy:
      Call = Index.launcher(P.Copies[It.Index].Process, P.Copies[It.Index].Correlation);
      break;
    case Rec::Memset:
      Call = Index.launcher(P.Memsets[It.Index].Process, P.Memsets[It.Index].Correlation);
      break;
    }
    if (!Call)
      return nullptr;
    if (K)
      return launchSite(Index, *Call, *K);
    const Stack *S = Index.stackOf(*Call);
    const StackFrame *F = S ? S->userFrame() : nullptr;
    return F ? &F->Loc : nullptr;
  };
  auto LabelOf = [&](const Item &It) -> std::string {
    switch (It.Type) {
    case Rec::Call:
      return P.ApiCalls[It.Index].Name;
    case Rec::Kernel:
      return kernelName(P.Kernels[It.Index]);
    case Rec::Copy: {
      const Copy &C = P.Copies[It.Index];
      std::string L = std::string(copyKindName(C.Kind)) + " " + formatBytes(C.Bytes);
      if (C.Src != MemoryKind::Unknown && C.Dst != MemoryKind::Unknown)
        L += std::string(" (") + memoryKindName(C.Src) + " to " + memoryKindName(C.Dst) + ")";
      return L;
    }
    case Rec::Memset:
      return "memset " + formatBytes(P.Memsets[It.Index].Bytes);
    }
    return "";
  };

  for (uint32_t RowIndex = 0; RowIndex < Rows.size(); ++RowIndex) {
    RowDraft &Draft = Rows[RowIndex];
    TimelineRow Row;
    Row.Label = Draft.Label;
    Row.Host = Draft.Host;
    Row.Device = Draft.Device;
    ArrayRef<Item> Items = Draft.Items;
    aggregate(Items, Res, Column, [&](size_t B, size_t E) {
      TimelineBar Bar;
      Bar.Start = Items[B].Start - First;
      Bar.Count = static_cast<uint32_t>(E - B);
      if (E - B == 1) {
        Bar.End = Items[B].End - First;
        Bar.Kind = Items[B].Kind;
        Bar.BusyNs = Items[B].length();
        Bar.Label = LabelOf(Items[B]);
        if (const SourceLocation *S = SiteOf(Items[B]); S && S->isValid()) {
          Bar.Site = *S;
          Bar.SiteCount = 1;
        }
        Row.Bars.push_back(std::move(Bar));
        return;
      }
      uint64_t End = 0;
      std::map<BarKind, uint64_t> TimeByKind;
      std::map<std::string, unsigned> Names;
      std::set<std::pair<std::string, unsigned>> Sites;
      const SourceLocation *OneSite = nullptr;
      for (size_t I = B; I < E; ++I) {
        End = std::max(End, Items[I].End);
        Bar.BusyNs += Items[I].length();
        TimeByKind[Items[I].Kind] += Items[I].length() + 1;
        ++Names[LabelOf(Items[I])];
        if (const SourceLocation *S = SiteOf(Items[I]); S && S->isValid())
          if (Sites.insert({S->File, S->Line}).second)
            OneSite = S;
      }
      Bar.End = End - First;
      Bar.BusyNs = std::min(Bar.BusyNs, Bar.End - Bar.Start);
      Bar.Kind = std::max_element(TimeByKind.begin(), TimeByKind.end(),
                                  [](const auto &A, const auto &B) { return A.second < B.second; })
                     ->first;
      std::vector<std::pair<std::string, unsigned>> Ranked(Names.begin(), Names.end());
      llvm::stable_sort(Ranked, [](const auto &A, const auto &B) { return A.second > B.second; });
      for (size_t I = 0; I < Ranked.size() && I < 3; ++I)
        Bar.Label += (I ? ", " : "") + std::to_string(Ranked[I].second) + "\xC3\x97 " +
                     Ranked[I].first;
      if (Ranked.size() > 3)
        Bar.Label += ", " + std::to_string(Ranked.size() - 3) + " other names";
      Bar.SiteCount = static_cast<uint32_t>(Sites.size());
      if (Sites.size() == 1)
        Bar.Site = *OneSite;
      Row.Bars.push_back(std::move(Bar));
    });
    for (const Item &It : Draft.Items) {
      Place &Where = It.Type == Rec::Call     ? CallPlace[It.Index]
                     : It.Type == Rec::Kernel ? KernelPlace[It.Index]
                     : It.Type == Rec::Copy   ? CopyPlace[It.Index]
                                              : MemsetPlace[It.Index];
      Where = {PanelIndex, RowIndex};
    }
    Panel.Records += Draft.Items.size();
    Panel.Rows.push_back(std::move(Row));
  }

  // The GPUs' idle gaps that show at the default zoom.
  std::set<uint32_t> Devices;
  for (const TimelineRow &R : Panel.Rows)
    if (!R.Host)
      Devices.insert(R.Device);
  for (uint32_t D : Devices)
    for (const Interval &G : Index.busy(Proc, D).gaps({First, First + Panel.Span}))
      if (G.length() >= Column)
        Panel.Idle.push_back({D, G.Start - First, G.End - First});
  Chart.Panels.push_back(std::move(Panel));
}

void ChartBuilder::place(const Place &Where, const Interval &I,
                         std::map<std::pair<uint32_t, uint32_t>, std::vector<Interval>> &Out) const {
  if (Where.Panel == NoPanel)
    return;
  Out[{Where.Panel, Where.Row}].push_back({I.Start, std::max(I.Start, I.End)});
}

int32_t ChartBuilder::addFinding(ArrayRef<size_t> Calls, ArrayRef<size_t> Kernels) {
  const Profile &P = Index.profile();
  std::map<std::pair<uint32_t, uint32_t>, std::vector<Interval>> Parts;
  auto PlaceOfWork = [&](WorkRef W) -> const Place & {
    switch (W.Kind) {
    case WorkKind::Kernel:
      return KernelPlace[W.Index];
    case WorkKind::Copy:
      return CopyPlace[W.Index];
    case WorkKind::Memset:
      break;
    }
    return MemsetPlace[W.Index];
  };
  auto CallInterval = [&](size_t I) {
    return Interval{P.ApiCalls[I].Start, P.ApiCalls[I].End};
  };
  for (size_t I : Calls) {
    if (I >= P.ApiCalls.size())
      continue;
    place(CallPlace[I], CallInterval(I), Parts);
    for (WorkRef W : Index.workOf(I))
      place(PlaceOfWork(W), Index.interval(W), Parts);
  }
  for (size_t I : Kernels) {
    if (I >= P.Kernels.size())
      continue;
    place(KernelPlace[I], Index.interval({WorkKind::Kernel, I}), Parts);
    if (std::optional<size_t> L = Index.launcher({WorkKind::Kernel, I}))
      place(CallPlace[*L], CallInterval(*L), Parts);
  }
  if (Parts.empty())
    return -1;
  std::vector<TimelineMark> Marks;
  for (auto &[Key, V] : Parts) {
    const TimelinePanel &Panel = Chart.Panels[Key.first];
    llvm::sort(V, [](const Interval &A, const Interval &B) { return A.Start < B.Start; });
    for (const Interval &I : V) {
      uint64_t Start = I.Start - Panel.Origin, End = I.End - Panel.Origin;
      if (!Marks.empty() && Marks.back().Panel == Key.first && Marks.back().Row == Key.second &&
          Start < Marks.back().End + Panel.ResolutionNs) {
        Marks.back().End = std::max(Marks.back().End, End);
        continue;
      }
      Marks.push_back({Key.first, Key.second, Start, End});
    }
  }
  Chart.Findings.push_back(std::move(Marks));
  return static_cast<int32_t>(Chart.Findings.size() - 1);
}

} // namespace cuda_advisor::rank
