//===- MarkdownEmitter.cpp - --format=markdown -----------------------------===//
//
// A report for code review comments and CI job summaries (GitHub-flavoured
// Markdown):
//
//   ## cuda-advisor: 3 warnings in 2 files
//   **GPU busy 412 ms of 1.2 s; 4 findings could save about 290 ms**
//   | # | finding | location | measured | estimated saving |   (ranked order)
//   ### 1. `check` at `file:line:col`
//   **warning:** <message>, the source lines in a fence, the cost, the
//   notes, and the fix-it as a diff.
//
// It fits one pull-request comment: the top findings (ReportContext::
// MarkdownTop) are shown in full, the rest inside a collapsed <details>
// section, and the whole stays under ReportContext::MarkdownLimit characters
// (GitHub refuses comments of 65,536 and more): what does not fit is counted
// in a last line instead of shown.
//
// Messages are escaped (Markdown syntax, '|', backticks and HTML); code goes
// in spans and fences longer than any backtick run it holds.
//
//===----------------------------------------------------------------------===//
#include "ReportUtil.h"
#include "cuda-advisor/Report/Report.h"

using namespace llvm;

namespace cuda_advisor::report {
namespace {

using detail::escapeMarkdown;
using detail::markdownCode;

/// Most source lines a snippet shows.
constexpr unsigned MaxSnippetLines = 8;

class MarkdownEmitter {
public:
  MarkdownEmitter(raw_ostream &Out, const ReportContext &Ctx)
      : Out(Out), Ctx(Ctx), Root(detail::sourceRoot(Ctx)) {}

  void run(ArrayRef<Finding> Findings) {
    std::vector<const Finding *> Order = detail::reportOrder(Findings);
    Ranked = Ctx.Summary || llvm::any_of(Order, [](const Finding *F) { return F->Ranking; });
    os() << "## cuda-advisor: " << detail::countFindings(Findings);
    if (!Ctx.Sources.empty())
      os() << " in " << detail::countOf(Ctx.Sources.size(), "file");
    os() << "\n\n";
    if (Ctx.Summary) {
      os() << "**" << escapeMarkdown(formatSummary(*Ctx.Summary)) << "**\n\n";
      for (const std::string &W : Ctx.Summary->Warnings)
        os() << "> **warning:** " << escapeMarkdown(W) << "\n\n";
      printTimeShare(*Ctx.Summary);
    }
    if (!Ctx.Errors.empty())
      printErrors();
    if (!Order.empty())
      printFindings(Order);
    flush();
  }

private:
  /// Whether Extra more characters keep the comment under the limit, with
  /// room kept for the closing lines.
  bool fits(size_t Extra) const {
    constexpr size_t Closing = 400; // "</details>" and the count of what was left out.
    return Ctx.MarkdownLimit == 0 || Text.size() + Extra + Closing <= Ctx.MarkdownLimit;
  }
  /// Renders one piece into a string, so that its size is known first.
  template <typename Fn> std::string render(Fn F) {
    std::string Piece;
    raw_string_ostream PieceOS(Piece);
    raw_ostream *Saved = Current;
    Current = &PieceOS;
    F();
    Current = Saved;
    PieceOS.flush();
    return Piece;
  }
  void flush() {
    Out << Text;
    Text.clear();
  }

  /// nvvp's opening table: where the profiled time went.
  void printTimeShare(const RunSummary &S) {
    auto Rows = timeShare(S);
    if (Rows.empty())
      return;
    os() << "| time share | of " << formatDuration(S.WallNs) << " |\n| --- | --- |\n";
    for (const auto &[Label, Ns] : Rows)
      os() << "| " << Label << " | "
         << detail::formatShare(static_cast<double>(Ns) / static_cast<double>(S.WallNs)) << " ("
         << formatDuration(Ns) << ") |\n";
    os() << "\n";
  }

