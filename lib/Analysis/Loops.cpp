//===- Loops.cpp - Loop nesting of calls and loop invariance ---------------===//
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/CudaApi.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <functional>
#include <numeric>
#include <vector>

using namespace clang;

namespace cuda_advisor::analysis {

const Expr *loopCondition(const Stmt *Loop) {
  if (const auto *F = dyn_cast_or_null<ForStmt>(Loop))
    return F->getCond();
  if (const auto *W = dyn_cast_or_null<WhileStmt>(Loop))
    return W->getCond();
  if (const auto *D = dyn_cast_or_null<DoStmt>(Loop))
    return D->getCond();
  return nullptr;
}

bool isLoop(const Stmt *S) {
  // do { ... } while (0): the macro idiom runs its body once.
  if (const auto *Do = dyn_cast_or_null<DoStmt>(S)) {
    const Expr *Cond = Do->getCond()->IgnoreParenImpCasts();
    if (const auto *I = dyn_cast<IntegerLiteral>(Cond))
      return I->getValue() != 0;
    if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(Cond))
      return B->getValue();
    return true;
  }
  return isa_and_nonnull<ForStmt, CXXForRangeStmt, WhileStmt>(S);
}

namespace {

/// The variable of V in `V`, through parens and casts.
const VarDecl *refVar(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// Whether S stores to V (=, op=, ++, --), takes its address or binds it to
/// a non-const reference parameter (`safeFree(p)` with `T *&`), outside
/// the statement Skip.
bool storesTo(const Stmt *S, const VarDecl *V, const Stmt *Skip = nullptr) {
  if (!S || S == Skip)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() &&
                                                    refVar(BO->getLHS()) == V)
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
      refVar(UO->getSubExpr()) == V)
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = Call->getDirectCallee())
      for (unsigned I = 0; I < Call->getNumArgs() && I < FD->getNumParams(); ++I) {
        QualType T = FD->getParamDecl(I)->getType();
        if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified() &&
            refVar(Call->getArg(I)) == V)
          return true;
      }
  for (const Stmt *C : S->children())
    if (storesTo(C, V, Skip))
      return true;
  return false;
}

/// The counter of `for (...; ...; ++i)` (or i--, i += c) that the body
/// never writes: it takes a new value on every iteration.
const VarDecl *monotonicCounter(const Stmt *Loop) {
  const auto *F = dyn_cast_or_null<ForStmt>(Loop);
  if (!F || !F->getInc())
    return nullptr;
  const Expr *Inc = F->getInc()->IgnoreParenImpCasts();
  const VarDecl *V = nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc); UO && UO->isIncrementDecrementOp())
    V = refVar(UO->getSubExpr());
  else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc);
           CA && (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign) &&
           isa<IntegerLiteral>(CA->getRHS()->IgnoreParenImpCasts()))
    V = refVar(CA->getLHS());
  if (!V || !V->getType()->isIntegerType() || storesTo(F->getBody(), V))
    return nullptr;
  return V;
}

/// E has the same value on every iteration of Loop, by its text: literals,
/// and variables that the loop never stores to.
bool sameEachIteration(const Expr *E, const Stmt *Loop) {
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr, UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return isa<EnumConstantDecl>(DRE->getDecl());
    return (V->isLocalVarDeclOrParm() || V->getType().isConstQualified()) &&
           !storesTo(Loop, V);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && sameEachIteration(BO->getLHS(), Loop) &&
           sameEachIteration(BO->getRHS(), Loop);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus) &&
           sameEachIteration(UO->getSubExpr(), Loop);
  return false;
}

/// S leaves the enclosing loop on every path: break, return, throw, a call
/// to a function that does not return, or an if/else or block that does.
/// Inside a switch, `break` leaves the switch only (BreakLeaves false).
bool alwaysLeaves(const Stmt *S, bool BreakLeaves = true) {
  if (!S)
    return false;
  if (isa<ReturnStmt, CXXThrowExpr>(S) || (BreakLeaves && isa<BreakStmt>(S)))
    return true;
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (const auto *C = dyn_cast<CallExpr>(E->IgnoreParenImpCasts()))
      if (const FunctionDecl *FD = C->getDirectCallee())
        return FD->isNoReturn();
    return isa<CXXThrowExpr>(E->IgnoreParenImpCasts());
  }
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return llvm::any_of(CS->body(), [&](const Stmt *B) { return alwaysLeaves(B, BreakLeaves); });
  if (const auto *If = dyn_cast<IfStmt>(S))
    return If->getElse() && alwaysLeaves(If->getThen(), BreakLeaves) &&
           alwaysLeaves(If->getElse(), BreakLeaves);
  if (const auto *L = dyn_cast<LabelStmt>(S))
    return alwaysLeaves(L->getSubStmt(), BreakLeaves);
  return false;
}

/// A `continue` of this loop (not of a nested one) inside S.
bool continuesLoop(const Stmt *S) {
  // A nested loop selects devices of its own; `do { } while (0)` (an error
  // checking macro: CHECK(gpuSetDevice(gpu))) is no loop.
  if (!S || isa<LambdaExpr>(S) || isLoop(S))
    return false;
  if (isa<ContinueStmt>(S))
    return true;
  return llvm::any_of(S->children(), continuesLoop);
}

const Stmt *loopBody(const Stmt *Loop); // Defined below.

bool isSetDevice(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() && FD->getName() == "cudaSetDevice";
}

/// The parameter of FD that FD passes to cudaSetDevice in its own body
/// (`void set_device(int d) { ... cudaSetDevice(d); }`), if any.
const ParmVarDecl *deviceParameter(const FunctionDecl *FD) {
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || Def->getNumParams() == 0)
    return nullptr;
  // A wrapper is a few statements: the walk stops after a few hundred nodes,
  // so that every call in every loop does not walk a large callee again.
  struct Finder : RecursiveASTVisitor<Finder> {
    const ParmVarDecl *Found = nullptr;
    unsigned Budget = 256;
    bool VisitStmt(Stmt *) { return --Budget > 0; }
    bool VisitCallExpr(CallExpr *C) {
      if (isSetDevice(C->getDirectCallee()) && C->getNumArgs() == 1)
        if (const auto *DRE = dyn_cast<DeclRefExpr>(C->getArg(0)->IgnoreParenImpCasts()))
          if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
            Found = P;
      return !Found;
    }
  } F;
  F.TraverseStmt(Def->getBody());
  return F.Found;
}

bool isConstantArgument(const Expr *E, const ASTContext &Ctx) {
  return E->isValueDependent() || E->isIntegerConstantExpr(Ctx);
}

/// `cudaSetDevice(x)`, or a project's wrapper of it, with a non-constant x
/// directly in S (not in a nested loop or lambda).
bool selectsDevice(const Stmt *S) {
  // A nested loop selects devices of its own; `do { } while (0)` (an error
  // checking macro: CHECK(gpuSetDevice(gpu))) is no loop.
  if (!S || isa<LambdaExpr>(S) || isLoop(S))
    return false;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (isSetDevice(FD) && C->getNumArgs() == 1 &&
        !isConstantArgument(C->getArg(0), FD->getASTContext()))
      return true;
    // A project's wrapper: ggml_cuda_set_device(devices[i]).
    if (FD && !isSetDevice(FD) && !isa<CXXMethodDecl>(FD))
      if (const ParmVarDecl *P = deviceParameter(FD);
          P && P->getFunctionScopeIndex() < C->getNumArgs() &&
          !isConstantArgument(C->getArg(P->getFunctionScopeIndex()), FD->getASTContext()))
        return true;
  }
  return llvm::any_of(S->children(), selectsDevice);
}

} // namespace

bool runsAtMostOnce(const Stmt *Loop) {
  const Stmt *Body = loopBody(Loop);
  return Body && alwaysLeaves(Body) && !continuesLoop(Body);
}

