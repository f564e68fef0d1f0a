//===- Reader.cpp - Format detection and dispatch --------------------------===//
#include "cuda-advisor/Profile/Reader.h"

#include "llvm/Support/MemoryBuffer.h"

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
  if (Contents.starts_with("\x1f\x8b"))
    Kind = "a gzip-compressed file (decompress it first, e.g. with gunzip)";
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
