//===- LaunchBlockSizeCheck.h - launch-block-size --------------*- C++ -*-===//
//
/// Finds kernel launches whose thread block is not a multiple of the warp
/// size, too small to fill a multiprocessor, narrower than a warp in x for a
/// 2D/3D block, or larger than 1024 threads (the launch fails).
/// See docs/checks/launch-block-size.md.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CHECKS_LAUNCHBLOCKSIZECHECK_H
#define CUDA_ADVISOR_CHECKS_LAUNCHBLOCKSIZECHECK_H

#include "cuda-advisor/Checks/Check.h"

namespace cuda_advisor::checks {

class LaunchBlockSizeCheck : public Check {
public:
  LaunchBlockSizeCheck(llvm::StringRef Id, Severity Level, CheckContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  const int64_t MinThreads;      ///< Smaller blocks limit occupancy.
  const int64_t MaxBlocksPerSM;  ///< Resident block limit of the target GPU.
  const int64_t Multiprocessors; ///< Multiprocessors of the target GPU (H200: 132).
  const int64_t MaxThreadsPerSM; ///< Resident thread limit of the target GPU.
};

} // namespace cuda_advisor::checks

#endif
