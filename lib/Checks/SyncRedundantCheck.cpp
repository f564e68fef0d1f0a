//===- SyncRedundantCheck.cpp - sync-redundant -----------------------------===//
//
// Looks at each statement of a block that is nothing but a synchronize
// (possibly inside an error-checking macro), and at the next statement that
// does something (error checks of cudaGetLastError in between are skipped).
// The synchronize is redundant when that next operation waits for at least
// the same work:
//
//   cudaDeviceSynchronize   <- cudaDeviceSynchronize
//   cudaStreamSynchronize(s)<- cudaDeviceSynchronize, cudaStreamSynchronize(s)
//   cudaEventSynchronize(e) <- cudaDeviceSynchronize, cudaEventSynchronize(e)
//   cudaDeviceSynchronize / cudaStreamSynchronize(s)
//                           <- a blocking cudaMemcpy to or from the host on the
//                              legacy default stream, which waits for all work
//                              of the blocking streams; only when every stream
//                              the work may be on is one of those.
//
// cudaMemset (asynchronous for device memory), cudaFree and cudaMalloc (no
// documented host synchronization) and device-to-device copies do not count.
//
//===----------------------------------------------------------------------===//
#include "SyncRedundantCheck.h"
#include "cuda-advisor/Analysis/CudaApi.h"
#include "cuda-advisor/Analysis/HostCode.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_advisor::analysis;

namespace cuda_advisor::checks {

namespace {

std::vector<const CallExpr *> callsIn(const Stmt *S) {
  struct Collector : RecursiveASTVisitor<Collector> {
    std::vector<const CallExpr *> Calls;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitCallExpr(CallExpr *C) {
      Calls.push_back(C);
      return true;
    }
  } C;
  C.TraverseStmt(const_cast<Stmt *>(S));
  return C.Calls;
}

bool contains(const Stmt *Outer, const Stmt *Inner) {
  if (Outer == Inner)
    return true;
  for (const Stmt *Child : Outer->children())
    if (Child && contains(Child, Inner))
      return true;
  return false;
}

/// A function that only reports errors: no GPU work, copies, syncs or
/// timing in its body (`gpuAssert(code, file, line)`, helper_cuda's check()).
bool isErrorHandler(const FunctionDecl *FD, CheckContext &CC) {
  if (!FD)
    return false;
  if (CC.isLibraryCode(FD))
    return true; // fprintf, exit, std::cerr <<: the caller has classified the call itself.
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody())
    return false;
  for (const CallExpr *C : callsIn(Def->getBody())) {
    HostCallKind K = classifyHostCall(C);
    if (K != HostCallKind::Other)
      return false;
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee)
      return false;
    if (!isErrorQuery(C) && !CC.isLibraryCode(Callee))
      return false;
  }
  return true;
}

/// A call that does nothing to GPU ordering: error queries and reporting.
bool isBenign(const CallExpr *C, CheckContext &CC) {
  if (isErrorQuery(C))
    return true;
  if (classifyHostCall(C) != HostCallKind::Other)
    return false;
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD)
    return false;
  if (FD->getIdentifier() && FD->getName().starts_with("cuda") &&
      CC.isLibraryCode(FD))
    return false; // Some other CUDA call: be careful.
  return isErrorHandler(FD, CC);
}

struct SyncStatement {
  const CallExpr *Call = nullptr;
  ApiInfo Api;
  bool Wrapped = false; ///< Inside an error check (the statement is more than the call).
};

