//===- SourcePathsTest.cpp - Recorded source paths to the sources here ----===//
#include "cuda-advisor/Profile/SourcePaths.h"

#include "gtest/gtest.h"

using namespace cuda_advisor::profile;

namespace {

TEST(SourcePathsTest, PrefixMapTheLastMatchingRuleApplies) {
  SourcePathMap M;
  M.PrefixMap = {{"/build", "/a"}, {"/build/src", "/b"}, {"/other", "/c"}};
  EXPECT_EQ(mapSourcePath("/build/src/k.cu", M), "/b/k.cu");
  EXPECT_EQ(mapSourcePath("/build/lib/k.cu", M), "/a/lib/k.cu");
  // Only at a path component boundary.
  EXPECT_EQ(mapSourcePath("/builder/k.cu", M), "/builder/k.cu");
  EXPECT_EQ(mapSourcePath("/build", M), "/a");
}

TEST(SourcePathsTest, LongestTrailingPathAmongTheSources) {
  SourcePathMap M;
  M.Sources = {"/home/me/proj/examples/a.cu", "/home/me/proj/tests/a.cu",
               "/home/me/proj/src/b.cu"};
  EXPECT_EQ(mapSourcePath("/root/gpu/examples/a.cu", M), "/home/me/proj/examples/a.cu");
  EXPECT_EQ(mapSourcePath("/root/gpu/src/b.cu", M), "/home/me/proj/src/b.cu");
  EXPECT_EQ(mapSourcePath("b.cu", M), "/home/me/proj/src/b.cu");
  // Two sources agree on the file name only: ambiguous, left alone.
  EXPECT_EQ(mapSourcePath("/root/gpu/other/a.cu", M), "/root/gpu/other/a.cu");
  // No source of that name: left alone (a library header, a Python file).
  EXPECT_EQ(mapSourcePath("/usr/local/cuda/include/cuda_runtime.h", M),
            "/usr/local/cuda/include/cuda_runtime.h");
  // A known source stays as it is.
  EXPECT_EQ(mapSourcePath("/home/me/proj/tests/a.cu", M), "/home/me/proj/tests/a.cu");
}

TEST(SourcePathsTest, PrefixMapThenSuffix) {
  SourcePathMap M;
  M.PrefixMap = {{"/ci/checkout", "/home/me/proj"}};
  M.Sources = {"/home/me/proj/examples/a.cu", "/home/me/proj/tests/a.cu"};
  EXPECT_EQ(mapSourcePath("/ci/checkout/tests/a.cu", M), "/home/me/proj/tests/a.cu");
}

TEST(SourcePathsTest, ParsesMappings) {
  auto M = parsePrefixMapping("/old=/new");
  ASSERT_TRUE(static_cast<bool>(M));
  EXPECT_EQ(M->first, "/old");
  EXPECT_EQ(M->second, "/new");
  auto Empty = parsePrefixMapping("/old=");
  ASSERT_TRUE(static_cast<bool>(Empty));
  EXPECT_EQ(Empty->second, "");
  auto Bad = parsePrefixMapping("/old");
  EXPECT_FALSE(static_cast<bool>(Bad));
  llvm::consumeError(Bad.takeError());
  auto NoOld = parsePrefixMapping("=/new");
  EXPECT_FALSE(static_cast<bool>(NoOld));
  llvm::consumeError(NoOld.takeError());
}

TEST(SourcePathsTest, RewritesEveryFrame) {
  Profile P;
  Stack S;
  StackFrame F;
  F.Loc.File = "/root/gpu/examples/a.cu";
  F.Loc.Line = 50;
  S.Symbols = {F, F};
  P.Stacks.push_back(S);
  SourcePathMap M;
  M.Sources = {"/home/me/proj/examples/a.cu"};
  EXPECT_EQ(mapSourcePaths(P, M), 1u);
  EXPECT_EQ(P.Stacks[0].Symbols[0].Loc.File, "/home/me/proj/examples/a.cu");
  EXPECT_EQ(P.Stacks[0].Symbols[1].Loc.File, "/home/me/proj/examples/a.cu");
}

TEST(SourcePathsTest, RewritesTheCommandsSources) {
  // The script a recording ran is a source here: its path becomes the local
  // one; the interpreter, a binary and the arguments that are no source stay.
  Profile P;
  Process Pr;
  Pr.Command = "/usr/bin/python3 /root/gpu/train.py --data /root/gpu/data/x.bin -v";
  P.Processes.push_back(Pr);
  Pr.Command = "/tmp/b/examples/copy_loop 100";
  P.Processes.push_back(Pr);
  SourcePathMap M;
  M.Sources = {"/home/me/proj/train.py"};
  EXPECT_EQ(mapSourcePaths(P, M), 1u);
  EXPECT_EQ(P.Processes[0].Command,
            "/usr/bin/python3 /home/me/proj/train.py --data /root/gpu/data/x.bin -v");
  EXPECT_EQ(P.Processes[1].Command, "/tmp/b/examples/copy_loop 100");
}

} // namespace
