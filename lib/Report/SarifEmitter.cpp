//===- SarifEmitter.cpp - --format=sarif (SARIF 2.1.0) --------------------===//
//
// One run: tool.driver with a rule for every known check and runtime rule
// (help text from docs/checks/<id>.md), one result per finding (location,
// notes as relatedLocations, fix-its as fixes, evidence and cost in
// properties, partialFingerprints), the artifacts, and one invocation whose
// notifications are the input errors. Files under the source root are URIs
// relative to %SRCROOT%; others are absolute file:// URIs. Columns are
// Unicode code points (columnKind). Meets GitHub code scanning's rules: every
// result has a physical location (a runtime finding with no source line is a
// tool notification instead), and help links are public URLs or left out.
// docs/output-formats.md has every field.
//
//===----------------------------------------------------------------------===//
#include "ReportUtil.h"
#include "cuda-advisor/Report/JsonModel.h"
#include "cuda-advisor/Report/Report.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <map>

using namespace llvm;

namespace cuda_advisor::report {
namespace {

using detail::SourceCache;

constexpr const char *SchemaUri =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
constexpr const char *RootBase = "%SRCROOT%";
constexpr const char *FingerprintKey = "cudaAdvisor/v1";

StringRef sarifLevel(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "warning";
}

/// "transfer-in-loop" -> "TransferInLoop".
std::string ruleName(StringRef Id) {
  std::string Out;
  bool Upper = true;
  for (char C : Id) {
    if (!isAlnum(C)) {
      Upper = true;
      continue;
    }
    Out.push_back(Upper ? toUpper(C) : C);
    Upper = false;
  }
  return Out;
}

/// The first paragraph after a doc page's title, on one line.
std::string firstParagraph(StringRef Doc) {
  std::string Out;
  bool InParagraph = false;
  while (!Doc.empty()) {
    auto [Line, Rest] = Doc.split('\n');
    Doc = Rest;
    Line = Line.trim();
    if (Line.empty()) {
      if (InParagraph)
        break;
      continue;
    }
    if (Line.starts_with("#") || Line.starts_with("```")) {
      if (InParagraph)
        break;
      continue;
    }
    if (!Out.empty())
      Out += " ";
    Out += Line.str();
    InParagraph = true;
  }
  return Out;
}

class SarifEmitter {
public:
  explicit SarifEmitter(const ReportContext &Ctx) : Ctx(Ctx), Root(detail::sourceRoot(Ctx)) {}

  json::Value run(ArrayRef<Finding> Findings) {
    for (const std::string &S : Ctx.Sources)
      addArtifact(S, "analysisTarget");
    if (Ctx.Summary)
      for (const std::string &P : Ctx.Summary->Profiles)
        addArtifact(P, "analysisTarget");
    json::Array Rules = rules(Findings);
    json::Array Results;
    std::vector<const Finding *> Unlocated;
    for (const Finding &F : Findings) {
      // A static finding's file was analyzed here: it is a result even
      // outside the source root (an absolute URI). A runtime finding whose
      // call site is not in the repository is a notification.
      SourceLocation L = detail::primaryLocation(F);
      bool Runtime = StringRef(F.CheckId).starts_with("runtime-");
      if (L.isValid() && (!Runtime || inRepository(L)))
        Results.push_back(result(F));
      else
        Unlocated.push_back(&F);
    }

    json::Object Run{{"tool", json::Object{{"driver", driver(std::move(Rules))}}},
                     {"invocations", json::Array{invocation(Unlocated)}},
                     {"results", std::move(Results)},
                     {"columnKind", "unicodeCodePoints"}};
    if (!Root.empty())
      Run["originalUriBaseIds"] =
          json::Object{{RootBase, json::Object{{"uri", detail::fileUri(Root, true)}}}};
    json::Array Artifacts;
    for (const Artifact &A : ArtifactList) {
      json::Array Roles;
      for (const std::string &R : A.Roles)
        Roles.push_back(R);
      Artifacts.push_back(json::Object{{"location", uriOf(A.Path)}, {"roles", std::move(Roles)}});
    }
    Run["artifacts"] = std::move(Artifacts);
    if (Ctx.Summary)
      Run["properties"] = json::Object{{"summary", toJson(*Ctx.Summary)}};
    return json::Object{
        {"$schema", SchemaUri}, {"version", "2.1.0"}, {"runs", json::Array{std::move(Run)}}};
  }

private:
  struct Artifact {
    std::string Path;
    std::vector<std::string> Roles;
  };

