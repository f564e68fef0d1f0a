//===- TextEmitter.cpp - Clang-style diagnostics --------------------------===//
//
//   file:line:col: warning: message [check-id]
//      12 |     cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
//         |     ^~~~~~~~~~
//         |     replacement text (fix-it)
//
// The format editors and CI log parsers already understand. Colour follows
// clang's scheme and is used only when Ctx.Color is set.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Report/Report.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace cuda_advisor::report {
namespace {

/// Reads each file once and hands out its lines.
class SourceCache {
public:
  std::optional<StringRef> line(StringRef File, unsigned Line) {
    auto &Lines = linesOf(File);
    if (Line == 0 || Line > Lines.size())
      return std::nullopt;
    return Lines[Line - 1];
  }

private:
  std::vector<StringRef> &linesOf(StringRef File) {
    auto It = Files.find(File);
    if (It != Files.end())
      return It->second.Lines;
    Entry &E = Files[File];
    if (auto Buf = MemoryBuffer::getFile(File, /*IsText=*/true)) {
      E.Buffer = std::move(*Buf);
      StringRef Rest = E.Buffer->getBuffer();
      while (!Rest.empty()) {
        auto [L, R] = Rest.split('\n');
        E.Lines.push_back(L.rtrim('\r'));
        Rest = R;
      }
    }
    return E.Lines;
  }
  struct Entry {
    std::unique_ptr<MemoryBuffer> Buffer;
    std::vector<StringRef> Lines;
  };
  StringMap<Entry> Files;
};

class TextEmitter {
public:
  TextEmitter(raw_ostream &OS, const ReportContext &Ctx) : OS(OS), Ctx(Ctx) {}

  void run(ArrayRef<Finding> Findings) {
    // Input errors are printed by the driver, on stderr, as they happen.
    if (Ctx.Summary)
      printSummary(*Ctx.Summary);
    for (const Finding &F : Findings)
      printFinding(F);
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
    colored(raw_ostream::SAVEDCOLOR, true, "cuda-advisor: ");
    OS << formatSummary(S) << "\n";
    for (const std::string &W : S.Warnings) {
      colored(raw_ostream::MAGENTA, true, "warning: ");
      OS << W << "\n";
    }
    OS << "\n";
  }

  void printHeader(const SourceLocation &Loc, Severity Level, StringRef Message) {
    std::string Where;
    if (Loc.isValid())
      Where = Loc.File + ":" + std::to_string(Loc.Line) + ":" + std::to_string(Loc.Column) + ": ";
    else
      Where = "cuda-advisor: ";
    colored(raw_ostream::SAVEDCOLOR, true, Where);
    switch (Level) {
    case Severity::Error:
      colored(raw_ostream::RED, true, "error: ");
      break;
    case Severity::Warning:
      colored(raw_ostream::MAGENTA, true, "warning: ");
      break;
    case Severity::Note:
      colored(raw_ostream::BLACK, true, "note: ");
      break;
    }
    if (Ctx.Color)
      OS.changeColor(raw_ostream::SAVEDCOLOR, true);
    OS << Message;
    if (Ctx.Color)
      OS.resetColor();
  }

  /// Prints the source line with a caret under Loc (and tildes to the end
  /// of Range on the same line), then the fix-its on that line.
  void printSnippet(const SourceLocation &Loc, const SourceRange *Range,
                    ArrayRef<FixIt> Fixes) {
    if (!Loc.isValid())
      return;
    std::optional<StringRef> Line = Sources.line(Loc.File, Loc.Line);
    if (!Line)
      return;
    std::string Gutter = std::to_string(Loc.Line);
    std::string Pad(std::max<size_t>(Gutter.size(), 4) - Gutter.size(), ' ');
    std::string Blank(Pad.size() + Gutter.size(), ' ');
    OS << " " << Pad << Gutter << " | " << expandTabs(*Line) << "\n";
    unsigned Col = std::max(1u, Loc.Column);
    unsigned EndCol = Col + 1;
    if (Range && Range->End.Line == Loc.Line && Range->End.Column > Col)
      EndCol = Range->End.Column;
    std::string Marker = caretLine(*Line, Col, EndCol);
    OS << " " << Blank << " | ";
    colored(raw_ostream::GREEN, true, Marker);
    OS << "\n";
    for (const FixIt &Fix : Fixes) {
      if (Fix.Range.Begin.File != Loc.File || Fix.Range.Begin.Line != Loc.Line ||
          StringRef(Fix.Replacement).contains('\n'))
        continue;
      OS << " " << Blank << " | ";
      colored(raw_ostream::GREEN, false,
              std::string(visualColumn(*Line, Fix.Range.Begin.Column), ' ') + Fix.Replacement);
      OS << "\n";
    }
  }

  static std::string expandTabs(StringRef Line) {
    std::string Out;
    for (char C : Line) {
      if (C == '\t')
        Out.append(8 - Out.size() % 8, ' ');
      else
        Out.push_back(C);
    }
    return Out;
  }

  /// 0-based visual column of the 1-based byte column Col.
  static unsigned visualColumn(StringRef Line, unsigned Col) {
    unsigned V = 0;
    for (unsigned I = 0; I + 1 < Col && I < Line.size(); ++I)
      V = Line[I] == '\t' ? (V / 8 + 1) * 8 : V + 1;
    return V;
  }

  static std::string caretLine(StringRef Line, unsigned Col, unsigned EndCol) {
    unsigned Begin = visualColumn(Line, Col);
    unsigned End = std::max(Begin + 1, visualColumn(Line, EndCol));
    std::string Out(Begin, ' ');
    Out += '^';
    Out.append(End - Begin - 1, '~');
    return Out;
  }

  void printFinding(const Finding &F) {
    printHeader(F.Loc, F.Level, F.Message);
    OS << " [" << F.CheckId << "]\n";
    printSnippet(F.Loc, F.Range.isValid() ? &F.Range : nullptr, F.Fixes);
    if (F.Ranking) {
      OS << "  ";
      colored(raw_ostream::CYAN, true, "cost: ");
      OS << formatCost(*F.Ranking) << "\n";
      if (F.Ranking->Matched && !F.Ranking->Method.empty())
        OS << "  how: " << F.Ranking->Method << "\n";
    }
    for (const FindingNote &N : F.Notes) {
      printHeader(N.Loc, Severity::Note, N.Message);
      OS << "\n";
      printSnippet(N.Loc, nullptr, {});
    }
  }

  raw_ostream &OS;
  const ReportContext &Ctx;
  SourceCache Sources;
};

} // namespace

void emitText(raw_ostream &OS, ArrayRef<Finding> Findings, const ReportContext &Ctx) {
  TextEmitter(OS, Ctx).run(Findings);
}

} // namespace cuda_advisor::report
