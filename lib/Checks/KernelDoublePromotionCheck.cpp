//===- KernelDoublePromotionCheck.cpp - kernel-double-promotion ------------===//
//
// A "region" is a maximal tree of double-typed arithmetic in device code:
// operators, conditionals and calls of double math functions, whose leaves
// are float values widened to double, double literals and constants,
// integers, and anything else of type double (a double variable, a double
// load, a call returning double). The region starts at a "sink" that shows
// the computation was meant for float: a conversion back to float (or to an
// integer or bool), a compound assignment to a float, or a comparison. It is
// reported when a float value was widened, the double-ness comes only from
// literals, constants and math functions, and no real double data is
// involved.
//
//===----------------------------------------------------------------------===//
#include "KernelDoublePromotionCheck.h"
#include "cuda-advisor/Analysis/KernelSummary.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/TUFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <set>

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_advisor::analysis;

namespace cuda_advisor::checks {

namespace {

bool isDouble(QualType T) { return T->isSpecificBuiltinType(BuiltinType::Double); }
bool isFloatLike(QualType T) {
  return T->isSpecificBuiltinType(BuiltinType::Float) ||
         T->isSpecificBuiltinType(BuiltinType::Half) ||
         T->isSpecificBuiltinType(BuiltinType::Float16);
}

/// CUDA's and the C library's double math functions that have a float
/// counterpart named with an `f` suffix.
bool hasFloatVersion(StringRef N) {
  static constexpr StringRef Names[] = {
      "acos",      "acosh",     "asin",      "asinh",      "atan",      "atan2",   "atanh",
      "cbrt",      "ceil",      "copysign",  "cos",        "cosh",      "cospi",   "cyl_bessel_i0",
      "cyl_bessel_i1", "erf",   "erfc",      "erfcinv",    "erfcx",     "erfinv",  "exp",
      "exp10",     "exp2",      "expm1",     "fabs",       "fdim",      "floor",   "fma",
      "fmax",      "fmin",      "fmod",      "hypot",      "j0",        "j1",      "jn",
      "ldexp",     "lgamma",    "log",       "log10",      "log1p",     "log2",    "logb",
      "nearbyint", "nextafter", "norm",      "norm3d",     "norm4d",    "normcdf", "normcdfinv",
      "pow",       "rcbrt",     "remainder", "rhypot",     "rint",      "rnorm",   "rnorm3d",
      "rnorm4d",   "round",     "rsqrt",     "scalbn",     "sin",       "sinh",    "sinpi",
      "sqrt",      "tan",       "tanh",      "tgamma",     "trunc",     "y0",      "y1",
      "yn"};
  return llvm::is_contained(Names, N);
}

/// A call of a double math function of the C library, the C++ library or
/// CUDA (declared in a system header), and the name it goes by.
std::optional<StringRef> doubleMathCall(const CallExpr *Call, const SourceManager &SM) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() || !isDouble(Call->getType()))
    return std::nullopt;
  if (!hasFloatVersion(FD->getName()))
    return std::nullopt;
  if (!SM.isInSystemHeader(SM.getFileLoc(FD->getLocation())))
    return std::nullopt; // A user function that happens to be called sqrt.
  return FD->getName();
}

/// A double variable whose value is a compile-time constant (const or
/// constexpr with a constant initializer, not __constant__ memory).
const VarDecl *doubleConstant(const Expr *E, ASTContext &Ctx) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !isDouble(V->getType()) || !V->getType().isConstQualified())
    return nullptr;
  if (V->hasAttr<CUDAConstantAttr>() || V->hasAttr<CUDADeviceAttr>() ||
      V->hasAttr<CUDASharedAttr>())
    return nullptr;
  const Expr *Init = V->getAnyInitializer();
  if (!Init || Init->isValueDependent() || !Init->isEvaluatable(Ctx))
    return nullptr;
  return V;
}

bool isConstant(const Expr *E, ASTContext &Ctx) {
  return !E->isValueDependent() && !E->isTypeDependent() && E->isEvaluatable(Ctx);
}

/// The value of a constant double expression is exactly a float.
bool exactInFloat(const Expr *E, ASTContext &Ctx) {
  llvm::APFloat V(0.0);
  if (!E->EvaluateAsFloat(V, Ctx))
    return false;
  bool LosesInfo = false;
  V.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
  return !LosesInfo;
}

} // namespace

struct KernelDoublePromotionCheck::Region {
  std::vector<const FloatingLiteral *> Literals;
  std::vector<std::pair<const Expr *, const VarDecl *>> Constants;
  std::vector<std::pair<const CallExpr *, StringRef>> MathCalls;
  unsigned Promoted = 0;  ///< Float values widened to double.
  unsigned Ops = 0;       ///< Double arithmetic operations at run time.
  bool RealDouble = false;
  bool Float = true;      ///< The sink is float (not an integer or bool).
};

