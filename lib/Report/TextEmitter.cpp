//===- TextEmitter.cpp - Clang-style diagnostics --------------------------===//
//
//   GPU busy 412 ms of 1.2 s; 4 findings could save about 290 ms
//
//   file:line:col: warning: message [check-id]
//      12 |   add<<<n / threads, threads>>>(d, n);
//         |         ^~~~~~~~~~~
//         |         (n + threads - 1) / threads
//     measured: 100 calls, 35.2 ms (28% of GPU time); estimated saving: 34.8 ms
//     how: <how the saving was estimated>
//   file:line:col: note: ...
//
// The layout of clang's TextDiagnostic: the gutter is max(4, digits of the
// first line + 16) wide, ranges (the finding's and its fix-its') are marked
// with '~' between their first and last non-blank columns, the caret with
// '^', tabs expand to 8 columns, and fix-it insertions on the caret's line are
// shown under it. Colours follow clang 19 (bold location and message, bold
// red error, bold magenta warning, bold cyan note, green caret and fix-it)
// and are used only when Ctx.Color is set.
//
//===----------------------------------------------------------------------===//
#include "ReportUtil.h"
#include "cuda-advisor/Report/Report.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Unicode.h"

using namespace llvm;

namespace cuda_advisor::report {
namespace {

using detail::SourceCache;

/// Clang's limits: snippets of at most 16 lines, none for lines over 4 KiB.
constexpr unsigned MaxSnippetLines = 16;
constexpr size_t MaxLineLength = 4096;
constexpr unsigned TabStop = 8;

/// A source line as displayed: tabs expanded, and the display column of
/// each byte (one more entry for the end of the line).
struct DisplayLine {
  std::string Text;
  std::vector<unsigned> ColumnOf;

  explicit DisplayLine(StringRef Line) {
    unsigned Col = 0;
    for (size_t I = 0; I < Line.size();) {
      unsigned char C = Line[I];
      if (C == '\t') {
        unsigned Width = TabStop - Col % TabStop;
        Text.append(Width, ' ');
        ColumnOf.push_back(Col);
        Col += Width;
        ++I;
        continue;
      }
      size_t Len = C < 0x80 ? 1 : std::min<size_t>(getNumBytesForUTF8(C), Line.size() - I);
      StringRef Char = Line.substr(I, Len);
      int Width = C < 0x80 ? 1 : sys::unicode::columnWidthUTF8(Char);
      Text += Char;
      ColumnOf.insert(ColumnOf.end(), Len, Col);
      Col += Width > 0 ? Width : 1;
      I += Len;
    }
    ColumnOf.push_back(Col);
  }

