//===- TransferPageableAsyncCheck.h - transfer-pageable-async --*- C++ -*-===//
//
/// Finds cudaMemcpyAsync (and the 2D, array and symbol variants) whose host
/// side is pageable memory (malloc, new, std::vector, the stack...), which
/// makes the "async" copy synchronous with the host. Pinned memory and
/// pointers of unknown provenance give no finding.
/// See docs/checks/transfer-pageable-async.md.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CHECKS_TRANSFERPAGEABLEASYNCCHECK_H
#define CUDA_ADVISOR_CHECKS_TRANSFERPAGEABLEASYNCCHECK_H

#include "cuda-advisor/Analysis/CudaApi.h"
#include "cuda-advisor/Analysis/Provenance.h"
#include "cuda-advisor/Checks/Check.h"

#include <memory>

namespace cuda_advisor::checks {

class TransferPageableAsyncCheck : public Check {
public:
  TransferPageableAsyncCheck(llvm::StringRef Id, Severity Level, CheckContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkCopy(const clang::CallExpr *Call, const analysis::ApiInfo &Api,
                 llvm::ArrayRef<const clang::Stmt *> Loops);
  void checkCopy3D(const clang::CallExpr *Call, const analysis::ApiInfo &Api,
                   const clang::FunctionDecl *FD, llvm::ArrayRef<const clang::Stmt *> Loops);
  void reportPageable(const clang::CallExpr *Call, const analysis::ApiInfo &Api,
                      analysis::CopyKind Kind, bool ToHost, const clang::Expr *Host,
                      const analysis::Provenance &P, std::optional<int64_t> Bytes,
                      llvm::ArrayRef<const clang::Stmt *> Loops);

};

} // namespace cuda_advisor::checks

#endif