namespace {

class RegionWalker {
public:
  using Region = KernelDoublePromotionCheck::Region;
  RegionWalker(ASTContext &Ctx, Region &R) : Ctx(Ctx), SM(Ctx.getSourceManager()), R(R) {}

  /// E has type double.
  void walk(const Expr *E) {
    E = E->IgnoreParens();
    if (isConstant(E, Ctx)) {
      collectConstantCauses(E);
      return;
    }
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
      switch (IC->getCastKind()) {
      case CK_FloatingCast:
        if (isFloatLike(IC->getSubExpr()->getType())) {
          ++R.Promoted;
          return;
        }
        R.RealDouble = true; // long double narrowed: not ours.
        return;
      case CK_IntegralToFloating:
        return; // An integer widened: neutral.
      case CK_LValueToRValue:
        R.RealDouble = true; // A double variable, element or member.
        return;
      case CK_NoOp:
        return walk(IC->getSubExpr());
      default:
        R.RealDouble = true;
        return;
      }
    }
    if (isa<ExplicitCastExpr>(E)) {
      R.RealDouble = true; // (double)x: asked for by the author.
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAdditiveOp() || BO->isMultiplicativeOp()) {
        ++R.Ops;
        walk(BO->getLHS());
        walk(BO->getRHS());
        return;
      }
      if (BO->getOpcode() == BO_Comma)
        return walk(BO->getRHS());
      R.RealDouble = true; // An assignment to a double, ...
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus)
        return walk(UO->getSubExpr());
      R.RealDouble = true;
      return;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      walk(CO->getTrueExpr());
      walk(CO->getFalseExpr());
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      std::optional<StringRef> Name = doubleMathCall(Call, SM);
      if (!Name) {
        R.RealDouble = true; // A function returning double: its own business.
        return;
      }
      R.MathCalls.push_back({Call, *Name});
      for (const Expr *Arg : Call->arguments()) {
        QualType T = Arg->getType();
        if (isDouble(T))
          walk(Arg);
        else if (isFloatLike(T) && !isConstant(Arg, Ctx))
          ++R.Promoted; // pow(float, double): the template widens it.
      }
      return;
    }
    R.RealDouble = true;
  }

private:
  /// The literals and constants of a constant subexpression (`1.0 / 3.0`).
  void collectConstantCauses(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *FL = dyn_cast<FloatingLiteral>(E)) {
      if (isDouble(FL->getType()))
        R.Literals.push_back(FL);
      return;
    }
    if (const VarDecl *V = doubleConstant(E, Ctx)) {
      R.Constants.push_back({E, V});
      return;
    }
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        collectConstantCauses(CE);
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  Region &R;
};

/// nvcc (like LLVM's instcombine) evaluates `(float)((double)x OP c)` in
/// float when c is exactly a float, for OP in + - * /: the double rounding
/// is harmless. Also through a conditional (`c ? x * 0.5 : 0.0`), and for a
/// comparison `(double)x < c`. Those promotions cost nothing at run time.
bool foldsToFloat(const Expr *E, ASTContext &Ctx);

/// A float widened to double, as written or through an identity the
/// compiler removes first: `1. * x`, `x * 1.`, `x / 1.` (instcombine folds
/// a multiply or divide by 1.0 away), and a negation. `3. * (1. * x)` is then
/// one exact operation, done in float (round 10 of docs/evaluation.md).
bool isWidenedFloat(const Expr *E, ASTContext &Ctx) {
  E = E->IgnoreParens();
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E))
    return IC->getCastKind() == CK_FloatingCast && isFloatLike(IC->getSubExpr()->getType());
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Minus)
    return isWidenedFloat(UO->getSubExpr(), Ctx);
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || (BO->getOpcode() != BO_Mul && BO->getOpcode() != BO_Div))
    return false;
  auto IsOne = [&](const Expr *C) {
    llvm::APFloat V(0.0);
    C = C->IgnoreParens();
    return !C->isValueDependent() && C->EvaluateAsFloat(V, Ctx) && V.isExactlyValue(1.0);
  };
  return (IsOne(BO->getRHS()) && isWidenedFloat(BO->getLHS(), Ctx)) ||
         (BO->getOpcode() == BO_Mul && IsOne(BO->getLHS()) && isWidenedFloat(BO->getRHS(), Ctx));
}

bool exactConstant(const Expr *E, ASTContext &Ctx) {
  E = E->IgnoreParens();
  return isConstant(E, Ctx) && exactInFloat(E, Ctx);
}

bool singleExactOp(const Expr *L, const Expr *R, ASTContext &Ctx) {
  return (isWidenedFloat(L, Ctx) && exactConstant(R, Ctx)) ||
         (isWidenedFloat(R, Ctx) && exactConstant(L, Ctx));
}

