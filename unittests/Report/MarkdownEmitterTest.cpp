//===- MarkdownEmitterTest.cpp - Markdown on hand-built findings ----------===//
#include "ReportTestUtil.h"

using namespace cuda_advisor;
using namespace cuda_advisor::report;
using namespace cuda_advisor::report::test;

namespace {

std::string markdown(llvm::ArrayRef<Finding> Findings, const ReportContext &Ctx) {
  return render(emitMarkdown, Findings, Ctx);
}

ReportContext context(const TempDir &Dir) {
  ReportContext Ctx;
  Ctx.SourceRoot = Dir.Path;
  return Ctx;
}

TEST(MarkdownEmitterTest, RankedReport) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  ReportContext Ctx = context(Dir);
  Ctx.Sources.push_back(File);
  Ctx.Summary = seedSummary();
  std::string Out = markdown({gridFinding(File), copyFinding(File), runtimeFinding()}, Ctx);
  EXPECT_EQ(Out.find("## cuda-advisor: 3 warnings in 1 file\n\n"
                     "**GPU busy 412 ms of 1.2 s; 2 findings could save about 290 ms**\n\n"
                     "| time share | of 1.2 s |\n| --- | --- |\n"
                     "| compute (kernels) | 8.3% (100 ms) |\n"
                     "| copies and memsets alone | 26% (312 ms) |\n"
                     "| copies and memsets under kernels | 1.9% (23 ms) |\n"
                     "| GPU idle | 66% (788 ms) |\n\n"
                     "| # | finding | location | measured | estimated saving |\n"
                     "| ---: | --- | --- | --- | ---: |\n"
                     "| 1 | warning: 100 host-to-device copies of 4 MiB from pageable memory "
                     "`runtime-pageable-copy` | (no source location) | 100 calls, 300 ms (73% of "
                     "GPU time) | 255 ms |\n"
                     "| 2 | warning: cudaMemcpy runs on every iteration of this loop; 4 KiB copied "
                     "each time `transfer-in-loop` | `a.cu:5:5` | 100 calls, 35.2 ms (28% of GPU "
                     "time) | 34.8 ms |\n"
                     "| 3 | warning: grid of n / 256 blocks drops the last n % 256 elements when n "
                     "is not a multiple of 256; round up `launch-grid-truncation` | `a.cu:6:8` | "
                     "not seen in the profile |  |\n\n"),
            0u)
      << Out;
  EXPECT_NE(Out.find("### 1. `runtime-pageable-copy`\n\n**warning:** 100 host-to-device copies"
                     " of 4 MiB from pageable memory\n\nNo source location (found in the "
                     "profile).\n\n**Measured:** 100 calls, 300 ms (73% of GPU time); "
                     "**estimated saving:** 255 ms (pinned copies at the device's measured "
                     "bandwidth)\n\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("### 2. `transfer-in-loop` at `a.cu:5:5`\n\n**warning:** cudaMemcpy runs"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("```cuda\n    cudaMemcpy(d, h, 4096, cudaMemcpyHostToDevice);\n```\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("- **note:** inside this loop at `a.cu:4:3`: `for (int it = 0; it < 100; "
                     "++it) {`\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("Not seen in the profile.\n\n**Suggested fix:**\n\n```diff\n"
                     "-\tadd<<<n / 256, 256>>>(d, n);\n"
                     "+\tadd<<<(n + 255) / 256, 256>>>(d, n);\n```\n"),
            std::string::npos)
      << Out;
}

TEST(MarkdownEmitterTest, StaticReportHasNoCostColumns) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  Finding F = gridFinding(File);
  F.Ranking.reset();
  std::string Out = markdown({F}, context(Dir));
  EXPECT_NE(Out.find("| # | finding | location |\n| ---: | --- | --- |\n| 1 |"), std::string::npos)
      << Out;
  EXPECT_EQ(Out.find("measured"), std::string::npos) << Out;
  EXPECT_EQ(Out.find("profile"), std::string::npos) << Out;
}

TEST(MarkdownEmitterTest, EscapesMessagesAndCode) {
  TempDir Dir;
  std::string Source = "auto s = \"```\"; k<<<1, 100>>>(x | y);\n";
  std::string File = Dir.write("e.cu", Source);
  Finding F;
  F.CheckId = "launch-block-size";
  F.Message = "a | b `c` <script>alert(1)</script> *x* _y_ [z](u) & 1";
  F.Loc = at(File, Source, 1, 17);
  F.Notes.push_back({at(File, Source, 1, 1), "see `s` | here"});
  std::string Out = markdown({F}, context(Dir));
  std::string Escaped = "a \\| b \\`c\\` \\<script\\>alert(1)\\</script\\> \\*x\\* \\_y\\_ "
                        "\\[z\\](u) &amp; 1";
  // In the table row and under the heading.
  EXPECT_NE(Out.find("| 1 | warning: " + Escaped + " `launch-block-size` |"), std::string::npos)
      << Out;
  EXPECT_NE(Out.find("**warning:** " + Escaped + "\n"), std::string::npos) << Out;
  EXPECT_EQ(Out.find("<script>"), std::string::npos) << Out;
  // A source line holding ``` gets a longer fence.
  EXPECT_NE(Out.find("````cuda\n" + Source + "````\n"), std::string::npos) << Out;
  // Code spans holding backticks get longer delimiters.
  EXPECT_NE(Out.find("- **note:** see \\`s\\` \\| here at `e.cu:1:1`: ````auto s = \"```\"; "
                     "k<<<1, 100>>>(x | y);````\n"),
            std::string::npos)
      << Out;
}

TEST(MarkdownEmitterTest, InputErrorsAndNoFindings) {
  TempDir Dir;
  ReportContext Ctx = context(Dir);
  Ctx.Sources = {Dir.file("a.cu"), Dir.file("b.cu")};
  Ctx.Errors.push_back({Dir.file("b.cu"), "compiler errors"});
  EXPECT_EQ(markdown({}, Ctx), "## cuda-advisor: no findings in 2 files\n\n"
                               "**Input errors** (these files were not fully analyzed):\n\n"
                               "- `b.cu`: compiler errors\n\n");
}

} // namespace
