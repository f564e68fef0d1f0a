//===- Runner.cpp - Parsing many files in parallel -------------------------===//
#include "cuda-advisor/Frontend/Runner.h"
#include "cuda-advisor/Frontend/HostDeviceRedeclarations.h"
#include "cuda-advisor/Frontend/LaunchChevrons.h"
#include "cuda-advisor/Core/FileIO.h"

#include "clang/Basic/Cuda.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "clang/Basic/Stack.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/thread.h"

#include <csignal>
#include <map>
#include <memory>
#include <mutex>
#include <set>

using namespace llvm;
namespace tooling = clang::tooling;

namespace cuda_advisor::frontend {
namespace {

/// Compat declarations that a file's own can clash with (its own global
/// `texture`, its own back-port of thrust::unary_function): the header, and
/// the macro that leaves them out when the file is parsed again.
struct CompatDeclarations {
  StringRef Header, Without, Why;
};
constexpr CompatDeclarations OptionalCompat[] = {
    {"cuda_advisor_removed_templates.h", "-DCUDA_ADVISOR_NO_TEXTURE_REFERENCES",
     "the file declares its own 'texture' or 'surface': parsed again without the legacy texture "
     "and surface references"},
    {"cuda_advisor_removed_thrust.h", "-DCUDA_ADVISOR_NO_THRUST_FUNCTIONAL",
     "the file declares its own thrust::unary_function or thrust::binary_function: parsed again "
     "without cuda-advisor's"},
};

/// Prints Clang's errors (not its warnings: the tool has its own findings)
/// into a per-file buffer, so that files analyzed in parallel do not mix.
class ErrorCollector : public clang::TextDiagnosticPrinter {
public:
  ErrorCollector(raw_ostream &OS, clang::DiagnosticOptions *Opts)
      : TextDiagnosticPrinter(OS, Opts) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    if (isDeviceSideLaunch(Info)) {
      LastWasError = false; // Nor its notes.
      return;
    }
    if (Level < clang::DiagnosticsEngine::Error) {
      // Notes attached to an error are printed with it.
      if (Level != clang::DiagnosticsEngine::Note || !LastWasError)
        return;
    }
    LastWasError = Level >= clang::DiagnosticsEngine::Error || Level == clang::DiagnosticsEngine::Note;
    if (Level >= clang::DiagnosticsEngine::Error)
      ++Errors;
    noteHostDeviceRedeclaration(Info);
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      clang::PresumedLoc P = Info.getSourceManager().getPresumedLoc(Info.getLocation());
      for (const CompatDeclarations &C : OptionalCompat)
        if (P.isValid() && StringRef(P.getFilename()).ends_with(C.Header))
          Clashes.insert(&C);
    }
    // Counted by DiagnosticConsumer too; we keep our own to ignore warnings.
    TextDiagnosticPrinter::HandleDiagnostic(Level, Info);
  }
  unsigned Errors = 0;
  /// The compat declarations an error, or a note of one, points into (in
  /// OptionalCompat's order).
  std::set<const CompatDeclarations *> Clashes;
  /// Definitions without attributes of functions declared __host__
  /// __device__, which Clang rejected and nvcc accepts: the file (as Clang
  /// names it) and where to write the attributes.
  std::vector<std::pair<std::string, size_t>> HostDeviceRedeclarations;

private:
  static std::optional<uint64_t> rawTarget(const clang::Diagnostic &Info, unsigned I) {
    if (I >= Info.getNumArgs())
      return std::nullopt;
    auto K = Info.getArgKind(I);
    if (K != clang::DiagnosticsEngine::ak_uint && K != clang::DiagnosticsEngine::ak_sint)
      return std::nullopt;
    return Info.getRawArg(I);
  }

