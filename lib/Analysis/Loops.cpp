//===- Loops.cpp - Loop nesting of calls and loop invariance ---------------===//
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <vector>

using namespace clang;

namespace cuda_advisor::analysis {

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
class LoopWalker {
public:
  explicit LoopWalker(
      llvm::function_ref<void(const CallExpr *, llvm::ArrayRef<const Stmt *>)> F)
      : F(F) {}

  void walk(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    bool Loop = isLoop(S);
    if (Loop)
      Stack.push_back(S);
    if (const auto *CE = dyn_cast<CallExpr>(S))
      F(CE, Stack);
    for (const Stmt *Child : S->children())
      walk(Child);
    if (Loop)
      Stack.pop_back();
  }

private:
  llvm::function_ref<void(const CallExpr *, llvm::ArrayRef<const Stmt *>)> F;
  std::vector<const Stmt *> Stack;
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
      return Invariance::Unknown;
    }
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

} // namespace cuda_advisor::analysis
