//===- NsysReader.cpp - Nsight Systems SQLite exports ---------------------===//
//
// Reads what `nsys export --type sqlite` writes. The schema changes between
// Nsight Systems versions (META_DATA_EXPORT / EXPORT_META_DATA give the
// version; 2022 exports have no ENUM_* tables, 2023 ones add greenContextId,
// 2025 ones deprecatedSyncType...), and tables are created only when they
// have rows: every table and column is looked up in sqlite_master and
// PRAGMA table_info before it is read, and what is missing reads as unknown.
//
//   StringIds                            id -> text (kernel and API names)
//   CUPTI_ACTIVITY_KIND_KERNEL           kernels: mangledName, demangledName
//                                        (or shortName) -> StringIds
//   CUPTI_ACTIVITY_KIND_MEMCPY           copyKind (ENUM_CUDA_MEMCPY_OPER),
//                                        srcKind/dstKind (ENUM_CUDA_MEM_KIND,
//                                        whose numbering is not CUPTI's)
//   CUPTI_ACTIVITY_KIND_MEMSET           memKind, bytes, value
//   CUPTI_ACTIVITY_KIND_SYNCHRONIZATION  syncType (CUPTI's numbering)
//   CUPTI_ACTIVITY_KIND_RUNTIME/_DRIVER  nameId, globalTid, correlationId,
//                                        returnValue, callchainId
//   CUDA_CALLCHAINS                      (id, stackDepth, symbol, module,
//                                        originalIP): --cudabacktrace stacks
//   NVTX_EVENTS                          ranges (eventType 59 push/pop, 60
//                                        start/end) with text or textId
//   TARGET_INFO_GPU (+ _CUDA_DEVICE)     device limits
//   PROCESSES, ANALYSIS_DETAILS          process names, the profiled interval
//
// globalPid / globalTid pack the process id at bits 24..47 and the thread id
// in bits 0..23. Each process with CUDA records becomes one Process.
//
//===----------------------------------------------------------------------===//
#include "CuptiColumns.h"
#include "Sqlite.h"
#include "cuda-advisor/Profile/Reader.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace llvm;

namespace cuda_advisor::profile {

/// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel", "cudaMemcpyAsync_ptsz_v7000"
/// -> "cudaMemcpyAsync": the names the rules know, without the ABI version
/// and the per-thread default stream variants.
std::string plainApiName(StringRef Name) {
  size_t V = Name.rfind("_v");
  if (V != StringRef::npos && V + 2 < Name.size() &&
      all_of(Name.drop_front(V + 2), isDigit))
    Name = Name.take_front(V);
  if (Name.ends_with("_ptsz") || Name.ends_with("_ptds"))
    Name = Name.drop_back(5);
  return Name.str();
}

namespace {

using sqlite::Database;
using sqlite::Row;

uint32_t pidOf(uint64_t Global) { return static_cast<uint32_t>((Global >> 24) & 0xFFFFFF); }
uint32_t tidOf(uint64_t Global) { return static_cast<uint32_t>(Global & 0xFFFFFF); }

/// Nsight Systems' own numbering of memory kinds (ENUM_CUDA_MEM_KIND), used
/// when the export has no ENUM tables (2022 versions).
MemoryKind nsysMemoryKind(int64_t V) {
  static const MemoryKind Kinds[] = {MemoryKind::Pageable,     MemoryKind::Pinned,
                                     MemoryKind::Device,       MemoryKind::Array,
                                     MemoryKind::Managed,      MemoryKind::DeviceStatic,
                                     MemoryKind::ManagedStatic};
  return V >= 0 && V < static_cast<int64_t>(std::size(Kinds)) ? Kinds[V] : MemoryKind::Unknown;
}

class NsysReader {
public:
  NsysReader(Database &Db) : Db(Db), Path(Db.path()) {}
  Expected<Profile> read();

private:
  Error readStrings();
  Error readEnums();
  Error readKernels();
  Error readCopies();
  Error readMemsets();
  Error readSyncs();
  Error readApi(StringRef Table, bool Driver);
  Error readCallchains();
  Error readNvtx();
  Error readDevices();
  void readProcesses();

