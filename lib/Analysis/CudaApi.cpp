//===- CudaApi.cpp - CUDA runtime API classification ----------------------===//
#include "cuda-advisor/Analysis/CudaApi.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
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

bool isErrorQuery(const clang::CallExpr *Call) {
  const clang::FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return false;
  std::string N = canonicalApiName(FD->getName());
  return N == "cudaGetLastError" || N == "cudaPeekAtLastError" || N == "cudaGetErrorString" ||
         N == "cudaGetErrorName";
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

const clang::Expr *argAt(const clang::CallExpr *Call, std::optional<unsigned> I) {
  return I && *I < Call->getNumArgs() ? Call->getArg(*I) : nullptr;
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

StringRef copyKindName(CopyKind K) {
  switch (K) {
  case CopyKind::HostToHost:
    return "HostToHost";
  case CopyKind::HostToDevice:
    return "HostToDevice";
  case CopyKind::DeviceToHost:
    return "DeviceToHost";
  case CopyKind::DeviceToDevice:
    return "DeviceToDevice";
  case CopyKind::Default:
    return "Default";
  }
  return "Default";
}

CopyOperands copyOperands(StringRef N) {
  CopyOperands O;
  auto Set = [&](std::optional<unsigned> Dst, std::optional<unsigned> Src,
                 std::optional<unsigned> Kind, std::optional<unsigned> Stream) {
    O.Dst = Dst;
    O.Src = Src;
    O.Kind = Kind;
    O.Stream = Stream;
  };
  bool Async = N.ends_with("Async");
  StringRef Base = Async ? N.drop_back(5) : N;
  auto S = [&](unsigned I) { return Async ? std::optional<unsigned>(I) : std::nullopt; };
  if (Base == "cudaMemcpy")
    Set(0u, 1u, 3u, S(4));
  else if (Base == "cudaMemcpy2D") {
    Set(0u, 2u, 6u, S(7));
    O.Width = 4;
    O.Height = 5;
  } else if (Base == "cudaMemcpyToSymbol")
    Set(std::nullopt, 1u, 4u, S(5));
  else if (Base == "cudaMemcpyFromSymbol")
    Set(0u, std::nullopt, 4u, S(5));
  else if (Base == "cudaMemcpyPeer")
    Set(0u, 2u, std::nullopt, S(5));
  else if (Base == "cudaMemcpy2DToArray") {
    Set(std::nullopt, 3u, 7u, S(8));
    O.Width = 5;
    O.Height = 6;
  } else if (Base == "cudaMemcpy2DFromArray") {
    Set(0u, std::nullopt, 7u, S(8));
    O.Width = 5;
    O.Height = 6;
  } else if (Base == "cudaMemcpyToArray")
    Set(std::nullopt, 3u, 5u, S(6));
  else if (Base == "cudaMemcpyFromArray")
    Set(0u, std::nullopt, 5u, S(6));
  else if (Base == "cudaMemcpy3D" || Base == "cudaMemcpy3DPeer")
    Set(std::nullopt, std::nullopt, std::nullopt, S(1));
  else if (Base == "cudaMemset")
    Set(0u, std::nullopt, std::nullopt, S(3));
  else if (Base == "cudaMemset2D")
    Set(0u, std::nullopt, std::nullopt, S(5));
  else if (Base == "cudaMemset3D")
    Set(std::nullopt, std::nullopt, std::nullopt, S(3));
  else if (N == "cudaMallocAsync" || N == "cudaFreeAsync")
    O.Stream = N == "cudaMallocAsync" ? 2u : 1u;
  return O;
}

std::optional<CopyKind> copyKindOf(const clang::CallExpr *Call, const ApiInfo &Api,
                                   clang::ASTContext &Ctx) {
  StringRef N = Api.Name;
  if (N.starts_with("cudaMemcpyPeer") || N.starts_with("cudaMemcpy3DPeer"))
    return CopyKind::DeviceToDevice;
  CopyOperands O = copyOperands(N);
  if (!O.Kind || *O.Kind >= Call->getNumArgs())
    return std::nullopt;
  const clang::Expr *K = Call->getArg(*O.Kind);
  if (const auto *DA = dyn_cast<clang::CXXDefaultArgExpr>(K))
    K = DA->getExpr();
  if (K->isValueDependent() || K->containsErrors())
    return std::nullopt;
  clang::Expr::EvalResult R;
  if (!K->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  int64_t V = R.Val.getInt().getExtValue();
  if (V < 0 || V > 4)
    return std::nullopt;
  return static_cast<CopyKind>(V);
}

const clang::Expr *streamArgument(const clang::CallExpr *Call, const ApiInfo &Api) {
  std::optional<unsigned> I = copyOperands(Api.Name).Stream;
  if (!I || *I >= Call->getNumArgs() || isa<clang::CXXDefaultArgExpr>(Call->getArg(*I)))
    return nullptr;
  return Call->getArg(*I);
}

} // namespace cuda_advisor::analysis