  /// "__host__ function 'f' cannot overload __host__ __device__ function
  /// 'f'" at a definition in a file (not a macro expansion).
  void noteHostDeviceRedeclaration(const clang::Diagnostic &Info) {
    if (Info.getID() != clang::diag::err_cuda_ovl_target || !Info.hasSourceManager() ||
        rawTarget(Info, 0) != static_cast<uint64_t>(clang::CUDAFunctionTarget::Host) ||
        rawTarget(Info, 2) != static_cast<uint64_t>(clang::CUDAFunctionTarget::HostDevice))
      return;
    const clang::SourceManager &SM = Info.getSourceManager();
    clang::SourceLocation L = Info.getLocation();
    if (L.isInvalid() || !L.isFileID())
      return;
    clang::FileID FID = SM.getFileID(L);
    clang::OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
    bool Invalid = false;
    StringRef Data = SM.getBufferData(FID, &Invalid);
    if (!FE || Invalid)
      return;
    HostDeviceRedeclarations.push_back(
        {FE->getName().str(), hostDeviceInsertionPoint(Data, SM.getFileOffset(L))});
  }

  /// "reference to __global__ function 'child' in __global__ function":
  /// Clang has no dynamic parallelism, nvcc does (with -rdc). Sema checks
  /// this only when it emits the device function, after the AST is built,
  /// so the AST is whole: the device pass is not a failed parse for it.
  static bool isDeviceSideLaunch(const clang::Diagnostic &Info) {
    if (Info.getID() != clang::diag::err_ref_bad_target || Info.getNumArgs() < 4)
      return false;
    auto Target = [&](unsigned I) { return rawTarget(Info, I); };
    auto Global = static_cast<uint64_t>(clang::CUDAFunctionTarget::Global);
    auto Device = static_cast<uint64_t>(clang::CUDAFunctionTarget::Device);
    std::optional<uint64_t> Callee = Target(0), Caller = Target(3);
    return Callee == Global && (Caller == Global || Caller == Device);
  }
  bool LastWasError = false;
};

class AnalysisAction : public clang::ASTFrontendAction {
public:
  AnalysisAction(const ConsumerFactory &Factory, FileResult &Result, bool DevicePass,
                 std::vector<FileDigest> *Read)
      : Factory(Factory), Result(Result), DevicePass(DevicePass), Read(Read) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        StringRef) override {
    return Factory(CI, Result, DevicePass);
  }

  /// For the result cache: every file the parse read (the main file, each
  /// header), with the digest of the bytes parsed, not of what is on disk
  /// by now.
  void EndSourceFileAction() override {
    if (!Read)
      return;
    clang::CompilerInstance &CI = getCompilerInstance();
    clang::SourceManager &SM = CI.getSourceManager();
    StringRef Cwd = CI.getFileSystemOpts().WorkingDir;
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      std::optional<MemoryBufferRef> Buffer = It->second->getBufferIfLoaded();
      if (!Buffer)
        continue; // Looked at, never read.
      SmallString<256> Path(It->first.getFileEntry().tryGetRealPathName());
      if (Path.empty()) {
        Path = It->first.getName();
        if (!Cwd.empty())
          sys::fs::make_absolute(Cwd, Path);
        else
          CI.getFileManager().getVirtualFileSystem().makeAbsolute(Path);
        sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
      }
      Read->push_back({Path.str().str(), contentHash(Buffer->getBuffer())});
    }
  }

private:
  const ConsumerFactory &Factory;
  FileResult &Result;
  bool DevicePass;
  std::vector<FileDigest> *Read;
};

std::string absolutePath(StringRef P) {
  SmallString<256> Abs(P);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return Abs.str().str();
}

