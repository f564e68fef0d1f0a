//===- Reader.cpp - Format detection and dispatch --------------------------===//
#include "cuda-advisor/Profile/Reader.h"
#include "Sqlite.h"

#include "cuda-advisor/Core/FileIO.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <zlib.h>

using namespace llvm;

namespace cuda_advisor::profile {

// Private to lib/Profile: NsysReader.cpp, NvprofReader.cpp.
Expected<Profile> readNsysSqlite(sqlite::Database &Db);
Expected<Profile> readNvprofDatabase(sqlite::Database &Db);

namespace {

/// Inflates a gzip file (torch.profiler's tensorboard_trace_handler writes
/// `.pt.trace.json.gz` with use_gzip=True); several members are concatenated.
/// The inflated text is bounded in proportion to the file: deflate cannot
/// compress more than 1032:1, so anything past that is not a real trace.
Expected<std::string> gunzip(StringRef Path, StringRef Data) {
  const uint64_t Limit = std::min<uint64_t>(MaxInputBytes, uint64_t(Data.size()) * 1032 + 4096);
  std::string Out;
  z_stream Z{};
  if (inflateInit2(&Z, 15 + 16) != Z_OK)
    return createStringError(inconvertibleErrorCode(), "%s: cannot start zlib",
                             Path.str().c_str());
  Z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(Data.data()));
  // avail_in is 32 bits wide: a file past 4 GiB is fed in parts.
  size_t Left = Data.size();
  auto Feed = [&] {
    uInt N = static_cast<uInt>(std::min<size_t>(Left, 1u << 30));
    Z.avail_in = N;
    Left -= N;
  };
  Feed();
  char Chunk[1 << 16];
  int Rc = Z_OK;
  while (true) {
    if (Z.avail_in == 0 && Left)
      Feed();
    Z.next_out = reinterpret_cast<Bytef *>(Chunk);
    Z.avail_out = sizeof(Chunk);
    Rc = inflate(&Z, Z_NO_FLUSH);
    Out.append(Chunk, sizeof(Chunk) - Z.avail_out);
    if (Out.size() > Limit) {
      inflateEnd(&Z);
      return createStringError(inconvertibleErrorCode(),
                               "%s: the gzip-compressed data inflates to more than %llu bytes, "
                               "more than deflate can compress this file",
                               Path.str().c_str(), static_cast<unsigned long long>(Limit));
    }
    if (Rc == Z_STREAM_END) {
      if (Z.avail_in == 0 && !Left)
        break;
      if (inflateReset(&Z) != Z_OK)
        break;
      continue;
    }
    if (Rc != Z_OK)
      break;
    if (Z.avail_in == 0 && !Left && Z.avail_out != 0) {
      Rc = Z_BUF_ERROR;
      break;
    }
  }
  inflateEnd(&Z);
  if (Rc != Z_STREAM_END)
    return createStringError(inconvertibleErrorCode(),
                             "%s: the gzip-compressed data is %s after %zu bytes", Path.str().c_str(),
                             static_cast<const char *>(Rc == Z_BUF_ERROR ? "cut off" : "corrupt"),
                             Out.size());
  return Out;
}

} // namespace

Format detectFormat(StringRef Head) {
  if (Head.starts_with(sqlite::Magic))
    return Format::Sqlite;
  // .nsys-rep and the older .qdrep start with this text, then protobuf.
  if (Head.starts_with("NVIDIA Tegra Profiler Report") ||
      Head.starts_with("NVIDIA Nsight Systems Report"))
    return Format::NsysReport;
  StringRef H = Head.ltrim();
  if (H.starts_with("{\"format\":\"cuda-advisor-profile\"") ||
      H.starts_with("{\"format\": \"cuda-advisor-profile\""))
    return Format::Native;
  // Kineto writes "schemaVersion" and "deviceProperties" before "traceEvents";
  // plain Chrome traces may begin with "traceEvents".
  if (H.starts_with("{") && (H.contains("\"traceEvents\"") || H.contains("\"schemaVersion\"") ||
                             H.contains("\"deviceProperties\"")))
    return Format::Kineto;
  // The Chrome trace format's other form: a bare array of events.
  if (H.starts_with("[") && H.drop_front().ltrim().starts_with("{") && H.contains("\"ph\"") &&
      H.contains("\"ts\""))
    return Format::Kineto;
  // Nsight Compute: its log lines, then (or only) the table's header.
  if (H.starts_with("\"ID\",\"Process ID\"") || H.contains("\n\"ID\",\"Process ID\"") ||
      H.starts_with("==PROF==") || H.contains("\n==PROF=="))
    return Format::NcuCsv;
  // nvprof: "==1234== ..." log lines, "======== Profiling result:", then the
  // table; with --log-file or a redirect, maybe only the table.
  if (H.starts_with("\"Start\",\"Duration\"") || H.contains("\n\"Start\",\"Duration\"") ||
      H.starts_with("======== ") || (H.starts_with("==") && H.contains("== NVPROF is profiling")))
    return Format::NvprofCsv;
  return Format::Unknown;
}

