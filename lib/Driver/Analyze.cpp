//===- Analyze.cpp - `cuda-advisor FILES... [-p DIR] [--profile P]` --------===//
//
// The analysis subcommand: builds the configuration, runs the front end and
// the checks over the files, reads and joins the profiles, and emits the
// report. The only place that turns llvm::Errors into messages and exit codes.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Driver/Analyze.h"
#include "Merge.h"
#include "OptionChecks.h"
#include "ResultCache.h"
#include "cuda-advisor/Checks/Registry.h"
#include "cuda-advisor/Core/FileIO.h"
#include "cuda-advisor/Core/RuleTable.h"
#include "cuda-advisor/Driver/ConfigOptions.h"
#include "cuda-advisor/Driver/Driver.h"
#include "cuda-advisor/Driver/Review.h"
#include "cuda-advisor/Frontend/Runner.h"
#include "cuda-advisor/Profile/Reader.h"
#include "cuda-advisor/Profile/SourcePaths.h"
#include "cuda-advisor/Profile/Symbolize.h"
#include "cuda-advisor/Rank/Rank.h"
#include "cuda-advisor/Report/Report.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

using namespace llvm;

namespace cuda_advisor::driver {
namespace {

void error(const Twine &Message) {
  WithColor::error(errs(), "cuda-advisor") << Message << "\n";
}
void note(const Twine &Message) { WithColor::note(errs(), "cuda-advisor") << Message << "\n"; }

/// Flushes the report on standard output; a full disk or a closed pipe is an
/// error naming it (not LLVM's fatal error when outs() is destroyed).
Error flushStandardOutput() {
  outs().flush();
  std::error_code EC = outs().error();
  if (!EC)
    return Error::success();
  outs().clear_error();
  return createStringError(EC, "<stdout>: cannot write the report: %s", EC.message().c_str());
}

/// -o and --export-fixes must not name one of the inputs (nor each other).
std::optional<std::string> outputClobbersInput(const AnalyzeOptions &Opts) {
  for (const std::string *Out : {&Opts.Output, &Opts.ExportFixes}) {
    if (Out->empty() || *Out == "-")
      continue;
    StringRef Flag = Out == &Opts.Output ? "-o" : "--export-fixes";
    auto Clobbers = [&](const std::string &In) { return sameFile(*Out, In); };
    if (llvm::any_of(Opts.Sources, Clobbers) || llvm::any_of(Opts.Profiles, Clobbers) ||
        llvm::any_of(Opts.MergeInputs, Clobbers) || Clobbers(Opts.ConfigFile))
      return *Out + ": " + Flag.str() + " names one of the inputs; refusing to overwrite it";
    if (Out == &Opts.Output && Clobbers(Opts.ExportFixes))
      return *Out + ": -o and --export-fixes name the same file";
  }
  return std::nullopt;
}

/// The files on the command line; with none and -p, every entry of the
/// database that --file-filter matches.
Expected<std::vector<std::string>> sourcesToAnalyze(const AnalyzeOptions &Opts) {
  bool Informational = Opts.ListChecks || Opts.DumpConfig || !Opts.Explain.empty();
  if (!Opts.Sources.empty() || Opts.BuildPath.empty() || Opts.FixedFlags || Informational) {
    if (!Opts.FileFilter.empty())
      return createStringError(inconvertibleErrorCode(),
                               "--file-filter needs -p and no files (it chooses among the "
                               "database's entries)");
    return Opts.Sources;
  }
  std::optional<Regex> Filter;
  if (!Opts.FileFilter.empty()) {
    std::string Why;
    Filter.emplace(Opts.FileFilter);
    if (!Filter->isValid(Why))
      return createStringError(inconvertibleErrorCode(),
                               "--file-filter '%s' is not a valid regex: %s",
                               Opts.FileFilter.c_str(), Why.c_str());
  }
  auto All = frontend::databaseFiles(Opts.BuildPath);
  if (!All)
    return All.takeError();
  std::vector<std::string> Chosen;
  for (std::string &F : *All)
    if (!Filter || Filter->match(F))
      Chosen.push_back(std::move(F));
  if (Chosen.empty())
    return createStringError(inconvertibleErrorCode(),
                             "%s: no entry of the compilation database%s",
                             Opts.BuildPath.c_str(),
                             Filter ? (" matches --file-filter '" + Opts.FileFilter + "'").c_str()
                                    : "");
  return Chosen;
}

/// --shard I/N: the files of shard I, deterministically: the files (made
/// absolute, without duplicates) in sorted order, every N-th one starting at
/// the I-th. Every shard of one list gets the same order, so the N shards
/// split it without overlap and each holds a balanced share (sizes differ by
/// at most one file) of every directory.
std::vector<std::string> selectShard(const std::vector<std::string> &Files, const Shard &S) {
  std::vector<std::string> All;
  All.reserve(Files.size());
  for (const std::string &F : Files) {
    SmallString<256> Abs(F);
    sys::fs::make_absolute(Abs);
    sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    All.push_back(Abs.str().str());
  }
  llvm::sort(All);
  All.erase(std::unique(All.begin(), All.end()), All.end());
  std::vector<std::string> Mine;
  for (size_t I = S.Index - 1; I < All.size(); I += S.Count)
    Mine.push_back(std::move(All[I]));
  return Mine;
}

} // namespace

std::string findResourceDir(const char *Argv0) {
  std::string Exe = sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&findResourceDir));
  SmallString<256> Dir(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Dir, CUDA_ADVISOR_SHARE_DIR);
  if (!sys::fs::is_directory(Dir))
    return "";
  return Dir.str().str();
}

