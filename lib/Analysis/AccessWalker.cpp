//===- AccessWalker.cpp - Symbolic values and memory accesses of device code ===//
//
// One in-order walk over a function body. It keeps the symbolic value of
// every local variable at the current point (the assignment that reaches it
// in straight-line code; at a loop head, the induction form Init + k * Step
// or a uniform symbol; after a branch, the merge of both sides), evaluates
// the address of every memory access with those values, and inlines the
// bodies of the __device__ helpers it calls with their parameters bound to
// the arguments' values.
//
//===----------------------------------------------------------------------===//
#include "AccessWalker.h"

#include "cuda-advisor/Analysis/KernelSummary.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;

namespace cuda_advisor::analysis {
namespace detail {
namespace {

const DeclRefExpr *localVarRef(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  if (!DRE)
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  if (!V || !V->isLocalVarDeclOrParm() || V->isStaticLocal() || V->getType()->isReferenceType() ||
      variableMemorySpace(V))
    return nullptr;
  return DRE;
}

} // namespace

const VarDecl *localVar(const Expr *E) {
  const DeclRefExpr *DRE = localVarRef(E);
  return DRE ? cast<VarDecl>(DRE->getDecl()) : nullptr;
}

namespace {

bool isLoopStmt(const Stmt *S) { return isLoop(S) || isa_and_nonnull<CXXForRangeStmt>(S); }

/// Collects the writes of local variables declared outside Root.
class WriteCollector {
public:
  WriteMap Writes;
  llvm::SmallPtrSet<const VarDecl *, 8> Declared;

  void collect(const Stmt *S, bool TopLevel) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Declared.insert(V);
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
      if (const VarDecl *V = localVar(BO->getLHS())) {
        VarWrite W;
        W.K = BO->getOpcode() == BO_Assign ? VarWrite::Assign : VarWrite::Compound;
        W.Op = BO->getOpcode();
        W.RHS = BO->getRHS();
        W.TopLevel = TopLevel;
        Writes[V].push_back(W);
      }
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp()) {
        if (const VarDecl *V = localVar(UO->getSubExpr())) {
          VarWrite W;
          W.K = VarWrite::Step;
          W.Delta = UO->isIncrementOp() ? 1 : -1;
          W.TopLevel = TopLevel;
          Writes[V].push_back(W);
        }
      } else if (UO->getOpcode() == UO_AddrOf) {
        if (const VarDecl *V = localVar(UO->getSubExpr()))
          Writes[V].push_back(VarWrite{});
      }
    } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *FD = CE->getDirectCallee();
      for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
        const VarDecl *V = localVar(CE->getArg(I));
        if (!V || !CE->getArg(I)->isGLValue())
          continue;
        unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa_and_nonnull<CXXMethodDecl>(FD) ? 1 : 0;
        bool NonConstRef = !FD;
        if (FD && I >= Shift && I - Shift < FD->getNumParams()) {
          QualType PT = FD->getParamDecl(I - Shift)->getType();
          NonConstRef = PT->isReferenceType() && !PT->getPointeeType().isConstQualified();
        }
        if (NonConstRef)
          Writes[V].push_back(VarWrite{});
      }
    }
    // Only an expression statement that is the loop's increment or a direct
    // child of its body runs once per iteration.
    for (const Stmt *Child : S->children())
      collect(Child, TopLevel && isa<BinaryOperator>(S) &&
                         cast<BinaryOperator>(S)->getOpcode() == BO_Comma);
  }

  void finish() {
    WriteMap Kept;
    for (auto &[V, W] : Writes)
      if (!Declared.count(V))
        Kept[V] = std::move(W);
    Writes = std::move(Kept);
  }
};

bool mentionsThis(const Stmt *S) {
  if (!S)
    return false;
  if (isa<CXXThisExpr>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (mentionsThis(Child))
      return true;
  return false;
}

bool hasContinue(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<ContinueStmt>(S))
    return true;
  if (isLoopStmt(S) && !isa<DoStmt>(S))
    return false; // continue inside a nested loop belongs to it.
  for (const Stmt *Child : S->children())
    if (hasContinue(Child))
      return true;
  return false;
}

bool refersToAny(const Expr *E, const WriteMap &Writes) {
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return Writes.count(V) != 0;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child); CE && refersToAny(CE, Writes))
      return true;
  return false;
}

/// A statement after which control does not fall through.
bool terminates(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && terminates(CS->body_back());
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      return FD->isNoReturn();
  return false;
}

/// Cooperative-groups and cuda::barrier synchronization: g.sync(),
/// cg::sync(g), bar.arrive_and_wait().
bool isGroupSync(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef N = FD->getName();
  if (N != "sync" && N != "arrive_and_wait" && N != "wait" && N != "barrier_wait")
    return false;
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups" || NS->getName() == "cuda")
        return true;
  return false;
}

} // namespace

