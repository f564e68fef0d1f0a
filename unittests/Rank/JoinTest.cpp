//===- JoinTest.cpp - Findings to profile records -------------------------===//
#include "ProfileBuilder.h"
#include "cuda-advisor/Rank/Join.h"

#include "gtest/gtest.h"

using namespace cuda_advisor;
using namespace cuda_advisor::rank;
using cuda_advisor::testing::ProfileBuilder;
using profile::CopyKind;

namespace {

TEST(IntervalSetTest, UnionCoverageGaps) {
  IntervalSet S({{10, 20}, {15, 30}, {40, 50}, {50, 55}, {70, 70}});
  ASSERT_EQ(S.intervals().size(), 2u);
  EXPECT_EQ(S.total(), 20u + 15u);
  EXPECT_EQ(S.covered({0, 100}), 35u);
  EXPECT_EQ(S.covered({25, 45}), 10u);
  EXPECT_EQ(S.uncovered({25, 45}), 10u);
  EXPECT_EQ(S.nextBusy(32), 40u);
  EXPECT_EQ(S.nextBusy(45), 45u);
  EXPECT_FALSE(S.nextBusy(60));
  EXPECT_EQ(S.lastBusyBefore(35), 30u);
  EXPECT_EQ(S.lastBusyBefore(45), 45u);
  EXPECT_FALSE(S.lastBusyBefore(5));
  std::vector<Interval> G = S.gaps({0, 60});
  ASSERT_EQ(G.size(), 3u);
  EXPECT_EQ(G[0].Start, 0u);
  EXPECT_EQ(G[0].End, 10u);
  EXPECT_EQ(G[1].Start, 30u);
  EXPECT_EQ(G[1].End, 40u);
  EXPECT_EQ(G[2].Start, 55u);
}

TEST(JoinTest, SameFileScore) {
  // The recording was made in another checkout: the path suffix decides.
  EXPECT_EQ(sameFileScore("/root/gpu/examples/transfer-in-loop.cu",
                          "/work/main/examples/transfer-in-loop.cu"),
            2u);
  EXPECT_EQ(sameFileScore("train.py", "/home/me/proj/train.py"), 1u);
  EXPECT_EQ(sameFileScore("/a/b/c.cu", "/a/b/c.cu"), 1000u);
  EXPECT_EQ(sameFileScore("/a/b/c.cu", "/a/b/d.cu"), 0u);
  EXPECT_EQ(sameFileScore("/a/src/util.cu", "/a/test/util.cu"), 1u);
  EXPECT_EQ(sameFileScore("", "/a/b.cu"), 0u);
}

TEST(JoinTest, KernelKeyNormalizesDemangledNames) {
  EXPECT_EQ(kernelKey("_Z12scale_by_twoPKfPfi"), "scale_by_two");
  EXPECT_EQ(kernelKey("scale_by_two(const float *, float *, int)"), "scale_by_two");
  // Template instantiations keep their arguments; the return type goes.
  EXPECT_EQ(kernelKey("_Z9transposeILi32EEvPfPKfi"), "transpose<32>");
  EXPECT_EQ(kernelKey("void transpose<32>(float *, const float *, int)"), "transpose<32>");
  EXPECT_EQ(kernelKey("void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<"
                      "float, float, float, at::native::binary_internal::MulFunctor<float> >, "
                      "std::array<char*, 2ul> >(int, at::native::AUnaryFunctor<float, float, "
                      "float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, "
                      "2ul>)"),
            "at::native::vectorized_elementwise_kernel<4,at::native::AUnaryFunctor<float,float,"
            "float,at::native::binary_internal::MulFunctor<float>>,std::array<char*,2ul>>");
  EXPECT_EQ(kernelKey("(anonymous namespace)::k(int)"), "(anonymousnamespace)::k");
  EXPECT_NE(kernelKey("_Z9transposeILi32EEvPfPKfi"), kernelKey("_Z9transposeILi16EEvPfPKfi"));
}

TEST(JoinTest, CallSiteMatchesStacksAtThatLine) {
  ProfileBuilder B;
  const std::string File = "/gpu/examples/transfer-in-loop.cu";
  for (int I = 0; I < 3; ++I) {
    size_t H2D = B.call("cudaMemcpy", 1000 * I, 1000 * I + 100, File, 47);
    B.copy(H2D, CopyKind::HtoD, 4 << 20, 1000 * I + 10, 1000 * I + 90);
    size_t D2H = B.call("cudaMemcpy", 1000 * I + 200, 1000 * I + 300, File, 50);
    B.copy(D2H, CopyKind::DtoH, 4 << 20, 1000 * I + 210, 1000 * I + 290);
  }
  B.call("cudaMemcpy", 5000, 5100, "/gpu/other/transfer-in-loop.cu", 47);
  ProfileIndex Index(B.P);
  Joiner J(Index);

  Finding F;
  F.CheckId = "transfer-in-loop";
  F.Keys.Api = "cudaMemcpy";
  SourceLocation Site;
  Site.File = "/work/main/examples/transfer-in-loop.cu";
  Site.Line = 47;
  F.Keys.CallSites = {Site};
  Match M = J.match(F);
  // Three calls at line 47 of examples/transfer-in-loop.cu; the other file's
  // line 47 shares only the file name, a weaker match.
  EXPECT_EQ(M.Calls, (std::vector<size_t>{0, 2, 4}));

  // A different API family at the same line does not match.
  F.Keys.Api = "cudaDeviceSynchronize";
  EXPECT_TRUE(J.match(F).Calls.empty());
  // Nor does another line.
  F.Keys.Api = "cudaMemcpy";
  F.Keys.CallSites[0].Line = 48;
  EXPECT_TRUE(J.match(F).empty());
}

TEST(JoinTest, TransferInLoopThroughCalleeUsesTheLoopCall) {
  ProfileBuilder B;
  // The API call is in upload() (line 10), called in the loop at line 30:
  // the stack holds both.
  size_t C = B.call("cudaMemcpy", 0, 100, "/src/app.cu", 10);
  profile::StackFrame Caller;
  Caller.Loc.File = "/src/app.cu";
  Caller.Loc.Line = 30;
  B.P.Stacks[0].Symbols.push_back(Caller);
  B.copy(C, CopyKind::HtoD, 1 << 20, 10, 90);
  B.call("cudaMalloc", 200, 300, "/src/app.cu", 11);
  B.P.Stacks[1].Symbols.push_back(Caller);
  ProfileIndex Index(B.P);
  Joiner J(Index);
  Finding F;
  F.CheckId = "transfer-in-loop";
  F.Keys.Api = "cudaMemcpy";
  SourceLocation Loop, Inner;
  Loop.File = Inner.File = "/src/app.cu";
  Loop.Line = 30;
  Inner.Line = 10;
  F.Keys.CallSites = {Loop, Inner};
  // Both transfers below the loop's call count.
  EXPECT_EQ(J.match(F).Calls, (std::vector<size_t>{0, 1}));
}

TEST(JoinTest, KernelsByMangledOrDemangledName) {
  ProfileBuilder B;
  size_t L1 = B.call("cudaLaunchKernel", 0, 5);
  B.kernel(L1, "_Z9transposeILi32EEvPfPKfi", 10, 20);
  size_t L2 = B.call("cudaLaunchKernel", 30, 35);
  B.kernel(L2, "_Z9transposeILi16EEvPfPKfi", 40, 50);
  // A Kineto-style record: demangled only.
  size_t L3 = B.call("cudaLaunchKernel", 60, 65);
  size_t K3 = B.kernel(L3, "", 70, 80);
  B.P.Kernels[K3].Demangled = "void scale<float>(float*, int)";
  profile::KernelMetrics Ncu;
  Ncu.Name = "void transpose<32>(float *, const float *, int)";
  B.P.Metrics.push_back(Ncu);
  ProfileIndex Index(B.P);
  Joiner J(Index);

  Finding F;
  F.CheckId = "access-uncoalesced";
  F.Keys.Kernels = {"_Z9transposeILi32EEvPfPKfi"};
  Match M = J.match(F);
  EXPECT_EQ(M.Kernels, (std::vector<size_t>{0}));
  EXPECT_EQ(M.Metrics, (std::vector<size_t>{0}));
  // Every instantiation the check listed.
  F.Keys.Kernels.push_back("_Z9transposeILi16EEvPfPKfi");
  EXPECT_EQ(J.match(F).Kernels, (std::vector<size_t>{0, 1}));
  F.Keys.Kernels = {"_Z5scaleIfEvPfi"};
  EXPECT_EQ(J.match(F).Kernels, (std::vector<size_t>{2}));
  F.Keys.Kernels = {"_Z5scaleIdEvPdi"};
  EXPECT_TRUE(J.match(F).Kernels.empty());
}

TEST(JoinTest, LaunchFindingsKeepTheirCallSite) {
  ProfileBuilder B;
  size_t A = B.call("cudaLaunchKernel", 0, 5, "/src/blur.cu", 70);
  B.kernel(A, "_Z4blurPKfPf", 10, 20, 256);
  size_t C = B.call("cudaLaunchKernel", 30, 35, "/src/blur.cu", 71);
  B.kernel(C, "_Z4blurPKfPf", 40, 50, 250);
  ProfileIndex Index(B.P);
  Joiner J(Index);
  Finding F;
  F.CheckId = "launch-block-size";
  F.Keys.Api = "cudaLaunchKernel";
  F.Keys.Kernels = {"_Z4blurPKfPf"};
  SourceLocation Site;
  Site.File = "/src/blur.cu";
  Site.Line = 71;
  F.Keys.CallSites = {Site};
  EXPECT_EQ(J.match(F).Kernels, (std::vector<size_t>{1}));
}

} // namespace

