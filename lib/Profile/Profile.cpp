//===- Profile.cpp --------------------------------------------------------===//
#include "cuda-advisor/Profile/Profile.h"

#include <cctype>
#include <iterator>

namespace cuda_advisor::profile {

bool isAutogradBackward(const StackFrame &F) {
  // torch.profiler names installed packages' files from the package
  // ("torch/autograd/__init__.py"), the collector with their full path.
  static constexpr std::string_view File = "torch/autograd/__init__.py";
  std::string_view Path = F.Loc.File;
  bool InAutograd = Path == File || (Path.size() > File.size() &&
                                     Path.substr(Path.size() - File.size() - 1) ==
                                         "/" + std::string(File));
  return F.Library && (F.Function == "backward" || F.Function == "grad") && InAutograd;
}

bool isOptimizerStep(const StackFrame &F) {
  // "torch/optim/sgd.py" from torch.profiler, the full path from the collector.
  std::string_view Path = F.Loc.File;
  return F.Library && (Path.substr(0, 12) == "torch/optim/" ||
                       Path.find("/torch/optim/") != std::string_view::npos);
}

bool isLibraryPythonFile(std::string_view File) {
  auto Has = [&](std::string_view Part) { return File.find(Part) != std::string_view::npos; };
  return File.empty() || File.front() == '<' || Has("/site-packages/") ||
         Has("/dist-packages/") || Has("/lib/python") || File.substr(0, 6) == "torch/" ||
         Has("/torch/") || Has("/torchinductor_");
}

const char *copyKindName(CopyKind K) {
  static const char *const Names[] = {"unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                      "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
  auto I = static_cast<size_t>(K);
  return I < std::size(Names) ? Names[I] : "unknown";
}

const char *memoryKindName(MemoryKind K) {
  static const char *const Names[] = {"unknown", "pageable", "pinned",         "device",
                                      "array",   "managed",  "device-static", "managed-static"};
  auto I = static_cast<size_t>(K);
  return I < std::size(Names) ? Names[I] : "unknown";
}

const char *syncKindName(SyncKind K) {
  static const char *const Names[] = {"unknown", "event-synchronize", "stream-wait-event",
                                      "stream-synchronize", "context-synchronize"};
  auto I = static_cast<size_t>(K);
  return I < std::size(Names) ? Names[I] : "unknown";
}

/// Name without case, spaces, hyphens and underscores.
static std::string normalizedName(std::string_view Name) {
  std::string Out;
  for (char C : Name)
    if (C != ' ' && C != '-' && C != '_')
      Out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(C))));
  return Out;
}

/// The enumerator whose name (by NameOf) matches Name, among the First..Last.
template <typename Enum>
static std::optional<Enum> parseByName(std::string_view Name, Enum Last,
                                       const char *(*NameOf)(Enum)) {
  std::string Wanted = normalizedName(Name);
  if (Wanted.empty())
    return std::nullopt;
  for (unsigned I = 0; I <= static_cast<unsigned>(Last); ++I)
    if (normalizedName(NameOf(static_cast<Enum>(I))) == Wanted)
      return static_cast<Enum>(I);
  return std::nullopt;
}

std::optional<CopyKind> parseCopyKind(std::string_view Name) {
  return parseByName(Name, CopyKind::PtoP, copyKindName);
}

std::optional<MemoryKind> parseMemoryKind(std::string_view Name) {
  return parseByName(Name, MemoryKind::ManagedStatic, memoryKindName);
}

std::optional<SyncKind> parseSyncKind(std::string_view Name) {
  return parseByName(Name, SyncKind::ContextSynchronize, syncKindName);
}

template <typename T> static void appendShifted(std::vector<T> &To, std::vector<T> &&From,
                                                 ProcessIndex Shift) {
  for (T &R : From) {
    R.Process += Shift;
    To.push_back(std::move(R));
  }
}

void sanitize(Device &D) {
  auto Range = [](auto &V, auto Lo, auto Hi) {
    if (V < Lo || V > Hi)
      V = 0;
  };
  if (D.WarpSize < 1 || D.WarpSize > 1024)
    D.WarpSize = 32;
  Range(D.ComputeMajor, 0, 100);
  Range(D.ComputeMinor, 0, 100);
  Range(D.NumSMs, 0, 1 << 16);
  Range(D.MaxWarpsPerSM, 0, 1024);
  Range(D.MaxBlocksPerSM, 0, 1024);
  Range(D.MaxThreadsPerBlock, 0, 1 << 16);
  Range(D.RegistersPerSM, 0, 1 << 24);
  Range(D.MaxRegistersPerBlock, 0, 1 << 24);
  constexpr uint64_t GiB = uint64_t(1) << 30;
  Range(D.SharedMemPerSM, uint64_t(0), GiB);
  Range(D.SharedMemPerBlock, uint64_t(0), GiB);
  Range(D.SharedMemPerBlockOptin, uint64_t(0), GiB);
  Range(D.ReservedSharedMemPerBlock, uint64_t(0), GiB);
}

void Profile::merge(Profile &&Other) {
  auto PShift = static_cast<ProcessIndex>(Processes.size());
  auto SShift = static_cast<int64_t>(Stacks.size());
  for (Process &P : Other.Processes) {
    if (P.FirstErrorStack >= 0)
      P.FirstErrorStack += SShift;
    Processes.push_back(std::move(P));
  }
  for (ApiCall &A : Other.ApiCalls)
    if (A.StackIndex >= 0)
      A.StackIndex += SShift;
  appendShifted(Devices, std::move(Other.Devices), PShift);
  appendShifted(Kernels, std::move(Other.Kernels), PShift);
  appendShifted(Copies, std::move(Other.Copies), PShift);
  appendShifted(Memsets, std::move(Other.Memsets), PShift);
  appendShifted(Syncs, std::move(Other.Syncs), PShift);
  appendShifted(ApiCalls, std::move(Other.ApiCalls), PShift);
  appendShifted(Modules, std::move(Other.Modules), PShift);
  appendShifted(Stacks, std::move(Other.Stacks), PShift);
  appendShifted(Metrics, std::move(Other.Metrics), PShift);
  appendShifted(Ranges, std::move(Other.Ranges), PShift);
  Other = Profile();
}

const Device *Profile::findDevice(ProcessIndex P, uint32_t Id) const {
  for (const Device &D : Devices)
    if (D.Process == P && D.Id == Id)
      return &D;
  for (const Device &D : Devices) // Formats that give devices once for all processes.
    if (D.Id == Id)
      return &D;
  return nullptr;
}

} // namespace cuda_advisor::profile
