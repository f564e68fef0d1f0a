//===- Provenance.cpp - Where a host pointer's memory comes from ----------===//
#include "cuda-advisor/Analysis/Provenance.h"
#include "cuda-advisor/Analysis/Values.h"
#include "cuda-advisor/Analysis/CudaApi.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace cuda_advisor::analysis {

StringRef memoryKindName(MemoryKind K) {
  switch (K) {
  case MemoryKind::Unknown:
    return "unknown";
  case MemoryKind::Pageable:
    return "pageable";
  case MemoryKind::Pinned:
    return "pinned";
  case MemoryKind::Managed:
    return "managed";
  case MemoryKind::Device:
    return "device";
  }
  return "unknown";
}

namespace {

/// Parens and every cast, implicit or explicit.
const Expr *stripCasts(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      E = CE->getSubExpr();
      continue;
    }
    return E;
  }
  return E;
}


/// The variable or member an lvalue names directly: `p`, `s.p`, `s->p`.
const ValueDecl *keyOf(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return V->getCanonicalDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      return F->getCanonicalDecl();
  return nullptr;
}

bool inStdOrGlobal(const FunctionDecl *FD) {
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  return DC->isTranslationUnit() || DC->isStdNamespace() ||
         (FD->getDeclContext()->isExternCContext());
}

/// malloc, calloc... as the C library (or std::) declares them.
std::optional<StringRef> heapAllocator(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() || !inStdOrGlobal(FD))
    return std::nullopt;
  StringRef N = FD->getName();
  if (N == "malloc" || N == "calloc" || N == "realloc" || N == "aligned_alloc" ||
      N == "valloc" || N == "memalign" || N == "pvalloc" || N == "_mm_malloc")
    return N;
  return std::nullopt;
}

bool isSystemDecl(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getFileLoc(D->getLocation()));
}

/// The record a (possibly qualified, reference or pointer-free) type names.
const ClassTemplateSpecializationDecl *specializationOf(QualType T) {
  T = T.getNonReferenceType();
  if (const auto *RD = T->getAsCXXRecordDecl())
    return dyn_cast<ClassTemplateSpecializationDecl>(RD);
  return nullptr;
}

bool isStdNamed(const NamedDecl *D, StringRef Name) {
  return D && D->getIdentifier() && D->getName() == Name && D->isInStdNamespace();
}

/// Template argument I of a specialization is std::<Name><...>.
bool argIsStd(const ClassTemplateSpecializationDecl *S, unsigned I, StringRef Name) {
  const TemplateArgumentList &Args = S->getTemplateArgs();
  if (I >= Args.size() || Args[I].getKind() != TemplateArgument::Type)
    return false;
  const auto *RD = Args[I].getAsType()->getAsCXXRecordDecl();
  return isStdNamed(RD, Name);
}

enum class Container { None, Vector, String, Array, HostVector, UniquePtr, Unsupported };

Container containerOf(QualType T) {
  const ClassTemplateSpecializationDecl *S = specializationOf(T);
  if (!S || !S->getIdentifier())
    return Container::None;
  StringRef N = S->getName();
  if (S->isInStdNamespace()) {
    if (N == "vector")
      return argIsStd(S, 1, "allocator") ? Container::Vector : Container::Unsupported;
    if (N == "basic_string")
      return argIsStd(S, 2, "allocator") ? Container::String : Container::Unsupported;
    if (N == "array")
      return Container::Array;
    if (N == "unique_ptr")
      return argIsStd(S, 1, "default_delete") ? Container::UniquePtr : Container::Unsupported;
    return Container::None;
  }
  std::string Q = S->getQualifiedNameAsString();
  if (StringRef(Q).starts_with("thrust::") && N == "host_vector")
    return argIsStd(S, 1, "allocator") ? Container::HostVector : Container::Unsupported;
  return Container::None;
}

StringRef containerName(Container C) {
  switch (C) {
  case Container::Vector:
    return "std::vector";
  case Container::String:
    return "std::string";
  case Container::Array:
    return "std::array";
  case Container::HostVector:
    return "thrust::host_vector";
  case Container::UniquePtr:
    return "std::unique_ptr";
  default:
    return "a container";
  }
}

