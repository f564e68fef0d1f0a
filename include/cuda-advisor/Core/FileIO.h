//===- FileIO.h - Reading inputs and writing outputs safely ----*- C++ -*-===//
//
// Inputs are regular files or standard input ("-"), read with a size bound:
// a device, a FIFO or a directory is refused with a message instead of being
// read forever or blocking. Outputs go through a temporary file in the same
// directory that is renamed over the target only when everything was written,
// so a failed run never destroys an existing file.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CORE_FILEIO_H
#define CUDA_ADVISOR_CORE_FILEIO_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>

namespace cuda_advisor {

/// The largest input any reader accepts (profiles, configs): 16 GiB.
inline constexpr uint64_t MaxInputBytes = uint64_t(16) << 30;

/// Reads Path (or standard input for "-"), which must be a regular file of at
/// most MaxBytes. What names the input in messages ("profile", "config
/// file"); every message starts with the path.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef Path, llvm::StringRef What, uint64_t MaxBytes = MaxInputBytes);

/// An output file written through a temporary file beside it. A Path that
/// exists and is not a regular file (a terminal, /dev/null, a FIFO, a device)
/// is written directly. Without commit() nothing replaces the target and the
/// temporary file is removed (also on a signal).
class OutputFile {
public:
  /// What names the content in messages ("the report", "the fix-its").
  static llvm::Expected<std::unique_ptr<OutputFile>> create(llvm::StringRef Path,
                                                             llvm::StringRef What);
  ~OutputFile();
  llvm::raw_ostream &os() { return *OS; }
  /// Flushes, checks for write errors and renames the temporary file over
  /// the target. The error names the file.
  llvm::Error commit();
  /// Removes the temporary file; the target stays as it was.
  void discard();

private:
  OutputFile() = default;
  std::string Path;   ///< As given.
  std::string Target; ///< Path with symbolic links resolved.
  std::string What;
  std::optional<llvm::sys::fs::TempFile> Temp;
  int DirectFD = -1;
  std::unique_ptr<llvm::raw_fd_ostream> OS;
};

/// Replaces several existing files together: every new content is first
/// written to a temporary file beside its target, with the target's owner,
/// group and mode; only when all were written are they renamed over their
/// targets. A file that is read-only, or whose owner cannot be kept, is
/// refused and then nothing is changed.
class AtomicReplace {
public:
  /// Queues Contents for Path. What names the purpose in messages.
  llvm::Error add(llvm::StringRef Path, llvm::StringRef Contents, llvm::StringRef What);
  /// Renames every temporary file over its target.
  llvm::Error commitAll();
  ~AtomicReplace();

private:
  struct Pending {
    std::string Path, Target, What;
    llvm::sys::fs::TempFile Temp;
  };
  std::vector<Pending> Files;
};

/// True when A and B name the same existing file (after links).
bool sameFile(llvm::StringRef A, llvm::StringRef B);

/// The digest of a file's bytes (xxh3, 128 bits, as 32 hex digits): the
/// result cache records every file a parse read by it.
std::string contentHash(llvm::StringRef Bytes);

} // namespace cuda_advisor

#endif