bool foldsToFloat(const Expr *E, ASTContext &Ctx) {
  E = E->IgnoreParens();
  if (isConstant(E, Ctx) || isWidenedFloat(E, Ctx))
    return true;
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return foldsToFloat(CO->getTrueExpr(), Ctx) && foldsToFloat(CO->getFalseExpr(), Ctx);
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Minus)
    return foldsToFloat(UO->getSubExpr(), Ctx);
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->isAdditiveOp() || BO->getOpcode() == BO_Mul || BO->getOpcode() == BO_Div))
    return singleExactOp(BO->getLHS(), BO->getRHS(), Ctx);
  return false;
}

/// Finds the sinks of device code and hands their regions to a callback.
class SinkFinder : public RecursiveASTVisitor<SinkFinder> {
public:
  using Region = KernelDoublePromotionCheck::Region;
  using Callback = llvm::function_ref<void(const Expr *Root, Region &R, bool Foldable)>;
  SinkFinder(ASTContext &Ctx, Callback CB) : Ctx(Ctx), CB(CB) {}

  bool shouldVisitLambdaBody() const { return true; }

  bool VisitImplicitCastExpr(ImplicitCastExpr *IC) { return visitCast(IC); }
  bool VisitExplicitCastExpr(ExplicitCastExpr *EC) { return visitCast(EC); }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (isa<CompoundAssignOperator>(BO))
      return true;
    if (!BO->isComparisonOp() || !isDouble(BO->getLHS()->getType()) ||
        !isDouble(BO->getRHS()->getType()))
      return true;
    Region R;
    R.Ops = 1;
    R.Float = true;
    RegionWalker W(Ctx, R);
    W.walk(BO->getLHS());
    W.walk(BO->getRHS());
    CB(BO, R, singleExactOp(BO->getLHS(), BO->getRHS(), Ctx));
    return true;
  }

  /// `pow(x, 2)` with a float x and an integer exponent: Clang's CUDA
  /// headers give it a float overload, but nvcc follows C++11's <cmath>,
  /// which computes pow(float, int) in double (nvcc 13.0's PTX of
  /// `pow(x[i], 2)` has 18 FP64 instructions, of `powf(x[i], 2)` none). A
  /// region of its own, as if Clang had picked the double overload.
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !FD->getIdentifier() || FD->getName() != "pow" || FD->getNumParams() != 2 ||
        Call->getNumArgs() != 2 || !isFloatLike(FD->getParamDecl(0)->getType()) ||
        !FD->getParamDecl(1)->getType()->isIntegerType() ||
        !Ctx.getSourceManager().isInSystemHeader(
            Ctx.getSourceManager().getFileLoc(FD->getLocation())))
      return true;
    const Expr *Base = Call->getArg(0)->IgnoreParenImpCasts();
    if (!isFloatLike(Base->getType()) || isConstant(Base, Ctx))
      return true;
    Region R;
    R.Float = true;
    R.Promoted = 1;
    R.MathCalls.push_back({Call, "pow"});
    CB(Call, R, false);
    return true;
  }

  bool VisitCompoundAssignOperator(CompoundAssignOperator *CA) {
    if (!isDouble(CA->getComputationLHSType()) || isDouble(CA->getLHS()->getType()))
      return true;
    Region R;
    R.Ops = 1;
    R.Float = isFloatLike(CA->getLHS()->getType());
    if (R.Float)
      ++R.Promoted; // The float on the left is widened.
    RegionWalker W(Ctx, R);
    W.walk(CA->getRHS());
    bool Foldable = R.Float && exactConstant(CA->getRHS(), Ctx) &&
                    CA->getOpcode() != BO_RemAssign;
    CB(CA, R, Foldable);
    return true;
  }

private:
  bool visitCast(CastExpr *C) {
    CastKind K = C->getCastKind();
    if (K != CK_FloatingCast && K != CK_FloatingToIntegral && K != CK_FloatingToBoolean)
      return true;
    const Expr *Sub = C->getSubExpr()->IgnoreParens();
    if (!isDouble(Sub->getType()) || isDouble(C->getType()))
      return true;
    if (isa<ExplicitCastExpr>(C) && isa<ImplicitCastExpr>(Sub))
      return true; // (float)x where x is double: the implicit part is not ours.
    if (isConstant(Sub, Ctx))
      return true; // const float k = 2.5: folded at compile time.
    Region R;
    R.Float = K == CK_FloatingCast;
    RegionWalker(Ctx, R).walk(Sub);
    CB(Sub, R, R.Float && foldsToFloat(Sub, Ctx));
    return true;
  }

  ASTContext &Ctx;
  Callback CB;
};

std::string joinList(const std::vector<std::string> &Items) {
  std::string S;
  for (size_t I = 0; I < Items.size(); ++I) {
    if (I)
      S += I + 1 == Items.size() ? " and " : ", ";
    S += Items[I];
  }
  return S;
}

} // namespace

KernelDoublePromotionCheck::KernelDoublePromotionCheck(StringRef Id, Severity Level,
                                                       CheckContext &Ctx)
    : Check(Id, Level, Ctx), ReportFoldable(option("ReportFoldable") != 0),
      ReportMemoryBound(option("ReportMemoryBound") != 0) {}


void KernelDoublePromotionCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(functionDecl(isDefinition()).bind("function"), this);
}

/// Device code the author marked as such: __global__, or an explicit
/// __device__ (constexpr functions are implicitly __host__ __device__ in
/// Clang's CUDA mode; they are host code unless device code calls them).
static bool isExplicitDeviceCode(const FunctionDecl *FD) {
  if (const auto *G = FD->getAttr<CUDAGlobalAttr>())
    return !G->isImplicit();
  const auto *D = FD->getAttr<CUDADeviceAttr>();
  return D && !D->isImplicit();
}

void KernelDoublePromotionCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!FD || !FD->hasBody() || FD->isDependentContext())
    return;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (MD && MD->getParent()->isLambda())
    return; // Walked as part of the function that holds the lambda.
  DeviceFunctions.insert(FD);
}

struct KernelDoublePromotionCheck::Found {
  const FunctionDecl *FD;
  const Expr *Root;
  Region R;
};

namespace {

// Whether a promotion can cost time is a roofline question: the FP64 work it
// adds (the double operations, the conversions in and out) against the
// kernel's global memory traffic. A kernel that stays memory-bound with its
// promotions runs no slower for them. The rates are those of the parts where
// FP64 is scarcest (compute capability 8.6/8.9, CUDA C++ Programming Guide,
// results per clock per multiprocessor: FP64 2, conversions between FP32
// and FP64 16) and the memory of a GeForce RTX 4090 (1008 GB/s over 128
// multiprocessors at 2.52 GHz: 3.1 bytes per clock per multiprocessor); on
// an H100/H200 (FP64 64, 18 bytes per clock) a promotion that passes this
// test may still cost nothing, one that fails it never costs.
constexpr double FP64PerClock = 2, ConversionsPerClock = 16, BytesPerClock = 3.1;
/// A double math function as FP64 operations: sqrt is a Newton iteration of
/// about ten, exp and sin a polynomial of about twenty, pow some sixty.
constexpr double MathFunctionOps = 20;
/// A promotion with at most 1/MinorShare of the FP64 work of the heaviest one
/// in its kernel is a note: one loop level of unknown trip count
/// (analysis::UnknownTripWeight, for the FP64 work and the memory traffic
/// alike), or a math function beside a single literal.
constexpr double MinorShare = 8;

double clocksOf(const KernelDoublePromotionCheck::Region &R) {
  double Ops = R.Ops + MathFunctionOps * R.MathCalls.size();
  double Conversions = R.Promoted + 1; // Each widened float, and the result back.
  return Ops / FP64PerClock + Conversions / ConversionsPerClock;
}

} // namespace

double KernelDoublePromotionCheck::tripWeight(const Stmt *Loop) {
  return analysis::tripWeight(Loop, Ctx.facts().values());
}

double KernelDoublePromotionCheck::weightIn(const Stmt *S) {
  return loopWeightAround(S, Ctx.ast(), Ctx.facts().values());
}

double KernelDoublePromotionCheck::callWeight(const FunctionDecl *FD, unsigned Depth) {
  if (isKernel(FD) || Depth > 4)
    return 1;
  kernelsReaching(FD); // Builds the call sites.
  double W = 1;
  auto It = CallSites.find(FD->getCanonicalDecl());
  if (It == CallSites.end())
    return W;
  for (const auto &[Call, Caller] : It->second)
    if (Caller != FD)
      W = std::max(W, weightIn(Call) * callWeight(Caller, Depth + 1));
  return W;
}

bool KernelDoublePromotionCheck::fp64CanMatter(const FunctionDecl *K, const std::vector<Found> &All) {
  if (auto It = MattersMemo.find(K); It != MattersMemo.end())
    return It->second;
  const KernelSummary *S = Ctx.facts().kernels().summaryOf(K);
  if (!S)
    return MattersMemo[K] = true;
  double Bytes = 0;
  for (const MemoryAccess &A : S->Accesses) {
    MemorySpace Space = A.Address.Root.Space;
    if (Space != MemorySpace::Global && Space != MemorySpace::Unknown)
      continue;
    if (A.Kind == AccessKind::Atomic)
      continue;
    double W = 1;
    for (const Stmt *L : A.Loops)
      W *= tripWeight(L);
    double Size = A.SizeBytes ? A.SizeBytes : 4;
    // The same address in every lane (a parameter struct's pointer, a
    // coefficient table at the loop's index): one transaction per warp.
    if (A.Address.Root.isKnown() && A.Address.ByteOffset.isUniform())
      Size /= 32;
    Bytes += Size * W * (A.Kind == AccessKind::LoadStore ? 2 : 1);
  }
  // The FP64 work of K and of every device function it reaches.
  double Clocks = 0;
  for (const Found &F : All) {
    bool Reaches = F.FD == K || llvm::is_contained(kernelsReaching(F.FD), K);
    if (Reaches)
      Clocks += clocksOf(F.R) * weightIn(F.Root) * callWeight(F.FD, 0);
  }
  return MattersMemo[K] = Clocks >= Bytes / BytesPerClock;
}

