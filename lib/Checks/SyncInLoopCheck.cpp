//===- SyncInLoopCheck.cpp - sync-in-loop ----------------------------------===//
//
// For each host loop: does it queue GPU work (launches, async copies,
// library calls), does it synchronize unconditionally on every iteration,
// and does anything in it need that synchronization? The last question is
// answered conservatively: a device-to-host copy, a clock read, MPI, a call
// whose code we cannot see, or a host access (read or write, directly or by
// handing the pointer to a function) to a buffer that the loop's GPU work
// uses or that is managed or pinned memory all count as "needed", and the
// loop gives no finding.
//
//===----------------------------------------------------------------------===//
#include "SyncInLoopCheck.h"
#include "cuda-advisor/Analysis/CudaApi.h"
#include "cuda-advisor/Analysis/HostCode.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

#include <utility>

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_advisor::analysis;

namespace cuda_advisor::checks {

namespace {

bool isCudaRuntimeFunction(const FunctionDecl *FD, CheckContext &CC) {
  return FD && FD->getIdentifier() && FD->getName().starts_with("cuda") && CC.isLibraryCode(FD);
}

/// thrust::device_vector, universal_vector and their bases: GPU memory.
bool isThrustDeviceContainer(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier())
    return false;
  std::string Q = RD->getQualifiedNameAsString();
  return StringRef(Q).starts_with("thrust::") &&
         (RD->getName() == "device_vector" || RD->getName() == "universal_vector" ||
          RD->getName().contains("vector_base"));
}

/// `#pragma omp` in the text of S: without -fopenmp (the front end parses
/// OpenMP code with _OPENMP defined but no OpenMP), the directives are not in
/// the AST, and a barrier may hand the GPU's results to other threads.
bool hasOpenMPPragma(const Stmt *S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(S->getSourceRange()),
                                               SM, Ctx.getLangOpts());
  if (R.isInvalid())
    return false;
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts(), &Invalid);
  if (Invalid)
    return false;
  for (size_t Pos = Text.find("pragma"); Pos != StringRef::npos; Pos = Text.find("pragma", Pos + 6))
    if (Text.drop_front(Pos + 6).ltrim(" \t").starts_with("omp"))
      return true;
  return false;
}

/// Calls Fn with each pointer or array argument of a call (and `&x`).
template <typename F> void forEachPointerArg(const CallExpr *C, F Fn) {
  for (const Expr *Arg : C->arguments()) {
    const Expr *E = Arg->IgnoreParenImpCasts();
    QualType T = E->getType();
    // Structs passed by value are copies.
    if (T->isPointerType() || T->isArrayType() || Arg->getType()->isPointerType())
      Fn(Arg);
  }
}

/// A Thrust algorithm that computes its return value on the device, so that
/// returning it waits for the GPU: reductions, counts, searches, and the
/// algorithms whose returned end depends on the data (remove_if, unique,
/// copy_if, partition).
bool returnsDeviceResult(const CallExpr *C) {
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD || !FD->getIdentifier() || FD->getReturnType()->isVoidType() ||
      !StringRef(FD->getQualifiedNameAsString()).starts_with("thrust::"))
    return false;
  return llvm::is_contained(
      {"reduce", "transform_reduce", "inner_product", "count", "count_if", "max_element",
       "min_element", "minmax_element", "find", "find_if", "find_if_not", "all_of", "any_of",
       "none_of", "is_sorted", "is_sorted_until", "is_partitioned", "equal", "mismatch",
       "remove", "remove_if", "unique", "copy_if", "partition", "unique_by_key",
       "reduce_by_key"},
      FD->getName());
}

/// E's value is used: it is not a statement of its own (a call whose result
/// is dropped).
bool resultUsed(const Expr *E, ASTContext &AST) {
  const Stmt *Child = E;
  for (unsigned Steps = 0; Steps < 16; ++Steps) {
    DynTypedNodeList Parents = AST.getParents(*Child);
    if (Parents.empty())
      return false;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return true; // A variable's initializer.
    if (isa<ImplicitCastExpr, ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
            ParenExpr>(P)) {
      Child = P;
      continue;
    }
    if (isa<CompoundStmt>(P))
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P))
      return If->getCond() == Child;
    if (isLoop(P))
      return loopCondition(P) == Child;
    return isa<Expr, ReturnStmt>(P);
  }
  return false;
}

} // namespace

