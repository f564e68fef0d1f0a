//===- Injection.cpp - The CUPTI collector: set-up, callbacks, shutdown ---===//
//
// CUDA loads this library into the profiled program when CUDA_INJECTION64_PATH
// names it, and calls InitializeInjection while the driver initializes. From
// then on:
//  - CUPTI's Activity API hands over buffers of records (kernels, copies,
//    memsets, synchronizations, runtime API calls, devices, contexts, CUPTI's
//    own overhead), written to the profile as they arrive (bufferCompleted);
//  - the Callback API calls onRuntimeApi on ENTER and EXIT of every runtime
//    API call: on ENTER of the calls that create GPU work, allocate, free or
//    synchronize it records the host call stack, keyed by correlation id; on
//    EXIT it checks the return code, counts failures and records the first
//    failure of each (API, error) pair with its stack;
//  - the profile is finished (forced flush, module map, end record) when the
//    program exits (on_exit), when a crash or stop signal arrives (a helper
//    thread does the work, then the signal goes on to its old disposition), or
//    never, in a child forked after CUDA started (it writes nothing).
// docs/collector.md explains the design; docs/profile-format.md the records.
//
//===----------------------------------------------------------------------===//
#include "Activity.h"
#include "CudaErrors.h"
#include "JsonLine.h"
#include "Output.h"
#include "PyFrames.h"
#include "Stacks.h"

#include "cuda-advisor/Collector/Environment.h"

#include <cuda.h>
#include <cupti.h>
#include <driver_types.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
#include <pthread.h>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>
#include <vector>

#ifndef CUDA_ADVISOR_VERSION
#define CUDA_ADVISOR_VERSION "unknown"
#endif

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void);

using namespace cuda_advisor::collector;

namespace {

enum State : int { Running = 0, Finalizing = 1, Closing = 2, Done = 3 };

struct Config {
  std::string Output;
  bool Stacks = true;
  bool PythonStacks = true;
  unsigned StackDepth = DefaultStackDepth;
  bool DriverApi = false;
  bool AllApi = false;
  bool Verbose = false;
  size_t BufferBytes = size_t(4) << 20;
  unsigned FlushMs = 2000;
  /// CUDA_ADVISOR_SKIP: ",kind,kind," (measurement only).
  std::string Skip;
  bool skips(const char *Name) const {
    return Skip.find("," + std::string(Name) + ",") != std::string::npos;
  }
};

/// At most this many CUPTI buffers are out at a time (256 MiB with the
/// default size); past it CUPTI gets no buffer and counts dropped records.
constexpr uint64_t MaxBuffersOut = 64;
constexpr size_t MaxPooledBuffers = 4;
/// Distinct (API, error code) pairs that get an "error" record.
constexpr size_t MaxErrorRecords = 32;

constexpr int CrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int StopSignals[] = {SIGTERM, SIGINT, SIGHUP};

bool isCrashSignal(int Sig) {
  for (int S : CrashSignals)
    if (S == Sig)
      return true;
  return false;
}

const char *signalName(int Sig) {
  switch (Sig) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  case SIGABRT:
    return "SIGABRT";
  case SIGTERM:
    return "SIGTERM";
  case SIGINT:
    return "SIGINT";
  case SIGHUP:
    return "SIGHUP";
  default:
    return "signal";
  }
}

/// Entry points of the libcuda that loaded us, for device properties that
/// CUPTI's device record lacks. Looked up with dlsym: the collector links
/// nothing but CUPTI.
struct DriverEntryPoints {
  CUresult (*DriverGetVersion)(int *) = nullptr;
  CUresult (*DeviceGetCount)(int *) = nullptr;
  CUresult (*DeviceGet)(CUdevice *, int) = nullptr;
  CUresult (*DeviceGetAttribute)(int *, CUdevice_attribute, CUdevice) = nullptr;
  CUresult (*DeviceGetName)(char *, int, CUdevice) = nullptr;
  CUresult (*DeviceTotalMem)(size_t *, CUdevice) = nullptr;

  void load() {
    void *H = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!H)
      H = RTLD_DEFAULT;
    auto Get = [&](auto &Fn, const char *Name) {
      Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(dlsym(H, Name));
    };
    Get(DriverGetVersion, "cuDriverGetVersion");
    Get(DeviceGetCount, "cuDeviceGetCount");
    Get(DeviceGet, "cuDeviceGet");
    Get(DeviceGetAttribute, "cuDeviceGetAttribute");
    Get(DeviceGetName, "cuDeviceGetName");
    Get(DeviceTotalMem, "cuDeviceTotalMem_v2");
  }
};

struct Collector {
  Config Cfg;
  Output Out;
  StackWalker Walker;
  StackTable Stacks;
  PythonFrames Python;  // Enabled when the process is CPython 3.9-3.13.
  StackTable PyStacks;  // Python stacks, as (code object, offset) pairs.
  ApiNames Names;
  ActivityCounters Counters;
  DriverEntryPoints Cu;
  std::vector<uint8_t> WantsStack; // By runtime callback id.
  pid_t Pid = 0;

  std::atomic<bool> Active{false}; // False before set-up ends and in fork children.
  std::atomic<int> Phase{Running};
  std::atomic<int> Writers{0}; // Threads between a phase check and their write.
  std::atomic<pthread_t> FinalizingThread{};
  CUpti_SubscriberHandle Subscriber = nullptr;
  bool CallbacksOn = false;

  std::mutex PoolMutex;
  std::vector<void *> Pool; // Completed buffers kept for reuse.
  std::atomic<uint64_t> Dropped{0}, RefusedBuffers{0}, BuffersOut{0}, FailedCalls{0},
      StackCaptures{0}, StackNs{0}, Callsites{0}, PyCaptures{0}, PyNs{0}, PyUserFound{0},
      CollectorNs{0};
  std::atomic<bool> DevicesQueried{false};
  std::atomic<bool> CuptiFatal{false};
  int RuntimeVersion = 0;

  std::mutex ErrorMutex;
  std::vector<std::pair<uint32_t, int>> ErrorsSeen;
  std::string FirstError; // JSON object for the end record.

  struct sigaction Previous[NSIG];
  bool Installed[NSIG] = {};
  int Pipe[2] = {-1, -1};
  pthread_t Finalizer{};
  std::atomic<bool> HaveFinalizer{false};
  std::atomic<int> PendingSignal{0};
  std::atomic<bool> HelperRedelivers{false}; // The helper passes PendingSignal on.
};

/// Created once and never destroyed: it must outlive the static destructors
/// that run at exit, and CUPTI may call back until the very end.
Collector *C = nullptr;
thread_local bool InsideCollector = false;
/// When this thread entered the collector's callback now running (CUPTI's
/// clock): a call site record carries the interval its capture took, so that
/// the analysis can tell the collector's time from the program's.
thread_local uint64_t CallbackEntered = 0;

