//===- CommandTranslation.cpp - nvcc/gcc/clang -> clang CUDA args ---------===//
//
// nvcc accepts every option as -short, --long, with the value attached by
// '=' or as the next argument (and -DX / -I/dir attached for a few). The
// table below lists the spellings we know; each says how many values the
// option takes and what becomes of it in a Clang syntax-only parse.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Frontend/CommandTranslation.h"

#include "clang/Basic/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

#include <algorithm>
#include <dlfcn.h>

using namespace llvm;

namespace cuda_advisor::frontend {

CompilerKind classifyCompiler(StringRef Argv0) {
  StringRef Name = sys::path::filename(Argv0);
  Name.consume_back(".exe");
  if (Name == "nvcc" || Name.starts_with("nvcc-") || Name.ends_with("-nvcc"))
    return CompilerKind::Nvcc;
  if (Name.contains("clang") || Name == "clang-tool")
    return CompilerKind::Clang;
  if (Name.contains("g++") || Name.contains("gcc") || Name == "c++" || Name == "cc" ||
      Name == "CC")
    return CompilerKind::Gcc;
  return CompilerKind::Other;
}

namespace {

enum class Action {
  Define,        // -D
  Undefine,      // -U
  Include,       // -I
  SystemInclude, // -isystem
  PreInclude,    // -include
  Std,           // -std
  Language,      // -x
  Arch,          // -arch / --gpu-architecture
  Code,          // -code / --gpu-code
  GenCode,       // -gencode / --generate-code
  Rdc,           // -rdc / --relocatable-device-code (value true/false)
  DeviceCompile, // -dc: -c with relocatable device code
  FastMath,      // --use_fast_math
  HostOptions,   // -Xcompiler / --compiler-options
  DefaultStream, // --default-stream
  OptionsFile,   // --options-file / -optf
  Machine,       // -m / --machine 64
  Drop,          // understood only by nvcc, ptxas, nvlink, fatbinary
};

struct NvccOption {
  const char *Short; // Without the leading '-'; "" if none.
  const char *Long;  // Without the leading "--"; "" if none.
  unsigned Values;   // 0, 1, or OptionalValue.
  Action Act;
};

/// A value that is taken from the next argument only when it does not look
/// like an option (nvcc's -Werror takes a kind list, CMake may write it bare).
constexpr unsigned OptionalValue = 2;

// nvcc 13.0's options, as `nvcc --help` lists them, that matter to a parse or
// that take a value (so that the value is not taken for a source file).
const NvccOption NvccOptions[] = {
    {"D", "define-macro", 1, Action::Define},
    {"U", "undefine-macro", 1, Action::Undefine},
    {"I", "include-path", 1, Action::Include},
    {"isystem", "system-include", 1, Action::SystemInclude},
    {"include", "pre-include", 1, Action::PreInclude},
    {"std", "std", 1, Action::Std},
    {"x", "x", 1, Action::Language},
    {"arch", "gpu-architecture", 1, Action::Arch},
    {"code", "gpu-code", 1, Action::Code},
    {"gencode", "generate-code", 1, Action::GenCode},
    {"rdc", "relocatable-device-code", 1, Action::Rdc},
    {"dc", "device-c", 0, Action::DeviceCompile},
    {"use_fast_math", "use_fast_math", 0, Action::FastMath},
    {"Xcompiler", "compiler-options", 1, Action::HostOptions},
    {"default-stream", "default-stream", 1, Action::DefaultStream},
    {"optf", "options-file", 1, Action::OptionsFile},
    {"m", "machine", 1, Action::Machine},
    // Values that go to other tools or only steer nvcc's own driver.
    {"o", "output-file", 1, Action::Drop},
    {"ccbin", "compiler-bindir", 1, Action::Drop},
    {"Xptxas", "ptxas-options", 1, Action::Drop},
    {"Xnvlink", "nvlink-options", 1, Action::Drop},
    {"Xlinker", "linker-options", 1, Action::Drop},
    {"Xarchive", "archive-options", 1, Action::Drop},
    {"Xfatbin", "fatbin-options", 1, Action::Drop},
    {"Xcudafe", "", 1, Action::Drop},
    {"maxrregcount", "maxrregcount", 1, Action::Drop},
    {"MF", "dependency-output", 1, Action::Drop},
    {"MT", "dependency-target-name", 1, Action::Drop},
    {"odir", "output-directory", 1, Action::Drop},
    {"keep-dir", "keep-dir", 1, Action::Drop},
    {"t", "threads", 1, Action::Drop},
    {"split-compile", "split-compile", 1, Action::Drop},
    {"split-compile-extended", "split-compile-extended", 1, Action::Drop},
    {"time", "time", 1, Action::Drop},
    {"cudart", "cudart", 1, Action::Drop},
    {"cudadevrt", "cudadevrt", 1, Action::Drop},
    {"L", "library-path", 1, Action::Drop},
    {"l", "library", 1, Action::Drop},
    {"ldir", "libdevice-directory", 1, Action::Drop},
    {"diag-suppress", "diag-suppress", 1, Action::Drop},
    {"diag-error", "diag-error", 1, Action::Drop},
    {"diag-warn", "diag-warn", 1, Action::Drop},
    {"Werror", "Werror", OptionalValue, Action::Drop},
    {"ftz", "ftz", 1, Action::Drop},
    {"prec-div", "prec-div", 1, Action::Drop},
    {"prec-sqrt", "prec-sqrt", 1, Action::Drop},
    {"fmad", "fmad", 1, Action::Drop},
    {"O", "optimize", 1, Action::Drop},
    {"dopt", "dopt", 1, Action::Drop},
    {"static-global-template-stub", "static-global-template-stub", 1, Action::Drop},
    {"run-args", "run-args", 1, Action::Drop},
    {"qpp-config", "qpp-config", 1, Action::Drop},
    {"Xptxas", "", 1, Action::Drop},
    {"jump-table-density", "jump-table-density", 1, Action::Drop},
    {"frandom-seed", "frandom-seed", 1, Action::Drop},
    {"arch-ls", "list-gpu-arch", 0, Action::Drop},
    {"code-ls", "list-gpu-code", 0, Action::Drop},
    {"allow-unsupported-compiler", "allow-unsupported-compiler", 0, Action::Drop},
    {"forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler", 0, Action::Drop},
    {"forward-unknown-to-host-linker", "forward-unknown-to-host-linker", 0, Action::Drop},
    {"forward-unknown-opts", "forward-unknown-opts", 0, Action::Drop},
    {"expt-relaxed-constexpr", "expt-relaxed-constexpr", 0, Action::Drop},
    {"expt-extended-lambda", "expt-extended-lambda", 0, Action::Drop},
    {"extended-lambda", "extended-lambda", 0, Action::Drop},
    {"lineinfo", "generate-line-info", 0, Action::Drop},
    {"G", "device-debug", 0, Action::Drop},
    {"g", "debug", 0, Action::Drop},
    {"res-usage", "resource-usage", 0, Action::Drop},
    {"keep", "keep", 0, Action::Drop},
    {"src-in-ptx", "source-in-ptx", 0, Action::Drop},
    {"c", "compile", 0, Action::Drop},
    {"dw", "device-w", 0, Action::Drop},
    {"dlink", "device-link", 0, Action::Drop},
    {"dlto", "dlink-time-opt", 0, Action::Drop},
    {"lib", "lib", 0, Action::Drop},
    {"link", "link", 0, Action::Drop},
    {"cubin", "cubin", 0, Action::Drop},
    {"ptx", "ptx", 0, Action::Drop},
    {"fatbin", "fatbin", 0, Action::Drop},
    {"E", "preprocess", 0, Action::Drop},
    {"M", "generate-dependencies", 0, Action::Drop},
    {"MM", "generate-nonsystem-dependencies", 0, Action::Drop},
    {"MD", "generate-dependencies-with-compile", 0, Action::Drop},
    {"MMD", "generate-nonsystem-dependencies-with-compile", 0, Action::Drop},
    {"MP", "generate-dependency-targets", 0, Action::Drop},
    {"shared", "shared", 0, Action::Drop},
    {"w", "disable-warnings", 0, Action::Drop},
    {"v", "verbose", 0, Action::Drop},
    {"dryrun", "dryrun", 0, Action::Drop},
    {"err-no", "display-error-number", 0, Action::Drop},
    {"no-host-device-initializer-list", "no-host-device-initializer-list", 0, Action::Drop},
    {"no-host-device-move-forward", "no-host-device-move-forward", 0, Action::Drop},
    {"noeh", "no-exceptions", 0, Action::Drop},
    {"Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets", 0, Action::Drop},
    {"Wno-deprecated-declarations", "Wno-deprecated-declarations", 0, Action::Drop},
    {"Wreorder", "Wreorder", 0, Action::Drop},
    {"Wdefault-stream-launch", "Wdefault-stream-launch", 0, Action::Drop},
    {"Wmissing-launch-bounds", "Wmissing-launch-bounds", 0, Action::Drop},
    {"Wext-lambda-captures-this", "Wext-lambda-captures-this", 0, Action::Drop},
    {"extra-device-vectorization", "extra-device-vectorization", 0, Action::Drop},
    {"restrict", "restrict", 0, Action::Drop},
    {"astoolspatch", "astoolspatch", 0, Action::Drop},
    {"keep-device-functions", "keep-device-functions", 0, Action::Drop},
    {"fdevice-syntax-only", "fdevice-syntax-only", 0, Action::Drop},
    {"fdevice-time-trace", "fdevice-time-trace", 1, Action::Drop},
    {"gen-opt-lto", "gen-opt-lto", 0, Action::Drop},
    {"opt-info", "optimization-info", 1, Action::Drop},
    {"pg", "profile", 0, Action::Drop},
    {"hls", "host-linker-script", 1, Action::Drop},
    {"objtemp", "objdir-as-tempdir", 0, Action::Drop},
    {"use-local-env", "use-local-env", 0, Action::Drop},
    {"Xnvlink", "", 1, Action::Drop},
    {"Ofc", "Ofast-compile", 1, Action::Drop},
    {"jtd", "jump-table-density", 1, Action::Drop},
    {"compress-mode", "compress-mode", 1, Action::Drop},
    {"ddp", "dependency-drive-prefix", 1, Action::Drop},
    {"dp", "drive-prefix", 1, Action::Drop},
    {"target-dir", "target-directory", 1, Action::Drop},
    {"device-stack-protector", "device-stack-protector", 1, Action::Drop},
    {"device-entity-has-hidden-visibility", "device-entity-has-hidden-visibility", 1,
     Action::Drop},
    {"e", "entries", 1, Action::Drop},
    {"ewp", "extensible-whole-program", 0, Action::Drop},
    {"lto", "lto", 0, Action::Drop},
    {"save-temps", "save-temps", 0, Action::Drop},
    {"noprof", "dont-use-profile", 0, Action::Drop},
    {"nohdinitlist", "no-host-device-initializer-list", 0, Action::Drop},
    {"nohdmoveforward", "no-host-device-move-forward", 0, Action::Drop},
    {"no-err-no", "no-display-error-number", 0, Action::Drop},
    {"no-compress", "no-compress", 0, Action::Drop},
    {"optix-ir", "optix-ir", 0, Action::Drop},
    {"cuda", "cuda", 0, Action::Drop},
    {"run", "run", 0, Action::Drop},
};

/// Finds the option Arg spells. Sets Value when the value is attached
/// ("-std=c++17", "--gpu-architecture=sm_90", "-DX=1", "-I/dir", "-O3").
const NvccOption *findNvccOption(StringRef Arg, std::optional<std::string> &Value) {
  Value.reset();
  if (!Arg.starts_with("-") || Arg == "-" || Arg == "--")
    return nullptr;
  bool IsLong = Arg.starts_with("--");
  StringRef Body = Arg.drop_front(IsLong ? 2 : 1);
  StringRef Name = Body, Attached;
  bool HasEq = false;
  if (size_t Eq = Body.find('='); Eq != StringRef::npos) {
    Name = Body.take_front(Eq);
    Attached = Body.drop_front(Eq + 1);
    HasEq = true;
  }
  for (const NvccOption &O : NvccOptions) {
    // nvcc also accepts the long names with one dash and the short with two.
    if (Name == O.Short || Name == O.Long) {
      if (HasEq) {
        if (O.Values == 0)
          continue;
        Value = Attached.str();
      }
      return &O;
    }
  }
  auto ByAction = [](Action A) -> const NvccOption * {
    for (const NvccOption &O : NvccOptions)
      if (O.Act == A)
        return &O;
    return nullptr;
  };
  // Attached values without '=': -DX, -UX, -I/dir, -isystem/dir, -O3, -lfoo, -L/dir.
  if (!IsLong && Body.size() > 1) {
    if (Body.starts_with("isystem")) {
      Value = Body.drop_front(strlen("isystem")).str();
      return ByAction(Action::SystemInclude);
    }
    static const char *const Prefixes[] = {"D", "U", "I", "O", "l", "L"};
    for (const char *P : Prefixes) {
      if (!Body.starts_with(P))
        continue;
      for (const NvccOption &O : NvccOptions)
        if (StringRef(O.Short) == P) {
          Value = Body.drop_front(1).str();
          return &O;
        }
    }
  }
  return nullptr;
}

/// Host compiler flags worth keeping in a Clang parse (from -Xcompiler, from
/// gcc entries, from flags nvcc forwards to the host compiler): those that
/// change what the preprocessor and the parser see. Warnings, optimization
/// and code generation flags change nothing we look at.
enum class HostFlag { Keep, KeepWithValue, Drop, DropWithValue, OpenMP };

HostFlag classifyHostFlag(StringRef F) {
  static const char *const KeepWithValue[] = {
      "-D",       "-U",        "-I",          "-isystem",   "-iquote", "-idirafter",
      "-include", "-imacros",  "-isysroot",   "--sysroot",  "-x",      "-iprefix",
      "-iwithprefix", "-iwithprefixbefore", "-cxx-isystem"};
  for (const char *K : KeepWithValue)
    if (F == K)
      return HostFlag::KeepWithValue;
  static const char *const DropWithValue[] = {
      "-o",        "-MF",        "-MT",           "-MQ",          "-MJ",
      "-L",        "-l",         "-Xlinker",      "-Xassembler",  "-Xpreprocessor",
      "-Xclang",   "-mllvm",     "--param",       "-arch",        "-target",
      "-include-pch", "-Xarch_host", "-Xarch_device", "-Xcuda-ptxas", "-Xcuda-fatbinary",
      "-Xopenmp-target", "--serialize-diagnostics", "-dependency-file", "-z",
      "-Xoffload-linker", "-main-file-name"};
  for (const char *K : DropWithValue)
    if (F == K)
      return HostFlag::DropWithValue;
  static const char *const KeepPrefixes[] = {
      "-D",           "-U",         "-I",          "-isystem",     "-iquote",
      "-idirafter",   "-std=",      "--std=",      "-isysroot",    "--sysroot=",
      "-stdlib=",     "--gcc-toolchain=", "--gcc-install-dir=", "-march=",
      "-mavx",        "-msse",      "-mfma",       "-mbmi",        "-mcpu=",
      "-fms-compatibility-version=", "-fmsc-version=", "-mno-avx", "-mno-sse"};
  for (const char *K : KeepPrefixes)
    if (F.starts_with(K))
      return HostFlag::Keep;
  static const char *const Kept[] = {
      "-fexceptions",     "-fno-exceptions",  "-frtti",           "-fno-rtti",
      "-fsigned-char",    "-funsigned-char",  "-fno-signed-char", "-fno-unsigned-char",
      "-fshort-wchar",    "-fms-extensions",  "-fms-compatibility", "-fdeclspec",
      "-fchar8_t",        "-fno-char8_t",     "-pthread",         "-m64",
      "-m32",             "-ansi",            "-nostdinc",        "-nostdinc++",
      "-nostdlibinc",     "-ffreestanding",   "-fno-builtin",     "-ffast-math",
      "-fno-math-errno",  "-ffinite-math-only", "-fsized-deallocation",
      "-fno-sized-deallocation", "-faligned-new", "-fno-aligned-new", "-mf16c",
      "-fno-operator-names", "-fgnu-keywords", "-fno-gnu-keywords", "-fcxx-exceptions",
      "-fno-cxx-exceptions", "-mpopcnt", "-mlzcnt", "-maes", "-mpclmul"};
  for (const char *K : Kept)
    if (F == K)
      return HostFlag::Keep;
  // OpenMP: the pragmas are not parsed (loops stay plain loops for the
  // checks), but code under #ifdef _OPENMP is seen as the compiler sees it.
  if ((F == "-fopenmp" || F.starts_with("-fopenmp=") || F == "-qopenmp" || F == "-openmp" ||
       F == "-fiopenmp") &&
      !F.starts_with("-fopenmp-"))
    return HostFlag::OpenMP;
  return HostFlag::Drop;
}

class Translator {
public:
  Translator(StringRef File, StringRef Directory, bool PassThrough)
      : File(File), Directory(Directory), PassThrough(PassThrough) {}

