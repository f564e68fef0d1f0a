//===- AccessUncoalescedCheck.cpp - access-uncoalesced ---------------------===//
#include "AccessUncoalescedCheck.h"
#include "cuda-advisor/Analysis/HotPath.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/TUFacts.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/Stmt.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Format.h"

#include <map>
#include <set>

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_advisor::analysis;

namespace cuda_advisor::checks {

AccessUncoalescedCheck::AccessUncoalescedCheck(StringRef Id, Severity Level, CheckContext &Ctx)
    : Check(Id, Level, Ctx), ReportSymbolic(option("ReportSymbolicStrides") != 0) {}


void AccessUncoalescedCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal)).bind("kernel"), this);
  Finder.addMatcher(cudaKernelCallExpr().bind("launch"), this);
}

void AccessUncoalescedCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("launch")) {
    std::optional<LaunchSite> L = getLaunchSite(Call);
    if (L && L->Kernel && L->Block)
      if (std::optional<Dim3Value> B = Ctx.facts().values().evaluateDim3(L->Block); B && B->X) {
        if (*B->X < 32)
          NarrowKernels.insert(L->Kernel->getCanonicalDecl());
        else
          WideKernels.insert(L->Kernel->getCanonicalDecl());
      }
    return;
  }
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!FD || FD->isDependentContext())
    return;
  if (const KernelSummary *S = Ctx.facts().kernels().summaryOf(FD))
    analyze(FD, *S);
}

namespace {
/// `for (k = a; k < b; ++k)` with constant a and b (at most 64 trips).
struct CountedLoop {
  const VarDecl *Var = nullptr;
  int64_t First = 0;
  int64_t Trips = 0;
};
} // namespace

static std::optional<CountedLoop> countedLoop(const Stmt *Loop, ASTContext &AST) {
  const auto *F = dyn_cast_or_null<ForStmt>(Loop);
  if (!F || !F->getInit() || !F->getCond() || !F->getInc())
    return std::nullopt;
  const auto *DS = dyn_cast<DeclStmt>(F->getInit());
  const auto *V = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
  const auto *Cond = dyn_cast<BinaryOperator>(F->getCond()->IgnoreParenImpCasts());
  const auto *Inc = dyn_cast<UnaryOperator>(F->getInc()->IgnoreParenImpCasts());
  if (!V || !V->getInit() || !Cond || !Inc || !Inc->isIncrementOp())
    return std::nullopt;
  // The condition and the increment are the declared variable's.
  auto IsV = [&](const Expr *E) {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return R && R->getDecl() == V;
  };
  if (!IsV(Cond->getLHS()) || !IsV(Inc->getSubExpr()))
    return std::nullopt;
  Expr::EvalResult Lo, Hi;
  if (V->getInit()->isValueDependent() || !V->getInit()->EvaluateAsInt(Lo, AST) ||
      Cond->getRHS()->isValueDependent() || !Cond->getRHS()->EvaluateAsInt(Hi, AST))
    return std::nullopt;
  int64_t First = Lo.Val.getInt().getExtValue();
  int64_t N = Hi.Val.getInt().getExtValue() - First;
  if (Cond->getOpcode() == BO_LE)
    ++N;
  else if (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_NE)
    return std::nullopt;
  if (N <= 0 || N > 64)
    return std::nullopt;
  return CountedLoop{V, First, N};
}

namespace {
/// An access's byte offset split into the part that differs between the
/// accesses of one group (constants, and small loops over the fields of an
/// element) and the rest.
struct Split {
  AffineForm Rest;
  std::vector<int64_t> Offsets;
};
} // namespace

/// A term of an offset that a small counted loop around the access makes
/// take several values: the loop's iteration (`xyz[3 * i + k]`), or its
/// variable modulo, divided, shifted or masked by a constant (`c[2 * t + k %
/// 2]` and `c[(2 * r + k / 2) * ld]`, or `k & 1` and `k >> 1`, in a loop over
/// k < 4: a 2x2 block of elements per thread, written in one unrolled loop).
namespace {
struct LoopTerm {
  const Stmt *Loop;
  Symbol Sym;
  int64_t Coefficient;
  BinaryOperatorKind Op; ///< BO_Comma for the iteration itself.
  int64_t Divisor;       ///< Or the shift, or the mask.
};
} // namespace

static std::optional<LoopTerm> loopTerm(const Term &T, const MemoryAccess &A, ASTContext &AST) {
  if (T.Symbols.size() != 1)
    return std::nullopt;
  const Symbol &S = T.Symbols[0];
  if (S.Kind == SymbolKind::LoopCounter)
    return LoopTerm{static_cast<const Stmt *>(S.Site), S, T.Coefficient, BO_Comma, 1};
  if (S.Kind != SymbolKind::Opaque || !S.Site)
    return std::nullopt;
  const auto *BO = dyn_cast<BinaryOperator>(static_cast<const Stmt *>(S.Site));
  if (!BO || (BO->getOpcode() != BO_Rem && BO->getOpcode() != BO_Div &&
              BO->getOpcode() != BO_Shr && BO->getOpcode() != BO_And))
    return std::nullopt;
  const auto *Ref = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
  Expr::EvalResult K;
  if (!Ref || BO->getRHS()->isValueDependent() || !BO->getRHS()->EvaluateAsInt(K, AST) ||
      K.Val.getInt().getSExtValue() <= 0)
    return std::nullopt;
  for (const Stmt *L : A.Loops)
    if (std::optional<CountedLoop> C = countedLoop(L, AST); C && C->Var == Ref->getDecl())
      return LoopTerm{L, S, T.Coefficient, BO->getOpcode(), K.Val.getInt().getSExtValue()};
  return std::nullopt;
}

