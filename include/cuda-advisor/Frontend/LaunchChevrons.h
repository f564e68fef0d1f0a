//===- LaunchChevrons.h - Kernel launches written "<< <" ... ">> >" -------===//
//
// Visual Studio's formatter writes a kernel launch `k<<<g, b>>>(x)` as
// `k << <g, b >> > (x)`, and so does the CUDA project template it creates.
// nvcc accepts that spelling; Clang does not (`<< <` is not an expression),
// so a whole file would fail to parse. The front end reads every source file
// through normalizeLaunchChevrons, which joins such chevrons without moving
// any other byte: offsets, lines and columns stay those of the file on disk.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_FRONTEND_LAUNCHCHEVRONS_H
#define CUDA_ADVISOR_FRONTEND_LAUNCHCHEVRONS_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <optional>
#include <string>

namespace cuda_advisor::frontend {

/// Text with each launch opened by `<<` blanks `<` and closed (before the
/// statement's `;`) by `>>` blanks `>` rewritten as `<<<` blanks and `>>>`
/// blanks, of the same length; std::nullopt when there is none. `operator<< <`
/// (explicit template arguments of an operator<<) is left alone, and so is an
/// opening without its closing.
std::optional<std::string> normalizeLaunchChevrons(llvm::StringRef Text);

/// A file system that serves every file through normalizeLaunchChevrons.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
launchChevronFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base);

} // namespace cuda_advisor::frontend

#endif
