//===- NativeReader.cpp - The collector's JSON Lines profile --------------===//
//
// Reads the profile that `cuda-advisor record` writes (docs/profile-format.md):
// one JSON object per line, a header first, records with a "type", and an
// "end" record last. A file without the end record, or whose last line is
// cut off, is truncated (the program died before the collector could finish
// it) and is rejected: a partial profile would mislead the ranking.
//
//===----------------------------------------------------------------------===//
#include "BoundedJson.h"
#include "cuda-advisor/Profile/Reader.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <optional>

using namespace llvm;

namespace cuda_advisor::profile {

namespace {

constexpr int64_t SupportedVersion = 1;

Error fail(StringRef Path, size_t Line, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), "%s:%zu: %s", Path.str().c_str(), Line,
                           Message.str().c_str());
}

/// The fields of one record, with the first problem remembered so that each
/// record type reads as a list of fields and checks once.
class Fields {
public:
  Fields(const json::Object &O, StringRef Type) : O(O), Type(Type) {}

  uint64_t u64(StringRef Key, bool Required = true) {
    const json::Value *V = O.get(Key);
    if (!V) {
      if (Required)
        problem(formatv("lacks \"{0}\"", Key));
      return 0;
    }
    if (std::optional<uint64_t> U = V->getAsUINT64())
      return *U;
    problem(formatv("has a \"{0}\" that is not a non-negative integer", Key));
    return 0;
  }
  uint32_t u32(StringRef Key, bool Required = true) {
    uint64_t V = u64(Key, Required);
    if (V > UINT32_MAX)
      problem(formatv("has a \"{0}\" out of range", Key));
    return static_cast<uint32_t>(V);
  }
  int64_t i64(StringRef Key, bool Required = true) {
    const json::Value *V = O.get(Key);
    if (!V) {
      if (Required)
        problem(formatv("lacks \"{0}\"", Key));
      return 0;
    }
    if (std::optional<int64_t> I = V->getAsInteger())
      return *I;
    problem(formatv("has a \"{0}\" that is not an integer", Key));
    return 0;
  }
  StringRef str(StringRef Key, bool Required = true) {
    const json::Value *V = O.get(Key);
    if (!V) {
      if (Required)
        problem(formatv("lacks \"{0}\"", Key));
      return {};
    }
    if (std::optional<StringRef> S = V->getAsString())
      return *S;
    problem(formatv("has a \"{0}\" that is not a string", Key));
    return {};
  }
  bool boolean(StringRef Key) {
    const json::Value *V = O.get(Key);
    return V && V->getAsBoolean().value_or(false);
  }
  /// "0x..." as a number.
  uint64_t address(const json::Value &V, StringRef What) {
    std::optional<StringRef> S = V.getAsString();
    uint64_t A = 0;
    if (!S || !S->consume_front("0x") || S->getAsInteger(16, A)) {
      problem(formatv("has a {0} that is not a \"0x...\" address", What));
      return 0;
    }
    return A;
  }
  uint64_t address(StringRef Key) {
    const json::Value *V = O.get(Key);
    if (!V) {
      problem(formatv("lacks \"{0}\"", Key));
      return 0;
    }
    return address(*V, formatv("\"{0}\"", Key).str());
  }
  /// [x, y, z] (N = 3) or [major, minor] (N = 2).
  template <size_t N> std::array<uint32_t, N> array(StringRef Key, bool Required = true) {
    std::array<uint32_t, N> R{};
    const json::Array *A = O.getArray(Key);
    if (!A) {
      if (Required || O.get(Key))
        problem(formatv("lacks the array \"{0}\"", Key));
      return R;
    }
    if (A->size() != N) {
      problem(formatv("has a \"{0}\" of {1} elements, not {2}", Key, A->size(), N));
      return R;
    }
    for (size_t I = 0; I < N; ++I) {
      std::optional<uint64_t> V = (*A)[I].getAsUINT64();
      if (!V || *V > UINT32_MAX) {
        problem(formatv("has a \"{0}\" with an element that is not a 32-bit count", Key));
        return R;
      }
      R[I] = static_cast<uint32_t>(*V);
    }
    return R;
  }
  void problem(const Twine &What) {
    if (Problem.empty())
      Problem = (Twine("the ") + Type + " record " + What).str();
  }
  Error check(StringRef Path, size_t Line) {
    if (Problem.empty())
      return Error::success();
    return fail(Path, Line, Problem);
  }

private:
  const json::Object &O;
  StringRef Type;
  std::string Problem;
};

