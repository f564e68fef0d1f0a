//===- CudaApi.cpp - CUDA runtime API classification ----------------------===//
#include "cuda-advisor/Analysis/CudaApi.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace cuda_advisor::analysis {

std::string canonicalApiName(StringRef Name) {
  for (StringRef Suffix : {"_ptds", "_ptsz", "_spt"})
    if (Name.consume_back(Suffix))
      break;
  // cudaGetDeviceProperties_v2, cudaStreamGetCaptureInfo_v2 ...
  if (size_t V = Name.rfind("_v"); V != StringRef::npos && V + 2 < Name.size() &&
                                   all_of(Name.drop_front(V + 2), isDigit))
    Name = Name.take_front(V);
  return Name.str();
}

std::optional<ApiInfo> classifyApi(StringRef N) {
  if (!N.starts_with("cuda"))
    return std::nullopt;
  bool Async = N.ends_with("Async");
  std::optional<ApiKind> K =
      StringSwitch<std::optional<ApiKind>>(N)
          .Cases("cudaMemcpy", "cudaMemcpy2D", "cudaMemcpy3D", "cudaMemcpyPeer",
                 "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "cudaMemcpy2DToArray",
                 "cudaMemcpy2DFromArray", ApiKind::Copy)
          .Cases("cudaMemcpyToArray", "cudaMemcpyFromArray", "cudaMemcpy3DPeer",
                 "cudaMemcpy2DArrayToArray", "cudaMemcpyArrayToArray", ApiKind::Copy)
          .Cases("cudaMemcpyAsync", "cudaMemcpy2DAsync", "cudaMemcpy3DAsync",
                 "cudaMemcpyPeerAsync", "cudaMemcpyToSymbolAsync", "cudaMemcpyFromSymbolAsync",
                 "cudaMemcpy2DToArrayAsync", "cudaMemcpy2DFromArrayAsync", ApiKind::CopyAsync)
          .Cases("cudaMemcpyToArrayAsync", "cudaMemcpyFromArrayAsync", "cudaMemcpy3DPeerAsync",
                 "cudaMemcpyBatchAsync", "cudaMemcpy3DBatchAsync", ApiKind::CopyAsync)
          .Cases("cudaMemset", "cudaMemset2D", "cudaMemset3D", "cudaMemsetAsync",
                 "cudaMemset2DAsync", "cudaMemset3DAsync", ApiKind::Memset)
          .Cases("cudaMalloc", "cudaMallocManaged", "cudaMallocPitch", "cudaMalloc3D",
                 "cudaMallocArray", "cudaMalloc3DArray", "cudaMallocAsync",
                 "cudaMallocFromPoolAsync", ApiKind::Alloc)
          .Cases("cudaFree", "cudaFreeArray", "cudaFreeAsync", "cudaFreeMipmappedArray",
                 ApiKind::Free)
          .Cases("cudaMallocHost", "cudaHostAlloc", ApiKind::HostAlloc)
          .Case("cudaFreeHost", ApiKind::HostFree)
          .Case("cudaHostRegister", ApiKind::HostRegister)
          .Cases("cudaDeviceSynchronize", "cudaThreadSynchronize", ApiKind::DeviceSync)
          .Case("cudaStreamSynchronize", ApiKind::StreamSync)
          .Case("cudaEventSynchronize", ApiKind::EventSync)
          .Cases("cudaLaunchKernel", "cudaLaunchCooperativeKernel", "cudaLaunchKernelEx",
                 "cudaLaunchKernelExC", ApiKind::Launch)
          .Default(std::nullopt);
  if (!K)
    return std::nullopt;
  return ApiInfo{*K, N.str(), Async};
}

std::optional<ApiInfo> classifyApiCall(const clang::CallExpr *Call) {
  const clang::FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  // Only functions at namespace scope (the C API and cuda_runtime.h's
  // templates), not a user's member function that happens to share a name.
  if (!FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return std::nullopt;
  return classifyApi(canonicalApiName(FD->getName()));
}

bool isTransferOrAllocation(ApiKind K) {
  switch (K) {
  case ApiKind::Copy:
  case ApiKind::CopyAsync:
  case ApiKind::Memset:
  case ApiKind::Alloc:
  case ApiKind::Free:
  case ApiKind::HostAlloc:
  case ApiKind::HostFree:
    return true;
  default:
    return false;
  }
}

bool isSynchronization(ApiKind K) {
  return K == ApiKind::DeviceSync || K == ApiKind::StreamSync || K == ApiKind::EventSync;
}

std::optional<unsigned> byteCountArgument(StringRef N) {
  return StringSwitch<std::optional<unsigned>>(N)
      .Cases("cudaMemcpy", "cudaMemcpyAsync", 2u)
      .Cases("cudaMemcpyToSymbol", "cudaMemcpyToSymbolAsync", 2u)
      .Cases("cudaMemcpyFromSymbol", "cudaMemcpyFromSymbolAsync", 2u)
      .Cases("cudaMemcpyPeer", "cudaMemcpyPeerAsync", 4u)
      .Cases("cudaMemset", "cudaMemsetAsync", 2u)
      .Cases("cudaMalloc", "cudaMallocManaged", "cudaMallocHost", "cudaHostAlloc", 1u)
      .Case("cudaMallocAsync", 1u)
      .Default(std::nullopt);
}

} // namespace cuda_advisor::analysis
