//===- NcuReader.cpp - Nsight Compute CSV (--csv, raw and details pages) --===//
//
// `ncu --csv --page raw` prints one row per profiled launch after a header row
// (metric names) and a units row; `ncu --csv --page details` (the default)
// prints one row per metric, with "Section Name", "Metric Name", "Metric Unit"
// and "Metric Value" columns, grouped by the launch "ID" (rule results fill
// "Rule Name"... and leave the metric columns empty). Both begin with the
// launch columns "ID", "Process ID", "Process Name", "Host Name", "Kernel Name"
// (demangled, with parameter types), "Context", "Stream", "Block Size" and
// "Grid Size" ("(256, 1, 1)"), "Device", "CC". Numbers may carry thousands
// separators; ncu's own log lines (==PROF==) may come first.
//
// Each launch becomes one KernelMetrics; the metrics the cost model uses are
// normalized into its named fields, every numeric metric is kept in Values.
//
//===----------------------------------------------------------------------===//
#include "Csv.h"
#include "cuda-advisor/Profile/Reader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace llvm;

namespace cuda_advisor::profile {
namespace {

Error fail(StringRef Path, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), "%s: %s", Path.str().c_str(),
                           Message.str().c_str());
}

/// Multiplier from ncu's unit to nanoseconds, or 0 when Unit is not a time.
double timeScale(StringRef Unit) {
  return StringSwitch<double>(Unit.trim())
      .Cases("nsecond", "ns", 1)
      .Cases("usecond", "us", 1e3)
      .Cases("msecond", "ms", 1e6)
      .Cases("second", "s", 1e9)
      .Default(0);
}

/// Multiplier from ncu's unit to bytes (ncu's Kbyte is 1000 bytes).
double byteScale(StringRef Unit) {
  return StringSwitch<double>(Unit.trim())
      .Cases("byte", "B", 1)
      .Cases("Kbyte", "KB", 1e3)
      .Cases("Mbyte", "MB", 1e6)
      .Cases("Gbyte", "GB", 1e9)
      .Case("KiB", 1024)
      .Case("MiB", 1024.0 * 1024)
      .Default(1);
}

/// Stores one metric's value in its named field when the cost model uses it.
/// Both the raw metric names and the details page's display names are known.
void applyMetric(KernelMetrics &M, StringRef Name, StringRef Unit, double V) {
  M.Values.emplace(Name.str(), V);
  if (Name == "gpu__time_duration.sum" || Name == "Duration") {
    double Scale = timeScale(Unit);
    M.DurationNs = static_cast<uint64_t>(V * (Scale ? Scale : 1));
  } else if (Name == "launch__registers_per_thread" || Name == "Registers Per Thread") {
    M.RegistersPerThread = static_cast<uint32_t>(V);
  } else if (Name == "launch__shared_mem_per_block_static" ||
             Name == "Static Shared Memory Per Block") {
    M.StaticSharedMem = static_cast<uint32_t>(V * byteScale(Unit));
  } else if (Name == "launch__shared_mem_per_block_dynamic" ||
             Name == "Dynamic Shared Memory Per Block") {
    M.DynamicSharedMem = static_cast<uint32_t>(V * byteScale(Unit));
  } else if (Name == "sm__warps_active.avg.pct_of_peak_sustained_active" ||
             Name == "Achieved Occupancy") {
    M.AchievedOccupancyPct = V;
  } else if (Name == "sm__maximum_warps_per_active_cycle_pct" ||
             Name == "Theoretical Occupancy") {
    M.TheoreticalOccupancyPct = V;
  } else if (Name == "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct") {
    M.GlobalLoadEfficiencyPct = V;
  } else if (Name == "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct") {
    M.GlobalStoreEfficiencyPct = V;
  } else if (Name == "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio") {
    M.SectorsPerRequestLoad = V;
  } else if (Name == "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio") {
    M.SectorsPerRequestStore = V;
  } else if (Name == "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") {
    M.SharedBankConflictsLoad = V;
  } else if (Name == "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum") {
    M.SharedBankConflictsStore = V;
  } else if (Name == "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") {
    M.SharedWavefrontsLoad = V;
  } else if (Name == "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum") {
    M.SharedWavefrontsStore = V;
  } else if (Name == "smsp__inst_executed_op_shared_ld.sum" ||
             Name == "l1tex__t_requests_pipe_lsu_mem_shared_op_ld.sum") {
    M.SharedRequestsLoad = V;
  } else if (Name == "smsp__inst_executed_op_shared_st.sum" ||
             Name == "l1tex__t_requests_pipe_lsu_mem_shared_op_st.sum") {
    M.SharedRequestsStore = V;
  }
}

