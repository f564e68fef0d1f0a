//===- TUFacts.h - Facts about one translation unit, computed once -*- C++ -*-===//
//
// The analysis caches that every check of a TU shares: variable writes and
// values, and (lazily) what each function does. Built on first use.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_ANALYSIS_TUFACTS_H
#define CUDA_ADVISOR_ANALYSIS_TUFACTS_H

#include "cuda-advisor/Analysis/HotPath.h"
#include "cuda-advisor/Analysis/KernelSummary.h"
#include "cuda-advisor/Analysis/Provenance.h"
#include "cuda-advisor/Analysis/Values.h"

#include <memory>

namespace clang {
class ASTContext;
}

namespace cuda_advisor::analysis {

class TUFacts {
public:
  explicit TUFacts(clang::ASTContext &Ctx) : Ctx(Ctx), Values(Ctx) {}
  clang::ASTContext &context() { return Ctx; }
  ValueTracker &values() { return Values; }
  /// What each kernel does with memory: summaries built on first use, once
  /// per function, shared by every check of the TU.
  KernelSummaries &kernels() {
    if (!Kernels)
      Kernels = std::make_unique<KernelSummaries>(Ctx, Values);
    return *Kernels;
  }
  /// Where host pointers point and which variable holds each buffer: built
  /// on first use, shared by every check of the TU.
  ProvenanceAnalysis &provenance() {
    if (!Origins)
      Origins = std::make_unique<ProvenanceAnalysis>(Ctx);
    return *Origins;
  }

  /// The static priority of each place in the TU (timed regions, set-up,
  /// verification, sweeps): built on first use.
  HotPath &hotPath() {
    if (!Hot)
      Hot = std::make_unique<HotPath>(Ctx, Values);
    return *Hot;
  }

private:
  clang::ASTContext &Ctx;
  ValueTracker Values;
  std::unique_ptr<KernelSummaries> Kernels;
  std::unique_ptr<ProvenanceAnalysis> Origins;
  std::unique_ptr<HotPath> Hot;
};

} // namespace cuda_advisor::analysis

#endif