static Split splitOffsets(const MemoryAccess &A, ASTContext &AST) {
  Split R;
  R.Offsets.push_back(A.Address.ByteOffset.constantTerm());
  R.Rest = A.Address.ByteOffset.withoutConstant();
  // The terms of each loop, expanded together over its iterations.
  llvm::SmallVector<std::pair<const Stmt *, llvm::SmallVector<LoopTerm, 3>>, 2> ByLoop;
  for (const Term &T : A.Address.ByteOffset.terms())
    if (std::optional<LoopTerm> LT = loopTerm(T, A, AST)) {
      auto It = llvm::find_if(ByLoop, [&](const auto &P) { return P.first == LT->Loop; });
      if (It == ByLoop.end())
        ByLoop.push_back({LT->Loop, {*LT}});
      else
        It->second.push_back(*LT);
    }
  for (auto &[Loop, Terms] : ByLoop) {
    std::optional<CountedLoop> C = countedLoop(Loop, AST);
    // The iteration alone needs only the trip count; `k % 2` needs k's
    // values (a counted loop gives both).
    std::optional<int64_t> N = C ? std::optional<int64_t>(C->Trips) : std::nullopt;
    if (!N || R.Offsets.size() * *N > 4096)
      continue;
    std::vector<int64_t> Expanded;
    for (int64_t O : R.Offsets)
      for (int64_t J = 0; J < *N; ++J) {
        int64_t At = O;
        for (const LoopTerm &T : Terms) {
          int64_t K = C ? C->First + J : J;
          int64_t V = T.Op == BO_Comma ? J
                      : T.Op == BO_Rem ? K % T.Divisor
                      : T.Op == BO_Div ? K / T.Divisor
                      : T.Op == BO_Shr ? (T.Divisor < 63 ? K >> T.Divisor : 0)
                                       : K & T.Divisor;
          At += T.Coefficient * V;
        }
        Expanded.push_back(At);
      }
    R.Offsets = std::move(Expanded);
    for (const LoopTerm &T : Terms)
      R.Rest = R.Rest.without(T.Sym);
  }
  return R;
}

/// The constant lane stride in bytes, if it is one.
static std::optional<int64_t> constantStride(const MemoryAccess &A) {
  return A.laneStride().asConstant();
}

/// A symbolic stride the check reports: made of kernel parameters, uniform
/// variables and launch dimensions only (not loop counters or opaque values,
/// which may well be 0 or 1).
static bool reportableSymbolic(const AffineForm &Stride) {
  if (Stride.isUnknown() || Stride.asConstant())
    return false;
  for (const Term &T : Stride.terms())
    for (const Symbol &S : T.Symbols)
      if (S.Kind != SymbolKind::Value && S.Kind != SymbolKind::Member &&
          S.Kind != SymbolKind::BlockDim && S.Kind != SymbolKind::GridDim)
        return false;
  return Stride.content() != 0;
}

/// Whether a symbolic stride is a small record the thread walks whole: the
/// pixel of `channels` bytes that `for (c = 0; c < channels; ++c)
/// out[(y * w + x) * channels + c] = sum[c];` writes, where `sum[c]`, an
/// array of 4, bounds `channels` by 4. The loop uses every byte of the
/// record (as x, y and z of a float3 do), and the record is at most K
/// elements long, K the array's length: the warp's accesses cover a
/// contiguous range, as a covered constant stride of K elements would (K at
/// most 64, K elements at most 1 KiB, as there). A row walk (`m[r * n + c]`
/// for c < n) bounds n by nothing: still reported.
static bool walksSmallRecord(const MemoryAccess &A, const AffineForm &Stride, ASTContext &AST) {
  if (Stride.terms().size() != 1 || Stride.terms()[0].Symbols.size() != 1)
    return false;
  const Term &ST = Stride.terms()[0];
  const Symbol &X = ST.Symbols[0];
  if (X.Kind != SymbolKind::Value || !X.Decl || ST.Coefficient <= 0)
    return false;
  for (const Term &T : A.Address.ByteOffset.terms()) {
    // The loop walks the record one element at a time: its iteration weighs
    // the element's size, the stride's coefficient.
    if (T.Symbols.size() != 1 || T.Symbols[0].Kind != SymbolKind::LoopCounter ||
        T.Coefficient != ST.Coefficient)
      continue;
    const auto *F = dyn_cast_or_null<ForStmt>(static_cast<const Stmt *>(T.Symbols[0].Site));
    const auto *V = static_cast<const ValueDecl *>(T.Symbols[0].Decl);
    if (!F || !V || !F->getCond() || !F->getBody())
      continue;
    // `c < X`, from 0.
    const auto *Cond = dyn_cast<BinaryOperator>(F->getCond()->IgnoreParenImpCasts());
    auto RefersTo = [](const Expr *E, const void *D) {
      const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return R && R->getDecl() == D;
    };
    if (!Cond || Cond->getOpcode() != BO_LT || !RefersTo(Cond->getLHS(), V) ||
        !RefersTo(Cond->getRHS(), X.Decl))
      continue;
    // From 0 (`int c = 0` or `c = 0` in the loop's own init), one by one.
    const Expr *Init = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
        DS && DS->isSingleDecl() && DS->getSingleDecl() == V)
      Init = cast<VarDecl>(V)->getInit();
    else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(F->getInit());
             BO && BO->getOpcode() == BO_Assign && RefersTo(BO->getLHS(), V))
      Init = BO->getRHS();
    Expr::EvalResult First;
    if (!Init || Init->isValueDependent() || !Init->EvaluateAsInt(First, AST) ||
        First.Val.getInt() != 0)
      continue;
    const auto *Inc = dyn_cast_or_null<UnaryOperator>(F->getInc() ? F->getInc()->IgnoreParenImpCasts()
                                                                   : nullptr);
    if (!Inc || !Inc->isIncrementOp() || !RefersTo(Inc->getSubExpr(), V))
      continue;
    // A fixed array of the thread's own, indexed by c in the loop's body.
    std::optional<uint64_t> Bound;
    llvm::SmallVector<const Stmt *, 16> Work{F->getBody()};
    while (!Work.empty() && !Bound) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
        if (RefersTo(AS->getIdx(), V))
          if (const auto *Base = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts()))
            if (const auto *Arr = dyn_cast<VarDecl>(Base->getDecl());
                Arr && Arr->hasLocalStorage())
              if (const auto *CAT = AST.getAsConstantArrayType(Arr->getType()))
                Bound = CAT->getSize().getZExtValue();
      for (const Stmt *C : S->children())
        Work.push_back(C);
    }
    // At most 64 elements and 1 KiB: the limits of a constant stride's
    // covered group (a loop of at most 64 trips over at most 1 KiB).
    if (Bound && *Bound > 0 && *Bound <= 64 && *Bound <= uint64_t(1024 / ST.Coefficient))
      return true;
  }
  return false;
}

