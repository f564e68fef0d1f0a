//===- CudaErrors.cpp - Names of cudaError_t codes ------------------------===//
//
// Part of the CUPTI collector. cudaGetErrorName lives in the CUDA runtime,
// which a program usually links statically (nvcc's default) so the collector
// cannot call it; the names are compiled in from the toolkit's header instead.
//
//===----------------------------------------------------------------------===//
#include "CudaErrors.h"

#include <driver_types.h>

namespace cuda_advisor::collector {

const char *cudaErrorName(int Code) {
  switch (Code) {
#define X(Name)                                                                                    \
  case Name:                                                                                       \
    return #Name;
#include "CudaErrors.def"
#undef X
  }
  return "cudaErrorUnknownCode";
}

} // namespace cuda_advisor::collector
