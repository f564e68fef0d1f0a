//===- FormatTest.cpp - Human-readable numbers of the reports -------------===//
#include "cuda-advisor/Report/Report.h"
#include "gtest/gtest.h"

using namespace cuda_advisor;
using namespace cuda_advisor::report;

TEST(FormatBytesTest, UnitsAndDigits) {
  EXPECT_EQ(formatBytes(0), "0 B");
  EXPECT_EQ(formatBytes(12), "12 B");
  EXPECT_EQ(formatBytes(1023), "1023 B");
  EXPECT_EQ(formatBytes(1024), "1 KiB");
  EXPECT_EQ(formatBytes(1536), "1.5 KiB");
  EXPECT_EQ(formatBytes(10752), "10.5 KiB");
  EXPECT_EQ(formatBytes(150 * 1024), "150 KiB");
  EXPECT_EQ(formatBytes(4 << 20), "4 MiB");
  EXPECT_EQ(formatBytes(3ull << 30), "3 GiB");
  EXPECT_EQ(formatBytes(5ull << 40), "5 TiB");
  EXPECT_EQ(formatBytes(5000ull << 40), "5000 TiB");
}

TEST(FormatBytesTest, RoundingNeverShows1024) {
  EXPECT_EQ(formatBytes((1 << 20) - 1), "1 MiB");
  EXPECT_EQ(formatBytes((1 << 20) - 600), "1023 KiB");
}

TEST(FormatDurationTest, UnitsAndDigits) {
  EXPECT_EQ(formatDuration(0), "0 ns");
  EXPECT_EQ(formatDuration(999), "999 ns");
  EXPECT_EQ(formatDuration(1000), "1 us");
  EXPECT_EQ(formatDuration(8120), "8.12 us");
  EXPECT_EQ(formatDuration(812000), "812 us");
  EXPECT_EQ(formatDuration(35200000), "35.2 ms");
  EXPECT_EQ(formatDuration(412000000), "412 ms");
  EXPECT_EQ(formatDuration(1200000000), "1.2 s");
  EXPECT_EQ(formatDuration(12345000000ull), "12.3 s");
  EXPECT_EQ(formatDuration(125000000000ull), "125 s");
}

TEST(FormatDurationTest, RoundingMovesToTheNextUnit) {
  EXPECT_EQ(formatDuration(999999), "1 ms");
  EXPECT_EQ(formatDuration(999500), "1 ms");
  EXPECT_EQ(formatDuration(999999999), "1 s");
  EXPECT_EQ(formatDuration(99960), "100 us");
  EXPECT_EQ(formatDuration(999400), "999 us");
}

static Cost cost(uint64_t Calls, uint64_t Measured, double Gpu, double Wall, uint64_t Saving) {
  Cost C;
  C.Matched = true;
  C.Calls = Calls;
  C.MeasuredNs = Measured;
  C.GpuShare = Gpu;
  C.WallShare = Wall;
  C.SavingNs = Saving;
  return C;
}

TEST(FormatCostTest, TheIssuesExample) {
  EXPECT_EQ(formatCost(cost(100, 35200000, 0.28, 0.03, 34800000)),
            "measured: 100 calls, 35.2 ms (28% of GPU time); estimated saving: 34.8 ms");
}

TEST(FormatCostTest, Variants) {
  EXPECT_EQ(formatCost(Cost()), "not seen in the profile");
  EXPECT_EQ(formatCost(cost(1, 812000, 0.045, 0, 400000)),
            "measured: 1 call, 812 us (4.5% of GPU time); estimated saving: 400 us");
  // No GPU share (an API-only cost): the wall-time share.
  EXPECT_EQ(formatCost(cost(3, 2000000, 0, 0.0025, 1000000)),
            "measured: 3 calls, 2 ms (0.25% of wall time); estimated saving: 1 ms");
  // Neither share, no calls (e.g. idle gaps).
  EXPECT_EQ(formatCost(cost(0, 5000000, 0, 0, 5000000)), "measured: 5 ms; estimated saving: 5 ms");
}

TEST(FormatSummaryTest, TheIssuesExample) {
  RunSummary S;
  S.GpuBusyNs = 412000000;
  S.WallNs = 1200000000;
  S.RankedFindings = 4;
  S.TotalSavingNs = 290000000;
  EXPECT_EQ(formatSummary(S), "GPU busy 412 ms of 1.2 s; 4 findings could save about 290 ms");
  S.RankedFindings = 1;
  EXPECT_EQ(formatSummary(S), "GPU busy 412 ms of 1.2 s; 1 finding could save about 290 ms");
}

TEST(FormatSummaryTest, NothingMatched) {
  RunSummary S;
  S.GpuBusyNs = 412000000;
  S.WallNs = 1200000000;
  EXPECT_EQ(formatSummary(S), "GPU busy 412 ms of 1.2 s; no finding was seen in the profile");
  S.WallNs = 0;
  EXPECT_EQ(formatSummary(S), "GPU busy 412 ms; no finding was seen in the profile");
}