void vmessage(const char *Kind, const char *Fmt, va_list Args) {
  char Buf[1024];
  std::vsnprintf(Buf, sizeof(Buf), Fmt, Args);
  std::fprintf(stderr, "[cuda-advisor] %s%s (pid %ld)\n", Kind, Buf, static_cast<long>(getpid()));
}

void verbose(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));
void verbose(const char *Fmt, ...) {
  if (!C || !C->Cfg.Verbose)
    return;
  va_list Args;
  va_start(Args, Fmt);
  vmessage("", Fmt, Args);
  va_end(Args);
}

void warning(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  vmessage("warning: ", Fmt, Args);
  va_end(Args);
}

const char *cuptiResultName(CUptiResult R) {
  const char *S = nullptr;
  if (cuptiGetResultString(R, &S) != CUPTI_SUCCESS || !S)
    return "unknown CUPTI error";
  return S;
}

uint64_t cuptiNow() {
  uint64_t T = 0;
  cuptiGetTimestamp(&T);
  return T;
}

uint64_t monotonicNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return uint64_t(T.tv_sec) * 1000000000ull + uint64_t(T.tv_nsec);
}

uint32_t threadId() {
  static thread_local uint32_t Tid = static_cast<uint32_t>(syscall(SYS_gettid));
  return Tid;
}

std::vector<std::string> commandLine() {
  std::vector<std::string> Args;
  int Fd = ::open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return Args;
  std::string All;
  char Buf[4096];
  for (;;) {
    ssize_t N = ::read(Fd, Buf, sizeof(Buf));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    All.append(Buf, static_cast<size_t>(N));
  }
  ::close(Fd);
  size_t Pos = 0;
  while (Pos < All.size()) {
    size_t End = All.find('\0', Pos);
    if (End == std::string::npos)
      End = All.size();
    Args.push_back(All.substr(Pos, End - Pos));
    Pos = End + 1;
  }
  return Args;
}

bool envFlag(const char *Name, bool Default) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return Default;
  return !(std::strcmp(V, "0") == 0 || std::strcmp(V, "no") == 0 || std::strcmp(V, "false") == 0 ||
           std::strcmp(V, "off") == 0);
}

unsigned long envNumber(const char *Name, unsigned long Default, unsigned long Min,
                        unsigned long Max) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return Default;
  char *End = nullptr;
  unsigned long N = std::strtoul(V, &End, 10);
  if (*End != '\0' || N < Min || N > Max) {
    warning("ignoring %s=%s (expected a number in [%lu, %lu])", Name, V, Min, Max);
    return Default;
  }
  return N;
}

Config readConfig() {
  Config Cfg;
  const char *Out = std::getenv(OutputEnv);
  Cfg.Output = Out && *Out ? Out : defaultProfileName(commandLine());
  Cfg.Stacks = envFlag(StacksEnv, true);
  Cfg.PythonStacks = envFlag(PythonStacksEnv, true);
  Cfg.StackDepth = static_cast<unsigned>(envNumber(StackDepthEnv, DefaultStackDepth, 1, MaxStackDepth));
  Cfg.DriverApi = envFlag(DriverApiEnv, false);
  Cfg.AllApi = envFlag(AllApiEnv, false);
  Cfg.Verbose = envFlag(VerboseEnv, false);
  Cfg.BufferBytes = envNumber(BufferKiBEnv, 4096, 64, 256 * 1024) * 1024;
  Cfg.FlushMs = static_cast<unsigned>(envNumber(FlushMsEnv, 2000, 0, 3600 * 1000));
  if (const char *S = std::getenv(SkipEnv); S && *S) {
    Cfg.Skip = "," + std::string(S) + ",";
    warning("%s=%s: measuring the collector's cost; this profile lacks what it skips", SkipEnv, S);
  }
  return Cfg;
}

/// The runtime calls whose call site a finding can point at: they create GPU
/// work, allocate, free or synchronize.
bool wantsStack(const std::string &Name) {
  static const char *const Prefixes[] = {
      "cudaLaunch",       "cudaMemcpy",         "cudaMemset",       "cudaMalloc",
      "cudaFree",         "cudaHostAlloc",      "cudaHostRegister", "cudaHostUnregister",
      "cudaMemPrefetch",  "cudaGraphLaunch",    "cudaDeviceSynchronize",
      "cudaStreamSynchronize", "cudaEventSynchronize", "cudaStreamWaitEvent",
      "cudaDeviceReset"};
  for (const char *P : Prefixes)
    if (Name.compare(0, std::strlen(P), P) == 0)
      return true;
  return false;
}

/// Cheap queries that create no GPU work: PyTorch calls cudaGetDevice some
/// 60 times per tensor operation. Unless CUDA_ADVISOR_ALL_API=1 they get
/// neither an activity record nor a callback, which is most of what the
/// collector would otherwise cost such a program; a failure they report was
/// already counted at the call that failed.
bool isQuery(const std::string &Name) {
  static const char *const Queries[] = {
      "cudaGetDevice",          "cudaGetDeviceCount",       "cudaGetLastError",
      "cudaPeekAtLastError",    "cudaStreamIsCapturing",    "cudaStreamGetCaptureInfo",
      "cudaThreadExchangeStreamCaptureMode", "cudaGetDeviceProperties",
      "cudaDeviceGetAttribute", "cudaPointerGetAttributes", "cudaFuncGetAttributes",
      "cudaRuntimeGetVersion",  "cudaDriverGetVersion",     "cudaDeviceGetStreamPriorityRange",
      "cudaStreamGetPriority",  "cudaStreamGetFlags",       "cudaStreamGetDevice",
      "cudaStreamGetId",        "cudaStreamQuery",          "cudaEventQuery",
      "cudaGetDriverEntryPoint", "cudaGetDriverEntryPointByVersion", "cudaDeviceCanAccessPeer",
      "cudaGetFuncBySymbol",    "cudaGetKernel",            "cudaGetSymbolAddress",
      "cudaGetSymbolSize",      "cudaDeviceGetLimit",       "cudaDeviceGetCacheConfig",
      "cudaDeviceGetPCIBusId",  "cudaGetDeviceFlags",       "cudaCtxResetPersistingL2Cache",
      "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
      "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
      "cudaOccupancyAvailableDynamicSMemPerBlock", "cudaOccupancyMaxPotentialClusterSize",
      "cudaOccupancyMaxActiveClusters"};
  for (const char *Q : Queries)
    if (Name == Q)
      return true;
  return false;
}

/// Counts a thread in Collector::Writers while it writes, and says whether it
/// may write: once the end record is being written nobody else may.
class WriterScope {
public:
  explicit WriterScope(Collector &Col) : Col(Col) {
    Col.Writers.fetch_add(1);
    Ok = Col.Phase.load() <= Finalizing;
  }
  ~WriterScope() { Col.Writers.fetch_sub(1); }
  explicit operator bool() const { return Ok; }

private:
  Collector &Col;
  bool Ok;
};

