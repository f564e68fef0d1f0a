//===- SarifEmitterTest.cpp - SARIF 2.1.0 on hand-built findings ----------===//
#include "ReportTestUtil.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Process.h"

using namespace cuda_advisor;
using namespace cuda_advisor::report;
using namespace cuda_advisor::report::test;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

Value sarif(llvm::ArrayRef<Finding> Findings, const ReportContext &Ctx) {
  std::string Text = render(emitSarif, Findings, Ctx);
  auto V = llvm::json::parse(Text);
  EXPECT_TRUE(static_cast<bool>(V)) << Text;
  if (!V) {
    llvm::consumeError(V.takeError());
    return nullptr;
  }
  return std::move(*V);
}

/// lit's test/report/sarif-schema-unit.test validates what this writes.
void saveForSchemaTest(llvm::StringRef Name, const Value &V) {
  std::optional<std::string> Dir = llvm::sys::Process::GetEnv("CUDA_ADVISOR_SARIF_OUT");
  if (!Dir)
    return;
  llvm::SmallString<128> P(*Dir);
  llvm::sys::path::append(P, Name);
  std::error_code EC;
  llvm::raw_fd_ostream OS(P, EC);
  ASSERT_FALSE(EC) << P.str().str();
  OS << llvm::formatv("{0:2}", V) << "\n";
}

const Object &run0(const Value &Doc) {
  return *(*Doc.getAsObject()->getArray("runs"))[0].getAsObject();
}

const Object *resultOf(const Object &Run, llvm::StringRef Rule) {
  for (const Value &R : *Run.getArray("results"))
    if (R.getAsObject()->getString("ruleId") == Rule)
      return R.getAsObject();
  return nullptr;
}

ReportContext context(const TempDir &Dir) {
  ReportContext Ctx;
  Ctx.ToolVersion = "0.1.0";
  Ctx.Checks = seedChecks();
  Ctx.SourceRoot = Dir.Path;
  Ctx.InformationUri = "https://example.invalid/cuda-advisor";
  return Ctx;
}

