//===- LaunchGridTruncationCheck.cpp - launch-grid-truncation --------------===//
#include "LaunchGridTruncationCheck.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_advisor::analysis;

namespace cuda_advisor::checks {

void LaunchGridTruncationCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(
      callExpr(anyOf(cudaKernelCallExpr(),
                     callee(functionDecl(hasAnyName("::cudaLaunchKernel",
                                                    "::cudaLaunchCooperativeKernel")))))
          .bind("launch"),
      this);
}

static const Expr *strip(const Expr *E) { return stripTemporaries(E); }

/// The expressions giving grid.x, grid.y, grid.z (an int grid is x only).
static SmallVector<const Expr *, 3> gridComponents(const Expr *Grid, ValueTracker &VT) {
  SmallVector<const Expr *, 3> Out;
  const Expr *E = strip(VT.resolve(Grid));
  if (!E || E->getType().isNull())
    return Out;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getConstructor() && CE->getConstructor()->isCopyOrMoveConstructor() &&
        CE->getNumArgs() == 1)
      return gridComponents(CE->getArg(0), VT);
    for (unsigned I = 0; I < CE->getNumArgs() && I < 3; ++I)
      if (!isa<CXXDefaultArgExpr>(CE->getArg(I)))
        Out.push_back(CE->getArg(I));
    return Out;
  }
  if (E->getType()->isIntegralOrEnumerationType())
    Out.push_back(E);
  return Out;
}

/// The expression of block.x/.y/.z (index I), when it can be seen.
static const Expr *blockComponent(const Expr *Block, unsigned I, ValueTracker &VT) {
  const Expr *E = strip(VT.resolve(Block));
  if (!E || E->getType().isNull())
    return nullptr;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getConstructor() && CE->getConstructor()->isCopyOrMoveConstructor() &&
        CE->getNumArgs() == 1)
      return blockComponent(CE->getArg(0), I, VT);
    if (I < CE->getNumArgs() && !isa<CXXDefaultArgExpr>(CE->getArg(I)))
      return CE->getArg(I);
    return nullptr;
  }
  return I == 0 && E->getType()->isIntegralOrEnumerationType() ? E : nullptr;
}

/// `threads.x` (I = 0) where the launch's block is the variable `threads`: the
/// block size by construction, whatever the variable holds.
static bool isBlockMember(const Expr *T, const Expr *Block, unsigned I) {
  auto VarOf = [](const Expr *E) -> const VarDecl * {
    const auto *DRE = dyn_cast<DeclRefExpr>(strip(E));
    return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  };
  const VarDecl *B = VarOf(Block);
  const auto *ME = dyn_cast<MemberExpr>(strip(T));
  if (!B || !ME || !ME->getMemberDecl()->getIdentifier())
    return false;
  StringRef Field = ME->getMemberDecl()->getName();
  return Field.size() == 1 && Field[0] == char('x' + I) && VarOf(ME->getBase()) == B;
}

/// n + t - 1, n + (t - 1), t - 1 + n, (n + 255) with t == 256, ...: any
/// additive dividend is taken as rounded (precision over recall), except a
/// constant taken off a value that is not itself a sum: `(cols - 2) / t`
/// (the interior of an image) truncates as `cols / t` does.
static bool isAdditive(const Expr *E, ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO || (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub))
    return false;
  if (BO->getOpcode() == BO_Sub) {
    const auto *L = dyn_cast<BinaryOperator>(strip(BO->getLHS()));
    bool LeftIsSum = L && (L->getOpcode() == BO_Add || L->getOpcode() == BO_Sub);
    std::optional<llvm::APSInt> C = strip(BO->getRHS())->getIntegerConstantExpr(Ctx);
    if (!LeftIsSum && C && !C->isNegative())
      return false;
  }
  return true;
}

/// `x - c` with x a multiple of T and 0 < c < T (`(k * 64 - 1) / 64`): the
/// dividend counts blocks times T, not elements, so dividing it by T gives a
/// block count that no element count truncates.
static bool multipleLessAConstant(const Expr *N, int64_t T, ValueTracker &VT) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(N));
  if (!BO || BO->getOpcode() != BO_Sub)
    return false;
  std::optional<int64_t> C = VT.evaluateInt(BO->getRHS());
  return C && *C > 0 && *C < T && VT.isMultipleOf(BO->getLHS(), T);
}

/// `(n + k - 1) * s`: a rounded count scaled by a factor (CGBN's
/// `(count + IPB - 1) * tpi / threads` with IPB = threads / tpi, i.e.
/// ceil(count / IPB) blocks of IPB instances of tpi threads). A product with an
/// additive factor is taken as rounded, as an additive dividend is.
static bool isScaledSum(const Expr *E, ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  return BO && BO->getOpcode() == BO_Mul &&
         (isAdditive(BO->getLHS(), Ctx) || isAdditive(BO->getRHS(), Ctx));
}

/// Where a value is stored: a variable, an element of an array variable at a
/// constant index (`work[0]`), or a field (`p.n`); with no constant index,
/// Index is empty and the key stands for every element.
struct Storage {
  const ValueDecl *Decl = nullptr;
  std::optional<int64_t> Index;
  bool operator==(const Storage &O) const { return Decl == O.Decl && Index == O.Index; }
};

