//===- CostModelTest.cpp - Estimates on hand-built timelines --------------===//
#include "ProfileBuilder.h"
#include "cuda-advisor/Rank/CostModel.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace cuda_advisor;
using namespace cuda_advisor::rank;
using cuda_advisor::testing::ProfileBuilder;
using profile::CopyKind;
using profile::MemoryKind;

namespace {

SourceLocation at(const std::string &File, unsigned Line) {
  SourceLocation L;
  L.File = File;
  L.Line = Line;
  return L;
}

Finding finding(const std::string &Check, const std::string &Api, SourceLocation Site) {
  Finding F;
  F.CheckId = Check;
  F.Keys.Api = Api;
  F.Keys.CallSites = {std::move(Site)};
  return F;
}

struct Model {
  explicit Model(const profile::Profile &P) : Index(P), Join(Index), Costs(Index, Join, Cfg) {}
  std::optional<Cost> estimate(const Finding &F) { return Costs.estimate(F, Join.match(F)); }
  Config Cfg;
  ProfileIndex Index;
  Joiner Join;
  CostModel Costs;
};

// 10 iterations of (blocking 4 MiB upload at line 47, kernel, 4 MiB download).
ProfileBuilder transferLoop() {
  ProfileBuilder B;
  B.wall(0, 10 * 1000000);
  for (uint64_t I = 0; I < 10; ++I) {
    uint64_t T = I * 1000000;
    size_t Up = B.call("cudaMemcpy", T, T + 400000, "/ex/loop.cu", 47);
    B.copy(Up, CopyKind::HtoD, 4 << 20, T + 10000, T + 390000);
    size_t L = B.call("cudaLaunchKernel", T + 400000, T + 405000, "/ex/loop.cu", 48);
    B.kernel(L, "_Z5scalePfi", T + 410000, T + 420000);
    size_t Down = B.call("cudaMemcpy", T + 405000, T + 800000, "/ex/loop.cu", 50);
    B.copy(Down, CopyKind::DtoH, 4 << 20, T + 420000, T + 790000);
  }
  return B;
}

TEST(CostModelTest, LoopInvariantCopySavesAllButOne) {
  ProfileBuilder B = transferLoop();
  Model M(B.P);
  Finding F = finding("transfer-in-loop", "cudaMemcpy", at("/work/ex/loop.cu", 47));
  F.Evidence["loopInvariant"] = true;
  std::optional<Cost> C = M.estimate(F);
  ASSERT_TRUE(C);
  EXPECT_TRUE(C->Matched);
  EXPECT_EQ(C->Calls, 10u);
  // Each upload blocked the host 400 us; nothing else ran on the GPU then.
  EXPECT_EQ(C->MeasuredNs, 4000000u);
  EXPECT_EQ(C->SavingNs, 3600000u);
  EXPECT_DOUBLE_EQ(C->WallShare, 0.4);
  EXPECT_EQ(C->GpuShare, 0); // Host time.
  EXPECT_NE(C->Method.find("other 9 copies"), std::string::npos) << C->Method;

  // The download waits 15 us for the kernel first: that is the kernel's.
  Finding D = finding("transfer-in-loop", "cudaMemcpy", at("/work/ex/loop.cu", 50));
  D.Evidence["loopInvariant"] = true;
  C = M.estimate(D);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->MeasuredNs, 10u * (395000 - 10000));
}

TEST(CostModelTest, ChangingLargeCopiesSaveLittleWhenBatched) {
  ProfileBuilder B = transferLoop();
  Model M(B.P);
  Finding F = finding("transfer-in-loop", "cudaMemcpy", at("/work/ex/loop.cu", 47));
  F.Evidence["loopInvariant"] = false;
  std::optional<Cost> C = M.estimate(F);
  ASSERT_TRUE(C);
  // Equal copies at one bandwidth: batching saves nothing measurable.
  EXPECT_LT(C->SavingNs, C->MeasuredNs / 100);
  EXPECT_NE(C->Method.find("batching"), std::string::npos);
}

TEST(CostModelTest, UnmatchedFindingHasNoCost) {
  ProfileBuilder B = transferLoop();
  Model M(B.P);
  EXPECT_FALSE(M.estimate(finding("transfer-in-loop", "cudaMemcpy", at("/ex/loop.cu", 99))));
}