/// The record whose field the access reads, when the stride is its size.
static const RecordDecl *structOfField(const Expr *Site, int64_t Stride, ASTContext &AST) {
  const auto *ME = dyn_cast<MemberExpr>(Site->IgnoreParenImpCasts());
  if (!ME)
    return nullptr;
  QualType Base = ME->getBase()->getType();
  if (ME->isArrow())
    Base = Base->getPointeeType();
  const RecordDecl *RD = Base.isNull() ? nullptr : Base->getAsRecordDecl();
  if (!RD || !RD->isCompleteDefinition() || RD->isDependentType())
    return nullptr;
  return AST.getTypeSizeInChars(Base).getQuantity() == Stride ? RD : nullptr;
}

/// Marks the padding bytes of the struct whose field A reads (every byte of
/// the element outside its fields): no access needs them.
static void markPadding(std::vector<bool> &Bytes, const MemoryAccess &A, int64_t Stride,
                        ASTContext &AST) {
  const RecordDecl *RD = structOfField(A.Site, Stride, AST);
  if (!RD)
    return;
  const auto *ME = cast<MemberExpr>(A.Site->IgnoreParenImpCasts());
  const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!Field || Field->getParent() != RD)
    return;
  const ASTRecordLayout &Layout = AST.getASTRecordLayout(RD);
  int64_t Start = A.Address.ByteOffset.constantTerm() -
                  int64_t(Layout.getFieldOffset(Field->getFieldIndex()) / 8);
  std::vector<bool> InField(static_cast<size_t>(Stride), false);
  for (const FieldDecl *F : RD->fields()) {
    if (F->isBitField() || F->getType()->isIncompleteType() || F->getType()->isDependentType())
      return;
    int64_t Off = int64_t(Layout.getFieldOffset(F->getFieldIndex()) / 8);
    int64_t Size = AST.getTypeSizeInChars(F->getType()).getQuantity();
    for (int64_t B = Off; B < Off + Size && B < Stride; ++B)
      InField[static_cast<size_t>(B)] = true;
  }
  for (int64_t B = 0; B < Stride; ++B)
    if (!InField[static_cast<size_t>(B)])
      Bytes[static_cast<size_t>((((Start + B) % Stride) + Stride) % Stride)] = true;
}

/// How a record reads in a message: 'Particle', the typedef of an anonymous
/// struct ('Point' of `typedef struct { ... } Point`), or "an unnamed struct".
static std::string recordName(const RecordDecl *RD) {
  if (RD->getIdentifier())
    return "'" + RD->getName().str() + "'";
  if (const TypedefNameDecl *TD = RD->getTypedefNameForAnonDecl(); TD && TD->getIdentifier())
    return "'" + TD->getName().str() + "'";
  return RD->isUnion() ? "an unnamed union" : "an unnamed struct";
}

double AccessUncoalescedCheck::weightOf(const MemoryAccess &A) {
  ValueTracker &VT = Ctx.facts().values();
  double W = 1;
  for (const Stmt *L : A.Loops)
    W *= tripWeight(L, VT);
  for (const CallExpr *Call : A.CallChain)
    W *= loopWeightAround(Call, Ctx.ast(), VT);
  return W;
}

/// Where in its 32-byte sector the warp's first lane starts, when the
/// offset says: a constant term (a field's offset in its record) over terms
/// that are the lane's own or multiples of 32 bytes (`blockIdx.x *
/// blockDim.x * 96`). Otherwise the check assumes an aligned start.
static std::optional<int64_t> warpPhase(const AffineForm &ByteOffset) {
  if (ByteOffset.isUnknown())
    return std::nullopt;
  for (const Term &T : ByteOffset.terms()) {
    if (T.Symbols.empty())
      continue;
    bool Lane = T.Symbols.size() == 1 && T.Symbols[0].Kind == SymbolKind::ThreadIdx &&
                T.Symbols[0].Dim == 0;
    if (!Lane && T.Coefficient % 32 != 0)
      return std::nullopt;
  }
  return ((ByteOffset.constantTerm() % 32) + 32) % 32;
}

