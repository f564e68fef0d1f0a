//===- CommandTranslation.h - nvcc/gcc/clang -> clang CUDA args -*- C++ -*-===//
//
// A compile command from compile_commands.json, whatever compiler wrote it,
// becomes the arguments of a Clang syntax-only parse: nvcc spellings are
// mapped (-arch/-gencode -> --cuda-gpu-arch, -x cu -> -x cuda, -rdc ->
// -fgpu-rdc, -Xcompiler -> host flags ...), flags only nvcc/ptxas/nvlink know
// are dropped, and the CUDA installation, stand-in and compat headers are
// added. Nothing here fails: unknown flags are dropped with a note.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_FRONTEND_COMMANDTRANSLATION_H
#define CUDA_ADVISOR_FRONTEND_COMMANDTRANSLATION_H

#include "cuda-advisor/Frontend/CudaInstallation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace cuda_advisor::frontend {

enum class CompilerKind { Nvcc, Clang, Gcc, Other };

/// Classifies argv[0] of a compile command ("/usr/local/cuda/bin/nvcc",
/// "clang++-19", "c++", "ccache g++"...).
CompilerKind classifyCompiler(llvm::StringRef Argv0);

/// The compile command reduced to what a Clang parse needs, before any CUDA
/// installation is chosen.
struct NeutralCommand {
  std::vector<std::string> Flags;  ///< Preprocessor, language and target flags.
  std::vector<std::string> GpuArchs; ///< "sm_90", as the command asked.
  bool Cuda = false;               ///< The file is compiled as CUDA.
  bool Rdc = false;
  std::string Nvcc;                ///< Path of nvcc when it wrote the command.
  std::string CudaPath;            ///< --cuda-path of a clang command.
  std::vector<std::string> Dropped; ///< Flags dropped, for --verbose.
  /// Problems the user should always hear about (an unreadable response
  /// file loses flags, so the parse may fail).
  std::vector<std::string> Warnings;
};

/// Translates Argv (Argv[0] is the compiler) of a command compiling File.
/// Response files (@file, nvcc's --options-file) are expanded relative to
/// Directory. With PassThrough (the flags the user gave after `--`, meant for
/// Clang), host flags are kept as given, as clang-tidy keeps them, except
/// those that would stop a syntax-only parse (-c, -E, -M*, -o FILE).
NeutralCommand translateCommand(llvm::ArrayRef<std::string> Argv, llvm::StringRef File,
                                llvm::StringRef Directory, bool PassThrough = false);

/// What a parse adds on top of a NeutralCommand.
struct ParseSetup {
  std::string ResourceDir;  ///< share/cuda-advisor (stand-in and compat headers).
  /// The clang++ the parse pretends to be (<llvm>/bin/clang++ of the Clang
  /// the tool links): the driver finds its resource directory (builtin and
  /// cuda_wrappers headers) and the GCC installation from it. "clang++" if
  /// unknown.
  std::string ClangDriver;
  bool DevicePass = false;  ///< --cuda-device-only instead of --cuda-host-only.
  std::vector<std::string> ExtraArgsBefore, ExtraArgs;
};

/// The clang++ of the Clang installation this tool is linked against, found
/// from the shared library that holds Clang, else from the build's LLVM.
std::string findClangDriver();

/// The full argument vector ("clang++", flags..., File) for a syntax-only parse.
std::vector<std::string> buildParseArgs(const NeutralCommand &Cmd, const CudaInstallation &Cuda,
                                        const ParseSetup &Setup, llvm::StringRef File);

/// The newest GPU architecture Clang 19 knows among Archs (sm_100 and newer
/// map to the newest Clang knows); "sm_90" when Archs is empty.
std::string chooseGpuArch(llvm::ArrayRef<std::string> Archs);

/// The CUDA version given to the device-side parse as -target-sdk-version:
/// Clang picks the launch API (__cudaPushCallConfiguration or the old
/// cudaConfigureCall) from it, and it passes none itself to the device side.
/// Versions newer than Clang 19 knows become 12.5.
std::string sdkVersionForClang(unsigned CudaVersion);

} // namespace cuda_advisor::frontend

#endif
