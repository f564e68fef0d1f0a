//===- SymbolicValues.cpp - Device expressions as forms and addresses -----===//
//
// The Walker's evaluation of expressions against the variable values at the
// current point of the walk: integer expressions as AffineForms (through
// casts, + - *, shifts, exact divisions, warp-uniform divisions of
// threadIdx.x, loads from uniform addresses), pointers as a memory root plus
// a byte offset, and lvalues as addresses.
//
//===----------------------------------------------------------------------===//
#include "AccessWalker.h"

#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;

namespace cuda_advisor::analysis::detail {

/// Parens and the nodes that only manage temporaries' lifetimes.
static const Expr *skipWrappers(const Expr *E) {
  while (true) {
    const Expr *Prev = E;
    E = E->IgnoreParens();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      E = EWC->getSubExpr();
    else if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
      E = BT->getSubExpr();
    if (E == Prev)
      return E;
  }
}

unsigned Walker::sizeOf(QualType T) const {
  T = T.getNonReferenceType();
  if (T.isNull() || T->isIncompleteType() || T->isDependentType() || T->isVoidType() ||
      T->isFunctionType() || T->isSizelessType())
    return 0;
  return static_cast<unsigned>(Ctx.getTypeSizeInChars(T).getQuantity());
}

unsigned Walker::pointeeSize(QualType PtrType) const {
  if (const auto *PT = PtrType->getAs<PointerType>())
    return sizeOf(PT->getPointeeType());
  if (const auto *AT = Ctx.getAsArrayType(PtrType))
    return sizeOf(AT->getElementType());
  return 0;
}

std::optional<Symbol> Walker::coordinate(const Expr *E) const {
  const Expr *X = E->IgnoreParenImpCasts();
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(X))
    X = PO->getSyntacticForm()->IgnoreParens();
  StringRef Field;
  const Expr *Base = nullptr;
  if (const auto *MP = dyn_cast<MSPropertyRefExpr>(X)) {
    if (MP->getPropertyDecl()->getIdentifier())
      Field = MP->getPropertyDecl()->getName();
    Base = MP->getBaseExpr();
  } else if (const auto *ME = dyn_cast<MemberExpr>(X)) {
    if (ME->getMemberDecl()->getIdentifier())
      Field = ME->getMemberDecl()->getName();
    Base = ME->getBase();
  }
  if (!Base || Field.size() != 1 || Field[0] < 'x' || Field[0] > 'z')
    return std::nullopt;
  Base = Base->IgnoreParenImpCasts();
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(Base))
    Base = OV->getSourceExpr() ? OV->getSourceExpr()->IgnoreParenImpCasts() : nullptr;
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Base);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->getIdentifier() || V->isLocalVarDeclOrParm())
    return std::nullopt;
  std::optional<SymbolKind> K = llvm::StringSwitch<std::optional<SymbolKind>>(V->getName())
                                    .Case("threadIdx", SymbolKind::ThreadIdx)
                                    .Case("blockIdx", SymbolKind::BlockIdx)
                                    .Case("blockDim", SymbolKind::BlockDim)
                                    .Case("gridDim", SymbolKind::GridDim)
                                    .Default(std::nullopt);
  if (!K)
    return std::nullopt;
  return Symbol::builtin(*K, Field[0] - 'x');
}

bool Walker::isFoldedConstant(const VarDecl *V) const {
  if (V->isLocalVarDeclOrParm() || !V->getType().isConstQualified() || !V->getInit() ||
      V->getInit()->isValueDependent())
    return false;
  QualType T = V->getType();
  return (T->isIntegralOrEnumerationType() || T->isRealFloatingType()) &&
         V->getInit()->isEvaluatable(Ctx);
}

SymValue Walker::varValue(const VarDecl *V) {
  auto It = Defs.find(V);
  if (It != Defs.end())
    return It->second;
  if (V->getType()->isIntegralOrEnumerationType() && isFoldedConstant(V)) {
    Expr::EvalResult R;
    if (V->getInit()->EvaluateAsInt(R, Ctx) && R.Val.getInt().getSignificantBits() <= 63)
      return SymValue::integer(AffineForm::constant(R.Val.getInt().getExtValue()));
  }
  return SymValue::none();
}