void KernelDoublePromotionCheck::onEndOfTranslationUnit() {
  std::vector<Found> All;
  for (const FunctionDecl *FD : DeviceFunctions)
    analyzeFunction(FD, All);
  // One finding per line of a function: `fmaxf(0.7 - d, 0) - fmaxf(d - 0.8, 0)`
  // is two promoted computations (one per argument) but one thing to fix.
  const SourceManager &SM = Ctx.ast().getSourceManager();
  std::vector<Found> Merged;
  llvm::DenseMap<std::pair<const FunctionDecl *, std::pair<unsigned, unsigned>>, size_t> ByLine;
  for (const Found &F : All) {
    // Device code no kernel of this file reaches (a library's helper, a
    // lambda passed to a template): its memory traffic is not known.
    std::vector<const FunctionDecl *> Kernels;
    if (isExplicitDeviceCode(F.FD))
      Kernels = kernelsReaching(F.FD);
    if (!ReportMemoryBound && !Kernels.empty() &&
        llvm::none_of(Kernels, [&](const FunctionDecl *K) { return fp64CanMatter(K, All); }))
      continue;
    clang::SourceLocation At = SM.getExpansionLoc(F.Root->getBeginLoc());
    unsigned Line = At.isValid() ? SM.getExpansionLineNumber(At) : 0;
    auto [It, New] =
        ByLine.try_emplace({F.FD, {SM.getFileID(At).getHashValue(), Line}}, Merged.size());
    if (New || !Line) {
      Merged.push_back(F);
      continue;
    }
    Region &R = Merged[It->second].R;
    llvm::append_range(R.Literals, F.R.Literals);
    llvm::append_range(R.Constants, F.R.Constants);
    llvm::append_range(R.MathCalls, F.R.MathCalls);
    R.Promoted += F.R.Promoted;
    R.Ops += F.R.Ops;
    R.Float = R.Float || F.R.Float;
  }
  // A promotion whose FP64 work is a small part of another one's in the same
  // kernel (an epilogue after the kernel's nested main loop, a set-up line
  // beside a promoted loop body) saves little once that one is fixed: it is
  // shown as a note, after the heavy one.
  struct Heavy {
    double Clocks = 0;
    const Expr *Root = nullptr;
  };
  llvm::DenseMap<const FunctionDecl *, Heavy> Heaviest;
  std::vector<double> Cost(Merged.size());
  std::vector<std::vector<const FunctionDecl *>> KernelsOf(Merged.size());
  for (size_t I = 0; I < Merged.size(); ++I) {
    const Found &F = Merged[I];
    Cost[I] = clocksOf(F.R) * weightIn(F.Root) * callWeight(F.FD, 0);
    if (isExplicitDeviceCode(F.FD))
      KernelsOf[I] = kernelsReaching(F.FD);
    for (const FunctionDecl *K : KernelsOf[I])
      if (Heavy &H = Heaviest[K]; Cost[I] > H.Clocks)
        H = {Cost[I], F.Root};
  }
  std::vector<std::string> ColdOf(Merged.size());
  for (size_t I = 0; I < Merged.size(); ++I) {
    std::string &Cold = ColdOf[I];
    const Expr *Over = nullptr;
    bool Small = !KernelsOf[I].empty() && llvm::all_of(KernelsOf[I], [&](const FunctionDecl *K) {
      const Heavy &H = Heaviest[K];
      if (Cost[I] * MinorShare > H.Clocks)
        return false;
      Over = H.Root;
      return true;
    });
    if (Small && Over)
      Cold = "its FP64 work is at most 1/" + std::to_string(int(MinorShare)) +
             " of that of the promotion at line " +
             std::to_string(SM.getExpansionLineNumber(Over->getBeginLoc())) +
             " in the same kernel (counting loop trips): fix that one first";
  }
  // One named cause is one thing to fix: a macro (`#define CONST 0.01`) or
  // a double constant that promotes several computations of a function is
  // one finding, at its first use that the 1/8 rule leaves hot, counting the
  // others and carrying all their fixes; a generated kernel of a thousand
  // statements using one macro is not a thousand findings.
  std::map<std::string, std::vector<size_t>> ByCause;
  std::vector<std::vector<size_t> *> Ordered; // By first member.
  std::vector<std::vector<size_t>> Alone;
  Alone.reserve(Merged.size());
  for (size_t I = 0; I < Merged.size(); ++I) {
    std::string Key = namedCauses(Merged[I].R);
    // Per function: its computations share its priority (a dead or broken
    // function's uses do not carry a live kernel's) and one instantiation's
    // group stands for the others (the carrier's place is reported once).
    if (!Key.empty())
      Key += "@" + std::to_string(reinterpret_cast<uintptr_t>(Merged[I].FD));
    std::vector<size_t> *G = nullptr;
    if (Key.empty()) {
      G = &Alone.emplace_back();
    } else {
      auto [It, New] = ByCause.try_emplace(std::move(Key));
      G = New ? &It->second : nullptr;
      It->second.push_back(I);
    }
    if (G) {
      if (G->empty())
        G->push_back(I);
      Ordered.push_back(G);
    }
  }
  for (const std::vector<size_t> *GP : Ordered) {
    const std::vector<size_t> &G = *GP;
    // The carrier: the first member off the cold path, else the first.
    size_t Carrier = G.front();
    for (size_t I : G)
      if (ColdOf[I].empty()) {
        Carrier = I;
        break;
      }
    std::vector<const Found *> Parts{&Merged[Carrier]};
    for (size_t I : G)
      if (I != Carrier)
        Parts.push_back(&Merged[I]);
    report(Parts, ColdOf[Carrier]);
  }
}

