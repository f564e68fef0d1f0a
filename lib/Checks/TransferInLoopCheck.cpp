//===- TransferInLoopCheck.cpp - transfer-in-loop --------------------------===//
#include "TransferInLoopCheck.h"
#include "cuda-advisor/Analysis/HostAccess.h"
#include "cuda-advisor/Analysis/HostCode.h"
#include "cuda-advisor/Analysis/HotPath.h"
#include "cuda-advisor/Analysis/KernelSummary.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/StringSet.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_advisor::analysis;

namespace cuda_advisor::checks {

/// What the API does, for the message: "copied", "set", "allocated".
static StringRef verbFor(ApiKind K) {
  switch (K) {
  case ApiKind::Memset:
    return "set";
  case ApiKind::Alloc:
  case ApiKind::HostAlloc:
    return "allocated";
  default:
    return "copied";
  }
}

/// Whether every pointer and the byte count of a copy/memset stay the same
/// from one iteration of Loop to the next.
/// A local std::vector / std::string / thrust::host_vector whose buffer the
/// loop cannot move: inside Loop, V is only used through methods that keep
/// the buffer (data, size, [], begin, end...), in range-for loops, or in
/// CUDA calls.
static bool containerStableIn(const VarDecl *V, const Stmt *Loop, ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    ASTContext &Ctx;
    bool Stable = true;
    Finder(const VarDecl *V, ASTContext &Ctx) : V(V), Ctx(Ctx) {}
    bool keepsBuffer(const DynTypedNode &Parent) {
      if (const auto *ME = Parent.get<MemberExpr>()) {
        const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
        if (!MD)
          return false;
        if (MD->getOverloadedOperator() == OO_Subscript)
          return true;
        return MD->getIdentifier() &&
               llvm::is_contained({"data", "size", "begin", "end", "cbegin", "cend", "front",
                                   "back", "at", "empty", "capacity", "c_str", "length"},
                                  MD->getName());
      }
      if (const auto *OC = Parent.get<CXXOperatorCallExpr>())
        return OC->getOperator() == OO_Subscript;
      if (Parent.get<CXXForRangeStmt>() || Parent.get<VarDecl>())
        return Parent.get<CXXForRangeStmt>() ||
               Parent.get<VarDecl>()->getType()->isReferenceType();
      if (const auto *MT = Parent.get<MaterializeTemporaryExpr>())
        return MT->getType().isConstQualified();
      if (const auto *IC = Parent.get<ImplicitCastExpr>())
        return IC->getCastKind() == CK_NoOp && IC->getType().isConstQualified();
      return false;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (DRE->getDecl() != V || !Stable)
        return Stable;
      DynTypedNodeList Parents = Ctx.getParents(*DRE);
      if (Parents.empty() || !keepsBuffer(Parents[0]))
        Stable = false;
      return Stable;
    }
  } F(V, Ctx);
  F.TraverseStmt(const_cast<Stmt *>(Loop));
  return F.Stable;
}

/// v.data(), &v[0], v.size() * sizeof(T) for a container the loop keeps:
/// the same value on every iteration, whatever ValueTracker concludes from
/// the non-const data() overload.
static bool stableContainerOperand(const Expr *E, const Stmt *Loop, ASTContext &Ctx) {
  E = E->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Mul) {
    const Expr *L = BO->getLHS()->IgnoreParenCasts(), *R = BO->getRHS()->IgnoreParenCasts();
    bool LC = L->isEvaluatable(Ctx), RC = R->isEvaluatable(Ctx);
    if (LC && RC)
      return true;
    return (LC && stableContainerOperand(R, Loop, Ctx)) ||
           (RC && stableContainerOperand(L, Loop, Ctx));
  }
  const Expr *Object = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && MD->getIdentifier() &&
        llvm::is_contained({"data", "size", "c_str", "length"}, MD->getName()))
      Object = MC->getImplicitObjectArgument();
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf) {
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(UO->getSubExpr()->IgnoreParens());
        OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2 &&
        OC->getArg(1)->isEvaluatable(Ctx))
      Object = OC->getArg(0);
  }
  const auto *DRE = Object ? dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts()) : nullptr;
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->isLocalVarDeclOrParm() || V->isStaticLocal())
    return false;
  const auto *RD = V->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return false;
  StringRef N = RD->getName();
  bool Container = (RD->isInStdNamespace() && (N == "vector" || N == "basic_string")) ||
                   (N == "host_vector" &&
                    StringRef(RD->getQualifiedNameAsString()).starts_with("thrust::"));
  return Container && containerStableIn(V, Loop, Ctx);
}

static Invariance operandInvariance(const CallExpr *Call, const ApiInfo &Api, const Stmt *Loop,
                                    ValueTracker &VT) {
  std::optional<unsigned> CountArg = byteCountArgument(Api.Name);
  Invariance Result = Invariance::Invariant;
  bool Symbol = StringRef(Api.Name).contains("Symbol");
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    bool IsSymbol = Symbol && ((Api.Name.find("ToSymbol") != std::string::npos && I == 0) ||
                               (Api.Name.find("FromSymbol") != std::string::npos && I == 1));
    if (IsSymbol)
      continue; // A __device__ variable: its address is fixed.
    bool Relevant = Arg->IgnoreParenImpCasts()->getType()->isPointerType() ||
                    Arg->getType()->isPointerType() || (CountArg && *CountArg == I);
    if (!Relevant)
      continue;
    Invariance Inv = invarianceIn(Arg, Loop, VT);
    if (Inv != Invariance::Invariant && stableContainerOperand(Arg, Loop, VT.context()))
      Inv = Invariance::Invariant;
    Result = combine(Result, Inv);
  }
  return Result;
}

