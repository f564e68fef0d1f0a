//===- RuleTable.cpp - Rules.def as data ----------------------------------===//
#include "cuda-advisor/Core/RuleTable.h"
#include "cuda-advisor/Core/Evidence.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"

#include <cstdio>

using namespace llvm;

namespace cuda_advisor {

namespace {

struct Row {
  const char *Rule;
  const char *Other; ///< The option, covered check or evidence key.
};

struct Table {
  std::vector<CheckInfo> All, Static, Runtime;
  std::vector<OptionInfo> Options;
  StringMap<double> Defaults;
  std::vector<Row> Covers, Produces, Families;
};

const Table &table() {
  static const Table T = [] {
    Table T;
#define CUDA_ADVISOR_CHECK(Id, Class, Level, Estimator, Summary)                            \
  T.Static.push_back(CheckInfo{Id, Summary, Severity::Level, false});
#include "cuda-advisor/Core/Rules.def"
#define CUDA_ADVISOR_RUNTIME_RULE(Id, Method, Level, Summary)                               \
  T.Runtime.push_back(CheckInfo{Id, Summary, Severity::Level, true});
#include "cuda-advisor/Core/Rules.def"
    T.All = T.Static;
    T.All.insert(T.All.end(), T.Runtime.begin(), T.Runtime.end());

    std::vector<OptionInfo> Own, Shared;
#define CUDA_ADVISOR_OPTION(RuleId, Name, Type, Default, Help)                              \
  Own.push_back(OptionInfo{RuleId, #Name, OptionType::Type, Default, Help, false});
#define CUDA_ADVISOR_RUNTIME_OPTION(Name, Type, Default, Help)                              \
  Shared.push_back(OptionInfo{"", #Name, OptionType::Type, Default, Help, true});
#include "cuda-advisor/Core/Rules.def"
    for (const CheckInfo &C : T.All) {
      for (const OptionInfo &O : Own)
        if (O.Rule == C.Id)
          T.Options.push_back(O);
      if (C.Runtime)
        for (OptionInfo O : Shared) {
          O.Rule = C.Id;
          T.Options.push_back(std::move(O));
        }
    }
    for (const OptionInfo &O : T.Options)
      T.Defaults[O.Rule + "." + O.Name] = O.Default;
#define CUDA_ADVISOR_COVERS(RuleId, CheckId) T.Covers.push_back({RuleId, CheckId});
#define CUDA_ADVISOR_PRODUCES(RuleId, Key) T.Produces.push_back({RuleId, evidence::Key.Name});
#define CUDA_ADVISOR_API_FAMILY(CheckId, Family) T.Families.push_back({CheckId, Family});
#include "cuda-advisor/Core/Rules.def"
    // A row naming no entry is a typo in Rules.def.
    auto Declared = [&](StringRef Id) {
      return llvm::any_of(T.All, [&](const CheckInfo &C) { return C.Id == Id; });
    };
    for (const OptionInfo &O : Own)
      if (!Declared(O.Rule))
        report_fatal_error(Twine("Rules.def: option ") + O.Name + " of unknown entry " + O.Rule);
    for (const Row &R : T.Covers)
      if (!Declared(R.Rule) || !Declared(R.Other))
        report_fatal_error(Twine("Rules.def: COVERS row names an unknown entry: ") + R.Rule +
                           ", " + R.Other);
    for (const std::vector<Row> *Rows : {&T.Produces, &T.Families})
      for (const Row &R : *Rows)
        if (!Declared(R.Rule))
          report_fatal_error(Twine("Rules.def: a row of unknown entry ") + R.Rule);
    return T;
  }();
  return T;
}

} // namespace

const std::vector<CheckInfo> &allRules() { return table().All; }
const std::vector<CheckInfo> &staticChecks() { return table().Static; }
const std::vector<CheckInfo> &runtimeRules() { return table().Runtime; }

const CheckInfo *findRule(StringRef Id) {
  for (const CheckInfo &C : table().All)
    if (C.Id == Id)
      return &C;
  return nullptr;
}

const std::vector<OptionInfo> &allOptions() { return table().Options; }

double optionDefault(StringRef Rule, StringRef Name) {
  const StringMap<double> &D = table().Defaults;
  auto It = D.find((Rule + "." + Name).str());
  if (It == D.end())
    report_fatal_error(Twine("check or rule ") + Rule + " reads option " + Name +
                       ", which Rules.def does not declare for it");
  return It->second;
}

int64_t intOption(const CheckOptions &Opts, StringRef Rule, StringRef Name) {
  return Opts.getInt(Rule, Name, static_cast<int64_t>(optionDefault(Rule, Name)));
}

double doubleOption(const CheckOptions &Opts, StringRef Rule, StringRef Name) {
  return Opts.getDouble(Rule, Name, optionDefault(Rule, Name));
}

std::string formatOptionValue(OptionType T, double V) {
  if (T != OptionType::Double)
    return std::to_string(static_cast<int64_t>(V));
  char Text[32];
  std::snprintf(Text, sizeof(Text), "%.10g", V);
  return Text;
}

CheckOptions withDefaults(const CheckOptions &Opts) {
  CheckOptions Out = Opts;
  for (const OptionInfo &O : allOptions())
    if (!Opts.all().count(O.Rule + "." + O.Name))
      Out.set(O.Rule, O.Name, formatOptionValue(O.Type, O.Default));
  return Out;
}

namespace {
/// The Other column of the rows of Rows that belong to Rule.
std::vector<StringRef> othersOf(const std::vector<Row> &Rows, StringRef Rule) {
  std::vector<StringRef> Out;
  for (const Row &R : Rows)
    if (R.Rule == Rule)
      Out.push_back(R.Other);
  return Out;
}
} // namespace

std::vector<StringRef> coveringChecks(StringRef RuleId) {
  return othersOf(table().Covers, RuleId);
}

std::vector<StringRef> producedEvidence(StringRef RuleId) {
  return othersOf(table().Produces, RuleId);
}

bool producesEvidence(StringRef RuleId, StringRef Name) {
  return llvm::any_of(table().Produces,
                      [&](const Row &R) { return R.Rule == RuleId && R.Other == Name; });
}

std::vector<StringRef> apiFamilies(StringRef CheckId) {
  return othersOf(table().Families, CheckId);
}

std::string checksIndexMarkdown(const GlobList &Enabled) {
  std::string Out = "| id | kind | finds |\n| --- | --- | --- |\n";
  for (const CheckInfo &C : allRules())
    if (Enabled.contains(C.Id))
      Out += "| [" + C.Id + "](checks/" + C.Id + ".md) | " +
             (C.Runtime ? "runtime" : "static") + " | " + C.Summary + " |\n";
  return Out;
}

} // namespace cuda_advisor