std::string joinCommand(const json::Array &Args) {
  std::string Cmd;
  for (const json::Value &A : Args) {
    std::optional<StringRef> S = A.getAsString();
    if (!S)
      continue;
    if (!Cmd.empty())
      Cmd += ' ';
    bool Quote = S->empty() || S->find_first_of(" \t\"'\\$") != StringRef::npos;
    if (!Quote) {
      Cmd += *S;
      continue;
    }
    Cmd += '\'';
    for (char C : *S) {
      if (C == '\'')
        Cmd += "'\\''";
      else
        Cmd += C;
    }
    Cmd += '\'';
  }
  return Cmd;
}

/// Reads one file; the profile's process is index 0 of the result.
class NativeReader {
public:
  NativeReader(StringRef Path, StringRef Contents) : Path(Path), Contents(Contents) {}
  Expected<Profile> read();

private:
  Error readHeader(const json::Object &O, size_t Line);
  Error readRecord(StringRef Type, const json::Object &O, size_t Line);
  Error readEnd(const json::Object &O, size_t Line, size_t RecordsBefore);
  Device &device(uint32_t Id);
  uint32_t denseThread(uint64_t Tid);
  void finish();
  void attributeBackwardCalls();

  StringRef Path, Contents;
  Profile P;
  Process Proc;
  DenseMap<uint32_t, uint32_t> ContextDevice;
  DenseMap<uint64_t, size_t> StackById;        // Record id -> index in P.Stacks.
  DenseMap<uint64_t, uint64_t> CallSiteStack;  // Correlation id -> stack record id.
  DenseMap<uint64_t, size_t> PyStackById;      // pystack record id -> index in P.Stacks.
  DenseMap<uint64_t, uint64_t> CallSitePyStack; // Correlation id -> pystack record id.
  DenseMap<uint64_t, std::pair<uint64_t, uint64_t>> CallSiteCopy; // -> (dst, src).
  DenseMap<uint64_t, uint32_t> Threads;
  std::vector<size_t> SyncsWithoutDevice;
  std::optional<uint64_t> FirstErrorStackId;
  uint64_t DriverBandwidth[64] = {};
};

Device &NativeReader::device(uint32_t Id) {
  for (Device &D : P.Devices)
    if (D.Id == Id)
      return D;
  P.Devices.emplace_back();
  P.Devices.back().Id = Id;
  return P.Devices.back();
}

uint32_t NativeReader::denseThread(uint64_t Tid) {
  auto [It, New] = Threads.try_emplace(Tid, static_cast<uint32_t>(Threads.size() + 1));
  return It->second;
}

Error NativeReader::readHeader(const json::Object &O, size_t Line) {
  std::optional<StringRef> Format = O.getString("format");
  if (!Format || *Format != "cuda-advisor-profile")
    return fail(Path, Line, "not a cuda-advisor profile (the first line has no "
                            "\"format\":\"cuda-advisor-profile\")");
  std::optional<int64_t> Version = O.getInteger("version");
  if (!Version)
    return fail(Path, Line, "the header has no integer \"version\"");
  if (*Version > SupportedVersion || *Version < 1)
    return fail(Path, Line,
                formatv("profile format version {0}; this cuda-advisor reads version {1} (a "
                        "newer collector wrote it?)",
                        *Version, SupportedVersion));
  Fields F(O, "header");
  Proc.Pid = F.u32("pid");
  Proc.StartNs = F.u64("start");
  if (const json::Array *Cmd = O.getArray("command"))
    Proc.Command = joinCommand(*Cmd);
  return F.check(Path, Line);
}

