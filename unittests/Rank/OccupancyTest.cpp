//===- OccupancyTest.cpp - Theoretical occupancy against the GPU ----------===//
//
// The calculator is NVIDIA's (third_party/cuda_occupancy); these tests check
// how the profile's device record feeds it: the values shared/NOTES.md
// measured for the H200, and, when the collector's recording of
// cudaOccupancyMaxActiveBlocksPerMultiprocessor on the H200 is committed
// (test/Inputs/profiles/occupancy-h200.csv), every row of it.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Rank/Occupancy.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace cuda_advisor;
using namespace cuda_advisor::rank;

namespace {

profile::Device h200() {
  profile::Device D;
  D.ComputeMajor = 9;
  D.ComputeMinor = 0;
  D.NumSMs = 132;
  D.MaxWarpsPerSM = 64;
  D.MaxThreadsPerBlock = 1024;
  D.RegistersPerSM = 65536;
  D.MaxRegistersPerBlock = 65536;
  D.SharedMemPerSM = 233472;
  D.SharedMemPerBlock = 49152;
  D.SharedMemPerBlockOptin = 232448;
  return D; // ReservedSharedMemPerBlock unknown: 1 KiB from cc 8.0 on.
}

TEST(OccupancyTest, H200ValuesFromNotes) {
  profile::Device D = h200();
  auto Occ = [&](int Threads, int Regs, uint64_t Shared = 0) {
    return theoreticalOccupancy(D, {Threads, Regs, 0, Shared});
  };
  std::optional<Occupancy> O = Occ(32, 16);
  ASSERT_TRUE(O);
  EXPECT_EQ(O->ActiveBlocksPerSM, 32);
  EXPECT_DOUBLE_EQ(O->Share, 0.5);
  EXPECT_EQ(O->Limiter, "blocks per SM");
  for (int T : {64, 256, 1024})
    EXPECT_DOUBLE_EQ(Occ(T, 16)->Share, 1.0) << T;
  // 250 threads = 8 warps per block; 8 blocks fill the SM.
  EXPECT_EQ(Occ(250, 16)->ActiveBlocksPerSM, 8);
  // 128 registers per thread: 65536 / (128 * 256) = 2 blocks of 8 warps.
  O = Occ(256, 128);
  EXPECT_EQ(O->ActiveBlocksPerSM, 2);
  EXPECT_DOUBLE_EQ(O->Share, 0.25);
  EXPECT_EQ(O->Limiter, "registers");
  // 100 KiB of dynamic shared memory (+1 KiB reserved): 2 blocks.
  O = Occ(256, 16, 100 * 1024);
  EXPECT_EQ(O->ActiveBlocksPerSM, 2);
  EXPECT_EQ(O->Limiter, "shared memory");
  // A 32-thread block is best at 64 or more threads here.
  std::optional<int> Best = bestBlockSize(D, {32, 16, 0, 0});
  ASSERT_TRUE(Best);
  EXPECT_GE(*Best, 64);
}

TEST(OccupancyTest, UnknownDevicesGiveNoAnswer) {
  profile::Device D;
  EXPECT_FALSE(theoreticalOccupancy(D, {256, 16, 0, 0}));
  profile::Device Old = h200();
  Old.ComputeMajor = 6;
  EXPECT_FALSE(theoreticalOccupancy(Old, {256, 16, 0, 0}));
  EXPECT_FALSE(theoreticalOccupancy(h200(), {0, 16, 0, 0}));
}

TEST(OccupancyTest, OtherArchitectures) {
  // A100 (8.0): 2048 threads, 164 KiB shared/SM; RTX 4090 (8.9): 1536
  // threads, 24 blocks/SM; B200 (10.0).
  profile::Device A100 = h200();
  A100.ComputeMajor = 8;
  A100.SharedMemPerSM = 167936;
  A100.SharedMemPerBlockOptin = 166912;
  EXPECT_EQ(theoreticalOccupancy(A100, {32, 16, 0, 0})->ActiveBlocksPerSM, 32);
  profile::Device Ada = A100;
  Ada.ComputeMinor = 9;
  Ada.MaxWarpsPerSM = 48;
  Ada.SharedMemPerSM = 102400;
  Ada.SharedMemPerBlockOptin = 101376;
  std::optional<Occupancy> O = theoreticalOccupancy(Ada, {32, 16, 0, 0});
  ASSERT_TRUE(O);
  EXPECT_EQ(O->ActiveBlocksPerSM, 24);
  EXPECT_DOUBLE_EQ(O->Share, 0.5);
  profile::Device B200 = h200();
  B200.ComputeMajor = 10;
  B200.SharedMemPerSM = 233472;
  EXPECT_DOUBLE_EQ(theoreticalOccupancy(B200, {256, 32, 0, 0})->Share, 1.0);
  profile::Device Volta = h200();
  Volta.ComputeMajor = 7;
  Volta.SharedMemPerSM = 98304;
  Volta.SharedMemPerBlockOptin = 98304;
  EXPECT_DOUBLE_EQ(theoreticalOccupancy(Volta, {256, 32, 0, 0})->Share, 1.0);
}

// Every row the GPU measured, when the recording is there.
TEST(OccupancyTest, MatchesTheH200) {
  auto Buf = llvm::MemoryBuffer::getFile(CUDA_ADVISOR_TEST_INPUTS "/profiles/occupancy-h200.csv");
  if (!Buf)
    GTEST_SKIP() << "test/Inputs/profiles/occupancy-h200.csv is not committed yet";
  profile::Device D = h200();
  llvm::StringRef Rest = (*Buf)->getBuffer();
  unsigned Rows = 0;
  while (!Rest.empty()) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    if (Line.empty() || Line.starts_with("#") || Line.starts_with("kernel,"))
      continue;
    llvm::SmallVector<llvm::StringRef, 10> F;
    Line.split(F, ',');
    ASSERT_EQ(F.size(), 10u) << Line.str();
    int Regs = 0, Block = 0, Blocks = 0;
    uint64_t Static = 0, Dynamic = 0;
    ASSERT_FALSE(F[1].getAsInteger(10, Regs));
    ASSERT_FALSE(F[2].getAsInteger(10, Static));
    ASSERT_FALSE(F[5].getAsInteger(10, Block));
    ASSERT_FALSE(F[6].getAsInteger(10, Dynamic));
    ASSERT_FALSE(F[7].getAsInteger(10, Blocks));
    int MaxThreads = 0;
    ASSERT_FALSE(F[4].getAsInteger(10, MaxThreads));
    if (Block > MaxThreads)
      continue; // The launch is invalid; the runtime said 0.
    std::optional<Occupancy> O = theoreticalOccupancy(D, {Block, Regs, Static, Dynamic});
    ASSERT_TRUE(O) << Line.str();
    EXPECT_EQ(O->ActiveBlocksPerSM, Blocks) << Line.str();
    ++Rows;
  }
  EXPECT_GT(Rows, 100u);
}

} // namespace