  static std::string absolute(StringRef Path) {
    SmallString<256> P(Path);
    sys::fs::make_absolute(P);
    sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return P.str().str();
  }

  unsigned addArtifact(StringRef Path, StringRef Role) {
    std::string Abs = absolute(Path);
    auto [It, New] = ArtifactIndex.try_emplace(Abs, ArtifactList.size());
    if (New)
      ArtifactList.push_back({Abs, {}});
    std::vector<std::string> &Roles = ArtifactList[It->second].Roles;
    if (!is_contained(Roles, Role))
      Roles.push_back(Role.str());
    return It->second;
  }

  /// {"uri", "uriBaseId"} of a file, without an index.
  json::Object uriOf(StringRef AbsPath) {
    std::string Rel = detail::displayPath(AbsPath, Root);
    if (Rel != AbsPath)
      return json::Object{{"uri", detail::percentEncodePath(Rel)}, {"uriBaseId", RootBase}};
    return json::Object{{"uri", detail::fileUri(AbsPath)}};
  }

  json::Object artifactLocation(StringRef Path, StringRef Role) {
    unsigned Index = addArtifact(Path, Role);
    json::Object L = uriOf(ArtifactList[Index].Path);
    L["index"] = Index;
    return L;
  }

  /// SARIF columns count code points; ours count bytes.
  unsigned codePointColumn(const SourceLocation &L) {
    if (L.Column == 0)
      return 1;
    std::optional<StringRef> Line = Sources.line(L.File, L.Line);
    if (!Line)
      return L.Column;
    unsigned Bytes = L.Column - 1, Points = 0;
    for (unsigned I = 0; I < Bytes && I < Line->size(); ++I)
      if ((static_cast<unsigned char>((*Line)[I]) & 0xC0) != 0x80)
        ++Points;
    if (Bytes > Line->size())
      Points += Bytes - Line->size();
    return Points + 1;
  }

  json::Object region(const SourceLocation &Begin, const SourceLocation *End) {
    json::Object R{{"startLine", Begin.Line}, {"startColumn", codePointColumn(Begin)}};
    if (End && End->isValid() && End->File == Begin.File &&
        std::make_pair(End->Line, End->Column) >= std::make_pair(Begin.Line, Begin.Column)) {
      R["endLine"] = End->Line;
      R["endColumn"] = codePointColumn(*End);
    }
    return R;
  }

  json::Object physicalLocation(const SourceLocation &L, const SourceRange *Range, StringRef Role) {
    SourceLocation Begin = L;
    const SourceLocation *End = nullptr;
    // The highlighted range, when it holds the location (clang's ranges do).
    if (Range && Range->isValid() && Range->Begin.File == L.File && Range->End.File == L.File &&
        Range->Begin.Line <= L.Line && L.Line <= Range->End.Line) {
      if (Range->Begin < L)
        Begin = Range->Begin;
      End = &Range->End;
    }
    return json::Object{{"artifactLocation", artifactLocation(L.File, Role)},
                        {"region", region(Begin, End)}};
  }

  json::Value logicalLocations(const Finding &F) {
    json::Array Logical;
    for (const std::string &K : F.Keys.Kernels)
      Logical.push_back(json::Object{{"name", K}, {"decoratedName", K}, {"kind", "function"}});
    if (Logical.empty() && !F.Keys.Api.empty())
      Logical.push_back(json::Object{{"name", F.Keys.Api}, {"kind", "function"}});
    return Logical;
  }