Provenance make(MemoryKind K, std::string Source, const void *Site, SourceLocation Loc) {
  Provenance P;
  P.Kind = K;
  P.Source = std::move(Source);
  P.Site = Site;
  P.SiteLoc = Loc;
  return P;
}

/// Combines the provenance of two values a variable may hold.
Provenance merge(const Provenance &A, const Provenance &B) {
  if (!A.known() || !B.known() || A.Kind != B.Kind)
    return Provenance::unknown();
  Provenance R = A;
  if (A.Site != B.Site)
    R.Site = nullptr; // Several allocations: no single buffer.
  R.Mapped = A.Mapped && B.Mapped;
  return R;
}

} // namespace

//===----------------------------------------------------------------------===//
// The index: every store, call and registration of the TU's user code.
//===----------------------------------------------------------------------===//

class ProvenanceAnalysis::Index {
public:
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<Def, 2>> Defs;
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<const CallExpr *, 2>> PassedTo;
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const CallExpr *, 4>> CallsOf;
  llvm::DenseSet<const FunctionDecl *> AddressTaken;
  llvm::SmallVector<const CallExpr *, 4> Registrations;
  llvm::DenseMap<const FunctionDecl *, bool> RegistersCache;

  /// Filled lazily: the buffers registered with cudaHostRegister.
  bool RegistrationsResolved = false;
  bool SomeRegistrationUnknown = false;
  llvm::SmallVector<std::pair<const void *, const CallExpr *>, 4> RegisteredSites;

  bool bodyRegisters(const FunctionDecl *FD);
};

namespace {

class IndexBuilder : public RecursiveASTVisitor<IndexBuilder> {
public:
  using Def = ProvenanceAnalysis::Def;
  explicit IndexBuilder(ProvenanceAnalysis::Index &I) : I(I) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitVarDecl(VarDecl *V) {
    if (isa<ParmVarDecl>(V) || !V->getInit())
      return true;
    if (V->getType()->isReferenceType()) {
      // An alias: writes through it are writes to what it names.
      if (const ValueDecl *K = keyOf(V->getInit()))
        I.Defs[K].push_back({Def::Opaque, nullptr, nullptr, 0});
      return true;
    }
    I.Defs[V->getCanonicalDecl()].push_back({Def::Value, V->getInit(), nullptr, 0});
    return true;
  }

  bool VisitFieldDecl(FieldDecl *F) {
    if (F->hasInClassInitializer() && F->getInClassInitializer())
      I.Defs[F->getCanonicalDecl()].push_back({Def::Value, F->getInClassInitializer(), nullptr, 0});
    return true;
  }

