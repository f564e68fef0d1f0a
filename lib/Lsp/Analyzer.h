//===- Analyzer.h - Analyzing one editor buffer ----------------*- C++ -*-===//
#ifndef CUDA_ADVISOR_LSP_ANALYZER_H
#define CUDA_ADVISOR_LSP_ANALYZER_H

#include "cuda-advisor/Core/Finding.h"
#include "cuda-advisor/Lsp/Server.h"

#include <atomic>
#include <string>
#include <vector>

namespace cuda_advisor::lsp {

struct BufferResult {
  bool Cancelled = false;        ///< A newer version came: drop this one.
  std::vector<Finding> Findings; ///< Those located in the buffer's file, ranked with a profile.
  std::string Problem;           ///< Why nothing could be analyzed; empty when it could.
  std::string CompilerErrors;    ///< Clang's errors (the findings are what it recovered).
  std::vector<std::string> Messages;
  std::string CompileCommandsDir; ///< Where the command came from; empty: none.
};

/// Parses Text as the contents of Path (absolute) with Path's compile
/// command and runs the enabled checks. Stops soon after Cancel is set.
BufferResult analyzeBuffer(const ServerOptions &Opts, const std::string &Path,
                           const std::string &Text, const std::atomic<bool> &Cancel);

} // namespace cuda_advisor::lsp

#endif
