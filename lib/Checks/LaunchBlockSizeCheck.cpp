//===- LaunchBlockSizeCheck.cpp - launch-block-size ------------------------===//
#include "LaunchBlockSizeCheck.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_advisor::analysis;

namespace cuda_advisor::checks {

LaunchBlockSizeCheck::LaunchBlockSizeCheck(StringRef Id, Severity Level, CheckContext &Ctx)
    : Check(Id, Level, Ctx), MinThreads(option("MinThreads", 64)),
      MaxBlocksPerSM(option("MaxBlocksPerSM", 32)), MaxThreadsPerSM(option("MaxThreadsPerSM", 2048)) {}

void LaunchBlockSizeCheck::storeOptions(CheckOptions &Opts) const {
  storeOption(Opts, "MinThreads", MinThreads);
  storeOption(Opts, "MaxBlocksPerSM", MaxBlocksPerSM);
  storeOption(Opts, "MaxThreadsPerSM", MaxThreadsPerSM);
}

void LaunchBlockSizeCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(
      callExpr(anyOf(cudaKernelCallExpr(),
                     callee(functionDecl(hasAnyName("::cudaLaunchKernel",
                                                    "::cudaLaunchCooperativeKernel")))))
          .bind("launch"),
      this);
}

static std::string shape(const Dim3Value &D) {
  std::string S = std::to_string(*D.X);
  if (D.rank() >= 2)
    S += "x" + std::to_string(*D.Y);
  if (D.rank() >= 3)
    S += "x" + std::to_string(*D.Z);
  return S;
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
  clang::SourceLocation Loc = Site->Block->getBeginLoc();
  auto Emit = [&](std::string Msg, Severity Level) {
    auto D = diag(Loc, std::move(Msg), Level);
    D.range(Site->Block->getSourceRange())
        .callSite(Call->getBeginLoc())
        .kernel(Site->Kernel)
        .api("cudaLaunchKernel");
    if (Block->X)
      D.evidence("blockX", *Block->X);
    if (Block->Y)
      D.evidence("blockY", *Block->Y);
    if (Block->Z)
      D.evidence("blockZ", *Block->Z);
    if (auto T = Block->total())
      D.evidence("threads", *T);
    const Expr *Resolved = VT.resolve(Site->Block);
    if (Resolved != Site->Block && Resolved->getBeginLoc().isValid() &&
        Ctx.sourceManager().getFileLoc(Resolved->getBeginLoc()) !=
            Ctx.sourceManager().getFileLoc(Loc))
      D.note(Resolved->getBeginLoc(), "block size set here");
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
    if (*Threads % 32 != 0) {
      int64_t Lanes = *Threads % 32;
      int64_t Up = (*Threads + 31) / 32 * 32;
      Emit(std::to_string(*Threads) + " threads per block (" + shape(*Block) +
               ") is not a multiple of the warp size (32): the last warp of every block runs "
               "with " + std::to_string(Lanes) + " of 32 lanes active; use " +
               std::to_string(Up) + " or another multiple of 32",
           Severity::Warning);
      return;
    }
    if (*Threads < MinThreads) {
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
  if (Block->rank() >= 2 && Block->X && *Block->X < 32) {
    std::string Suggest;
    if (auto T = Block->total(); T && *T % 32 == 0 && *T >= 32)
      Suggest = "; use (32, " + std::to_string(*T / 32) + ")";
    Emit("blockDim.x is " + std::to_string(*Block->X) + " in a " + shape(*Block) +
             " block: each warp spans " + std::to_string(32 / std::max<int64_t>(1, *Block->X)) +
             " rows, so accesses indexed by threadIdx.x touch that many separate row "
             "segments" + Suggest,
         Severity::Warning);
  }
}

CUDA_ADVISOR_REGISTER_CHECK(LaunchBlockSizeCheck)

} // namespace cuda_advisor::checks
