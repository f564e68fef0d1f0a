//===- HtmlEmitter.cpp - --format=html -------------------------------------===//
//
// One self-contained page: inline CSS, no external resources, and for a
// profiled run the timeline (HtmlTimeline.h: inline SVG and its one inline
// script). A header with the counts and the profile summary, the input
// errors, a table of the findings in report order (largest estimated saving
// first, with a bar of its share of the total saving), the timeline, then one
// section per finding with its source lines (the range marked), cost, notes
// and fix-it as a diff. Everything taken from findings and sources is
// HTML-escaped.
//
//===----------------------------------------------------------------------===//
#include "HtmlTimeline.h"
#include "ReportUtil.h"
#include "cuda-advisor/Report/Report.h"

#include "llvm/Support/Format.h"

using namespace llvm;

namespace cuda_advisor::report {
namespace {

using detail::escapeHtml;

constexpr unsigned MaxSnippetLines = 8;

constexpr const char *Style = R"css(
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328;
       max-width: 72rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin-bottom: .25rem; }
h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
code, pre { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.summary { font-weight: 600; }
.muted { color: #59636e; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0 2rem; }
th, td { text-align: left; vertical-align: top; padding: .35rem .6rem;
         border-bottom: 1px solid #d1d9e0; }
th { background: #f6f8fa; }
td.num { text-align: right; white-space: nowrap; }
.bar { display: block; height: .4rem; background: #54aeff; border-radius: 2px; margin-top: .2rem; }
.sev { font-weight: 600; white-space: nowrap; }
.error { color: #cf222e; } .warning { color: #9a6700; } .note { color: #0969da; }
section.finding { border: 1px solid #d1d9e0; border-radius: 6px; padding: .8rem 1rem;
                  margin: 0 0 1rem; }
pre { background: #f6f8fa; padding: .5rem .75rem; overflow-x: auto; border-radius: 4px;
      tab-size: 8; }
.ln { color: #59636e; user-select: none; }
mark { background: #fff1a8; }
.del { background: #ffebe9; display: block; } .ins { background: #dafbe1; display: block; }
ul.notes { padding-left: 1.2rem; }
.errors { border-left: 4px solid #cf222e; padding: .25rem 1rem; background: #fff5f5; }
)css";

class HtmlEmitter {
public:
  HtmlEmitter(raw_ostream &OS, const ReportContext &Ctx)
      : OS(OS), Ctx(Ctx), Root(detail::sourceRoot(Ctx)) {
    if (Ctx.Timeline)
      Timeline.emplace(*Ctx.Timeline, Root);
  }

  void run(ArrayRef<Finding> Findings) {
    std::vector<const Finding *> Order = detail::reportOrder(Findings);
    OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       << "<title>cuda-advisor report</title>\n<style>" << Style;
    if (Timeline)
      OS << detail::HtmlTimeline::style();
    OS << "</style>\n</head>\n<body>\n";
    OS << "<header>\n<h1>cuda-advisor report</h1>\n<p>"
       << escapeHtml(detail::countFindings(Findings));
    if (!Ctx.Sources.empty())
      OS << " in " << escapeHtml(detail::countOf(Ctx.Sources.size(), "file"));
    if (!Ctx.ToolVersion.empty())
      OS << " <span class=\"muted\">(cuda-advisor " << escapeHtml(Ctx.ToolVersion) << ")</span>";
    OS << "</p>\n";
    if (Ctx.Summary) {
      OS << "<p class=\"summary\">" << escapeHtml(formatSummary(*Ctx.Summary)) << "</p>\n";
      for (const std::string &W : Ctx.Summary->Warnings)
        OS << "<p class=\"warning\">warning: " << escapeHtml(W) << "</p>\n";
      printTimeShare(*Ctx.Summary);
    }
    OS << "</header>\n";
    if (!Ctx.Errors.empty())
      printErrors();
    if (!Order.empty())
      printTable(Order);
    if (Timeline)
      Timeline->writeSection(OS);
    if (!Order.empty()) {
      OS << "<main>\n";
      for (size_t I = 0; I < Order.size(); ++I)
        printFinding(I + 1, *Order[I]);
      OS << "</main>\n";
    }
    if (Timeline)
      Timeline->writeScript(OS);
    OS << "</body>\n</html>\n";
  }

private:
  /// nvvp's opening table: where the profiled time went.
  void printTimeShare(const RunSummary &S) {
    auto Rows = timeShare(S);
    if (Rows.empty())
      return;
    OS << "<table class=\"timeshare\"><thead><tr><th>time share</th><th>of "
       << escapeHtml(formatDuration(S.WallNs)) << "</th></tr></thead><tbody>\n";
    for (const auto &[Label, Ns] : Rows)
      OS << "<tr><td>" << escapeHtml(Label) << "</td><td>"
         << escapeHtml(detail::formatShare(static_cast<double>(Ns) / static_cast<double>(S.WallNs)))
         << " (" << escapeHtml(formatDuration(Ns)) << ")</td></tr>\n";
    OS << "</tbody></table>\n";
  }

  void printErrors() {
    OS << "<section class=\"errors\">\n<h2>Input errors</h2>\n<ul>\n";
    for (const InputError &E : Ctx.Errors) {
      OS << "<li>";
      if (!E.File.empty())
        OS << "<code>" << escapeHtml(detail::displayPath(E.File, Root)) << "</code>: ";
      OS << escapeHtml(E.Message) << "</li>\n";
    }
    OS << "</ul>\n</section>\n";
  }

  static void printSeverity(raw_ostream &OS, Severity S) {
    OS << "<span class=\"sev " << severityName(S) << "\">" << severityName(S) << "</span>";
  }

  void printTable(ArrayRef<const Finding *> Order) {
    bool Ranked = Ctx.Summary || llvm::any_of(Order, [](const Finding *F) { return F->Ranking; });
    // The bar: the finding's share of the total estimated saving (which
    // counts records that several findings share once).
    uint64_t TotalSaving = Ctx.Summary ? Ctx.Summary->TotalSavingNs : 0;
    for (const Finding *F : Order)
      if (detail::isRanked(*F))
        TotalSaving = std::max(TotalSaving, F->Ranking->SavingNs);
    OS << "<table class=\"findings\">\n<thead><tr><th>#</th><th>severity</th><th>finding</th>"
       << "<th>location</th>";
    if (Ranked)
      OS << "<th>measured</th><th>estimated saving</th>";
    OS << "</tr></thead>\n<tbody>\n";
    for (size_t I = 0; I < Order.size(); ++I) {
      const Finding &F = *Order[I];
      std::string Where = detail::locationText(detail::primaryLocation(F), Root);
      int32_t Marks = highlightOf(F);
      OS << "<tr";
      if (Marks >= 0)
        OS << " data-finding=\"" << Marks << "\"";
      OS << "><td class=\"num\"><a href=\"#f" << I + 1 << "\">" << I + 1 << "</a></td><td>";
      printSeverity(OS, F.Level);
      OS << "</td><td>" << escapeHtml(F.Message) << " <code>[" << escapeHtml(F.CheckId)
         << "]</code>";
      if (Marks >= 0)
        OS << " <a class=\"tl-show\" href=\"#timeline\" data-finding=\"" << Marks
           << "\" title=\"highlight its records on the timeline\">timeline</a>";
      OS << "</td><td>";
      if (Where.empty())
        OS << "<span class=\"muted\">no source location</span>";
      else
        OS << "<code>" << escapeHtml(Where) << "</code>";
      OS << "</td>";
      if (Ranked) {
        auto [Measured, Saving] = detail::costColumns(F);
        OS << "<td>" << escapeHtml(Measured) << "</td><td class=\"num\">" << escapeHtml(Saving);
        if (detail::isRanked(F) && TotalSaving) {
          double Share = static_cast<double>(F.Ranking->SavingNs) / static_cast<double>(TotalSaving);
          OS << "<span class=\"bar\" style=\"width:" << format("%.0f", 100 * Share)
             << "%\" title=\"" << escapeHtml(detail::formatShare(Share))
             << " of the total estimated saving\"></span>";
        }
        OS << "</td>";
      }
      OS << "</tr>\n";
    }
    OS << "</tbody>\n</table>\n";
  }

  /// Lines [First, Last] of File with line numbers; the bytes of Mark (on
  /// its lines) inside <mark>.
  void printLines(StringRef File, unsigned First, unsigned Last, const SourceRange *Mark) {
    std::string Body;
    for (unsigned L = First; L <= Last; ++L) {
      std::optional<StringRef> Line = Sources.line(File, L);
      if (!Line)
        break;
      size_t From = 0, To = 0;
      if (Mark && Mark->Begin.Line <= L && L <= Mark->End.Line) {
        auto Byte = [](unsigned Column) { return Column ? Column - 1 : 0; };
        From = L == Mark->Begin.Line ? Byte(Mark->Begin.Column) : 0;
        To = L == Mark->End.Line ? Byte(Mark->End.Column) : Line->size();
        From = std::min(From, Line->size());
        To = std::min(std::max(To, From), Line->size());
      }
      std::string Number = std::to_string(L);
      Body += "<span class=\"ln\">" + std::string(Number.size() < 5 ? 5 - Number.size() : 0, ' ') +
              Number + "  </span>";
      if (From < To)
        Body += escapeHtml(Line->substr(0, From)) + "<mark>" + escapeHtml(Line->slice(From, To)) +
                "</mark>" + escapeHtml(Line->substr(To));
      else
        Body += escapeHtml(*Line);
      Body += "\n";
    }
    if (!Body.empty())
      OS << "<pre class=\"snippet\"><code>" << Body << "</code></pre>\n";
  }

  void printSnippet(const Finding &F, const SourceLocation &Loc) {
    std::optional<SourceRange> Mark;
    unsigned First = Loc.Line, Last = Loc.Line;
    if (F.Loc.isValid() && F.Range.isValid() && F.Range.Begin.File == Loc.File &&
        F.Range.End.File == Loc.File && F.Range.Begin.Line <= Loc.Line &&
        Loc.Line <= F.Range.End.Line) {
      Mark = F.Range;
      First = F.Range.Begin.Line;
      Last = std::min(F.Range.End.Line, First + MaxSnippetLines - 1);
    }
    printLines(Loc.File, First, Last, Mark ? &*Mark : nullptr);
  }

  void printFix(const Finding &F) {
    std::vector<detail::FixHunk> Hunks = detail::fixHunks(F, Sources);
    OS << "<h3>Suggested fix</h3>\n";
    if (Hunks.empty()) {
      OS << "<ul>\n";
      for (const FixIt &Fix : F.Fixes)
        OS << "<li><code>" << escapeHtml(detail::locationText(Fix.Range.Begin, Root))
           << "</code>: replace with <code>" << escapeHtml(Fix.Replacement) << "</code></li>\n";
      OS << "</ul>\n";
      return;
    }
    for (const detail::FixHunk &H : Hunks) {
      OS << "<pre class=\"diff\"><code>";
      for (const std::string &L : H.Before)
        OS << "<span class=\"del\">- " << escapeHtml(L) << "</span>";
      for (const std::string &L : H.After)
        OS << "<span class=\"ins\">+ " << escapeHtml(L) << "</span>";
      OS << "</code></pre>\n";
    }
  }

  void printFinding(size_t N, const Finding &F) {
    SourceLocation Loc = detail::primaryLocation(F);
    OS << "<section class=\"finding\" id=\"f" << N << "\">\n<h2>" << N << ". ";
    printSeverity(OS, F.Level);
    OS << " " << escapeHtml(F.Message) << " <code>[" << escapeHtml(F.CheckId) << "]</code></h2>\n";
    if (Loc.isValid()) {
      OS << "<p><code>" << escapeHtml(detail::locationText(Loc, Root)) << "</code></p>\n";
      printSnippet(F, Loc);
    } else {
      OS << "<p class=\"muted\">No source location (found in the profile).</p>\n";
    }
    if (detail::isRanked(F)) {
      auto [Measured, Saving] = detail::costColumns(F);
      OS << "<p><strong>Measured:</strong> " << escapeHtml(Measured)
         << "; <strong>estimated saving:</strong> " << escapeHtml(Saving);
      if (!F.Ranking->Method.empty())
        OS << " <span class=\"muted\">(" << escapeHtml(F.Ranking->Method) << ")</span>";
      int32_t Marks = highlightOf(F);
      if (Marks >= 0)
        OS << " <a class=\"tl-show\" href=\"#timeline\" data-finding=\"" << Marks
           << "\">show its records on the timeline</a>";
      OS << "</p>\n";
    } else if (F.Ranking || Ctx.Summary) {
      OS << "<p class=\"muted\">Not seen in the profile.</p>\n";
    }
    if (!F.Notes.empty()) {
      OS << "<ul class=\"notes\">\n";
      for (const FindingNote &Note : F.Notes) {
        OS << "<li><span class=\"sev note\">note</span>: " << escapeHtml(Note.Message);
        if (Note.Loc.isValid()) {
          OS << " at <code>" << escapeHtml(detail::locationText(Note.Loc, Root)) << "</code>";
          printLines(Note.Loc.File, Note.Loc.Line, Note.Loc.Line, nullptr);
        }
        OS << "</li>\n";
      }
      OS << "</ul>\n";
    }
    if (!F.Fixes.empty())
      printFix(F);
    OS << "</section>\n";
  }

  /// The finding's marks on the timeline (TimelineChart::Findings), or -1.
  int32_t highlightOf(const Finding &F) const {
    if (!Timeline || !F.Ranking || !Timeline->hasMarks(F.Ranking->Highlight))
      return -1;
    return F.Ranking->Highlight;
  }

  raw_ostream &OS;
  const ReportContext &Ctx;
  std::string Root;
  detail::SourceCache Sources;
  std::optional<detail::HtmlTimeline> Timeline;
};

} // namespace

void emitHtml(raw_ostream &OS, ArrayRef<Finding> Findings, const ReportContext &Ctx) {
  HtmlEmitter(OS, Ctx).run(Findings);
}

} // namespace cuda_advisor::report
