//===- JsonModel.h - Findings as JSON values -------------------*- C++ -*-===//
//
// The JSON shapes shared by the JSON and SARIF emitters (docs/output-formats.md).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_REPORT_JSONMODEL_H
#define CUDA_ADVISOR_REPORT_JSONMODEL_H

#include "cuda-advisor/Core/Finding.h"
#include "cuda-advisor/Core/RunSummary.h"
#include "llvm/Support/JSON.h"

namespace cuda_advisor::report {

llvm::json::Value toJson(const SourceLocation &L);
llvm::json::Value toJson(const Cost &C);
llvm::json::Value toJson(const RunSummary &S);
llvm::json::Value toJson(const Finding &F);

} // namespace cuda_advisor::report

#endif
