//===- Analyze.cpp - `cuda-advisor FILES... [-p DIR] [--profile P]` --------===//
//
// The analysis subcommand: builds the configuration, runs the front end and
// the checks over the files, reads and joins the profiles, and emits the
// report. The only place that turns llvm::Errors into messages and exit codes.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Driver/Analyze.h"
#include "cuda-advisor/Checks/Registry.h"
#include "cuda-advisor/Driver/Driver.h"
#include "cuda-advisor/Frontend/Runner.h"
#include "cuda-advisor/Profile/Reader.h"
#include "cuda-advisor/Profile/Symbolize.h"
#include "cuda-advisor/Rank/Rank.h"
#include "cuda-advisor/Report/Report.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cuda_advisor::driver {
namespace {

void error(const Twine &Message) {
  WithColor::error(errs(), "cuda-advisor") << Message << "\n";
}
void note(const Twine &Message) { WithColor::note(errs(), "cuda-advisor") << Message << "\n"; }

std::vector<CheckInfo> knownChecks() {
  std::vector<CheckInfo> All = checks::allChecks();
  const auto &Runtime = rank::runtimeRules();
  All.insert(All.end(), Runtime.begin(), Runtime.end());
  return All;
}

/// Parses "1ms", "250us", "2s", "1500ns", "0.5%".
bool parseMinSaving(StringRef S, rank::RankOptions &Out) {
  S = S.trim();
  if (S.consume_back("%")) {
    double P;
    if (S.getAsDouble(P))
      return false;
    Out.MinSavingShare = P / 100;
    return true;
  }
  static const std::pair<const char *, double> Units[] = {
      {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
  for (auto [Suffix, Scale] : Units) {
    StringRef Num = S;
    if (Num.consume_back(Suffix)) {
      double V;
      if (Num.getAsDouble(V))
        continue;
      Out.MinSavingNs = static_cast<uint64_t>(V * Scale);
      return true;
    }
  }
  return false;
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
      F.Notes.push_back({SourceLocation(), "off the hot path: " + F.PriorityReason});
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

int runAnalyze(const AnalyzeOptions &Opts, const char *Argv0) {
  // Configuration: defaults, then --config, then the command line.
  Config Cfg;
  if (!Opts.ConfigFile.empty()) {
    auto Loaded = loadConfigFile(Opts.ConfigFile, Cfg);
    if (!Loaded) {
      error(toString(Loaded.takeError()));
      return ExitInputError;
    }
    Cfg = std::move(*Loaded);
  }
  if (!Opts.Checks.empty())
    Cfg.Checks = Opts.Checks;
  if (!Opts.HeaderFilter.empty())
    Cfg.HeaderFilter = Opts.HeaderFilter;
  if (Opts.FailOn) {
    auto S = parseSeverity(*Opts.FailOn);
    if (!S) {
      error("--fail-on must be note, warning or error, not '" + *Opts.FailOn + "'");
      return ExitInputError;
    }
    Cfg.FailOn = *S;
  }
  if (!Cfg.HeaderFilter.empty()) {
    std::string Why;
    if (!Regex(Cfg.HeaderFilter).isValid(Why)) {
      error("--header-filter '" + Cfg.HeaderFilter + "' is not a valid regex: " + Why);
      return ExitInputError;
    }
  }

  std::string ResourceDir = findResourceDir(Argv0);
  SmallString<256> DocsDir(ResourceDir);
  sys::path::append(DocsDir, "docs", "checks");
  std::vector<CheckInfo> Known = knownChecks();

  if (Opts.ListChecks) {
    GlobList Enabled(Cfg.Checks);
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
    Config Effective = Cfg;
    Effective.Options = checks::effectiveOptions(Cfg);
    outs() << dumpConfig(Effective);
    return ExitClean;
  }

  if (Opts.Sources.empty() && Opts.Profiles.empty()) {
    error("no input files (usage: cuda-advisor [options] FILES... [-p BUILD_DIR | -- FLAGS]; "
          "see --help)");
    return ExitInputError;
  }
  {
    // As clang-tidy: a check list that enables nothing is an error.
    GlobList Enabled(Cfg.Checks);
    auto IsOn = [&](const CheckInfo &C) { return Enabled.contains(C.Id); };
    bool AnyStatic = llvm::any_of(checks::allChecks(), IsOn);
    bool AnyRuntime = llvm::any_of(rank::runtimeRules(), IsOn);
    if (!AnyStatic && !(AnyRuntime && !Opts.Profiles.empty())) {
      error("no checks enabled: '" + Cfg.Checks + "' matches no " +
            (Opts.Profiles.empty() ? "static check" : "check") + " (see --list-checks)");
      return ExitInputError;
    }
  }
  if (ResourceDir.empty() && !Opts.Sources.empty()) {
    error("cannot find the resource directory share/cuda-advisor next to " +
          sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&findResourceDir)) +
          " (reinstall cuda-advisor)");
    return ExitInputError;
  }
  std::optional<report::OutputFormat> Format = report::parseOutputFormat(Opts.Format);
  if (!Format) {
    error("unknown --format '" + Opts.Format + "'");
    return ExitInputError;
  }
  rank::RankOptions RankOpts;
  RankOpts.Top = Opts.Top;
  if (!Opts.MinSaving.empty() && !parseMinSaving(Opts.MinSaving, RankOpts)) {
    error("--min-saving '" + Opts.MinSaving + "' is not a time (1ms, 200us) or a share (0.5%)");
    return ExitInputError;
  }

  bool InputErrors = false;
  size_t Unreadable = 0;    // Sources that could not be parsed at all.
  size_t WithErrors = 0;    // Sources analyzed despite compiler errors.
  size_t BadProfiles = 0;   // Profiles that could not be read.
  report::ReportContext Report;
  Report.ToolVersion = CUDA_ADVISOR_VERSION;
  Report.Checks = Known;
  Report.DocsDir = DocsDir.str().str();
  std::vector<Finding> Findings;

  // The sources.
  if (!Opts.Sources.empty()) {
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
    frontend::ConsumerFactory Factory = [&](clang::CompilerInstance &, frontend::FileResult &R,
                                            bool DevicePass) {
      return checks::makeCheckConsumer(Cfg, R.Findings, ResourceDir, DevicePass);
    };
    auto Results = frontend::runOnFiles(Opts.Sources, RO, Factory);
    if (!Results) {
      error(toString(Results.takeError()));
      return ExitInputError;
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
        InputErrors = true;
        ++Unreadable;
        continue;
      }
      if (R.ParseErrors) {
        error(R.File + ": the file has compiler errors; findings come from what Clang could "
                       "recover:");
        errs() << R.CompilerErrors;
        Report.Errors.push_back({R.File, "compiler errors"});
        InputErrors = true;
        ++WithErrors;
      }
      std::move(R.Findings.begin(), R.Findings.end(), std::back_inserter(Findings));
    }
  }
  sortAndUniqueFindings(Findings);

  // The profiles.
  if (!Opts.Profiles.empty()) {
    profile::Profile Merged;
    for (const std::string &P : Opts.Profiles) {
      auto Read = profile::readProfile(P);
      if (!Read) {
        std::string Why = toString(Read.takeError());
        error(Why);
        Report.Errors.push_back({P, Why});
        InputErrors = true;
        ++BadProfiles;
        continue;
      }
      Merged.merge(std::move(*Read));
    }
    if (!Merged.Processes.empty()) {
      // Host stacks to file:line first: the join compares call sites.
      profile::SymbolizeOptions SymOpts;
      SymOpts.BinaryPaths = Opts.BinaryPaths;
      profile::SymbolizeResult Sym = profile::symbolizeStacks(Merged, SymOpts);
      Report.Summary = rank::rankFindings(Findings, Merged, Cfg, RankOpts);
      llvm::append_range(Report.Summary->Warnings, Sym.Warnings);
    }
  }

  size_t HiddenCold = applyPriorities(Findings, Opts.ShowCold,
                                      !Report.Summary.has_value() && Opts.Sort == "priority");

  // The report.
  std::error_code EC;
  std::unique_ptr<ToolOutputFile> File;
  if (!Opts.Output.empty() && Opts.Output != "-") {
    File = std::make_unique<ToolOutputFile>(Opts.Output, EC, sys::fs::OF_Text);
    if (EC) {
      error(Opts.Output + ": cannot write the report: " + EC.message());
      return ExitInputError;
    }
  }
  raw_ostream &OS = File ? File->os() : outs();
  // Colour on a terminal, unless NO_COLOR (no-color.org) or TERM=dumb says no.
  auto Env = [](const char *V) { return sys::Process::GetEnv(V).value_or(""); };
  bool Terminal = !File && sys::Process::StandardOutIsDisplayed() && Env("NO_COLOR").empty() &&
                  Env("TERM") != "dumb";
  Report.Color = Opts.Color.value_or(Terminal);
  report::emit(*Format, OS, Findings, Report);
  OS.flush(); // Before anything else goes to stderr: they may share a terminal.
  if (File)
    File->keep();

  if (!Opts.ExportFixes.empty())
    if (Error E = report::exportFixes(Opts.ExportFixes, Findings)) {
      error(toString(std::move(E)));
      InputErrors = true;
    }
  if (Opts.Fix) {
    report::FixOutcome Fixed;
    if (Error E = report::applyFixesInPlace(Findings, Fixed)) {
      error(toString(std::move(E)));
      InputErrors = true;
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
  if (!Opts.Quiet && *Format == report::OutputFormat::Text && Unreadable < Opts.Sources.size()) {
    SmallVector<std::string, 3> Problems;
    if (WithErrors)
      Problems.push_back(std::to_string(WithErrors) + " with compiler errors");
    if (Unreadable)
      Problems.push_back(std::to_string(Unreadable) + " not analyzed");
    if (BadProfiles)
      Problems.push_back(std::to_string(BadProfiles) +
                         (BadProfiles == 1 ? " profile not read" : " profiles not read"));
    errs() << Findings.size() << (Findings.size() == 1 ? " finding" : " findings") << " in "
           << Opts.Sources.size() << (Opts.Sources.size() == 1 ? " file" : " files");
    if (!Problems.empty())
      errs() << " (" << join(Problems, ", ") << ")";
    if (HiddenCold)
      errs() << "; " << HiddenCold << " off the hot path not shown (--show-cold)";
    errs() << ".\n";
  }
  if (InputErrors)
    return ExitInputError;
  return Failing ? ExitFindings : ExitClean;
}

} // namespace cuda_advisor::driver
