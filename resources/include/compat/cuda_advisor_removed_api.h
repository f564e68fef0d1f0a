/* cuda-advisor compat: the CUDA runtime API that newer toolkits removed, so
 * that code written for older ones can still be analyzed.
 *
 * C declarations, included after cuda_runtime_api.h (by the wrappers in
 * override/ and by cuda_advisor_compat.h). Each group is declared only when
 * the toolkit's CUDART_VERSION says it is gone, so nothing clashes with a
 * toolkit that still has it. Every declaration carries
 * CUDA_ADVISOR_REMOVED(api, version, replacement): the compat-removed-api
 * check reports each use with that text. Nothing here is ever linked.
 */
#ifndef CUDA_ADVISOR_REMOVED_API_H
#define CUDA_ADVISOR_REMOVED_API_H

#if defined(CUDART_VERSION)

#ifndef CUDA_ADVISOR_REMOVED
#define CUDA_ADVISOR_REMOVED(Api, Version, Replacement)                                    \
  __attribute__((annotate("cuda-advisor-removed|" Api "|" Version "|" Replacement)))
#endif

#ifdef __cplusplus
#define CUDA_ADVISOR_DEFAULT(V) = V
extern "C" {
#else
#define CUDA_ADVISOR_DEFAULT(V)
#endif

/* Thread management: deprecated since CUDA 4.0, removed in CUDA 13.0. */
#if CUDART_VERSION >= 13000
extern __host__ cudaError_t cudaThreadExit(void)
    CUDA_ADVISOR_REMOVED("cudaThreadExit", "13.0", "use cudaDeviceReset");
extern __host__ cudaError_t cudaThreadSynchronize(void)
    CUDA_ADVISOR_REMOVED("cudaThreadSynchronize", "13.0", "use cudaDeviceSynchronize");
extern __host__ cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value)
    CUDA_ADVISOR_REMOVED("cudaThreadSetLimit", "13.0", "use cudaDeviceSetLimit");
extern __host__ cudaError_t cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit)
    CUDA_ADVISOR_REMOVED("cudaThreadGetLimit", "13.0", "use cudaDeviceGetLimit");
extern __host__ cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig)
    CUDA_ADVISOR_REMOVED("cudaThreadGetCacheConfig", "13.0", "use cudaDeviceGetCacheConfig");
extern __host__ cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig)
    CUDA_ADVISOR_REMOVED("cudaThreadSetCacheConfig", "13.0", "use cudaDeviceSetCacheConfig");
#endif

/* Texture and surface references: removed in CUDA 12.0. */
#if CUDART_VERSION >= 12000
struct CUDA_ADVISOR_REMOVED("textureReference", "12.0", "use a cudaTextureObject_t")
    textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int __cudaReserved[14];
};

struct CUDA_ADVISOR_REMOVED("surfaceReference", "12.0", "use a cudaSurfaceObject_t")
    surfaceReference {
  struct cudaChannelFormatDesc channelDesc;
};

extern __host__ cudaError_t cudaBindTexture(size_t *offset,
                                            const struct textureReference *texref,
                                            const void *devPtr,
                                            const struct cudaChannelFormatDesc *desc,
                                            size_t size CUDA_ADVISOR_DEFAULT(UINT_MAX))
    CUDA_ADVISOR_REMOVED("cudaBindTexture", "12.0",
                         "create a texture object with cudaCreateTextureObject");
extern __host__ cudaError_t cudaBindTexture2D(size_t *offset,
                                              const struct textureReference *texref,
                                              const void *devPtr,
                                              const struct cudaChannelFormatDesc *desc,
                                              size_t width, size_t height, size_t pitch)
    CUDA_ADVISOR_REMOVED("cudaBindTexture2D", "12.0",
                         "create a texture object with cudaCreateTextureObject");
extern __host__ cudaError_t cudaBindTextureToArray(const struct textureReference *texref,
                                                   cudaArray_const_t array,
                                                   const struct cudaChannelFormatDesc *desc)
    CUDA_ADVISOR_REMOVED("cudaBindTextureToArray", "12.0",
                         "create a texture object with cudaCreateTextureObject");
extern __host__ cudaError_t
cudaBindTextureToMipmappedArray(const struct textureReference *texref,
                                cudaMipmappedArray_const_t mipmappedArray,
                                const struct cudaChannelFormatDesc *desc)
    CUDA_ADVISOR_REMOVED("cudaBindTextureToMipmappedArray", "12.0",
                         "create a texture object with cudaCreateTextureObject");
extern __host__ cudaError_t cudaUnbindTexture(const struct textureReference *texref)
    CUDA_ADVISOR_REMOVED("cudaUnbindTexture", "12.0", "use cudaDestroyTextureObject");
extern __host__ cudaError_t cudaGetTextureAlignmentOffset(size_t *offset,
                                                          const struct textureReference *texref)
    CUDA_ADVISOR_REMOVED("cudaGetTextureAlignmentOffset", "12.0", "use a texture object");
extern __host__ cudaError_t cudaGetTextureReference(const struct textureReference **texref,
                                                    const void *symbol)
    CUDA_ADVISOR_REMOVED("cudaGetTextureReference", "12.0", "use a texture object");
extern __host__ cudaError_t cudaBindSurfaceToArray(const struct surfaceReference *surfref,
                                                   cudaArray_const_t array,
                                                   const struct cudaChannelFormatDesc *desc)
    CUDA_ADVISOR_REMOVED("cudaBindSurfaceToArray", "12.0",
                         "create a surface object with cudaCreateSurfaceObject");
extern __host__ cudaError_t cudaGetSurfaceReference(const struct surfaceReference **surfref,
                                                    const void *symbol)
    CUDA_ADVISOR_REMOVED("cudaGetSurfaceReference", "12.0", "use a surface object");
#endif

#ifdef __cplusplus
} /* extern "C" */

/* Signatures that changed: the old ones, as C++ overloads of the new. A call
 * that fits the new signature never picks them. (The old forms of
 * cudaGraphInstantiate and cudaGraphExecUpdate, changed in 12.0, are still
 * in CUDA 13's cuda_runtime.h as inline overloads: nothing to add.) */
#if CUDART_VERSION >= 13000
extern __host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                                 cudaStream_t stream = 0)
    CUDA_ADVISOR_REMOVED("cudaMemPrefetchAsync(ptr, count, device, stream)", "13.0",
                         "pass a cudaMemLocation and flags: cudaMemPrefetchAsync(ptr, count, "
                         "{cudaMemLocationTypeDevice, device}, 0, stream)");
extern __host__ cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                                          enum cudaMemoryAdvise advice, int device)
    CUDA_ADVISOR_REMOVED("cudaMemAdvise(ptr, count, advice, device)", "13.0",
                         "pass a cudaMemLocation: cudaMemAdvise(ptr, count, advice, "
                         "{cudaMemLocationTypeDevice, device})");
#endif
#endif /* __cplusplus */
#undef CUDA_ADVISOR_DEFAULT

#endif /* CUDART_VERSION */
#endif /* CUDA_ADVISOR_REMOVED_API_H */