static Storage storageOf(const Expr *E, ValueTracker &VT) {
  E = strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return {DRE->getDecl(), std::nullopt};
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return {ME->getMemberDecl(), std::nullopt};
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    Storage S = storageOf(AS->getBase(), VT);
    if (S.Decl)
      S.Index = VT.evaluateInt(AS->getIdx());
    return S;
  }
  return {};
}

/// The values F stores where N is stored: a variable's initializer, and the
/// right side of `n = ...` and `work[d] = ...` (an element written at an
/// index that is not constant may be any element).
static SmallVector<const Expr *, 4> valuesWrittenTo(const FunctionDecl *F, const Expr *N,
                                                    ValueTracker &VT) {
  SmallVector<const Expr *, 4> Out;
  Storage Key = storageOf(N, VT);
  if (!F || !F->hasBody() || !Key.Decl)
    return Out;
  if (const auto *V = dyn_cast<VarDecl>(Key.Decl); V && !Key.Index && V->getInit())
    Out.push_back(V->getInit());
  struct Finder : RecursiveASTVisitor<Finder> {
    Storage Key;
    ValueTracker &VT;
    SmallVector<const Expr *, 4> &Out;
    Finder(Storage Key, ValueTracker &VT, SmallVector<const Expr *, 4> &Out)
        : Key(Key), VT(VT), Out(Out) {}
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() != BO_Assign)
        return true;
      Storage S = storageOf(BO->getLHS(), VT);
      if (S.Decl == Key.Decl && (!S.Index || !Key.Index || *S.Index == *Key.Index))
        Out.push_back(BO->getRHS());
      return true;
    }
  } Fn(Key, VT, Out);
  Fn.TraverseStmt(F->getBody());
  return Out;
}

/// N is set, before the division Div, by a helper that is given the divisor:
/// `int n = align_up(count, block)`, `work[0] = round_amount_of_work(work[0],
/// threads[0])`: a function of a count and the block size stored as the count
/// rounds it to a multiple (min and max aside).
static bool roundedByHelper(const FunctionDecl *F, const BinaryOperator *Div, ValueTracker &VT) {
  const Expr *N = Div->getLHS(), *T = Div->getRHS();
  const SourceManager &SM = VT.context().getSourceManager();
  Storage TKey = storageOf(T, VT);
  for (const Expr *Value : valuesWrittenTo(F, N, VT)) {
    const auto *Call = dyn_cast<CallExpr>(strip(Value));
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee || !Callee->getIdentifier() ||
        !SM.isBeforeInTranslationUnit(Call->getBeginLoc(), Div->getBeginLoc()))
      continue;
    StringRef Name = Callee->getName();
    if (Name.contains_insensitive("min") || Name.contains_insensitive("max"))
      continue;
    for (const Expr *Arg : Call->arguments())
      if (sameValue(Arg, T, VT) || (TKey.Decl && storageOf(Arg, VT) == TKey))
        return true;
  }
  return false;
}

/// The block size is 1 where the grid is set: every value F stores where T
/// is stored is a constant of at most 1 (`threads[1] = 1;`).
static bool blockIsOne(const FunctionDecl *F, const Expr *T, ValueTracker &VT) {
  Storage Key = storageOf(T, VT);
  if (!Key.Decl || !Key.Index)
    return false;
  SmallVector<const Expr *, 4> Values = valuesWrittenTo(F, T, VT);
  return !Values.empty() && llvm::all_of(Values, [&](const Expr *V) {
    std::optional<int64_t> C = VT.evaluateInt(V);
    return C && *C <= 1;
  });
}

/// The kernel reads gridDim: a grid-stride loop covers any n with any grid.
static bool readsGridDim(const FunctionDecl *Kernel) {
  const FunctionDecl *Def = Kernel ? Kernel->getDefinition() : nullptr;
  if (!Def || !Def->hasBody())
    return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (V->getIdentifier() && V->getName() == "gridDim")
          Found = true;
      return !Found;
    }
  } F;
  F.TraverseStmt(Def->getBody());
  return F.Found;
}

/// The function tests N % T (`if (n % t != 0) exit(1);`, `assert(n % t == 0)`,
/// `if (n % t) ++blocks;`): its author knows about the remainder, and either
/// rejects it or handles it, so the grid is as intended. With a constant T, a
/// test of N % M for a multiple M of T counts too: `if (n % 32 != 0) return 1;`
/// makes n a multiple of 16 as well.
static bool testsRemainder(const FunctionDecl *F, const Expr *N, const Expr *T, ValueTracker &VT) {
  if (!F || !F->hasBody())
    return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const Expr *N, *T;
    ValueTracker &VT;
    std::optional<int64_t> TV;
    bool Found = false;
    Finder(const Expr *N, const Expr *T, ValueTracker &VT)
        : N(N), T(T), VT(VT), TV(VT.evaluateInt(T)) {}
    bool divisorCovers(const Expr *M) {
      if (sameValue(M, T, VT))
        return true;
      std::optional<int64_t> MV = TV && *TV > 0 ? VT.evaluateInt(M) : std::nullopt;
      return MV && *MV > 0 && *MV % *TV == 0;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if ((BO->getOpcode() == BO_Rem || BO->getOpcode() == BO_RemAssign) &&
          sameValue(BO->getLHS(), N, VT) && divisorCovers(BO->getRHS()))
        Found = true;
      return !Found;
    }
  } Fn(N, T, VT);
  Fn.TraverseStmt(F->getBody());
  return Fn.Found;
}

