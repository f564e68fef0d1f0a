//===- LspCommand.h - The `lsp` subcommand ---------------------*- C++ -*-===//
#ifndef CUDA_ADVISOR_DRIVER_LSPCOMMAND_H
#define CUDA_ADVISOR_DRIVER_LSPCOMMAND_H

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace cuda_advisor::driver {

/// What `cuda-advisor lsp [options] [-- FLAGS]` was given.
struct LspOptions {
  std::string CompileCommandsDir;
  std::optional<std::vector<std::string>> FixedFlags; ///< After "--".
  std::vector<std::string> ExtraArgs, ExtraArgsBefore;
  std::string Checks;
  std::string ConfigFile;
  std::string ConfigFilePath; ///< --config-file.
  std::string CudaPath;
  bool DevicePass = false;
  unsigned Jobs = 0;
  std::vector<std::string> Profiles;
  std::vector<std::string> BinaryPaths;
  std::string DocsUrl;
};

/// Adds the `lsp` subcommand and its options to App.
CLI::App *addLspCommand(CLI::App &App, LspOptions &Opts);

/// Serves LSP on stdin/stdout; returns the exit code.
int runLsp(const LspOptions &Opts, const char *Argv0);

} // namespace cuda_advisor::driver

#endif
