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
  MarkdownEmitter(raw_ostream &OS, const ReportContext &Ctx)
      : OS(OS), Ctx(Ctx), Root(detail::sourceRoot(Ctx)) {}

  void run(ArrayRef<Finding> Findings) {
    std::vector<const Finding *> Order = detail::reportOrder(Findings);
    OS << "## cuda-advisor: " << detail::countFindings(Findings);
    if (!Ctx.Sources.empty())
      OS << " in " << detail::countOf(Ctx.Sources.size(), "file");
    OS << "\n\n";
    if (Ctx.Summary) {
      OS << "**" << escapeMarkdown(formatSummary(*Ctx.Summary)) << "**\n\n";
      for (const std::string &W : Ctx.Summary->Warnings)
        OS << "> **warning:** " << escapeMarkdown(W) << "\n\n";
    }
    if (!Ctx.Errors.empty())
      printErrors();
    if (Order.empty())
      return;
    printTable(Order);
    for (size_t I = 0; I < Order.size(); ++I)
      printFinding(I + 1, *Order[I]);
  }

private:
  void printErrors() {
    OS << "**Input errors** (these files were not fully analyzed):\n\n";
    for (const InputError &E : Ctx.Errors) {
      OS << "- ";
      if (!E.File.empty())
        OS << markdownCode(detail::displayPath(E.File, Root)) << ": ";
      OS << escapeMarkdown(E.Message) << "\n";
    }
    OS << "\n";
  }

  void printTable(ArrayRef<const Finding *> Order) {
    bool Ranked = Ctx.Summary || llvm::any_of(Order, [](const Finding *F) { return F->Ranking; });
    OS << "| # | finding | location |";
    if (Ranked)
      OS << " measured | estimated saving |";
    OS << "\n| ---: | --- | --- |";
    if (Ranked)
      OS << " --- | ---: |";
    OS << "\n";
    for (size_t I = 0; I < Order.size(); ++I) {
      const Finding &F = *Order[I];
      std::string Where = detail::locationText(detail::primaryLocation(F), Root);
      OS << "| " << I + 1 << " | " << severityName(F.Level) << ": " << escapeMarkdown(F.Message)
         << " " << markdownCode(F.CheckId, true) << " | "
         << (Where.empty() ? "(no source location)" : markdownCode(Where, true)) << " |";
      if (Ranked) {
        auto [Measured, Saving] = detail::costColumns(F);
        OS << " " << escapeMarkdown(Measured) << " | " << (Saving.empty() ? "" : Saving) << " |";
      }
      OS << "\n";
    }
    OS << "\n";
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
    OS << Fence << "cuda\n" << Body << Fence << "\n\n";
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
      OS << "**Suggested fix:**\n\n";
      for (const FixIt &Fix : F.Fixes)
        OS << "- " << markdownCode(detail::locationText(Fix.Range.Begin, Root)) << ": replace with "
           << markdownCode(Fix.Replacement) << "\n";
      OS << "\n";
      return;
    }
    OS << "**Suggested fix:**\n\n";
    for (const detail::FixHunk &H : Hunks) {
      std::string Body;
      for (const std::string &L : H.Before)
        Body += "-" + L + "\n";
      for (const std::string &L : H.After)
        Body += "+" + L + "\n";
      std::string Fence = detail::markdownFence(Body);
      if (Hunks.size() > 1 || H.File != detail::primaryLocation(F).File)
        OS << markdownCode(detail::displayPath(H.File, Root) + ":" + std::to_string(H.FirstLine))
           << "\n\n";
      OS << Fence << "diff\n" << Body << Fence << "\n\n";
    }
  }

  void printFinding(size_t N, const Finding &F) {
    SourceLocation Loc = detail::primaryLocation(F);
    OS << "### " << N << ". " << markdownCode(F.CheckId);
    if (Loc.isValid())
      OS << " at " << markdownCode(detail::locationText(Loc, Root));
    OS << "\n\n**" << severityName(F.Level) << ":** " << escapeMarkdown(F.Message) << "\n\n";
    if (Loc.isValid())
      printSnippet(F, Loc);
    else
      OS << "No source location (found in the profile).\n\n";
    if (detail::isRanked(F)) {
      auto [Measured, Saving] = detail::costColumns(F);
      OS << "**Measured:** " << escapeMarkdown(Measured) << "; **estimated saving:** " << Saving;
      if (!F.Ranking->Method.empty())
        OS << " (" << escapeMarkdown(F.Ranking->Method) << ")";
      OS << "\n\n";
    } else if (F.Ranking || Ctx.Summary) {
      OS << "Not seen in the profile.\n\n";
    }
    if (!F.Notes.empty()) {
      for (const FindingNote &Note : F.Notes) {
        OS << "- **note:** " << escapeMarkdown(Note.Message);
        if (Note.Loc.isValid()) {
          OS << " at " << markdownCode(detail::locationText(Note.Loc, Root));
          if (std::optional<StringRef> Line = Sources.line(Note.Loc.File, Note.Loc.Line))
            if (!Line->trim().empty())
              OS << ": " << markdownCode(Line->trim());
        }
        OS << "\n";
      }
      OS << "\n";
    }
    if (!F.Fixes.empty())
      printFix(F);
  }

  raw_ostream &OS;
  const ReportContext &Ctx;
  std::string Root;
  detail::SourceCache Sources;
};

} // namespace

void emitMarkdown(raw_ostream &OS, ArrayRef<Finding> Findings, const ReportContext &Ctx) {
  MarkdownEmitter(OS, Ctx).run(Findings);
}

} // namespace cuda_advisor::report