CallRole classifyDeviceCall(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return CallRole::None;
  StringRef N = FD->getName();
  if (N.starts_with("atomic") || N.starts_with("__atomic") || N.starts_with("__nv_atomic") ||
      N.starts_with("__c11_atomic") || N.starts_with("__hip_atomic"))
    return CallRole::Atomic;
  return llvm::StringSwitch<CallRole>(N)
      .Cases("__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or",
             CallRole::Sync)
      .Cases("__syncwarp", "__barrier_sync", "__threadfence", "__threadfence_block",
             "__threadfence_system", CallRole::Sync)
      .Cases("__nvvm_bar_sync", "__nvvm_bar0", "__nvvm_barrier_sync", "__nvvm_bar_warp_sync",
             CallRole::Sync)
      // Warp collectives exchange values between lanes.
      .Cases("__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", CallRole::Sync)
      .Cases("__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", CallRole::Sync)
      .Cases("__ballot_sync", "__any_sync", "__all_sync", "__uni_sync", "__match_any_sync",
             CallRole::Sync)
      .Cases("__match_all_sync", "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
             CallRole::Sync)
      .Cases("__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync", CallRole::Sync)
      .Cases("__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv", CallRole::Load)
      .Cases("__stwb", "__stcg", "__stcs", "__stwt", CallRole::Store)
      .Cases("__mul24", "__umul24", CallRole::Multiply)
      .Cases("printf", "vprintf", "__assertfail", "__assert_fail", "__trap", "__brkpt",
             CallRole::Harmless)
      .Default(CallRole::None);
}


void Walker::bindParameters(bool IsKernel) {
  for (const ParmVarDecl *P : FD->parameters()) {
    // Writes to a parameter are tracked like those of any local.
    if (!IsKernel || escapes(P)) {
      Defs[P] = SymValue::none();
      continue;
    }
    QualType T = P->getType();
    if (T->isPointerType() || T->isArrayType()) {
      MemoryRoot R;
      R.Space = MemorySpace::Global;
      R.Decl = P;
      Defs[P] = SymValue::pointer({R, AffineForm()});
    } else if (T->isIntegralOrEnumerationType()) {
      // `stride` that every launch in the TU passes as 1 is 1.
      if (std::optional<int64_t> C = S.VT.constantArgument(P))
        Defs[P] = SymValue::integer(AffineForm::constant(*C));
      else
        Defs[P] = SymValue::integer(AffineForm::symbol({SymbolKind::Value, 0, P, nullptr}));
    } else if (T->isRecordType() && !isWritten(P)) {
      UniformStructs.insert(P);
    }
  }
}

void Walker::bindValueReference(const ParmVarDecl *P, SymValue V) {
  ValueRefs.insert(P);
  Defs[P] = std::move(V);
}

void Walker::run() {
  if (const Stmt *Body = FD->getBody())
    walkStmt(Body);
}

SymValue Walker::returnValue(const CallExpr *Call) const {
  if (Returns.empty() || ReturnsUnknown)
    return SymValue::none();
  bool Same = llvm::all_of(Returns, [&](const SymValue &V) { return V == Returns.front(); });
  if (Same)
    return Returns.front();
  bool Uniform = llvm::all_of(Returns, [](const SymValue &V) {
    return V.K == SymValue::Int && V.IntVal.isUniform();
  });
  if (Uniform)
    return SymValue::integer(AffineForm::symbol({SymbolKind::Opaque, 0, Context, Call}));
  return SymValue::none();
}

bool Walker::isWritten(const VarDecl *V) {
  const VarWrites *W = S.VT.writesOf(V);
  if (!W)
    return true;
  return W->Escapes || !W->OtherWrites.empty() || !W->Values.empty();
}

bool Walker::escapes(const VarDecl *V) {
  const VarWrites *W = S.VT.writesOf(V);
  return W && W->Escapes;
}

void Walker::record(const Expr *Site, const PointerValue &Addr, unsigned Size, AccessKind K,
            unsigned MaxThreadsX) {
  MemoryAccess A;
  A.Site = Site;
  A.Kind = K;
  A.Address = Addr;
  A.SizeBytes = Size;
  A.MaxThreadsX = MaxThreadsX;
  A.CallChain = Chain;
  A.SingleLane = SingleLane;
  A.GuardThreadsX = LaneBound;
  A.Loops.assign(Loops.begin(), Loops.end());
  KernelSummary &Out = S.Out;
  if (Addr.Root.Space == MemorySpace::Shared && !Out.UsesSharedMemory) {
    Out.UsesSharedMemory = true;
    Out.SharedSites.push_back(Site);
  }
  if (!Addr.isKnown() || Addr.ByteOffset.isUnknown())
    if (Addr.Root.Space != MemorySpace::Local && Addr.Root.Space != MemorySpace::Shared)
      Out.HasUnknownAccesses = true;
  Out.Accesses.push_back(std::move(A));
}

void Walker::recordLValue(const Expr *LV, AccessKind K) {
  LValue L = lvalue(LV);
  if (!L.IsMemory)
    return;
  record(LV, L.Addr, sizeOf(LV->getType()), K, L.MaxThreadsX);
}

void Walker::opaqueSite(const Stmt *Site) {
  S.Out.HasOpaqueCalls = true;
  S.Out.OpaqueSites.push_back(Site);
}

void Walker::setDef(const VarDecl *V, SymValue Value) {
  Defs[V] = escapes(V) ? SymValue::none() : std::move(Value);
}