TEST(CostModelTest, PinnedCopiesUnblockAPipeline) {
  // Two streams, each: pageable async upload (blocks 200 us, GPU copy 160
  // us), a 200 us kernel. Pinned at 50 GB/s (1 MB in 20 us): the host no
  // longer waits and the two streams overlap.
  ProfileBuilder B;
  B.wall(0, 1000000);
  uint64_t T = 0;
  for (uint32_t S = 1; S <= 2; ++S) {
    size_t Up = B.call("cudaMemcpyAsync", T, T + 200000, "/ex/pipe.cu", 20);
    B.copy(Up, CopyKind::HtoD, 1000000, T + 40000, T + 200000, MemoryKind::Pageable, S);
    size_t L = B.call("cudaLaunchKernel", T + 200000, T + 205000, "/ex/pipe.cu", 21);
    B.kernel(L, "_Z4workPf", T + 210000, T + 410000, 256, S);
    T += 205000;
  }
  size_t Sync = B.call("cudaDeviceSynchronize", T, 620000);
  (void)Sync;
  Model M(B.P);
  std::optional<Cost> C =
      M.estimate(finding("transfer-pageable-async", "cudaMemcpyAsync", at("/ex/pipe.cu", 20)));
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Calls, 2u);
  EXPECT_EQ(C->MeasuredNs, 400000u);
  // Before: 0 .. 620 us (through the cudaDeviceSynchronize). After: 2 async
  // calls and 2 launches on the host; the first copy (20 us), then the two
  // kernels, which fill the GPU and so run one after the other (400 us),
  // plus the launch latency and the synchronization's return: about 415 us.
  EXPECT_GT(C->SavingNs, 180000u);
  EXPECT_LT(C->SavingNs, 220000u);
  EXPECT_NE(C->Method.find("critical-path"), std::string::npos);

  // The same copies from pinned memory: nothing to estimate.
  for (profile::Copy &Cp : B.P.Copies)
    Cp.Src = MemoryKind::Pinned;
  Model Pinned(B.P);
  C = Pinned.estimate(finding("transfer-pageable-async", "cudaMemcpyAsync", at("/ex/pipe.cu", 20)));
  ASSERT_TRUE(C);
  EXPECT_EQ(C->SavingNs, 0u);
}

TEST(CostModelTest, SyncInLoopSavesTheBubbles) {
  // 100 steps: launch (4 us), kernel 5 us starting 6 us after the launch,
  // sync returning 3 us after the kernel: 14 us per step of which the GPU
  // works 5. Without the syncs the host launches every 4 us and the GPU
  // runs kernels back to back: 5 us per step.
  ProfileBuilder B;
  uint64_t T = 10000;
  for (int I = 0; I < 100; ++I) {
    size_t L = B.call("cudaLaunchKernel", T, T + 4000, "/ex/sync.cu", 30);
    B.kernel(L, "_Z4stepPf", T + 6000, T + 11000);
    B.call("cudaDeviceSynchronize", T + 4000, T + 14000, "/ex/sync.cu", 31);
    T += 14000;
  }
  B.wall(0, T + 10000);
  Model M(B.P);
  std::optional<Cost> C =
      M.estimate(finding("sync-in-loop", "cudaDeviceSynchronize", at("/ex/sync.cu", 31)));
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Calls, 100u);
  EXPECT_EQ(C->MeasuredNs, 100u * 10000);
  // 1.41 ms before, 0.5 ms of kernels (+ one launch latency) after.
  EXPECT_GT(C->SavingNs, 850000u);
  EXPECT_LT(C->SavingNs, 950000u);
}

TEST(CostModelTest, RedundantSyncSavesOnlyItsOwnOverhead) {
  // kernel 10 us, sync returns 4 us after it, then a blocking 4 KiB copy
  // whose copy starts 6 us after the sync returned.
  ProfileBuilder B;
  uint64_t T = 0;
  for (int I = 0; I < 10; ++I) {
    size_t L = B.call("cudaLaunchKernel", T, T + 3000);
    B.kernel(L, "_Z4sumsPf", T + 5000, T + 15000);
    B.call("cudaDeviceSynchronize", T + 3000, T + 19000, "/ex/red.cu", 40);
    size_t C = B.call("cudaMemcpy", T + 19000, T + 30000);
    B.copy(C, CopyKind::DtoH, 4096, T + 25000, T + 27000, MemoryKind::Pageable);
    T += 40000;
  }
  B.wall(0, T);
  Model M(B.P);
  std::optional<Cost> C =
      M.estimate(finding("sync-redundant", "cudaDeviceSynchronize", at("/ex/red.cu", 40)));
  ASSERT_TRUE(C);
  // The copy waits for the kernel itself and learns of its end as late as
  // the sync does (4 us, the syncs' return latency): only the sync's idle
  // time beyond that goes, 2 us before the kernel started and 4 - 4 after.
  EXPECT_EQ(C->SavingNs, 10u * 2000);
  EXPECT_EQ(C->MeasuredNs, 10u * 16000);
}

