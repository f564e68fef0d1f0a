//===- HtmlTimeline.h - The HTML report's timeline (private to lib/Report) -*- C++ -*-===//
//
// Draws a TimelineChart as inline SVG: per panel (process) a row of labels,
// a time axis, the GPUs' idle gaps shaded, the bars of each row coloured by
// kind (density bars paler the sparser their records), and per finding a
// hidden group of marks over its records. Each rectangle has its exact time
// (data-t, data-d: ns from the panel's start) and its pixels in the first
// view (x, width), which the script recomputes for each view it zooms or
// pans to. docs/output-formats.md describes the page.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_LIB_REPORT_HTMLTIMELINE_H
#define CUDA_ADVISOR_LIB_REPORT_HTMLTIMELINE_H

#include "cuda-advisor/Core/TimelineChart.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace cuda_advisor::report::detail {

class HtmlTimeline {
public:
  HtmlTimeline(const TimelineChart &Chart, llvm::StringRef Root) : Chart(Chart), Root(Root) {}

  /// The CSS of the timeline (colours of the kinds, layout).
  static std::string style();
  /// <section id="timeline">: legend, one panel per process.
  void writeSection(llvm::raw_ostream &OS);
  /// The tooltip element and the script, with the tooltips of the bars
  /// written by writeSection. Last in <body>.
  void writeScript(llvm::raw_ostream &OS) const;
  /// Whether finding Highlight (Cost::Highlight) has records on the chart.
  bool hasMarks(int32_t Highlight) const {
    return Highlight >= 0 && static_cast<size_t>(Highlight) < Chart.Findings.size() &&
           !Chart.Findings[static_cast<size_t>(Highlight)].empty();
  }

private:
  void writePanel(llvm::raw_ostream &OS, size_t Index);
  unsigned intern(std::string Text);

  const TimelineChart &Chart;
  std::string Root;
  std::vector<std::string> Strings;
  llvm::StringMap<unsigned> StringIds;
};

} // namespace cuda_advisor::report::detail

#endif