//===-- Activity buffers ---------------------------------------------------===//

void CUPTIAPI bufferRequested(uint8_t **Buffer, size_t *Size, size_t *MaxRecords) {
  *MaxRecords = 0;
  *Buffer = nullptr;
  *Size = 0;
  Collector *Col = C;
  size_t Bytes = Col ? Col->Cfg.BufferBytes : size_t(4) << 20;
  if (Col && Col->BuffersOut.load() >= MaxBuffersOut) {
    Col->RefusedBuffers.fetch_add(1);
    return; // CUPTI counts the records it cannot store as dropped.
  }
  void *P = nullptr;
  if (Col) {
    std::lock_guard<std::mutex> Lock(Col->PoolMutex);
    if (!Col->Pool.empty()) {
      P = Col->Pool.back();
      Col->Pool.pop_back();
    }
  }
  if (!P && posix_memalign(&P, 8, Bytes) != 0)
    return;
  *Buffer = static_cast<uint8_t *>(P);
  *Size = Bytes;
  if (Col)
    Col->BuffersOut.fetch_add(1);
}

/// Keeps a few completed buffers for the next requests: a fresh buffer costs
/// page faults, and CUPTI reports milliseconds of "activity-buffer-request"
/// overhead for each new one.
void releaseBuffer(Collector *Col, uint8_t *Buffer, size_t Size) {
  if (Col && Size == Col->Cfg.BufferBytes) {
    std::lock_guard<std::mutex> Lock(Col->PoolMutex);
    if (Col->Pool.size() < MaxPooledBuffers) {
      Col->Pool.push_back(Buffer);
      return;
    }
  }
  std::free(Buffer);
}

void writeRecords(Collector &Col, uint8_t *Buffer, size_t Valid) {
  if (!Col.Active.load() || Valid == 0)
    return;
  WriterScope W(Col);
  if (!W)
    return;
  constexpr size_t BlockSize = size_t(1) << 20;
  std::string Block;
  Block.reserve(BlockSize + 4096);
  uint64_t Lines = 0;
  CUpti_Activity *Record = nullptr;
  while (cuptiActivityGetNextRecord(Buffer, Valid, &Record) == CUPTI_SUCCESS) {
    if (appendActivity(Record, Col.Names, Col.Counters, Block))
      ++Lines;
    if (Block.size() >= BlockSize) {
      Col.Out.write(Block, Lines);
      Block.clear();
      Lines = 0;
    }
  }
  Col.Out.write(Block, Lines);
}

void CUPTIAPI bufferCompleted(CUcontext Context, uint32_t StreamId, uint8_t *Buffer, size_t Size,
                              size_t Valid) {
  Collector *Col = C;
  if (Col) {
    size_t Dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(Context, StreamId, &Dropped) == CUPTI_SUCCESS)
      Col->Dropped.fetch_add(Dropped);
    writeRecords(*Col, Buffer, Valid);
    Col->BuffersOut.fetch_sub(1);
  }
  releaseBuffer(Col, Buffer, Size);
}

//===-- Callbacks ----------------------------------------------------------===//

/// Captures the calling thread's stack, writes it if it is new, and returns
/// its id + 1 (0: none).
uint64_t captureStack(Collector &Col) {
  uint64_t T0 = monotonicNs();
  uintptr_t Frames[MaxStackDepth];
  size_t N = Col.Walker.capture(Frames, Col.Cfg.StackDepth);
  bool IsNew = false;
  uint32_t Id = Col.Stacks.intern(Frames, N, IsNew);
  if (IsNew) {
    static thread_local std::string Line;
    Line.clear();
    JsonLine(Line, "stack").num("id", Id).hexArray("frames", Frames, N).end();
    Col.Out.append(Line);
  }
  Col.StackNs.fetch_add(monotonicNs() - T0, std::memory_order_relaxed);
  Col.StackCaptures.fetch_add(1, std::memory_order_relaxed);
  return uint64_t(Id) + 1;
}

/// Python frames written per stack above the user's frame, and at most.
constexpr size_t PyFramesAboveUser = 16;
constexpr size_t MaxPyFrames = 64;

/// Captures the calling thread's Python frames (when the process is CPython),
/// writes the stack if it is new, and returns its id + 1 (0: none). The key
/// of a stack is its frames' (code object, instruction offset) pairs, so the
/// line tables are read once per distinct stack.
uint64_t capturePyStack(Collector &Col) {
  if (!Col.Python.enabled())
    return 0;
  uint64_t T0 = monotonicNs();
  PyRawFrame Raw[MaxPyFrames];
  size_t N = Col.Python.capture(Raw, MaxPyFrames);
  if (N == 0)
    return 0;
  static_assert(sizeof(PyRawFrame) == 2 * sizeof(uintptr_t), "frames are interned as word pairs");
  bool IsNew = false;
  uint32_t Id = Col.PyStacks.intern(reinterpret_cast<const uintptr_t *>(Raw), 2 * N, IsNew);
  if (IsNew) {
    static thread_local PyResolvedFrame Frames[MaxPyFrames];
    for (size_t I = 0; I < N; ++I)
      Col.Python.resolve(Raw[I], Frames[I]);
    int User = userFrameIndex(Frames, N);
    size_t Kept = std::min(N, (User >= 0 ? size_t(User) + 1 : 0) + PyFramesAboveUser);
    static thread_local std::string Files[MaxPyFrames], Functions[MaxPyFrames];
    uint64_t Lines[MaxPyFrames];
    for (size_t I = 0; I < Kept; ++I) {
      Files[I] = Frames[I].File;
      Functions[I] = Frames[I].Function;
      Lines[I] = static_cast<uint64_t>(Frames[I].Line);
    }
    static thread_local std::string Line;
    Line.clear();
    JsonLine L(Line, "pystack");
    L.num("id", Id);
    if (User >= 0)
      L.num("user", static_cast<uint64_t>(User));
    L.strArray("files", Files, Kept).numArray("lines", Lines, Kept).strArray("functions", Functions, Kept);
    L.end();
    Col.Out.append(Line);
    if (User >= 0)
      Col.PyUserFound.fetch_add(1, std::memory_order_relaxed);
  }
  Col.PyNs.fetch_add(monotonicNs() - T0, std::memory_order_relaxed);
  Col.PyCaptures.fetch_add(1, std::memory_order_relaxed);
  return uint64_t(Id) + 1;
}

/// The destination and source of a plain copy call: whether the same host
/// buffer is copied again and again, or a new one each time, is in them only.
template <typename Params> void copyPointers(const void *P, const void *&Dst, const void *&Src) {
  const auto *X = static_cast<const Params *>(P);
  Dst = X->dst;
  Src = X->src;
}

