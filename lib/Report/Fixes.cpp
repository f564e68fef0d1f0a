//===- Fixes.cpp - placeholder ---------------------------------------------===//
#include "cuda-advisor/Report/Report.h"
namespace cuda_advisor::report {
llvm::Error exportFixes(llvm::StringRef Path, llvm::ArrayRef<Finding>) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: not supported yet",
                                 Path.str().c_str());
}
llvm::Expected<unsigned> applyFixes(llvm::ArrayRef<Finding>) { return 0; }
} // namespace cuda_advisor::report
