//===- Finding.h - The result of a check or a runtime rule -----*- C++ -*-===//
//
// A Finding is what every check and runtime rule produces and what every
// emitter consumes: an id, a severity, a location, a message, notes, fix-its,
// the keys that let the Rank layer join it to a profile, and (once ranked) its
// measured cost and estimated saving.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CORE_FINDING_H
#define CUDA_ADVISOR_CORE_FINDING_H

#include "cuda-advisor/Core/SourceLocation.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuda_advisor {

enum class Severity { Note, Warning, Error };

/// Where a finding's code runs, inferred statically (Analysis/HotPath.h): on
/// the hot path (the timed region and its repetition loops), unknown, or off
/// it (set-up, warm-up, verification, a sweep over problem sizes).
enum class Priority { Hot, Normal, Cold };

llvm::StringRef priorityName(Priority P);

llvm::StringRef severityName(Severity S);
std::optional<Severity> parseSeverity(llvm::StringRef Name);

struct FindingNote {
  SourceLocation Loc; ///< May be invalid for notes without a location.
  std::string Message;
};

/// Replace the bytes of Range with Replacement (an insertion when the range is
/// empty). Offsets are set so fixes can be exported for clang-apply-replacements.
struct FixIt {
  SourceRange Range;
  std::string Replacement;
};

/// What the Rank layer needs to find a finding's records in a profile. Checks
/// fill it; they never read a profile themselves.
struct JoinKeys {
  /// Host call sites of the CUDA API calls the finding is about (the call in
  /// the loop for transfer-in-loop, the copy for transfer-pageable-async...).
  std::vector<SourceLocation> CallSites;
  /// Mangled names of the kernels the finding is about (every instantiation
  /// of a template kernel).
  std::vector<std::string> Kernels;
  /// The CUDA runtime API family the finding is about (e.g. "cudaMemcpy").
  std::string Api;
};

/// Filled by the Rank layer from a profile.
struct Cost {
  bool Matched = false;        ///< false: "not seen in the profile".
  uint64_t Calls = 0;          ///< API calls / kernel launches attributed.
  uint64_t MeasuredNs = 0;     ///< Time attributed to the finding.
  double GpuShare = 0;         ///< MeasuredNs / total GPU busy time.
  double WallShare = 0;        ///< MeasuredNs / profiled wall time.
  uint64_t SavingNs = 0;       ///< Estimated saving.
  std::string Method;          ///< How the saving was estimated, one sentence.
  /// Index into the report's TimelineChart::Findings of the stretches of
  /// this finding's records; -1 when no timeline was built.
  int32_t Highlight = -1;
};

struct Finding {
  std::string CheckId;
  Severity Level = Severity::Warning;
  SourceLocation Loc;          ///< Invalid for runtime findings without source.
  SourceRange Range;           ///< Highlighted range, optional.
  std::string Message;
  std::vector<FindingNote> Notes;
  std::vector<FixIt> Fixes;
  JoinKeys Keys;
  /// Check-specific facts (bytes per iteration, stride, degree...), emitted
  /// as "properties" in JSON and SARIF and used by the cost model.
  llvm::json::Object Evidence;
  std::optional<Cost> Ranking;
  /// Static priority; PriorityReason says why when it is not Normal.
  Priority Prio = Priority::Normal;
  std::string PriorityReason;

  Finding() = default;
  Finding(const Finding &Other);
  Finding &operator=(const Finding &Other);
  Finding(Finding &&) = default;
  Finding &operator=(Finding &&) = default;
};

/// Deterministic order: file, line, column, check id, message.
bool findingLess(const Finding &A, const Finding &B);
void sortFindings(std::vector<Finding> &Findings);
/// Sorts and drops exact duplicates (the same finding reached from two TUs
/// that include one header).
void sortAndUniqueFindings(std::vector<Finding> &Findings);

} // namespace cuda_advisor

#endif
