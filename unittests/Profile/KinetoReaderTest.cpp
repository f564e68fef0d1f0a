//===- KinetoReaderTest.cpp - torch.profiler Chrome traces ----------------===//
//
// On the real trace of the seed's loop (test/Inputs/traces/, recorded with
// torch 2.11 on an H200): 100 iterations of x.cuda(), x * 2, .cpu() on 1M
// floats. Broken files are made by cutting that trace.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Profile/Reader.h"

#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace cuda_advisor;
using namespace cuda_advisor::profile;

namespace {

const char *const SeedTrace = CUDA_ADVISOR_TEST_INPUTS "/traces/torch-seed-loop.trace.json";

std::string readFile(const char *Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  EXPECT_TRUE(static_cast<bool>(Buf)) << Path;
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

std::string errorOf(llvm::Expected<Profile> P) {
  if (P)
    return "";
  return llvm::toString(P.takeError());
}

TEST(KinetoReaderTest, DetectedByContent) {
  std::string Text = readFile(SeedTrace);
  EXPECT_EQ(detectFormat(llvm::StringRef(Text).take_front(4096)), Format::Kineto);
}

TEST(KinetoReaderTest, SeedLoop) {
  llvm::Expected<Profile> P = readProfile(SeedTrace);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Processes.size(), 1u);
  const Process &Proc = P->Processes[0];
  EXPECT_EQ(Proc.Pid, 1013u);
  EXPECT_EQ(Proc.Command, "python3");
  EXPECT_EQ(Proc.Format, "kineto");
  EXPECT_TRUE(Proc.Warnings.empty());
  // The profiler's window: 86771.308 us.
  EXPECT_NEAR(static_cast<double>(Proc.EndNs - Proc.StartNs), 86771308.0, 2.0);

  ASSERT_EQ(P->Devices.size(), 1u);
  const Device &D = P->Devices[0];
  EXPECT_EQ(D.Name, "NVIDIA H200");
  EXPECT_EQ(D.ComputeMajor, 9);
  EXPECT_EQ(D.ComputeMinor, 0);
  EXPECT_EQ(D.NumSMs, 132);
  EXPECT_EQ(D.MaxWarpsPerSM, 64);
  EXPECT_EQ(D.RegistersPerSM, 65536);
  EXPECT_EQ(D.SharedMemPerSM, 233472u);
  EXPECT_EQ(D.SharedMemPerBlockOptin, 232448u);

  ASSERT_EQ(P->Kernels.size(), 100u);
  const Kernel &K = P->Kernels[0];
  EXPECT_TRUE(llvm::StringRef(K.Demangled).starts_with("void at::native::vectorized_elementwise_kernel<4"));
  EXPECT_EQ(K.Grid, (std::array<uint32_t, 3>{{977, 1, 1}}));
  EXPECT_EQ(K.Block, (std::array<uint32_t, 3>{{128, 1, 1}}));
  EXPECT_EQ(K.RegistersPerThread, 32u);
  EXPECT_EQ(K.Stream, 7u);

  ASSERT_EQ(P->Copies.size(), 200u);
  unsigned HtoD = 0, DtoH = 0;
  uint64_t HtoDNs = 0;
  for (const Copy &C : P->Copies) {
    EXPECT_EQ(C.Bytes, 4000000u);
    if (C.Kind == CopyKind::HtoD) {
      ++HtoD;
      HtoDNs += C.duration();
      EXPECT_EQ(C.Src, MemoryKind::Pageable);
      EXPECT_EQ(C.Dst, MemoryKind::Device);
    } else if (C.Kind == CopyKind::DtoH) {
      ++DtoH;
      EXPECT_EQ(C.Src, MemoryKind::Device);
      EXPECT_EQ(C.Dst, MemoryKind::Pageable);
    }
  }
  EXPECT_EQ(HtoD, 100u);
  EXPECT_EQ(DtoH, 100u);
  EXPECT_NEAR(static_cast<double>(HtoDNs), 24588603.0, 100.0);

  // The first copy: ts 5346664879398.640 us after the base, 321.150 us long,
  // launched by cudaMemcpyAsync with correlation 15649.
  const Copy &First = P->Copies[0];
  EXPECT_EQ(First.Start, 1790857026000000000ull + 5346664879398640ull);
  EXPECT_EQ(First.duration(), 321150u);
  EXPECT_EQ(First.Correlation, 15649u);
  unsigned Launchers = 0;
  for (const ApiCall &A : P->ApiCalls)
    if (A.Correlation == First.Correlation) {
      ++Launchers;
      EXPECT_EQ(A.Name, "cudaMemcpyAsync");
      EXPECT_EQ(A.Cbid, 41u);
      EXPECT_EQ(A.duration(), 803835u);
      EXPECT_EQ(A.Thread, 1013u);
      EXPECT_EQ(A.StackIndex, -1); // Recorded without with_stack.
    }
  EXPECT_EQ(Launchers, 1u);
  EXPECT_EQ(P->ApiCalls.size(), 702u);
}

TEST(KinetoReaderTest, TruncatedTrace) {
  std::string Text = readFile(SeedTrace);
  std::string Half = Text.substr(0, Text.size() / 2);
  std::string E = errorOf(readKinetoTrace("half.json", Half));
  EXPECT_NE(E.find("half.json: "), std::string::npos) << E;
  EXPECT_NE(E.find("cut off"), std::string::npos) << E;
  // Cut just before the final brace: still invalid.
  std::string Almost = llvm::StringRef(Text).rtrim().drop_back().str();
  EXPECT_NE(errorOf(readKinetoTrace("almost.json", Almost)), "");
}

TEST(KinetoReaderTest, ForeignJson) {
  std::string E = errorOf(readKinetoTrace("other.json", R"({"schemaVersion": 1, "x": [1, 2]})"));
  EXPECT_NE(E.find("other.json: "), std::string::npos) << E;
  EXPECT_NE(E.find("traceEvents"), std::string::npos) << E;
  EXPECT_EQ(detectFormat(R"({"name": "package", "version": "1.0"})"), Format::Unknown);
}

TEST(KinetoReaderTest, CpuOnlyTraceWarns) {
  llvm::Expected<Profile> P = readKinetoTrace(
      "cpu.json", R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::add",
                     "pid": 7, "tid": 7, "ts": 10.0, "dur": 2.5}]})");
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Processes.size(), 1u);
  ASSERT_EQ(P->Processes[0].Warnings.size(), 1u);
  EXPECT_NE(P->Processes[0].Warnings[0].find("no CUDA activity"), std::string::npos);
  // No baseTimeNanoseconds: microseconds since the epoch.
  EXPECT_EQ(P->Processes[0].StartNs, 10000u);
  EXPECT_EQ(P->Processes[0].EndNs, 12500u);
}