bool isDeviceLoop(const Stmt *Loop) { return selectsDevice(loopBody(Loop)); }

bool repeatsWork(const Stmt *Loop) { return !runsAtMostOnce(Loop) && !isDeviceLoop(Loop); }

/// The parents of a node, through a declaration (the variable that a call
/// initializes, `cudaError_t e = cudaMemcpy(...)` in an error-check macro) to
/// the statement that declares it.
static DynTypedNodeList stmtParents(const DynTypedNodeList &Parents, ASTContext &AST) {
  if (!Parents.empty() && !Parents[0].get<Stmt>())
    if (const auto *D = Parents[0].get<Decl>())
      return AST.getParents(*D);
  return Parents;
}

bool holdsOnOneIteration(const Expr *Cond, const Stmt *Loop) {
  if (!Cond)
    return false;
  Cond = Cond->IgnoreParenImpCasts();
  const VarDecl *V = monotonicCounter(Loop);
  if (!V)
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond); UO && UO->getOpcode() == UO_LNot)
    return refVar(UO->getSubExpr()) == V;
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return false;
  if (BO->getOpcode() == BO_LAnd)
    return holdsOnOneIteration(BO->getLHS(), Loop) || holdsOnOneIteration(BO->getRHS(), Loop);
  if (BO->getOpcode() != BO_EQ)
    return false;
  if (refVar(BO->getLHS()) == V)
    return sameEachIteration(BO->getRHS(), Loop);
  if (refVar(BO->getRHS()) == V)
    return sameEachIteration(BO->getLHS(), Loop);
  return false;
}

/// `!p`, `p == NULL`, `p == nullptr`, `p == 0`, `0 == p`: the variable p
/// tested for null, or null.
static const VarDecl *nullTested(const Expr *Cond) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond); UO && UO->getOpcode() == UO_LNot)
    return refVar(UO->getSubExpr());
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return nullptr;
  if (BO->getOpcode() == BO_LAnd) {
    if (const VarDecl *V = nullTested(BO->getLHS()))
      return V;
    return nullTested(BO->getRHS());
  }
  if (BO->getOpcode() != BO_EQ)
    return nullptr;
  auto IsNull = [](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
      return true;
    const auto *IL = dyn_cast<IntegerLiteral>(E);
    return IL && IL->getValue() == 0;
  };
  if (IsNull(BO->getRHS()))
    return refVar(BO->getLHS());
  if (IsNull(BO->getLHS()))
    return refVar(BO->getRHS());
  return nullptr;
}

/// Whether a function of the program other than the one whose body is Body
/// writes the global V (`releaseScratch()` freeing and resetting it).
static bool writtenElsewhere(const VarDecl *V, const Stmt *Body) {
  if (V->isStaticLocal())
    return false; // Only its function can name it.
  ASTContext &AST = V->getASTContext();
  const SourceManager &SM = AST.getSourceManager();
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    const Stmt *Body;
    const SourceManager &SM;
    bool Found = false;
    Finder(const VarDecl *V, const Stmt *Body, const SourceManager &SM) : V(V), Body(Body), SM(SM) {}
    bool TraverseDecl(Decl *D) {
      if (!D || Found)
        return !Found;
      if (!isa<TranslationUnitDecl>(D) && SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
        return true;
      return RecursiveASTVisitor<Finder>::TraverseDecl(D);
    }
    bool VisitFunctionDecl(FunctionDecl *FD) {
      if (FD->hasBody() && FD->getBody() != Body && storesTo(FD->getBody(), V))
        Found = true;
      return !Found;
    }
  } F(V, Body, SM);
  F.TraverseDecl(AST.getTranslationUnitDecl());
  return F.Found;
}

bool isLazyInitialization(const IfStmt *If) {
  if (!If || !If->getCond() || If->getConditionVariable())
    return false;
  const VarDecl *V = nullTested(If->getCond());
  if (!V || !V->hasGlobalStorage() || isa<ParmVarDecl>(V) || !V->getType()->isPointerType() ||
      !storesTo(If->getThen(), V))
    return false;
  const FunctionDecl *FD = enclosingFunction(If, V->getASTContext());
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  return Body && !storesTo(Body, V, If->getThen()) && !writtenElsewhere(V, Body);
}

bool insideLazyInitialization(const Stmt *S, const Stmt *Body, ASTContext &AST) {
  const Stmt *Child = S;
  DynTypedNodeList Parents = stmtParents(AST.getParents(*S), AST);
  for (unsigned Steps = 0; !Parents.empty() && Steps < 64; ++Steps) {
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P);
        If && If->getThen() == Child && isLazyInitialization(If))
      return true;
    if (P == Body)
      return false;
    Child = P;
    Parents = stmtParents(AST.getParents(*P), AST);
  }
  return false;
}

bool onOneIterationOf(const Stmt *S, const Stmt *Loop, ASTContext &AST) {
  const Stmt *Child = S;
  DynTypedNodeList Parents = stmtParents(AST.getParents(*S), AST);
  for (unsigned Steps = 0; !Parents.empty() && Steps < 64; ++Steps) {
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P || P == Loop)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P);
        If && If->getThen() == Child && holdsOnOneIteration(If->getCond(), Loop))
      return true;
    Child = P;
    Parents = stmtParents(AST.getParents(*P), AST);
  }
  return false;
}

namespace {
/// `++V`, `V++` or `V += 1` as a statement of its own directly in Body (not
/// under a condition).
bool unitIncrementAtTop(const Stmt *Body, const VarDecl *V) {
  auto IsInc = [&](const Stmt *S) {
    const Expr *E = dyn_cast_or_null<Expr>(S);
    if (!E)
      return false;
    E = E->IgnoreImplicit();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return UO->isIncrementOp() && refVar(UO->getSubExpr()) == V;
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
      const auto *One = dyn_cast<IntegerLiteral>(CA->getRHS()->IgnoreParenImpCasts());
      return CA->getOpcode() == BO_AddAssign && refVar(CA->getLHS()) == V && One &&
             One->getValue() == 1;
    }
    return false;
  };
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Body))
    return llvm::any_of(CS->body(), IsInc);
  return IsInc(Body);
}

/// `V = 0` as a statement of its own directly in S.
bool resetAtTop(const Stmt *S, const VarDecl *V, ASTContext &AST) {
  auto IsReset = [&](const Stmt *X) {
    const auto *BO = dyn_cast_or_null<BinaryOperator>(
        dyn_cast_or_null<Expr>(X) ? cast<Expr>(X)->IgnoreImplicit() : nullptr);
    Expr::EvalResult R;
    return BO && BO->getOpcode() == BO_Assign && refVar(BO->getLHS()) == V &&
           !BO->getRHS()->isValueDependent() && BO->getRHS()->EvaluateAsInt(R, AST) &&
           R.Val.getInt() == 0;
  };
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return llvm::any_of(CS->body(), IsReset);
  return IsReset(S);
}

/// The period of a condition that holds on one iteration in K of Loop (see
/// periodicBranch): K, and the counter's step (the period is K / gcd(K,
/// step)).
struct PeriodTerm {
  const Expr *K = nullptr;
  int64_t Step = 1;
};

