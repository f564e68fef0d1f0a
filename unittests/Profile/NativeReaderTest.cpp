//===- NativeReaderTest.cpp - The collector's JSON Lines profiles ---------===//
//
// On real recordings (test/Inputs/profiles/, made with `cuda-advisor record`
// on an H200, CUDA 13.0; README.md there has each command): the examples'
// bad and fixed variants, the seed's PyTorch loop, and three of the GPU
// checks (a CUDA error, SIGSEGV, SIGTERM). Broken files are made here by
// cutting or editing a real one.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Profile/Reader.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <map>
#include <set>

using namespace cuda_advisor;
using namespace cuda_advisor::profile;

namespace {

std::string input(llvm::StringRef Name) {
  return (llvm::Twine(CUDA_ADVISOR_TEST_INPUTS) + "/profiles/" + Name).str();
}

std::string readFile(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  EXPECT_TRUE(static_cast<bool>(Buf)) << Path;
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

Profile read(llvm::StringRef Name) {
  llvm::Expected<Profile> P = readProfile(input(Name));
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return Profile();
  }
  return std::move(*P);
}

Profile readText(llvm::StringRef Path, llvm::StringRef Contents) {
  llvm::Expected<Profile> P = readNativeProfile(Path, Contents);
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return Profile();
  }
  return std::move(*P);
}

std::string errorOf(llvm::StringRef Path, llvm::StringRef Contents) {
  llvm::Expected<Profile> P = readNativeProfile(Path, Contents);
  if (P)
    return "";
  return llvm::toString(P.takeError());
}

size_t countCopies(const Profile &P, CopyKind K, MemoryKind Src, MemoryKind Dst) {
  return std::count_if(P.Copies.begin(), P.Copies.end(), [&](const Copy &C) {
    return C.Kind == K && C.Src == Src && C.Dst == Dst;
  });
}

std::map<std::string, size_t> apiCounts(const Profile &P) {
  std::map<std::string, size_t> N;
  for (const ApiCall &A : P.ApiCalls)
    ++N[A.Name];
  return N;
}

TEST(NativeReaderTest, DetectedByContent) {
  std::string Text = readFile(input("transfer-in-loop.bad.jsonl"));
  EXPECT_EQ(detectFormat(llvm::StringRef(Text).take_front(4096)), Format::Native);
}

TEST(NativeReaderTest, TransferInLoopBad) {
  Profile P = read("transfer-in-loop.bad.jsonl");
  ASSERT_EQ(P.Processes.size(), 1u);
  const Process &Proc = P.Processes[0];
  EXPECT_EQ(Proc.Format, "cuda-advisor");
  EXPECT_EQ(Proc.Pid, 1250u);
  EXPECT_EQ(Proc.Command, "/tmp/b/examples/transfer-in-loop bad");
  EXPECT_EQ(Proc.SourceFile, input("transfer-in-loop.bad.jsonl"));
  EXPECT_EQ(Proc.ExitCode, 0);
  EXPECT_EQ(Proc.Signal, 0);
  EXPECT_EQ(Proc.DroppedRecords, 0u);
  EXPECT_EQ(Proc.FailedCalls, 0u);
  EXPECT_TRUE(Proc.FirstErrorApi.empty());
  EXPECT_LT(Proc.StartNs, Proc.EndNs);

  // One warm-up iteration, then the 100 of the loop: each a 4 MiB copy from
  // pageable memory, one kernel, a 4 MiB copy back.
  ASSERT_EQ(P.Kernels.size(), 101u);
  for (const Kernel &K : P.Kernels) {
    EXPECT_EQ(K.Name, "_Z12scale_by_twoPKfPfi");
    EXPECT_GT(K.duration(), 0u);
    EXPECT_EQ(K.Grid, (std::array<uint32_t, 3>{4096, 1, 1}));
    EXPECT_EQ(K.Block, (std::array<uint32_t, 3>{256, 1, 1}));
    EXPECT_GT(K.RegistersPerThread, 0u);
    EXPECT_EQ(K.Stream, 7u); // The legacy default stream.
  }
  ASSERT_EQ(P.Copies.size(), 202u);
  EXPECT_EQ(countCopies(P, CopyKind::HtoD, MemoryKind::Pageable, MemoryKind::Device), 101u);
  EXPECT_EQ(countCopies(P, CopyKind::DtoH, MemoryKind::Device, MemoryKind::Pageable), 101u);
  for (const Copy &C : P.Copies) {
    EXPECT_EQ(C.Bytes, 4u << 20);
    EXPECT_GT(C.duration(), 0u);
  }
  std::map<std::string, size_t> Api = apiCounts(P);
  EXPECT_EQ(Api["cudaMemcpy"], 202u);
  EXPECT_EQ(Api["cudaLaunchKernel"], 101u);
}

