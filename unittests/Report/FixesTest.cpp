//===- FixesTest.cpp - --export-fixes YAML and --fix ----------------------===//
#include "ReportTestUtil.h"
#include "llvm/Support/YAMLParser.h"

using namespace cuda_advisor;
using namespace cuda_advisor::report;
using namespace cuda_advisor::report::test;

namespace {

/// A finding whose one fix-it replaces bytes [Begin, End) of line Line.
Finding replace(const std::string &File, llvm::StringRef Text, unsigned Line, unsigned Begin,
                unsigned End, llvm::StringRef With,
                llvm::StringRef Check = "launch-grid-truncation") {
  Finding F;
  F.CheckId = Check.str();
  F.Message = "m";
  F.Loc = at(File, Text, Line, Begin);
  F.Fixes.push_back({range(File, Text, Line, Begin, End), With.str()});
  return F;
}

TEST(FixesYamlTest, ClangTidyExportFormat) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  std::string Out =
      render([](llvm::raw_ostream &OS, llvm::ArrayRef<Finding> F,
                const ReportContext &) { writeFixesYaml(OS, F); },
             {gridFinding(File), copyFinding(File), runtimeFinding()}, ReportContext());
  unsigned Offset = llvm::StringRef(SeedSource).find("n / 256");
  EXPECT_EQ(Out.find("---\nMainSourceFile:  '" + File +
                     "'\nDiagnostics:\n"
                     "  - DiagnosticName:  launch-grid-truncation\n"
                     "    DiagnosticMessage:\n"
                     "      Message:         'grid of n / 256 blocks drops the last n % 256 "
                     "elements when n is not a multiple of 256; round up'\n"
                     "      FilePath:        '" +
                     File +
                     "'\n"
                     "      FileOffset:      " +
                     std::to_string(Offset) +
                     "\n"
                     "      Replacements:\n"
                     "        - FilePath:        '" +
                     File +
                     "'\n"
                     "          Offset:          " +
                     std::to_string(Offset) +
                     "\n"
                     "          Length:          7\n"
                     "          ReplacementText: '(n + 255) / 256'\n"
                     "      Ranges:\n"
                     "        - FilePath:        '" +
                     File +
                     "'\n"
                     "          FileOffset:      " +
                     std::to_string(Offset) +
                     "\n"
                     "          Length:          7\n"
                     "    Level:           Warning\n"),
            0u)
      << Out;
  // The copy has a note and no replacement; the runtime finding (no file) is left out.
  EXPECT_NE(Out.find("  - DiagnosticName:  transfer-in-loop\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("      Replacements:    []\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("    Notes:\n      - Message:         inside this loop\n"), std::string::npos)
      << Out;
  EXPECT_EQ(Out.find("runtime-pageable-copy"), std::string::npos) << Out;
  EXPECT_NE(Out.find("\n...\n"), std::string::npos) << Out;

  // It is YAML that parses.
  llvm::SourceMgr SM;
  llvm::yaml::Stream Stream(Out, SM);
  for (llvm::yaml::document_iterator D = Stream.begin(); D != Stream.end(); ++D)
    EXPECT_TRUE(llvm::isa_and_nonnull<llvm::yaml::MappingNode>(D->getRoot()));
  EXPECT_FALSE(Stream.failed());
}

TEST(FixesYamlTest, ExportFailureNamesTheFile) {
  llvm::Error E = exportFixes("/nonexistent/dir/fixes.yaml", {});
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_NE(
      llvm::toString(std::move(E)).find("/nonexistent/dir/fixes.yaml: cannot write the fix-its"),
      std::string::npos);
}

TEST(ApplyFixesTest, AppliesAndKeepsPermissions) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  ASSERT_FALSE(llvm::sys::fs::setPermissions(File, llvm::sys::fs::perms(0640)));
  FixOutcome Out;
  ASSERT_FALSE(static_cast<bool>(applyFixesInPlace({gridFinding(File), copyFinding(File)}, Out)));
  EXPECT_EQ(Out.Applied, 1u);
  EXPECT_EQ(Out.FilesChanged, std::vector<std::string>{File});
  EXPECT_TRUE(Out.Skipped.empty());
  std::string Expected = SeedSource;
  Expected.replace(Expected.find("n / 256"), 7, "(n + 255) / 256");
  EXPECT_EQ(Dir.read("a.cu"), Expected);
  llvm::sys::fs::file_status Status;
  ASSERT_FALSE(llvm::sys::fs::status(File, Status));
  EXPECT_EQ(Status.permissions(), llvm::sys::fs::perms(0640));
  // No temporary file is left behind.
  std::error_code EC;
  unsigned Entries = 0;
  for (llvm::sys::fs::directory_iterator It(Dir.Path, EC), End; It != End && !EC; It.increment(EC))
    ++Entries;
  EXPECT_EQ(Entries, 1u);
}