  NeutralCommand run(ArrayRef<std::string> Argv) {
    if (Argv.empty())
      return std::move(Cmd);
    // "ccache nvcc ...", "/usr/bin/ccache /usr/bin/g++ ...": the compiler
    // is the first argument after the launcher.
    size_t First = 0;
    while (First + 1 < Argv.size() && isLauncher(Argv[First]))
      ++First;
    CompilerKind Kind = classifyCompiler(Argv[First]);
    std::vector<std::string> Args = expandResponseFiles(Argv.drop_front(First + 1));
    if (Kind == CompilerKind::Nvcc) {
      Cmd.Nvcc = Argv[First];
      translateNvcc(Args);
    } else {
      translateHostCompiler(Args, Kind == CompilerKind::Clang || Kind == CompilerKind::Other);
    }
    if (!PendingHost.empty())
      Cmd.Dropped.push_back(PendingHost + " (no value)");
    // nvcc, like clang, compiles .cu files as CUDA and hands the others to
    // the host compiler unless -x cu says otherwise (-dc changes nothing).
    if (!LanguageGiven)
      Cmd.Cuda = isCudaFile(File);
    if (OpenMP)
      Cmd.Flags.push_back("-D_OPENMP=201511");
    return std::move(Cmd);
  }

private:
  static bool isCudaFile(StringRef F) {
    StringRef Ext = sys::path::extension(F);
    return Ext == ".cu" || Ext == ".cuh";
  }

