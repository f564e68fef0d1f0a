//===- Config.h - User configuration shared by all layers ------*- C++ -*-===//
//
// The settings a user can give on the command line or in a YAML file
// (--config): which checks run, the header filter, per-check options and the
// failing severity. Loaded once by the driver and passed down by reference.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CORE_CONFIG_H
#define CUDA_ADVISOR_CORE_CONFIG_H

#include "cuda-advisor/Core/Finding.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>

namespace cuda_advisor {

/// Per-check options, keyed "check-id.OptionName".
class CheckOptions {
public:
  void set(llvm::StringRef CheckId, llvm::StringRef Name, llvm::StringRef Value);
  std::string get(llvm::StringRef CheckId, llvm::StringRef Name,
                  llvm::StringRef Default) const;
  int64_t getInt(llvm::StringRef CheckId, llvm::StringRef Name, int64_t Default) const;
  double getDouble(llvm::StringRef CheckId, llvm::StringRef Name, double Default) const;
  const std::map<std::string, std::string> &all() const { return Values; }

private:
  std::map<std::string, std::string> Values; // ordered: --dump-config is stable
};

struct Config {
  std::string Checks = "*";        ///< clang-tidy style glob list.
  std::string HeaderFilter;        ///< Regex; empty: user headers only.
  /// Findings in system headers (-isystem, the toolkit's, Clang's) that
  /// HeaderFilter matches are shown too (clang-tidy's --system-headers).
  bool SystemHeaders = false;
  Severity FailOn = Severity::Warning;
  CheckOptions Options;
};

/// Reads a YAML config file:
///   Checks: '-*,transfer-*'
///   HeaderFilter: 'src/.*'
///   SystemHeaders: false
///   FailOn: warning
///   CheckOptions:
///     launch-block-size.MinThreads: 64
/// Keys given in the file override those in Base.
llvm::Expected<Config> loadConfigFile(llvm::StringRef Path, Config Base);
/// The YAML text of C, in the format loadConfigFile reads.
std::string dumpConfig(const Config &C);

} // namespace cuda_advisor

#endif