/// The compilation database given by -p (a directory or the file itself).
Expected<std::unique_ptr<tooling::CompilationDatabase>> loadDatabase(StringRef BuildPath) {
  std::string Error;
  if (!sys::fs::exists(BuildPath))
    return createStringError(inconvertibleErrorCode(), "%s: no such file or directory (given with -p)",
                             BuildPath.str().c_str());
  SmallString<256> File(BuildPath);
  if (sys::fs::is_directory(BuildPath))
    sys::path::append(File, "compile_commands.json");
  if (!sys::fs::exists(File))
    return createStringError(inconvertibleErrorCode(),
                             "%s: no compile_commands.json in this directory (configure the "
                             "project with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)",
                             BuildPath.str().c_str());
  auto DB = tooling::JSONCompilationDatabase::loadFromFile(
      File, Error, tooling::JSONCommandLineSyntax::AutoDetect);
  if (!DB) {
    // Clang's reasons read "Expected array." or "Error while parsing...".
    StringRef Why = StringRef(Error).trim().rtrim('.');
    std::string Reason = Why.empty() ? "unknown error" : Why.str();
    Reason[0] = toLower(Reason[0]);
    return createStringError(inconvertibleErrorCode(),
                             "%s: not a valid compilation database (a JSON array of compile "
                             "commands): %s",
                             File.c_str(), Reason.c_str());
  }
  return tooling::inferMissingCompileCommands(std::move(DB));
}

/// Positions of a parse made with __host__ __device__ written into some
/// files, mapped back to the files on disk.
class InsertionMap {
public:
  InsertionMap(const HostDeviceInsertions &Insertions, vfs::FileSystem &Disk) : Disk(Disk) {
    for (const auto &[Real, Offsets] : Insertions) {
      File &F = Files[Real];
      F.Sorted = normalizedOffsets(Offsets);
      if (auto Buffer = Disk.getBufferForFile(Real))
        F.Text = (*Buffer)->getBuffer().str();
    }
  }

  OriginalOffset original(const std::string &Real, size_t Offset) const {
    auto It = Files.find(Real);
    return It == Files.end() ? OriginalOffset{Offset, false}
                             : originalOffset(It->second.Sorted, Offset);
  }

  void restore(Finding &F) {
    restore(F.Loc);
    restore(F.Range.Begin);
    restore(F.Range.End);
    for (FindingNote &N : F.Notes)
      restore(N.Loc);
    for (SourceLocation &L : F.Keys.CallSites)
      restore(L);
    llvm::erase_if(F.Fixes, [&](FixIt &Fix) {
      bool Inside = restore(Fix.Range.Begin) | restore(Fix.Range.End);
      return Inside;
    });
  }

  void restoreDigest(FileDigest &D) {
    if (const File *F = fileOf(D.Path); F && !F->Text.empty())
      D.Hash = contentHash(F->Text);
  }

private:
  struct File {
    std::vector<size_t> Sorted;
    std::string Text; ///< On disk.
  };

  const File *fileOf(const std::string &Path) {
    auto Cached = RealOf.find(Path);
    if (Cached == RealOf.end()) {
      SmallString<256> Real;
      Cached = RealOf.try_emplace(Path, Disk.getRealPath(Path, Real) ? std::string()
                                                                      : std::string(Real))
                   .first;
    }
    auto It = Files.find(Cached->second);
    return It == Files.end() ? nullptr : &It->second;
  }

  /// Whether L fell in an inserted spelling.
  bool restore(SourceLocation &L) {
    if (!L.isValid())
      return false;
    const File *F = fileOf(L.File);
    if (!F)
      return false;
    OriginalOffset O = originalOffset(F->Sorted, L.Offset);
    L.Offset = unsigned(O.Offset);
    if (O.Offset <= F->Text.size()) {
      size_t LineStart = StringRef(F->Text).substr(0, O.Offset).rfind('\n');
      L.Column = unsigned(O.Offset - (LineStart == StringRef::npos ? 0 : LineStart + 1) + 1);
    }
    return O.Inside;
  }

  vfs::FileSystem &Disk;
  std::map<std::string, File> Files;
  std::map<std::string, std::string> RealOf;
};

class Runner {
public:
  Runner(const RunnerOptions &Opts, const ConsumerFactory &Factory)
      : Opts(Opts), Factory(Factory), Locator(Opts.CudaPath), Setup(Opts.Setup) {
    if (Setup.ClangDriver.empty())
      Setup.ClangDriver = findClangDriver();
  }

