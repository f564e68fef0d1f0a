//===- SyncInLoopCheck.h - sync-in-loop -------------------------*- C++ -*-===//
//
/// Finds cudaDeviceSynchronize / cudaStreamSynchronize / cudaEventSynchronize
/// executed on every iteration of a host loop that also queues GPU work,
/// when nothing in the loop needs the host to wait (no device-to-host copy,
/// no host access to memory the GPU work uses, no timing).
/// See docs/checks/sync-in-loop.md.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CHECKS_SYNCINLOOPCHECK_H
#define CUDA_ADVISOR_CHECKS_SYNCINLOOPCHECK_H

#include "cuda-advisor/Analysis/Provenance.h"
#include "cuda-advisor/Checks/Check.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <string>

namespace cuda_advisor::checks {

class SyncInLoopCheck : public Check {
public:
  SyncInLoopCheck(llvm::StringRef Id, Severity Level, CheckContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

  /// What a function (or a loop body) does, for the loop it runs in.
  struct Summary {
    const clang::CallExpr *Work = nullptr;      ///< First call that queues GPU work.
    /// Synchronizations that run whenever the function runs (not under a
    /// condition), with the API name.
    std::vector<std::pair<const clang::CallExpr *, std::string>> Syncs;
    /// Why the host may need to wait (empty: nothing found).
    std::string Consumer;
    /// Consumer is a clock read (a timer helper).
    bool ConsumerIsTiming = false;
    /// Consumer is a wait that happens on every run of the function (a
    /// blocking upload, a free): at a call site it counts only when the call
    /// runs on every run of the scope there.
    bool ConsumerEveryRun = false;
  };

private:
  const Summary &summaryOf(const clang::FunctionDecl *FD, unsigned Depth);
  Summary summarize(const clang::Stmt *Body, const clang::Stmt *Scope, unsigned Depth);

  const unsigned MaxCallDepth;
  llvm::DenseMap<const clang::FunctionDecl *, Summary> Summaries;
};

} // namespace cuda_advisor::checks

#endif