SyncInLoopCheck::SyncInLoopCheck(StringRef Id, Severity Level, CheckContext &Ctx)
    : Check(Id, Level, Ctx), MaxCallDepth(option("MaxCallDepth")) {}


void SyncInLoopCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(functionDecl(isDefinition()).bind("function"), this);
}

const SyncInLoopCheck::Summary &SyncInLoopCheck::summaryOf(const FunctionDecl *FD,
                                                            unsigned Depth) {
  const FunctionDecl *Def = FD->getDefinition();
  auto It = Summaries.find(Def);
  if (It != Summaries.end())
    return It->second;
  Summaries[Def].Consumer = "a recursive call"; // In progress.
  Summary S = summarize(Def->getBody(), Def->getBody(), Depth);
  return Summaries[Def] = std::move(S);
}

SyncInLoopCheck::Summary SyncInLoopCheck::summarize(const Stmt *Body, const Stmt *Scope,
                                                    unsigned Depth) {
  ASTContext &AST = Ctx.ast();
  ProvenanceAnalysis &PA = Ctx.facts().provenance();
  Summary Out;
  llvm::DenseSet<const ValueDecl *> GpuBuffers;
  llvm::DenseSet<const Stmt *> GpuCalls; // Their arguments are not host accesses.
  auto Consumes = [&](std::string Why, bool Timing = false, bool EveryRun = false) {
    // A consumer that holds whatever the call site gives way to one that
    // holds only when the function runs in full.
    if (Out.Consumer.empty() || (Out.ConsumerEveryRun && !EveryRun)) {
      Out.Consumer = std::move(Why);
      Out.ConsumerIsTiming = Timing;
      Out.ConsumerEveryRun = EveryRun;
    }
  };
  // A blocking upload on every run waits for the earlier work only when that
  // work is on the legacy default stream (no stream, or stream 0): work on a
  // stream created with cudaStreamNonBlocking, a library's, or a callee's
  // goes on without it.
  std::string BlockingUpload;
  bool AllWorkOnDefaultStream = true;
  auto OnDefaultStream = [&](const Expr *S) {
    if (!S)
      return true;
    std::optional<int64_t> V = Ctx.facts().values().evaluateInt(S);
    return (V && *V == 0) || isa<CXXNullPtrLiteralExpr, GNUNullExpr>(S->IgnoreParenImpCasts());
  };
  auto AddGpuBuffers = [&](const CallExpr *C) {
    forEachPointerArg(C, [&](const Expr *Arg) {
      if (const ValueDecl *R = PA.rootOf(Arg))
        GpuBuffers.insert(R);
    });
  };

  // Pass 1: the calls.
  struct CallCollector : RecursiveASTVisitor<CallCollector> {
    std::vector<const CallExpr *> Calls;
    bool OpenMP = false;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; } // Runs when called.
    bool VisitCallExpr(CallExpr *C) {
      Calls.push_back(C);
      return true;
    }
    bool VisitOMPExecutableDirective(OMPExecutableDirective *) {
      OpenMP = true; // barrier, critical, parallel...: other threads may use the results.
      return true;
    }
  } CC;
  CC.TraverseStmt(const_cast<Stmt *>(Body));
  if (CC.OpenMP || hasOpenMPPragma(Body, AST))
    Consumes("OpenMP synchronization");

  for (const CallExpr *C : CC.Calls) {
    HostCallKind K = classifyHostCall(C);
    std::optional<ApiInfo> Api = classifyApiCall(C);
    if (queuesGpuWork(K)) {
      if (!Out.Work)
        Out.Work = C;
      if (K == HostCallKind::Launch) {
        std::optional<LaunchSite> L = getLaunchSite(C);
        AllWorkOnDefaultStream &= L && OnDefaultStream(L->Stream);
      } else {
        const Expr *S = Api ? streamArgument(C, *Api) : nullptr;
        AllWorkOnDefaultStream &= Api && OnDefaultStream(S);
      }
      GpuCalls.insert(C);
      AddGpuBuffers(C);
      if (Api && Api->Kind == ApiKind::CopyAsync) {
        std::optional<CopyKind> Dir = copyKindOf(C, *Api, AST);
        if (!Dir || *Dir == CopyKind::DeviceToHost || *Dir == CopyKind::Default)
          Consumes("a device-to-host copy");
      }
      // `leading = thrust::max_element(...) - first` on every iteration: the
      // algorithm brings its result back to the host, waiting for the GPU's
      // earlier work, as the synchronization does.
      if (K == HostCallKind::LibraryWork && returnsDeviceResult(C) && resultUsed(C, AST) &&
          runsWheneverScopeRuns(C, Scope, AST))
        Consumes("'" + C->getDirectCallee()->getQualifiedNameAsString() +
                     "', whose result the host reads: it waits for the GPU anyway",
                 false, /*EveryRun=*/true);
      continue;
    }
    switch (K) {
    case HostCallKind::BlockingCopy: {
      GpuCalls.insert(C);
      AddGpuBuffers(C);
      std::optional<CopyKind> Dir = Api ? copyKindOf(C, *Api, AST) : std::nullopt;
      if (!Dir || *Dir == CopyKind::DeviceToHost || *Dir == CopyKind::Default ||
          *Dir == CopyKind::HostToHost)
        Consumes("a device-to-host copy");
      // A blocking upload on every run of the scope (`cudaMemcpyToSymbol(flag,
      // &zero, 4)` at the top of each iteration) first waits for the work
      // queued before it, as the synchronization does: without the
      // synchronization each iteration waits there instead, and removing it
      // saves nothing unless the copy becomes asynchronous too.
      else if (*Dir == CopyKind::HostToDevice && runsWheneverScopeRuns(C, Scope, AST) && Api &&
               !StringRef(C->getDirectCallee() ? C->getDirectCallee()->getName() : "")
                    .ends_with("_ptds") &&
               BlockingUpload.empty())
        BlockingUpload = "'" + Api->Name +
                         "', a blocking upload that waits for the work queued before it on "
                         "the default stream anyway";
      continue;
    }
    case HostCallKind::Sync:
      GpuCalls.insert(C);
      if (runsWheneverScopeRuns(C, Scope, AST))
        Out.Syncs.push_back({C, Api ? Api->Name : "a synchronization"});
      continue;
    case HostCallKind::Timing:
      // `if (iter == 1) { sync(); t0 = wtime(); }`: the clock is read on one
      // iteration (the start of the timed iterations), and the syncs of the
      // others are not part of any measurement.
      if (isLoop(Scope) && onOneIterationOf(C, Scope, AST))
        continue;
      Consumes("timing", /*Timing=*/true);
      continue;
    case HostCallKind::HostComm:
      Consumes("communication with other processes");
      continue;
    default:
      break;
    }
    const FunctionDecl *FD = C->getDirectCallee();
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
        MD && isThrustDeviceContainer(MD->getParent()) &&
        (MD->getOverloadedOperator() == OO_Subscript ||
         (MD->getIdentifier() && (MD->getName() == "front" || MD->getName() == "back")))) {
      Consumes("a host access to a thrust::device_vector element (a device-to-host copy)");
      continue;
    }
    if (!FD) {
      if (!isa<CXXPseudoDestructorExpr>(C->getCallee()))
        Consumes("a call through a pointer");
      continue;
    }
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isVirtual() && !Ctx.isLibraryCode(MD)) {
      Consumes("a virtual call, which may run any override");
      continue;
    }
    if (isCudaRuntimeFunction(FD, Ctx)) {
      GpuCalls.insert(C);
      if (FD->getName().starts_with("cudaGraphics") || FD->getName().starts_with("cudaIpc"))
        Consumes("graphics or IPC interop");
      // cudaFree waits until the device is idle: with one on every run of
      // the scope (a buffer allocated and freed per iteration), each
      // iteration waits for the GPU with or without the explicit
      // synchronization, which then removes no wait; the allocation is the
      // thief (transfer-in-loop reports it).
      if (Api && (Api->Kind == ApiKind::Free || Api->Kind == ApiKind::HostFree) && !Api->Async &&
          runsWheneverScopeRuns(C, Scope, AST))
        Consumes("'" + Api->Name + "', which waits for the GPU anyway", false, /*EveryRun=*/true);
      continue;
    }
    if (Ctx.isLibraryCode(FD))
      continue; // Standard library: its pointer arguments are checked in pass 2.
    const FunctionDecl *Def = FD->getDefinition();
    if (!Def || !Def->hasBody() || Depth >= MaxCallDepth || !mayRunOnHost(Def)) {
      if (!Def || !Def->hasBody())
        Consumes("a call to '" + FD->getNameAsString() + "', whose code is not visible");
      else if (Depth >= MaxCallDepth)
        Consumes("calls nested too deeply to follow");
      continue;
    }
    const Summary &S = summaryOf(Def, Depth + 1);
    bool OneIterationTimer = S.ConsumerIsTiming && !S.Work && S.Syncs.empty() && isLoop(Scope) &&
                             onOneIterationOf(C, Scope, AST);
    if (!S.Consumer.empty() && !OneIterationTimer &&
        (!S.ConsumerEveryRun || runsWheneverScopeRuns(C, Scope, AST)))
      Consumes("'" + FD->getNameAsString() + "' may need it (" + S.Consumer + ")",
               S.ConsumerIsTiming, S.ConsumerEveryRun);
    if (S.Work) {
      if (!Out.Work)
        Out.Work = C;
      AllWorkOnDefaultStream = false; // The callee's streams are its own.
      GpuCalls.insert(C);
      AddGpuBuffers(C); // What the callee's GPU work may use.
    }
    if (!S.Syncs.empty() && runsWheneverScopeRuns(C, Scope, AST))
      Out.Syncs.push_back({C, S.Syncs.front().second});
  }
  if (!BlockingUpload.empty() && AllWorkOnDefaultStream)
    Consumes(BlockingUpload, false, /*EveryRun=*/true);
  if (!Out.Consumer.empty())
    return Out;

  // Pass 2: host code touching what the GPU work uses, or managed/pinned memory.
  struct AccessFinder : RecursiveASTVisitor<AccessFinder> {
    ProvenanceAnalysis &PA;
    const llvm::DenseSet<const ValueDecl *> &Gpu;
    const llvm::DenseSet<const Stmt *> &Skip;
    std::string Found;
    AccessFinder(ProvenanceAnalysis &PA, const llvm::DenseSet<const ValueDecl *> &Gpu,
                 const llvm::DenseSet<const Stmt *> &Skip)
        : PA(PA), Gpu(Gpu), Skip(Skip) {}

    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool TraverseCallExpr(CallExpr *C) {
      if (Skip.count(C))
        return true;
      return RecursiveASTVisitor::TraverseCallExpr(C);
    }
    bool TraverseCUDAKernelCallExpr(CUDAKernelCallExpr *C) { return true; }
    bool TraverseCXXMemberCallExpr(CXXMemberCallExpr *C) {
      if (Skip.count(C))
        return true;
      return RecursiveASTVisitor::TraverseCXXMemberCallExpr(C);
    }

    void touch(const Expr *Base, const char *How) {
      if (!Found.empty() || !Base)
        return;
      const ValueDecl *R = PA.rootOf(Base);
      std::string Name = R ? "'" + R->getNameAsString() + "'" : "memory";
      if (R && Gpu.count(R)) {
        Found = std::string("the host ") + How + " " + Name + ", which the GPU work uses";
        return;
      }
      MemoryKind K = PA.of(Base).Kind;
      if (K == MemoryKind::Managed || K == MemoryKind::Pinned)
        Found = std::string("the host ") + How + " " + memoryKindName(K).str() + " memory " + Name;
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
      touch(AS->getBase(), "accesses");
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      if (UO->getOpcode() == UO_Deref)
        touch(UO->getSubExpr(), "accesses");
      return true;
    }
    bool VisitMemberExpr(MemberExpr *ME) {
      if (ME->isArrow())
        touch(ME->getBase(), "accesses");
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
      if ((OC->getOperator() == OO_Subscript || OC->getOperator() == OO_Star) &&
          OC->getNumArgs() >= 1)
        touch(OC->getArg(0), "accesses");
      return true;
    }
    bool VisitCXXForRangeStmt(CXXForRangeStmt *RF) {
      touch(RF->getRangeInit(), "reads"); // for (float x : buffer)
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      // `cublasSdot(..., &r)` then `if (r < tol)`: a value the GPU work
      // writes through its address, read by the host.
      if (Found.empty() && Gpu.count(DRE->getDecl()) && !DRE->getType()->isPointerType() &&
          !DRE->getType()->isArrayType())
        Found = "the host uses '" + DRE->getDecl()->getNameAsString() +
                "', which the GPU work writes";
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && V->hasAttr<HIPManagedAttr>())
        if (Found.empty())
          Found = "the host accesses the __managed__ variable '" + V->getNameAsString() + "'";
      return true;
    }
    bool VisitCallExpr(CallExpr *C) {
      // A function handed a pointer may read or write through it.
      const FunctionDecl *FD = C->getDirectCallee();
      for (unsigned I = 0; I < C->getNumArgs(); ++I) {
        const Expr *Arg = C->getArg(I);
        if (FD && I < FD->getNumParams() && FD->getParamDecl(I)->getType()->isReferenceType() &&
            Arg->IgnoreParenImpCasts()->getType()->isPointerType())
          continue; // std::swap(a, b): the pointers themselves, not what they point to.
        QualType T = Arg->IgnoreParenImpCasts()->getType();
        if (T->isPointerType() || T->isArrayType() || Arg->getType()->isPointerType())
          touch(Arg, "passes");
      }
      return true;
    }
  } AF(PA, GpuBuffers, GpuCalls);
  AF.TraverseStmt(const_cast<Stmt *>(Body));
  if (!AF.Found.empty())
    Out.Consumer = AF.Found;
  return Out;
}

void SyncInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!FD || !FD->hasBody() || !mayRunOnHost(FD) || FD->isDependentContext())
    return;
  struct LoopCollector : RecursiveASTVisitor<LoopCollector> {
    std::vector<const Stmt *> Loops;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitStmt(Stmt *S) {
      if (isLoop(S) && !runsAtMostOnce(S))
        Loops.push_back(S);
      return true;
    }
  } LC;
  LC.TraverseStmt(FD->getBody());
  ValueTracker &VT = Ctx.facts().values();
  for (const Stmt *Loop : LC.Loops) {
    Summary S = summarize(Loop, Loop, 0);
    if (!S.Work || S.Syncs.empty() || !S.Consumer.empty())
      continue;
    std::optional<int64_t> Trips = constantTripCount(Loop, VT);
    bool DeviceLoop = isDeviceLoop(Loop);
    // A cudaDeviceSynchronize after another of every iteration with only
    // host code between them (`launch; sync; swap(a, b); sync;`: assignments,
    // the standard library, printf, error queries) finds the GPU idle and
    // returns at once. A stream's or an event's synchronization covers less,
    // a helper may queue work after its own, and any other call between
    // them (GPU work, a copy, cudaSetDevice, a user function) may give the
    // second one something to wait for.
    const SourceManager &SM = Ctx.ast().getSourceManager();
    auto Before = [&](const Stmt *A, const Stmt *B) {
      return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
    };
    auto DeviceWide = [](const CallExpr *C) {
      std::optional<ApiInfo> Api = classifyApiCall(C);
      return Api && Api->Kind == ApiKind::DeviceSync;
    };
    auto HostCodeOnly = [&](const CallExpr *C) {
      const FunctionDecl *F = C->getDirectCallee();
      return isErrorQuery(C) ||
             (F && classifyHostCall(C) == HostCallKind::Other && Ctx.isLibraryCode(F) &&
              !isCudaRuntimeFunction(F, Ctx));
    };
    std::vector<const CallExpr *> LoopCalls;
    const CallExpr *Previous = nullptr;
    for (auto &[Call, Api] : S.Syncs) {
      const CallExpr *Earlier = std::exchange(Previous, Call);
      std::string Idle;
      if (Earlier && DeviceWide(Earlier) && DeviceWide(Call) && Before(Earlier, Call)) {
        if (LoopCalls.empty())
          forEachCallInLoops(Loop, [&](const CallExpr *C, ArrayRef<const Stmt *>) {
            LoopCalls.push_back(C);
          });
        if (llvm::all_of(LoopCalls, [&](const CallExpr *C) {
              return !Before(Earlier, C) || !Before(C, Call) || HostCodeOnly(C);
            }))
          Idle = "the synchronization at line " +
                 std::to_string(SM.getExpansionLineNumber(Earlier->getBeginLoc())) +
                 " already waited for this iteration's GPU work, and no work is queued in "
                 "between: this one finds the GPU idle";
      }
      bool Direct = classifyHostCall(Call) == HostCallKind::Sync;
      const FunctionDecl *Via = Direct ? nullptr : Call->getDirectCallee();
      std::string Callee = Direct ? std::string() : describeCallee(Call);
      std::string Msg = Direct ? Api + " runs on every iteration of this loop"
                               : Callee + " calls " + Api +
                                     " and runs on every iteration of this loop";
      if (DeviceLoop) {
        // Each iteration is another device: the waits serialize the devices.
        Msg = (Direct ? Api : Callee + ", which calls " + Api + ",") +
              " runs once per device in this loop over devices, which also queues each "
              "device's work: the host waits for one device before it gives the next its "
              "work, so the devices run one after another; queue the work on every device "
              "first, then synchronize them in a second loop";
      } else {
        if (Trips)
          Msg += " (" + std::to_string(*Trips) + " iterations)";
        Msg += ", which also queues GPU work: each time, the host waits until the GPU is idle "
               "and the GPU then waits for the host to queue more work; work on one stream "
               "runs in order without it: synchronize once after the loop";
      }
      auto D = diag(Call->getBeginLoc(), Msg);
      if (!Idle.empty())
        D.cold(Idle);
      // A multi-pass reduction's loop waits a few times in all.
      else if (!DeviceLoop)
        if (std::optional<FewPasses> FP = fewPassLoop(Loop, VT);
            FP && !mayRepeat(Loop, Ctx.ast()))
          D.cold(describe(*FP) + ": a few waits in all");
      D.range(Call->getSourceRange()).note(Loop->getBeginLoc(), "inside this loop");
      if (S.Work != Call)
        D.note(S.Work->getBeginLoc(), "GPU work queued here");
      D.callSite(Call->getBeginLoc()).api(Api).evidence(evidence::Api, Api);
      if (Via) {
        // The synchronize inside the helper, for the note and the profile join.
        const Summary &VS = summaryOf(Via->getDefinition(), 1);
        const CallExpr *Inner = VS.Syncs.front().first;
        while (classifyHostCall(Inner) != HostCallKind::Sync && Inner->getDirectCallee() &&
               Inner->getDirectCallee()->getDefinition()) {
          const Summary &Next = summaryOf(Inner->getDirectCallee()->getDefinition(), 1);
          if (Next.Syncs.empty())
            break;
          Inner = Next.Syncs.front().first;
        }
        D.note(Inner->getBeginLoc(), Api + " called here")
            .callSite(Inner->getBeginLoc())
            .evidence(evidence::Via, Via->getNameAsString());
      }
      if (Trips)
        D.evidence(evidence::TripCount, *Trips);
    }
  }
}

CUDA_ADVISOR_REGISTER_CHECK(SyncInLoopCheck)

} // namespace cuda_advisor::checks