  void printErrors() {
    os() << "**Input errors** (these files were not fully analyzed):\n\n";
    for (const InputError &E : Ctx.Errors) {
      std::string Line = render([&] {
        os() << "- ";
        if (!E.File.empty())
          os() << markdownCode(detail::displayPath(E.File, Root)) << ": ";
        os() << escapeMarkdown(E.Message) << "\n";
      });
      if (!fits(Line.size())) {
        os() << "- ...\n";
        break;
      }
      os() << Line;
    }
    os() << "\n";
  }

  /// The table and the sections of the top findings, then the others
  /// collapsed, as much as the limit allows.
  void printFindings(ArrayRef<const Finding *> Order) {
    size_t Top = std::min<size_t>(Order.size(), Ctx.MarkdownTop ? Ctx.MarkdownTop : Order.size());
    size_t Shown = 0;
    printTableHead();
    for (size_t I = 0; I < Top; ++I) {
      std::string Row = render([&] { printRow(I + 1, *Order[I]); });
      std::string Section = render([&] { printFinding(I + 1, *Order[I]); });
      if (!fits(TopRows.size() + TopSections.size() + Row.size() + Section.size() + 1))
        break;
      TopRows += Row;
      TopSections += Section;
      ++Shown;
    }
    os() << TopRows << "\n" << TopSections;
    if (Shown < Order.size() && Shown == Top) {
      std::string Open = render([&] {
        os() << "<details>\n<summary>" << detail::countOf(Order.size() - Top, "more finding")
              << "</summary>\n\n";
      });
      if (fits(Open.size() + 200)) {
        os() << Open;
        printTableHead();
        std::string Sections;
        for (size_t I = Top; I < Order.size(); ++I) {
          std::string Row = render([&] { printRow(I + 1, *Order[I]); });
          // The rest get a row each; their sections only while room is left.
          if (!fits(Row.size() + 1))
            break;
          os() << Row;
          ++Shown;
        }
        os() << "\n";
        for (size_t I = Top; I < Shown; ++I) {
          std::string Section = render([&] { printFinding(I + 1, *Order[I]); });
          if (!fits(Section.size()))
            break;
          os() << Section;
        }
        os() << "</details>\n\n";
      }
    }
    if (Shown < Order.size())
      os() << "_" << detail::countOf(Order.size() - Shown, "more finding")
         << " not shown here: the comment would be too long (see the full report, e.g. "
            "`--format=sarif` or `--format=json`)._\n";
  }

  void printTableHead() {
    os() << "| # | finding | location |";
    if (Ranked)
      os() << " measured | estimated saving |";
    os() << "\n| ---: | --- | --- |";
    if (Ranked)
      os() << " --- | ---: |";
    os() << "\n";
  }

  void printRow(size_t N, const Finding &F) {
    std::string Where = detail::locationText(detail::primaryLocation(F), Root);
    os() << "| " << N << " | " << severityName(F.Level) << ": " << escapeMarkdown(F.Message) << " "
          << markdownCode(F.CheckId, true) << " | "
          << (Where.empty() ? "(no source location)" : markdownCode(Where, true)) << " |";
    if (Ranked) {
      auto [Measured, Saving] = detail::costColumns(F);
      os() << " " << escapeMarkdown(Measured) << " | " << (Saving.empty() ? "" : Saving) << " |";
    }
    os() << "\n";
  }

  /// The lines of [First, Last] in a fence.
  void printLines(StringRef File, unsigned First, unsigned Last) {
    std::string Body;
    for (unsigned L = First; L <= Last; ++L) {
      std::optional<StringRef> Line = Sources.line(File, L);
      if (!Line)
        break;
      Body += Line->str() + "\n";
    }
    if (Body.empty())
      return;
    std::string Fence = detail::markdownFence(Body);
    os() << Fence << "cuda\n" << Body << Fence << "\n\n";
  }

