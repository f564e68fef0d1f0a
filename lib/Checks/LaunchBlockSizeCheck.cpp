//===- LaunchBlockSizeCheck.cpp - launch-block-size ------------------------===//
#include "LaunchBlockSizeCheck.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/HostCode.h"
#include "cuda-advisor/Analysis/HotPath.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/Values.h"
#include "cuda-advisor/Core/Units.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_advisor::analysis;

namespace cuda_advisor::checks {

/// A block whose last warp leaves at most 1/IdleLaneShareDivisor of its
/// lanes idle wastes little: a note off the hot path.
constexpr int64_t IdleLaneShareDivisor = 8;

LaunchBlockSizeCheck::LaunchBlockSizeCheck(StringRef Id, Severity Level, CheckContext &Ctx)
    : Check(Id, Level, Ctx), MinThreads(option("MinThreads")),
      MaxBlocksPerSM(option("MaxBlocksPerSM")), Multiprocessors(option("Multiprocessors")),
      MaxThreadsPerSM(option("MaxThreadsPerSM")) {}


void LaunchBlockSizeCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(
      callExpr(anyOf(cudaKernelCallExpr(),
                     callee(functionDecl(hasAnyName("::cudaLaunchKernel",
                                                    "::cudaLaunchCooperativeKernel")))))
          .bind("launch"),
      this);
}

namespace {
/// Which threadIdx components a kernel and the device functions it calls
/// read. Unknown when something else could tell the threads of a block apart:
/// inline PTX (%tid, %laneid), atomics (unique return values), warp votes and
/// shuffles, cooperative groups, or a call whose body is not in the file.
struct ThreadIdxUse {
  bool Unknown = false;
  bool Reads[3] = {false, false, false};
};

class ThreadIdxScan : public RecursiveASTVisitor<ThreadIdxScan> {
public:
  ThreadIdxScan(const SourceManager &SM, ThreadIdxUse &Use, unsigned Depth)
      : SM(SM), Use(Use), Depth(Depth) {}

  // threadIdx.x is a property: look at it as written, not at its getter call.
  bool TraversePseudoObjectExpr(PseudoObjectExpr *E) {
    return TraverseStmt(E->getSyntacticForm());
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *) { return fail(); }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *) { return fail(); }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *) { return fail(); }
  bool VisitMemberExpr(MemberExpr *ME) {
    // The base's DeclRefExpr is visited too: count this use as explained.
    if (ME->getMemberDecl()->getIdentifier() &&
        component(ME->getBase(), ME->getMemberDecl()->getName()))
      ++Members;
    return !Use.Unknown;
  }
  bool VisitMSPropertyRefExpr(MSPropertyRefExpr *MP) {
    // The base is an OpaqueValueExpr, whose DeclRefExpr is not visited.
    if (MP->getPropertyDecl()->getIdentifier())
      component(MP->getBaseExpr(), MP->getPropertyDecl()->getName());
    return !Use.Unknown;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (isThreadIdx(DRE))
      ++Refs;
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return fail();
    // Libraries that read the thread index themselves (thread_rank(),
    // block-wide primitives), in any of their nested or inline namespaces
    // (cooperative_groups::__v1::details...).
    for (const DeclContext *DC = Callee->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
        if (NS->getIdentifier() &&
            llvm::is_contained({"cooperative_groups", "nvcuda", "cub", "cuda", "thrust"},
                               NS->getName()))
          return fail();
    if (const IdentifierInfo *II = Callee->getIdentifier()) {
      StringRef Name = II->getName();
      for (StringRef Prefix : {"atomic", "__shfl", "__ballot", "__activemask", "__match", "__any",
                               "__all", "__uni", "__reduce_", "__fns", "clock"})
        if (Name.starts_with(Prefix))
          return fail();
    }
    const FunctionDecl *Def = Callee->getDefinition();
    if (SM.isInSystemHeader(Callee->getLocation()))
      return true; // Math, __syncthreads, printf...
    if (!Def || !Def->hasBody() || Depth == 0)
      return fail();
    if (Visited.insert(Def).second) {
      ThreadIdxScan Inner(SM, Use, Depth - 1);
      Inner.Visited = Visited;
      Inner.TraverseStmt(Def->getBody());
      if (Inner.Refs > Inner.Members)
        return fail();
    }
    return !Use.Unknown;
  }

  /// Every threadIdx reference was a .x/.y/.z read.
  bool complete() const { return Refs <= Members; }

private:
  bool fail() {
    Use.Unknown = true;
    return false;
  }
  static bool isThreadIdx(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *OV = dyn_cast<OpaqueValueExpr>(E))
      E = OV->getSourceExpr() ? OV->getSourceExpr()->IgnoreParenImpCasts() : E;
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return V && V->getIdentifier() && V->getName() == "threadIdx" && !V->isLocalVarDeclOrParm();
  }
  /// Records a read of threadIdx.Field; false when Base is not threadIdx.
  bool component(const Expr *Base, StringRef Field) {
    if (!isThreadIdx(Base))
      return false;
    if (Field.size() == 1 && Field[0] >= 'x' && Field[0] <= 'z')
      Use.Reads[Field[0] - 'x'] = true;
    else
      Use.Unknown = true;
    return true;
  }

  const SourceManager &SM;
  ThreadIdxUse &Use;
  unsigned Depth;
  unsigned Refs = 0, Members = 0;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Visited;
};
} // namespace

