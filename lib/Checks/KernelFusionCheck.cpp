//===- KernelFusionCheck.cpp - kernel-fusion -------------------------------===//
#include "KernelFusionCheck.h"
#include "cuda-advisor/Analysis/CudaApi.h"
#include "cuda-advisor/Analysis/HostCode.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/TUFacts.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_advisor::analysis;

namespace cuda_advisor::checks {

KernelFusionCheck::KernelFusionCheck(StringRef Id, Severity Level, CheckContext &Ctx)
    : Check(Id, Level, Ctx) {}

void KernelFusionCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(functionDecl(isDefinition()).bind("function"), this);
}

void KernelFusionCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!FD || !FD->hasBody() || !mayRunOnHost(FD) || FD->isDependentContext())
    return;
  scan(FD->getBody());
}

void KernelFusionCheck::scan(const Stmt *S) {
  if (!S)
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return scanCompound(CS);
  for (const Stmt *Child : S->children())
    scan(Child);
}

static const Expr *bare(const Expr *E) {
  while (E) {
    const Expr *Prev = E;
    E = E->IgnoreParenImpCasts();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      E = EWC->getSubExpr();
    if (const auto *CE = dyn_cast<CStyleCastExpr>(E); CE && CE->getType()->isVoidType())
      E = CE->getSubExpr();
    if (E == Prev)
      return E;
  }
  return E;
}

/// Host code that does not wait for the device nor read its results:
/// checking the last launch error and printing about it, scalar arithmetic.
static bool isHarmless(const Stmt *S) {
  if (!S)
    return true;
  if (isa<CUDAKernelCallExpr, ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, LabelStmt,
          CXXTryStmt, LambdaExpr>(S))
    return false;
  if (isLoop(S) || isa<CXXForRangeStmt, SwitchStmt>(S))
    return false;
  if (isa<ArraySubscriptExpr>(S))
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_Deref)
    return false;
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow())
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || !FD->getIdentifier()) {
      // std::cerr << ...: an operator of the standard library.
      const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
      if (!OC || !FD || !FD->isInStdNamespace())
        return false;
    } else if (classifyHostCall(CE) == HostCallKind::Timing) {
      return false; // std::chrono, clock(), cudaEventRecord: the launches are timed apart.
    } else {
      StringRef N = FD->getName();
      bool ErrorQuery = isErrorQuery(CE);
      bool Output = llvm::StringSwitch<bool>(N)
                        .Cases("printf", "fprintf", "puts", "fputs", "fflush", "exit", true)
                        .Cases("abort", "__assert_fail", "__assert_rtn", "_assert", true)
                        .Default(false);
      bool Wrapper = llvm::any_of(CE->arguments(), [](const Expr *Arg) {
        const auto *Inner = dyn_cast<CallExpr>(bare(Arg));
        const FunctionDecl *IF = Inner ? Inner->getDirectCallee() : nullptr;
        return IF && IF->getIdentifier() &&
               (IF->getName() == "cudaGetLastError" || IF->getName() == "cudaPeekAtLastError");
      });
      // getLastCudaError("msg") and similar helpers read the last error only.
      bool LastErrorHelper = N.contains_insensitive("lastcudaerror") ||
                             N.contains_insensitive("lasterror");
      if (!ErrorQuery && !Output && !Wrapper && !LastErrorHelper && !FD->isInStdNamespace())
        return false;
    }
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        if (!isHarmless(V->getInit()))
          return false;
  for (const Stmt *Child : S->children())
    if (!isHarmless(Child))
      return false;
  return true;
}

/// The element-wise index may only name coordinates, one grid-stride loop
/// and the kernel's own scalar parameters (matched through the arguments).
static bool comparableIndex(const AffineForm &F, const FunctionDecl *Kernel) {
  const void *Loop = nullptr;
  for (const Term &T : F.terms())
    for (const Symbol &S : T.Symbols) {
      if (S.isCoordinate())
        continue;
      if (S.Kind == SymbolKind::LoopCounter) {
        if (Loop && Loop != S.Site)
          return false;
        Loop = S.Site;
        continue;
      }
      const auto *P = S.Kind == SymbolKind::Value && !S.Site
                          ? dyn_cast_or_null<ParmVarDecl>(static_cast<const Decl *>(S.Decl))
                          : nullptr;
      if (!P || P->getDeclContext() != Kernel)
        return false;
    }
  return true;
}