  void printSnippet(const Finding &F, const SourceLocation &Loc) {
    unsigned First = Loc.Line, Last = Loc.Line;
    if (F.Loc.isValid() && F.Range.isValid() && F.Range.Begin.File == Loc.File &&
        F.Range.End.File == Loc.File && F.Range.Begin.Line <= Loc.Line &&
        Loc.Line <= F.Range.End.Line) {
      First = F.Range.Begin.Line;
      Last = std::min(F.Range.End.Line, First + MaxSnippetLines - 1);
    }
    printLines(Loc.File, First, Last);
  }

  void printFix(const Finding &F) {
    std::vector<detail::FixHunk> Hunks = detail::fixHunks(F, Sources);
    if (Hunks.empty()) {
      // The file is not readable here: list the replacements.
      os() << "**Suggested fix:**\n\n";
      for (const FixIt &Fix : F.Fixes)
        os() << "- " << markdownCode(detail::locationText(Fix.Range.Begin, Root)) << ": replace with "
           << markdownCode(Fix.Replacement) << "\n";
      os() << "\n";
      return;
    }
    os() << "**Suggested fix:**\n\n";
    for (const detail::FixHunk &H : Hunks) {
      std::string Body;
      for (const std::string &L : H.Before)
        Body += "-" + L + "\n";
      for (const std::string &L : H.After)
        Body += "+" + L + "\n";
      std::string Fence = detail::markdownFence(Body);
      if (Hunks.size() > 1 || H.File != detail::primaryLocation(F).File)
        os() << markdownCode(detail::displayPath(H.File, Root) + ":" + std::to_string(H.FirstLine))
           << "\n\n";
      os() << Fence << "diff\n" << Body << Fence << "\n\n";
    }
  }

  void printFinding(size_t N, const Finding &F) {
    SourceLocation Loc = detail::primaryLocation(F);
    os() << "### " << N << ". " << markdownCode(F.CheckId);
    if (Loc.isValid())
      os() << " at " << markdownCode(detail::locationText(Loc, Root));
    os() << "\n\n**" << severityName(F.Level) << ":** " << escapeMarkdown(F.Message) << "\n\n";
    if (Loc.isValid())
      printSnippet(F, Loc);
    else
      os() << "No source location (found in the profile).\n\n";
    if (detail::isRanked(F)) {
      auto [Measured, Saving] = detail::costColumns(F);
      os() << "**Measured:** " << escapeMarkdown(Measured) << "; **estimated saving:** " << Saving;
      if (!F.Ranking->Method.empty())
        os() << " (" << escapeMarkdown(F.Ranking->Method) << ")";
      os() << "\n\n";
    } else if (F.Ranking || Ctx.Summary) {
      os() << "Not seen in the profile.\n\n";
    }
    if (!F.Notes.empty()) {
      for (const FindingNote &Note : F.Notes) {
        os() << "- **note:** " << escapeMarkdown(Note.Message);
        if (Note.Loc.isValid()) {
          os() << " at " << markdownCode(detail::locationText(Note.Loc, Root));
          if (std::optional<StringRef> Line = Sources.line(Note.Loc.File, Note.Loc.Line))
            if (!Line->trim().empty())
              os() << ": " << markdownCode(Line->trim());
        }
        os() << "\n";
      }
      os() << "\n";
    }
    if (!F.Fixes.empty())
      printFix(F);
  }

  /// Pieces render into Current; the comment itself into Text.
  raw_ostream &os() { return Current ? *Current : TextOS; }

  raw_ostream &Out;
  const ReportContext &Ctx;
  std::string Root;
  detail::SourceCache Sources;
  bool Ranked = false;
  std::string Text;
  raw_string_ostream TextOS{Text};
  raw_ostream *Current = nullptr;
  std::string TopRows, TopSections;
};

} // namespace

void emitMarkdown(raw_ostream &OS, ArrayRef<Finding> Findings, const ReportContext &Ctx) {
  MarkdownEmitter(OS, Ctx).run(Findings);
}

} // namespace cuda_advisor::report