static ThreadIdxUse threadIdxUse(const FunctionDecl *Kernel, const SourceManager &SM) {
  ThreadIdxUse Use;
  const FunctionDecl *Def = Kernel ? Kernel->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || Def->isDependentContext()) {
    Use.Unknown = true;
    return Use;
  }
  ThreadIdxScan Scan(SM, Use, /*Depth=*/4);
  Scan.TraverseStmt(Def->getBody());
  if (!Scan.complete())
    Use.Unknown = true;
  return Use;
}

namespace {
/// What ties a kernel's design to its block shape, in its body and the device
/// functions it calls (a few levels deep):
/// - warp collectives (shuffles, votes, matches, warp reductions,
///   __syncwarp): with a block of one warp, the block is the warp, and a
///   warp-level scan or look-back that keeps per-block state computes
///   something else with two warps per block;
/// - a shared tile indexed by threadIdx.x together with threadIdx.z: a 3D
///   tile whose shape is the block's, chosen to trade halo against row width.
struct BlockDesign : RecursiveASTVisitor<BlockDesign> {
  explicit BlockDesign(const SourceManager &SM) : SM(SM) {}
  bool WarpCollectives = false, Tile3D = false;

  bool TraversePseudoObjectExpr(PseudoObjectExpr *E) {
    return TraverseStmt(E->getSyntacticForm());
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *ASE) {
    ThreadIdxUse Use;
    const Expr *Base = ASE;
    while (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Base->IgnoreParenImpCasts())) {
      ThreadIdxScan(SM, Use, /*Depth=*/0).TraverseStmt(const_cast<Expr *>(Sub->getIdx()));
      Base = Sub->getBase();
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (V && V->hasAttr<CUDASharedAttr>() && Use.Reads[0] && Use.Reads[2])
      Tile3D = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return true;
    if (const IdentifierInfo *II = FD->getIdentifier()) {
      StringRef Name = II->getName();
      for (StringRef Prefix : {"__shfl", "__ballot", "__any_sync", "__all_sync", "__uni_sync",
                               "__match", "__reduce_", "__syncwarp", "__activemask",
                               "tiled_partition", "coalesced_threads"})
        WarpCollectives |= Name.starts_with(Prefix);
    }
    const FunctionDecl *Def = FD->getDefinition();
    if (Def && Def->hasBody() && Depth > 0 && Seen.insert(Def).second &&
        !SM.isInSystemHeader(Def->getLocation())) {
      --Depth;
      TraverseStmt(Def->getBody());
      ++Depth;
    }
    return true;
  }

private:
  const SourceManager &SM;
  unsigned Depth = 3;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
};
} // namespace