  static bool isLauncher(StringRef Argv0) {
    StringRef Name = sys::path::filename(Argv0);
    return Name == "ccache" || Name == "sccache" || Name == "distcc" || Name == "icecc";
  }

  /// Expands @file (all compilers) so the options inside are translated too.
  std::vector<std::string> expandResponseFiles(ArrayRef<std::string> In, unsigned Depth = 0) {
    std::vector<std::string> Out;
    for (const std::string &A : In) {
      if (StringRef(A).starts_with("@") && A.size() > 1 && Depth < 8) {
        std::vector<std::string> Inner;
        if (readOptionsFile(A.substr(1), Inner)) {
          std::vector<std::string> Expanded = expandResponseFiles(Inner, Depth + 1);
          Out.insert(Out.end(), Expanded.begin(), Expanded.end());
        }
        continue;
      }
      Out.push_back(A);
    }
    return Out;
  }

  /// Appends the arguments in an options/response file; false if unreadable.
  bool readOptionsFile(StringRef Name, std::vector<std::string> &Out) {
    SmallString<256> Path(Name);
    if (!sys::path::is_absolute(Path) && !Directory.empty()) {
      Path = Directory;
      sys::path::append(Path, Name);
    }
    auto Buf = MemoryBuffer::getFile(Path);
    if (!Buf) {
      Cmd.Warnings.push_back("cannot read the response file " + Path.str().str() + " (" +
                             Buf.getError().message() +
                             "): the flags in it are missing from the parse");
      return false;
    }
    BumpPtrAllocator Alloc;
    StringSaver Saver(Alloc);
    SmallVector<const char *, 32> Tokens;
    cl::TokenizeGNUCommandLine((*Buf)->getBuffer(), Saver, Tokens);
    for (const char *T : Tokens)
      if (T)
        Out.push_back(T);
    return true;
  }

