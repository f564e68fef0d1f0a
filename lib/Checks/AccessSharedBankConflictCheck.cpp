//===- AccessSharedBankConflictCheck.cpp - access-shared-bank-conflict ----===//
#include "AccessSharedBankConflictCheck.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/TUFacts.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <numeric>
#include <tuple>

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_advisor::analysis;

namespace cuda_advisor::checks {

AccessSharedBankConflictCheck::AccessSharedBankConflictCheck(StringRef Id, Severity Level,
                                                             CheckContext &Ctx)
    : Check(Id, Level, Ctx),
      MinDegree(static_cast<unsigned>(std::max<int64_t>(2, option("MinDegree")))) {}


void AccessSharedBankConflictCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal)).bind("kernel"), this);
  Finder.addMatcher(cudaKernelCallExpr().bind("launch"), this);
}

void AccessSharedBankConflictCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("launch")) {
    std::optional<LaunchSite> L = getLaunchSite(Call);
    if (L && L->Kernel && L->Block)
      if (std::optional<Dim3Value> B = Ctx.facts().values().evaluateDim3(L->Block);
          B && B->X && *B->X < 32) {
        int64_t &X = NarrowKernels.try_emplace(L->Kernel->getCanonicalDecl(), *B->X).first->second;
        X = std::min(X, *B->X);
      }
    return;
  }
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!FD || FD->isDependentContext())
    return;
  if (const KernelSummary *S = Ctx.facts().kernels().summaryOf(FD))
    analyze(FD, *S);
}

/// A symbolic stride made of parameters, uniform variables and launch
/// dimensions: an integer the check may reason about.
static bool integerSymbols(const AffineForm &F) {
  for (const Term &T : F.terms())
    for (const Symbol &S : T.Symbols)
      if (S.Kind != SymbolKind::Value && S.Kind != SymbolKind::Member &&
          S.Kind != SymbolKind::BlockDim && S.Kind != SymbolKind::GridDim)
        return false;
  return true;
}

/// An `if (threadIdx.x < G)` around A that leaves part of a warp running: G
/// (below 32), else 0.
static unsigned partialWarpGuard(const MemoryAccess &A) {
  return A.GuardThreadsX < 32 ? A.GuardThreadsX : 0;
}

