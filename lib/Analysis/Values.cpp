//===- Values.cpp - Constant values and variable writes --------------------===//
#include "cuda-advisor/Analysis/Values.h"
#include "cuda-advisor/Analysis/Loops.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_advisor::analysis {

unsigned Dim3Value::rank() const {
  auto Big = [](const std::optional<int64_t> &V) { return !V || *V > 1; };
  if (Big(Z))
    return 3;
  if (Big(Y))
    return 2;
  return 1;
}

namespace {

const DeclRefExpr *asVarRef(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE && isa<VarDecl>(DRE->getDecl()) ? DRE : nullptr;
}

/// The variable whose member or element an lvalue like `d.x`, `a[i]`,
/// `p->f` belongs to (for member stores to a dim3 or a struct).
const VarDecl *baseVariable(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr; // Writes through a pointer do not write the pointer.
      E = ME->getBase();
      continue;
    }
    // An element of a local array (not of what a pointer points to).
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      const DeclRefExpr *DRE = asVarRef(AS->getBase());
      return DRE && DRE->getDecl()->getType()->isArrayType() ? cast<VarDecl>(DRE->getDecl())
                                                             : nullptr;
    }
    if (const auto *DRE = asVarRef(E))
      return cast<VarDecl>(DRE->getDecl());
    return nullptr;
  }
  return nullptr;
}

class WriteCollector : public RecursiveASTVisitor<WriteCollector> {
public:
  explicit WriteCollector(std::unordered_map<const VarDecl *, VarWrites> &W) : W(W) {}

  bool VisitVarDecl(VarDecl *V) {
    if (V->hasInit() && !isa<ParmVarDecl>(V))
      W[V].Values.push_back(V->getInit());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    if (const DeclRefExpr *DRE = asVarRef(BO->getLHS())) {
      auto &VW = W[cast<VarDecl>(DRE->getDecl())];
      if (BO->getOpcode() == BO_Assign)
        VW.Values.push_back(BO->getRHS());
      else
        VW.OtherWrites.push_back(BO);
      return true;
    }
    if (const VarDecl *V = baseVariable(BO->getLHS()))
      W[V].OtherWrites.push_back(BO);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->isAssignmentOp() && OC->getNumArgs() == 2)
      if (const VarDecl *V = baseVariable(OC->getArg(0)))
        W[V].OtherWrites.push_back(OC);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp()) {
      if (const VarDecl *V = baseVariable(UO->getSubExpr()))
        W[V].OtherWrites.push_back(UO);
    } else if (UO->getOpcode() == UO_AddrOf) {
      if (const VarDecl *V = baseVariable(UO->getSubExpr())) {
        W[V].OtherWrites.push_back(UO);
        // `f(&v)` writes v during the call (cudaMalloc(&d, n)); an address
        // stored anywhere else may be written through at any time.
        if (!DirectArguments.count(UO))
          W[V].Escapes = true;
      }
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    // Visited before the arguments (pre-order): remember `&v` arguments.
    for (const Expr *Arg : CE->arguments())
      if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts()))
        if (UO->getOpcode() == UO_AddrOf)
          DirectArguments.insert(UO);
    const FunctionDecl *FD = CE->getDirectCallee();
    unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa_and_nonnull<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      const VarDecl *V = baseVariable(CE->getArg(I));
      if (!V)
        continue;
      QualType PT;
      if (FD && I >= Shift && I - Shift < FD->getNumParams())
        PT = FD->getParamDecl(I - Shift)->getType();
      bool NonConstRef = PT.isNull() ? !FD && !CE->getArg(I)->isPRValue()
                                     : PT->isReferenceType() &&
                                           !PT->getPointeeType().isConstQualified();
      if (NonConstRef)
        W[V].OtherWrites.push_back(CE); // Written during the call.
    }
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && !MD->isConst())
      if (const VarDecl *V = baseVariable(MC->getImplicitObjectArgument()))
        W[V].OtherWrites.push_back(MC);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    for (const LambdaCapture &C : LE->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()))
          W[V].Escapes = true;
    return true;
  }