TEST(CostModelTest, UncoalescedStaticAndNcuRefined) {
  ProfileBuilder B;
  for (int I = 0; I < 4; ++I) {
    size_t L = B.call("cudaLaunchKernel", I * 1000000, I * 1000000 + 5000);
    B.kernel(L, "_Z15transpose_naivePKfPfii", I * 1000000 + 10000, I * 1000000 + 210000);
  }
  B.wall(0, 4000000);
  Finding F;
  F.CheckId = "access-uncoalesced";
  F.Keys.Kernels = {"_Z15transpose_naivePKfPfii"};
  F.Evidence["sectorUseFraction"] = 0.125;
  {
    Model M(B.P);
    std::optional<Cost> C = M.estimate(F);
    ASSERT_TRUE(C);
    EXPECT_EQ(C->MeasuredNs, 800000u);
    EXPECT_DOUBLE_EQ(C->GpuShare, 1.0);
    // Store at 1/8 use + one coalesced load: waste 7 of 9 sector units.
    EXPECT_EQ(C->SavingNs, 800000u * 7 / 9);
  }
  {
    // One finding for two strided accesses at distinct addresses (a stencil's
    // neighbours) among four: waste 2 x 7 of 4 + 14 sector units.
    Finding G = F;
    G.Evidence["globalAccesses"] = 4;
    G.Evidence["stridedAccesses"] = 2;
    Model M(B.P);
    std::optional<Cost> C = M.estimate(G);
    ASSERT_TRUE(C);
    EXPECT_EQ(C->SavingNs, 800000u * 14 / 18);
    // More than the kernel's accesses (a bad key): clamped to them.
    G.Evidence["stridedAccesses"] = 40;
    std::optional<Cost> D = Model(B.P).estimate(G);
    ASSERT_TRUE(D);
    EXPECT_EQ(D->SavingNs, 800000u * 28 / 32);
  }
  // Nsight Compute: loads 100% efficient, stores 12.5%, 1M sectors each.
  profile::KernelMetrics K;
  K.Name = "transpose_naive(const float *, float *, int, int)";
  K.GlobalLoadEfficiencyPct = 100;
  K.GlobalStoreEfficiencyPct = 12.5;
  K.Values["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 1000000;
  K.Values["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] = 8000000;
  B.P.Metrics.push_back(K);
  Model M(B.P);
  std::optional<Cost> C = M.estimate(F);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->SavingNs, static_cast<uint64_t>(800000 * (7.0 / 9.0) + 0.5));
  EXPECT_NE(C->Method.find("Nsight Compute"), std::string::npos);
}

TEST(CostModelTest, FusionSavesIntermediateTrafficAndGaps) {
  ProfileBuilder B;
  uint64_t T = 0;
  const char *Chain[] = {"_Z5step1PKfPfi", "_Z5step2PKfPfi", "_Z5step3PKfPfi"};
  for (int R = 0; R < 5; ++R)
    for (const char *K : Chain) {
      size_t L = B.call("cudaLaunchKernel", T, T + 3000);
      B.kernel(L, K, T + 5000, T + 35000);
      T += 32000; // 2 us between consecutive kernels.
    }
  B.wall(0, T + 10000);
  Finding F;
  F.CheckId = "kernel-fusion";
  F.Keys.Kernels = {Chain[0], Chain[1], Chain[2]};
  Model M(B.P);
  std::optional<Cost> C = M.estimate(F);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Calls, 15u);
  EXPECT_EQ(C->MeasuredNs, 15u * 30000);
  // 2/3 of the kernel time, plus the 2 us gaps from one chain member to the
  // next (2 per pass; the gap between passes stays).
  EXPECT_EQ(C->SavingNs, 15u * 30000 * 2 / 3 + 10 * 2000);
}