bool copyPointers(CUpti_CallbackId Cbid, const void *Params, const void *&Dst, const void *&Src) {
  if (!Params)
    return false;
  switch (Cbid) {
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020:
    copyPointers<cudaMemcpy_v3020_params>(Params, Dst, Src);
    return true;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020:
    copyPointers<cudaMemcpyAsync_v3020_params>(Params, Dst, Src);
    return true;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000:
    copyPointers<cudaMemcpy_ptds_v7000_params>(Params, Dst, Src);
    return true;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000:
    copyPointers<cudaMemcpyAsync_ptsz_v7000_params>(Params, Dst, Src);
    return true;
  default:
    return false;
  }
}

/// \p Cbid is a runtime callback id, or 0 for a driver call (whose ids are
/// another numbering: no copy parameters are read then).
void recordCallSite(Collector &Col, CUpti_CallbackId Cbid, const CUpti_CallbackData &D) {
  WriterScope W(Col);
  if (!W)
    return;
  uint64_t Stack = captureStack(Col);
  if (D.correlationData)
    *D.correlationData = Stack;
  static thread_local std::string Line;
  Line.clear();
  JsonLine J(Line, "callsite");
  J.num("correlation", D.correlationId).num("stack", Stack - 1);
  if (uint64_t PyStack = capturePyStack(Col))
    J.num("pystack", PyStack - 1);
  const void *Dst = nullptr, *Src = nullptr;
  if (copyPointers(Cbid, D.functionParams, Dst, Src))
    J.hex("dst", reinterpret_cast<uintptr_t>(Dst)).hex("src", reinterpret_cast<uintptr_t>(Src));
  // The host time this capture took (stack walks, the Python frames): the
  // program without the collector does not spend it.
  if (CallbackEntered) {
    uint64_t Now = cuptiNow();
    J.num("collector_start", CallbackEntered).num("collector_end", Now);
    Col.CollectorNs.fetch_add(Now > CallbackEntered ? Now - CallbackEntered : 0,
                              std::memory_order_relaxed);
  }
  J.end();
  Col.Out.append(Line);
  Col.Callsites.fetch_add(1, std::memory_order_relaxed);
}

const std::string &runtimeName(const Collector &Col, CUpti_CallbackId Cbid) {
  static const std::string Unknown = "unknown";
  if (Cbid < Col.Names.Runtime.size() && !Col.Names.Runtime[Cbid].empty())
    return Col.Names.Runtime[Cbid];
  return Unknown;
}

void onFailedCall(Collector &Col, CUpti_CallbackId Cbid, const CUpti_CallbackData &D, int Code) {
  uint64_t Nth = Col.FailedCalls.fetch_add(1) + 1;
  {
    std::lock_guard<std::mutex> Lock(Col.ErrorMutex);
    for (auto &Seen : Col.ErrorsSeen)
      if (Seen.first == Cbid && Seen.second == Code)
        return;
    if (Col.ErrorsSeen.size() >= MaxErrorRecords)
      return;
    Col.ErrorsSeen.emplace_back(Cbid, Code);
  }
  WriterScope W(Col);
  if (!W)
    return;
  // The stack taken on ENTER, or, for calls that get none, one taken now: on
  // EXIT the program's frames are the same.
  uint64_t Stack = D.correlationData ? *D.correlationData : 0;
  if (Stack == 0 && Col.Cfg.Stacks)
    Stack = captureStack(Col);
  const std::string &Api = runtimeName(Col, Cbid);
  std::string Line;
  JsonLine L(Line, "error");
  L.str("api", Api)
      .num("cbid", Cbid)
      .snum("code", Code)
      .str("error", cudaErrorName(Code))
      .num("correlation", D.correlationId)
      .num("thread", threadId())
      .num("time", cuptiNow())
      .num("nth", Nth);
  if (Stack)
    L.num("stack", Stack - 1);
  L.end();
  Col.Out.append(Line);
  if (Nth == 1 || Col.FirstError.empty()) {
    std::string First;
    JsonLine F(First);
    F.str("api", Api).snum("code", Code).str("error", cudaErrorName(Code)).num("correlation",
                                                                             D.correlationId);
    if (Stack)
      F.num("stack", Stack - 1);
    First += '}';
    std::lock_guard<std::mutex> Lock(Col.ErrorMutex);
    if (Col.FirstError.empty())
      Col.FirstError = First;
  }
  verbose("%s returned %s (%d)", Api.c_str(), cudaErrorName(Code), Code);
}

/// Device properties that CUPTI's device record lacks (opt-in shared memory,
/// the per-block reservation, clocks), queried once, on the first runtime
/// call's EXIT: the driver is fully initialized by then.
void queryDevices(Collector &Col) {
  if (Col.DevicesQueried.exchange(true))
    return;
  DriverEntryPoints &Cu = Col.Cu;
  if (!Cu.DeviceGetCount || !Cu.DeviceGet || !Cu.DeviceGetAttribute)
    return;
  int Count = 0;
  if (Cu.DeviceGetCount(&Count) != CUDA_SUCCESS)
    return;
  std::string Block;
  uint64_t Lines = 0;
  for (int I = 0; I < Count; ++I) {
    CUdevice Dev = 0;
    if (Cu.DeviceGet(&Dev, I) != CUDA_SUCCESS)
      continue;
    auto Attr = [&](CUdevice_attribute A) -> uint64_t {
      int V = 0;
      return Cu.DeviceGetAttribute(&V, A, Dev) == CUDA_SUCCESS && V > 0 ? uint64_t(V) : 0;
    };
    char Name[256] = {};
    if (Cu.DeviceGetName)
      Cu.DeviceGetName(Name, sizeof(Name) - 1, Dev);
    size_t Memory = 0;
    if (Cu.DeviceTotalMem)
      Cu.DeviceTotalMem(&Memory, Dev);
    uint64_t Warp = Attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    uint64_t ThreadsPerSM = Attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    JsonLine(Block, "device")
        .str("source", "driver")
        .num("id", static_cast<uint64_t>(I))
        .str("name", Name)
        .pair("cc", Attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
              Attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR))
        .num("sms", Attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT))
        .num("max_threads_per_sm", ThreadsPerSM)
        .num("max_warps_per_sm", Warp ? ThreadsPerSM / Warp : 0)
        .num("max_blocks_per_sm", Attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR))
        .num("max_threads_per_block", Attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK))
        .num("warp_size", Warp)
        .num("registers_per_sm", Attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR))
        .num("registers_per_block", Attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK))
        .num("shared_mem_per_sm", Attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR))
        .num("shared_mem_per_block", Attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK))
        .num("shared_mem_per_block_optin",
             Attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN))
        .num("reserved_shared_mem_per_block",
             Attr(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK))
        .num("global_memory_bytes", Memory)
        .num("l2_cache_bytes", Attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE))
        .num("core_clock_khz", Attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE))
        .num("memory_clock_khz", Attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE))
        .num("memory_bus_width", Attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH))
        .end();
    ++Lines;
  }
  WriterScope W(Col);
  if (W)
    Col.Out.write(Block, Lines);
}

