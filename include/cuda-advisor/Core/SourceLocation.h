//===- SourceLocation.h - Source positions as plain data -------*- C++ -*-===//
//
// Locations that outlive the Clang AST: a file path and a 1-based line and
// column. The Report and Rank layers use these, never clang::SourceLocation.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CORE_SOURCELOCATION_H
#define CUDA_ADVISOR_CORE_SOURCELOCATION_H

#include <string>
#include <tuple>

namespace cuda_advisor {

struct SourceLocation {
  std::string File; ///< Absolute, normalized path; empty when unknown.
  unsigned Line = 0;
  unsigned Column = 0;
  /// Byte offset of the position in the file (for fix-it export).
  unsigned Offset = 0;

  bool isValid() const { return !File.empty() && Line != 0; }
  friend bool operator<(const SourceLocation &A, const SourceLocation &B) {
    return std::tie(A.File, A.Line, A.Column) < std::tie(B.File, B.Line, B.Column);
  }
  friend bool operator==(const SourceLocation &A, const SourceLocation &B) {
    return std::tie(A.File, A.Line, A.Column) == std::tie(B.File, B.Line, B.Column);
  }
};

/// A half-open range [Begin, End) within one file.
struct SourceRange {
  SourceLocation Begin;
  SourceLocation End;
  bool isValid() const { return Begin.isValid(); }
};

} // namespace cuda_advisor

#endif
