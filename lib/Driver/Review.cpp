//===- Review.cpp - --line-filter and --diff -------------------------------===//
#include "cuda-advisor/Driver/Review.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cuda_advisor::driver {

Expected<std::optional<LineFilter>> loadReviewFilter(const std::string &LineFilterJson,
                                                     const std::string &DiffPath) {
  if (!LineFilterJson.empty() && !DiffPath.empty())
    return createStringError(inconvertibleErrorCode(),
                             "--line-filter and --diff cannot be used together");
  if (!LineFilterJson.empty()) {
    auto F = LineFilter::fromJson(LineFilterJson);
    if (!F)
      return F.takeError();
    return std::optional<LineFilter>(std::move(*F));
  }
  if (DiffPath.empty())
    return std::nullopt;
  auto Buf = DiffPath == "-" ? MemoryBuffer::getSTDIN() : MemoryBuffer::getFile(DiffPath);
  if (!Buf)
    return createStringError(Buf.getError(), "%s: cannot read the diff: %s",
                             DiffPath == "-" ? "<stdin>" : DiffPath.c_str(),
                             Buf.getError().message().c_str());
  auto F = LineFilter::fromUnifiedDiff((*Buf)->getBuffer());
  if (!F)
    return createStringError(inconvertibleErrorCode(), "%s: %s",
                             DiffPath == "-" ? "<stdin>" : DiffPath.c_str(),
                             toString(F.takeError()).c_str());
  return std::optional<LineFilter>(std::move(*F));
}

std::string findSourceRoot(const std::string &Given) {
  SmallString<256> Dir(Given);
  if (!Dir.empty()) {
    sys::fs::make_absolute(Dir);
    sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
    return Dir.str().str();
  }
  if (sys::fs::current_path(Dir))
    return "";
  while (!Dir.empty()) {
    SmallString<256> Git(Dir);
    sys::path::append(Git, ".git"); // A directory, or a file in worktrees.
    if (sys::fs::exists(Git))
      return Dir.str().str();
    StringRef Parent = sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir.resize(Parent.size()); // The parent is a prefix of Dir.
  }
  return "";
}

} // namespace cuda_advisor::driver
