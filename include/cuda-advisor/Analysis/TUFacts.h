//===- TUFacts.h - Facts about one translation unit, computed once -*- C++ -*-===//
//
// The analysis caches that every check of a TU shares: variable writes and
// values, and (lazily) what each function does. Built on first use.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_ANALYSIS_TUFACTS_H
#define CUDA_ADVISOR_ANALYSIS_TUFACTS_H

#include "cuda-advisor/Analysis/Values.h"

namespace clang {
class ASTContext;
}

namespace cuda_advisor::analysis {

class TUFacts {
public:
  explicit TUFacts(clang::ASTContext &Ctx) : Ctx(Ctx), Values(Ctx) {}
  clang::ASTContext &context() { return Ctx; }
  ValueTracker &values() { return Values; }

private:
  clang::ASTContext &Ctx;
  ValueTracker Values;
};

} // namespace cuda_advisor::analysis

#endif