Error NativeReader::readRecord(StringRef Type, const json::Object &O, size_t Line) {
  Fields F(O, Type);
  if (Type == "kernel") {
    Kernel K;
    K.Name = F.str("name").str();
    K.Device = F.u32("device");
    K.Stream = F.u32("stream");
    K.Start = F.u64("start");
    K.End = F.u64("end");
    K.Correlation = F.u64("correlation");
    K.Grid = F.array<3>("grid");
    K.Block = F.array<3>("block");
    K.RegistersPerThread = F.u32("registers");
    K.StaticSharedMem = F.u32("static_shared");
    K.DynamicSharedMem = F.u32("dynamic_shared");
    K.LocalMemPerThread = F.u32("local_per_thread", false);
    P.Kernels.push_back(std::move(K));
  } else if (Type == "memcpy") {
    Copy C;
    std::optional<CopyKind> Kind = parseCopyKind(F.str("kind"));
    std::optional<MemoryKind> Src = parseMemoryKind(F.str("src"));
    std::optional<MemoryKind> Dst = parseMemoryKind(F.str("dst"));
    if (!Kind || !Src || !Dst)
      F.problem("has an unknown copy or memory kind");
    C.Kind = Kind.value_or(CopyKind::Unknown);
    C.Src = Src.value_or(MemoryKind::Unknown);
    C.Dst = Dst.value_or(MemoryKind::Unknown);
    C.Bytes = F.u64("bytes");
    C.Start = F.u64("start");
    C.End = F.u64("end");
    C.Device = F.u32("device");
    C.Stream = F.u32("stream");
    C.SrcDevice = O.get("src_device") ? F.u32("src_device") : C.Device;
    C.DstDevice = O.get("dst_device") ? F.u32("dst_device") : C.Device;
    // The runtime call's id where it differs from the driver call's: the
    // "api" records are runtime calls.
    C.Correlation = O.get("runtime_correlation") ? F.u64("runtime_correlation")
                                                 : F.u64("correlation");
    P.Copies.push_back(C);
  } else if (Type == "memset") {
    Memset M;
    std::optional<MemoryKind> Kind = parseMemoryKind(F.str("memory"));
    if (!Kind)
      F.problem("has an unknown memory kind");
    M.Memory = Kind.value_or(MemoryKind::Unknown);
    M.Bytes = F.u64("bytes");
    M.Value = F.u32("value", false);
    M.Start = F.u64("start");
    M.End = F.u64("end");
    M.Device = F.u32("device");
    M.Stream = F.u32("stream");
    M.Correlation = F.u64("correlation");
    P.Memsets.push_back(M);
  } else if (Type == "sync") {
    Sync S;
    std::optional<SyncKind> Kind = parseSyncKind(F.str("sync"));
    if (!Kind)
      F.problem("has an unknown synchronization kind");
    S.Kind = Kind.value_or(SyncKind::Unknown);
    S.Start = F.u64("start");
    S.End = F.u64("end");
    S.Stream = F.u32("stream", false);
    S.Correlation = F.u64("correlation");
    S.Device = F.u32("context"); // Resolved to the device in finish().
    SyncsWithoutDevice.push_back(P.Syncs.size());
    P.Syncs.push_back(S);
  } else if (Type == "api") {
    ApiCall A;
    A.Name = F.str("name").str();
    A.Cbid = F.u32("cbid");
    A.Driver = F.str("domain", false) == "driver";
    A.Start = F.u64("start");
    A.End = F.u64("end");
    A.Thread = denseThread(F.u64("thread"));
    A.Correlation = F.u64("correlation");
    A.ReturnCode = static_cast<int>(F.i64("ret"));
    P.ApiCalls.push_back(std::move(A));
  } else if (Type == "stack") {
    uint64_t Id = F.u64("id");
    Stack S;
    const json::Array *Frames = O.getArray("frames");
    if (!Frames)
      F.problem("lacks the array \"frames\"");
    else
      for (const json::Value &V : *Frames)
        S.Frames.push_back(F.address(V, "frame"));
    if (!StackById.try_emplace(Id, P.Stacks.size()).second)
      F.problem(formatv("repeats the stack id {0}", Id));
    P.Stacks.push_back(std::move(S));
  } else if (Type == "pystack") {
    // The Python frames of a call (docs/profile-format.md): parallel arrays,
    // innermost first; "user" is the innermost frame of the user's code.
    uint64_t Id = F.u64("id");
    const json::Array *Files = O.getArray("files");
    const json::Array *Lines = O.getArray("lines");
    const json::Array *Functions = O.getArray("functions");
    if (!Files || !Lines || !Functions || Files->size() != Lines->size() ||
        Files->size() != Functions->size()) {
      F.problem("lacks the arrays \"files\", \"lines\" and \"functions\" of one length");
    } else {
      Stack S;
      std::optional<uint64_t> User;
      if (O.get("user"))
        User = F.u64("user");
      for (size_t I = 0; I < Files->size(); ++I) {
        StackFrame Frame;
        std::optional<StringRef> File = (*Files)[I].getAsString();
        std::optional<int64_t> Line = (*Lines)[I].getAsInteger();
        std::optional<StringRef> Function = (*Functions)[I].getAsString();
        if (!File || !Line || *Line < 0 || *Line > INT32_MAX || !Function) {
          F.problem(formatv("has a frame {0} that is not a file, a line and a function", I));
          break;
        }
        Frame.Loc.File = File->str();
        Frame.Loc.Line = static_cast<unsigned>(*Line);
        Frame.Function = Function->str();
        Frame.Address = static_cast<uint32_t>(I);
        // The collector decided which frames are the libraries' (torch/,
        // site-packages, the standard library): those inside the user's.
        Frame.Library = !User || I < *User;
        S.Symbols.push_back(std::move(Frame));
      }
      // Collectors before 2026-12-03 took code that torch.compile generated
      // (Inductor's cache) for the user's: the user's frame is the first
      // frame above it that is no library's, if the kept frames hold one.
      while (User && *User < S.Symbols.size() &&
             isLibraryPythonFile(S.Symbols[*User].Loc.File)) {
        S.Symbols[*User].Library = true;
        if (++*User == S.Symbols.size())
          User.reset();
      }
      // A function that torch.compile compiled runs as a whole graph, called
      // from Dynamo's frame evaluation: its frame's line is its `def` line,
      // not a line that made the call. It is shown as the function.
      if (User && *User > 0 && *User < S.Symbols.size() &&
          StringRef(S.Symbols[*User - 1].Loc.File).contains("/torch/_dynamo/"))
        S.Symbols[*User].FunctionOnly = true;
      if (User && *User < S.Symbols.size() && S.Symbols[*User].Loc.isValid())
        S.UserFrame = static_cast<int32_t>(*User);
      if (!PyStackById.try_emplace(Id, P.Stacks.size()).second)
        F.problem(formatv("repeats the pystack id {0}", Id));
      P.Stacks.push_back(std::move(S));
    }
  } else if (Type == "callsite") {
    uint64_t Correlation = F.u64("correlation");
    CallSiteStack[Correlation] = F.u64("stack");
    if (O.get("pystack"))
      CallSitePyStack[Correlation] = F.u64("pystack");
    if (O.get("dst") && O.get("src"))
      CallSiteCopy[Correlation] = {F.address("dst"), F.address("src")};
    // The collector's own time capturing this call site (stack walks, the
    // Python frames): host time the program does not spend without it.
    uint64_t Start = F.u64("collector_start", false), End = F.u64("collector_end", false);
    if (End > Start && Start)
      Proc.Overheads.push_back({Start, End});
  } else if (Type == "device") {
    Device &D = device(F.u32("id"));
    auto Set = [](auto &Field, auto Value) {
      if (!Field && Value)
        Field = Value;
    };
    if (D.Name.empty())
      D.Name = F.str("name").str();
    std::array<uint32_t, 2> CC = F.array<2>("cc");
    Set(D.ComputeMajor, static_cast<int>(CC[0]));
    Set(D.ComputeMinor, static_cast<int>(CC[1]));
    Set(D.NumSMs, static_cast<int>(F.u32("sms")));
    Set(D.MaxWarpsPerSM, static_cast<int>(F.u32("max_warps_per_sm")));
    Set(D.MaxBlocksPerSM, static_cast<int>(F.u32("max_blocks_per_sm")));
    Set(D.MaxThreadsPerBlock, static_cast<int>(F.u32("max_threads_per_block")));
    if (uint32_t W = F.u32("warp_size", false))
      D.WarpSize = static_cast<int>(W);
    Set(D.RegistersPerSM, static_cast<int>(F.u32("registers_per_sm")));
    Set(D.MaxRegistersPerBlock, static_cast<int>(F.u32("registers_per_block")));
    Set(D.SharedMemPerSM, F.u64("shared_mem_per_sm"));
    Set(D.SharedMemPerBlock, F.u64("shared_mem_per_block"));
    Set(D.SharedMemPerBlockOptin, F.u64("shared_mem_per_block_optin", false));
    Set(D.ReservedSharedMemPerBlock, F.u64("reserved_shared_mem_per_block", false));
    Set(D.GlobalMemoryBytes, F.u64("global_memory_bytes", false));
    Set(D.L2CacheBytes, F.u64("l2_cache_bytes", false));
    Set(D.CoreClockKHz, F.u64("core_clock_khz", false));
    // CUPTI's figure (KB/s) is the one NVIDIA's tools show; the driver's
    // clock and bus width give the same order of magnitude when it is absent.
    if (uint64_t KBps = F.u64("memory_bandwidth_kbps", false))
      D.MemoryBandwidthBytesPerSec = KBps * 1000;
    uint64_t ClockKHz = F.u64("memory_clock_khz", false), Bits = F.u64("memory_bus_width", false);
    if (ClockKHz && Bits && D.Id < std::size(DriverBandwidth))
      DriverBandwidth[D.Id] = 2 * ClockKHz * 1000 * (Bits / 8);
  } else if (Type == "context") {
    ContextDevice[F.u32("id")] = F.u32("device");
  } else if (Type == "module") {
    Module M;
    M.Path = F.str("path").str();
    M.LoadBias = F.address("base");
    M.LoadAddress = F.address("start");
    M.Size = F.u64("size");
    M.BuildId = F.str("build_id", false).str();
    P.Modules.push_back(std::move(M));
  } else if (Type == "overhead") {
    uint64_t Start = F.u64("start"), End = F.u64("end");
    if (End > Start)
      Proc.Overheads.push_back({Start, End});
  } else if (Type == "error") {
    // The first failure of each (API, error) pair; end.first_error says which
    // one was the very first.
    F.str("api");
    F.i64("code");
  }
  // Other types ("name", "cupti_error", and any a later version 1 collector
  // adds) carry nothing the model keeps.
  return F.check(Path, Line);
}

