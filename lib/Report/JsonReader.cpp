//===- JsonReader.cpp - JSON reports read back -----------------------------===//
//
// The inverse of JsonEmitter.cpp: `cuda-advisor merge` reads the shards'
// reports with it, and the result cache its entries. Every field is checked;
// the first one that is wrong becomes the error, named by its JSON path.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Report/JsonModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace cuda_advisor {

// fromJSON overloads are found by argument-dependent lookup from
// json::ObjectMapper, so they live in the namespace of the types they read.

static bool readUnsigned(const json::Value &V, unsigned &Out, json::Path P) {
  std::optional<int64_t> N = V.getAsInteger();
  if (!N || *N < 0 || *N > std::numeric_limits<unsigned>::max()) {
    P.report("expected a whole number from 0 to 4294967295");
    return false;
  }
  Out = static_cast<unsigned>(*N);
  return true;
}

/// null is a location in no file.
bool fromJSON(const json::Value &V, SourceLocation &L, json::Path P) {
  L = SourceLocation();
  if (V.getAsNull())
    return true;
  json::ObjectMapper O(V, P);
  if (!O || !O.map("file", L.File))
    return false;
  const json::Object *Obj = V.getAsObject();
  for (auto [Key, Field] : {std::pair<StringRef, unsigned *>{"line", &L.Line},
                            {"column", &L.Column}, {"offset", &L.Offset}}) {
    const json::Value *Item = Obj->get(Key);
    if (!Item) {
      if (Key == "offset")
        continue;
      P.field(Key).report("missing value");
      return false;
    }
    if (!readUnsigned(*Item, *Field, P.field(Key)))
      return false;
  }
  return true;
}

bool fromJSON(const json::Value &V, FindingNote &N, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("message", N.Message) && O.map("location", N.Loc);
}

bool fromJSON(const json::Value &V, SourceRange &R, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("begin", R.Begin) && O.map("end", R.End);
}

bool fromJSON(const json::Value &V, FixIt &F, json::Path P) {
  json::ObjectMapper O(V, P);
  if (!O || !O.map("replacement", F.Replacement))
    return false;
  if (V.getAsObject()->get("exactRange"))
    return O.map("exactRange", F.Range);
  // The report's fields: a start, a length and an end line and column.
  const json::Object *Obj = V.getAsObject();
  unsigned Offset = 0, Length = 0, EndLine = 0, EndColumn = 0;
  SourceLocation &B = F.Range.Begin;
  if (!O.map("file", B.File))
    return false;
  for (auto [Key, Field] : {std::pair<StringRef, unsigned *>{"offset", &Offset},
                            {"length", &Length}, {"line", &B.Line}, {"column", &B.Column},
                            {"endLine", &EndLine}, {"endColumn", &EndColumn}}) {
    const json::Value *Item = Obj->get(Key);
    if (!Item) {
      P.field(Key).report("missing value");
      return false;
    }
    if (!readUnsigned(*Item, *Field, P.field(Key)))
      return false;
  }
  B.Offset = Offset;
  if (EndLine != 0)
    F.Range.End = SourceLocation{B.File, EndLine, EndColumn, Offset + Length};
  return true;
}

bool fromJSON(const json::Value &V, JoinKeys &K, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("callSites", K.CallSites) && O.map("kernels", K.Kernels) &&
         O.map("api", K.Api);
}

bool fromJSON(const json::Value &V, Cost &C, json::Path P) {
  json::ObjectMapper O(V, P);
  if (!O || !O.map("matched", C.Matched))
    return false;
  if (!C.Matched)
    return true;
  int64_t Calls = 0, Measured = 0, Saving = 0;
  if (!O.map("calls", Calls) || !O.map("measuredNs", Measured) || !O.map("gpuShare", C.GpuShare) ||
      !O.map("wallShare", C.WallShare) || !O.map("estimatedSavingNs", Saving) ||
      !O.map("method", C.Method))
    return false;
  if (Calls < 0 || Measured < 0 || Saving < 0) {
    P.report("negative count or time");
    return false;
  }
  C.Calls = static_cast<uint64_t>(Calls);
  C.MeasuredNs = static_cast<uint64_t>(Measured);
  C.SavingNs = static_cast<uint64_t>(Saving);
  return true;
}