/// S is a synchronize and nothing else but error handling.
std::optional<SyncStatement> syncStatement(const Stmt *S, ASTContext &Ctx, CheckContext &CC) {
  SyncStatement Out;
  for (const CallExpr *C : callsIn(S)) {
    if (classifyHostCall(C) == HostCallKind::Sync) {
      if (Out.Call)
        return std::nullopt;
      Out.Call = C;
      continue;
    }
    if (!isBenign(C, CC))
      return std::nullopt;
  }
  if (!Out.Call || !runsWheneverScopeRuns(Out.Call, S, Ctx))
    return std::nullopt;
  Out.Api = *classifyApiCall(Out.Call);
  const Stmt *Bare = S;
  if (const auto *E = dyn_cast<Expr>(S))
    Bare = E->IgnoreParenImpCasts();
  Out.Wrapped = Bare != Out.Call;
  // `cudaError_t e = cudaDeviceSynchronize();`: the result lives on.
  if (isa<DeclStmt>(S))
    Out.Wrapped = true;
  return Out;
}

/// Statements that may sit between the sync and the operation: `;`,
/// CUDA_CHECK(cudaGetLastError()), `if (err != cudaSuccess) { ... }`.
bool isErrorCheckOnly(const Stmt *S, ASTContext &Ctx, CheckContext &CC) {
  if (isa<NullStmt>(S))
    return true;
  std::vector<const CallExpr *> Calls = callsIn(S);
  for (const CallExpr *C : Calls) {
    if (isErrorQuery(C))
      continue;
    // Reporting on the error path only.
    if (!runsWheneverScopeRuns(C, S, Ctx) && isBenign(C, CC))
      continue;
    const FunctionDecl *FD = C->getDirectCallee();
    if (FD && isErrorHandler(FD, CC) &&
        llvm::any_of(Calls, [&](const CallExpr *Q) { return isErrorQuery(Q) && contains(C, Q); }))
      continue; // checkCudaErrors(cudaGetLastError())
    return false;
  }
  if (Calls.empty()) {
    // `if (err != cudaSuccess) return;`, with no call at all.
    const auto *If = dyn_cast<IfStmt>(S);
    return If && If->getCond() && If->getCond()->getType()->isBooleanType();
  }
  return true;
}

/// The operation a statement starts with, if it waits for GPU work.
struct WaitingOp {
  const CallExpr *Call = nullptr;
  ApiInfo Api;
  bool Wrapped = false;
};

std::optional<WaitingOp> waitingOp(const Stmt *S, ASTContext &Ctx, CheckContext &CC) {
  for (const CallExpr *C : callsIn(S)) {
    if (isBenign(C, CC))
      continue;
    HostCallKind K = classifyHostCall(C);
    if (K != HostCallKind::Sync && K != HostCallKind::BlockingCopy)
      return std::nullopt;
    if (!runsWheneverScopeRuns(C, S, Ctx))
      return std::nullopt;
    WaitingOp W{C, *classifyApiCall(C), false};
    const Stmt *Bare = S;
    if (const auto *E = dyn_cast<Expr>(S))
      Bare = E->IgnoreParenImpCasts();
    W.Wrapped = Bare != C;
    return W;
  }
  return std::nullopt;
}

/// The stream or event argument of a synchronize (null: the default stream).
const Expr *targetOf(const CallExpr *C) {
  if (C->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(C->getArg(0)))
    return nullptr;
  return C->getArg(0);
}

/// The legacy default stream: no argument, 0, NULL, nullptr, cudaStreamLegacy.
bool isLegacyStream(const Expr *S, ASTContext &Ctx) {
  if (!S)
    return true;
  if (S->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return true;
  const Expr *Bare = S->IgnoreParenCasts();
  if (const auto *IL = dyn_cast<IntegerLiteral>(Bare))
    return IL->getValue() == 0 || IL->getValue() == 1; // cudaStreamLegacy
  return false;
}

/// The local variable (or local array) a stream expression names.
const VarDecl *streamVariable(const Expr *S) {
  if (!S)
    return nullptr;
  S = S->IgnoreParenImpCasts();
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
    S = AS->getBase()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(S);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage())
    return nullptr;
  return V;
}

