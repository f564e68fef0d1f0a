/* cuda-advisor bundled minimal CUDA declarations: the runtime API
 * (cuda_runtime_api.h and the C++ templates of cuda_runtime.h). Included by
 * cuda_advisor_minimal.h; see there. */
#ifndef CUDA_ADVISOR_MINIMAL_RUNTIME_H
#define CUDA_ADVISOR_MINIMAL_RUNTIME_H

/* Callable from device code too (dynamic parallelism, error checks in
 * kernels), as __cudart_builtin__ makes them with nvcc. */
#define CUDA_ADVISOR_HD __host__ __device__

CUDA_ADVISOR_BEGIN_C

/* Errors */
extern CUDA_ADVISOR_HD cudaError_t cudaGetLastError(void);
extern CUDA_ADVISOR_HD cudaError_t cudaPeekAtLastError(void);
extern CUDA_ADVISOR_HD const char *cudaGetErrorString(cudaError_t error);
extern CUDA_ADVISOR_HD const char *cudaGetErrorName(cudaError_t error);

/* Devices */
extern CUDA_ADVISOR_HD cudaError_t cudaGetDeviceCount(int *count);
extern CUDA_ADVISOR_HD cudaError_t cudaGetDevice(int *device);
extern __host__ cudaError_t cudaSetDevice(int device);
extern __host__ cudaError_t cudaSetValidDevices(int *deviceArr, int len);
extern __host__ cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
extern __host__ cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
extern CUDA_ADVISOR_HD cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr,
                                                          int device);
extern __host__ cudaError_t cudaDeviceSynchronize(void);
extern __host__ cudaError_t cudaDeviceReset(void);
extern __host__ cudaError_t cudaSetDeviceFlags(unsigned int flags);
extern __host__ cudaError_t cudaGetDeviceFlags(unsigned int *flags);
extern __host__ cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
extern __host__ cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit);
extern __host__ cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
extern __host__ cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig);
extern __host__ cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
extern __host__ cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority,
                                                             int *greatestPriority);
extern __host__ cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device,
                                                    int peerDevice);
extern __host__ cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
extern __host__ cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
extern __host__ cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId);
extern __host__ cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
extern __host__ cudaError_t cudaDriverGetVersion(int *driverVersion);
extern __host__ cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
extern __host__ cudaError_t cudaProfilerStart(void);
extern __host__ cudaError_t cudaProfilerStop(void);

/* Memory */
extern CUDA_ADVISOR_HD cudaError_t cudaMalloc(void **devPtr, size_t size);
extern CUDA_ADVISOR_HD cudaError_t cudaFree(void *devPtr);
extern __host__ cudaError_t cudaMallocManaged(void **devPtr, size_t size,
                                              unsigned int flags
                                                  CUDA_ADVISOR_DV(cudaMemAttachGlobal));
extern __host__ cudaError_t cudaMallocHost(void **ptr, size_t size);
extern __host__ cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
extern __host__ cudaError_t cudaFreeHost(void *ptr);
extern __host__ cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
                                            size_t height);
extern __host__ cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr,
                                         struct cudaExtent extent);
extern __host__ cudaError_t cudaMallocArray(cudaArray_t *array,
                                            const struct cudaChannelFormatDesc *desc,
                                            size_t width, size_t height CUDA_ADVISOR_DV(0),
                                            unsigned int flags CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaMalloc3DArray(cudaArray_t *array,
                                              const struct cudaChannelFormatDesc *desc,
                                              struct cudaExtent extent,
                                              unsigned int flags CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaFreeArray(cudaArray_t array);
extern __host__ cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream);
extern __host__ cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream);
extern __host__ cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
extern __host__ cudaError_t cudaHostUnregister(void *ptr);
extern __host__ cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost,
                                                     unsigned int flags);
extern __host__ cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost);
extern __host__ cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
extern __host__ cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                                                     const void *ptr);
extern __host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                                 struct cudaMemLocation location,
                                                 unsigned int flags,
                                                 cudaStream_t stream CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                                          enum cudaMemoryAdvise advice,
                                          struct cudaMemLocation location);
extern __host__ cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
extern __host__ cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);

/* Copies and memsets */
extern __host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                       enum cudaMemcpyKind kind);
extern CUDA_ADVISOR_HD cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                                   enum cudaMemcpyKind kind,
                                                   cudaStream_t stream CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                                         size_t spitch, size_t width, size_t height,
                                         enum cudaMemcpyKind kind);
extern CUDA_ADVISOR_HD cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                                                     size_t spitch, size_t width, size_t height,
                                                     enum cudaMemcpyKind kind,
                                                     cudaStream_t stream CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
extern CUDA_ADVISOR_HD cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
                                                     cudaStream_t stream CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src,
                                           int srcDevice, size_t count);
