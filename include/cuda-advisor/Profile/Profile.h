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
#include <map>
#include <optional>
#include <string>
#include <string_view>
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

/// The inverses of copyKindName, memoryKindName and syncKindName. Case,
/// spaces, hyphens and underscores do not matter, so that other tools'
/// spellings of the same CUPTI names match too ("Device Static" and
/// "device-static", "HtoD" and "htod").
std::optional<CopyKind> parseCopyKind(std::string_view Name);
std::optional<MemoryKind> parseMemoryKind(std::string_view Name);
std::optional<SyncKind> parseSyncKind(std::string_view Name);

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

/// Sets fields that no GPU has (a warp of 0 or 2^32 threads, negative
/// counts: a damaged or hand-edited profile) to unknown (0; the warp size to
/// 32), so that nothing downstream divides by them.
void sanitize(Device &D);

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

/// One source-level frame of a symbolized (or already resolved) stack.
struct StackFrame {
  SourceLocation Loc;   ///< Invalid when the binary has no line table there.
  std::string Function; ///< Demangled; may be empty.
  std::string Module;   ///< Path of the binary; empty for Python frames.
  uint32_t Address = 0; ///< Index into Stack::Frames (its position for Python stacks).
  bool Inlined = false; ///< A call that was inlined into the frame that follows it.
  bool Library = false; ///< Inside CUDA, PyTorch, the C/C++ runtime or the collector.
  /// Loc names the function (its first line), not the line of the call:
  /// torch.profiler's python_function frames.
  bool FunctionOnly = false;
};

/// Whether F is PyTorch's torch.autograd.backward() or grad() (the entry of
/// a backward pass, in torch/autograd/__init__.py). The readers give the
/// backward pass's calls, made on autograd's threads without Python frames,
/// the stack of the thread waiting there.
bool isAutogradBackward(const StackFrame &F);

/// Whether F is in one of PyTorch's optimizers (a frame in torch/optim/:
/// Optimizer.step, zero_grad, the foreach and fused updates).
bool isOptimizerStep(const StackFrame &F);

/// Whether a Python frame's file is code the user did not write: an installed
/// package (site-packages, dist-packages, torch/ as torch.profiler names it),
/// the interpreter's standard library, a pseudo-file ("<string>",
/// "<eval_with_key>.3"), or code that torch.compile generated (Inductor's
/// cache, /tmp/torchinductor_<user>/... by default). Those frames are skipped
/// to find the user's line.
bool isLibraryPythonFile(std::string_view File);

/// A host call stack: return addresses, innermost first.
struct Stack {
  ProcessIndex Process = 0;
  std::vector<uint64_t> Frames;
  /// Filled by symbolization (Symbolize.h), innermost first: every frame of
  /// Frames, each expanded into its inlined calls. Readers of formats that
  /// record source positions (Python stacks in Kineto traces) fill it directly
  /// and leave Frames empty.
  std::vector<StackFrame> Symbols;
  /// Index into Symbols of the user's call site: the innermost frame with a
  /// source location outside the libraries; -1 when unknown.
  int32_t UserFrame = -1;
  const StackFrame *userFrame() const {
    return UserFrame >= 0 && static_cast<size_t>(UserFrame) < Symbols.size()
               ? &Symbols[static_cast<size_t>(UserFrame)]
               : nullptr;
  }
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
  /// A plain copy call's destination and source pointers (cudaMemcpy,
  /// cudaMemcpyAsync), when the profile has them.
  bool HasCopyPointers = false;
  uint64_t CopyDst = 0, CopySrc = 0;
  uint64_t duration() const { return End > Start ? End - Start : 0; }
};

/// An NVTX range (nvtxRangePush/Pop or Start/End) on a host thread.
struct Range {
  ProcessIndex Process = 0;
  std::string Name;
  uint64_t Start = 0, End = 0;
  uint32_t Thread = 0;
  uint64_t duration() const { return End > Start ? End - Start : 0; }
};

struct Module {
  ProcessIndex Process = 0;
  std::string Path;
  uint64_t LoadAddress = 0; ///< Address of the first byte of the mapped file.
  uint64_t Size = 0;
  std::string BuildId; ///< Hex.
  /// Runtime address minus ELF virtual address (dl_iterate_phdr's dlpi_addr):
  /// a frame's address in the file, as a symbolizer wants it, is
  /// Frame - LoadBias. 0 for non-PIE executables.
  uint64_t LoadBias = 0;
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
  /// Shared-memory wavefronts of loads/stores (l1tex__data_pipe_lsu_wavefronts_
  /// mem_shared_op_{ld,st}.sum) and the requests that caused them: wavefronts per
  /// request is the conflict degree (1 = conflict-free for 4-byte accesses).
  std::optional<double> SharedWavefrontsLoad, SharedWavefrontsStore;
  std::optional<double> SharedRequestsLoad, SharedRequestsStore;
  ProcessIndex Process = 0;
  uint64_t LaunchId = 0;       ///< ncu's "ID" column.
  uint32_t Device = 0;
  uint32_t Stream = 0;
  uint32_t StaticSharedMem = 0, DynamicSharedMem = 0;
  int ComputeMajor = 0, ComputeMinor = 0; ///< ncu's "CC" column.
  /// Every numeric metric of the row, by ncu's metric name, in ncu's unit as
  /// printed (the fields above are normalized: percent, counts, ns).
  std::map<std::string, double> Values;
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
  /// Host intervals (start, end) that are not the program's work: CUPTI's
  /// overhead records (activity buffers, instrumentation; the driver's
  /// one-time lazy module and function loading) and the collector's capture
  /// of each call site (callsite collector_start/collector_end).
  std::vector<std::pair<uint64_t, uint64_t>> Overheads;
  // CUDA errors seen in API return codes.
  uint64_t FailedCalls = 0;
  std::string FirstErrorApi;
  int FirstErrorCode = 0;
  std::string FirstErrorName;
  int64_t FirstErrorStack = -1;
  /// What the reader noticed and the user should know (records it skipped,
  /// a trace without GPU activity); the ranking repeats them in its summary.
  std::vector<std::string> Warnings;
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
  std::vector<Range> Ranges; ///< NVTX ranges, where the format has them.

  /// Appends Other, renumbering its process and stack indices.
  void merge(Profile &&Other);
  const Device *findDevice(ProcessIndex P, uint32_t Id) const;
};

} // namespace cuda_advisor::profile

#endif