TEST(SarifEmitterTest, DocumentRulesAndResults) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  ReportContext Ctx = context(Dir);
  Ctx.Sources.push_back(File);
  Ctx.Summary = seedSummary();
  Value Doc = sarif({copyFinding(File), gridFinding(File), runtimeFinding()}, Ctx);
  saveForSchemaTest("many.sarif", Doc);
  const Object &Top = *Doc.getAsObject();
  EXPECT_EQ(Top.getString("version"), "2.1.0");
  ASSERT_EQ(Top.getArray("runs")->size(), 1u);
  const Object &Run = run0(Doc);
  const Object &Driver = *Run.getObject("tool")->getObject("driver");
  EXPECT_EQ(Driver.getString("name"), "cuda-advisor");
  EXPECT_EQ(Driver.getString("version"), "0.1.0");
  EXPECT_EQ(Driver.getString("informationUri"), "https://example.invalid/cuda-advisor");
  const Array &Rules = *Driver.getArray("rules");
  ASSERT_EQ(Rules.size(), 3u);
  const Object &Rule0 = *Rules[0].getAsObject();
  EXPECT_EQ(Rule0.getString("id"), "transfer-in-loop");
  EXPECT_EQ(Rule0.getString("name"), "TransferInLoop");
  EXPECT_EQ(Rule0.getObject("shortDescription")->getString("text"), Ctx.Checks[0].Summary);
  EXPECT_EQ(Rule0.getObject("defaultConfiguration")->getString("level"), "warning");
  EXPECT_TRUE(Rule0.getObject("help")->getString("text"));

  const Object *Copy = resultOf(Run, "transfer-in-loop");
  ASSERT_TRUE(Copy);
  EXPECT_EQ(Copy->getInteger("ruleIndex"), 0);
  EXPECT_EQ(Copy->getString("level"), "warning");
  const Object &Phys =
      *(*Copy->getArray("locations"))[0].getAsObject()->getObject("physicalLocation");
  EXPECT_EQ(Phys.getObject("artifactLocation")->getString("uri"), "a.cu");
  EXPECT_EQ(Phys.getObject("artifactLocation")->getString("uriBaseId"), "%SRCROOT%");
  const Object &Region = *Phys.getObject("region");
  EXPECT_EQ(Region.getInteger("startLine"), 5);
  EXPECT_EQ(Region.getInteger("startColumn"), 5);
  EXPECT_EQ(Region.getInteger("endColumn"), 51);
  const Object &Note = *(*Copy->getArray("relatedLocations"))[0].getAsObject();
  EXPECT_EQ(Note.getObject("message")->getString("text"), "inside this loop");
  EXPECT_EQ(Note.getObject("physicalLocation")->getObject("region")->getInteger("startLine"), 4);
  const Object &Props = *Copy->getObject("properties");
  EXPECT_EQ(Props.getObject("evidence")->getInteger("bytesPerIteration"), 4096);
  EXPECT_EQ(Props.getObject("cost")->getInteger("measuredNs"), 35200000);
  EXPECT_EQ(Props.getObject("cost")->getInteger("estimatedSavingNs"), 34800000);
  EXPECT_EQ(Props.getObject("cost")->getNumber("gpuShare"), 0.28);
  // rank: the saving as a share of GPU busy time.
  EXPECT_NEAR(*Copy->getNumber("rank"), 100.0 * 34.8 / 412, 1e-9);
  EXPECT_TRUE(Copy->getObject("partialFingerprints")->getString("cudaAdvisor/v1"));

  const Object *Grid = resultOf(Run, "launch-grid-truncation");
  ASSERT_TRUE(Grid);
  const Object &Fix = *(*Grid->getArray("fixes"))[0].getAsObject();
  EXPECT_EQ(Fix.getObject("description")->getString("text"),
            "replace 'n / 256' with '(n + 255) / 256'");
  const Object &Change = *(*Fix.getArray("artifactChanges"))[0].getAsObject();
  const Object &Repl = *(*Change.getArray("replacements"))[0].getAsObject();
  EXPECT_EQ(Repl.getObject("insertedContent")->getString("text"), "(n + 255) / 256");
  const Object &Deleted = *Repl.getObject("deletedRegion");
  EXPECT_EQ(Deleted.getInteger("startLine"), 6);
  EXPECT_EQ(Deleted.getInteger("startColumn"), 8);
  EXPECT_EQ(Deleted.getInteger("endColumn"), 15);
  EXPECT_EQ(Deleted.getInteger("byteOffset"), llvm::StringRef(SeedSource).find("n / 256"));
  EXPECT_EQ(Deleted.getInteger("byteLength"), 7);
  EXPECT_EQ(Grid->getObject("properties")->getObject("cost")->getBoolean("matched"), false);
  EXPECT_FALSE(Grid->getNumber("rank"));

  // The analyzed file and the profile are artifacts.
  const Array &Artifacts = *Run.getArray("artifacts");
  ASSERT_EQ(Artifacts.size(), 2u);
  EXPECT_EQ(Artifacts[1].getAsObject()->getObject("location")->getString("uri"),
            "file:///nonexistent/run.json");
  EXPECT_EQ(Run.getObject("originalUriBaseIds")->getObject("%SRCROOT%")->getString("uri"),
            "file://" + Dir.Path + "/");
  EXPECT_EQ(Run.getObject("properties")->getObject("summary")->getInteger("gpuBusyNs"), 412000000);
  EXPECT_EQ(run0(Doc).getString("columnKind"), "unicodeCodePoints");
}

