//===- JsonModel.h - Findings as JSON values -------------------*- C++ -*-===//
//
// The JSON shapes shared by the JSON and SARIF emitters (docs/output-formats.md),
// and their reader: `cuda-advisor merge` reads the JSON reports of shards, the
// result cache its entries.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_REPORT_JSONMODEL_H
#define CUDA_ADVISOR_REPORT_JSONMODEL_H

#include "cuda-advisor/Core/Finding.h"
#include "cuda-advisor/Core/RunSummary.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cuda_advisor::report {

llvm::json::Value toJson(const SourceLocation &L);
llvm::json::Value toJson(const Cost &C);
llvm::json::Value toJson(const RunSummary &S);
llvm::json::Value toJson(const Finding &F);

/// How much of a finding its JSON form keeps. Report: the documented fields
/// of --format=json. Exact: also the byte offset of every location, so that
/// findingFromJson gives back the finding exactly (the result cache).
enum class JsonDetail { Report, Exact };
llvm::json::Value toJson(const Finding &F, JsonDetail Detail);

/// The finding that toJson wrote, read back. The error names the field (as
/// a JSON path under Name) and what is wrong with it.
llvm::Expected<Finding> findingFromJson(const llvm::json::Value &V, llvm::StringRef Name);

/// A report written by --format=json, read back.
struct JsonReport {
  std::string ToolVersion;
  std::vector<std::string> Sources;
  std::vector<Finding> Findings;
  /// The inputs the run could not read: {file, message}.
  std::vector<std::pair<std::string, std::string>> Errors;
  /// {index, count} of a shard's report (--shard I/N).
  std::optional<std::pair<unsigned, unsigned>> Shard;
};

/// Reads the text of a JSON report; Name (the file) starts every message.
/// Anything else (another tool's JSON, a truncated file, a finding with a
/// field of the wrong type) is an error saying what is wrong and where.
llvm::Expected<JsonReport> parseJsonReport(llvm::StringRef Text, llvm::StringRef Name);

} // namespace cuda_advisor::report

#endif