  /// Display column of 0-based byte Byte (past the end: one column a byte).
  unsigned column(unsigned Byte) const {
    if (Byte < ColumnOf.size())
      return ColumnOf[Byte];
    return ColumnOf.back() + (Byte - (ColumnOf.size() - 1));
  }
};

/// The bytes [Start, End) of one line that a range covers (End ~0u: to the
/// end of the line).
struct LineRange {
  unsigned Line, Start, End;
};

static void addRange(const SourceRange &R, StringRef File, std::vector<LineRange> &Out) {
  if (!R.isValid() || R.Begin.File != File || !R.End.isValid() || R.End.File != File)
    return;
  unsigned BeginCol = R.Begin.Column ? R.Begin.Column - 1 : 0;
  unsigned EndCol = R.End.Column ? R.End.Column - 1 : 0;
  if (R.Begin.Line == R.End.Line) {
    Out.push_back({R.Begin.Line, BeginCol, EndCol});
    return;
  }
  if (R.End.Line < R.Begin.Line)
    return;
  Out.push_back({R.Begin.Line, BeginCol, ~0u});
  for (unsigned L = R.Begin.Line + 1; L < R.End.Line; ++L)
    Out.push_back({L, 0, ~0u});
  Out.push_back({R.End.Line, 0, EndCol});
}

/// Marks the non-blank part of R on the caret line with '~'.
static void highlight(const LineRange &R, StringRef Line, const DisplayLine &D,
                      std::string &Caret) {
  unsigned Start = R.Start;
  while (Start < Line.size() && (Line[Start] == ' ' || Line[Start] == '\t'))
    ++Start;
  unsigned End = std::min<size_t>(R.End, Line.size());
  while (End > 0 && (Line[End - 1] == ' ' || Line[End - 1] == '\t'))
    --End;
  if (Start >= End)
    return;
  unsigned From = D.column(Start), To = D.column(End);
  if (Caret.size() < To)
    Caret.resize(To, ' ');
  std::fill(Caret.begin() + From, Caret.begin() + To, '~');
}

static std::string expandTabs(StringRef Text) { return DisplayLine(Text).Text; }

/// The line of fix-it insertions under source line LineNo, as clang builds it:
/// each replacement at its column, pushed right past a previous long one.
static std::string fixItLine(ArrayRef<FixIt> Fixes, StringRef File, unsigned LineNo,
                             const DisplayLine &D) {
  std::vector<const FixIt *> OnLine;
  for (const FixIt &Fix : Fixes)
    if (Fix.Range.Begin.File == File && Fix.Range.Begin.Line == LineNo &&
        !Fix.Replacement.empty() &&
        StringRef(Fix.Replacement).find_first_of("\r\n") == StringRef::npos)
      OnLine.push_back(&Fix);
  llvm::stable_sort(OnLine, [](const FixIt *A, const FixIt *B) {
    return A->Range.Begin.Column < B->Range.Begin.Column;
  });
  std::string Out;
  unsigned PrevEnd = 0;
  for (const FixIt *Fix : OnLine) {
    unsigned Col = D.column(Fix->Range.Begin.Column ? Fix->Range.Begin.Column - 1 : 0);
    if (Col < PrevEnd)
      Col = PrevEnd + 1;
    std::string Text = expandTabs(Fix->Replacement);
    if (Out.size() < Col)
      Out.resize(Col, ' ');
    Out.replace(Col, std::min(Out.size() - Col, Text.size()), Text);
    PrevEnd = Col + DisplayLine(Fix->Replacement).ColumnOf.back();
  }
  return Out;
}

static unsigned numberWidth(unsigned N) {
  unsigned W = 1;
  for (; N >= 10; N /= 10)
    ++W;
  return W;
}

class TextEmitter {
public:
  TextEmitter(raw_ostream &OS, const ReportContext &Ctx) : OS(OS), Ctx(Ctx) {}

  void run(ArrayRef<Finding> Findings) {
    // Input errors are printed by the driver, on stderr, as they happen.
    if (Ctx.Summary)
      printSummary(*Ctx.Summary);
    for (const Finding *F : detail::reportOrder(Findings))
      printFinding(*F);
  }

private:
  void colored(raw_ostream::Colors C, bool Bold, StringRef Text) {
    if (Ctx.Color)
      OS.changeColor(C, Bold);
    OS << Text;
    if (Ctx.Color)
      OS.resetColor();
  }

  void printSummary(const RunSummary &S) {
    colored(raw_ostream::SAVEDCOLOR, true, formatSummary(S));
    OS << "\n";
    for (const std::string &W : S.Warnings) {
      colored(raw_ostream::SAVEDCOLOR, true, "cuda-advisor: ");
      colored(raw_ostream::MAGENTA, true, "warning: ");
      OS << W << "\n";
    }
    if (std::string Share = formatTimeShare(S); !Share.empty())
      OS << Share << "\n";
    OS << "\n";
  }

  void printHeader(const SourceLocation &Loc, Severity Level, StringRef Message) {
    std::string Where = "cuda-advisor: ";
    if (Loc.isValid()) {
      Where = Loc.File + ":" + std::to_string(Loc.Line) + ":";
      if (Loc.Column)
        Where += std::to_string(Loc.Column) + ":";
      Where += " ";
    }
    colored(raw_ostream::SAVEDCOLOR, true, Where);
    switch (Level) {
    case Severity::Error:
      colored(raw_ostream::RED, true, "error: ");
      break;
    case Severity::Warning:
      colored(raw_ostream::MAGENTA, true, "warning: ");
      break;
    case Severity::Note:
      colored(raw_ostream::CYAN, true, "note: ");
      break;
    }
    // Clang shows the message in bold, except for notes.
    if (Level == Severity::Note)
      OS << Message;
    else
      colored(raw_ostream::SAVEDCOLOR, true, Message);
    OS << "\n";
  }

