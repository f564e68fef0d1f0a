//===- MarkdownEmitter.cpp - placeholder ----------------------------------------===//
#include "cuda-advisor/Report/Report.h"
namespace cuda_advisor::report {
void emitMarkdown(llvm::raw_ostream &OS, llvm::ArrayRef<Finding> Findings, const ReportContext &Ctx) {
  emitJson(OS, Findings, Ctx);
}
} // namespace cuda_advisor::report