static BlockDesign blockDesign(const FunctionDecl *Def, const SourceManager &SM) {
  BlockDesign D(SM);
  D.TraverseStmt(Def->getBody());
  return D;
}

/// The most threads per block the kernel's __launch_bounds__ allows, when
/// it declares them as a constant.
static std::optional<int64_t> launchBoundsMax(const FunctionDecl *Def) {
  const auto *LB = Def->getAttr<CUDALaunchBoundsAttr>();
  if (!LB || !LB->getMaxThreads() || LB->getMaxThreads()->isValueDependent())
    return std::nullopt;
  if (std::optional<llvm::APSInt> V =
          LB->getMaxThreads()->getIntegerConstantExpr(Def->getASTContext()))
    return V->getExtValue();
  return std::nullopt;
}

static std::string shape(const Dim3Value &D) {
  auto Text = [](std::optional<int64_t> V) { return V ? std::to_string(*V) : std::string("?"); };
  std::string S = Text(D.X);
  if (D.rank() >= 2)
    S += "x" + Text(D.Y);
  if (D.rank() >= 3)
    S += "x" + Text(D.Z);
  return S;
}

/// Row pieces narrower than this waste sectors. It follows from the sector
/// size: a piece that does not start on a 32-byte boundary (a stencil's
/// x - 1) touches one sector more than it needs, which doubles the sectors of
/// a one-sector piece and adds half to a two-sector one, about what a full
/// 128-byte row pays (5 for 4). One measurement agrees (H200, blur3x3 of
/// examples/launch-block-size.cu: 36% slower with (8, 32) blocks, 32-byte
/// pieces, and 5% with (16, 16), 64-byte pieces, than with (32, 8);
/// docs/cost-model.md); it was not fitted to it.
constexpr int64_t MinRowPieceBytes = 64;

/// Whether each blockDim.x-wide row piece of A starts on a 32-byte boundary:
/// every term of the byte offset but threadIdx.x's own is a multiple of 32
/// bytes, blockDim.x taken as BlockX (`y * 640 + blockIdx.x * 8 +
/// threadIdx.x` over floats), the buffer's base being aligned as cudaMalloc
/// returns it. A symbolic row pitch (`y * width`) or a shifted column
/// (`x - 1`, a stencil's neighbour) may not be.
static bool piecesStartOnSectors(const MemoryAccess &A, int64_t BlockX) {
  if (A.Address.ByteOffset.isUnknown())
    return false;
  for (const Term &T : A.Address.ByteOffset.terms()) {
    if (T.Symbols.size() == 1 && T.Symbols[0] == Symbol::threadIdx(0))
      continue;
    int64_t C = T.Coefficient;
    for (const Symbol &S : T.Symbols) {
      if (S == Symbol::threadIdx(0))
        return false;
      if (S.Kind == SymbolKind::BlockDim && S.Dim == 0)
        C *= BlockX;
    }
    if (C % 32 != 0)
      return false;
  }
  return true;
}

