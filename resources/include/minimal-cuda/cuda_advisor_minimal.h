/* cuda-advisor's bundled minimal CUDA declarations.
 *
 * Used only when no CUDA installation is found (or with --cuda-path=bundled):
 * the parse runs with -nocudainc, this header is force-included, and the
 * directory holding it is on the include path, so that #include
 * <cuda_runtime.h>, <cuda.h>, <device_launch_parameters.h>... find the
 * headers next to it, which all include this one.
 *
 * Written for cuda-advisor (declarations only, nothing is ever compiled to
 * code): the CUDA attribute macros, vector types and dim3, the built-in index
 * variables (Clang's __clang_cuda_builtin_vars.h), the common runtime API
 * (memory, copies, streams, events, devices, launches, errors, graphs), the
 * common driver API (CUresult, cuInit, cuMemAlloc, cuLaunchKernel...), and on the
 * device side Clang's own CUDA math and intrinsics headers, __syncthreads,
 * atomics, warp shuffles and __ldg. Names, signatures and enumerator values
 * follow the CUDA 13.0 runtime API, so that the checks see exactly what they
 * would see with a real toolkit. The APIs CUDA removed come from ../compat/,
 * marked for the compat-removed-api check.
 */
#ifndef CUDA_ADVISOR_MINIMAL_H
#define CUDA_ADVISOR_MINIMAL_H

#define __CUDA_ADVISOR_MINIMAL_CUDA__ 1
#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif
#define __CUDART_API_VERSION CUDART_VERSION

/* ----- Attribute macros (crt/host_defines.h) ----------------------------- */
#if defined(__CUDA__)
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((device)) /* see ../compat/cuda_advisor_compat.h */
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __grid_constant__ __attribute__((grid_constant))
#define __device_builtin_texture_type__ __attribute__((device_builtin_texture_type))
#define __device_builtin_surface_type__ __attribute__((device_builtin_surface_type))
#else
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#define __grid_constant__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#endif
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(a) __align__(a)
#define __device_builtin__
#define __cudart_builtin__
#define __inline_hint__
#define CUDARTAPI
#define CUDAAPI
#define CUDART_CB
#define CUDA_CB
#define __CUDA_ALIGN__(n) __align__(n)
#ifdef __cplusplus
#define CUDA_ADVISOR_DV(v) = v
#define CUDA_ADVISOR_EXTERN_C extern "C"
#define CUDA_ADVISOR_BEGIN_C extern "C" {
#define CUDA_ADVISOR_END_C }
#else
#define CUDA_ADVISOR_DV(v)
#define CUDA_ADVISOR_EXTERN_C extern
#define CUDA_ADVISOR_BEGIN_C
#define CUDA_ADVISOR_END_C
#endif

/* ----- What Clang's CUDA wrapper includes first --------------------------- */
#if defined(__CUDA__) && defined(__cplusplus)
#include <__clang_cuda_math_forward_declares.h>
#include <cmath>
#include <cstdlib>
#endif
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

/* ----- The include guards of the toolkit's headers ------------------------
 * Every header of this directory declares everything, as nvcc's implicit
 * cuda_runtime.h does for a .cu file. Code tests these guards to find out
 * what was included: NVIDIA's samples' helper_cuda.h defines checkCudaErrors
 * only under __DRIVER_TYPES_H__ and findCudaDevice under __CUDA_RUNTIME_H__. */
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#define __CUDA_PROFILER_API_H__
#define __SURFACE_TYPES_H__
#define __TEXTURE_TYPES_H__
#define __CHANNEL_DESCRIPTOR_H__
#define __cuda_cuda_h__

#include "cuda_advisor_minimal_types.h"
#include "cuda_advisor_minimal_runtime.h"
#include "cuda_advisor_minimal_driver.h"
#if defined(__CUDA__) && defined(__cplusplus)
#include "cuda_advisor_minimal_device.h"
#define __CUDACC__ 1
#endif

/* The runtime API that CUDA 12 and 13 removed (legacy code), marked for
 * the compat-removed-api check, and what nvcc offers that Clang does not. */
#include "../compat/cuda_advisor_removed_api.h"
#if defined(__CUDA__) && defined(__cplusplus)
#include "../compat/cuda_advisor_removed_templates.h"
#include "../compat/cuda_advisor_compat.h"
#endif

#endif /* CUDA_ADVISOR_MINIMAL_H */
