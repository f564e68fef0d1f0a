//===- ConfigFiles.h - .cuda-advisor.yaml, as .clang-tidy works -*- C++ -*-===//
//
// The configuration of each source file, built as clang-tidy's
// FileOptionsProvider builds it: the defaults, then every .cuda-advisor.yaml
// from the file system's root down to the file's directory (a nearer file
// overrides the keys it sets), or instead of those files --config-file and
// --config (inline YAML); then the command line (--checks is appended to the
// configuration's Checks, --header-filter and --fail-on replace theirs).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CORE_CONFIGFILES_H
#define CUDA_ADVISOR_CORE_CONFIGFILES_H

#include "cuda-advisor/Core/Config.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace cuda_advisor {

/// loadConfigFile's reading of YAML text (--config); Name stands for the
/// file in messages.
llvm::Expected<Config> loadConfigText(llvm::StringRef Text, llvm::StringRef Name, Config Base);

/// The name of the per-directory configuration file.
inline constexpr const char *ConfigFileName = ".cuda-advisor.yaml";

struct CommandLineConfig {
  std::string ConfigFile;   ///< --config-file PATH.
  std::string InlineConfig; ///< --config YAML.
  std::string Checks;       ///< --checks, appended.
  std::string HeaderFilter; ///< --header-filter, replaces.
  bool SystemHeaders = false; ///< --system-headers: sets SystemHeaders.
  std::optional<Severity> FailOn;
};

class ConfigProvider {
public:
  explicit ConfigProvider(CommandLineConfig CommandLine) : CommandLine(std::move(CommandLine)) {}

  /// The configuration for a source file (absolute path), or for a
  /// directory's files when Path is a directory. Errors name the file.
  llvm::Expected<Config> configFor(llvm::StringRef Path);
  /// The configuration files that configFor(Path) read, outermost first.
  std::vector<std::string> filesFor(llvm::StringRef Path);

private:
  llvm::Expected<Config> forDirectory(llvm::StringRef Dir);
  llvm::Error applyCommandLine(Config &C) const;

  CommandLineConfig CommandLine;
  llvm::StringMap<Config> ByDirectory; ///< Files only, before the command line.
};

} // namespace cuda_advisor

#endif
