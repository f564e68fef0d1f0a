//===- SyncRedundantCheck.h - sync-redundant --------------------*- C++ -*-===//
//
/// Finds a synchronize statement right before an operation that waits for
/// the same work anyway: another synchronize that covers it, or a blocking
/// cudaMemcpy to or from the host on the legacy default stream (when every
/// stream in sight synchronizes with it). Offers to remove the statement
/// when that is safe. See docs/checks/sync-redundant.md.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CHECKS_SYNCREDUNDANTCHECK_H
#define CUDA_ADVISOR_CHECKS_SYNCREDUNDANTCHECK_H

#include "cuda-advisor/Analysis/Provenance.h"
#include "cuda-advisor/Checks/Check.h"

#include <memory>
#include <optional>

namespace cuda_advisor::checks {

class SyncRedundantCheck : public Check {
public:
  SyncRedundantCheck(llvm::StringRef Id, Severity Level, CheckContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkBlock(const clang::CompoundStmt *Block, const clang::FunctionDecl *FD);
  /// Call is outside every loop of FD (forEachCallInLoops' loops).
  bool outsideLoops(const clang::CallExpr *Call, const clang::FunctionDecl *FD);
  /// Call is outside every loop of FD, and FD runs once per run.
  bool runsOncePerRun(const clang::CallExpr *Call, const clang::FunctionDecl *FD);
  bool nonBlockingStreamsInTU();
  bool deviceWorkIsOnBlockingStreams(const clang::FunctionDecl *FD);

  std::optional<bool> TUHasNonBlockingStreams;
};

} // namespace cuda_advisor::checks

#endif