/// The global access that a narrow blockDim.x makes waste sectors: one whose
/// consecutive x lanes are one element apart, with blockDim.x elements
/// spanning less than MinRowPieceBytes (the narrowest such piece). A 16-wide
/// block of floats or uchar4 reads 64-byte pieces, about as many sectors per
/// warp as a 32-wide block: no finding; nor for a kernel laid out along
/// threadIdx.y (llm.c's matmul_backward_bias_kernel9: x walks rows, y picks
/// 16-byte vectors), one whose x-contiguous access does not vary with
/// threadIdx.y (every row of the warp reads the same piece), or one that only
/// prints.
static const MemoryAccess *sectorWastingAccess(const FunctionDecl *Kernel, int64_t BlockX,
                                               KernelSummaries &KS) {
  const KernelSummary *S = Kernel ? KS.summaryOf(Kernel) : nullptr;
  if (!S)
    return nullptr;
  const MemoryAccess *Worst = nullptr;
  for (const MemoryAccess &A : S->Accesses) {
    if (A.Address.Root.Space != MemorySpace::Global || A.SingleLane || A.SizeBytes == 0 ||
        A.Address.ByteOffset.isUnknown())
      continue;
    std::optional<int64_t> X =
        A.Address.ByteOffset.coefficientOf(Symbol::threadIdx(0)).asConstant();
    if (!X || (*X != int64_t(A.SizeBytes) && *X != -int64_t(A.SizeBytes)))
      continue; // Not contiguous along x.
    // The same address in every row of the warp (no threadIdx.y in it: a
    // per-column index, idx[blockIdx.x * 8 + threadIdx.x] in an (8, 8)
    // block): the rows read one piece, which the warp fetches once.
    std::optional<int64_t> Y =
        A.Address.ByteOffset.coefficientOf(Symbol::threadIdx(1)).asConstant();
    if (Y && *Y == 0)
      continue;
    int64_t Piece = BlockX * int64_t(A.SizeBytes);
    if (Piece >= MinRowPieceBytes)
      continue;
    // Whole sectors, each starting on a boundary: nothing is fetched in
    // vain (8 floats per row of a 640-float image).
    if (Piece % 32 == 0 && piecesStartOnSectors(A, BlockX))
      continue;
    if (!Worst || A.SizeBytes < Worst->SizeBytes)
      Worst = &A;
  }
  return Worst;
}

namespace {
/// What a kernel's body (and the device functions it calls, a few levels
/// deep) does that tells a serial kernel from a one-shot one.
struct SerialScan : RecursiveASTVisitor<SerialScan> {
  bool Loops = false, Prints = false, ReadsBlockIdx = false;
  /// A latency measurement, serial by design: the kernel reads the clock
  /// (clock(), clock64(), %clock or %globaltimer in asm), or walks a chain
  /// of dependent loads (`j = next[j]`, `p = *p`, `n = n->next`).
  bool ReadsClock = false, ChasesPointers = false;
  /// A wait: a loop that spins on a volatile flag another agent writes
  /// (`while (!*latch)`), one thread holding the GPU until the host says go.
  bool SpinsOnFlag = false;
  unsigned Depth = 3;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;