/// `(n + 3) / 2` divided again by 2: floor(floor(a / b) / c) is floor(a / (b * c)),
/// so a quotient of a rounded (additive) dividend is rounded too.
static bool isRoundedQuotient(const Expr *E, ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO || BO->getOpcode() != BO_Div)
    return false;
  return isAdditive(BO->getLHS(), Ctx) || isScaledSum(BO->getLHS(), Ctx) ||
         isRoundedQuotient(BO->getLHS(), Ctx);
}

/// E is a product with T among its factors (`groups * perGroup` for T = perGroup).
static bool hasFactor(const Expr *E, const Expr *T, ValueTracker &VT, unsigned Depth = 0) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO || BO->getOpcode() != BO_Mul || Depth > 4)
    return false;
  Storage TKey = storageOf(T, VT);
  for (const Expr *Op : {BO->getLHS(), BO->getRHS()})
    if (sameValue(Op, T, VT) || (TKey.Decl && !TKey.Index && storageOf(Op, VT) == TKey) ||
        hasFactor(Op, T, VT, Depth + 1))
      return true;
  return false;
}

/// The values stored in the field N anywhere in its class: member
/// initializers, and assignments in the class's methods.
static SmallVector<const Expr *, 4> valuesWrittenToField(const FieldDecl *Field) {
  SmallVector<const Expr *, 4> Out;
  const auto *RD = dyn_cast<CXXRecordDecl>(Field->getParent());
  if (!RD || !RD->hasDefinition())
    return Out;
  if (Field->hasInClassInitializer() && Field->getInClassInitializer())
    Out.push_back(Field->getInClassInitializer());
  struct Finder : RecursiveASTVisitor<Finder> {
    const FieldDecl *Field;
    SmallVector<const Expr *, 4> &Out;
    Finder(const FieldDecl *Field, SmallVector<const Expr *, 4> &Out) : Field(Field), Out(Out) {}
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->isAssignmentOp())
        if (const auto *ME = dyn_cast<MemberExpr>(strip(BO->getLHS())))
          if (ME->getMemberDecl() == Field)
            Out.push_back(BO->getOpcode() == BO_Assign ? BO->getRHS() : nullptr);
      return true;
    }
  } Fn(Field, Out);
  for (const CXXMethodDecl *M : RD->methods()) {
    const FunctionDecl *Def = M->getDefinition();
    if (!Def || !Def->hasBody())
      continue;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isWritten() && Init->getMember() == Field)
          Out.push_back(Init->getInit());
    Fn.TraverseStmt(Def->getBody());
  }
  return Out;
}

/// Every value stored where N is stored (a local's initializer and
/// assignments in F, or a field's everywhere in its class) is a product with
/// the block size T as a factor: `nbThread = nbThreadGroup * nbThreadPerGroup`
/// makes `nbThread / nbThreadPerGroup` exact.
static bool alwaysProductOf(const FunctionDecl *F, const Expr *N, const Expr *T,
                            ValueTracker &VT) {
  Storage Key = storageOf(N, VT);
  if (!Key.Decl || Key.Index)
    return false;
  SmallVector<const Expr *, 4> Values;
  if (const auto *Field = dyn_cast<FieldDecl>(Key.Decl))
    Values = valuesWrittenToField(Field);
  else if (const auto *V = dyn_cast<VarDecl>(Key.Decl); V && V->isLocalVarDecl())
    Values = valuesWrittenTo(F, N, VT);
  else
    return false;
  return !Values.empty() && llvm::all_of(Values, [&](const Expr *V) {
    return V && hasFactor(V, T, VT);
  });
}

/// blockIdx.<Dim> as written (a property in clang's CUDA headers, a field in
/// the bundled declarations).
static bool isBlockIdx(const Expr *Base, StringRef Field, unsigned Dim) {
  Base = Base ? Base->IgnoreParenImpCasts() : nullptr;
  if (const auto *OV = dyn_cast_or_null<OpaqueValueExpr>(Base))
    Base = OV->getSourceExpr() ? OV->getSourceExpr()->IgnoreParenImpCasts() : nullptr;
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Base);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return V && V->getIdentifier() && V->getName() == "blockIdx" && Field.size() == 1 &&
         Field[0] == char('x' + Dim);
}

namespace {
enum class GuardState { Guarded, Unguarded, Unknown };

/// Does a kernel bound its index in grid dimension Dim? A comparison (or a
/// min/max/clamp) of a value computed from blockIdx.<Dim>, in the kernel or in
/// a __device__ helper it passes such a value to, is the guard of
/// `if (i < n)`, `if (row >= h) return;`. A kernel without one assumes the
/// sizes are multiples of its block, by design (the Programming Guide's tiled
/// matrix multiply): rounding its grid up would run threads out of bounds, so
/// the floor division is not the defect. A helper the TU cannot see that is
/// given such a value leaves it unknown.
class GuardFinder : public RecursiveASTVisitor<GuardFinder> {
public:
  GuardFinder(unsigned Dim, const SourceManager &SM) : Dim(Dim), SM(SM) {}

