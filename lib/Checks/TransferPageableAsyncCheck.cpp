//===- TransferPageableAsyncCheck.cpp - transfer-pageable-async -----------===//
#include "TransferPageableAsyncCheck.h"
#include "cuda-advisor/Analysis/HostCode.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_advisor::analysis;

namespace cuda_advisor::checks {

TransferPageableAsyncCheck::TransferPageableAsyncCheck(StringRef Id, Severity Level,
                                                       CheckContext &Ctx)
    : Check(Id, Level, Ctx) {}

void TransferPageableAsyncCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(functionDecl(isDefinition()).bind("function"), this);
}

void TransferPageableAsyncCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!FD || !FD->hasBody() || !mayRunOnHost(FD) || FD->isDependentContext())
    return;
  // A copy that runs once (main's set-up and result, outside any loop, or a
  // helper called only from there) has nothing to overlap with: its cost is
  // paid once, and pinning the buffer costs about as much.
  bool Once = Ctx.facts().hotPath().runsOnce(FD);
  forEachCallInLoops(FD->getBody(), [&](const CallExpr *Call, ArrayRef<const Stmt *> Loops) {
    if (Once && Loops.empty())
      return;
    std::optional<ApiInfo> Api = classifyApiCall(Call);
    if (Api && Api->Name == "cudaMemcpy3DAsync")
      checkCopy3D(Call, *Api, FD, Loops);
    else if (Api && Api->Kind == ApiKind::CopyAsync)
      checkCopy(Call, *Api, Loops);
  });
}

/// Bytes the copy moves, when they are constants.
static std::optional<int64_t> copyBytes(const CallExpr *Call, const ApiInfo &Api,
                                        ValueTracker &VT) {
  if (std::optional<unsigned> Arg = byteCountArgument(Api.Name); Arg && *Arg < Call->getNumArgs())
    return VT.evaluateInt(Call->getArg(*Arg));
  CopyOperands O = copyOperands(Api.Name);
  if (O.Width && O.Height && *O.Height < Call->getNumArgs()) {
    auto W = VT.evaluateInt(Call->getArg(*O.Width));
    auto H = VT.evaluateInt(Call->getArg(*O.Height));
    if (W && H)
      return *W * *H;
  }
  return std::nullopt;
}

/// The fields of a local cudaMemcpy3DParms the function stores:
/// `p.srcPtr = make_cudaPitchedPtr(h, ...)`, `p.kind = cudaMemcpyHostToDevice`.
struct Parms3D {
  const Expr *SrcPtr = nullptr, *DstPtr = nullptr; ///< The pointer given to make_cudaPitchedPtr.
  std::optional<CopyKind> Kind;
  bool Ambiguous = false; ///< A field stored twice, or the struct escapes.
};

static Parms3D parms3DOf(const VarDecl *P, const FunctionDecl *FD, ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *P;
    ASTContext &Ctx;
    Parms3D Out;
    Finder(const VarDecl *P, ASTContext &Ctx) : P(P), Ctx(Ctx) {}
    static const Expr *pitchedPointer(const Expr *E) {
      E = E->IgnoreImplicit();
      if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
        E = M->getSubExpr()->IgnoreImplicit();
      const auto *C = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
      const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
      if (!F || !F->getIdentifier() || F->getName() != "make_cudaPitchedPtr" || C->getNumArgs() < 1)
        return nullptr;
      return C->getArg(0);
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() == BO_Assign)
        store(BO->getLHS(), BO->getRHS());
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
      // p.srcPtr = make_cudaPitchedPtr(...): a struct assignment in C++.
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
        store(OC->getArg(0), OC->getArg(1));
      return true;
    }
    void store(const Expr *LHS, const Expr *RHS) {
      const auto *ME = dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts());
      const auto *Base = ME ? dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()) : nullptr;
      if (!Base || Base->getDecl() != P || !ME->getMemberDecl()->getIdentifier())
        return;
      StringRef Field = ME->getMemberDecl()->getName();
      auto Set = [&](const Expr *&Slot, const Expr *V) {
        if (Slot || !V)
          Out.Ambiguous = true;
        Slot = V;
      };
      if (Field == "srcPtr")
        Set(Out.SrcPtr, pitchedPointer(RHS));
      else if (Field == "dstPtr")
        Set(Out.DstPtr, pitchedPointer(RHS));
      else if (Field == "kind") {
        Expr::EvalResult R;
        if (Out.Kind || RHS->isValueDependent() || !RHS->EvaluateAsInt(R, Ctx))
          Out.Ambiguous = true;
        else if (int64_t V = R.Val.getInt().getExtValue(); V >= 0 && V <= 4)
          Out.Kind = static_cast<CopyKind>(V);
      }
    }
  } F(P, Ctx);
  F.TraverseStmt(FD->getBody());
  return F.Out;
}

void TransferPageableAsyncCheck::checkCopy3D(const CallExpr *Call, const ApiInfo &Api,
                                             const FunctionDecl *FD,
                                             ArrayRef<const Stmt *> Loops) {
  if (Call->getNumArgs() < 1)
    return;
  const auto *UO = dyn_cast<UnaryOperator>(Call->getArg(0)->IgnoreParenImpCasts());
  const auto *DRE = UO && UO->getOpcode() == UO_AddrOf
                        ? dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts())
                        : nullptr;
  const auto *P = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!P || !P->hasLocalStorage() || isa<ParmVarDecl>(P))
    return;
  Parms3D Parms = parms3DOf(P, FD, Ctx.ast());
  if (Parms.Ambiguous || !Parms.Kind)
    return;
  const Expr *Host = *Parms.Kind == CopyKind::HostToDevice   ? Parms.SrcPtr
                     : *Parms.Kind == CopyKind::DeviceToHost ? Parms.DstPtr
                                                             : nullptr;
  if (!Host)
    return;
  reportPageable(Call, Api, *Parms.Kind, *Parms.Kind == CopyKind::DeviceToHost, Host,
                 Ctx.facts().provenance().of(Host), std::nullopt, Loops);
}

