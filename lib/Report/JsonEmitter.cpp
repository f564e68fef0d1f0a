//===- JsonEmitter.cpp - --format=json -------------------------------------===//
//
// One JSON document: {"version", "tool", "summary", "findings", "errors"}.
// Every field is documented in docs/output-formats.md.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Report/JsonModel.h"
#include "cuda-advisor/Report/Report.h"

using namespace llvm;

namespace cuda_advisor::report {

static json::Value locationToJson(const SourceLocation &L, JsonDetail Detail) {
  if (!L.isValid())
    return nullptr;
  json::Object O{{"file", L.File}, {"line", L.Line}, {"column", L.Column}};
  if (Detail == JsonDetail::Exact)
    O["offset"] = L.Offset;
  return O;
}

json::Value toJson(const SourceLocation &L) { return locationToJson(L, JsonDetail::Report); }

json::Value toJson(const Cost &C) {
  json::Object O{{"matched", C.Matched}};
  if (C.Matched) {
    O["calls"] = static_cast<int64_t>(C.Calls);
    O["measuredNs"] = static_cast<int64_t>(C.MeasuredNs);
    O["gpuShare"] = C.GpuShare;
    O["wallShare"] = C.WallShare;
    O["estimatedSavingNs"] = static_cast<int64_t>(C.SavingNs);
    O["method"] = C.Method;
  }
  return O;
}

json::Value toJson(const RunSummary &S) {
  return json::Object{{"profiles", S.Profiles},
                      {"wallNs", static_cast<int64_t>(S.WallNs)},
                      {"gpuBusyNs", static_cast<int64_t>(S.GpuBusyNs)},
                      {"kernelNs", static_cast<int64_t>(S.KernelNs)},
                      {"copyNs", static_cast<int64_t>(S.CopyNs)},
                      {"memsetNs", static_cast<int64_t>(S.MemsetNs)},
                      {"kernelBusyNs", static_cast<int64_t>(S.KernelBusyNs)},
                      {"transferBusyNs", static_cast<int64_t>(S.TransferBusyNs)},
                      {"kernels", static_cast<int64_t>(S.Kernels)},
                      {"copies", static_cast<int64_t>(S.Copies)},
                      {"apiCalls", static_cast<int64_t>(S.ApiCalls)},
                      {"rankedFindings", S.RankedFindings},
                      {"estimatedSavingNs", static_cast<int64_t>(S.TotalSavingNs)},
                      {"warnings", S.Warnings},
                      {"text", formatSummary(S)}};
}

static json::Value fixToJson(const FixIt &Fix, JsonDetail Detail) {
  json::Object O{{"file", Fix.Range.Begin.File},
                      {"offset", Fix.Range.Begin.Offset},
                      {"length", Fix.Range.End.Offset >= Fix.Range.Begin.Offset
                                     ? Fix.Range.End.Offset - Fix.Range.Begin.Offset
                                     : 0},
                      {"line", Fix.Range.Begin.Line},
                      {"column", Fix.Range.Begin.Column},
                      {"endLine", Fix.Range.End.Line},
                      {"endColumn", Fix.Range.End.Column},
                      {"replacement", Fix.Replacement}};
  // The fix's range as it is (its end may be in no file, or before its
  // beginning), where "length" and "endLine" say it for people.
  if (Detail == JsonDetail::Exact)
    O["exactRange"] = json::Object{{"begin", locationToJson(Fix.Range.Begin, Detail)},
                                   {"end", locationToJson(Fix.Range.End, Detail)}};
  return O;
}

json::Value toJson(const Finding &F) { return toJson(F, JsonDetail::Report); }

json::Value toJson(const Finding &F, JsonDetail Detail) {
  auto Loc = [&](const SourceLocation &L) { return locationToJson(L, Detail); };
  json::Object O{{"check", F.CheckId},
                 {"severity", severityName(F.Level)},
                 {"message", F.Message},
                 {"location", Loc(F.Loc)}};
  if (F.Range.isValid())
    O["range"] = json::Object{{"begin", Loc(F.Range.Begin)}, {"end", Loc(F.Range.End)}};
  json::Array Notes;
  for (const FindingNote &N : F.Notes)
    Notes.push_back(json::Object{{"message", N.Message}, {"location", Loc(N.Loc)}});
  O["notes"] = std::move(Notes);
  json::Array Fixes;
  for (const FixIt &Fix : F.Fixes)
    Fixes.push_back(fixToJson(Fix, Detail));
  O["fixes"] = std::move(Fixes);
  json::Array Sites;
  for (const SourceLocation &L : F.Keys.CallSites)
    Sites.push_back(Loc(L));
  O["join"] = json::Object{
      {"callSites", std::move(Sites)}, {"kernels", F.Keys.Kernels}, {"api", F.Keys.Api}};
  O["evidence"] = json::Object(F.Evidence);
  O["priority"] = priorityName(F.Prio);
  if (!F.PriorityReason.empty())
    O["priorityReason"] = F.PriorityReason;
  if (F.Ranking)
    O["cost"] = toJson(*F.Ranking);
  return O;
}

void emitJson(raw_ostream &OS, ArrayRef<Finding> Findings, const ReportContext &Ctx) {
  json::Array All;
  for (const Finding &F : Findings)
    All.push_back(toJson(F));
  json::Array Errors;
  for (const InputError &E : Ctx.Errors)
    Errors.push_back(json::Object{{"file", E.File}, {"message", E.Message}});
  json::Object Doc{{"version", 1},
                   {"tool", json::Object{{"name", "cuda-advisor"}, {"version", Ctx.ToolVersion}}},
                   {"sources", Ctx.Sources},
                   {"summary", Ctx.Summary ? toJson(*Ctx.Summary) : json::Value(nullptr)},
                   {"findings", std::move(All)},
                   {"errors", std::move(Errors)}};
  if (Ctx.Shard)
    Doc["shard"] = json::Object{{"index", Ctx.Shard->first}, {"count", Ctx.Shard->second}};
  OS << formatv("{0:2}", json::Value(std::move(Doc))) << "\n";
}

} // namespace cuda_advisor::report