std::optional<AccessSharedBankConflictCheck::Conflict>
AccessSharedBankConflictCheck::evaluate(const MemoryAccess &A, bool TwoDimensional) const {
  if (A.Address.Root.Space != MemorySpace::Shared || A.Kind == AccessKind::Atomic ||
      A.SizeBytes == 0 || A.Address.ByteOffset.isUnknown() || A.SingleLane)
    return std::nullopt;
  // An array of at most 32 words: whatever the indices, different words of
  // it lie in different banks (a reduction over a 32-float array, however
  // its stride grows, never conflicts).
  if (const auto *VD = dyn_cast_or_null<VarDecl>(A.Address.Root.Decl))
    if (const auto *AT = Ctx.ast().getAsConstantArrayType(VD->getType());
        AT && !VD->getType()->isDependentType() &&
        Ctx.ast().getTypeSizeInChars(VD->getType()).getQuantity() <= 32 * 4)
      return std::nullopt;
  AffineForm Stride = A.laneStride();
  if (Stride.isUnknown())
    return std::nullopt;
  Conflict C;
  C.Access = A;
  // An array dimension indexed by threadIdx.x that is narrower than a warp
  // means a narrower block: a warp then spans several values of threadIdx.y.
  if (A.MaxThreadsX > 0 && A.MaxThreadsX < 32)
    C.ThreadsX = 1u << llvm::Log2_32(A.MaxThreadsX);
  int64_t StrideY = 0;
  if (C.ThreadsX < 32) {
    AffineForm Y = A.Address.ByteOffset.coefficientOf(Symbol::threadIdx(1));
    std::optional<int64_t> YC = Y.asConstant();
    if (!YC)
      return std::nullopt;
    StrideY = *YC;
  }
  C.StrideY = StrideY;
  unsigned GuardLanes = partialWarpGuard(A);
  C.OncePerBlock = A.GuardThreadsX > 0 && A.GuardThreadsX <= 32 && !TwoDimensional &&
                   A.Loops.empty() && A.CallChain.empty();
  if (std::optional<int64_t> X = Stride.asConstant()) {
    C.Banks = bankConflict(*X, StrideY, C.ThreadsX, A.SizeBytes);
    // The array bound says threadIdx.x < ThreadsX: either blocks are that
    // narrow (a warp spans several rows) or the other lanes are switched off
    // (if (threadIdx.x < 16)). Claim only what holds in both cases.
    if (C.ThreadsX < 32) {
      BankConflict OneRow = bankConflict(*X, StrideY, C.ThreadsX, A.SizeBytes, C.ThreadsX);
      if (OneRow.Degree < C.Banks.Degree)
        C.Banks = OneRow;
    }
    // `if (threadIdx.x < 8)`: only the first lanes of a row take part.
    if (GuardLanes) {
      BankConflict Guarded = bankConflict(*X, StrideY, C.ThreadsX, A.SizeBytes, GuardLanes);
      if (Guarded.Degree < C.Banks.Degree)
        C.Banks = Guarded;
    }
    C.StrideWords = (*X < 0 ? -*X : *X) / 4;
    if (C.Banks.Degree < MinDegree)
      return std::nullopt;
    return C;
  }
  // stride = K * P words with P an unknown integer: lanes 32 / gcd(K, 32)
  // apart share a bank, so at least gcd(K, 32) lanes do (unless P is 0).
  if (A.SizeBytes != 4 || C.ThreadsX != 32 || !integerSymbols(Stride))
    return std::nullopt;
  int64_t Content = Stride.content();
  if (Content % 4 != 0)
    return std::nullopt;
  unsigned G = static_cast<unsigned>(std::gcd<int64_t>(Content / 4, 32));
  // Lanes 32 / G apart share a bank: of the first GuardLanes lanes, at
  // least ceil(GuardLanes / (32 / G)) do.
  if (GuardLanes) {
    unsigned Period = 32 / G;
    G = std::min(G, (GuardLanes + Period - 1) / Period);
  }
  if (G < MinDegree)
    return std::nullopt;
  C.AtLeast = true;
  C.Banks.Degree = G;
  C.Banks.Wavefronts = G;
  C.Banks.Ideal = 1;
  return C;
}

/// The field of a CUDA vector type that Site accesses (`s[i].x` of a
/// double2 or float4: a struct of one scalar type whose alignment is its
/// size, 8 or 16 bytes): its byte offset in the element and the element's
/// size.
static std::optional<std::pair<int64_t, int64_t>> vectorField(const Expr *Site, ASTContext &AST) {
  const auto *ME = dyn_cast<MemberExpr>(Site->IgnoreParenImpCasts());
  const auto *Field = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!Field || Field->isBitField())
    return std::nullopt;
  const RecordDecl *RD = Field->getParent();
  if (!RD || RD->isUnion() || !RD->isCompleteDefinition() || RD->isDependentType())
    return std::nullopt;
  QualType T = AST.getRecordType(RD);
  int64_t Size = AST.getTypeSizeInChars(T).getQuantity();
  if ((Size != 8 && Size != 16) || AST.getTypeAlignInChars(T).getQuantity() != Size)
    return std::nullopt;
  QualType Scalar = Field->getType().getCanonicalType();
  for (const FieldDecl *F : RD->fields())
    if (F->isBitField() || F->getType().getCanonicalType() != Scalar || !Scalar->isScalarType())
      return std::nullopt;
  const ASTRecordLayout &Layout = AST.getASTRecordLayout(RD);
  return std::make_pair(int64_t(Layout.getFieldOffset(Field->getFieldIndex()) / 8), Size);
}

