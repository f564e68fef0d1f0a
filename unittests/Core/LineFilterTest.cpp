//===- LineFilterTest.cpp - --line-filter and --diff -----------------------===//
#include "cuda-advisor/Core/LineFilter.h"

#include "gtest/gtest.h"

using namespace cuda_advisor;

namespace {

SourceLocation at(std::string File, unsigned Line) {
  SourceLocation L;
  L.File = std::move(File);
  L.Line = Line;
  L.Column = 1;
  return L;
}

LineFilter diff(llvm::StringRef Text) {
  auto F = LineFilter::fromUnifiedDiff(Text);
  EXPECT_TRUE(static_cast<bool>(F)) << llvm::toString(F.takeError());
  return F ? std::move(*F) : LineFilter();
}

TEST(LineFilterTest, JsonRangesAndWholeFiles) {
  auto F = LineFilter::fromJson(R"([{"name":"src/a.cu","lines":[[1,3],[5,5]]},{"name":"b.cu"}])");
  ASSERT_TRUE(static_cast<bool>(F));
  EXPECT_TRUE(F->contains(at("/r/src/a.cu", 1)));
  EXPECT_TRUE(F->contains(at("/r/src/a.cu", 3)));
  EXPECT_FALSE(F->contains(at("/r/src/a.cu", 4)));
  EXPECT_TRUE(F->contains(at("/r/src/a.cu", 5)));
  EXPECT_FALSE(F->contains(at("/r/src/a.cu", 6)));
  // Whole path components only.
  EXPECT_FALSE(F->contains(at("/r/xsrc/a.cu", 1)));
  EXPECT_FALSE(F->contains(at("/r/src/aa.cu", 1)));
  // No "lines": every line.
  EXPECT_TRUE(F->contains(at("/r/b.cu", 1000)));
  EXPECT_FALSE(F->contains(at("/r/c.cu", 1)));
}

TEST(LineFilterTest, JsonErrors) {
  for (const char *Bad : {"{", "{}", R"([{"lines":[[1,2]]}])", R"([{"name":"a","lines":[[2,1]]}])",
                          R"([{"name":"a","lines":[[0,1]]}])", R"([{"name":"a","lines":[1]}])",
                          R"([{"name":"a","lines":3}])"}) {
    auto F = LineFilter::fromJson(Bad);
    EXPECT_FALSE(static_cast<bool>(F)) << Bad;
    if (!F)
      llvm::consumeError(F.takeError());
  }
}

TEST(LineFilterTest, DiffWithoutContext) {
  // git diff -U0: a changed line, two added lines, a deletion only.
  LineFilter F = diff("diff --git a/src/k.cu b/src/k.cu\n"
                      "index 1111111..2222222 100644\n"
                      "--- a/src/k.cu\n"
                      "+++ b/src/k.cu\n"
                      "@@ -3 +3 @@ void f() {\n"
                      "-  old();\n"
                      "+  changed();\n"
                      "@@ -10,0 +11,2 @@\n"
                      "+  added1();\n"
                      "+  added2();\n"
                      "@@ -20,2 +21,0 @@\n"
                      "-  gone1();\n"
                      "-  gone2();\n");
  EXPECT_FALSE(F.contains(at("/r/src/k.cu", 2)));
  EXPECT_TRUE(F.contains(at("/r/src/k.cu", 3)));
  EXPECT_FALSE(F.contains(at("/r/src/k.cu", 10)));
  EXPECT_TRUE(F.contains(at("/r/src/k.cu", 11)));
  EXPECT_TRUE(F.contains(at("/r/src/k.cu", 12)));
  EXPECT_FALSE(F.contains(at("/r/src/k.cu", 13)));
  EXPECT_FALSE(F.contains(at("/r/src/k.cu", 21)));
  ASSERT_EQ(F.files().size(), 1u);
  EXPECT_EQ(F.files()[0].Name, "src/k.cu");
  EXPECT_EQ(F.files()[0].Lines.size(), 2u); // 3-3 and 11-12, merged runs.
}

TEST(LineFilterTest, DiffWithContextAndOddLines) {
  // Context lines count on the new side but are not chosen; a removed line
  // that reads like a header ("-- x" removed is "--- x") and an added one
  // ("++ y" added is "+++ y") stay hunk lines.
  LineFilter F = diff("--- a/a.cu\t2024-01-01\n"
                      "+++ b/a.cu\t2024-01-02\n"
                      "@@ -1,4 +1,4 @@\n"
                      " one\n"
                      "--- x\n"
                      "+++ y\n"
                      " three\n"
                      "\\ No newline at end of file\n"
                      " four\n"
                      "--- a/gone.cu\n"
                      "+++ /dev/null\n"
                      "@@ -1 +0,0 @@\n"
                      "-x\n");
  EXPECT_FALSE(F.contains(at("/r/a.cu", 1)));
  EXPECT_TRUE(F.contains(at("/r/a.cu", 2)));
  EXPECT_FALSE(F.contains(at("/r/a.cu", 3)));
  EXPECT_FALSE(F.contains(at("/r/a.cu", 4)));
  EXPECT_FALSE(F.contains(at("/r/gone.cu", 1)));
  EXPECT_EQ(F.files().size(), 1u);
}

TEST(LineFilterTest, DiffErrors) {
  auto NoHeader = LineFilter::fromUnifiedDiff("hello\n");
  EXPECT_FALSE(static_cast<bool>(NoHeader));
  llvm::consumeError(NoHeader.takeError());
  auto BadHunk = LineFilter::fromUnifiedDiff("+++ b/a.cu\n@@ -1 +x @@\n");
  EXPECT_FALSE(static_cast<bool>(BadHunk));
  llvm::consumeError(BadHunk.takeError());
  // An empty diff (no change) is fine and chooses nothing.
  LineFilter Empty = diff("");
  EXPECT_FALSE(Empty.contains(at("/r/a.cu", 1)));
}

TEST(LineFilterTest, RuntimeFindingsByCallSite) {
  LineFilter F = diff("+++ b/app.cu\n@@ -5,0 +6 @@\n+  cudaMemcpy(...);\n");
  Finding Static;
  Static.Loc = at("/r/app.cu", 6);
  Finding Runtime; // No location, its call site on the changed line.
  Runtime.Keys.CallSites.push_back(at("/r/app.cu", 6));
  Finding Elsewhere;
  Elsewhere.Keys.CallSites.push_back(at("/r/app.cu", 7));
  Finding Nowhere;
  std::vector<Finding> All;
  All.push_back(Static);
  All.push_back(Runtime);
  All.push_back(Elsewhere);
  All.push_back(Nowhere);
  F.apply(All);
  ASSERT_EQ(All.size(), 2u);
  EXPECT_TRUE(All[0].Loc.isValid());
  EXPECT_FALSE(All[1].Loc.isValid());
}

} // namespace
