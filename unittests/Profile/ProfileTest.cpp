//===- ProfileTest.cpp - The profile model --------------------------------===//
#include "cuda-advisor/Profile/Profile.h"

#include "gtest/gtest.h"

using namespace cuda_advisor::profile;

namespace {

Profile oneRun(uint32_t Pid, uint32_t DeviceId) {
  Profile P;
  Process Proc;
  Proc.Pid = Pid;
  P.Processes.push_back(Proc);
  Device D;
  D.Id = DeviceId;
  D.NumSMs = static_cast<int>(Pid);
  P.Devices.push_back(D);
  Stack S;
  S.Frames = {0x1000};
  P.Stacks.push_back(S);
  ApiCall A;
  A.StackIndex = 0;
  P.ApiCalls.push_back(A);
  Kernel K;
  P.Kernels.push_back(K);
  KernelMetrics M;
  P.Metrics.push_back(M);
  Module Mod;
  P.Modules.push_back(Mod);
  P.Processes[0].FirstErrorStack = 0;
  return P;
}

TEST(ProfileTest, MergeRenumbersProcessesAndStacks) {
  Profile P = oneRun(10, 0);
  P.merge(oneRun(20, 0));
  ASSERT_EQ(P.Processes.size(), 2u);
  ASSERT_EQ(P.Stacks.size(), 2u);
  EXPECT_EQ(P.ApiCalls[1].Process, 1u);
  EXPECT_EQ(P.ApiCalls[1].StackIndex, 1);
  EXPECT_EQ(P.Processes[1].FirstErrorStack, 1);
  EXPECT_EQ(P.Stacks[1].Process, 1u);
  EXPECT_EQ(P.Kernels[1].Process, 1u);
  EXPECT_EQ(P.Metrics[1].Process, 1u);
  EXPECT_EQ(P.Modules[1].Process, 1u);
  EXPECT_EQ(P.Devices[1].Process, 1u);
  // Device 0 of each run is that run's own.
  EXPECT_EQ(P.findDevice(0, 0)->NumSMs, 10);
  EXPECT_EQ(P.findDevice(1, 0)->NumSMs, 20);
  EXPECT_EQ(P.findDevice(1, 3), nullptr);
}

TEST(ProfileTest, KindNames) {
  EXPECT_STREQ(copyKindName(CopyKind::HtoD), "HtoD");
  EXPECT_STREQ(memoryKindName(MemoryKind::Pageable), "pageable");
  EXPECT_STREQ(syncKindName(SyncKind::StreamSynchronize), "stream-synchronize");
  EXPECT_STREQ(copyKindName(static_cast<CopyKind>(99)), "unknown");
}

} // namespace

TEST(ProfileKindNamesTest, ParseInvertsTheNamesAndAcceptsOtherSpellings) {
  using namespace cuda_advisor::profile;
  for (unsigned I = 0; I <= static_cast<unsigned>(CopyKind::PtoP); ++I)
    EXPECT_EQ(parseCopyKind(copyKindName(static_cast<CopyKind>(I))), static_cast<CopyKind>(I));
  for (unsigned I = 0; I <= static_cast<unsigned>(MemoryKind::ManagedStatic); ++I)
    EXPECT_EQ(parseMemoryKind(memoryKindName(static_cast<MemoryKind>(I))),
              static_cast<MemoryKind>(I));
  for (unsigned I = 0; I <= static_cast<unsigned>(SyncKind::ContextSynchronize); ++I)
    EXPECT_EQ(parseSyncKind(syncKindName(static_cast<SyncKind>(I))), static_cast<SyncKind>(I));
  // Kineto's spellings ("Memcpy HtoD (Pageable -> Device)", "Device Static").
  EXPECT_EQ(parseMemoryKind("Device Static"), MemoryKind::DeviceStatic);
  EXPECT_EQ(parseMemoryKind("Pageable"), MemoryKind::Pageable);
  EXPECT_EQ(parseCopyKind("DtoH"), CopyKind::DtoH);
  EXPECT_EQ(parseCopyKind("Unknown"), CopyKind::Unknown);
  EXPECT_FALSE(parseCopyKind("HtoX"));
  EXPECT_FALSE(parseMemoryKind(""));
}