  Error prepare() {
    if (Opts.FixedFlags) {
      Fixed = std::make_unique<tooling::FixedCompilationDatabase>(".", *Opts.FixedFlags);
      return Error::success();
    }
    if (!Opts.BuildPath.empty()) {
      auto DB = loadDatabase(Opts.BuildPath);
      if (!DB)
        return DB.takeError();
      Shared = std::move(*DB);
    }
    return Error::success();
  }

  void analyze(const std::string &Given, FileResult &R) {
    R.File = absolutePath(Given);
    if (Opts.UnsavedFiles.count(R.File)) {
      // An editor's buffer: what is on disk does not matter.
    } else if (!sys::fs::exists(R.File)) {
      fail(R, "no such file");
      return;
    } else if (sys::fs::is_directory(R.File)) {
      fail(R, "is a directory, not a source file");
      return;
    } else if (Expected<sys::fs::file_t> F = sys::fs::openNativeFileForRead(R.File)) {
      sys::fs::closeFile(*F);
    } else {
      fail(R, "cannot read it: " + toString(F.takeError()));
      return;
    }
    std::optional<tooling::CompileCommand> Cmd = commandFor(R);
    NeutralCommand Neutral;
    if (Cmd) {
      Neutral = translateCommand(Cmd->CommandLine, R.File, Cmd->Directory,
                                 /*PassThrough=*/Fixed != nullptr);
    } else {
      Neutral.Cuda = StringRef(R.File).ends_with(".cu") || StringRef(R.File).ends_with(".cuh");
    }
    auto Cuda = Locator.locate(Neutral.Nvcc, Neutral.CudaPath);
    if (!Cuda) {
      fail(R, toString(Cuda.takeError()));
      return;
    }
    for (const std::string &W : Neutral.Warnings)
      R.Messages.push_back(W);
    if (Opts.Verbose) {
      if (!Neutral.Dropped.empty())
        R.Messages.push_back("dropped flags: " + join(Neutral.Dropped, " "));
      R.Messages.push_back(Cuda->Bundled ? std::string("parsed against the bundled CUDA declarations")
                                         : "CUDA " + Cuda->versionString() + " at " + Cuda->Path +
                                               " (" + Cuda->FoundBy + ")");
    }
    if (Cuda->Bundled && Opts.CudaPath != "bundled")
      R.Messages.push_back("@bundled"); // The driver says it once for all files.
    StringRef Directory = Cmd ? StringRef(Cmd->Directory) : StringRef();
    bool Cached = Opts.Cache && Opts.UnsavedFiles.empty();
    ParseInputs Inputs;
    if (Cached) {
      Inputs = {R.File, parseCommand(Neutral, *Cuda, R.File, Directory)};
      if (Opts.Cache->lookup(Inputs, R))
        return;
    }
    std::vector<FileDigest> Read;
    std::vector<FileDigest> *ReadOrNull = Cached ? &Read : nullptr;
    parse(R, Neutral, *Cuda, /*DevicePass=*/false, Directory, ReadOrNull);
    if (Opts.Setup.DevicePass && Neutral.Cuda && !R.InputError)
      parse(R, Neutral, *Cuda, /*DevicePass=*/true, Directory, ReadOrNull);
    // A file with compiler errors is parsed again next time, as a compiler
    // cache does not keep failed compiles.
    if (Cached && !R.InputError && !R.ParseErrors)
      Opts.Cache->store(Inputs, R, Read);
  }

private:
  /// Every argument of the file's parses (host, then device with
  /// --device-pass) and their directory, separated by NULs: the part of the
  /// result cache's key that the runner knows.
  std::string parseCommand(const NeutralCommand &Neutral, const CudaInstallation &Cuda,
                           StringRef File, StringRef Directory) const {
    std::string Out = "directory";
    Out.push_back('\0');
    Out += Directory;
    for (bool DevicePass : {false, true}) {
      if (DevicePass && !(Opts.Setup.DevicePass && Neutral.Cuda))
        break;
      ParseSetup PassSetup = Setup;
      PassSetup.DevicePass = DevicePass;
      Out += DevicePass ? StringRef("\0device", 7) : StringRef("\0host", 5);
      for (const std::string &Arg : buildParseArgs(Neutral, Cuda, PassSetup, File)) {
        Out.push_back('\0');
        Out += Arg;
      }
    }
    return Out;
  }

