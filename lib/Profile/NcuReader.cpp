//===- NcuReader.cpp - placeholder -------------------------------------------===//
#include "cuda-advisor/Profile/Reader.h"
namespace cuda_advisor::profile {
llvm::Expected<Profile> readNcuCsv(llvm::StringRef Path, llvm::StringRef) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "%s: this profile format is not supported yet",
                                 Path.str().c_str());
}
} // namespace cuda_advisor::profile