TEST(NativeReaderTest, CorrelationJoinsKernelsToTheirLaunchAndStack) {
  Profile P = read("transfer-in-loop.bad.jsonl");
  std::map<uint64_t, const ApiCall *> ByCorrelation;
  for (const ApiCall &A : P.ApiCalls)
    ByCorrelation[A.Correlation] = &A;
  for (const Kernel &K : P.Kernels) {
    auto It = ByCorrelation.find(K.Correlation);
    ASSERT_NE(It, ByCorrelation.end()) << K.Correlation;
    EXPECT_EQ(It->second->Name, "cudaLaunchKernel");
    EXPECT_LE(It->second->Start, K.Start); // Launched before it ran.
  }
  for (const Copy &C : P.Copies) {
    auto It = ByCorrelation.find(C.Correlation);
    ASSERT_NE(It, ByCorrelation.end()) << C.Correlation;
    EXPECT_EQ(It->second->Name, "cudaMemcpy");
  }
  // Every call that makes GPU work has a host stack; one loop site is one
  // stack, whatever the iteration.
  std::set<int64_t> LoopCopyStacks;
  for (const ApiCall &A : P.ApiCalls) {
    ASSERT_GE(A.StackIndex, 0) << A.Name;
    ASSERT_LT(static_cast<size_t>(A.StackIndex), P.Stacks.size());
    EXPECT_FALSE(P.Stacks[A.StackIndex].Frames.empty());
    if (A.Name == "cudaMemcpy")
      LoopCopyStacks.insert(A.StackIndex);
  }
  EXPECT_EQ(P.Stacks.size(), 10u);
  EXPECT_EQ(LoopCopyStacks.size(), 4u); // Warm-up H2D and D2H, loop H2D and D2H.
}

TEST(NativeReaderTest, ModuleMapAndStackAddresses) {
  Profile P = read("transfer-in-loop.bad.jsonl");
  auto Main = std::find_if(P.Modules.begin(), P.Modules.end(), [](const Module &M) {
    return llvm::StringRef(M.Path).ends_with("/transfer-in-loop");
  });
  ASSERT_NE(Main, P.Modules.end());
  // The program in test/Inputs/profiles/bin has this build-id.
  EXPECT_EQ(Main->BuildId, "baec64b8576745eb40ea110a7341766921d2c8dc");
  EXPECT_GT(Main->Size, 0u);
  EXPECT_NE(Main->LoadBias, 0u); // A PIE program.
  EXPECT_EQ(Main->LoadAddress, Main->LoadBias);
  EXPECT_TRUE(std::any_of(P.Modules.begin(), P.Modules.end(), [](const Module &M) {
    return llvm::StringRef(M.Path).contains("libcudart.so");
  }));
  // The innermost frame of each stack is the program's own call site: the
  // collector drops the frames of libcudart, libcuda and libcupti.
  for (const Stack &S : P.Stacks) {
    ASSERT_FALSE(S.Frames.empty());
    uint64_t F = S.Frames[0];
    EXPECT_TRUE(F >= Main->LoadAddress && F < Main->LoadAddress + Main->Size) << std::hex << F;
  }
}

TEST(NativeReaderTest, TransferInLoopFixedCopiesOnce) {
  Profile P = read("transfer-in-loop.fixed.jsonl");
  EXPECT_EQ(P.Kernels.size(), 101u);
  EXPECT_EQ(P.Copies.size(), 4u); // Warm-up and the fixed variant: one each way.
}

TEST(NativeReaderTest, PageableAndPinnedAsyncCopies) {
  Profile Bad = read("transfer-pageable-async.bad.jsonl");
  Profile Fixed = read("transfer-pageable-async.fixed.jsonl");
  // 8 chunks of 8 MiB, 6 rounds (the first is the warm-up), on 4 streams.
  for (const Profile *P : {&Bad, &Fixed}) {
    EXPECT_EQ(P->Kernels.size(), 48u);
    EXPECT_EQ(P->Copies.size(), 96u);
    std::set<uint32_t> Streams;
    for (const Kernel &K : P->Kernels)
      Streams.insert(K.Stream);
    EXPECT_EQ(Streams.size(), 4u);
    EXPECT_EQ(apiCounts(*P)["cudaMemcpyAsync"], 96u);
  }
  EXPECT_EQ(countCopies(Bad, CopyKind::HtoD, MemoryKind::Pageable, MemoryKind::Device), 48u);
  EXPECT_EQ(countCopies(Bad, CopyKind::DtoH, MemoryKind::Device, MemoryKind::Pageable), 48u);
  EXPECT_EQ(countCopies(Fixed, CopyKind::HtoD, MemoryKind::Pinned, MemoryKind::Device), 48u);
  EXPECT_EQ(countCopies(Fixed, CopyKind::DtoH, MemoryKind::Device, MemoryKind::Pinned), 48u);
}