// with_stack=True: python_function intervals around the runtime calls, in the
// shape Kineto writes them ("file.py(line): function", Python id / parent id).
TEST(KinetoReaderTest, PythonStacks) {
  const char *Trace = R"({
  "baseTimeNanoseconds": 1000000000,
  "traceEvents": [
  {"ph": "X", "cat": "python_function", "name": "train.py(40): <module>", "pid": 9, "tid": 9,
   "ts": 0.0, "dur": 1000.0, "args": {"Python id": 1, "Python parent id": null}},
  {"ph": "X", "cat": "python_function", "name": "train.py(12): step", "pid": 9, "tid": 9,
   "ts": 10.0, "dur": 500.0, "args": {"Python id": 2, "Python parent id": 1}},
  {"ph": "X", "cat": "python_function", "name": "<built-in method cuda of Tensor object at 0x7f00>",
   "pid": 9, "tid": 9, "ts": 20.0, "dur": 100.0, "args": {"Python id": 3, "Python parent id": 2}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 9, "tid": 9,
   "ts": 30.0, "dur": 50.0, "args": {"correlation": 5, "cbid": 41}},
  {"ph": "X", "cat": "python_function", "name": "/usr/lib/python3/dist-packages/torch/nn/functional.py(99): relu",
   "pid": 9, "tid": 9, "ts": 200.0, "dur": 50.0, "args": {"Python id": 4, "Python parent id": 2}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9,
   "ts": 210.0, "dur": 5.0, "args": {"correlation": 6, "cbid": 211}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaDeviceSynchronize", "pid": 9, "tid": 9,
   "ts": 600.0, "dur": 5.0, "args": {"correlation": 7, "cbid": 165}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaDeviceSynchronize", "pid": 9, "tid": 10,
   "ts": 600.0, "dur": 5.0, "args": {"correlation": 8, "cbid": 165}}
  ]})";
  llvm::Expected<Profile> P = readKinetoTrace("stack.json", Trace);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->ApiCalls.size(), 4u);
  auto StackOf = [&](size_t I) -> const Stack * {
    int64_t S = P->ApiCalls[I].StackIndex;
    return S >= 0 ? &P->Stacks[static_cast<size_t>(S)] : nullptr;
  };
  // The copy: built-in method (library), train.py:12, train.py:40.
  const Stack *Copy = StackOf(0);
  ASSERT_NE(Copy, nullptr);
  ASSERT_EQ(Copy->Symbols.size(), 3u);
  EXPECT_TRUE(Copy->Symbols[0].Library);
  EXPECT_EQ(Copy->Symbols[1].Loc.File, "train.py");
  EXPECT_EQ(Copy->Symbols[1].Loc.Line, 12u);
  EXPECT_EQ(Copy->Symbols[1].Function, "step");
  EXPECT_EQ(Copy->Symbols[2].Loc.Line, 40u);
  ASSERT_NE(Copy->userFrame(), nullptr);
  EXPECT_EQ(Copy->userFrame()->Loc.Line, 12u);
  // The launch is inside torch's relu: the user's frame is still step().
  const Stack *Launch = StackOf(1);
  ASSERT_NE(Launch, nullptr);
  EXPECT_TRUE(Launch->Symbols[0].Library);
  ASSERT_NE(Launch->userFrame(), nullptr);
  EXPECT_EQ(Launch->userFrame()->Loc.Line, 12u);
  // After step() returned: only <module>.
  const Stack *Sync = StackOf(2);
  ASSERT_NE(Sync, nullptr);
  ASSERT_EQ(Sync->Symbols.size(), 1u);
  EXPECT_EQ(Sync->userFrame()->Loc.Line, 40u);
  // Another thread has no Python frames.
  EXPECT_EQ(StackOf(3), nullptr);
}

