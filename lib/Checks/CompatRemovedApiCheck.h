//===- CompatRemovedApiCheck.h - compat-removed-api -----------*- C++ -*-===//
//
/// Reports, once per API and file, each use of a CUDA runtime API that the
/// installed toolkit no longer has (cudaThreadSynchronize, texture
/// references, cudaDeviceProp::clockRate...) and that cuda-advisor's compat
/// headers declare so that legacy code can be analyzed. The compat
/// declarations carry annotate("cuda-advisor-removed|API|VERSION|FIX").
/// See docs/checks/compat-removed-api.md.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CHECKS_COMPATREMOVEDAPICHECK_H
#define CUDA_ADVISOR_CHECKS_COMPATREMOVEDAPICHECK_H

#include "cuda-advisor/Checks/Check.h"
#include "llvm/ADT/StringMap.h"

namespace cuda_advisor::checks {

class CompatRemovedApiCheck : public Check {
public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  struct Use {
    clang::SourceLocation First; ///< Earliest use in the translation unit.
    std::string Annotation;      ///< "cuda-advisor-removed|API|VERSION|FIX".
    unsigned Count = 0;
  };
  void record(clang::SourceLocation Loc, llvm::StringRef Annotation);

  /// Keyed by API name; the first use is reported at the end of the TU.
  llvm::StringMap<Use> Uses;
};

} // namespace cuda_advisor::checks

#endif
