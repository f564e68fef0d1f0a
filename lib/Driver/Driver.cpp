//===- Driver.cpp - Command-line parsing (CLI11) --------------------------===//
//
// Parses the command line and hands it to the subcommand. Everything after the
// first "--" is kept apart before CLI11 sees the rest: for the analysis they
// are compile flags (as in clang-tidy), for `record` the program to run.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Driver/Driver.h"
#include "cuda-advisor/Driver/Record.h"
#ifdef CUDA_ADVISOR_HAVE_CLANG
#include "OptionChecks.h"
#include "cuda-advisor/Driver/Analyze.h"
#include "cuda-advisor/Driver/LspCommand.h"

#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/StringSaver.h"
#endif

#include "CLI/CLI.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace cuda_advisor::driver {

int main(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  std::optional<std::vector<std::string>> AfterDashDash;
  auto DashDash = std::find(Args.begin(), Args.end(), "--");
  if (DashDash != Args.end()) {
    AfterDashDash.emplace(DashDash + 1, Args.end());
    Args.erase(DashDash, Args.end());
  }
#ifdef CUDA_ADVISOR_HAVE_CLANG
  // @file: arguments read from a file, as Clang's and GCC's drivers read
  // them (GNU quoting, nested @files relative to the file), so that a list of
  // 10,000 sources fits a command line. Not for `record`, whose arguments
  // after the program are the program's, nor after `--` (compile flags: the
  // compiler driver expands those itself).
  if (Args.empty() || Args[0] != "record") {
    for (const std::string &A : Args)
      if (A.size() > 1 && A[0] == '@' && !llvm::sys::fs::exists(A.substr(1))) {
        std::cerr << "cuda-advisor: error: " << A.substr(1)
                  << ": cannot read this @file: no such file\n";
        return ExitInputError;
      }
    llvm::BumpPtrAllocator Alloc;
    llvm::StringSaver Saver(Alloc);
    llvm::SmallVector<const char *, 32> Expanded;
    for (const std::string &A : Args)
      Expanded.push_back(Saver.save(A).data());
    llvm::cl::ExpansionContext Expand(Alloc, llvm::cl::TokenizeGNUCommandLine);
    Expand.setRelativeNames(true);
    if (llvm::Error E = Expand.expandResponseFiles(Expanded)) {
      std::cerr << "cuda-advisor: error: " << llvm::toString(std::move(E)) << "\n";
      return ExitInputError;
    }
    Args.assign(Expanded.begin(), Expanded.end());
  }
#endif

  CLI::App App{"cuda-advisor: finds the performance thieves in CUDA C++ code and ranks them "
               "by what they cost.\n\n"
               "  cuda-advisor [options] FILES... [-p BUILD_DIR | -- FLAGS]\n"
               "  cuda-advisor --profile run.json [FILES...]\n"
               "  cuda-advisor merge SHARD.json... [-o FILE] [--format F] [--profile P]\n"
               "  cuda-advisor record [-o FILE] -- PROGRAM ARGS...\n"
               "  cuda-advisor lsp [--compile-commands-dir DIR] [--profile P]",
               "cuda-advisor"};
  App.set_version_flag("--version", std::string("cuda-advisor ") + CUDA_ADVISOR_VERSION);
  App.require_subcommand(0, 1);

  RecordOptions Rec;
  CLI::App *RecordCmd = App.add_subcommand(
      "record", "run PROGRAM with the CUPTI collector and write its profile");
  RecordCmd->add_option("-o,--output", Rec.Output,
                        "profile file (default: PROGRAM.cuda-advisor.jsonl, with the pid "
                        "for every process after the first)");
  RecordCmd->add_flag("-f,--force", Rec.Force, "overwrite an existing profile");
  RecordCmd->add_option("--collector", Rec.CollectorPath,
                        "the collector library (default: the one installed with the tool)");
  RecordCmd->add_flag("--no-stacks", Rec.NoStacks, "do not record host call stacks");
  RecordCmd->add_flag("-v,--verbose", Rec.Verbose, "print what the collector does");
  RecordCmd->prefix_command(); // PROGRAM and its arguments end our options.

#ifdef CUDA_ADVISOR_HAVE_CLANG
  LspOptions Lsp;
  CLI::App *LspCmd = addLspCommand(App, Lsp);
  AnalyzeOptions A;
  // `merge` takes the report options of the analysis (-o, --format,
  // --profile, --top, --show-cold, --diff...), which fall through to the
  // main command; the options of parsing sources are refused after parsing.
  CLI::App *MergeCmd = App.add_subcommand(
      "merge", "join the JSON reports of --shard runs (or any JSON reports of cuda-advisor) "
               "into one report; ranking (--profile), --top, --show-cold, --diff and the "
               "other report options apply to the joined findings");
  MergeCmd->add_option("reports", A.MergeInputs, "JSON reports (--format=json) to join")
      ->required();
  MergeCmd->fallthrough();
  App.add_option("files", A.Sources, "CUDA/C++ source files to analyze");
  App.add_option("-p,--build-path", A.BuildPath,
                 "directory holding compile_commands.json (or the file itself)");
  // Repeatable options take one value each: "--extra-arg=-DX a.cu" must not
  // swallow the source file.
  App.add_option("--extra-arg", A.ExtraArgs, "append this argument to every compile command")
      ->allow_extra_args(false);
  App.add_option("--extra-arg-before", A.ExtraArgsBefore,
                 "prepend this argument to every compile command")
      ->allow_extra_args(false);
  App.add_option("--checks", A.Checks,
                 "glob list of checks, clang-tidy style: '-*,transfer-*'; appended to the "
                 "configuration's Checks");
  App.add_flag("--list-checks", A.ListChecks, "list the checks that --checks enables (with --format markdown: the table of docs/README.md)");
  App.add_option("--explain", A.Explain, "print the documentation of a check");
  App.add_option("--header-filter", A.HeaderFilter,
                 "regex of header paths whose findings are shown (system and CUDA "
                 "headers need --system-headers too)");
  App.add_flag("--system-headers", A.SystemHeaders,
               "also show the findings of system headers (-isystem, the CUDA toolkit's, "
               "Clang's) that --header-filter matches");
  App.add_option("--fail-on", A.FailOn,
                 "lowest severity that makes the exit code 1 (note, warning, error)");
  App.add_option("--config", A.ConfigFile,
                 "configuration as YAML, clang-tidy style: --config='{Checks: \"-*,sync-*\"}' "
                 "(a file name is still accepted); replaces the .cuda-advisor.yaml files");
  App.add_option("--config-file", A.ConfigFilePath,
                 "configuration file (YAML); replaces the .cuda-advisor.yaml files");
  App.add_flag("--dump-config", A.DumpConfig,
               "print the effective configuration with every option of every check");
  App.add_option("--format", A.Format, "output format")
      ->check(CLI::IsMember({"text", "json", "sarif", "markdown", "html"}));
  App.add_option("-o,--output", A.Output, "write the report to FILE");
  // clang's --color[=auto|always|never] and clang-tidy's --use-color[=BOOL].
  std::string ColorWhen, UseColor;
  App.add_flag("--color{always}", ColorWhen,
               "colour the text output: --color=auto (on a terminal: the default), "
               "--color or --color=always, --color=never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  App.add_flag("--no-color{never}", ColorWhen, "same as --color=never");
  App.add_flag("--use-color{true}", UseColor,
               "clang-tidy's spelling: --use-color[=true|false]")
      ->check(CLI::IsMember({"true", "false", "1", "0"}));
  App.add_option("-j,--jobs", A.Jobs, "files analyzed in parallel (default: all cores)")
      ->check(wholeNumberIn(1, MaxJobs, "files analyzed in parallel"));
  App.add_option("--cuda-path", A.CudaPath, "the CUDA installation to parse against");
  App.add_flag("--device-pass", A.DevicePass,
               "also parse each file for the device (code under #if __CUDA_ARCH__)");
  App.add_flag("-v,--verbose", A.Verbose, "explain what the front end does with each file");
  App.add_flag("-q,--quiet", A.Quiet, "do not print the summary line");
  App.add_flag("--show-cold", A.ShowCold,
               "also show findings off the hot path (set-up, warm-up, verification, sweeps), as notes");
  App.add_option("--sort", A.Sort,
                 "order of unranked findings: priority (hot path first, the default) or location")
      ->check(CLI::IsMember({"priority", "location"}));
  App.add_option("--export-fixes", A.ExportFixes,
                 "write fix-its as YAML for clang-apply-replacements");
  App.add_flag("--fix", A.Fix, "apply the fix-its to the sources");
  App.add_option("--profile", A.Profiles,
                 "a profile of the program (cuda-advisor record, torch.profiler trace, "
                 "ncu --csv); repeatable")
      ->allow_extra_args(false);
  App.add_option("--binary-path", A.BinaryPaths,
                 "where to look for binaries whose stacks the profile holds; repeatable")
      ->allow_extra_args(false);
  App.add_option("--source-prefix-map", A.SourcePrefixMap,
                 "OLD=NEW: read the profile's source paths under OLD as under NEW (as "
                 "-fdebug-prefix-map); repeatable, the last matching one applies")
      ->allow_extra_args(false);
  App.add_option("--top", A.Top, "show only the N findings that would save the most")
      ->check(wholeNumberIn(1, 1000000000, "findings shown"));
  App.add_option("--min-saving", A.MinSaving,
                 "hide ranked findings that save less (e.g. 1ms, 200us, 0.5%)");
  App.add_option("--file-filter", A.FileFilter,
                 "with -p and no files (every entry of the database is analyzed, as "
                 "run-clang-tidy does): only the files whose path matches this regex");
  App.add_option("--shard", A.Shard,
                 "I/N: analyze only the I-th of N shards (1/4 to 4/4) of the files: every "
                 "N-th file of the sorted list (the database's entries with -p and no "
                 "files); join the shards' reports with 'cuda-advisor merge'")
      ->check(shardSpec());
  App.add_option("--cache-dir", A.CacheDir,
                 "keep each file's findings in DIR and reuse them while the file, every "
                 "header it includes, its compile command, the configuration and the tool "
                 "are unchanged (default: $CUDA_ADVISOR_CACHE_DIR; none: no cache)");
  App.add_flag("--no-cache", A.NoCache, "neither read nor write the result cache");
  App.add_option("--cache-size", A.CacheSize,
                 "the result cache's size limit (e.g. 500M, 2G; default 1G): past it the "
                 "least recently used entries are removed");
  App.add_flag("--cache-stats", A.CacheStats,
               "print how many files the result cache answered (hits) and how many were "
               "parsed (misses)");
  App.add_option("--line-filter", A.LineFilter,
                 "report only these lines, clang-tidy's JSON: "
                 "'[{\"name\":\"a.cu\",\"lines\":[[1,3],[5,5]]}]'");
  App.add_option("--diff", A.Diff,
                 "report only findings on the lines a unified diff adds or changes "
                 "(FILE, or - for stdin: git diff -U0 main... | cuda-advisor --diff - ...)");
  App.add_option("--source-root", A.SourceRoot,
                 "SARIF paths are relative to this directory (%SRCROOT%; default: the git "
                 "work tree of the current directory, else the current directory)");
  App.add_option("--markdown-top", A.MarkdownTop,
                 "Markdown: findings shown in full (default 10); the others are in a "
                 "collapsed section, all within one PR comment (60,000 characters)");
  App.add_option("--docs-url", A.DocsUrl,
                 "public URL of the check pages: SARIF helpUri is URL<check-id>.md (default: "
                 "no helpUri)");
#endif

  try {
    std::vector<std::string> Reversed(Args.rbegin(), Args.rend());
    App.parse(Reversed);
  } catch (const CLI::CallForHelp &E) {
    return App.exit(E);
  } catch (const CLI::CallForAllHelp &E) {
    return App.exit(E);
  } catch (const CLI::CallForVersion &E) {
    return App.exit(E);
  } catch (const CLI::ExtrasError &E) {
    // "The following argument was not expected: --frobnicate"
    std::string What = E.what();
    std::string Args = What.substr(What.find(':') == std::string::npos ? 0 : What.find(':') + 2);
    std::cerr << "cuda-advisor: error: unknown option or argument: " << Args << " (see --help)\n";
    return ExitInputError;
  } catch (const CLI::ParseError &E) {
    std::string What = E.what();
    if (!What.empty())
      What[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(What[0])));
    std::cerr << "cuda-advisor: error: " << What << " (see --help)\n";
    return ExitInputError;
  }

  if (RecordCmd->parsed()) {
    Rec.Program = RecordCmd->remaining();
    if (AfterDashDash)
      Rec.Program.insert(Rec.Program.end(), AfterDashDash->begin(), AfterDashDash->end());
    if (Rec.Program.empty()) {
      std::cerr << "cuda-advisor record: error: no program given (usage: cuda-advisor "
                   "record [-o FILE] -- PROGRAM ARGS...)\n";
      return ExitInputError;
    }
    return runRecord(Rec, Argv[0]);
  }

#ifdef CUDA_ADVISOR_HAVE_CLANG
  if (!UseColor.empty())
    A.Color = UseColor == "true" || UseColor == "1";
  if (ColorWhen == "always")
    A.Color = true;
  else if (ColorWhen == "never")
    A.Color = false;
  else if (ColorWhen == "auto")
    A.Color.reset();
  if (LspCmd->parsed()) {
    Lsp.FixedFlags = AfterDashDash;
    return runLsp(Lsp, Argv[0]);
  }
  if (MergeCmd->parsed()) {
    A.Merge = true;
    for (const char *Name :
         {"files", "--build-path", "--shard", "--extra-arg", "--extra-arg-before", "--file-filter",
          "--cuda-path", "--device-pass", "--header-filter", "--jobs", "--list-checks",
          "--explain", "--dump-config", "--cache-dir", "--cache-size", "--cache-stats"}) {
      if (!App.count(Name))
        continue;
      std::string What = Name == std::string("files") ? "source files" : Name;
      std::cerr << "cuda-advisor merge: error: " << What
                << " belongs to the analysis of sources, not to merge (which reads reports)\n";
      return ExitInputError;
    }
    if (AfterDashDash) {
      std::cerr << "cuda-advisor merge: error: '--' and compile flags belong to the analysis "
                   "of sources, not to merge (which reads reports)\n";
      return ExitInputError;
    }
  }
  A.FixedFlags = AfterDashDash;
  return runAnalyze(A, Argv[0]);
#else
  std::cerr << "cuda-advisor: error: this build has only the 'record' subcommand (it was "
               "configured with CUDA_ADVISOR_ENABLE_CLANG=OFF)\n";
  return ExitInputError;
#endif
}

} // namespace cuda_advisor::driver
