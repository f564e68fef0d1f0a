//===- ConfigOptions.cpp - The configuration of a run ----------------------===//
#include "cuda-advisor/Driver/ConfigOptions.h"
#include "cuda-advisor/Core/ConfigFiles.h"
#include "cuda-advisor/Driver/Analyze.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace cuda_advisor::driver {
namespace {

Error fail(const Twine &Why) { return createStringError(inconvertibleErrorCode(), Why); }

std::string absolutePath(StringRef P) {
  SmallString<256> Abs(P);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return Abs.str().str();
}

/// --config names a file in older command lines ("--config cfg.yaml"); YAML
/// always has a ':' or a '{' (clang-tidy's --config takes only YAML).
bool looksLikePath(StringRef Value) {
  return !Value.contains(':') && !Value.contains('{') && !Value.contains('\n');
}

Error checkHeaderFilter(const Config &C, StringRef Where) {
  if (C.HeaderFilter.empty())
    return Error::success();
  std::string Why;
  if (!Regex(C.HeaderFilter).isValid(Why))
    return fail(Where + "'" + C.HeaderFilter + "' is not a valid regex: " + Why);
  return Error::success();
}

} // namespace

const Config &RunConfigs::forFile(const std::string &File) const {
  auto It = PerFile.find(File);
  return It == PerFile.end() ? Global : It->second;
}

Expected<CommandLineConfig> commandLineConfig(StringRef Config, StringRef ConfigFile,
                                              StringRef Checks) {
  CommandLineConfig CL;
  CL.ConfigFile = ConfigFile.str();
  if (!Config.empty()) {
    if (looksLikePath(Config)) {
      if (!CL.ConfigFile.empty())
        return fail("--config names a file and --config-file another: give one");
      CL.ConfigFile = Config.str();
    } else {
      CL.InlineConfig = Config.str();
    }
  }
  CL.Checks = Checks.str();
  return CL;
}

Expected<RunConfigs> loadRunConfigs(const AnalyzeOptions &Opts,
                                    const std::vector<std::string> &Sources) {
  Expected<CommandLineConfig> Given =
      commandLineConfig(Opts.ConfigFile, Opts.ConfigFilePath, Opts.Checks);
  if (!Given)
    return Given.takeError();
  CommandLineConfig CL = std::move(*Given);
  CL.HeaderFilter = Opts.HeaderFilter;
  CL.SystemHeaders = Opts.SystemHeaders;
  if (Opts.FailOn) {
    auto S = parseSeverity(*Opts.FailOn);
    if (!S)
      return fail("--fail-on must be note, warning or error, not '" + *Opts.FailOn + "'");
    CL.FailOn = *S;
  }
  if (!Opts.HeaderFilter.empty()) {
    Config Probe;
    Probe.HeaderFilter = Opts.HeaderFilter;
    if (Error E = checkHeaderFilter(Probe, "--header-filter "))
      return E;
  }
  ConfigProvider Provider(CL);
  RunConfigs Out;
  SmallString<256> Cwd;
  if (sys::fs::current_path(Cwd))
    Cwd = ".";
  Expected<Config> Global = Provider.configFor(Cwd);
  if (!Global)
    return Global.takeError();
  Out.Global = std::move(*Global);
  if (Error E = checkHeaderFilter(Out.Global, "HeaderFilter "))
    return E;
  for (const std::string &S : Sources) {
    std::string Abs = absolutePath(S);
    Expected<Config> C = Provider.configFor(Abs);
    if (!C)
      return C.takeError();
    std::vector<std::string> Files = Provider.filesFor(Abs);
    if (Error E = checkHeaderFilter(
            *C, (Files.empty() ? std::string() : Files.back() + ": ") + "HeaderFilter "))
      return E;
    Out.PerFile.emplace(Abs, std::move(*C));
  }
  return Out;
}

} // namespace cuda_advisor::driver