TEST(SarifEmitterTest, RuntimeOnlyFinding) {
  TempDir Dir;
  ReportContext Ctx = context(Dir);
  Ctx.Summary = seedSummary();
  Value Doc = sarif({runtimeFinding()}, Ctx);
  saveForSchemaTest("runtime-only.sarif", Doc);
  // No source line: GitHub rejects results without a physical location, so
  // the finding is a notification tied to its rule, not a result.
  EXPECT_FALSE(resultOf(run0(Doc), "runtime-pageable-copy"));
  const Object &Inv = *(*run0(Doc).getArray("invocations"))[0].getAsObject();
  EXPECT_EQ(Inv.getBoolean("executionSuccessful"), true);
  const Object &N = *(*Inv.getArray("toolExecutionNotifications"))[0].getAsObject();
  EXPECT_EQ(N.getString("level"), "warning");
  EXPECT_EQ(N.getObject("message")->getString("text"),
            "[runtime-pageable-copy] 100 host-to-device copies of 4 MiB from pageable memory");
  EXPECT_EQ(N.getObject("associatedRule")->getString("id"), "runtime-pageable-copy");
  EXPECT_EQ(N.getObject("associatedRule")->getInteger("index"), 2);
  const Object &Loc = *(*N.getArray("locations"))[0].getAsObject();
  EXPECT_FALSE(Loc.getObject("physicalLocation"));
  const Object &Logical = *(*Loc.getArray("logicalLocations"))[0].getAsObject();
  EXPECT_EQ(Logical.getString("name"), "_Z5scalePfii");
  EXPECT_EQ(Logical.getString("kind"), "function");
  EXPECT_EQ(N.getObject("properties")->getObject("cost")->getInteger("estimatedSavingNs"),
            255200000);
}

TEST(SarifEmitterTest, HelpLinksArePublicOrAbsent) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  ReportContext Ctx = context(Dir);
  Ctx.InformationUri.clear();
  Ctx.DocsDir = Dir.Path; // Installed pages exist locally...
  Dir.write("transfer-in-loop.md", "# transfer-in-loop\n\nCopies in loops.\n");
  Value Doc = sarif({copyFinding(File)}, Ctx);
  const Object &Driver = *run0(Doc).getObject("tool")->getObject("driver");
  // ...but a log read elsewhere must not point into this machine.
  EXPECT_FALSE(Driver.getString("informationUri"));
  for (const Value &R : *Driver.getArray("rules"))
    EXPECT_FALSE(R.getAsObject()->getString("helpUri"));
  Ctx.DocsBaseUri = "https://example.invalid/docs/checks/";
  Doc = sarif({copyFinding(File)}, Ctx);
  const Object &Rule0 =
      *(*run0(Doc).getObject("tool")->getObject("driver")->getArray("rules"))[0].getAsObject();
  EXPECT_EQ(Rule0.getString("helpUri"), "https://example.invalid/docs/checks/transfer-in-loop.md");
}

TEST(SarifEmitterTest, InputErrorsAreNotifications) {
  TempDir Dir;
  ReportContext Ctx = context(Dir);
  Ctx.Errors.push_back({Dir.file("broken.cu"), "compiler errors"});
  Value Doc = sarif({}, Ctx);
  saveForSchemaTest("input-error.sarif", Doc);
  const Object &Inv = *(*run0(Doc).getArray("invocations"))[0].getAsObject();
  EXPECT_EQ(Inv.getBoolean("executionSuccessful"), false);
  const Object &N = *(*Inv.getArray("toolExecutionNotifications"))[0].getAsObject();
  EXPECT_EQ(N.getString("level"), "error");
  EXPECT_EQ(N.getObject("message")->getString("text"), Dir.file("broken.cu") + ": compiler errors");
  EXPECT_TRUE(run0(Doc).getArray("results")->empty());
}

