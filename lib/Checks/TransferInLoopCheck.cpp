//===- TransferInLoopCheck.cpp - transfer-in-loop --------------------------===//
#include "TransferInLoopCheck.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_advisor::analysis;

namespace cuda_advisor::checks {

static std::string formatBytes(int64_t B) {
  if (B >= (1 << 20) && B % (1 << 20) == 0)
    return std::to_string(B >> 20) + " MiB";
  if (B >= (1 << 10) && B % (1 << 10) == 0)
    return std::to_string(B >> 10) + " KiB";
  return std::to_string(B) + " bytes";
}

/// What the API does, for the message: "copied", "set", "allocated".
static StringRef verbFor(ApiKind K) {
  switch (K) {
  case ApiKind::Memset:
    return "set";
  case ApiKind::Alloc:
  case ApiKind::HostAlloc:
    return "allocated";
  default:
    return "copied";
  }
}

/// Whether every pointer and the byte count of a copy/memset stay the same
/// from one iteration of Loop to the next.
static Invariance operandInvariance(const CallExpr *Call, const ApiInfo &Api, const Stmt *Loop,
                                    ValueTracker &VT) {
  std::optional<unsigned> CountArg = byteCountArgument(Api.Name);
  Invariance Result = Invariance::Invariant;
  bool Symbol = StringRef(Api.Name).contains("Symbol");
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    bool IsSymbol = Symbol && ((Api.Name.find("ToSymbol") != std::string::npos && I == 0) ||
                               (Api.Name.find("FromSymbol") != std::string::npos && I == 1));
    if (IsSymbol)
      continue; // A __device__ variable: its address is fixed.
    bool Relevant = Arg->IgnoreParenImpCasts()->getType()->isPointerType() ||
                    Arg->getType()->isPointerType() || (CountArg && *CountArg == I);
    if (Relevant)
      Result = combine(Result, invarianceIn(Arg, Loop, VT));
  }
  return Result;
}

TransferInLoopCheck::TransferInLoopCheck(StringRef Id, Severity Level, CheckContext &Ctx)
    : Check(Id, Level, Ctx), MaxCallDepth(option("MaxCallDepth", 3)) {}

void TransferInLoopCheck::storeOptions(CheckOptions &Opts) const {
  storeOption(Opts, "MaxCallDepth", MaxCallDepth);
}

void TransferInLoopCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(functionDecl(isDefinition()).bind("function"), this);
}

void TransferInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!FD || !FD->hasBody() || !mayRunOnHost(FD) || FD->isDependentContext())
    return;
  forEachCallInLoops(FD->getBody(), [&](const CallExpr *Call, ArrayRef<const Stmt *> Loops) {
    if (Loops.empty())
      return;
    const Stmt *Loop = Loops.back();
    if (std::optional<ApiInfo> Api = classifyApiCall(Call)) {
      if (isTransferOrAllocation(Api->Kind))
        reportDirect(Call, *Api, Loop);
      return;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Ctx.isReportable(Callee->getLocation()))
      return;
    const std::vector<Reached> &Reach = transfersReachedFrom(Callee, 1);
    if (!Reach.empty())
      reportIndirect(Call, Callee, Reach.front(), Loop);
  });
}

const std::vector<TransferInLoopCheck::Reached> &
TransferInLoopCheck::transfersReachedFrom(const FunctionDecl *FD, unsigned Depth) {
  static const std::vector<Reached> None;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody() || !mayRunOnHost(Def))
    return None;
  auto It = Summaries.find(Def);
  if (It != Summaries.end())
    return It->second;
  Summaries[Def]; // In progress: recursion sees an empty summary.
  std::vector<Reached> Found;
  forEachCallInLoops(Def->getBody(), [&](const CallExpr *Call, ArrayRef<const Stmt *>) {
    if (std::optional<ApiInfo> Api = classifyApiCall(Call)) {
      if (isTransferOrAllocation(Api->Kind))
        Found.push_back({Call, *Api});
      return;
    }
    if (Depth >= MaxCallDepth)
      return;
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (Ctx.isReportable(Callee->getLocation()))
        for (const Reached &R : transfersReachedFrom(Callee, Depth + 1))
          Found.push_back(R);
  });
  return Summaries[Def] = std::move(Found);
}

