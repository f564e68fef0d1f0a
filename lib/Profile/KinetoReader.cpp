//===- KinetoReader.cpp - torch.profiler / Kineto Chrome traces -----------===//
//
// Reads what `torch.profiler.profile(...).export_chrome_trace()` writes (and
// what Kineto's on-demand tracing writes): a JSON object with
// "deviceProperties", "baseTimeNanoseconds" and "traceEvents". Complete ("X")
// events carry what the model needs:
//
//   cat kernel        GPU kernels (pid = device, tid = stream); args: device,
//                     stream, correlation, grid, block, registers per thread,
//                     shared memory (static + dynamic)
//   cat gpu_memcpy    "Memcpy HtoD (Pageable -> Device)": kind and memory kinds
//                     are only in the name; args: bytes, device, stream,
//                     correlation
//   cat gpu_memset    "Memset (Device)"; args: bytes, device, stream, correlation
//   cat cuda_sync     CUPTI synchronization records ("Stream Sync"...), when the
//                     profiler was asked for them
//   cat cuda_runtime  runtime API calls (pid/tid = host); args: correlation, cbid
//   cat cuda_driver   driver API calls, the same way
//   cat python_function  with_stack=True: "file.py(12): func" intervals per
//                     host thread; the innermost one around a runtime call is
//                     that call's Python stack. The line is where the frame
//                     was when its event began: the def line for calls made
//                     while tracing, so the frames name functions, not the
//                     lines of the calls (StackFrame::FunctionOnly)
//
// ts and dur are microseconds (with three decimals) after baseTimeNanoseconds;
// older traces have no base and give microseconds since the epoch.
//
//===----------------------------------------------------------------------===//
#include "BoundedJson.h"
#include "cuda-advisor/Profile/Reader.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace llvm;

namespace cuda_advisor::profile {
namespace {

Error fail(StringRef Path, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), "%s: %s", Path.str().c_str(),
                           Message.str().c_str());
}

/// Kineto's names of CUPTI's synchronization types.
std::optional<SyncKind> parseKinetoSyncKind(StringRef Name) {
  return StringSwitch<std::optional<SyncKind>>(Name)
      .Case("Event Sync", SyncKind::EventSynchronize)
      .Case("Stream Wait Event", SyncKind::StreamWaitEvent)
      .Case("Stream Sync", SyncKind::StreamSynchronize)
      .Case("Context Sync", SyncKind::ContextSynchronize)
      .Default(std::nullopt);
}

/// "Memcpy HtoD (Pageable -> Device)" -> (HtoD, Pageable, Device).
bool parseMemcpyName(StringRef Name, Copy &C) {
  StringRef Rest = Name.trim();
  if (!Rest.consume_front("Memcpy "))
    return false;
  auto [Kind, Kinds] = Rest.split(' ');
  std::optional<CopyKind> K = parseCopyKind(Kind);
  if (!K)
    return false;
  C.Kind = *K;
  Kinds = Kinds.trim();
  if (Kinds.consume_front("(") && Kinds.consume_back(")")) {
    auto [Src, Dst] = Kinds.split("->");
    C.Src = parseMemoryKind(Src).value_or(MemoryKind::Unknown);
    C.Dst = parseMemoryKind(Dst).value_or(MemoryKind::Unknown);
  }
  return true;
}

/// Kineto's categories, including the capitalized names that PyTorch 1.8 to
/// 1.9 wrote ("Kernel", "Memcpy", "Runtime", "Operator"...), in today's names.
StringRef canonicalCategory(StringRef Cat) {
  return StringSwitch<StringRef>(Cat)
      .Case("Kernel", "kernel")
      .Case("Memcpy", "gpu_memcpy")
      .Case("Memset", "gpu_memset")
      .Case("Runtime", "cuda_runtime")
      .Case("Operator", "cpu_op")
      .Default(Cat);
}

