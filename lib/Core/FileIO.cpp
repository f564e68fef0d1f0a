//===- FileIO.cpp - Reading inputs and writing outputs safely -------------===//
#include "cuda-advisor/Core/FileIO.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/xxhash.h"

#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace cuda_advisor {
namespace {

Error fileError(std::error_code EC, StringRef Path, const Twine &Why) {
  return createStringError(EC, "%s", (Path + ": " + Why).str().c_str());
}
Error fileError(StringRef Path, const Twine &Why) {
  return fileError(inconvertibleErrorCode(), Path, Why);
}

StringRef kindName(sys::fs::file_type T) {
  switch (T) {
  case sys::fs::file_type::directory_file:
    return "a directory";
  case sys::fs::file_type::fifo_file:
    return "a FIFO";
  case sys::fs::file_type::block_file:
    return "a block device";
  case sys::fs::file_type::character_file:
    return "a character device";
  case sys::fs::file_type::socket_file:
    return "a socket";
  default:
    return "not a regular file";
  }
}

std::string sizeText(uint64_t Bytes) {
  if (Bytes >= (uint64_t(1) << 30) && Bytes % (uint64_t(1) << 30) == 0)
    return std::to_string(Bytes >> 30) + " GiB";
  if (Bytes >= (uint64_t(1) << 20) && Bytes % (uint64_t(1) << 20) == 0)
    return std::to_string(Bytes >> 20) + " MiB";
  return std::to_string(Bytes) + " bytes";
}

Expected<std::unique_ptr<MemoryBuffer>> readStdin(StringRef What, uint64_t MaxBytes) {
  SmallString<0> Data;
  char Chunk[1 << 16];
  while (true) {
    Expected<size_t> N =
        sys::fs::readNativeFile(sys::fs::getStdinHandle(), MutableArrayRef<char>(Chunk));
    if (!N)
      return fileError("<stdin>", "cannot read " + What + ": " + toString(N.takeError()));
    if (*N == 0)
      break;
    if (Data.size() + *N > MaxBytes)
      return fileError("<stdin>", "the " + What + " is larger than " + sizeText(MaxBytes));
    Data.append(Chunk, Chunk + *N);
  }
  return MemoryBuffer::getMemBufferCopy(Data, "<stdin>");
}

} // namespace

Expected<std::unique_ptr<MemoryBuffer>> readInputFile(StringRef Path, StringRef What,
                                                      uint64_t MaxBytes) {
  if (Path == "-")
    return readStdin(What, MaxBytes);
  // stat() first: opening a FIFO without a writer would block, and a device
  // such as /dev/zero never ends.
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Path, Status))
    return fileError(EC, Path, "cannot read " + What + ": " + EC.message());
  if (Status.type() != sys::fs::file_type::regular_file)
    return fileError(Path, "cannot read " + What + ": it is " + kindName(Status.type()) +
                               " (give a regular file, or - for standard input)");
  if (Status.getSize() > MaxBytes)
    return fileError(Path, "cannot read " + What + ": it is larger than " + sizeText(MaxBytes));
  Expected<sys::fs::file_t> FD = sys::fs::openNativeFileForRead(Path);
  if (!FD) {
    std::error_code EC = errorToErrorCode(FD.takeError());
    return fileError(EC, Path, "cannot read " + What + ": " + EC.message());
  }
  // Read what stat() said (a file that grows meanwhile is cut there).
  auto Buf = MemoryBuffer::getOpenFileSlice(*FD, Path, Status.getSize(), 0);
  sys::fs::closeFile(*FD);
  if (!Buf)
    return fileError(Buf.getError(), Path,
                     "cannot read " + What + ": " + Buf.getError().message());
  return std::move(*Buf);
}

bool sameFile(StringRef A, StringRef B) {
  if (A.empty() || B.empty() || A == "-" || B == "-")
    return false;
  return sys::fs::equivalent(A, B);
}

//===----------------------------------------------------------------------===//
// OutputFile
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<OutputFile>> OutputFile::create(StringRef Path, StringRef What) {
  std::unique_ptr<OutputFile> F(new OutputFile());
  F->Path = Path.str();
  F->What = What.str();
  SmallString<256> Real;
  F->Target = sys::fs::real_path(Path, Real) ? Path.str() : Real.str().str();
  sys::fs::file_status Status;
  bool Exists = !sys::fs::status(F->Target, Status);
  if (Exists && Status.type() == sys::fs::file_type::directory_file)
    return fileError(Path, "cannot write " + What + ": it is a directory");
  if (Exists && Status.type() != sys::fs::file_type::regular_file) {
    // A terminal, /dev/null, a FIFO: there is nothing to keep safe.
    int FD;
    if (std::error_code EC = sys::fs::openFileForWrite(F->Target, FD, sys::fs::CD_OpenExisting,
                                                       sys::fs::OF_None))
      return fileError(EC, Path, "cannot write " + What + ": " + EC.message());
    F->DirectFD = FD;
    F->OS = std::make_unique<raw_fd_ostream>(FD, /*shouldClose=*/false);
    return F;
  }
  unsigned Mode = Exists ? Status.permissions() : (sys::fs::all_read | sys::fs::all_write);
  Expected<sys::fs::TempFile> T =
      sys::fs::TempFile::create(F->Target + ".cuda-advisor-tmp-%%%%%%", Mode, sys::fs::OF_None);
  if (!T) {
    std::error_code EC = errorToErrorCode(T.takeError());
    return fileError(EC, Path, "cannot write " + What + ": " + EC.message());
  }
  F->Temp.emplace(std::move(*T));
  if (Exists)
    ::fchmod(F->Temp->FD, Status.permissions()); // The umask may have taken bits away.
  F->OS = std::make_unique<raw_fd_ostream>(F->Temp->FD, /*shouldClose=*/false);
  return F;
}

