//===- Csv.h - The CSV dialect of NVIDIA's profilers ------------*- C++ -*-===//
//
// Private to lib/Profile. Nsight Compute (and nvprof) print RFC 4180 CSV:
// fields separated by commas, quoted with '"' when they hold commas or quotes
// ("(256, 1, 1)", "262,144"), quotes doubled inside. Their stdout mixes
// ==PROF== / ==WARNING== / ==ERROR== lines with the table.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_LIB_PROFILE_CSV_H
#define CUDA_ADVISOR_LIB_PROFILE_CSV_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace cuda_advisor::profile::csv {

struct Row {
  std::vector<std::string> Fields;
  size_t Line = 0; ///< 1-based line of the file where the row starts.
  bool Quoted = false; ///< Whether the row starts with a quote (ncu quotes every field).
};

/// Splits Text into rows. Lines starting with "==" (the profilers' log
/// lines) and blank lines are skipped and collected in Log. Returns false
/// when a quoted field is still open at the end of the text (a file cut off
/// in the middle of a row).
bool parse(llvm::StringRef Text, std::vector<Row> &Rows, std::vector<std::string> &Log,
           size_t FirstLine = 1);

/// "262,144" -> 262144, "1.5" -> 1.5, "n/a" / "" -> nullopt. Thousands
/// separators are commas between groups of three digits.
std::optional<double> parseNumber(llvm::StringRef S);

/// "(256, 1, 1)" -> {256, 1, 1}.
bool parseDim3(llvm::StringRef S, uint32_t Out[3]);

} // namespace cuda_advisor::profile::csv

#endif