void TransferPageableAsyncCheck::checkCopy(const CallExpr *Call, const ApiInfo &Api,
                                           ArrayRef<const Stmt *> Loops) {
  std::optional<CopyKind> Kind = copyKindOf(Call, Api, Ctx.ast());
  if (!Kind)
    return;
  CopyOperands O = copyOperands(Api.Name);
  auto ArgAt = [&](std::optional<unsigned> I) -> const Expr * {
    return I && *I < Call->getNumArgs() ? Call->getArg(*I) : nullptr;
  };
  const Expr *Dst = ArgAt(O.Dst), *Src = ArgAt(O.Src);
  ProvenanceAnalysis &PA = Ctx.facts().provenance();

  // Which side is host memory depends on the direction the call states.
  const Expr *Host = nullptr;
  bool ToHost = false;
  Provenance P;
  switch (*Kind) {
  case CopyKind::HostToDevice:
    Host = Src;
    break;
  case CopyKind::DeviceToHost:
    Host = Dst;
    ToHost = true;
    break;
  case CopyKind::Default: {
    // The runtime infers the direction from the pointers: a pageable one is
    // host memory. Both pageable is a host-to-host copy, synchronous anyway.
    Provenance PS = Src ? PA.of(Src) : Provenance();
    Provenance PD = Dst ? PA.of(Dst) : Provenance();
    bool SrcPageable = PS.Kind == MemoryKind::Pageable, DstPageable = PD.Kind == MemoryKind::Pageable;
    if (SrcPageable == DstPageable)
      return;
    if (SrcPageable && (PD.Kind == MemoryKind::Device || PD.Kind == MemoryKind::Unknown)) {
      Host = Src;
      P = PS;
    } else if (DstPageable &&
               (PS.Kind == MemoryKind::Device || PS.Kind == MemoryKind::Unknown)) {
      Host = Dst;
      P = PD;
      ToHost = true;
    }
    break;
  }
  default:
    return; // Host-to-host and device-to-device copies have no pageable side to fix.
  }
  if (!Host)
    return;
  if (!P.known())
    P = PA.of(Host);
  if (P.Kind != MemoryKind::Pageable)
    return;

  reportPageable(Call, Api, *Kind, ToHost, Host, P, copyBytes(Call, Api, Ctx.facts().values()),
                 Loops);
}

void TransferPageableAsyncCheck::reportPageable(const CallExpr *Call, const ApiInfo &Api,
                                                CopyKind Kind, bool ToHost, const Expr *Host,
                                                const Provenance &P, std::optional<int64_t> Bytes,
                                                ArrayRef<const Stmt *> Loops) {
  if (P.Kind != MemoryKind::Pageable)
    return;
  std::string Msg = Api.Name + (ToHost ? " to" : " from") + " pageable host memory (" + P.Source +
                    ") is not asynchronous: ";
  if (ToHost)
    Msg += "it returns only when the copy has finished, after all earlier work in the stream";
  else
    Msg += "the host first stages the data through a pinned buffer and the call returns only "
           "when it is staged";
  Msg += ", so the copy overlaps neither host work nor other streams";
  if (Bytes)
    Msg += " (" + formatBytes(*Bytes) + ")";
  Msg += "; allocate the host buffer with cudaMallocHost or pin it with cudaHostRegister";

  auto D = diag(Call->getBeginLoc(), Msg);
  // The host argument, or the whole call when the pointer sits elsewhere
  // (cudaMemcpy3DAsync's parameter struct).
  bool HostIsArgument = llvm::any_of(Call->arguments(), [&](const Expr *A) { return A == Host; });
  D.range(HostIsArgument ? Host->getSourceRange() : Call->getSourceRange())
      .callSite(Call->getBeginLoc())
      .api(Api.Name);
  if (P.SiteLoc.isValid())
    D.note(P.SiteLoc, "the host buffer comes from " + P.Source + " here");
  if (P.ViaCall)
    D.note(P.ViaCall->getBeginLoc(), "passed in by this call");
  if (!Loops.empty())
    D.note(Loops.back()->getBeginLoc(), "the copy runs on every iteration of this loop");
  D.evidence(evidence::Api, Api.Name)
      .evidence(evidence::Kind, copyKindName(Kind))
      .evidence(evidence::HostSide, ToHost ? "dst" : "src")
      .evidence(evidence::Provenance, P.Source)
      .evidence(evidence::InLoop, !Loops.empty());
  if (Bytes)
    D.evidence(evidence::Bytes, *Bytes);
  // A few bytes: the staging memcpy takes the host no measurable time, and
  // the host waits for a value this small (a flag, a count) before it uses
  // it, pinned or not.
  if (Bytes && *Bytes <= ScalarCopyBytes)
    D.cold("it copies " + formatBytes(*Bytes) +
           ": staging so few bytes costs no measurable time, and the host waits for such a "
           "value before using it, pinned or not");
}

CUDA_ADVISOR_REGISTER_CHECK(TransferPageableAsyncCheck)

} // namespace cuda_advisor::checks