  bool VisitGCCAsmStmt(GCCAsmStmt *A) {
    StringRef Text = A->getAsmString()->getString();
    ReadsClock |= Text.contains("clock") || Text.contains("globaltimer");
    return true;
  }
  /// `V = <a load whose address mentions V>`.
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() != BO_Assign)
      return true;
    const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V)
      return true;
    const Expr *R = BO->getRHS()->IgnoreParenCasts();
    const Expr *Address = nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(R))
      Address = AS->getIdx();
    else if (const auto *UO = dyn_cast<UnaryOperator>(R); UO && UO->getOpcode() == UO_Deref)
      Address = UO->getSubExpr();
    else if (const auto *ME = dyn_cast<MemberExpr>(R); ME && ME->isArrow())
      Address = ME->getBase();
    ChasesPointers |= Address && analysis::mentions(Address, V);
    return true;
  }

  /// The loops of the kernel and of the functions it calls (for a bound of
  /// its serial work), and whether it calls a function whose body the scan
  /// cannot see (defined elsewhere, or too deep): then the bound is unknown.
  llvm::SmallVector<const Stmt *, 8> LoopStmts;
  bool CallsUnseen = false;

  bool VisitStmt(Stmt *S) {
    if (analysis::isLoop(S))
      LoopStmts.push_back(S);
    Loops |= analysis::isLoop(S);
    SpinsOnFlag |= readsVolatile(analysis::loopCondition(S));
    return true;
  }
  /// A volatile object read in E (`while (!*latch)` on a `volatile int *`).
  static bool readsVolatile(const Expr *E) {
    if (!E)
      return false;
    E = E->IgnoreParenImpCasts();
    if (E->isGLValue() && E->getType().isVolatileQualified())
      return true;
    for (const Stmt *C : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(C); CE && readsVolatile(CE))
        return true;
    return false;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      ReadsBlockIdx |= V->getIdentifier() && V->getName() == "blockIdx";
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return true;
    if (FD->getIdentifier() && (FD->getName() == "printf" || FD->getName() == "vprintf"))
      Prints = true;
    if (FD->getIdentifier() &&
        llvm::is_contained({"clock", "clock64", "__nanosleep"}, FD->getName()))
      ReadsClock = true;
    // `cuda::std::chrono::high_resolution_clock::now()` and the other
    // clocks and timers HostCode knows, in headers the walk below does not
    // enter.
    if (analysis::classifyHostCall(C) == analysis::HostCallKind::Timing)
      ReadsClock = true;
    const FunctionDecl *Def = FD->getDefinition();
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    if (SM.isInSystemHeader(FD->getLocation()) || FD->getBuiltinID())
      return true;
    if (!Def || !Def->hasBody() || (Depth == 0 && !Seen.count(Def)))
      CallsUnseen = true;
    if (Def && Def->hasBody() && Depth > 0 && Seen.insert(Def).second) {
      --Depth;
      TraverseStmt(Def->getBody());
      ++Depth;
    }
    return true;
  }
};
} // namespace

/// A launch of one thread per block. Over a grid of one block the kernel is
/// serial: a loop in it runs on one GPU thread, which no block size fixes
/// (the work must be spread over threads); a kernel without a loop, or one
/// that only prints, is set-up or debugging and gets no finding, and so is a
/// latency probe, a sleep or a wait (it reads the clock, sleeps, chases
/// pointers, or spins on a volatile flag). Over many
/// blocks, every block is a warp with one lane of 32 active.
static std::optional<std::string> oneThreadMessage(const LaunchSite &Site,
                                                   std::optional<int64_t> Blocks) {
  const FunctionDecl *Def = Site.Kernel ? Site.Kernel->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || Def->isDependentContext())
    return std::nullopt;
  SerialScan Scan;
  Scan.TraverseStmt(Def->getBody());
  std::string Name = Def->getNameAsString();
  if ((Blocks && *Blocks == 1) || (!Blocks && !Scan.ReadsBlockIdx)) {
    if (!Scan.Loops || Scan.Prints)
      return std::nullopt; // Set-up of a few values, or a debug print.
    if (Scan.ReadsClock || Scan.ChasesPointers || Scan.SpinsOnFlag)
      return std::nullopt; // A latency probe, a sleep or a wait: one thread is the point.
    return "a single thread runs '" + Name + "' (one block of one thread): its loops run "
           "serially on one GPU thread, which no block size fixes; spread the work over "
           "threads (one thread per element, a grid-stride loop, or a parallel reduction "
           "for a sum)";
  }
  if (Scan.Prints && !Scan.Loops)
    return std::nullopt;
  return std::string("one thread per block: each block is a warp with 1 of its 32 lanes "
                     "active, so 31 of every 32 lanes idle; launch blocks of 128 or 256 "
                     "threads (and 1/128 or 1/256 as many blocks) and index with "
                     "blockIdx.x * blockDim.x + threadIdx.x");
}

