//===- Record.h - `cuda-advisor record -- PROGRAM ARGS...` -----*- C++ -*-===//
//
// Runs a program with the CUPTI collector injected (CUDA_INJECTION64_PATH) and
// leaves its profile behind. Plain C++ and POSIX: builds without LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_DRIVER_RECORD_H
#define CUDA_ADVISOR_DRIVER_RECORD_H

#include <string>
#include <vector>

namespace cuda_advisor::driver {

struct RecordOptions {
  std::string Output;            ///< -o; empty: derived from the program name.
  bool Force = false;            ///< Overwrite an existing output file.
  std::string CollectorPath;     ///< --collector; empty: next to the tool.
  std::vector<std::string> Program; ///< PROGRAM ARGS...
  bool Verbose = false;
  bool NoStacks = false;         ///< --no-stacks: skip host call stacks.
};

/// Returns the program's exit code (128 + signal if it died by a signal), or
/// 2 with a message on stderr when the program could not be run.
int runRecord(const RecordOptions &Opts, const char *Argv0);

} // namespace cuda_advisor::driver

#endif
