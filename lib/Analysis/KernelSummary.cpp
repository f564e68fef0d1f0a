//===- KernelSummary.cpp - What a kernel does with memory ------------------===//
#include "cuda-advisor/Analysis/KernelSummary.h"
#include "AccessWalker.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <set>

using namespace clang;

namespace cuda_advisor::analysis {

/// The same parameter of two declarations of one function (a forward
/// declaration's and the definition's).
static bool sameParameter(const ValueDecl *A, const ValueDecl *B) {
  if (A == B)
    return true;
  const auto *PA = dyn_cast_or_null<ParmVarDecl>(A), *PB = dyn_cast_or_null<ParmVarDecl>(B);
  if (!PA || !PB || PA->getFunctionScopeIndex() != PB->getFunctionScopeIndex())
    return false;
  const auto *FA = dyn_cast<FunctionDecl>(PA->getDeclContext());
  const auto *FB = dyn_cast<FunctionDecl>(PB->getDeclContext());
  return FA && FB && FA->getCanonicalDecl() == FB->getCanonicalDecl();
}

const BufferUse *KernelSummary::buffer(const ValueDecl *Param) const {
  for (const BufferUse &B : Buffers)
    if (!B.Root.Field && !B.Root.Load && sameParameter(B.Root.Decl, Param))
      return &B;
  return nullptr;
}

KernelSummaries::KernelSummaries(ASTContext &Ctx, ValueTracker &Values)
    : Ctx(Ctx), Values(Values) {}
KernelSummaries::~KernelSummaries() = default;

/// The element size of the buffer a root names: the pointee of a pointer
/// parameter or field, the element of an array variable.
static unsigned elementSize(const MemoryRoot &R, ASTContext &Ctx) {
  QualType T;
  if (R.Field)
    T = R.Field->getType();
  else if (R.Decl)
    T = R.Decl->getType();
  else if (R.Load)
    T = R.Load->getType();
  if (T.isNull())
    return 0;
  T = T.getNonReferenceType();
  QualType Elem;
  if (const auto *PT = T->getAs<PointerType>())
    Elem = PT->getPointeeType();
  else if (const ArrayType *AT = Ctx.getAsArrayType(T))
    Elem = AT->getElementType();
  else
    return 0;
  while (const ArrayType *AT = Ctx.getAsArrayType(Elem))
    Elem = AT->getElementType();
  if (Elem->isIncompleteType() || Elem->isDependentType() || Elem->isVoidType())
    return 0;
  return static_cast<unsigned>(Ctx.getTypeSizeInChars(Elem).getQuantity());
}

/// The one element index of an element-wise kernel, if it has one.
static void findElementIndex(KernelSummary &S, ASTContext &Ctx) {
  if (S.HasUnknownAccesses)
    return;
  std::optional<AffineForm> Index;
  for (const MemoryAccess &A : S.Accesses) {
    if (A.Address.Root.Space != MemorySpace::Global)
      continue;
    if (A.Kind == AccessKind::Load && A.Address.ByteOffset.isUniform()) {
      if (!llvm::is_contained(S.UniformReads, A.Address.Root))
        S.UniformReads.push_back(A.Address.Root);
      continue;
    }
    unsigned Elem = elementSize(A.Address.Root, Ctx);
    if (Elem == 0 || A.SizeBytes != Elem)
      return; // A field of a struct element, a vector view of a scalar buffer...
    std::optional<AffineForm> I = A.Address.ByteOffset.dividedExactly(Elem);
    if (!I)
      return;
    if (!Index)
      Index = *I;
    else if (!(*Index == *I))
      return;
  }
  if (!Index || Index->coefficientOf(Symbol::threadIdx(0)).asConstant() != std::optional<int64_t>(1))
    return;
  S.ElementIndex = Index;
}

static void collectBuffers(KernelSummary &S) {
  for (const MemoryAccess &A : S.Accesses) {
    if (A.Address.Root.Space != MemorySpace::Global)
      continue;
    auto It = llvm::find_if(S.Buffers, [&](const BufferUse &B) { return B.Root == A.Address.Root; });
    if (It == S.Buffers.end()) {
      S.Buffers.push_back({A.Address.Root});
      It = std::prev(S.Buffers.end());
    }
    It->Read |= A.reads();
    It->Written |= A.writes();
    It->Atomic |= A.Kind == AccessKind::Atomic;
  }
}

const KernelSummary *KernelSummaries::summaryOf(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody() || Def->isDependentContext() || Def->isInvalidDecl())
    return nullptr;
  auto It = Cache.find(Def);
  if (It != Cache.end())
    return It->second.get();
  auto S = std::make_unique<KernelSummary>();
  S->Function = Def;
  walkFunction(Ctx, Values, Def, *S, MaxInlineDepth);
  collectBuffers(*S);
  if (isKernel(Def))
    findElementIndex(*S, Ctx);
  return (Cache[Def] = std::move(S)).get();
}