  /// The finding's fix-its as one SARIF fix, or null when none is usable.
  json::Value fix(const Finding &F) {
    std::map<std::string, json::Array> ByFile;
    std::optional<detail::TextEdit> Only;
    for (const FixIt &Fix : F.Fixes) {
      SourceLocation End = Fix.Range.End.isValid() ? Fix.Range.End : Fix.Range.Begin;
      // A deleted region needs its end: without one it runs to the line's end.
      if (!Fix.Range.Begin.isValid() || End.File != Fix.Range.Begin.File ||
          std::make_pair(End.Line, End.Column) <
              std::make_pair(Fix.Range.Begin.Line, Fix.Range.Begin.Column))
        continue;
      json::Object Deleted = region(Fix.Range.Begin, &End);
      // Byte offsets only when they agree with the file as it is now.
      if (std::optional<detail::TextEdit> E = detail::resolveFix(Fix, Sources, /*Strict=*/true)) {
        Deleted["byteOffset"] = E->Offset;
        Deleted["byteLength"] = E->Length;
        Only = E;
      }
      json::Object Replacement{{"deletedRegion", std::move(Deleted)}};
      if (!Fix.Replacement.empty())
        Replacement["insertedContent"] = json::Object{{"text", Fix.Replacement}};
      ByFile[Fix.Range.Begin.File].push_back(std::move(Replacement));
    }
    if (ByFile.empty())
      return nullptr;
    json::Array Changes;
    for (auto &[File, Replacements] : ByFile)
      Changes.push_back(json::Object{{"artifactLocation", artifactLocation(File, "resultFile")},
                                     {"replacements", std::move(Replacements)}});
    return json::Object{{"description", json::Object{{"text", fixDescription(F, Only)}}},
                        {"artifactChanges", std::move(Changes)}};
  }

  std::string fixDescription(const Finding &F, const std::optional<detail::TextEdit> &Edit) {
    if (F.Fixes.size() != 1 || !Edit)
      return "apply " + detail::countOf(F.Fixes.size(), "edit");
    StringRef Old = Sources.content(Edit->File)->substr(Edit->Offset, Edit->Length);
    if (Old.empty())
      return "insert '" + Edit->Text + "'";
    if (Edit->Text.empty())
      return "remove '" + Old.str() + "'";
    return "replace '" + Old.str() + "' with '" + Edit->Text + "'";
  }

  /// Stable across runs and line shifts: the rule, the file relative to the
  /// root, the text of the line without blanks, and which occurrence of
  /// that triple this is. Location-less findings use their join keys and
  /// their message without digits (the numbers of a profile vary).
  std::string fingerprint(const Finding &F, const SourceLocation &Loc) {
    std::string Key = F.CheckId + '\0';
    if (Loc.isValid()) {
      Key += detail::displayPath(Loc.File, Root) + '\0';
      if (std::optional<StringRef> Line = Sources.line(Loc.File, Loc.Line)) {
        for (char C : *Line)
          if (!isSpace(C))
            Key.push_back(C);
      } else {
        Key += std::to_string(Loc.Line);
      }
    } else {
      Key += join(F.Keys.Kernels, ",") + '\0' + F.Keys.Api + '\0';
      for (char C : F.Message)
        if (!isDigit(C))
          Key.push_back(C);
    }
    unsigned Occurrence = ++Occurrences[Key];
    Key += '\0' + std::to_string(Occurrence);
    return utohexstr(xxh3_64bits(arrayRefFromStringRef(Key)), /*LowerCase=*/true, 16);
  }

