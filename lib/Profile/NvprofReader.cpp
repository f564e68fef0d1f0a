//===- NvprofReader.cpp - nvprof databases and GPU-trace CSV --------------===//
//
// nvprof's `-o FILE.nvvp` / `--export-profile FILE.prof` writes an SQLite
// database holding CUPTI's activity records as they came: one table per
// activity kind (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, _KERNEL, _MEMCPY,
// _MEMSET, _SYNCHRONIZATION, _RUNTIME, _DEVICE, _CONTEXT...) with CUPTI's
// field names and numbering, names as ids into StringTable(_id_, value).
// Runtime calls carry CUPTI's callback id only; RuntimeCbids.def names them.
//
// `nvprof --csv --print-gpu-trace` prints one row per kernel, copy and
// memset: "Start","Duration" (with a units row below the header: us or ms),
// grid and block, "Size" and "Throughput" for copies (units KB/MB/GB),
// "SrcMemType","DstMemType", "Device","Context","Stream","Name",
// "Correlation_ID". Older versions lack some columns: columns are found by
// name.
//
//===----------------------------------------------------------------------===//
#include "Csv.h"
#include "CuptiColumns.h"
#include "Sqlite.h"
#include "cuda-advisor/Profile/Reader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <map>

using namespace llvm;

namespace cuda_advisor::profile {

std::string plainApiName(StringRef Name); // NsysReader.cpp

namespace {

using sqlite::Database;
using sqlite::Row;

const char *runtimeCbidName(uint32_t Cbid) {
  switch (Cbid) {
#define RUNTIME_CBID(Id, Name)                                                                     \
  case Id:                                                                                         \
    return Name;
#include "RuntimeCbids.def"
#undef RUNTIME_CBID
  }
  return nullptr;
}

template <typename E> E cuptiEnum(int64_t V, E Last) {
  return V >= 0 && V <= static_cast<int64_t>(Last) ? static_cast<E>(V) : E{};
}

class NvprofDbReader {
public:
  NvprofDbReader(Database &Db) : Db(Db), Path(Db.path()) {}
  Expected<Profile> read();

private:
  std::string string(const Row &R, StringRef Column) const {
    auto It = Strings.find(R.i64(Column, -1));
    return It == Strings.end() ? std::string() : It->second;
  }
  Error readKernels(StringRef Table);
  Error readCopies();
  Error readMemsets();
  Error readSyncs();
  Error readRuntime();
  Error readDevices();
  uint32_t deviceOfContext(int64_t Context) const {
    auto It = ContextDevice.find(Context);
    return It == ContextDevice.end() ? 0 : It->second;
  }
  uint64_t count(StringRef Table) {
    if (!Db.hasTable(Table))
      return 0;
    std::optional<std::string> N = Db.scalar(("SELECT count(*) FROM \"" + Table + "\"").str());
    uint64_t V = 0;
    return N && !StringRef(*N).getAsInteger(10, V) ? V : 0;
  }

