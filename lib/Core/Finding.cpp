//===- Finding.cpp --------------------------------------------------------===//
#include "cuda-advisor/Core/Finding.h"

#include <algorithm>
#include <tuple>

namespace cuda_advisor {

llvm::StringRef priorityName(Priority P) {
  switch (P) {
  case Priority::Hot:
    return "hot";
  case Priority::Normal:
    return "normal";
  case Priority::Cold:
    return "cold";
  }
  return "normal";
}

llvm::StringRef severityName(Severity S) {
  switch (S) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "warning";
}

std::optional<Severity> parseSeverity(llvm::StringRef Name) {
  std::string Lower = Name.lower();
  if (Lower == "note" || Lower == "remark")
    return Severity::Note;
  if (Lower == "warning")
    return Severity::Warning;
  if (Lower == "error")
    return Severity::Error;
  return std::nullopt;
}

Finding::Finding(const Finding &Other)
    : CheckId(Other.CheckId), Level(Other.Level), Loc(Other.Loc), Range(Other.Range),
      Message(Other.Message), Notes(Other.Notes), Fixes(Other.Fixes), Keys(Other.Keys),
      Evidence(llvm::json::Object(Other.Evidence)), Ranking(Other.Ranking), Prio(Other.Prio),
      PriorityReason(Other.PriorityReason) {}

Finding &Finding::operator=(const Finding &Other) {
  if (this != &Other) {
    Finding Copy(Other);
    *this = std::move(Copy);
  }
  return *this;
}

bool findingLess(const Finding &A, const Finding &B) {
  return std::tie(A.Loc.File, A.Loc.Line, A.Loc.Column, A.CheckId, A.Message) <
         std::tie(B.Loc.File, B.Loc.Line, B.Loc.Column, B.CheckId, B.Message);
}

void sortFindings(std::vector<Finding> &Findings) {
  std::stable_sort(Findings.begin(), Findings.end(), findingLess);
}

void sortAndUniqueFindings(std::vector<Finding> &Findings) {
  sortFindings(Findings);
  auto Same = [](const Finding &A, const Finding &B) {
    return !findingLess(A, B) && !findingLess(B, A);
  };
  Findings.erase(std::unique(Findings.begin(), Findings.end(), Same), Findings.end());
}

} // namespace cuda_advisor