/// The accesses of S that, with others of the same thread to the same
/// element of a vector type, cover the whole element (`s[t].x += s[t + i].x;
/// s[t].y += s[t + i].y;` on a double2): nvcc merges them into one vector
/// access (ld.shared.v2.f64), which the banks serve as such. Each such
/// access, widened to the element.
static llvm::DenseMap<const MemoryAccess *, MemoryAccess> mergedVectorAccesses(const KernelSummary &S,
                                                                              ASTContext &AST) {
  struct Part {
    const MemoryAccess *A;
    AffineForm Element; ///< The element's byte offset.
    int64_t Offset, Size;
  };
  std::vector<Part> Parts;
  for (const MemoryAccess &A : S.Accesses)
    if (A.Address.Root.Space == MemorySpace::Shared && A.Kind != AccessKind::Atomic &&
        !A.Address.ByteOffset.isUnknown())
      if (auto VF = vectorField(A.Site, AST); VF && A.SizeBytes > 0 && A.SizeBytes < VF->second)
        Parts.push_back({&A, A.Address.ByteOffset - AffineForm::constant(VF->first), VF->first,
                         VF->second});
  llvm::DenseMap<const MemoryAccess *, MemoryAccess> Merged;
  if (Parts.size() > 256) // Quadratic below; such kernels are generated code.
    return Merged;
  for (const Part &P : Parts) {
    uint32_t Covered = 0;
    for (const Part &Q : Parts)
      if (Q.Size == P.Size && Q.A->Address.Root.Decl == P.A->Address.Root.Decl &&
          Q.A->Address.Root.Decl && Q.A->Loops == P.A->Loops && Q.A->CallChain == P.A->CallChain &&
          Q.Element == P.Element)
        for (unsigned B = 0; B < Q.A->SizeBytes && Q.Offset + B < Q.Size; ++B)
          Covered |= 1u << (Q.Offset + B);
    if (Covered == (1u << P.Size) - 1) {
      MemoryAccess Wide = *P.A;
      Wide.SizeBytes = unsigned(P.Size);
      Wide.Address.ByteOffset = P.Element;
      Merged.try_emplace(P.A, std::move(Wide));
    }
  }
  return Merged;
}

void AccessSharedBankConflictCheck::analyze(const FunctionDecl *Kernel, const KernelSummary &S) {
  const SourceManager &SM = Ctx.sourceManager();
  llvm::DenseMap<const MemoryAccess *, MemoryAccess> Merged = mergedVectorAccesses(S, Ctx.ast());
  // Whether the kernel's threads are laid out in 2D (or 3D): a guard on
  // threadIdx.x then leaves lanes running in every warp.
  bool TwoDimensional = llvm::any_of(S.Accesses, [](const MemoryAccess &A) {
    return !A.Address.ByteOffset.isUnknown() &&
           (!A.Address.ByteOffset.coefficientOf(Symbol::threadIdx(1)).isZero() ||
            !A.Address.ByteOffset.coefficientOf(Symbol::threadIdx(2)).isZero());
  });
  for (const MemoryAccess &Access : S.Accesses) {
    auto Wide = Merged.find(&Access);
    const MemoryAccess &A = Wide == Merged.end() ? Access : Wide->second;
    std::optional<Conflict> C = evaluate(A, TwoDimensional);
    if (!C)
      continue;
    clang::SourceLocation Loc = SM.getFileLoc(A.Site->getBeginLoc());
    if (Loc.isInvalid() || !Ctx.isReportable(Loc))
      continue;
    auto [It, Inserted] = Sites.insert({Loc.getRawEncoding(), std::move(*C)});
    if (!llvm::is_contained(It->second.Kernels, Kernel))
      It->second.Kernels.push_back(Kernel);
  }
}

/// The outermost expression around E: the statement an access belongs to
/// (`temp[i][j] = max(temp[i - 1][j], temp[i][j - 1])` is one).
static const Stmt *fullExpression(const Expr *E, ASTContext &Ctx) {
  const Stmt *S = E;
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(*S);
    if (Parents.empty())
      break;
    const auto *P = Parents[0].get<Expr>();
    if (!P)
      break;
    S = P;
  }
  return S;
}