private:
  std::unordered_map<const VarDecl *, VarWrites> &W;
  llvm::SmallPtrSet<const UnaryOperator *, 16> DirectArguments;
};

bool isDim3Type(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && (RD->getName() == "dim3");
}


} // namespace

const Expr *stripTemporaries(const Expr *E) {
  while (E) {
    const Expr *Prev = E;
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(E))
      E = C->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    else if (const auto *S = dyn_cast<CXXStaticCastExpr>(E))
      E = S->getSubExpr();
    else if (const auto *CS = dyn_cast<CStyleCastExpr>(E))
      E = CS->getSubExpr();
    else if (const auto *CC = dyn_cast<CXXConstructExpr>(E);
             CC && CC->getNumArgs() == 1 && CC->getConstructor() &&
             CC->getConstructor()->isCopyOrMoveConstructor())
      E = CC->getArg(0); // A copy has its source's value.
    if (E == Prev)
      return E;
  }
  return E;
}

void ValueTracker::indexFunction(const FunctionDecl *FD) {
  if (!FD || Indexed.count(FD))
    return;
  Indexed[FD] = true;
  if (!FD->hasBody())
    return;
  WriteCollector C(Writes);
  C.TraverseStmt(FD->getBody());
  // Constructor initializers and default arguments do not write locals.
}

const VarWrites *ValueTracker::writesOf(const VarDecl *V) {
  if (!V || !V->isLocalVarDeclOrParm() || V->isStaticLocal())
    return nullptr;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!FD)
    return nullptr;
  indexFunction(FD->getDefinition() ? FD->getDefinition() : FD);
  return &Writes[V];
}

const Expr *ValueTracker::singleValue(const VarDecl *V) {
  if (V && !V->isLocalVarDeclOrParm() && V->getType().isConstQualified() && V->getInit())
    return V->getInit(); // A const global/namespace-scope variable.
  const VarWrites *VW = writesOf(V);
  if (!VW || VW->Escapes || !VW->OtherWrites.empty() || VW->Values.size() != 1)
    return nullptr;
  if (isa<ParmVarDecl>(V))
    return nullptr; // Its value comes from the caller.
  return VW->Values.front();
}

bool ValueTracker::isWrittenIn(const VarDecl *V, const Stmt *S) {
  const VarWrites *VW = writesOf(V);
  if (!VW)
    return !V->getType().isConstQualified(); // Globals: anything may write them.
  if (VW->Escapes)
    return true;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange R = S->getSourceRange();
  auto Inside = [&](SourceLocation L) {
    L = SM.getExpansionLoc(L);
    return !SM.isBeforeInTranslationUnit(L, SM.getExpansionLoc(R.getBegin())) &&
           !SM.isBeforeInTranslationUnit(SM.getExpansionRange(R.getEnd()).getEnd(), L);
  };
  for (const Stmt *W : VW->OtherWrites)
    if (Inside(W->getBeginLoc()))
      return true;
  for (const Expr *E : VW->Values)
    if (Inside(E->getBeginLoc()) && E != V->getInit())
      return true;
  return false;
}

/// Every direct call of each function in the TU, and the functions that are
/// used otherwise (address taken, cudaLaunchKernel, a function pointer).
struct ValueTracker::CallIndex : RecursiveASTVisitor<ValueTracker::CallIndex> {
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool VisitCallExpr(CallExpr *CE) {
    // Visited before the callee's reference (pre-order).
    const auto *Callee = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts());
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!Callee || !FD || isa<CXXMethodDecl>(FD))
      return true;
    CalleeRefs.insert(Callee);
    // A call in a template's pattern: its instantiations hold the values.
    if (!CE->isInstantiationDependent())
      Calls[FD->getCanonicalDecl()].push_back(CE);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      if (!CalleeRefs.count(DRE))
        Escaped.insert(FD->getCanonicalDecl());
    return true;
  }

  llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>> Calls;
  llvm::DenseSet<const FunctionDecl *> Escaped;
  llvm::DenseSet<const DeclRefExpr *> CalleeRefs;
};

