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
class CallExpr;
class Expr;
}

namespace cuda_advisor::checks {

class KernelDoublePromotionCheck : public Check {
public:
  KernelDoublePromotionCheck(llvm::StringRef Id, Severity Level, CheckContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

  struct Region; // One float computation carried out in double.

private:
  struct Found;
  void analyzeFunction(const clang::FunctionDecl *FD, std::vector<Found> &Out);
  /// Loop weight of S in its function: analysis::loopWeightAround.
  double weightIn(const clang::Stmt *S);
  /// A loop's constant trip count, or analysis::UnknownTripWeight.
  double tripWeight(const clang::Stmt *Loop);
  /// The largest loop weight of FD's call sites, through its callers up to
  /// a kernel (1 for a kernel).
  double callWeight(const clang::FunctionDecl *FD, unsigned Depth);
  /// Whether the FP64 work of the promotions reached from kernel K could
  /// outlast its global memory traffic (see the .cpp).
  bool fp64CanMatter(const clang::FunctionDecl *K, const std::vector<Found> &All);
  /// One finding for Parts (their first, the carrier, gives its place):
  /// one computation, or every computation promoted by one named cause.
  void report(llvm::ArrayRef<const Found *> Parts, const std::string &Cold);
  /// The macros (whose whole expansion is a literal) and double constants
  /// that are R's only causes, as a key; empty when R has any other cause.
  std::string namedCauses(const Region &R);
  std::vector<const clang::FunctionDecl *> kernelsReaching(const clang::FunctionDecl *FD);

  /// Also report a single `x * 2.5` whose constant is exact in float and whose
  /// result is rounded to float at once: nvcc evaluates that in float anyway.
  const bool ReportFoldable;
  /// Also report promotions in kernels whose global memory traffic outlasts
  /// their FP64 work even where FP64 is scarcest (they stay memory-bound).
  const bool ReportMemoryBound;
  llvm::SetVector<const clang::FunctionDecl *> DeviceFunctions;
  llvm::DenseSet<unsigned> Reported; ///< Raw locations of reported causes.
  /// Callee (canonical) -> its calls in device code, with the caller.
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::vector<std::pair<const clang::CallExpr *, const clang::FunctionDecl *>>>
      CallSites;
  bool CallersBuilt = false;
  llvm::DenseMap<const clang::FunctionDecl *, bool> MattersMemo;
};

} // namespace cuda_advisor::checks

#endif