TEST(CostModelTest, BlockSizeNotAMultipleOf32) {
  ProfileBuilder B;
  size_t L = B.call("cudaLaunchKernel", 0, 5000, "/ex/b.cu", 9);
  B.kernel(L, "_Z4axpyfPKfPfi", 10000, 110000, 250);
  B.wall(0, 200000);
  Finding F = finding("launch-block-size", "cudaLaunchKernel", at("/ex/b.cu", 9));
  F.Keys.Kernels = {"_Z4axpyfPKfPfi"};
  F.Evidence["threads"] = 250;
  Model M(B.P);
  std::optional<Cost> C = M.estimate(F);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->SavingNs, static_cast<uint64_t>(std::llround(100000.0 * 6 / 256)));
}

TEST(CostModelTest, BlockRowsThatRepeatTheWork) {
  // A 32x8 block for a kernel that never reads threadIdx.y: 7 of 8 rows repeat.
  ProfileBuilder B;
  size_t L = B.call("cudaLaunchKernel", 0, 5000, "/ex/r.cu", 9);
  size_t K = B.kernel(L, "_Z7rowSumsPKfPfi", 10000, 90000);
  B.P.Kernels[K].Block = {{32, 8, 1}};
  B.wall(0, 200000);
  Finding F = finding("launch-block-size", "cudaLaunchKernel", at("/ex/r.cu", 9));
  F.Keys.Kernels = {"_Z7rowSumsPKfPfi"};
  F.Evidence["threads"] = 256;
  F.Evidence["blockY"] = 8;
  F.Evidence["repeatFactor"] = 8;
  Model M(B.P);
  std::optional<Cost> C = M.estimate(F);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->MeasuredNs, 80000u);
  EXPECT_EQ(C->SavingNs, 70000u);
  // Without the evidence, the same 32x8 launch has nothing to save.
  F.Evidence.erase("repeatFactor");
  std::optional<Cost> Plain = M.estimate(F);
  ASSERT_TRUE(Plain);
  EXPECT_LT(Plain->SavingNs, 70000u);
}

TEST(CostModelTest, LaunchGridTruncationIsMeasuredButSavesNothing) {
  ProfileBuilder B;
  size_t L = B.call("cudaLaunchKernel", 0, 5000, "/ex/g.cu", 9);
  B.kernel(L, "_Z1kPfi", 10000, 20000);
  Finding F = finding("launch-grid-truncation", "cudaLaunchKernel", at("/ex/g.cu", 9));
  F.Keys.Kernels = {"_Z1kPfi"};
  Model M(B.P);
  std::optional<Cost> C = M.estimate(F);
  ASSERT_TRUE(C);
  EXPECT_TRUE(C->Matched);
  EXPECT_EQ(C->MeasuredNs, 10000u);
  EXPECT_EQ(C->SavingNs, 0u);
}

TEST(CostModelTest, PinnedBandwidthMeasuredOrDefault) {
  ProfileBuilder B;
  Model Empty(B.P);
  std::string Source;
  EXPECT_DOUBLE_EQ(Empty.Costs.pinnedBandwidth(0, 0, CopyKind::HtoD, &Source), 50.0);
  EXPECT_NE(Source.find("default"), std::string::npos);
  size_t C = B.call("cudaMemcpyAsync", 0, 5000);
  B.copy(C, CopyKind::HtoD, 8 << 20, 1000, 1000 + 200000, MemoryKind::Pinned);
  Model M(B.P);
  EXPECT_NEAR(M.Costs.pinnedBandwidth(0, 0, CopyKind::HtoD, &Source), (8 << 20) / 200000.0, 1e-9);
  EXPECT_NE(Source.find("measured"), std::string::npos);
  // Another direction has no measurement.
  EXPECT_DOUBLE_EQ(M.Costs.pinnedBandwidth(0, 0, CopyKind::DtoH), 50.0);
}

TEST(CostModelTest, Formatting) {
  EXPECT_EQ(formatBytes(4 << 20), "4 MiB");
  EXPECT_EQ(formatBytes(4000000), "3.81 MiB");
  EXPECT_EQ(formatBytes(12), "12 B");
  EXPECT_EQ(formatDuration(35200000), "35.2 ms");
  EXPECT_EQ(formatDuration(812000), "812 us");
  EXPECT_EQ(formatDuration(1200000000), "1.2 s");
  EXPECT_EQ(formatBandwidth(12.5), "12.5 GB/s");
}

} // namespace