TEST(NativeReaderTest, LaunchConfigurations) {
  auto Shapes = [](const Profile &P) {
    std::map<std::pair<std::string, std::array<uint32_t, 3>>, size_t> N;
    for (const Kernel &K : P.Kernels)
      ++N[{K.Name, K.Block}];
    return N;
  };
  auto Bad = Shapes(read("launch-block-size.bad.jsonl"));
  EXPECT_EQ((Bad[{"_Z7blur3x3PKfPfii", {16, 16, 1}}]), 21u);
  EXPECT_EQ((Bad[{"_Z7blur3x3PKfPfii", {8, 32, 1}}]), 21u);
  EXPECT_EQ((Bad[{"_Z4axpyfPKfPfi", {250, 1, 1}}]), 21u);
  auto Fixed = Shapes(read("launch-block-size.fixed.jsonl"));
  EXPECT_EQ((Fixed[{"_Z7blur3x3PKfPfii", {32, 8, 1}}]), 42u);
  EXPECT_EQ((Fixed[{"_Z4axpyfPKfPfi", {256, 1, 1}}]), 21u);
}

TEST(NativeReaderTest, SynchronizationPerStep) {
  Profile Bad = read("sync-in-loop.bad.jsonl");
  Profile Fixed = read("sync-in-loop.fixed.jsonl");
  EXPECT_EQ(Bad.Kernels.size(), 1001u);
  EXPECT_EQ(Fixed.Kernels.size(), 1001u);
  ASSERT_EQ(Bad.Syncs.size(), 1001u); // The warm-up's and one per step.
  EXPECT_EQ(Fixed.Syncs.size(), 2u);
  for (const Sync &S : Bad.Syncs) {
    EXPECT_EQ(S.Kind, SyncKind::ContextSynchronize);
    EXPECT_EQ(S.Device, 0u);
    EXPECT_GT(S.duration(), 0u);
  }
}

TEST(NativeReaderTest, DeviceProperties) {
  Profile P = read("kernel-fusion.bad.jsonl");
  ASSERT_EQ(P.Devices.size(), 1u); // CUPTI's and the driver's records merged.
  const Device &D = P.Devices[0];
  EXPECT_EQ(D.Id, 0u);
  EXPECT_EQ(D.Name, "NVIDIA H200");
  EXPECT_EQ(D.ComputeMajor, 9);
  EXPECT_EQ(D.ComputeMinor, 0);
  EXPECT_EQ(D.NumSMs, 132);
  EXPECT_EQ(D.MaxWarpsPerSM, 64);
  EXPECT_EQ(D.MaxBlocksPerSM, 32);
  EXPECT_EQ(D.MaxThreadsPerBlock, 1024);
  EXPECT_EQ(D.WarpSize, 32);
  EXPECT_EQ(D.RegistersPerSM, 65536);
  EXPECT_EQ(D.MaxRegistersPerBlock, 65536);
  EXPECT_EQ(D.SharedMemPerSM, 233472u);
  EXPECT_EQ(D.SharedMemPerBlock, 49152u);
  EXPECT_EQ(D.SharedMemPerBlockOptin, 232448u);
  EXPECT_EQ(D.ReservedSharedMemPerBlock, 1024u);
  EXPECT_EQ(D.L2CacheBytes, 62914560u);
  EXPECT_EQ(D.MemoryBandwidthBytesPerSec, 4814304000000u); // CUPTI's 4814304000 KB/s.
  EXPECT_EQ(D.CoreClockKHz, 1980000u);
  EXPECT_EQ(D.GlobalMemoryBytes, 150109880320u); // 139.8 GiB (cuDeviceTotalMem).
}