std::optional<PeriodTerm> periodOf(const Expr *Cond, const IfStmt *If, const Stmt *Loop,
                                   ASTContext &AST, ValueTracker &VT) {
  if (!Cond)
    return std::nullopt;
  Cond = Cond->IgnoreParenImpCasts();
  const Stmt *Body = loopBody(Loop);
  // A count that the loop steps by one on every iteration, and writes
  // nowhere else but (Resets) one `V = 0` at the top of the branch.
  auto SteppedCount = [&](const VarDecl *V, bool Resets) {
    return V && unitIncrementAtTop(Body, V) &&
           (!Resets || resetAtTop(If->getThen(), V, AST)) &&
           writesInside(V, Loop, VT) == (Resets ? 2u : 1u);
  };
  // `i % K == c` or `!(i % K)`, i the loop's counter or a stepped count.
  auto Remainder = [&](const Expr *E) -> std::optional<PeriodTerm> {
    const auto *R = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!R || R->getOpcode() != BO_Rem || !sameEachIteration(R->getRHS(), Loop))
      return std::nullopt;
    const VarDecl *V = refVar(R->getLHS());
    const Expr *K = R->getRHS()->IgnoreParenImpCasts();
    if (std::optional<Induction> I = inductionOf(Loop, VT); V && I && I->Var == V)
      return PeriodTerm{K, I->Step < 0 ? -I->Step : I->Step};
    if (SteppedCount(V, /*Resets=*/false))
      return PeriodTerm{K, 1};
    return std::nullopt;
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond); UO && UO->getOpcode() == UO_LNot)
    return Remainder(UO->getSubExpr());
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return std::nullopt;
  if (BO->getOpcode() == BO_LAnd) {
    std::optional<PeriodTerm> K = periodOf(BO->getLHS(), If, Loop, AST, VT);
    return K ? K : periodOf(BO->getRHS(), If, Loop, AST, VT);
  }
  auto IsConstant = [&](const Expr *E) {
    Expr::EvalResult R;
    return !E->isValueDependent() && E->EvaluateAsInt(R, AST);
  };
  if (BO->getOpcode() == BO_EQ) {
    if (std::optional<PeriodTerm> K = Remainder(BO->getLHS()); K && IsConstant(BO->getRHS()))
      return K;
    if (std::optional<PeriodTerm> K = Remainder(BO->getRHS()); K && IsConstant(BO->getLHS()))
      return K;
  }
  // `count == K` (or >=) with a count the loop steps by one and the branch
  // resets: `if (drawCount == DRAW_RATE) { draw(); drawCount = 0; }`.
  if ((BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_GE) &&
      sameEachIteration(BO->getRHS(), Loop) && SteppedCount(refVar(BO->getLHS()), true))
    return PeriodTerm{BO->getRHS()->IgnoreParenImpCasts(), 1};
  return std::nullopt;
}

} // namespace

std::optional<Periodic> periodicBranch(const Stmt *S, const Stmt *Loop, ASTContext &AST,
                                       ValueTracker &VT) {
  const Stmt *Child = S;
  DynTypedNodeList Parents = stmtParents(AST.getParents(*S), AST);
  for (unsigned Steps = 0; !Parents.empty() && Steps < 64; ++Steps) {
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P || P == Loop)
      return std::nullopt;
    if (const auto *If = dyn_cast<IfStmt>(P); If && If->getThen() == Child)
      if (std::optional<PeriodTerm> T = periodOf(If->getCond(), If, Loop, AST, VT)) {
        Periodic R;
        const SourceManager &SM = AST.getSourceManager();
        R.Line = SM.getExpansionLineNumber(If->getBeginLoc());
        Expr::EvalResult V;
        std::optional<int64_t> K;
        if (!T->K->isValueDependent() && T->K->EvaluateAsInt(V, AST))
          K = V.Val.getInt().getSExtValue();
        if (T->Step != 1) {
          // `t += 4` with `t % 8 == 0`: one iteration in 2.
          if (!K || *K <= 0)
            return std::nullopt;
          R.Value = *K / std::gcd(*K, T->Step);
          R.Period = std::to_string(*R.Value);
        } else {
          R.Value = K;
          R.Period = Lexer::getSourceText(CharSourceRange::getTokenRange(T->K->getSourceRange()),
                                          SM, AST.getLangOpts())
                         .str();
          if (R.Period.empty() && K)
            R.Period = std::to_string(*K);
        }
        if (!R.Period.empty() && (!R.Value || *R.Value >= 2))
          return R;
        return std::nullopt;
      }
    Child = P;
    Parents = stmtParents(AST.getParents(*P), AST);
  }
  return std::nullopt;
}

namespace {
class LoopWalker {
public:
  explicit LoopWalker(
      llvm::function_ref<void(const CallExpr *, llvm::ArrayRef<const Stmt *>)> F)
      : F(F) {}

  void walk(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    bool Loop = isLoop(S) && repeatsWork(S);
    bool Breakable = isLoop(S) || isa<SwitchStmt>(S);
    if (Loop)
      Stack.push_back(S);
    if (Breakable)
      Breakables.push_back(S);
    if (const auto *CE = dyn_cast<CallExpr>(S))
      F(CE, Stack);
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      walkIf(If);
    } else if (isExitPath(S)) {
      // `if (err) { release(p); return; }` inside the loop: the block runs at
      // most once per run of the loop, on its way out (of every loop, for a
      // return).
      size_t Keep = alwaysLeaves(S, /*BreakLeaves=*/false) ? 0 : Stack.size() - 1;
      std::vector<const Stmt *> Saved(Stack.begin() + Keep, Stack.end());
      Stack.resize(Keep);
      for (const Stmt *Child : S->children())
        walk(Child);
      Stack.insert(Stack.end(), Saved.begin(), Saved.end());
    } else {
      for (const Stmt *Child : S->children())
        walk(Child);
    }
    if (Breakable)
      Breakables.pop_back();
    if (Loop)
      Stack.pop_back();
  }

  /// A block inside the innermost loop (not its body) that leaves the loop
  /// on every path and holds no `continue` of it. A `break` leaves the loop
  /// only when the loop is the innermost statement it can leave (not a
  /// switch, nor a loop that runs once). A `return` or `throw` is one too:
  /// its operand runs on the way out (`if (err) return fail(...);`).
  bool isExitPath(const Stmt *S) const {
    if (isa<ReturnStmt, CXXThrowExpr>(S))
      return !Stack.empty();
    const auto *CS = dyn_cast<CompoundStmt>(S);
    if (!CS || Stack.empty() || loopBody(Stack.back()) == S)
      return false;
    bool BreakLeaves = Breakables.back() == Stack.back();
    return alwaysLeaves(CS, BreakLeaves) && !continuesLoop(CS);
  }

  /// The then-branch of `if (iter == 0)` runs on one iteration of the
  /// loop the guard tests the counter of: it is not inside that loop.
  void walkIf(const IfStmt *If) {
    if (isLazyInitialization(If)) {
      for (const Stmt *Child : If->children())
        if (Child != If->getThen())
          walk(Child);
      std::vector<const Stmt *> Saved;
      Saved.swap(Stack);
      walk(If->getThen());
      Stack.swap(Saved);
      return;
    }
    auto Guarded = llvm::find_if(
        Stack, [&](const Stmt *L) { return holdsOnOneIteration(If->getCond(), L); });
    if (Guarded == Stack.end()) {
      for (const Stmt *Child : If->children())
        walk(Child);
      return;
    }
    // An index, not the iterator: walking the condition and the else branch
    // pushes their loops onto Stack, which may reallocate it.
    size_t Index = Guarded - Stack.begin();
    const Stmt *L = *Guarded;
    for (const Stmt *Child : If->children())
      if (Child != If->getThen())
        walk(Child);
    Stack.erase(Stack.begin() + Index);
    walk(If->getThen());
    Stack.insert(Stack.begin() + Index, L);
  }

private:
  llvm::function_ref<void(const CallExpr *, llvm::ArrayRef<const Stmt *>)> F;
  std::vector<const Stmt *> Stack;
  /// Every loop and switch around the walk, innermost last: what a `break`
  /// leaves.
  std::vector<const Stmt *> Breakables;
};

bool contains(const Stmt *Outer, SourceLocation L, const SourceManager &SM) {
  SourceRange R = Outer->getSourceRange();
  L = SM.getExpansionLoc(L);
  return !SM.isBeforeInTranslationUnit(L, SM.getExpansionLoc(R.getBegin())) &&
         !SM.isBeforeInTranslationUnit(SM.getExpansionRange(R.getEnd()).getEnd(), L);
}

