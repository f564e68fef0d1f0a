//===- ReportUtil.cpp - Helpers shared by the emitters --------------------===//
#include "ReportUtil.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace cuda_advisor::report::detail {

//===----------------------------------------------------------------------===//
// SourceCache
//===----------------------------------------------------------------------===//

SourceCache::Entry *SourceCache::entry(StringRef File) {
  if (File.empty())
    return nullptr;
  auto It = Files.find(File);
  if (It == Files.end()) {
    Entry &E = Files[File];
    if (auto Buf = MemoryBuffer::getFile(File, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false)) {
      E.Buffer = std::move(*Buf);
      StringRef Text = E.Buffer->getBuffer();
      E.Starts.push_back(0);
      for (size_t I = 0; I < Text.size(); ++I)
        if (Text[I] == '\n')
          E.Starts.push_back(I + 1);
    }
    It = Files.find(File);
  }
  return It->second.Buffer ? &It->second : nullptr;
}

std::optional<StringRef> SourceCache::content(StringRef File) {
  Entry *E = entry(File);
  if (!E)
    return std::nullopt;
  return E->Buffer->getBuffer();
}

unsigned SourceCache::lineCount(StringRef File) {
  Entry *E = entry(File);
  if (!E)
    return 0;
  size_t Size = E->Buffer->getBufferSize();
  unsigned N = E->Starts.size();
  // A final line ending does not start another line.
  if (N > 1 && E->Starts.back() == Size)
    --N;
  return Size == 0 ? 0 : N;
}

std::optional<unsigned> SourceCache::lineStart(StringRef File, unsigned Line) {
  Entry *E = entry(File);
  if (!E || Line == 0 || Line > E->Starts.size())
    return std::nullopt;
  return E->Starts[Line - 1];
}

std::optional<StringRef> SourceCache::line(StringRef File, unsigned Line) {
  if (Line == 0 || Line > lineCount(File))
    return std::nullopt;
  Entry *E = entry(File);
  StringRef Text = E->Buffer->getBuffer();
  size_t Begin = E->Starts[Line - 1];
  size_t End = Line < E->Starts.size() ? E->Starts[Line] - 1 : Text.size();
  return Text.slice(Begin, End).rtrim('\r');
}

std::optional<std::pair<unsigned, unsigned>> SourceCache::lineColumn(StringRef File,
                                                                     unsigned Offset) {
  Entry *E = entry(File);
  if (!E || Offset > E->Buffer->getBufferSize())
    return std::nullopt;
  auto It = std::upper_bound(E->Starts.begin(), E->Starts.end(), Offset);
  unsigned Index = std::distance(E->Starts.begin(), It) - 1;
  return std::make_pair(Index + 1, Offset - E->Starts[Index] + 1);
}

//===----------------------------------------------------------------------===//
// Fix-its as byte edits
//===----------------------------------------------------------------------===//

static std::optional<unsigned> offsetFromLineColumn(const SourceLocation &L, SourceCache &Sources) {
  std::optional<unsigned> Start = Sources.lineStart(L.File, L.Line);
  std::optional<StringRef> Text = Sources.line(L.File, L.Line);
  if (!Start || L.Column == 0)
    return std::nullopt;
  // A column may point one past the line's last byte (at its line ending).
  size_t Length = Text ? Text->size() : 0;
  if (L.Column - 1 > Length)
    return std::nullopt;
  return *Start + L.Column - 1;
}

static bool offsetMatches(const SourceLocation &L, SourceCache &Sources) {
  auto LC = Sources.lineColumn(L.File, L.Offset);
  return LC && LC->first == L.Line && LC->second == L.Column;
}

std::optional<unsigned> fileOffset(const SourceLocation &L, SourceCache &Sources) {
  if (!L.isValid() || !Sources.content(L.File))
    return std::nullopt;
  if (offsetMatches(L, Sources))
    return L.Offset;
  return offsetFromLineColumn(L, Sources);
}

std::optional<TextEdit> resolveFix(const FixIt &Fix, SourceCache &Sources, bool Strict) {
  const SourceLocation &B = Fix.Range.Begin;
  SourceLocation E = Fix.Range.End;
  if (!B.isValid() || !Sources.content(B.File))
    return std::nullopt;
  if (!E.isValid())
    E = B; // An insertion.
  if (E.File != B.File)
    return std::nullopt;
  TextEdit Edit;
  Edit.File = B.File;
  Edit.Text = Fix.Replacement;
  if (offsetMatches(B, Sources) && offsetMatches(E, Sources) && E.Offset >= B.Offset) {
    Edit.Offset = B.Offset;
    Edit.Length = E.Offset - B.Offset;
    return Edit;
  }
  if (Strict)
    return std::nullopt;
  std::optional<unsigned> BO = offsetFromLineColumn(B, Sources);
  std::optional<unsigned> EO = offsetFromLineColumn(E, Sources);
  if (!BO || !EO || *EO < *BO)
    return std::nullopt;
  Edit.Offset = *BO;
  Edit.Length = *EO - *BO;
  return Edit;
}