  ProcessIndex process(uint64_t GlobalPid) {
    uint32_t Pid = pidOf(GlobalPid);
    auto [It, New] = ProcessOf.try_emplace(Pid, static_cast<ProcessIndex>(Pids.size()));
    if (New)
      Pids.push_back(Pid);
    return It->second;
  }
  std::string string(const Row &R, StringRef Column) const {
    auto It = Strings.find(R.i64(Column, -1));
    return It == Strings.end() ? std::string() : It->second;
  }
  CopyKind copyKind(int64_t V, bool &Migration) const {
    Migration = false;
    std::string Name;
    if (auto It = CopyKindNames.find(V); It != CopyKindNames.end())
      Name = It->second;
    else if (CopyKindNames.empty() && V >= 11 && V <= 13) // UVM_HTOD, _DTOH, _DTOD
      Migration = true;
    else if (CopyKindNames.empty() && V >= 0 && V <= 10)
      return static_cast<CopyKind>(V); // CUPTI's numbering, which nsys keeps.
    StringRef N = Name;
    N.consume_front("CUDA_MEMCPY_KIND_");
    if (N.consume_front("UVM_"))
      Migration = true;
    return parseCopyKind(N.str()).value_or(CopyKind::Unknown);
  }
  MemoryKind memoryKind(int64_t V) const {
    if (MemKindNames.empty())
      return nsysMemoryKind(V);
    auto It = MemKindNames.find(V);
    if (It == MemKindNames.end())
      return MemoryKind::Unknown;
    StringRef N = It->second;
    N.consume_front("CUDA_MEMOPR_MEMORY_KIND_");
    return parseMemoryKind(N.str()).value_or(MemoryKind::Unknown);
  }
  SyncKind syncKind(int64_t V) const {
    if (auto It = SyncKindNames.find(V); It != SyncKindNames.end()) {
      StringRef N = It->second;
      N.consume_front("CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_");
      return parseSyncKind(N.str()).value_or(SyncKind::Unknown);
    }
    return V >= 1 && V <= 4 ? static_cast<SyncKind>(V) : SyncKind::Unknown;
  }
  void skipped(const Twine &What) { Skipped.push_back(What.str()); }

