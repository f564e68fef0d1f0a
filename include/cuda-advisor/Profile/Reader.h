//===- Reader.h - Reading profiles of any supported format -----*- C++ -*-===//
//
// readProfile detects the format by content (never by file name) and
// returns the Profile model, or an llvm::Error naming the file and what was
// expected. Each format has its own reader file in lib/Profile.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_PROFILE_READER_H
#define CUDA_ADVISOR_PROFILE_READER_H

#include "cuda-advisor/Profile/Profile.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace cuda_advisor::profile {

enum class Format {
  Unknown,
  Native,
  Kineto,
  NcuCsv,
  Sqlite,     ///< An SQLite database: Nsight Systems export or nvprof (by its tables).
  NvprofCsv,  ///< `nvprof --csv --print-gpu-trace`.
  NsysReport, ///< .nsys-rep / .qdrep: needs `nsys export --type sqlite` first.
};

/// Guesses the format from the first bytes of a file.
Format detectFormat(llvm::StringRef Head);

/// Reads Path in whatever supported format it is in.
llvm::Expected<Profile> readProfile(llvm::StringRef Path);

// One entry point per format. Path is used in messages only.
llvm::Expected<Profile> readNativeProfile(llvm::StringRef Path, llvm::StringRef Contents);
llvm::Expected<Profile> readKinetoTrace(llvm::StringRef Path, llvm::StringRef Contents);
llvm::Expected<Profile> readNcuCsv(llvm::StringRef Path, llvm::StringRef Contents);
llvm::Expected<Profile> readNvprofCsv(llvm::StringRef Path, llvm::StringRef Contents);
/// An SQLite file: an Nsight Systems export (StringIds and CUPTI_ACTIVITY_KIND_*
/// or TARGET_INFO_* tables) or an nvprof database (StringTable and
/// CUPTI_ACTIVITY_KIND_* tables), opened read-only.
llvm::Expected<Profile> readSqliteProfile(llvm::StringRef Path);

/// Removes the records no run can have (end before start, outside the
/// process's recording, longer than a month, copies larger than any memory,
/// launches no GPU allows) with one warning per process that counts them.
/// readProfile applies it to every format.
void dropImpossibleRecords(Profile &P);

} // namespace cuda_advisor::profile

#endif