/// Flags of a stream creation call: 0 for cudaStreamCreate, none if unknown.
std::optional<uint64_t> creationFlags(const CallExpr *C, ASTContext &Ctx) {
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  std::string N = canonicalApiName(FD->getName());
  if (N == "cudaStreamCreate")
    return 0;
  if ((N == "cudaStreamCreateWithFlags" || N == "cudaStreamCreateWithPriority") &&
      C->getNumArgs() >= 2) {
    Expr::EvalResult R;
    if (!C->getArg(1)->isValueDependent() && C->getArg(1)->EvaluateAsInt(R, Ctx))
      return R.Val.getInt().getZExtValue();
  }
  return std::nullopt;
}

bool isStreamCreation(const CallExpr *C) {
  const FunctionDecl *FD = C->getDirectCallee();
  return FD && FD->getIdentifier() &&
         StringRef(canonicalApiName(FD->getName())).starts_with("cudaStreamCreate");
}

/// A stream that synchronizes with the legacy default stream: the default
/// stream itself, or a local created in FD with cudaStreamCreate (or flags
/// 0) and never assigned otherwise.
bool isBlockingStream(const Expr *S, const FunctionDecl *FD, ASTContext &Ctx, ValueTracker &VT) {
  if (isLegacyStream(S, Ctx))
    return true;
  const VarDecl *V = streamVariable(S);
  if (!V)
    return false;
  const VarWrites *W = VT.writesOf(V);
  if (!W || W->Escapes)
    return false;
  for (const Expr *E : W->Values)
    if (!E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) &&
        !isa<InitListExpr>(E->IgnoreParenImpCasts()))
      return false;
  bool Created = false;
  for (const CallExpr *C : callsIn(FD->getBody())) {
    if (!isStreamCreation(C) || C->getNumArgs() == 0)
      continue;
    const auto *UO = dyn_cast<UnaryOperator>(C->getArg(0)->IgnoreParenCasts());
    if (!UO || UO->getOpcode() != UO_AddrOf || streamVariable(UO->getSubExpr()) != V)
      continue;
    std::optional<uint64_t> Flags = creationFlags(C, Ctx);
    if (!Flags || (*Flags & 1))
      return false;
    Created = true;
  }
  return Created;
}

/// The statement's lines, for removing it: [start of its first line, start
/// of the line after it), when nothing else shares those lines.
std::optional<CharSourceRange> wholeLines(const Stmt *S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(S->getSourceRange()),
                                               SM, LO);
  if (R.isInvalid())
    return std::nullopt;
  auto [FID, Begin] = SM.getDecomposedLoc(R.getBegin());
  unsigned End = SM.getFileOffset(R.getEnd());
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid || End > Buf.size())
    return std::nullopt;
  size_t LineStart = Buf.rfind('\n', Begin ? Begin - 1 : 0);
  LineStart = (LineStart == StringRef::npos || Begin == 0) ? 0 : LineStart + 1;
  if (!Buf.slice(LineStart, Begin).trim(" \t").empty())
    return std::nullopt;
  size_t LineEnd = Buf.find('\n', End);
  if (LineEnd == StringRef::npos)
    LineEnd = Buf.size();
  StringRef Rest = Buf.slice(End, LineEnd).trim(" \t\r");
  if (!Rest.empty() && Rest != ";")
    return std::nullopt;
  size_t After = LineEnd < Buf.size() ? LineEnd + 1 : LineEnd;
  clang::SourceLocation FileStart = SM.getLocForStartOfFile(FID);
  return CharSourceRange::getCharRange(FileStart.getLocWithOffset(LineStart),
                                       FileStart.getLocWithOffset(After));
}

bool sameExpansion(const Stmt *A, const Stmt *B, const SourceManager &SM) {
  clang::SourceLocation LA = A->getBeginLoc(), LB = B->getBeginLoc();
  if (!LA.isMacroID() || !LB.isMacroID())
    return false;
  return SM.getExpansionRange(LA).getBegin() == SM.getExpansionRange(LB).getBegin();
}

