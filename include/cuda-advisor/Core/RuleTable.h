//===- RuleTable.h - The checks and runtime rules of Rules.def --*- C++ -*-===//
//
// Rules.def as data, for the layers that list, configure or document the
// checks and rules without running them: the driver (--list-checks,
// --dump-config, --explain), the emitters (SARIF rules), the ranking
// (covers) and the checks' and rules' option defaults.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CORE_RULETABLE_H
#define CUDA_ADVISOR_CORE_RULETABLE_H

#include "cuda-advisor/Core/CheckInfo.h"
#include "cuda-advisor/Core/Config.h"

#include <string>
#include <vector>

namespace cuda_advisor {

enum class OptionType { Int, Bool, Double };

/// One option of a check or runtime rule, as Rules.def declares it.
struct OptionInfo {
  std::string Rule, Name;
  OptionType Type = OptionType::Int;
  double Default = 0;
  std::string Help;
  bool Shared = false; ///< One every runtime rule has (CUDA_ADVISOR_RUNTIME_OPTION).
};

/// Every static check, then every runtime rule, in Rules.def order.
const std::vector<CheckInfo> &allRules();
/// The static checks only (Runtime == false), in Rules.def order.
const std::vector<CheckInfo> &staticChecks();
/// The runtime-* rules only, in Rules.def order.
const std::vector<CheckInfo> &runtimeRules();
/// The entry named Id, or null.
const CheckInfo *findRule(llvm::StringRef Id);

/// Every option of every entry, in table order: a check's own; a runtime
/// rule's own, then those all runtime rules share.
const std::vector<OptionInfo> &allOptions();
/// The declared default of option Name of Rule. Reading an option the table
/// does not declare is a programming error that every test of the rule
/// meets: it stops the program, also in a release build.
double optionDefault(llvm::StringRef Rule, llvm::StringRef Name);
/// Option Name of Rule: the configured value, else the table's default.
int64_t intOption(const CheckOptions &Opts, llvm::StringRef Rule, llvm::StringRef Name);
double doubleOption(const CheckOptions &Opts, llvm::StringRef Rule, llvm::StringRef Name);
/// The text --dump-config prints for value V of an option of type T.
std::string formatOptionValue(OptionType T, double V);
/// Every option of every entry with its value: the configured one (Opts),
/// else the default. Options in Opts that no entry declares are kept.
CheckOptions withDefaults(const CheckOptions &Opts);

/// The static checks whose findings make a runtime rule's finding about the
/// same records redundant (CUDA_ADVISOR_COVERS).
std::vector<llvm::StringRef> coveringChecks(llvm::StringRef RuleId);
/// The JSON names of the evidence keys Rules.def lets RuleId's findings carry.
std::vector<llvm::StringRef> producedEvidence(llvm::StringRef RuleId);
bool producesEvidence(llvm::StringRef RuleId, llvm::StringRef Name);

/// The API families a finding of CheckId made through a callee is about
/// (CUDA_ADVISOR_API_FAMILY); empty: the family of the finding's own API.
std::vector<llvm::StringRef> apiFamilies(llvm::StringRef CheckId);

/// The Markdown table of the entries Enabled selects, one row each in
/// table order, linking each to its page (docs/README.md's index is this
/// output; `cuda-advisor --list-checks --format markdown` prints it).
std::string checksIndexMarkdown(const GlobList &Enabled);

} // namespace cuda_advisor

#endif
