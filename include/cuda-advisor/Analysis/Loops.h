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

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class ForStmt;
class CallExpr;
class Expr;
class IfStmt;
class SourceLocation;
class Stmt;
class VarDecl;
} // namespace clang

namespace cuda_advisor::analysis {

class ValueTracker;
struct ApiInfo;

/// for, range-for, while and do loops.
bool isLoop(const clang::Stmt *S);

/// The condition of a for, while or do loop (null for a range-for, a for
/// without one, or a statement that is no loop).
const clang::Expr *loopCondition(const clang::Stmt *Loop);

/// A loop whose body runs at most once: it ends in a break, return or throw
/// on every path, and never continues.
bool runsAtMostOnce(const clang::Stmt *Loop);

/// A loop over devices: each iteration selects another one with
/// cudaSetDevice(x), x not a constant.
bool isDeviceLoop(const clang::Stmt *Loop);

/// A loop whose iterations repeat the program's work: neither of the above.
bool repeatsWork(const clang::Stmt *Loop);

/// Whether Cond holds on at most one iteration of Loop: Loop's counter
/// compared for equality with a value the loop does not change
/// (`if (iter == 0)`, `if (i == n - 1)`, `if (!i)`), alone or in a `&&`.
bool holdsOnOneIteration(const clang::Expr *Cond, const clang::Stmt *Loop);

/// A lazy initialization: `if (!p)`, `if (p == NULL)` or `if (p == nullptr)`
/// (alone or in a `&&`) of a variable of static storage (a `static` local,
/// a global, a static member) that the then-branch writes (`cudaMalloc(&p,
/// n)`, `p = make()`) and nothing else writes (no reset to null after a
/// free in the function or in another, no `T *&` parameter it is passed
/// to): the branch runs once per run of the program, however often the code
/// around it does.
bool isLazyInitialization(const clang::IfStmt *If);

/// S is in the then-branch of a lazy initialization (isLazyInitialization)
/// inside the function body Body.
bool insideLazyInitialization(const clang::Stmt *S, const clang::Stmt *Body,
                              clang::ASTContext &Ctx);

/// S is inside Loop, in the then-branch of an `if` whose condition holds on
/// at most one iteration of it (holdsOnOneIteration).
bool onOneIterationOf(const clang::Stmt *S, const clang::Stmt *Loop, clang::ASTContext &Ctx);

/// A branch of Loop that runs on one iteration in K: S sits in the
/// then-branch of an `if` whose condition (or a conjunct of it) is `i % K ==
/// c` or `!(i % K)`, i a counter of the loop, or `count == K` (or `>=`) with
/// a count the loop increments and the branch resets to 0 (`if (drawCount ==
/// DRAW_RATE) { draw(); drawCount = 0; }`), K the same on every iteration:
/// periodic output (drawing, logging, a checkpoint).
struct Periodic {
  std::string Period;          ///< K as written ("DRAW_RATE", "10").
  std::optional<int64_t> Value; ///< K's value, when constant.
  unsigned Line = 0;            ///< The `if`'s line.
};
std::optional<Periodic> periodicBranch(const clang::Stmt *S, const clang::Stmt *Loop,
                                       clang::ASTContext &Ctx, ValueTracker &VT);

/// The `for` whose init declares V (`for (int j = 10; ...)`), or null.
const clang::ForStmt *declaringFor(const clang::VarDecl *V, clang::ASTContext &Ctx);

/// Writes of V inside S other than its initializer (stores, ++, +=, passing
/// it by reference...); ~0u when they are unknown (its address escapes).
unsigned writesInside(const clang::VarDecl *V, const clang::Stmt *S, ValueTracker &VT);

/// Calls F for every call in Body, with the loops around it inside Body,
/// outermost first. Lambda bodies are not entered (they run when called).
/// Only loops that repeat work (repeatsWork) count, a call under a
/// first- or last-iteration guard (holdsOnOneIteration) is not inside the
/// loop that the guard selects an iteration of, and a call under a lazy
/// initialization (isLazyInitialization) is inside no loop.
void forEachCallInLoops(
    const clang::Stmt *Body,
    llvm::function_ref<void(const clang::CallExpr *, llvm::ArrayRef<const clang::Stmt *>)> F);

enum class Invariance { Invariant, Varies, Unknown };

/// Whether E has the same value on every iteration of Loop: Varies when it
/// reads a variable written inside the loop (the induction variable, a
/// pointer bumped each time), Unknown when it calls something or reads
/// memory that may change.
Invariance invarianceIn(const clang::Expr *E, const clang::Stmt *Loop, ValueTracker &VT);

/// Whether S refers to V anywhere.
bool mentions(const clang::Stmt *S, const clang::VarDecl *V);

/// The variable an expression reaches a buffer through: `h` of `h`,
/// `&h[i]`, `h + off`, `*h`, `v[i]` (operator[]) and `v.data()`.
const clang::VarDecl *bufferOf(const clang::Expr *E);

/// A host buffer whose data an iteration reads as text one value at a
/// time, and the first such call.
struct TextElements {
  const clang::VarDecl *Buffer;
  const clang::CallExpr *Call;
};

/// The buffers of Loop's body whose data are parsed from text element by
/// element (`fscanf(f, "%f", &h[i])`, an input stream's `>> m[i]` or
/// `>> p[i].x`, or a number parsed into a scalar that is then stored into
/// the buffer or appended to it: `fscanf(f, "%f", &x); v.push_back(x);`,
/// `h[i] = std::stof(line);`), in a loop nested in the body that runs on
/// every iteration (under no `if`, `switch` or `?:`), directly or in a
/// function of the file that the body calls (its parameter read as the
/// call's argument); a loop of a constant count below FewTextValues does
/// not count. Such an iteration spends tens of nanoseconds a number on
/// those buffers.
std::vector<TextElements> textBuffersPerValue(const clang::Stmt *Loop, ValueTracker &VT);
inline constexpr int64_t FewTextValues = 64;

/// The buffer of Text that a transfer call of Loop moves: a copy from or
/// into it (`cudaMemcpy(d_A, h_A, ...)` with h_A parsed from text), or the
/// allocation or free of the device buffer that such a copy of the loop
/// fills or drains (`cudaMalloc(&d_A, ...)`). Null when none.
const TextElements *textBufferMovedBy(const clang::CallExpr *Call, const ApiInfo &Api,
                                      const clang::Stmt *Loop, llvm::ArrayRef<TextElements> Text);

/// V decides whether Loop goes on: it is read by the loop's condition, or by
/// an `if` in the body that leaves the loop or sets a variable that does
/// (`if (changes == 0) finished = true;` with `while (!finished)`).
bool controlsLoop(const clang::VarDecl *V, const clang::Stmt *Loop);

/// Combines the invariance of several expressions: any Varies wins, then Unknown.
Invariance combine(Invariance A, Invariance B);

/// The counter of a counted loop: `for (i = a; i < b; i += s)`, or a while/do
/// loop whose body steps one variable once per iteration (`++i;` at its top
/// level) and writes it nowhere else.
struct Induction {
  const clang::VarDecl *Var = nullptr;
  int64_t Step = 1; ///< Added per iteration (negative when counting down).
};
std::optional<Induction> inductionOf(const clang::Stmt *Loop, ValueTracker &VT);

/// Iterations of a counted loop whose start, bound and step are constants.
std::optional<int64_t> constantTripCount(const clang::Stmt *Loop, ValueTracker &VT);

/// A loop of a few passes: its condition compares a variable with a
/// constant (`while (grid > 1)`), and every iteration replaces that variable
/// with a quotient of itself (or of a variable the body copies it to) by a
/// constant of at least 32 (`n = grid; grid = (n + 255) / 256;`, `grid /= 64`,
/// `grid >>= 8`): a multi-pass reduction, whose count shrinks geometrically.
/// The bound on its iterations for any value of the variable's width (4 for
/// an int divided by 256), else nothing.
struct FewPasses {
  const clang::VarDecl *Var = nullptr;
  int64_t Divisor = 0;
  unsigned MaxIterations = 0;
};
std::optional<FewPasses> fewPassLoop(const clang::Stmt *Loop, ValueTracker &VT);
/// "the loop makes a few passes: each divides 'grid' by 256, so there are at
/// most 4 for any 32-bit value".
std::string describe(const FewPasses &F);

/// Whether S may run repeatedly: a loop around it in its function repeats
/// work, or its function is a lambda, or a call of its function in this
/// translation unit sits in such a loop.
bool mayRepeat(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The iterations a static priority counts for Loop: its constant trip
/// count (at most 2^20), else UnknownTripWeight.
inline constexpr double UnknownTripWeight = 8;
double tripWeight(const clang::Stmt *Loop, ValueTracker &VT);
/// The product of tripWeight over the loops around S inside its function
/// (through variable initializers, and through a lambda to the loops around
/// the lambda, up to the function's body).
double loopWeightAround(const clang::Stmt *S, clang::ASTContext &Ctx, ValueTracker &VT);

/// How far a pointer advances from one iteration of Loop to the next: `p`
/// (invariant: 0), `p + i * k`, `&p[i * k]`, `p + off` with `off = i * k`
/// declared in the loop, or a pointer bumped once per iteration (`p += k`).
struct PointerStride {
  /// Bytes per iteration, when they are a constant.
  std::optional<int64_t> Bytes;
  /// When the stride is `Elements` elements of ElementSize bytes and
  /// Elements is loop-invariant but not a constant (`p + i * chunk`).
  const clang::Expr *Elements = nullptr;
  int64_t ElementSize = 0;
};
std::optional<PointerStride> pointerStrideIn(const clang::Expr *Pointer, const clang::Stmt *Loop,
                                             ValueTracker &VT);

/// S runs every time Scope (a loop or a function body, or S itself) runs:
/// the path from S up to Scope crosses no branch (`if` bodies, `?:` arms,
/// the right of `&&`/`||`, switch cases), no other loop and no lambda.
/// `do { } while (0)` macro bodies and `if` conditions are fine.
bool runsWheneverScopeRuns(const clang::Stmt *S, const clang::Stmt *Scope, clang::ASTContext &Ctx);

} // namespace cuda_advisor::analysis

#endif