/// The definition's parameter: the one its body's writes are recorded for.
static const ParmVarDecl *definitionParam(const ParmVarDecl *P) {
  if (const auto *F = dyn_cast_or_null<FunctionDecl>(P->getDeclContext()))
    if (const FunctionDecl *Def = F->getDefinition();
        Def && P->getFunctionScopeIndex() < Def->getNumParams())
      return Def->getParamDecl(P->getFunctionScopeIndex());
  return P;
}

std::optional<std::vector<const Expr *>> ValueTracker::callArguments(const ParmVarDecl *P) {
  if (!P)
    return std::nullopt;
  P = definitionParam(P);
  const auto *FD = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
  if (!FD || FD->isVariadic() || P->getType()->isReferenceType() ||
      !P->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  if (const VarWrites *VW = writesOf(P);
      !VW || VW->Escapes || !VW->OtherWrites.empty() || !VW->Values.empty())
    return std::nullopt;
  if (!Calls) {
    Calls = std::make_shared<CallIndex>();
    Calls->TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  const FunctionDecl *Canon = FD->getCanonicalDecl();
  auto CI = Calls->Calls.find(Canon);
  if (Calls->Escaped.count(Canon) || CI == Calls->Calls.end() || CI->second.empty())
    return std::nullopt;
  unsigned Index = P->getFunctionScopeIndex();
  std::vector<const Expr *> Args;
  for (const CallExpr *Call : CI->second) {
    if (Index >= Call->getNumArgs())
      return std::nullopt;
    Args.push_back(Call->getArg(Index));
  }
  return Args;
}

std::optional<int64_t> ValueTracker::constantArgument(const ParmVarDecl *P) {
  if (!P)
    return std::nullopt;
  P = definitionParam(P);
  auto [It, Inserted] = Arguments.try_emplace(P, std::nullopt);
  if (!Inserted)
    return It->second; // Known, or being worked out (a recursive call).
  std::optional<std::vector<const Expr *>> Args = callArguments(P);
  if (!Args)
    return std::nullopt;
  std::optional<int64_t> Value;
  for (const Expr *Arg : *Args) {
    std::optional<int64_t> V = evaluateInt(Arg);
    if (!V || (Value && *V != *Value))
      return std::nullopt;
    Value = V;
  }
  Arguments[P] = Value;
  return Value;
}

namespace {
/// Counts the references to a variable and those that are the base of a
/// subscript (`t[i]`, read or written).
struct TableUses : RecursiveASTVisitor<TableUses> {
  const VarDecl *V;
  unsigned Refs = 0, Subscripts = 0;
  explicit TableUses(const VarDecl *V) : V(V) {}
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    Refs += DRE->getDecl() == V;
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts()))
      Subscripts += DRE->getDecl() == V;
    return true;
  }
};
} // namespace

const InitListExpr *ValueTracker::constantTable(const ArraySubscriptExpr *AS) {
  const auto *DRE = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->getType()->isConstantArrayType())
    return nullptr;
  const auto *Init = dyn_cast_or_null<InitListExpr>(V->getInit());
  if (!Init)
    return nullptr;
  if (V->getType().isConstQualified() ||
      V->getType()->getAsArrayTypeUnsafe()->getElementType().isConstQualified())
    return Init;
  // A local table only read by subscript: no element store, no address
  // taken, never passed as a pointer.
  const VarWrites *VW = writesOf(V);
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!VW || VW->Escapes || !VW->OtherWrites.empty() || VW->Values.size() != 1 || !FD ||
      !FD->hasBody())
    return nullptr;
  TableUses U(V);
  U.TraverseStmt(FD->getBody());
  return U.Refs == U.Subscripts ? Init : nullptr;
}

/// The smallest value of V, when V is the counter of a `for` that declares
/// it with a constant and only counts it up (`for (int j = 10; j <= 23;
/// ++j)`): the constant.
static std::optional<int64_t> counterMinimum(const Expr *E, ValueTracker &VT) {
  const DeclRefExpr *DRE = E ? asVarRef(E) : nullptr;
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->getInit() || !V->isLocalVarDecl())
    return std::nullopt;
  const ForStmt *For = declaringFor(V, VT.context());
  if (!For)
    return std::nullopt;
  std::optional<Induction> I = inductionOf(For, VT);
  if (!I || I->Var != V || I->Step <= 0)
    return std::nullopt;
  return VT.evaluateInt(V->getInit());
}