/// Sectors per warp an access moves, as the check judges them: its lane
/// stride's (a symbolic stride of at least 32 bytes puts every lane in its
/// own sector; an unknown one counts as contiguous), one for an address
/// that all lanes share.
static unsigned sectorsOf(const MemoryAccess &A) {
  unsigned Size = A.SizeBytes ? A.SizeBytes : 4;
  if (A.SingleLane || A.Address.ByteOffset.isUniform())
    return 1;
  AffineForm Stride = A.laneStride();
  if (std::optional<int64_t> C = Stride.asConstant()) {
    // A negative stride walks down: mirrored (byte x to -1 - x maps sectors
    // onto sectors), the first lane's bytes start at -Phase - Size.
    std::optional<int64_t> Phase = warpPhase(A.Address.ByteOffset);
    if (Phase && *C < 0)
      Phase = -*Phase - int64_t(Size);
    return sectorsPerWarp(*C, Size, Phase.value_or(0));
  }
  if (!Stride.isUnknown() && reportableSymbolic(Stride))
    return sectorsPerWarp(32 * ((Size + 31) / 32), Size);
  return sectorsPerWarp(Size, Size);
}

const void *AccessUncoalescedCheck::bufferOf(const MemoryRoot &R) {
  if (R.Decl || !R.Load)
    return R.Decl;
  llvm::FoldingSetNodeID ID;
  R.Load->Profile(ID, Ctx.ast(), /*Canonical=*/true);
  llvm::SmallVector<const Expr *, 2> &Same = LoadsByHash[ID.ComputeHash()];
  for (const Expr *E : Same) {
    llvm::FoldingSetNodeID Other;
    E->Profile(Other, Ctx.ast(), /*Canonical=*/true);
    if (Other == ID)
      return E;
  }
  Same.push_back(R.Load);
  return R.Load;
}

