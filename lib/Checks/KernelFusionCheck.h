//===- KernelFusionCheck.h - kernel-fusion ---------------------*- C++ -*-===//
//
/// Finds chains of element-wise kernels launched back to back on one stream
/// with the same grid, block and index, each passing a buffer to the next
/// through global memory (or reading the same input): one fused kernel saves
/// the launches and the intermediate buffers' round trips (or the repeated
/// reads). See docs/checks/kernel-fusion.md.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CHECKS_KERNELFUSIONCHECK_H
#define CUDA_ADVISOR_CHECKS_KERNELFUSIONCHECK_H

#include "cuda-advisor/Analysis/KernelSummary.h"
#include "cuda-advisor/Analysis/Kernels.h"
#include "cuda-advisor/Checks/Check.h"

#include "llvm/ADT/DenseMap.h"

namespace clang {
class CompoundStmt;
class Stmt;
} // namespace clang

namespace cuda_advisor::checks {

class KernelFusionCheck : public Check {
public:
  KernelFusionCheck(llvm::StringRef Id, Severity Level, CheckContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// A launch of an element-wise kernel that could join a chain.
  struct Launch {
    analysis::LaunchSite Site;
    const clang::FunctionDecl *Kernel = nullptr; ///< The definition.
    const analysis::KernelSummary *Summary = nullptr;
  };
  /// A buffer the previous launch writes and the next one uses.
  struct Passed {
    const clang::Expr *Arg = nullptr;
    unsigned ElementBytes = 0;
    bool Overwritten = false; ///< The next kernel writes it without reading it.
    bool SharedInput = false; ///< Both kernels only read it (horizontal fusion).
  };

  void scan(const clang::Stmt *S);
  void scanCompound(const clang::CompoundStmt *CS);
  std::optional<Launch> fusableLaunch(const clang::Stmt *S);
  bool computeBound(const clang::FunctionDecl *Kernel);
  bool compatible(const Launch &A, const Launch &B, std::vector<Passed> &Buffers);
  void flush(std::vector<Launch> &Chain, std::vector<std::vector<Passed>> &Links);

  llvm::DenseMap<const clang::FunctionDecl *, bool> ComputeBound;
};

} // namespace cuda_advisor::checks

#endif