TEST(NativeReaderTest, SeedPyTorchLoop) {
  Profile P = read("seed_loop.bad.jsonl");
  ASSERT_EQ(P.Processes.size(), 1u);
  EXPECT_EQ(P.Processes[0].Command, "python3 /work/main/examples/pytorch/seed_loop.py");
  // One warm-up iteration and the 100 of the loop: x.cuda() (pageable H2D of
  // 1M floats), x * 2 (one kernel), .cpu() (D2H); plus the initial upload.
  EXPECT_EQ(P.Kernels.size(), 101u);
  for (const Kernel &K : P.Kernels)
    EXPECT_TRUE(llvm::StringRef(K.Name).starts_with("_ZN2at6native29vectorized_elementwise_kernel"))
        << K.Name;
  EXPECT_EQ(countCopies(P, CopyKind::HtoD, MemoryKind::Pageable, MemoryKind::Device), 102u);
  EXPECT_EQ(countCopies(P, CopyKind::DtoH, MemoryKind::Device, MemoryKind::Pageable), 101u);
  size_t StreamSyncs = std::count_if(P.Syncs.begin(), P.Syncs.end(), [](const Sync &S) {
    return S.Kind == SyncKind::StreamSynchronize;
  });
  EXPECT_EQ(StreamSyncs, 203u); // PyTorch waits for every copy.
  std::map<std::string, size_t> Api = apiCounts(P);
  EXPECT_EQ(Api["cudaMemcpyAsync"], 203u);
  EXPECT_EQ(Api["cudaLaunchKernel"], 101u);
  EXPECT_EQ(Api.count("cudaGetDevice"), 0u); // Queries are left out by default.
  EXPECT_GT(P.Modules.size(), 50u);          // Python, libtorch and friends.

  Profile Fixed = read("seed_loop.fixed.jsonl");
  EXPECT_EQ(Fixed.Kernels.size(), 101u);
  EXPECT_EQ(Fixed.Copies.size(), 5u);
}

// Recorded after the collector began timing its own call-site captures:
// each callsite record's collector_start/collector_end becomes a host
// interval that is not the program's work, just before its call (the
// capture runs in CUPTI's ENTER callback, outside the API record's times).
TEST(NativeReaderTest, CollectorTimeIsNotTheProgramsWork) {
  Profile P = read("pytorch-2026-12-04/per_sample.bad.jsonl.gz");
  ASSERT_EQ(P.Processes.size(), 1u);
  const std::vector<std::pair<uint64_t, uint64_t>> &O = P.Processes[0].Overheads;
  // 35 CUPTI overhead records, and one interval per call site (3120).
  EXPECT_EQ(O.size(), 35u + 3120u);
  std::vector<std::pair<uint64_t, uint64_t>> Sorted = O;
  std::sort(Sorted.begin(), Sorted.end());
  size_t Before = 0, Launches = 0;
  for (const ApiCall &A : P.ApiCalls) {
    if (A.Name != "cudaLaunchKernel")
      continue;
    ++Launches;
    // The last interval that starts before the call: the call's capture.
    auto It = std::upper_bound(Sorted.begin(), Sorted.end(),
                               std::make_pair(A.Start, UINT64_MAX));
    if (It == Sorted.begin())
      continue;
    --It;
    if (It->second <= A.Start + 1000 && It->second + 20000 > A.Start)
      ++Before;
  }
  EXPECT_EQ(Launches, 3096u);
  EXPECT_GT(Before, Launches * 9 / 10);
  // A recording without the fields (an older collector's) has none.
  Profile Old = read("per_sample.bad.jsonl");
  ASSERT_EQ(Old.Processes.size(), 1u);
  EXPECT_EQ(Old.Processes[0].Overheads.size(), 35u);
}

// Recorded after the collector began writing copy pointers: every
// cudaMemcpyAsync has its dst and src; x.cuda() reads one host tensor each
// iteration, the batches of a training loop are different slices.
TEST(NativeReaderTest, CopyPointers) {
  Profile Seed = read("seed_loop.pointers.jsonl");
  std::set<uint64_t> UploadSources;
  size_t WithPointers = 0, Copies = 0;
  for (const ApiCall &A : Seed.ApiCalls) {
    if (A.Name != "cudaMemcpyAsync")
      continue;
    ++Copies;
    WithPointers += A.HasCopyPointers;
  }
  EXPECT_EQ(Copies, 43u);
  EXPECT_EQ(WithPointers, 43u);
  for (const Copy &C : Seed.Copies)
    if (C.Kind == CopyKind::HtoD && C.Bytes == 4000000)
      for (const ApiCall &A : Seed.ApiCalls)
        if (A.Correlation == C.Correlation && A.HasCopyPointers)
          UploadSources.insert(A.CopySrc);
  EXPECT_EQ(UploadSources.size(), 1u);

  Profile Train = read("train_mlp.bad.jsonl");
  std::set<uint64_t> BatchSources;
  for (const Copy &C : Train.Copies)
    if (C.Kind == CopyKind::HtoD && C.Bytes == 2u << 20)
      for (const ApiCall &A : Train.ApiCalls)
        if (A.Correlation == C.Correlation && A.HasCopyPointers)
          BatchSources.insert(A.CopySrc);
  // 22 batch uploads (2 warm-up steps, then 20), of 20 slices: the warm-up
  // copies the first two again.
  EXPECT_EQ(BatchSources.size(), 20u);

  // Older recordings have no pointers: unknown, not zero.
  Profile Old = read("seed_loop.bad.jsonl");
  EXPECT_TRUE(std::none_of(Old.ApiCalls.begin(), Old.ApiCalls.end(),
                           [](const ApiCall &A) { return A.HasCopyPointers; }));
}

