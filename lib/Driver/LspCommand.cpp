//===- LspCommand.cpp - `cuda-advisor lsp` ---------------------------------===//
//
// Reads the configuration and the profiles once, as the analysis subcommand
// does, then hands stdin and stdout to the language server. Errors in what
// the command line names (a config file, a profile) stop it before it serves.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Driver/LspCommand.h"
#include "cuda-advisor/Core/ConfigFiles.h"
#include "cuda-advisor/Driver/Analyze.h"
#include "cuda-advisor/Driver/ConfigOptions.h"
#include "cuda-advisor/Driver/Driver.h"
#include "cuda-advisor/Lsp/Server.h"
#include "cuda-advisor/Profile/Reader.h"
#include "cuda-advisor/Profile/Symbolize.h"

#include "CLI/CLI.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cuda_advisor::driver {

CLI::App *addLspCommand(CLI::App &App, LspOptions &Opts) {
  CLI::App *Cmd = App.add_subcommand(
      "lsp", "serve the Language Server Protocol on stdin and stdout (for editors; "
             "docs/editors.md)");
  Cmd->add_option("--compile-commands-dir", Opts.CompileCommandsDir,
                  "directory holding compile_commands.json (default: searched upward from "
                  "each file, in each directory and its build/, as clangd does)");
  Cmd->add_option("--extra-arg", Opts.ExtraArgs, "append this argument to every compile command")
      ->allow_extra_args(false);
  Cmd->add_option("--extra-arg-before", Opts.ExtraArgsBefore,
                  "prepend this argument to every compile command")
      ->allow_extra_args(false);
  Cmd->add_option("--checks", Opts.Checks, "glob list of checks to run: '-*,transfer-*'");
  Cmd->add_option("--config", Opts.ConfigFile,
                  "configuration as YAML, as the analysis command takes it: "
                  "--config='{Checks: \"-*,sync-*\"}' (a file name is still accepted)");
  Cmd->add_option("--config-file", Opts.ConfigFilePath, "configuration file (YAML)");
  Cmd->add_option("--cuda-path", Opts.CudaPath, "the CUDA installation to parse against");
  Cmd->add_flag("--device-pass", Opts.DevicePass, "also parse each file for the device");
  Cmd->add_option("-j,--jobs", Opts.Jobs, "files analyzed at once (default: all cores)");
  Cmd->add_option("--profile", Opts.Profiles,
                  "a profile of the program: adds measured cost and estimated saving to "
                  "diagnostics and hover; repeatable")
      ->allow_extra_args(false);
  Cmd->add_option("--binary-path", Opts.BinaryPaths,
                  "where to look for binaries whose stacks the profile holds; repeatable")
      ->allow_extra_args(false);
  Cmd->add_option("--docs-url", Opts.DocsUrl,
                  "diagnostics link to URL<check-id>.md (default: the installed pages)");
  return Cmd;
}

int runLsp(const LspOptions &Opts, const char *Argv0) {
  auto Error = [](const Twine &Message) {
    WithColor::error(errs(), "cuda-advisor lsp") << Message << "\n";
    return ExitInputError;
  };
  lsp::ServerOptions S;
  // Each buffer's configuration comes from the .cuda-advisor.yaml files
  // above it, or from --config/--config-file when given (which are read now,
  // so that a bad one stops the server before it serves), --checks appended:
  // as the analysis command does.
  Expected<CommandLineConfig> Given =
      commandLineConfig(Opts.ConfigFile, Opts.ConfigFilePath, Opts.Checks);
  if (!Given)
    return Error(toString(Given.takeError()));
  S.CommandLine = std::move(*Given);
  if (!S.CommandLine.ConfigFile.empty() || !S.CommandLine.InlineConfig.empty())
    if (Expected<Config> Check = ConfigProvider(S.CommandLine).configFor("."); !Check)
      return Error(toString(Check.takeError()));
  if (!Opts.CompileCommandsDir.empty() && !sys::fs::is_directory(Opts.CompileCommandsDir))
    return Error(Opts.CompileCommandsDir +
                 ": no such directory (given with --compile-commands-dir)");
  SmallString<256> Dir(Opts.CompileCommandsDir);
  if (!Dir.empty())
    sys::fs::make_absolute(Dir);
  S.CompileCommandsDir = Dir.str().str();
  S.FixedFlags = Opts.FixedFlags;
  S.ExtraArgs = Opts.ExtraArgs;
  S.ExtraArgsBefore = Opts.ExtraArgsBefore;
  S.CudaPath = Opts.CudaPath;
  S.DevicePass = Opts.DevicePass;
  S.Jobs = Opts.Jobs;
  S.ResourceDir = findResourceDir(Argv0);
  if (S.ResourceDir.empty())
    return Error("cannot find the resource directory share/cuda-advisor next to the "
                 "executable (reinstall cuda-advisor)");
  SmallString<256> DocsDir(S.ResourceDir);
  sys::path::append(DocsDir, "docs", "checks");
  S.DocsDir = DocsDir.str().str();
  S.DocsBaseUri = Opts.DocsUrl;
  if (!Opts.Profiles.empty()) {
    auto Merged = std::make_shared<profile::Profile>();
    for (const std::string &P : Opts.Profiles) {
      auto Read = profile::readProfile(P);
      if (!Read)
        return Error(toString(Read.takeError()));
      Merged->merge(std::move(*Read));
    }
    profile::SymbolizeOptions SymOpts;
    SymOpts.BinaryPaths = Opts.BinaryPaths;
    for (const std::string &W : profile::symbolizeStacks(*Merged, SymOpts).Warnings)
      WithColor::warning(errs(), "cuda-advisor lsp") << W << "\n";
    S.Profile = std::move(Merged);
  }
  return lsp::runServer(S, stdin, outs(), errs());
}

} // namespace cuda_advisor::driver