/// Findings off the hot path (Analysis/HotPath.h) are hidden, or with
/// --show-cold become notes that say why; a profile that measured one keeps
/// it as it is (its measured cost ranks it). Without a profile, findings on
/// the hot path come first. Returns the number hidden.
size_t applyPriorities(std::vector<Finding> &Findings, bool ShowCold, bool ByPriority) {
  size_t Hidden = 0;
  std::vector<Finding> Kept;
  Kept.reserve(Findings.size());
  for (Finding &F : Findings) {
    bool Measured = F.Ranking && F.Ranking->Matched && F.Ranking->MeasuredNs > 0;
    if (F.Prio == Priority::Cold && !Measured) {
      if (!ShowCold) {
        ++Hidden;
        continue;
      }
      F.Level = Severity::Note;
      // Once: a merged report's finding may have been shown as cold already.
      std::string Why = "off the hot path: " + F.PriorityReason;
      if (F.Notes.empty() || F.Notes.back().Message != Why)
        F.Notes.push_back({SourceLocation(), std::move(Why)});
    }
    Kept.push_back(std::move(F));
  }
  Findings = std::move(Kept);
  if (ByPriority)
    std::stable_sort(Findings.begin(), Findings.end(), [](const Finding &A, const Finding &B) {
      return A.Prio < B.Prio;
    });
  return Hidden;
}

namespace {
int analyzeAndReport(const AnalyzeOptions &Opts, const char *Argv0);

/// What identifies this build of the tool for the result cache: its
/// version, Clang's, and the digest of the executable (a rebuilt tool may
/// find other things with the same version number; the same build copied
/// or rebuilt identically, as in CI, keeps its entries). Hashing the 9 MB
/// executable takes a few milliseconds, once per run.
std::string toolIdentity(const char *Argv0) {
  std::string Exe = sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&findResourceDir));
  std::string Id = std::string("cuda-advisor ") + CUDA_ADVISOR_VERSION + "; " +
                   clang::getClangFullVersion() + "; ";
  auto Binary = MemoryBuffer::getFile(Exe, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (Binary)
    return Id + contentHash((*Binary)->getBuffer());
  // Unreadable (unusual): its path and time at least change with a rebuild.
  sys::fs::file_status Status;
  Id += Exe;
  if (!sys::fs::status(Exe, Status))
    Id += "; " + std::to_string(Status.getLastModificationTime().time_since_epoch().count());
  return Id;
}

