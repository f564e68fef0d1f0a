//===- Reader.cpp - Format detection and dispatch --------------------------===//
#include "cuda-advisor/Profile/Reader.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <zlib.h>

using namespace llvm;

namespace cuda_advisor::profile {

const char *formatName(Format F) {
  switch (F) {
  case Format::Native:
    return "cuda-advisor profile";
  case Format::Kineto:
    return "torch.profiler (Kineto) Chrome trace";
  case Format::NcuCsv:
    return "Nsight Compute CSV";
  case Format::Unknown:
    break;
  }
  return "unknown";
}

namespace {

/// Inflates a gzip file (torch.profiler's tensorboard_trace_handler writes
/// `.pt.trace.json.gz` with use_gzip=True); several members are concatenated.
Expected<std::string> gunzip(StringRef Path, StringRef Data) {
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
  return Format::Unknown;
}

Expected<Profile> readProfile(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError(Buf.getError(), "%s: cannot read profile: %s",
                             Path.str().c_str(), Buf.getError().message().c_str());
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
                             "%s: the profile is empty (expected a cuda-advisor profile, a "
                             "torch.profiler Chrome trace or an Nsight Compute CSV)",
                             Path.str().c_str());
  switch (detectFormat(Contents.take_front(4096))) {
  case Format::Native:
    return readNativeProfile(Path, Contents);
  case Format::Kineto:
    return readKinetoTrace(Path, Contents);
  case Format::NcuCsv:
    return readNcuCsv(Path, Contents);
  case Format::Unknown:
    break;
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
                           "%s: %s (expected a cuda-advisor profile, a torch.profiler Chrome "
                           "trace or an Nsight Compute CSV)",
                           Path.str().c_str(), Kind.str().c_str());
}

} // namespace cuda_advisor::profile