void AccessUncoalescedCheck::analyze(const FunctionDecl *Kernel, const KernelSummary &S) {
  ASTContext &AST = Ctx.ast();
  const SourceManager &SM = AST.getSourceManager();
  // Accesses that together use every byte of their stride (p[i].x, p[i].y,
  // p[i].z of a float3; re and im of interleaved complex numbers) fetch no
  // byte in vain: the cache serves the neighbours.
  struct Group {
    std::vector<bool> Covered;
  };
  std::map<std::pair<const void *, int64_t>, std::vector<std::pair<const MemoryAccess *, Split>>>
      Groups;
  for (const MemoryAccess &A : S.Accesses) {
    if (A.Address.Root.Space != MemorySpace::Global || A.Kind == AccessKind::Atomic)
      continue;
    if (std::optional<int64_t> C = constantStride(A))
      if (*C != 0 && (*C < 0 ? -*C : *C) <= 1024)
        Groups[{bufferOf(A.Address.Root), (*C < 0 ? -*C : *C)}]
            .push_back({&A, splitOffsets(A, AST)});
  }
  llvm::SmallPtrSet<const MemoryAccess *, 8> CoveredAccesses;
  // The share of each element's bytes that the thread's accesses at the same
  // base use, when other accesses add to A's own.
  llvm::DenseMap<const MemoryAccess *, double> PooledUse;
  for (auto &[Key, Members] : Groups) {
    int64_t Stride = Key.second;
    for (auto &[A, Sp] : Members) {
      std::vector<bool> Bytes(static_cast<size_t>(Stride), false), Used(Bytes);
      markPadding(Bytes, *A, Stride, AST);
      for (auto &[B, SpB] : Members) {
        if (!sameBuffer(B->Address.Root, A->Address.Root) || !(SpB.Rest == Sp.Rest))
          continue;
        for (int64_t O : SpB.Offsets)
          for (unsigned I = 0; I < B->SizeBytes && I < Stride; ++I) {
            size_t At = static_cast<size_t>((((O + I) % Stride) + Stride) % Stride);
            Bytes[At] = Used[At] = true;
          }
      }
      if (llvm::all_of(Bytes, [](bool B) { return B; }))
        CoveredAccesses.insert(A);
      int64_t UsedBytes = llvm::count(Used, true);
      if (UsedBytes > std::min<int64_t>(A->SizeBytes, Stride)) { // Others add to A's own.
        // The share of the bytes the warp moves: the sectors the lanes'
        // bytes fall in, where the base's alignment is known (the fields of
        // a 96-byte record that share one sector move that sector once).
        PooledUse[A] = double(UsedBytes) / double(Stride);
        if (warpPhase(Sp.Rest)) {
          std::set<int64_t> Sectors;
          for (auto &[B, SpB] : Members)
            if (sameBuffer(B->Address.Root, A->Address.Root) && SpB.Rest == Sp.Rest)
              for (int64_t O : SpB.Offsets)
                for (int64_t Lane = 0; Lane < 32; ++Lane) {
                  int64_t Signed = constantStride(*B).value_or(Stride);
                  int64_t First = Lane * Signed + O, Last = First + B->SizeBytes - 1;
                  for (int64_t Sec = First >> 5; Sec <= (Last >> 5); ++Sec)
                    Sectors.insert(Sec);
                }
          if (!Sectors.empty())
            PooledUse[A] = std::min(1.0, double(32 * UsedBytes) / double(32 * Sectors.size()));
        }
      }
    }
  }

  // A thread reading its own record written out element by element
  // (`in[i * channels]`, `in[i * channels + 1]`, `in[i * channels + 2]`):
  // accesses at one symbolic base that cover k consecutive elements from it
  // are a record of k elements, which is what the stride counts; the warp
  // then reads k * 32 contiguous elements, as a covered constant stride of k
  // would (k from 3 to 64, at most 1 KiB, as there). Elements 1 and 2 alone,
  // or 0 and 2, are no such record, nor element 1 read and 0 written, nor
  // two elements (a row's boundary difference, `u[j * nx + 1] - u[j * nx]`).
  llvm::SmallPtrSet<const MemoryAccess *, 8> UnrolledRecords;
  {
    std::map<const void *, std::vector<std::pair<const MemoryAccess *, Split>>> BySymbolicStride;
    for (const MemoryAccess &A : S.Accesses) {
      if (A.Address.Root.Space != MemorySpace::Global || A.Kind == AccessKind::Atomic ||
          A.SizeBytes == 0 || A.Address.ByteOffset.isUnknown() || A.SingleLane)
        continue;
      AffineForm Stride = A.laneStride();
      if (Stride.isUnknown() || Stride.asConstant())
        continue;
      BySymbolicStride[bufferOf(A.Address.Root)].push_back({&A, splitOffsets(A, AST)});
    }
    // Reads with reads, writes with writes: a boundary condition that copies
    // element 1 of each row into element 0 (`f[r * nx] = f[r * nx + 1]`)
    // walks no record of two.
    auto SameDirection = [](const MemoryAccess &A, const MemoryAccess &B) {
      auto Reads = [](const MemoryAccess &X) { return X.Kind != AccessKind::Store; };
      auto Writes = [](const MemoryAccess &X) { return X.Kind != AccessKind::Load; };
      return (Reads(A) && Reads(B)) || (Writes(A) && Writes(B));
    };
    // The stride is one named value the kernel never compares: `n` in `if
    // (r >= n)` or `j < n` bounds the rows or a walk along them (a matrix's
    // side), which no record of a few elements is.
    llvm::SmallPtrSet<const void *, 8> Compared;
    if (!BySymbolicStride.empty()) {
      std::vector<const Stmt *> Work{Kernel->getBody()};
      while (!Work.empty()) {
        const Stmt *St = Work.back();
        Work.pop_back();
        if (!St)
          continue;
        if (const auto *BO = dyn_cast<BinaryOperator>(St);
            BO && (BO->isRelationalOp() || BO->isEqualityOp()))
          for (const Expr *Side : {BO->getLHS(), BO->getRHS()})
            if (const auto *R = dyn_cast<DeclRefExpr>(Side->IgnoreParenImpCasts()))
              Compared.insert(R->getDecl());
        for (const Stmt *C : St->children())
          Work.push_back(C);
      }
    }
    for (auto &[Buffer, Members] : BySymbolicStride)
      for (auto &[A, Sp] : Members) {
        AffineForm Stride = A->laneStride();
        if (Stride.terms().size() != 1 || Stride.terms()[0].Symbols.size() != 1 ||
            Stride.terms()[0].Symbols[0].Kind != SymbolKind::Value ||
            !Stride.terms()[0].Symbols[0].Decl || Stride.terms()[0].Coefficient <= 0 ||
            Compared.count(Stride.terms()[0].Symbols[0].Decl))
          continue;
        // The same elements on every iteration of the thread's loops: an
        // unrolled walk along a row (`A[r * n + j + 1]` for j += 4) is none.
        if (llvm::any_of(Sp.Rest.terms(), [](const Term &T) {
              return llvm::any_of(T.Symbols, [](const Symbol &X) {
                return X.Kind == SymbolKind::LoopCounter;
              });
            }))
          continue;
        std::set<int64_t> Offsets;
        for (auto &[B, SpB] : Members)
          if (sameBuffer(B->Address.Root, A->Address.Root) && SpB.Rest == Sp.Rest &&
              B->SizeBytes == A->SizeBytes && SameDirection(*A, *B))
            Offsets.insert(SpB.Offsets.begin(), SpB.Offsets.end());
        int64_t Size = A->SizeBytes, K = static_cast<int64_t>(Offsets.size());
        if (K < 3 || K > 64 || K * Size > 1024 || *Offsets.begin() != 0 ||
            *Offsets.rbegin() != (K - 1) * Size ||
            llvm::any_of(Offsets, [&](int64_t O) { return O % Size != 0; }))
          continue;
        UnrolledRecords.insert(A);
      }
  }

  unsigned GlobalAccesses = llvm::count_if(S.Accesses, [](const MemoryAccess &A) {
    return A.Address.Root.Space == MemorySpace::Global && !A.SingleLane;
  });
  // Whether the check reports A: a strided global access.
  auto Strided = [&](const MemoryAccess &A) {
    if (A.Address.Root.Space != MemorySpace::Global || A.Kind == AccessKind::Atomic ||
        A.SizeBytes == 0 || A.Address.ByteOffset.isUnknown() || A.SingleLane)
      return false;
    AffineForm Stride = A.laneStride();
    if (Stride.isUnknown())
      return false;
    if (std::optional<int64_t> C = Stride.asConstant()) {
      int64_t Abs = *C < 0 ? -*C : *C;
      // Uncoalesced: the warp moves at least twice the bytes the thread
      // uses of each element (x, y and z of a float4 use 75%: not so).
      auto Pooled = PooledUse.find(&A);
      if (Pooled != PooledUse.end() && Pooled->second > 0.5)
        return false;
      return Abs > int64_t(A.SizeBytes) && !CoveredAccesses.count(&A);
    }
    return ReportSymbolic && reportableSymbolic(Stride) && !walksSmallRecord(A, Stride, AST) &&
           !UnrolledRecords.count(&A);
  };
  // The traffic of the kernel's other, well-formed global accesses, in
  // sectors per warp, each weighted by how often a thread runs it. The
  // strided ones are left out: one remapping of the threads often fixes them
  // all, and a strided access beside heavier strided ones is no small part
  // of what that fix saves.
  double KernelSectors = 0;
  for (const MemoryAccess &A : S.Accesses)
    if ((A.Address.Root.Space == MemorySpace::Global ||
         A.Address.Root.Space == MemorySpace::Unknown) &&
        A.Kind != AccessKind::Atomic && !Strided(A))
      KernelSectors += sectorsOf(A) * weightOf(A) * (A.Kind == AccessKind::LoadStore ? 2 : 1);
  for (const MemoryAccess &A : S.Accesses) {
    if (!Strided(A))
      continue;
    clang::SourceLocation Loc = SM.getFileLoc(A.Site->getBeginLoc());
    if (Loc.isInvalid() || !Ctx.isReportable(Loc))
      continue;
    Site &Entry = Sites[Loc.getRawEncoding()];
    if (!Entry.Access.Site) {
      Entry.Access = A;
      Entry.GlobalAccesses = GlobalAccesses;
      Entry.Weight = weightOf(A);
      Entry.KernelSectors = KernelSectors;
      Entry.Measured = Kernel;
      if (auto Pooled = PooledUse.find(&A); Pooled != PooledUse.end())
        Entry.PooledUse = Pooled->second;
    }
    if (!llvm::is_contained(Entry.Kernels, Kernel))
      Entry.Kernels.push_back(Kernel);
  }
}