namespace {
/// Arithmetic and memory operations in a kernel body, and whether a loop
/// in it does arithmetic without touching memory.
struct WorkCounter : RecursiveASTVisitor<WorkCounter> {
  unsigned Arithmetic = 0, Memory = 0;
  bool ArithmeticLoop = false;

  static bool isArithmetic(const Expr *E) {
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      BinaryOperatorKind Op = BO->isCompoundAssignmentOp()
                                  ? BinaryOperator::getOpForCompoundAssignment(BO->getOpcode())
                                  : BO->getOpcode();
      return (Op == BO_Mul || Op == BO_Div || Op == BO_Add || Op == BO_Sub) &&
             BO->getType()->isRealFloatingType();
    }
    if (const auto *C = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *FD = C->getDirectCallee(); FD && FD->getIdentifier())
        return FD->getReturnType()->isRealFloatingType() &&
               llvm::any_of(C->arguments(), [](const Expr *A) {
                 return A->getType()->isRealFloatingType();
               });
    return false;
  }
  static bool isMemory(const Expr *E) {
    if (isa<ArraySubscriptExpr>(E))
      return true;
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return UO->getOpcode() == UO_Deref;
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->isArrow();
    return false;
  }
  bool VisitExpr(Expr *E) {
    Arithmetic += isArithmetic(E);
    Memory += isMemory(E);
    return true;
  }
  bool VisitStmt(Stmt *S) {
    if (!isa<ForStmt, WhileStmt, DoStmt>(S) || ArithmeticLoop)
      return true;
    WorkCounter Inner;
    for (const Stmt *C : S->children())
      Inner.TraverseStmt(const_cast<Stmt *>(C));
    ArithmeticLoop = Inner.Arithmetic >= 2 && Inner.Memory == 0;
    return true;
  }
};
} // namespace

/// A kernel whose time goes to arithmetic, not memory: a loop of
/// floating-point operations that touches no memory (a peak-FLOP benchmark's
/// chain of FMAs), or many more operations than memory accesses. Fusing it
/// saves no time worth a finding.
bool KernelFusionCheck::computeBound(const FunctionDecl *Kernel) {
  auto [It, Inserted] = ComputeBound.try_emplace(Kernel, false);
  if (!Inserted || !Kernel->hasBody())
    return It->second;
  WorkCounter W;
  W.TraverseStmt(Kernel->getBody());
  return It->second = W.ArithmeticLoop || W.Arithmetic >= 16 * std::max(1u, W.Memory);
}

std::optional<KernelFusionCheck::Launch> KernelFusionCheck::fusableLaunch(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  const auto *Call = E ? dyn_cast<CUDAKernelCallExpr>(bare(E)) : nullptr;
  if (!Call)
    return std::nullopt;
  std::optional<LaunchSite> Site = getLaunchSite(Call);
  if (!Site || !Site->Kernel)
    return std::nullopt;
  const FunctionDecl *Def = Site->Kernel->getDefinition();
  if (!Def || Ctx.sourceManager().isInSystemHeader(Def->getLocation()))
    return std::nullopt;
  ValueTracker &VT = Ctx.facts().values();
  if (Site->SharedMem) {
    std::optional<int64_t> Bytes = VT.evaluateInt(Site->SharedMem);
    if (!Bytes || *Bytes != 0)
      return std::nullopt; // Dynamic shared memory.
  }
  const KernelSummary *Sum = Ctx.facts().kernels().summaryOf(Def);
  if (!Sum || !Sum->ElementIndex || Sum->UsesSharedMemory || Sum->Synchronizes ||
      Sum->UsesAtomics || Sum->HasOpaqueCalls || Sum->HasUnknownAccesses ||
      !comparableIndex(*Sum->ElementIndex, Def) || computeBound(Def))
    return std::nullopt;
  for (const BufferUse &B : Sum->Buffers)
    if (!isa_and_nonnull<ParmVarDecl>(B.Root.Decl) || B.Root.Field || B.Root.Load)
      return std::nullopt; // A buffer the launch arguments do not name.
  for (const MemoryRoot &R : Sum->UniformReads)
    if (!isa_and_nonnull<ParmVarDecl>(R.Decl) || R.Field || R.Load)
      return std::nullopt;
  Launch L;
  L.Site = *Site;
  L.Kernel = Def;
  L.Summary = Sum;
  return L;
}

