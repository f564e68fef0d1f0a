//===- RuntimeRules.h - The runtime-* rules (private to lib/Rank) -*- C++ -*-===//
#ifndef CUDA_ADVISOR_LIB_RANK_RUNTIMERULES_H
#define CUDA_ADVISOR_LIB_RANK_RUNTIMERULES_H

#include "cuda-advisor/Core/CheckInfo.h"
#include "cuda-advisor/Core/Evidence.h"
#include "cuda-advisor/Core/RuleTable.h"
#include "cuda-advisor/Rank/CostModel.h"

#include <optional>
#include <set>
#include <vector>

namespace cuda_advisor::rank {

/// A finding of a runtime rule and the records it is about, so that the
/// ranking can drop it when a static finding already covers those records.
struct RuntimeFinding {
  Finding F;
  std::set<size_t> Calls;   ///< Into Profile::ApiCalls.
  std::set<size_t> Kernels; ///< Into Profile::Kernels.
  /// The processes the finding is about, when it has no records (idle gaps).
  std::set<profile::ProcessIndex> Processes;
  /// Set when the saving comes from overlapping this process's host work
  /// with its GPU work (idle gaps, synchronizations): all such findings of a
  /// process together hide at most its GPU busy time, which the summary's
  /// total respects.
  std::optional<profile::ProcessIndex> OverlapOf;
  /// The fix saves only if something the profile cannot show holds ("if it
  /// is the same data each time"): merged with a finding about the same
  /// records, it is never the one whose saving counts.
  bool Conditional = false;
};

/// Runs every rule that Enabled selects.
std::vector<RuntimeFinding> runRuntimeRules(const CostModel &Model, const Config &Cfg,
                                            const GlobList &Enabled);


} // namespace cuda_advisor::rank

#endif