  void translateNvcc(const std::vector<std::string> &Args) {
    for (size_t I = 0; I < Args.size(); ++I) {
      const std::string &A = Args[I];
      std::optional<std::string> Value;
      const NvccOption *O = findNvccOption(A, Value);
      if (!O) {
        if (!StringRef(A).starts_with("-")) {
          // An input: keep only the file being analyzed (added at the end).
          continue;
        }
        // Unknown to nvcc's table: CMake forwards host flags directly with
        // -forward-unknown-to-host-compiler.
        I += host(A, I + 1 < Args.size() ? &Args[I + 1] : nullptr);
        continue;
      }
      if (O->Values && !Value) {
        bool NextIsValue = I + 1 < Args.size() &&
                           (O->Values == 1 || !StringRef(Args[I + 1]).starts_with("-"));
        if (NextIsValue) {
          Value = Args[++I];
        } else if (O->Values == 1) {
          Cmd.Dropped.push_back(A + " (no value)");
          continue;
        }
      }
      apply(*O, A, Value.value_or(""));
    }
  }

  /// Handles one host compiler flag; returns how many following arguments
  /// it consumed.
  unsigned host(StringRef F, const std::string *Next) {
    switch (classifyHostFlag(F)) {
    case HostFlag::Keep:
      Cmd.Flags.push_back(F.str());
      return 0;
    case HostFlag::KeepWithValue:
      if (!Next) {
        PendingHost = F.str();
        return 0;
      }
      keepWithValue(F, *Next);
      return 1;
    case HostFlag::Drop:
      if (PassThrough && !stopsSyntaxOnlyParse(F)) {
        Cmd.Flags.push_back(F.str());
        return 0;
      }
      Cmd.Dropped.push_back(F.str());
      return 0;
    case HostFlag::DropWithValue:
      Cmd.Dropped.push_back(F.str() + (Next ? " " + *Next : ""));
      return Next ? 1 : 0;
    case HostFlag::OpenMP:
      OpenMP = true;
      Cmd.Dropped.push_back(F.str() + " (kept as -D_OPENMP)");
      return 0;
    }
    return 0;
  }