unsigned sectorsPerWarp(int64_t StrideBytes, unsigned SizeBytes, int64_t PhaseBytes) {
  if (SizeBytes == 0)
    return 0;
  uint64_t Stride = StrideBytes < 0 ? 0 - uint64_t(StrideBytes) : uint64_t(StrideBytes);
  uint64_t Phase = uint64_t(((PhaseBytes % 32) + 32) % 32);
  std::set<uint64_t> Sectors;
  for (uint64_t Lane = 0; Lane < 32; ++Lane) {
    uint64_t First = Lane * Stride + Phase, Last = First + SizeBytes - 1;
    for (uint64_t Sector = First / 32; Sector <= Last / 32; ++Sector)
      Sectors.insert(Sector);
  }
  return static_cast<unsigned>(Sectors.size());
}

BankConflict bankConflict(int64_t StrideX, int64_t StrideY, unsigned ThreadsX, unsigned SizeBytes,
                          unsigned ActiveLanes) {
  BankConflict R;
  if (SizeBytes == 0)
    return R;
  if (ThreadsX == 0 || ThreadsX > 32)
    ThreadsX = 32;
  // A warp's request is served 128 bytes at a time: all 32 lanes for 4-byte
  // (and narrower) accesses, half-warps for 8-byte, quarter-warps for 16-byte.
  unsigned LanesPerPhase = SizeBytes <= 4 ? 32 : std::max(1u, 128u / SizeBytes);
  // Phases whose lanes are all switched off cost nothing, ideally or not.
  unsigned Lanes = std::clamp(ActiveLanes, 1u, 32u);
  unsigned Phases = (Lanes + LanesPerPhase - 1) / LanesPerPhase;
  R.Degree = 0;
  R.Wavefronts = 0;
  R.Ideal = Phases;
  for (unsigned Phase = 0; Phase < Phases; ++Phase) {
    std::set<int64_t> WordsPerBank[32];
    for (unsigned L = Phase * LanesPerPhase; L < std::min((Phase + 1) * LanesPerPhase, Lanes);
         ++L) {
      int64_t Addr = int64_t(L % ThreadsX) * StrideX + int64_t(L / ThreadsX) * StrideY;
      int64_t FirstWord = Addr >= 0 ? Addr / 4 : -((-Addr + 3) / 4);
      int64_t LastWord = (Addr + int64_t(SizeBytes) - 1) >= 0
                             ? (Addr + int64_t(SizeBytes) - 1) / 4
                             : -((-(Addr + int64_t(SizeBytes) - 1) + 3) / 4);
      for (int64_t W = FirstWord; W <= LastWord; ++W)
        WordsPerBank[((W % 32) + 32) % 32].insert(W);
    }
    unsigned Worst = 1;
    for (const auto &Words : WordsPerBank)
      Worst = std::max<unsigned>(Worst, static_cast<unsigned>(Words.size()));
    R.Degree = std::max(R.Degree, Worst);
    R.Wavefronts += Worst;
  }
  return R;
}

} // namespace cuda_advisor::analysis
