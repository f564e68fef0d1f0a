//===- Server.h - `cuda-advisor lsp`: a language server -------*- C++ -*-===//
//
// The Language Server Protocol over a byte stream (stdio): JSON-RPC messages
// framed with Content-Length headers. Open, changed and saved documents are
// analyzed on a worker pool with their unsaved text; findings become
// diagnostics, fix-its code actions, and a profile's cost shows in hover.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_LSP_SERVER_H
#define CUDA_ADVISOR_LSP_SERVER_H

#include "cuda-advisor/Core/Config.h"
#include "cuda-advisor/Core/ConfigFiles.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cuda_advisor::profile {
struct Profile;
}

namespace cuda_advisor::lsp {

struct ServerOptions {
  /// --config, --config-file, --checks: each buffer's configuration is
  /// ConfigProvider(CommandLine).configFor(its path), read at each analysis
  /// (the .cuda-advisor.yaml files above it unless a configuration is given).
  CommandLineConfig CommandLine;
  /// --compile-commands-dir; empty: searched from each file as clangd does.
  std::string CompileCommandsDir;
  std::optional<std::vector<std::string>> FixedFlags; ///< "-- FLAGS".
  std::vector<std::string> ExtraArgs, ExtraArgsBefore;
  std::string ResourceDir;
  std::string CudaPath;
  bool DevicePass = false;
  unsigned Jobs = 0; ///< Worker threads; 0: all cores.
  /// Diagnostics link to DocsBaseUri + "<check-id>.md"; empty: the installed
  /// page (DocsDir/<id>.md) as a file:// URI when it exists.
  std::string DocsBaseUri;
  std::string DocsDir;
  /// Read once at start-up (--profile); ranks every file's findings.
  std::shared_ptr<const profile::Profile> Profile;
};

/// Serves LSP requests read from In until `exit` or the end of In, writing
/// responses and notifications to Out and a log to Log. Returns the exit
/// code: 0 after `shutdown` then `exit`, 1 otherwise (as the protocol says).
int runServer(const ServerOptions &Opts, std::FILE *In, llvm::raw_ostream &Out,
              llvm::raw_ostream &Log);

} // namespace cuda_advisor::lsp

#endif