SymValue Walker::updated(const VarDecl *V, BinaryOperatorKind Op, const Expr *RHS, int64_t Delta) {
  SymValue Old = varValue(V);
  if (Old.K == SymValue::None)
    return Old;
  AffineForm Step;
  if (RHS) {
    Step = intForm(RHS);
    if (Op == BO_SubAssign)
      Step = Step.scaled(-1);
    else if (Op == BO_MulAssign && Old.K == SymValue::Int)
      return SymValue::integer(Old.IntVal * Step);
    else if (Op == BO_ShlAssign && Old.K == SymValue::Int) {
      std::optional<int64_t> C = Step.asConstant();
      return C && *C >= 0 && *C < 62 ? SymValue::integer(Old.IntVal.scaled(int64_t(1) << *C))
                                     : SymValue::none();
    } else if (Op != BO_AddAssign) {
      if (Old.K == SymValue::Int && Old.IntVal.isUniform() && Step.isUniform())
        return SymValue::integer(AffineForm::symbol(opaque(RHS)));
      return SymValue::none();
    }
  } else {
    Step = AffineForm::constant(Delta);
  }
  if (Old.K == SymValue::Int)
    return SymValue::integer(Old.IntVal + Step);
  unsigned Size = pointeeSize(V->getType());
  if (Size == 0)
    return SymValue::none();
  Old.PtrVal.ByteOffset = Old.PtrVal.ByteOffset + Step.scaled(Size);
  return SymValue::pointer(Old.PtrVal);
}

void Walker::walkLValueOperands(const Expr *LV) {
  LV = LV->IgnoreParens();
  if (const auto *CE = dyn_cast<CastExpr>(LV)) {
    if (CE->getCastKind() == CK_NoOp || CE->getCastKind() == CK_LValueBitCast ||
        CE->getCastKind() == CK_UncheckedDerivedToBase)
      return walkLValueOperands(CE->getSubExpr());
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(LV)) {
    walkExpr(AS->getLHS());
    walkExpr(AS->getRHS());
    return;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(LV)) {
    if (ME->isArrow())
      walkExpr(ME->getBase());
    else
      walkLValueOperands(ME->getBase());
    return;
  }
  if (isa<DeclRefExpr>(LV))
    return;
  walkExpr(LV);
}

void Walker::walkExpr(const Expr *E) {
  if (!E)
    return;
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E);
      ICE && ICE->getCastKind() == CK_LValueToRValue) {
    const Expr *Sub = ICE->getSubExpr();
    if (coordinate(Sub))
      return;
    recordLValue(Sub, AccessKind::Load);
    walkLValueOperands(Sub);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAssignmentOp()) {
    walkExpr(BO->getRHS());
    if (const VarDecl *V = localVar(BO->getLHS())) {
      SymValue New = BO->getOpcode() == BO_Assign
                         ? evalValue(BO->getRHS())
                         : updated(V, BO->getOpcode(), BO->getRHS(), 0);
      setDef(V, std::move(New));
      return;
    }
    walkLValueOperands(BO->getLHS());
    recordLValue(BO->getLHS(),
                 BO->getOpcode() == BO_Assign ? AccessKind::Store : AccessKind::LoadStore);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp()) {
      if (const VarDecl *V = localVar(UO->getSubExpr())) {
        setDef(V, updated(V, BO_AddAssign, nullptr, UO->isIncrementOp() ? 1 : -1));
        return;
      }
      walkLValueOperands(UO->getSubExpr());
      recordLValue(UO->getSubExpr(), AccessKind::LoadStore);
      return;
    }
    if (UO->getOpcode() == UO_AddrOf) {
      walkLValueOperands(UO->getSubExpr());
      return;
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    walkCall(Call);
    return;
  }
  if (const auto *CC = dyn_cast<CXXConstructExpr>(E)) {
    walkConstruct(CC);
    return;
  }
  if (isa<LambdaExpr>(E))
    return;
  if (const auto *SE = dyn_cast<StmtExpr>(E)) {
    walkStmt(SE->getSubStmt());
    return;
  }
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E)) {
    if (coordinate(PO))
      return;
    for (const Expr *Sem : PO->semantics())
      walkExpr(Sem);
    return;
  }
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(E)) {
    walkExpr(OV->getSourceExpr());
    return;
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      walkExpr(CE);
}

void Walker::walkConstruct(const CXXConstructExpr *CC) {
  const CXXConstructorDecl *Ctor = CC->getConstructor();
  for (const Expr *Arg : CC->arguments()) {
    // Copying a struct out of memory: Particle p = particles[i].
    if (Ctor && Ctor->isCopyOrMoveConstructor() && Arg->isGLValue()) {
      recordLValue(Arg, AccessKind::Load);
      walkLValueOperands(Arg);
      continue;
    }
    walkExpr(Arg);
  }
  if (!Ctor || Ctor->isTrivial() || Ctor->isCopyOrMoveConstructor())
    return;
  // An object built over memory (cub::BlockReduce<float, 256>(temp_storage))
  // works on it where the walk cannot see.
  for (const Expr *Arg : CC->arguments())
    if (passesMemory(Arg) || (Arg->isGLValue() && lvalue(Arg).IsMemory))
      return opaqueSite(CC);
}

