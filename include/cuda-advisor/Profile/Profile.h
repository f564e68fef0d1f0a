//===- Profile.h - One model for every profile format ----------*- C++ -*-===//
//
// What a run of a CUDA program did on the GPU and in the CUDA runtime, as read
// from the collector's native profile, a torch.profiler (Kineto) trace, an
// Nsight Compute CSV or other formats. Every reader fills this model; the Rank
// layer reads only this model. Times are nanoseconds on one clock per process
// (CUPTI's, CLOCK_REALTIME on Linux). No Clang here.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_PROFILE_PROFILE_H
#define CUDA_ADVISOR_PROFILE_PROFILE_H

#include "cuda-advisor/Core/SourceLocation.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuda_advisor::profile {

/// CUPTI's CUpti_ActivityMemcpyKind numbering.
enum class CopyKind : uint8_t {
  Unknown = 0, HtoD, DtoH, HtoA, AtoH, AtoA, AtoD, DtoA, DtoD, HtoH, PtoP
};
/// CUPTI's CUpti_ActivityMemoryKind numbering.
enum class MemoryKind : uint8_t {
  Unknown = 0, Pageable, Pinned, Device, Array, Managed, DeviceStatic, ManagedStatic
};
/// CUPTI's CUpti_ActivitySynchronizationType numbering.
enum class SyncKind : uint8_t {
  Unknown = 0, EventSynchronize, StreamWaitEvent, StreamSynchronize, ContextSynchronize
};

const char *copyKindName(CopyKind K);     // "HtoD"...
const char *memoryKindName(MemoryKind K); // "pageable"...
const char *syncKindName(SyncKind K);

/// Index into Profile::Processes.
using ProcessIndex = uint32_t;

struct Device {
  ProcessIndex Process = 0;
  uint32_t Id = 0;
  std::string Name;
  int ComputeMajor = 0, ComputeMinor = 0;
  int NumSMs = 0;
  int MaxWarpsPerSM = 0;
  int MaxBlocksPerSM = 0;
  int MaxThreadsPerBlock = 0;
  int WarpSize = 32;
  int RegistersPerSM = 0;
  int MaxRegistersPerBlock = 0;
  uint64_t SharedMemPerSM = 0;
  uint64_t SharedMemPerBlock = 0;      ///< Default limit (48 KiB).
  uint64_t SharedMemPerBlockOptin = 0; ///< With cudaFuncAttributeMaxDynamicSharedMemorySize.
  uint64_t ReservedSharedMemPerBlock = 0;
  uint64_t GlobalMemoryBytes = 0;
  uint64_t MemoryBandwidthBytesPerSec = 0; ///< 0 when the format does not say.
  uint64_t L2CacheBytes = 0;
  uint64_t CoreClockKHz = 0;
};

struct Kernel {
  ProcessIndex Process = 0;
  std::string Name;      ///< Mangled where the format has it (collector, nsys).
  std::string Demangled; ///< Demangled where the format has it (Kineto, ncu).
  uint32_t Device = 0;
  uint32_t Stream = 0;
  uint64_t Start = 0, End = 0;
  std::array<uint32_t, 3> Grid{{0, 0, 0}};
  std::array<uint32_t, 3> Block{{0, 0, 0}};
  uint32_t RegistersPerThread = 0;
  uint32_t StaticSharedMem = 0;
  uint32_t DynamicSharedMem = 0;
  uint32_t LocalMemPerThread = 0;
  uint64_t Correlation = 0; ///< 0: unknown.
  uint64_t duration() const { return End > Start ? End - Start : 0; }
};

struct Copy {
  ProcessIndex Process = 0;
  CopyKind Kind = CopyKind::Unknown;
  MemoryKind Src = MemoryKind::Unknown, Dst = MemoryKind::Unknown;
  uint64_t Bytes = 0;
  uint64_t Start = 0, End = 0;
  uint32_t Device = 0;
  uint32_t SrcDevice = 0, DstDevice = 0; ///< Peer copies.
  uint32_t Stream = 0;
  uint64_t Correlation = 0;
  uint64_t duration() const { return End > Start ? End - Start : 0; }
};

