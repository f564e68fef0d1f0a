/* cuda-advisor compat header, force-included (-include) into every CUDA file
 * after Clang's CUDA wrapper, before the user's code.
 *
 * 1. The runtime API that newer toolkits removed (cuda_advisor_removed_*.h;
 *    normally already included through override/cuda_runtime.h).
 * 2. What nvcc accepts and Clang's CUDA wrapper leaves out, so that such
 *    code parses: __managed__ variables, host overloads of min/max, and the
 *    surface object functions of surface_indirect_functions.h (whose bodies
 *    do not compile with Clang's texture intrinsics). Declarations only.
 */
#ifndef CUDA_ADVISOR_COMPAT_H
#define CUDA_ADVISOR_COMPAT_H

#if defined(__cplusplus) && defined(__CUDA__) && defined(CUDART_VERSION)

#include "cuda_advisor_removed_api.h"
#include "cuda_advisor_removed_templates.h"
#include "cuda_advisor_cache_hints.h"

/* nvcc's math_functions.h includes <math.h> for the host side, which puts
 * isfinite, isnan and friends in the global namespace; Clang's wrapper
 * defines that header's guard and keeps only the device overloads, so host
 * code calling ::isfinite(float) without including <math.h> (llm.c's
 * dev/cuda/common.h) no longer parses. */
#include <math.h>

/* The same header (crt/common_functions.h, which nvcc's cuda_runtime.h
 * reaches) includes <string.h>, <time.h>, <stdio.h>, <stdlib.h> and
 * <assert.h>: host code calling time(), clock(), memset() or assert()
 * without including them compiles with nvcc. Clang's wrapper includes only
 * some of them, and such code no longer parses. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_advisor_removed_thrust.h"

/* nvcc defines __CUDACC__ as 1; Clang's wrapper leaves it empty, and code
 * testing `#if __CUDACC__` (rather than #ifdef) no longer preprocesses. */
#undef __CUDACC__
#define __CUDACC__ 1

/* Clang honours __managed__ only for HIP; for CUDA it drops it, and device
 * code using the variable no longer parses. A managed variable is a device
 * variable that host code reads too, which Clang accepts for __device__. */
#undef __managed__
#define __managed__ __device__

/* nvcc's math_functions.hpp declares min/max for integer and floating types
 * as __host__ __device__; Clang's wrapper keeps only the device side. The
 * names are parenthesized so that a user's min/max macro cannot break them. */
#define CUDA_ADVISOR_MINMAX(R, A, B)                                                        \
  __host__ R(min)(const A a, const B b);                                                    \
  __host__ R(max)(const A a, const B b);
CUDA_ADVISOR_MINMAX(int, int, int)
CUDA_ADVISOR_MINMAX(unsigned int, unsigned int, unsigned int)
CUDA_ADVISOR_MINMAX(unsigned int, int, unsigned int)
CUDA_ADVISOR_MINMAX(unsigned int, unsigned int, int)
CUDA_ADVISOR_MINMAX(long int, long int, long int)
CUDA_ADVISOR_MINMAX(unsigned long int, unsigned long int, unsigned long int)
CUDA_ADVISOR_MINMAX(unsigned long int, long int, unsigned long int)
CUDA_ADVISOR_MINMAX(unsigned long int, unsigned long int, long int)
CUDA_ADVISOR_MINMAX(long long int, long long int, long long int)
CUDA_ADVISOR_MINMAX(unsigned long long int, unsigned long long int, unsigned long long int)
CUDA_ADVISOR_MINMAX(unsigned long long int, long long int, unsigned long long int)
CUDA_ADVISOR_MINMAX(unsigned long long int, unsigned long long int, long long int)
CUDA_ADVISOR_MINMAX(float, float, float)
CUDA_ADVISOR_MINMAX(double, double, double)
CUDA_ADVISOR_MINMAX(double, float, double)
CUDA_ADVISOR_MINMAX(double, double, float)
#undef CUDA_ADVISOR_MINMAX

/* Surface objects (surface_indirect_functions.h). */
#ifndef __SURFACE_INDIRECT_FUNCTIONS_H__
#define __SURFACE_INDIRECT_FUNCTIONS_H__
#define CUDA_ADVISOR_ISURF(Read, Write, ...)                                               \
  template <class T>                                                                       \
  __device__ void Read(T *ptr, cudaSurfaceObject_t obj, __VA_ARGS__,                       \
                       cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);               \
  template <class T>                                                                       \
  __device__ T Read(cudaSurfaceObject_t obj, __VA_ARGS__,                                  \
                    cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);                  \
  template <class T>                                                                       \
  __device__ void Write(T val, cudaSurfaceObject_t obj, __VA_ARGS__,                       \
                        cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
CUDA_ADVISOR_ISURF(surf1Dread, surf1Dwrite, int x)
CUDA_ADVISOR_ISURF(surf2Dread, surf2Dwrite, int x, int y)
CUDA_ADVISOR_ISURF(surf3Dread, surf3Dwrite, int x, int y, int z)
CUDA_ADVISOR_ISURF(surf1DLayeredread, surf1DLayeredwrite, int x, int layer)
CUDA_ADVISOR_ISURF(surf2DLayeredread, surf2DLayeredwrite, int x, int y, int layer)
CUDA_ADVISOR_ISURF(surfCubemapread, surfCubemapwrite, int x, int y, int face)
CUDA_ADVISOR_ISURF(surfCubemapLayeredread, surfCubemapLayeredwrite, int x, int y, int layerface)
#undef CUDA_ADVISOR_ISURF
#endif

#endif
#endif /* CUDA_ADVISOR_COMPAT_H */