void AccessUncoalescedCheck::onEndOfTranslationUnit() {
  // One thief, one finding: the accesses of one kernel to one buffer with
  // one stride (velocity[3 * i + 1] read, updated and written back; a
  // stencil's four neighbours) are one pattern with one fix.
  const SourceManager &SM = Ctx.ast().getSourceManager();
  std::vector<Site *> Live;
  for (auto &Entry : Sites) {
    Site &S = Entry.second;
    llvm::erase_if(S.Kernels, [&](const FunctionDecl *K) {
      return NarrowKernels.count(K->getCanonicalDecl()) != 0;
    });
    if (!S.Kernels.empty())
      Live.push_back(&S);
  }
  llvm::stable_sort(Live, [&](const Site *A, const Site *B) {
    return SM.isBeforeInTranslationUnit(SM.getFileLoc(A->Access.Site->getBeginLoc()),
                                        SM.getFileLoc(B->Access.Site->getBeginLoc()));
  });
  // Candidates share their first kernel and their buffer's declaration (or
  // load): a file of thousands of kernels compares only within them.
  auto BucketOf = [&](const Site *S) {
    return std::make_pair(static_cast<const void *>(S->Kernels.front()),
                          bufferOf(S->Access.Address.Root));
  };
  std::map<std::pair<const void *, const void *>, std::vector<const Site *>> Buckets;
  for (const Site *S : Live)
    Buckets[BucketOf(S)].push_back(S);
  auto SamePattern = [&](const Site *A, const Site *B) {
    // Fields of one element of different widths (a bool and two ints of a
    // struct) pooled together are one pattern too.
    return A->Kernels == B->Kernels && sameBuffer(A->Access.Address.Root, B->Access.Address.Root) &&
           (A->Access.SizeBytes == B->Access.SizeBytes || (A->PooledUse > 0 && B->PooledUse > 0)) &&
           A->Access.laneStride() == B->Access.laneStride();
  };
  llvm::DenseSet<const Site *> Done;
  for (const Site *S : Live) {
    if (Done.count(S))
      continue;
    std::vector<const Site *> Others;
    for (const Site *O : Buckets[BucketOf(S)])
      if (O != S && !Done.count(O) && SamePattern(S, O)) {
        Others.push_back(O);
        Done.insert(O);
      }
    Done.insert(S);
    report(*S, Others);
  }
}

/// An access whose extra sectors are at most 1/MinorShare of its kernel's
/// weighted coalesced traffic is a note (as kernel-double-promotion's).
constexpr double MinorShare = 8;

static std::string percent(double F) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  double P = F * 100;
  if (P == static_cast<int64_t>(P))
    OS << static_cast<int64_t>(P) << "%";
  else
    OS << llvm::format("%.1f", P) << "%";
  return OS.str();
}

/// A stride that a kernel's parameter makes symbolic, when every launch
/// passes that parameter from the variable of a host loop that times each
/// launch by itself (`for (k = 1; k < 64; ++k) { start; kernel<<<..>>>(x, k);
/// stop; print(k, bandwidth); }`): the program measures the strided access,
/// it does not suffer it. Why, or empty.
static std::string sweptStride(const AffineForm &Stride, TUFacts &Facts) {
  ASTContext &AST = Facts.values().context();
  const SourceManager &SM = AST.getSourceManager();
  for (const Term &T : Stride.terms())
    for (const Symbol &Sym : T.Symbols) {
      const auto *P = Sym.Kind == SymbolKind::Value
                          ? dyn_cast_or_null<ParmVarDecl>(static_cast<const Decl *>(Sym.Decl))
                          : nullptr;
      const auto *Kernel = P ? dyn_cast_or_null<FunctionDecl>(P->getDeclContext()) : nullptr;
      if (!Kernel || !Kernel->hasAttr<CUDAGlobalAttr>())
        continue;
      std::optional<std::vector<const Expr *>> Args = Facts.values().callArguments(P);
      if (!Args)
        continue;
      const Stmt *Loop = nullptr;
      for (const Expr *Arg : *Args) {
        DynTypedNodeList Parents = AST.getParents(*Arg);
        const auto *Call = Parents.empty() ? nullptr : Parents[0].get<CallExpr>();
        Loop = Call ? Facts.hotPath().timedSweepOver(Call, Arg) : nullptr;
        if (!Loop)
          break;
      }
      if (Loop)
        return "every launch passes '" + P->getNameAsString() + "' from the variable of the loop at line " +
               std::to_string(SM.getExpansionLineNumber(Loop->getBeginLoc())) +
               ", which times each launch by itself: a sweep that measures this strided access";
    }
  return {};
}