class InvarianceVisitor {
public:
  InvarianceVisitor(const Stmt *Loop, ValueTracker &VT) : Loop(Loop), VT(VT) {}

  Invariance visit(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 16)
      return Invariance::Unknown;
    // The address of a variable or array never changes: &x, arr (decayed).
    const Expr *Bare = E->IgnoreParens();
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(Bare);
        IC && IC->getCastKind() == CK_ArrayToPointerDecay &&
        isa<DeclRefExpr>(IC->getSubExpr()->IgnoreParens()))
      return Invariance::Invariant;
    if (const auto *UO = dyn_cast<UnaryOperator>(Bare);
        UO && UO->getOpcode() == UO_AddrOf && isa<DeclRefExpr>(UO->getSubExpr()->IgnoreParens()))
      return Invariance::Invariant;
    E = E->IgnoreParenImpCasts();
    if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, StringLiteral, CXXBoolLiteralExpr,
            CXXNullPtrLiteralExpr, GNUNullExpr, UnaryExprOrTypeTraitExpr, SizeOfPackExpr>(E))
      return Invariance::Invariant;
    if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
      return visit(DA->getExpr(), Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return Invariance::Invariant; // Functions, enumerators.
      const SourceManager &SM = VT.context().getSourceManager();
      if (contains(Loop, V->getLocation(), SM)) {
        // Declared in the loop: as invariant as its only value.
        if (const Expr *Single = VT.singleValue(V))
          return visit(Single, Depth + 1);
        return Invariance::Varies;
      }
      if (V->getType().isConstQualified() && !V->getType()->isReferenceType())
        return Invariance::Invariant;
      if (!VT.writesOf(V))
        return Invariance::Unknown; // A global: anything may change it.
      return VT.isWrittenIn(V, Loop) ? Invariance::Varies : Invariance::Invariant;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_Deref)
        return combine(visit(UO->getSubExpr(), Depth + 1), Invariance::Unknown);
      return visit(UO->getSubExpr(), Depth + 1);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return combine(visit(BO->getLHS(), Depth + 1), visit(BO->getRHS(), Depth + 1));
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
      return combine(visit(CO->getCond(), Depth + 1),
                     combine(visit(CO->getTrueExpr(), Depth + 1),
                             visit(CO->getFalseExpr(), Depth + 1)));
    if (const auto *CE = dyn_cast<ExplicitCastExpr>(E))
      return visit(CE->getSubExpr(), Depth + 1);
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      // &a[i] is invariant with a and i; a[i] read as a value may change.
      return combine(visit(AS->getBase(), Depth + 1), visit(AS->getIdx(), Depth + 1));
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return Invariance::Unknown; // A field: any call may change it.
      return visit(ME->getBase(), Depth + 1);
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      // v.data(), v.size(), s.c_str() on an object the loop does not change.
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (MD && MD->isConst() && MC->getNumArgs() == 0)
        return visit(MC->getImplicitObjectArgument(), Depth + 1);
      if (MD && MD->getIdentifier() && (MD->getName() == "data" || MD->getName() == "get") &&
          MC->getNumArgs() == 0)
        return visit(MC->getImplicitObjectArgument(), Depth + 1);
      // v.at(i): another element when i changes.
      if (MD && MD->getIdentifier() && MD->getName() == "at" && MC->getNumArgs() == 1)
        return combine(Invariance::Unknown, visit(MC->getArg(0), Depth + 1));
      return Invariance::Unknown;
    }
    // v[i] on a container: another element when i changes; the same one
    // (whose contents may change) otherwise.
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
        OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
      return combine(Invariance::Unknown, visit(OC->getArg(1), Depth + 1));
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      return visit(M->getSubExpr(), Depth + 1);
    return Invariance::Unknown;
  }

private:
  const Stmt *Loop;
  ValueTracker &VT;
};
} // namespace

void forEachCallInLoops(const Stmt *Body,
                        llvm::function_ref<void(const CallExpr *, llvm::ArrayRef<const Stmt *>)> F) {
  LoopWalker(F).walk(Body);
}

Invariance combine(Invariance A, Invariance B) {
  if (A == Invariance::Varies || B == Invariance::Varies)
    return Invariance::Varies;
  if (A == Invariance::Unknown || B == Invariance::Unknown)
    return Invariance::Unknown;
  return Invariance::Invariant;
}

Invariance invarianceIn(const Expr *E, const Stmt *Loop, ValueTracker &VT) {
  return InvarianceVisitor(Loop, VT).visit(E);
}

//===----------------------------------------------------------------------===//
// Counted loops and pointer strides.
//===----------------------------------------------------------------------===//

namespace {

const VarDecl *varOf(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// `++i`, `i++`, `--i`, `i += c`, `i -= c`, `i = i + c`: the variable and step.
std::optional<Induction> stepOf(const Expr *E, ValueTracker &VT) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->isIncrementDecrementOp()) {
    const VarDecl *V = varOf(UO->getSubExpr());
    if (!V || !V->getType()->isIntegerType())
      return std::nullopt;
    return Induction{V, UO->isIncrementOp() ? 1 : -1};
  }
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(E);
      CA && (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign)) {
    const VarDecl *V = varOf(CA->getLHS());
    std::optional<int64_t> C = VT.evaluateInt(CA->getRHS());
    if (!V || !C || !V->getType()->isIntegerType())
      return std::nullopt;
    return Induction{V, CA->getOpcode() == BO_AddAssign ? *C : -*C};
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Assign) {
    const VarDecl *V = varOf(BO->getLHS());
    const auto *Sum = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
    if (!V || !Sum || (Sum->getOpcode() != BO_Add && Sum->getOpcode() != BO_Sub) ||
        varOf(Sum->getLHS()) != V)
      return std::nullopt;
    std::optional<int64_t> C = VT.evaluateInt(Sum->getRHS());
    if (!C)
      return std::nullopt;
    return Induction{V, Sum->getOpcode() == BO_Add ? *C : -*C};
  }
  return std::nullopt;
}

} // namespace

const ForStmt *declaringFor(const VarDecl *V, ASTContext &Ctx) {
  if (!V)
    return nullptr;
  DynTypedNodeList DS = Ctx.getParents(*V);
  const auto *Decl = DS.empty() ? nullptr : DS[0].get<DeclStmt>();
  if (!Decl)
    return nullptr;
  DynTypedNodeList Fs = Ctx.getParents(*Decl);
  const auto *For = Fs.empty() ? nullptr : Fs[0].get<ForStmt>();
  return For && For->getInit() == Decl ? For : nullptr;
}

/// Writes of V inside S (stores other than its initializer, ++, +=...).
unsigned writesInside(const VarDecl *V, const Stmt *S, ValueTracker &VT) {
  const VarWrites *W = VT.writesOf(V);
  if (!W)
    return ~0u;
  const SourceManager &SM = VT.context().getSourceManager();
  unsigned N = 0;
  for (const Stmt *O : W->OtherWrites)
    N += contains(S, O->getBeginLoc(), SM);
  for (const Expr *E : W->Values)
    N += E != V->getInit() && contains(S, E->getBeginLoc(), SM);
  return N;
}

namespace {

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return F->getBody();
  if (const auto *W = dyn_cast<WhileStmt>(Loop))
    return W->getBody();
  if (const auto *D = dyn_cast<DoStmt>(Loop))
    return D->getBody();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return R->getBody();
  return nullptr;
}


/// A linear function of the iteration number: C + SymScale * Sym per iteration.
struct Linear {
  int64_t C = 0;
  const Expr *Sym = nullptr;
  int64_t SymScale = 0;
  bool zero() const { return C == 0 && !Sym; }
};