/// The result cache that --cache-dir or CUDA_ADVISOR_CACHE_DIR names, unless
/// --no-cache. A cache that cannot be used is a warning: the run goes on
/// without it.
std::unique_ptr<ResultCache> openResultCache(const AnalyzeOptions &Opts, uint64_t MaxBytes,
                                             const RunConfigs &Configs,
                                             const std::string &ResourceDir,
                                             const char *Argv0) {
  if (Opts.NoCache)
    return nullptr;
  ResultCacheOptions CO;
  CO.Dir = Opts.CacheDir.empty() ? sys::Process::GetEnv("CUDA_ADVISOR_CACHE_DIR").value_or("")
                                 : Opts.CacheDir;
  if (CO.Dir.empty())
    return nullptr;
  CO.MaxBytes = MaxBytes;
  CO.Verbose = Opts.Verbose;
  CO.ToolIdentity = toolIdentity(Argv0) + "; resources " + ResourceDir;
  CO.ConfigFor = [&Configs](const std::string &File) {
    Config C = Configs.forFile(File);
    C.FailOn = Severity::Warning; // Decides the exit code, not the findings.
    return dumpConfig(C);
  };
  auto Cache = ResultCache::open(std::move(CO));
  if (!Cache) {
    WithColor::warning(errs(), "cuda-advisor")
        << toString(Cache.takeError()) << "; analyzing without the result cache\n";
    return nullptr;
  }
  return std::move(*Cache);
}

} // namespace

int runAnalyze(const AnalyzeOptions &Opts, const char *Argv0) {
  int Rc = analyzeAndReport(Opts, Argv0);
  if (Error E = flushStandardOutput()) {
    error(toString(std::move(E)));
    return ExitInputError;
  }
  return Rc;
}