  static void fail(FileResult &R, std::string Why) {
    R.InputError = true;
    R.ErrorMessage = std::move(Why);
  }

  std::optional<tooling::CompileCommand> commandFor(FileResult &R) {
    tooling::CompilationDatabase *DB = Fixed ? Fixed.get() : Shared.get();
    if (!DB)
      DB = detectedFor(R);
    if (DB) {
      std::vector<tooling::CompileCommand> Cmds = DB->getCompileCommands(R.File);
      if (!Cmds.empty())
        return Cmds.front();
    }
    R.Messages.push_back(std::string("no compile command found for this file") +
                         (Opts.BuildPath.empty() ? "" : " in " + Opts.BuildPath) +
                         "; parsing it with default flags");
    return std::nullopt;
  }

  void parse(FileResult &R, const NeutralCommand &Neutral, const CudaInstallation &Cuda,
             bool DevicePass, StringRef Directory, std::vector<FileDigest> *Read) {
    ParseSetup PassSetup = Setup;
    PassSetup.DevicePass = DevicePass;
    size_t FindingsBefore = R.Findings.size();
    size_t ReadBefore = Read ? Read->size() : 0;
    bool ErrorsBefore = R.ParseErrors;
    std::string CompilerErrorsBefore = R.CompilerErrors;
    // What a parse found is dropped before the file is parsed again.
    auto Reset = [&] {
      R.Findings.resize(FindingsBefore);
      if (Read)
        Read->resize(ReadBefore);
      R.ParseErrors = ErrorsBefore;
      R.CompilerErrors = CompilerErrorsBefore;
    };
    std::vector<std::string> Args = buildParseArgs(Neutral, Cuda, PassSetup, R.File);
    ParseOutcome Out = parseOnce(R, Args, DevicePass, Directory, Read, nullptr);
    // The compat declarations of what the toolkit removed clash with the
    // file's own (a global `texture` or `surface`, a back-port of
    // thrust::unary_function): parse it again without them (the file cannot
    // be using the removed ones then), once for each kind at most.
    while (!Out.Clashes.empty()) {
      Reset();
      for (const CompatDeclarations *C : Out.Clashes) {
        PassSetup.ExtraArgs.push_back(C->Without.str());
        if (Opts.Verbose)
          R.Messages.push_back(C->Why.str());
      }
      Args = buildParseArgs(Neutral, Cuda, PassSetup, R.File);
      Out = parseOnce(R, Args, DevicePass, Directory, Read, nullptr);
    }
    // Definitions that nvcc takes for the __host__ __device__ functions
    // they define: parse again with the attributes written before them. A
    // parse reports at most -ferror-limit of them: parse again while new
    // ones appear (a header of many operators), a few times at most.
    std::shared_ptr<HostDeviceInsertions> All;
    for (unsigned Round = 0; Round < MaxHostDeviceRounds && Out.HostDevice &&
                             !Out.HostDevice->empty();
         ++Round) {
      if (!All)
        All = std::make_shared<HostDeviceInsertions>();
      for (auto &[File, Offsets] : *Out.HostDevice)
        llvm::append_range((*All)[File], Offsets);
      for (auto &[File, Offsets] : *All)
        Offsets = normalizedOffsets(std::move(Offsets));
      Reset();
      if (Opts.Verbose) {
        size_t N = 0;
        for (const auto &[File, Offsets] : *All)
          N += Offsets.size();
        R.Messages.push_back("parsed again with __host__ __device__ before " + std::to_string(N) +
                             " definitions of functions declared so (nvcc's rule; Clang "
                             "rejects them)");
      }
      Out = parseOnce(R, Args, DevicePass, Directory, Read,
                      std::make_shared<const HostDeviceInsertions>(*All));
    }
  }