class StrideWalker {
public:
  StrideWalker(const Stmt *Loop, std::optional<Induction> Ind, ValueTracker &VT)
      : Loop(Loop), Ind(Ind), VT(VT), SM(VT.context().getSourceManager()) {}

  /// Per-iteration change of an integer expression.
  std::optional<Linear> integer(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 12)
      return std::nullopt;
    E = E->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(E))
      return integer(CE->getSubExpr(), Depth + 1);
    if (Ind && varOf(E) == Ind->Var && isa<DeclRefExpr>(E))
      return Linear{Ind->Step, nullptr, 0};
    if (VT.evaluateInt(E))
      return Linear{};
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
          V && contains(Loop, V->getLocation(), SM))
        if (const Expr *Single = VT.singleValue(V))
          return integer(Single, Depth + 1);
    if (invarianceIn(E, Loop, VT) == Invariance::Invariant)
      return Linear{};
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO)
      return std::nullopt;
    std::optional<Linear> L = integer(BO->getLHS(), Depth + 1);
    std::optional<Linear> R = integer(BO->getRHS(), Depth + 1);
    if (!L || !R)
      return std::nullopt;
    switch (BO->getOpcode()) {
    case BO_Add:
    case BO_Sub: {
      int64_t Sign = BO->getOpcode() == BO_Add ? 1 : -1;
      if (L->Sym && R->Sym)
        return std::nullopt;
      Linear Out{L->C + Sign * R->C, L->Sym ? L->Sym : R->Sym,
                 L->Sym ? L->SymScale : Sign * R->SymScale};
      return Out;
    }
    case BO_Mul:
      return product(BO->getLHS(), *L, BO->getRHS(), *R);
    case BO_Shl: {
      std::optional<int64_t> K = VT.evaluateInt(BO->getRHS());
      if (!K || *K < 0 || *K > 40 || !R->zero())
        return std::nullopt;
      return Linear{L->C << *K, L->Sym, L->SymScale << *K};
    }
    default:
      return std::nullopt;
    }
  }

  /// Per-iteration change, in bytes, of a pointer expression.
  std::optional<Linear> pointer(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 12)
      return std::nullopt;
    E = E->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(E))
      return pointer(CE->getSubExpr(), Depth + 1);
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
        BO->getType()->isPointerType()) {
      const Expr *Base = BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
      const Expr *Offset = Base == BO->getLHS() ? BO->getRHS() : BO->getLHS();
      return offsetBy(Base, Offset, BO->getType()->getPointeeType(),
                      BO->getOpcode() == BO_Sub ? -1 : 1, Depth);
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
        return offsetBy(AS->getBase(), AS->getIdx(), AS->getType(), 1, Depth);
    if (invarianceIn(E, Loop, VT) == Invariance::Invariant)
      return Linear{};
    const VarDecl *V = varOf(E);
    if (!V || !isa<DeclRefExpr>(E) || !V->getType()->isPointerType())
      return std::nullopt;
    if (contains(Loop, V->getLocation(), SM)) {
      if (const Expr *Single = VT.singleValue(V))
        return pointer(Single, Depth + 1);
      return std::nullopt;
    }
    return bumped(V);
  }

private:
  std::optional<Linear> product(const Expr *LE, const Linear &L, const Expr *RE,
                                const Linear &R) {
    if (L.zero() && R.zero())
      return Linear{};
    if (!L.zero() && !R.zero())
      return std::nullopt; // i * i
    const Expr *ConstSide = L.zero() ? LE : RE;
    const Linear &Var = L.zero() ? R : L;
    if (std::optional<int64_t> K = VT.evaluateInt(ConstSide))
      return Linear{Var.C * *K, Var.Sym, Var.SymScale * *K};
    if (Var.Sym)
      return std::nullopt;
    return Linear{0, ConstSide, Var.C}; // i * chunk: a symbolic, invariant stride.
  }

  std::optional<Linear> offsetBy(const Expr *Base, const Expr *Offset, QualType Element,
                                 int64_t Sign, unsigned Depth) {
    std::optional<int64_t> Size = sizeOf(Element);
    std::optional<Linear> B = pointer(Base, Depth + 1);
    std::optional<Linear> O = integer(Offset, Depth + 1);
    if (!Size || !B || !O || (B->Sym && O->Sym))
      return std::nullopt;
    return Linear{B->C + Sign * O->C * *Size, B->Sym ? B->Sym : O->Sym,
                  B->Sym ? B->SymScale : Sign * O->SymScale * *Size};
  }

  /// A pointer variable stepped once per iteration (`p += k`, `++p`).
  std::optional<Linear> bumped(const VarDecl *V) {
    const VarWrites *W = VT.writesOf(V);
    const Stmt *Body = loopBody(Loop);
    if (!W || W->Escapes || !Body)
      return std::nullopt;
    for (const Expr *E : W->Values)
      if (E != V->getInit() && contains(Loop, E->getBeginLoc(), SM))
        return std::nullopt;
    const Expr *Step = nullptr;
    for (const Stmt *O : W->OtherWrites) {
      if (!contains(Loop, O->getBeginLoc(), SM))
        continue;
      if (Step)
        return std::nullopt;
      Step = dyn_cast<Expr>(O);
    }
    if (!Step || !onEveryIteration(Step, Body))
      return std::nullopt;
    std::optional<int64_t> Size = sizeOf(V->getType()->getPointeeType());
    if (!Size)
      return std::nullopt;
    if (const auto *UO = dyn_cast<UnaryOperator>(Step); UO && UO->isIncrementDecrementOp())
      return Linear{UO->isIncrementOp() ? *Size : -*Size};
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(Step)) {
      std::optional<int64_t> K = VT.evaluateInt(CA->getRHS());
      if (K)
        return Linear{(CA->getOpcode() == BO_AddAssign ? 1 : -1) * *K * *Size};
      if (invarianceIn(CA->getRHS(), Loop, VT) == Invariance::Invariant &&
          CA->getOpcode() == BO_AddAssign)
        return Linear{0, CA->getRHS(), *Size};
    }
    return std::nullopt;
  }

  /// S is a statement of the loop body's top level, or the for-increment.
  bool onEveryIteration(const Expr *S, const Stmt *Body) {
    if (const auto *For = dyn_cast<ForStmt>(Loop); For && For->getInc())
      if (contains(For->getInc(), S->getBeginLoc(), SM))
        return true;
    const auto *CS = dyn_cast<CompoundStmt>(Body);
    if (!CS)
      return Body == S;
    for (const Stmt *Child : CS->body())
      if (Child == S)
        return true;
    return false;
  }

  std::optional<int64_t> sizeOf(QualType T) {
    if (T.isNull() || T->isDependentType())
      return std::nullopt;
    if (T->isVoidType())
      return 1;
    if (T->isIncompleteType())
      return std::nullopt;
    return VT.context().getTypeSizeInChars(T).getQuantity();
  }

  const Stmt *Loop;
  std::optional<Induction> Ind;
  ValueTracker &VT;
  const SourceManager &SM;
};

} // namespace

bool mentions(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return DRE->getDecl() == V;
  for (const Stmt *Child : S->children())
    if (mentions(Child, V))
      return true;
  return false;
}