namespace {

/// The fix a copy in a loop calls for.
enum class CopyFix {
  None,            ///< Nothing to suggest (device-to-device, unknown direction).
  HoistBefore,     ///< The same upload every iteration: do it once before the loop.
  HoistAfter,      ///< The same download every iteration: do it once after the loop.
  RestoreOnDevice, ///< The same upload, because the loop's kernels overwrite it.
  Batch,           ///< Consecutive chunks: one copy of all of them.
  Batch2D,         ///< Equally spaced chunks: one cudaMemcpy2D.
  Overlap,         ///< Different data each time: overlap copies with computation.
};

StringRef fixName(CopyFix F) {
  switch (F) {
  case CopyFix::None:
    return "none";
  case CopyFix::HoistBefore:
    return "hoist-before";
  case CopyFix::HoistAfter:
    return "hoist-after";
  case CopyFix::RestoreOnDevice:
    return "restore-on-device";
  case CopyFix::Batch:
    return "batch";
  case CopyFix::Batch2D:
    return "batch-2d";
  case CopyFix::Overlap:
    return "overlap";
  }
  return "none";
}

/// The distinct streams (by spelling) that the asynchronous copies directly
/// in Loop name: a pipeline unrolled by hand over two or more streams
/// (`cudaMemcpyAsync(d0, h + i, n, H2D, s0); ... cudaMemcpyAsync(d1, h + i + n,
/// n, H2D, s1);`) is the overlapped form of its chunks' copies.
static unsigned asyncCopyStreams(const Stmt *Loop) {
  llvm::StringSet<> Streams;
  forEachCallInLoops(Loop, [&](const CallExpr *C, ArrayRef<const Stmt *> Loops) {
    if (Loops.empty() || Loops.front() != Loop)
      return;
    std::optional<ApiInfo> Api = classifyApiCall(C);
    if (!Api || Api->Kind != ApiKind::CopyAsync)
      return;
    if (const Expr *S = streamArgument(C, *Api)) {
      std::string Text;
      llvm::raw_string_ostream OS(Text);
      S->IgnoreParenImpCasts()->printPretty(OS, nullptr, PrintingPolicy(LangOptions()));
      if (Text != "0" && Text != "nullptr" && Text != "NULL" && Text != "cudaStreamDefault")
        Streams.insert(Text);
    }
  });
  return Streams.size();
}

/// The index of an element access: `a[i]`, `v[i]` (operator[]), `v.at(i)`.
static const Expr *elementIndex(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return AS->getIdx();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
      OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
    return OC->getArg(1);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
      MC && MC->getMethodDecl() && MC->getMethodDecl()->getIdentifier() &&
      MC->getMethodDecl()->getName() == "at" && MC->getNumArgs() == 1)
    return MC->getArg(0);
  return nullptr;
}

/// A stream argument that names another stream on each iteration:
/// `streams[i % n]`, `streams.at(i)`, `s` assigned in the loop.
bool changesPerIteration(const Expr *E, const Stmt *Loop, ValueTracker &VT) {
  const Expr *Index = elementIndex(E);
  return invarianceIn(Index ? Index : E->IgnoreParenImpCasts(), Loop, VT) == Invariance::Varies;
}

/// The per-iteration stride of a copy operand, in bytes when constant.
struct Stride {
  bool Known = false;
  std::optional<int64_t> Bytes;
  const Expr *Elements = nullptr; ///< Symbolic: Elements * ElementSize bytes.
  int64_t ElementSize = 0;
  bool invariant() const { return Known && Bytes && *Bytes == 0; }
};

Stride strideOf(const Expr *E, const Stmt *Loop, ValueTracker &VT) {
  Stride S;
  if (!E)
    return S;
  if (std::optional<PointerStride> P = pointerStrideIn(E, Loop, VT)) {
    S.Known = true;
    S.Bytes = P->Bytes;
    S.Elements = P->Elements;
    S.ElementSize = P->ElementSize;
  }
  return S;
}

/// `count * sizeof(T)` (either order) with count the same value as Elements
/// and sizeof(T) == ElementSize: a symbolic size equal to a symbolic stride.
bool sizeMatchesStride(const Expr *Size, const Stride &S, ValueTracker &VT) {
  if (!Size || !S.Elements)
    return false;
  const auto *Mul = dyn_cast<BinaryOperator>(Size->IgnoreParenImpCasts());
  if (!Mul || Mul->getOpcode() != BO_Mul)
    return false;
  for (auto [Count, Elem] : {std::pair{Mul->getLHS(), Mul->getRHS()},
                             std::pair{Mul->getRHS(), Mul->getLHS()}}) {
    std::optional<int64_t> E = VT.evaluateInt(Elem);
    if (E && *E == S.ElementSize && sameValue(Count, S.Elements, VT))
      return true;
  }
  return false;
}

} // namespace

TransferInLoopCheck::TransferInLoopCheck(StringRef Id, Severity Level, CheckContext &Ctx)
    : Check(Id, Level, Ctx), MaxCallDepth(option("MaxCallDepth")) {}


void TransferInLoopCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(functionDecl(isDefinition()).bind("function"), this);
}

/// cudaMallocAsync, cudaMallocFromPoolAsync and cudaFreeAsync take memory
/// from a stream-ordered pool and give it back to it: no device-wide
/// synchronization, no call into the driver's allocator once the pool holds
/// the memory. In a loop they are the fix for per-iteration allocation, not
/// the problem.
static bool isStreamOrderedAllocation(const ApiInfo &Api) {
  return Api.Name == "cudaMallocAsync" || Api.Name == "cudaMallocFromPoolAsync" ||
         Api.Name == "cudaFreeAsync";
}

/// Allocates or frees (device, host or pinned memory).
static bool isAllocation(ApiKind K) {
  return K == ApiKind::Alloc || K == ApiKind::HostAlloc || K == ApiKind::Free ||
         K == ApiKind::HostFree;
}

void TransferInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!FD || !FD->hasBody() || !mayRunOnHost(FD) || FD->isDependentContext())
    return;
  forEachCallInLoops(FD->getBody(), [&](const CallExpr *Call, ArrayRef<const Stmt *> Loops) {
    if (Loops.empty())
      return;
    const Stmt *Loop = Loops.back();
    if (std::optional<ApiInfo> Api = classifyApiCall(Call)) {
      if (isTransferOrAllocation(Api->Kind) && !isDeviceSideWork(Call, *Api) &&
          !isStreamOrderedAllocation(*Api))
        reportDirect(Call, *Api, Loops, FD);
      return;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Ctx.isLibraryCode(Callee))
      return;
    const std::vector<Reached> &Reach = transfersReachedFrom(Callee, 1);
    if (Reach.empty())
      return;
    // A helper that allocates, copies and frees: the copies are the cost
    // worth naming (and they run each time even when the allocation is the
    // set-up of another object on each iteration).
    auto Copy = llvm::find_if(Reach, [](const Reached &R) { return !isAllocation(R.Api.Kind); });
    reportIndirect(Call, Callee, Copy != Reach.end() ? *Copy : Reach.front(), Loop);
  });
}

