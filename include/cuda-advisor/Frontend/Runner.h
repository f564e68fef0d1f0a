//===- Runner.h - Parsing many files in parallel ---------------*- C++ -*-===//
//
// Loads the compilation database, translates each file's command, parses the
// files on a thread pool (one host-side parse each, plus a device-side one
// with --device-pass) and hands every AST to a consumer made by the caller.
// The runner never knows which checks exist.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_FRONTEND_RUNNER_H
#define CUDA_ADVISOR_FRONTEND_RUNNER_H

#include "cuda-advisor/Core/Finding.h"
#include "cuda-advisor/Frontend/CommandTranslation.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace cuda_advisor::frontend {

struct FileResult;

/// A file that a parse read, and the digest (contentHash) of the bytes it
/// parsed.
struct FileDigest {
  std::string Path; ///< Absolute.
  std::string Hash;
};

/// What decides a file's result as far as the runner knows it: the file and
/// every argument of each of its parses, with the directory they ran in.
struct ParseInputs {
  std::string File;    ///< Absolute.
  std::string Command; ///< The parses' arguments and directory, one string.
};

/// Where analyzed files' results are kept and looked up: the result cache
/// (Driver/ResultCache.h). The runner calls it from its worker threads.
class ResultStore {
public:
  virtual ~ResultStore();
  /// Before parsing: true when a stored result for In is still valid (no
  /// file it read has changed); it is then in R.Findings.
  virtual bool lookup(const ParseInputs &In, FileResult &R) = 0;
  /// After parsing without errors: Read holds every file the parses read.
  /// May add a message (--verbose) to R.
  virtual void store(const ParseInputs &In, FileResult &R,
                     const std::vector<FileDigest> &Read) = 0;
};

struct RunnerOptions {
  std::string BuildPath;                              ///< -p (dir or file); may be empty.
  std::optional<std::vector<std::string>> FixedFlags; ///< "-- FLAGS".
  std::string CudaPath;                               ///< --cuda-path.
  ParseSetup Setup;
  unsigned Jobs = 0;                                  ///< 0: all cores.
  bool Verbose = false;
  /// Contents that replace files on disk (absolute path -> text): an
  /// editor's unsaved buffers. The file need not exist on disk.
  std::map<std::string, std::string> UnsavedFiles;
  /// The result cache, if any (not used with UnsavedFiles).
  ResultStore *Cache = nullptr;
  /// Called once per file as soon as it is analyzed (from the worker, one
  /// call at a time): Index into Files, and the number done so far.
  std::function<void(size_t Index, size_t Done, const FileResult &R)> OnFileDone;
};

/// Every file of the compilation database given by -p (a directory or the
/// file), once each, sorted: run-clang-tidy's whole-database mode.
llvm::Expected<std::vector<std::string>> databaseFiles(llvm::StringRef BuildPath);

/// The directory whose compile_commands.json applies to File, searched as
/// clangd does: File's directory and each parent, looking in the directory
/// itself and in its build/ subdirectory. Empty when there is none.
std::string findCompilationDatabaseDir(llvm::StringRef File);

/// What happened to one file.
struct FileResult {
  std::string File;                  ///< As given on the command line, made absolute.
  std::vector<Finding> Findings;
  std::string CompilerErrors;        ///< Clang's error output for this file.
  std::vector<std::string> Messages; ///< Notes for the user (--verbose, fallbacks).
  bool InputError = false;           ///< Missing file, no command, parse errors...
  bool ParseErrors = false;          ///< Clang reported errors (analysis still ran).
  std::string ErrorMessage;          ///< One line: why the file is an input error.
};

/// Made once per parse, on the worker thread: the consumer that runs the
/// checks over the AST and appends to Result.Findings.
using ConsumerFactory = std::function<std::unique_ptr<clang::ASTConsumer>(
    clang::CompilerInstance &CI, FileResult &Result, bool DevicePass)>;

/// Analyzes Files. Fails only for errors that stop everything (a -p that
/// does not exist or does not parse); per-file problems land in FileResult.
/// Results come back in the order of Files.
llvm::Expected<std::vector<FileResult>> runOnFiles(const std::vector<std::string> &Files,
                                                   const RunnerOptions &Opts,
                                                   const ConsumerFactory &Factory);

/// The files of the compilation database at BuildPath (a directory or the
/// file itself), absolute; empty when there is none or it does not load.
std::vector<std::string> compileDatabaseFiles(llvm::StringRef BuildPath);

} // namespace cuda_advisor::frontend

#endif