  GuardState run(const FunctionDecl *Kernel) {
    const FunctionDecl *Def = Kernel ? Kernel->getDefinition() : nullptr;
    if (!Def || !Def->hasBody())
      return GuardState::Unknown;
    Functions.insert(Def);
    Order.push_back(Def);
    // To a fixed point: a value tainted late may taint an earlier one (loops).
    for (unsigned Round = 0; Round < 6 && !Guard; ++Round) {
      Changed = false;
      for (unsigned I = 0; I < Order.size() && !Guard; ++I)
        TraverseStmt(Order[I]->getBody());
      if (!Changed)
        break;
    }
    if (Guard)
      return GuardState::Guarded;
    return Opaque ? GuardState::Unknown : GuardState::Unguarded;
  }

  bool VisitVarDecl(VarDecl *V) {
    if (V->getInit() && dependsOnBlock(V->getInit()))
      taint(V);
    return !Guard;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isComparisonOp() && (dependsOnBlock(BO->getLHS()) || dependsOnBlock(BO->getRHS())))
      Guard = true;
    if (BO->isAssignmentOp() && dependsOnBlock(BO->getRHS()))
      if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(BO->getLHS())))
        taint(DRE->getDecl());
    return !Guard;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (!llvm::any_of(Call->arguments(), [&](const Expr *A) { return dependsOnBlock(A); }))
      return true;
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee) {
      Opaque = true;
      return true;
    }
    if (const IdentifierInfo *II = Callee->getIdentifier()) {
      StringRef Name = II->getName();
      if (Name.contains_insensitive("min") || Name.contains_insensitive("max") ||
          Name.contains_insensitive("clamp")) {
        Guard = true;
        return false;
      }
    }
    // A builtin, a standard or CUDA math function (sinf, __fdividef: the
    // toolkit's or Clang's wrapper headers define them, around libdevice
    // calls) computes; it does not guard. min/max/clamp are above.
    if (Callee->getBuiltinID() || Callee->isInStdNamespace() ||
        SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
      return true;
    const FunctionDecl *Def = Callee->getDefinition();
    if (!Def || !Def->hasBody()) {
      Opaque = true;
      return true;
    }
    for (unsigned I = 0; I < Call->getNumArgs() && I < Def->getNumParams(); ++I)
      if (dependsOnBlock(Call->getArg(I)))
        taint(Def->getParamDecl(I));
    if (Functions.size() < MaxFunctions && Functions.insert(Def).second) {
      Order.push_back(Def);
      Changed = true;
    } else if (!Functions.count(Def)) {
      Opaque = true;
    }
    return true;
  }

private:
  /// Does E read blockIdx.<Dim>, or a value computed from it?
  class Uses : public RecursiveASTVisitor<Uses> {
  public:
    Uses(unsigned Dim, const llvm::SmallPtrSetImpl<const ValueDecl *> &Tainted)
        : Dim(Dim), Tainted(Tainted) {}
    bool Found = false;
    bool TraversePseudoObjectExpr(PseudoObjectExpr *E) {
      return TraverseStmt(E->getSyntacticForm());
    }
    // A value loaded from memory at the index (`x1 = rx[n1]`, `*p`) is data,
    // not the index: comparing it (`if (r2 < MinDistance)`) bounds nothing.
    // An address (`&a[i]`, compared with an end pointer) and an element of a
    // local array of coordinates (`c[2] = {x, y}; if (c[0] >= w)`) are not
    // loads of data.
    bool TraverseArraySubscriptExpr(ArraySubscriptExpr *AS) {
      if (InAddress || isLocalArray(AS->getBase()))
        return RecursiveASTVisitor<Uses>::TraverseArraySubscriptExpr(AS);
      return true;
    }
    bool TraverseUnaryOperator(UnaryOperator *U) {
      if (U->getOpcode() == UO_Deref && !InAddress)
        return true;
      bool Saved = InAddress;
      InAddress = U->getOpcode() == UO_AddrOf;
      bool Go = RecursiveASTVisitor<Uses>::TraverseUnaryOperator(U);
      InAddress = Saved;
      return Go;
    }
    static bool isLocalArray(const Expr *Base) {
      const auto *DRE = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
      const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      return V && V->hasLocalStorage() && V->getType()->isArrayType();
    }
    bool InAddress = false;
    bool VisitMSPropertyRefExpr(MSPropertyRefExpr *MP) {
      Found |= MP->getPropertyDecl()->getIdentifier() &&
               isBlockIdx(MP->getBaseExpr(), MP->getPropertyDecl()->getName(), Dim);
      return !Found;
    }
    bool VisitMemberExpr(MemberExpr *ME) {
      Found |= ME->getMemberDecl()->getIdentifier() &&
               isBlockIdx(ME->getBase(), ME->getMemberDecl()->getName(), Dim);
      return !Found;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      Found |= Tainted.count(DRE->getDecl()) != 0;
      return !Found;
    }

  private:
    unsigned Dim;
    const llvm::SmallPtrSetImpl<const ValueDecl *> &Tainted;
  };

  bool dependsOnBlock(const Expr *E) const {
    Uses U(Dim, Tainted);
    U.TraverseStmt(const_cast<Expr *>(E));
    return U.Found;
  }
  void taint(const ValueDecl *D) {
    if (D && Tainted.insert(D).second)
      Changed = true;
  }

  static constexpr unsigned MaxFunctions = 8;
  unsigned Dim;
  const SourceManager &SM;
  llvm::SmallPtrSet<const ValueDecl *, 16> Tainted;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Functions;
  SmallVector<const FunctionDecl *, 8> Order;
  bool Opaque = false, Guard = false, Changed = false;
};
} // namespace