  /// The source lines around Loc with the caret, the ranges and the fix-its.
  void printSnippet(const SourceLocation &Loc, ArrayRef<SourceRange> Ranges,
                    ArrayRef<FixIt> Fixes) {
    if (!Loc.isValid() || !Sources.line(Loc.File, Loc.Line))
      return;
    std::vector<LineRange> LineRanges;
    for (const SourceRange &R : Ranges)
      addRange(R, Loc.File, LineRanges);
    unsigned First = Loc.Line, Last = Loc.Line;
    for (const LineRange &R : LineRanges) {
      First = std::min(First, R.Line);
      Last = std::max(Last, R.Line);
    }
    if (Last - First + 1 > MaxSnippetLines) {
      First =
          std::max(First, Loc.Line > MaxSnippetLines - 1 ? Loc.Line - (MaxSnippetLines - 1) : 1);
      Last = std::min(Last, First + MaxSnippetLines - 1);
    }
    Last = std::min(Last, Sources.lineCount(Loc.File));
    for (unsigned L = First; L <= Last; ++L)
      if (Sources.line(Loc.File, L)->size() > MaxLineLength)
        return;

    unsigned Width = std::max(4u, numberWidth(First + MaxSnippetLines));
    std::string Blank(Width + 2, ' ');
    for (unsigned L = First; L <= Last; ++L) {
      StringRef Line = *Sources.line(Loc.File, L);
      DisplayLine D(Line);
      std::string Caret;
      for (const LineRange &R : LineRanges)
        if (R.Line == L)
          highlight(R, Line, D, Caret);
      if (L == Loc.Line) {
        unsigned Col = D.column(Loc.Column ? Loc.Column - 1 : 0);
        if (Caret.size() < Col + 1)
          Caret.resize(Col + 1, ' ');
        Caret[Col] = '^';
      }
      std::string FixLine = fixItLine(Fixes, Loc.File, L, D);

      OS.indent(Width - numberWidth(L) + 1) << L << " | " << D.Text << "\n";
      if (!Caret.empty()) {
        OS << Blank << "| ";
        colored(raw_ostream::GREEN, true, StringRef(Caret).rtrim(' '));
        OS << "\n";
      }
      if (!FixLine.empty()) {
        OS << Blank << "| ";
        colored(raw_ostream::GREEN, false, FixLine);
        OS << "\n";
      }
    }
  }

  void printCost(const Finding &F) {
    if (detail::isRanked(F)) {
      OS << "  ";
      colored(raw_ostream::CYAN, true, "measured: ");
      OS << formatCost(*F.Ranking).substr(strlen("measured: ")) << "\n";
      if (!F.Ranking->Method.empty())
        OS << "  how: " << F.Ranking->Method << "\n";
      return;
    }
    // Unmatched findings of a ranked report say so.
    if (F.Ranking || Ctx.Summary)
      OS << "  not seen in the profile\n";
  }

  void printFinding(const Finding &F) {
    SourceLocation Loc = detail::primaryLocation(F);
    printHeader(Loc, F.Level, F.Message + " [" + F.CheckId + "]");
    std::vector<SourceRange> Ranges;
    if (F.Range.isValid())
      Ranges.push_back(F.Range);
    for (const FixIt &Fix : F.Fixes)
      Ranges.push_back(Fix.Range);
    printSnippet(Loc, Ranges, F.Fixes);
    printCost(F);
    for (const FindingNote &N : F.Notes) {
      printHeader(N.Loc, Severity::Note, N.Message);
      printSnippet(N.Loc, {}, {});
    }
  }

  raw_ostream &OS;
  const ReportContext &Ctx;
  SourceCache Sources;
};

} // namespace

void emitText(raw_ostream &OS, ArrayRef<Finding> Findings, const ReportContext &Ctx) {
  // A string or file stream has colours off: --color turns them on.
  bool WasEnabled = OS.colors_enabled();
  if (Ctx.Color)
    OS.enable_colors(true);
  TextEmitter(OS, Ctx).run(Findings);
  OS.enable_colors(WasEnabled);
}

} // namespace cuda_advisor::report
