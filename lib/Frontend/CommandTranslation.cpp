//===- CommandTranslation.cpp - nvcc/gcc/clang -> clang CUDA args ---------===//
//
// nvcc accepts every option as -short, --long, with the value attached by
// '=' or as the next argument (and -DX / -I/dir attached for a few). The
// table below lists the spellings we know; each says how many values the
// option takes and what becomes of it in a Clang syntax-only parse.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Frontend/CommandTranslation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

#include <algorithm>

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
  unsigned Values;   // 0 or 1.
  Action Act;
};

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
    {"Werror", "Werror", 1, Action::Drop},
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
};

/// Finds the option Arg spells. Sets Value when the value is attached
/// ("-std=c++17", "--gpu-architecture=sm_90", "-DX=1", "-I/dir", "-O3").
const NvccOption *findNvccOption(StringRef Arg, std::optional<std::string> &Value) {
  Value.reset();
  if (!Arg.starts_with("-") || Arg == "-")
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
  // Attached values without '=': -DX, -UX, -I/dir, -O3, -lfoo, -L/dir.
  if (!IsLong && Body.size() > 1) {
    static const char *const Prefixes[] = {"D", "U", "I", "O", "l", "L"};
    for (const char *P : Prefixes) {
      if (Body.starts_with(P)) {
        for (const NvccOption &O : NvccOptions)
          if (StringRef(O.Short) == P) {
            Value = Body.drop_front(1).str();
            return &O;
          }
      }
    }
    if (Body.starts_with("isystem")) {
      Value = Body.drop_front(strlen("isystem")).str();
      for (const NvccOption &O : NvccOptions)
        if (O.Act == Action::SystemInclude)
          return &O;
    }
  }
  return nullptr;
}

/// Host compiler flags worth keeping in a Clang parse (from -Xcompiler, from
/// gcc entries, from flags nvcc forwards to the host compiler). Warnings,
/// optimization and code generation flags change nothing we look at.
enum class HostFlag { Keep, KeepWithValue, Drop, DropWithValue };

HostFlag classifyHostFlag(StringRef F) {
  if (F == "-D" || F == "-U" || F == "-I" || F == "-isystem" || F == "-iquote" ||
      F == "-idirafter" || F == "-include" || F == "-imacros" || F == "-x" ||
      F == "-isysroot" || F == "--sysroot")
    return HostFlag::KeepWithValue;
  if (F.starts_with("-D") || F.starts_with("-U") || F.starts_with("-I") ||
      F.starts_with("-isystem") || F.starts_with("-iquote") || F.starts_with("-idirafter") ||
      F.starts_with("-std=") || F.starts_with("--std=") || F.starts_with("-isysroot") ||
      F.starts_with("--sysroot="))
    return HostFlag::Keep;
  static const char *const KeptF[] = {
      "-fopenmp",      "-fexceptions",   "-fno-exceptions", "-frtti",          "-fno-rtti",
      "-fsigned-char", "-funsigned-char", "-fshort-wchar",   "-fms-extensions", "-fchar8_t",
      "-fno-char8_t",  "-pthread",        "-m64",            "-m32",            "-ansi"};
  for (const char *K : KeptF)
    if (F == K)
      return HostFlag::Keep;
  if (F.starts_with("-march=") || F.starts_with("-mavx") || F.starts_with("-msse") ||
      F.starts_with("-mfma") || F == "-mf16c" || F.starts_with("-mbmi"))
    return HostFlag::Keep; // Intrinsics headers depend on them.
  if (F == "-o" || F == "-MF" || F == "-MT" || F == "-MQ" || F == "-L" || F == "-l" ||
      F == "-Xlinker" || F == "-Xassembler" || F == "--param" || F == "-arch")
    return HostFlag::DropWithValue;
  return HostFlag::Drop;
}

class Translator {
public:
  Translator(StringRef File, StringRef Directory) : File(File), Directory(Directory) {}

  NeutralCommand run(ArrayRef<std::string> Argv) {
    if (Argv.empty())
      return std::move(Cmd);
    CompilerKind Kind = classifyCompiler(Argv[0]);
    std::vector<std::string> Args = expandResponseFiles(Argv.drop_front());
    if (Kind == CompilerKind::Nvcc) {
      Cmd.Nvcc = Argv[0];
      translateNvcc(Args);
    } else {
      translateHostCompiler(Args, Kind == CompilerKind::Clang || Kind == CompilerKind::Other);
    }
    if (!LanguageGiven)
      Cmd.Cuda = isCudaFile(File) || (Kind == CompilerKind::Nvcc && DeviceCompile);
    return std::move(Cmd);
  }

private:
  static bool isCudaFile(StringRef F) {
    StringRef Ext = sys::path::extension(F);
    return Ext == ".cu" || Ext == ".cuh";
  }