  Database &Db;
  StringRef Path;
  Profile P;
  std::map<int64_t, std::string> Strings;
  std::map<int64_t, uint32_t> ContextDevice;
  uint64_t UnknownCbids = 0;
  std::optional<uint32_t> Pid;
};

Error NvprofDbReader::readKernels(StringRef T) {
  if (!Db.hasTable(T))
    return Error::success();
  return Db.select(T,
                   {"start", "end", "deviceId", "streamId", "correlationId", "name", "gridX",
                    "gridY", "gridZ", "blockX", "blockY", "blockZ", "registersPerThread",
                    "staticSharedMemory", "dynamicSharedMemory", "localMemoryPerThread"},
                   [&](const Row &R) {
                     Kernel K;
                     K.Name = string(R, "name"); // Mangled, as CUPTI gives it.
                     readKernelColumns(R, K);
                     P.Kernels.push_back(std::move(K));
                   });
}

Error NvprofDbReader::readCopies() {
  StringRef T = "CUPTI_ACTIVITY_KIND_MEMCPY";
  if (!Db.hasTable(T))
    return Error::success();
  return Db.select(T,
                   {"start", "end", "deviceId", "streamId", "correlationId",
                    "runtimeCorrelationId", "bytes", "copyKind", "srcKind", "dstKind"},
                   [&](const Row &R) {
                     Copy C;
                     C.Kind = cuptiEnum(R.i64("copyKind"), CopyKind::PtoP);
                     C.Src = cuptiEnum(R.i64("srcKind"), MemoryKind::ManagedStatic);
                     C.Dst = cuptiEnum(R.i64("dstKind"), MemoryKind::ManagedStatic);
                     C.Bytes = R.u64("bytes");
                     C.Start = R.u64("start");
                     C.End = R.u64("end");
                     C.Device = C.SrcDevice = C.DstDevice = R.u32("deviceId");
                     C.Stream = R.u32("streamId");
                     // Copies done by the driver for a runtime call carry the
                     // runtime call's id separately.
                     C.Correlation = R.u64("runtimeCorrelationId");
                     if (!C.Correlation)
                       C.Correlation = R.u64("correlationId");
                     P.Copies.push_back(C);
                   });
}

Error NvprofDbReader::readMemsets() {
  StringRef T = "CUPTI_ACTIVITY_KIND_MEMSET";
  if (!Db.hasTable(T))
    return Error::success();
  return Db.select(T,
                   {"start", "end", "deviceId", "streamId", "correlationId", "bytes", "value",
                    "memoryKind"},
                   [&](const Row &R) {
                     Memset M;
                     M.Memory = cuptiEnum(R.i64("memoryKind"), MemoryKind::ManagedStatic);
                     M.Bytes = R.u64("bytes");
                     M.Value = R.u32("value");
                     readActivityColumns(R, M);
                     P.Memsets.push_back(M);
                   });
}

Error NvprofDbReader::readSyncs() {
  StringRef T = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
  if (!Db.hasTable(T))
    return Error::success();
  return Db.select(T, {"start", "end", "type", "contextId", "streamId", "correlationId"},
                   [&](const Row &R) {
                     Sync S;
                     S.Kind = cuptiEnum(R.i64("type"), SyncKind::ContextSynchronize);
                     S.Start = R.u64("start");
                     S.End = R.u64("end");
                     S.Device = deviceOfContext(R.i64("contextId"));
                     // CUPTI gives CUPTI_SYNCHRONIZATION_INVALID_VALUE (all ones)
                     // where there is no stream.
                     S.Stream = R.u32("streamId");
                     S.Correlation = R.u64("correlationId");
                     P.Syncs.push_back(S);
                   });
}

Error NvprofDbReader::readRuntime() {
  StringRef T = "CUPTI_ACTIVITY_KIND_RUNTIME";
  if (!Db.hasTable(T))
    return Error::success();
  return Db.select(T,
                   {"cbid", "start", "end", "processId", "threadId", "correlationId",
                    "returnValue"},
                   [&](const Row &R) {
                     ApiCall A;
                     A.Cbid = R.u32("cbid");
                     const char *Name = runtimeCbidName(A.Cbid);
                     if (!Name) {
                       ++UnknownCbids;
                       return;
                     }
                     A.Name = plainApiName(Name);
                     A.Start = R.u64("start");
                     A.End = R.u64("end");
                     A.Thread = R.u32("threadId");
                     A.Correlation = R.u64("correlationId");
                     A.ReturnCode = static_cast<int>(R.i64("returnValue"));
                     if (!Pid && R.has("processId"))
                       Pid = R.u32("processId");
                     P.ApiCalls.push_back(std::move(A));
                   });
}

Error NvprofDbReader::readDevices() {
  StringRef T = "CUPTI_ACTIVITY_KIND_DEVICE";
  if (!Db.hasTable(T))
    return Error::success();
  return Db.select(
      T,
      {"id", "name", "globalMemoryBandwidth", "globalMemorySize", "l2CacheSize",
       "numThreadsPerWarp", "coreClockRate", "numMultiprocessors", "maxWarpsPerMultiprocessor",
       "maxBlocksPerMultiprocessor", "maxSharedMemoryPerMultiprocessor",
       "maxRegistersPerMultiprocessor", "maxRegistersPerBlock", "maxSharedMemoryPerBlock",
       "maxThreadsPerBlock", "computeCapabilityMajor", "computeCapabilityMinor"},
      [&](const Row &R) {
        Device D;
        D.Id = R.u32("id");
        D.Name = string(R, "name");
        D.MemoryBandwidthBytesPerSec = R.u64("globalMemoryBandwidth") * 1000; // KB/s
        D.GlobalMemoryBytes = R.u64("globalMemorySize");
        D.L2CacheBytes = R.u64("l2CacheSize");
        D.WarpSize = static_cast<int>(R.i64("numThreadsPerWarp", 32));
        D.CoreClockKHz = R.u64("coreClockRate");
        D.NumSMs = static_cast<int>(R.i64("numMultiprocessors"));
        D.MaxWarpsPerSM = static_cast<int>(R.i64("maxWarpsPerMultiprocessor"));
        D.MaxBlocksPerSM = static_cast<int>(R.i64("maxBlocksPerMultiprocessor"));
        D.SharedMemPerSM = R.u64("maxSharedMemoryPerMultiprocessor");
        D.RegistersPerSM = static_cast<int>(R.i64("maxRegistersPerMultiprocessor"));
        D.MaxRegistersPerBlock = static_cast<int>(R.i64("maxRegistersPerBlock"));
        D.SharedMemPerBlock = R.u64("maxSharedMemoryPerBlock");
        D.MaxThreadsPerBlock = static_cast<int>(R.i64("maxThreadsPerBlock"));
        D.ComputeMajor = static_cast<int>(R.i64("computeCapabilityMajor"));
        D.ComputeMinor = static_cast<int>(R.i64("computeCapabilityMinor"));
        sanitize(D);
        P.Devices.push_back(std::move(D));
      });
}

Expected<Profile> NvprofDbReader::read() {
  if (Error E = Db.select("StringTable", {"_id_", "value"}, [&](const Row &R) {
        if (std::optional<int64_t> Id = R.integer("_id_"))
          Strings[*Id] = R.text("value").value_or("");
      }))
    return std::move(E);
  if (Db.hasTable("CUPTI_ACTIVITY_KIND_CONTEXT"))
    if (Error E = Db.select("CUPTI_ACTIVITY_KIND_CONTEXT", {"contextId", "deviceId"},
                            [&](const Row &R) {
                              ContextDevice[R.i64("contextId")] = R.u32("deviceId");
                            }))
      return std::move(E);
  // CONCURRENT_KERNEL with --concurrent-kernels on (the default), KERNEL
  // with it off: a run has one or the other.
  for (StringRef T : {"CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL", "CUPTI_ACTIVITY_KIND_KERNEL"})
    if (Error E = readKernels(T))
      return std::move(E);
  if (Error E = readCopies())
    return std::move(E);
  if (Error E = readMemsets())
    return std::move(E);
  if (Error E = readSyncs())
    return std::move(E);
  if (Error E = readRuntime())
    return std::move(E);
  if (Error E = readDevices())
    return std::move(E);

  Process Proc;
  Proc.Pid = Pid.value_or(0);
  Proc.SourceFile = Path.str();
  Proc.Format = "nvprof";
  uint64_t Start = UINT64_MAX, End = 0;
  auto Span = [&](uint64_t S, uint64_t E) {
    if (S && E >= S) {
      Start = std::min(Start, S);
      End = std::max(End, E);
    }
  };
  for (const Kernel &K : P.Kernels)
    Span(K.Start, K.End);
  for (const Copy &C : P.Copies)
    Span(C.Start, C.End);
  for (const Memset &M : P.Memsets)
    Span(M.Start, M.End);
  for (const ApiCall &A : P.ApiCalls)
    Span(A.Start, A.End);
  if (End > Start) {
    Proc.StartNs = Start;
    Proc.EndNs = End;
  }
  std::vector<std::string> Skipped;
  if (UnknownCbids)
    Skipped.push_back(formatv("{0} runtime calls with callback ids CUDA 13 does not name",
                              UnknownCbids));
  for (StringRef T : {"CUPTI_ACTIVITY_KIND_DRIVER", "CUPTI_ACTIVITY_KIND_MARKER",
                      "CUPTI_ACTIVITY_KIND_MEMCPY2", "CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER",
                      "CUPTI_ACTIVITY_KIND_METRIC", "CUPTI_ACTIVITY_KIND_EVENT",
                      "CUPTI_ACTIVITY_KIND_OPENACC_DATA", "CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH"})
    if (uint64_t N = count(T))
      Skipped.push_back(formatv("{0} rows of {1}", N, T));
  if (P.Kernels.empty() && P.Copies.empty() && P.Memsets.empty() && P.ApiCalls.empty())
    Proc.Warnings.push_back((Path + ": the nvprof database has no CUDA activity").str());
  if (!Skipped.empty())
    Proc.Warnings.push_back(
        (Path + ": not read from the nvprof database: " + join(Skipped, "; ")).str());
  P.Processes.push_back(std::move(Proc));
  return std::move(P);
}

/// The scale that turns a value in Unit into nanoseconds or bytes.
std::optional<double> unitScale(StringRef Unit) {
  if (Unit == "ns")
    return 1.0;
  if (Unit == "us")
    return 1e3;
  if (Unit == "ms")
    return 1e6;
  if (Unit == "s")
    return 1e9;
  if (Unit == "B")
    return 1.0;
  if (Unit == "KB")
    return 1024.0;
  if (Unit == "MB")
    return 1024.0 * 1024;
  if (Unit == "GB")
    return 1024.0 * 1024 * 1024;
  return std::nullopt;
}

Error fail(StringRef Path, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), "%s: %s", Path.str().c_str(),
                           Message.str().c_str());
}

} // namespace