SymValue Walker::evalValue(const Expr *E) {
  // A template's dependent initializer, or one Clang could not type (an
  // InitListExpr of a dependent aggregate has no type at all).
  if (!E || E->getType().isNull() || E->isTypeDependent() || E->containsErrors())
    return SymValue::none();
  QualType T = E->getType();
  if (T->isPointerType() || T->isArrayType())
    return SymValue::pointer(ptrValue(E));
  if (T->isIntegralOrEnumerationType())
    return SymValue::integer(intForm(E));
  return SymValue::none();
}

AffineForm Walker::loadedInt(const Expr *LV, const Expr *Whole) {
  LV = LV->IgnoreParens();
  if (auto C = coordinate(LV))
    return AffineForm::symbol(*C);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(LV)) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (!V->getType()->isReferenceType() && (!variableMemorySpace(V) || isFoldedConstant(V))) {
        SymValue SV = varValue(V);
        return SV.K == SymValue::Int ? SV.IntVal : AffineForm::unknown();
      }
      if (V->getType()->isReferenceType() && ValueRefs.count(V)) {
        SymValue SV = varValue(V);
        return SV.K == SymValue::Int ? SV.IntVal : AffineForm::unknown();
      }
    } else if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl())) {
      return AffineForm::constant(EC->getInitVal().getExtValue());
    }
  }
  if (std::optional<Symbol> M = structMember(LV))
    return AffineForm::symbol(*M);
  LValue L = lvalue(LV);
  if (L.IsMemory && L.Addr.isKnown() && L.Addr.ByteOffset.isUniform())
    return AffineForm::symbol(opaque(Whole)); // Same address in every lane: same value.
  return AffineForm::unknown();
}

std::optional<Symbol> Walker::structMember(const Expr *LV) const {
  const auto *ME = dyn_cast<MemberExpr>(LV->IgnoreParens());
  if (!ME || ME->isArrow())
    return std::nullopt;
  const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!P || !F || !UniformStructs.count(P))
    return std::nullopt;
  return Symbol{SymbolKind::Member, 0, P, F};
}

AffineForm Walker::divide(const AffineForm &L, int64_t K, const Expr *E) {
  if (K == 0 || L.isUnknown())
    return AffineForm::unknown();
  if (auto C = L.asConstant())
    return AffineForm::constant(*C / K);
  if (auto D = L.dividedExactly(K))
    return *D;
  if (L.isUniform())
    return AffineForm::symbol(opaque(E));
  // (threadIdx.x + a multiple of K) / K with K a multiple of the warp size:
  // the same for every lane of a warp (blocks are whole warps).
  Symbol TX = Symbol::threadIdx(0);
  AffineForm Thread = L - L.without(TX);
  AffineForm Rest = L.without(TX);
  if (K > 0 && K % 32 == 0 && Thread == AffineForm::symbol(TX) && Rest.isUniform())
    if (auto RD = Rest.dividedExactly(K))
      return *RD + AffineForm::symbol(opaque(E));
  return AffineForm::unknown();
}

AffineForm Walker::modulo(const AffineForm &L, int64_t K, const Expr *E) {
  if (K == 0 || L.isUnknown())
    return AffineForm::unknown();
  if (auto C = L.asConstant())
    return AffineForm::constant(*C % K);
  if (L.dividedExactly(K))
    return AffineForm();
  if (L.isUniform())
    return AffineForm::symbol(opaque(E));
  Symbol TX = Symbol::threadIdx(0);
  AffineForm Rest = L.without(TX);
  if (K > 0 && K % 32 == 0 && L - Rest == AffineForm::symbol(TX) && Rest.isUniform() &&
      Rest.dividedExactly(K))
    return AffineForm::symbol(TX) + AffineForm::symbol(opaque(E));
  return AffineForm::unknown();
}

