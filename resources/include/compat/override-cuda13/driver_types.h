/* cuda-advisor compat: driver_types.h of CUDA 13 and later, with the
 * cudaDeviceProp fields CUDA 13.0 removed added back (clockRate,
 * deviceOverlap, memoryClockRate...), so that code written for older
 * toolkits can still be analyzed.
 *
 * cuda-advisor puts this directory on the include path (-isystem, before the
 * toolkit's include directory) only for a CUDA 13 or later installation. The
 * toolkit's struct is renamed while it is included, and cudaDeviceProp
 * becomes a struct derived from it: every real field is still there, and
 * the runtime API, declared after this, takes the derived struct. Each added
 * field is marked for the compat-removed-api check. C code gets the toolkit's
 * struct unchanged.
 */
#if defined(__cplusplus) && !defined(__DRIVER_TYPES_H__) && !defined(CUDA_ADVISOR_DRIVER_TYPES_H)
#define CUDA_ADVISOR_DRIVER_TYPES_H

#define cudaDeviceProp __cuda_advisor_toolkit_cudaDeviceProp
#include_next <driver_types.h>
#undef cudaDeviceProp

#ifndef CUDA_ADVISOR_REMOVED
#define CUDA_ADVISOR_REMOVED(Api, Version, Replacement)                                    \
  __attribute__((annotate("cuda-advisor-removed|" Api "|" Version "|" Replacement)))
#endif
#define CUDA_ADVISOR_FIELD(Name, Attr)                                                      \
  int Name CUDA_ADVISOR_REMOVED("cudaDeviceProp::" #Name, "13.0",                           \
                                "use cudaDeviceGetAttribute(&value, " Attr ", device)");

struct __device_builtin__ cudaDeviceProp : __cuda_advisor_toolkit_cudaDeviceProp {
  CUDA_ADVISOR_FIELD(clockRate, "cudaDevAttrClockRate")
  CUDA_ADVISOR_FIELD(deviceOverlap, "cudaDevAttrGpuOverlap")
  CUDA_ADVISOR_FIELD(kernelExecTimeoutEnabled, "cudaDevAttrKernelExecTimeout")
  CUDA_ADVISOR_FIELD(computeMode, "cudaDevAttrComputeMode")
  CUDA_ADVISOR_FIELD(maxTexture1DLinear, "cudaDevAttrMaxTexture1DLinearWidth")
  CUDA_ADVISOR_FIELD(memoryClockRate, "cudaDevAttrMemoryClockRate")
  CUDA_ADVISOR_FIELD(singleToDoublePrecisionPerfRatio,
                     "cudaDevAttrSingleToDoublePrecisionPerfRatio")
  int cooperativeMultiDeviceLaunch CUDA_ADVISOR_REMOVED(
      "cudaDeviceProp::cooperativeMultiDeviceLaunch", "13.0",
      "multi-device cooperative launches are gone: launch cooperatively per device");
};
#undef CUDA_ADVISOR_FIELD

#else
#include_next <driver_types.h>
#endif