/// The named causes of R (the macros whose whole expansion is a literal,
/// the double constants), as a key; empty when R has any other cause (a
/// literal written out, a double math function).
std::string KernelDoublePromotionCheck::namedCauses(const Region &R) {
  if (!R.MathCalls.empty() || (R.Literals.empty() && R.Constants.empty()))
    return {};
  const SourceManager &SM = Ctx.ast().getSourceManager();
  const LangOptions &LO = Ctx.ast().getLangOpts();
  std::set<std::string> Names;
  for (const FloatingLiteral *L : R.Literals) {
    clang::SourceLocation Loc = L->getLocation();
    if (!Loc.isMacroID() || SM.isMacroArgExpansion(Loc) ||
        !Lexer::isAtStartOfMacroExpansion(Loc, SM, LO) || !Lexer::isAtEndOfMacroExpansion(Loc, SM, LO))
      return {};
    StringRef Macro = Lexer::getImmediateMacroName(Loc, SM, LO);
    if (Macro.empty())
      return {};
    // The definition's place tells two macros of one name apart.
    Names.insert("macro " + Macro.str() + "@" +
                 std::to_string(SM.getSpellingLoc(Loc).getRawEncoding()));
  }
  for (const auto &[E, V] : R.Constants)
    Names.insert("constant @" + std::to_string(V->getCanonicalDecl()->getLocation().getRawEncoding()));
  std::string Key;
  for (const std::string &N : Names)
    Key += N + ";";
  return Key;
}

void KernelDoublePromotionCheck::analyzeFunction(const FunctionDecl *FD, std::vector<Found> &Out) {
  ASTContext &AST = Ctx.ast();
  bool Device = isExplicitDeviceCode(FD);
  auto Collect = [&](const Expr *Root, Region &R, bool Foldable) {
    if (R.RealDouble || R.Promoted == 0)
      return;
    if (R.Literals.empty() && R.Constants.empty() && R.MathCalls.empty())
      return;
    if (!Foldable || ReportFoldable)
      Out.push_back({FD, Root, R});
  };
  // Host functions may hold __device__ lambdas (extended lambdas).
  if (!Device) {
    struct LambdaFinder : RecursiveASTVisitor<LambdaFinder> {
      std::vector<const LambdaExpr *> Found;
      bool VisitLambdaExpr(LambdaExpr *LE) {
        if (const CXXMethodDecl *Op = LE->getCallOperator())
          if (isExplicitDeviceCode(Op))
            Found.push_back(LE);
        return true;
      }
    } LF;
    LF.TraverseStmt(FD->getBody());
    for (const LambdaExpr *LE : LF.Found)
      SinkFinder(AST, Collect).TraverseStmt(LE->getBody());
    return;
  }
  SinkFinder(AST, Collect).TraverseStmt(FD->getBody());
}

std::vector<const FunctionDecl *>
KernelDoublePromotionCheck::kernelsReaching(const FunctionDecl *FD) {
  if (!CallersBuilt) {
    CallersBuilt = true;
    struct CallFinder : RecursiveASTVisitor<CallFinder> {
      const FunctionDecl *Caller = nullptr;
      llvm::DenseMap<const FunctionDecl *, std::vector<std::pair<const CallExpr *, const FunctionDecl *>>>
          *Sites = nullptr;
      bool shouldVisitLambdaBody() const { return true; }
      bool VisitCallExpr(CallExpr *CE) {
        if (const FunctionDecl *Callee = CE->getDirectCallee())
          (*Sites)[Callee->getCanonicalDecl()].push_back({CE, Caller});
        return true;
      }
    };
    for (const FunctionDecl *F : DeviceFunctions) {
      CallFinder CF;
      CF.Caller = F;
      CF.Sites = &CallSites;
      CF.TraverseStmt(F->getBody());
    }
  }
  std::vector<const FunctionDecl *> Kernels;
  llvm::DenseSet<const FunctionDecl *> Seen;
  std::vector<const FunctionDecl *> Work = {FD};
  while (!Work.empty() && Seen.size() < 256) {
    const FunctionDecl *F = Work.back();
    Work.pop_back();
    if (!Seen.insert(F).second)
      continue;
    if (isKernel(F)) {
      Kernels.push_back(F);
      continue;
    }
    auto It = CallSites.find(F->getCanonicalDecl());
    if (It != CallSites.end())
      for (const auto &[Call, Caller] : It->second)
        Work.push_back(Caller);
  }
  return Kernels;
}