/// Derived figures: sectors per request from the two sums when ncu was not
/// asked for the ratio.
void finishMetrics(KernelMetrics &M) {
  auto Ratio = [&](StringRef Num, StringRef Den, std::optional<double> &Out) {
    if (Out)
      return;
    auto N = M.Values.find(Num.str()), D = M.Values.find(Den.str());
    if (N != M.Values.end() && D != M.Values.end() && D->second > 0)
      Out = N->second / D->second;
  };
  Ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", M.SectorsPerRequestLoad);
  Ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", M.SectorsPerRequestStore);
}

class NcuReader {
public:
  explicit NcuReader(StringRef Path) : Path(Path) {}
  Expected<Profile> read(StringRef Contents);

private:
  /// Column index by name, or -1.
  int column(StringRef Name) const {
    auto It = Columns.find(Name);
    return It == Columns.end() ? -1 : static_cast<int>(It->second);
  }
  StringRef field(const csv::Row &R, StringRef Name) const {
    int C = column(Name);
    return C >= 0 && static_cast<size_t>(C) < R.Fields.size() ? StringRef(R.Fields[C])
                                                               : StringRef();
  }
  /// Fills the launch columns of M from R.
  void readLaunch(const csv::Row &R, KernelMetrics &M);
  Error readRaw(ArrayRef<csv::Row> Rows);
  Error readDetails(ArrayRef<csv::Row> Rows);
  Error checkWidth(const csv::Row &R) const;

  StringRef Path;
  Profile P;
  StringMap<size_t> Columns;
  std::vector<std::string> Header;
  size_t FixedColumns = 0; ///< Columns up to and including "CC" (or "Grid Size").
};

void NcuReader::readLaunch(const csv::Row &R, KernelMetrics &M) {
  M.Name = field(R, "Kernel Name").str();
  if (std::optional<double> Id = csv::parseNumber(field(R, "ID")))
    M.LaunchId = static_cast<uint64_t>(*Id);
  if (std::optional<double> S = csv::parseNumber(field(R, "Stream")))
    M.Stream = static_cast<uint32_t>(*S);
  if (std::optional<double> D = csv::parseNumber(field(R, "Device")))
    M.Device = static_cast<uint32_t>(*D);
  csv::parseDim3(field(R, "Block Size"), M.Block.data());
  csv::parseDim3(field(R, "Grid Size"), M.Grid.data());
  auto [Major, Minor] = field(R, "CC").split('.');
  Major.trim().getAsInteger(10, M.ComputeMajor);
  Minor.trim().getAsInteger(10, M.ComputeMinor);
  if (P.Processes.empty()) {
    Process Proc;
    if (std::optional<double> Pid = csv::parseNumber(field(R, "Process ID")))
      Proc.Pid = static_cast<uint32_t>(*Pid);
    Proc.Command = field(R, "Process Name").str();
    Proc.SourceFile = Path.str();
    Proc.Format = "ncu-csv";
    P.Processes.push_back(std::move(Proc));
  }
}

Error NcuReader::checkWidth(const csv::Row &R) const {
  if (R.Fields.size() == Header.size())
    return Error::success();
  return fail(Path, formatv("line {0}: a row of {1} fields under a header of {2} (the file is "
                            "truncated or not one ncu CSV table)",
                            R.Line, R.Fields.size(), Header.size()));
}

Error NcuReader::readRaw(ArrayRef<csv::Row> Rows) {
  // The units row follows the header: its launch columns are empty.
  std::vector<std::string> Units(Header.size());
  if (!Rows.empty() && !Rows.front().Fields.empty() && Rows.front().Fields[0].empty()) {
    if (Error E = checkWidth(Rows.front()))
      return E;
    Units = Rows.front().Fields;
    Rows = Rows.drop_front();
  }
  for (const csv::Row &R : Rows) {
    if (Error E = checkWidth(R))
      return E;
    KernelMetrics M;
    readLaunch(R, M);
    for (size_t C = FixedColumns; C < Header.size(); ++C)
      if (std::optional<double> V = csv::parseNumber(R.Fields[C]))
        applyMetric(M, Header[C], Units[C], *V);
    finishMetrics(M);
    P.Metrics.push_back(std::move(M));
  }
  return Error::success();
}

