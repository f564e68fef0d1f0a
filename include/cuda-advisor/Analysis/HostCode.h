//===- HostCode.h - What host-side calls do to GPU ordering ----*- C++ -*-===//
//
// The sync checks need to know, for each call in host code, whether it
// queues work on the GPU (a launch, an async copy, a cuBLAS call), waits for
// the GPU (a synchronize, a blocking copy), reads a clock (timing), or talks
// to other processes (MPI). Classification goes by the declaration a call
// resolves to: CUDA runtime functions by name (CudaApi.h), libraries by their
// C prefixes and namespaces, clocks by the standard functions.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_ANALYSIS_HOSTCODE_H
#define CUDA_ADVISOR_ANALYSIS_HOSTCODE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace clang {
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace cuda_advisor::analysis {

enum class HostCallKind {
  Other,
  Launch,       ///< A kernel launch (<<<>>> or cudaLaunchKernel*), cudaGraphLaunch.
  AsyncWork,    ///< cudaMemcpy*Async, cudaMemset*Async, cudaMemPrefetchAsync...
  LibraryWork,  ///< cuBLAS, cuFFT, cuSPARSE, cuSOLVER, cuRAND, cuDNN, NCCL, cuTENSOR work.
  BlockingCopy, ///< cudaMemcpy, cudaMemcpy2D/3D, ToSymbol/FromSymbol... (not Async).
  Sync,         ///< cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize.
  Timing,       ///< Clocks, cudaEventElapsedTime, timer helpers.
  HostComm,     ///< MPI, SHMEM, thread barriers and notifications: other processes or
                ///< threads may read what the GPU wrote.
};

HostCallKind classifyHostCall(const clang::CallExpr *Call);

/// Work that runs on the GPU after the call returns.
inline bool queuesGpuWork(HostCallKind K) {
  return K == HostCallKind::Launch || K == HostCallKind::AsyncWork ||
         K == HostCallKind::LibraryWork;
}

/// "4 MiB", "12 KiB", "100 bytes".
std::string formatBytes(int64_t Bytes);

/// The function a call runs, as a message names it: "'upload'", "the lambda
/// 'step'" (the variable holding it), "a lambda", "'Solver::operator()'".
std::string describeCallee(const clang::CallExpr *Call);

} // namespace cuda_advisor::analysis

#endif