  bool VisitCXXConstructorDecl(CXXConstructorDecl *C) {
    if (!C->doesThisDeclarationHaveABody())
      return true;
    for (const CXXCtorInitializer *Init : C->inits())
      if (Init->isMemberInitializer() && Init->isWritten())
        I.Defs[Init->getMember()->getCanonicalDecl()].push_back(
            {Def::Value, Init->getInit(), nullptr, 0});
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    const ValueDecl *K = keyOf(BO->getLHS());
    if (!K)
      return true;
    if (BO->getOpcode() == BO_Assign)
      I.Defs[K].push_back({Def::Value, BO->getRHS(), nullptr, 0});
    else if (!(BO->getLHS()->getType()->isPointerType() &&
               (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign)))
      I.Defs[K].push_back({Def::Opaque, nullptr, nullptr, 0});
    // `p += n` moves within the same buffer: the provenance stays.
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      if (const ValueDecl *K = keyOf(OC->getArg(0)))
        I.Defs[K].push_back({Def::Value, OC->getArg(1), nullptr, 0});
    return true;
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    // unique_ptr::reset(p) gives the pointer a new value.
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && MD->getIdentifier() && MD->getName() == "reset" &&
        containerOf(MC->getImplicitObjectArgument()->getType()) != Container::None)
      if (const ValueDecl *K = keyOf(MC->getImplicitObjectArgument()))
        I.Defs[K].push_back({Def::Opaque, nullptr, MC, 0});
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() != UO_AddrOf || Handled.count(UO))
      return true;
    if (const ValueDecl *K = keyOf(UO->getSubExpr()))
      if (!UO->getSubExpr()->getType()->isArrayType() &&
          !UO->getSubExpr()->getType()->isRecordType())
        I.Defs[K].push_back({Def::Opaque, nullptr, nullptr, 0}); // The address escapes.
    return true;
  }

  bool VisitLambdaExpr(LambdaExpr *LE) {
    for (const LambdaCapture &C : LE->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()))
          I.Defs[V->getCanonicalDecl()].push_back({Def::Opaque, nullptr, nullptr, 0});
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      if (!Callees.count(DRE))
        I.AddressTaken.insert(FD->getCanonicalDecl());
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (FD)
      I.CallsOf[FD->getCanonicalDecl()].push_back(CE);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts()))
      Callees.insert(DRE);
    if (std::optional<ApiInfo> Api = classifyApiCall(CE); Api && Api->Kind == ApiKind::HostRegister)
      I.Registrations.push_back(CE);
    unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa_and_nonnull<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned A = 0; A < CE->getNumArgs(); ++A) {
      const Expr *Arg = CE->getArg(A);
      if (const auto *UO = dyn_cast<UnaryOperator>(stripCasts(Arg));
          UO && UO->getOpcode() == UO_AddrOf) {
        if (const ValueDecl *K = keyOf(UO->getSubExpr())) {
          Handled.insert(UO);
          I.Defs[K].push_back({Def::OutParam, nullptr, CE, A});
        }
        continue;
      }
      QualType PT;
      if (FD && A >= Shift && A - Shift < FD->getNumParams())
        PT = FD->getParamDecl(A - Shift)->getType();
      if (!PT.isNull() && PT->isLValueReferenceType() &&
          !PT->getPointeeType().isConstQualified()) {
        // Bound to a non-const reference (std::swap(p, q), getBuffer(p)):
        // the callee may store anything. Containers keep their allocator.
        if (const ValueDecl *K = keyOf(Arg))
          if (containerOf(Arg->getType()) == Container::None ||
              containerOf(Arg->getType()) == Container::UniquePtr)
            I.Defs[K].push_back({Def::Opaque, nullptr, CE, A});
        continue;
      }
      if (Arg->getType()->isPointerType() || Arg->IgnoreParenImpCasts()->getType()->isPointerType())
        if (const ValueDecl *K = keyOf(holderOf(Arg)))
          I.PassedTo[K].push_back(CE);
    }
    return true;
  }

private:
  /// The expression naming the variable that holds what E points into.
  static const Expr *holderOf(const Expr *E) {
    for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
      E = stripCasts(E);
      if (const auto *BO = dyn_cast<BinaryOperator>(E);
          BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
        E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
        continue;
      }
      // v.data(), &v[i], &a[i]: the container or array holds the buffer.
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
        E = MC->getImplicitObjectArgument();
        continue;
      }
      if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf) {
        const Expr *Sub = UO->getSubExpr()->IgnoreParenImpCasts();
        if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub)) {
          E = AS->getBase();
          continue;
        }
        if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Sub);
            OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() >= 1) {
          E = OC->getArg(0);
          continue;
        }
      }
      return E;
    }
    return E;
  }

  ProvenanceAnalysis::Index &I;
  llvm::DenseSet<const UnaryOperator *> Handled;
  llvm::DenseSet<const DeclRefExpr *> Callees;
};

/// Whether a function body calls cudaHostRegister.
class RegisterFinder : public RecursiveASTVisitor<RegisterFinder> {
public:
  bool Found = false;
  bool VisitCallExpr(CallExpr *CE) {
    if (std::optional<ApiInfo> Api = classifyApiCall(CE); Api && Api->Kind == ApiKind::HostRegister)
      Found = true;
    return !Found;
  }
};

} // namespace

bool ProvenanceAnalysis::Index::bodyRegisters(const FunctionDecl *FD) {
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody())
    return false;
  auto It = RegistersCache.find(Def);
  if (It != RegistersCache.end())
    return It->second;
  RegisterFinder F;
  F.TraverseStmt(Def->getBody());
  return RegistersCache[Def] = F.Found;
}

ProvenanceAnalysis::ProvenanceAnalysis(ASTContext &Ctx) : Ctx(Ctx) {}
ProvenanceAnalysis::~ProvenanceAnalysis() = default;