  /// Parses with the attributes written in, at most this many times.
  static constexpr unsigned MaxHostDeviceRounds = 4;

  struct ParseOutcome {
    /// The parse should be run again without these compat declarations
    /// (nothing of it was recorded).
    std::vector<const CompatDeclarations *> Clashes;
    /// Where to write __host__ __device__ for a parse that accepts the
    /// definitions nvcc accepts (the errors of this parse were recorded).
    std::shared_ptr<HostDeviceInsertions> HostDevice;
  };

  /// One parse, with the attributes of Insert written in when given.
  ParseOutcome parseOnce(FileResult &R, const std::vector<std::string> &Args, bool DevicePass,
                         StringRef Directory, std::vector<FileDigest> *Read,
                         std::shared_ptr<const HostDeviceInsertions> Insert) {
    ParseOutcome Outcome;
    if (Opts.Verbose)
      R.Messages.push_back(std::string(DevicePass ? "device" : "host") +
                           " parse: " + join(Args, " "));

    std::string ErrorText;
    raw_string_ostream ErrorOS(ErrorText);
    auto DiagOpts = makeIntrusiveRefCnt<clang::DiagnosticOptions>();
    DiagOpts->ShowColors = false;
    ErrorCollector Diags(ErrorOS, DiagOpts.get());

    // A private working directory: files are parsed on several threads.
    IntrusiveRefCntPtr<vfs::FileSystem> FS(vfs::createPhysicalFileSystem().release());
    if (!Opts.UnsavedFiles.empty()) {
      // The unsaved buffers over the disk, as clangd's overlay does.
      auto Memory = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
      for (const auto &[Path, Text] : Opts.UnsavedFiles)
        Memory->addFile(Path, /*ModificationTime=*/0, MemoryBuffer::getMemBufferCopy(Text, Path));
      auto Overlay = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(FS);
      Overlay->pushOverlay(Memory);
      FS = Overlay;
    }
    // Launches spelled `<< <` ... `>> >` (Visual Studio's formatting), which
    // nvcc accepts, read as `<<<` ... `>>>`, byte for byte in place.
    FS = launchChevronFileSystem(FS);
    if (!Directory.empty())
      FS->setCurrentWorkingDirectory(Directory);
    IntrusiveRefCntPtr<vfs::FileSystem> DiskFS = FS; // Without the insertions.
    if (Insert)
      FS = hostDeviceRedeclarationFileSystem(FS, Insert);
    size_t FindingsStart = R.Findings.size();
    size_t ReadStart = Read ? Read->size() : 0;
    auto Files = makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), FS);
    auto Action = std::make_unique<AnalysisAction>(Factory, R, DevicePass, Read);
    tooling::ToolInvocation Invocation(Args, std::move(Action), Files.get());
    Invocation.setDiagnosticConsumer(&Diags);
    bool Ok = Invocation.run();
    ErrorOS.flush();
    for (const CompatDeclarations *C : Diags.Clashes)
      if (!is_contained(Args, C->Without))
        Outcome.Clashes.push_back(C);
    if (!Outcome.Clashes.empty())
      return Outcome;
    if (Diags.Errors || !Ok) {
      R.ParseErrors = true;
      if (!ErrorText.empty())
        R.CompilerErrors += ErrorText;
      else if (!Ok)
        R.CompilerErrors += "the compiler could not run on this file\n";
    }
    std::optional<InsertionMap> Map;
    if (Insert)
      Map.emplace(*Insert, *DiskFS);
    if (!Diags.HostDeviceRedeclarations.empty()) {
      Outcome.HostDevice = std::make_shared<HostDeviceInsertions>();
      for (const auto &[Name, Offset] : Diags.HostDeviceRedeclarations) {
        SmallString<256> Real;
        if (DiskFS->getRealPath(Name, Real))
          continue;
        // Reported in the text with this parse's insertions: where it is on disk.
        size_t At = Map ? Map->original(std::string(Real), Offset).Offset : Offset;
        (*Outcome.HostDevice)[std::string(Real)].push_back(At);
      }
    }
    if (Map) {
      // Findings point into the text with the insertions: give them the
      // positions of the file on disk (a fix-it that touches an inserted
      // spelling is dropped), and the result cache the digest of its bytes.
      for (size_t I = FindingsStart; I < R.Findings.size(); ++I)
        Map->restore(R.Findings[I]);
      if (Read)
        for (size_t I = ReadStart; I < Read->size(); ++I)
          Map->restoreDigest((*Read)[I]);
    }
    return Outcome;
  }

  const RunnerOptions &Opts;
  const ConsumerFactory &Factory;
  CudaLocator Locator;
  ParseSetup Setup; ///< Opts.Setup with the clang driver filled in.
  std::unique_ptr<tooling::CompilationDatabase> Fixed, Shared;
  /// Without -p: the database found above each file (as clangd finds it),
  /// loaded once per directory that holds one for the whole run, not once
  /// per file; directories without one map to nullptr.
  std::map<std::string, std::shared_ptr<tooling::CompilationDatabase>> Detected;
  std::mutex DetectedLock;

  tooling::CompilationDatabase *detectedFor(FileResult &R) {
    SmallString<256> Dir(R.File);
    sys::fs::make_absolute(Dir);
    sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
    sys::path::remove_filename(Dir);
    std::lock_guard<std::mutex> Guard(DetectedLock);
    std::vector<std::string> Walked;
    std::shared_ptr<tooling::CompilationDatabase> Found;
    for (StringRef D = Dir; !D.empty(); D = sys::path::parent_path(D)) {
      auto It = Detected.find(D.str());
      if (It != Detected.end()) {
        Found = It->second;
        break;
      }
      Walked.push_back(D.str());
      std::string Error;
      // This directory only (autoDetectFromDirectory would walk up from it).
      if (auto DB = tooling::CompilationDatabase::loadFromDirectory(D, Error)) {
        Found = tooling::inferMissingCompileCommands(std::move(DB));
        if (Opts.Verbose)
          R.Messages.push_back("loaded the compilation database of " + D.str() +
                               " (once for every file under it)");
        break;
      }
      if (D == sys::path::parent_path(D))
        break;
    }
    for (const std::string &W : Walked)
      Detected[W] = Found;
    return Found.get();
  }
};