void AccessUncoalescedCheck::report(const Site &S, ArrayRef<const Site *> Others) {
  const MemoryAccess &A = S.Access;
  ASTContext &AST = Ctx.ast();
  AffineForm Stride = A.laneStride();
  std::optional<int64_t> C = Stride.asConstant();
  unsigned Size = A.SizeBytes;
  unsigned Ideal = sectorsPerWarp(Size, Size);
  unsigned Sectors = sectorsOf(A);
  double Used = double(32 * Size) / double(32 * Sectors);
  // The thread's other accesses to the same element (p[i].x and p[i].y)
  // use more of the bytes moved: the cache serves them.
  std::string UsedBy = " of the bytes moved are used";
  if (S.PooledUse > Used) {
    Used = S.PooledUse;
    UsedBy = " of the bytes moved are used, with the thread's other accesses to the same element";
  }
  StringRef What = A.Kind == AccessKind::Store ? "store" : A.Kind == AccessKind::LoadStore
                                                               ? "read-modify-write"
                                                               : "load";
  std::string Buffer = A.Address.Root.name();
  std::string Msg = "uncoalesced global " + What.str() + " of '" + Buffer + "': ";
  std::string StrideText;
  if (C) {
    int64_t Abs = *C < 0 ? -*C : *C;
    StrideText = std::to_string(Abs) + " bytes";
    if (const RecordDecl *RD = structOfField(A.Site, Abs, AST)) {
      const auto *ME = cast<MemberExpr>(A.Site->IgnoreParenImpCasts());
      const ValueDecl *Member = ME->getMemberDecl();
      std::string Field = Member->getIdentifier() ? "field '" + Member->getName().str() + "'"
                                                  : std::string("an unnamed field");
      std::string Record = recordName(RD);
      Msg = "uncoalesced global " + What.str() + " of " + Field + " of " + Record + ": ";
      Msg += "consecutive threads are " + StrideText + " apart (one " +
             (Record.front() == '\'' ? Record : std::string("element")) +
             " each), so a warp touches " + std::to_string(Sectors) +
             " sectors of 32 bytes where " + std::to_string(Ideal) + " would do and " +
             percent(Used) + UsedBy + "; a structure of arrays makes the access contiguous";
    } else {
      if (Abs % Size == 0)
        StrideText += " (" + std::to_string(Abs / Size) + " elements)";
      Msg += "consecutive threads are " + StrideText + " apart, so a warp touches " +
             std::to_string(Sectors) + " sectors of 32 bytes where " + std::to_string(Ideal) +
             " would do and " + percent(Used) + UsedBy;
    }
  } else {
    // An access wider than the buffer's elements (a float4 stored through a
    // float *): count the stride in the buffer's elements, as the index is
    // written, and say how wide the access is.
    unsigned Unit = Size;
    const ValueDecl *Root = A.Address.Root.Field ? A.Address.Root.Field : A.Address.Root.Decl;
    if (Root && Size > 0) {
      QualType T = Root->getType().getNonReferenceType();
      QualType Elem = T->isPointerType()   ? T->getPointeeType()
                      : T->isArrayType()   ? QualType(T->getPointeeOrArrayElementType(), 0)
                                           : QualType();
      if (!Elem.isNull() && !Elem->isIncompleteType() && !Elem->isDependentType()) {
        int64_t ElemSize = AST.getTypeSizeInChars(Elem).getQuantity();
        if (ElemSize > 0 && ElemSize < Size && Size % ElemSize == 0 &&
            Stride.dividedExactly(ElemSize))
          Unit = unsigned(ElemSize);
      }
    }
    std::optional<AffineForm> Elements = Stride.dividedExactly(Unit);
    std::string E = Elements ? Elements->str(AST) : Stride.str(AST) + " / " + std::to_string(Unit);
    StrideText = "`" + E + "` elements";
    unsigned MinElements = (32 + Unit - 1) / Unit;
    std::string Wide =
        Unit != Size ? " with " + std::to_string(Size) + "-byte accesses" : std::string();
    Msg += "consecutive threads are `" + E + "` elements apart" + Wide +
           " (a symbolic stride); when `" + E +
           "` >= " + std::to_string(MinElements) + " every lane needs a 32-byte sector of its own, "
           "so " + percent(Used) + " of the bytes moved are used (" + std::to_string(Sectors) +
           " sectors per warp instead of " + std::to_string(Ideal) + ")";
  }
  // A 2D index whose contiguous dimension follows threadIdx.y.
  bool ThreadYContiguous = A.Address.ByteOffset.coefficientOf(Symbol::threadIdx(1)).asConstant() ==
                           std::optional<int64_t>(Size);
  // The counts take a warp to be 32 values of threadIdx.x. A kernel that no
  // launch of this file shows to be that wide may run with 16 x 16 or 8 x 8
  // blocks (launched from another file), whose warps hold 2 or 4 rows of
  // threadIdx.y: each lane's elements of those rows are contiguous and share
  // sectors. Say so, with the counts of such blocks.
  if (ThreadYContiguous && Size > 0 && llvm::none_of(S.Kernels, [&](const FunctionDecl *K) {
        return WideKernels.count(K->getCanonicalDecl()) != 0;
      })) {
    std::string Narrow;
    for (unsigned Width : {16u, 8u}) {
      unsigned Rows = 32 / Width;
      unsigned PerLane = (Rows * Size + 31) / 32;
      unsigned N = std::max(Width * PerLane, Ideal);
      if (N >= Sectors)
        continue;
      std::string Shape = std::to_string(Width) + " x " + std::to_string(Width) + " blocks";
      Narrow += Narrow.empty() ? "; counted for a block at least 32 threads wide: " + Shape +
                                     ", whose warps hold " + std::to_string(Rows) +
                                     " rows of threadIdx.y, touch " + std::to_string(N) + " sectors"
                               : ", " + Shape + " " + std::to_string(N);
    }
    Msg += Narrow;
  }
  if (ThreadYContiguous)
    Msg += "; threadIdx.y walks the contiguous dimension: index it with threadIdx.x, or "
           "stage the tile through shared memory";

  auto D = diag(A.Site->getBeginLoc(), Msg);
  D.range(A.Site->getSourceRange());
  for (const FunctionDecl *K : S.Kernels)
    D.kernel(K);
  if (!A.CallChain.empty())
    D.note(A.CallChain.front()->getBeginLoc(),
           "reached from kernel '" + S.Kernels.front()->getNameAsString() + "' through this call");
  // m[r * cols + c] with r from threadIdx.x and c the loop counter: each
  // thread walks a row of its own.
  for (const Term &T : A.Address.ByteOffset.terms())
    if (T.Symbols.size() == 1 && T.Symbols[0].Kind == SymbolKind::LoopCounter &&
        (T.Coefficient == int64_t(Size) || T.Coefficient == -int64_t(Size))) {
      D.note(static_cast<const Stmt *>(T.Symbols[0].Site)->getBeginLoc(),
             "each thread walks a row of its own in this loop; let threadIdx.x pick the "
             "column and loop over the rows instead");
      break;
    }
  // The others: one note each; their distinct addresses (the same address
  // again is served by the L1) add to the excess the fix removes.
  llvm::SmallVector<AffineForm, 4> Addresses = {A.Address.ByteOffset};
  for (const Site *O : Others) {
    D.note(O->Access.Site->getBeginLoc(),
           "another access of '" + Buffer + "' with the same stride");
    if (!llvm::is_contained(Addresses, O->Access.Address.ByteOffset))
      Addresses.push_back(O->Access.Address.ByteOffset);
  }
  if (!Others.empty())
    D.evidence(evidence::StridedAccesses, int64_t(Addresses.size()));
  // An access that moves a small part of its kernel's memory traffic (an
  // epilogue after a traversal, a set-up read beside the kernel's main
  // loop) saves little once fixed: a note off the hot path.
  double Excess = 0;
  llvm::SmallVector<const Site *, 4> Pattern = {&S};
  Pattern.append(Others.begin(), Others.end());
  for (const Site *X : Pattern) {
    const MemoryAccess &XA = X->Access;
    unsigned XSize = XA.SizeBytes;
    double Extra = double(sectorsOf(XA)) - double(sectorsPerWarp(XSize, XSize));
    Excess += std::max(0.0, Extra) * X->Weight * (XA.Kind == AccessKind::LoadStore ? 2 : 1);
  }
  // Only where one kernel reaches the sites (a helper shared by kernels
  // has a share in each), and it is the one measured.
  bool OneKernel = S.Kernels.size() == 1 && S.Kernels.front() == S.Measured &&
                   llvm::all_of(Others, [&](const Site *O) { return O->Measured == S.Measured; });
  std::string Swept = C ? std::string() : sweptStride(Stride, Ctx.facts());
  if (!Swept.empty())
    D.cold(Swept);
  else if (OneKernel && Excess > 0 && Excess * MinorShare <= S.KernelSectors)
    D.cold("its extra sectors are at most 1/" + std::to_string(int(MinorShare)) +
           " of the traffic of the other, coalesced global accesses of kernel '" +
           S.Kernels.front()->getNameAsString() +
           "' (sectors per warp, counting loop trips; a loop of unknown trip count as " +
           std::to_string(int(UnknownTripWeight)) + "): those dominate");
  D.evidence(evidence::KernelSectorsWeighted, S.KernelSectors).evidence(evidence::AccessWeight, S.Weight);
  D.evidence(evidence::Access, What.str())
      .evidence(evidence::Buffer, Buffer)
      .evidence(evidence::ElementBytes, int64_t(Size))
      .evidence(evidence::SectorsPerRequest, int64_t(Sectors))
      .evidence(evidence::IdealSectorsPerRequest, int64_t(Ideal))
      .evidence(evidence::SectorUseFraction, Used)
      .evidence(evidence::GlobalAccesses, int64_t(S.GlobalAccesses));
  if (C)
    D.evidence(evidence::StrideBytes, *C < 0 ? -*C : *C);
  else
    D.evidenceUnknown(evidence::StrideBytes).evidence(evidence::StrideSymbolic, Stride.str(AST));
}

CUDA_ADVISOR_REGISTER_CHECK(AccessUncoalescedCheck)

} // namespace cuda_advisor::checks