Error OutputFile::commit() {
  OS->flush();
  std::error_code EC = OS->error();
  if (!EC && DirectFD >= 0 && ::close(DirectFD) != 0)
    EC = std::error_code(errno, std::generic_category());
  OS->clear_error();
  if (DirectFD >= 0) {
    DirectFD = -1;
    if (EC)
      return fileError(EC, Path, "cannot write " + What + ": " + EC.message());
    return Error::success();
  }
  if (EC) {
    discard();
    return fileError(EC, Path, "cannot write " + What + ": " + EC.message());
  }
  Error E = Temp->keep(Target);
  Temp.reset();
  if (E) {
    std::error_code KeepEC = errorToErrorCode(std::move(E));
    return fileError(KeepEC, Path, "cannot write " + What + ": " + KeepEC.message());
  }
  return Error::success();
}

void OutputFile::discard() {
  if (OS) {
    OS->flush();
    OS->clear_error();
  }
  if (DirectFD >= 0) {
    ::close(DirectFD);
    DirectFD = -1;
  }
  if (Temp) {
    consumeError(Temp->discard());
    Temp.reset();
  }
}

OutputFile::~OutputFile() { discard(); }

//===----------------------------------------------------------------------===//
// AtomicReplace
//===----------------------------------------------------------------------===//

Error AtomicReplace::add(StringRef Path, StringRef Contents, StringRef What) {
  SmallString<256> Real;
  std::string Target = sys::fs::real_path(Path, Real) ? Path.str() : Real.str().str();
  struct stat St;
  if (::stat(Target.c_str(), &St) != 0) {
    std::error_code EC(errno, std::generic_category());
    return fileError(EC, Path, "cannot " + What + ": " + EC.message());
  }
  if (!S_ISREG(St.st_mode))
    return fileError(Path, "cannot " + What + ": it is not a regular file");
  // A file nobody may write (or we may not) stays as it is, also where the
  // directory would let a rename replace it.
  if ((St.st_mode & 0222) == 0 || ::access(Target.c_str(), W_OK) != 0)
    return fileError(Path, "cannot " + What + ": the file is read-only");
  Expected<sys::fs::TempFile> T = sys::fs::TempFile::create(
      Target + ".cuda-advisor-tmp-%%%%%%", St.st_mode & 07777, sys::fs::OF_None);
  if (!T) {
    std::error_code EC = errorToErrorCode(T.takeError());
    return fileError(EC, Path,
                     "cannot " + What + ": cannot create a temporary file: " + EC.message());
  }
  Files.push_back({Path.str(), Target, What.str(), std::move(*T)});
  Pending &P = Files.back();
  auto Fail = [&](std::error_code EC, const Twine &Why) {
    return fileError(EC, Path, "cannot " + What + ": " + Why);
  };
  if (::fchmod(P.Temp.FD, St.st_mode & 07777) != 0)
    return Fail(std::error_code(errno, std::generic_category()), "cannot keep its mode");
  struct stat TS;
  if (::fstat(P.Temp.FD, &TS) == 0 && (TS.st_uid != St.st_uid || TS.st_gid != St.st_gid) &&
      ::fchown(P.Temp.FD, St.st_uid, St.st_gid) != 0)
    return Fail(std::error_code(errno, std::generic_category()),
                "cannot keep its owner and group (the file is not yours)");
  raw_fd_ostream OS(P.Temp.FD, /*shouldClose=*/false);
  OS << Contents;
  OS.flush();
  if (std::error_code EC = OS.error()) {
    OS.clear_error();
    return Fail(EC, EC.message());
  }
  return Error::success();
}

Error AtomicReplace::commitAll() {
  Error Errors = Error::success();
  for (Pending &P : Files)
    if (Error E = P.Temp.keep(P.Target)) {
      std::error_code EC = errorToErrorCode(std::move(E));
      Errors = joinErrors(std::move(Errors), fileError(EC, P.Path, "cannot " + P.What + ": " +
                                                                       EC.message()));
      consumeError(P.Temp.discard());
    }
  Files.clear();
  return Errors;
}

AtomicReplace::~AtomicReplace() {
  for (Pending &P : Files)
    consumeError(P.Temp.discard());
}

std::string contentHash(StringRef Bytes) {
  XXH128_hash_t H = xxh3_128bits(arrayRefFromStringRef(Bytes));
  return utohexstr(H.high64, /*LowerCase=*/true, /*Width=*/16) +
         utohexstr(H.low64, /*LowerCase=*/true, /*Width=*/16);
}

} // namespace cuda_advisor