TEST(ApplyFixesTest, ConflictingFixesAreAllLeftOut) {
  TempDir Dir;
  std::string Text = "int x = a / b + c / d;\nint y = e / f;\n";
  std::string File = Dir.write("c.cu", Text);
  Finding Wide = replace(File, Text, 1, 9, 22, "(a + b - 1) / b + c / d", "check-a");
  Finding Narrow = replace(File, Text, 1, 17, 22, "(c + d - 1) / d", "check-b");
  Finding Other = replace(File, Text, 2, 9, 14, "(e + f - 1) / f", "check-c");
  FixOutcome Out;
  ASSERT_FALSE(static_cast<bool>(applyFixesInPlace({Wide, Narrow, Other}, Out)));
  EXPECT_EQ(Out.Applied, 1u);
  EXPECT_EQ(Dir.read("c.cu"), "int x = a / b + c / d;\nint y = (e + f - 1) / f;\n");
  ASSERT_EQ(Out.Skipped.size(), 2u);
  EXPECT_EQ(Out.Skipped[0], File +
                                ":1:9: [check-a] fix-it not applied: it conflicts with the "
                                "fix-it of " +
                                File + ":1:17: [check-b]");
  EXPECT_EQ(Out.Skipped[1], File +
                                ":1:17: [check-b] fix-it not applied: it conflicts with the "
                                "fix-it of " +
                                File + ":1:9: [check-a]");
}

TEST(ApplyFixesTest, TwoInsertionsAtOneOffsetConflictIdenticalOnesDoNot) {
  TempDir Dir;
  std::string Text = "f(x);\n";
  std::string File = Dir.write("i.cu", Text);
  Finding A = replace(File, Text, 1, 3, 3, "1 + ", "check-a");
  Finding B = replace(File, Text, 1, 3, 3, "2 * ", "check-b");
  FixOutcome Out;
  ASSERT_FALSE(static_cast<bool>(applyFixesInPlace({A, B}, Out)));
  EXPECT_EQ(Out.Applied, 0u);
  EXPECT_EQ(Out.Skipped.size(), 2u);
  EXPECT_EQ(Dir.read("i.cu"), Text);
  // The same fix-it reached twice (a header seen from two files) is applied once.
  FixOutcome Again;
  ASSERT_FALSE(static_cast<bool>(applyFixesInPlace({A, A}, Again)));
  EXPECT_EQ(Again.Applied, 1u);
  EXPECT_TRUE(Again.Skipped.empty());
  EXPECT_EQ(Dir.read("i.cu"), "f(1 + x);\n");
}

TEST(ApplyFixesTest, AFindingsFixItsGoTogether) {
  TempDir Dir;
  std::string Text = "y = a * b;\n";
  std::string File = Dir.write("p.cu", Text);
  Finding Parens;
  Parens.CheckId = "check-a";
  Parens.Message = "m";
  Parens.Loc = at(File, Text, 1, 5);
  Parens.Fixes.push_back({range(File, Text, 1, 5, 5), "("});
  Parens.Fixes.push_back({range(File, Text, 1, 10, 10), ")"});
  Finding Rename = replace(File, Text, 1, 9, 10, "c", "check-b"); // Touches neither insertion.
  FixOutcome Out;
  ASSERT_FALSE(static_cast<bool>(applyFixesInPlace({Parens, Rename}, Out)));
  EXPECT_EQ(Out.Applied, 3u);
  EXPECT_EQ(Dir.read("p.cu"), "y = (a * c);\n");
}

TEST(ApplyFixesTest, ChangedFileIsLeftAlone) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  Finding F = gridFinding(File);
  std::string Edited = std::string("// a new first line\n") + SeedSource;
  Dir.write("a.cu", Edited);
  FixOutcome Out;
  ASSERT_FALSE(static_cast<bool>(applyFixesInPlace({F}, Out)));
  EXPECT_EQ(Out.Applied, 0u);
  ASSERT_EQ(Out.Skipped.size(), 1u);
  EXPECT_NE(Out.Skipped[0].find("does not match the file"), std::string::npos);
  EXPECT_EQ(Dir.read("a.cu"), Edited);
}

TEST(ApplyFixesTest, UnreadableFileIsAnErrorNamingIt) {
  Finding F = gridFinding("/nonexistent/a.cu");
  FixOutcome Out;
  llvm::Error E = applyFixesInPlace({F}, Out);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("/nonexistent/a.cu: cannot apply the fix-its"),
            std::string::npos);
  EXPECT_EQ(Out.Applied, 0u);
}

} // namespace