/// The compound statement S is a direct child of, and its position there.
static std::pair<const CompoundStmt *, unsigned> positionInBlock(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  const auto *CS = Parents.empty() ? nullptr : Parents[0].get<CompoundStmt>();
  if (!CS)
    return {nullptr, 0};
  unsigned I = 0;
  for (const Stmt *Child : CS->body()) {
    if (Child == S)
      return {CS, I};
    ++I;
  }
  return {nullptr, 0};
}

void AccessSharedBankConflictCheck::onEndOfTranslationUnit() {
  // Accesses of one statement, or of consecutive statements of one block
  // (`Bs[r * 69 + 4 * c + 0] = v.x;` ... `+ 3] = v.w;`, the unpacked store of
  // a float4), with the same conflict on the same buffer are one finding: the
  // first in the source reports, the others are its notes.
  using Key = std::tuple<const Stmt *, const void *, unsigned, int64_t>;
  llvm::MapVector<Key, std::vector<const Conflict *>> Groups;
  struct Placed {
    Conflict *C;
    const Stmt *Statement;
    const void *Buffer;
    int64_t Stride;
  };
  std::vector<Placed> Live;
  unsigned Unnamed = 0;
  for (auto &Entry : Sites) {
    Conflict &C = Entry.second;
    // A launch whose block is narrower than the warp layout the degree
    // assumed puts other lanes side by side: drop what it contradicts.
    llvm::erase_if(C.Kernels, [&](const FunctionDecl *K) {
      auto It = NarrowKernels.find(K->getCanonicalDecl());
      return It != NarrowKernels.end() && It->second != int64_t(C.ThreadsX);
    });
    if (C.Kernels.empty())
      continue;
    const void *Buffer = C.Access.Address.Root.Decl;
    const Stmt *Statement = fullExpression(C.Access.Site, Ctx.ast());
    if (!Buffer) // Nothing to tell two buffers apart by: keep each alone.
      Statement = reinterpret_cast<const Stmt *>(uintptr_t(++Unnamed));
    Live.push_back({&C, Statement, Buffer, C.AtLeast ? int64_t(-1) : C.StrideWords});
  }
  // Source order: the first access of a group reports.
  const SourceManager &SM = Ctx.sourceManager();
  llvm::stable_sort(Live, [&](const Placed &A, const Placed &B) {
    return SM.isBeforeInTranslationUnit(SM.getFileLoc(A.C->Access.Site->getBeginLoc()),
                                        SM.getFileLoc(B.C->Access.Site->getBeginLoc()));
  });
  // A statement joins the group of the statement right before it in the same
  // block when that one has the same conflict on the same buffer.
  using RunKey = std::tuple<const CompoundStmt *, unsigned, const void *, unsigned, int64_t>;
  llvm::DenseMap<RunKey, const Stmt *> ByPosition;
  for (const Placed &P : Live)
    if (P.Buffer)
      if (auto [CS, I] = positionInBlock(P.Statement, Ctx.ast()); CS)
        ByPosition[RunKey(CS, I, P.Buffer, P.C->Banks.Degree, P.Stride)] = P.Statement;
  // The same kind of access (a store, a load) to the same element of the
  // same buffer with the same conflict, in other statements of the kernel
  // (the two branches of a bounds check: the tile loaded, or zero-filled at
  // the edges), is the same access to fix: it joins the group of the first.
  using ElementKey =
      std::tuple<const void *, std::string, unsigned, int64_t, const FunctionDecl *, int>;
  std::map<ElementKey, const Stmt *> FirstAnchor;
  llvm::DenseSet<const Stmt *> JoinedByElement;
  for (const Placed &P : Live) {
    const Stmt *Anchor = P.Statement;
    if (P.Buffer)
      if (auto [CS, I] = positionInBlock(P.Statement, Ctx.ast()); CS)
        while (I > 0) {
          auto It = ByPosition.find(RunKey(CS, I - 1, P.Buffer, P.C->Banks.Degree, P.Stride));
          if (It == ByPosition.end())
            break;
          Anchor = It->second;
          --I;
        }
    if (P.Buffer && P.C->Kernels.size() == 1) {
      ElementKey EK(P.Buffer, P.C->Access.Address.ByteOffset.str(Ctx.ast()), P.C->Banks.Degree,
                    P.Stride, P.C->Kernels.front(), int(P.C->Access.Kind));
      auto [It, New] = FirstAnchor.try_emplace(EK, Anchor);
      if (!New && It->second != Anchor) {
        Anchor = It->second;
        JoinedByElement.insert(Anchor);
      }
    }
    Groups[Key(Anchor, P.Buffer, P.C->Banks.Degree, P.Stride)].push_back(P.C);
  }
  for (auto &[K, Members] : Groups) {
    llvm::stable_sort(Members, [&](const Conflict *A, const Conflict *B) {
      return SM.isBeforeInTranslationUnit(SM.getFileLoc(A->Access.Site->getBeginLoc()),
                                          SM.getFileLoc(B->Access.Site->getBeginLoc()));
    });
    std::vector<const Expr *> Siblings;
    llvm::SmallPtrSet<const Stmt *, 4> Statements;
    for (const Conflict *C : Members)
      Statements.insert(fullExpression(C->Access.Site, Ctx.ast()));
    for (const Conflict *C : llvm::drop_begin(Members))
      Siblings.push_back(C->Access.Site);
    report(*Members.front(), Statements.size(), Siblings,
           /*Consecutive=*/!JoinedByElement.count(std::get<0>(K)));
  }
}

