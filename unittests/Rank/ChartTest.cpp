//===- ChartTest.cpp - The timeline picture's rows, bars, gaps and marks --===//
#include "ProfileBuilder.h"
#include "cuda-advisor/Rank/Chart.h"
#include "cuda-advisor/Rank/Rank.h"

#include "llvm/ADT/STLExtras.h"
#include "gtest/gtest.h"

using namespace cuda_advisor;
using namespace cuda_advisor::rank;
using cuda_advisor::testing::ProfileBuilder;
using profile::CopyKind;

namespace {

// 10 iterations of 1 ms: blocking upload (400 us) at line 47, kernel
// (100 us) at 48, sync (110 us) at 49.
ProfileBuilder loop() {
  ProfileBuilder B;
  for (uint64_t I = 0; I < 10; ++I) {
    uint64_t T = I * 1000000;
    size_t Up = B.call("cudaMemcpy", T, T + 400000, "/ex/a.cu", 47);
    B.copy(Up, CopyKind::HtoD, 4 << 20, T + 10000, T + 390000);
    size_t L = B.call("cudaLaunchKernel", T + 400000, T + 405000, "/ex/a.cu", 48);
    B.kernel(L, "_Z5scalePfi", T + 410000, T + 510000);
    B.call("cudaDeviceSynchronize", T + 405000, T + 515000, "/ex/a.cu", 49);
  }
  B.wall(0, 10000000);
  return B;
}

size_t records(const TimelineRow &R) {
  size_t N = 0;
  for (const TimelineBar &B : R.Bars)
    N += B.Count;
  return N;
}

TEST(ChartTest, RowsBarsAndGaps) {
  ProfileBuilder B = loop();
  ProfileIndex Index(B.P);
  ChartBuilder Builder(Index);
  const TimelineChart &C = Builder.chart();
  ASSERT_EQ(C.Panels.size(), 1u);
  const TimelinePanel &P = C.Panels[0];
  EXPECT_EQ(P.Span, 10000000u);
  EXPECT_EQ(P.Records, 50u);
  // The GPU works from 10 us to 9.51 ms: most of the run, so the first view
  // is all of it.
  EXPECT_EQ(P.ViewStart, 0u);
  EXPECT_EQ(P.ViewEnd, P.Span);
  ASSERT_EQ(P.Rows.size(), 2u);
  EXPECT_EQ(P.Rows[0].Label, "host");
  EXPECT_TRUE(P.Rows[0].Host);
  EXPECT_EQ(P.Rows[1].Label, "GPU 0 stream 7");
  // Few records: each its own bar, in time order, with name and call site.
  ASSERT_EQ(P.Rows[0].Bars.size(), 30u);
  ASSERT_EQ(P.Rows[1].Bars.size(), 20u);
  const TimelineBar &Up = P.Rows[0].Bars[0];
  EXPECT_EQ(Up.Kind, BarKind::ApiTransfer);
  EXPECT_EQ(Up.Label, "cudaMemcpy");
  EXPECT_EQ(Up.Site.Line, 47u);
  EXPECT_EQ(P.Rows[0].Bars[1].Kind, BarKind::ApiLaunch);
  EXPECT_EQ(P.Rows[0].Bars[2].Kind, BarKind::ApiSync);
  const TimelineBar &Copy = P.Rows[1].Bars[0];
  EXPECT_EQ(Copy.Kind, BarKind::CopyHtoD);
  EXPECT_EQ(Copy.Label, "HtoD 4 MiB (pageable to device)");
  EXPECT_EQ(Copy.Site.Line, 47u);
  const TimelineBar &K = P.Rows[1].Bars[1];
  EXPECT_EQ(K.Kind, BarKind::Kernel);
  EXPECT_EQ(K.Label, "scale");
  EXPECT_EQ(K.Site.Line, 48u);
  EXPECT_EQ(K.Start, 410000u);
  EXPECT_EQ(K.End, 510000u);
  // Idle, where it fills a column (10.4 us): between each copy and its
  // kernel, between each kernel and the next copy, after the last kernel;
  // not the 10 us before the first copy.
  ASSERT_EQ(P.Idle.size(), 20u);
  EXPECT_EQ(P.Idle[0].Start, 390000u);
  EXPECT_EQ(P.Idle[0].End, 410000u);
  EXPECT_EQ(P.Idle[1].Start, 510000u);
  EXPECT_EQ(P.Idle[1].End, 1010000u);
  EXPECT_EQ(P.Idle.back().End, P.Span);
}

TEST(ChartTest, FindingMarksCoverCallsAndTheirWork) {
  ProfileBuilder B = loop();
  ProfileIndex Index(B.P);
  ChartBuilder Builder(Index);
  // The uploads (calls 0, 3, 6...): the calls on the host row and their copies.
  std::vector<size_t> Uploads;
  for (size_t I = 0; I < 30; I += 3)
    Uploads.push_back(I);
  int32_t H = Builder.addFinding(Uploads, {});
  ASSERT_EQ(H, 0);
  const std::vector<TimelineMark> &M = Builder.chart().Findings[0];
  ASSERT_EQ(M.size(), 20u);
  EXPECT_EQ(M[0].Row, 0u);
  EXPECT_EQ(M[0].Start, 0u);
  EXPECT_EQ(M[0].End, 400000u);
  EXPECT_EQ(M[10].Row, 1u);
  EXPECT_EQ(M[10].Start, 10000u);
  // A kernel finding marks the kernels and their launches.
  EXPECT_EQ(Builder.addFinding({}, {0, 1}), 1);
  EXPECT_EQ(Builder.chart().Findings[1].size(), 4u);
  // Nothing drawn: no marks.
  EXPECT_EQ(Builder.addFinding({}, {}), -1);
}

TEST(ChartTest, ShortRecordsBecomeDensityBarsWithinTheBudget) {
  // 100,000 kernels of 200 ns every 1 us, launched by 100,000 calls: 200,000
  // records in 100 ms.
  ProfileBuilder B;
  for (uint64_t I = 0; I < 100000; ++I) {
    uint64_t T = 1000000 + I * 1000;
    size_t L = B.call("cudaLaunchKernel", T, T + 300);
    B.kernel(L, "_Z4tinyv", T + 500, T + 700);
  }
  B.wall(0, 102000000);
  ProfileIndex Index(B.P);
  ChartOptions Opts;
  Opts.BarBudget = 4000;
  Opts.MinPanelBars = 4000;
  ChartBuilder Builder(Index, Opts);
  const TimelinePanel &P = Builder.chart().Panels[0];
  ASSERT_EQ(P.Rows.size(), 2u);
  EXPECT_EQ(records(P.Rows[0]), 100000u);
  EXPECT_EQ(records(P.Rows[1]), 100000u);
  size_t Bars = P.Rows[0].Bars.size() + P.Rows[1].Bars.size();
  EXPECT_LE(Bars, 4000u);
  EXPECT_GE(Bars, 1800u); // About a column each at the default view, per row.
  uint64_t Column = (P.ViewEnd - P.ViewStart + 959) / 960;
  for (const TimelineBar &Bar : P.Rows[1].Bars) {
    EXPECT_LE(Bar.End - Bar.Start, Column + 200);
    EXPECT_EQ(Bar.Kind, BarKind::Kernel);
    EXPECT_LE(Bar.BusyNs, Bar.End - Bar.Start);
  }
  const TimelineBar &D = P.Rows[1].Bars[10];
  EXPECT_GT(D.Count, 1u);
  EXPECT_NE(D.Label.find("\xC3\x97 tiny"), std::string::npos) << D.Label;
  // The marks of a finding about all the kernels stay as few.
  std::vector<size_t> All(100000);
  for (size_t I = 0; I < All.size(); ++I)
    All[I] = I;
  Builder.addFinding({}, All);
  EXPECT_LE(Builder.chart().Findings[0].size(), 2u * 1000);
}

TEST(ChartTest, FarApartRecordsStayBounded) {
  // A damaged profile: one kernel 10^18 ns after the others.
  ProfileBuilder B;
  for (uint64_t I = 0; I < 1000; ++I) {
    size_t L = B.call("cudaLaunchKernel", I * 1000, I * 1000 + 300);
    B.kernel(L, "_Z1kv", I * 1000 + 400, I * 1000 + 600);
  }
  size_t L = B.call("cudaLaunchKernel", 1000000000000000000ull, 1000000000000000300ull);
  B.kernel(L, "_Z1kv", 1000000000000000400ull, 1000000000000000600ull);
  ProfileIndex Index(B.P);
  ChartBuilder Builder(Index);
  const TimelinePanel &P = Builder.chart().Panels[0];
  size_t Bars = 0;
  for (const TimelineRow &R : P.Rows)
    Bars += R.Bars.size();
  EXPECT_LE(Bars, 12000u);
  EXPECT_EQ(P.Records, 2002u);
}

TEST(ChartTest, QuietStreamsShareTheLastRow) {
  ProfileBuilder B;
  for (uint32_t S = 0; S < 40; ++S) {
    size_t L = B.call("cudaLaunchKernel", S * 10000, S * 10000 + 300);
    B.kernel(L, "_Z1kv", S * 10000 + 400, S * 10000 + 600 + S * 100, 256, 100 + S);
  }
  ProfileIndex Index(B.P);
  ChartOptions Opts;
  Opts.MaxGpuRows = 4;
  ChartBuilder Builder(Index, Opts);
  const TimelinePanel &P = Builder.chart().Panels[0];
  ASSERT_EQ(P.Rows.size(), 5u);
  // The three busiest streams keep their rows, in stream order.
  EXPECT_EQ(P.Rows[1].Label, "GPU 0 stream 137");
  EXPECT_EQ(P.Rows[3].Label, "GPU 0 stream 139");
  EXPECT_EQ(P.Rows[4].Label, "37 more streams");
  EXPECT_EQ(P.MergedStreams, 37u);
  EXPECT_EQ(records(P.Rows[4]), 37u);
}

TEST(ChartTest, RankingSetsEachFindingsHighlight) {
  ProfileBuilder B = loop();
  std::vector<Finding> Fs(1);
  Fs[0].CheckId = "sync-in-loop";
  Fs[0].Loc = {"/ex/a.cu", 49, 5};
  Fs[0].Keys.CallSites = {Fs[0].Loc};
  Fs[0].Keys.Api = "cudaDeviceSynchronize";
  TimelineChart Chart;
  rankFindings(Fs, B.P, Config(), {}, &Chart);
  ASSERT_EQ(Chart.Panels.size(), 1u);
  auto Sync = llvm::find_if(Fs, [](const Finding &F) { return F.CheckId == "sync-in-loop"; });
  ASSERT_NE(Sync, Fs.end());
  ASSERT_TRUE(Sync->Ranking && Sync->Ranking->Matched);
  int32_t H = Sync->Ranking->Highlight;
  ASSERT_GE(H, 0);
  ASSERT_LT(static_cast<size_t>(H), Chart.Findings.size());
  // The ten syncs, on the host row (with what the runtime rule it absorbed
  // is about).
  const std::vector<TimelineMark> &M = Chart.Findings[static_cast<size_t>(H)];
  for (uint64_t I = 0; I < 10; ++I) {
    uint64_t T = I * 1000000;
    EXPECT_TRUE(llvm::any_of(M, [&](const TimelineMark &X) {
      return X.Row == 0 && X.Start <= T + 405000 && X.End >= T + 515000;
    })) << I;
  }
  // Without a chart, no highlight.
  std::vector<Finding> Again(1, *Sync);
  Again[0].Ranking.reset();
  rankFindings(Again, B.P, Config(), {});
  EXPECT_EQ(Again[0].Ranking->Highlight, -1);
}

} // namespace
