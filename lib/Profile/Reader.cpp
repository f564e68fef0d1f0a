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
  if (H.starts_with("{") && (Head.contains("\"traceEvents\"") || Head.contains("\"schemaVersion\"")))
    return Format::Kineto;
  if (Head.contains("\"ID\",\"Process ID\"") || Head.contains("\"ID\",\"Process ID\",") ||
      (Head.contains("==PROF==") && Head.contains("\"ID\"")))
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
  return createStringError(inconvertibleErrorCode(),
                           "%s: not a profile format cuda-advisor reads (expected a "
                           "cuda-advisor profile, a torch.profiler Chrome trace or an "
                           "Nsight Compute CSV)",
                           Path.str().c_str());
}

} // namespace cuda_advisor::profile