/// A pid or tid: a number, or a string that ends in one (older traces give
/// host threads as "24610" and streams as "stream 7").
std::optional<int64_t> idField(const json::Object &E, StringRef Key) {
  const json::Value *V = E.get(Key);
  if (!V)
    return std::nullopt;
  if (std::optional<int64_t> I = V->getAsInteger())
    return I;
  if (std::optional<StringRef> S = V->getAsString()) {
    StringRef Digits = S->trim();
    size_t Start = Digits.find_last_not_of("0123456789");
    Digits = Start == StringRef::npos ? Digits : Digits.drop_front(Start + 1);
    int64_t I;
    if (!Digits.empty() && !Digits.getAsInteger(10, I))
      return I;
  }
  return std::nullopt;
}

std::optional<int64_t> intArg(const json::Object *Args, StringRef Key) {
  if (!Args)
    return std::nullopt;
  const json::Value *V = Args->get(Key);
  if (!V)
    return std::nullopt;
  if (std::optional<int64_t> I = V->getAsInteger())
    return I;
  if (std::optional<double> D = V->getAsNumber())
    return static_cast<int64_t>(*D);
  return std::nullopt;
}

uint32_t u32Arg(const json::Object *Args, StringRef Key, uint32_t Default = 0) {
  std::optional<int64_t> V = intArg(Args, Key);
  return V && *V >= 0 && *V <= UINT32_MAX ? static_cast<uint32_t>(*V) : Default;
}

std::array<uint32_t, 3> dim3Arg(const json::Object *Args, StringRef Key) {
  std::array<uint32_t, 3> R{{0, 0, 0}};
  const json::Array *A = Args ? Args->getArray(Key) : nullptr;
  if (!A)
    return R;
  for (size_t I = 0; I < 3 && I < A->size(); ++I)
    if (std::optional<int64_t> V = (*A)[I].getAsInteger(); V && *V >= 0)
      R[I] = static_cast<uint32_t>(*V);
  return R;
}

/// "path/to/file.py(12): func" -> the frame; built-ins ("<built-in method
/// cuda of Tensor object at 0x...>") keep only the function.
StackFrame parsePythonFrame(StringRef Name) {
  StackFrame F;
  F.Function = Name.str();
  size_t Close = Name.find("): ");
  size_t Open = Close == StringRef::npos ? StringRef::npos : Name.rfind('(', Close);
  unsigned Line = 0;
  if (Open != StringRef::npos && Open > 0 && !Name.substr(Open + 1, Close - Open - 1).getAsInteger(10, Line)) {
    F.Loc.File = Name.take_front(Open).str();
    F.Loc.Line = Line;
    F.Function = Name.substr(Close + 3).str();
    // PyTorch's tracer names a frame when it enters it: the line is the
    // function's first line (or, for frames already running when tracing
    // began, the line they were at then), never the line of a later call.
    F.FunctionOnly = true;
  }
  F.Library = isLibraryPythonFile(F.Loc.File);
  return F;
}

struct PythonEvent {
  uint64_t Start, End;
  int64_t Tid;
  std::string Name;
  int64_t Parent = -1; ///< Index of the enclosing event on the same thread.
};

class KinetoReader {
public:
  KinetoReader(StringRef Path) : Path(Path) {}
  Expected<Profile> read(StringRef Contents);

private:
  void readDevice(const json::Object &O);
  void readEvent(const json::Object &E);
  uint64_t toNs(double Us) const {
    if (!(Us > 0))
      return Base;
    return Base + static_cast<uint64_t>(std::llround(Us * 1000.0));
  }
  void attachPythonStacks();
  void attributeBackwardCalls();
  int64_t pythonStackOf(size_t Innermost);

  StringRef Path;
  Profile P;
  Process Proc;
  uint64_t Base = 0;
  std::optional<int64_t> HostPid;
  std::map<int64_t, std::string> ProcessNames;
  uint64_t TraceStart = 0, TraceEnd = 0;     // The profiler's own window, if given.
  uint64_t EventsStart = UINT64_MAX, EventsEnd = 0;
  uint64_t Malformed = 0;
  std::vector<PythonEvent> Python;
  std::vector<std::pair<size_t, int64_t>> CallTids; // ApiCall index -> host tid.
  DenseMap<size_t, int64_t> StackOfEvent;
};

