//===- TransferInLoopCheck.h - transfer-in-loop ----------------*- C++ -*-===//
//
/// Finds host<->device copies, memsets, allocations and frees executed on
/// every iteration of a host loop, directly or through a function of the
/// same translation unit called in the loop. See docs/checks/transfer-in-loop.md.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CHECKS_TRANSFERINLOOPCHECK_H
#define CUDA_ADVISOR_CHECKS_TRANSFERINLOOPCHECK_H

#include "cuda-advisor/Analysis/CudaApi.h"
#include "cuda-advisor/Checks/Check.h"
#include "llvm/ADT/DenseMap.h"

namespace cuda_advisor::checks {

class TransferInLoopCheck : public Check {
public:
  TransferInLoopCheck(llvm::StringRef Id, Severity Level, CheckContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(CheckOptions &Opts) const override;

private:
  /// A transfer API call reached from a function, through MaxDepth calls.
  struct Reached {
    const clang::CallExpr *ApiCall;
    analysis::ApiInfo Api;
  };
  const std::vector<Reached> &transfersReachedFrom(const clang::FunctionDecl *FD,
                                                   unsigned Depth);
  void reportDirect(const clang::CallExpr *Call, const analysis::ApiInfo &Api,
                    const clang::Stmt *Loop);
  void reportIndirect(const clang::CallExpr *Call, const clang::FunctionDecl *Callee,
                      const Reached &R, const clang::Stmt *Loop);

  const unsigned MaxCallDepth;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<Reached>> Summaries;
};

} // namespace cuda_advisor::checks

#endif