  /// Expands @file (all compilers) so the options inside are translated too.
  std::vector<std::string> expandResponseFiles(ArrayRef<std::string> In) {
    std::vector<std::string> Out;
    for (const std::string &A : In) {
      if (StringRef(A).starts_with("@") && A.size() > 1) {
        if (readOptionsFile(A.substr(1), Out))
          continue;
      }
      Out.push_back(A);
    }
    return Out;
  }

  /// Appends the arguments in an options/response file; false if unreadable.
  bool readOptionsFile(StringRef Name, std::vector<std::string> &Out) {
    SmallString<256> Path(Name);
    if (!sys::path::is_absolute(Path) && !Directory.empty())
      Path = (Directory + "/" + Name).str();
    auto Buf = MemoryBuffer::getFile(Path);
    if (!Buf) {
      Cmd.Dropped.push_back("@" + Name.str() + " (cannot read it)");
      return false;
    }
    BumpPtrAllocator Alloc;
    StringSaver Saver(Alloc);
    SmallVector<const char *, 32> Tokens;
    cl::TokenizeGNUCommandLine((*Buf)->getBuffer(), Saver, Tokens);
    for (const char *T : Tokens)
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
        if (I + 1 >= Args.size()) {
          Cmd.Dropped.push_back(A + " (no value)");
          continue;
        }
        Value = Args[++I];
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
      if (!Next)
        return 0;
      Cmd.Flags.push_back(F.str());
      Cmd.Flags.push_back(*Next);
      if (F == "-x")
        setLanguage(*Next);
      return 1;
    case HostFlag::Drop:
      Cmd.Dropped.push_back(F.str());
      return 0;
    case HostFlag::DropWithValue:
      Cmd.Dropped.push_back(F.str() + (Next ? " " + *Next : ""));
      return Next ? 1 : 0;
    }
    return 0;
  }

  void setLanguage(StringRef L) {
    LanguageGiven = true;
    Cmd.Cuda = L == "cu" || L == "cuda";
  }

  void addArchs(StringRef List) {
    // "sm_90", "compute_90", "sm_90,sm_80", "[compute_90,sm_90]", "native", "all".
    SmallVector<StringRef, 4> Parts;
    List.trim("[]").split(Parts, ',', -1, false);
    for (StringRef P : Parts) {
      P = P.trim().trim("[]");
      unsigned N;
      if (P.consume_front("sm_") || P.consume_front("compute_") || P.consume_front("lto_")) {
        StringRef Digits = P.take_while([](char C) { return isDigit(C); });
        StringRef Suffix = P.drop_front(Digits.size());
        if (!Digits.getAsInteger(10, N))
          Cmd.GpuArchs.push_back("sm_" + Digits.str() + Suffix.str());
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
      DeviceCompile = true;
      Cmd.Rdc = true;
      return;
    case Action::FastMath:
      Cmd.Flags.push_back("-ffast-math");
      Cmd.Flags.push_back("-D__USE_FAST_MATH__");
      return;
    case Action::HostOptions: {
      std::vector<std::string> Items;
      for (StringRef H : splitList(V))
        Items.push_back(H.str());
      for (size_t I = 0; I < Items.size(); ++I)
        I += host(Items[I], I + 1 < Items.size() ? &Items[I + 1] : nullptr);
      return;
    }
    case Action::DefaultStream:
      if (V == "per-thread")
        Cmd.Flags.push_back("-fgpu-default-stream=per-thread");
      return;
    case Action::OptionsFile: {
      std::vector<std::string> Inner;
      for (StringRef F : splitList(V))
        readOptionsFile(F, Inner);
      translateNvcc(Inner);
      return;
    }
    case Action::Machine:
      if (V == "64" || V == "32")
        Cmd.Flags.push_back("-m" + V.str());
      return;
    case Action::Drop:
      Cmd.Dropped.push_back(Spelling.str() + (O.Values ? " " + V.str() : ""));
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
      if (!A.starts_with("-"))
        continue; // Inputs: the analyzed file is added at the end.
      if (ClangLike && (A.starts_with("--cuda-gpu-arch=") || A.starts_with("--offload-arch="))) {
        Cmd.GpuArchs.push_back(A.split('=').second.str());
        continue;
      }
      if (ClangLike && (A == "-fgpu-rdc" || A == "-fcuda-rdc")) {
        Cmd.Rdc = true;
        continue;
      }
      if (ClangLike && A.starts_with("--cuda-path=")) {
        Cmd.Flags.push_back(A.str());
        continue;
      }
      if (ClangLike && (A == "--cuda-host-only" || A == "--cuda-device-only" ||
                        A == "--cuda-compile-host-device" || A == "-nocudainc" ||
                        A == "-nocudalib")) {
        Cmd.Dropped.push_back(A.str());
        continue;
      }
      if (A.starts_with("-x") && A.size() > 2) {
        setLanguage(A.drop_front(2));
        if (!Cmd.Cuda)
          Cmd.Flags.push_back(A.str());
        continue;
      }
      if (A == "-x" && I + 1 < Args.size()) {
        setLanguage(Args[I + 1]);
        if (!Cmd.Cuda) {
          Cmd.Flags.push_back("-x");
          Cmd.Flags.push_back(Args[I + 1]);
        }
        ++I;
        continue;
      }
      I += host(A, I + 1 < Args.size() ? &Args[I + 1] : nullptr);
    }
  }

  StringRef File, Directory;
  NeutralCommand Cmd;
  bool LanguageGiven = false;
  bool DeviceCompile = false;
};

} // namespace