#include "cuda-advisor/Profile/Reader.h"
#include "cuda-advisor/Profile/Symbolize.h"

namespace {

// The committed recording of examples/transfer-in-loop.cu (H200): its host
// stacks symbolize through the committed binary to the example's lines, and
// the two copies of the loop (lines 47 and 50) match 100 calls each; the
// kernel matches the static mangled name of its host stub.
TEST(JoinTest, CommittedRecordingOfTransferInLoop) {
  const char *Path = CUDA_ADVISOR_TEST_INPUTS "/profiles/transfer-in-loop.bad.jsonl";
  llvm::Expected<profile::Profile> P = profile::readProfile(Path);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  profile::SymbolizeOptions Opts;
  Opts.BinaryPaths = {CUDA_ADVISOR_TEST_INPUTS "/profiles/bin"};
  profile::SymbolizeResult R = profile::symbolizeStacks(*P, Opts);
  EXPECT_TRUE(R.Warnings.empty()) << R.Warnings.front();
  EXPECT_GT(R.UserStacks, 0u);
  ProfileIndex Index(*P);
  Joiner J(Index);
  auto Copy = [&](unsigned Line) {
    Finding F;
    F.CheckId = "transfer-in-loop";
    F.Keys.Api = "cudaMemcpy";
    SourceLocation Site;
    Site.File = CUDA_ADVISOR_SOURCE_DIR "/examples/transfer-in-loop.cu";
    Site.Line = Line;
    F.Keys.CallSites = {Site};
    return J.match(F);
  };
  for (unsigned Line : {47u, 50u}) {
    Match M = Copy(Line);
    EXPECT_EQ(M.Calls.size(), 100u) << Line;
    for (size_t C : M.Calls) {
      EXPECT_EQ(P->ApiCalls[C].Name, "cudaMemcpy");
      ASSERT_EQ(Index.workOf(C).size(), 1u);
      EXPECT_EQ(Index.workOf(C)[0].Kind, WorkKind::Copy);
    }
  }
  EXPECT_TRUE(Copy(48).Calls.empty()); // The launch's line: not a copy.
  Finding K;
  K.CheckId = "access-uncoalesced";
  K.Keys.Kernels = {"_Z12scale_by_twoPKfPfi"}; // The device symbol (Analysis writes it).
  EXPECT_EQ(J.match(K).Kernels.size(), 101u); // The loop's 100 and the warm-up.
}

} // namespace