Error NcuReader::readDetails(ArrayRef<csv::Row> Rows) {
  int NameCol = column("Metric Name"), UnitCol = column("Metric Unit"),
      ValueCol = column("Metric Value");
  std::map<uint64_t, size_t> ById; // Launch ID -> index in P.Metrics.
  for (const csv::Row &R : Rows) {
    if (Error E = checkWidth(R))
      return E;
    std::optional<double> Id = csv::parseNumber(field(R, "ID"));
    if (!Id)
      return fail(Path, formatv("line {0}: a row without a launch ID", R.Line));
    auto [It, New] = ById.try_emplace(static_cast<uint64_t>(*Id), P.Metrics.size());
    if (New) {
      P.Metrics.emplace_back();
      readLaunch(R, P.Metrics.back());
    }
    KernelMetrics &M = P.Metrics[It->second];
    StringRef Name = R.Fields[NameCol];
    if (Name.empty())
      continue; // A rule result.
    if (std::optional<double> V = csv::parseNumber(R.Fields[ValueCol]))
      applyMetric(M, Name, R.Fields[UnitCol], *V);
  }
  for (KernelMetrics &M : P.Metrics)
    finishMetrics(M);
  return Error::success();
}

Expected<Profile> NcuReader::read(StringRef Contents) {
  // The program's own output and ncu's log lines come before the table.
  size_t Start = 0, SkippedLines = 0;
  std::vector<std::string> Log;
  for (StringRef Rest = Contents; !Rest.empty();) {
    auto [Line, Next] = Rest.split('\n');
    if (Line.starts_with("\"ID\","))
      break;
    if (Line.starts_with("=="))
      Log.push_back(Line.rtrim('\r').str());
    Start += Line.size() + 1;
    ++SkippedLines;
    Rest = Next;
  }
  std::vector<csv::Row> Rows;
  if (!csv::parse(Contents.drop_front(std::min(Start, Contents.size())), Rows, Log,
                  SkippedLines + 1))
    return fail(Path, "the CSV ends inside a quoted field: the file is truncated");
  size_t HeaderRow = 0;
  while (HeaderRow < Rows.size() &&
         !(Rows[HeaderRow].Fields.size() > 1 && Rows[HeaderRow].Fields[0] == "ID" &&
           is_contained(Rows[HeaderRow].Fields, "Kernel Name")))
    ++HeaderRow;
  if (HeaderRow == Rows.size()) {
    if (!Log.empty()) {
      std::string Last = Log.back();
      for (const std::string &L : Log)
        if (StringRef(L).starts_with("==ERROR==") || StringRef(L).starts_with("==WARNING=="))
          Last = L;
      return fail(Path, "Nsight Compute output without a CSV table (ncu needs --csv; its last "
                        "message: " + Last + ")");
    }
    return fail(Path, "a CSV file that is not Nsight Compute output (expected a header row "
                      "starting \"ID\",\"Process ID\" with a \"Kernel Name\" column)");
  }
  Header = Rows[HeaderRow].Fields;
  for (size_t I = 0; I < Header.size(); ++I)
    Columns.try_emplace(Header[I], I);
  int Last = std::max(column("CC"), column("Grid Size"));
  FixedColumns = static_cast<size_t>(std::max(Last, column("Kernel Name")) + 1);
  // ncu quotes every field of its rows: an unquoted line under the header is
  // the program's own output, printed to the same stream (`ncu --csv ./app >
  // out.csv` without --log-file).
  std::vector<csv::Row> Kept;
  size_t Foreign = 0;
  for (csv::Row &R : MutableArrayRef(Rows).drop_front(HeaderRow + 1)) {
    if (R.Quoted)
      Kept.push_back(std::move(R));
    else
      ++Foreign;
  }
  ArrayRef<csv::Row> Body = Kept;
  bool Details = column("Metric Name") >= 0 && column("Metric Value") >= 0 &&
                 column("Metric Unit") >= 0;
  if (Error E = Details ? readDetails(Body) : readRaw(Body))
    return Expected<Profile>(std::move(E));
  if (P.Metrics.empty())
    return fail(Path, "an Nsight Compute CSV header without any kernel row (the file is "
                      "truncated, or ncu profiled no kernel)");
  if (Foreign && !P.Processes.empty())
    P.Processes.front().Warnings.push_back(
        formatv("{0}: {1} {2} among the table's rows {3} not ncu rows (the program's own "
                "output?) and {4} skipped",
                Path, Foreign, Foreign == 1 ? "line" : "lines", Foreign == 1 ? "is" : "are",
                Foreign == 1 ? "was" : "were")
            .str());
  return std::move(P);
}

} // namespace

Expected<Profile> readNcuCsv(StringRef Path, StringRef Contents) {
  return NcuReader(Path).read(Contents);
}

} // namespace cuda_advisor::profile