NeutralCommand translateCommand(ArrayRef<std::string> Argv, StringRef File, StringRef Directory) {
  return Translator(File, Directory).run(Argv);
}

/// The GPU architectures Clang 19 accepts for --cuda-gpu-arch, oldest first.
static const char *const ClangKnownArchs[] = {
    "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72",
    "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"};

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
      // Newer than Clang knows (sm_100, sm_120...) or a family variant:
      // use the newest known architecture not above it.
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

std::vector<std::string> buildParseArgs(const NeutralCommand &Cmd, const CudaInstallation &Cuda,
                                        const ParseSetup &Setup, StringRef File) {
  std::vector<std::string> Args;
  bool IsC = sys::path::extension(File) == ".c" && !Cmd.Cuda;
  Args.push_back(IsC ? "clang" : "clang++");
  Args.insert(Args.end(), Setup.ExtraArgsBefore.begin(), Setup.ExtraArgsBefore.end());
  Args.push_back("-fsyntax-only");
  if (Cmd.Cuda) {
    Args.push_back("-x");
    Args.push_back("cuda");
  }
  Args.insert(Args.end(), Cmd.Flags.begin(), Cmd.Flags.end());
  auto Share = [&](StringRef Sub) {
    SmallString<256> P(Setup.ResourceDir);
    sys::path::append(P, "include", Sub);
    return P.str().str();
  };
  bool HasOwnCudaPath = any_of(Cmd.Flags, [](const std::string &F) {
    return StringRef(F).starts_with("--cuda-path=");
  });
  if (Cmd.Cuda) {
    Args.push_back(Setup.DevicePass ? "--cuda-device-only" : "--cuda-host-only");
    Args.push_back("--cuda-gpu-arch=" + chooseGpuArch(Cmd.GpuArchs));
    Args.push_back("-nocudalib");
    Args.push_back("-Wno-unknown-cuda-version");
    if (Cmd.Rdc)
      Args.push_back("-fgpu-rdc");
    if (Cuda.Bundled) {
      Args.push_back("-nocudainc");
      Args.push_back("-isystem");
      Args.push_back(Share("minimal-cuda"));
      Args.push_back("-include");
      Args.push_back(Share("minimal-cuda/cuda_advisor_minimal.h"));
    } else {
      if (!HasOwnCudaPath)
        Args.push_back("--cuda-path=" + Cuda.Path);
      if (Cuda.HasCccl) {
        Args.push_back("-isystem");
        Args.push_back(Cuda.Path + "/include/cccl");
      }
      // Wrappers of CUDA headers whose declarations newer CUDA removed; they
      // must come before <cuda>/include, which Clang adds as a system dir.
      Args.push_back("-isystem");
      Args.push_back(Share("compat/override"));
      if (!Cuda.MissingWrapperHeaders.empty()) {
        Args.push_back("-idirafter");
        Args.push_back(Share("stand-ins"));
      }
      Args.push_back("-include");
      Args.push_back(Share("compat/cuda_advisor_compat.h"));
    }
  } else if (!Cuda.Bundled && !IsC) {
    // Host C++ that calls the CUDA runtime: make its headers findable.
    Args.push_back("-isystem");
    Args.push_back(Cuda.Path + "/include");
  }
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