/// Why a serial launch of one thread costs nothing worth a change: a toy.
/// The loops of the kernel and of what it calls all have constant trip
/// counts whose product (an upper bound of the iterations, nested or not) is
/// at most 256, and the launch runs once per run (no loop around it, in
/// code that runs once): some hundreds of dependent memory accesses at most,
/// under a millisecond once (`<<<1, 1>>>` over a 4 x 4 matrix). A loop over
/// a runtime `n`, a function the scan cannot see, or a launch that repeats
/// keeps the warning.
static std::string serialToy(const CallExpr *Call, const LaunchSite &Site, ValueTracker &VT,
                             analysis::HotPath &HP, ASTContext &AST) {
  constexpr int64_t MaxIterations = 256;
  const FunctionDecl *Def = Site.Kernel ? Site.Kernel->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || Def->isDependentContext())
    return {};
  SerialScan Scan;
  Scan.TraverseStmt(Def->getBody());
  if (Scan.CallsUnseen || Scan.LoopStmts.empty())
    return {};
  int64_t Iterations = 1;
  for (const Stmt *L : Scan.LoopStmts) {
    std::optional<int64_t> Trips = analysis::constantTripCount(L, VT);
    if (!Trips || *Trips < 0 || (*Trips > 0 && Iterations > MaxIterations / *Trips))
      return {};
    Iterations *= std::max<int64_t>(*Trips, 1);
  }
  const FunctionDecl *Caller = analysis::enclosingFunction(Call, AST);
  if (!Caller || analysis::mayRepeat(Call, AST) || !HP.runsOnce(Caller))
    return {};
  return "a toy size: the loops of '" + Def->getNameAsString() + "' make at most " +
         std::to_string(Iterations) +
         " iterations on its one thread, launched in code that runs once per run: under "
         "a millisecond, once";
}

void LaunchBlockSizeCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("launch");
  std::optional<LaunchSite> Site = getLaunchSite(Call);
  if (!Site || !Site->Block)
    return;
  ValueTracker &VT = Ctx.facts().values();
  std::optional<Dim3Value> Block = VT.evaluateDim3(Site->Block);
  if (!Block)
    return;
  std::optional<int64_t> GridBlocks;
  if (Site->Grid)
    if (std::optional<Dim3Value> Grid = VT.evaluateDim3(Site->Grid))
      GridBlocks = Grid->total();
  // A grid of known size with at most one block per multiprocessor: every
  // block runs at once, in one wave, and the launch takes about one block's
  // time whatever the block's shape (a demo over ten elements, a pass over a
  // few thousand). Idle lanes, the blocks-per-multiprocessor limit and short
  // row pieces cost nothing there.
  bool OneWave = GridBlocks && *GridBlocks > 0 && *GridBlocks <= Multiprocessors;
  clang::SourceLocation Loc = Site->Block->getBeginLoc();
  auto Emit = [&](std::string Msg, Severity Level) -> FindingBuilder {
    auto D = diag(Loc, std::move(Msg), Level);
    D.range(Site->Block->getSourceRange())
        .callSite(Call->getBeginLoc())
        .kernel(Site->Kernel)
        .api("cudaLaunchKernel");
    if (Block->X)
      D.evidence(evidence::BlockX, *Block->X);
    if (Block->Y)
      D.evidence(evidence::BlockY, *Block->Y);
    if (Block->Z)
      D.evidence(evidence::BlockZ, *Block->Z);
    if (auto T = Block->total())
      D.evidence(evidence::Threads, *T);
    const Expr *Resolved = VT.resolve(Site->Block);
    if (Resolved != Site->Block && Resolved->getBeginLoc().isValid() &&
        Ctx.sourceManager().getFileLoc(Resolved->getBeginLoc()) !=
            Ctx.sourceManager().getFileLoc(Loc))
      D.note(Resolved->getBeginLoc(), "block size set here");
    return D;
  };

  if (std::optional<int64_t> Threads = Block->total()) {
    if (*Threads > 1024) {
      Emit("a block of " + shape(*Block) + " = " + std::to_string(*Threads) +
               " threads exceeds the limit of 1024 threads per block: the launch fails with "
               "cudaErrorInvalidConfiguration",
           Severity::Error);
      return;
    }
    if (*Threads <= 0)
      return;
    // A 2D/3D block for a kernel that never reads threadIdx.y (or .z): its
    // rows are copies of each other.
    if ((*Block->Y > 1 || *Block->Z > 1) && Site->Kernel) {
      ThreadIdxUse Use = threadIdxUse(Site->Kernel, Ctx.sourceManager());
      int Dim = !Use.Unknown && *Block->Y > 1 && !Use.Reads[1]   ? 1
                : !Use.Unknown && *Block->Z > 1 && !Use.Reads[2] ? 2
                                                                 : 0;
      if (Dim) {
        int64_t Copies = Dim == 1 ? *Block->Y : *Block->Z;
        std::string Axis = Dim == 1 ? "y" : "z";
        std::string Name = Site->Kernel->getNameAsString();
        Emit("the block is " + shape(*Block) + " but '" + Name + "' never reads threadIdx." +
                 Axis + ": its " + std::to_string(Copies) + " " +
                 (Dim == 1 ? "rows" : "layers") + " of threads compute the same elements, so " +
                 std::to_string(Copies - 1) + " of every " + std::to_string(Copies) +
                 " threads repeat the work (and their stores race); drop the " + Axis +
                 " extent of the block, or fold it into x and divide the grid by " +
                 std::to_string(Copies),
             Severity::Warning)
            .evidence(evidence::UnusedAxis, Axis)
            .evidence(evidence::RepeatFactor, Copies);
        return;
      }
    }
    if (*Threads == 1) {
      if (std::optional<std::string> Msg = oneThreadMessage(*Site, GridBlocks)) {
        auto D = Emit(*Msg, Severity::Warning);
        if (GridBlocks && *GridBlocks == 1)
          if (std::string Toy = serialToy(Call, *Site, VT, Ctx.facts().hotPath(), Ctx.ast());
              !Toy.empty())
            D.cold(Toy);
      }
      return;
    }
    if (OneWave)
      return;
    if (*Threads % 32 != 0) {
      int64_t Lanes = *Threads % 32;
      int64_t Up = (*Threads + 31) / 32 * 32;
      auto D = Emit(std::to_string(*Threads) + " threads per block (" + shape(*Block) +
                        ") is not a multiple of the warp size (32): the last warp of every block "
                        "runs with " + std::to_string(Lanes) + " of 32 lanes active; use " +
                        std::to_string(Up) + " or another multiple of 32",
                    Severity::Warning);
      // 1000 threads: 24 idle lanes of 1024, 2.3% of the block's issue
      // slots, no more than the kernel's time could gain: a note, as
      // access-uncoalesced's accesses that move at most 1/8 of the traffic.
      int64_t Idle = Up - *Threads;
      if (Idle * IdleLaneShareDivisor <= Up)
        D.cold(std::to_string(Idle) + " of the block's " + std::to_string(Up) +
               " lanes idle (" + formatTrimmed(100.0 * double(Idle) / double(Up), 1) +
               "%), at most 1/" +
               std::to_string(IdleLaneShareDivisor) +
               " of its issue slots: a multiple of 32 gains little");
      return;
    }
    if (*Threads < MinThreads) {
      // A grid too small to give any multiprocessor MaxBlocksPerSM blocks
      // never meets the block limit: bigger blocks would only mean fewer.
      if (GridBlocks && *GridBlocks <= Multiprocessors * MaxBlocksPerSM)
        return;
      // Whether a bigger block computes the same thing is a property of the
      // kernel: without its body (defined in another file) the advice is a
      // guess; a kernel whose __launch_bounds__ caps the block below
      // MinThreads fails to launch with more; one of one warp that uses warp
      // collectives is built on block == warp (a warp-level scan or
      // decoupled look-back with per-block state).
      const FunctionDecl *Def = Site->Kernel ? Site->Kernel->getDefinition() : nullptr;
      if (!Def || !Def->hasBody())
        return;
      if (std::optional<int64_t> Cap = launchBoundsMax(Def); Cap && *Cap < MinThreads)
        return;
      if (*Threads == 32 && blockDesign(Def, Ctx.sourceManager()).WarpCollectives)
        return;
      int64_t Resident = std::min(MaxThreadsPerSM, MaxBlocksPerSM * *Threads);
      int64_t Pct = Resident * 100 / MaxThreadsPerSM;
      Emit("only " + std::to_string(*Threads) + " threads per block: at most " +
               std::to_string(MaxBlocksPerSM) + " blocks fit on a multiprocessor, so at most " +
               std::to_string(Pct) + "% of its " + std::to_string(MaxThreadsPerSM) +
               " thread slots can be used; use at least " + std::to_string(MinThreads) +
               " threads per block",
           Severity::Warning);
      return;
    }
  }
  if (Block->rank() >= 2 && Block->X && *Block->X < 32 && *Block->X > 0 && !OneWave) {
    const MemoryAccess *A = sectorWastingAccess(Site->Kernel, *Block->X, Ctx.facts().kernels());
    if (!A)
      return;
    // A 3D shared tile shaped as the block (a stencil's 8x8x8 tile with its
    // halo): a wider x at the same thread count shrinks the tile's interior
    // in y and z, trading row pieces for halo loads; the shape is a design
    // choice the row width alone does not decide.
    const FunctionDecl *Def = Site->Kernel ? Site->Kernel->getDefinition() : nullptr;
    if (Def && Def->hasBody() && blockDesign(Def, Ctx.sourceManager()).Tile3D)
      return;
    int64_t Segment = *Block->X * int64_t(A->SizeBytes);
    // The smallest blockDim.x whose row pieces are wide enough.
    int64_t WideX = std::min<int64_t>(32, (MinRowPieceBytes + A->SizeBytes - 1) / A->SizeBytes);
    std::string Suggest;
    // The suggested shape keeps the threads per block and, for a kernel that
    // reads threadIdx.z (or whose use is unknown), the block's z extent.
    bool KeepZ = Block->Z && *Block->Z > 1 &&
                 (!Site->Kernel || [&] {
                   ThreadIdxUse Use = threadIdxUse(Site->Kernel, Ctx.sourceManager());
                   return Use.Unknown || Use.Reads[2];
                 }());
    if (auto T = Block->total(); T && *T % 32 == 0 && *T >= 32) {
      if (!KeepZ)
        Suggest = "; use (32, " + std::to_string(*T / 32) + ")";
      else if (*T / 32 % *Block->Z == 0)
        Suggest = "; use (32, " + std::to_string(*T / 32 / *Block->Z) + ", " +
                  std::to_string(*Block->Z) + ")";
    }
    std::string Why = Segment < 32
                          ? "each uses " + std::to_string(Segment) + " bytes of its 32-byte sector"
                          : "each touches two sectors where it needs one when it does not start on "
                            "a 32-byte boundary";
    Emit("blockDim.x is " + std::to_string(*Block->X) + " in a " + shape(*Block) +
             " block: each warp " +
             (A->Kind == AccessKind::Store       ? "writes "
              : A->Kind == AccessKind::LoadStore ? "reads and writes "
                                                 : "reads ") +
             std::to_string(32 / *Block->X) + " separate " +
             std::to_string(Segment) + "-byte row pieces of '" + A->Address.Root.name() + "' (" +
             std::to_string(A->SizeBytes) + "-byte elements along threadIdx.x), and " + Why +
             "; blockDim.x of at least " + std::to_string(WideX) +
             (Segment < 32 ? " avoids it"
                           : " makes the extra sector one in three or fewer") +
             Suggest,
         Severity::Warning)
        .evidence(evidence::RowSegmentBytes, Segment);
  }
}

CUDA_ADVISOR_REGISTER_CHECK(LaunchBlockSizeCheck)

} // namespace cuda_advisor::checks