bool ValueTracker::isMultipleOf(const Expr *E, int64_t K) {
  return K > 0 && isMultipleOfImpl(E, K, 0);
}

bool ValueTracker::isMultipleOfImpl(const Expr *E, int64_t K, unsigned Depth) {
  if (!E || Depth > 10)
    return false;
  E = stripTemporaries(E);
  if (E->isValueDependent() || E->isTypeDependent() || E->containsErrors())
    return false;
  if (std::optional<int64_t> V = evaluateIntImpl(E, 0))
    return *V % K == 0;
  if (const auto *DRE = asVarRef(E)) {
    const auto *V = cast<VarDecl>(DRE->getDecl());
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      std::optional<std::vector<const Expr *>> Args = callArguments(P);
      if (!Args)
        return false;
      for (const Expr *Arg : *Args)
        if (!isMultipleOfImpl(Arg, K, Depth + 1))
          return false;
      return true;
    }
    // A local: every value it is given (initializer and plain stores).
    const VarWrites *VW = writesOf(V);
    if (!VW || VW->Escapes || !VW->OtherWrites.empty() || VW->Values.empty())
      return false;
    for (const Expr *Stored : VW->Values)
      if (!isMultipleOfImpl(Stored, K, Depth + 1))
        return false;
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Assign: // `n = m = 256 * b`: the value stored.
    case BO_Comma:
      return isMultipleOfImpl(BO->getRHS(), K, Depth + 1);
    case BO_Mul:
      return isMultipleOfImpl(BO->getLHS(), K, Depth + 1) ||
             isMultipleOfImpl(BO->getRHS(), K, Depth + 1);
    case BO_Add:
    case BO_Sub:
      return isMultipleOfImpl(BO->getLHS(), K, Depth + 1) &&
             isMultipleOfImpl(BO->getRHS(), K, Depth + 1);
    case BO_Div: // `1024 * s / 4` is a multiple of 256.
      if (std::optional<int64_t> D = evaluateIntImpl(BO->getRHS(), 0);
          D && *D > 0 && K <= INT64_MAX / *D)
        return isMultipleOfImpl(BO->getLHS(), K * *D, Depth + 1);
      return false;
    case BO_Shl:
      if (isMultipleOfImpl(BO->getLHS(), K, Depth + 1))
        return true;
      if (std::optional<int64_t> R = evaluateIntImpl(BO->getRHS(), 0); R && *R >= 0 && *R < 62)
        return (int64_t(1) << *R) % K == 0;
      // `1 << j` in a sweep `for (j = 10; ...; ++j)`: a multiple of 1 << 10.
      if (std::optional<int64_t> Lo = counterMinimum(BO->getRHS(), *this); Lo && *Lo >= 0 && *Lo < 62)
        if (std::optional<int64_t> C = evaluateIntImpl(BO->getLHS(), 0);
            C && *C > 0 && *C <= (INT64_MAX >> *Lo))
          return (*C << *Lo) % K == 0;
      return false;
    default:
      return false;
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return isMultipleOfImpl(CO->getTrueExpr(), K, Depth + 1) &&
           isMultipleOfImpl(CO->getFalseExpr(), K, Depth + 1);
  // `sizes[t]` of a table of constants: every entry is (`int sizes[] =
  // {256, 512, 2816}`; a filler of zeros is a multiple too).
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts()))
    if (const InitListExpr *Table = constantTable(AS))
      return Table->getNumInits() > 0 && llvm::all_of(Table->inits(), [&](const Expr *Entry) {
               return isMultipleOfImpl(Entry, K, Depth + 1);
             });
  return false;
}

const Expr *ValueTracker::resolve(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = stripTemporaries(E);
    const DeclRefExpr *DRE = asVarRef(E);
    if (!DRE)
      return E;
    const Expr *V = singleValue(cast<VarDecl>(DRE->getDecl()));
    // An initializer Sema did not finish (after a fatal error, such as a
    // missing header, `dim3 g(f(n), m)` keeps a ParenListExpr without a
    // type) is no value to follow.
    if (!V || V->getType().isNull() || V->containsErrors())
      return E;
    E = V;
  }
  return E;
}