  void keepWithValue(StringRef F, StringRef V) {
    if (F == "-x") {
      setLanguage(V);
      if (Cmd.Cuda)
        return; // -x cuda is added by buildParseArgs.
    }
    Cmd.Flags.push_back(F.str());
    Cmd.Flags.push_back(V.str());
  }

  /// Host flags given through -Xcompiler: "-Wall,-fPIC", "-O3 -fopenmp", and
  /// a flag's value in the next -Xcompiler ("-Xcompiler -isystem -Xcompiler /d").
  void hostOptions(StringRef V) {
    SmallVector<StringRef, 8> Items;
    SmallVector<StringRef, 4> Commas;
    V.split(Commas, ',', -1, false);
    for (StringRef C : Commas) {
      SmallVector<StringRef, 4> Words;
      C.split(Words, ' ', -1, false);
      Items.append(Words.begin(), Words.end());
    }
    std::vector<std::string> Strs(Items.begin(), Items.end());
    for (size_t I = 0; I < Strs.size(); ++I) {
      if (!PendingHost.empty()) {
        std::string F = std::exchange(PendingHost, "");
        keepWithValue(F, Strs[I]);
        continue;
      }
      I += host(Strs[I], I + 1 < Strs.size() ? &Strs[I + 1] : nullptr);
    }
  }

  void setLanguage(StringRef L) {
    LanguageGiven = true;
    Cmd.Cuda = L == "cu" || L == "cuda";
  }

  void addArchs(StringRef List) {
    // "sm_90", "compute_90", "sm_90,sm_80", "[compute_90,sm_90]", "sm_90a",
    // "native", "all", "all-major".
    SmallVector<StringRef, 4> Parts;
    List.trim("[]").split(Parts, ',', -1, false);
    for (StringRef P : Parts) {
      P = P.trim().trim("[]");
      if (P.consume_front("sm_") || P.consume_front("compute_") || P.consume_front("lto_")) {
        StringRef Digits = P.take_while([](char C) { return isDigit(C); });
        StringRef Suffix = P.drop_front(Digits.size());
        unsigned N;
        std::string Arch = "sm_" + Digits.str() + Suffix.str();
        if (!Digits.getAsInteger(10, N) && !is_contained(Cmd.GpuArchs, Arch))
          Cmd.GpuArchs.push_back(Arch);
      }
    }
  }