bool editsConflict(const TextEdit &A, const TextEdit &B) {
  if (A.File != B.File || A == B)
    return false;
  unsigned AEnd = A.Offset + A.Length, BEnd = B.Offset + B.Length;
  if (A.Length == 0 && B.Length == 0)
    return A.Offset == B.Offset;
  if (A.Length == 0)
    return B.Offset < A.Offset && A.Offset < BEnd;
  if (B.Length == 0)
    return A.Offset < B.Offset && B.Offset < AEnd;
  return A.Offset < BEnd && B.Offset < AEnd;
}

std::string applyEdits(StringRef Text, ArrayRef<TextEdit> Edits, unsigned Base) {
  std::string Out;
  Out.reserve(Text.size());
  size_t Pos = 0;
  for (const TextEdit &E : Edits) {
    size_t Begin = E.Offset - Base;
    if (Begin < Pos || Begin + E.Length > Text.size())
      continue; // Callers never pass these; be safe anyway.
    Out.append(Text.data() + Pos, Begin - Pos);
    Out += E.Text;
    Pos = Begin + E.Length;
  }
  Out.append(Text.data() + Pos, Text.size() - Pos);
  return Out;
}

static std::vector<std::string> splitLines(StringRef Text) {
  std::vector<std::string> Lines;
  while (!Text.empty()) {
    auto [L, R] = Text.split('\n');
    Lines.push_back(L.rtrim('\r').str());
    Text = R;
  }
  return Lines;
}

std::vector<FixHunk> fixHunks(const Finding &F, SourceCache &Sources) {
  std::map<std::string, std::vector<TextEdit>> ByFile;
  for (const FixIt &Fix : F.Fixes)
    if (std::optional<TextEdit> E = resolveFix(Fix, Sources, /*Strict=*/false))
      ByFile[E->File].push_back(std::move(*E));
  std::vector<FixHunk> Hunks;
  for (auto &[File, Edits] : ByFile) {
    llvm::sort(Edits);
    Edits.erase(std::unique(Edits.begin(), Edits.end()), Edits.end());
    bool Conflicts = false;
    for (size_t I = 0; I + 1 < Edits.size(); ++I)
      Conflicts |= editsConflict(Edits[I], Edits[I + 1]);
    if (Conflicts)
      continue;
    StringRef Text = *Sources.content(File);
    // Group the edits whose lines touch.
    struct Span {
      unsigned First, Last;
      std::vector<TextEdit> Edits;
    };
    std::vector<Span> Spans;
    for (const TextEdit &E : Edits) {
      unsigned First = Sources.lineColumn(File, E.Offset)->first;
      unsigned Last = Sources.lineColumn(File, E.Offset + E.Length)->first;
      if (!Spans.empty() && First <= Spans.back().Last + 1) {
        Spans.back().Last = std::max(Spans.back().Last, Last);
        Spans.back().Edits.push_back(E);
        continue;
      }
      Spans.push_back({First, Last, {E}});
    }
    for (const Span &S : Spans) {
      unsigned Begin = *Sources.lineStart(File, S.First);
      std::optional<unsigned> Next = Sources.lineStart(File, S.Last + 1);
      unsigned End = Next ? *Next : Text.size();
      StringRef Old = Text.slice(Begin, End);
      FixHunk H;
      H.File = File;
      H.FirstLine = S.First;
      H.Before = splitLines(Old);
      H.After = splitLines(applyEdits(Old, S.Edits, Begin));
      Hunks.push_back(std::move(H));
    }
  }
  return Hunks;
}

//===----------------------------------------------------------------------===//
// Findings
//===----------------------------------------------------------------------===//

SourceLocation primaryLocation(const Finding &F) {
  if (F.Loc.isValid())
    return F.Loc;
  for (const SourceLocation &L : F.Keys.CallSites)
    if (L.isValid())
      return L;
  return SourceLocation();
}

std::vector<const Finding *> reportOrder(ArrayRef<Finding> Findings) {
  std::vector<const Finding *> Order;
  for (const Finding &F : Findings)
    Order.push_back(&F);
  std::stable_sort(Order.begin(), Order.end(), [](const Finding *A, const Finding *B) {
    bool RA = isRanked(*A), RB = isRanked(*B);
    if (RA != RB)
      return RA;
    return RA && A->Ranking->SavingNs > B->Ranking->SavingNs;
  });
  return Order;
}

std::string countOf(unsigned N, StringRef Singular) {
  return std::to_string(N) + " " + Singular.str() + (N == 1 ? "" : "s");
}

