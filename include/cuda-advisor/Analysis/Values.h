//===- Values.h - What an expression evaluates to --------------*- C++ -*-===//
//
// Constant values of integer and dim3 expressions as a reader of the code
// would work them out: through literals, const/constexpr variables, local
// variables assigned once (their one value), dim3 constructions, and simple
// arithmetic. Also: whether a variable is written inside a statement.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_ANALYSIS_VALUES_H
#define CUDA_ADVISOR_ANALYSIS_VALUES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace clang {
class ASTContext;
class ArraySubscriptExpr;
class InitListExpr;
class Expr;
class FunctionDecl;
class ParmVarDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace cuda_advisor::analysis {

struct Dim3Value {
  std::optional<int64_t> X, Y, Z;
  bool allKnown() const { return X && Y && Z; }
  /// X * Y * Z; none when one is unknown or the product overflows.
  std::optional<int64_t> total() const {
    int64_t XY, XYZ;
    if (!allKnown() || llvm::MulOverflow(*X, *Y, XY) || llvm::MulOverflow(XY, *Z, XYZ))
      return std::nullopt;
    return XYZ;
  }
  /// 1, 2 or 3: the highest dimension whose extent is known to be > 1 or unknown.
  unsigned rank() const;
};

/// Where a local variable is written within its function.
struct VarWrites {
  /// Values stored by `v = e` / the initializer (in source order).
  std::vector<const clang::Expr *> Values;
  /// Writes that are not a plain store: ++, +=, member stores (d.x = 1),
  /// address taken, passed by non-const reference.
  std::vector<const clang::Stmt *> OtherWrites;
  bool Escapes = false; ///< Address taken or bound to a non-const reference.
};

/// Per-TU cache of variable writes, built once per function on first use.
class ValueTracker {
public:
  explicit ValueTracker(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// The writes of a local variable (parameters included) of its function;
  /// nullptr for globals, statics and members.
  const VarWrites *writesOf(const clang::VarDecl *V);

  /// The only value a local variable ever holds (its initializer or one
  /// assignment, never changed otherwise), or nullptr.
  const clang::Expr *singleValue(const clang::VarDecl *V);

  /// True if V may be written inside S (assignment, ++, address taken...).
  bool isWrittenIn(const clang::VarDecl *V, const clang::Stmt *S);

  /// Follows parens, casts and single-valued local variables to the
  /// expression that gives E its value.
  const clang::Expr *resolve(const clang::Expr *E);

  /// The value every call of P's function in the translation unit passes
  /// for P (kernel launches included), when they all pass the same constant,
  /// the function is only ever called directly (its address is never taken)
  /// and P is never written. Nothing when there is no call, or when one
  /// call's argument is not a constant.
  std::optional<int64_t> constantArgument(const clang::ParmVarDecl *P);

  std::optional<int64_t> evaluateInt(const clang::Expr *E);
  std::optional<Dim3Value> evaluateDim3(const clang::Expr *E);

  /// True when E is provably a multiple of K (K > 0): a constant multiple,
  /// a product with such a factor (`192 * ((nel / 192) + 1)`), a sum of
  /// multiples, or a variable whose every stored value is one (a parameter:
  /// every call's argument, as for constantArgument). False when unknown.
  bool isMultipleOf(const clang::Expr *E, int64_t K);

  /// The arguments every call of P's function in the translation unit passes
  /// for P, when the function is only ever called directly and P is never
  /// written; nothing otherwise (or when there is no call).
  std::optional<std::vector<const clang::Expr *>> callArguments(const clang::ParmVarDecl *P);

  clang::ASTContext &context() { return Ctx; }

private:
  void indexFunction(const clang::FunctionDecl *FD);
  std::optional<int64_t> evaluateIntImpl(const clang::Expr *E, unsigned Depth);
  std::optional<Dim3Value> evaluateDim3Impl(const clang::Expr *E, unsigned Depth);
  /// The initializer of the table that AS reads, when the table is
  /// constant: const, or a local only ever read by subscript.
  const clang::InitListExpr *constantTable(const clang::ArraySubscriptExpr *AS);
  bool isMultipleOfImpl(const clang::Expr *E, int64_t K, unsigned Depth);

  struct CallIndex;

  clang::ASTContext &Ctx;
  std::shared_ptr<CallIndex> Calls; ///< Built on the first constantArgument.
  llvm::DenseMap<const clang::ParmVarDecl *, std::optional<int64_t>> Arguments;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Indexed;
  /// A node map: callers hold writesOf()'s pointer while they recurse into
  /// writesOf() again (isMultipleOf walking Values), which may insert; a
  /// DenseMap would move the entries on a rehash.
  std::unordered_map<const clang::VarDecl *, VarWrites> Writes;
};

/// E without what does not change its value: parens, implicit and explicit
/// casts, temporaries, cleanups and copy/move constructions.
const clang::Expr *stripTemporaries(const clang::Expr *E);

/// Whether Candidate is the same value as Ref: the same variable, the same
/// constant, or the same expression up to parens and casts.
bool sameValue(const clang::Expr *A, const clang::Expr *B, ValueTracker &VT);

/// The function whose body holds S (nullptr if none found).
const clang::FunctionDecl *enclosingFunction(const clang::Stmt *S, clang::ASTContext &Ctx);

} // namespace cuda_advisor::analysis

#endif