  void apply(const NvccOption &O, StringRef Spelling, StringRef V) {
    switch (O.Act) {
    case Action::Define:
      Cmd.Flags.push_back("-D" + V.str());
      return;
    case Action::Undefine:
      Cmd.Flags.push_back("-U" + V.str());
      return;
    case Action::Include:
      for (StringRef D : splitList(V))
        Cmd.Flags.push_back("-I" + D.str());
      return;
    case Action::SystemInclude:
      for (StringRef D : splitList(V)) {
        Cmd.Flags.push_back("-isystem");
        Cmd.Flags.push_back(D.str());
      }
      return;
    case Action::PreInclude:
      for (StringRef D : splitList(V)) {
        Cmd.Flags.push_back("-include");
        Cmd.Flags.push_back(D.str());
      }
      return;
    case Action::Std:
      Cmd.Flags.push_back("-std=" + V.str());
      return;
    case Action::Language:
      setLanguage(V);
      if (V == "c" || V == "c++")
        Cmd.Flags.push_back("-x"), Cmd.Flags.push_back(V.str());
      return;
    case Action::Arch:
    case Action::Code:
      addArchs(V);
      return;
    case Action::GenCode: {
      // arch=compute_90,code=[compute_90,sm_90] or arch=compute_90,code=sm_90
      StringRef Rest = V;
      while (!Rest.empty()) {
        size_t Eq = Rest.find('=');
        if (Eq == StringRef::npos)
          break;
        Rest = Rest.drop_front(Eq + 1);
        StringRef Item;
        if (Rest.starts_with("[")) {
          size_t Close = Rest.find(']');
          Item = Rest.take_front(Close == StringRef::npos ? Rest.size() : Close + 1);
        } else {
          Item = Rest.take_until([](char C) { return C == ','; });
        }
        addArchs(Item);
        Rest = Rest.drop_front(Item.size());
        Rest.consume_front(",");
      }
      return;
    }
    case Action::Rdc:
      Cmd.Rdc = V == "true" || V == "1";
      return;
    case Action::DeviceCompile:
      Cmd.Rdc = true;
      return;
    case Action::FastMath:
      Cmd.Flags.push_back("-ffast-math");
      Cmd.Flags.push_back("-D__USE_FAST_MATH__");
      return;
    case Action::HostOptions:
      hostOptions(V);
      return;
    case Action::DefaultStream:
      // nvcc defines CUDA_API_PER_THREAD_DEFAULT_STREAM, which renames the
      // runtime API (cudaMemcpy -> cudaMemcpy_ptds); the parse keeps the
      // plain names so that the checks know the calls. Nothing else changes.
      Cmd.Dropped.push_back(Spelling.str() + " " + V.str());
      return;
    case Action::OptionsFile: {
      std::vector<std::string> Inner;
      for (StringRef F : splitList(V))
        readOptionsFile(F, Inner);
      translateNvcc(expandResponseFiles(Inner));
      return;
    }
    case Action::Machine:
      if (V == "64" || V == "32")
        Cmd.Flags.push_back("-m" + V.str());
      return;
    case Action::Drop:
      Cmd.Dropped.push_back(Spelling.str() + (O.Values && !V.empty() ? " " + V.str() : ""));
      return;
    }
  }

  static SmallVector<StringRef, 4> splitList(StringRef V) {
    SmallVector<StringRef, 4> Out;
    V.split(Out, ',', -1, false);
    return Out;
  }

  void translateHostCompiler(const std::vector<std::string> &Args, bool ClangLike) {
    for (size_t I = 0; I < Args.size(); ++I) {
      StringRef A = Args[I];
      if (!A.starts_with("-") || A == "-")
        continue; // Inputs: the analyzed file is added at the end.
      if (ClangLike && (A.starts_with("--cuda-gpu-arch=") || A.starts_with("--offload-arch="))) {
        addArchs(A.split('=').second);
        continue;
      }
      if (ClangLike && (A == "-fgpu-rdc" || A == "-fcuda-rdc")) {
        Cmd.Rdc = true;
        continue;
      }
      if (ClangLike && A == "-fno-gpu-rdc") {
        Cmd.Rdc = false;
        continue;
      }
      if (ClangLike && A.starts_with("--cuda-path=")) {
        Cmd.CudaPath = A.split('=').second.str();
        continue;
      }
      if (ClangLike && (A == "--cuda-host-only" || A == "--cuda-device-only" ||
                        A == "--cuda-compile-host-device" || A == "-nocudainc" ||
                        A == "-nocudalib" || A == "-nogpuinc" || A == "-nogpulib" ||
                        A.starts_with("--cuda-gpu-arch") || A.starts_with("--no-cuda-gpu-arch") ||
                        A.starts_with("-fgpu-default-stream="))) {
        Cmd.Dropped.push_back(A.str());
        continue;
      }
      if (A.starts_with("-x") && A.size() > 2) {
        keepWithValue("-x", A.drop_front(2));
        continue;
      }
      I += host(A, I + 1 < Args.size() ? &Args[I + 1] : nullptr);
    }
  }