struct Memset {
  ProcessIndex Process = 0;
  MemoryKind Memory = MemoryKind::Unknown;
  uint64_t Bytes = 0;
  uint32_t Value = 0;
  uint64_t Start = 0, End = 0;
  uint32_t Device = 0;
  uint32_t Stream = 0;
  uint64_t Correlation = 0;
  uint64_t duration() const { return End > Start ? End - Start : 0; }
};

struct Sync {
  ProcessIndex Process = 0;
  SyncKind Kind = SyncKind::Unknown;
  uint64_t Start = 0, End = 0;
  uint32_t Device = 0;
  uint32_t Stream = 0; ///< For stream synchronization.
  uint64_t Correlation = 0;
  uint64_t duration() const { return End > Start ? End - Start : 0; }
};

/// A host call stack: return addresses, innermost first.
struct Stack {
  std::vector<uint64_t> Frames;
  /// Filled by symbolization: Frames[i] -> Resolved[i] (invalid if unknown).
  std::vector<SourceLocation> Resolved;
  std::vector<std::string> Functions;
};

/// A runtime (or driver) API call.
struct ApiCall {
  ProcessIndex Process = 0;
  std::string Name; ///< "cudaMemcpy", "cudaLaunchKernel"...
  uint32_t Cbid = 0;
  bool Driver = false;
  uint64_t Start = 0, End = 0;
  uint32_t Thread = 0;
  uint64_t Correlation = 0;
  int ReturnCode = 0;     ///< cudaError_t; 0 = cudaSuccess.
  int64_t StackIndex = -1; ///< Into Profile::Stacks; -1: none recorded.
  uint64_t duration() const { return End > Start ? End - Start : 0; }
};

struct Module {
  ProcessIndex Process = 0;
  std::string Path;
  uint64_t LoadAddress = 0; ///< Address of the first byte of the mapped file.
  uint64_t Size = 0;
  std::string BuildId; ///< Hex.
};

/// Nsight Compute style per-kernel measurements (from ncu CSV), joined to
/// kernels by name.
struct KernelMetrics {
  std::string Name;      ///< As given (demangled with parameters for ncu).
  std::array<uint32_t, 3> Grid{{0, 0, 0}};
  std::array<uint32_t, 3> Block{{0, 0, 0}};
  uint32_t RegistersPerThread = 0;
  uint64_t DurationNs = 0;
  /// Percent of each sector's bytes used by global loads/stores (100 = ideal).
  std::optional<double> GlobalLoadEfficiencyPct, GlobalStoreEfficiencyPct;
  std::optional<double> SectorsPerRequestLoad, SectorsPerRequestStore;
  std::optional<double> AchievedOccupancyPct, TheoreticalOccupancyPct;
  std::optional<double> SharedBankConflictsLoad, SharedBankConflictsStore;
};

struct Process {
  uint32_t Pid = 0;
  std::string Command;       ///< argv joined, or the program path.
  std::string SourceFile;    ///< The profile file this process was read from.
  std::string Format;        ///< "cuda-advisor", "kineto", "ncu-csv"...
  uint64_t StartNs = 0, EndNs = 0; ///< Profiled wall interval.
  int ExitCode = 0;
  int Signal = 0;            ///< Non-zero when the program died by a signal.
  uint64_t DroppedRecords = 0;
  uint64_t OverheadNs = 0;   ///< CUPTI overhead records, summed.
  // CUDA errors seen in API return codes.
  uint64_t FailedCalls = 0;
  std::string FirstErrorApi;
  int FirstErrorCode = 0;
  std::string FirstErrorName;
  int64_t FirstErrorStack = -1;
};

struct Profile {
  std::vector<Process> Processes;
  std::vector<Device> Devices;
  std::vector<Kernel> Kernels;
  std::vector<Copy> Copies;
  std::vector<Memset> Memsets;
  std::vector<Sync> Syncs;
  std::vector<ApiCall> ApiCalls;
  std::vector<Stack> Stacks;
  std::vector<Module> Modules;
  std::vector<KernelMetrics> Metrics;

  /// Appends Other, renumbering its process and stack indices.
  void merge(Profile &&Other);
  const Device *findDevice(ProcessIndex P, uint32_t Id) const;
};

} // namespace cuda_advisor::profile

#endif