ProvenanceAnalysis::Index &ProvenanceAnalysis::index() {
  if (!TheIndex) {
    TheIndex = std::make_unique<Index>();
    IndexBuilder B(*TheIndex);
    B.TraverseAST(Ctx);
  }
  return *TheIndex;
}

//===----------------------------------------------------------------------===//
// Tracing.
//===----------------------------------------------------------------------===//

static constexpr unsigned MaxDepth = 16;

Provenance ProvenanceAnalysis::of(const Expr *Pointer) {
  Provenance P = trace(Pointer, 0, /*ParamBudget=*/1);
  if (P.Kind != MemoryKind::Pageable)
    return P;
  return applyRegistration(std::move(P), rootOf(Pointer));
}

Provenance ProvenanceAnalysis::applyRegistration(Provenance P, const ValueDecl *Holder) {
  Index &I = index();
  if (!I.RegistrationsResolved) {
    I.RegistrationsResolved = true;
    for (const CallExpr *R : I.Registrations) {
      Provenance RP = R->getNumArgs() ? trace(R->getArg(0), 0, 1) : Provenance::unknown();
      if (RP.Kind != MemoryKind::Pageable || !RP.Site)
        I.SomeRegistrationUnknown = true;
      else
        I.RegisteredSites.push_back({RP.Site, R});
    }
  }
  for (auto &[Site, Call] : I.RegisteredSites) {
    if (Site != P.Site)
      continue;
    Provenance R = make(MemoryKind::Pinned, "cudaHostRegister", P.Site, Call->getBeginLoc());
    if (Call->getNumArgs() >= 3) {
      Expr::EvalResult Flags;
      if (!Call->getArg(2)->isValueDependent() && Call->getArg(2)->EvaluateAsInt(Flags, Ctx))
        R.Mapped = (Flags.Val.getInt().getZExtValue() & 2) != 0;
    }
    return R;
  }
  // Registered somewhere we cannot follow: any pageable buffer may be it.
  if (I.SomeRegistrationUnknown || (!P.Site && !I.RegisteredSites.empty()))
    return Provenance::unknown();
  // Handed to code that may register it (another TU, or a helper of this
  // one that calls cudaHostRegister).
  if (Holder) {
    auto It = I.PassedTo.find(Holder);
    if (It != I.PassedTo.end())
      for (const CallExpr *C : It->second) {
        const FunctionDecl *FD = C->getDirectCallee();
        if (!FD)
          return Provenance::unknown();
        if (isSystemDecl(FD) || classifyApiCall(C))
          continue;
        if (!FD->getDefinition() || I.bodyRegisters(FD))
          return Provenance::unknown();
      }
  }
  return P;
}

Provenance ProvenanceAnalysis::trace(const Expr *E, unsigned Depth, unsigned ParamBudget) {
  if (!E || Depth > MaxDepth || E->isTypeDependent() || E->isValueDependent())
    return Provenance::unknown();
  E = E->IgnoreParens();
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return traceObject(CE->getSubExpr(), Depth + 1, ParamBudget);
    case CK_NullToPointer:
    case CK_IntegralToPointer:
    case CK_FunctionToPointerDecay:
      return Provenance::unknown();
    default:
      return trace(CE->getSubExpr(), Depth + 1, ParamBudget);
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      return trace(BO->getRHS(), Depth + 1, ParamBudget);
    if ((BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) && BO->getType()->isPointerType())
      return trace(BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS(),
                   Depth + 1, ParamBudget);
    return Provenance::unknown();
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return merge(trace(CO->getTrueExpr(), Depth + 1, ParamBudget),
                 trace(CO->getFalseExpr(), Depth + 1, ParamBudget));
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf)
      return traceObject(UO->getSubExpr(), Depth + 1, ParamBudget);
    if (UO->isIncrementDecrementOp())
      return trace(UO->getSubExpr(), Depth + 1, ParamBudget);
    return Provenance::unknown();
  }
  if (const auto *New = dyn_cast<CXXNewExpr>(E)) {
    if (New->getNumPlacementArgs() > 0)
      return Provenance::unknown();
    return make(MemoryKind::Pageable, New->isArray() ? "new[]" : "new", New, New->getBeginLoc());
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || !MD->getIdentifier() || MC->getNumArgs() != 0)
      return Provenance::unknown();
    StringRef N = MD->getName();
    if (N == "data" || N == "c_str" || N == "get")
      return traceContainer(MC->getImplicitObjectArgument(), Depth + 1, ParamBudget);
    return Provenance::unknown();
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (std::optional<StringRef> A = heapAllocator(FD))
      return make(MemoryKind::Pageable, A->str(), CE, CE->getBeginLoc());
    // std::data(v)
    if (FD && isStdNamed(FD, "data") && CE->getNumArgs() == 1)
      return traceContainer(CE->getArg(0), Depth + 1, ParamBudget);
    return traceReturns(FD, Depth + 1);
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return Provenance::unknown();
    if (V->getType()->isArrayType())
      return traceObject(DRE, Depth + 1, ParamBudget);
    return traceDecl(V, Depth + 1, ParamBudget);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->getType()->isArrayType())
      return traceObject(ME, Depth + 1, ParamBudget);
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      return traceDecl(F, Depth + 1, ParamBudget);
  }
  return Provenance::unknown();
}

