//===- Rank.h - Joining findings to profiles, cost model, runtime rules -*- C++ -*-===//
#ifndef CUDA_ADVISOR_RANK_RANK_H
#define CUDA_ADVISOR_RANK_RANK_H

#include "cuda-advisor/Core/CheckInfo.h"
#include "cuda-advisor/Core/Config.h"
#include "cuda-advisor/Core/Finding.h"
#include "cuda-advisor/Core/RunSummary.h"
#include "cuda-advisor/Core/TimelineChart.h"
#include "cuda-advisor/Profile/Profile.h"

#include <optional>
#include <vector>

namespace cuda_advisor::rank {

struct RankOptions {
  std::optional<unsigned> Top;   ///< --top N: keep the N largest savings.
  uint64_t MinSavingNs = 0;      ///< --min-saving as an absolute time...
  double MinSavingShare = 0;     ///< ...or as a share of the profiled GPU time.
};

/// Joins Findings to P, fills each finding's Cost, appends the findings of
/// the runtime rules that Cfg enables, and orders everything: ranked
/// findings by estimated saving first, then the rest in static order.
/// With Chart, also draws the run's timeline there (Rank/Chart.h) and sets
/// each ranked finding's Cost::Highlight to the stretches of its records.
RunSummary rankFindings(std::vector<Finding> &Findings, const profile::Profile &P,
                        const Config &Cfg, const RankOptions &Opts,
                        TimelineChart *Chart = nullptr);

} // namespace cuda_advisor::rank

#endif