static const Expr *argumentFor(const CallExpr *Call, const FunctionDecl *Kernel,
                               const ValueDecl *Param) {
  for (unsigned I = 0; I < Kernel->getNumParams() && I < Call->getNumArgs(); ++I)
    if (Kernel->getParamDecl(I) == Param)
      return Call->getArg(I);
  return nullptr;
}

/// No stream, 0, nullptr and cudaStreamLegacy all name the legacy default stream.
static bool isDefaultStream(const Expr *E, ValueTracker &VT) {
  if (!E)
    return true;
  const Expr *B = bare(E);
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(B))
    return true;
  if (std::optional<int64_t> V = VT.evaluateInt(B))
    return *V == 0;
  return B->isNullPointerConstant(VT.context(), Expr::NPC_ValueDependentIsNotNull) !=
         Expr::NPCK_NotNull;
}

static bool sameStream(const Expr *A, const Expr *B, ValueTracker &VT) {
  bool DA = isDefaultStream(A, VT), DB = isDefaultStream(B, VT);
  if (DA || DB)
    return DA && DB;
  return sameValue(A, B, VT);
}

static bool sameShape(const Expr *A, const Expr *B, ValueTracker &VT) {
  if (sameValue(A, B, VT))
    return true;
  std::optional<Dim3Value> DA = VT.evaluateDim3(A), DB = VT.evaluateDim3(B);
  return DA && DB && DA->allKnown() && DB->allKnown() && *DA->X == *DB->X && *DA->Y == *DB->Y &&
         *DA->Z == *DB->Z;
}

namespace {
/// Element indices of two kernels compared through their launch arguments.
class IndexComparer {
public:
  explicit IndexComparer(ValueTracker &VT) : VT(VT) {}

  std::vector<std::pair<std::vector<std::string>, int64_t>> canonical(const AffineForm &F,
                                                                      const CallExpr *Call,
                                                                      const FunctionDecl *K) {
    std::vector<std::pair<std::vector<std::string>, int64_t>> Out;
    for (const Term &T : F.terms()) {
      std::vector<std::string> Keys;
      for (const Symbol &S : T.Symbols) {
        if (S.isCoordinate())
          Keys.push_back("c" + std::to_string(int(S.Kind)) + std::to_string(S.Dim));
        else if (S.Kind == SymbolKind::LoopCounter)
          Keys.push_back("loop");
        else
          Keys.push_back("arg" + std::to_string(classOf(
              argumentFor(Call, K, static_cast<const ValueDecl *>(S.Decl)))));
      }
      std::sort(Keys.begin(), Keys.end());
      Out.push_back({Keys, T.Coefficient});
    }
    std::sort(Out.begin(), Out.end());
    return Out;
  }

private:
  int classOf(const Expr *Arg) {
    if (!Arg)
      return -1;
    for (size_t I = 0; I < Seen.size(); ++I)
      if (sameValue(Seen[I], Arg, VT))
        return static_cast<int>(I);
    Seen.push_back(Arg);
    return static_cast<int>(Seen.size() - 1);
  }
  ValueTracker &VT;
  std::vector<const Expr *> Seen;
};
} // namespace

static unsigned pointeeBytes(const ValueDecl *P, ASTContext &AST) {
  QualType T = P->getType();
  const auto *PT = T->getAs<PointerType>();
  if (!PT || PT->getPointeeType()->isIncompleteType() || PT->getPointeeType()->isDependentType())
    return 0;
  return static_cast<unsigned>(AST.getTypeSizeInChars(PT->getPointeeType()).getQuantity());
}

/// The variable (or field) a pointer argument is derived from: d for d,
/// d + n, &d[k], (float4 *)d, v.data().
static const ValueDecl *pointerBase(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = bare(E);
    if (const auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
      E = CE->getSubExpr();
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
        return nullptr;
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf) {
      E = UO->getSubExpr();
      continue;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase();
      continue;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      E = MC->getImplicitObjectArgument();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl();
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->getMemberDecl();
    return nullptr;
  }
  return nullptr;
}