/// `tile[32][33]` when the access walks the rows of the 2D array it indexes
/// and one element of padding per row removes the conflict (checked: an
/// array that is padded already may need another layout).
static std::string paddedDeclaration(const MemoryAccess &A, int64_t StrideX, int64_t StrideY,
                                     unsigned ThreadsX, unsigned Degree, ASTContext &AST) {
  const auto *V = dyn_cast_or_null<VarDecl>(A.Address.Root.Decl);
  if (!V || !V->getIdentifier())
    return "";
  const auto *Outer = AST.getAsConstantArrayType(V->getType());
  if (!Outer)
    return "";
  const auto *Inner = AST.getAsConstantArrayType(Outer->getElementType());
  if (!Inner || Inner->getElementType()->isArrayType())
    return "";
  int64_t Row = AST.getTypeSizeInChars(Outer->getElementType()).getQuantity();
  int64_t Elem = AST.getTypeSizeInChars(Inner->getElementType()).getQuantity();
  if (Row == 0 || Elem == 0 || StrideX % Row != 0)
    return "";
  auto Padded = [&](int64_t S) {
    int64_t Rows = S / Row, Rest = S % Row;
    return Rows * (Row + Elem) + Rest;
  };
  if (bankConflict(Padded(StrideX), Padded(StrideY), ThreadsX, A.SizeBytes).Degree >= Degree)
    return "";
  return V->getName().str() + "[" + std::to_string(Outer->getZExtSize()) + "][" +
         std::to_string(Inner->getZExtSize() + 1) + "]";
}

/// The pointer variable the access indexes, when it is not the array itself
/// (T *sdata = SharedMemory<T>(); sdata[i]).
static std::string indexedPointer(const Expr *Site, const MemoryRoot &Root) {
  const Expr *Base = nullptr;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Site->IgnoreParenImpCasts()))
    Base = AS->getBase();
  else if (const auto *UO = dyn_cast<UnaryOperator>(Site->IgnoreParenImpCasts());
           UO && UO->getOpcode() == UO_Deref)
    Base = UO->getSubExpr();
  const auto *DRE = Base ? dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts()) : nullptr;
  if (!DRE || DRE->getDecl() == Root.Decl || !DRE->getDecl()->getIdentifier() ||
      !DRE->getType()->isPointerType())
    return "";
  return DRE->getDecl()->getName().str();
}

