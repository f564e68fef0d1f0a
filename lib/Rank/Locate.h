//===- Locate.h - Where a runtime finding is (private to lib/Rank) -*- C++ -*-===//
//
// Runtime rules place a finding at the user frame of its records' stacks.
// Where that frame names only a function (torch.profiler's python_function
// frames carry the function's first line, not the line of the call), the
// finding says "in load_batch() (train.py:21)" instead of presenting that
// line as the call's.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_LIB_RANK_LOCATE_H
#define CUDA_ADVISOR_LIB_RANK_LOCATE_H

#include "RuntimeRules.h"

#include <vector>

namespace cuda_advisor::rank {

/// Rewrites the findings placed at a function-only frame of P: no line
/// location, the function named at the start of the message and in the
/// evidence (function, functionFile, functionLine).
void placeAtFunctions(std::vector<RuntimeFinding> &Runtime, const profile::Profile &P);

} // namespace cuda_advisor::rank

#endif