const std::vector<TransferInLoopCheck::Reached> &
TransferInLoopCheck::transfersReachedFrom(const FunctionDecl *FD, unsigned Depth) {
  static const std::vector<Reached> None;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody() || !mayRunOnHost(Def))
    return None;
  auto It = Summaries.find(Def);
  if (It != Summaries.end())
    return It->second;
  Summaries[Def]; // In progress: recursion sees an empty summary.
  std::vector<Reached> Found;
  forEachCallInLoops(Def->getBody(), [&](const CallExpr *Call, ArrayRef<const Stmt *>) {
    // `static T *p; if (!p) cudaMalloc(&p, n);`: once per run, however often
    // the helper runs.
    if (insideLazyInitialization(Call, Def->getBody(), Ctx.ast()))
      return;
    if (std::optional<ApiInfo> Api = classifyApiCall(Call)) {
      if (isTransferOrAllocation(Api->Kind) && !isDeviceSideWork(Call, *Api) &&
          !isStreamOrderedAllocation(*Api))
        Found.push_back({Call, *Api});
      return;
    }
    if (Depth >= MaxCallDepth)
      return;
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (!Ctx.isLibraryCode(Callee))
        for (const Reached &R : transfersReachedFrom(Callee, Depth + 1))
          Found.push_back(R);
  });
  return Summaries[Def] = std::move(Found);
}

bool TransferInLoopCheck::isDeviceSideWork(const CallExpr *Call, const ApiInfo &Api) {
  if (Api.Kind == ApiKind::Memset) {
    // cudaMemset waits for the host only on pinned or managed memory; on
    // device memory (or memory of unknown origin, which a memset of the
    // runtime requires to be device memory) it is a fill kernel: a reset of
    // what the loop's kernels accumulate, or a cache flush between timed runs.
    MemoryKind K =
        Call->getNumArgs() ? Ctx.facts().provenance().of(Call->getArg(0)).Kind
                           : MemoryKind::Unknown;
    return K != MemoryKind::Pinned && K != MemoryKind::Pageable && K != MemoryKind::Managed;
  }
  if (Api.Kind != ApiKind::Copy && Api.Kind != ApiKind::CopyAsync)
    return false;
  // Peer copies cross the interconnect between GPUs: transfers.
  if (StringRef(Api.Name).contains("Peer"))
    return false;
  return directionOf(Call, Api, Ctx.ast(), Ctx.facts().provenance()) == CopyKind::DeviceToDevice;
}

/// The advice for a copy that runs on every iteration of Loop.
struct CopyAdvice {
  CopyFix Fix = CopyFix::None;
  std::string Text; ///< Appended to the message after "; ".
  std::optional<CopyKind> Direction;
  std::optional<int64_t> StrideBytes, TotalBytes;
};