  /// A finding with a source location or a call site.
  json::Value result(const Finding &F) {
    auto RuleIt = RuleIndex.find(F.CheckId);
    json::Object R{{"ruleId", F.CheckId},
                   {"ruleIndex", RuleIt->second},
                   {"level", sarifLevel(F.Level)},
                   {"message", json::Object{{"text", F.Message}}}};
    SourceLocation Loc = detail::primaryLocation(F);
    const SourceRange *Range = F.Loc.isValid() ? &F.Range : nullptr;
    R["locations"] = json::Array{
        json::Object{{"physicalLocation", physicalLocation(Loc, Range, "resultFile")}}};

    json::Array Related;
    json::Array UnlocatedNotes;
    for (const FindingNote &N : F.Notes) {
      if (!N.Loc.isValid()) {
        UnlocatedNotes.push_back(N.Message);
        continue;
      }
      Related.push_back(
          json::Object{{"id", static_cast<int64_t>(Related.size() + 1)},
                       {"physicalLocation", physicalLocation(N.Loc, nullptr, "resultFile")},
                       {"message", json::Object{{"text", N.Message}}}});
    }
    if (!Related.empty())
      R["relatedLocations"] = std::move(Related);
    if (json::Value Fix = fix(F); Fix.kind() != json::Value::Null)
      R["fixes"] = json::Array{std::move(Fix)};
    R["partialFingerprints"] = json::Object{{FingerprintKey, fingerprint(F, Loc)}};

    json::Object Props = properties(F);
    if (!UnlocatedNotes.empty())
      Props["notes"] = std::move(UnlocatedNotes);
    if (F.Ranking) {
      // SARIF's rank (0-100): the estimated saving as a share of GPU time.
      if (F.Ranking->Matched && Ctx.Summary && Ctx.Summary->GpuBusyNs)
        R["rank"] = std::min(100.0, 100.0 * F.Ranking->SavingNs / Ctx.Summary->GpuBusyNs);
    }
    R["properties"] = std::move(Props);
    return R;
  }

  json::Object properties(const Finding &F) {
    json::Object Props{{"evidence", json::Object(F.Evidence)},
                       {"priority", priorityName(F.Prio)}};
    if (!F.PriorityReason.empty())
      Props["priorityReason"] = F.PriorityReason;
    if (!F.Keys.Kernels.empty())
      Props["kernels"] = F.Keys.Kernels;
    if (!F.Keys.Api.empty())
      Props["api"] = F.Keys.Api;
    if (F.Ranking)
      Props["cost"] = toJson(*F.Ranking);
    return Props;
  }

  /// Code scanning places a result only in the repository: a location
  /// outside the source root (a call site recorded on another machine that
  /// matched no analyzed source) cannot be shown there.
  bool inRepository(const SourceLocation &L) {
    return L.isValid() && (Root.empty() || detail::displayPath(L.File, Root) != L.File);
  }

  /// A runtime finding with no source line (or one outside the source root):
  /// GitHub rejects a result without a physical location, so it is a
  /// notification of the run, tied to its rule, with the kernel or API as a
  /// logical location and the call site, if any, as a physical one.
  json::Value notification(const Finding &F) {
    json::Object N{{"level", sarifLevel(F.Level)},
                   {"message", json::Object{{"text", "[" + F.CheckId + "] " + F.Message}}},
                   {"associatedRule",
                    json::Object{{"id", F.CheckId}, {"index", RuleIndex.find(F.CheckId)->second}}},
                   {"properties", properties(F)}};
    json::Object Where;
    if (SourceLocation L = detail::primaryLocation(F); L.isValid())
      Where["physicalLocation"] = physicalLocation(L, nullptr, "resultFile");
    if (json::Value Logical = logicalLocations(F); !Logical.getAsArray()->empty())
      Where["logicalLocations"] = std::move(Logical);
    if (!Where.empty())
      N["locations"] = json::Array{std::move(Where)};
    return N;
  }

