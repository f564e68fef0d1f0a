//===- CudaErrors.h - Names of cudaError_t codes ---------------*- C++ -*-===//
#ifndef CUDA_ADVISOR_COLLECTOR_CUDAERRORS_H
#define CUDA_ADVISOR_COLLECTOR_CUDAERRORS_H

namespace cuda_advisor::collector {

/// "cudaErrorIllegalAddress" for 700; "cudaErrorUnknownCode" for a code the
/// toolkit the collector was built with does not know.
const char *cudaErrorName(int Code);

} // namespace cuda_advisor::collector

#endif
