//===- TimelineChart.h - What the HTML report's timeline draws -*- C++ -*-===//
//
// The timeline picture of a profiled run as plain data, built by the Rank
// layer (Rank/Chart.h) from a profile and handed to the report, which draws
// it without reading any profile: per process a panel of rows (the host's
// CUDA calls per thread, then one row per GPU stream), bars of records
// coloured by kind, the GPU's idle gaps, and per ranked finding the stretches
// of its records. Records narrower than the panel's resolution are already
// aggregated into density bars, so that the size of the chart is bounded by
// its columns, not by the number of records.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CORE_TIMELINECHART_H
#define CUDA_ADVISOR_CORE_TIMELINECHART_H

#include "cuda-advisor/Core/SourceLocation.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cuda_advisor {

/// What a bar stands for (its colour). A density bar has the kind of most of
/// its time.
enum class BarKind : uint8_t {
  Kernel,
  CopyHtoD,
  CopyDtoH,
  CopyDtoD,
  CopyOther, ///< Host to host, peer, arrays, unknown.
  Memset,
  ApiLaunch,
  ApiTransfer, ///< cudaMemcpy*, cudaMemset*.
  ApiSync,
  ApiMemory, ///< Allocation and release.
  ApiOther,
};

/// One bar of a row. Times are nanoseconds from the panel's start.
struct TimelineBar {
  uint64_t Start = 0, End = 0;
  BarKind Kind = BarKind::Kernel;
  /// 1: one record. More: a density bar for Count records, each narrower
  /// than the panel's resolution, none further apart than it.
  uint32_t Count = 1;
  /// The time covered by the records (a density bar's records leave gaps).
  uint64_t BusyNs = 0;
  /// The record's name ("relax_step(float const*, float*, int)", "HtoD 4 MiB
  /// pageable to device", "cudaMemcpy"); for a density bar, its most frequent
  /// names with their counts ("900x relax_step(...), 100x cudaMemcpy").
  std::string Label;
  /// The user's call site of the API call (that launched the work); invalid
  /// when unknown or, for a density bar, when its records come from
  /// several sites (SiteCount says how many).
  SourceLocation Site;
  uint32_t SiteCount = 0;
};

struct TimelineRow {
  std::string Label; ///< "host", "host thread 2", "GPU 0 stream 7".
  bool Host = false;
  uint32_t Device = 0; ///< GPU rows.
  std::vector<TimelineBar> Bars; ///< By start.
};

/// A stretch with no kernel, copy or memset running on one GPU.
struct TimelineGap {
  uint32_t Device = 0;
  uint64_t Start = 0, End = 0;
};

/// One process of the run, on its own time axis.
struct TimelinePanel {
  std::string Title;    ///< The command line.
  uint32_t Pid = 0;
  std::string Profile;  ///< The file it was read from.
  uint64_t Origin = 0;  ///< Absolute time (ns) of offset 0.
  uint64_t Span = 0;    ///< Length of the panel in ns.
  /// The view shown first: the stretch of GPU work with a margin (CUDA's
  /// start-up and the program's own set-up can take most of a short run),
  /// or the whole span.
  uint64_t ViewStart = 0, ViewEnd = 0;
  /// Bars shorter than this are aggregated (the first view's length over
  /// the chart's columns, divided by the zoom factor that stays faithful).
  uint64_t ResolutionNs = 1;
  uint64_t Records = 0; ///< Records drawn, aggregated or not.
  std::vector<TimelineRow> Rows;
  /// Only gaps that fill a column of the first view.
  std::vector<TimelineGap> Idle;
  /// Rows and records left out (more streams than a panel shows are merged
  /// into its last row; this counts the streams merged).
  unsigned MergedStreams = 0;
};

/// Where a finding's records are: per row, their stretches merged at the
/// panel's resolution.
struct TimelineMark {
  uint32_t Panel = 0, Row = 0;
  uint64_t Start = 0, End = 0;
};

struct TimelineChart {
  /// Plot width in pixels at the default zoom (what ResolutionNs is based on).
  unsigned Columns = 0;
  std::vector<TimelinePanel> Panels;
  /// Indexed by Cost::Highlight.
  std::vector<std::vector<TimelineMark>> Findings;
  unsigned OmittedPanels = 0; ///< Processes beyond the most the chart shows.
};

} // namespace cuda_advisor

#endif
