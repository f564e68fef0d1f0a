//===- Chart.h - The timeline picture of a profile -------------*- C++ -*-===//
//
// Builds the TimelineChart (Core/TimelineChart.h) that the HTML report draws:
// one panel per process, a row per host thread that called CUDA and one per
// GPU stream, the records as bars, the GPU's idle gaps, and per finding the
// stretches of its records. Each panel gets the finest resolution (a power of
// two times finer than one column at the default zoom, at most MaxZoom) at
// which its bars stay within its share of BarBudget; records shorter than
// that resolution and closer together than it become one density bar, so a
// run of 10^5 records is drawn with at most a few thousand bars per panel.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_RANK_CHART_H
#define CUDA_ADVISOR_RANK_CHART_H

#include "cuda-advisor/Core/TimelineChart.h"
#include "cuda-advisor/Rank/Timeline.h"
#include "llvm/ADT/ArrayRef.h"

#include <map>
#include <vector>

namespace cuda_advisor::rank {

struct ChartOptions {
  unsigned Columns = 960;   ///< Plot width at the default zoom, in pixels.
  size_t BarBudget = 12000; ///< Bars of all panels together (each gets at least MinPanelBars).
  size_t MinPanelBars = 2500;
  unsigned MaxZoom = 1024;  ///< Finest resolution: one column / MaxZoom.
  unsigned MaxPanels = 32;  ///< Processes shown; the rest are counted.
  unsigned MaxHostRows = 8; ///< Host threads beyond are merged into the last host row.
  unsigned MaxGpuRows = 32; ///< Streams beyond are merged into the last GPU row.
};

class ChartBuilder {
public:
  ChartBuilder(const ProfileIndex &Index, const ChartOptions &Opts = ChartOptions());

  /// Adds the stretches of a finding's records (API calls with the GPU work
  /// they created, kernels with the calls that launched them) and returns
  /// their index in chart().Findings, or -1 when none of them is drawn.
  int32_t addFinding(llvm::ArrayRef<size_t> Calls, llvm::ArrayRef<size_t> Kernels);

  const TimelineChart &chart() const { return Chart; }
  TimelineChart take() { return std::move(Chart); }

private:
  /// Where a record is drawn: panel and row, or Panel == NoPanel.
  struct Place {
    uint32_t Panel = NoPanel, Row = 0;
  };
  static constexpr uint32_t NoPanel = ~0u;
  struct ProcessRecords;

  void addPanel(profile::ProcessIndex Proc, const ProcessRecords &Records, size_t Budget);
  void place(const Place &Where, const Interval &I,
             std::map<std::pair<uint32_t, uint32_t>, std::vector<Interval>> &Out) const;

  const ProfileIndex &Index;
  ChartOptions Opts;
  TimelineChart Chart;
  std::vector<Place> CallPlace, KernelPlace, CopyPlace, MemsetPlace;
};

} // namespace cuda_advisor::rank

#endif