bool fromJSON(const json::Value &V, Finding &F, json::Path P) {
  json::ObjectMapper O(V, P);
  std::string Level, Prio = "normal";
  if (!O || !O.map("check", F.CheckId) || !O.map("severity", Level) ||
      !O.map("message", F.Message) || !O.map("location", F.Loc) ||
      !O.mapOptional("range", F.Range) || !O.map("notes", F.Notes) || !O.map("fixes", F.Fixes) ||
      !O.map("join", F.Keys) || !O.mapOptional("priority", Prio) ||
      !O.mapOptional("priorityReason", F.PriorityReason) || !O.mapOptional("cost", F.Ranking))
    return false;
  if (F.CheckId.empty()) {
    P.field("check").report("empty check id");
    return false;
  }
  std::optional<Severity> S = parseSeverity(Level);
  if (!S) {
    P.field("severity").report("expected note, warning or error");
    return false;
  }
  F.Level = *S;
  if (Prio == "hot")
    F.Prio = Priority::Hot;
  else if (Prio == "cold")
    F.Prio = Priority::Cold;
  else if (Prio == "normal")
    F.Prio = Priority::Normal;
  else {
    P.field("priority").report("expected hot, normal or cold");
    return false;
  }
  const json::Value *Evidence = V.getAsObject()->get("evidence");
  if (!Evidence || !Evidence->getAsObject()) {
    P.field("evidence").report("expected object");
    return false;
  }
  F.Evidence = json::Object(*Evidence->getAsObject());
  return true;
}

namespace report {
namespace {

/// "expected string at findings[3].check": the path from the document's
/// root, without LLVM's "(root)".
std::string pathError(const json::Path::Root &Root) {
  std::string Why = toString(Root.getError());
  size_t At = Why.find(" at (root)");
  if (At != std::string::npos)
    Why.erase(At + 4, Why.compare(At + 4, 7, "(root).") == 0 ? 7 : 6);
  return Why;
}

} // namespace

Expected<Finding> findingFromJson(const json::Value &V, StringRef Name) {
  Finding F;
  json::Path::Root Root;
  if (fromJSON(V, F, Root))
    return F;
  return createStringError(inconvertibleErrorCode(), Name + ": " + pathError(Root));
}

Expected<JsonReport> parseJsonReport(StringRef Text, StringRef Name) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             Name + ": not a JSON report of cuda-advisor: " + Why);
  };
  Expected<json::Value> Doc = json::parse(Text);
  if (!Doc) {
    // json::parse says "[3:12, byte=40]: Expected , or ] after array element"
    // (an end-of-file error for a truncated report).
    std::string Why = toString(Doc.takeError());
    return Fail(Why);
  }
  const json::Object *Top = Doc->getAsObject();
  if (!Top)
    return Fail("the document is not a JSON object");
  const json::Object *Tool = Top->getObject("tool");
  std::optional<StringRef> ToolName = Tool ? Tool->getString("name") : std::nullopt;
  if (!ToolName || *ToolName != "cuda-advisor")
    return Fail(Top->get("runs") ? "it is SARIF (merge reads the reports of --format=json)"
                                 : "no \"tool\": {\"name\": \"cuda-advisor\"}");
  std::optional<int64_t> Version = Top->getInteger("version");
  if (Version != 1)
    return Fail("format version " + (Version ? std::to_string(*Version) : "missing") +
                ", this tool reads version 1");

  JsonReport Out;
  Out.ToolVersion = Tool->getString("version").value_or("").str();
  json::Path::Root Root;
  json::Path RootPath(Root);
  json::ObjectMapper O(*Doc, RootPath);
  if (!O.map("sources", Out.Sources) || !O.map("findings", Out.Findings))
    return Fail(pathError(Root));
  if (const json::Value *List = Top->get("errors")) {
    const json::Array *Items = List->getAsArray();
    json::Path ErrorsPath = RootPath.field("errors");
    if (!Items) {
      ErrorsPath.report("expected array");
      return Fail(pathError(Root));
    }
    for (size_t I = 0; I < Items->size(); ++I) {
      json::ObjectMapper E((*Items)[I], ErrorsPath.index(I));
      std::string File, Message;
      if (!E || !E.map("file", File) || !E.map("message", Message))
        return Fail(pathError(Root));
      Out.Errors.emplace_back(std::move(File), std::move(Message));
    }
  }
  if (const json::Value *Shard = Top->get("shard")) {
    json::Path ShardPath = RootPath.field("shard");
    const json::Object *S = Shard->getAsObject();
    std::optional<int64_t> Index = S ? S->getInteger("index") : std::nullopt;
    std::optional<int64_t> Count = S ? S->getInteger("count") : std::nullopt;
    if (!Index || !Count || *Count < 1 || *Index < 1 || *Index > *Count ||
        *Count > std::numeric_limits<unsigned>::max()) {
      ShardPath.report("expected {\"index\": I, \"count\": N} with 1 <= I <= N");
      return Fail(pathError(Root));
    }
    Out.Shard.emplace(static_cast<unsigned>(*Index), static_cast<unsigned>(*Count));
  }
  return Out;
}

} // namespace report
} // namespace cuda_advisor