CopyAdvice TransferInLoopCheck::adviseCopy(const CallExpr *Call, const ApiInfo &Api,
                                           const Stmt *Loop, std::optional<int64_t> Bytes,
                                           Invariance Inv) {
  ValueTracker &VT = Ctx.facts().values();
  ProvenanceAnalysis &PA = Ctx.facts().provenance();
  CopyAdvice A;
  A.Direction = directionOf(Call, Api, Ctx.ast(), PA);
  CopyOperands O = copyOperands(Api.Name);
  const Expr *Dst = argAt(Call, O.Dst), *Src = argAt(Call, O.Src);
  std::optional<int64_t> Trips = constantTripCount(Loop, VT);
  bool Up = A.Direction == CopyKind::HostToDevice, Down = A.Direction == CopyKind::DeviceToHost;
  const char *Where = Up ? "before" : "after";

  if (Inv == Invariance::Invariant) {
    std::string Same = "its source, destination and size do not change in the loop";
    if (!Up && !Down) {
      A.Text = Same;
      return A;
    }
    // The host side must not change (uploads) or be needed (downloads)
    // between iterations; a round trip through the same host buffer is fine.
    const ValueDecl *HostRoot = PA.rootOf(Up ? Src : Dst);
    if (!HostRoot)
      return A;
    // The host reads what the loop copies back, and uploads it again unchanged.
    if (Up && hostTouches(Loop, HostRoot, PA)) {
      const ValueDecl *DevRoot = Dst ? PA.rootOf(Dst) : nullptr;
      if (DevRoot && staleUpload(Call, Loop, DevRoot, HostRoot)) {
        A.Fix = CopyFix::HoistBefore;
        A.Text = Same + ", and the loop copies the device buffer back into the source while "
                        "the host only reads it: from the second iteration on, the upload "
                        "sends the device what it already holds; hoist it before the loop";
        if (Trips && Bytes) {
          A.TotalBytes = (*Trips - 1) * *Bytes;
          A.Text += " (" + std::to_string(*Trips - 1) + " of its " + std::to_string(*Trips) +
                    " copies, " + formatBytes(*A.TotalBytes) + ", are redundant)";
        }
        return A;
      }
    }
    // An upload is stale only when the host writes its source; a download,
    // when the host uses the result (reads it, or hands it on).
    if (Up ? hostWrites(Loop, HostRoot, PA, Ctx.ast()) : hostTouches(Loop, HostRoot, PA)) {
      A.Fix = CopyFix::Overlap;
      A.Text = Up ? Same + ", but the host writes the source in the loop: overlap the copy with "
                           "computation (cudaMemcpyAsync from pinned memory on a second stream)"
                  : Same + ", but the host reads the result in the loop: copy back only what it "
                           "needs, or overlap the copy with computation (cudaMemcpyAsync to "
                           "pinned memory on a second stream)";
      return A;
    }
    if (Up) {
      // The device side: a pointer, or the __device__ / __constant__ symbol.
      const ValueDecl *DevRoot = Dst ? PA.rootOf(Dst) : nullptr;
      if (!Dst && Call->getNumArgs() > 0)
        if (const auto *DRE = dyn_cast<DeclRefExpr>(Call->getArg(0)->IgnoreParenCasts()))
          DevRoot = DRE->getDecl();
      // Kernels cannot write __constant__ memory.
      bool ConstantMemory = DevRoot && DevRoot->hasAttr<CUDAConstantAttr>();
      auto Written = writtenByKernels(Loop, PA, Ctx.facts().kernels());
      bool Overwritten =
          !ConstantMemory && (!DevRoot || !Written || Written->count(DevRoot));
      if (Overwritten && !roundTrip(Loop, DevRoot, HostRoot)) {
        A.Fix = CopyFix::RestoreOnDevice;
        A.Text = Same + ", but the loop's kernels may write the destination: if the copy "
                        "restores it, keep a copy on the device and restore it with a "
                        "device-to-device cudaMemcpy";
        return A;
      }
    }
    A.Fix = Up ? CopyFix::HoistBefore : CopyFix::HoistAfter;
    A.Text = Same + ": hoist it " + Where + " the loop";
    if (Trips && Bytes) {
      A.TotalBytes = *Trips * *Bytes;
      A.Text += " (" + std::to_string(*Trips) + " iterations move " + formatBytes(*A.TotalBytes) +
                " in all)";
    }
    return A;
  }

  // Consecutive or equally spaced chunks, one per iteration.
  const Expr *Size = argAt(Call, byteCountArgument(Api.Name));
  if ((Up || Down) && Size && invarianceIn(Size, Loop, VT) == Invariance::Invariant) {
    Stride SD = strideOf(Dst, Loop, VT), SS = strideOf(Src, Loop, VT);
    const Stride &Host = Up ? SS : SD, &Dev = Up ? SD : SS;
    if (SD.Known && SS.Known && !Host.invariant() && !Dev.invariant()) {
      bool Contiguous = false;
      if (Bytes && SD.Bytes && SS.Bytes && *SD.Bytes == *Bytes && *SS.Bytes == *Bytes)
        Contiguous = true;
      else if (!Bytes && sizeMatchesStride(Size, SD, VT) && sizeMatchesStride(Size, SS, VT))
        Contiguous = true;
      if (Contiguous) {
        A.Fix = CopyFix::Batch;
        A.StrideBytes = Bytes;
        A.Text = "the iterations copy consecutive chunks";
        if (Bytes)
          A.Text += " of " + formatBytes(*Bytes);
        A.Text += ": batch them into one copy";
        if (Trips && Bytes) {
          A.TotalBytes = *Trips * *Bytes;
          A.Text += " of " + formatBytes(*A.TotalBytes);
        }
        A.Text += std::string(" ") + Where + " the loop";
        return A;
      }
      if (Bytes && SD.Bytes && SS.Bytes && *SD.Bytes >= *Bytes && *SS.Bytes >= *Bytes &&
          *SD.Bytes > 0 && *SS.Bytes > 0) {
        A.Fix = CopyFix::Batch2D;
        A.StrideBytes = *Host.Bytes;
        A.Text = "the iterations copy " + formatBytes(*Bytes) + " chunks " +
                 formatBytes(*Host.Bytes) + " apart: batch them into one cudaMemcpy2D (pitch " +
                 formatBytes(*SD.Bytes) + " on the destination, " + formatBytes(*SS.Bytes) +
                 " on the source) " + Where + " the loop";
        if (Trips)
          A.TotalBytes = *Trips * *Bytes;
        return A;
      }
    }
  }
  if (!Up && !Down)
    return A;
  A.Fix = CopyFix::Overlap;
  const char *Overlap = "overlap the copies with computation (cudaMemcpyAsync from pinned "
                        "memory on several streams)";
  Stride SD = strideOf(Dst, Loop, VT), SS = strideOf(Src, Loop, VT);
  auto Moves = [](const Stride &S) { return S.Known && !S.invariant(); };
  if (Moves(SD) || Moves(SS)) {
    A.Text = std::string("each iteration copies different data: ") + Overlap;
    return A;
  }
  const ValueDecl *HostRoot = PA.rootOf(Up ? Src : Dst);
  if (Up && HostRoot && Dst && hostTouches(Loop, HostRoot, PA))
    if (const ValueDecl *DevRoot = PA.rootOf(Dst);
        DevRoot && staleUpload(Call, Loop, DevRoot, HostRoot)) {
      A.Fix = CopyFix::HoistBefore;
      A.Text = "the loop copies the device buffer back into the source while the host only "
               "reads it: from the second iteration on, the upload sends the device what it "
               "already holds; hoist it before the loop";
      return A;
    }
  if (HostRoot &&
      (Up ? hostWrites(Loop, HostRoot, PA, Ctx.ast()) : hostTouches(Loop, HostRoot, PA))) {
    A.Text = Up ? std::string("the host writes the source in the loop: ") + Overlap
                : std::string("the host reads the result in the loop: copy back only what it "
                              "needs, or ") + Overlap;
    return A;
  }
  A.Text = std::string("if each iteration needs new data, ") + Overlap;
  return A;
}

/// The loop also copies DevRoot back into HostRoot: `h -> d, kernel(d), d -> h`.
bool TransferInLoopCheck::roundTrip(const Stmt *Loop, const ValueDecl *DevRoot,
                                    const ValueDecl *HostRoot) {
  if (!DevRoot || !HostRoot)
    return false;
  bool Found = false;
  ProvenanceAnalysis &PA = Ctx.facts().provenance();
  forEachCallInLoops(Loop, [&](const CallExpr *C, ArrayRef<const Stmt *>) {
    std::optional<ApiInfo> Api = classifyApiCall(C);
    if (!Api || (Api->Kind != ApiKind::Copy && Api->Kind != ApiKind::CopyAsync))
      return;
    if (directionOf(C, *Api, Ctx.ast(), PA) != CopyKind::DeviceToHost)
      return;
    CopyOperands O = copyOperands(Api->Name);
    const Expr *Dst = argAt(C, O.Dst), *Src = argAt(C, O.Src);
    if (Dst && Src && PA.rootOf(Dst) == HostRoot && PA.rootOf(Src) == DevRoot)
      Found = true;
  });
  return Found;
}

/// Whether the loop also allocates into the pointer Freed: cudaMalloc(&p)
/// ... cudaFree(p) in one iteration, also through a helper given &p.
/// E is a pointer variable (through casts) that Loop neither assigns nor
/// takes the address of: the variable, or null.
static const VarDecl *fixedPointer(const Expr *E, const Stmt *Loop) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->getType()->isPointerType())
    return nullptr;
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    bool Changed = false;
    explicit Finder(const VarDecl *V) : V(V) {}
    bool names(const Expr *E) {
      const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
      return D && D->getDecl() == V;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->isAssignmentOp() && names(BO->getLHS()))
        Changed = true;
      return !Changed;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
          names(UO->getSubExpr()))
        Changed = true;
      return !Changed;
    }
  } F(V);
  F.TraverseStmt(const_cast<Stmt *>(Loop));
  return F.Changed ? nullptr : V;
}

