//===- Loops.h - Loop nesting of calls and loop invariance -----*- C++ -*-===//
//
// Walks a function body once, top-down, keeping the stack of loops around
// each statement (instead of walking parents from every call), and decides
// whether an expression changes from one iteration of a loop to the next.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_ANALYSIS_LOOPS_H
#define CUDA_ADVISOR_ANALYSIS_LOOPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class CallExpr;
class Expr;
class SourceLocation;
class Stmt;
} // namespace clang

namespace cuda_advisor::analysis {

class ValueTracker;

/// for, range-for, while and do loops.
bool isLoop(const clang::Stmt *S);

/// Calls F for every call in Body, with the loops around it inside Body,
/// outermost first. Lambda bodies are not entered (they run when called).
void forEachCallInLoops(
    const clang::Stmt *Body,
    llvm::function_ref<void(const clang::CallExpr *, llvm::ArrayRef<const clang::Stmt *>)> F);

enum class Invariance { Invariant, Varies, Unknown };

/// Whether E has the same value on every iteration of Loop: Varies when it
/// reads a variable written inside the loop (the induction variable, a
/// pointer bumped each time), Unknown when it calls something or reads
/// memory that may change.
Invariance invarianceIn(const clang::Expr *E, const clang::Stmt *Loop, ValueTracker &VT);

/// Combines the invariance of several expressions: any Varies wins, then Unknown.
Invariance combine(Invariance A, Invariance B);

} // namespace cuda_advisor::analysis

#endif