/// Set between a runtime call's ENTER and EXIT: the driver calls the runtime
/// makes inside it are the runtime call's, which has the call site already.
thread_local bool InRuntimeCall = false;
/// The ENTER time of this thread's driver launch in flight.
thread_local uint64_t DriverLaunchStart = 0;

/// Kernel launches through the driver API that no runtime call made: how
/// cuBLASLt, cuDNN, Triton (torch.compile) and driver-API programs launch. Their
/// kernels correlate with the driver call only, so without these a GEMM from
/// PyTorch has no call site.
constexpr CUpti_CallbackId DriverLaunches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz};

const char *driverLaunchName(CUpti_CallbackId Cbid) {
  const char *Name = nullptr;
  if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, Cbid, &Name) != CUPTI_SUCCESS || !Name) {
    cuptiGetLastError();
    return "cuLaunchKernel";
  }
  return Name;
}

/// A driver launch made outside every runtime call: its call site on ENTER,
/// and on EXIT the "api" record that the activity API would have written
/// (unless CUDA_ADVISOR_DRIVER_API=1 records every driver call already).
void onDriverLaunch(Collector &Col, CUpti_CallbackId Cbid, const CUpti_CallbackData &D) {
  if (InRuntimeCall)
    return;
  if (D.callbackSite == CUPTI_API_ENTER) {
    if (D.correlationData)
      *D.correlationData = 0;
    if (Col.Cfg.Stacks)
      recordCallSite(Col, 0, D);
    // After the capture: the call's record starts where the program's call
    // does, as CUPTI's runtime records do.
    DriverLaunchStart = cuptiNow();
    return;
  }
  if (Col.Cfg.DriverApi || !DriverLaunchStart)
    return;
  uint64_t Start = DriverLaunchStart;
  DriverLaunchStart = 0;
  const auto *Ret = static_cast<const CUresult *>(D.functionReturnValue);
  WriterScope W(Col);
  if (!W)
    return;
  static thread_local std::string Line;
  Line.clear();
  JsonLine L(Line, "api");
  L.str("name", driverLaunchName(Cbid))
      .num("cbid", Cbid)
      .str("domain", "driver")
      .num("start", Start)
      .num("end", cuptiNow())
      .num("thread", threadId())
      .num("correlation", D.correlationId)
      .num("ret", Ret ? static_cast<uint64_t>(*Ret) : 0)
      .end();
  Col.Out.append(Line);
  Col.Counters.DriverCalls.fetch_add(1, std::memory_order_relaxed);
}

void onRuntimeApi(Collector &Col, CUpti_CallbackId Cbid, const CUpti_CallbackData &D) {
  InRuntimeCall = D.callbackSite == CUPTI_API_ENTER;
  if (D.callbackSite == CUPTI_API_ENTER) {
    if (Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020)
      cuptiActivityFlushAll(0); // Before the context and its records go away.
    if (D.correlationData)
      *D.correlationData = 0;
    if (Col.Cfg.Stacks && Cbid < Col.WantsStack.size() && Col.WantsStack[Cbid])
      recordCallSite(Col, Cbid, D);
    return;
  }
  if (!Col.DevicesQueried.load(std::memory_order_relaxed))
    queryDevices(Col);
  if (Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020)
    cuptiActivityFlushAll(0);
  const auto *Ret = static_cast<const cudaError_t *>(D.functionReturnValue);
  if (!Ret)
    return;
  int Code = static_cast<int>(*Ret);
  // cudaErrorNotReady is how cudaStreamQuery / cudaEventQuery say "not yet".
  if (Code == cudaSuccess || Code == cudaErrorNotReady)
    return;
  onFailedCall(Col, Cbid, D, Code);
}

void onFatalError(Collector &Col, const CUpti_StateData &S) {
  Col.CuptiFatal.store(true);
  WriterScope W(Col);
  if (!W)
    return;
  std::string Line;
  JsonLine(Line, "cupti_error")
      .num("time", cuptiNow())
      .num("result", S.notification.result)
      .str("result_name", cuptiResultName(S.notification.result))
      .str("message", S.notification.message ? S.notification.message : "")
      .end();
  Col.Out.append(Line);
  warning("CUPTI reported a fatal error and stopped profiling: %s",
          S.notification.message ? S.notification.message : cuptiResultName(S.notification.result));
}

void CUPTIAPI onCallback(void *, CUpti_CallbackDomain Domain, CUpti_CallbackId Cbid,
                         const void *Data) {
  Collector *Col = C;
  if (!Col || !Col->Active.load(std::memory_order_relaxed) || InsideCollector)
    return;
  InsideCollector = true;
  CallbackEntered = 0;
  if (Col->Cfg.Stacks && (Domain == CUPTI_CB_DOMAIN_RUNTIME_API ||
                          Domain == CUPTI_CB_DOMAIN_DRIVER_API) &&
      static_cast<const CUpti_CallbackData *>(Data)->callbackSite == CUPTI_API_ENTER)
    CallbackEntered = cuptiNow();
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API)
    onRuntimeApi(*Col, Cbid, *static_cast<const CUpti_CallbackData *>(Data));
  else if (Domain == CUPTI_CB_DOMAIN_DRIVER_API)
    onDriverLaunch(*Col, Cbid, *static_cast<const CUpti_CallbackData *>(Data));
  else if (Domain == CUPTI_CB_DOMAIN_STATE && Cbid == CUPTI_CBID_STATE_FATAL_ERROR)
    onFatalError(*Col, *static_cast<const CUpti_StateData *>(Data));
  InsideCollector = false;
}

//===-- Finishing the profile ----------------------------------------------===//

void sleepMs(unsigned Ms) {
  timespec T{static_cast<time_t>(Ms / 1000), static_cast<long>(Ms % 1000) * 1000000L};
  while (nanosleep(&T, &T) != 0 && errno == EINTR) {
  }
}

bool waitForPhase(Collector &Col, int Wanted, unsigned TimeoutMs) {
  for (unsigned I = 0; I < TimeoutMs; ++I) {
    if (Col.Phase.load() >= Wanted)
      return true;
    sleepMs(1);
  }
  return Col.Phase.load() >= Wanted;
}