bool queuesWorkIn(const FunctionDecl *FD, unsigned Depth, CheckContext &CC) {
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def || !Def->hasBody())
    return !FD || !CC.isLibraryCode(FD);
  if (Depth > 3)
    return true;
  for (const CallExpr *C : callsIn(Def->getBody())) {
    if (queuesGpuWork(classifyHostCall(C)))
      return true;
    const FunctionDecl *Callee = C->getDirectCallee();
    if (Callee && !CC.isLibraryCode(Callee) &&
        queuesWorkIn(Callee, Depth + 1, CC))
      return true;
  }
  return false;
}

} // namespace

SyncRedundantCheck::SyncRedundantCheck(StringRef Id, Severity Level, CheckContext &Ctx)
    : Check(Id, Level, Ctx) {}

void SyncRedundantCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(functionDecl(isDefinition()).bind("function"), this);
}

bool SyncRedundantCheck::nonBlockingStreamsInTU() {
  if (TUHasNonBlockingStreams)
    return *TUHasNonBlockingStreams;
  struct Finder : RecursiveASTVisitor<Finder> {
    ASTContext &Ctx;
    bool Found = false;
    explicit Finder(ASTContext &Ctx) : Ctx(Ctx) {}
    bool VisitCallExpr(CallExpr *C) {
      if (isStreamCreation(C)) {
        std::optional<uint64_t> Flags = creationFlags(C, Ctx);
        if (!Flags || (*Flags & 1))
          Found = true;
      }
      return !Found;
    }
    bool VisitDeclRefExpr(DeclRefExpr *) { return true; }
  } F(Ctx.ast());
  F.TraverseAST(Ctx.ast());
  TUHasNonBlockingStreams = F.Found;
  return F.Found;
}

void SyncRedundantCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!FD || !FD->hasBody() || !mayRunOnHost(FD) || FD->isDependentContext())
    return;
  struct Blocks : RecursiveASTVisitor<Blocks> {
    std::vector<const CompoundStmt *> Found;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitCompoundStmt(CompoundStmt *CS) {
      Found.push_back(CS);
      return true;
    }
  } B;
  B.TraverseStmt(FD->getBody());
  for (const CompoundStmt *CS : B.Found)
    checkBlock(CS, FD);
}

bool SyncRedundantCheck::outsideLoops(const CallExpr *Call, const FunctionDecl *FD) {
  bool InLoop = false, Seen = false;
  forEachCallInLoops(FD->getBody(), [&](const CallExpr *C, ArrayRef<const Stmt *> Loops) {
    if (C == Call) {
      Seen = true;
      InLoop = !Loops.empty();
    }
  });
  return Seen && !InLoop;
}

bool SyncRedundantCheck::runsOncePerRun(const CallExpr *Call, const FunctionDecl *FD) {
  return outsideLoops(Call, FD) && Ctx.facts().hotPath().runsOnce(FD);
}