AffineForm Walker::intForm(const Expr *E, unsigned D) {
  if (!E || D > 48)
    return AffineForm::unknown();
  E = skipWrappers(E);
  if (E->isValueDependent() || E->isTypeDependent() || E->containsErrors())
    return AffineForm::unknown();
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return IL->getValue().getActiveBits() < 63
               ? AffineForm::constant(IL->getValue().getSExtValue())
               : AffineForm::unknown();
  if (auto C = coordinate(E))
    return AffineForm::symbol(*C);
  if (E->isGLValue())
    return loadedInt(E, E);
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
      return loadedInt(CE->getSubExpr(), E);
    case CK_IntegralCast:
    case CK_NoOp:
    case CK_UserDefinedConversion:
      return intForm(CE->getSubExpr(), D + 1);
    case CK_IntegralToBoolean:
    case CK_BooleanToSignedIntegral: {
      AffineForm F = intForm(CE->getSubExpr(), D + 1);
      return F.isUniform() ? AffineForm::symbol(opaque(E)) : AffineForm::unknown();
    }
    default:
      break;
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return binaryForm(BO, D);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    switch (UO->getOpcode()) {
    case UO_Minus:
      return intForm(UO->getSubExpr(), D + 1).scaled(-1);
    case UO_Plus:
      return intForm(UO->getSubExpr(), D + 1);
    case UO_Not:
    case UO_LNot: {
      AffineForm F = intForm(UO->getSubExpr(), D + 1);
      return F.isUniform() ? AffineForm::symbol(opaque(E)) : AffineForm::unknown();
    }
    default:
      return AffineForm::unknown(); // ++, --: their side effect is applied by the walk.
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    AffineForm T = intForm(CO->getTrueExpr(), D + 1), F = intForm(CO->getFalseExpr(), D + 1);
    if (T == F)
      return T;
    if (T.isUniform() && F.isUniform() && intForm(CO->getCond(), D + 1).isUniform())
      return AffineForm::symbol(opaque(E));
    return AffineForm::unknown();
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return callForm(Call, D);
  if (const auto *SN = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return intForm(SN->getReplacement(), D + 1);
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return intForm(DA->getExpr(), D + 1);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return AffineForm::constant(EC->getInitVal().getExtValue());
  if (E->getType()->isIntegralOrEnumerationType()) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx) && R.Val.getInt().getSignificantBits() <= 63)
      return AffineForm::constant(R.Val.getInt().getExtValue());
  }
  return AffineForm::unknown();
}

AffineForm Walker::binaryForm(const BinaryOperator *BO, unsigned D) {
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_Comma)
    return intForm(BO->getRHS(), D + 1);
  if (BO->isAssignmentOp())
    return AffineForm::unknown();
  if (Op == BO_Sub && BO->getLHS()->getType()->isPointerType())
    return AffineForm::unknown(); // Pointer difference.
  AffineForm L = intForm(BO->getLHS(), D + 1);
  if (L.isUnknown() && Op != BO_LAnd && Op != BO_LOr)
    return AffineForm::unknown();
  AffineForm R = intForm(BO->getRHS(), D + 1);
  std::optional<int64_t> RC = R.asConstant();
  switch (Op) {
  case BO_Add:
    return L + R;
  case BO_Sub:
    return L - R;
  case BO_Mul:
    return L * R;
  case BO_Shl:
    if (RC && *RC >= 0 && *RC < 62)
      return L.scaled(int64_t(1) << *RC);
    break;
  case BO_Shr:
    if (RC && *RC >= 0 && *RC < 62)
      return divide(L, int64_t(1) << *RC, BO);
    break;
  case BO_Div:
    if (RC)
      return divide(L, *RC, BO);
    break;
  case BO_Rem:
    if (RC)
      return modulo(L, *RC, BO);
    break;
  case BO_And:
    if (RC && *RC > 0 && llvm::isPowerOf2_64(uint64_t(*RC) + 1))
      return modulo(L, *RC + 1, BO);
    if (auto LC = L.asConstant(); LC && *LC > 0 && llvm::isPowerOf2_64(uint64_t(*LC) + 1))
      return modulo(R, *LC + 1, BO);
    break;
  default:
    break;
  }
  if (L.isUniform() && R.isUniform())
    return AffineForm::symbol(opaque(BO));
  return AffineForm::unknown();
}

AffineForm Walker::callForm(const CallExpr *Call, unsigned D) {
  auto It = CallValues.find(Call);
  if (It != CallValues.end())
    return It->second.K == SymValue::Int ? It->second.IntVal : AffineForm::unknown();
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (classifyDeviceCall(Callee) == CallRole::Multiply && Call->getNumArgs() == 2)
    return intForm(Call->getArg(0), D + 1) * intForm(Call->getArg(1), D + 1);
  if (Callee && Callee->getIdentifier() && Call->getNumArgs() == 2) {
    StringRef N = Callee->getName();
    if (N == "min" || N == "max" || N == "umin" || N == "umax" || N == "llmin" ||
        N == "llmax") {
      if (intForm(Call->getArg(0), D + 1).isUniform() &&
          intForm(Call->getArg(1), D + 1).isUniform())
        return AffineForm::symbol(opaque(Call));
    }
  }
  return AffineForm::unknown();
}