  /// Output and dependency-file modes: a syntax-only parse must not get them.
  static bool stopsSyntaxOnlyParse(StringRef F) {
    return F == "-c" || F == "-S" || F == "-E" || F == "-P" || F.starts_with("-M") ||
           F.starts_with("-save-temps") || F.starts_with("-emit-") || F == "-shared" ||
           F == "-fsyntax-only";
  }

  StringRef File, Directory;
  bool PassThrough = false;
  NeutralCommand Cmd;
  bool LanguageGiven = false;
  bool OpenMP = false;
  std::string PendingHost; ///< A host flag whose value is in the next -Xcompiler.
};

} // namespace

NeutralCommand translateCommand(ArrayRef<std::string> Argv, StringRef File, StringRef Directory,
                                bool PassThrough) {
  return Translator(File, Directory, PassThrough).run(Argv);
}

/// The GPU architectures Clang 19 accepts for --cuda-gpu-arch, oldest first.
/// sm_90a is the newest; sm_100 and later are unknown to it.
static const char *const ClangKnownArchs[] = {
    "sm_20", "sm_21", "sm_30", "sm_32", "sm_35", "sm_37", "sm_50", "sm_52",
    "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80",
    "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"};

static int archNumber(StringRef Arch) {
  Arch.consume_front("sm_");
  unsigned N = 0;
  Arch.take_while([](char C) { return isDigit(C); }).getAsInteger(10, N);
  return static_cast<int>(N);
}

std::string chooseGpuArch(ArrayRef<std::string> Archs) {
  std::string Best;
  for (const std::string &A : Archs) {
    std::string Candidate = A;
    if (!is_contained(ClangKnownArchs, StringRef(A))) {
      // Newer than Clang knows (sm_100, sm_120...) or a family/feature
      // variant (sm_100a, sm_120f): the newest plain architecture not above
      // it. sm_90a enables sm_90-only features that newer GPUs lack, so it
      // is chosen only when asked for.
      int N = archNumber(A);
      Candidate.clear();
      for (const char *K : ClangKnownArchs)
        if (archNumber(K) <= N && !StringRef(K).ends_with("a"))
          Candidate = K;
      if (Candidate.empty())
        continue;
    }
    if (Best.empty() || archNumber(Candidate) > archNumber(Best) ||
        (archNumber(Candidate) == archNumber(Best) && Candidate.size() > Best.size()))
      Best = Candidate;
  }
  return Best.empty() ? "sm_90" : Best;
}

std::string sdkVersionForClang(unsigned CudaVersion) {
  // Clang 19 knows CUDA 7.0 to 12.5; it uses the new launch API from 9.2.
  if (CudaVersion == 0 || CudaVersion >= 12050)
    return "12.5";
  return std::to_string(CudaVersion / 1000) + "." + std::to_string(CudaVersion % 1000 / 10);
}

std::string findClangDriver() {
  auto HasWrappers = [](StringRef LLVMRoot) {
    std::error_code EC;
    SmallString<256> Lib(LLVMRoot);
    sys::path::append(Lib, "lib", "clang");
    for (sys::fs::directory_iterator It(Lib, EC), End; It != End && !EC; It.increment(EC)) {
      SmallString<256> W(It->path());
      sys::path::append(W, "include", "cuda_wrappers");
      if (sys::fs::is_directory(W))
        return true;
    }
    return false;
  };
  auto DriverOf = [](StringRef LLVMRoot) {
    SmallString<256> P(LLVMRoot);
    sys::path::append(P, "bin", "clang++");
    return P.str().str();
  };
  // <llvm>/lib/libclang-cpp.so.19.1 -> <llvm>.
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&clang::getClangFullVersion), &Info) && Info.dli_fname) {
    SmallString<256> Lib;
    if (!sys::fs::real_path(Info.dli_fname, Lib)) {
      StringRef Root = sys::path::parent_path(sys::path::parent_path(Lib));
      if (HasWrappers(Root))
        return DriverOf(Root);
    }
  }
#ifdef CUDA_ADVISOR_LLVM_ROOT
  if (HasWrappers(CUDA_ADVISOR_LLVM_ROOT))
    return DriverOf(CUDA_ADVISOR_LLVM_ROOT);
#endif
  return "clang++";
}