std::optional<int64_t> ValueTracker::evaluateInt(const Expr *E) { return evaluateIntImpl(E, 0); }

std::optional<Dim3Value> ValueTracker::evaluateDim3(const Expr *E) {
  return evaluateDim3Impl(E, 0);
}

std::optional<int64_t> ValueTracker::evaluateIntImpl(const Expr *E, unsigned Depth) {
  if (!E || Depth > 12)
    return std::nullopt;
  E = stripTemporaries(E);
  if (E->isValueDependent() || E->isTypeDependent() || E->containsErrors())
    return std::nullopt;
  if (E->getType()->isIntegralOrEnumerationType()) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx))
      return R.Val.getInt().getExtValue();
  }
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return evaluateIntImpl(DA->getExpr(), Depth + 1);
  if (const auto *DRE = asVarRef(E)) {
    if (const Expr *V = singleValue(cast<VarDecl>(DRE->getDecl())))
      return evaluateIntImpl(V, Depth + 1);
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      return constantArgument(P);
    return std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_Assign || BO->getOpcode() == BO_Comma))
    return evaluateIntImpl(BO->getRHS(), Depth + 1); // `n = m = 2048`: the value stored.
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    auto L = evaluateIntImpl(BO->getLHS(), Depth + 1);
    auto R = evaluateIntImpl(BO->getRHS(), Depth + 1);
    if (!L || !R)
      return std::nullopt;
    switch (BO->getOpcode()) {
    case BO_Add:
      return *L + *R;
    case BO_Sub:
      return *L - *R;
    case BO_Mul:
      return *L * *R;
    case BO_Div:
      return *R ? std::optional<int64_t>(*L / *R) : std::nullopt;
    case BO_Rem:
      return *R ? std::optional<int64_t>(*L % *R) : std::nullopt;
    case BO_Shl:
      return *R >= 0 && *R < 63 ? std::optional<int64_t>(*L << *R) : std::nullopt;
    case BO_Shr:
      return *R >= 0 && *R < 63 ? std::optional<int64_t>(*L >> *R) : std::nullopt;
    case BO_And:
      return *L & *R;
    case BO_Or:
      return *L | *R;
    default:
      return std::nullopt;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    auto V = evaluateIntImpl(UO->getSubExpr(), Depth + 1);
    if (!V)
      return std::nullopt;
    if (UO->getOpcode() == UO_Minus)
      return -*V;
    if (UO->getOpcode() == UO_Plus)
      return *V;
    return std::nullopt;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    auto C = evaluateIntImpl(CO->getCond(), Depth + 1);
    if (!C)
      return std::nullopt;
    return evaluateIntImpl(*C ? CO->getTrueExpr() : CO->getFalseExpr(), Depth + 1);
  }
  // ceil(n / 32), ceil((double)n / block), floor(n / 32.0): the grid sizes
  // of course code, whole numbers of a quotient of whole numbers.
  if (const auto *Call = dyn_cast<CallExpr>(E); Call && Call->getNumArgs() == 1)
    if (const FunctionDecl *FD = Call->getDirectCallee(); FD && FD->getIdentifier()) {
      StringRef Name = FD->getName();
      bool Up = Name == "ceil" || Name == "ceilf", Down = Name == "floor" || Name == "floorf";
      if (!Up && !Down)
        return std::nullopt;
      const Expr *Arg = Call->getArg(0)->IgnoreParenImpCasts();
      if (Arg->getType()->isIntegralOrEnumerationType())
        return evaluateIntImpl(Arg, Depth + 1);
      auto Whole = [&](const Expr *X) -> std::optional<int64_t> {
        X = X->IgnoreParenCasts();
        if (const auto *FL = dyn_cast<FloatingLiteral>(X)) {
          double V = FL->getValueAsApproximateDouble();
          if (V >= 0 && V < 9e15 && V == double(int64_t(V)))
            return int64_t(V);
          return std::nullopt;
        }
        if (!X->getType()->isIntegralOrEnumerationType())
          return std::nullopt;
        return evaluateIntImpl(X, Depth + 1);
      };
      const auto *Div = dyn_cast<BinaryOperator>(Arg);
      if (!Div || Div->getOpcode() != BO_Div)
        return std::nullopt;
      std::optional<int64_t> L = Whole(Div->getLHS()), R = Whole(Div->getRHS());
      if (!L || !R || *L < 0 || *R <= 0)
        return std::nullopt;
      return Up ? (*L + *R - 1) / *R : *L / *R;
    }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    // block.x of a dim3 whose value is known.
    if (!ME->isArrow() && isDim3Type(ME->getBase()->getType()) && ME->getMemberDecl()->getIdentifier()) {
      auto D = evaluateDim3Impl(ME->getBase(), Depth + 1);
      if (!D)
        return std::nullopt;
      StringRef N = ME->getMemberDecl()->getName();
      return N == "x" ? D->X : N == "y" ? D->Y : N == "z" ? D->Z : std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<Dim3Value> ValueTracker::evaluateDim3Impl(const Expr *E, unsigned Depth) {
  if (!E || Depth > 12)
    return std::nullopt;
  E = stripTemporaries(E);
  if (E->isValueDependent() || E->containsErrors())
    return std::nullopt;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (!isDim3Type(CE->getType()))
      return std::nullopt;
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (Ctor && Ctor->isCopyOrMoveConstructor() && CE->getNumArgs() >= 1)
      return evaluateDim3Impl(CE->getArg(0), Depth + 1);
    if (CE->getNumArgs() >= 1 && !CE->getArg(0)->getType()->isIntegralOrEnumerationType() &&
        !isa<CXXDefaultArgExpr>(CE->getArg(0)))
      return std::nullopt; // dim3(uint3) and the like.
    Dim3Value D{1, 1, 1};
    std::optional<int64_t> *Slots[] = {&D.X, &D.Y, &D.Z};
    for (unsigned I = 0; I < 3 && I < CE->getNumArgs(); ++I)
      *Slots[I] = evaluateIntImpl(CE->getArg(I), Depth + 1);
    return D;
  }
  if (const auto *DRE = asVarRef(E)) {
    const auto *V = cast<VarDecl>(DRE->getDecl());
    if (!isDim3Type(V->getType())) {
      auto X = evaluateIntImpl(E, Depth + 1);
      return X ? std::optional<Dim3Value>(Dim3Value{X, 1, 1}) : std::nullopt;
    }
    if (const Expr *Init = singleValue(V))
      return evaluateDim3Impl(Init, Depth + 1);
    return std::nullopt;
  }
  if (E->getType()->isIntegralOrEnumerationType()) {
    auto X = evaluateIntImpl(E, Depth + 1);
    return Dim3Value{X, 1, 1};
  }
  return std::nullopt;
}

bool sameValue(const Expr *A, const Expr *B, ValueTracker &VT) {
  if (!A || !B)
    return false;
  const Expr *RA = stripTemporaries(A), *RB = stripTemporaries(B);
  if (auto *DA = asVarRef(RA))
    if (auto *DB = asVarRef(RB))
      if (DA->getDecl() == DB->getDecl())
        return true;
  auto VA = VT.evaluateInt(RA), VB = VT.evaluateInt(RB);
  if (VA && VB)
    return *VA == *VB;
  RA = VT.resolve(RA);
  RB = VT.resolve(RB);
  if (RA == RB)
    return true;
  llvm::FoldingSetNodeID IA, IB;
  RA->Profile(IA, VT.context(), /*Canonical=*/true);
  RB->Profile(IB, VT.context(), /*Canonical=*/true);
  return IA == IB;
}

const FunctionDecl *enclosingFunction(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  for (unsigned Depth = 0; !Parents.empty() && Depth < 256; ++Depth) {
    const DynTypedNode &P = Parents[0];
    if (const auto *FD = P.get<FunctionDecl>())
      return FD;
    Parents = Ctx.getParents(P);
  }
  return nullptr;
}

} // namespace cuda_advisor::analysis
