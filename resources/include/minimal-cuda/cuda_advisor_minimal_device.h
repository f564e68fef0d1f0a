/* cuda-advisor bundled minimal CUDA declarations: the device side, for CUDA
 * files only. Clang's own CUDA headers give the built-in variables, the math
 * library, warp intrinsics and __ldg (as its CUDA wrapper includes them); the
 * rest (atomics, device printf/malloc/assert) is declared here. Included by
 * cuda_advisor_minimal.h; see there. */
#ifndef CUDA_ADVISOR_MINIMAL_DEVICE_H
#define CUDA_ADVISOR_MINIMAL_DEVICE_H

/* As Clang's wrapper does: declare the device functions for the host side
 * too (host code may call __host__ __device__ functions that use them). */
#pragma push_macro("__CUDA_ARCH__")
#ifndef __CUDA_ARCH__
#define __CUDA_ARCH__ 9999
#endif
#include <__clang_cuda_builtin_vars.h>
#define __DEVICE_LAUNCH_PARAMETERS_H__
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>

/* Atomics (device_atomic_functions.h, sm_20/sm_60_atomic_functions.h). */
#define CUDA_ADVISOR_ATOMIC(Name, T) __device__ T Name(T *address, T val);
#define CUDA_ADVISOR_ATOMICS(Name)                                                          \
  CUDA_ADVISOR_ATOMIC(Name, int)                                                            \
  CUDA_ADVISOR_ATOMIC(Name, unsigned int)                                                   \
  CUDA_ADVISOR_ATOMIC(Name, unsigned long long int)
CUDA_ADVISOR_ATOMICS(atomicAdd)
CUDA_ADVISOR_ATOMIC(atomicAdd, float)
CUDA_ADVISOR_ATOMIC(atomicAdd, double)
CUDA_ADVISOR_ATOMIC(atomicSub, int)
CUDA_ADVISOR_ATOMIC(atomicSub, unsigned int)
CUDA_ADVISOR_ATOMICS(atomicExch)
CUDA_ADVISOR_ATOMIC(atomicExch, float)
CUDA_ADVISOR_ATOMICS(atomicMin)
CUDA_ADVISOR_ATOMIC(atomicMin, long long int)
CUDA_ADVISOR_ATOMICS(atomicMax)
CUDA_ADVISOR_ATOMIC(atomicMax, long long int)
CUDA_ADVISOR_ATOMIC(atomicInc, unsigned int)
CUDA_ADVISOR_ATOMIC(atomicDec, unsigned int)
CUDA_ADVISOR_ATOMICS(atomicAnd)
CUDA_ADVISOR_ATOMICS(atomicOr)
CUDA_ADVISOR_ATOMICS(atomicXor)
#define CUDA_ADVISOR_CAS(T) __device__ T atomicCAS(T *address, T compare, T val);
CUDA_ADVISOR_CAS(int)
CUDA_ADVISOR_CAS(unsigned int)
CUDA_ADVISOR_CAS(unsigned long long int)
CUDA_ADVISOR_CAS(unsigned short int)
#undef CUDA_ADVISOR_CAS
#undef CUDA_ADVISOR_ATOMICS
#undef CUDA_ADVISOR_ATOMIC
__device__ void __syncthreads(void);

#pragma pop_macro("__CUDA_ARCH__")

/* Device-side system calls, as Clang's wrapper declares them. */
extern "C" {
__device__ int vprintf(const char *, const char *);
__device__ void free(void *) __attribute((nothrow));
__device__ void *malloc(size_t) __attribute((nothrow)) __attribute__((malloc));
__device__ void __assertfail(const char *__message, const char *__file, unsigned __line,
                             const char *__function, size_t __charSize);
__device__ static inline void __assert_fail(const char *__message, const char *__file,
                                            unsigned __line, const char *__function) {
  __assertfail(__message, __file, __line, __function, sizeof(char));
}
__device__ int printf(const char *, ...);
}
namespace std {
__device__ static inline void free(void *__ptr) { ::free(__ptr); }
__device__ static inline void *malloc(size_t __size) { return ::malloc(__size); }
} // namespace std

/* The built-in variables convert to dim3 and uint3. */
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return {x, y, z}; }

/* Address-space queries and conversions (sm_20_intrinsics.h), which
 * Clang's intrinsics header uses. */
__device__ unsigned int __isGlobal(const void *ptr);
__device__ unsigned int __isShared(const void *ptr);
__device__ unsigned int __isConstant(const void *ptr);
__device__ unsigned int __isLocal(const void *ptr);
__device__ size_t __cvta_generic_to_global(const void *ptr);
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ size_t __cvta_generic_to_constant(const void *ptr);
__device__ size_t __cvta_generic_to_local(const void *ptr);
__device__ void *__cvta_global_to_generic(size_t rawbits);
__device__ void *__cvta_shared_to_generic(size_t rawbits);

/* Texture objects (texture_indirect_functions.h): declarations only. */
#define CUDA_ADVISOR_TEXOBJ(Name, ...)                                                      \
  template <class T> __device__ T Name(cudaTextureObject_t texObject, __VA_ARGS__);         \
  template <class T> __device__ void Name(T *ptr, cudaTextureObject_t texObject, __VA_ARGS__);
CUDA_ADVISOR_TEXOBJ(tex1Dfetch, int x)
CUDA_ADVISOR_TEXOBJ(tex1D, float x)
CUDA_ADVISOR_TEXOBJ(tex2D, float x, float y)
CUDA_ADVISOR_TEXOBJ(tex3D, float x, float y, float z)
CUDA_ADVISOR_TEXOBJ(tex1DLayered, float x, int layer)
CUDA_ADVISOR_TEXOBJ(tex2DLayered, float x, float y, int layer)
CUDA_ADVISOR_TEXOBJ(texCubemap, float x, float y, float z)
CUDA_ADVISOR_TEXOBJ(texCubemapLayered, float x, float y, float z, int layer)
CUDA_ADVISOR_TEXOBJ(tex2Dgather, float x, float y, int comp = 0)
CUDA_ADVISOR_TEXOBJ(tex1DLod, float x, float level)
CUDA_ADVISOR_TEXOBJ(tex2DLod, float x, float y, float level)
CUDA_ADVISOR_TEXOBJ(tex3DLod, float x, float y, float z, float level)
CUDA_ADVISOR_TEXOBJ(tex1DLayeredLod, float x, int layer, float level)
CUDA_ADVISOR_TEXOBJ(tex2DLayeredLod, float x, float y, int layer, float level)
CUDA_ADVISOR_TEXOBJ(texCubemapLod, float x, float y, float z, float level)
CUDA_ADVISOR_TEXOBJ(tex1DGrad, float x, float dPdx, float dPdy)
CUDA_ADVISOR_TEXOBJ(tex2DGrad, float x, float y, float2 dPdx, float2 dPdy)
CUDA_ADVISOR_TEXOBJ(tex3DGrad, float x, float y, float z, float4 dPdx, float4 dPdy)
#undef CUDA_ADVISOR_TEXOBJ

#include <__clang_cuda_cmath.h>
#include <__clang_cuda_intrinsics.h>
#include <__clang_cuda_complex_builtins.h>

#endif /* CUDA_ADVISOR_MINIMAL_DEVICE_H */
