//===- Rank.cpp - placeholder: the ranking issue fills this in -------------===//
#include "cuda-advisor/Rank/Rank.h"

namespace cuda_advisor::rank {

const std::vector<CheckInfo> &runtimeRules() {
  static const std::vector<CheckInfo> None;
  return None;
}

RunSummary rankFindings(std::vector<Finding> &Findings, const profile::Profile &P,
                        const Config &, const RankOptions &) {
  RunSummary S;
  for (const profile::Process &Proc : P.Processes)
    S.Profiles.push_back(Proc.SourceFile);
  return S;
}

} // namespace cuda_advisor::rank