/// The storage an lvalue lives in.
Provenance ProvenanceAnalysis::traceObject(const Expr *Obj, unsigned Depth, unsigned ParamBudget) {
  if (!Obj || Depth > MaxDepth)
    return Provenance::unknown();
  Obj = Obj->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return Provenance::unknown();
    if (V->hasAttr<CUDADeviceAttr>() || V->hasAttr<CUDAConstantAttr>() ||
        V->hasAttr<CUDASharedAttr>())
      return make(MemoryKind::Device, "a __device__ variable", V->getCanonicalDecl(),
                  V->getLocation());
    if (V->hasAttr<HIPManagedAttr>())
      return make(MemoryKind::Managed, "a __managed__ variable", V->getCanonicalDecl(),
                  V->getLocation());
    if (V->getType()->isReferenceType() || isa<ParmVarDecl>(V))
      return Provenance::unknown(); // Whatever the caller passed.
    std::string What = V->getType()->isArrayType() ? "array" : "variable";
    std::string Where = V->hasLocalStorage() ? "stack" : "static";
    return make(MemoryKind::Pageable, "the " + Where + " " + What + " '" + V->getName().str() + "'",
                V->getCanonicalDecl(), V->getLocation());
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Obj)) {
    const Expr *Base = AS->getBase();
    if (Base->IgnoreParenImpCasts()->getType()->isArrayType())
      return traceObject(Base->IgnoreParenImpCasts(), Depth + 1, ParamBudget);
    return trace(Base, Depth + 1, ParamBudget);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(Obj); UO && UO->getOpcode() == UO_Deref)
    return trace(UO->getSubExpr(), Depth + 1, ParamBudget);
  if (const auto *ME = dyn_cast<MemberExpr>(Obj)) {
    if (ME->isArrow())
      return trace(ME->getBase(), Depth + 1, ParamBudget);
    return traceObject(ME->getBase(), Depth + 1, ParamBudget);
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Obj);
      OC && (OC->getOperator() == OO_Subscript || OC->getOperator() == OO_Star) &&
      OC->getNumArgs() >= 1)
    return traceContainer(OC->getArg(0), Depth + 1, ParamBudget);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Obj)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && MD->getIdentifier() &&
        (MD->getName() == "front" || MD->getName() == "back" || MD->getName() == "at"))
      return traceContainer(MC->getImplicitObjectArgument(), Depth + 1, ParamBudget);
  }
  return Provenance::unknown();
}

