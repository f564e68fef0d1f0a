//===- LineFilter.h - Findings on chosen lines only ------------*- C++ -*-===//
//
// Code review reports only what a change touched. A LineFilter holds, per
// file, the lines to report; it is read from clang-tidy's --line-filter JSON
// or from a unified diff (--diff, e.g. `git diff -U0 main...`).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CORE_LINEFILTER_H
#define CUDA_ADVISOR_CORE_LINEFILTER_H

#include "cuda-advisor/Core/Finding.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace cuda_advisor {

class LineFilter {
public:
  struct FileLines {
    /// As written in the filter or the diff: absolute, or relative to the
    /// repository (it then matches any path that ends with it, whole
    /// components only).
    std::string Name;
    /// Inclusive line ranges; empty: every line of the file (clang-tidy's
    /// meaning of an entry without "lines").
    std::vector<std::pair<unsigned, unsigned>> Lines;
  };

  /// clang-tidy's syntax: [{"name":"file.cu","lines":[[1,3],[5,5]]},{"name":"b.cu"}].
  static llvm::Expected<LineFilter> fromJson(llvm::StringRef Text);
  /// The added and changed lines of a unified diff (the new side: '+++'
  /// names, '+' lines counted from each hunk's "+start"). Deleted files and
  /// hunks that only delete add nothing. Paths lose git's "b/" prefix.
  static llvm::Expected<LineFilter> fromUnifiedDiff(llvm::StringRef Text);

  /// Whether Loc is on a chosen line of a chosen file.
  bool contains(const SourceLocation &Loc) const;
  /// A finding stays when its location, or for a runtime finding one of its
  /// call sites, is on a chosen line.
  bool keeps(const Finding &F) const;
  /// Drops from Findings what keeps() does not keep.
  void apply(std::vector<Finding> &Findings) const;

  const std::vector<FileLines> &files() const { return Files; }

private:
  std::vector<FileLines> Files;
};

} // namespace cuda_advisor

#endif
