//===- Symbolize.h - Host call stacks to file:line ------------*- C++ -*-===//
//
// Turns the return addresses of Profile::Stacks into source positions with
// LLVM's symbolizer, using the module map the collector recorded (path, load
// bias, build-id). Binaries that moved since the recording are found in the
// --binary-path directories, by file name or by build-id in the layout that
// gdb and debuginfod use (DIR/.build-id/ab/cdef....debug), so that debug files
// split off with `objcopy --only-keep-debug` work. Frames inside the CUDA and
// PyTorch libraries, the C and C++ runtimes, Python and the collector are
// marked Library, and each stack's UserFrame is the innermost frame left.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_PROFILE_SYMBOLIZE_H
#define CUDA_ADVISOR_PROFILE_SYMBOLIZE_H

#include "cuda-advisor/Profile/Profile.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace cuda_advisor::profile {

struct SymbolizeOptions {
  /// --binary-path: directories searched, in order, before a binary's
  /// recorded path.
  std::vector<std::string> BinaryPaths;
};

struct SymbolizeResult {
  unsigned Stacks = 0;       ///< Stacks with addresses.
  unsigned UserStacks = 0;   ///< Of those, the ones with a user call site.
  /// One line per binary that could not be used (missing, rebuilt, without
  /// debug information), never one per frame.
  std::vector<std::string> Warnings;
};

/// Symbolizes every stack of P that has return addresses and no symbols yet.
SymbolizeResult symbolizeStacks(Profile &P, const SymbolizeOptions &Opts);

/// Whether a binary is one whose frames are never the user's call site:
/// libcudart, libcuda, libcupti, libtorch*, libc10*, libstdc++, libc, the
/// dynamic loader, Python, the collector...
bool isLibraryBinary(llvm::StringRef Path);

/// Whether a source file belongs to a toolchain rather than to the user's
/// program (C++ standard library headers, the CUDA toolkit's headers), as
/// for the frames of templates inlined from them.
bool isLibrarySource(llvm::StringRef File);

} // namespace cuda_advisor::profile

#endif
