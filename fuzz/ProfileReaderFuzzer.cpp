//===- ProfileReaderFuzzer.cpp - libFuzzer target for the profile readers -===//
//
// Built once per reader (CUDA_ADVISOR_FUZZ_READER_<Name>): the bytes are the
// contents of a profile file. A reader must return a profile or an error,
// never crash, and whatever it returns must survive the plausibility pass
// and a merge. "Any" goes through format detection and gzip as
// `--profile FILE` does (readProfile needs a path: the input is written to a
// file first).
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Profile/Reader.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <unistd.h>

using namespace cuda_advisor::profile;

static void use(llvm::Expected<Profile> P) {
  if (!P) {
    llvm::consumeError(P.takeError());
    return;
  }
  dropImpossibleRecords(*P);
  Profile Merged;
  Merged.merge(std::move(*P));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Contents(reinterpret_cast<const char *>(Data), Size);
#if defined(CUDA_ADVISOR_FUZZ_READER_Native)
  use(readNativeProfile("fuzz.jsonl", Contents));
#elif defined(CUDA_ADVISOR_FUZZ_READER_Kineto)
  use(readKinetoTrace("fuzz.json", Contents));
#elif defined(CUDA_ADVISOR_FUZZ_READER_Ncu)
  use(readNcuCsv("fuzz.csv", Contents));
#else
  static std::string Path = [] {
    llvm::SmallString<128> P;
    int FD;
    if (llvm::sys::fs::createTemporaryFile("cuda-advisor-fuzz", "profile", FD, P))
      abort();
    ::close(FD);
    return std::string(P);
  }();
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    if (EC)
      abort();
    OS << Contents;
  }
  use(readProfile(Path));
#endif
  return 0;
}