void SyncRedundantCheck::checkBlock(const CompoundStmt *Block, const FunctionDecl *FD) {
  ASTContext &AST = Ctx.ast();
  const SourceManager &SM = AST.getSourceManager();
  ValueTracker &VT = Ctx.facts().values();
  std::vector<const Stmt *> Body(Block->body_begin(), Block->body_end());
  for (size_t I = 0; I < Body.size(); ++I) {
    std::optional<SyncStatement> Sync = syncStatement(Body[I], AST, Ctx);
    if (!Sync)
      continue;
    // A sync right after a clock read or an event record is a measurement.
    if (I > 0) {
      size_t P = I;
      while (P > 0 && isa<NullStmt>(Body[P - 1]))
        --P;
      if (P > 0)
        for (const CallExpr *C : callsIn(Body[P - 1])) {
          const FunctionDecl *Callee = C->getDirectCallee();
          if (classifyHostCall(C) == HostCallKind::Timing ||
              (Callee && Callee->getIdentifier() &&
               canonicalApiName(Callee->getName()) == "cudaEventRecord"))
            goto NextStatement;
        }
    }
    {
      size_t J = I + 1;
      while (J < Body.size() && isErrorCheckOnly(Body[J], AST, Ctx) && !syncStatement(Body[J], AST, Ctx))
        ++J;
      if (J >= Body.size())
        continue;
      std::optional<WaitingOp> Op = waitingOp(Body[J], AST, Ctx);
      if (!Op || sameExpansion(Body[I], Body[J], SM))
        continue;
      ApiKind SK = Sync->Api.Kind, OK = Op->Api.Kind;
      const Expr *ST = targetOf(Sync->Call);
      std::string Why;
      std::optional<CopyKind> Dir;
      if (OK == ApiKind::DeviceSync) {
        Why = Op->Api.Name + " right after it waits for all work on the device, which "
                             "includes everything this waits for";
      } else if (OK == ApiKind::StreamSync && SK == ApiKind::StreamSync) {
        const Expr *OT = targetOf(Op->Call);
        bool Same = (isLegacyStream(ST, AST) && isLegacyStream(OT, AST) && !ST == !OT) ||
                    (ST && OT && sameValue(ST, OT, VT));
        if (!Same)
          continue;
        Why = "the " + Op->Api.Name + " right after it waits for the same stream";
      } else if (OK == ApiKind::EventSync && SK == ApiKind::EventSync) {
        const Expr *OT = targetOf(Op->Call);
        if (!ST || !OT || !sameValue(ST, OT, VT))
          continue;
        Why = "the " + Op->Api.Name + " right after it waits for the same event";
      } else if (OK == ApiKind::Copy &&
                 (SK == ApiKind::DeviceSync || SK == ApiKind::StreamSync)) {
        // A blocking copy between host and device on the legacy default
        // stream returns only after the work of every blocking stream.
        StringRef Callee = Op->Call->getDirectCallee()->getName();
        if (Callee.ends_with("_ptds") || Callee.ends_with("_ptsz"))
          continue; // --default-stream per-thread: no implicit synchronization.
        Dir = copyKindOf(Op->Call, Op->Api, AST);
        if (Dir == CopyKind::Default) {
          CopyOperands O = copyOperands(Op->Api.Name);
          ProvenanceAnalysis &PA = Ctx.facts().provenance();
          auto KindOf = [&](std::optional<unsigned> A) {
            return A && *A < Op->Call->getNumArgs() ? PA.of(Op->Call->getArg(*A)).Kind
                                                    : MemoryKind::Unknown;
          };
          MemoryKind D = KindOf(O.Dst), S = KindOf(O.Src);
          auto Host = [](MemoryKind K) {
            return K == MemoryKind::Pageable || K == MemoryKind::Pinned;
          };
          if (Host(D) && S == MemoryKind::Device)
            Dir = CopyKind::DeviceToHost;
          else if (Host(S) && D == MemoryKind::Device)
            Dir = CopyKind::HostToDevice;
          else
            continue;
        }
        if (Dir != CopyKind::DeviceToHost && Dir != CopyKind::HostToDevice)
          continue;
        if (SK == ApiKind::StreamSync) {
          if (!isBlockingStream(ST, FD, AST, VT))
            continue;
        } else if (!deviceWorkIsOnBlockingStreams(FD)) {
          continue;
        }
        Why = "the blocking " + Op->Api.Name + " (" + copyKindName(*Dir).str() +
              ") right after it waits for the same work on the legacy default stream";
      } else {
        continue;
      }

      std::string Msg = Sync->Api.Name + " is redundant: " + Why + "; it only adds a runtime call";
      if (Dir)
        Msg += " and, for pinned host memory, a host round trip before the copy starts";
      bool CanRemove = !Sync->Wrapped || Op->Wrapped;
      std::optional<CharSourceRange> Lines =
          CanRemove && !isa<DeclStmt>(Body[I]) ? wholeLines(Body[I], AST) : std::nullopt;
      Msg += Lines ? "; remove it" : "; remove it (keeping its error check)";
      auto D = diag(Sync->Call->getBeginLoc(), Msg);
      D.range(Sync->Call->getSourceRange())
          .note(Op->Call->getBeginLoc(), Op->Api.Name + " waits here")
          .callSite(Sync->Call->getBeginLoc())
          .api(Sync->Api.Name)
          .evidence(evidence::Api, Sync->Api.Name)
          .evidence(evidence::CoveredBy, Op->Api.Name);
      if (Dir)
        D.evidence(evidence::Kind, copyKindName(*Dir));
      if (Lines)
        D.fix(*Lines, "");
      // The call costs its own latency (microseconds): the operation after
      // it waits for the same work anyway. Outside every loop of its
      // function that is once per call of the function, too little to be
      // worth a warning; in a loop, once per iteration.
      // Into or out of pageable memory the copy is staged through a driver
      // buffer and takes several times the call: the sync adds a small
      // share of each pass (judged irrelevant in round 9, 3 of 3).
      bool PageableCopy = false;
      if (Dir) {
        CopyOperands O = copyOperands(Op->Api.Name);
        std::optional<unsigned> HostArg = *Dir == CopyKind::DeviceToHost ? O.Dst : O.Src;
        PageableCopy = HostArg && *HostArg < Op->Call->getNumArgs() &&
                       Ctx.facts().provenance().of(Op->Call->getArg(*HostArg)).Kind ==
                           MemoryKind::Pageable;
      }
      if (runsOncePerRun(Sync->Call, FD))
        D.cold("runs once per run (outside every loop, in code that runs once): it costs one "
               "runtime call");
      else if (outsideLoops(Sync->Call, FD))
        D.cold("outside every loop of '" + FD->getNameAsString() +
               "': it costs one runtime call (microseconds) per call of the function, while "
               "the operation after it waits for the same work anyway");
      else if (PageableCopy)
        D.cold("the copy's host memory is pageable: the copy is staged through a driver buffer "
               "and takes several times the runtime call this removes, so the call is a small "
               "share of each iteration");
    }
  NextStatement:;
  }
}