bool KernelFusionCheck::compatible(const Launch &A, const Launch &B, std::vector<Passed> &Buffers) {
  ValueTracker &VT = Ctx.facts().values();
  if (!sameStream(A.Site.Stream, B.Site.Stream, VT) || !sameShape(A.Site.Grid, B.Site.Grid, VT) ||
      !sameShape(A.Site.Block, B.Site.Block, VT))
    return false;
  IndexComparer Cmp(VT);
  if (Cmp.canonical(*A.Summary->ElementIndex, A.Site.Call, A.Kernel) !=
      Cmp.canonical(*B.Summary->ElementIndex, B.Site.Call, B.Kernel))
    return false;
  // A buffer that one kernel writes and the other reads at one index for all
  // threads (a[0]) is a dependence between threads: not fusable.
  auto ArgOf = [&](const Launch &L, const MemoryRoot &R) {
    return argumentFor(L.Site.Call, L.Kernel, R.Decl);
  };
  auto CrossRead = [&](const Launch &W, const Launch &R) {
    for (const BufferUse &BW : W.Summary->Buffers) {
      if (!BW.Written)
        continue;
      const Expr *AW = ArgOf(W, BW.Root);
      for (const MemoryRoot &U : R.Summary->UniformReads)
        if (const Expr *AU = ArgOf(R, U); AW && AU && sameValue(AW, AU, VT))
          return true;
    }
    return false;
  };
  if (CrossRead(A, B) || CrossRead(B, A))
    return false;
  // The same kernel launched twice with the same arguments (a warm-up, then
  // the timed launch): the second recomputes what the first wrote, unless
  // the kernel reads what it writes (v[i] += 1 twice).
  if (A.Kernel == B.Kernel && A.Site.Call->getNumArgs() == B.Site.Call->getNumArgs()) {
    bool SameArgs = true;
    for (unsigned I = 0; I < A.Site.Call->getNumArgs() && SameArgs; ++I)
      SameArgs = sameValue(A.Site.Call->getArg(I), B.Site.Call->getArg(I), VT);
    bool Accumulates = llvm::any_of(A.Summary->Buffers,
                                    [](const BufferUse &U) { return U.Read && U.Written; });
    if (SameArgs && !Accumulates)
      return false;
  }
  // Thread i of the second kernel may only depend on what thread i of the
  // first wrote: a buffer both use must be the same pointer with the same
  // element type, never an offset or reinterpreted view of the other's.
  for (const BufferUse &BA : A.Summary->Buffers)
    for (const BufferUse &BB : B.Summary->Buffers) {
      if (!BA.Written && !BB.Written)
        continue;
      const Expr *AA = ArgOf(A, BA.Root), *AB = ArgOf(B, BB.Root);
      if (!AA || !AB)
        return false;
      if (sameValue(AA, AB, VT)) {
        unsigned SA = pointeeBytes(BA.Root.Decl, Ctx.ast());
        if (SA == 0 || SA != pointeeBytes(BB.Root.Decl, Ctx.ast()))
          return false;
        continue;
      }
      const ValueDecl *VA = pointerBase(AA), *VB = pointerBase(AB);
      if (VA && VA == VB)
        return false;
    }
  Buffers.clear();
  for (const BufferUse &BA : A.Summary->Buffers) {
    if (!BA.Written)
      continue;
    const Expr *AA = ArgOf(A, BA.Root);
    if (!AA)
      continue;
    for (const BufferUse &BB : B.Summary->Buffers) {
      const Expr *AB = ArgOf(B, BB.Root);
      if (AB && sameValue(AA, AB, VT) && BB.Read) {
        Buffers.push_back({AB, pointeeBytes(BB.Root.Decl, Ctx.ast())});
        break;
      }
    }
  }
  if (!Buffers.empty())
    return true;
  // Written by one, overwritten by the next: still one pass instead of two.
  for (const BufferUse &BA : A.Summary->Buffers)
    for (const BufferUse &BB : B.Summary->Buffers) {
      const Expr *AA = ArgOf(A, BA.Root), *AB = ArgOf(B, BB.Root);
      if (BA.Written && BB.Written && AA && AB && sameValue(AA, AB, VT)) {
        Buffers.push_back({AB, pointeeBytes(BB.Root.Decl, Ctx.ast()), /*Overwritten=*/true});
        return true;
      }
    }
  // Siblings that read the same input (horizontal fusion): one kernel reads
  // it once for both.
  for (const BufferUse &BA : A.Summary->Buffers)
    for (const BufferUse &BB : B.Summary->Buffers) {
      const Expr *AA = ArgOf(A, BA.Root), *AB = ArgOf(B, BB.Root);
      if (BA.Read && BB.Read && !BA.Written && !BB.Written && AA && AB &&
          sameValue(AA, AB, VT) &&
          pointeeBytes(BA.Root.Decl, Ctx.ast()) == pointeeBytes(BB.Root.Decl, Ctx.ast()))
        Buffers.push_back({AB, pointeeBytes(BB.Root.Decl, Ctx.ast()), /*Overwritten=*/false,
                           /*SharedInput=*/true});
    }
  return !Buffers.empty();
}

