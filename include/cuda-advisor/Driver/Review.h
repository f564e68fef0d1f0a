//===- Review.h - --line-filter and --diff ---------------------*- C++ -*-===//
#ifndef CUDA_ADVISOR_DRIVER_REVIEW_H
#define CUDA_ADVISOR_DRIVER_REVIEW_H

#include "cuda-advisor/Core/LineFilter.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace cuda_advisor::driver {

/// The line filter of --line-filter JSON or --diff FILE ("-": stdin); none
/// when neither was given. Both at once is an error.
llvm::Expected<std::optional<LineFilter>> loadReviewFilter(const std::string &LineFilterJson,
                                                           const std::string &DiffPath);

/// The root that SARIF URIs are relative to (%SRCROOT%): Given (--source-root)
/// made absolute, else the top of the git work tree holding the current
/// directory (the nearest parent with a .git), else "" (the current directory).
std::string findSourceRoot(const std::string &Given);

} // namespace cuda_advisor::driver

#endif