void AccessSharedBankConflictCheck::report(const Conflict &C, unsigned Statements,
                                           ArrayRef<const Expr *> Siblings, bool Consecutive) {
  const MemoryAccess &A = C.Access;
  ASTContext &AST = Ctx.ast();
  std::string Buffer = A.Address.Root.name();
  std::string Shown = Buffer;
  if (std::string P = indexedPointer(A.Site, A.Address.Root); !P.empty())
    Shown = P + "' into '" + Buffer;
  std::string Degree = std::to_string(C.Banks.Degree);
  AffineForm Stride = A.laneStride();
  std::string Msg;
  if (C.AtLeast) {
    std::optional<AffineForm> Words = Stride.dividedExactly(4);
    std::string W = Words ? Words->str(AST) : Stride.str(AST);
    Msg = "at least " + Degree + "-way shared-memory bank conflict on '" + Shown +
          "': consecutive threads are `" + W + "` 4-byte words apart, so whatever its value "
          "(other than 0) at least " + Degree + " lanes of a warp hit the same bank and the "
          "access is replayed that many times";
  } else {
    Msg = Degree + "-way shared-memory bank conflict on '" + Shown + "': consecutive threads are " +
          std::to_string(C.StrideWords) + " 4-byte words apart";
    if (C.ThreadsX < 32)
      Msg += " (threadIdx.x stays below " + std::to_string(C.ThreadsX) + " in this array)";
    if (unsigned G = partialWarpGuard(A); G && G < C.ThreadsX)
      Msg += " (only threadIdx.x < " + std::to_string(G) + " runs it)";
    if (A.SizeBytes > 4)
      Msg += " with " + std::to_string(A.SizeBytes) + "-byte elements, served " +
             std::to_string(128 / A.SizeBytes) + " lanes at a time";
    Msg += ", so " + Degree + " lanes hit the same bank and the access takes " +
           std::to_string(C.Banks.Wavefronts) + " shared-memory wavefronts instead of " +
           std::to_string(C.Banks.Ideal);
    std::optional<int64_t> X = Stride.asConstant();
    std::string Padded = X ? paddedDeclaration(A, *X < 0 ? -*X : *X, C.StrideY, C.ThreadsX,
                                               C.Banks.Degree, AST)
                           : "";
    if (!Padded.empty())
      Msg += "; pad the rows by one element ('" + Padded + "')";
  }

  if (!Siblings.empty() && Statements > 1)
    Msg += " (" + std::to_string(Siblings.size() + 1) + " accesses of " +
           std::to_string(Statements) + (Consecutive ? " consecutive" : "") +
           " statements have this conflict)";
  else if (!Siblings.empty())
    Msg += " (" + std::to_string(Siblings.size() + 1) +
           " accesses of this statement have this conflict)";

  auto D = diag(A.Site->getBeginLoc(), Msg);
  D.range(A.Site->getSourceRange());
  // A spine step (`if (threadIdx.x < 8) s[threadIdx.x * 32] += ...`) that
  // one warp of each block runs once: a few wavefronts per block.
  if (C.OncePerBlock)
    D.cold("one warp of each block makes this access, once (a guard keeps threadIdx.x below " +
           std::to_string(A.GuardThreadsX) + " and no loop is around it): at most " +
           std::to_string(C.Banks.Wavefronts - C.Banks.Ideal) +
           " extra shared-memory wavefronts per block");
  // A tutorial's unpadded step, shipped beside the padded one it is timed
  // against (`transpose_shared` and `transpose_no_conflict`): the fix is
  // already in the file.
  else if (const auto *V = dyn_cast_or_null<VarDecl>(A.Address.Root.Decl))
    if (const VarDecl *W = paddedSibling(V)) {
      const auto *F = dyn_cast_or_null<FunctionDecl>(W->getParentFunctionOrMethod());
      D.cold("the file's '" + (F ? F->getNameAsString() : std::string("?")) + "' declares '" +
             W->getNameAsString() + "' as '" + W->getType().getAsString() +
             "', the same array with its rows padded: this unpadded one is the baseline it is "
             "compared with");
    }
  for (const FunctionDecl *K : C.Kernels)
    D.kernel(K);
  for (const Expr *Sibling : Siblings)
    D.note(Sibling->getBeginLoc(), "another access of '" + Shown + "' with the same conflict");
  if (const auto *V = dyn_cast_or_null<VarDecl>(A.Address.Root.Decl))
    D.note(V->getLocation(), "'" + Buffer + "' declared here");
  if (!A.CallChain.empty())
    D.note(A.CallChain.front()->getBeginLoc(),
           "reached from kernel '" + C.Kernels.front()->getNameAsString() + "' through this call");
  D.evidence(evidence::Buffer, Buffer)
      .evidence(evidence::ConflictDegree, int64_t(C.Banks.Degree))
      .evidence(evidence::DegreeIsLowerBound, C.AtLeast)
      .evidence(evidence::Wavefronts, int64_t(C.Banks.Wavefronts))
      .evidence(evidence::IdealWavefronts, int64_t(C.Banks.Ideal))
      .evidence(evidence::ElementBytes, int64_t(A.SizeBytes))
      .evidence(evidence::ThreadsX, int64_t(C.ThreadsX))
      .evidence(evidence::Access, A.Kind == AccessKind::Store ? "store"
                          : A.Kind == AccessKind::Load ? "load"
                                                       : "read-modify-write");
  if (C.AtLeast)
    D.evidenceUnknown(evidence::StrideWords).evidence(evidence::StrideSymbolic, Stride.str(AST));
  else
    D.evidence(evidence::StrideWords, C.StrideWords);
}