namespace {

/// Whether S leaves the loop: `break;`, `return ...;`, or a block ending so.
bool endsLeavingLoop(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && endsLeavingLoop(CS->body_back());
  return isa_and_nonnull<BreakStmt, ReturnStmt>(S);
}

/// The variables S assigns (`finished = true;`, in a block or not).
void assignedIn(const Stmt *S, llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
      if (const auto *W = dyn_cast<VarDecl>(DRE->getDecl()))
        Out.push_back(W);
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    for (const Stmt *C : CS->body())
      assignedIn(C, Out);
}

bool controlsLoopImpl(const VarDecl *V, const Stmt *Loop, bool Direct) {
  const Stmt *Body = loopBody(Loop);
  if (mentions(loopCondition(Loop), V))
    return true;
  const auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
  if (!CS)
    return false;
  for (const Stmt *S : CS->body())
    if (const auto *If = dyn_cast<IfStmt>(S); If && mentions(If->getCond(), V)) {
      if (endsLeavingLoop(If->getThen()) || endsLeavingLoop(If->getElse()))
        return true;
      if (Direct)
        continue;
      llvm::SmallVector<const VarDecl *, 2> Set;
      assignedIn(If->getThen(), Set);
      assignedIn(If->getElse(), Set);
      for (const VarDecl *W : Set)
        if (W != V && controlsLoopImpl(W, Loop, /*Direct=*/true))
          return true;
    }
  return false;
}

} // namespace

namespace {

/// The divisor of `E / K`, `(E + c) / K` or `E >> s` (as 2^s) whose dividend
/// mentions one of Vars: K a constant.
std::optional<int64_t> shrinkingQuotient(const Expr *E, ArrayRef<const VarDecl *> Vars,
                                         ValueTracker &VT) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(E ? E->IgnoreParenImpCasts() : nullptr);
  if (!BO || (BO->getOpcode() != BO_Div && BO->getOpcode() != BO_Shr))
    return std::nullopt;
  if (!llvm::any_of(Vars, [&](const VarDecl *V) { return mentions(BO->getLHS(), V); }))
    return std::nullopt;
  std::optional<int64_t> K = VT.evaluateInt(BO->getRHS());
  if (!K || *K <= 0)
    return std::nullopt;
  if (BO->getOpcode() == BO_Shr)
    return *K < 62 ? std::optional<int64_t>(int64_t(1) << *K) : std::nullopt;
  return K;
}

} // namespace

std::optional<FewPasses> fewPassLoop(const Stmt *Loop, ValueTracker &VT) {
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      loopCondition(Loop) ? loopCondition(Loop)->IgnoreParenImpCasts() : nullptr);
  if (!Cond || (Cond->getOpcode() != BO_GT && Cond->getOpcode() != BO_GE &&
                Cond->getOpcode() != BO_NE))
    return std::nullopt;
  const VarDecl *X = refVar(Cond->getLHS());
  if (!X || !X->getType()->isIntegerType() || !VT.evaluateInt(Cond->getRHS()))
    return std::nullopt;
  // The statements that run on every iteration: the body's top level and a
  // for loop's increment.
  llvm::SmallVector<const Stmt *, 16> Each;
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(loopBody(Loop)))
    Each.append(CS->body_begin(), CS->body_end());
  else if (const Stmt *B = loopBody(Loop))
    Each.push_back(B);
  if (const auto *F = dyn_cast<ForStmt>(Loop); F && F->getInc())
    Each.push_back(F->getInc());
  llvm::SmallVector<const VarDecl *, 4> Copies = {X}; // X and the variables given its value.
  std::optional<int64_t> Divisor;
  for (const Stmt *S : Each) {
    const auto *BO = dyn_cast<BinaryOperator>(S);
    if (!BO)
      continue;
    const VarDecl *L = refVar(BO->getLHS());
    if (!L)
      continue;
    if (BO->getOpcode() == BO_Assign && L != X) {
      if (const VarDecl *R = refVar(BO->getRHS()); R && llvm::is_contained(Copies, R))
        Copies.push_back(L);
      continue;
    }
    if (L != X)
      continue;
    std::optional<int64_t> K;
    if (BO->getOpcode() == BO_Assign)
      K = shrinkingQuotient(BO->getRHS(), Copies, VT);
    else if (BO->getOpcode() == BO_DivAssign)
      K = VT.evaluateInt(BO->getRHS());
    else if (BO->getOpcode() == BO_ShrAssign)
      if (std::optional<int64_t> Sh = VT.evaluateInt(BO->getRHS()); Sh && *Sh > 0 && *Sh < 62)
        K = int64_t(1) << *Sh;
    // A second store of X (other than the quotient) makes the count unknown.
    if (!K || Divisor)
      return std::nullopt;
    Divisor = K;
  }
  if (!Divisor || *Divisor < 32)
    return std::nullopt;
  // No other store of X in the loop (`if (odd) ++grid;`).
  unsigned Stores = 0;
  for (const Stmt *S : Each)
    Stores += storesTo(S, X) ? 1 : 0;
  if (Stores != 1)
    return std::nullopt;
  unsigned Bits = unsigned(VT.context().getTypeSize(X->getType()));
  unsigned PerPass = llvm::Log2_64(uint64_t(*Divisor));
  return FewPasses{X, *Divisor, (Bits + PerPass - 1) / PerPass};
}

std::string describe(const FewPasses &F) {
  return "the loop makes a few passes: each divides '" + F.Var->getNameAsString() + "' by " +
         std::to_string(F.Divisor) + ", so there are at most " + std::to_string(F.MaxIterations) +
         " for any " + std::to_string(F.Var->getASTContext().getTypeSize(F.Var->getType())) +
         "-bit value";
}

namespace {

/// The innermost loop around S (within its function) that repeats work, or null.
const Stmt *enclosingRepeatingLoop(const Stmt *S, ASTContext &AST) {
  DynTypedNodeList Parents = AST.getParents(*S);
  for (unsigned Steps = 0; !Parents.empty() && Steps < 256; ++Steps) {
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return nullptr; // A declaration: the function (or a lambda) ends here.
    if (isLoop(P) && repeatsWork(P))
      return P;
    Parents = AST.getParents(*P);
  }
  return nullptr;
}

/// The function whose body holds S (a lambda's call operator for a lambda,
/// where enclosingFunction gives the function around the lambda).
const FunctionDecl *bodyOwner(const Stmt *S, ASTContext &AST) {
  DynTypedNodeList Parents = AST.getParents(*S);
  for (unsigned Steps = 0; !Parents.empty() && Steps < 256; ++Steps) {
    if (const auto *FD = Parents[0].get<FunctionDecl>())
      return FD;
    if (const auto *LE = Parents[0].get<LambdaExpr>())
      return LE->getCallOperator();
    if (Parents[0].get<Decl>() && !Parents[0].get<VarDecl>())
      return nullptr;
    Parents = AST.getParents(Parents[0]);
  }
  return nullptr;
}

} // namespace

bool mayRepeat(const Stmt *S, ASTContext &AST) {
  if (enclosingRepeatingLoop(S, AST))
    return true;
  const FunctionDecl *FD = bodyOwner(S, AST);
  if (!FD)
    return true; // Not known: say it may.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->getParent()->isLambda())
    return true; // Called wherever the lambda goes.
  const FunctionDecl *Canonical = FD->getCanonicalDecl();
  struct Calls : RecursiveASTVisitor<Calls> {
    const FunctionDecl *Target;
    ASTContext &AST;
    bool InLoop = false;
    Calls(const FunctionDecl *T, ASTContext &A) : Target(T), AST(A) {}
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *Callee = C->getDirectCallee();
      if (Callee && Callee->getCanonicalDecl() == Target && enclosingRepeatingLoop(C, AST))
        InLoop = true;
      return !InLoop;
    }
  } Finder(Canonical, AST);
  Finder.TraverseDecl(AST.getTranslationUnitDecl());
  return Finder.InLoop;
}

bool controlsLoop(const VarDecl *V, const Stmt *Loop) {
  return controlsLoopImpl(V, Loop, /*Direct=*/false);
}



