//===- Report.h - Emitters for findings ------------------------*- C++ -*-===//
//
// Text (clang-style diagnostics), JSON, SARIF 2.1.0, Markdown, HTML and
// clang-apply-replacements YAML. Emitters depend on Core only: they read the
// source lines they show from disk themselves.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_REPORT_REPORT_H
#define CUDA_ADVISOR_REPORT_REPORT_H

#include "cuda-advisor/Core/CheckInfo.h"
#include "cuda-advisor/Core/Finding.h"
#include "cuda-advisor/Core/RunSummary.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace cuda_advisor::report {

/// A file that could not be analyzed or read, with the reason.
struct InputError {
  std::string File;
  std::string Message;
};

struct ReportContext {
  std::string ToolVersion;
  std::vector<CheckInfo> Checks;        ///< Every known check and runtime rule.
  std::vector<std::string> Sources;     ///< Files analyzed.
  std::vector<InputError> Errors;
  std::optional<RunSummary> Summary;    ///< Present when profiles were given.
  std::string DocsDir;                  ///< Installed docs/checks, for help text.
  bool Color = false;                   ///< Text only.
};

enum class OutputFormat { Text, Json, Sarif, Markdown, Html };
std::optional<OutputFormat> parseOutputFormat(llvm::StringRef Name);

void emitText(llvm::raw_ostream &OS, llvm::ArrayRef<Finding> Findings, const ReportContext &Ctx);
void emitJson(llvm::raw_ostream &OS, llvm::ArrayRef<Finding> Findings, const ReportContext &Ctx);
void emitSarif(llvm::raw_ostream &OS, llvm::ArrayRef<Finding> Findings, const ReportContext &Ctx);
void emitMarkdown(llvm::raw_ostream &OS, llvm::ArrayRef<Finding> Findings,
                  const ReportContext &Ctx);
void emitHtml(llvm::raw_ostream &OS, llvm::ArrayRef<Finding> Findings, const ReportContext &Ctx);
void emit(OutputFormat F, llvm::raw_ostream &OS, llvm::ArrayRef<Finding> Findings,
          const ReportContext &Ctx);

/// Writes the fix-its as a clang-apply-replacements YAML document.
llvm::Error exportFixes(llvm::StringRef Path, llvm::ArrayRef<Finding> Findings);
/// Applies the fix-its to the files in place; returns the number applied.
llvm::Expected<unsigned> applyFixes(llvm::ArrayRef<Finding> Findings);

/// "4 MiB", "1.5 KiB", "12 B".
std::string formatBytes(uint64_t Bytes);
/// "35.2 ms", "812 us", "1.20 s".
std::string formatDuration(uint64_t Ns);
/// "measured: 100 calls, 35.2 ms (28% of GPU time); estimated saving: 34.8 ms"
std::string formatCost(const Cost &C);
/// "GPU busy 412 ms of 1.2 s; 4 findings could save about 290 ms"
std::string formatSummary(const RunSummary &S);

/// The documentation page of a check (DocsDir/<id>.md), or empty.
std::string readCheckDoc(llvm::StringRef DocsDir, llvm::StringRef Id);

} // namespace cuda_advisor::report

#endif
