//===- Driver.h - The cuda-advisor command line ----------------*- C++ -*-===//
#ifndef CUDA_ADVISOR_DRIVER_DRIVER_H
#define CUDA_ADVISOR_DRIVER_DRIVER_H

namespace cuda_advisor::driver {

/// Exit codes (shared/DESIGN.md).
enum ExitCode : int {
  ExitClean = 0,    ///< No finding at or above the failing severity.
  ExitFindings = 1, ///< Findings at or above the failing severity.
  ExitInputError = 2 ///< Usage or input error (a message names the file and reason).
};

/// Runs `cuda-advisor ARGS...` and returns the process exit code.
int main(int Argc, char **Argv);

} // namespace cuda_advisor::driver

#endif
