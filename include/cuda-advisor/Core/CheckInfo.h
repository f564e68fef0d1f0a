//===- CheckInfo.h - What the emitters know about a check ------*- C++ -*-===//
//
// Static checks (Checks layer) and runtime rules (Rank layer) both describe
// themselves with a CheckInfo, so that the Report layer can list them (SARIF
// rules, --list-checks) without depending on either layer.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CORE_CHECKINFO_H
#define CUDA_ADVISOR_CORE_CHECKINFO_H

#include "cuda-advisor/Core/Finding.h"
#include <string>
#include <vector>

namespace cuda_advisor {

struct CheckInfo {
  std::string Id;      ///< Public name, e.g. "transfer-in-loop".
  std::string Summary; ///< One line, starts lowercase, no trailing period.
  Severity DefaultSeverity = Severity::Warning;
  bool Runtime = false; ///< true for runtime-* rules that read only a profile.
};

/// Matches Id against a clang-tidy style glob list ("-*,transfer-*,sync-in-loop"):
/// the last matching glob wins, "-" negates.
class GlobList {
public:
  explicit GlobList(llvm::StringRef Globs);
  bool contains(llvm::StringRef Id) const;
  bool empty() const { return Items.empty(); }

private:
  struct Item {
    bool Positive;
    std::string Pattern;
  };
  std::vector<Item> Items;
};

/// Shell-style match of Text against Pattern, where '*' matches any run.
bool globMatch(llvm::StringRef Pattern, llvm::StringRef Text);

} // namespace cuda_advisor

#endif