/// The kernel a launch runs; in a template, where the call is dependent
/// (`offset<<<g, b>>>(d_a, 0)` with `T *d_a`), each function template the
/// name can mean, by its pattern. Empty when unknown (a function pointer).
static SmallVector<const FunctionDecl *, 2> kernelCandidates(const LaunchSite &Site) {
  SmallVector<const FunctionDecl *, 2> Out;
  if (Site.Kernel) {
    Out.push_back(Site.Kernel);
    return Out;
  }
  const auto *K = dyn_cast_or_null<CUDAKernelCallExpr>(Site.Call);
  const auto *ULE =
      K ? dyn_cast<UnresolvedLookupExpr>(K->getCallee()->IgnoreParenImpCasts()) : nullptr;
  if (!ULE)
    return Out;
  for (const NamedDecl *D : ULE->decls()) {
    D = D->getUnderlyingDecl();
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      Out.push_back(FT->getTemplatedDecl());
    else if (const auto *FD = dyn_cast<FunctionDecl>(D))
      Out.push_back(FD);
    else
      return {};
  }
  return Out;
}

static std::string textOf(const Expr *E, ASTContext &Ctx) {
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), Ctx.getSourceManager(),
      Ctx.getLangOpts());
  if (R.isInvalid())
    return "";
  return Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
}

/// The kernel itself divides one of its size parameters (or a member of one)
/// by the grid's divisor, truncating, and never takes the remainder: the
/// tiled multiply of the Programming Guide and of PMPP loops over
/// `m < n / TILE_WIDTH` tiles with unguarded tile loads. Such a kernel drops
/// the tail of n in its own loop, so it assumes multiples of the tile by
/// design; rounding the grid up alone would not process the tail. A kernel
/// that rounds its own division (`(n + TILE - 1) / TILE`) or handles
/// `n % TILE` keeps the finding.
static bool kernelAssumesMultiples(const FunctionDecl *K, int64_t T, ValueTracker &VT) {
  const FunctionDecl *Def = K ? K->getDefinition() : nullptr;
  if (!Def || !Def->hasBody())
    return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const FunctionDecl *Kernel;
    int64_t T;
    ValueTracker &VT;
    llvm::SmallPtrSet<const ValueDecl *, 4> Divided, Remainder;
    Finder(const FunctionDecl *K, int64_t T, ValueTracker &VT) : Kernel(K), T(T), VT(VT) {}
    /// The parameter (or the parameter whose member) E reads.
    const ValueDecl *sizeParameter(const Expr *E) {
      E = E->IgnoreParenImpCasts();
      if (const auto *M = dyn_cast<MemberExpr>(E)) {
        const auto *Base = dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts());
        if (Base && isa<ParmVarDecl>(Base->getDecl()) && !M->isArrow())
          return M->getMemberDecl();
        return nullptr;
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
        if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
          if (llvm::is_contained(Kernel->parameters(), P) &&
              P->getType()->isIntegerType())
            return P;
      return nullptr;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() != BO_Div && BO->getOpcode() != BO_Rem &&
          BO->getOpcode() != BO_DivAssign && BO->getOpcode() != BO_RemAssign)
        return true;
      if (!BO->getType()->isIntegerType())
        return true;
      const ValueDecl *P = sizeParameter(BO->getLHS());
      auto D = VT.evaluateInt(BO->getRHS());
      if (!P || !D || *D != T)
        return true;
      if (BO->getOpcode() == BO_Div)
        Divided.insert(P);
      else
        Remainder.insert(P);
      return true;
    }
  } F(Def, T, VT);
  F.TraverseStmt(Def->getBody());
  return llvm::any_of(F.Divided, [&](const ValueDecl *P) { return !F.Remainder.count(P); });
}

/// A comment that states the sizes are multiples as a precondition: "Matrix
/// dimensions are assumed to be multiples of BLOCK_SIZE" (the Programming
/// Guide's tiled multiply, copied into many programs), "n must be divisible by
/// the block". A comment that only mentions multiples ("if n is not a
/// multiple of 256 the tail is dropped") states no precondition.
static bool statesMultiple(StringRef Comment) {
  std::string Lower = Comment.lower();
  StringRef L(Lower);
  bool Multiple = L.contains("multiple of") || L.contains("multiples of") ||
                  L.contains("divisible by") || L.contains("evenly divid");
  bool Required = L.contains("must") || L.contains("assum") || L.contains("should") ||
                  L.contains("require") || L.contains("precondition") ||
                  L.contains("has to") || L.contains("have to") || L.contains("only work");
  return Multiple && Required;
}