/// The stack each file is analyzed on: Clang's own desired size, so that
/// its stack-space guard (clang::isStackNearlyExhausted, which assumes this
/// size) moves deep recursions onto fresh threads before they overflow.
constexpr unsigned AnalysisStackSize = clang::DesiredStackSize;

/// Crash recovery for the per-file threads. CrashRecoveryContext's signal
/// handlers must run on an alternate signal stack to survive a stack
/// overflow, so SA_ONSTACK is added to them and every analysis thread gets
/// its own alternate stack (analyzeContained).
void enableCrashRecovery() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    CrashRecoveryContext::Enable();
    for (int Sig : {SIGSEGV, SIGBUS}) {
      struct sigaction Action;
      if (sigaction(Sig, nullptr, &Action) == 0) {
        Action.sa_flags |= SA_ONSTACK;
        sigaction(Sig, &Action, nullptr);
      }
    }
  });
}

/// Analyzes one file so that a crash (or a stack overflow) in it becomes an
/// error for that file only: on its own thread with Clang's stack size and
/// bottom-of-stack mark, inside a crash-recovery context.
void analyzeContained(Runner &R, const std::string &File, FileResult &Out) {
  std::vector<char> AltStack(std::max<size_t>(SIGSTKSZ, 64 * 1024));
  CrashRecoveryContext CRC;
  bool Ok = false;
  // The thread is ours (not CRC.RunSafelyOnThread's) so that the alternate
  // stack is put back after a crash too: a thread that exits with AltStack
  // still installed leaves the thread library a signal stack it does not own
  // (AddressSanitizer unmaps the one it finds at thread exit, and aborted on
  // this heap buffer in frontend/crash-containment.test), and AltStack is
  // freed below while still registered.
  llvm::thread Thread(std::optional<unsigned>(AnalysisStackSize), [&] {
    stack_t SS{}, Old{};
    SS.ss_sp = AltStack.data();
    SS.ss_size = AltStack.size();
    bool Installed = sigaltstack(&SS, &Old) == 0;
    clang::noteBottomOfStack();
    Ok = CRC.RunSafely([&] { R.analyze(File, Out); });
    if (Installed)
      sigaltstack(&Old, nullptr);
  });
  Thread.join();
  if (Ok)
    return;
  // What the crashed analysis left half-done may be inconsistent: it is
  // abandoned (leaked, never destroyed) and the result starts afresh.
  new (&Out) FileResult();
  Out.File = absolutePath(File);
  Out.InputError = true;
  Out.ErrorMessage = "the analyzer crashed on this file (" +
                     std::string(CRC.RetCode == 128 + SIGSEGV ? "a stack overflow or a bad "
                                                                "memory access"
                                                              : "an internal error") +
                     "); no findings for it, the other files are still analyzed";
}

} // namespace