const VarDecl *AccessSharedBankConflictCheck::paddedSibling(const VarDecl *V) {
  if (!SharedArrays) {
    struct Collector : RecursiveASTVisitor<Collector> {
      std::vector<const VarDecl *> Found;
      bool VisitVarDecl(VarDecl *D) {
        if (D->hasAttr<CUDASharedAttr>() && isa<ConstantArrayType>(D->getType().getTypePtr()))
          Found.push_back(D);
        return true;
      }
    } C;
    for (Decl *D : Ctx.ast().getTraversalScope())
      C.TraverseDecl(D);
    SharedArrays = std::move(C.Found);
  }
  // The dimensions, outermost first, and the element type.
  auto Shape = [&](const VarDecl *D, QualType &Elem) {
    std::vector<uint64_t> Dims;
    QualType T = D->getType();
    while (const auto *A = Ctx.ast().getAsConstantArrayType(T)) {
      Dims.push_back(A->getSize().getZExtValue());
      T = A->getElementType();
    }
    Elem = T.getCanonicalType().getUnqualifiedType();
    return Dims;
  };
  QualType VE;
  std::vector<uint64_t> VD = Shape(V, VE);
  if (VD.size() < 2 || !V->getParentFunctionOrMethod())
    return nullptr;
  for (const VarDecl *W : *SharedArrays) {
    if (W == V || W->getParentFunctionOrMethod() == V->getParentFunctionOrMethod())
      continue;
    QualType WE;
    std::vector<uint64_t> WD = Shape(W, WE);
    if (WD.size() != VD.size() || WE != VE ||
        !std::equal(VD.begin(), VD.end() - 1, WD.begin()))
      continue;
    // One element more per row (the padding that removes a 4-byte
    // stride's conflict; 2 or 4 more still conflict), in a variant of the
    // same kernel: the two functions' names share their first 5 letters
    // (transpose_shared and transpose_no_conflict, gTrans2 and gTrans3).
    const auto *VF = dyn_cast<NamedDecl>(V->getParentFunctionOrMethod());
    const auto *WF = dyn_cast_or_null<NamedDecl>(W->getParentFunctionOrMethod());
    if (WD.back() == VD.back() + 1 && VF && WF && VF->getIdentifier() && WF->getIdentifier() &&
        VF->getName().size() >= 5 && WF->getName().size() >= 5 &&
        VF->getName().take_front(5).equals_insensitive(WF->getName().take_front(5)))
      return W;
  }
  return nullptr;
}

CUDA_ADVISOR_REGISTER_CHECK(AccessSharedBankConflictCheck)

} // namespace cuda_advisor::checks