void TransferInLoopCheck::reportDirect(const CallExpr *Call, const ApiInfo &Api,
                                       const Stmt *Loop) {
  ValueTracker &VT = Ctx.facts().values();
  std::string Msg;
  std::optional<int64_t> Bytes;
  if (auto Arg = byteCountArgument(Api.Name); Arg && *Arg < Call->getNumArgs())
    Bytes = VT.evaluateInt(Call->getArg(*Arg));
  Invariance Inv = Invariance::Unknown;
  switch (Api.Kind) {
  case ApiKind::Alloc:
  case ApiKind::HostAlloc:
    Msg = Api.Name + " allocates on every iteration of this loop";
    if (Bytes)
      Msg += " (" + formatBytes(*Bytes) + " each time)";
    Msg += "; allocate once before the loop and reuse the buffer";
    break;
  case ApiKind::Free:
  case ApiKind::HostFree:
    Msg = Api.Name + " frees memory on every iteration of this loop; keep the buffer and "
                     "free it once after the loop";
    break;
  default:
    Msg = Api.Name + " runs on every iteration of this loop";
    if (Bytes)
      Msg += "; " + formatBytes(*Bytes) + " " + verbFor(Api.Kind).str() + " each time";
    Inv = operandInvariance(Call, Api, Loop, VT);
    if (Inv == Invariance::Invariant)
      Msg += "; its source, destination and size do not change in the loop: hoist it out "
             "of the loop";
    break;
  }
  auto D = diag(Call->getBeginLoc(), Msg);
  D.range(Call->getSourceRange())
      .note(Loop->getBeginLoc(), "inside this loop")
      .callSite(Call->getBeginLoc())
      .api(Api.Name)
      .evidence("api", Api.Name)
      .evidence("loopInvariant", Inv == Invariance::Invariant ? llvm::json::Value(true)
                                 : Inv == Invariance::Varies  ? llvm::json::Value(false)
                                                              : llvm::json::Value(nullptr));
  if (Bytes)
    D.evidence("bytesPerIteration", *Bytes);
}

void TransferInLoopCheck::reportIndirect(const CallExpr *Call, const FunctionDecl *Callee,
                                         const Reached &R, const Stmt *Loop) {
  ValueTracker &VT = Ctx.facts().values();
  std::optional<int64_t> Bytes;
  if (auto Arg = byteCountArgument(R.Api.Name); Arg && *Arg < R.ApiCall->getNumArgs())
    Bytes = VT.evaluateInt(R.ApiCall->getArg(*Arg));
  std::string Msg = "'" + Callee->getNameAsString() + "' calls " + R.Api.Name +
                    " and runs on every iteration of this loop";
  if (Bytes)
    Msg += "; " + formatBytes(*Bytes) + " " + verbFor(R.Api.Kind).str() + " each time";
  auto D = diag(Call->getBeginLoc(), Msg);
  D.range(Call->getSourceRange())
      .note(Loop->getBeginLoc(), "inside this loop")
      .note(R.ApiCall->getBeginLoc(), R.Api.Name + " called here")
      .callSite(Call->getBeginLoc())
      .callSite(R.ApiCall->getBeginLoc())
      .api(R.Api.Name)
      .evidence("api", R.Api.Name)
      .evidence("via", Callee->getNameAsString());
  if (Bytes)
    D.evidence("bytesPerIteration", *Bytes);
}

CUDA_ADVISOR_REGISTER_CHECK(TransferInLoopCheck)

} // namespace cuda_advisor::checks