ResultStore::~ResultStore() = default;

Expected<std::vector<std::string>> databaseFiles(StringRef BuildPath) {
  auto DB = loadDatabase(BuildPath);
  if (!DB)
    return DB.takeError();
  std::vector<std::string> Files;
  for (const std::string &F : (*DB)->getAllFiles())
    Files.push_back(absolutePath(F));
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  return Files;
}

std::string findCompilationDatabaseDir(StringRef File) {
  SmallString<256> Dir(sys::path::parent_path(absolutePath(File)));
  while (!Dir.empty()) {
    for (StringRef Sub : {"", "build"}) {
      SmallString<256> Candidate(Dir);
      if (!Sub.empty())
        sys::path::append(Candidate, Sub);
      SmallString<256> Json(Candidate);
      sys::path::append(Json, "compile_commands.json");
      if (sys::fs::is_regular_file(Json))
        return Candidate.str().str();
    }
    StringRef Parent = sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir.resize(Parent.size()); // The parent is a prefix of Dir.
  }
  return "";
}

Expected<std::vector<FileResult>> runOnFiles(const std::vector<std::string> &Files,
                                             const RunnerOptions &Opts,
                                             const ConsumerFactory &Factory) {
  Runner R(Opts, Factory);
  if (Error E = R.prepare())
    return E;
  enableCrashRecovery();
  std::vector<FileResult> Results(Files.size());
  std::mutex DoneLock;
  size_t Done = 0;
  auto AnalyzeOne = [&](size_t I) {
    analyzeContained(R, Files[I], Results[I]);
    if (!Opts.OnFileDone)
      return;
    std::lock_guard<std::mutex> Guard(DoneLock);
    Opts.OnFileDone(I, ++Done, Results[I]);
  };
  unsigned Jobs = Opts.Jobs ? Opts.Jobs : hardware_concurrency().compute_thread_count();
  Jobs = std::max(1u, std::min<unsigned>(Jobs, Files.size()));
  if (Jobs == 1) {
    for (size_t I = 0; I < Files.size(); ++I)
      AnalyzeOne(I);
    return Results;
  }
  DefaultThreadPool Pool(hardware_concurrency(Jobs));
  for (size_t I = 0; I < Files.size(); ++I)
    Pool.async([&, I] { AnalyzeOne(I); });
  Pool.wait();
  return Results;
}

std::vector<std::string> compileDatabaseFiles(StringRef BuildPath) {
  std::vector<std::string> Out;
  if (BuildPath.empty())
    return Out;
  auto DB = loadDatabase(BuildPath);
  if (!DB) {
    consumeError(DB.takeError());
    return Out;
  }
  for (const std::string &F : (*DB)->getAllFiles())
    Out.push_back(absolutePath(F));
  return Out;
}

} // namespace cuda_advisor::frontend