bool Walker::inSystemHeader(const Decl *D) const {
  const SourceManager &SM = Ctx.getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
}

bool Walker::inChain(const FunctionDecl *Def) const {
  if (Def == FD)
    return true;
  return llvm::any_of(Chain, [&](const CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    return F && F->getDefinition() == Def;
  });
}

bool Walker::passesMemory(const Expr *Arg) {
  QualType T = Arg->getType();
  if (!T->isPointerType() && !T->isArrayType())
    return false;
  const Expr *Bare = Arg->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Bare); UO && UO->getOpcode() == UO_AddrOf)
    if (!lvalue(UO->getSubExpr()).IsMemory)
      return false; // &local: a register variable (sincosf(x, &s, &c)).
  PointerValue P = ptrValue(Arg);
  return !P.isKnown() || P.Root.Space != MemorySpace::Local;
}

void Walker::walkCall(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  bool Member = isa<CXXMemberCallExpr>(Call);
  if (Member)
    walkExpr(Call->getCallee());
  unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(Callee) ? 1 : 0;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    // References to memory are addresses, not loads.
    bool ByRef = Callee && I >= Shift && I - Shift < Callee->getNumParams() &&
                 Callee->getParamDecl(I - Shift)->getType()->isReferenceType();
    if (ByRef && Arg->isGLValue())
      walkLValueOperands(Arg);
    else
      walkExpr(Arg);
  }
  if (isa<CUDAKernelCallExpr>(Call))
    return opaqueSite(Call); // A device-side launch.
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
      MD && isa<CXXOperatorCallExpr>(Call) && Call->getNumArgs() == 2 &&
      (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) &&
      (MD->isTrivial() || MD->isDefaulted())) {
    // Struct assignment: out[i] = value.
    recordLValue(Call->getArg(1), AccessKind::Load);
    recordLValue(Call->getArg(0), AccessKind::Store);
    if (const VarDecl *V = localVar(Call->getArg(0)))
      Defs[V] = SymValue::none();
    return;
  }
  CallRole Role = classifyDeviceCall(Callee);
  switch (Role) {
  case CallRole::Sync:
    S.Out.Synchronizes = true;
    S.Out.SyncSites.push_back(Call);
    return invalidateWrittenArgs(Call);
  case CallRole::Atomic: {
    S.Out.UsesAtomics = true;
    S.Out.AtomicSites.push_back(Call);
    if (Call->getNumArgs() > 0 && Call->getArg(0)->getType()->isPointerType())
      record(Call, ptrValue(Call->getArg(0)), pointeeSize(Call->getArg(0)->getType()),
             AccessKind::Atomic);
    return invalidateWrittenArgs(Call);
  }
  case CallRole::Load:
  case CallRole::Store:
    if (Call->getNumArgs() > 0 && Call->getArg(0)->getType()->isPointerType())
      record(Call, ptrValue(Call->getArg(0)), pointeeSize(Call->getArg(0)->getType()),
             Role == CallRole::Load ? AccessKind::Load : AccessKind::Store);
    return;
  case CallRole::Harmless:
  case CallRole::Multiply:
    return;
  case CallRole::None:
    break;
  }
  if (!Callee)
    return opaqueSite(Call);
  if (isGroupSync(Callee)) {
    S.Out.Synchronizes = true;
    S.Out.SyncSites.push_back(Call);
    return;
  }
  const FunctionDecl *Def = Callee->getDefinition();
  const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
  bool Inlinable = Def && Def->hasBody() && !inSystemHeader(Def) && Depth < S.MaxDepth &&
                   !inChain(Def) && !Def->isDependentContext() &&
                   (!MD || MD->isStatic() || !usesThis(Def)) && !Def->isVariadic();
  if (Inlinable && S.InlineBudget > 0) {
    --S.InlineBudget;
    inlineCall(Call, Def, Shift);
    return invalidateWrittenArgs(Call);
  }
  invalidateWrittenArgs(Call);
  if (!inSystemHeader(Callee))
    return opaqueSite(Call); // User code the TU cannot see into.
  if (MD && !MD->isStatic()) {
    const CXXRecordDecl *RD = MD->getParent();
    if (RD && RD->getIdentifier() && RD->getName().contains("atomic")) {
      S.Out.UsesAtomics = true;
      S.Out.AtomicSites.push_back(Call);
      return;
    }
  }
  // The value types of the toolkit's headers (__half, __nv_bfloat16, their
  // pairs): their conversions and operators take the value by const
  // reference or as a const method, and only read it. `(float)x[i]` and
  // `a[i] + b[i]` on bf16 data are loads of the elements.
  llvm::SmallVector<const Expr *, 2> ValueReads;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    QualType PT = I >= Shift && I - Shift < Callee->getNumParams()
                      ? Callee->getParamDecl(I - Shift)->getType()
                      : QualType();
    bool ByRef = !PT.isNull() && PT->isReferenceType();
    if (passesMemory(Arg))
      return opaqueSite(Call); // A library call on a buffer.
    if (ByRef && Arg->isGLValue() && lvalue(Arg).IsMemory) {
      if (!PT->getPointeeType().isConstQualified() || !isSmallValueType(PT->getPointeeType()))
        return opaqueSite(Call); // std::swap(a[i], a[j]).
      ValueReads.push_back(Arg);
    }
  }
  if (MD && !MD->isStatic())
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      if (const Expr *Obj = MC->getImplicitObjectArgument();
          Obj && Obj->isGLValue() && lvalue(Obj).IsMemory) {
        if (!MD->isConst() || !isSmallValueType(Obj->getType()))
          return opaqueSite(Call); // A method of an object that lives in memory.
        ValueReads.push_back(Obj);
      }
  for (const Expr *Read : ValueReads)
    recordLValue(Read, AccessKind::Load);
}