/// The buffer of a std::vector, std::string, std::array, thrust::host_vector
/// or std::unique_ptr object.
Provenance ProvenanceAnalysis::traceContainer(const Expr *Obj, unsigned Depth,
                                              unsigned ParamBudget) {
  if (!Obj || Depth > MaxDepth)
    return Provenance::unknown();
  QualType T = Obj->getType();
  if (T->isPointerType()) { // v->data()
    T = T->getPointeeType();
  }
  Container C = containerOf(T);
  const ValueDecl *K = keyOf(Obj);
  switch (C) {
  case Container::Vector:
  case Container::String:
  case Container::HostVector: {
    // The allocator is std::allocator: heap memory, wherever the object is.
    const void *Site = K ? static_cast<const void *>(K) : static_cast<const void *>(Obj);
    SourceLocation Loc = K ? K->getLocation() : Obj->getBeginLoc();
    return make(MemoryKind::Pageable, containerName(C).str(), Site, Loc);
  }
  case Container::Array: {
    if (Obj->getType()->isPointerType())
      return trace(Obj, Depth + 1, ParamBudget).known()
                 ? make(MemoryKind::Pageable, "std::array", nullptr, Obj->getBeginLoc())
                 : Provenance::unknown();
    Provenance P = traceObject(Obj, Depth + 1, ParamBudget);
    if (P.Kind == MemoryKind::Pageable)
      P.Source = "the std::array " + P.Source.substr(P.Source.find('\''));
    return P;
  }
  case Container::UniquePtr: {
    if (!K || Obj->getType()->isPointerType())
      return Provenance::unknown();
    return traceDecl(K, Depth + 1, ParamBudget);
  }
  default:
    return Provenance::unknown();
  }
}

/// Every value a variable, parameter or member is given in the TU.
Provenance ProvenanceAnalysis::traceDecl(const ValueDecl *D, unsigned Depth, unsigned ParamBudget) {
  if (!D || Depth > MaxDepth)
    return Provenance::unknown();
  D = cast<ValueDecl>(D->getCanonicalDecl());
  if (const auto *V = dyn_cast<VarDecl>(D)) {
    if (V->getType()->isReferenceType())
      return Provenance::unknown();
    if (V->hasAttr<CUDADeviceAttr>() || V->hasAttr<CUDAConstantAttr>())
      return Provenance::unknown(); // A __device__ pointer variable: read on the device.
    if (const auto *P = dyn_cast<ParmVarDecl>(V))
      return traceParam(P, Depth, ParamBudget);
  }
  if (!Visiting.insert(D).second)
    return Provenance::unknown(); // A cycle (p = q; q = p).
  Index &I = index();
  Provenance Result;
  bool First = true;
  auto It = I.Defs.find(D);
  if (It != I.Defs.end()) {
    for (const Def &Df : It->second) {
      // `float *p = nullptr;` before the allocation: nothing to copy from.
      if (Df.Kind == Def::Value && Df.E &&
          Df.E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
        continue;
      Provenance P = traceDef(Df, Depth + 1, ParamBudget);
      Result = First ? P : merge(Result, P);
      First = false;
      if (!Result.known())
        break;
    }
  }
  Visiting.erase(D);
  return First ? Provenance::unknown() : Result;
}

Provenance ProvenanceAnalysis::traceDef(const Def &D, unsigned Depth, unsigned ParamBudget) {
  switch (D.Kind) {
  case Def::Opaque:
    return Provenance::unknown();
  case Def::Value: {
    const Expr *E = stripTemporaries(D.E);
    // unique_ptr<T[]>(new T[n]), std::make_unique<T[]>(n)
    if (containerOf(E->getType()) == Container::UniquePtr) {
      if (const auto *CC = dyn_cast<CXXConstructExpr>(E)) {
        if (CC->getNumArgs() >= 1 && CC->getArg(0)->getType()->isPointerType())
          return trace(CC->getArg(0), Depth + 1, ParamBudget);
        return Provenance::unknown();
      }
      if (const auto *CE = dyn_cast<CallExpr>(E)) {
        const FunctionDecl *FD = CE->getDirectCallee();
        if (FD && FD->isInStdNamespace() && FD->getIdentifier() &&
            FD->getName().starts_with("make_unique"))
          return make(MemoryKind::Pageable, "std::make_unique", CE, CE->getBeginLoc());
      }
      return Provenance::unknown();
    }
    return trace(E, Depth + 1, ParamBudget);
  }
  case Def::OutParam: {
    const CallExpr *C = D.Call;
    if (std::optional<ApiInfo> Api = classifyApiCall(C)) {
      if (D.Arg != 0)
        return Provenance::unknown();
      switch (Api->Kind) {
      case ApiKind::HostAlloc: {
        Provenance P = make(MemoryKind::Pinned, Api->Name, C, C->getBeginLoc());
        if (Api->Name == "cudaHostAlloc" && C->getNumArgs() >= 3) {
          Expr::EvalResult Flags;
          if (!C->getArg(2)->isValueDependent() && C->getArg(2)->EvaluateAsInt(Flags, Ctx))
            P.Mapped = (Flags.Val.getInt().getZExtValue() & 2) != 0;
        }
        return P;
      }
      case ApiKind::Alloc:
        return make(Api->Name == "cudaMallocManaged" ? MemoryKind::Managed : MemoryKind::Device,
                    Api->Name, C, C->getBeginLoc());
      default:
        return Provenance::unknown();
      }
    }
    const FunctionDecl *FD = C->getDirectCallee();
    if (FD && FD->getIdentifier() && FD->getName() == "posix_memalign" && inStdOrGlobal(FD) &&
        D.Arg == 0)
      return make(MemoryKind::Pageable, "posix_memalign", C, C->getBeginLoc());
    if (FD && FD->getIdentifier() && FD->getName() == "cudaHostGetDevicePointer" && D.Arg == 0)
      return make(MemoryKind::Device, "cudaHostGetDevicePointer", C, C->getBeginLoc());
    return Provenance::unknown();
  }
  }
  return Provenance::unknown();
}

/// A function of the TU that returns an allocation (`allocHost(n)`): what
/// every one of its return statements returns, without following its
/// parameters.
Provenance ProvenanceAnalysis::traceReturns(const FunctionDecl *FD, unsigned Depth) {
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || isSystemDecl(Def) || !Def->getReturnType()->isPointerType() ||
      Depth > MaxDepth)
    return Provenance::unknown();
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def); MD && MD->isVirtual())
    return Provenance::unknown();
  struct Returns : RecursiveASTVisitor<Returns> {
    std::vector<const Expr *> Values;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitReturnStmt(ReturnStmt *R) {
      Values.push_back(R->getRetValue());
      return true;
    }
  } R;
  R.TraverseStmt(Def->getBody());
  if (R.Values.empty() || !Visiting.insert(Def).second)
    return Provenance::unknown();
  Provenance Result;
  bool First = true;
  for (const Expr *V : R.Values) {
    Provenance P = V ? trace(V, Depth + 1, /*ParamBudget=*/0) : Provenance::unknown();
    Result = First ? P : merge(Result, P);
    First = false;
    if (!Result.known())
      break;
  }
  Visiting.erase(Def);
  return Result;
}

