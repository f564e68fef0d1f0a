//===- SourcePaths.h - Recorded source paths to the sources here -*- C++ -*-===//
//
// A recording made on another machine (or in another checkout) names the
// sources as that machine saw them: /root/gpu/examples/a.cu, or a path a
// build system rewrote. mapSourcePaths rewrites the source paths of every
// stack frame to the files analyzed here, so that joins compare like with
// like and no output shows the recording machine's paths when the source is
// known here: first the --source-prefix-map rules (OLD=NEW, as compilers'
// -fdebug-prefix-map), then, for paths still not among the known sources,
// the known source with the longest common trailing path.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_PROFILE_SOURCEPATHS_H
#define CUDA_ADVISOR_PROFILE_SOURCEPATHS_H

#include "cuda-advisor/Profile/Profile.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace cuda_advisor::profile {

struct SourcePathMap {
  /// --source-prefix-map OLD=NEW, in the order given. As with GCC's and
  /// Clang's -fdebug-prefix-map, the last rule whose OLD prefixes a path (at
  /// a path component boundary) applies.
  std::vector<std::pair<std::string, std::string>> PrefixMap;
  /// The sources known here (analyzed files, compile database entries),
  /// absolute.
  std::vector<std::string> Sources;
};

/// Parses "OLD=NEW" (the first '=' separates; OLD must not be empty).
llvm::Expected<std::pair<std::string, std::string>> parsePrefixMapping(llvm::StringRef Spec);

/// The path Recorded maps to under M: the prefix map applied, then the known
/// source with the most equal trailing path components (at least the file
/// name; a tie between sources leaves the path as it is).
std::string mapSourcePath(llvm::StringRef Recorded, const SourcePathMap &M);

/// Rewrites the file of every stack frame of P with mapSourcePath; returns
/// how many distinct paths changed.
unsigned mapSourcePaths(Profile &P, const SourcePathMap &M);

} // namespace cuda_advisor::profile

#endif