extern __host__ cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src,
                                                int srcDevice, size_t count,
                                                cudaStream_t stream CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                               size_t offset CUDA_ADVISOR_DV(0),
                                               enum cudaMemcpyKind kind
                                                   CUDA_ADVISOR_DV(cudaMemcpyHostToDevice));
extern __host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                                 size_t offset CUDA_ADVISOR_DV(0),
                                                 enum cudaMemcpyKind kind
                                                     CUDA_ADVISOR_DV(cudaMemcpyDeviceToHost));
extern __host__ cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src,
                                                    size_t count, size_t offset,
                                                    enum cudaMemcpyKind kind,
                                                    cudaStream_t stream CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol,
                                                      size_t count, size_t offset,
                                                      enum cudaMemcpyKind kind,
                                                      cudaStream_t stream CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset,
                                                size_t hOffset, const void *src, size_t spitch,
                                                size_t width, size_t height,
                                                enum cudaMemcpyKind kind);
extern __host__ cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
                                                  size_t wOffset, size_t hOffset, size_t width,
                                                  size_t height, enum cudaMemcpyKind kind);
extern __host__ cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                              const void *src, size_t count,
                                              enum cudaMemcpyKind kind);
extern __host__ cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src,
                                                size_t wOffset, size_t hOffset, size_t count,
                                                enum cudaMemcpyKind kind);
extern __host__ cudaError_t cudaMemset(void *devPtr, int value, size_t count);
extern CUDA_ADVISOR_HD cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                                                   cudaStream_t stream CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
                                         size_t height);
extern CUDA_ADVISOR_HD cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value,
                                                     size_t width, size_t height,
                                                     cudaStream_t stream CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value,
                                         struct cudaExtent extent);

/* Streams and events */
extern __host__ cudaError_t cudaStreamCreate(cudaStream_t *pStream);
extern CUDA_ADVISOR_HD cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
                                                             unsigned int flags);
extern __host__ cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream,
                                                         unsigned int flags, int priority);
extern CUDA_ADVISOR_HD cudaError_t cudaStreamDestroy(cudaStream_t stream);
extern __host__ cudaError_t cudaStreamSynchronize(cudaStream_t stream);
extern __host__ cudaError_t cudaStreamQuery(cudaStream_t stream);
extern CUDA_ADVISOR_HD cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                                       unsigned int flags CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaStreamAddCallback(cudaStream_t stream,
                                                  cudaStreamCallback_t callback, void *userData,
                                                  unsigned int flags);
extern __host__ cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority);
extern __host__ cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags);
extern __host__ cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr,
                                                     size_t length CUDA_ADVISOR_DV(0),
                                                     unsigned int flags
                                                         CUDA_ADVISOR_DV(cudaMemAttachSingle));
extern __host__ cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
                                               void *userData);
extern __host__ cudaError_t cudaEventCreate(cudaEvent_t *event);
extern CUDA_ADVISOR_HD cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event,
                                                            unsigned int flags);
extern CUDA_ADVISOR_HD cudaError_t cudaEventRecord(cudaEvent_t event,
                                                   cudaStream_t stream CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaEventRecordWithFlags(cudaEvent_t event,
                                                     cudaStream_t stream CUDA_ADVISOR_DV(0),
                                                     unsigned int flags CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaEventQuery(cudaEvent_t event);
extern __host__ cudaError_t cudaEventSynchronize(cudaEvent_t event);
extern CUDA_ADVISOR_HD cudaError_t cudaEventDestroy(cudaEvent_t event);
extern __host__ cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

/* Graphs */
extern __host__ cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
                                                   enum cudaStreamCaptureMode mode);
extern __host__ cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
extern __host__ cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
                                                  enum cudaStreamCaptureStatus *pCaptureStatus);
extern __host__ cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
extern __host__ cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                 unsigned long long flags CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec,
                                                          cudaGraph_t graph,
                                                          unsigned long long flags);
extern __host__ cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                                cudaGraphExecUpdateResultInfo *resultInfo);
extern __host__ cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
extern __host__ cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
extern __host__ cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
extern __host__ cudaError_t cudaGraphDestroy(cudaGraph_t graph);

/* Textures and surfaces (objects) */
extern __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                                   enum cudaChannelFormatKind f);
extern __host__ cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                                    const struct cudaResourceDesc *pResDesc,
                                                    const struct cudaTextureDesc *pTexDesc,
                                                    const struct cudaResourceViewDesc *pResViewDesc);
extern __host__ cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
extern __host__ cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                                    const struct cudaResourceDesc *pResDesc);
extern __host__ cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);

/* Execution control */
extern __host__ cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                             void **args, size_t sharedMem,
                                             cudaStream_t stream);
extern __host__ cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
                                                        dim3 blockDim, void **args,
                                                        size_t sharedMem, cudaStream_t stream);