/// The user's Python call site of each API call of a recording made with
/// Python call sites: "file:line function" of the call's stack's user frame,
/// "" when the call has none, "native" when it kept its native stack.
std::string pythonSiteOf(const Profile &P, const ApiCall &A) {
  if (A.StackIndex < 0)
    return "";
  const Stack &S = P.Stacks[static_cast<size_t>(A.StackIndex)];
  if (!S.Frames.empty())
    return "native";
  const StackFrame *F = S.userFrame();
  if (!F)
    return "";
  std::string File = F->Loc.File.substr(F->Loc.File.rfind('/') + 1);
  return File + ":" + std::to_string(F->Loc.Line) + " " + F->Function;
}

TEST(NativeReaderTest, PythonCallSites) {
  // The seed loop, recorded with Python call sites (Python 3.12, torch 2.11):
  // each call of the loop is at the line that made it, not inside torch.
  Profile Seed = read("seed_loop.pystacks.jsonl");
  std::map<std::string, int> Sites;
  for (const ApiCall &A : Seed.ApiCalls)
    if (A.StackIndex >= 0)
      ++Sites[A.Name + " @ " + pythonSiteOf(Seed, A)];
  EXPECT_EQ(Sites["cudaMemcpyAsync @ seed_loop.py:30 bad_loop"], 21);  // cpu_data.cuda()
  EXPECT_EQ(Sites["cudaLaunchKernel @ seed_loop.py:31 bad_loop"], 21); // temp * 2
  EXPECT_EQ(Sites["cudaMemcpyAsync @ seed_loop.py:32 bad_loop"], 21);  // result.cpu()
  EXPECT_EQ(Sites["cudaStreamSynchronize @ seed_loop.py:32 bad_loop"], 21);
  EXPECT_EQ(Sites["cudaDeviceSynchronize @ seed_loop.py:69 main"], 1);
  for (const auto &[Site, N] : Sites)
    EXPECT_EQ(Site.find("native"), std::string::npos) << Site << " x" << N;
  // The frames above the user's are its callers: bad_loop runs once from
  // main (the warm-up, seed_loop.py:68) and 20 times from main's timed_loops
  // (seed_loop.py:75), each at the line of its call.
  std::map<std::string, int> Callers;
  for (const ApiCall &A : Seed.ApiCalls) {
    if (A.Name != "cudaMemcpyAsync" || pythonSiteOf(Seed, A) != "seed_loop.py:30 bad_loop")
      continue;
    const Stack &S = Seed.Stacks[static_cast<size_t>(A.StackIndex)];
    ASSERT_EQ(S.UserFrame, 0);
    ASSERT_GE(S.Symbols.size(), 3u);
    EXPECT_FALSE(S.Symbols[0].Library);
    EXPECT_EQ(S.Symbols.back().Function, "<module>");
    ++Callers[S.Symbols[1].Function + ":" + std::to_string(S.Symbols[1].Loc.Line)];
  }
  EXPECT_EQ(Callers, (std::map<std::string, int>{{"main:68", 1}, {"main.<locals>.timed_loops:75", 20}}));

  // A training loop: the batches' uploads at their lines. The backward
  // pass's launches come from autograd's C++ thread, which has no Python
  // frame: they are at the line of `loss.backward()` (train_mlp.py:48),
  // whose thread waits inside torch.autograd.backward while they run.
  Profile Train = read("train_mlp.pystacks.jsonl");
  std::map<std::string, int> TrainSites;
  for (const ApiCall &A : Train.ApiCalls)
    if (A.StackIndex >= 0)
      ++TrainSites[A.Name + " @ " + pythonSiteOf(Train, A)];
  EXPECT_EQ(TrainSites["cudaMemcpyAsync @ train_mlp.py:44 train"], 12);
  EXPECT_EQ(TrainSites["cudaMemcpyAsync @ train_mlp.py:45 train"], 12);
  EXPECT_EQ(TrainSites["cudaMemcpyAsync @ train_mlp.py:53 train"], 12); // loss.item()
  // 12 gradient seeds (ones_like) on the main thread, 96 launches of the engine's.
  EXPECT_EQ(TrainSites["cudaLaunchKernel @ train_mlp.py:48 train"], 12 + 96);
  EXPECT_EQ(TrainSites["cudaLaunchKernel @ native"], 0);

  // Look-alike: the same recording with the main thread's last call before
  // each backward pass outside torch.autograd.backward (its frames renamed):
  // the engine's launches keep their native stacks, no line is guessed.
  std::string Text = readFile(input("train_mlp.pystacks.jsonl"));
  size_t Renamed = 0;
  for (size_t At = 0; (At = Text.find("\"functions\":[\"_make_grads\",\"backward\"", At)) !=
                      std::string::npos;
       ++Renamed)
    Text.replace(At, std::strlen("\"functions\":[\"_make_grads\",\"backward\""),
                 "\"functions\":[\"_make_grads\",\"backwards\"");
  ASSERT_EQ(Renamed, 2u);
  Profile NotInBackward = readText(input("train_mlp.pystacks.jsonl"), Text);
  std::map<std::string, int> Kept;
  for (const ApiCall &A : NotInBackward.ApiCalls)
    if (A.StackIndex >= 0)
      ++Kept[A.Name + " @ " + pythonSiteOf(NotInBackward, A)];
  EXPECT_EQ(Kept["cudaLaunchKernel @ train_mlp.py:48 train"], 12);
  EXPECT_EQ(Kept["cudaLaunchKernel @ native"], 96);

  // Recordings made before Python call sites: native stacks only.
  Profile Old = read("seed_loop.pointers.jsonl");
  for (const ApiCall &A : Old.ApiCalls) {
    if (A.StackIndex >= 0) {
      EXPECT_FALSE(Old.Stacks[static_cast<size_t>(A.StackIndex)].Frames.empty());
    }
  }
}

