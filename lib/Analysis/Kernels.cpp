//===- Kernels.cpp - Kernels, launches and their configuration -------------===//
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/CudaApi.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace cuda_advisor::analysis {

bool isKernel(const FunctionDecl *FD) { return FD && FD->hasAttr<CUDAGlobalAttr>(); }

bool isDeviceOnly(const FunctionDecl *FD) {
  if (!FD)
    return false;
  return FD->hasAttr<CUDAGlobalAttr>() ||
         (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>());
}

bool mayRunOnHost(const FunctionDecl *FD) { return FD && !isDeviceOnly(FD); }

static std::string mangle(const FunctionDecl *FD, MangleContext &MC) {
  if (!MC.shouldMangleDeclName(FD))
    return FD->getNameAsString(); // extern "C" kernels.
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  // In a host-side parse, GlobalDecl(FD) of a kernel names its host stub
  // (_Z18__device_stub__addPfi); profiles show the device symbol (_Z3addPfi).
  GlobalDecl GD = FD->hasAttr<CUDAGlobalAttr>() ? GlobalDecl(FD, KernelReferenceKind::Kernel)
                                                : GlobalDecl(FD);
  MC.mangleName(GD, OS);
  return OS.str();
}

std::vector<std::string> kernelMangledNames(const FunctionDecl *FD, ASTContext &Ctx) {
  std::vector<std::string> Names;
  if (!FD)
    return Names;
  std::unique_ptr<MangleContext> MC(Ctx.createMangleContext());
  // An instantiation (the kernel of a launch) is itself; the template (a
  // finding in its body) is every instantiation.
  if (FD->isTemplateInstantiation() && !FD->isDependentContext()) {
    Names.push_back(mangle(FD, *MC));
    return Names;
  }
  if (const FunctionTemplateDecl *T = FD->getDescribedFunctionTemplate()) {
    for (const FunctionDecl *Spec : T->specializations())
      if (!Spec->isDependentContext())
        Names.push_back(mangle(Spec, *MC));
    return Names;
  }
  if (!FD->isDependentContext())
    Names.push_back(mangle(FD, *MC));
  return Names;
}

static const FunctionDecl *functionOf(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<FunctionDecl>(DRE->getDecl());
  return nullptr;
}

static const Expr *explicitArg(const CallExpr *C, unsigned I) {
  if (!C || I >= C->getNumArgs() || isa<CXXDefaultArgExpr>(C->getArg(I)))
    return nullptr;
  return C->getArg(I);
}

std::optional<LaunchSite> getLaunchSite(const CallExpr *Call) {
  if (const auto *K = dyn_cast_or_null<CUDAKernelCallExpr>(Call)) {
    LaunchSite S;
    S.Call = K;
    S.Kernel = K->getDirectCallee();
    const CallExpr *Config = K->getConfig();
    if (!Config || Config->getNumArgs() < 2)
      return std::nullopt;
    S.Grid = Config->getArg(0);
    S.Block = Config->getArg(1);
    S.SharedMem = explicitArg(Config, 2);
    S.Stream = explicitArg(Config, 3);
    return S;
  }
  std::optional<ApiInfo> Api = classifyApiCall(Call);
  if (!Api || Api->Kind != ApiKind::Launch || Api->Name == "cudaLaunchKernelEx" ||
      Api->Name == "cudaLaunchKernelExC" || Call->getNumArgs() < 3)
    return std::nullopt;
  LaunchSite S;
  S.Call = Call;
  S.TripleChevron = false;
  S.Kernel = functionOf(Call->getArg(0));
  S.Grid = Call->getArg(1);
  S.Block = Call->getArg(2);
  S.SharedMem = explicitArg(Call, 4);
  S.Stream = explicitArg(Call, 5);
  return S;
}

} // namespace cuda_advisor::analysis