/// Every GPU operation of FD is on the legacy default stream or a blocking
/// stream created in FD, nothing it calls queues work of its own, and no
/// code of the TU creates non-blocking streams: then a blocking copy waits
/// for all the work cudaDeviceSynchronize would.
bool SyncRedundantCheck::deviceWorkIsOnBlockingStreams(const FunctionDecl *FD) {
  if (nonBlockingStreamsInTU())
    return false;
  ASTContext &AST = Ctx.ast();
  ValueTracker &VT = Ctx.facts().values();
  for (const CallExpr *C : callsIn(FD->getBody())) {
    HostCallKind K = classifyHostCall(C);
    if (K == HostCallKind::LibraryWork)
      return false; // cuBLAS & co. run on whatever stream their handle has.
    if (K == HostCallKind::Launch) {
      std::optional<LaunchSite> L = getLaunchSite(C);
      if (!L || !isBlockingStream(L->Stream, FD, AST, VT))
        return false;
      continue;
    }
    if (K == HostCallKind::AsyncWork) {
      std::optional<ApiInfo> Api = classifyApiCall(C);
      const Expr *S = Api ? streamArgument(C, *Api) : nullptr;
      if (!Api || !isBlockingStream(S, FD, AST, VT))
        return false;
      continue;
    }
    if (K == HostCallKind::Other) {
      const FunctionDecl *Callee = C->getDirectCallee();
      if (!Callee)
        return false;
      if (Ctx.isLibraryCode(Callee))
        continue;
      if (queuesWorkIn(Callee, 0, Ctx))
        return false;
    }
  }
  return true;
}

CUDA_ADVISOR_REGISTER_CHECK(SyncRedundantCheck)

} // namespace cuda_advisor::checks
