//===- Activity.cpp - CUPTI activity records as profile lines -------------===//
#include "Activity.h"

#include "JsonLine.h"

#include <cstdlib>
#include <cstring>
#include <iterator>

namespace cuda_advisor::collector {

// The profile names enums by CUPTI's numbering; lib/Profile/Profile.cpp reads
// them back with the same spelling.
const char *copyKindName(unsigned K) {
  static const char *const Names[] = {"unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                      "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
  return K < std::size(Names) ? Names[K] : "unknown";
}

const char *memoryKindName(unsigned K) {
  static const char *const Names[] = {"unknown", "pageable", "pinned",        "device",
                                      "array",   "managed",  "device-static", "managed-static"};
  return K < std::size(Names) ? Names[K] : "unknown";
}

static const char *syncKindName(unsigned K) {
  static const char *const Names[] = {"unknown", "event-synchronize", "stream-wait-event",
                                      "stream-synchronize", "context-synchronize"};
  return K < std::size(Names) ? Names[K] : "unknown";
}

static const char *overheadKindName(unsigned K) {
  switch (K) {
  case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
    return "driver-compiler";
  case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH:
    return "cupti-buffer-flush";
  case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION:
    return "cupti-instrumentation";
  case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE:
    return "cupti-resource";
  case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
    return "runtime-triggered-module-loading";
  case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
    return "lazy-function-loading";
  case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
    return "command-buffer-full";
  case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
    return "activity-buffer-request";
  case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT:
    return "uvm-activity-init";
  default:
    return "unknown";
  }
}

static const char *objectKindName(unsigned K) {
  switch (K) {
  case CUPTI_ACTIVITY_OBJECT_PROCESS:
    return "process";
  case CUPTI_ACTIVITY_OBJECT_THREAD:
    return "thread";
  case CUPTI_ACTIVITY_OBJECT_DEVICE:
    return "device";
  case CUPTI_ACTIVITY_OBJECT_CONTEXT:
    return "context";
  case CUPTI_ACTIVITY_OBJECT_STREAM:
    return "stream";
  default:
    return "unknown";
  }
}

static void objectIds(JsonLine &L, unsigned Kind, const CUpti_ActivityObjectKindId &Id) {
  switch (Kind) {
  case CUPTI_ACTIVITY_OBJECT_PROCESS:
    L.num("process", Id.pt.processId);
    break;
  case CUPTI_ACTIVITY_OBJECT_THREAD:
    L.num("process", Id.pt.processId).num("thread", Id.pt.threadId);
    break;
  case CUPTI_ACTIVITY_OBJECT_DEVICE:
    L.num("device", Id.dcs.deviceId);
    break;
  case CUPTI_ACTIVITY_OBJECT_CONTEXT:
    L.num("device", Id.dcs.deviceId).num("context", Id.dcs.contextId);
    break;
  case CUPTI_ACTIVITY_OBJECT_STREAM:
    L.num("device", Id.dcs.deviceId).num("context", Id.dcs.contextId).num("stream", Id.dcs.streamId);
    break;
  default:
    break;
  }
}

std::string ApiNames::canonical(const char *CuptiName) {
  std::string N = CuptiName ? CuptiName : "";
  // "_v3020", "_v7000": the API version CUPTI appends.
  std::string::size_type V = N.rfind("_v");
  if (V != std::string::npos && V + 2 < N.size() &&
      N.find_first_not_of("0123456789", V + 2) == std::string::npos)
    N.erase(V);
  for (const char *Suffix : {"_ptsz", "_ptds"}) {
    size_t L = std::strlen(Suffix);
    if (N.size() > L && N.compare(N.size() - L, L, Suffix) == 0)
      N.erase(N.size() - L);
  }
  return N;
}

void ApiNames::load(bool WithDriver) {
  Runtime.assign(CUPTI_RUNTIME_TRACE_CBID_SIZE, std::string());
  for (uint32_t Id = 1; Id < CUPTI_RUNTIME_TRACE_CBID_SIZE; ++Id) {
    const char *Name = nullptr;
    if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, Id, &Name) == CUPTI_SUCCESS && Name)
      Runtime[Id] = canonical(Name);
  }
  if (!WithDriver)
    return;
  Driver.assign(CUPTI_DRIVER_TRACE_CBID_SIZE, std::string());
  for (uint32_t Id = 1; Id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++Id) {
    const char *Name = nullptr;
    if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, Id, &Name) == CUPTI_SUCCESS && Name)
      Driver[Id] = canonical(Name);
  }
}

