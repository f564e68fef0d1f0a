//===- MemorySpace.cpp - Where the memory of a device access lives ---------===//
#include "cuda-advisor/Analysis/MemorySpace.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/Type.h"

using namespace clang;

namespace cuda_advisor::analysis {

std::string MemoryRoot::name() const {
  std::string N;
  if (const auto *ND = dyn_cast_or_null<NamedDecl>(Decl); ND && ND->getIdentifier())
    N = ND->getName().str();
  if (Field && Field->getIdentifier())
    N += (N.empty() ? "" : ".") + Field->getName().str();
  // A pointer loaded from memory: the expression that loaded it
  // (`params.velocity`, `rows[blockIdx.x]`), when it is short.
  if (N.empty() && Load) {
    llvm::raw_string_ostream OS(N);
    Load->IgnoreParenImpCasts()->printPretty(OS, nullptr, PrintingPolicy(LangOptions()));
    OS.flush();
    if (N.size() > 48 || N.find('\n') != std::string::npos)
      N.clear();
  }
  return N.empty() ? std::string("memory") : N;
}

std::optional<MemorySpace> variableMemorySpace(const VarDecl *V) {
  if (!V)
    return std::nullopt;
  if (V->hasAttr<CUDASharedAttr>())
    return MemorySpace::Shared;
  if (V->hasAttr<CUDAConstantAttr>())
    return MemorySpace::Constant;
  if (V->hasAttr<CUDADeviceAttr>() && !V->isLocalVarDeclOrParm())
    return MemorySpace::Global;
  if (V->isLocalVarDecl() && !V->isStaticLocal() && V->getType()->isArrayType())
    return MemorySpace::Local;
  // __managed__ variables carry both the device and the managed attribute;
  // plain globals cannot be used in device code.
  if (V->hasGlobalStorage() && V->hasAttr<HIPManagedAttr>())
    return MemorySpace::Global;
  return std::nullopt;
}

} // namespace cuda_advisor::analysis
