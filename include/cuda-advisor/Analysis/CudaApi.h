//===- CudaApi.h - What a call to the CUDA runtime does --------*- C++ -*-===//
#ifndef CUDA_ADVISOR_ANALYSIS_CUDAAPI_H
#define CUDA_ADVISOR_ANALYSIS_CUDAAPI_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
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

/// A call that only reads or names the last error (cudaGetLastError,
/// cudaPeekAtLastError, cudaGetErrorString, cudaGetErrorName).
bool isErrorQuery(const clang::CallExpr *Call);
std::optional<ApiInfo> classifyApi(llvm::StringRef CanonicalName);

/// True for the APIs transfer-in-loop reports: copies, memsets, allocations
/// and frees (device and pinned host).
bool isTransferOrAllocation(ApiKind K);

/// The argument index of the byte count of a copy/memset/alloc call, if any.
std::optional<unsigned> byteCountArgument(llvm::StringRef CanonicalName);

/// Call's argument at I (byteCountArgument, a CopyOperands index), if it has
/// one there.
const clang::Expr *argAt(const clang::CallExpr *Call, std::optional<unsigned> I);

/// cudaMemcpyKind, with the runtime's values.
enum class CopyKind { HostToHost = 0, HostToDevice = 1, DeviceToHost = 2, DeviceToDevice = 3,
                      Default = 4 };
/// "HostToDevice", ...
llvm::StringRef copyKindName(CopyKind K);

/// Where the operands of a copy (or memset) API call are, as argument indices.
struct CopyOperands {
  std::optional<unsigned> Dst, Src; ///< Pointer operands (not arrays or symbols).
  std::optional<unsigned> Kind;     ///< The cudaMemcpyKind argument.
  std::optional<unsigned> Stream;   ///< The stream argument (*Async only).
  std::optional<unsigned> Width, Height; ///< 2D copies: bytes per row and rows.
};
CopyOperands copyOperands(llvm::StringRef CanonicalName);

/// A copy of at most this many bytes moves a few scalars (a flag, a count, a
/// result): what it costs is the call and the wait for the GPU, not the
/// bytes, so staging, hoisting or batching the bytes gains nothing.
inline constexpr int64_t ScalarCopyBytes = 64;

/// The direction a copy call states: its cudaMemcpyKind argument when that is
/// a constant (default arguments included), DeviceToDevice for the peer
/// copies. None when unknown.
std::optional<CopyKind> copyKindOf(const clang::CallExpr *Call, const ApiInfo &Api,
                                   clang::ASTContext &Ctx);

/// The stream argument of an API call or launch, nullptr when the call has
/// none or leaves it at its default (the legacy default stream).
const clang::Expr *streamArgument(const clang::CallExpr *Call, const ApiInfo &Api);

} // namespace cuda_advisor::analysis

#endif