bool TransferInLoopCheck::staleUpload(const CallExpr *Call, const Stmt *Loop,
                                      const ValueDecl *DevRoot, const ValueDecl *HostRoot) {
  ProvenanceAnalysis &PA = Ctx.facts().provenance();
  if (!isa<VarDecl>(HostRoot) || hostWrites(Loop, HostRoot, PA, Ctx.ast()))
    return false;
  std::optional<ApiInfo> UpApi = classifyApiCall(Call);
  if (!UpApi)
    return false;
  CopyOperands UpO = copyOperands(UpApi->Name);
  const Expr *UpDst = argAt(Call, UpO.Dst), *UpSrc = argAt(Call, UpO.Src);
  const SourceManager &SM = Ctx.sourceManager();
  auto Before = [&](const Stmt *A, const Stmt *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  };
  // The copy back: after the upload, device to host, between the same roots.
  const CallExpr *Back = nullptr;
  forEachCallInLoops(Loop, [&](const CallExpr *C, ArrayRef<const Stmt *>) {
    std::optional<ApiInfo> Api = classifyApiCall(C);
    if (Back || !Api || (Api->Kind != ApiKind::Copy && Api->Kind != ApiKind::CopyAsync) ||
        !Before(Call, C) || directionOf(C, *Api, Ctx.ast(), PA) != CopyKind::DeviceToHost)
      return;
    CopyOperands O = copyOperands(Api->Name);
    const Expr *Dst = argAt(C, O.Dst), *Src = argAt(C, O.Src);
    // The same host and device pointer variables as the upload's, which the
    // loop does not move (chunks that advance are new data every time).
    if (Dst && Src && UpSrc && UpDst && fixedPointer(Dst, Loop) == fixedPointer(UpSrc, Loop) &&
        fixedPointer(Src, Loop) == fixedPointer(UpDst, Loop) && fixedPointer(Dst, Loop) &&
        fixedPointer(Src, Loop) && PA.rootOf(Dst) == HostRoot && PA.rootOf(Src) == DevRoot)
      Back = C;
  });
  if (!Back)
    return false;
  // Nothing after the copy back may change the device buffer (a launch or an
  // API call that takes it), nor may anything the loop calls be unknown.
  bool Changed = false;
  forEachCallInLoops(Loop, [&](const CallExpr *C, ArrayRef<const Stmt *>) {
    if (Changed || C == Back || !Before(Back, C))
      return;
    for (const Expr *Arg : C->arguments())
      if (PA.rootOf(Arg) == DevRoot)
        Changed = true;
    if (classifyHostCall(C) == HostCallKind::LibraryWork)
      Changed = true;
  });
  return !Changed;
}

/// The copy's host buffer is a pointer variable that the loop swaps with
/// another one (`std::swap(front, back)`): double buffering, where an async
/// copy fills or drains one buffer while the host works on the other (llm.c's
/// device_to_file and file_to_device stream checkpoints this way).
static bool hostBufferSwapped(const CallExpr *Call, const Expr *HostSide, const Stmt *Loop) {
  const auto *DRE = HostSide ? dyn_cast<DeclRefExpr>(HostSide->IgnoreParenCasts()) : nullptr;
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->getType()->isPointerType())
    return false;
  auto Names = [&](const Expr *E) {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return R && R->getDecl() == V;
  };
  llvm::SmallVector<const Stmt *, 32> Work{Loop};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *C = dyn_cast<CallExpr>(S); C && C != Call) {
      const FunctionDecl *F = C->getDirectCallee();
      if (F && F->getIdentifier() && F->getName() == "swap" && C->getNumArgs() == 2 &&
          (Names(C->getArg(0)) || Names(C->getArg(1))))
        return true;
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return false;
}

/// A cudaFree (or another free of the runtime) of Buffer somewhere in Loop.
static bool freedInLoop(const Expr *Buffer, const Stmt *Loop, ValueTracker &VT) {
  llvm::SmallVector<const Stmt *, 32> Work{Loop};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *C = dyn_cast<CallExpr>(S); C && C->getNumArgs() > 0)
      if (std::optional<ApiInfo> A = classifyApiCall(C);
          A && (A->Kind == ApiKind::Free || A->Kind == ApiKind::HostFree) &&
          sameValue(C->getArg(0), Buffer, VT))
        return true;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return false;
}

const Expr *TransferInLoopCheck::iterationLocalBuffer(const CallExpr *Call, const ApiInfo &Api,
                                                      const Stmt *Loop) {
  CopyOperands O = copyOperands(Api.Name);
  for (std::optional<unsigned> Side : {O.Dst, O.Src})
    if (const Expr *E = argAt(Call, Side);
        E && allocatedInLoop(E, Loop) && freedInLoop(E, Loop, Ctx.facts().values()))
      return E;
  return nullptr;
}

bool TransferInLoopCheck::allocatedInLoop(const Expr *Freed, const Stmt *Loop) {
  ValueTracker &VT = Ctx.facts().values();
  auto IntoFreed = [&](const Expr *Target) {
    const auto *U = dyn_cast<UnaryOperator>(Target->IgnoreParenCasts());
    return U && U->getOpcode() == UO_AddrOf && sameValue(U->getSubExpr(), Freed, VT);
  };
  bool Found = false;
  forEachCallInLoops(Loop, [&](const CallExpr *C, ArrayRef<const Stmt *>) {
    if (Found || C->getNumArgs() == 0)
      return;
    if (std::optional<ApiInfo> A = classifyApiCall(C)) {
      Found = (A->Kind == ApiKind::Alloc || A->Kind == ApiKind::HostAlloc) && IntoFreed(C->getArg(0));
      return;
    }
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee || !llvm::any_of(C->arguments(), IntoFreed))
      return;
    for (const Reached &R : transfersReachedFrom(Callee, 1))
      if (R.Api.Kind == ApiKind::Alloc || R.Api.Kind == ApiKind::HostAlloc)
        Found = true;
  });
  return Found;
}

/// `done` in `copy(done, dDone, sizeof(bool))`: a variable (or parameter)
/// pointing to a scalar, named as it is.
static const VarDecl *pointerToScalar(const Expr *E) {
  const auto *DRE = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenCasts()) : nullptr;
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->getType()->isPointerType())
    return nullptr;
  QualType Pointee = V->getType()->getPointeeType();
  return Pointee->isScalarType() && !Pointee->isPointerType() ? V : nullptr;
}

