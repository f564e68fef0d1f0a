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
#include "cuda-advisor/Core/TimelineChart.h"
#include "cuda-advisor/Core/Units.h"
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
  std::vector<CheckInfo> Checks;    ///< Every known check and runtime rule.
  std::vector<std::string> Sources; ///< Files analyzed.
  std::vector<InputError> Errors;
  std::optional<RunSummary> Summary; ///< Present when profiles were given.
  /// The run's timeline (HTML only; built by the Rank layer). Findings'
  /// Cost::Highlight index its Findings.
  std::optional<TimelineChart> Timeline;
  std::string DocsDir;               ///< Installed docs/checks, for help text.
  bool Color = false;                ///< Text only.
  /// Files under this directory are shown relative to it (Markdown, HTML) and
  /// are SARIF URIs relative to %SRCROOT%. Empty: the current directory.
  std::string SourceRoot;
  /// SARIF tool.driver.informationUri (--docs-url). Empty: none (never the
  /// local install: the log is read on other machines).
  std::string InformationUri;
  /// SARIF rules' helpUri is DocsBaseUri + "<id>.md" (--docs-url). Empty:
  /// no helpUri.
  std::string DocsBaseUri;
  /// Markdown: the findings shown in full before the collapsed rest (0: all)
  /// and the most characters the report may have (0: no limit). 60,000 fits
  /// one GitHub comment (65,536).
  unsigned MarkdownTop = 10;
  size_t MarkdownLimit = 60000;
  /// JSON: the report is shard Index of Count (--shard I/N), for `merge`.
  std::optional<std::pair<unsigned, unsigned>> Shard;
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

/// Writes the findings and their fix-its as a clang-apply-replacements YAML
/// document (the format of clang-tidy --export-fixes; docs/output-formats.md).
llvm::Error exportFixes(llvm::StringRef Path, llvm::ArrayRef<Finding> Findings);
/// The same document, written to OS.
void writeFixesYaml(llvm::raw_ostream &OS, llvm::ArrayRef<Finding> Findings);

/// What applying the fix-its did.
struct FixOutcome {
  unsigned Applied = 0; ///< Fix-its (replacements) written.
  std::vector<std::string> FilesChanged;
  /// One line per finding whose fix-its were left out, with the reason
  /// ("file:line:col: [check] fix-it not applied: it conflicts with ...").
  std::vector<std::string> Skipped;
};
/// Applies the fix-its to the files in place and fills Out. A finding's
/// fix-its are applied together or not at all; findings whose fix-its overlap
/// another finding's (other than an identical one) are all left out, and so
/// are fix-its whose offsets no longer match the file (it changed since it
/// was analyzed). Each file is rewritten atomically (a temporary file in its
/// directory renamed over it, keeping its permissions). Returns an error
/// naming each file that could not be read or written; the other files are
/// still processed.
llvm::Error applyFixesInPlace(llvm::ArrayRef<Finding> Findings, FixOutcome &Out);

/// formatBytes and formatDuration are Core's (cuda-advisor/Core/Units.h).
using cuda_advisor::formatBytes;
using cuda_advisor::formatDuration;
/// "measured: 100 calls, 35.2 ms (28% of GPU time); estimated saving: 34.8 ms"
std::string formatCost(const Cost &C);
/// "GPU busy 412 ms of 1.2 s; 4 findings could save about 290 ms"
std::string formatSummary(const RunSummary &S);

/// nvvp's opening table, over the profiled wall time: compute (kernels
/// running), copies and memsets while no kernel ran, copies and memsets
/// under kernels, and the GPU idle. Rows of {label, ns}; empty without a
/// timeline.
std::vector<std::pair<std::string, uint64_t>> timeShare(const RunSummary &S);
/// "time share: compute 41% (12.3 ms), ..." on one line; empty without a timeline.
std::string formatTimeShare(const RunSummary &S);

/// The documentation page of a check (DocsDir/<id>.md), or empty.
std::string readCheckDoc(llvm::StringRef DocsDir, llvm::StringRef Id);

} // namespace cuda_advisor::report

#endif
