// mergeRuntime: runtime findings about the same records are one finding.
// The split case: a runtime-sync-heavy finding whose synchronizations are
// the waits of two narrower findings of one rule (downloads and uploads)
// merges with both, its saving the larger of its own and the parts' sum;
// the look-alikes stay apart.
#include "../../lib/Rank/Merge.h"
#include "../../lib/Rank/RuntimeRules.h"

#include "gtest/gtest.h"

using namespace cuda_advisor;
using namespace cuda_advisor::rank;

namespace {

RuntimeFinding make(const std::string &Rule, std::initializer_list<std::pair<size_t, size_t>> Ranges,
                    uint64_t SavingNs) {
  RuntimeFinding R;
  R.F.CheckId = Rule;
  R.F.Message = Rule;
  Cost C;
  C.Matched = true;
  C.SavingNs = SavingNs;
  C.Method = Rule;
  R.F.Ranking = C;
  for (auto [First, End] : Ranges)
    for (size_t I = First; I < End; ++I)
      R.Calls.insert(I);
  return R;
}

// Sync-heavy: the 13 waits 0..12; downloads: copies 100..105 and waits
// 0..5; uploads: copies 200..205 and waits 6..11. No pair holds half of the
// other's records both ways (6 of 13).
std::vector<RuntimeFinding> split(const std::string &Broad, const std::string &Down,
                                  const std::string &Up) {
  return {make(Broad, {{0, 13}}, 5000), make(Down, {{100, 106}, {0, 6}}, 3000),
          make(Up, {{200, 206}, {6, 12}}, 4000)};
}

TEST(MergeRuntimeTest, SyncsSplitAmongOneRulesFindingsAreOneFinding) {
  std::vector<RuntimeFinding> R =
      split("runtime-sync-heavy", "runtime-small-copies", "runtime-small-copies");
  mergeRuntime(R);
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].F.Notes.size(), 2u);
  // Disjoint copies, each batched on its own: 3000 + 4000 > 5000.
  EXPECT_EQ(R[0].F.Ranking->SavingNs, 7000u);
  EXPECT_EQ(R[0].Calls.size(), 25u);
}

TEST(MergeRuntimeTest, PartsOfTwoRulesStayApart) {
  std::vector<RuntimeFinding> R =
      split("runtime-sync-heavy", "runtime-small-copies", "runtime-pageable-copies");
  mergeRuntime(R);
  EXPECT_EQ(R.size(), 3u);
}

TEST(MergeRuntimeTest, ABroadFindingOfAnotherRuleGathersNothing) {
  std::vector<RuntimeFinding> R =
      split("runtime-launch-bound", "runtime-low-occupancy", "runtime-low-occupancy");
  mergeRuntime(R);
  EXPECT_EQ(R.size(), 3u);
}

TEST(MergeRuntimeTest, PartsCoveringLessThanHalfStayApart) {
  std::vector<RuntimeFinding> R = {make("runtime-sync-heavy", {{0, 30}}, 5000),
                                   make("runtime-small-copies", {{100, 106}, {0, 6}}, 3000),
                                   make("runtime-small-copies", {{200, 206}, {6, 12}}, 4000)};
  mergeRuntime(R);
  EXPECT_EQ(R.size(), 3u);
}

TEST(MergeRuntimeTest, OnePartAloneStaysApart) {
  std::vector<RuntimeFinding> R = {make("runtime-sync-heavy", {{0, 13}}, 5000),
                                   make("runtime-small-copies", {{100, 106}, {0, 6}}, 3000)};
  mergeRuntime(R);
  EXPECT_EQ(R.size(), 2u);
}

} // namespace
