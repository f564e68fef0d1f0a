//===- LaunchGridTruncationCheck.h - launch-grid-truncation ----*- C++ -*-===//
//
/// Finds grids computed as n / threads without rounding up: when n is not a
/// multiple of the block size, the last n % threads elements are never
/// processed. Offers the fix-it (n + threads - 1) / threads.
/// See docs/checks/launch-grid-truncation.md.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CHECKS_LAUNCHGRIDTRUNCATIONCHECK_H
#define CUDA_ADVISOR_CHECKS_LAUNCHGRIDTRUNCATIONCHECK_H

#include "cuda-advisor/Checks/Check.h"

namespace cuda_advisor::checks {

class LaunchGridTruncationCheck : public Check {
public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace cuda_advisor::checks

#endif