TEST(NativeReaderTest, DriverApiLaunches) {
  // cuBLASLt launches some of PyTorch's FP32 GEMMs (CUTLASS SIMT kernels) with
  // cuLaunchKernel, outside every runtime call: their kernels correlate with
  // that driver call only. The collector records it (an "api" record of the
  // driver domain and a call site), so each such kernel has a launching call
  // at the user's line (test/gpu/driver_launches.py; the products at :33, the
  // backward pass's at :39, loss.backward()).
  auto DriverSites = [](const Profile &P) {
    std::map<uint64_t, const ApiCall *> Runtime, Driver;
    for (const ApiCall &A : P.ApiCalls)
      (A.Driver ? Driver : Runtime)[A.Correlation] = &A;
    std::map<std::string, int> Sites;
    size_t Unlaunched = 0;
    for (const Kernel &K : P.Kernels) {
      auto R = Runtime.find(K.Correlation);
      if (R != Runtime.end())
        continue; // A runtime launch: the other tests cover those.
      auto D = Driver.find(K.Correlation);
      if (D == Driver.end()) {
        ++Unlaunched;
        continue;
      }
      std::string Name = K.Name.substr(0, K.Name.find("EEvNT_"));
      ++Sites[D->second->Name + " " + Name.substr(Name.rfind('I') + 3) + " @ " +
              pythonSiteOf(P, *D->second)];
    }
    EXPECT_EQ(Unlaunched, 0u);
    return Sites;
  };
  std::map<std::string, int> Expected = {
      {"cuLaunchKernel cutlass_80_simt_sgemm_64x64_8x5_nn_align1 @ driver_launches.py:33 workload", 3},
      {"cuLaunchKernel cutlass_80_simt_sgemm_256x128_8x4_nn_align1 @ driver_launches.py:33 workload", 3},
      {"cuLaunchKernel cutlass_80_simt_sgemm_128x128_8x4_nt_align1 @ driver_launches.py:39 workload", 3}};
  Profile P = read("driver_launches.jsonl.gz");
  EXPECT_EQ(DriverSites(P), Expected);

  // Look-alike: recorded with CUDA_ADVISOR_DRIVER_API=1, every driver call has
  // an activity record, those the runtime makes inside its own calls
  // included. Those have no call site and launch nothing of their own; the
  // kernels, and the backward pass's attribution, are as above.
  Profile All = read("driver_launches.driverapi.jsonl.gz");
  EXPECT_EQ(DriverSites(All), Expected);
  // Only the library's own launches have call sites of their own (the driver
  // calls inside a runtime call share its correlation id, not its site); the
  // other driver calls with a site are the autograd thread's, placed at
  // loss.backward() as that thread's runtime calls are.
  size_t DriverCalls = 0;
  std::map<std::string, int> OtherSites;
  for (const ApiCall &A : All.ApiCalls) {
    if (!A.Driver)
      continue;
    ++DriverCalls;
    if (A.StackIndex >= 0 && !llvm::StringRef(A.Name).starts_with("cuLaunch"))
      ++OtherSites[pythonSiteOf(All, A)];
  }
  EXPECT_GT(DriverCalls, 1000u);
  ASSERT_EQ(OtherSites.size(), 1u);
  EXPECT_EQ(OtherSites.begin()->first, "driver_launches.py:39 workload");
}

