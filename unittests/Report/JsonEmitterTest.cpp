//===- JsonEmitterTest.cpp - The JSON document's fields -------------------===//
//
// The field names are a public interface (docs/output-formats.md): this test
// spells every one of them.
//
//===----------------------------------------------------------------------===//
#include "ReportTestUtil.h"
#include "llvm/Support/JSON.h"

using namespace cuda_advisor;
using namespace cuda_advisor::report;
using namespace cuda_advisor::report::test;
using llvm::json::Object;

namespace {

TEST(JsonEmitterTest, EveryDocumentedField) {
  TempDir Dir;
  std::string File = Dir.write("a.cu", SeedSource);
  ReportContext Ctx;
  Ctx.ToolVersion = "0.1.0";
  Ctx.Sources.push_back(File);
  Ctx.Summary = seedSummary();
  Ctx.Errors.push_back({Dir.file("b.cu"), "compiler errors"});
  std::string Text =
      render(emitJson, {copyFinding(File), gridFinding(File), runtimeFinding()}, Ctx);
  auto Parsed = llvm::json::parse(Text);
  ASSERT_TRUE(static_cast<bool>(Parsed)) << llvm::toString(Parsed.takeError());
  const Object &Doc = *Parsed->getAsObject();
  EXPECT_EQ(Doc.getInteger("version"), 1);
  EXPECT_EQ(Doc.getObject("tool")->getString("name"), "cuda-advisor");
  EXPECT_EQ(Doc.getObject("tool")->getString("version"), "0.1.0");
  EXPECT_EQ((*Doc.getArray("sources"))[0].getAsString(), File);

  const Object &Summary = *Doc.getObject("summary");
  for (const char *Key :
       {"profiles", "wallNs", "gpuBusyNs", "kernelNs", "copyNs", "memsetNs", "kernels", "copies",
        "apiCalls", "rankedFindings", "estimatedSavingNs", "warnings", "text"})
    EXPECT_TRUE(Summary.get(Key)) << Key;
  EXPECT_EQ(Summary.getString("text"),
            "GPU busy 412 ms of 1.2 s; 2 findings could save about 290 ms");

  const auto &Findings = *Doc.getArray("findings");
  ASSERT_EQ(Findings.size(), 3u);
  const Object &Copy = *Findings[0].getAsObject();
  for (const char *Key : {"check", "severity", "message", "location", "range", "notes", "fixes",
                          "join", "evidence", "cost"})
    EXPECT_TRUE(Copy.get(Key)) << Key;
  EXPECT_EQ(Copy.getString("check"), "transfer-in-loop");
  EXPECT_EQ(Copy.getString("severity"), "warning");
  EXPECT_EQ(Copy.getObject("location")->getInteger("line"), 5);
  EXPECT_EQ(Copy.getObject("location")->getInteger("column"), 5);
  EXPECT_EQ(Copy.getObject("location")->getString("file"), File);
  EXPECT_EQ(Copy.getObject("range")->getObject("end")->getInteger("column"), 51);
  const Object &Note = *(*Copy.getArray("notes"))[0].getAsObject();
  EXPECT_EQ(Note.getString("message"), "inside this loop");
  EXPECT_EQ(Note.getObject("location")->getInteger("line"), 4);
  const Object &Join = *Copy.getObject("join");
  EXPECT_EQ((*Join.getArray("callSites"))[0].getAsObject()->getInteger("line"), 5);
  EXPECT_TRUE(Join.getArray("kernels"));
  EXPECT_EQ(Join.getString("api"), "cudaMemcpy");
  EXPECT_EQ(Copy.getObject("evidence")->getInteger("bytesPerIteration"), 4096);
  const Object &Cost = *Copy.getObject("cost");
  EXPECT_EQ(Cost.getBoolean("matched"), true);
  EXPECT_EQ(Cost.getInteger("calls"), 100);
  EXPECT_EQ(Cost.getInteger("measuredNs"), 35200000);
  EXPECT_EQ(Cost.getNumber("gpuShare"), 0.28);
  EXPECT_EQ(Cost.getNumber("wallShare"), 0.03);
  EXPECT_EQ(Cost.getInteger("estimatedSavingNs"), 34800000);
  EXPECT_TRUE(Cost.getString("method"));

  const Object &Grid = *Findings[1].getAsObject();
  const Object &Fix = *(*Grid.getArray("fixes"))[0].getAsObject();
  EXPECT_EQ(Fix.getString("file"), File);
  EXPECT_EQ(Fix.getInteger("offset"), llvm::StringRef(SeedSource).find("n / 256"));
  EXPECT_EQ(Fix.getInteger("length"), 7);
  EXPECT_EQ(Fix.getInteger("line"), 6);
  EXPECT_EQ(Fix.getInteger("column"), 8);
  EXPECT_EQ(Fix.getInteger("endLine"), 6);
  EXPECT_EQ(Fix.getInteger("endColumn"), 15);
  EXPECT_EQ(Fix.getString("replacement"), "(n + 255) / 256");
  // Not seen in the profile: matched only.
  EXPECT_EQ(Grid.getObject("cost")->size(), 1u);
  EXPECT_EQ(Grid.getObject("cost")->getBoolean("matched"), false);

  // A runtime finding: location null, no range.
  const Object &Runtime = *Findings[2].getAsObject();
  EXPECT_EQ(Runtime.get("location")->kind(), llvm::json::Value::Null);
  EXPECT_FALSE(Runtime.get("range"));

  const Object &Error = *(*Doc.getArray("errors"))[0].getAsObject();
  EXPECT_EQ(Error.getString("file"), Dir.file("b.cu"));
  EXPECT_EQ(Error.getString("message"), "compiler errors");
}

TEST(JsonEmitterTest, WithoutProfileSummaryIsNull) {
  std::string Text = render(emitJson, {}, ReportContext());
  auto Parsed = llvm::json::parse(Text);
  ASSERT_TRUE(static_cast<bool>(Parsed));
  EXPECT_EQ(Parsed->getAsObject()->get("summary")->kind(), llvm::json::Value::Null);
  EXPECT_TRUE(Parsed->getAsObject()->getArray("findings")->empty());
}

} // namespace