std::string countFindings(ArrayRef<Finding> Findings) {
  if (Findings.empty())
    return "no findings";
  unsigned Counts[3] = {0, 0, 0};
  for (const Finding &F : Findings)
    ++Counts[static_cast<int>(F.Level)];
  std::vector<std::string> Parts;
  for (Severity S : {Severity::Error, Severity::Warning, Severity::Note})
    if (unsigned N = Counts[static_cast<int>(S)])
      Parts.push_back(countOf(N, severityName(S)));
  if (Parts.size() == 1)
    return Parts.front();
  return countOf(Findings.size(), "finding") + " (" + join(Parts, ", ") + ")";
}

std::pair<std::string, std::string> costColumns(const Cost &C) {
  if (!C.Matched)
    return {"not seen in the profile", ""};
  std::string Measured;
  if (C.Calls)
    Measured = countOf(C.Calls, "call") + ", ";
  Measured += formatDuration(C.MeasuredNs);
  if (C.GpuShare > 0)
    Measured += " (" + formatShare(C.GpuShare) + " of GPU time)";
  else if (C.WallShare > 0)
    Measured += " (" + formatShare(C.WallShare) + " of wall time)";
  return {Measured, formatDuration(C.SavingNs)};
}

//===----------------------------------------------------------------------===//
// Paths and URIs
//===----------------------------------------------------------------------===//

std::string sourceRoot(const ReportContext &Ctx) {
  SmallString<256> Root(Ctx.SourceRoot);
  if (Root.empty()) {
    if (sys::fs::current_path(Root))
      return "";
  } else {
    sys::fs::make_absolute(Root);
  }
  sys::path::remove_dots(Root, /*remove_dot_dot=*/true);
  while (Root.size() > 1 && Root.back() == '/')
    Root.pop_back();
  return Root.str().str();
}

std::string displayPath(StringRef Path, StringRef Root) {
  if (Root.empty() || !Path.starts_with(Root))
    return Path.str();
  StringRef Rest = Path.drop_front(Root.size());
  if (Root == "/")
    return Rest.str();
  if (!Rest.consume_front("/") || Rest.empty())
    return Path.str();
  return Rest.str();
}

std::string locationText(const SourceLocation &L, StringRef Root) {
  if (!L.isValid())
    return "";
  std::string S = displayPath(L.File, Root) + ":" + std::to_string(L.Line);
  if (L.Column)
    S += ":" + std::to_string(L.Column);
  return S;
}

std::string percentEncodePath(StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' || C == '/') {
      Out.push_back(C);
      continue;
    }
    Out.push_back('%');
    Out.push_back(hexdigit(C >> 4, /*LowerCase=*/false));
    Out.push_back(hexdigit(C & 15, /*LowerCase=*/false));
  }
  return Out;
}

std::string fileUri(StringRef AbsolutePath, bool Directory) {
  std::string Uri = "file://";
  if (!AbsolutePath.starts_with("/"))
    Uri += "/";
  Uri += percentEncodePath(AbsolutePath);
  if (Directory && Uri.back() != '/')
    Uri += "/";
  return Uri;
}

//===----------------------------------------------------------------------===//
// Escaping
//===----------------------------------------------------------------------===//

std::string escapeHtml(StringRef Text) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      Out.push_back(C);
    }
  }
  return Out;
}

std::string escapeMarkdown(StringRef Text) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '\\':
    case '`':
    case '*':
    case '_':
    case '[':
    case ']':
    case '<':
    case '>':
    case '|':
    case '~':
    case '#':
      Out.push_back('\\');
      Out.push_back(C);
      break;
    case '&':
      Out += "&amp;";
      break;
    case '\n':
    case '\r':
      Out.push_back(' ');
      break;
    default:
      Out.push_back(C);
    }
  }
  return Out;
}

static size_t longestBacktickRun(StringRef Text) {
  size_t Longest = 0, Run = 0;
  for (char C : Text) {
    Run = C == '`' ? Run + 1 : 0;
    Longest = std::max(Longest, Run);
  }
  return Longest;
}

std::string markdownCode(StringRef Text, bool InTable) {
  std::string Body;
  for (char C : Text) {
    if (C == '\n' || C == '\r')
      Body.push_back(' ');
    else if (C == '|' && InTable)
      Body += "\\|"; // GFM splits table cells before it sees code spans.
    else
      Body.push_back(C);
  }
  std::string Fence(longestBacktickRun(Body) + 1, '`');
  bool Pad = !Body.empty() && (Body.front() == '`' || Body.back() == '`' ||
                               (Body.front() == ' ' && Body.back() == ' '));
  if (Pad)
    Body = " " + Body + " ";
  return Fence + Body + Fence;
}

std::string markdownFence(StringRef Content) {
  return std::string(std::max<size_t>(3, longestBacktickRun(Content) + 1), '`');
}

} // namespace cuda_advisor::report::detail