std::optional<Induction> inductionOf(const Stmt *Loop, ValueTracker &VT) {
  if (const auto *For = dyn_cast_or_null<ForStmt>(Loop)) {
    std::optional<Induction> I = stepOf(For->getInc(), VT);
    if (!I || I->Step == 0 || (For->getBody() && writesInside(I->Var, For->getBody(), VT) != 0))
      return std::nullopt;
    return I;
  }
  const Stmt *Body = nullptr;
  const Expr *Cond = nullptr;
  if (const auto *W = dyn_cast_or_null<WhileStmt>(Loop)) {
    Body = W->getBody();
    Cond = W->getCond();
  } else if (const auto *D = dyn_cast_or_null<DoStmt>(Loop)) {
    Body = D->getBody();
    Cond = D->getCond();
  }
  const auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
  if (!CS)
    return std::nullopt;
  std::optional<Induction> Found;
  for (const Stmt *S : CS->body())
    if (std::optional<Induction> I = stepOf(dyn_cast<Expr>(S), VT)) {
      if (Found)
        return std::nullopt;
      Found = I;
    }
  if (!Found || Found->Step == 0 || !mentions(Cond, Found->Var) ||
      writesInside(Found->Var, Body, VT) != 1)
    return std::nullopt;
  return Found;
}

std::optional<int64_t> constantTripCount(const Stmt *Loop, ValueTracker &VT) {
  std::optional<Induction> I = inductionOf(Loop, VT);
  if (!I)
    return std::nullopt;
  const Expr *Cond = nullptr;
  std::optional<int64_t> Start;
  if (const auto *For = dyn_cast<ForStmt>(Loop)) {
    Cond = For->getCond();
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
      if (DS->isSingleDecl() && DS->getSingleDecl() == I->Var && I->Var->getInit())
        Start = VT.evaluateInt(I->Var->getInit());
    } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit());
               BO && BO->getOpcode() == BO_Assign && varOf(BO->getLHS()) == I->Var) {
      Start = VT.evaluateInt(BO->getRHS());
    }
  } else if (const auto *W = dyn_cast<WhileStmt>(Loop)) {
    Cond = W->getCond();
    const VarWrites *Wr = VT.writesOf(I->Var);
    if (Wr && !Wr->Escapes && Wr->Values.size() == 1 && Wr->Values.front() == I->Var->getInit() &&
        Wr->OtherWrites.size() == 1)
      Start = VT.evaluateInt(I->Var->getInit());
  }
  const auto *BO = dyn_cast_or_null<BinaryOperator>(Cond ? Cond->IgnoreParenImpCasts() : nullptr);
  if (!Start || !BO || !BO->isComparisonOp())
    return std::nullopt;
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *Bound = BO->getRHS();
  if (varOf(BO->getLHS()) != I->Var) {
    if (varOf(BO->getRHS()) != I->Var)
      return std::nullopt;
    Bound = BO->getLHS();
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  std::optional<int64_t> End = VT.evaluateInt(Bound);
  if (!End)
    return std::nullopt;
  int64_t A = *Start, B = *End, S = I->Step;
  auto CeilDiv = [](int64_t N, int64_t D) { return N <= 0 ? 0 : (N + D - 1) / D; };
  if (S > 0) {
    if (Op == BO_LT)
      return CeilDiv(B - A, S);
    if (Op == BO_LE)
      return CeilDiv(B - A + 1, S);
    if (Op == BO_NE && B >= A && (B - A) % S == 0)
      return (B - A) / S;
  } else {
    if (Op == BO_GT)
      return CeilDiv(A - B, -S);
    if (Op == BO_GE)
      return CeilDiv(A - B + 1, -S);
    if (Op == BO_NE && A >= B && (A - B) % -S == 0)
      return (A - B) / -S;
  }
  return std::nullopt;
}

std::optional<PointerStride> pointerStrideIn(const Expr *Pointer, const Stmt *Loop,
                                             ValueTracker &VT) {
  if (!Pointer || !Loop)
    return std::nullopt;
  StrideWalker W(Loop, inductionOf(Loop, VT), VT);
  std::optional<Linear> L = W.pointer(Pointer);
  if (!L)
    return std::nullopt;
  PointerStride S;
  if (!L->Sym) {
    S.Bytes = L->C;
    return S;
  }
  if (L->C != 0)
    return std::nullopt;
  S.Elements = L->Sym;
  S.ElementSize = L->SymScale;
  return S;
}

bool runsWheneverScopeRuns(const Stmt *S, const Stmt *Scope, ASTContext &Ctx) {
  if (S == Scope)
    return true;
  DynTypedNode Child = DynTypedNode::create(*S);
  for (unsigned Depth = 0; Depth < 128; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(Child);
    if (Parents.empty())
      return false;
    const DynTypedNode &P = Parents[0];
    const Stmt *PS = P.get<Stmt>();
    if (!PS) {
      if (P.get<VarDecl>()) { // `cudaError_t e = cudaDeviceSynchronize();`
        Child = P;
        continue;
      }
      return false;
    }
    const Stmt *CS = Child.get<Stmt>();
    if (const auto *If = dyn_cast<IfStmt>(PS)) {
      if (CS != If->getCond() && CS != If->getInit() &&
          (!If->getConditionVariableDeclStmt() || CS != If->getConditionVariableDeclStmt()))
        return false;
    } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(PS)) {
      if (CS != CO->getCond())
        return false;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(PS)) {
      if (BO->isLogicalOp() && CS == BO->getRHS())
        return false;
    } else if (PS == Scope) {
      return true; // The loop (or function body) itself.
    } else if (const auto *Do = dyn_cast<DoStmt>(PS)) {
      if (isLoop(Do))
        return false; // A real do-while; `do { } while (0)` runs once.
    } else if (isLoop(PS) ||
               isa<SwitchStmt, CaseStmt, DefaultStmt, CXXCatchStmt, LambdaExpr>(PS)) {
      return false;
    }
    if (PS == Scope)
      return true;
    Child = P;
  }
  return false;
}

double tripWeight(const Stmt *Loop, ValueTracker &VT) {
  std::optional<int64_t> Trips = constantTripCount(Loop, VT);
  return Trips && *Trips > 0 ? std::min<double>(double(*Trips), double(1 << 20))
                             : UnknownTripWeight;
}

double loopWeightAround(const Stmt *S, ASTContext &Ctx, ValueTracker &VT) {
  double W = 1;
  DynTypedNodeList Parents = Ctx.getParents(*S);
  for (unsigned Steps = 0; !Parents.empty() && Steps < 256; ++Steps) {
    // An initializer's parent is its variable, whose parent is the DeclStmt;
    // a lambda's body leads to the LambdaExpr and on to the loops around it.
    if (const auto *V = Parents[0].get<VarDecl>()) {
      Parents = Ctx.getParents(*V);
      continue;
    }
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      break;
    if (isLoop(P))
      W *= tripWeight(P, VT);
    Parents = Ctx.getParents(*P);
  }
  return W;
}

const VarDecl *bufferOf(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO && (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref))
      E = UO->getSubExpr();
    else if (const auto *BO = dyn_cast<BinaryOperator>(E);
             BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub))
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
    else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
             Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
      E = Op->getArg(0);
    else if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
      E = ME->getBase(); // `h[i].x`: the element's field.
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E); MC && MC->getMethodDecl() &&
                                                             MC->getMethodDecl()->getIdentifier() &&
                                                             MC->getMethodDecl()->getName() == "data")
      E = MC->getImplicitObjectArgument();
    else
      return nullptr;
  }
  return nullptr;
}

namespace {
/// Whether RD is, or derives from, std::basic_istream.
bool isInputStream(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition())
    return false;
  auto Is = [](const CXXRecordDecl *B) { return B->getIdentifier() && B->getName() == "basic_istream"; };
  return Is(RD) || !RD->forallBases([&](const CXXRecordDecl *B) { return !Is(B); });
}

