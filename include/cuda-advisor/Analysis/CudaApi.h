//===- CudaApi.h - What a call to the CUDA runtime does --------*- C++ -*-===//
#ifndef CUDA_ADVISOR_ANALYSIS_CUDAAPI_H
#define CUDA_ADVISOR_ANALYSIS_CUDAAPI_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang {
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace cuda_advisor::analysis {

enum class ApiKind {
  Copy,        ///< cudaMemcpy, cudaMemcpy2D/3D, cudaMemcpyTo/FromSymbol, cudaMemcpyPeer...
  CopyAsync,   ///< The *Async variants.
  Memset,      ///< cudaMemset*, also Async.
  Alloc,       ///< cudaMalloc, cudaMallocManaged, cudaMallocPitch, cudaMalloc3D, cudaMallocArray
  Free,        ///< cudaFree, cudaFreeArray
  HostAlloc,   ///< cudaMallocHost, cudaHostAlloc
  HostFree,    ///< cudaFreeHost
  HostRegister,///< cudaHostRegister
  DeviceSync,  ///< cudaDeviceSynchronize, cudaThreadSynchronize
  StreamSync,  ///< cudaStreamSynchronize
  EventSync,   ///< cudaEventSynchronize
  Launch,      ///< cudaLaunchKernel, cudaLaunchCooperativeKernel, cudaLaunchKernelEx
};

struct ApiInfo {
  ApiKind Kind;
  std::string Name;  ///< Canonical name: "cudaMemcpyAsync" (no _ptds/_v2 suffix).
  bool Async = false;
};

/// The canonical name of a CUDA runtime function: "cudaMemcpy_ptds" ->
/// "cudaMemcpy", "cudaGetDeviceProperties_v2" -> "cudaGetDeviceProperties".
std::string canonicalApiName(llvm::StringRef Name);

/// Classifies a direct call to a CUDA runtime API function (C API and the
/// C++ template overloads of cuda_runtime.h). None for anything else.
std::optional<ApiInfo> classifyApiCall(const clang::CallExpr *Call);
std::optional<ApiInfo> classifyApi(llvm::StringRef CanonicalName);

/// True for the APIs transfer-in-loop reports: copies, memsets, allocations
/// and frees (device and pinned host).
bool isTransferOrAllocation(ApiKind K);
bool isSynchronization(ApiKind K);

/// The argument index of the byte count of a copy/memset/alloc call, if any.
std::optional<unsigned> byteCountArgument(llvm::StringRef CanonicalName);

} // namespace cuda_advisor::analysis

#endif