/// The comments in D's body, and the block of comment lines right above each
/// of its declarations, state the precondition that the grid's division
/// relies on: the author chose to require multiples rather than round up.
/// Adjacent comment lines are read as one sentence.
static bool documentsMultiples(const FunctionDecl *D, const SourceManager &SM,
                               const LangOptions &LO) {
  if (!D)
    return false;
  for (const FunctionDecl *R : D->redecls()) {
    clang::SourceLocation Begin = SM.getExpansionLoc(R->getBeginLoc());
    if (Begin.isInvalid() || SM.isInSystemHeader(Begin))
      continue;
    FileID File = SM.getFileID(Begin);
    StringRef Buffer = SM.getBufferData(File);
    // Comment lines directly above the declaration (attributes, template
    // headers and a return type on their own lines may sit in between).
    unsigned Line = SM.getExpansionLineNumber(Begin);
    std::string Above;
    for (unsigned Up = 1; Up <= 12 && Up < Line; ++Up) {
      unsigned Start = SM.getDecomposedLoc(SM.translateLineCol(File, Line - Up, 1)).second;
      StringRef Text = Buffer.substr(Start).split('\n').first.trim();
      if (Text.empty())
        break;
      bool Comment = Text.starts_with("//") || Text.starts_with("/*") ||
                     Text.starts_with("*") || Text.ends_with("*/");
      if (Comment)
        Above = Text.str() + " " + Above;
      else if (Text.ends_with(";") || Text.ends_with("}") || Text.ends_with("{"))
        break; // The previous declaration's code.
    }
    if (statesMultiple(Above))
      return true;
    // Comments inside the body.
    if (!R->doesThisDeclarationHaveABody() || !R->getBody())
      continue;
    CharSourceRange Body = CharSourceRange::getTokenRange(R->getBody()->getSourceRange());
    clang::SourceLocation BodyBegin = SM.getExpansionLoc(Body.getBegin());
    clang::SourceLocation BodyEnd = SM.getExpansionLoc(Body.getEnd());
    if (SM.getFileID(BodyBegin) != File || SM.getFileID(BodyEnd) != File)
      continue;
    unsigned EndOffset = SM.getFileOffset(BodyEnd);
    Lexer Lex(SM.getLocForStartOfFile(File), LO, Buffer.begin(),
              Buffer.begin() + SM.getFileOffset(BodyBegin), Buffer.end());
    Lex.SetCommentRetentionState(true);
    Token Tok;
    std::string Group;
    while (!Lex.LexFromRawLexer(Tok) && SM.getFileOffset(Tok.getLocation()) <= EndOffset) {
      if (Tok.is(tok::comment)) {
        Group += Buffer.substr(SM.getFileOffset(Tok.getLocation()), Tok.getLength()).str() + " ";
        continue;
      }
      if (statesMultiple(Group))
        return true;
      Group.clear();
    }
  }
  return false;
}

/// The largest block size of a sweep that doubles it: T is the counter of
/// `for (int k = 1; k <= 1024; k *= 2)` (or `k <<= 1`, `k = k << 1`, `k = k *
/// 2`), started at a power of two and bounded by a constant, and the body
/// never writes it. Every value is a power of two that divides the largest:
/// a count that is a multiple of it is a multiple of each.
static std::optional<int64_t> doublingSweepMaximum(const Expr *T, ValueTracker &VT) {
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(T));
  const auto *K = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!K || !K->isLocalVarDecl() || !K->getInit())
    return std::nullopt;
  const ForStmt *For = declaringFor(K, VT.context());
  if (!For || !For->getCond() || !For->getInc() || !For->getBody())
    return std::nullopt;
  auto IsK = [&](const Expr *E) {
    const auto *R = dyn_cast<DeclRefExpr>(strip(E));
    return R && R->getDecl() == K;
  };
  auto IsConst = [&](const Expr *E, int64_t V) {
    std::optional<int64_t> C = VT.evaluateInt(E);
    return C && *C == V;
  };
  // The step doubles k.
  const Expr *Inc = For->getInc()->IgnoreParenImpCasts();
  bool Doubles = false;
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc); CA && IsK(CA->getLHS()))
    Doubles = (CA->getOpcode() == BO_MulAssign && IsConst(CA->getRHS(), 2)) ||
              (CA->getOpcode() == BO_ShlAssign && IsConst(CA->getRHS(), 1));
  else if (const auto *A = dyn_cast<BinaryOperator>(Inc);
           A && A->getOpcode() == BO_Assign && IsK(A->getLHS()))
    if (const auto *R = dyn_cast<BinaryOperator>(strip(A->getRHS())); R && IsK(R->getLHS()))
      Doubles = (R->getOpcode() == BO_Mul && IsConst(R->getRHS(), 2)) ||
                (R->getOpcode() == BO_Shl && IsConst(R->getRHS(), 1));
  std::optional<int64_t> First = VT.evaluateInt(K->getInit());
  if (!Doubles || !First || *First <= 0 || (*First & (*First - 1)) != 0)
    return std::nullopt;
  // `k <= C` or `k < C`.
  const auto *Cond = dyn_cast<BinaryOperator>(For->getCond()->IgnoreParenImpCasts());
  std::optional<int64_t> C = Cond ? VT.evaluateInt(Cond->getRHS()) : std::nullopt;
  if (!Cond || !IsK(Cond->getLHS()) || !C ||
      (Cond->getOpcode() != BO_LE && Cond->getOpcode() != BO_LT))
    return std::nullopt;
  int64_t Limit = Cond->getOpcode() == BO_LE ? *C : *C - 1;
  if (Limit < *First || Limit > (int64_t(1) << 40))
    return std::nullopt;
  // Nothing else writes k (a store, ++, a non-const reference...).
  if (writesInside(K, For->getBody(), VT) != 0)
    return std::nullopt;
  int64_t Max = *First;
  while (Max <= Limit / 2)
    Max *= 2;
  return Max;
}