namespace {
/// What went wrong with the run's inputs, for the exit code and summary.
struct RunTally {
  bool InputErrors = false;
  size_t Unreadable = 0;  ///< Sources that could not be parsed at all.
  size_t WithErrors = 0;  ///< Sources analyzed despite compiler errors.
  size_t BadProfiles = 0; ///< Profiles that could not be read.
};

/// --list-checks, --explain and --dump-config: the exit code, or nothing
/// when none of them is asked for.
std::optional<int> runInformational(const AnalyzeOptions &Opts, const Config &Cfg,
                                    StringRef DocsDir) {
  const std::vector<CheckInfo> &Known = allRules();
  if (Opts.ListChecks) {
    GlobList Enabled(Cfg.Checks);
    if (Opts.Format == "markdown") {
      outs() << checksIndexMarkdown(Enabled);
      return ExitClean;
    }
    outs() << "Enabled checks:\n";
    for (const CheckInfo &C : Known)
      if (Enabled.contains(C.Id))
        outs() << "    " << left_justify(C.Id, 32) << " " << C.Summary << "\n";
    return ExitClean;
  }
  if (!Opts.Explain.empty()) {
    auto It = llvm::find_if(Known, [&](const CheckInfo &C) { return C.Id == Opts.Explain; });
    if (It == Known.end()) {
      error("no check named '" + Opts.Explain + "' (see --list-checks)");
      return ExitInputError;
    }
    std::string Doc = report::readCheckDoc(DocsDir, Opts.Explain);
    if (Doc.empty()) {
      error(Opts.Explain + ": its documentation is not installed (looked in " + DocsDir + ")");
      return ExitInputError;
    }
    outs() << Doc;
    return ExitClean;
  }
  if (Opts.DumpConfig) {
    // Every option of every check with its value (clang-tidy prints those
    // of the enabled checks only; a disabled check's options matter once
    // it is enabled in a subdirectory).
    Config Effective = Cfg;
    Effective.Options = withDefaults(Cfg.Options);
    outs() << dumpConfig(Effective);
    return ExitClean;
  }

  return std::nullopt;
}

/// Parses CxxSources and runs the checks; their findings go to Findings,
/// their files and errors to Report and T. False on an error that ends the
/// run (the compile database cannot be read).
bool analyzeSources(const AnalyzeOptions &Opts, const std::vector<std::string> &CxxSources,
                    const RunConfigs &Configs, const std::string &ResourceDir,
                    uint64_t CacheBytes, const char *Argv0, report::ReportContext &Report,
                    std::vector<Finding> &Findings, RunTally &T) {
  frontend::RunnerOptions RO;
  RO.BuildPath = Opts.BuildPath;
  RO.FixedFlags = Opts.FixedFlags;
  RO.CudaPath = Opts.CudaPath;
  RO.Jobs = Opts.Jobs;
  RO.Verbose = Opts.Verbose;
  RO.Setup.ResourceDir = ResourceDir;
  RO.Setup.ExtraArgs = Opts.ExtraArgs;
  RO.Setup.ExtraArgsBefore = Opts.ExtraArgsBefore;
  RO.Setup.DevicePass = Opts.DevicePass;
  // "[N/M] file" as each file is done, on a terminal only (run-clang-tidy).
  if (CxxSources.size() > 1 && sys::Process::StandardErrIsDisplayed())
    RO.OnFileDone = [&](size_t, size_t Done, const frontend::FileResult &R) {
      errs() << "[" << Done << "/" << CxxSources.size() << "] " << R.File << "\n";
    };
  std::unique_ptr<ResultCache> Cache =
      openResultCache(Opts, CacheBytes, Configs, ResourceDir, Argv0);
  RO.Cache = Cache.get();
  frontend::ConsumerFactory Factory = [&](clang::CompilerInstance &, frontend::FileResult &R,
                                          bool DevicePass) {
    return checks::makeCheckConsumer(Configs.forFile(R.File), R.Findings, ResourceDir,
                                     DevicePass);
  };
  auto Results = frontend::runOnFiles(CxxSources, RO, Factory);
  if (!Results) {
    error(toString(Results.takeError()));
    return false;
  }
  bool SaidBundled = false;
  for (frontend::FileResult &R : *Results) {
    Report.Sources.push_back(R.File);
    for (const std::string &M : R.Messages) {
      if (M == "@bundled") {
        if (!SaidBundled)
          note("no CUDA installation found (tried --cuda-path, CUDA_PATH, CUDA_HOME, the "
               "compile command's nvcc and /usr/local/cuda): parsing against the bundled "
               "CUDA declarations");
        SaidBundled = true;
        continue;
      }
      note(R.File + ": " + M);
    }
    if (R.InputError) {
      error(R.File + ": " + R.ErrorMessage);
      Report.Errors.push_back({R.File, R.ErrorMessage});
      T.InputErrors = true;
      ++T.Unreadable;
      continue;
    }
    if (R.ParseErrors) {
      error(R.File + ": the file has compiler errors; findings come from what Clang could "
                     "recover:");
      errs() << R.CompilerErrors;
      Report.Errors.push_back({R.File, "compiler errors"});
      T.InputErrors = true;
      ++T.WithErrors;
    }
    std::move(R.Findings.begin(), R.Findings.end(), std::back_inserter(Findings));
  }
  // After the files' own notes (--verbose says hit or miss for each).
  if (Cache) {
    if (Cache->stats().Stored)
      Cache->trim();
    ResultCache::Stats S = Cache->stats();
    if (Opts.CacheStats || Opts.Verbose) {
      std::string Line = "result cache: " + std::to_string(S.Hits) +
                         (S.Hits == 1 ? " hit, " : " hits, ") + std::to_string(S.Misses) +
                         (S.Misses == 1 ? " miss, " : " misses, ") +
                         std::to_string(S.Stored) + " stored";
      if (S.StoreFailures)
        Line += ", " + std::to_string(S.StoreFailures) + " not stored";
      if (S.Evicted)
        Line += ", " + std::to_string(S.Evicted) + " evicted";
      note(Line);
    }
  } else if (Opts.CacheStats) {
    note(Opts.NoCache ? "result cache: not used (--no-cache)"
                      : "result cache: not used (no --cache-dir or CUDA_ADVISOR_CACHE_DIR)");
  }
  return true;
}

/// Reads the profiles, symbolizes and maps their stacks, and ranks Findings
/// with them (appending the runtime rules' findings); unreadable profiles go
/// to Report and T.
void rankWithProfiles(const AnalyzeOptions &Opts, const Config &Cfg,
                      const rank::RankOptions &RankOpts, report::OutputFormat Format,
                      profile::SourcePathMap &PathMap, report::ReportContext &Report,
                      std::vector<Finding> &Findings, RunTally &T) {
  profile::Profile Merged;
  for (const std::string &P : Opts.Profiles) {
    auto Read = profile::readProfile(P);
    if (!Read) {
      std::string Why = toString(Read.takeError());
      error(Why);
      Report.Errors.push_back({P, Why});
      T.InputErrors = true;
      ++T.BadProfiles;
      continue;
    }
    Merged.merge(std::move(*Read));
  }
  if (!Merged.Processes.empty()) {
    // Host stacks to file:line first: the join compares call sites.
    profile::SymbolizeOptions SymOpts;
    SymOpts.BinaryPaths = Opts.BinaryPaths;
    profile::SymbolizeResult Sym = profile::symbolizeStacks(Merged, SymOpts);
    // Paths of another machine (or checkout) become the sources here.
    PathMap.Sources = Report.Sources;
    if (!Opts.BuildPath.empty())
      llvm::append_range(PathMap.Sources, frontend::compileDatabaseFiles(Opts.BuildPath));
    profile::mapSourcePaths(Merged, PathMap);
    // Only the HTML report draws the timeline.
    TimelineChart Chart;
    bool Draw = Format == report::OutputFormat::Html;
    Report.Summary = rank::rankFindings(Findings, Merged, Cfg, RankOpts, Draw ? &Chart : nullptr);
    if (Draw && !Chart.Panels.empty())
      Report.Timeline = std::move(Chart);
    llvm::append_range(Report.Summary->Warnings, Sym.Warnings);
  }
}

int analyzeAndReport(const AnalyzeOptions &Opts, const char *Argv0) {
  // Whole-database mode (run-clang-tidy): -p and no files.
  auto Listed = sourcesToAnalyze(Opts);
  if (!Listed) {
    error(toString(Listed.takeError()));
    return ExitInputError;
  }
  bool Informational = Opts.ListChecks || Opts.DumpConfig || !Opts.Explain.empty();
  std::optional<Shard> ShardSpec;
  if (!Opts.Shard.empty() && !Informational) {
    ShardSpec.emplace();
    if (std::optional<std::string> Why = parseShard(Opts.Shard, *ShardSpec)) {
      error("--shard " + *Why);
      return ExitInputError;
    }
    if (Listed->empty()) {
      error("--shard needs files to split: -p BUILD_DIR with no files (every entry of the "
            "database) or a list of files");
      return ExitInputError;
    }
    *Listed = selectShard(*Listed, *ShardSpec);
    if (Opts.Verbose)
      note("shard " + Twine(ShardSpec->Index) + "/" + Twine(ShardSpec->Count) + ": " +
           Twine(Listed->size()) + (Listed->size() == 1 ? " file" : " files"));
  }
  const std::vector<std::string> &Sources = *Listed;

  // Configuration: defaults, the .cuda-advisor.yaml files of each source's
  // directories (or --config-file / --config), then the command line.
  auto Configs = loadRunConfigs(Opts, Sources);
  if (!Configs) {
    error(toString(Configs.takeError()));
    return ExitInputError;
  }
  const Config &Cfg = Configs->Global;

  std::string ResourceDir = findResourceDir(Argv0);
  SmallString<256> DocsDir(ResourceDir);
  sys::path::append(DocsDir, "docs", "checks");
  const std::vector<CheckInfo> &Known = allRules();

  if (std::optional<int> Exit = runInformational(Opts, Cfg, DocsDir))
    return *Exit;

  // A shard may be empty (more shards than files): its report is empty too.
  if (Sources.empty() && Opts.Profiles.empty() && !ShardSpec && !Opts.Merge) {
    error("no input files (usage: cuda-advisor [options] FILES... [-p BUILD_DIR | -- FLAGS]; "
          "see --help)");
    return ExitInputError;
  }
  {
    // As clang-tidy: a check list that enables nothing is an error.
    GlobList Enabled(Cfg.Checks);
    auto IsOn = [&](const CheckInfo &C) { return Enabled.contains(C.Id); };
    bool AnyStatic = llvm::any_of(staticChecks(), IsOn);
    bool AnyRuntime = llvm::any_of(runtimeRules(), IsOn);
    if (!AnyStatic && !(AnyRuntime && !Opts.Profiles.empty())) {
      error("no checks enabled: '" + Cfg.Checks + "' matches no " +
            (Opts.Profiles.empty() ? "static check" : "check") + " (see --list-checks)");
      return ExitInputError;
    }
  }
  if (ResourceDir.empty() && !Sources.empty()) {
    error("cannot find the resource directory share/cuda-advisor next to " +
          sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&findResourceDir)) +
          " (reinstall cuda-advisor)");
    return ExitInputError;
  }
  if (std::optional<std::string> Why = outputClobbersInput(Opts)) {
    error(*Why);
    return ExitInputError;
  }
  std::optional<report::OutputFormat> Format = report::parseOutputFormat(Opts.Format);
  if (!Format) {
    error("unknown --format '" + Opts.Format + "'");
    return ExitInputError;
  }
  // A shard's JSON report is the material of `merge`, which ranks, hides
  // what is off the hot path and filters the joined findings: it holds every
  // finding as the checks made it.
  bool ForMerge = ShardSpec && *Format == report::OutputFormat::Json;
  if (ForMerge && !Opts.Profiles.empty()) {
    error("--shard with --format=json writes a shard's report for 'cuda-advisor merge', which "
          "ranks the joined findings: give --profile to merge");
    return ExitInputError;
  }
  rank::RankOptions RankOpts;
  RankOpts.Top = Opts.Top;
  if (!Opts.MinSaving.empty()) {
    MinSaving Parsed;
    if (std::optional<std::string> Why = parseMinSaving(Opts.MinSaving, Parsed)) {
      error(*Why);
      return ExitInputError;
    }
    RankOpts.MinSavingNs = Parsed.Ns;
    RankOpts.MinSavingShare = Parsed.Share;
  }

  uint64_t CacheBytes = uint64_t(1) << 30;
  if (!Opts.CacheSize.empty()) {
    auto Size = parseCacheSize(Opts.CacheSize);
    if (!Size) {
      error(toString(Size.takeError()));
      return ExitInputError;
    }
    CacheBytes = *Size;
  }

  profile::SourcePathMap PathMap;
  for (const std::string &Spec : Opts.SourcePrefixMap) {
    auto Mapping = profile::parsePrefixMapping(Spec);
    if (!Mapping) {
      error(toString(Mapping.takeError()));
      return ExitInputError;
    }
    PathMap.PrefixMap.push_back(std::move(*Mapping));
  }

  auto Review = loadReviewFilter(Opts.LineFilter, Opts.Diff);
  if (!Review) {
    error(toString(Review.takeError()));
    return ExitInputError;
  }

  RunTally Tally;
  report::ReportContext Report;
  Report.ToolVersion = CUDA_ADVISOR_VERSION;
  Report.Checks = Known;
  Report.DocsDir = DocsDir.str().str();
  // SARIF's %SRCROOT% is the repository (code scanning places alerts by
  // it); the other formats show paths from the current directory unless
  // --source-root says otherwise.
  if (Opts.Format == "sarif" || !Opts.SourceRoot.empty())
    Report.SourceRoot = findSourceRoot(Opts.SourceRoot);
  Report.DocsBaseUri = Opts.DocsUrl;
  Report.InformationUri = Opts.DocsUrl;
  Report.MarkdownTop = Opts.MarkdownTop;
  if (ForMerge)
    Report.Shard.emplace(ShardSpec->Index, ShardSpec->Count);
  std::vector<Finding> Findings;
  size_t MergedSources = 0;

  // The shards' reports.
  if (Opts.Merge) {
    auto Merged = readReportsToMerge(Opts.MergeInputs);
    if (!Merged) {
      handleAllErrors(Merged.takeError(), [](const ErrorInfoBase &E) { error(E.message()); });
      return ExitInputError;
    }
    Findings = std::move(Merged->Findings);
    Report.Sources = std::move(Merged->Sources);
    MergedSources = Report.Sources.size();
    // The shards' input errors are the merged run's: it exits 2 as one run
    // over all the files would.
    for (report::InputError &E : Merged->Errors) {
      (E.Message == "compiler errors" ? Tally.WithErrors : Tally.Unreadable) += 1;
      Tally.InputErrors = true;
      Report.Errors.push_back(std::move(E));
    }
  }

  // Python programs are not parsed: their CUDA work is seen through a
  // recording, and they are the sources a recording's Python frames are
  // matched to (a path of another machine becomes the file named here).
  std::vector<std::string> CxxSources;
  for (const std::string &S : Sources) {
    if (!sys::path::extension(S).equals_insensitive(".py")) {
      CxxSources.push_back(S);
      continue;
    }
    if (!sys::fs::is_regular_file(S)) {
      std::string Why = sys::fs::exists(S) ? "not a regular file" : "no such file";
      error(S + ": " + Why);
      Report.Errors.push_back({S, Why});
      Tally.InputErrors = true;
      ++Tally.Unreadable;
      continue;
    }
    SmallString<256> Absolute(S);
    sys::fs::make_absolute(Absolute);
    sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    Report.Sources.push_back(Absolute.str().str());
    if (Opts.Profiles.empty() && !Opts.Quiet)
      note(S + ": a Python program is analyzed through a recording of it: cuda-advisor record "
               "-o run.jsonl -- python3 " + S + " ..., then cuda-advisor " + S +
           " --profile run.jsonl");
  }

  // The sources.
  if (!CxxSources.empty() &&
      !analyzeSources(Opts, CxxSources, *Configs, ResourceDir, CacheBytes, Argv0, Report, Findings,
                      Tally))
    return ExitInputError;
  sortAndUniqueFindings(Findings);

  // The profiles.
  if (!Opts.Profiles.empty())
    rankWithProfiles(Opts, Cfg, RankOpts, *Format, PathMap, Report, Findings, Tally);

  size_t HiddenCold = 0;
  if (!ForMerge) {
    HiddenCold = applyPriorities(Findings, Opts.ShowCold,
                                 !Report.Summary.has_value() && Opts.Sort == "priority");
    // Code review: only what the change touched (after ranking, which needs
    // every finding to attribute the profile's records).
    if (*Review)
      (*Review)->apply(Findings);
  }

  // The report. A run that could read none of its inputs keeps an existing
  // output file as it was; otherwise the report (which records the inputs
  // that failed) replaces it once it is completely written.
  bool NothingRead = !Opts.Merge && Tally.Unreadable == Sources.size() &&
                     Tally.BadProfiles == Opts.Profiles.size();
  std::unique_ptr<OutputFile> File;
  if (!Opts.Output.empty() && Opts.Output != "-" && !(NothingRead && Tally.InputErrors)) {
    auto Created = OutputFile::create(Opts.Output, "the report");
    if (!Created) {
      error(toString(Created.takeError()));
      return ExitInputError;
    }
    File = std::move(*Created);
  }
  raw_ostream &OS = File ? File->os() : outs();
  // Colour on a terminal, unless NO_COLOR (no-color.org) or TERM=dumb says no.
  auto Env = [](const char *V) { return sys::Process::GetEnv(V).value_or(""); };
  bool Terminal = !File && sys::Process::StandardOutIsDisplayed() && Env("NO_COLOR").empty() &&
                  Env("TERM") != "dumb";
  Report.Color = Opts.Color.value_or(Terminal);
  if (Opts.Output.empty() || Opts.Output == "-" || File)
    report::emit(*Format, OS, Findings, Report);
  else
    note(Opts.Output + ": not written: no input could be read");
  if (File) {
    if (Error E = File->commit()) {
      error(toString(std::move(E)));
      return ExitInputError;
    }
  } else if (Error E = flushStandardOutput()) {
    error(toString(std::move(E)));
    return ExitInputError;
  }

  if (!Opts.ExportFixes.empty())
    if (Error E = report::exportFixes(Opts.ExportFixes, Findings)) {
      error(toString(std::move(E)));
      Tally.InputErrors = true;
    }
  if (Opts.Fix) {
    report::FixOutcome Fixed;
    if (Error E = report::applyFixesInPlace(Findings, Fixed)) {
      error(toString(std::move(E)));
      Tally.InputErrors = true;
    }
    for (const std::string &Skip : Fixed.Skipped)
      WithColor::warning(errs(), "cuda-advisor") << Skip << "\n";
    if (!Opts.Quiet)
      note("applied " + Twine(Fixed.Applied) + (Fixed.Applied == 1 ? " fix-it" : " fix-its") +
           " in " + Twine(Fixed.FilesChanged.size()) +
           (Fixed.FilesChanged.size() == 1 ? " file" : " files"));
  }

  unsigned Failing = 0;
  for (const Finding &F : Findings)
    if (F.Level >= Cfg.FailOn)
      ++Failing;
  // No summary when no source could be read at all: the errors say it all.
  size_t SourceCount = Opts.Merge ? MergedSources : Sources.size();
  if (!Opts.Quiet && *Format == report::OutputFormat::Text && Tally.Unreadable < SourceCount) {
    SmallVector<std::string, 3> Problems;
    if (Tally.WithErrors)
      Problems.push_back(std::to_string(Tally.WithErrors) + " with compiler errors");
    if (Tally.Unreadable)
      Problems.push_back(std::to_string(Tally.Unreadable) + " not analyzed");
    if (Tally.BadProfiles)
      Problems.push_back(std::to_string(Tally.BadProfiles) +
                         (Tally.BadProfiles == 1 ? " profile not read" : " profiles not read"));
    errs() << Findings.size() << (Findings.size() == 1 ? " finding" : " findings") << " in "
           << SourceCount << (SourceCount == 1 ? " file" : " files");
    if (!Problems.empty())
      errs() << " (" << join(Problems, ", ") << ")";
    if (HiddenCold)
      errs() << "; " << HiddenCold << " off the hot path not shown (--show-cold)";
    errs() << ".\n";
  }
  if (Tally.InputErrors)
    return ExitInputError;
  return Failing ? ExitFindings : ExitClean;
}

} // namespace

} // namespace cuda_advisor::driver