void KernelDoublePromotionCheck::report(llvm::ArrayRef<const Found *> Parts,
                                        const std::string &Cold) {
  ASTContext &AST = Ctx.ast();
  const SourceManager &SM = AST.getSourceManager();
  const LangOptions &LO = AST.getLangOpts();
  const FunctionDecl *FD = Parts.front()->FD;
  const Expr *Root = Parts.front()->Root;

  // The first cause in source order of the carrier carries the finding.
  clang::SourceLocation First;
  auto Consider = [&](clang::SourceLocation L) {
    if (First.isInvalid() || SM.isBeforeInTranslationUnit(L, First))
      First = L;
  };
  const Region &Lead = Parts.front()->R;
  for (const FloatingLiteral *L : Lead.Literals)
    Consider(L->getLocation());
  for (auto &[E, V] : Lead.Constants)
    Consider(E->getBeginLoc());
  for (auto &[C, N] : Lead.MathCalls)
    Consider(C->getBeginLoc());
  if (!Reported.insert(SM.getFileLoc(First).getRawEncoding()).second)
    return; // Another instantiation of the same template code.

  auto IsInstantiated = [](const FunctionDecl *F) {
    return F->isTemplateInstantiation() ||
           (isa<CXXMethodDecl>(F) && cast<CXXMethodDecl>(F)->getParent()->getTemplateInstantiationPattern());
  };

  std::vector<std::string> Causes, Fixes, Evidence;
  struct Edit {
    CharSourceRange Range;
    std::string Text;
  };
  std::vector<Edit> Edits;
  bool Instantiated = false;
  auto AddUnique = [](std::vector<std::string> &List, std::string Item) {
    if (!llvm::is_contained(List, Item))
      List.push_back(std::move(Item));
  };
  std::vector<std::string> LiteralTexts, ConstNames, FnNames;
  std::vector<const VarDecl *> ConstDecls;
  /// Where each macro of a group is defined (its literal's spelling).
  std::vector<std::pair<std::string, clang::SourceLocation>> MacroDefs;
  unsigned Ops = 0, Math = 0, Promoted = 0;
  bool Float = false;
  for (const Found *P : Parts) {
    const Region &R = P->R;
    bool PartInstantiated = IsInstantiated(P->FD);
    Instantiated = Instantiated || PartInstantiated;
    Ops += R.Ops + R.MathCalls.size();
    Math += R.MathCalls.size();
    Promoted += R.Promoted;
    Float = Float || R.Float;
    std::vector<Edit> PartEdits;
    for (const FloatingLiteral *L : R.Literals) {
      CharSourceRange Tok = CharSourceRange::getTokenRange(L->getLocation());
      std::string Spelling =
          Lexer::getSourceText(CharSourceRange::getTokenRange(SM.getSpellingLoc(L->getLocation())),
                               SM, LO)
              .str();
      Evidence.push_back(Spelling);
      // A literal written in a macro's body (not an argument of the macro).
      if (L->getLocation().isMacroID() && !SM.isMacroArgExpansion(L->getLocation())) {
        StringRef Macro = Lexer::getImmediateMacroName(L->getLocation(), SM, LO);
        AddUnique(LiteralTexts, Macro.empty() ? Spelling : Macro.str() + " (" + Spelling + ")");
        // M_PI and friends: a macro whose whole expansion is the literal.
        clang::SourceLocation Begin;
        if (Lexer::isAtStartOfMacroExpansion(L->getLocation(), SM, LO, &Begin) &&
            Lexer::isAtEndOfMacroExpansion(L->getLocation(), SM, LO)) {
          CharSourceRange File = Lexer::makeFileCharRange(Tok, SM, LO);
          StringRef Name = Lexer::getSourceText(File, SM, LO);
          bool Identifier = !Name.empty() && llvm::all_of(Name, [](char C) {
            return llvm::isAlnum(C) || C == '_';
          });
          if (File.isValid() && Identifier) {
            PartEdits.push_back({File, "static_cast<float>(" + Name.str() + ")"});
            AddUnique(Fixes, "static_cast<float>(" + Name.str() + ")");
            if (llvm::none_of(MacroDefs, [&](const auto &M) { return M.first == Name; }))
              MacroDefs.push_back({Name.str(), SM.getSpellingLoc(L->getLocation())});
            continue;
          }
        }
        AddUnique(Fixes, Spelling + "f");
        continue;
      }
      AddUnique(LiteralTexts, Spelling);
      PartEdits.push_back({Tok, Spelling + "f"});
      AddUnique(Fixes, Spelling + "f");
    }
    for (auto &[E, V] : R.Constants) {
      Evidence.push_back(V->getName().str());
      if (!llvm::is_contained(ConstDecls, V)) {
        ConstDecls.push_back(V);
        ConstNames.push_back("'" + V->getName().str() + "'");
      }
    }
    for (auto &[C, N] : R.MathCalls) {
      std::string Name = N.str();
      if (!llvm::is_contained(FnNames, Name))
        FnNames.push_back(Name);
      Evidence.push_back(Name);
      const auto *DRE = dyn_cast<DeclRefExpr>(C->getCallee()->IgnoreParenImpCasts());
      bool StdQualified = DRE && DRE->getQualifier() &&
                          DRE->getQualifier()->getKind() != NestedNameSpecifier::Global;
      if (DRE && !StdQualified)
        PartEdits.push_back({CharSourceRange::getTokenRange(DRE->getNameInfo().getLoc()), Name + "f"});
      // std::sqrt picks its float overload once the argument is float; not
      // std::pow(float, int), which C++11 computes in double.
      bool IntExponentPow = Name == "pow" && C->getNumArgs() == 2 &&
                            C->getArg(1)->IgnoreParenImpCasts()->getType()->isIntegerType();
      if ((!StdQualified || IntExponentPow) && !llvm::is_contained(Fixes, Name + "f"))
        Fixes.push_back(Name + "f");
    }
    if (!PartInstantiated)
      llvm::append_range(Edits, PartEdits);
  }
  if (!LiteralTexts.empty())
    Causes.push_back(std::string(LiteralTexts.size() == 1 ? "the double literal "
                                                          : "the double literals ") +
                     joinList(LiteralTexts));
  if (!ConstNames.empty()) {
    Causes.push_back(std::string(ConstNames.size() == 1 ? "the double constant "
                                                        : "the double constants ") +
                     joinList(ConstNames));
    Fixes.push_back("float constants");
  }
  if (!FnNames.empty())
    Causes.push_back(std::string(FnNames.size() == 1 ? "the double function "
                                                     : "the double functions ") +
                     joinList(FnNames));

  std::string Msg = "float arithmetic promoted to double by " + joinList(Causes);
  if (Parts.size() > 1)
    Msg += " in " + std::to_string(Parts.size()) + " computations of '" +
           FD->getNameAsString() + "'";
  Msg += ": it runs in FP64, at 1/2 of the FP32 rate on H100/H200 and 1/64 on "
         "GeForce and L4/L40S-class GPUs, plus conversions; use " + joinList(Fixes);
  if (Parts.size() > 1)
    Msg += std::string(" at each use, or ") +
           (ConstDecls.empty() ? "define it as a float literal where no double code uses it"
                               : "declare it float where no double code uses it");
  auto D = diag(First, Msg);
  D.range(Root->getSourceRange());
  if (!Cold.empty())
    D.cold(Cold);
  if (!Instantiated)
    for (const Edit &E : Edits)
      D.fix(E.Range, E.Text);
  for (const VarDecl *V : ConstDecls)
    D.note(V->getLocation(), "'" + V->getName().str() + "' is declared double here");
  if (Parts.size() > 1) {
    for (const auto &[Name, Loc] : MacroDefs) {
      if (SM.isWrittenInCommandLineFile(Loc) || SM.isWrittenInBuiltinFile(Loc) ||
          SM.getFilename(Loc).empty())
        D.note(Loc, "'" + Name + "' is defined on the command line (-D" + Name + "=...)");
      else
        D.note(Loc, "'" + Name + "' is defined here");
    }
    // The other uses, a few of them by place.
    constexpr size_t Shown = 3;
    for (size_t I = 1; I < Parts.size() && I <= Shown; ++I) {
      std::string Note = "another computation it promotes";
      if (I == Shown && Parts.size() > Shown + 1)
        Note += " (and " + std::to_string(Parts.size() - Shown - 1) + " more in this function)";
      D.note(SM.getExpansionLoc(Parts[I]->Root->getBeginLoc()), Note);
    }
  }
  // The parts are computations of one function (the groups are per function).
  if (isKernel(FD)) {
    D.kernel(FD);
  } else {
    for (const FunctionDecl *K : kernelsReaching(FD))
      D.kernel(K);
  }
  llvm::json::Array CauseArray;
  for (std::string &C : Evidence)
    CauseArray.push_back(std::move(C));
  D.evidence(evidence::Function, FD->getNameAsString())
      .evidence(evidence::Causes, std::move(CauseArray))
      .evidence(evidence::DoubleOps, static_cast<int64_t>(Ops))
      .evidence(evidence::MathFunctions, static_cast<int64_t>(Math))
      .evidence(evidence::PromotedValues, static_cast<int64_t>(Promoted))
      .evidence(evidence::ResultType, Float ? "float" : "integer");
}

CUDA_ADVISOR_REGISTER_CHECK(KernelDoublePromotionCheck)

} // namespace cuda_advisor::checks