/// One level up: the arguments every call site of the function passes.
Provenance ProvenanceAnalysis::traceParam(const ParmVarDecl *P, unsigned Depth,
                                          unsigned ParamBudget) {
  if (ParamBudget == 0)
    return Provenance::unknown();
  const auto *FD = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
  if (!FD)
    return Provenance::unknown();
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && (MD->isVirtual() || MD->getParent()->isLambda()))
    return Provenance::unknown();
  Index &I = index();
  const FunctionDecl *Canon = FD->getCanonicalDecl();
  if (I.AddressTaken.count(Canon))
    return Provenance::unknown();
  // The parameter must keep the caller's value (bumps are fine).
  if (auto It = I.Defs.find(P->getCanonicalDecl()); It != I.Defs.end() && !It->second.empty())
    return Provenance::unknown();
  auto Calls = I.CallsOf.find(Canon);
  if (Calls == I.CallsOf.end() || Calls->second.empty())
    return Provenance::unknown();
  unsigned Index = P->getFunctionScopeIndex();
  Provenance Result;
  bool First = true;
  for (const CallExpr *C : Calls->second) {
    unsigned Shift = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    if (Index + Shift >= C->getNumArgs())
      return Provenance::unknown();
    const Expr *Arg = C->getArg(Index + Shift);
    if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(Arg))
      Arg = DA->getExpr();
    Provenance A = trace(Arg, Depth + 1, ParamBudget - 1);
    if (First)
      A.ViaCall = C;
    Result = First ? A : merge(Result, A);
    First = false;
    if (!Result.known())
      return Result;
  }
  return Result;
}

