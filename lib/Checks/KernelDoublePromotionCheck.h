//===- KernelDoublePromotionCheck.h - kernel-double-promotion --*- C++ -*-===//
//
/// Finds float arithmetic in device code that runs in double precision
/// because of a double literal (`x * 0.1`), a double constant, or a double
/// math function (`sqrt(x * 0.5)`, `pow(x, 2.0)`), with fix-its (`0.1f`,
/// `sqrtf`). See docs/checks/kernel-double-promotion.md.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CHECKS_KERNELDOUBLEPROMOTIONCHECK_H
#define CUDA_ADVISOR_CHECKS_KERNELDOUBLEPROMOTIONCHECK_H

#include "cuda-advisor/Checks/Check.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace clang {
class Expr;
}

namespace cuda_advisor::checks {

class KernelDoublePromotionCheck : public Check {
public:
  KernelDoublePromotionCheck(llvm::StringRef Id, Severity Level, CheckContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  void storeOptions(CheckOptions &Opts) const override;

  struct Region; // One float computation carried out in double.

private:
  void analyzeFunction(const clang::FunctionDecl *FD);
  void report(const clang::FunctionDecl *FD, const clang::Expr *Root, const Region &R);
  std::vector<const clang::FunctionDecl *> kernelsReaching(const clang::FunctionDecl *FD);

  /// Also report a single `x * 2.5` whose constant is exact in float and whose
  /// result is rounded to float at once: nvcc evaluates that in float anyway.
  const bool ReportFoldable;
  llvm::SetVector<const clang::FunctionDecl *> DeviceFunctions;
  llvm::DenseSet<unsigned> Reported; ///< Raw locations of reported causes.
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::FunctionDecl *>> Callers;
  bool CallersBuilt = false;
};

} // namespace cuda_advisor::checks

#endif
