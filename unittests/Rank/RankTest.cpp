//===- RankTest.cpp - Ordering, filters, summary, runtime rules -----------===//
#include "ProfileBuilder.h"
#include "cuda-advisor/Core/RuleTable.h"
#include "cuda-advisor/Profile/Reader.h"
#include "cuda-advisor/Rank/Rank.h"

#include "gtest/gtest.h"

using namespace cuda_advisor;
using namespace cuda_advisor::rank;
using cuda_advisor::testing::ProfileBuilder;
using profile::CopyKind;
using profile::MemoryKind;

namespace {

Finding at(const std::string &Check, const std::string &File, unsigned Line,
           const std::string &Api) {
  Finding F;
  F.CheckId = Check;
  F.Loc.File = File;
  F.Loc.Line = Line;
  F.Loc.Column = 5;
  F.Keys.CallSites = {F.Loc};
  F.Keys.Api = Api;
  F.Message = Check + " at " + std::to_string(Line);
  return F;
}

const Finding *byCheck(const std::vector<Finding> &Fs, const std::string &Id) {
  for (const Finding &F : Fs)
    if (F.CheckId == Id)
      return &F;
  return nullptr;
}

// 10 iterations: blocking upload (400 us) at line 47, kernel (100 us) at
// 48, sync (110 us) at 49.
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

TEST(RankTest, OrdersBySavingThenUnmatchedInStaticOrder) {
  ProfileBuilder B = loop();
  std::vector<Finding> Fs;
  Fs.push_back(at("launch-grid-truncation", "/ex/a.cu", 20, "cudaLaunchKernel")); // Not run.
  Fs.back().Keys.Kernels = {"_Z6unusedv"};
  Fs.push_back(at("sync-in-loop", "/ex/a.cu", 49, "cudaDeviceSynchronize"));
  Fs.push_back(at("transfer-in-loop", "/ex/a.cu", 47, "cudaMemcpy"));
  Fs.back().Evidence["loopInvariant"] = true;
  Fs.push_back(at("transfer-in-loop", "/ex/a.cu", 90, "cudaMemcpy")); // Not run.
  Config Cfg;
  Cfg.Checks = "*,-runtime-*";
  RunSummary S = rankFindings(Fs, B.P, Cfg, {});
  ASSERT_EQ(Fs.size(), 4u);
  // The upload saves 9/10 of 4 ms; the sync less.
  EXPECT_EQ(Fs[0].Loc.Line, 47u);
  EXPECT_EQ(Fs[1].Loc.Line, 49u);
  EXPECT_GT(Fs[0].Ranking->SavingNs, Fs[1].Ranking->SavingNs);
  // The others keep their order, marked not seen.
  EXPECT_EQ(Fs[2].Loc.Line, 20u);
  EXPECT_EQ(Fs[3].Loc.Line, 90u);
  ASSERT_TRUE(Fs[2].Ranking);
  EXPECT_FALSE(Fs[2].Ranking->Matched);
  EXPECT_FALSE(Fs[3].Ranking->Matched);

  EXPECT_EQ(S.RankedFindings, 2u);
  EXPECT_EQ(S.TotalSavingNs, Fs[0].Ranking->SavingNs + Fs[1].Ranking->SavingNs);
  EXPECT_EQ(S.WallNs, 10000000u);
  // Copies (380 us) and kernels (100 us) never overlap here.
  EXPECT_EQ(S.GpuBusyNs, 10u * (380000 + 100000));
  EXPECT_EQ(S.KernelNs, 1000000u);
  EXPECT_EQ(S.CopyNs, 3800000u);
  EXPECT_EQ(S.Kernels, 10u);
  EXPECT_EQ(S.Copies, 10u);
  EXPECT_EQ(S.ApiCalls, 30u);
  EXPECT_EQ(S.Profiles, (std::vector<std::string>{"hand.jsonl"}));
}

TEST(RankTest, TopAndMinSavingFilterRankedFindingsOnly) {
  ProfileBuilder B = loop();
  auto Make = [] {
    std::vector<Finding> Fs;
    Fs.push_back(at("sync-in-loop", "/ex/a.cu", 49, "cudaDeviceSynchronize"));
    Fs.push_back(at("transfer-in-loop", "/ex/a.cu", 47, "cudaMemcpy"));
    Fs.back().Evidence["loopInvariant"] = true;
    Fs.push_back(at("transfer-in-loop", "/ex/a.cu", 90, "cudaMemcpy"));
    return Fs;
  };
  Config Cfg;
  Cfg.Checks = "*,-runtime-*";
  std::vector<Finding> Fs = Make();
  RankOptions Top;
  Top.Top = 1;
  RunSummary S = rankFindings(Fs, B.P, Cfg, Top);
  ASSERT_EQ(Fs.size(), 2u);
  EXPECT_EQ(Fs[0].Loc.Line, 47u);
  EXPECT_FALSE(Fs[1].Ranking->Matched);
  EXPECT_EQ(S.RankedFindings, 1u);

  Fs = Make();
  RankOptions Min;
  Min.MinSavingNs = 3000000; // Only the upload's 3.6 ms passes.
  rankFindings(Fs, B.P, Cfg, Min);
  ASSERT_EQ(Fs.size(), 2u);
  EXPECT_EQ(Fs[0].Loc.Line, 47u);

  Fs = Make();
  RankOptions Share;
  Share.MinSavingShare = 0.9; // Of 4.8 ms of GPU time: nothing passes.
  rankFindings(Fs, B.P, Cfg, Share);
  ASSERT_EQ(Fs.size(), 1u);
  EXPECT_FALSE(Fs[0].Ranking->Matched);
}

TEST(RankTest, WarnsAboutBrokenRuns) {
  ProfileBuilder B = loop();
  profile::Process &Proc = B.P.Processes[0];
  Proc.FailedCalls = 198;
  Proc.FirstErrorApi = "cudaMemcpy";
  Proc.FirstErrorName = "cudaErrorIllegalAddress";
  Proc.FirstErrorCode = 700;
  Proc.FirstErrorStack = B.P.ApiCalls[0].StackIndex;
  Proc.DroppedRecords = 12;
  std::vector<Finding> Fs;
  RunSummary S = rankFindings(Fs, B.P, Config(), {});
  ASSERT_GE(S.Warnings.size(), 2u);
  EXPECT_EQ(S.Warnings[0], "hand.jsonl: the run hit CUDA errors: first cudaErrorIllegalAddress in "
                           "cudaMemcpy at /ex/a.cu:47; 198 calls failed: the timings describe a "
                           "broken run");
  EXPECT_NE(S.Warnings[1].find("12 records were dropped"), std::string::npos);
}

TEST(RankTest, RuntimeFindingsCoveredByStaticOnesAreDropped) {
  // 20 identical 4 MiB pageable uploads from one call site, back to back.
  ProfileBuilder B;
  for (uint64_t I = 0; I < 20; ++I) {
    uint64_t T = I * 400000;
    size_t Up = B.call("cudaMemcpy", T, T + 400000, "/ex/a.cu", 47);
    B.copy(Up, CopyKind::HtoD, 4 << 20, T + 10000, T + 390000);
  }
  B.wall(0, 8000000);
  Config Cfg;
  Cfg.Checks = "runtime-repeated-copies";
  std::vector<Finding> Alone;
  rankFindings(Alone, B.P, Cfg, {});
  ASSERT_EQ(Alone.size(), 1u);
  EXPECT_EQ(Alone[0].CheckId, "runtime-repeated-copies");
  EXPECT_EQ(Alone[0].Loc.File, "/ex/a.cu"); // The user call site is known.
  EXPECT_EQ(Alone[0].Loc.Line, 47u);
  EXPECT_EQ(Alone[0].Ranking->Calls, 20u);
  EXPECT_EQ(Alone[0].Ranking->SavingNs, 20u * 400000 * 19 / 20);

  std::vector<Finding> WithStatic;
  WithStatic.push_back(at("transfer-in-loop", "/src/a.cu", 47, "cudaMemcpy"));
  WithStatic.back().Evidence["loopInvariant"] = true;
  Cfg.Checks = "*";
  rankFindings(WithStatic, B.P, Cfg, {});
  EXPECT_EQ(byCheck(WithStatic, "runtime-repeated-copies"), nullptr);
  // runtime-pageable-copies is about the same records: one thief, one
  // finding. It becomes a note of the static finding, which names it.
  EXPECT_EQ(byCheck(WithStatic, "runtime-pageable-copies"), nullptr);
  ASSERT_EQ(WithStatic[0].CheckId, "transfer-in-loop");
  EXPECT_TRUE(llvm::any_of(WithStatic[0].Notes, [](const FindingNote &N) {
    return llvm::StringRef(N.Message).contains("[runtime-pageable-copies]");
  }));
}

TEST(RankTest, RuntimeRulesHaveInfoAndAreSelectable) {
  const std::vector<CheckInfo> &Rules = runtimeRules();
  ASSERT_EQ(Rules.size(), 14u);
  for (const CheckInfo &R : Rules) {
    EXPECT_TRUE(R.Runtime);
    EXPECT_TRUE(llvm::StringRef(R.Id).starts_with("runtime-"));
    EXPECT_FALSE(R.Summary.empty());
    EXPECT_NE(R.Summary.back(), '.');
  }
  ProfileBuilder B = loop();
  std::vector<Finding> Fs;
  Config Cfg;
  Cfg.Checks = "-*";
  rankFindings(Fs, B.P, Cfg, {});
  EXPECT_TRUE(Fs.empty());
}

// The real torch.profiler trace of the seed's loop, no sources: the
// repeated pageable uploads come first, with their measured cost.
TEST(RankTest, SeedTraceAlone) {
  llvm::Expected<profile::Profile> P =
      profile::readProfile(CUDA_ADVISOR_TEST_INPUTS "/traces/torch-seed-loop.trace.json");
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  std::vector<Finding> Fs;
  RunSummary S = rankFindings(Fs, *P, Config(), {});
  // One thief, one finding: the repeated copies are the pageable copies'
  // records, so each direction is one finding that names
  // runtime-repeated-copies as also found: the downloads a pageable-copies
  // finding, the uploads (issued to an idle GPU between the loop's kernels,
  // each followed by .cuda()'s synchronization) a data-loading one.
  const Finding *Uploads = nullptr;
  unsigned Repeats = 0;
  for (const Finding &F : Fs) {
    EXPECT_NE(F.CheckId, "runtime-repeated-copies");
    const llvm::json::Array *Also = F.Evidence.getArray("alsoFoundBy");
    bool Merged = Also && llvm::any_of(*Also, [](const llvm::json::Value &V) {
                    return V.getAsString() == "runtime-repeated-copies";
                  });
    if (!Merged)
      continue;
    ++Repeats;
    if (llvm::StringRef(F.Message).contains("host-to-device"))
      Uploads = &F;
  }
  EXPECT_EQ(Repeats, 2u); // The uploads, and the downloads.
  ASSERT_NE(Uploads, nullptr);
  EXPECT_EQ(Uploads->CheckId, "runtime-data-loading");
  EXPECT_EQ(Uploads->Ranking->Calls, 100u);
  EXPECT_FALSE(Uploads->Loc.isValid()); // No stacks in this trace.
  // Each cudaMemcpyAsync from pageable memory blocked the host for its own
  // copy, about 322 us on average (32.2 ms); the finding also measures the
  // synchronizations after the copies and the host's work before them.
  EXPECT_GT(Uploads->Ranking->MeasuredNs, 34000000u);
  EXPECT_LT(Uploads->Ranking->MeasuredNs, S.WallNs);
  EXPECT_GT(Uploads->Ranking->SavingNs, 0u);
  EXPECT_LT(Uploads->Ranking->SavingNs, Uploads->Ranking->MeasuredNs);
  unsigned Pageable = 0;
  for (const Finding &F : Fs)
    Pageable += F.CheckId == "runtime-pageable-copies";
  EXPECT_EQ(Pageable, 1u); // The downloads.
  EXPECT_EQ(S.Kernels, 100u);
  EXPECT_EQ(S.Copies, 200u);
  EXPECT_GT(S.TotalSavingNs, 0u);
  EXPECT_LE(S.TotalSavingNs, S.WallNs);
}

} // namespace