PointerValue Walker::ptrValue(const Expr *E, unsigned D) {
  if (!E || D > 48)
    return PointerValue::unknown();
  E = skipWrappers(E);
  if (E->isValueDependent() || E->isTypeDependent())
    return PointerValue::unknown();
  if (E->isGLValue() && E->getType()->isArrayType()) {
    LValue L = lvalue(E);
    return L.IsMemory ? L.Addr : PointerValue::unknown();
  }
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
      return loadedPointer(CE->getSubExpr(), E);
    case CK_ArrayToPointerDecay: {
      LValue L = lvalue(CE->getSubExpr());
      return L.IsMemory ? L.Addr : PointerValue::unknown();
    }
    case CK_BitCast:
    case CK_NoOp:
    case CK_AddressSpaceConversion:
    case CK_UncheckedDerivedToBase:
    case CK_UserDefinedConversion: // SharedMemory<T>(): its operator T *() call.
    case CK_ConstructorConversion:
      return ptrValue(CE->getSubExpr(), D + 1);
    default:
      return PointerValue::unknown();
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      return ptrValue(BO->getRHS(), D + 1);
    if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
      return PointerValue::unknown();
    bool LeftPtr = BO->getLHS()->getType()->isPointerType();
    const Expr *P = LeftPtr ? BO->getLHS() : BO->getRHS();
    const Expr *I = LeftPtr ? BO->getRHS() : BO->getLHS();
    if (!I->getType()->isIntegralOrEnumerationType())
      return PointerValue::unknown();
    unsigned Size = pointeeSize(P->getType());
    PointerValue V = ptrValue(P, D + 1);
    if (!V.isKnown() || Size == 0)
      return PointerValue::unknown();
    AffineForm Off = intForm(I, D + 1).scaled(Size);
    V.ByteOffset = BO->getOpcode() == BO_Add ? V.ByteOffset + Off : V.ByteOffset - Off;
    return V;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_AddrOf)
      return PointerValue::unknown();
    LValue L = lvalue(UO->getSubExpr());
    return L.IsMemory ? L.Addr : PointerValue::unknown();
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    PointerValue T = ptrValue(CO->getTrueExpr(), D + 1), F = ptrValue(CO->getFalseExpr(), D + 1);
    if (T == F)
      return T;
    if (T.isKnown() && T.Root == F.Root)
      return {T.Root, AffineForm::unknown()};
    return PointerValue::unknown();
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    auto It = CallValues.find(Call);
    if (It != CallValues.end() && It->second.K == SymValue::Ptr)
      return It->second.PtrVal;
  }
  return PointerValue::unknown();
}

PointerValue Walker::loadedPointer(const Expr *LV, const Expr *Whole) {
  LV = LV->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(LV))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      if (!variableMemorySpace(V) && (!V->getType()->isReferenceType() || ValueRefs.count(V))) {
        SymValue SV = varValue(V);
        return SV.K == SymValue::Ptr ? SV.PtrVal : PointerValue::unknown();
      }
  if (std::optional<Symbol> M = structMember(LV)) {
    MemoryRoot R;
    R.Space = MemorySpace::Global;
    R.Decl = static_cast<const ValueDecl *>(M->Decl);
    R.Field = static_cast<const FieldDecl *>(M->Site);
    return {R, AffineForm()};
  }
  LValue L = lvalue(LV);
  if (L.IsMemory && L.Addr.isKnown() && L.Addr.ByteOffset.isUniform() &&
      L.Addr.Root.Space != MemorySpace::Shared && L.Addr.Root.Space != MemorySpace::Local) {
    // A pointer every lane loads from one address: a table of device
    // buffers (rows[blockIdx.x], params->data).
    MemoryRoot R;
    R.Space = MemorySpace::Global;
    R.Load = Whole;
    return {R, AffineForm()};
  }
  return PointerValue::unknown();
}