/// Text of E that can stand as an operand of + and / without parentheses.
static std::string operandText(const Expr *E, ASTContext &Ctx) {
  std::string T = textOf(E, Ctx);
  const Expr *S = E->IgnoreImpCasts();
  if (isa<DeclRefExpr, IntegerLiteral, MemberExpr, CallExpr, ParenExpr, ArraySubscriptExpr>(S))
    return T;
  return "(" + T + ")";
}

void LaunchGridTruncationCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("launch");
  std::optional<LaunchSite> Site = getLaunchSite(Call);
  if (!Site || !Site->Grid || !Site->Block || readsGridDim(Site->Kernel))
    return;
  ValueTracker &VT = Ctx.facts().values();
  ASTContext &AST = Ctx.ast();
  SmallVector<const Expr *, 3> Components = gridComponents(Site->Grid, VT);
  // One finding per launch: the dimensions it truncates are one thief (one
  // grid to round up), not one finding each.
  struct Truncation {
    unsigned Dim;
    const BinaryOperator *Div;
    std::string N, T, Fixed;
    std::optional<int64_t> NV, TV;
  };
  SmallVector<Truncation, 3> Found;
  for (unsigned I = 0; I < Components.size(); ++I) {
    const auto *Div = dyn_cast<BinaryOperator>(strip(VT.resolve(Components[I])));
    if (!Div || Div->getOpcode() != BO_Div || !Div->getType()->isIntegerType())
      continue;
    const Expr *N = Div->getLHS(), *T = Div->getRHS();
    if (isAdditive(N, AST) || isScaledSum(N, AST) || isRoundedQuotient(N, AST))
      continue;
    const Expr *B = blockComponent(Site->Block, I, VT);
    if ((!B || !sameValue(T, B, VT)) && !isBlockMember(T, Site->Block, I))
      continue; // Not the block size: tiles, chunks...
    auto NV = VT.evaluateInt(N), TV = VT.evaluateInt(T);
    if (TV && *TV <= 1)
      continue;
    if (NV && TV && *NV % *TV == 0)
      continue; // Divides exactly.
    if (TV && VT.isMultipleOf(N, *TV))
      continue; // Padded to the block size where it is computed (or passed).
    if (!TV)
      if (std::optional<int64_t> Max = doublingSweepMaximum(T, VT); Max && VT.isMultipleOf(N, *Max))
        continue; // A sweep of power-of-two blocks, each dividing the sizes.
    if (TV && multipleLessAConstant(N, *TV, VT))
      continue; // (k * t - 1) / t: not an element count over the block size.
    const FunctionDecl *Where = enclosingFunction(Div, AST);
    if (roundedByHelper(Where, Div, VT) || blockIsOne(Where, T, VT))
      continue; // Rounded by a helper, or one thread per block.
    if (alwaysProductOf(Where, N, T, VT))
      continue; // Stored as a count of blocks times the block size.
    SmallVector<const FunctionDecl *, 2> Kernels = kernelCandidates(*Site);
    if (!Kernels.empty() && llvm::all_of(Kernels, [&](const FunctionDecl *K) {
          return GuardFinder(I, Ctx.sourceManager()).run(K) == GuardState::Unguarded;
        }))
      continue; // The kernel assumes multiples of its block: by design.
    if (TV && !Kernels.empty() && llvm::all_of(Kernels, [&](const FunctionDecl *K) {
          return kernelAssumesMultiples(K, *TV, VT);
        }))
      continue; // The kernel's own loop drops the tail too: multiples by design.
    if (testsRemainder(Where, N, T, VT) ||
        testsRemainder(enclosingFunction(Call, AST), N, T, VT))
      continue; // Checked (or rounded) by hand.
    llvm::SmallSetVector<const FunctionDecl *, 4> Documented;
    Documented.insert(Where);
    Documented.insert(enclosingFunction(Call, AST));
    Documented.insert(Kernels.begin(), Kernels.end());
    if (llvm::any_of(Documented, [&](const FunctionDecl *F) {
          return documentsMultiples(F, Ctx.sourceManager(), AST.getLangOpts());
        }))
      continue; // A stated precondition: sizes are multiples, by design.
    std::string NText = textOf(N, AST), TText = textOf(T, AST);
    if (NText.empty() || TText.empty())
      continue;
    // (n + t - 1) / t; with a literal t, (n + 255) / 256.
    bool LiteralT = isa<IntegerLiteral>(T->IgnoreParenImpCasts()) && TV;
    std::string Fixed = "(" + operandText(N, AST) + " + " +
                        (LiteralT ? std::to_string(*TV - 1) : operandText(T, AST) + " - 1") +
                        ") / " + operandText(T, AST);
    Found.push_back({I, Div, NText, TText, Fixed, NV, TV});
  }
  if (Found.empty())
    return;
  static const char *const Axis[] = {"x", "y", "z"};
  auto Clause = [](const Truncation &X) {
    if (X.NV && X.TV)
      return std::to_string(*X.NV / *X.TV) + " blocks cover " +
             std::to_string(*X.NV / *X.TV * *X.TV) + " of " + std::to_string(*X.NV) +
             " elements: the last " + std::to_string(*X.NV % *X.TV) + " are never processed";
    return "the last " + X.N + " % " + X.T + " elements are dropped when " + X.N +
           " is not a multiple of " + X.T;
  };
  const Truncation &First = Found.front();
  std::string Msg;
  if (Found.size() == 1) {
    const Truncation &X = Found.front();
    Msg = "grid of " + X.N + " / " + X.T + " blocks drops the last " + X.N + " % " + X.T +
          " elements when " + X.N + " is not a multiple of " + X.T;
    if (X.NV && X.TV)
      Msg = "grid of " + X.N + " / " + X.T + " = " + std::to_string(*X.NV / *X.TV) +
            " blocks covers " + std::to_string(*X.NV / *X.TV * *X.TV) + " of " +
            std::to_string(*X.NV) + " elements: the last " + std::to_string(*X.NV % *X.TV) +
            " are never processed";
  } else {
    // grid of (w / 32, h / 8) blocks truncates x and y: in x, the last w % 32
    // elements are dropped when ...; in y, ...
    // Dimensions that do not truncate are left out of the tuple; when one
    // lies between two that do (x and z), each component says its axis.
    bool FromX = true;
    for (unsigned K = 0; K < Found.size(); ++K)
      FromX = FromX && Found[K].Dim == K;
    std::string Grid, Dims, Clauses;
    for (unsigned K = 0; K < Found.size(); ++K) {
      const Truncation &X = Found[K];
      std::string Sep = K == 0 ? "" : K + 1 == Found.size() ? " and " : ", ";
      Grid += (K ? ", " : "") + (FromX ? "" : std::string(Axis[X.Dim]) + " = ") + X.N + " / " + X.T;
      Dims += Sep + Axis[X.Dim];
      Clauses += std::string(K ? "; " : ": ") + "in " + Axis[X.Dim] + ", " + Clause(X);
    }
    // A square grid of one count (n / TILE, n / TILE) says it once.
    if (llvm::all_of(Found, [&](const Truncation &X) {
          return X.N == First.N && X.T == First.T;
        }))
      Clauses = ": in each, " + Clause(First);
    Msg = "grid of (" + Grid + ") blocks truncates " + Dims + Clauses;
  }
  Msg += "; round up";
  auto D = diag(First.Div->getBeginLoc(), Msg);
  D.range(First.Div->getSourceRange());
  // One division may size several dimensions (`int nb = n / 16; dim3
  // grid(nb, nb)`): one fix, and no note, for it.
  llvm::SmallPtrSet<const Expr *, 3> Fixed;
  for (const Truncation &X : Found)
    if (Fixed.insert(X.Div).second)
      D.fix(X.Div->getSourceRange(), X.Fixed);
  D.callSite(Call->getBeginLoc())
      .kernel(Site->Kernel)
      .api("cudaLaunchKernel")
      .evidence(evidence::Dimension, static_cast<int64_t>(First.Dim));
  const SourceManager &SM = Ctx.sourceManager();
  auto LineOf = [&](const Expr *E) {
    clang::SourceLocation L = SM.getExpansionLoc(E->getBeginLoc());
    return std::make_pair(SM.getFileID(L), SM.getExpansionLineNumber(L));
  };
  llvm::SmallPtrSet<const Expr *, 3> Noted{First.Div};
  for (const Truncation &X : llvm::drop_begin(Found))
    if (Noted.insert(X.Div).second && LineOf(X.Div) != LineOf(First.Div))
      D.note(X.Div->getBeginLoc(), std::string("the grid's ") + Axis[X.Dim] + " dimension, " +
                                       X.N + " / " + X.T + ", truncates too");
  if (SM.getFileLoc(First.Div->getBeginLoc()) != SM.getFileLoc(Site->Grid->getBeginLoc()))
    D.note(Call->getBeginLoc(), "grid used by this launch");
}

CUDA_ADVISOR_REGISTER_CHECK(LaunchGridTruncationCheck)

} // namespace cuda_advisor::checks