namespace {

// No recording has a low-occupancy launch: a hand-built one. 32-thread
// blocks with 24 KiB of shared memory each: 9 blocks (9 warps) fit on an
// H200 SM, 14% occupancy; bigger blocks with the same shared memory fill it.
TEST(RankTest, LowOccupancyWhereAnotherBlockSizeDoesBetter) {
  ProfileBuilder B;
  for (int I = 0; I < 10; ++I) {
    size_t L = B.call("cudaLaunchKernel", I * 200000, I * 200000 + 5000, "/ex/o.cu", 12);
    size_t K = B.kernel(L, "_Z4tinyPf", I * 200000 + 10000, I * 200000 + 110000, 32);
    B.P.Kernels[K].StaticSharedMem = 24 * 1024;
  }
  B.wall(0, 2000000);
  Config Cfg;
  Cfg.Checks = "-*,runtime-low-occupancy";
  std::vector<Finding> Fs;
  rankFindings(Fs, B.P, Cfg, {});
  ASSERT_EQ(Fs.size(), 1u);
  EXPECT_EQ(Fs[0].CheckId, "runtime-low-occupancy");
  EXPECT_NE(Fs[0].Message.find("at 14% theoretical occupancy (9 of 64 warps per SM, limited by "
                               "shared memory) with 32 threads per block"),
            std::string::npos)
      << Fs[0].Message;
  EXPECT_EQ(Fs[0].Loc.Line, 12u);
  ASSERT_TRUE(Fs[0].Ranking);
  EXPECT_EQ(Fs[0].Ranking->MeasuredNs, 1000000u);
  EXPECT_GT(Fs[0].Ranking->SavingNs, 0u);

  // Limited by registers, which no block size changes: no finding.
  for (profile::Kernel &K : B.P.Kernels) {
    K.StaticSharedMem = 0;
    K.RegistersPerThread = 255;
    K.Block = {{256, 1, 1}};
  }
  Fs.clear();
  rankFindings(Fs, B.P, Cfg, {});
  EXPECT_TRUE(Fs.empty());
}

} // namespace