bool Walker::isSmallValueType(QualType T) const {
  T = T.getNonReferenceType().getUnqualifiedType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || T->isDependentType() || !T.isTriviallyCopyableType(Ctx))
    return false;
  unsigned Size = sizeOf(T);
  return Size > 0 && Size <= 16;
}

void Walker::invalidateWrittenArgs(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(Callee) ? 1 : 0;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I)->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Arg); UO && UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = localVar(UO->getSubExpr()))
        Defs[V] = SymValue::none();
    const VarDecl *V = localVar(Arg);
    if (!V || !Call->getArg(I)->isGLValue())
      continue;
    bool NonConstRef = !Callee;
    if (Callee && I >= Shift && I - Shift < Callee->getNumParams()) {
      QualType PT = Callee->getParamDecl(I - Shift)->getType();
      NonConstRef = PT->isReferenceType() && !PT->getPointeeType().isConstQualified();
    }
    if (NonConstRef)
      Defs[V] = SymValue::none();
  }
}

void Walker::inlineCall(const CallExpr *Call, const FunctionDecl *Def, unsigned Shift) {
  llvm::SmallVector<const CallExpr *, 2> SubChain = Chain;
  SubChain.push_back(Call);
  Walker Sub(S, Def, Depth + 1, std::move(SubChain), Call);
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    if (I + Shift >= Call->getNumArgs()) {
      Sub.bind(P, SymValue::none());
      continue;
    }
    const Expr *Arg = Call->getArg(I + Shift);
    if (P->getType()->isReferenceType()) {
      LValue L = Arg->isGLValue() ? lvalue(Arg) : LValue();
      if (L.IsMemory)
        Sub.bind(P, SymValue::pointer(L.Addr));
      else if (P->getType()->getPointeeType().isConstQualified() || !Arg->isGLValue())
        Sub.bindValueReference(P, evalValue(Arg));
      else
        Sub.bindValueReference(P, SymValue::none());
      continue;
    }
    Sub.bind(P, evalValue(Arg));
  }
  Sub.run();
  CallValues[Call] = Sub.returnValue(Call);
}

void Walker::walkStmt(const Stmt *St) {
  if (!St)
    return;
  if (const auto *E = dyn_cast<Expr>(St))
    return walkExpr(E);
  if (const auto *CS = dyn_cast<CompoundStmt>(St)) {
    bool Lane = SingleLane; // `if (lane != 0) return;` holds to the end of the block.
    unsigned Bound = LaneBound;
    for (const Stmt *Child : CS->body())
      walkStmt(Child);
    SingleLane = Lane;
    LaneBound = Bound;
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        walkVarDecl(V);
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(St))
    return walkIf(If);
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(St))
    return walkLoop(St);
  if (const auto *SW = dyn_cast<SwitchStmt>(St)) {
    walkStmt(SW->getInit());
    if (const VarDecl *CV = SW->getConditionVariable())
      walkVarDecl(CV);
    walkExpr(SW->getCond());
    WriteCollector WC;
    WC.collect(SW->getBody(), false);
    WC.finish();
    for (auto &Entry : WC.Writes)
      Defs[Entry.first] = SymValue::none();
    walkStmt(SW->getBody());
    for (auto &Entry : WC.Writes)
      Defs[Entry.first] = SymValue::none();
    return;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(St)) {
    const Expr *RV = RS->getRetValue();
    walkExpr(RV);
    if (!RV)
      return;
    if (FD->getReturnType()->isReferenceType()) {
      LValue L = lvalue(RV);
      if (L.IsMemory)
        Returns.push_back(SymValue::pointer(L.Addr));
      else
        ReturnsUnknown = true;
    } else {
      Returns.push_back(evalValue(RV));
    }
    return;
  }
  if (isa<GCCAsmStmt, MSAsmStmt>(St))
    return opaqueSite(St);
  if (const auto *LS = dyn_cast<LabelStmt>(St)) {
    // A jump target: values from before the label may not reach here.
    for (auto &Entry : Defs)
      if (!isa<ParmVarDecl>(Entry.first))
        Entry.second = SymValue::none();
    return walkStmt(LS->getSubStmt());
  }
  for (const Stmt *Child : St->children())
    walkStmt(Child);
}

