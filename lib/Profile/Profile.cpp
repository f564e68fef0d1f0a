//===- Profile.cpp --------------------------------------------------------===//
#include "cuda-advisor/Profile/Profile.h"

#include <iterator>

namespace cuda_advisor::profile {

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

template <typename T> static void appendShifted(std::vector<T> &To, std::vector<T> &&From,
                                                 ProcessIndex Shift) {
  for (T &R : From) {
    R.Process += Shift;
    To.push_back(std::move(R));
  }
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