extern CUDA_ADVISOR_HD cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                                         const void *func);
extern __host__ cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
                                                 int value);
extern __host__ cudaError_t cudaFuncSetCacheConfig(const void *func,
                                                   enum cudaFuncCache cacheConfig);
extern __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize);

#if defined(__CUDA__)
/* What Clang's <<<>>> calls: __cudaPushCallConfiguration for CUDA 9.2 and
 * newer, cudaConfigureCall before (which Clang picks depends on the CUDA
 * version its driver found, so both are declared). */
extern unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                            size_t sharedMem CUDA_ADVISOR_DV(0),
                                            void *stream CUDA_ADVISOR_DV(0));
extern __host__ cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim,
                                              size_t sharedMem CUDA_ADVISOR_DV(0),
                                              cudaStream_t stream CUDA_ADVISOR_DV(0));
#endif

CUDA_ADVISOR_END_C

/* ----- C++ API (cuda_runtime.h) -------------------------------------------- */
#ifdef __cplusplus
/* The pre-12.0 forms, which CUDA 13 still offers as inline overloads. */
static __inline__ __host__ cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec,
                                                            cudaGraph_t graph,
                                                            cudaGraphNode_t *pErrorNode,
                                                            char *pLogBuffer, size_t bufferSize) {
  return ::cudaGraphInstantiate(pGraphExec, graph, 0);
}
static __inline__ __host__ cudaError_t
cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                    cudaGraphNode_t *hErrorNode_out,
                    enum cudaGraphExecUpdateResult *updateResult_out) {
  cudaGraphExecUpdateResultInfo Info;
  cudaError_t E = ::cudaGraphExecUpdate(hGraphExec, hGraph, &Info);
  *hErrorNode_out = Info.errorNode;
  *updateResult_out = Info.result;
  return E;
}
template <class T> __host__ cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}
template <class T>
__host__ cudaError_t cudaMallocManaged(T **devPtr, size_t size,
                                       unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
static __inline__ __host__ cudaError_t cudaMallocHost(void **ptr, size_t size,
                                                      unsigned int flags) {
  return ::cudaHostAlloc(ptr, size, flags);
}
template <class T>
__host__ cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0) {
  return ::cudaMallocHost((void **)(void *)ptr, size, flags);
}
template <class T> __host__ cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T>
__host__ cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height) {
  return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}
template <class T>
__host__ cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaStream_t stream) {
  return ::cudaMallocAsync((void **)(void *)ptr, size, stream);
}
template <class T>
__host__ cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                        size_t offset = 0,
                                        enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
__host__ cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                                             size_t offset = 0,
                                             enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                             cudaStream_t stream = 0) {
  return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <class T>
__host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                                          size_t offset = 0,
                                          enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T>
__host__ cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count,
                                               size_t offset = 0,
                                               enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                               cudaStream_t stream = 0) {
  return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}
template <class T> __host__ cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
  return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T> __host__ cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
  return ::cudaGetSymbolSize(size, (const void *)&symbol);
}
static __inline__ __host__ cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags) {
  return ::cudaEventCreateWithFlags(event, flags);
}
template <class T>
__host__ cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, T *devPtr, size_t length = 0,
                                              unsigned int flags = cudaMemAttachSingle) {
  return ::cudaStreamAttachMemAsync(stream, (void *)devPtr, length, flags);
}
template <class T>
__host__ cudaError_t cudaLaunchKernel(const T *func, dim3 gridDim, dim3 blockDim, void **args,
                                      size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
template <class T>
__host__ cudaError_t cudaLaunchCooperativeKernel(const T *func, dim3 gridDim, dim3 blockDim,
                                                 void **args, size_t sharedMem = 0,
                                                 cudaStream_t stream = 0) {
  return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim, args, sharedMem,
                                       stream);
}
template <class T>
__host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry) {
  return ::cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T>
__host__ cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value) {
  return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T>
__host__ cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig) {
  return ::cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}
template <class T>
__host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, (const void *)func,
                                                         blockSize, dynamicSMemSize);
}
template <class T>
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                        size_t dynamicSMemSize = 0,
                                                        int blockSizeLimit = 0);
template <class T> __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void) {
  return ::cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
}
#endif /* __cplusplus */

static __inline__ __host__ struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p,
                                                                     size_t xsz, size_t ysz) {
  struct cudaPitchedPtr s = {d, p, xsz, ysz};
  return s;
}
static __inline__ __host__ struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  struct cudaPos p = {x, y, z};
  return p;
}
static __inline__ __host__ struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
  struct cudaExtent e = {w, h, d};
  return e;
}

#undef CUDA_ADVISOR_HD
#endif /* CUDA_ADVISOR_MINIMAL_RUNTIME_H */