void Walker::walkVarDecl(const VarDecl *V) {
  const Expr *Init = V->getInit();
  if (V->isStaticLocal() || variableMemorySpace(V)) {
    if (variableMemorySpace(V) == MemorySpace::Shared)
      S.Out.UsesSharedMemory = true; // Even when only a library call touches it.
    walkExpr(Init);
    return;
  }
  if (!Init) {
    Defs[V] = SymValue::none();
    return;
  }
  if (V->getType()->isReferenceType()) {
    walkLValueOperands(Init);
    LValue L = Init->isGLValue() ? lvalue(Init) : LValue();
    if (L.IsMemory) {
      setDef(V, SymValue::pointer(L.Addr));
    } else {
      ValueRefs.insert(V);
      setDef(V, V->getType()->getPointeeType().isConstQualified() ? evalValue(Init)
                                                                   : SymValue::none());
    }
    return;
  }
  walkExpr(Init);
  setDef(V, evalValue(Init));
}

void Walker::walkIf(const IfStmt *If) {
  walkStmt(If->getInit());
  if (const VarDecl *CV = If->getConditionVariable())
    walkVarDecl(CV);
  walkExpr(If->getCond());
  if (If->isConsteval())
    return;
  bool Lane = SingleLane;
  bool ThenOneLane = selectsOneLane(If->getCond(), false);
  bool ElseOneLane = selectsOneLane(If->getCond(), true);
  unsigned Bound = LaneBound;
  auto Tighter = [&](unsigned B) { return B && (!Bound || B < Bound) ? B : Bound; };
  unsigned ThenBound = Tighter(lanesBelow(If->getCond(), false));
  unsigned ElseBound = Tighter(lanesBelow(If->getCond(), true));
  DefMap Before = Defs;
  SingleLane = Lane || ThenOneLane;
  LaneBound = ThenBound;
  walkStmt(If->getThen());
  DefMap AfterThen = std::move(Defs);
  Defs = Before;
  SingleLane = Lane || ElseOneLane;
  LaneBound = ElseBound;
  walkStmt(If->getElse());
  SingleLane = Lane;
  LaneBound = Bound;
  DefMap AfterElse = std::move(Defs);
  bool ThenEnds = terminates(If->getThen()), ElseEnds = If->getElse() && terminates(If->getElse());
  if (ThenEnds && !ElseEnds) {
    Defs = std::move(AfterElse);
    SingleLane = Lane || ElseOneLane; // if (threadIdx.x != 0) return; ...
    LaneBound = ElseBound;            // if (threadIdx.x >= 8) return; ...
    return;
  }
  if (ElseEnds && !ThenEnds) {
    Defs = std::move(AfterThen);
    SingleLane = Lane || ThenOneLane; // if (threadIdx.x == 0) { ... } else return; ...
    LaneBound = ThenBound;
    return;
  }
  Defs = std::move(AfterThen);
  llvm::DenseSet<const VarDecl *> Seen;
  auto Merge = [&](const VarDecl *V) {
    if (!Seen.insert(V).second)
      return;
    auto T = Defs.find(V);
    auto E = AfterElse.find(V);
    SymValue TV = T == Defs.end() ? SymValue::none() : T->second;
    SymValue EV = E == AfterElse.end() ? SymValue::none() : E->second;
    if (TV == EV)
      return;
    if (TV.K == SymValue::Int && EV.K == SymValue::Int && TV.IntVal.isUniform() &&
        EV.IntVal.isUniform())
      Defs[V] = SymValue::integer(AffineForm::symbol({SymbolKind::Value, 0, V, If}));
    else if (TV.K == SymValue::Ptr && EV.K == SymValue::Ptr && TV.PtrVal.Root == EV.PtrVal.Root)
      Defs[V] = SymValue::pointer({TV.PtrVal.Root, AffineForm::unknown()});
    else
      Defs[V] = SymValue::none();
  };
  for (auto &Entry : AfterElse)
    Merge(Entry.first);
  llvm::SmallVector<const VarDecl *, 16> ThenVars;
  for (auto &Entry : Defs)
    ThenVars.push_back(Entry.first);
  for (const VarDecl *V : ThenVars)
    Merge(V);
}

WriteMap Walker::loopWrites(const Stmt *L) {
  WriteCollector WC;
  auto CollectBody = [&](const Stmt *Body) {
    bool Straight = !hasContinue(Body);
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Body)) {
      for (const Stmt *Child : CS->body())
        WC.collect(Child, Straight && isa<Expr>(Child));
    } else {
      WC.collect(Body, Straight && isa_and_nonnull<Expr>(Body));
    }
  };
  if (const auto *F = dyn_cast<ForStmt>(L)) {
    WC.collect(F->getCond(), false);
    WC.collect(F->getInc(), true);
    CollectBody(F->getBody());
  } else if (const auto *W = dyn_cast<WhileStmt>(L)) {
    WC.collect(W->getCond(), false);
    CollectBody(W->getBody());
  } else if (const auto *D = dyn_cast<DoStmt>(L)) {
    CollectBody(D->getBody());
    WC.collect(D->getCond(), false);
  } else if (const auto *R = dyn_cast<CXXForRangeStmt>(L)) {
    WC.collect(R->getBody(), false);
  }
  WC.finish();
  return std::move(WC.Writes);
}