std::string endRecord(Collector &Col, int ExitCode, int Signal) {
  ActivityCounters &K = Col.Counters;
  std::string Line;
  JsonLine L(Line, "end");
  L.str("reason", Signal ? "signal" : "exit");
  if (Signal)
    L.num("signal", static_cast<uint64_t>(Signal)).str("signal_name", signalName(Signal));
  else
    L.snum("exit_code", ExitCode);
  L.num("time", cuptiNow())
      .num("records", Col.Out.linesWritten())
      .num("dropped", Col.Dropped.load())
      .num("buffers_refused", Col.RefusedBuffers.load())
      .num("kernels", K.Kernels.load())
      .num("memcpys", K.Memcpys.load())
      .num("memsets", K.Memsets.load())
      .num("syncs", K.Syncs.load())
      .num("api_calls", K.RuntimeCalls.load())
      .num("driver_calls", K.DriverCalls.load())
      .num("devices", K.Devices.load())
      .num("overheads", K.Overheads.load())
      .num("overhead_ns", K.OverheadNs.load())
      .num("collector_ns", Col.CollectorNs.load())
      .num("incomplete", K.Incomplete.load())
      .num("failed_calls", Col.FailedCalls.load());
  {
    std::lock_guard<std::mutex> Lock(Col.ErrorMutex);
    if (!Col.FirstError.empty())
      L.raw("first_error", Col.FirstError);
  }
  L.num("stacks", Col.Stacks.count())
      .num("callsites", Col.Callsites.load())
      .num("stack_capture_ns", Col.StackNs.load())
      .num("stack_slow_walks", Col.Walker.slowCaptures());
  if (Col.Python.enabled())
    L.num("pystacks", Col.PyStacks.count())
        .num("pystacks_with_user_frame", Col.PyUserFound.load())
        .num("python_captures", Col.PyCaptures.load())
        .num("python_capture_ns", Col.PyNs.load());
  if (Col.RuntimeVersion)
    L.num("cuda_runtime_version", static_cast<uint64_t>(Col.RuntimeVersion));
  if (Col.CuptiFatal.load())
    L.boolean("cupti_fatal_error", true);
  L.end();
  return Line;
}

/// Flushes CUPTI, then writes the module map and the end record and closes
/// the file. Runs once; a second caller waits for the first.
void finalize(int ExitCode, int Signal) {
  Collector *Col = C;
  if (!Col || !Col->Active.load())
    return;
  int Expected = Running;
  if (!Col->Phase.compare_exchange_strong(Expected, Finalizing)) {
    if (!pthread_equal(Col->FinalizingThread.load(), pthread_self()))
      waitForPhase(*Col, Done, 10000);
    return;
  }
  Col->FinalizingThread.store(pthread_self());
  InsideCollector = true; // Our own calls below must not record themselves.
  if (!Signal && Col->HelperRedelivers.load())
    Signal = Col->PendingSignal.load(); // The process dies of it after this.
  if (Signal)
    Col->Out.setCrashing();
  if (!Signal) {
    // Safe now that the program is done with CUDA; the symbol is exported
    // only by a shared libcudart (PyTorch), not by a static one (nvcc's default).
    using GetVersionFn = int (*)(int *);
    if (auto Fn = reinterpret_cast<GetVersionFn>(dlsym(RTLD_DEFAULT, "cudaRuntimeGetVersion")))
      Fn(&Col->RuntimeVersion);
  }
  CUptiResult R = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  if (R != CUPTI_SUCCESS)
    verbose("cuptiActivityFlushAll: %s", cuptiResultName(R));
  size_t Dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &Dropped) == CUPTI_SUCCESS)
    Col->Dropped.fetch_add(Dropped);

  Col->Phase.store(Closing);
  for (unsigned I = 0; I < 2000 && Col->Writers.load() > 0; ++I)
    sleepMs(1);
  Col->Out.flush();
  std::string Tail;
  uint64_t Modules = appendModuleRecords(Tail);
  Col->Out.write(Tail, Modules);
  Col->Out.write(endRecord(*Col, ExitCode, Signal), 1);
  Col->Out.close();
  Col->Phase.store(Done);
  if (Col->Out.failed())
    warning("writing %s failed: %s", Col->Out.path().c_str(), std::strerror(errno));
  verbose("wrote %s: %llu records, %llu kernels, %llu copies, %llu dropped",
          Col->Out.path().c_str(), static_cast<unsigned long long>(Col->Out.linesWritten()),
          static_cast<unsigned long long>(Col->Counters.Kernels.load()),
          static_cast<unsigned long long>(Col->Counters.Memcpys.load()),
          static_cast<unsigned long long>(Col->Dropped.load()));
  InsideCollector = false;
}

void redeliverLater(Collector &Col, int Sig);

void onExit(int Status, void *) {
  finalize(Status, 0);
  // A signal that came while the program was exiting was held back until
  // the profile was finished.
  if (Collector *Col = C; Col && Col->Active.load())
    redeliverLater(*Col, Col->PendingSignal.load());
}

//===-- Signals and fork ---------------------------------------------------===//

/// Hands Sig on to what would have handled it without the collector.
void redeliver(Collector &Col, int Sig, siginfo_t *Info, void *Context) {
  const struct sigaction &Prev = Col.Previous[Sig];
  if ((Prev.sa_flags & SA_SIGINFO) && Prev.sa_sigaction) {
    Prev.sa_sigaction(Sig, Info, Context);
    return;
  }
  if (Prev.sa_handler == SIG_IGN)
    return;
  if (Prev.sa_handler != SIG_DFL) {
    Prev.sa_handler(Sig);
    return;
  }
  signal(Sig, SIG_DFL);
  // A fault (si_code > 0 for a crash signal) happens again when the handler
  // returns, now with the default action; anything sent must be sent again.
  if (isCrashSignal(Sig) && Info && Info->si_code > 0)
    return;
  raise(Sig); // Blocked until the handler returns.
}

void notifyFinalizer(Collector &Col, int Sig) {
  int Expected = 0;
  Col.PendingSignal.compare_exchange_strong(Expected, Sig);
  char B = static_cast<char>(Sig);
  ssize_t Ignored = ::write(Col.Pipe[1], &B, 1);
  (void)Ignored;
}

void onSignal(int Sig, siginfo_t *Info, void *Context) {
  int SavedErrno = errno;
  Collector *Col = C;
  if (!Col) {
    signal(Sig, SIG_DFL);
    raise(Sig);
    return;
  }
  if (Col->Active.load()) {
    pthread_t Self = pthread_self();
    bool OnFinalizer = Col->HaveFinalizer.load() && pthread_equal(Self, Col->Finalizer);
    int P = Col->Phase.load();
    // A fault, or a signal a thread sent itself (abort, raise): this thread
    // cannot go on. Anything else was sent to the process (kill, timeout,
    // Ctrl-C) and may be running on any thread, also one of CUDA's or
    // CUPTI's that the flush would wait for.
    bool ThisThread = isCrashSignal(Sig) && Info && (Info->si_code > 0 || Info->si_code == SI_TKILL);
    if (!ThisThread && !OnFinalizer) {
      if (P == Running && Col->HaveFinalizer.load()) {
        // The helper thread finishes the profile and then passes the signal
        // on; until then the program runs on.
        Col->HelperRedelivers.store(true);
        notifyFinalizer(*Col, Sig);
        errno = SavedErrno;
        return;
      }
      if (P == Finalizing || P == Closing) {
        // The profile is being finished (the program is exiting, or an
        // earlier signal): whoever finishes it passes this signal on.
        int Expected = 0;
        Col->PendingSignal.compare_exchange_strong(Expected, Sig);
        errno = SavedErrno;
        return;
      }
      if (P == Running)
        finalize(0, Sig);
    } else if (ThisThread && P == Running && !OnFinalizer) {
      // Wait while the helper thread finishes the profile. The wait is
      // bounded: a crash inside CUDA may leave a lock held that the flush
      // needs.
      if (Col->HaveFinalizer.load()) {
        notifyFinalizer(*Col, Sig);
        waitForPhase(*Col, Done, 10000);
      } else {
        finalize(0, Sig);
      }
    } else if (ThisThread && P != Done && !OnFinalizer &&
               !pthread_equal(Col->FinalizingThread.load(), Self)) {
      waitForPhase(*Col, Done, 10000);
    }
  }
  redeliver(*Col, Sig, Info, Context);
  errno = SavedErrno;
}