void KernelFusionCheck::scanCompound(const CompoundStmt *CS) {
  std::vector<Launch> Chain;
  std::vector<std::vector<Passed>> Links; // Links[i]: between Chain[i] and Chain[i + 1].
  for (const Stmt *S : CS->body()) {
    if (std::optional<Launch> L = fusableLaunch(S)) {
      std::vector<Passed> Buffers;
      if (!Chain.empty() && compatible(Chain.back(), *L, Buffers)) {
        Chain.push_back(*L);
        Links.push_back(std::move(Buffers));
        continue;
      }
      flush(Chain, Links);
      Chain.push_back(*L);
      continue;
    }
    if (isa<NullStmt>(S) || (!Chain.empty() && isHarmless(S) && !isa<CompoundStmt>(S)))
      continue;
    flush(Chain, Links);
    scan(S);
  }
  flush(Chain, Links);
}

static std::string sourceText(const Expr *E, ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  StringRef T = Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), SM,
                                     AST.getLangOpts());
  if (T.empty() || T.size() > 40)
    return "";
  return T.str();
}

static std::string formatBytes(int64_t B) {
  if (B >= (int64_t(1) << 20) && B % (int64_t(1) << 20) == 0)
    return std::to_string(B >> 20) + " MiB";
  if (B >= (int64_t(1) << 10) && B % (int64_t(1) << 10) == 0)
    return std::to_string(B >> 10) + " KiB";
  return std::to_string(B) + " bytes";
}

