//===- ConfigFiles.cpp - .cuda-advisor.yaml, as .clang-tidy works ----------===//
#include "cuda-advisor/Core/ConfigFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cuda_advisor {

Expected<Config> ConfigProvider::forDirectory(StringRef Dir) {
  auto Cached = ByDirectory.find(Dir);
  if (Cached != ByDirectory.end())
    return Cached->second;
  Config Base;
  StringRef Parent = sys::path::parent_path(Dir);
  if (!Parent.empty() && Parent != Dir) {
    Expected<Config> Outer = forDirectory(Parent);
    if (!Outer)
      return Outer.takeError();
    Base = std::move(*Outer);
  }
  SmallString<256> File(Dir);
  sys::path::append(File, ConfigFileName);
  if (sys::fs::is_regular_file(File)) {
    Expected<Config> Here = loadConfigFile(File, std::move(Base));
    if (!Here)
      return Here.takeError();
    Base = std::move(*Here);
  }
  ByDirectory[Dir] = Base;
  return Base;
}

Error ConfigProvider::applyCommandLine(Config &C) const {
  if (!CommandLine.Checks.empty())
    C.Checks = C.Checks.empty() ? CommandLine.Checks : C.Checks + "," + CommandLine.Checks;
  if (!CommandLine.HeaderFilter.empty())
    C.HeaderFilter = CommandLine.HeaderFilter;
  if (CommandLine.SystemHeaders)
    C.SystemHeaders = true;
  if (CommandLine.FailOn)
    C.FailOn = *CommandLine.FailOn;
  return Error::success();
}

Expected<Config> ConfigProvider::configFor(StringRef Path) {
  Config C;
  if (!CommandLine.ConfigFile.empty() || !CommandLine.InlineConfig.empty()) {
    // As clang-tidy: a configuration given on the command line replaces the
    // files found in the directories.
    if (!CommandLine.ConfigFile.empty()) {
      Expected<Config> F = loadConfigFile(CommandLine.ConfigFile, C);
      if (!F)
        return F.takeError();
      C = std::move(*F);
    }
    if (!CommandLine.InlineConfig.empty()) {
      Expected<Config> I = loadConfigText(CommandLine.InlineConfig, "--config", C);
      if (!I)
        return I.takeError();
      C = std::move(*I);
    }
  } else {
    SmallString<256> Dir(Path);
    sys::fs::make_absolute(Dir);
    sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
    if (!sys::fs::is_directory(Dir))
      sys::path::remove_filename(Dir);
    Expected<Config> F = forDirectory(Dir);
    if (!F)
      return F.takeError();
    C = std::move(*F);
  }
  if (Error E = applyCommandLine(C))
    return E;
  return C;
}

std::vector<std::string> ConfigProvider::filesFor(StringRef Path) {
  std::vector<std::string> Files;
  if (!CommandLine.ConfigFile.empty() || !CommandLine.InlineConfig.empty()) {
    if (!CommandLine.ConfigFile.empty())
      Files.push_back(CommandLine.ConfigFile);
    return Files;
  }
  SmallString<256> Dir(Path);
  sys::fs::make_absolute(Dir);
  if (!sys::fs::is_directory(Dir))
    sys::path::remove_filename(Dir);
  for (StringRef D = Dir; !D.empty(); D = sys::path::parent_path(D)) {
    SmallString<256> File(D);
    sys::path::append(File, ConfigFileName);
    if (sys::fs::is_regular_file(File))
      Files.insert(Files.begin(), File.str().str());
    if (sys::path::parent_path(D) == D)
      break;
  }
  return Files;
}

} // namespace cuda_advisor