Expected<Profile> readSqliteProfile(StringRef Path) {
  Expected<std::unique_ptr<sqlite::Database>> Db = sqlite::Database::open(Path);
  if (!Db)
    return Db.takeError();
  sqlite::Database &D = **Db;
  bool CuptiTables = any_of(D.tables(), [](const std::string &T) {
    return StringRef(T).starts_with("CUPTI_ACTIVITY_KIND_");
  });
  if (D.hasTable("StringIds") &&
      (CuptiTables || D.hasTable("TARGET_INFO_GPU") || D.hasTable("ANALYSIS_DETAILS") ||
       D.hasTable("TARGET_INFO_SESSION_START_TIME")))
    return readNsysSqlite(D);
  if (D.hasTable("StringTable") && CuptiTables)
    return readNvprofDatabase(D);
  return createStringError(inconvertibleErrorCode(),
                           "%s: an SQLite database that is neither an Nsight Systems export (no "
                           "StringIds table) nor an nvprof profile (no StringTable and "
                           "CUPTI_ACTIVITY_KIND_* tables)",
                           Path.str().c_str());
}

/// The formats readProfile reads, for its messages.
static const char *const KnownFormats =
    "a cuda-advisor profile, a torch.profiler Chrome trace, an Nsight Compute CSV, an Nsight "
    "Systems SQLite export, an nvprof database or nvprof's --csv --print-gpu-trace output";

Expected<Profile> readProfile(StringRef Path) {
  auto Buf = readInputFile(Path, "profile");
  if (!Buf)
    return Buf.takeError();
  StringRef Contents = (*Buf)->getBuffer();
  std::string Inflated;
  if (Contents.starts_with("\x1f\x8b")) {
    Expected<std::string> Text = gunzip(Path, Contents);
    if (!Text)
      return Text.takeError();
    Inflated = std::move(*Text);
    Contents = Inflated;
  }
  if (Contents.trim().empty())
    return createStringError(inconvertibleErrorCode(),
                             "%s: the profile is empty (expected %s)",
                             Path.str().c_str(), KnownFormats);
  std::optional<Expected<Profile>> Read;
  switch (detectFormat(Contents.take_front(4096))) {
  case Format::Sqlite:
    Read.emplace(readSqliteProfile(Path));
    break;
  case Format::NsysReport: {
    // The command that writes what we read, for this very file.
    SmallString<128> Out(Path);
    sys::path::replace_extension(Out, ".sqlite");
    return createStringError(
        inconvertibleErrorCode(),
        "%s: an Nsight Systems report, which only Nsight Systems reads; export it to SQLite "
        "and pass that file instead: `nsys export --type sqlite -o %s %s`",
        Path.str().c_str(), Out.c_str(), Path.str().c_str());
  }
  case Format::NvprofCsv:
    Read.emplace(readNvprofCsv(Path, Contents));
    break;
  case Format::Native:
    Read.emplace(readNativeProfile(Path, Contents));
    break;
  case Format::Kineto:
    Read.emplace(readKinetoTrace(Path, Contents));
    break;
  case Format::NcuCsv:
    Read.emplace(readNcuCsv(Path, Contents));
    break;
  case Format::Unknown:
    break;
  }
  if (Read) {
    if (*Read)
      dropImpossibleRecords(**Read);
    return std::move(*Read);
  }
  StringRef Kind = "not a profile format cuda-advisor reads";
  if (Contents.take_front(4096).contains('\0'))
    Kind = "a binary file, not a profile cuda-advisor reads (for an Nsight Compute report, "
           "read `ncu --import FILE.ncu-rep --csv --page raw > FILE.csv` instead)";
  else if (Contents.ltrim().starts_with("{") || Contents.ltrim().starts_with("["))
    Kind = "a JSON document that is not a profile";
  else if (Contents.take_front(4096).contains(','))
    Kind = "a CSV or text file that is not a profile";
  return createStringError(inconvertibleErrorCode(),
                           "%s: %s (expected %s)", Path.str().c_str(), Kind.str().c_str(),
                           KnownFormats);
}

} // namespace cuda_advisor::profile
