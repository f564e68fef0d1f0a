//===- HtmlTimeline.cpp - The HTML report's timeline ----------------------===//
#include "HtmlTimeline.h"
#include "ReportUtil.h"
#include "cuda-advisor/Core/Units.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <map>
#include <set>

using namespace llvm;

namespace cuda_advisor::report::detail {
namespace {

constexpr unsigned LabelWidth = 170; ///< Row labels, left of the plot.
constexpr unsigned AxisHeight = 22;  ///< Tick labels, above the rows.
constexpr unsigned RowHeight = 20;

struct KindStyle {
  BarKind Kind;
  const char *Class;
  const char *Color;
  const char *Legend;
};

/// Colours: kernels blue, copies by direction, host calls by what they do
/// (synchronization red); distinct for the common colour-vision deficiencies
/// within each group (Tableau 10).
constexpr KindStyle Kinds[] = {
    {BarKind::Kernel, "k", "#4e79a7", "kernel"},
    {BarKind::CopyHtoD, "h2d", "#f28e2b", "copy HtoD"},
    {BarKind::CopyDtoH, "d2h", "#b07aa1", "copy DtoH"},
    {BarKind::CopyDtoD, "d2d", "#9c755f", "copy DtoD"},
    {BarKind::CopyOther, "cp", "#ff9da7", "other copy"},
    {BarKind::Memset, "ms", "#76b7b2", "memset"},
    {BarKind::ApiLaunch, "al", "#59a14f", "launch call"},
    {BarKind::ApiTransfer, "at", "#edc948", "copy/memset call"},
    {BarKind::ApiSync, "as", "#e15759", "synchronizing call"},
    {BarKind::ApiMemory, "am", "#8c6d9e", "alloc/free call"},
    {BarKind::ApiOther, "ao", "#bab0ac", "other CUDA call"},
};

const KindStyle &styleOf(BarKind K) {
  for (const KindStyle &S : Kinds)
    if (S.Kind == K)
      return S;
  return Kinds[0];
}

/// Density classes: d1 under a quarter busy ... none from three quarters.
const char *densityClass(const TimelineBar &B) {
  uint64_t Length = B.End > B.Start ? B.End - B.Start : 0;
  if (B.Count <= 1 || Length == 0)
    return "";
  double Busy = static_cast<double>(B.BusyNs) / static_cast<double>(Length);
  return Busy < 0.25 ? " d1" : Busy < 0.5 ? " d2" : Busy < 0.75 ? " d3" : "";
}

constexpr const char *Css = R"css(
section.timeline { margin: 1rem 0 2rem; }
.tl-legend { display: flex; flex-wrap: wrap; gap: .2rem 1rem; font-size: 13px; margin: .25rem 0 .5rem; }
.tl-legend .sw { display: inline-block; width: .9rem; height: .7rem; margin-right: .3rem;
                 border-radius: 2px; vertical-align: baseline; }
.tl-legend .sw.idle { background: #8c959f; opacity: .35; }
.tl-legend .sw.dens { background: #4e79a7; opacity: .35; }
.tl-panel { margin: .6rem 0 1rem; }
.tl-head { display: flex; flex-wrap: wrap; gap: .2rem .7rem; align-items: baseline; font-size: 13px;
           margin-bottom: .2rem; }
.tl-head strong { font-weight: 600; overflow-wrap: anywhere; }
.tl-head button { font: inherit; line-height: 1.2; padding: 0 .45rem; margin-right: .15rem;
                  border: 1px solid #d1d9e0; background: #f6f8fa; border-radius: 4px; cursor: pointer; }
svg.tl { display: block; width: 100%; height: auto; border: 1px solid #d1d9e0; border-radius: 4px;
         cursor: grab; user-select: none; touch-action: none;
         font: 12px system-ui, -apple-system, "Segoe UI", sans-serif; }
.tl-stripes rect { fill: #f6f8fa; }
.tl-labels text { fill: #1f2328; }
.tl-labels text.gpu { font-weight: 600; }
.tl-sep { stroke: #afb8c1; stroke-width: 1; }
.tl-axis text { fill: #59636e; text-anchor: middle; font-size: 11px; }
.tl-axis line { stroke: #d8dee4; stroke-width: 1; }
.tl-row rect { y: 3px; height: 14px; shape-rendering: crispEdges; }
.tl-row rect.d1 { fill-opacity: .3; } .tl-row rect.d2 { fill-opacity: .5; }
.tl-row rect.d3 { fill-opacity: .7; }
.tl-idle rect { fill: #8c959f; fill-opacity: .28; shape-rendering: crispEdges; }
.tl-mark { display: none; }
.tl-mark.on { display: inline; }
.tl-mark rect { height: 18px; fill: #ffd33d; stroke: #cf222e; stroke-width: 2px; }
svg.tl.hl .tl-row rect:not(.lit) { opacity: .25; }
#tl-tip { position: fixed; z-index: 10; max-width: 40rem; padding: .3rem .55rem; font-size: 12px;
          background: #fff; border: 1px solid #d1d9e0; border-radius: 4px;
          box-shadow: 0 2px 8px rgba(31, 35, 40, .15); pointer-events: none; }
#tl-tip .tl-tip-name { font-weight: 600; overflow-wrap: anywhere; }
tr[data-finding] { cursor: pointer; }
tr.sel td { background: #fff8c5; }
a.tl-show { font-size: 12px; white-space: nowrap; }
)css";

/// Where a stretch of time is drawn in a view: pixels from the plot's left
/// edge (clamped a little outside it), at least one pixel wide when it is
/// in view; the script computes the same for every view.
struct Geometry {
  double Scale;    ///< Pixels per ns.
  uint64_t From;   ///< The view's start.
  unsigned Columns;

  /// " x=.. width=.. data-t=.. data-d=.." of the stretch [Start, End].
  std::string span(uint64_t Start, uint64_t End) const {
    End = std::max(Start, End);
    auto Px = [&](uint64_t T) {
      double X = (static_cast<double>(T) - static_cast<double>(From)) * Scale;
      return LabelWidth + std::clamp(X, -10.0, Columns + 10.0);
    };
    double X0 = Px(Start), X1 = Px(End);
    double W = X1 - X0;
    if (X1 >= LabelWidth - 5 && X0 <= LabelWidth + Columns + 5)
      W = std::max(W, 1.0);
    std::string S;
    raw_string_ostream(S) << " x=\"" << format("%.1f", X0) << "\" width=\"" << format("%.1f", W)
                          << "\" data-t=\"" << Start << "\" data-d=\"" << End - Start << "\"";
    return S;
  }
};

} // namespace

std::string HtmlTimeline::style() {
  std::string S = Css;
  for (const KindStyle &K : Kinds) {
    S += std::string(".tl-row rect.") + K.Class + " { fill: " + K.Color + "; }\n";
    S += std::string(".tl-legend .sw.") + K.Class + " { background: " + K.Color + "; }\n";
  }
  return S;
}

unsigned HtmlTimeline::intern(std::string Text) {
  auto [It, New] = StringIds.try_emplace(Text, static_cast<unsigned>(Strings.size()));
  if (New)
    Strings.push_back(std::move(Text));
  return It->second;
}

void HtmlTimeline::writeSection(raw_ostream &OS) {
  size_t Bars = 0;
  std::set<BarKind> Present;
  bool Dense = false, Idle = false;
  for (const TimelinePanel &P : Chart.Panels) {
    Idle |= !P.Idle.empty();
    for (const TimelineRow &R : P.Rows) {
      Bars += R.Bars.size();
      for (const TimelineBar &B : R.Bars) {
        Present.insert(B.Kind);
        Dense |= B.Count > 1;
      }
    }
  }
  OS << "<section class=\"timeline\" id=\"timeline\" data-panels=\"" << Chart.Panels.size()
     << "\" data-bars=\"" << Bars << "\" data-bars-in-view=\"" << Bars << "\" data-label-width=\""
     << LabelWidth << "\" data-plot-width=\"" << Chart.Columns << "\" data-axis-height=\""
     << AxisHeight << "\">\n<h2>Timeline</h2>\n"
     << "<p class=\"muted\">One row for each host thread's CUDA calls and one for each GPU "
        "stream; shaded: the GPU idle. Scroll over a panel to zoom, drag to pan, double-click "
        "to reset; hover a bar for its name, time and call site; click a finding in the table "
        "to highlight its records.</p>\n<p class=\"tl-legend\">";
  for (const KindStyle &K : Kinds)
    if (Present.count(K.Kind))
      OS << "<span><i class=\"sw " << K.Class << "\"></i>" << K.Legend << "</span>";
  if (Idle)
    OS << "<span><i class=\"sw idle\"></i>GPU idle</span>";
  if (Dense)
    OS << "<span><i class=\"sw dens\"></i>records too short to draw one by one, together "
          "(paler: sparser)</span>";
  OS << "</p>\n";
  for (size_t I = 0; I < Chart.Panels.size(); ++I)
    writePanel(OS, I);
  if (Chart.OmittedPanels)
    OS << "<p class=\"muted\">" << Chart.OmittedPanels
       << (Chart.OmittedPanels == 1 ? " more process is" : " more processes are")
       << " not drawn.</p>\n";
  OS << "</section>\n";
}

void HtmlTimeline::writePanel(raw_ostream &OS, size_t Index) {
  const TimelinePanel &P = Chart.Panels[Index];
  unsigned Width = LabelWidth + Chart.Columns;
  unsigned Height = AxisHeight + static_cast<unsigned>(P.Rows.size()) * RowHeight + 2;
  uint64_t ViewStart = P.ViewStart, ViewEnd = std::max(P.ViewEnd, P.ViewStart + 1);
  size_t Bars = 0, InView = 0;
  for (const TimelineRow &R : P.Rows) {
    Bars += R.Bars.size();
    InView += llvm::count_if(
        R.Bars, [&](const TimelineBar &B) { return B.Start <= ViewEnd && B.End >= ViewStart; });
  }
  bool Whole = ViewStart == 0 && ViewEnd >= P.Span;

  OS << "<div class=\"tl-panel\" id=\"tl-p" << Index << "\" data-span=\"" << P.Span
     << "\" data-view-start=\"" << ViewStart << "\" data-view-end=\"" << ViewEnd
     << "\" data-rows=\"" << P.Rows.size() << "\" data-bars=\"" << Bars
     << "\" data-bars-in-view=\"" << InView << "\">\n<div class=\"tl-head\"><strong>"
     << escapeHtml(P.Title.empty() ? "process " + std::to_string(P.Pid) : P.Title)
     << "</strong><span class=\"muted\">pid " << P.Pid;
  if (!P.Profile.empty())
    OS << " &middot; " << escapeHtml(displayPath(P.Profile, Root));
  OS << " &middot; " << escapeHtml(formatDuration(P.Span)) << " &middot; " << P.Records
     << (P.Records == 1 ? " record" : " records");
  if (P.MergedStreams)
    OS << " &middot; " << P.MergedStreams << " quieter streams share the last row";
  OS << "</span><span class=\"tl-tools\"><button type=\"button\" data-zoom=\"out\" "
        "title=\"zoom out\">&minus;</button><button type=\"button\" data-zoom=\"in\" "
        "title=\"zoom in\">+</button>";
  if (!Whole)
    OS << "<button type=\"button\" data-zoom=\"home\" title=\"from the first to the last GPU "
          "work (double-click)\">GPU work</button>";
  OS << "<button type=\"button\" data-zoom=\"all\" title=\"the whole run, CUDA's start-up "
        "included\">whole run</button></span><span class=\"tl-status muted\"></span></div>\n";

  OS << "<svg class=\"tl\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << Width << " "
     << Height << "\" data-height=\"" << Height << "\" role=\"img\" aria-label=\"timeline of "
     << escapeHtml(P.Title) << "\">\n<defs><clipPath id=\"tl-clip" << Index << "\"><rect x=\""
     << LabelWidth << "\" y=\"0\" width=\"" << Chart.Columns << "\" height=\"" << Height
     << "\"/></clipPath></defs>\n<g class=\"tl-stripes\">";
  auto RowTop = [](size_t Row) { return AxisHeight + static_cast<unsigned>(Row) * RowHeight; };
  for (size_t R = 1; R < P.Rows.size(); R += 2)
    OS << "<rect x=\"0\" y=\"" << RowTop(R) << "\" width=\"" << Width << "\" height=\""
       << RowHeight << "\"/>";
  OS << "</g>\n<g class=\"tl-axis\"></g>\n<g class=\"tl-labels\">";
  for (size_t R = 0; R < P.Rows.size(); ++R)
    OS << "<text x=\"6\" y=\"" << RowTop(R) + 14 << "\"" << (P.Rows[R].Host ? "" : " class=\"gpu\"")
       << ">" << escapeHtml(P.Rows[R].Label) << "</text>";
  OS << "</g>\n";
  for (size_t R = 1; R < P.Rows.size(); ++R)
    if (P.Rows[R - 1].Host && !P.Rows[R].Host)
      OS << "<line class=\"tl-sep\" x1=\"0\" x2=\"" << Width << "\" y1=\"" << RowTop(R)
         << "\" y2=\"" << RowTop(R) << "\"/>\n";

  // Horizontal geometry in pixels of the first view; data-t and data-d keep
  // the exact times (ns from the panel's start), from which the script
  // places the bars again in each view. (Browsers lay out SVG lengths in
  // single precision and clamp them near 2^25: nanoseconds cannot be the
  // user units of a run longer than 33 ms.)
  Geometry Geo{static_cast<double>(Chart.Columns) / static_cast<double>(ViewEnd - ViewStart),
               ViewStart, Chart.Columns};
  OS << "<g clip-path=\"url(#tl-clip" << Index << ")\"><g class=\"tl-view\">\n";

  // The idle gaps, over the rows of their GPU.
  OS << "<g class=\"tl-idle\">";
  for (const TimelineGap &G : P.Idle) {
    std::optional<size_t> First, Last;
    for (size_t R = 0; R < P.Rows.size(); ++R)
      if (!P.Rows[R].Host && P.Rows[R].Device == G.Device) {
        First = First ? *First : R;
        Last = R;
      }
    if (!First)
      continue;
    OS << "<rect" << Geo.span(G.Start, G.End) << " y=\"" << RowTop(*First) << "\" height=\""
       << (*Last - *First + 1) * RowHeight << "\" data-n=\""
       << intern("GPU " + std::to_string(G.Device) + " idle") << "\"/>";
  }
  OS << "</g>\n";

  // The findings' records, shown (under the bars) when a finding is
  // clicked: grouped by row, only their times (the script places them).
  for (size_t F = 0; F < Chart.Findings.size(); ++F) {
    std::optional<uint32_t> Row;
    for (const TimelineMark &M : Chart.Findings[F]) {
      if (M.Panel != Index || M.Row >= P.Rows.size())
        continue;
      if (!Row)
        OS << "<g class=\"tl-mark\" data-finding=\"" << F << "\">";
      if (Row != M.Row)
        OS << (Row ? "</g>" : "") << "<g data-row=\"" << M.Row << "\" transform=\"translate(0,"
           << RowTop(M.Row) + 1 << ")\">";
      Row = M.Row;
      OS << "<rect data-t=\"" << M.Start << "\" data-d=\"" << std::max(M.Start, M.End) - M.Start
         << "\"/>";
    }
    if (Row)
      OS << "</g></g>\n";
  }
  for (size_t R = 0; R < P.Rows.size(); ++R) {
    const TimelineRow &Row = P.Rows[R];
    OS << "<g class=\"tl-row\" data-row=\"" << R << "\" data-bars=\"" << Row.Bars.size()
       << "\" transform=\"translate(0," << RowTop(R) << ")\">";
    for (const TimelineBar &B : Row.Bars) {
      std::string Text = B.Label;
      if (B.Site.isValid())
        Text += "\n" + displayPath(B.Site.File, Root) + ":" + std::to_string(B.Site.Line);
      else if (B.SiteCount > 1)
        Text += "\nfrom " + std::to_string(B.SiteCount) + " call sites";
      OS << "<rect class=\"" << styleOf(B.Kind).Class << densityClass(B) << "\""
         << Geo.span(B.Start, B.End) << " data-n=\"" << intern(std::move(Text)) << "\"";
      if (B.Count > 1)
        OS << " data-c=\"" << B.Count << "\" data-b=\"" << B.BusyNs << "\"";
      OS << "/>";
    }
    OS << "</g>\n";
  }

  OS << "</g></g>\n</svg>\n</div>\n";
}

void HtmlTimeline::writeScript(raw_ostream &OS) const {
  static const char Script[] =
#include "TimelineScript.inc"
      ;
  std::string Table;
  raw_string_ostream TableOS(Table);
  json::OStream J(TableOS);
  J.array([&] {
    for (const std::string &S : Strings)
      J.value(json::isUTF8(S) ? S : json::fixUTF8(S));
  });
  // Nothing in the table may end the script element.
  std::string Safe;
  for (char C : Table) {
    if (C == '<')
      Safe += "\\u003c";
    else
      Safe += C;
  }
  OS << "<div id=\"tl-tip\" hidden></div>\n<script>\n" << Script << "(" << Safe << ");\n</script>\n";
}

} // namespace cuda_advisor::report::detail