/// `do { stop = false; copy(dStop, &stop); kernels; copy(&stop, dStop); } while (stop);`:
/// a few bytes of a host scalar that decides whether the loop goes on. Such a
/// copy is the loop's termination protocol (the GPU reports whether it is
/// done): what it costs is the wait for the GPU, not the bytes, so hoisting,
/// batching or overlapping it is no advice.
/// The flag may also be reached through a pointer to it, a parameter or
/// variable that the loop tests dereferenced (`while (!*done)` with
/// `copy(done, dDone)`) and that stays the same in the loop (a pointer
/// walking a buffer in 64-byte steps is no flag).
static bool isLoopControlCopy(const CallExpr *Call, const ApiInfo &Api, const Stmt *Loop,
                              std::optional<int64_t> Bytes, ValueTracker &VT) {
  if (!Bytes || *Bytes > ScalarCopyBytes)
    return false;
  CopyOperands O = copyOperands(Api.Name);
  for (std::optional<unsigned> Side : {O.Dst, O.Src}) {
    const Expr *E = argAt(Call, Side);
    if (const VarDecl *V = addressedScalar(E); V && controlsLoop(V, Loop))
      return true;
    if (const VarDecl *P = pointerToScalar(E);
        P && controlsLoop(P, Loop) && invarianceIn(E, Loop, VT) == Invariance::Invariant)
      return true;
  }
  return false;
}

/// The advice for a loop-control copy (above), by direction.
static std::string loopControlAdvice(std::optional<CopyKind> Direction) {
  if (Direction == CopyKind::DeviceToHost)
    return "the loop tests the value it copies back, so every iteration waits for the GPU to "
           "finish and the GPU idles until the next launch: test it every few iterations, or "
           "keep the loop on the GPU";
  if (Direction == CopyKind::HostToDevice)
    return "it resets the value the loop tests, and a copy from pageable memory first waits "
           "for the GPU's earlier work: reset it with cudaMemsetAsync or in the kernel";
  return "";
}

std::string TransferInLoopCheck::fewFixedIterations(ArrayRef<const Stmt *> Loops,
                                                    const FunctionDecl *FD,
                                                    std::optional<int64_t> Bytes) {
  // A toy program's set-up: `for (i = 0; i < 4; ++i)` copying a 32-byte row
  // of a 4x4 matrix in main. Every loop around the call counts a fixed
  // number of iterations, at most 64 in all, and they move at most 1 MiB
  // together: a few dozen calls of microseconds each, once per run. A
  // runtime bound, a bigger total, or a function called in a loop (each
  // call runs the loop again) keeps the finding.
  constexpr int64_t MaxCalls = 64, MaxBytes = int64_t(1) << 20;
  if (!Bytes || *Bytes <= 0 || Loops.empty())
    return {};
  ValueTracker &VT = Ctx.facts().values();
  int64_t Calls = 1;
  for (const Stmt *L : Loops) {
    std::optional<int64_t> Trips = constantTripCount(L, VT);
    if (!Trips || *Trips <= 0 || *Trips > MaxCalls / Calls)
      return {};
    Calls *= *Trips;
  }
  if (*Bytes > MaxBytes / Calls || !Ctx.facts().hotPath().runsOnce(FD))
    return {};
  // A loop that launches work is the program's computation, however small
  // (`for (it < 20) { upload; kernel; download; }`): its copies are what the
  // check is about.
  bool Launches = false;
  forEachCallInLoops(Loops.front(), [&](const CallExpr *C, ArrayRef<const Stmt *>) {
    HostCallKind K = classifyHostCall(C);
    Launches = Launches || getLaunchSite(C) || K == HostCallKind::Launch ||
               K == HostCallKind::LibraryWork;
  });
  if (Launches)
    return {};
  std::string Loop = Loops.size() == 1 ? "its loop runs a fixed " : "its loops run a fixed ";
  return Loop + std::to_string(Calls) + " times in all, in code that runs once per run (" +
         formatBytes(*Bytes) + " each time, " + formatBytes(Calls * *Bytes) +
         " in all): a one-time cost of microseconds";
}

/// Why a call in a periodic branch of its loop (drawing every 10th step, a
/// log line every `printEvery` iterations) is off the hot path: it is the
/// program's periodic output, a tenth or less of the iterations. A period
/// below 8 (every other iteration) is still the loop's traffic.
/// "DRAW_RATE = 10", "printEvery", "10".
static std::string periodText(const Periodic &Per) {
  std::string K = Per.Period;
  if (Per.Value && K != std::to_string(*Per.Value))
    K += " = " + std::to_string(*Per.Value);
  return K;
}

static std::string periodicReason(const std::optional<Periodic> &Per) {
  if (!Per || (Per->Value && *Per->Value < 8))
    return {};
  return "it runs on one iteration in " + periodText(*Per) + " (the branch at line " +
         std::to_string(Per->Line) +
         "): periodic output (drawing, logging, a checkpoint), not the loop's per-iteration "
         "traffic";
}

/// An iteration that reads a buffer's data as text, one value at a time,
/// spends tens of nanoseconds a number on it: more than copying that buffer
/// to or from the GPU, or allocating and freeing its device twin, costs (a
/// lab's loop over the test cases of an input file). Call is a copy of such
/// a buffer, or the allocation or free of a device buffer that the loop
/// copies to or from one. Printing is left out: it is usually a debug
/// switch (`for (i = 0; verbose && i < n; ++i) printf(...)`).
std::string TransferInLoopCheck::parsesText(const CallExpr *Call, const ApiInfo &Api,
                                            const Stmt *Loop) {
  std::vector<analysis::TextElements> Text = analysis::textBuffersPerValue(Loop, Ctx.facts().values());
  if (Text.empty())
    return {};
  const analysis::TextElements *Found = analysis::textBufferMovedBy(Call, Api, Loop, Text);
  if (!Found)
    return {};
  const SourceManager &SM = Ctx.sourceManager();
  std::string How = "the input stream's >>";
  if (const FunctionDecl *Callee = Found->Call->getDirectCallee();
      Callee && !isa<CXXOperatorCallExpr>(Found->Call))
    How = Callee->getNameAsString();
  return "each iteration reads '" + Found->Buffer->getNameAsString() +
         "' as text, one value at a time (" + How + " at line " +
         std::to_string(SM.getExpansionLineNumber(Found->Call->getBeginLoc())) +
         "): tens of nanoseconds a number, more than this call costs";
}