/// Passes on a signal that the collector held back while it finished the
/// profile, from a thread that is not the one it interrupted.
void redeliverLater(Collector &Col, int Sig) {
  if (Sig <= 0 || Sig >= NSIG || !Col.Installed[Sig])
    return;
  sigaction(Sig, &Col.Previous[Sig], nullptr);
  kill(getpid(), Sig);
}

void *finalizerMain(void *) {
  sigset_t All;
  sigfillset(&All);
  pthread_sigmask(SIG_BLOCK, &All, nullptr);
  Collector *Col = C;
  for (;;) {
    pollfd P{Col->Pipe[0], POLLIN, 0};
    int Timeout = Col->Cfg.FlushMs ? static_cast<int>(Col->Cfg.FlushMs) : -1;
    int R = poll(&P, 1, Timeout);
    if (R == 0) {
      // Hand completed records to the file now and then, so that a process
      // that dies without a chance to finish (SIGKILL, _exit) leaves most of
      // them behind.
      if (Col->Active.load() && Col->Phase.load() == Running)
        cuptiActivityFlushAll(0);
      continue;
    }
    if (R < 0) {
      if (errno == EINTR)
        continue;
      return nullptr;
    }
    char B;
    ssize_t N = ::read(Col->Pipe[0], &B, 1);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return nullptr;
    break;
  }
  int Sig = Col->PendingSignal.load();
  finalize(0, Sig);
  // A fault's thread waits in onSignal and passes the signal on itself.
  if (Col->HelperRedelivers.load())
    redeliverLater(*Col, Col->PendingSignal.load());
  return nullptr;
}

void startFinalizer(Collector &Col) {
  if (pipe2(Col.Pipe, O_CLOEXEC) != 0)
    return;
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setstacksize(&Attr, 256 * 1024);
  pthread_attr_setdetachstate(&Attr, PTHREAD_CREATE_DETACHED);
  pthread_t T;
  if (pthread_create(&T, &Attr, &finalizerMain, nullptr) == 0) {
    Col.Finalizer = T;
    Col.HaveFinalizer.store(true);
  }
  pthread_attr_destroy(&Attr);
}

void installSignalHandlers(Collector &Col) {
  auto Install = [&](int Sig, bool OverHandlers) {
    struct sigaction Old;
    if (sigaction(Sig, nullptr, &Old) != 0)
      return;
    bool IsDefault = !(Old.sa_flags & SA_SIGINFO) && Old.sa_handler == SIG_DFL;
    bool IsIgnored = !(Old.sa_flags & SA_SIGINFO) && Old.sa_handler == SIG_IGN;
    if (IsIgnored || (!IsDefault && !OverHandlers))
      return;
    Col.Previous[Sig] = Old;
    struct sigaction New;
    std::memset(&New, 0, sizeof(New));
    New.sa_sigaction = &onSignal;
    New.sa_flags = SA_SIGINFO | SA_RESTART | (Old.sa_flags & SA_ONSTACK);
    sigemptyset(&New.sa_mask);
    if (sigaction(Sig, &New, nullptr) == 0)
      Col.Installed[Sig] = true;
  };
  // Crash signals: also in front of the program's own handler, which runs
  // after the profile is finished. Stop signals: only where the program has
  // none (a Python program's SIGINT handler raises KeyboardInterrupt, and the
  // program then exits normally).
  for (int Sig : CrashSignals)
    Install(Sig, true);
  for (int Sig : StopSignals)
    Install(Sig, false);
}

void onForkChild() {
  // CUDA does not work in a child forked after it started, and CUPTI's state
  // (threads, semaphores) did not survive the fork: the child writes nothing,
  // and never calls CUPTI (a flush can hang there).
  if (Collector *Col = C) {
    Col->Active.store(false);
    Col->HaveFinalizer.store(false);
    Col->Out.abandon();
  }
}

//===-- Set-up -------------------------------------------------------------===//

std::string jsonStringArray(const std::vector<std::string> &Items) {
  std::string S = "[";
  for (size_t I = 0; I < Items.size(); ++I) {
    if (I)
      S += ',';
    JsonLine::quote(S, Items[I].data(), Items[I].size());
  }
  S += ']';
  return S;
}

void enableActivities(Collector &Col, std::vector<std::string> &Enabled,
                      std::vector<std::string> &Failed) {
  struct Kind {
    CUpti_ActivityKind Kind;
    const char *Name;
  };
  std::vector<Kind> Kinds = {
      {CUPTI_ACTIVITY_KIND_DEVICE, "device"},
      {CUPTI_ACTIVITY_KIND_CONTEXT, "context"},
      {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "concurrent_kernel"},
      {CUPTI_ACTIVITY_KIND_MEMCPY, "memcpy"},
      {CUPTI_ACTIVITY_KIND_MEMCPY2, "memcpy2"},
      {CUPTI_ACTIVITY_KIND_MEMSET, "memset"},
      {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "synchronization"},
      {CUPTI_ACTIVITY_KIND_RUNTIME, "runtime"},
      {CUPTI_ACTIVITY_KIND_OVERHEAD, "overhead"},
      {CUPTI_ACTIVITY_KIND_NAME, "name"},
  };
  if (Col.Cfg.DriverApi)
    Kinds.push_back({CUPTI_ACTIVITY_KIND_DRIVER, "driver"});
  for (const Kind &K : Kinds) {
    if (Col.Cfg.skips(K.Name))
      continue;
    CUptiResult R = cuptiActivityEnable(K.Kind);
    if (R != CUPTI_SUCCESS && K.Kind == CUPTI_ACTIVITY_KIND_DEVICE)
      R = cuptiActivityEnableAndDump(K.Kind);
    if (R == CUPTI_SUCCESS) {
      Enabled.push_back(K.Name);
      if (K.Kind == CUPTI_ACTIVITY_KIND_RUNTIME && !Col.Cfg.AllApi)
        for (size_t Id = 1; Id < Col.Names.Runtime.size(); ++Id)
          if (isQuery(Col.Names.Runtime[Id]) &&
              cuptiActivityEnableRuntimeApi(static_cast<CUpti_CallbackId>(Id), 0) != CUPTI_SUCCESS)
            cuptiGetLastError();
      continue;
    }
    cuptiGetLastError(); // Clear it.
    Failed.push_back(std::string(K.Name) + ": " + cuptiResultName(R));
    verbose("cannot enable CUPTI activity %s: %s", K.Name, cuptiResultName(R));
  }
}