TEST(NativeReaderTest, TorchCompileGeneratedCodeIsNotTheUsers) {
  // nanoGPT (torch.compile), 30 ms of its training loop, recorded by a
  // collector that took Inductor's generated modules
  // (/tmp/torchinductor_root/xx/<hash>.py) for the user's code: the reader
  // moves each such call site to the first frame above that is the user's
  // (model.py, train.py), or to none when the kept frames hold no user frame.
  Profile P = read("unseen/nanoGPT.cut.jsonl.gz");
  std::map<std::string, int> Files;
  size_t Generated = 0;
  for (const ApiCall &A : P.ApiCalls) {
    std::string Site = pythonSiteOf(P, A);
    if (Site.empty() || Site == "native")
      continue;
    ++Files[Site.substr(0, Site.find(':'))];
  }
  for (const Stack &S : P.Stacks)
    if (const StackFrame *F = S.userFrame())
      Generated += llvm::StringRef(F->Loc.File).contains("/torchinductor_");
  EXPECT_EQ(Generated, 0u);
  EXPECT_EQ(Files.size(), 2u);
  EXPECT_GT(Files["model.py"], 100);
  EXPECT_GT(Files["train.py"], 10);
  // The compiled GPT.forward runs as one graph from Dynamo's frame
  // evaluation: its frame's line is its `def` (model.py:170), which is shown
  // as the function, not as the line of a call. The uncompiled frames of
  // train.py keep their lines.
  size_t Compiled = 0, Lines = 0;
  for (const ApiCall &A : P.ApiCalls) {
    if (A.StackIndex < 0)
      continue;
    const StackFrame *F = P.Stacks[static_cast<size_t>(A.StackIndex)].userFrame();
    if (!F)
      continue;
    if (F->FunctionOnly) {
      ++Compiled;
      EXPECT_EQ(F->Function, "GPT.forward");
      EXPECT_EQ(F->Loc.Line, 170u);
    } else {
      ++Lines;
      EXPECT_TRUE(llvm::StringRef(F->Loc.File).ends_with("train.py")) << F->Loc.File;
    }
  }
  EXPECT_GT(Compiled, 100u);
  EXPECT_GT(Lines, 10u);
  // Look-alike: a frame of the user's that torch.compile did not generate
  // keeps its place (get_batch's upload at train.py:128).
  size_t Uploads = 0;
  for (const ApiCall &A : P.ApiCalls)
    Uploads += A.Name == "cudaMemcpyAsync" && pythonSiteOf(P, A) == "train.py:128 get_batch";
  EXPECT_GT(Uploads, 0u);
}

TEST(NativeReaderTest, DamagedPythonStacks) {
  std::string Path = input("seed_loop.pystacks.jsonl");
  std::string Text = readFile(Path);
  size_t At = Text.find("\"lines\":[66,104]");
  ASSERT_NE(At, std::string::npos);
  std::string Short = Text;
  Short.replace(At, std::strlen("\"lines\":[66,104]"), "\"lines\":[66]");
  std::string E = errorOf(Path, Short);
  EXPECT_NE(E.find("the pystack record lacks the arrays \"files\", \"lines\" and \"functions\" of one length"),
            std::string::npos)
      << E;
  std::string Negative = Text;
  Negative.replace(At, std::strlen("\"lines\":[66,104]"), "\"lines\":[66,-1]");
  E = errorOf(Path, Negative);
  EXPECT_NE(E.find("has a frame 1 that is not a file, a line and a function"), std::string::npos) << E;
}

TEST(NativeReaderTest, FirstCudaError) {
  // test/gpu/oob.cu: an out-of-bounds kernel, then 99 more iterations that
  // all fail with the sticky error.
  Profile P = read("gpu-check.cuda-error.jsonl");
  const Process &Proc = P.Processes[0];
  EXPECT_EQ(Proc.ExitCode, 1);
  EXPECT_EQ(Proc.FailedCalls, 298u);
  EXPECT_EQ(Proc.FirstErrorApi, "cudaMemcpy");
  EXPECT_EQ(Proc.FirstErrorCode, 700);
  EXPECT_EQ(Proc.FirstErrorName, "cudaErrorIllegalAddress");
  ASSERT_GE(Proc.FirstErrorStack, 0);
  EXPECT_FALSE(P.Stacks[Proc.FirstErrorStack].Frames.empty());
  // The only kernel that ran is the broken one; the copies after it did not.
  ASSERT_EQ(P.Kernels.size(), 1u);
  EXPECT_EQ(P.Kernels[0].Name, "_Z23gpu_check_out_of_boundsPfi");
  size_t Failing = std::count_if(P.ApiCalls.begin(), P.ApiCalls.end(),
                                 [](const ApiCall &A) { return A.ReturnCode == 700; });
  EXPECT_EQ(Failing, 298u);
}