std::optional<SymValue> Walker::induction(const VarDecl *V, const VarWrite &W, const SymValue &Before,
                                  const WriteMap &Writes, const Symbol &K) {
  if (!W.TopLevel || Before.K == SymValue::None)
    return std::nullopt;
  AffineForm Step;
  if (W.K == VarWrite::Step) {
    Step = AffineForm::constant(W.Delta);
  } else if (W.K == VarWrite::Compound &&
             (W.Op == BO_AddAssign || W.Op == BO_SubAssign)) {
    if (refersToAny(W.RHS, Writes))
      return std::nullopt;
    Step = intForm(W.RHS);
    if (W.Op == BO_SubAssign)
      Step = Step.scaled(-1);
  } else if (W.K == VarWrite::Assign) {
    const auto *BO = dyn_cast<BinaryOperator>(W.RHS->IgnoreParenImpCasts());
    if (!BO || (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub))
      return std::nullopt;
    const Expr *Other = nullptr;
    if (localVar(BO->getLHS()) == V)
      Other = BO->getRHS();
    else if (BO->getOpcode() == BO_Add && localVar(BO->getRHS()) == V)
      Other = BO->getLHS();
    if (!Other || refersToAny(Other, Writes) || Other->getType()->isPointerType())
      return std::nullopt;
    Step = intForm(Other);
    if (BO->getOpcode() == BO_Sub)
      Step = Step.scaled(-1);
  } else {
    return std::nullopt;
  }
  if (Step.isUnknown())
    return std::nullopt;
  AffineForm Advance = AffineForm::symbol(K) * Step;
  if (Before.K == SymValue::Int)
    return SymValue::integer(Before.IntVal + Advance);
  unsigned Size = pointeeSize(V->getType());
  if (Size == 0)
    return std::nullopt;
  PointerValue P = Before.PtrVal;
  P.ByteOffset = P.ByteOffset + Advance.scaled(Size);
  return SymValue::pointer(P);
}

void Walker::walkLoop(const Stmt *L) {
  if (const auto *Do = dyn_cast<DoStmt>(L); Do && !isLoop(Do)) {
    walkStmt(Do->getBody()); // do { } while (0)
    walkExpr(Do->getCond());
    return;
  }
  const Stmt *Body = nullptr;
  if (const auto *F = dyn_cast<ForStmt>(L)) {
    walkStmt(F->getInit());
    Body = F->getBody();
  } else if (const auto *R = dyn_cast<CXXForRangeStmt>(L)) {
    walkStmt(R->getInit());
    walkStmt(R->getRangeStmt());
    walkStmt(R->getBeginStmt());
    walkStmt(R->getEndStmt());
    Body = R->getBody();
  } else if (const auto *W = dyn_cast<WhileStmt>(L)) {
    Body = W->getBody();
  } else {
    Body = cast<DoStmt>(L)->getBody();
  }

  WriteMap Writes = loopWrites(L);
  const VarDecl *Counter = nullptr;
  if (const auto *F = dyn_cast<ForStmt>(L); F && F->getInc()) {
    const Expr *Inc = F->getInc()->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Inc))
      Counter = localVar(UO->getSubExpr());
    else if (const auto *BO = dyn_cast<BinaryOperator>(Inc))
      Counter = localVar(BO->getLHS());
  }
  Symbol K{SymbolKind::LoopCounter, 0, Counter, L};

  // Tentatively, every variable the loop writes holds a uniform value; a
  // write whose value then is uniform keeps it so.
  DefMap Before = Defs;
  DefMap Tentative = Defs;
  for (auto &[V, W] : Writes) {
    SymValue Old = varValue(V);
    Symbol U{SymbolKind::Value, 0, V, L};
    if (V->getType()->isIntegralOrEnumerationType())
      Tentative[V] = SymValue::integer(AffineForm::symbol(U));
    else if (Old.K == SymValue::Ptr)
      Tentative[V] = SymValue::pointer(
          {Old.PtrVal.Root, Old.PtrVal.ByteOffset + AffineForm::symbol(U)});
    else
      Tentative[V] = SymValue::none();
  }
  DefMap Head = Defs;
  for (auto &[V, W] : Writes) {
    SymValue Old = Before.lookup(V);
    Head[V] = SymValue::none();
    if (escapes(V))
      continue;
    if (W.size() == 1)
      if (std::optional<SymValue> I = induction(V, W.front(), Old, Writes, K)) {
        Head[V] = *I;
        continue;
      }
    // Uniform in the loop: uniform on entry, and every write stores a
    // uniform value (for a pointer: moves it by a uniform step).
    bool IsPtr = Old.K == SymValue::Ptr;
    if (!Old.isUniform() && !IsPtr)
      continue;
    std::swap(Defs, Tentative);
    bool Uniform = true;
    for (const VarWrite &One : W) {
      if (One.K == VarWrite::Other ||
          (IsPtr && One.K == VarWrite::Assign) ||
          (IsPtr && One.K == VarWrite::Compound && One.Op != BO_AddAssign &&
           One.Op != BO_SubAssign) ||
          (One.RHS && !intForm(One.RHS).isUniform())) {
        Uniform = false;
        break;
      }
    }
    SymValue HeadValue = Defs.lookup(V);
    std::swap(Defs, Tentative);
    if (Uniform)
      Head[V] = HeadValue;
  }
  Defs = std::move(Head);

  Loops.push_back(L);
  if (const auto *F = dyn_cast<ForStmt>(L)) {
    if (const VarDecl *CV = F->getConditionVariable())
      walkVarDecl(CV);
    walkExpr(F->getCond());
    walkStmt(Body);
    walkExpr(F->getInc());
  } else if (const auto *R = dyn_cast<CXXForRangeStmt>(L)) {
    walkStmt(R->getLoopVarStmt());
    walkStmt(Body);
  } else if (const auto *W = dyn_cast<WhileStmt>(L)) {
    if (const VarDecl *CV = W->getConditionVariable())
      walkVarDecl(CV);
    walkExpr(W->getCond());
    walkStmt(Body);
  } else {
    walkStmt(Body);
    walkExpr(cast<DoStmt>(L)->getCond());
  }
  Loops.pop_back();

  // After the loop the variables it writes hold values that may depend on
  // how many iterations each thread ran.
  for (auto &Entry : Writes)
    Defs[Entry.first] = SymValue::none();
}