  Database &Db;
  StringRef Path;
  Profile P;
  std::map<int64_t, std::string> Strings;
  std::map<int64_t, std::string> CopyKindNames, MemKindNames, SyncKindNames;
  std::map<uint32_t, ProcessIndex> ProcessOf;
  std::vector<uint32_t> Pids;
  /// Call chain id -> the runtime calls that carry it.
  std::map<int64_t, std::vector<size_t>> CallsByChain;
  std::vector<std::string> Skipped;
  uint64_t Migrations = 0, MigrationBytes = 0;
};

Error NsysReader::readStrings() {
  if (!Db.hasTable("StringIds"))
    return Error::success();
  return Db.select("StringIds", {"id", "value"}, [&](const Row &R) {
    if (std::optional<int64_t> Id = R.integer("id"))
      Strings[*Id] = R.text("value").value_or("");
  });
}

Error NsysReader::readEnums() {
  auto Read = [&](StringRef Table, std::map<int64_t, std::string> &Out) -> Error {
    if (!Db.hasTable(Table))
      return Error::success();
    return Db.select(Table, {"id", "name"}, [&](const Row &R) {
      if (std::optional<int64_t> Id = R.integer("id"))
        Out[*Id] = R.text("name").value_or("");
    });
  };
  if (Error E = Read("ENUM_CUDA_MEMCPY_OPER", CopyKindNames))
    return E;
  if (Error E = Read("ENUM_CUDA_MEM_KIND", MemKindNames))
    return E;
  return Read("ENUM_CUPTI_SYNC_TYPE", SyncKindNames);
}

Error NsysReader::readKernels() {
  StringRef T = "CUPTI_ACTIVITY_KIND_KERNEL";
  if (!Db.hasTable(T))
    return Error::success();
  bool HasMangled = Db.hasColumn(T, "mangledName");
  StringRef DemangledColumn = Db.hasColumn(T, "demangledName") ? "demangledName" : "shortName";
  return Db.select(
      T,
      {"start", "end", "deviceId", "streamId", "correlationId", "globalPid", "mangledName",
       "demangledName", "shortName", "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
       "registersPerThread", "staticSharedMemory", "dynamicSharedMemory",
       "localMemoryPerThread"},
      [&](const Row &R) {
        Kernel K;
        K.Process = process(R.u64("globalPid"));
        if (HasMangled)
          K.Name = string(R, "mangledName");
        K.Demangled = string(R, DemangledColumn);
        if (K.Name == K.Demangled) // C kernels (extern "C") have one name.
          K.Demangled.clear();
        if (K.Name.empty())
          std::swap(K.Name, K.Demangled);
        readKernelColumns(R, K);
        P.Kernels.push_back(std::move(K));
      });
}

Error NsysReader::readCopies() {
  StringRef T = "CUPTI_ACTIVITY_KIND_MEMCPY";
  if (!Db.hasTable(T))
    return Error::success();
  return Db.select(T,
                   {"start", "end", "deviceId", "streamId", "correlationId", "globalPid",
                    "bytes", "copyKind", "srcKind", "dstKind", "srcDeviceId", "dstDeviceId"},
                   [&](const Row &R) {
                     bool Migration = false;
                     Copy C;
                     C.Kind = copyKind(R.i64("copyKind", -1), Migration);
                     if (Migration) { // Unified memory page migrations: not a copy call.
                       ++Migrations;
                       MigrationBytes += R.u64("bytes");
                       return;
                     }
                     C.Process = process(R.u64("globalPid"));
                     C.Src = memoryKind(R.i64("srcKind", -1));
                     C.Dst = memoryKind(R.i64("dstKind", -1));
                     C.Bytes = R.u64("bytes");
                     C.Start = R.u64("start");
                     C.End = R.u64("end");
                     C.Device = R.u32("deviceId");
                     C.SrcDevice = R.u32("srcDeviceId");
                     C.DstDevice = R.u32("dstDeviceId");
                     C.Stream = R.u32("streamId");
                     C.Correlation = R.u64("correlationId");
                     P.Copies.push_back(C);
                   });
}

Error NsysReader::readMemsets() {
  StringRef T = "CUPTI_ACTIVITY_KIND_MEMSET";
  if (!Db.hasTable(T))
    return Error::success();
  StringRef KindColumn = Db.hasColumn(T, "memKind") ? "memKind" : "memoryKind";
  return Db.select(T,
                   {"start", "end", "deviceId", "streamId", "correlationId", "globalPid",
                    "bytes", "value", KindColumn},
                   [&](const Row &R) {
                     Memset M;
                     M.Process = process(R.u64("globalPid"));
                     M.Memory = memoryKind(R.i64(KindColumn, -1));
                     M.Bytes = R.u64("bytes");
                     M.Value = R.u32("value");
                     readActivityColumns(R, M);
                     P.Memsets.push_back(M);
                   });
}

Error NsysReader::readSyncs() {
  StringRef T = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
  if (!Db.hasTable(T))
    return Error::success();
  return Db.select(T,
                   {"start", "end", "deviceId", "streamId", "correlationId", "globalPid",
                    "syncType"},
                   [&](const Row &R) {
                     Sync S;
                     S.Process = process(R.u64("globalPid"));
                     S.Kind = syncKind(R.i64("syncType", 0));
                     S.Start = R.u64("start");
                     S.End = R.u64("end");
                     S.Device = R.u32("deviceId");
                     S.Stream = R.u32("streamId");
                     S.Correlation = R.u64("correlationId");
                     P.Syncs.push_back(S);
                   });
}

Error NsysReader::readApi(StringRef T, bool Driver) {
  if (!Db.hasTable(T))
    return Error::success();
  return Db.select(T,
                   {"start", "end", "globalTid", "correlationId", "nameId", "returnValue",
                    "callchainId"},
                   [&](const Row &R) {
                     ApiCall A;
                     uint64_t Tid = R.u64("globalTid");
                     A.Process = process(Tid);
                     A.Thread = tidOf(Tid);
                     A.Name = plainApiName(string(R, "nameId"));
                     A.Driver = Driver;
                     A.Start = R.u64("start");
                     A.End = R.u64("end");
                     A.Correlation = R.u64("correlationId");
                     A.ReturnCode = static_cast<int>(R.i64("returnValue"));
                     if (std::optional<int64_t> Chain = R.integer("callchainId"))
                       CallsByChain[*Chain].push_back(P.ApiCalls.size());
                     P.ApiCalls.push_back(std::move(A));
                   });
}

/// CUDA_CALLCHAINS holds one row per frame (stackDepth 0 = innermost) with
/// the symbol and module already resolved by Nsight Systems (no line
/// numbers): the frames become the stack's Symbols; originalIP, where given,
/// its Frames, for symbolizing against the binary.
Error NsysReader::readCallchains() {
  StringRef T = "CUDA_CALLCHAINS";
  if (!Db.hasTable(T) || CallsByChain.empty())
    return Error::success();
  std::map<int64_t, std::map<int64_t, StackFrame>> Chains;
  std::map<int64_t, std::map<int64_t, uint64_t>> Addresses;
  if (Error E = Db.select(T, {"id", "stackDepth", "symbol", "module", "originalIP"},
                          [&](const Row &R) {
                            int64_t Id = R.i64("id", -1), Depth = R.i64("stackDepth", -1);
                            if (Id < 0 || Depth < 0)
                              return;
                            StackFrame F;
                            F.Function = string(R, "symbol");
                            F.Module = string(R, "module");
                            Chains[Id][Depth] = std::move(F);
                            if (std::optional<int64_t> IP = R.integer("originalIP"))
                              Addresses[Id][Depth] = static_cast<uint64_t>(*IP);
                          }))
    return E;
  for (auto &[Id, Frames] : Chains) {
    auto Calls = CallsByChain.find(Id);
    if (Calls == CallsByChain.end())
      continue;
    Stack S;
    S.Process = P.ApiCalls[Calls->second.front()].Process;
    for (auto &[Depth, F] : Frames) {
      F.Address = static_cast<uint32_t>(S.Symbols.size());
      F.Library = StringRef(F.Module).contains("libcuda") ||
                  StringRef(F.Module).contains("libcudart") ||
                  StringRef(F.Module).contains("libc.so") ||
                  StringRef(F.Module).contains("libstdc++");
      S.Symbols.push_back(F);
    }
    if (Addresses.count(Id) && Addresses[Id].size() == Frames.size())
      for (auto &[Depth, IP] : Addresses[Id])
        S.Frames.push_back(IP);
    int64_t Index = static_cast<int64_t>(P.Stacks.size());
    P.Stacks.push_back(std::move(S));
    for (size_t Call : Calls->second)
      P.ApiCalls[Call].StackIndex = Index;
  }
  return Error::success();
}

Error NsysReader::readNvtx() {
  StringRef T = "NVTX_EVENTS";
  if (!Db.hasTable(T))
    return Error::success();
  return Db.select(T, {"start", "end", "eventType", "text", "textId", "globalTid"},
                   [&](const Row &R) {
                     // 59: push/pop range, 60: start/end range (NvtxEventType).
                     int64_t Type = R.i64("eventType", -1);
                     if ((Type != 59 && Type != 60) || !R.has("end"))
                       return;
                     Range N;
                     uint64_t Tid = R.u64("globalTid");
                     N.Process = process(Tid);
                     N.Thread = tidOf(Tid);
                     N.Name = R.text("text").value_or(string(R, "textId"));
                     N.Start = R.u64("start");
                     N.End = R.u64("end");
                     P.Ranges.push_back(std::move(N));
                   });
}

Error NsysReader::readDevices() {
  StringRef T = "TARGET_INFO_GPU";
  if (!Db.hasTable(T))
    return Error::success();
  // TARGET_INFO_CUDA_DEVICE maps Nsight's GPU ids to CUDA device ids; older
  // exports give the CUDA id as cuDevice.
  std::map<int64_t, uint32_t> CudaIdOf;
  if (Db.hasTable("TARGET_INFO_CUDA_DEVICE"))
    if (Error E = Db.select("TARGET_INFO_CUDA_DEVICE", {"gpuId", "cudaId"}, [&](const Row &R) {
          if (R.has("gpuId") && R.has("cudaId"))
            CudaIdOf[R.i64("gpuId")] = R.u32("cudaId");
        }))
      return E;
  std::vector<Device> Found;
  if (Error E = Db.select(
          T,
          {"id", "cuDevice", "name", "smCount", "maxWarpsPerSm", "maxBlocksPerSm",
           "maxThreadsPerBlock", "threadsPerWarp", "maxRegistersPerSm", "maxRegistersPerBlock",
           "maxShmemPerSm", "maxShmemPerBlock", "maxShmemPerBlockOptin", "totalMemory",
           "memoryBandwidth", "l2CacheSize", "clockRate", "computeMajor", "computeMinor"},
          [&](const Row &R) {
            Device D;
            auto Mapped = CudaIdOf.find(R.i64("id", -1));
            D.Id = Mapped != CudaIdOf.end() ? Mapped->second : R.u32("cuDevice");
            D.Name = R.text("name").value_or("");
            D.NumSMs = static_cast<int>(R.i64("smCount"));
            D.MaxWarpsPerSM = static_cast<int>(R.i64("maxWarpsPerSm"));
            D.MaxBlocksPerSM = static_cast<int>(R.i64("maxBlocksPerSm"));
            D.MaxThreadsPerBlock = static_cast<int>(R.i64("maxThreadsPerBlock"));
            D.WarpSize = static_cast<int>(R.i64("threadsPerWarp", 32));
            D.RegistersPerSM = static_cast<int>(R.i64("maxRegistersPerSm"));
            D.MaxRegistersPerBlock = static_cast<int>(R.i64("maxRegistersPerBlock"));
            D.SharedMemPerSM = R.u64("maxShmemPerSm");
            D.SharedMemPerBlock = R.u64("maxShmemPerBlock");
            D.SharedMemPerBlockOptin = R.u64("maxShmemPerBlockOptin");
            D.GlobalMemoryBytes = R.u64("totalMemory");
            D.MemoryBandwidthBytesPerSec = R.u64("memoryBandwidth"); // bytes/s
            D.L2CacheBytes = R.u64("l2CacheSize");
            D.CoreClockKHz = R.u64("clockRate") / 1000; // Hz
            D.ComputeMajor = static_cast<int>(R.i64("computeMajor"));
            D.ComputeMinor = static_cast<int>(R.i64("computeMinor"));
            sanitize(D);
            Found.push_back(std::move(D));
          }))
    return E;
  // The export lists the machine's GPUs once; each process sees them all.
  for (ProcessIndex I = 0; I < Pids.size(); ++I)
    for (Device D : Found) {
      D.Process = I;
      P.Devices.push_back(std::move(D));
    }
  return Error::success();
}

void NsysReader::readProcesses() {
  std::map<uint32_t, std::string> Names;
  if (Db.hasTable("PROCESSES"))
    consumeError(Db.select("PROCESSES", {"pid", "name"}, [&](const Row &R) {
      Names[R.u32("pid")] = R.text("name").value_or("");
    }));
  uint64_t Start = 0, Stop = 0;
  if (Db.hasTable("ANALYSIS_DETAILS"))
    consumeError(Db.select("ANALYSIS_DETAILS", {"startTime", "stopTime"}, [&](const Row &R) {
      Start = R.u64("startTime");
      Stop = R.u64("stopTime");
    }));
  for (uint32_t Pid : Pids) {
    Process Proc;
    Proc.Pid = Pid;
    Proc.Command = Names[Pid];
    Proc.SourceFile = Path.str();
    Proc.Format = "nsys-sqlite";
    if (Stop > Start) {
      Proc.StartNs = Start;
      Proc.EndNs = Stop;
    }
    P.Processes.push_back(std::move(Proc));
  }
}

Expected<Profile> NsysReader::read() {
  for (auto Step : {&NsysReader::readStrings, &NsysReader::readEnums, &NsysReader::readKernels,
                    &NsysReader::readCopies, &NsysReader::readMemsets, &NsysReader::readSyncs})
    if (Error E = (this->*Step)())
      return std::move(E);
  if (Error E = readApi("CUPTI_ACTIVITY_KIND_RUNTIME", false))
    return std::move(E);
  if (Error E = readApi("CUPTI_ACTIVITY_KIND_DRIVER", true))
    return std::move(E);
  if (Error E = readCallchains())
    return std::move(E);
  if (Error E = readNvtx())
    return std::move(E);
  // A run without CUDA activity still has its process (from NVTX or none).
  bool NoCuda = P.Kernels.empty() && P.Copies.empty() && P.Memsets.empty() && P.ApiCalls.empty();
  if (Pids.empty())
    process(0);
  if (Error E = readDevices())
    return std::move(E);
  readProcesses();

  // What the export holds that the model has no place for.
  if (Migrations)
    skipped(formatv("{0} unified-memory page migrations ({1} bytes)", Migrations,
                    MigrationBytes));
  static const char *const NotRead[] = {
      "CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
      "CUPTI_ACTIVITY_KIND_OPENACC", "CUDA_GPU_MEMORY_USAGE_EVENTS", "CUDA_UM_CPU_PAGE_FAULT_EVENTS",
      "CUDA_UM_GPU_PAGE_FAULT_EVENTS", "CUPTI_ACTIVITY_KIND_MEMORY", "CUPTI_ACTIVITY_KIND_MEMPOOL"};
  for (const char *T : NotRead)
    if (Db.hasTable(T))
      if (std::optional<std::string> N = Db.scalar(("SELECT count(*) FROM \"" + Twine(T) + "\"").str());
          N && *N != "0")
        skipped(formatv("{0} rows of {1}", *N, T));
  if (Db.hasTable("CUDA_CALLCHAINS") && CallsByChain.empty())
    skipped("CUDA_CALLCHAINS (no runtime call refers to them)");
  Process &First = P.Processes.front();
  if (NoCuda)
    First.Warnings.push_back(
        (Path + ": the Nsight Systems export has no CUDA activity (was the program profiled with "
                "`nsys profile --trace=cuda`?)")
            .str());
  if (!Skipped.empty())
    First.Warnings.push_back((Path + ": not read from the Nsight Systems export: " +
                              join(Skipped, "; "))
                                 .str());
  return std::move(P);
}

} // namespace

Expected<Profile> readNsysSqlite(sqlite::Database &Db) { return NsysReader(Db).read(); }

} // namespace cuda_advisor::profile