TEST(SarifEmitterTest, UnknownCheckGetsARule) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  Finding F = copyFinding(File);
  F.CheckId = "kernel-fusion";
  Value Doc = sarif({F}, context(Dir));
  const Object &Run = run0(Doc);
  const Array &Rules = *Run.getObject("tool")->getObject("driver")->getArray("rules");
  ASSERT_EQ(Rules.size(), 4u);
  EXPECT_EQ(Rules[3].getAsObject()->getString("id"), "kernel-fusion");
  EXPECT_EQ(resultOf(Run, "kernel-fusion")->getInteger("ruleIndex"), 3);
}

TEST(SarifEmitterTest, ColumnsAreCodePointsAndUrisEncoded) {
  TempDir Dir;
  std::string Source = "/* \xC3\xA9t\xC3\xA9 */ cudaFree(d);\n"; // "/* été */ cudaFree(d);"
  std::string File = Dir.write("caf\xC3\xA9 #1.cu", Source);
  Finding F;
  F.CheckId = "transfer-in-loop";
  F.Message = "m";
  F.Loc = at(File, Source, 1, 13); // Byte column of the c.
  ReportContext Ctx = context(Dir);
  Ctx.SourceRoot = "/nonexistent-root"; // The file is outside: absolute URI.
  Value Doc = sarif({F}, Ctx);
  const Object &Phys = *(*resultOf(run0(Doc), "transfer-in-loop")->getArray("locations"))[0]
                            .getAsObject()
                            ->getObject("physicalLocation");
  EXPECT_EQ(Phys.getObject("region")->getInteger("startColumn"), 11);
  EXPECT_EQ(Phys.getObject("artifactLocation")->getString("uri"),
            "file://" + Dir.Path + "/caf%C3%A9%20%231.cu");
  EXPECT_FALSE(Phys.getObject("artifactLocation")->getString("uriBaseId"));
}

TEST(SarifEmitterTest, FingerprintsSurviveLineShifts) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  ReportContext Ctx = context(Dir);
  auto Print = [&](const Finding &F) {
    Value Doc = sarif({F}, Ctx);
    return resultOf(run0(Doc), F.CheckId)
        ->getObject("partialFingerprints")
        ->getString("cudaAdvisor/v1")
        ->str();
  };
  std::string Before = Print(copyFinding(File));
  // Two lines added above the copy: same fingerprint.
  std::string Shifted = std::string("// a\n// b\n") + SeedSource;
  Dir.write("a.cu", Shifted);
  Finding Moved = copyFinding(File);
  Moved.Loc.Line += 2;
  Moved.Range.Begin.Line += 2;
  Moved.Range.End.Line += 2;
  EXPECT_EQ(Print(Moved), Before);
  // Another check at the same place: another fingerprint.
  Moved.CheckId = "launch-block-size";
  EXPECT_NE(Print(Moved), Before);
}

TEST(SarifEmitterTest, IdenticalLinesGetDistinctFingerprints) {
  TempDir Dir;
  std::string Source = "f();\nf();\n";
  std::string File = Dir.write("a.cu", Source);
  Finding A;
  A.CheckId = "x";
  A.Message = "m";
  A.Loc = at(File, Source, 1, 1);
  Finding B = A;
  B.Loc = at(File, Source, 2, 1);
  Value Doc = sarif({A, B}, context(Dir));
  const Array &Results = *run0(Doc).getArray("results");
  ASSERT_EQ(Results.size(), 2u);
  EXPECT_NE(
      *Results[0].getAsObject()->getObject("partialFingerprints")->getString("cudaAdvisor/v1"),
      *Results[1].getAsObject()->getObject("partialFingerprints")->getString("cudaAdvisor/v1"));
}

} // namespace

namespace {

TEST(SarifEmitterTest, UnusableFixItsAreLeftOut) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  Finding F = gridFinding(File);
  F.Fixes[0].Range.End.File = Dir.file("other.cu"); // No end in this file.
  Value Doc = sarif({F}, context(Dir));
  const Object *R = resultOf(run0(Doc), "launch-grid-truncation");
  ASSERT_TRUE(R);
  EXPECT_FALSE(R->getArray("fixes"));
}

} // namespace