void writeHeader(Collector &Col, const std::vector<std::string> &Enabled,
                 const std::vector<std::string> &Failed) {
  char Cwd[PATH_MAX] = {};
  if (!getcwd(Cwd, sizeof(Cwd)))
    Cwd[0] = '\0';
  char Host[256] = {};
  gethostname(Host, sizeof(Host) - 1);
  timespec Now;
  clock_gettime(CLOCK_REALTIME, &Now);
  uint32_t CuptiVersion = 0;
  cuptiGetVersion(&CuptiVersion);
  int DriverVersion = 0;
  if (Col.Cu.DriverGetVersion)
    Col.Cu.DriverGetVersion(&DriverVersion);

  std::string H;
  JsonLine L(H);
  L.str("format", "cuda-advisor-profile")
      .num("version", 1)
      .num("pid", static_cast<uint64_t>(Col.Pid))
      .num("ppid", static_cast<uint64_t>(getppid()))
      .raw("command", jsonStringArray(commandLine()))
      .str("cwd", Cwd)
      .str("host", Host)
      .num("start", cuptiNow())
      .num("start_unix_ns", uint64_t(Now.tv_sec) * 1000000000ull + uint64_t(Now.tv_nsec))
      .str("collector_version", CUDA_ADVISOR_VERSION)
      .num("cupti_api_version", CuptiVersion)
      .num("cuda_driver_version", static_cast<uint64_t>(DriverVersion > 0 ? DriverVersion : 0))
      .raw("activities", jsonStringArray(Enabled))
      .raw("activities_failed", jsonStringArray(Failed))
      .boolean("callbacks", Col.CallbacksOn)
      .boolean("query_apis", Col.Cfg.AllApi)
      .boolean("stacks", Col.Cfg.Stacks)
      .num("stack_depth", Col.Cfg.StackDepth);
  if (Col.Python.enabled()) {
    char Version[16];
    std::snprintf(Version, sizeof(Version), "3.%u", Col.Python.version() & 0xff);
    L.str("python", Version);
  }
  if (Col.Out.path() != Col.Cfg.Output)
    L.str("output_requested", Col.Cfg.Output);
  L.end();
  Col.Out.write(H, 1);
}

void setUp() {
  C = new Collector;
  Collector &Col = *C;
  Col.Cfg = readConfig();
  Col.Pid = getpid();
  std::string Chosen, Error;
  if (!Col.Out.open(Col.Cfg.Output, Chosen, Error)) {
    warning("cannot create the profile %s; the program runs without profiling", Error.c_str());
    return;
  }
  verbose("collector %s loaded; writing %s", CUDA_ADVISOR_VERSION, Chosen.c_str());

  Col.Walker.init(reinterpret_cast<const void *>(&InitializeInjection));
  if (Col.Cfg.Stacks && Col.Cfg.PythonStacks) {
    if (Col.Python.init())
      verbose("Python 3.%u: recording Python call sites", Col.Python.version() & 0xff);
    else
      verbose("no Python call sites: %s", Col.Python.reason());
  }
  Col.Names.load(Col.Cfg.DriverApi);
  Col.WantsStack.assign(Col.Names.Runtime.size(), 0);
  for (size_t Id = 0; Id < Col.Names.Runtime.size(); ++Id)
    Col.WantsStack[Id] = wantsStack(Col.Names.Runtime[Id]);
  Col.Cu.load();

  CUptiResult R = CUPTI_SUCCESS;
  if (Col.Cfg.skips("callbacks")) {
    // Measuring the collector's cost: no subscriber, no warning.
  } else if ((R = cuptiSubscribe(&Col.Subscriber, reinterpret_cast<CUpti_CallbackFunc>(&onCallback),
                                 nullptr)) == CUPTI_SUCCESS) {
    if (Col.Cfg.AllApi) {
      Col.CallbacksOn = cuptiEnableDomain(1, Col.Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API) ==
                        CUPTI_SUCCESS;
    } else {
      Col.CallbacksOn = true;
      for (size_t Id = 1; Id < Col.Names.Runtime.size(); ++Id) {
        const std::string &Name = Col.Names.Runtime[Id];
        if (Name.empty() || isQuery(Name))
          continue;
        if (cuptiEnableCallback(1, Col.Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                                static_cast<CUpti_CallbackId>(Id)) != CUPTI_SUCCESS)
          cuptiGetLastError(); // Ids that this CUPTI does not know.
      }
    }
    for (CUpti_CallbackId Id : DriverLaunches)
      if (cuptiEnableCallback(1, Col.Subscriber, CUPTI_CB_DOMAIN_DRIVER_API, Id) != CUPTI_SUCCESS)
        cuptiGetLastError();
    cuptiEnableCallback(1, Col.Subscriber, CUPTI_CB_DOMAIN_STATE, CUPTI_CBID_STATE_FATAL_ERROR);
  } else {
    cuptiGetLastError();
    warning("cuptiSubscribe: %s (is another CUPTI client attached: Nsight, compute-sanitizer, "
            "torch.profiler?); no call stacks and no API return codes will be recorded",
            cuptiResultName(R));
  }
  if (!Col.CallbacksOn)
    Col.Cfg.Stacks = false;

  std::vector<std::string> Enabled, Failed;
  // Activity records name threads as the collector's own records do (gettid),
  // not by pthread_self, so that the driver launches recorded above and the
  // error records join the activity API's calls by thread.
  if (cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM) != CUPTI_SUCCESS)
    cuptiGetLastError();
  R = cuptiActivityRegisterCallbacks(&bufferRequested, &bufferCompleted);
  if (R == CUPTI_SUCCESS) {
    enableActivities(Col, Enabled, Failed);
  } else {
    cuptiGetLastError();
    Failed.push_back(std::string("cuptiActivityRegisterCallbacks: ") + cuptiResultName(R));
    warning("cuptiActivityRegisterCallbacks: %s; no GPU activity will be recorded",
            cuptiResultName(R));
  }
  writeHeader(Col, Enabled, Failed);

  on_exit(&onExit, nullptr);
  pthread_atfork(nullptr, nullptr, &onForkChild);
  startFinalizer(Col);
  installSignalHandlers(Col);
  Col.Active.store(true);
}

} // namespace

extern "C" int InitializeInjection(void) {
  static std::mutex InitMutex;
  static bool Initialized = false;
  std::lock_guard<std::mutex> Lock(InitMutex);
  if (!Initialized) {
    Initialized = true;
    setUp();
  }
  return 1;
}