Expected<Profile> readNvprofDatabase(sqlite::Database &Db) { return NvprofDbReader(Db).read(); }

Expected<Profile> readNvprofCsv(StringRef Path, StringRef Contents) {
  std::vector<csv::Row> Rows;
  std::vector<std::string> Log;
  if (!csv::parse(Contents, Rows, Log))
    return fail(Path, "the nvprof CSV ends inside a quoted field (the file is cut off)");
  // The header is the first row that starts with "Start","Duration".
  size_t H = 0;
  while (H < Rows.size() &&
         !(Rows[H].Fields.size() > 2 && Rows[H].Fields[0] == "Start" &&
           Rows[H].Fields[1] == "Duration"))
    ++H;
  if (H == Rows.size())
    return fail(Path, "nvprof output without a --print-gpu-trace table (run nvprof with --csv "
                      "--print-gpu-trace)");
  const std::vector<std::string> &Header = Rows[H].Fields;
  StringMap<size_t> Col;
  for (size_t I = 0; I < Header.size(); ++I)
    Col[Header[I]] = I;
  if (!Col.count("Name"))
    return fail(Path, formatv("line {0}: the nvprof table has no \"Name\" column (an API trace "
                              "or summary, not --print-gpu-trace?)",
                              Rows[H].Line));
  // The units row follows the header.
  std::vector<std::string> Units(Header.size());
  size_t First = H + 1;
  if (First < Rows.size() && Rows[First].Fields.size() == Header.size() &&
      !Rows[First].Quoted && Rows[First].Fields[0].find_first_of("0123456789") == std::string::npos) {
    Units = Rows[First].Fields;
    ++First;
  }
  auto Field = [&](const csv::Row &R, StringRef Name) -> StringRef {
    auto It = Col.find(Name);
    return It != Col.end() && It->second < R.Fields.size() ? StringRef(R.Fields[It->second])
                                                          : StringRef();
  };
  auto Scaled = [&](const csv::Row &R, StringRef Name, double DefaultScale) -> double {
    std::optional<double> V = csv::parseNumber(Field(R, Name));
    if (!V)
      return 0;
    auto It = Col.find(Name);
    double Scale = DefaultScale;
    if (It != Col.end())
      Scale = unitScale(Units[It->second]).value_or(DefaultScale);
    return *V * Scale;
  };
  auto U32 = [&](const csv::Row &R, StringRef Name) -> uint32_t {
    std::optional<double> V = csv::parseNumber(Field(R, Name));
    return V && *V >= 0 && *V < 4294967296.0 ? static_cast<uint32_t>(*V) : 0;
  };

  Profile P;
  Process Proc;
  Proc.SourceFile = Path.str();
  Proc.Format = "nvprof-csv";
  std::map<std::string, uint32_t> DeviceIds; // "GeForce RTX 2080 Ti (0)" -> 0
  uint64_t Skipped = 0;
  for (size_t I = First; I < Rows.size(); ++I) {
    const csv::Row &R = Rows[I];
    if (R.Fields.size() != Header.size()) {
      ++Skipped;
      continue;
    }
    StringRef Name = Field(R, "Name");
    uint64_t Start = static_cast<uint64_t>(std::llround(Scaled(R, "Start", 1e3)));
    uint64_t End = Start + static_cast<uint64_t>(std::llround(Scaled(R, "Duration", 1e3)));
    StringRef DeviceText = Field(R, "Device");
    uint32_t Device = 0;
    if (DeviceText.ends_with(")")) {
      size_t Open = DeviceText.rfind('(');
      if (Open != StringRef::npos &&
          !DeviceText.slice(Open + 1, DeviceText.size() - 1).getAsInteger(10, Device))
        DeviceIds[DeviceText.take_front(Open).trim().str()] = Device;
    }
    uint32_t Stream = U32(R, "Stream");
    uint64_t Correlation = U32(R, "Correlation_ID");
    if (Name.starts_with("[CUDA memcpy ")) {
      Copy C;
      StringRef Kind = Name.drop_front(strlen("[CUDA memcpy ")).take_until([](char Ch) {
        return Ch == ']';
      });
      C.Kind = parseCopyKind(Kind.str()).value_or(CopyKind::Unknown);
      C.Src = parseMemoryKind(Field(R, "SrcMemType").str()).value_or(MemoryKind::Unknown);
      C.Dst = parseMemoryKind(Field(R, "DstMemType").str()).value_or(MemoryKind::Unknown);
      C.Bytes = static_cast<uint64_t>(std::llround(Scaled(R, "Size", 1024.0)));
      C.Start = Start;
      C.End = End;
      C.Device = C.SrcDevice = C.DstDevice = Device;
      C.Stream = Stream;
      C.Correlation = Correlation;
      P.Copies.push_back(C);
    } else if (Name.starts_with("[CUDA memset")) {
      Memset M;
      M.Memory = parseMemoryKind(Field(R, "SrcMemType").str()).value_or(MemoryKind::Unknown);
      M.Bytes = static_cast<uint64_t>(std::llround(Scaled(R, "Size", 1024.0)));
      M.Start = Start;
      M.End = End;
      M.Device = Device;
      M.Stream = Stream;
      M.Correlation = Correlation;
      P.Memsets.push_back(M);
    } else if (Name.starts_with("[")) {
      ++Skipped; // "[CUDA memcpy PtoP]"-like records the model has no place for.
    } else {
      Kernel K;
      // nvprof prints kernels demangled, with their parameter types; older
      // versions add the correlation id ("kernel(float*) [218]").
      size_t Bracket = Name.rfind(" [");
      uint64_t Id = 0;
      if (Bracket != StringRef::npos && Name.ends_with("]") &&
          !Name.slice(Bracket + 2, Name.size() - 1).getAsInteger(10, Id)) {
        Name = Name.take_front(Bracket);
        if (!Correlation)
          Correlation = Id;
      }
      K.Demangled = Name.str();
      K.Start = Start;
      K.End = End;
      K.Device = Device;
      K.Stream = Stream;
      K.Correlation = Correlation;
      K.Grid = {U32(R, "Grid X"), U32(R, "Grid Y"), U32(R, "Grid Z")};
      K.Block = {U32(R, "Block X"), U32(R, "Block Y"), U32(R, "Block Z")};
      K.RegistersPerThread = U32(R, "Registers Per Thread");
      K.StaticSharedMem = static_cast<uint32_t>(Scaled(R, "Static SMem", 1024.0));
      K.DynamicSharedMem = static_cast<uint32_t>(Scaled(R, "Dynamic SMem", 1024.0));
      P.Kernels.push_back(std::move(K));
    }
    Proc.StartNs = Proc.StartNs ? std::min(Proc.StartNs, Start) : Start;
    Proc.EndNs = std::max(Proc.EndNs, End);
  }
  for (auto &[Name, Id] : DeviceIds) {
    Device D;
    D.Id = Id;
    D.Name = Name;
    P.Devices.push_back(std::move(D));
  }
  if (Skipped)
    Proc.Warnings.push_back(
        formatv("{0}: {1} rows of the nvprof table were not read (not kernels, copies or "
                "memsets, or of another width)",
                Path, Skipped)
            .str());
  if (P.Kernels.empty() && P.Copies.empty() && P.Memsets.empty())
    Proc.Warnings.push_back((Path + ": the nvprof table has no GPU activity").str());
  P.Processes.push_back(std::move(Proc));
  return std::move(P);
}

} // namespace cuda_advisor::profile