void KinetoReader::readDevice(const json::Object &O) {
  Device D;
  // Today's "deviceProperties" and PyTorch 1.9's "computeProperties" spell
  // some keys differently: the first key present wins.
  auto I = [&](StringRef K, StringRef Old = {}) {
    if (std::optional<int64_t> V = O.getInteger(K))
      return *V;
    return Old.empty() ? 0 : O.getInteger(Old).value_or(0);
  };
  D.Id = static_cast<uint32_t>(I("id"));
  D.Name = O.getString("name").value_or("").str();
  D.ComputeMajor = static_cast<int>(I("computeMajor", "major"));
  D.ComputeMinor = static_cast<int>(I("computeMinor", "minor"));
  D.NumSMs = static_cast<int>(I("numSms", "multiProcessorCount"));
  int64_t Warp = I("warpSize");
  D.WarpSize = Warp >= 1 && Warp <= 1024 ? static_cast<int>(Warp) : 32;
  int64_t Threads = I("maxThreadsPerMultiprocessor", "maxThreadsPerMultiProcessor");
  D.MaxWarpsPerSM = Threads > 0 && Threads / D.WarpSize <= 1024 ? static_cast<int>(Threads / D.WarpSize) : 0;
  D.MaxThreadsPerBlock = static_cast<int>(I("maxThreadsPerBlock"));
  D.RegistersPerSM = static_cast<int>(I("regsPerMultiprocessor"));
  D.MaxRegistersPerBlock = static_cast<int>(I("regsPerBlock"));
  D.SharedMemPerSM = static_cast<uint64_t>(I("sharedMemPerMultiprocessor"));
  D.SharedMemPerBlock = static_cast<uint64_t>(I("sharedMemPerBlock"));
  D.SharedMemPerBlockOptin = static_cast<uint64_t>(I("sharedMemPerBlockOptin"));
  D.GlobalMemoryBytes = static_cast<uint64_t>(I("totalGlobalMem"));
  sanitize(D);
  P.Devices.push_back(std::move(D));
}