/// What a text input call parses into (`fscanf(f, "%f", &h[i])`,
/// `fscanf(f, "%f", &x)`, `in >> m[i]`, `in >> x`): the expressions it writes.
std::vector<const Expr *> textInputTargets(const CallExpr *Call) {
  std::vector<const Expr *> Out;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (Op->getOperator() == OO_GreaterGreater && Op->getNumArgs() == 2 &&
        isInputStream(Op->getArg(0)->getType()->getAsCXXRecordDecl()))
      Out.push_back(Op->getArg(1));
    return Out;
  }
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return Out;
  unsigned First = llvm::StringSwitch<unsigned>(Callee->getName())
                       .Cases("fscanf", "__isoc99_fscanf", "sscanf", "__isoc99_sscanf", 2)
                       .Cases("scanf", "__isoc99_scanf", 1)
                       .Default(0);
  for (unsigned I = First; First && I < Call->getNumArgs(); ++I)
    Out.push_back(Call->getArg(I));
  return Out;
}

/// A conversion of text to a number: `std::stof(line)`, `atof(tok)`.
bool isTextConversion(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Callee && Callee->getIdentifier() &&
         llvm::StringSwitch<bool>(Callee->getName())
             .Cases("stof", "stod", "stoi", "stol", "stoll", "stold", true)
             .Cases("atof", "atoi", "atol", "strtof", "strtod", "strtol", "strtoul", true)
             .Default(false);
}
} // namespace

const TextElements *textBufferMovedBy(const CallExpr *Call, const ApiInfo &Api, const Stmt *Loop,
                                      llvm::ArrayRef<TextElements> Text) {
  auto TextOf = [&](const Expr *E) -> const TextElements * {
    const VarDecl *B = E ? bufferOf(E) : nullptr;
    for (const TextElements &T : Text)
      if (B && T.Buffer == B)
        return &T;
    return nullptr;
  };
  auto IsCopy = [](const ApiInfo &A) { return A.Kind == ApiKind::Copy || A.Kind == ApiKind::CopyAsync; };
  if (IsCopy(Api)) {
    CopyOperands O = copyOperands(Api.Name);
    const TextElements *Dst = TextOf(argAt(Call, O.Dst));
    return Dst ? Dst : TextOf(argAt(Call, O.Src));
  }
  // An allocation or free: of the device buffer that a copy of the loop
  // fills from, or drains into, a text buffer.
  bool Memory = Api.Kind == ApiKind::Alloc || Api.Kind == ApiKind::HostAlloc ||
                Api.Kind == ApiKind::Free || Api.Kind == ApiKind::HostFree;
  const VarDecl *Device = Memory ? bufferOf(argAt(Call, 0u)) : nullptr;
  const TextElements *Found = nullptr;
  forEachCallInLoops(Loop, [&](const CallExpr *C, llvm::ArrayRef<const Stmt *>) {
    std::optional<ApiInfo> A = classifyApiCall(C);
    if (Found || !Device || !A || !IsCopy(*A))
      return;
    CopyOperands O = copyOperands(A->Name);
    const Expr *Dst = argAt(C, O.Dst), *Src = argAt(C, O.Src);
    if (Dst && Src && bufferOf(Dst) == Device)
      Found = TextOf(Src);
    else if (Dst && Src && bufferOf(Src) == Device)
      Found = TextOf(Dst);
  });
  return Found;
}

std::vector<TextElements> textBuffersPerValue(const Stmt *Loop, ValueTracker &VT) {
  std::vector<TextElements> Out;
  auto Add = [&](const VarDecl *B, const CallExpr *Call) {
    if (B && llvm::none_of(Out, [&](const TextElements &T) { return T.Buffer == B; }))
      Out.push_back({B, Call});
  };
  // A number parsed into a scalar, then stored into a buffer's element or
  // appended to it (`fscanf(f, "%f", &x); v.push_back(x);`, `while (ss >> x)
  // h[n++] = x;`, `h[i] = std::stof(line);`).
  llvm::MapVector<const VarDecl *, const CallExpr *> Scalars; // In source order.
  struct Store {
    const VarDecl *Buffer;
    const Expr *Value;
  };
  std::vector<Store> Stores;
  std::vector<const CallExpr *> Conversions;
  // Statements under a loop nested in S (Nested) that run whenever S does:
  // not under an `if`, a `switch` or `?:`. Functions of the file that S
  // calls, one level deep, with their parameters read as the arguments.
  std::function<void(const Stmt *, bool, const CallExpr *)> Walk =
      [&](const Stmt *S, bool Nested, const CallExpr *Via) {
        if (!S || isa<LambdaExpr, IfStmt, SwitchStmt, ConditionalOperator>(S))
          return;
        // A few values (`for (k = 0; k < 3; ++k) fscanf(cfg, "%f", &p[k])`)
        // cost nothing.
        if (std::optional<int64_t> Trips = isLoop(S) ? constantTripCount(S, VT) : std::nullopt;
            Trips && *Trips < FewTextValues)
          return;
        auto Resolve = [&](const VarDecl *B) -> const VarDecl * {
          // A helper's parameter: the argument of the call in the loop.
          if (const auto *P = dyn_cast_or_null<ParmVarDecl>(B); P && Via) {
            unsigned Index = P->getFunctionScopeIndex();
            return Index < Via->getNumArgs() ? bufferOf(Via->getArg(Index)) : nullptr;
          }
          return B;
        };
        if (const auto *Call = dyn_cast<CallExpr>(S)) {
          for (const Expr *T : Nested ? textInputTargets(Call) : std::vector<const Expr *>()) {
            const Expr *E = T->IgnoreParenImpCasts();
            if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
              E = UO->getSubExpr()->IgnoreParenImpCasts();
            if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
              if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
                  VD && VD->getType()->isArithmeticType())
                Scalars.try_emplace(VD, Call);
            } else if (isa<ArraySubscriptExpr, CXXOperatorCallExpr, MemberExpr>(E)) {
              Add(Resolve(bufferOf(E)), Call);
            }
          }
          if (Nested && isTextConversion(Call))
            Conversions.push_back(Call);
          // `v.push_back(x)`, `v.emplace_back(x)`.
          if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
              Nested && MC && MC->getNumArgs() == 1 && MC->getMethodDecl() &&
              MC->getMethodDecl()->getIdentifier() &&
              (MC->getMethodDecl()->getName() == "push_back" ||
               MC->getMethodDecl()->getName() == "emplace_back"))
            Stores.push_back({Resolve(bufferOf(MC->getImplicitObjectArgument())), MC->getArg(0)});
          const FunctionDecl *Def = nullptr;
          if (const FunctionDecl *Callee = Call->getDirectCallee();
              !Via && Callee && Callee->hasBody(Def) && Def &&
              Def->getASTContext().getSourceManager().isInMainFile(Def->getLocation()))
            Walk(Def->getBody(), Nested, Call);
        }
        if (const auto *BO = dyn_cast<BinaryOperator>(S); Nested && BO && BO->getOpcode() == BO_Assign)
          if (isa<ArraySubscriptExpr, CXXOperatorCallExpr, MemberExpr>(BO->getLHS()->IgnoreParenImpCasts()))
            Stores.push_back({Resolve(bufferOf(BO->getLHS())), BO->getRHS()});
        bool Inner = Nested || isLoop(S) || isa<CXXForRangeStmt>(S);
        for (const Stmt *C : S->children())
          Walk(C, Inner, Via);
      };
  Walk(loopBody(Loop), false, nullptr);
  for (const Store &St : Stores) {
    if (!St.Buffer || !St.Value)
      continue;
    for (const auto &[VD, Call] : Scalars)
      if (mentions(St.Value, VD)) {
        Add(St.Buffer, Call);
        break;
      }
    for (const CallExpr *C : Conversions)
      if (St.Value->getSourceRange().fullyContains(C->getSourceRange())) {
        Add(St.Buffer, C);
        break;
      }
  }
  return Out;
}

} // namespace cuda_advisor::analysis