/// Whether Body assigns V or its field F, takes the address of either, or
/// uses V other than through a member (passes it whole, by reference or by
/// value: a callee's view of it is not followed).
static bool fieldReassigned(const Stmt *Body, const VarDecl *V, const FieldDecl *F) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    const FieldDecl *F;
    unsigned Refs = 0, MemberRefs = 0;
    bool Written = false;
    bool isV(const Expr *E) const {
      const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return D && D->getDecl() == V;
    }
    bool isTarget(const Expr *E) const {
      E = E->IgnoreParens();
      if (isV(E))
        return true;
      const auto *M = dyn_cast<MemberExpr>(E);
      return M && M->getMemberDecl() == F && isV(M->getBase());
    }
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      Refs += D->getDecl() == V;
      return true;
    }
    bool VisitMemberExpr(MemberExpr *M) {
      MemberRefs += !M->isArrow() && isV(M->getBase());
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      Written |= B->isAssignmentOp() && isTarget(B->getLHS());
      return !Written;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      Written |= (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
                 isTarget(U->getSubExpr());
      return !Written;
    }
  } Find;
  Find.V = V;
  Find.F = F;
  Find.TraverseStmt(const_cast<Stmt *>(Body));
  return Find.Written || Find.Refs > Find.MemberRefs;
}

/// The initializer of field F in `S v = {a, b};`, for `v.F` where v is a
/// local variable (not a parameter or reference) of aggregate type that
/// the function never assigns, nor its field F, nor passes by address.
static const Expr *aggregateFieldInit(const MemberExpr *ME, const FieldDecl *F) {
  if (ME->isArrow() || !F->getType()->isPointerType())
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || isa<ParmVarDecl>(V) || !V->isLocalVarDecl() || V->getType()->isReferenceType())
    return nullptr;
  const auto *IL = dyn_cast_or_null<InitListExpr>(V->getInit() ? V->getInit()->IgnoreImplicit()
                                                                : nullptr);
  if (!IL)
    return nullptr;
  if (IL->isSyntacticForm() && IL->getSemanticForm())
    IL = IL->getSemanticForm();
  unsigned Index = F->getFieldIndex();
  if (F->getParent() != V->getType()->getAsRecordDecl() || Index >= IL->getNumInits())
    return nullptr;
  // The whole variable or the field written anywhere: its value may change.
  const FunctionDecl *FD = dyn_cast_or_null<FunctionDecl>(V->getDeclContext());
  if (!FD || !FD->getBody() || fieldReassigned(FD->getBody(), V, F))
    return nullptr;
  return IL->getInit(Index);
}

const ValueDecl *ProvenanceAnalysis::rootOf(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < MaxDepth; ++Depth) {
    E = E->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      E = CE->getSubExpr();
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
        BO->getType()->isPointerType()) {
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() != UO_AddrOf && UO->getOpcode() != UO_Deref)
        return nullptr;
      E = UO->getSubExpr();
      continue;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase();
      continue;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
        OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() >= 1) {
      E = OC->getArg(0);
      continue;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (!MD || !MD->getIdentifier() ||
          !llvm::is_contained({"data", "c_str", "get", "front", "back", "at"}, MD->getName()))
        return nullptr;
      E = MC->getImplicitObjectArgument();
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!F)
        return nullptr;
      // `BodySystem p = {(float4 *)buf, (float4 *)buf + n}; p.pos[i]`: a
      // pointer field of a local aggregate is the buffer its initializer
      // names, unless something assigns the field.
      if (const Expr *Init = aggregateFieldInit(ME, F))
        if (const ValueDecl *R = rootOf(Init))
          return R;
      return F->getCanonicalDecl();
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return nullptr;
      V = V->getCanonicalDecl();
      // q = p: the buffer is p's.
      if (V->getType()->isPointerType() && !isa<ParmVarDecl>(V)) {
        auto It = index().Defs.find(V);
        if (It != index().Defs.end() && It->second.size() == 1 &&
            It->second.front().Kind == Def::Value) {
          const Expr *Val = stripCasts(It->second.front().E);
          if (isa<DeclRefExpr, MemberExpr, BinaryOperator, UnaryOperator>(Val) &&
              Val->getType()->isPointerType()) {
            if (const ValueDecl *R = rootOf(Val))
              return R;
          }
        }
      }
      return V;
    }
    return nullptr;
  }
  return nullptr;
}

} // namespace cuda_advisor::analysis