TEST(KinetoReaderTest, BackwardPassAtTheBackwardCall) {
  // Autograd's thread (tid 10) has no Python events: its calls during
  // torch.autograd.backward() on tid 9 are step()'s; after it, nobody's. A
  // function named backward outside torch/autograd is no backward pass, and
  // two threads in backward at once leave the call without a guess.
  const char *Trace = R"({
  "baseTimeNanoseconds": 1000000000,
  "traceEvents": [
  {"ph": "X", "cat": "python_function", "name": "train.py(40): <module>", "pid": 9, "tid": 9,
   "ts": 0.0, "dur": 2000.0, "args": {}},
  {"ph": "X", "cat": "python_function", "name": "train.py(12): step", "pid": 9, "tid": 9,
   "ts": 10.0, "dur": 1500.0, "args": {}},
  {"ph": "X", "cat": "python_function", "name": "/venv/lib/python3.12/site-packages/torch/_tensor.py(570): backward",
   "pid": 9, "tid": 9, "ts": 100.0, "dur": 200.0, "args": {}},
  {"ph": "X", "cat": "python_function", "name": "/venv/lib/python3.12/site-packages/torch/autograd/__init__.py(244): backward",
   "pid": 9, "tid": 9, "ts": 101.0, "dur": 198.0, "args": {}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 10,
   "ts": 150.0, "dur": 5.0, "args": {"correlation": 1, "cbid": 211}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 10,
   "ts": 400.0, "dur": 5.0, "args": {"correlation": 2, "cbid": 211}},
  {"ph": "X", "cat": "python_function", "name": "tools/autograd_like.py(5): backward",
   "pid": 9, "tid": 9, "ts": 500.0, "dur": 100.0, "args": {}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 10,
   "ts": 550.0, "dur": 5.0, "args": {"correlation": 3, "cbid": 211}},
  {"ph": "X", "cat": "python_function", "name": "/venv/lib/python3.12/site-packages/torch/autograd/__init__.py(244): backward",
   "pid": 9, "tid": 9, "ts": 700.0, "dur": 200.0, "args": {}},
  {"ph": "X", "cat": "python_function", "name": "other.py(3): worker", "pid": 9, "tid": 11,
   "ts": 600.0, "dur": 400.0, "args": {}},
  {"ph": "X", "cat": "python_function", "name": "/venv/lib/python3.12/site-packages/torch/autograd/__init__.py(244): backward",
   "pid": 9, "tid": 11, "ts": 650.0, "dur": 300.0, "args": {}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 10,
   "ts": 750.0, "dur": 5.0, "args": {"correlation": 4, "cbid": 211}},
  {"ph": "X", "cat": "python_function", "name": "torch/autograd/__init__.py(253): backward",
   "pid": 9, "tid": 9, "ts": 1050.0, "dur": 100.0, "args": {}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 10,
   "ts": 1100.0, "dur": 5.0, "args": {"correlation": 5, "cbid": 211}}
  ]})";
  llvm::Expected<Profile> P = readKinetoTrace("backward.json", Trace);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->ApiCalls.size(), 5u);
  auto UserOf = [&](uint64_t Correlation) -> std::string {
    for (const ApiCall &A : P->ApiCalls)
      if (A.Correlation == Correlation) {
        if (A.StackIndex < 0)
          return "none";
        const StackFrame *F = P->Stacks[static_cast<size_t>(A.StackIndex)].userFrame();
        return F ? F->Function + ":" + std::to_string(F->Loc.Line) : "no user frame";
      }
    return "missing";
  };
  EXPECT_EQ(UserOf(1), "step:12");
  EXPECT_EQ(UserOf(2), "none");
  EXPECT_EQ(UserOf(3), "none");
  EXPECT_EQ(UserOf(4), "none");
  // torch.profiler names an installed package's file from the package.
  EXPECT_EQ(UserOf(5), "step:12");
}

} // namespace