/// An upload of another part of a host buffer on each iteration into a
/// __constant__ symbol (`cudaMemcpyToSymbol(atoms, &host[start * 4], ...)`):
/// constant memory (64 KiB) holds one chunk at a time, which the next launch
/// reads, so the uploads can neither leave the loop nor overlap the kernel
/// that reads the previous chunk.
std::string TransferInLoopCheck::constantChunks(const CallExpr *Call, const ApiInfo &Api,
                                                const Stmt *Loop) {
  if (!StringRef(Api.Name).starts_with("cudaMemcpyToSymbol") || Call->getNumArgs() < 2)
    return {};
  const auto *Ref = dyn_cast<DeclRefExpr>(Call->getArg(0)->IgnoreParenCasts());
  const auto *Symbol = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Symbol || !Symbol->hasAttr<CUDAConstantAttr>() ||
      invarianceIn(Call->getArg(1), Loop, Ctx.facts().values()) != Invariance::Varies)
    return {};
  return "each iteration uploads another part of the data into the __constant__ symbol '" +
         Symbol->getNameAsString() +
         "', which the next launch reads: constant memory holds one chunk at a time, so the "
         "uploads can neither leave the loop nor overlap the kernel that reads the previous one";
}

void TransferInLoopCheck::reportDirect(const CallExpr *Call, const ApiInfo &Api,
                                       ArrayRef<const Stmt *> Loops, const FunctionDecl *FD) {
  const Stmt *Loop = Loops.back();
  ValueTracker &VT = Ctx.facts().values();
  std::optional<Periodic> Per = periodicBranch(Call, Loop, Ctx.ast(), Ctx.facts().values());
  const std::string Each =
      Per ? "on one iteration in " + periodText(*Per) + " of this loop" : "on every iteration of this loop";
  std::string Msg;
  std::optional<int64_t> Bytes;
  if (auto Arg = byteCountArgument(Api.Name); Arg && *Arg < Call->getNumArgs())
    Bytes = VT.evaluateInt(Call->getArg(*Arg));
  if (!Bytes) {
    CopyOperands O = copyOperands(Api.Name);
    if (O.Width && O.Height && *O.Height < Call->getNumArgs()) {
      auto W = VT.evaluateInt(Call->getArg(*O.Width)), H = VT.evaluateInt(Call->getArg(*O.Height));
      if (W && H)
        Bytes = *W * *H;
    }
  }
  bool ControlCopy = false;
  /// Why the finding is a note beside the loop's allocation finding.
  std::string CompanionOfAlloc;
  /// Why an allocation is a note: its size changes with the loop.
  std::string SizedPerIteration;
  Invariance Inv = Invariance::Unknown;
  CopyAdvice Advice;
  switch (Api.Kind) {
  case ApiKind::Alloc:
  case ApiKind::HostAlloc:
    // `for (float **p : {&a, &b}) cudaMalloc(p, n)`, `cudaMalloc(&bufs[i], n)`:
    // a different buffer each iteration is set-up, not per-iteration scratch.
    if (Call->getNumArgs() == 0 || invarianceIn(Call->getArg(0), Loop, VT) == Invariance::Varies)
      return;
    Msg = Api.Name + " allocates " + Each;
    if (Bytes)
      Msg += " (" + formatBytes(*Bytes) + " each time)";
    Msg += "; allocate once before the loop and reuse the buffer";
    // `for (N = start; N < end; N += step) { bytes = N * N * 4; cudaMalloc(&d, bytes); ...}`:
    // each iteration allocates for another size, a sweep over sizes (or a
    // buffer per input), which the same buffer cannot serve as it is.
    if (auto Arg = byteCountArgument(Api.Name); Arg && *Arg < Call->getNumArgs())
      if (const VarDecl *V = followedLoopVariable(Call->getArg(*Arg), Loop, VT))
        SizedPerIteration = "its size follows the loop's variable '" + V->getNameAsString() +
                            "': each iteration allocates for another size (a sweep over "
                            "sizes); only allocating the largest once could serve them all";
    break;
  case ApiKind::Free:
  case ApiKind::HostFree:
    // Only the free of a buffer the same loop allocates again (the scratch
    // pattern): freeing each of several buffers in turn is tear-down.
    if (Call->getNumArgs() == 0 || !allocatedInLoop(Call->getArg(0), Loop))
      return;
    Msg = Api.Name + " frees memory " + Each + "; keep the buffer and "
                     "free it once after the loop";
    CompanionOfAlloc = "it frees what the same loop allocates: the allocation's finding is "
                       "this thief, and keeping the buffer removes both";
    break;
  case ApiKind::Copy:
  case ApiKind::CopyAsync: {
    Inv = operandInvariance(Call, Api, Loop, VT);
    // Chunks of a multi-stream pipeline (a stream that changes from one
    // iteration to the next) are already the overlapped form of the copy.
    if (const Expr *Stream = streamArgument(Call, Api);
        Stream && Inv != Invariance::Invariant &&
        (changesPerIteration(Stream, Loop, VT) || asyncCopyStreams(Loop) >= 2))
      return;
    // A ring or all-to-all of peer copies: each iteration another device pair.
    if (StringRef(Api.Name).contains("Peer") && Call->getNumArgs() > 3 &&
        (changesPerIteration(Call->getArg(1), Loop, VT) ||
         changesPerIteration(Call->getArg(3), Loop, VT)))
      return;
    if (Api.Kind == ApiKind::CopyAsync) {
      std::optional<CopyKind> Dir = directionOf(Call, Api, Ctx.ast(), Ctx.facts().provenance());
      CopyOperands O = copyOperands(Api.Name);
      const Expr *HostSide = Dir == CopyKind::HostToDevice   ? argAt(Call, O.Src)
                             : Dir == CopyKind::DeviceToHost ? argAt(Call, O.Dst)
                                                             : nullptr;
      if (hostBufferSwapped(Call, HostSide, Loop))
        return; // Double buffering: the overlapped form of the copy.
    }
    Msg = Api.Name + " runs " + Each;
    if (Bytes)
      Msg += "; " + formatBytes(*Bytes) + " copied each time";
    // A buffer that lives for one iteration (allocated and freed in it):
    // each iteration is a whole run of its own (a benchmark's repetition, a
    // job per input), and the copy cannot leave the loop before the
    // allocation does; the allocation's finding says so.
    if (const Expr *Local = iterationLocalBuffer(Call, Api, Loop)) {
      const auto *Ref = dyn_cast<DeclRefExpr>(Local->IgnoreParenCasts());
      CompanionOfAlloc = "its buffer" +
                         (Ref ? " '" + Ref->getDecl()->getNameAsString() + "'" : std::string()) +
                         " is allocated and freed in every iteration: the copy goes with that "
                         "allocation, whose finding is this thief";
    }
    if (isLoopControlCopy(Call, Api, Loop, Bytes, VT)) {
      ControlCopy = true;
      Advice.Direction = directionOf(Call, Api, Ctx.ast(), Ctx.facts().provenance());
      Advice.Text = loopControlAdvice(Advice.Direction);
    } else {
      Advice = adviseCopy(Call, Api, Loop, Bytes, Inv);
    }
    if (!Advice.Text.empty())
      Msg += "; " + Advice.Text;
    break;
  }
  default:
    // Memsets reset what the loop's kernels change: no hoisting advice.
    Msg = Api.Name + " runs " + Each;
    if (Bytes)
      Msg += "; " + formatBytes(*Bytes) + " " + verbFor(Api.Kind).str() + " each time";
    Inv = operandInvariance(Call, Api, Loop, VT);
    break;
  }
  auto D = diag(Call->getBeginLoc(), Msg);
  // A multi-pass reduction's loop copies a few times in all (mayRepeat,
  // which may walk the file, only for such a loop).
  std::optional<FewPasses> FP = fewPassLoop(Loop, VT);
  if (FP && mayRepeat(Loop, Ctx.ast()))
    FP.reset();
  if (!CompanionOfAlloc.empty())
    D.cold(CompanionOfAlloc);
  else if (!SizedPerIteration.empty() &&
           Ctx.facts().hotPath().classify(Call->getBeginLoc()).Level != Priority::Cold)
    D.cold(SizedPerIteration); // A sweep the hot path saw already says so itself.
  else if (FP)
    D.cold(describe(*FP) + ": a few copies in all");
  // The loop's termination protocol: each round must learn from the GPU
  // whether to go on. Its cost is one wait per round, which matters only
  // when the rounds are many and short; a note, with the advice.
  else if (ControlCopy)
    D.cold("it carries the flag that decides whether the loop goes on: the per-round wait is "
           "the algorithm's, and costs little unless the rounds are many and short");
  else if (std::string Few = fewFixedIterations(Loops, FD, Bytes); !Few.empty())
    D.cold(Few);
  else if (std::string P = periodicReason(Per); !P.empty())
    D.cold(P);
  else if (std::string T = parsesText(Call, Api, Loop); !T.empty())
    D.cold(T);
  else if (std::string C = constantChunks(Call, Api, Loop); !C.empty())
    D.cold(C);
  D.range(Call->getSourceRange())
      .note(Loop->getBeginLoc(), "inside this loop")
      .callSite(Call->getBeginLoc())
      .api(Api.Name)
      .evidence(evidence::Api, Api.Name);
  if (Inv == Invariance::Unknown)
    D.evidenceUnknown(evidence::LoopInvariant);
  else
    D.evidence(evidence::LoopInvariant, Inv == Invariance::Invariant);
  if (Bytes)
    D.evidence(evidence::BytesPerIteration, *Bytes);
  if (std::optional<int64_t> Trips = constantTripCount(Loop, VT))
    D.evidence(evidence::TripCount, *Trips);
  if (Api.Kind == ApiKind::Copy || Api.Kind == ApiKind::CopyAsync) {
    D.evidence(evidence::Fix, fixName(Advice.Fix));
    if (Advice.Direction)
      D.evidence(evidence::Kind, copyKindName(*Advice.Direction));
    if (Advice.StrideBytes)
      D.evidence(evidence::StrideBytes, *Advice.StrideBytes);
    if (Advice.TotalBytes)
      D.evidence(evidence::TotalBytes, *Advice.TotalBytes);
  }
}