bool Walker::selectsOneLane(const Expr *Cond, bool Negated) {
  if (!Cond)
    return false;
  Cond = Cond->IgnoreParens();
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond); UO && UO->getOpcode() == UO_LNot)
    return selectsOneLane(UO->getSubExpr(), !Negated);
  auto OneValue = [&](const AffineForm &F) {
    std::optional<int64_t> C = F.coefficientOf(Symbol::threadIdx(0)).asConstant();
    return C && *C != 0 && F.without(Symbol::threadIdx(0)).isUniform();
  };
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(Cond)) {
    if (ICE->getCastKind() == CK_IntegralToBoolean)
      return Negated && OneValue(intForm(ICE->getSubExpr())); // if (tid) return;
    return selectsOneLane(ICE->getSubExpr(), Negated);
  }
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return false;
  if (BO->getOpcode() == (Negated ? BO_LOr : BO_LAnd))
    return selectsOneLane(BO->getLHS(), Negated) || selectsOneLane(BO->getRHS(), Negated);
  if (BO->getOpcode() != (Negated ? BO_NE : BO_EQ))
    return false;
  return OneValue(intForm(BO->getLHS()) - intForm(BO->getRHS()));
}

unsigned Walker::lanesBelow(const Expr *Cond, bool Negated) {
  if (!Cond)
    return 0;
  Cond = Cond->IgnoreParens();
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond); UO && UO->getOpcode() == UO_LNot)
    return lanesBelow(UO->getSubExpr(), !Negated);
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(Cond))
    return ICE->getCastKind() == CK_IntegralToBoolean ? 0 : lanesBelow(ICE->getSubExpr(), Negated);
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return 0;
  if (BO->getOpcode() == (Negated ? BO_LOr : BO_LAnd)) {
    unsigned L = lanesBelow(BO->getLHS(), Negated), R = lanesBelow(BO->getRHS(), Negated);
    return L && R ? std::min(L, R) : std::max(L, R);
  }
  BinaryOperatorKind Op = BO->getOpcode();
  if (!BO->isRelationalOp())
    return 0;
  if (Negated) // !(a < b) is a >= b, ...
    Op = Op == BO_LT ? BO_GE : Op == BO_LE ? BO_GT : Op == BO_GT ? BO_LE : BO_LT;
  // (lhs - rhs) = a * threadIdx.x + k, a = +-1, k a constant.
  AffineForm D = intForm(BO->getLHS()) - intForm(BO->getRHS());
  if (D.isUnknown())
    return 0;
  std::optional<int64_t> A = D.coefficientOf(Symbol::threadIdx(0)).asConstant();
  std::optional<int64_t> K = D.without(Symbol::threadIdx(0)).asConstant();
  if (!A || !K || (*A != 1 && *A != -1))
    return 0;
  int64_t Below = 0;
  if (*A == 1 && (Op == BO_LT || Op == BO_LE)) // x + k < 0: x < -k
    Below = -*K + (Op == BO_LE);
  else if (*A == -1 && (Op == BO_GT || Op == BO_GE)) // k - x > 0: x < k
    Below = *K + (Op == BO_GE);
  return Below >= 1 && Below <= (int64_t(1) << 20) ? unsigned(Below) : 0;
}

bool Walker::usesThis(const FunctionDecl *Def) {
  auto [It, Inserted] = S.UsesThis.try_emplace(Def, false);
  if (Inserted)
    It->second = mentionsThis(Def->getBody());
  return It->second;
}

} // namespace detail

void walkFunction(ASTContext &Ctx, ValueTracker &VT, const FunctionDecl *FD, KernelSummary &Out,
                  unsigned MaxInlineDepth) {
  detail::WalkShared S(Ctx, VT, Out, MaxInlineDepth);
  detail::Walker W(S, FD, 0, {}, nullptr);
  W.bindParameters(isKernel(FD));
  W.run();
}

} // namespace cuda_advisor::analysis