Error NativeReader::readEnd(const json::Object &O, size_t Line, size_t RecordsBefore) {
  Fields F(O, "end");
  StringRef Reason = F.str("reason");
  if (Reason == "signal")
    Proc.Signal = static_cast<int>(F.u32("signal"));
  else
    Proc.ExitCode = static_cast<int>(F.i64("exit_code", false));
  Proc.EndNs = F.u64("time");
  Proc.DroppedRecords = F.u64("dropped");
  Proc.FailedCalls = F.u64("failed_calls");
  uint64_t Records = F.u64("records");
  if (const json::Object *First = O.getObject("first_error")) {
    Fields E(*First, "end record's first_error");
    Proc.FirstErrorApi = E.str("api").str();
    Proc.FirstErrorCode = static_cast<int>(E.i64("code"));
    Proc.FirstErrorName = E.str("error").str();
    if (First->get("stack"))
      FirstErrorStackId = E.u64("stack");
    if (Error Err = E.check(Path, Line))
      return Err;
  }
  if (Error Err = F.check(Path, Line))
    return Err;
  if (Records != RecordsBefore)
    return fail(Path, Line,
                formatv("the end record counts {0} lines before it, the file has {1}: lines "
                        "were lost or added",
                        Records, RecordsBefore));
  return Error::success();
}