void KinetoReader::readEvent(const json::Object &E) {
  std::optional<StringRef> Ph = E.getString("ph");
  if (!Ph || *Ph != "X")
    return;
  std::optional<StringRef> Cat = E.getString("cat");
  std::optional<double> Ts = E.getNumber("ts");
  if (!Cat)
    return;
  Cat = canonicalCategory(*Cat);
  if (!Ts) {
    ++Malformed;
    return;
  }
  double Dur = E.getNumber("dur").value_or(0);
  uint64_t Start = toNs(*Ts), End = toNs(*Ts + std::max(Dur, 0.0));
  StringRef Name = E.getString("name").value_or("");
  const json::Object *Args = E.getObject("args");
  std::optional<int64_t> Pid = idField(E, "pid"), Tid = idField(E, "tid");

  if (*Cat == "Trace") {
    if (Name.starts_with("PyTorch Profiler")) {
      TraceStart = Start;
      TraceEnd = End;
    }
    return;
  }
  EventsStart = std::min(EventsStart, Start);
  EventsEnd = std::max(EventsEnd, End);

  auto Gpu = [&](auto &R) {
    R.Start = Start;
    R.End = End;
    R.Device = u32Arg(Args, "device", Pid && *Pid >= 0 ? static_cast<uint32_t>(*Pid) : 0);
    R.Stream = u32Arg(Args, "stream", Tid && *Tid >= 0 ? static_cast<uint32_t>(*Tid) : 0);
    R.Correlation = static_cast<uint64_t>(intArg(Args, "correlation").value_or(0));
  };
  if (*Cat == "kernel") {
    Kernel K;
    Gpu(K);
    K.Demangled = Name.str();
    K.Grid = dim3Arg(Args, "grid");
    K.Block = dim3Arg(Args, "block");
    K.RegistersPerThread = u32Arg(Args, "registers per thread");
    // Kineto gives static + dynamic shared memory as one sum.
    K.StaticSharedMem = u32Arg(Args, "shared memory");
    P.Kernels.push_back(std::move(K));
    return;
  }
  if (*Cat == "gpu_memcpy") {
    Copy C;
    Gpu(C);
    if (!parseMemcpyName(Name, C))
      ++Malformed;
    C.Bytes = static_cast<uint64_t>(intArg(Args, "bytes").value_or(0));
    C.SrcDevice = C.DstDevice = C.Device;
    P.Copies.push_back(C);
    return;
  }
  if (*Cat == "gpu_memset") {
    Memset M;
    Gpu(M);
    StringRef Kind = Name;
    if (Kind.consume_front("Memset (") && Kind.consume_back(")"))
      M.Memory = parseMemoryKind(Kind).value_or(MemoryKind::Unknown);
    M.Bytes = static_cast<uint64_t>(intArg(Args, "bytes").value_or(0));
    P.Memsets.push_back(M);
    return;
  }
  if (*Cat == "cuda_sync") {
    Sync S;
    Gpu(S);
    S.Kind = parseKinetoSyncKind(Name).value_or(SyncKind::Unknown);
    P.Syncs.push_back(S);
    return;
  }
  if (!Pid || !Tid)
    return;
  if (*Cat == "cuda_runtime" || *Cat == "cuda_driver") {
    if (!HostPid)
      HostPid = *Pid;
    ApiCall A;
    A.Name = Name.str();
    A.Driver = *Cat == "cuda_driver";
    A.Cbid = u32Arg(Args, "cbid");
    A.Start = Start;
    A.End = End;
    A.Thread = static_cast<uint32_t>(*Tid);
    A.Correlation = static_cast<uint64_t>(intArg(Args, "correlation").value_or(0));
    CallTids.emplace_back(P.ApiCalls.size(), *Tid);
    P.ApiCalls.push_back(std::move(A));
    return;
  }
  if (*Cat == "python_function") {
    Python.push_back({Start, End, *Tid, Name.str()});
    return;
  }
  if (*Cat == "cpu_op" && !HostPid)
    HostPid = *Pid;
}

/// The Python stack whose innermost frame is Python[Innermost], interned.
int64_t KinetoReader::pythonStackOf(size_t Innermost) {
  auto It = StackOfEvent.find(Innermost);
  if (It != StackOfEvent.end())
    return It->second;
  Stack S;
  for (int64_t I = static_cast<int64_t>(Innermost); I >= 0; I = Python[I].Parent) {
    StackFrame F = parsePythonFrame(Python[I].Name);
    F.Address = static_cast<uint32_t>(S.Symbols.size());
    S.Symbols.push_back(std::move(F));
  }
  for (size_t I = 0; I < S.Symbols.size(); ++I)
    if (!S.Symbols[I].Library && S.Symbols[I].Loc.isValid()) {
      S.UserFrame = static_cast<int32_t>(I);
      break;
    }
  int64_t Index = static_cast<int64_t>(P.Stacks.size());
  P.Stacks.push_back(std::move(S));
  StackOfEvent[Innermost] = Index;
  return Index;
}