std::vector<std::string> buildParseArgs(const NeutralCommand &Cmd, const CudaInstallation &Cuda,
                                        const ParseSetup &Setup, StringRef File) {
  std::vector<std::string> Args;
  bool IsC = !Cmd.Cuda && sys::path::extension(File) == ".c";
  for (size_t I = 0; I + 1 < Cmd.Flags.size(); ++I)
    if (Cmd.Flags[I] == "-x")
      IsC = Cmd.Flags[I + 1] == "c";
  std::string Driver = Setup.ClangDriver.empty() ? "clang++" : Setup.ClangDriver;
  if (IsC && StringRef(Driver).ends_with("++"))
    Driver.erase(Driver.size() - 2);
  Args.push_back(Driver);
  Args.insert(Args.end(), Setup.ExtraArgsBefore.begin(), Setup.ExtraArgsBefore.end());
  Args.push_back("-fsyntax-only");
  if (Cmd.Cuda) {
    Args.push_back("-x");
    Args.push_back("cuda");
  }
  // nvcc defines __NVCC__ for every file it compiles (and __CUDACC__, as 1,
  // for CUDA files: see compat/cuda_advisor_compat.h and minimal-cuda).
  if (!Cmd.Nvcc.empty())
    Args.push_back("-D__NVCC__=1");
  // What GCC (nvcc's host compiler) accepts with a warning and Clang refuses
  // by default: `register` in C++17, and a typedef naming an anonymous
  // struct that has C++-only members. The project's own flags come after
  // and can turn them back into errors.
  Args.push_back("-Wno-register");
  Args.push_back("-Wno-error=non-c-typedef-for-linkage");
  Args.insert(Args.end(), Cmd.Flags.begin(), Cmd.Flags.end());
  auto Share = [&](StringRef Sub) {
    SmallString<256> P(Setup.ResourceDir);
    sys::path::append(P, "include", Sub);
    return P.str().str();
  };
  auto Add = [&](StringRef Flag, const std::string &Value) {
    Args.push_back(Flag.str());
    Args.push_back(Value);
  };
  // Wrappers of CUDA headers that add back what newer toolkits removed;
  // they must come before <cuda>/include, which Clang adds after the user's
  // system directories.
  auto AddCompatOverrides = [&] {
    Add("-isystem", Share("compat/override"));
    if (Cuda.Version >= 13000)
      Add("-isystem", Share("compat/override-cuda13"));
  };
  if (Cmd.Cuda) {
    Args.push_back(Setup.DevicePass ? "--cuda-device-only" : "--cuda-host-only");
    Args.push_back("--cuda-gpu-arch=" + chooseGpuArch(Cmd.GpuArchs));
    Args.push_back("-nocudalib");
    Args.push_back("-Wno-unknown-cuda-version");
    if (Cmd.Rdc)
      Args.push_back("-fgpu-rdc");
    if (Cuda.Bundled) {
      Args.push_back("-nocudainc");
      Add("-isystem", Share("minimal-cuda"));
      Add("-include", Share("minimal-cuda/cuda_advisor_minimal.h"));
    } else {
      Args.push_back("--cuda-path=" + Cuda.Path);
      // The driver tells only the host side which CUDA it found; the device
      // side would fall back to the pre-9.2 launch API (cudaConfigureCall).
      if (Setup.DevicePass)
        Args.push_back("-Xclang"), Args.push_back("-target-sdk-version=" +
                                                  sdkVersionForClang(Cuda.Version));
      AddCompatOverrides();
      // nvcc defines its version, and code (CUB, CUTLASS, lab code) selects
      // APIs by it: `#if __CUDACC_VER_MAJOR__ >= 11`. Clang does not, so an
      // nvcc project's file would take the oldest branch.
      if (!Cmd.Nvcc.empty() && Cuda.Version >= 1000) {
        Args.push_back("-D__CUDACC_VER_MAJOR__=" + std::to_string(Cuda.Version / 1000));
        Args.push_back("-D__CUDACC_VER_MINOR__=" + std::to_string(Cuda.Version % 1000 / 10));
        Args.push_back("-D__CUDACC_VER_BUILD__=0");
      }
      // nvcc adds <cuda>/include/cccl by itself (Thrust, CUB, libcu++).
      if (Cuda.HasCccl)
        Add("-isystem", Cuda.Path + "/include/cccl");
      // Headers Clang's wrapper includes that this toolkit lacks: behind
      // every real directory, one directory per header.
      for (const std::string &H : Cuda.MissingWrapperHeaders)
        Add("-idirafter", Share("stand-ins/" + sys::path::stem(H).str()));
      Add("-include", Share("compat/cuda_advisor_compat.h"));
    }
  } else if (Cuda.Bundled) {
    // Host C/C++ that includes cuda_runtime.h.
    Add("-idirafter", Share("minimal-cuda"));
  } else {
    // Host C/C++ that calls the CUDA runtime: make its headers findable
    // (system headers: findings in them are not shown).
    AddCompatOverrides();
    Add("-isystem", Cuda.Path + "/include");
  }
  // <omp.h> of host code: Clang's own is in libomp-dev, often missing.
  Add("-idirafter", Share("stand-ins/openmp"));
  Args.push_back("-w");
  // Our own printer shows carets; this only stops Clang's "N errors generated"
  // line, which would interleave across the files parsed in parallel.
  Args.push_back("-fno-caret-diagnostics");
  Args.push_back("-ferror-limit=50");
  Args.insert(Args.end(), Setup.ExtraArgs.begin(), Setup.ExtraArgs.end());
  Args.push_back(File.str());
  return Args;
}

} // namespace cuda_advisor::frontend