void TransferInLoopCheck::reportIndirect(const CallExpr *Call, const FunctionDecl *Callee,
                                         const Reached &R, const Stmt *Loop) {
  ValueTracker &VT = Ctx.facts().values();
  // `for (auto &dev : devices) setUp(dev)`: a helper that allocates or frees
  // a different object on each iteration is set-up or tear-down.
  // A member call on another element each iteration: `bufs[i].free()`.
  const Expr *Object = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Object = MC->getImplicitObjectArgument();
  auto Varies = [&](const Expr *A) { return invarianceIn(A, Loop, VT) == Invariance::Varies; };
  const Expr *ObjectIndex = Object ? elementIndex(Object) : nullptr;
  if (isAllocation(R.Api.Kind) &&
      (llvm::any_of(Call->arguments(), Varies) || (ObjectIndex && Varies(ObjectIndex))))
    return;
  std::optional<int64_t> Bytes;
  if (auto Arg = byteCountArgument(R.Api.Name); Arg && *Arg < R.ApiCall->getNumArgs())
    Bytes = VT.evaluateInt(R.ApiCall->getArg(*Arg));
  std::optional<Periodic> Per = periodicBranch(Call, Loop, Ctx.ast(), Ctx.facts().values());
  std::string Msg = describeCallee(Call) + " calls " + R.Api.Name + " and runs " +
                    (Per ? "on one iteration in " + periodText(*Per) + " of this loop"
                         : std::string("on every iteration of this loop"));
  if (Bytes)
    Msg += "; " + formatBytes(*Bytes) + " " + verbFor(R.Api.Kind).str() + " each time";
  auto D = diag(Call->getBeginLoc(), Msg);
  if (std::string P = periodicReason(Per); !P.empty())
    D.cold(P);
  D.range(Call->getSourceRange())
      .note(Loop->getBeginLoc(), "inside this loop")
      .note(R.ApiCall->getBeginLoc(), R.Api.Name + " called here")
      .callSite(Call->getBeginLoc())
      .callSite(R.ApiCall->getBeginLoc())
      .api(R.Api.Name)
      .evidence(evidence::Api, R.Api.Name)
      .evidence(evidence::Via, Callee->getNameAsString());
  if (Bytes)
    D.evidence(evidence::BytesPerIteration, *Bytes);
}

CUDA_ADVISOR_REGISTER_CHECK(TransferInLoopCheck)

} // namespace cuda_advisor::checks
