//===- Analyze.h - The analysis subcommand ---------------------*- C++ -*-===//
#ifndef CUDA_ADVISOR_DRIVER_ANALYZE_H
#define CUDA_ADVISOR_DRIVER_ANALYZE_H

#include <optional>
#include <string>
#include <vector>

namespace cuda_advisor::driver {

/// Everything `cuda-advisor [options] FILES... [-- FLAGS]` was given, as parsed
/// by CLI11 (Driver.cpp) and before any file was read.
struct AnalyzeOptions {
  std::vector<std::string> Sources;
  std::string BuildPath;                  ///< -p
  std::optional<std::vector<std::string>> FixedFlags; ///< After "--".
  std::vector<std::string> ExtraArgs, ExtraArgsBefore;
  std::string Checks;                     ///< --checks; empty: config default.
  std::string HeaderFilter;
  bool SystemHeaders = false;             ///< --system-headers.
  std::optional<std::string> FailOn;
  std::string ConfigFile;                 ///< --config: inline YAML (or, as before, a path).
  std::string ConfigFilePath;             ///< --config-file.
  std::string FileFilter;                 ///< --file-filter: whole-database mode's regex.
  std::string Shard;                      ///< --shard I/N; empty: every file.
  std::string CacheDir;                   ///< --cache-dir; empty: CUDA_ADVISOR_CACHE_DIR.
  bool NoCache = false;                   ///< --no-cache.
  std::string CacheSize;                  ///< --cache-size, e.g. "1G" (the default).
  bool CacheStats = false;                ///< --cache-stats.
  bool DumpConfig = false;
  bool ListChecks = false;
  std::string Explain;
  std::string Format = "text";
  std::string Output;                     ///< -o
  std::optional<bool> Color;              ///< --color / --no-color; unset: if a terminal.
  unsigned Jobs = 0;                      ///< 0: all cores.
  std::string CudaPath;
  bool DevicePass = false;
  bool Verbose = false;
  bool Quiet = false;
  std::string ExportFixes;
  bool Fix = false;
  std::vector<std::string> Profiles;      ///< --profile, repeatable.
  std::vector<std::string> BinaryPaths;   ///< --binary-path, repeatable.
  std::vector<std::string> SourcePrefixMap; ///< --source-prefix-map OLD=NEW, repeatable.
  std::optional<unsigned> Top;
  std::string MinSaving;                  ///< e.g. "1ms", "500us", "0.5%".
  bool ShowCold = false;                  ///< --show-cold: findings off the hot path as notes.
  std::string Sort = "priority";          ///< --sort: priority (hot path first) or location.
  std::string LineFilter;                 ///< --line-filter JSON (clang-tidy's).
  std::string Diff;                       ///< --diff FILE|-: report changed lines only.
  std::string SourceRoot;                 ///< --source-root: %SRCROOT% of SARIF.
  std::string DocsUrl;                    ///< --docs-url: public base of the check pages.
  unsigned MarkdownTop = 10;              ///< --markdown-top: shown in full, the rest collapsed.
  /// `cuda-advisor merge REPORTS...`: the findings come from these JSON
  /// reports (the shards') instead of from analyzing sources.
  bool Merge = false;
  std::vector<std::string> MergeInputs;
};

/// Returns the exit code.
int runAnalyze(const AnalyzeOptions &Opts, const char *Argv0);

/// The directory holding the tool's resource files (share/cuda-advisor), found
/// relative to the executable; empty if missing.
std::string findResourceDir(const char *Argv0);

} // namespace cuda_advisor::driver

#endif