LValue Walker::lvalue(const Expr *E, unsigned D) {
  LValue Result;
  if (!E || D > 48)
    return Result;
  E = skipWrappers(E);
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    if (CE->getCastKind() == CK_NoOp || CE->getCastKind() == CK_LValueBitCast ||
        CE->getCastKind() == CK_UncheckedDerivedToBase)
      return lvalue(CE->getSubExpr(), D + 1);
    return Result;
  }
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(E))
    return lvalue(OV->getSourceExpr(), D + 1);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return Result;
    if (V->getType()->isReferenceType()) {
      if (ValueRefs.count(V))
        return Result;
      SymValue SV = varValue(V);
      Result.IsMemory = true;
      if (SV.K == SymValue::Ptr)
        Result.Addr = SV.PtrVal;
      return Result;
    }
    if (isFoldedConstant(V))
      return Result; // __device__ const int kN = 32: folded by the compiler.
    if (std::optional<MemorySpace> Space = variableMemorySpace(V)) {
      Result.IsMemory = true;
      Result.Addr.Root.Space = *Space;
      Result.Addr.Root.Decl = V;
      Result.Addr.Root.DynamicShared =
          *Space == MemorySpace::Shared && V->hasExternalStorage();
      Result.Addr.ByteOffset = AffineForm();
    }
    return Result;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    Result.IsMemory = true;
    unsigned Size = sizeOf(AS->getType());
    AffineForm Index = intForm(AS->getIdx(), D + 1);
    const Expr *Base = AS->getBase()->IgnoreParens();
    PointerValue B;
    const auto *Decay = dyn_cast<ImplicitCastExpr>(Base);
    if (Decay && Decay->getCastKind() == CK_ArrayToPointerDecay) {
      LValue Arr = lvalue(Decay->getSubExpr(), D + 1);
      if (!Arr.IsMemory)
        return LValue(); // A register array (rare): not memory we reason about.
      B = Arr.Addr;
      Result.MaxThreadsX = Arr.MaxThreadsX;
      if (const auto *CAT = Ctx.getAsConstantArrayType(Decay->getSubExpr()->getType())) {
        std::optional<int64_t> C = Index.coefficientOf(Symbol::threadIdx(0)).asConstant();
        uint64_t N = CAT->getZExtSize();
        if (C && *C > 0 && N > 0) {
          uint64_t Bound = (N + uint64_t(*C) - 1) / uint64_t(*C);
          if (Result.MaxThreadsX == 0 || Bound < Result.MaxThreadsX)
            Result.MaxThreadsX = static_cast<unsigned>(std::min<uint64_t>(Bound, 1u << 30));
        }
      }
    } else {
      B = ptrValue(Base, D + 1);
    }
    if (!B.isKnown() || Size == 0) {
      Result.Addr = {B.Root, AffineForm::unknown()};
      return Result;
    }
    Result.Addr = {B.Root, B.ByteOffset + Index.scaled(Size)};
    return Result;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_Deref)
      return Result;
    Result.IsMemory = true;
    Result.Addr = ptrValue(UO->getSubExpr(), D + 1);
    return Result;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(ME->getMemberDecl())) {
      (void)V; // A static member: a global of its own.
      return Result;
    }
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!F)
      return Result;
    std::optional<int64_t> Offset;
    const RecordDecl *RD = F->getParent();
    if (!F->isBitField() && RD && RD->isCompleteDefinition() && !RD->isDependentType() &&
        !RD->isInvalidDecl())
      Offset = static_cast<int64_t>(Ctx.getFieldOffset(F) / 8);
    if (ME->isArrow()) {
      Result.IsMemory = true;
      Result.Addr = ptrValue(ME->getBase(), D + 1);
    } else {
      Result = lvalue(ME->getBase(), D + 1);
      if (!Result.IsMemory)
        return LValue();
    }
    if (Result.Addr.isKnown())
      Result.Addr.ByteOffset = Offset ? Result.Addr.ByteOffset + AffineForm::constant(*Offset)
                                      : AffineForm::unknown();
    return Result;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    auto It = CallValues.find(Call);
    if (It != CallValues.end() && It->second.K == SymValue::Ptr) {
      Result.IsMemory = true;
      Result.Addr = It->second.PtrVal;
    }
    return Result;
  }
  return Result;
}

} // namespace cuda_advisor::analysis::detail
