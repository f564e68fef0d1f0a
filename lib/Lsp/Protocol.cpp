//===- Protocol.cpp - LSP shapes built from findings -----------------------===//
#include "Protocol.h"
#include "cuda-advisor/Report/Report.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>

using namespace llvm;

namespace cuda_advisor::lsp {

Expected<std::string> uriToPath(StringRef Uri) {
  if (!Uri.consume_front("file://"))
    return createStringError(inconvertibleErrorCode(),
                             "'%s' is not a file:// URI", Uri.str().c_str());
  // file://host/path: only the local host is ours.
  size_t Slash = Uri.find('/');
  if (Slash == StringRef::npos || (Slash != 0 && Uri.take_front(Slash) != "localhost"))
    return createStringError(inconvertibleErrorCode(),
                             "'file://%s' does not name a local file", Uri.str().c_str());
  Uri = Uri.drop_front(Slash);
  std::string Path;
  for (size_t I = 0; I < Uri.size(); ++I) {
    if (Uri[I] == '%' && I + 2 < Uri.size() && isHexDigit(Uri[I + 1]) &&
        isHexDigit(Uri[I + 2])) {
      Path.push_back(static_cast<char>(hexFromNibbles(Uri[I + 1], Uri[I + 2])));
      I += 2;
      continue;
    }
    Path.push_back(Uri[I]);
  }
  return Path;
}

std::string pathToUri(StringRef Path) {
  std::string Uri = "file://";
  for (unsigned char C : Path) {
    if (isAlnum(C) || StringRef("/-_.~").contains(C)) {
      Uri.push_back(static_cast<char>(C));
      continue;
    }
    Uri += "%";
    Uri += hexdigit(C >> 4, /*LowerCase=*/false);
    Uri += hexdigit(C & 15, /*LowerCase=*/false);
  }
  return Uri;
}

json::Value toJson(const Position &P) {
  return json::Object{{"line", P.Line}, {"character", P.Character}};
}
json::Value toJson(const Range &R) {
  return json::Object{{"start", toJson(R.Start)}, {"end", toJson(R.End)}};
}
std::optional<Position> positionFromJson(const json::Value *V) {
  const json::Object *O = V ? V->getAsObject() : nullptr;
  if (!O)
    return std::nullopt;
  std::optional<int64_t> L = O->getInteger("line"), C = O->getInteger("character");
  if (!L || !C || *L < 0 || *C < 0)
    return std::nullopt;
  return Position{static_cast<int>(*L), static_cast<int>(*C)};
}

LineMap::LineMap(std::string T) : Text(std::move(T)) {
  Starts.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Starts.push_back(I + 1);
}

StringRef LineMap::line(unsigned Line) const {
  if (Line == 0 || Line > Starts.size())
    return "";
  size_t Begin = Starts[Line - 1];
  size_t End = Line < Starts.size() ? Starts[Line] - 1 : Text.size();
  return StringRef(Text).slice(Begin, End).rtrim('\r');
}

/// UTF-16 code units in the first Bytes bytes of S (invalid UTF-8 counts a
/// unit per byte).
static int utf16Length(StringRef S, size_t Bytes) {
  S = S.take_front(Bytes);
  int Units = 0;
  for (size_t I = 0; I < S.size();) {
    unsigned Len = getNumBytesForUTF8(static_cast<unsigned char>(S[I]));
    if (Len == 0 || I + Len > S.size())
      Len = 1;
    Units += Len == 4 ? 2 : 1;
    I += Len;
  }
  return Units;
}

Position LineMap::position(unsigned Line, unsigned ByteColumn) const {
  if (Line == 0)
    return {0, 0};
  StringRef L = line(Line);
  size_t Bytes = ByteColumn ? ByteColumn - 1 : 0;
  int Extra = Bytes > L.size() ? static_cast<int>(Bytes - L.size()) : 0; // Past the end.
  return {static_cast<int>(Line - 1), utf16Length(L, Bytes) + Extra};
}

Range LineMap::rangeOf(const SourceRange &R) const {
  return {position(R.Begin.Line, R.Begin.Column), position(R.End.Line, R.End.Column)};
}

Range LineMap::rangeOf(const Finding &F) const {
  if (F.Range.isValid() && F.Range.Begin.File == F.Loc.File && F.Range.End.Line &&
      !(F.Range.End < F.Range.Begin) && !(F.Range.End == F.Range.Begin))
    return rangeOf(F.Range);
  Position Start = position(F.Loc.Line, F.Loc.Column);
  StringRef L = line(F.Loc.Line);
  size_t Begin = F.Loc.Column ? F.Loc.Column - 1 : 0, End = Begin;
  while (End < L.size() && (isAlnum(L[End]) || L[End] == '_'))
    ++End;
  if (End == Begin && End < L.size())
    ++End;
  return {Start, position(F.Loc.Line, static_cast<unsigned>(End + 1))};
}

static int lspSeverity(Severity S) {
  switch (S) {
  case Severity::Error:
    return 1;
  case Severity::Warning:
    return 2;
  case Severity::Note:
    return 3;
  }
  return 2;
}

std::string costText(const Finding &F) {
  if (!F.Ranking)
    return "";
  return report::formatCost(*F.Ranking);
}

json::Object toDiagnostic(const Finding &F, const LineMap &Map, const DiagnosticStyle &Style) {
  std::string Message = F.Message;
  if (std::string Cost = costText(F); !Cost.empty())
    Message += " (" + Cost + ")";
  json::Object D{{"range", toJson(Map.rangeOf(F))},
                 {"severity", lspSeverity(F.Level)},
                 {"code", F.CheckId},
                 {"source", "cuda-advisor"},
                 {"message", Message}};
  if (!Style.DocsBaseUri.empty())
    D["codeDescription"] = json::Object{{"href", Style.DocsBaseUri + F.CheckId + ".md"}};
  json::Array Related;
  std::map<std::string, std::unique_ptr<LineMap>> Others; // Files of notes elsewhere.
  for (const FindingNote &N : F.Notes) {
    if (!N.Loc.isValid())
      continue;
    const LineMap *NoteMap = &Map;
    if (N.Loc.File != F.Loc.File) {
      std::unique_ptr<LineMap> &M = Others[N.Loc.File];
      if (!M) {
        auto Buf = MemoryBuffer::getFile(N.Loc.File);
        M = std::make_unique<LineMap>(Buf ? (*Buf)->getBuffer().str() : std::string());
      }
      NoteMap = M.get();
    }
    Finding At; // The note's location, highlighted as a finding's would be.
    At.Loc = N.Loc;
    Related.push_back(json::Object{
        {"location", json::Object{{"uri", pathToUri(N.Loc.File)},
                                  {"range", toJson(NoteMap->rangeOf(At))}}},
        {"message", N.Message}});
  }
  if (!Related.empty())
    D["relatedInformation"] = std::move(Related);
  return D;
}

std::string hoverText(const Finding &F) {
  std::string Out = "**" + F.CheckId + "**: " + F.Message;
  if (F.Ranking) {
    Out += "\n\n" + costText(F);
    if (!F.Ranking->Method.empty())
      Out += "\n\nhow: " + F.Ranking->Method;
  }
  for (const FindingNote &N : F.Notes)
    Out += "\n\n- note: " + N.Message;
  if (!F.Fixes.empty())
    Out += "\n\na fix-it is available as a code action";
  return Out;
}

} // namespace cuda_advisor::lsp