void KernelFusionCheck::flush(std::vector<Launch> &Chain,
                              std::vector<std::vector<Passed>> &Links) {
  if (Chain.size() < 2) {
    Chain.clear();
    Links.clear();
    return;
  }
  ASTContext &AST = Ctx.ast();
  ValueTracker &VT = Ctx.facts().values();
  std::string Names;
  llvm::json::Array Kernels;
  for (const Launch &L : Chain) {
    Names += (Names.empty() ? "" : " -> ") + L.Kernel->getNameAsString();
    Kernels.push_back(L.Kernel->getNameAsString());
  }
  // Threads launched, when the grid and block are known and the index has
  // no grid-stride loop: one element per thread.
  std::optional<int64_t> Threads;
  std::optional<Dim3Value> G = VT.evaluateDim3(Chain.front().Site.Grid);
  std::optional<Dim3Value> Bk = VT.evaluateDim3(Chain.front().Site.Block);
  if (G && Bk && G->total() && Bk->total() &&
      !Chain.front().Summary->ElementIndex->dependsOnKind(SymbolKind::LoopCounter))
    Threads = *G->total() * *Bk->total();

  std::vector<std::string> BufferNames;
  llvm::json::Array BufferEvidence;
  int64_t RoundTrip = 0;
  bool BytesKnown = Threads.has_value();
  for (const std::vector<Passed> &Link : Links)
    for (const Passed &P : Link) {
      std::string N = sourceText(P.Arg, AST);
      if (N.empty())
        N = "buffer";
      if (!llvm::is_contained(BufferNames, N))
        BufferNames.push_back(N);
      llvm::json::Object O{{"name", N}, {"elementBytes", int64_t(P.ElementBytes)}};
      if (Threads && P.ElementBytes) {
        O["bytes"] = *Threads * P.ElementBytes;
        RoundTrip += (P.Overwritten || P.SharedInput ? 1 : 2) * *Threads * P.ElementBytes;
      } else {
        BytesKnown = false;
      }
      BufferEvidence.push_back(std::move(O));
    }
  bool AllOverwritten = llvm::all_of(Links, [](const std::vector<Passed> &Link) {
    return llvm::all_of(Link, [](const Passed &P) { return P.Overwritten; });
  });
  std::string Quoted;
  for (size_t I = 0; I < BufferNames.size(); ++I)
    Quoted += (I == 0 ? "" : I + 1 == BufferNames.size() ? " and " : ", ") +
              ("'" + BufferNames[I] + "'");
  bool AllShared = llvm::all_of(Links, [](const std::vector<Passed> &Link) {
    return llvm::all_of(Link, [](const Passed &P) { return P.SharedInput; });
  });
  size_t Saved = Chain.size() - 1;
  if (AllShared) {
    Names.clear();
    for (const Launch &L : Chain)
      Names += (Names.empty() ? "" : ", ") + L.Kernel->getNameAsString();
  }
  std::string Msg =
      AllShared
          ? std::to_string(Chain.size()) + " element-wise kernels (" + Names +
                ") run back to back on one stream over the same index and each read " + Quoted +
                " from global memory: one fused kernel saves " + std::to_string(Saved) +
                (Saved == 1 ? " launch" : " launches") +
                (Chain.size() == 2 && BufferNames.size() == 1
                     ? " and reads it once instead of twice"
                     : " and reads each shared input once")
          : std::to_string(Chain.size()) + " element-wise kernels (" + Names +
                    ") run back to back on one stream over the same index and share " + Quoted +
                    " through global memory: one fused kernel saves " + std::to_string(Saved) +
                    (Saved == 1 ? " launch" : " launches") +
                    (AllOverwritten ? " and writes each shared buffer once instead of twice"
                                    : " and the write and re-read of each intermediate buffer");
  if (BytesKnown && RoundTrip > 0)
    Msg += " (" + formatBytes(RoundTrip) + " of memory traffic per pass)";

  const Launch &First = Chain.front();
  auto D = diag(First.Site.Call->getBeginLoc(), Msg);
  D.range(First.Site.Call->getSourceRange()).api("cudaLaunchKernel");
  for (size_t I = 0; I < Chain.size(); ++I) {
    D.callSite(Chain[I].Site.Call->getBeginLoc()).kernel(Chain[I].Kernel);
    if (I == 0)
      continue;
    std::string Via;
    bool Overwrites = false, Shared = true;
    for (const Passed &P : Links[I - 1]) {
      std::string N = sourceText(P.Arg, AST);
      Via += (Via.empty() ? "'" : ", '") + (N.empty() ? std::string("buffer") : N) + "'";
      Overwrites |= P.Overwritten;
      Shared &= P.SharedInput;
    }
    D.note(Chain[I].Site.Call->getBeginLoc(),
           "'" + Chain[I].Kernel->getNameAsString() +
               (Shared ? "' reads " : Overwrites ? "' writes " : "' reads ") + Via +
               (Shared ? " again after '" : Overwrites ? " again after '" : " written by '") +
               Chain[I - 1].Kernel->getNameAsString() + "'");
  }
  D.evidence(evidence::Kernels, std::move(Kernels))
      .evidence(evidence::Launches, int64_t(Chain.size()))
      .evidence(evidence::LaunchesSaved, int64_t(Saved))
      .evidence(evidence::IntermediateBuffers, std::move(BufferEvidence));
  if (Threads)
    D.evidence(evidence::Threads, *Threads);
  if (BytesKnown && RoundTrip > 0)
    D.evidence(evidence::IntermediateBytes, RoundTrip);
  Chain.clear();
  Links.clear();
}

CUDA_ADVISOR_REGISTER_CHECK(KernelFusionCheck)

} // namespace cuda_advisor::checks