  json::Object rule(const CheckInfo &C) {
    std::string Doc = readCheckDoc(Ctx.DocsDir, C.Id);
    std::string Full = Doc.empty() ? "" : firstParagraph(Doc);
    json::Object Help{{"text", Doc.empty() ? C.Summary : Doc}};
    if (!Doc.empty())
      Help["markdown"] = Doc;
    json::Array Tags{"cuda", "performance"};
    if (C.Runtime)
      Tags.push_back("runtime");
    json::Object R{
        {"id", C.Id},
        {"name", ruleName(C.Id)},
        {"shortDescription", json::Object{{"text", C.Summary.empty() ? C.Id : C.Summary}}},
        {"fullDescription", json::Object{{"text", Full.empty() ? C.Summary : Full}}},
        {"help", std::move(Help)},
        {"defaultConfiguration", json::Object{{"level", sarifLevel(C.DefaultSeverity)}}},
        {"properties", json::Object{{"tags", std::move(Tags)}}}};
    if (std::string Uri = helpUri(C.Id); !Uri.empty())
      R["helpUri"] = Uri;
    return R;
  }

  /// The public page (--docs-url); never the local install, which means
  /// nothing to the people who read the log elsewhere (code scanning).
  std::string helpUri(StringRef Id) {
    if (!Ctx.DocsBaseUri.empty())
      return Ctx.DocsBaseUri + Id.str() + ".md";
    return "";
  }

  json::Array rules(ArrayRef<Finding> Findings) {
    json::Array Rules;
    for (const CheckInfo &C : Ctx.Checks) {
      if (!RuleIndex.try_emplace(C.Id, Rules.size()).second)
        continue;
      Rules.push_back(rule(C));
    }
    // A finding of a check the context does not list still gets a rule.
    for (const Finding &F : Findings) {
      if (!RuleIndex.try_emplace(F.CheckId, Rules.size()).second)
        continue;
      CheckInfo C;
      C.Id = F.CheckId;
      C.Summary = F.CheckId;
      C.DefaultSeverity = F.Level;
      C.Runtime = StringRef(F.CheckId).starts_with("runtime-");
      Rules.push_back(rule(C));
    }
    return Rules;
  }

  json::Object driver(json::Array Rules) {
    json::Object D{{"name", "cuda-advisor"}, {"rules", std::move(Rules)}};
    if (!Ctx.ToolVersion.empty()) {
      D["version"] = Ctx.ToolVersion;
      D["semanticVersion"] = Ctx.ToolVersion;
    }
    if (!Ctx.InformationUri.empty())
      D["informationUri"] = Ctx.InformationUri;
    return D;
  }

  json::Object invocation(ArrayRef<const Finding *> Unlocated) {
    json::Array Notifications;
    for (const Finding *F : Unlocated)
      Notifications.push_back(notification(*F));
    for (const InputError &E : Ctx.Errors) {
      json::Object N{
          {"level", "error"},
          {"message",
           json::Object{{"text", E.File.empty() ? E.Message : E.File + ": " + E.Message}}}};
      if (!E.File.empty())
        N["locations"] = json::Array{json::Object{
            {"physicalLocation",
             json::Object{{"artifactLocation", artifactLocation(E.File, "analysisTarget")}}}}};
      Notifications.push_back(std::move(N));
    }
    if (Ctx.Summary)
      for (const std::string &W : Ctx.Summary->Warnings)
        Notifications.push_back(
            json::Object{{"level", "warning"}, {"message", json::Object{{"text", W}}}});
    json::Object I{{"executionSuccessful", Ctx.Errors.empty()}};
    if (!Notifications.empty())
      I["toolExecutionNotifications"] = std::move(Notifications);
    SmallString<256> Cwd;
    if (!sys::fs::current_path(Cwd))
      I["workingDirectory"] = json::Object{{"uri", detail::fileUri(Cwd, true)}};
    return I;
  }

  const ReportContext &Ctx;
  std::string Root;
  SourceCache Sources;
  std::vector<Artifact> ArtifactList;
  StringMap<unsigned> ArtifactIndex;
  StringMap<unsigned> RuleIndex;
  StringMap<unsigned> Occurrences;
};

} // namespace

void emitSarif(raw_ostream &OS, ArrayRef<Finding> Findings, const ReportContext &Ctx) {
  OS << formatv("{0:2}", SarifEmitter(Ctx).run(Findings)) << "\n";
}

} // namespace cuda_advisor::report
