//===- ConfigOptions.h - The configuration of a run ------------*- C++ -*-===//
#ifndef CUDA_ADVISOR_DRIVER_CONFIGOPTIONS_H
#define CUDA_ADVISOR_DRIVER_CONFIGOPTIONS_H

#include "cuda-advisor/Core/Config.h"
#include "cuda-advisor/Core/ConfigFiles.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace cuda_advisor::driver {

struct AnalyzeOptions;

/// The configuration of each source (its .cuda-advisor.yaml files, or
/// --config-file/--config, then the command line) and of the run itself (the
/// same for the current directory: --list-checks, --dump-config, --fail-on,
/// the runtime rules).
struct RunConfigs {
  Config Global;
  std::map<std::string, Config> PerFile; ///< By absolute, normalized path.
  /// The configuration of File (absolute, normalized); Global if unknown.
  const Config &forFile(const std::string &File) const;
};

/// --config (YAML text, or a file name as older command lines gave it),
/// --config-file and --checks, as the analysis and lsp commands take them.
llvm::Expected<CommandLineConfig> commandLineConfig(llvm::StringRef Config,
                                                    llvm::StringRef ConfigFile,
                                                    llvm::StringRef Checks);

/// Fails with one message naming the file (or the option) and the reason.
llvm::Expected<RunConfigs> loadRunConfigs(const AnalyzeOptions &Opts,
                                          const std::vector<std::string> &Sources);

} // namespace cuda_advisor::driver

#endif