static void timing(JsonLine &L, uint64_t Start, uint64_t End, ActivityCounters &C) {
  L.num("start", Start).num("end", End);
  if (Start == 0 && End == 0)
    C.Incomplete.fetch_add(1, std::memory_order_relaxed);
}

static void appendKernel(const CUpti_ActivityKernel10 &K, ActivityCounters &C, std::string &Out) {
  JsonLine L(Out, "kernel");
  L.str("name", K.name).num("device", K.deviceId).num("context", K.contextId).num("stream", K.streamId);
  timing(L, K.start, K.end, C);
  L.num("correlation", K.correlationId)
      .triple("grid", static_cast<uint32_t>(K.gridX), static_cast<uint32_t>(K.gridY),
              static_cast<uint32_t>(K.gridZ))
      .triple("block", static_cast<uint32_t>(K.blockX), static_cast<uint32_t>(K.blockY),
              static_cast<uint32_t>(K.blockZ))
      .num("registers", K.registersPerThread)
      .num("static_shared", static_cast<uint32_t>(K.staticSharedMemory))
      .num("dynamic_shared", static_cast<uint32_t>(K.dynamicSharedMemory))
      .num("local_per_thread", K.localMemoryPerThread)
      .num("shared_executed", K.sharedMemoryExecuted);
  if (K.clusterX || K.clusterY || K.clusterZ)
    L.triple("cluster", K.clusterX, K.clusterY, K.clusterZ);
  if (K.launchType)
    L.num("launch_type", K.launchType);
  if (K.graphId)
    L.num("graph", K.graphId).num("graph_node", K.graphNodeId);
  if (K.isDeviceLaunched)
    L.boolean("device_launched", true);
  L.end();
  C.Kernels.fetch_add(1, std::memory_order_relaxed);
}