TEST(NativeReaderTest, ProfilesOfKilledPrograms) {
  Profile Segv = read("gpu-check.sigsegv.jsonl");
  EXPECT_EQ(Segv.Processes[0].Signal, 11);
  EXPECT_EQ(Segv.Kernels.size(), 10u);
  EXPECT_EQ(Segv.Copies.size(), 20u);
  Profile Term = read("gpu-check.sigterm.jsonl");
  EXPECT_EQ(Term.Processes[0].Signal, 15);
  EXPECT_EQ(Term.Kernels.size(), 261u);
  EXPECT_EQ(Term.Copies.size(), 522u);
}

TEST(NativeReaderTest, TruncatedFiles) {
  std::string Path = input("transfer-in-loop.bad.jsonl");
  std::string Text = readFile(Path);
  llvm::StringRef T(Text);
  // Cut in the middle of a line, as a killed program leaves it.
  std::string Cut = Text.substr(0, Text.size() / 2);
  std::string E = errorOf(Path, Cut);
  EXPECT_NE(E.find(Path), std::string::npos) << E;
  EXPECT_NE(E.find("truncated"), std::string::npos) << E;
  EXPECT_NE(E.find("incomplete"), std::string::npos) << E;
  // Cut after a whole line: no end record.
  size_t LastLine = T.drop_back().rfind('\n');
  E = errorOf(Path, T.take_front(LastLine + 1));
  EXPECT_NE(E.find(Path), std::string::npos) << E;
  EXPECT_NE(E.find("truncated: it has no end record"), std::string::npos) << E;
  // Through readProfile too (format detection, then the reader).
  llvm::Expected<Profile> P = readNativeProfile(Path, "");
  EXPECT_FALSE(static_cast<bool>(P));
  llvm::consumeError(P.takeError());
}

TEST(NativeReaderTest, DamagedFiles) {
  std::string Path = input("transfer-in-loop.bad.jsonl");
  std::string Text = readFile(Path);
  // A line lost in the middle: the end record counts one more.
  size_t Second = Text.find('\n') + 1;
  size_t Third = Text.find('\n', Second) + 1;
  std::string Lost = Text.substr(0, Second) + Text.substr(Third);
  std::string E = errorOf(Path, Lost);
  EXPECT_NE(E.find("lines were lost"), std::string::npos) << E;
  // A record after the end.
  E = errorOf(Path, Text + "{\"type\":\"kernel\"}\n");
  EXPECT_NE(E.find("follows the end record"), std::string::npos) << E;
  // A record that is not JSON, with its line number.
  std::string Garbled = Text.substr(0, Second) + "{not json}\n" + Text.substr(Second);
  E = errorOf(Path, Garbled);
  EXPECT_NE(E.find(Path + ":2: invalid JSON"), std::string::npos) << E;
  // A kernel record without its name.
  size_t K = Text.find("{\"type\":\"kernel\",\"name\":\"_Z12scale_by_twoPKfPfi\",");
  ASSERT_NE(K, std::string::npos);
  std::string NoName = Text;
  NoName.replace(K, std::strlen("{\"type\":\"kernel\",\"name\":\"_Z12scale_by_twoPKfPfi\","),
                 "{\"type\":\"kernel\",");
  E = errorOf(Path, NoName);
  EXPECT_NE(E.find("the kernel record lacks \"name\""), std::string::npos) << E;
}

TEST(NativeReaderTest, ForeignAndNewerInput) {
  EXPECT_NE(errorOf("x.jsonl", "{\"format\":\"other\",\"version\":1}\n")
                .find("x.jsonl:1: not a cuda-advisor profile"),
            std::string::npos);
  std::string Newer = errorOf("x.jsonl", "{\"format\":\"cuda-advisor-profile\",\"version\":2}\n");
  EXPECT_NE(Newer.find("version 2"), std::string::npos) << Newer;
  EXPECT_NE(errorOf("x.jsonl", "").find("x.jsonl: the profile is empty"), std::string::npos);
}

TEST(NativeReaderTest, UnknownRecordTypesAreSkipped) {
  std::string Path = input("transfer-in-loop.fixed.jsonl");
  std::string Text = readFile(Path);
  // A later version 1 collector may add record types; the end record's count
  // covers them.
  size_t Second = Text.find('\n') + 1;
  std::string Extra = Text.substr(0, Second) + "{\"type\":\"future\",\"x\":1}\n" + Text.substr(Second);
  std::string::size_type R = Extra.find("\"records\":362");
  ASSERT_NE(R, std::string::npos);
  Extra.replace(R, std::strlen("\"records\":362"), "\"records\":363");
  llvm::Expected<Profile> P = readNativeProfile(Path, Extra);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Kernels.size(), 101u);
}

} // namespace
