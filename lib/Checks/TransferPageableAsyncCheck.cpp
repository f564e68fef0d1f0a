//===- TransferPageableAsyncCheck.cpp - transfer-pageable-async -----------===//
#include "TransferPageableAsyncCheck.h"
#include "cuda-advisor/Analysis/HostCode.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
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

ProvenanceAnalysis &TransferPageableAsyncCheck::provenance() {
  if (!Origins)
    Origins = std::make_unique<ProvenanceAnalysis>(Ctx.ast());
  return *Origins;
}

void TransferPageableAsyncCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!FD || !FD->hasBody() || !mayRunOnHost(FD) || FD->isDependentContext())
    return;
  forEachCallInLoops(FD->getBody(), [&](const CallExpr *Call, ArrayRef<const Stmt *> Loops) {
    std::optional<ApiInfo> Api = classifyApiCall(Call);
    if (Api && Api->Kind == ApiKind::CopyAsync)
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
  ProvenanceAnalysis &PA = provenance();

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

  ValueTracker &VT = Ctx.facts().values();
  std::optional<int64_t> Bytes = copyBytes(Call, Api, VT);
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
  D.range(Host->getSourceRange()).callSite(Call->getBeginLoc()).api(Api.Name);
  if (P.SiteLoc.isValid())
    D.note(P.SiteLoc, "the host buffer comes from " + P.Source + " here");
  if (P.ViaCall)
    D.note(P.ViaCall->getBeginLoc(), "passed in by this call");
  if (!Loops.empty())
    D.note(Loops.back()->getBeginLoc(), "the copy runs on every iteration of this loop");
  D.evidence("api", Api.Name)
      .evidence("kind", copyKindName(*Kind))
      .evidence("hostSide", ToHost ? "dst" : "src")
      .evidence("provenance", P.Source)
      .evidence("inLoop", !Loops.empty());
  if (Bytes)
    D.evidence("bytes", *Bytes);
}

CUDA_ADVISOR_REGISTER_CHECK(TransferPageableAsyncCheck)

} // namespace cuda_advisor::checks