/// PyTorch's backward pass runs on the autograd engine's own threads, which
/// have no Python frames: their calls would have no call site in the user's
/// code. While they run, the thread that called backward() waits inside it,
/// and its last call (the gradient seed, torch.ones_like in _make_grads) has
/// the user's `loss.backward()` line in its Python stack. A call of a thread
/// without Python stacks inherits that stack when exactly one Python thread's
/// latest call with a call site is inside torch.autograd.backward/grad;
/// otherwise it keeps what it had (two threads in backward at once: no guess).
void NativeReader::attributeBackwardCalls() {
  // The Python stacks, and those inside torch.autograd.backward/grad.
  DenseSet<int64_t> PythonStacks, BackwardStacks;
  for (const auto &Entry : PyStackById) {
    int64_t S = static_cast<int64_t>(Entry.second);
    PythonStacks.insert(S);
    if (llvm::any_of(P.Stacks[Entry.second].Symbols, isAutogradBackward))
      BackwardStacks.insert(S);
  }
  DenseSet<uint32_t> PythonThreads;
  for (const ApiCall &A : P.ApiCalls)
    if (PythonStacks.contains(A.StackIndex))
      PythonThreads.insert(A.Thread);
  if (PythonThreads.empty())
    return;
  std::vector<size_t> Order(P.ApiCalls.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::stable_sort(Order, [&](size_t L, size_t R) {
    return P.ApiCalls[L].Start < P.ApiCalls[R].Start;
  });
  // Python thread -> its latest call's stack, when that stack is in backward.
  DenseMap<uint32_t, int64_t> InBackward;
  for (size_t I : Order) {
    ApiCall &A = P.ApiCalls[I];
    if (PythonThreads.contains(A.Thread)) {
      // A call with no call site says nothing about where the thread is: the
      // driver calls the runtime makes inside its own calls, recorded with
      // CUDA_ADVISOR_DRIVER_API=1, and calls that get no stack.
      if (A.StackIndex < 0)
        continue;
      if (BackwardStacks.contains(A.StackIndex))
        InBackward[A.Thread] = A.StackIndex;
      else
        InBackward.erase(A.Thread);
      continue;
    }
    if (InBackward.size() == 1)
      A.StackIndex = InBackward.begin()->second;
  }
}

void NativeReader::finish() {
  for (size_t I : SyncsWithoutDevice) {
    auto It = ContextDevice.find(P.Syncs[I].Device);
    P.Syncs[I].Device = It == ContextDevice.end() ? 0 : It->second;
  }
  // The driver calls a runtime call makes inside it share its correlation id
  // (recorded with CUDA_ADVISOR_DRIVER_API=1): the call site is the runtime
  // call's. A driver call has one of its own only where the collector
  // recorded the launch itself (a library's cuLaunchKernel outside every
  // runtime call).
  DenseSet<uint64_t> RuntimeCorrelations;
  for (const ApiCall &A : P.ApiCalls)
    if (!A.Driver)
      RuntimeCorrelations.insert(A.Correlation);
  for (ApiCall &A : P.ApiCalls) {
    if (A.Driver && RuntimeCorrelations.contains(A.Correlation))
      continue;
    if (auto Copy = CallSiteCopy.find(A.Correlation); Copy != CallSiteCopy.end()) {
      A.HasCopyPointers = true;
      A.CopyDst = Copy->second.first;
      A.CopySrc = Copy->second.second;
    }
    // A call made from Python: its call site is the user's Python line, where
    // the collector found one (the native frames are then the interpreter's
    // and PyTorch's).
    if (auto Py = CallSitePyStack.find(A.Correlation); Py != CallSitePyStack.end()) {
      auto S = PyStackById.find(Py->second);
      if (S != PyStackById.end() && P.Stacks[S->second].UserFrame >= 0) {
        A.StackIndex = static_cast<int64_t>(S->second);
        continue;
      }
    }
    auto Site = CallSiteStack.find(A.Correlation);
    if (Site == CallSiteStack.end())
      continue;
    auto S = StackById.find(Site->second);
    if (S != StackById.end())
      A.StackIndex = static_cast<int64_t>(S->second);
  }
  attributeBackwardCalls();
  if (FirstErrorStackId) {
    auto S = StackById.find(*FirstErrorStackId);
    if (S != StackById.end())
      Proc.FirstErrorStack = static_cast<int64_t>(S->second);
  }
  for (Device &D : P.Devices) {
    if (!D.MemoryBandwidthBytesPerSec && D.Id < std::size(DriverBandwidth))
      D.MemoryBandwidthBytesPerSec = DriverBandwidth[D.Id];
    sanitize(D);
  }
  Proc.SourceFile = Path.str();
  Proc.Format = "cuda-advisor";
  P.Processes.push_back(std::move(Proc));
}

Expected<Profile> NativeReader::read() {
  bool EndsWithNewline = Contents.ends_with("\n");
  size_t LineNo = 0;
  size_t RecordsBefore = 0; // Lines before the end record, the header included.
  bool SawEnd = false;
  StringRef Rest = Contents;
  while (!Rest.empty()) {
    auto [Text, Next] = Rest.split('\n');
    Rest = Next;
    ++LineNo;
    bool Last = Rest.empty();
    if (SawEnd)
      return fail(Path, LineNo, "a record follows the end record");
    if (Text.trim().empty())
      return fail(Path, LineNo, "empty line (each line of a cuda-advisor profile is one record)");
    Expected<json::Value> V = parseBoundedJson(Text);
    if (!V) {
      std::string Why = toString(V.takeError());
      if (Last && !EndsWithNewline)
        return fail(Path, LineNo,
                    "the profile is truncated: its last line is incomplete (the program was "
                    "killed while the collector wrote it)");
      return fail(Path, LineNo, "invalid JSON: " + Why);
    }
    const json::Object *O = V->getAsObject();
    if (!O)
      return fail(Path, LineNo, "a record is not a JSON object");
    if (LineNo == 1) {
      if (Error Err = readHeader(*O, LineNo))
        return Err;
      ++RecordsBefore;
      continue;
    }
    std::optional<StringRef> Type = O->getString("type");
    if (!Type)
      return fail(Path, LineNo, "a record has no \"type\"");
    if (*Type == "end") {
      if (Error Err = readEnd(*O, LineNo, RecordsBefore))
        return Err;
      SawEnd = true;
      continue;
    }
    if (Error Err = readRecord(*Type, *O, LineNo))
      return Err;
    ++RecordsBefore;
  }
  if (LineNo == 0)
    return createStringError(inconvertibleErrorCode(), "%s: the profile is empty",
                             Path.str().c_str());
  if (!SawEnd)
    return createStringError(
        inconvertibleErrorCode(),
        "%s: the profile is truncated: it has no end record (the program was killed before the "
        "collector could finish it, e.g. by SIGKILL, or it called _exit)",
        Path.str().c_str());
  finish();
  return std::move(P);
}

} // namespace

Expected<Profile> readNativeProfile(StringRef Path, StringRef Contents) {
  return NativeReader(Path, Contents).read();
}

} // namespace cuda_advisor::profile