static void appendMemcpy(const CUpti_ActivityMemcpy6 &M, ActivityCounters &C, std::string &Out) {
  JsonLine L(Out, "memcpy");
  L.str("kind", copyKindName(M.copyKind))
      .str("src", memoryKindName(M.srcKind))
      .str("dst", memoryKindName(M.dstKind))
      .num("bytes", M.bytes)
      .num("device", M.deviceId)
      .num("context", M.contextId)
      .num("stream", M.streamId);
  timing(L, M.start, M.end, C);
  L.num("correlation", M.correlationId);
  if (M.runtimeCorrelationId && M.runtimeCorrelationId != M.correlationId)
    L.num("runtime_correlation", M.runtimeCorrelationId);
  L.boolean("async", (M.flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0);
  if (M.copyCount > 1)
    L.num("count", M.copyCount);
  if (M.graphId)
    L.num("graph", M.graphId).num("graph_node", M.graphNodeId);
  L.end();
  C.Memcpys.fetch_add(1, std::memory_order_relaxed);
}

static void appendPeerMemcpy(const CUpti_ActivityMemcpyPtoP4 &M, ActivityCounters &C,
                             std::string &Out) {
  JsonLine L(Out, "memcpy");
  L.str("kind", copyKindName(M.copyKind))
      .str("src", memoryKindName(M.srcKind))
      .str("dst", memoryKindName(M.dstKind))
      .num("bytes", M.bytes)
      .num("device", M.deviceId)
      .num("context", M.contextId)
      .num("stream", M.streamId)
      .num("src_device", M.srcDeviceId)
      .num("dst_device", M.dstDeviceId)
      .num("src_context", M.srcContextId)
      .num("dst_context", M.dstContextId);
  timing(L, M.start, M.end, C);
  L.num("correlation", M.correlationId)
      .boolean("async", (M.flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0)
      .boolean("peer", true);
  if (M.graphId)
    L.num("graph", M.graphId).num("graph_node", M.graphNodeId);
  L.end();
  C.Memcpys.fetch_add(1, std::memory_order_relaxed);
}

static void appendMemset(const CUpti_ActivityMemset4 &M, ActivityCounters &C, std::string &Out) {
  JsonLine L(Out, "memset");
  L.num("bytes", M.bytes)
      .num("value", M.value)
      .str("memory", memoryKindName(M.memoryKind))
      .num("device", M.deviceId)
      .num("context", M.contextId)
      .num("stream", M.streamId);
  timing(L, M.start, M.end, C);
  L.num("correlation", M.correlationId)
      .boolean("async", (M.flags & CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC) != 0);
  if (M.graphId)
    L.num("graph", M.graphId).num("graph_node", M.graphNodeId);
  L.end();
  C.Memsets.fetch_add(1, std::memory_order_relaxed);
}

static void appendSync(const CUpti_ActivitySynchronization2 &S, ActivityCounters &C,
                       std::string &Out) {
  JsonLine L(Out, "sync");
  L.str("sync", syncKindName(S.type)).num("context", S.contextId);
  if (S.streamId != CUPTI_SYNCHRONIZATION_INVALID_VALUE)
    L.num("stream", S.streamId);
  if (S.cudaEventId != CUPTI_SYNCHRONIZATION_INVALID_VALUE)
    L.num("event", S.cudaEventId);
  timing(L, S.start, S.end, C);
  L.num("correlation", S.correlationId);
  if (S.returnValue)
    L.num("ret", S.returnValue);
  L.end();
  C.Syncs.fetch_add(1, std::memory_order_relaxed);
}

static void appendApi(const CUpti_ActivityAPI &A, bool Driver, const ApiNames &Names,
                      ActivityCounters &C, std::string &Out) {
  const std::vector<std::string> &Table = Driver ? Names.Driver : Names.Runtime;
  JsonLine L(Out, "api");
  if (A.cbid < Table.size() && !Table[A.cbid].empty())
    L.str("name", Table[A.cbid]);
  else
    L.str("name", "unknown");
  L.num("cbid", A.cbid);
  if (Driver)
    L.str("domain", "driver");
  timing(L, A.start, A.end, C);
  L.num("thread", A.threadId).num("correlation", A.correlationId).num("ret", A.returnValue);
  L.end();
  (Driver ? C.DriverCalls : C.RuntimeCalls).fetch_add(1, std::memory_order_relaxed);
}

static void appendDevice(const CUpti_ActivityDevice5 &D, ActivityCounters &C, std::string &Out) {
  static const char Hex[] = "0123456789abcdef";
  std::string Uuid;
  for (unsigned I = 0; I < sizeof(D.uuid.bytes); ++I) {
    auto B = static_cast<unsigned char>(D.uuid.bytes[I]);
    Uuid += Hex[B >> 4];
    Uuid += Hex[B & 15];
  }
  JsonLine L(Out, "device");
  L.str("source", "cupti")
      .num("id", D.id)
      .str("name", D.name)
      .str("uuid", Uuid)
      .pair("cc", D.computeCapabilityMajor, D.computeCapabilityMinor)
      .num("sms", D.numMultiprocessors)
      .num("max_warps_per_sm", D.maxWarpsPerMultiprocessor)
      .num("max_blocks_per_sm", D.maxBlocksPerMultiprocessor)
      .num("max_threads_per_block", D.maxThreadsPerBlock)
      .num("warp_size", D.numThreadsPerWarp)
      .num("registers_per_sm", D.maxRegistersPerMultiprocessor)
      .num("registers_per_block", D.maxRegistersPerBlock)
      .num("shared_mem_per_sm", D.maxSharedMemoryPerMultiprocessor)
      .num("shared_mem_per_block", D.maxSharedMemoryPerBlock)
      .num("global_memory_bytes", D.globalMemorySize)
      .num("memory_bandwidth_kbps", D.globalMemoryBandwidth)
      .num("l2_cache_bytes", D.l2CacheSize)
      .num("core_clock_khz", D.coreClockRate)
      .num("memcpy_engines", D.numMemcpyEngines)
      .boolean("mig", D.isMigEnabled != 0);
  L.end();
  C.Devices.fetch_add(1, std::memory_order_relaxed);
}

bool appendActivity(const CUpti_Activity *R, const ApiNames &Names, ActivityCounters &C,
                    std::string &Out) {
  switch (R->kind) {
  case CUPTI_ACTIVITY_KIND_KERNEL:
  case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    appendKernel(*reinterpret_cast<const CUpti_ActivityKernel10 *>(R), C, Out);
    return true;
  case CUPTI_ACTIVITY_KIND_MEMCPY:
    appendMemcpy(*reinterpret_cast<const CUpti_ActivityMemcpy6 *>(R), C, Out);
    return true;
  case CUPTI_ACTIVITY_KIND_MEMCPY2:
    appendPeerMemcpy(*reinterpret_cast<const CUpti_ActivityMemcpyPtoP4 *>(R), C, Out);
    return true;
  case CUPTI_ACTIVITY_KIND_MEMSET:
    appendMemset(*reinterpret_cast<const CUpti_ActivityMemset4 *>(R), C, Out);
    return true;
  case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
    appendSync(*reinterpret_cast<const CUpti_ActivitySynchronization2 *>(R), C, Out);
    return true;
  case CUPTI_ACTIVITY_KIND_RUNTIME:
    appendApi(*reinterpret_cast<const CUpti_ActivityAPI *>(R), false, Names, C, Out);
    return true;
  case CUPTI_ACTIVITY_KIND_DRIVER:
    appendApi(*reinterpret_cast<const CUpti_ActivityAPI *>(R), true, Names, C, Out);
    return true;
  case CUPTI_ACTIVITY_KIND_DEVICE:
    appendDevice(*reinterpret_cast<const CUpti_ActivityDevice5 *>(R), C, Out);
    return true;
  case CUPTI_ACTIVITY_KIND_CONTEXT: {
    const auto &X = *reinterpret_cast<const CUpti_ActivityContext3 *>(R);
    JsonLine(Out, "context")
        .num("id", X.contextId)
        .num("device", X.deviceId)
        .num("null_stream", X.nullStreamId)
        .end();
    C.Contexts.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  case CUPTI_ACTIVITY_KIND_OVERHEAD: {
    const auto &O = *reinterpret_cast<const CUpti_ActivityOverhead3 *>(R);
    JsonLine L(Out, "overhead");
    L.str("overhead", overheadKindName(O.overheadKind)).str("object", objectKindName(O.objectKind));
    objectIds(L, O.objectKind, O.objectId);
    timing(L, O.start, O.end, C);
    if (O.correlationId)
      L.num("correlation", O.correlationId);
    L.end();
    // CUPTI hands the details over to the client, which frees them.
    std::free(O.overheadData);
    C.Overheads.fetch_add(1, std::memory_order_relaxed);
    if (O.end > O.start)
      C.OverheadNs.fetch_add(O.end - O.start, std::memory_order_relaxed);
    return true;
  }
  case CUPTI_ACTIVITY_KIND_NAME: {
    const auto &N = *reinterpret_cast<const CUpti_ActivityName *>(R);
    JsonLine L(Out, "name");
    L.str("object", objectKindName(N.objectKind));
    objectIds(L, N.objectKind, N.objectId);
    L.str("name", N.name);
    L.end();
    C.Names.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  default:
    C.Other.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
}

} // namespace cuda_advisor::collector
