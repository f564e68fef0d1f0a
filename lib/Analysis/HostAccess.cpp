//===- HostAccess.cpp - What host code does to a buffer in a loop ---------===//
#include "cuda-advisor/Analysis/HostAccess.h"
#include "cuda-advisor/Analysis/HostCode.h"
#include "cuda-advisor/Analysis/KernelSummary.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/Provenance.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace cuda_advisor::analysis {

/// Whether host code in Loop reads or writes the buffer Root (directly, or
/// by passing it to a function), other than through the CUDA calls.
bool hostTouches(const Stmt *Loop, const ValueDecl *Root, ProvenanceAnalysis &PA) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ValueDecl *Root;
    ProvenanceAnalysis &PA;
    bool Found = false;
    Finder(const ValueDecl *Root, ProvenanceAnalysis &PA) : Root(Root), PA(PA) {}
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool TraverseCUDAKernelCallExpr(CUDAKernelCallExpr *) { return true; }
    bool TraverseCallExpr(CallExpr *C) {
      if (classifyApiCall(C))
        return true; // The copies themselves, and the rest of the runtime.
      return RecursiveASTVisitor::TraverseCallExpr(C);
    }
    void touch(const Expr *Base) {
      if (Base && PA.rootOf(Base) == Root)
        Found = true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      // A scalar, struct or container copied through `&v` or `v.data()`: a
      // use of v outside the copies may read or write it (`while (err > tol)`).
      if (DRE->getDecl() == Root && !DRE->getType()->isPointerType() &&
          !DRE->getType()->isArrayType())
        Found = true;
      return !Found;
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
      touch(AS->getBase());
      return !Found;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      if (UO->getOpcode() == UO_Deref)
        touch(UO->getSubExpr());
      return !Found;
    }
    bool VisitMemberExpr(MemberExpr *ME) {
      if (ME->isArrow())
        touch(ME->getBase());
      return !Found;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
      if (OC->getNumArgs() >= 1)
        touch(OC->getArg(0));
      return !Found;
    }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
      touch(MC->getImplicitObjectArgument());
      return !Found;
    }
    bool VisitCallExpr(CallExpr *C) {
      for (const Expr *Arg : C->arguments())
        touch(Arg);
      return !Found;
    }
    bool VisitCXXForRangeStmt(CXXForRangeStmt *RF) {
      touch(RF->getRangeInit()); // for (float x : hostBuffer)
      return !Found;
    }
  } F(Root, PA);
  F.TraverseStmt(const_cast<Stmt *>(Loop));
  return F.Found;
}

/// Whether host code in Loop may write the buffer Root: a store through it, an
/// increment, or passing it where the callee may write (anything but a
/// pointer or reference to const). Reads (a load of an element) do not count;
/// whatever is not clearly a read counts as a write.
bool hostWrites(const Stmt *Loop, const ValueDecl *Root, ProvenanceAnalysis &PA,
                ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ValueDecl *Root;
    ProvenanceAnalysis &PA;
    ASTContext &Ctx;
    bool Found = false;
    Finder(const ValueDecl *Root, ProvenanceAnalysis &PA, ASTContext &Ctx)
        : Root(Root), PA(PA), Ctx(Ctx) {}
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool TraverseCUDAKernelCallExpr(CUDAKernelCallExpr *) { return true; }
    bool TraverseCallExpr(CallExpr *C) {
      if (classifyApiCall(C))
        return true;
      return RecursiveASTVisitor::TraverseCallExpr(C);
    }
    static bool constPointee(QualType T) {
      if (const auto *PT = T->getAs<PointerType>())
        return PT->getPointeeType().isConstQualified();
      if (const auto *RT = T->getAs<ReferenceType>())
        return RT->getPointeeType().isConstQualified();
      return !T->isPointerType() && !T->isReferenceType(); // By value.
    }
    /// An element of Root used as anything but a loaded value.
    void element(const Expr *E, const Expr *Base) {
      if (!Base || PA.rootOf(Base) != Root)
        return;
      DynTypedNodeList Parents = Ctx.getParents(*E);
      const auto *IC = Parents.empty() ? nullptr : Parents[0].get<ImplicitCastExpr>();
      if (!IC || IC->getCastKind() != CK_LValueToRValue)
        Found = true;
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
      element(AS, AS->getBase());
      return !Found;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      if (UO->getOpcode() == UO_Deref)
        element(UO, UO->getSubExpr());
      return !Found;
    }
    bool VisitMemberExpr(MemberExpr *ME) {
      if (ME->isArrow() && PA.rootOf(ME->getBase()) == Root)
        Found = true; // A field of a struct the buffer holds: not worth telling apart.
      return !Found;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
      if (OC->getNumArgs() >= 1 && PA.rootOf(OC->getArg(0)) == Root)
        Found = true;
      return !Found;
    }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (PA.rootOf(MC->getImplicitObjectArgument()) == Root && (!MD || !MD->isConst()))
        Found = true;
      return !Found;
    }
    /// printf, puts, fwrite...: they read every argument.
    static bool printsArguments(const FunctionDecl *FD) {
      return FD && FD->getIdentifier() &&
             llvm::is_contained({"printf", "fprintf", "dprintf", "puts", "fputs", "fwrite",
                                 "write", "memcmp", "strcmp", "strncmp"},
                                FD->getName());
    }
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (printsArguments(FD))
        return true;
      unsigned Shift = isa<CXXOperatorCallExpr>(C) && isa_and_nonnull<CXXMethodDecl>(FD) ? 1 : 0;
      for (unsigned I = 0; I < C->getNumArgs(); ++I) {
        const Expr *Arg = C->getArg(I);
        if (PA.rootOf(Arg) != Root || I < Shift)
          continue;
        if (FD && I - Shift >= FD->getNumParams() && FD->isVariadic()) {
          // A value passed through `...` is a copy; a pointer may be written.
          if (Arg->getType()->isPointerType() &&
              !Arg->getType()->getPointeeType().isConstQualified())
            Found = true;
          continue;
        }
        if (!FD || I - Shift >= FD->getNumParams() ||
            !constPointee(FD->getParamDecl(I - Shift)->getType()))
          Found = true;
      }
      return !Found;
    }
    bool VisitCXXForRangeStmt(CXXForRangeStmt *RF) {
      if (PA.rootOf(RF->getRangeInit()) == Root &&
          !RF->getLoopVariable()->getType().isConstQualified())
        Found = true;
      return !Found;
    }
  } F(Root, PA, Ctx);
  F.TraverseStmt(const_cast<Stmt *>(Loop));
  return F.Found;
}

