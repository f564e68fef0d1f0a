//===- Environment.h - How `record` talks to the collector -----*- C++ -*-===//
//
// The contract between `cuda-advisor record` (lib/Driver/Record.cpp) and the
// CUPTI collector library (lib/Collector) that CUDA loads into the profiled
// program through CUDA_INJECTION64_PATH: the environment variables the
// collector reads, and how every process of a multi-process run names its own
// profile file. Header-only, plain C++17: the collector and the driver both
// build without LLVM. docs/collector.md describes the variables for users.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_COLLECTOR_ENVIRONMENT_H
#define CUDA_ADVISOR_COLLECTOR_ENVIRONMENT_H

#include <string>
#include <vector>

namespace cuda_advisor::collector {

/// CUDA's own variable: the library it loads and whose InitializeInjection it
/// calls when the driver initializes.
inline constexpr const char *InjectionEnv = "CUDA_INJECTION64_PATH";
/// Absolute path of the profile. The first process that creates it
/// (O_CREAT|O_EXCL) writes there; every other process writes
/// siblingProfilePath(Path, pid). Unset: "<program>.cuda-advisor.jsonl" in the
/// current directory, with the same rule.
inline constexpr const char *OutputEnv = "CUDA_ADVISOR_OUTPUT";
/// "0": record no host call stacks (--no-stacks).
inline constexpr const char *StacksEnv = "CUDA_ADVISOR_STACKS";
/// Most frames kept per host call stack (default DefaultStackDepth).
inline constexpr const char *StackDepthEnv = "CUDA_ADVISOR_STACK_DEPTH";
/// "0": record no Python call sites (the frames of the CPython interpreter
/// that made each CUDA call; on by default when the process is CPython 3.9-3.13).
inline constexpr const char *PythonStacksEnv = "CUDA_ADVISOR_PYTHON_STACKS";
/// "1": also record driver API calls (cu*), off by default.
inline constexpr const char *DriverApiEnv = "CUDA_ADVISOR_DRIVER_API";
/// "1": record and check every runtime API call, also the cheap queries
/// (cudaGetDevice, cudaGetLastError, cudaStreamIsCapturing...) that are left
/// out by default because PyTorch makes dozens of them per operation.
inline constexpr const char *AllApiEnv = "CUDA_ADVISOR_ALL_API";
/// For measuring the collector's own cost only (bench/collector-overhead.sh):
/// a comma-separated list of CUPTI activity kinds not to enable, by the names
/// the profile's header lists ("concurrent_kernel,runtime"), and "callbacks"
/// for no API callbacks at all (no call sites, no return codes). A profile
/// made so lacks what the rules need.
inline constexpr const char *SkipEnv = "CUDA_ADVISOR_SKIP";
/// "1": say on stderr why the fast stack walk fell back to libgcc's, once per
/// frame address (the frame's module, symbol and unwind rule).
inline constexpr const char *DebugStacksEnv = "CUDA_ADVISOR_DEBUG_STACKS";
/// "1": the collector says what it does on stderr, prefixed "[cuda-advisor]".
inline constexpr const char *VerboseEnv = "CUDA_ADVISOR_VERBOSE";
/// Size of one CUPTI activity buffer in KiB (default 4096).
inline constexpr const char *BufferKiBEnv = "CUDA_ADVISOR_BUFFER_KIB";
/// Period in ms of the collector's flush of completed CUPTI buffers to the
/// file (default 2000; 0: only at the end).
inline constexpr const char *FlushMsEnv = "CUDA_ADVISOR_FLUSH_MS";

inline constexpr unsigned DefaultStackDepth = 16;
inline constexpr const char *DefaultSuffix = ".cuda-advisor.jsonl";

/// The name another process of the same run writes when Path is taken:
/// "run.jsonl" -> "run.<pid>.jsonl", "run" -> "run.<pid>". Only the last
/// extension of the file name is kept after the pid.
/// Id is normally the pid; "<pid>-<n>" when a stale file of an earlier run
/// holds that name too.
inline std::string siblingProfilePath(const std::string &Path, const std::string &Id) {
  std::string::size_type Slash = Path.rfind('/');
  std::string::size_type Dot = Path.rfind('.');
  std::string::size_type NameStart = Slash == std::string::npos ? 0 : Slash + 1;
  if (Dot == std::string::npos || Dot <= NameStart)
    return Path + "." + Id;
  return Path.substr(0, Dot) + "." + Id + Path.substr(Dot);
}
inline std::string siblingProfilePath(const std::string &Path, long Pid) {
  return siblingProfilePath(Path, std::to_string(Pid));
}

/// The default profile name for a command line: "<name>.cuda-advisor.jsonl"
/// where name is the program's file name or, for a Python interpreter
/// (python, python3, python3.12...), the script's name without ".py" or the
/// module run with -m ("python3 train.py" -> "train.cuda-advisor.jsonl").
inline std::string defaultProfileName(const std::vector<std::string> &Argv) {
  auto BaseName = [](const std::string &P) {
    std::string::size_type Slash = P.rfind('/');
    return Slash == std::string::npos ? P : P.substr(Slash + 1);
  };
  std::string Name = Argv.empty() ? std::string() : BaseName(Argv[0]);
  bool Python = Name.compare(0, 6, "python") == 0 &&
                Name.find_first_not_of("0123456789.", 6) == std::string::npos;
  if (Python) {
    for (size_t I = 1; I < Argv.size(); ++I) {
      const std::string &A = Argv[I];
      if (A == "-m" && I + 1 < Argv.size()) {
        Name = Argv[I + 1];
        break;
      }
      if (A == "-c") {
        Name = "python-c";
        break;
      }
      if (A == "-X" || A == "-W") { // Options that take a value.
        ++I;
        continue;
      }
      if (!A.empty() && A[0] == '-')
        continue;
      Name = BaseName(A);
      if (Name.size() > 3 && Name.compare(Name.size() - 3, 3, ".py") == 0)
        Name.resize(Name.size() - 3);
      break;
    }
  }
  if (Name.empty() || Name == "." || Name == "..")
    Name = "cuda-program";
  return Name + DefaultSuffix;
}

} // namespace cuda_advisor::collector

#endif
