//===- TextEmitterTest.cpp - Clang-style text on hand-built findings ------===//
#include "ReportTestUtil.h"

using namespace cuda_advisor;
using namespace cuda_advisor::report;
using namespace cuda_advisor::report::test;

namespace {

std::string text(llvm::ArrayRef<Finding> Findings, const ReportContext &Ctx) {
  return render(emitText, Findings, Ctx);
}

TEST(TextEmitterTest, ClangLayoutWithFixIt) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  Finding F = gridFinding(File);
  F.Ranking.reset();
  // Tabs expand to 8 columns; the range and the fix-it follow the expansion.
  EXPECT_EQ(text({F}, ReportContext()), File + ":6:8: warning: " + F.Message +
                                            " [launch-grid-truncation]\n"
                                            "    6 |         add<<<n / 256, 256>>>(d, n);\n"
                                            "      |               ^~~~~~~\n"
                                            "      |               (n + 255) / 256\n");
}

TEST(TextEmitterTest, RankedReport) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  ReportContext Ctx;
  Ctx.Summary = seedSummary();
  std::vector<Finding> Findings = {copyFinding(File), gridFinding(File), runtimeFinding()};
  // Largest saving first, the finding not seen in the profile last.
  EXPECT_EQ(text(Findings, Ctx),
            "GPU busy 412 ms of 1.2 s; 2 findings could save about 290 ms\n"
            "time share: compute (kernels) 8.3% (100 ms), copies and memsets alone 26% (312 ms), "
            "copies and memsets under kernels 1.9% (23 ms), GPU idle 66% (788 ms)\n"
            "\n"
            "cuda-advisor: warning: 100 host-to-device copies of 4 MiB from pageable memory "
            "[runtime-pageable-copy]\n"
            "  measured: 100 calls, 300 ms (73% of GPU time); estimated saving: 255 ms\n"
            "  how: pinned copies at the device's measured bandwidth\n" +
                File +
                ":5:5: warning: cudaMemcpy runs on every iteration of this loop; 4 KiB "
                "copied each time [transfer-in-loop]\n"
                "    5 |     cudaMemcpy(d, h, 4096, cudaMemcpyHostToDevice);\n"
                "      |     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
                "  measured: 100 calls, 35.2 ms (28% of GPU time); estimated saving: "
                "34.8 ms\n"
                "  how: a loop-invariant copy done 100 times saves 99/100 of its time\n" +
                File +
                ":4:3: note: inside this loop\n"
                "    4 |   for (int it = 0; it < 100; ++it) {\n"
                "      |   ^\n" +
                File + ":6:8: warning: " + gridFinding(File).Message +
                " [launch-grid-truncation]\n"
                "    6 |         add<<<n / 256, 256>>>(d, n);\n"
                "      |               ^~~~~~~\n"
                "      |               (n + 255) / 256\n"
                "  not seen in the profile\n");
}

TEST(TextEmitterTest, SummaryWarnings) {
  ReportContext Ctx;
  Ctx.Summary = seedSummary();
  Ctx.Summary->Warnings.push_back("the run hit a CUDA error");
  EXPECT_EQ(text({}, Ctx), "GPU busy 412 ms of 1.2 s; 2 findings could save about 290 ms\n"
                           "cuda-advisor: warning: the run hit a CUDA error\n"
                           "time share: compute (kernels) 8.3% (100 ms), copies and memsets "
                           "alone 26% (312 ms), copies and memsets under kernels 1.9% (23 ms), "
                           "GPU idle 66% (788 ms)\n\n");
}

TEST(TextEmitterTest, RuntimeFindingAtItsCallSite) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  Finding F = runtimeFinding();
  F.Keys.CallSites.push_back(at(File, SeedSource, 5, 5));
  std::string Out = text({F}, ReportContext());
  EXPECT_EQ(Out.find(File + ":5:5: warning: 100 host-to-device copies"), 0u) << Out;
  EXPECT_NE(Out.find("    5 |     cudaMemcpy("), std::string::npos) << Out;
}

TEST(TextEmitterTest, RangeBeforeTheCaretAndMultiLineRange) {
  TempDir Dir;
  std::string Source = "int f(int a, int b) {\n"
                       "  return a +\n"
                       "         b;\n"
                       "}\n";
  std::string File = Dir.write("m.cu", Source);
  Finding F;
  F.CheckId = "x";
  F.Message = "m";
  F.Loc = at(File, Source, 2, 12); // The '+'.
  F.Range = {at(File, Source, 2, 10), at(File, Source, 3, 11)};
  EXPECT_EQ(text({F}, ReportContext()), File + ":2:12: warning: m [x]\n"
                                               "    2 |   return a +\n"
                                               "      |          ~~^\n"
                                               "    3 |          b;\n"
                                               "      |          ~\n");
}

TEST(TextEmitterTest, TwoInsertionsOnOneLine) {
  TempDir Dir;
  std::string Source = "x = a * b;\n";
  std::string File = Dir.write("i.cu", Source);
  Finding F;
  F.CheckId = "x";
  F.Message = "m";
  F.Loc = at(File, Source, 1, 5);
  F.Fixes.push_back({{at(File, Source, 1, 5), at(File, Source, 1, 5)}, "("});
  F.Fixes.push_back({{at(File, Source, 1, 10), at(File, Source, 1, 10)}, ")"});
  EXPECT_EQ(text({F}, ReportContext()), File + ":1:5: warning: m [x]\n"
                                               "    1 | x = a * b;\n"
                                               "      |     ^\n"
                                               "      |     (    )\n");
}

TEST(TextEmitterTest, GutterGrowsLikeClangs) {
  TempDir Dir;
  std::string Source;
  for (int I = 1; I <= 10000; ++I)
    Source += "line" + std::to_string(I) + "\n";
  std::string File = Dir.write("big.cu", Source);
  Finding F;
  F.CheckId = "x";
  F.Message = "m";
  F.Loc = at(File, Source, 9990, 1);
  // max(4, digits of 9990 + 16) = 5 columns.
  EXPECT_EQ(text({F}, ReportContext()), File + ":9990:1: warning: m [x]\n"
                                               "  9990 | line9990\n"
                                               "       | ^\n");
}

TEST(TextEmitterTest, ColoursOnlyWhenAsked) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  Finding F = copyFinding(File);
  F.Ranking.reset();
  ReportContext Ctx;
  std::string Plain = text({F}, Ctx);
  EXPECT_EQ(Plain.find('\x1b'), std::string::npos);
  Ctx.Color = true;
  std::string Colored = text({F}, Ctx);
  // Clang 19's scheme: bold location and message, bold magenta warning,
  // bold cyan note (message not bold), bold green caret.
  EXPECT_NE(Colored.find("\x1b[1m" + File + ":5:5: \x1b[0m\x1b[0;1;35mwarning: \x1b[0m\x1b[1m"),
            std::string::npos)
      << Colored;
  EXPECT_NE(Colored.find("\x1b[0;1;36mnote: \x1b[0minside this loop\n"), std::string::npos)
      << Colored;
  EXPECT_NE(Colored.find("\x1b[0;1;32m    ^~~~"), std::string::npos) << Colored;
}

TEST(TextEmitterTest, UnreadableSourceStillGivesTheHeader) {
  Finding F = copyFinding("/nonexistent/a.cu");
  F.Ranking.reset();
  EXPECT_EQ(text({F}, ReportContext()), "/nonexistent/a.cu:5:5: warning: " + F.Message +
                                            " [transfer-in-loop]\n"
                                            "/nonexistent/a.cu:4:3: note: inside this loop\n");
}

} // namespace