/// Gives each runtime call the Python stack around it: the innermost
/// python_function interval on its thread that contains its start.
void KinetoReader::attachPythonStacks() {
  if (Python.empty())
    return;
  // Nesting by a sweep: sorted by (thread, start, longest first), an event's
  // parent is the nearest open event that still contains its start.
  std::vector<size_t> Order(Python.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::sort(Order, [&](size_t A, size_t B) {
    const PythonEvent &X = Python[A], &Y = Python[B];
    return std::tie(X.Tid, X.Start, Y.End) < std::tie(Y.Tid, Y.Start, X.End);
  });
  std::vector<PythonEvent> Sorted;
  Sorted.reserve(Python.size());
  for (size_t I : Order)
    Sorted.push_back(std::move(Python[I]));
  Python = std::move(Sorted);
  std::vector<size_t> Open;
  for (size_t I = 0; I < Python.size(); ++I) {
    while (!Open.empty() && (Python[Open.back()].Tid != Python[I].Tid ||
                             Python[Open.back()].End < Python[I].Start))
      Open.pop_back();
    Python[I].Parent = Open.empty() ? -1 : static_cast<int64_t>(Open.back());
    Open.push_back(I);
  }
  for (auto [CallIndex, Tid] : CallTids) {
    uint64_t T = P.ApiCalls[CallIndex].Start;
    // The last event on this thread that starts at or before T; the
    // innermost interval containing T is it or one of its ancestors.
    auto It = std::upper_bound(Python.begin(), Python.end(), std::make_pair(Tid, T),
                               [](const std::pair<int64_t, uint64_t> &K, const PythonEvent &E) {
                                 return std::tie(K.first, K.second) < std::tie(E.Tid, E.Start);
                               });
    if (It == Python.begin())
      continue;
    int64_t I = static_cast<int64_t>(std::prev(It) - Python.begin());
    if (Python[I].Tid != Tid)
      continue;
    while (I >= 0 && Python[I].End < T)
      I = Python[I].Parent;
    if (I >= 0)
      P.ApiCalls[CallIndex].StackIndex = pythonStackOf(static_cast<size_t>(I));
  }
  attributeBackwardCalls();
}

/// The backward pass runs on autograd's C++ threads, which have no Python
/// events: a call of such a thread made while one Python thread is inside
/// torch.autograd.backward() (or grad()) gets that frame's stack, whose user
/// frame is the `loss.backward()` caller (docs/collector.md says the same of
/// native recordings). Two such intervals around the call: no guess.
void KinetoReader::attributeBackwardCalls() {
  std::set<int64_t> PythonThreads;
  std::vector<size_t> Backward; // Sorted by start below (Python is by thread first).
  for (size_t I = 0; I < Python.size(); ++I) {
    PythonThreads.insert(Python[I].Tid);
    if (isAutogradBackward(parsePythonFrame(Python[I].Name)))
      Backward.push_back(I);
  }
  if (Backward.empty())
    return;
  llvm::sort(Backward, [&](size_t A, size_t B) { return Python[A].Start < Python[B].Start; });
  for (auto [CallIndex, Tid] : CallTids) {
    if (PythonThreads.count(Tid))
      continue;
    uint64_t T = P.ApiCalls[CallIndex].Start;
    auto It = std::upper_bound(Backward.begin(), Backward.end(), T,
                               [&](uint64_t V, size_t E) { return V < Python[E].Start; });
    // The innermost interval around T (the latest to start), among the few
    // that started last: backward passes do not overlap on one thread, and
    // a grad() nests inside a backward's hook at most.
    std::optional<size_t> Around;
    bool OtherThread = false;
    for (auto J = It; J != Backward.begin() && std::distance(J, It) < 8;) {
      --J;
      if (Python[*J].End < T)
        continue;
      if (!Around)
        Around = *J;
      else if (Python[*J].Tid != Python[*Around].Tid)
        OtherThread = true;
    }
    if (Around && !OtherThread)
      P.ApiCalls[CallIndex].StackIndex = pythonStackOf(*Around);
  }
}

/// A scanner over the document's structure that finds where each value
/// ends without building it: a torch.profiler trace of a training run is
/// hundreds of MB, and llvm::json's tree of it takes some 70 bytes of memory
/// per byte of file. Only the small top-level values and one event at a time
/// are parsed into json::Values.
class TraceScanner {
public:
  explicit TraceScanner(StringRef S) : S(S) {}
  size_t skipSpace(size_t P) const {
    while (P < S.size() && (S[P] == ' ' || S[P] == '\n' || S[P] == '\r' || S[P] == '\t'))
      ++P;
    return P;
  }
  /// One past the end of the value that starts at P, or npos if the text ends
  /// first. Strings, objects and arrays are matched; a scalar runs to the next
  /// delimiter. The value itself is checked by json::parse later.
  size_t valueEnd(size_t P) const {
    if (P >= S.size())
      return StringRef::npos;
    char C = S[P];
    if (C == '"') {
      for (size_t I = P + 1; I < S.size(); ++I) {
        if (S[I] == '\\')
          ++I;
        else if (S[I] == '"')
          return I + 1;
      }
      return StringRef::npos;
    }
    if (C == '{' || C == '[') {
      unsigned Depth = 0;
      bool InString = false;
      for (size_t I = P; I < S.size(); ++I) {
        char Ch = S[I];
        if (InString) {
          if (Ch == '\\')
            ++I;
          else if (Ch == '"')
            InString = false;
        } else if (Ch == '"') {
          InString = true;
        } else if (Ch == '{' || Ch == '[') {
          ++Depth;
        } else if ((Ch == '}' || Ch == ']') && --Depth == 0) {
          return I + 1;
        }
      }
      return StringRef::npos;
    }
    size_t I = P;
    while (I < S.size() && !StringRef(",}] \t\r\n").contains(S[I]))
      ++I;
    return I == S.size() ? StringRef::npos : I;
  }
  /// What is wrong where: set by the loops below when they return false.
  struct Problem {
    size_t Where = 0;
    std::string Why;
  };
  /// Calls Fn(Begin, End) for each element of the array at P, while Fn
  /// returns true (false: it set Err). False if the array is malformed.
  template <typename F> bool forEachElement(size_t P, F Fn, Problem &Err) const {
    return forEachItem(P, ']', Err, [&](size_t Begin) {
      size_t End = valueEnd(Begin);
      if (End == StringRef::npos)
        return fail(Err, Begin, "the array is cut off");
      return Fn(Begin, End) ? End : StringRef::npos;
    });
  }
  /// Calls Fn(Key, Begin, End) for each member of the object at P, the same
  /// way; Key is the member's name, unescaped.
  template <typename F> bool forEachMember(size_t P, F Fn, Problem &Err) const {
    return forEachItem(P, '}', Err, [&](size_t KeyBegin) {
      size_t KeyEnd = valueEnd(KeyBegin);
      if (S[KeyBegin] != '"' || KeyEnd == StringRef::npos)
        return fail(Err, KeyBegin, "expected a key");
      Expected<json::Value> Key = json::parse(S.slice(KeyBegin, KeyEnd));
      if (!Key || !Key->getAsString())
        return fail(Err, KeyBegin, Key ? "expected a key" : toString(Key.takeError()));
      size_t Colon = skipSpace(KeyEnd);
      if (Colon >= S.size() || S[Colon] != ':')
        return fail(Err, Colon, "expected ':'");
      size_t Begin = skipSpace(Colon + 1), End = valueEnd(Begin);
      if (End == StringRef::npos)
        return fail(Err, Begin, "a value is cut off");
      return Fn(*Key->getAsString(), Begin, End) ? End : StringRef::npos;
    });
  }
  StringRef S;

private:
  static size_t fail(Problem &Err, size_t Where, std::string Why) {
    Err = {Where, std::move(Why)};
    return StringRef::npos;
  }
  /// The items of the array or object that opens at P and closes with Close,
  /// separated by commas: Item(Begin) reads one and returns its end, or npos
  /// after setting Err.
  template <typename F> bool forEachItem(size_t P, char Close, Problem &Err, F Item) const {
    P = skipSpace(P + 1);
    if (P < S.size() && S[P] == Close)
      return true;
    while (P < S.size()) {
      size_t E = Item(P);
      if (E == StringRef::npos)
        return false;
      P = skipSpace(E);
      if (P < S.size() && S[P] == Close)
        return true;
      if (P >= S.size() || S[P] != ',')
        break;
      P = skipSpace(P + 1);
    }
    fail(Err, P, std::string("expected ',' or '") + Close + "'");
    return false;
  }
};

Expected<Profile> KinetoReader::read(StringRef Contents) {
  TraceScanner Scan(Contents);
  TraceScanner::Problem Err;
  auto Invalid = [&] {
    return fail(Path, "not a complete torch.profiler Chrome trace: the JSON is invalid or cut "
                      "off (" + Twine(Err.Why) + " at byte " + Twine(Err.Where) + ")");
  };
  // The object form, or the Chrome trace format's bare array of events.
  size_t Start = Scan.skipSpace(0), EventsAt = StringRef::npos;
  if (Start < Contents.size() && Contents[Start] == '[') {
    EventsAt = Start;
  } else if (Start < Contents.size() && Contents[Start] == '{') {
    bool Ok = Scan.forEachMember(
        Start,
        [&](StringRef Key, size_t Begin, size_t End) {
          if (Key == "traceEvents" && Contents[Begin] == '[') {
            EventsAt = Begin;
            return true;
          }
          if (Key != "baseTimeNanoseconds" && Key != "deviceProperties" &&
              Key != "computeProperties")
            return true;
          Expected<json::Value> V = parseBoundedJson(Contents.slice(Begin, End));
          if (!V) {
            Err = {Begin, toString(V.takeError())};
            return false;
          }
          if (Key == "baseTimeNanoseconds") {
            if (std::optional<int64_t> B = V->getAsInteger(); B && *B > 0)
              Base = static_cast<uint64_t>(*B);
          } else if (const json::Array *Devices = V->getAsArray(); Devices && P.Devices.empty()) {
            for (const json::Value &D : *Devices)
              if (const json::Object *O = D.getAsObject())
                readDevice(*O);
          }
          return true;
        },
        Err);
    if (!Ok)
      return Invalid();
  } else {
    Err = {Start, "not a JSON object or array"};
    return Invalid();
  }
  if (EventsAt == StringRef::npos)
    return fail(Path, "a JSON document without a \"traceEvents\" array, not a torch.profiler "
                      "Chrome trace");

  bool Ok = Scan.forEachElement(
      EventsAt,
      [&](size_t Begin, size_t End) {
        Expected<json::Value> V = parseBoundedJson(Contents.slice(Begin, End));
        if (!V) {
          Err = {Begin, toString(V.takeError())};
          return false;
        }
        const json::Object *Ev = V->getAsObject();
        if (!Ev) {
          ++Malformed;
          return true;
        }
        if (Ev->getString("ph") == "M" && Ev->getString("name") == "process_name")
          if (std::optional<int64_t> Pid = idField(*Ev, "pid"))
            if (const json::Object *Args = Ev->getObject("args"))
              ProcessNames[*Pid] = Args->getString("name").value_or("").str();
        readEvent(*Ev);
        return true;
      },
      Err);
  if (!Ok)
    return Invalid();
  attachPythonStacks();

  Proc.Pid = HostPid && *HostPid >= 0 ? static_cast<uint32_t>(*HostPid) : 0;
  if (HostPid)
    Proc.Command = ProcessNames[*HostPid];
  Proc.SourceFile = Path.str();
  Proc.Format = "kineto";
  if (TraceEnd > TraceStart) {
    Proc.StartNs = TraceStart;
    Proc.EndNs = TraceEnd;
  } else if (EventsEnd > EventsStart) {
    Proc.StartNs = EventsStart;
    Proc.EndNs = EventsEnd;
  }
  if (P.Kernels.empty() && P.Copies.empty() && P.Memsets.empty() && P.ApiCalls.empty())
    Proc.Warnings.push_back(
        (Path + ": the trace has no CUDA activity (was torch.profiler given "
                "ProfilerActivity.CUDA?)")
            .str());
  if (Malformed)
    Proc.Warnings.push_back(formatv("{0}: {1} trace events were not understood and skipped",
                                    Path, Malformed)
                                .str());
  P.Processes.push_back(std::move(Proc));
  return std::move(P);
}

} // namespace

Expected<Profile> readKinetoTrace(StringRef Path, StringRef Contents) {
  return KinetoReader(Path).read(Contents);
}

} // namespace cuda_advisor::profile
