//===- Merge.h - `cuda-advisor merge`: joining shards' reports --*- C++ -*-===//
//
// Reads the JSON reports that `--shard I/N --format=json` runs wrote (or any
// JSON reports of the tool) and joins their findings, sources and errors; the
// analysis command then ranks and emits them as if one run had found them.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_DRIVER_MERGE_H
#define CUDA_ADVISOR_DRIVER_MERGE_H

#include "cuda-advisor/Core/Finding.h"
#include "cuda-advisor/Report/Report.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cuda_advisor::driver {

struct MergedReports {
  /// Sorted, duplicates (the same finding from two shards that include one
  /// header) once; unranked (ranking runs after the merge).
  std::vector<Finding> Findings;
  std::vector<std::string> Sources; ///< Sorted, each once.
  std::vector<report::InputError> Errors;
};

/// Reads every report. Fails with one error per report that cannot be read
/// (missing, not a JSON report of this tool, truncated, a field of the wrong
/// type), each naming its file, and when shards' reports do not make one
/// whole run (shards of different splits, one shard twice, a shard missing).
llvm::Expected<MergedReports> readReportsToMerge(llvm::ArrayRef<std::string> Paths);

} // namespace cuda_advisor::driver

#endif
