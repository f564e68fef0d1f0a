//===- JsonReaderTest.cpp - JSON reports read back ------------------------===//
#include "ReportTestUtil.h"
#include "cuda-advisor/Report/JsonModel.h"

using namespace cuda_advisor;
using namespace cuda_advisor::report;
using namespace cuda_advisor::report::test;

namespace {

/// Every field the emitters read, compared.
void expectSame(const Finding &A, const Finding &B) {
  auto SameLoc = [](const SourceLocation &X, const SourceLocation &Y) {
    EXPECT_EQ(X.File, Y.File);
    EXPECT_EQ(X.Line, Y.Line);
    EXPECT_EQ(X.Column, Y.Column);
    EXPECT_EQ(X.Offset, Y.Offset);
  };
  EXPECT_EQ(A.CheckId, B.CheckId);
  EXPECT_EQ(A.Level, B.Level);
  EXPECT_EQ(A.Message, B.Message);
  SameLoc(A.Loc, B.Loc);
  SameLoc(A.Range.Begin, B.Range.Begin);
  SameLoc(A.Range.End, B.Range.End);
  ASSERT_EQ(A.Notes.size(), B.Notes.size());
  for (size_t I = 0; I < A.Notes.size(); ++I) {
    EXPECT_EQ(A.Notes[I].Message, B.Notes[I].Message);
    SameLoc(A.Notes[I].Loc, B.Notes[I].Loc);
  }
  ASSERT_EQ(A.Fixes.size(), B.Fixes.size());
  for (size_t I = 0; I < A.Fixes.size(); ++I) {
    EXPECT_EQ(A.Fixes[I].Replacement, B.Fixes[I].Replacement);
    SameLoc(A.Fixes[I].Range.Begin, B.Fixes[I].Range.Begin);
    SameLoc(A.Fixes[I].Range.End, B.Fixes[I].Range.End);
  }
  ASSERT_EQ(A.Keys.CallSites.size(), B.Keys.CallSites.size());
  for (size_t I = 0; I < A.Keys.CallSites.size(); ++I)
    SameLoc(A.Keys.CallSites[I], B.Keys.CallSites[I]);
  EXPECT_EQ(A.Keys.Kernels, B.Keys.Kernels);
  EXPECT_EQ(A.Keys.Api, B.Keys.Api);
  EXPECT_EQ(llvm::json::Value(llvm::json::Object(A.Evidence)),
            llvm::json::Value(llvm::json::Object(B.Evidence)));
  EXPECT_EQ(A.Prio, B.Prio);
  EXPECT_EQ(A.PriorityReason, B.PriorityReason);
  ASSERT_EQ(A.Ranking.has_value(), B.Ranking.has_value());
  if (A.Ranking) {
    EXPECT_EQ(A.Ranking->Matched, B.Ranking->Matched);
    EXPECT_EQ(A.Ranking->MeasuredNs, B.Ranking->MeasuredNs);
    EXPECT_EQ(A.Ranking->SavingNs, B.Ranking->SavingNs);
    EXPECT_EQ(A.Ranking->Method, B.Ranking->Method);
  }
}

TEST(JsonReaderTest, ExactFormRoundTrips) {
  Finding Copy = copyFinding("/src/app.cu");
  Copy.Prio = Priority::Cold;
  Copy.PriorityReason = "in the set-up";
  Copy.Evidence["ratio"] = 0.125;
  Copy.Evidence["nested"] = llvm::json::Object{{"a", llvm::json::Array{1, "two"}}};
  for (const Finding &F : {Copy, gridFinding("/src/app.cu"), runtimeFinding()}) {
    auto Back = findingFromJson(toJson(F, JsonDetail::Exact), "entry");
    ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
    expectSame(F, *Back);
  }
}

TEST(JsonReaderTest, ReportFormKeepsFixOffsets) {
  // The report's form has no offsets for locations, but a fix-it's start
  // and length are there: what --export-fixes needs survives a merge.
  Finding Grid = gridFinding("/src/app.cu");
  auto Back = findingFromJson(toJson(Grid), "report");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  ASSERT_EQ(Back->Fixes.size(), 1u);
  EXPECT_EQ(Back->Fixes[0].Range.Begin.Offset, Grid.Fixes[0].Range.Begin.Offset);
  EXPECT_EQ(Back->Fixes[0].Range.End.Offset, Grid.Fixes[0].Range.End.Offset);
  EXPECT_EQ(Back->Fixes[0].Range.End.Line, Grid.Fixes[0].Range.End.Line);
  EXPECT_EQ(Back->Loc.Line, 6u);
  EXPECT_EQ(Back->Loc.Offset, 0u);
}

TEST(JsonReaderTest, ReportDocument) {
  ReportContext Ctx;
  Ctx.ToolVersion = "9.9";
  Ctx.Sources = {"/src/a.cu", "/src/b.cu"};
  Ctx.Errors.push_back({"/src/c.cu", "compiler errors"});
  Ctx.Shard.emplace(2, 3);
  std::string Text = render(emitJson, {gridFinding("/src/a.cu"), runtimeFinding()}, Ctx);
  auto Report = parseJsonReport(Text, "r.json");
  ASSERT_TRUE(bool(Report)) << llvm::toString(Report.takeError());
  EXPECT_EQ(Report->ToolVersion, "9.9");
  EXPECT_EQ(Report->Sources, Ctx.Sources);
  ASSERT_EQ(Report->Findings.size(), 2u);
  EXPECT_EQ(Report->Findings[0].CheckId, "launch-grid-truncation");
  ASSERT_EQ(Report->Errors.size(), 1u);
  EXPECT_EQ(Report->Errors[0].second, "compiler errors");
  EXPECT_EQ(Report->Shard, std::make_pair(2u, 3u));
}

std::string errorOf(llvm::StringRef Text) {
  auto Report = parseJsonReport(Text, "r.json");
  if (Report)
    return "";
  return llvm::toString(Report.takeError());
}

TEST(JsonReaderTest, RefusesWhatIsNotAReport) {
  EXPECT_EQ(errorOf("[1, 2]"), "r.json: not a JSON report of cuda-advisor: the document is not "
                               "a JSON object");
  EXPECT_EQ(errorOf(R"({"runs": []})"), "r.json: not a JSON report of cuda-advisor: it is SARIF "
                                        "(merge reads the reports of --format=json)");
  EXPECT_EQ(errorOf(R"({"tool": {"name": "cuda-advisor"}, "version": 2})"),
            "r.json: not a JSON report of cuda-advisor: format version 2, this tool reads "
            "version 1");
  EXPECT_NE(errorOf(R"({"tool": {"name": "cuda-advisor"}, "version": 1, "sources": [)"), "");
  const char *Head = R"({"tool": {"name": "cuda-advisor"}, "version": 1, "sources": [], )";
  EXPECT_EQ(errorOf(std::string(Head) + R"("findings": [{"check": 3}]})"),
            "r.json: not a JSON report of cuda-advisor: expected string at findings[0].check");
  EXPECT_EQ(errorOf(std::string(Head) + R"("findings": [], "shard": {"index": 4, "count": 3}})"),
            "r.json: not a JSON report of cuda-advisor: expected {\"index\": I, \"count\": N} "
            "with 1 <= I <= N at shard");
  EXPECT_EQ(errorOf(std::string(Head) + R"("findings": [], "errors": {}})"),
            "r.json: not a JSON report of cuda-advisor: expected array at errors");
}

} // namespace