/// The buffers (host-side roots of the launch arguments) that the kernels
/// launched in Loop may write; None when some launch is not understood.
std::optional<llvm::SmallPtrSet<const ValueDecl *, 8>>
writtenByKernels(const Stmt *Loop, ProvenanceAnalysis &PA, KernelSummaries &KS) {
  llvm::SmallPtrSet<const ValueDecl *, 8> Written;
  bool Unknown = false;
  forEachCallInLoops(Loop, [&](const CallExpr *C, ArrayRef<const Stmt *>) {
    HostCallKind K = classifyHostCall(C);
    if (K == HostCallKind::LibraryWork) {
      Unknown = true;
      return;
    }
    if (K != HostCallKind::Launch)
      return;
    std::optional<LaunchSite> L = getLaunchSite(C);
    const KernelSummary *S = L && L->Kernel ? KS.summaryOf(L->Kernel) : nullptr;
    if (!S || !L->TripleChevron || S->HasOpaqueCalls || S->HasUnknownAccesses) {
      Unknown = true;
      return;
    }
    for (const BufferUse &U : S->Buffers) // __device__ variables the kernel writes.
      if (U.Written && U.Root.Decl && isa<VarDecl>(U.Root.Decl) &&
          !isa<ParmVarDecl>(U.Root.Decl))
        Written.insert(U.Root.Decl);
    for (unsigned I = 0; I < C->getNumArgs() && I < L->Kernel->getNumParams(); ++I) {
      const BufferUse *U = S->buffer(L->Kernel->getParamDecl(I));
      if (!U || !U->Written)
        continue;
      if (const ValueDecl *R = PA.rootOf(C->getArg(I)))
        Written.insert(R);
      else
        Unknown = true;
    }
  });
  if (Unknown)
    return std::nullopt;
  return Written;
}

/// The direction of a copy: its cudaMemcpyKind, or for cudaMemcpyDefault
/// the side whose memory is host memory.
std::optional<CopyKind> directionOf(const CallExpr *Call, const ApiInfo &Api, ASTContext &Ctx,
                                    ProvenanceAnalysis &PA) {
  std::optional<CopyKind> K = copyKindOf(Call, Api, Ctx);
  if (K != CopyKind::Default)
    return K;
  CopyOperands O = copyOperands(Api.Name);
  const Expr *Dst = argAt(Call, O.Dst), *Src = argAt(Call, O.Src);
  auto Host = [&](const Expr *E) {
    MemoryKind M = E ? PA.of(E).Kind : MemoryKind::Unknown;
    return M == MemoryKind::Pageable || M == MemoryKind::Pinned;
  };
  auto Dev = [&](const Expr *E) { return E && PA.of(E).Kind == MemoryKind::Device; };
  if (Host(Src) && Dev(Dst))
    return CopyKind::HostToDevice;
  if (Dev(Src) && Host(Dst))
    return CopyKind::DeviceToHost;
  if (Dev(Src) && Dev(Dst))
    return CopyKind::DeviceToDevice;
  return std::nullopt;
}

const VarDecl *addressedScalar(const Expr *E) {
  const auto *UO = E ? dyn_cast<UnaryOperator>(E->IgnoreParenCasts()) : nullptr;
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return V && V->getType()->isScalarType() && !V->getType()->isPointerType() ? V : nullptr;
}

} // namespace cuda_advisor::analysis
