//===- Merge.h - One thief, one finding (private to lib/Rank) -*- C++ -*-===//
//
// A static finding and a runtime finding about the same records (call
// sites' API calls, kernels) are one finding: the static one keeps its
// location and fix, the runtime one becomes a note and evidence. Runtime
// findings about the same records (pageable and repeated copies of the same
// copies) become one finding with one saving. docs/cost-model.md ("One
// thief, one finding").
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_LIB_RANK_MERGE_H
#define CUDA_ADVISOR_LIB_RANK_MERGE_H

#include "RuntimeRules.h"

#include <utility>
#include <vector>

namespace cuda_advisor::rank {

/// The API calls and kernels a finding is about.
struct RecordSet {
  std::vector<size_t> Calls, Kernels; ///< Sorted, unique.
  size_t size() const { return Calls.size() + Kernels.size(); }
};

/// Moves every runtime finding at least half of whose records a ranked
/// static finding is about into that static finding (the one sharing the
/// most records); Records[I] are the records of Static[I] and grow by the
/// runtime finding's.
void mergeIntoStatic(std::vector<RuntimeFinding> &Runtime, std::vector<Finding> &Static,
                     std::vector<RecordSet> &Records);

/// Merges runtime findings that share at least half of the records of the
/// smaller one: the one with the largest saving that is not conditional
/// keeps its message and location, the others become its notes.
void mergeRuntime(std::vector<RuntimeFinding> &Runtime);

} // namespace cuda_advisor::rank

#endif
