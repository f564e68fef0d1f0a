//===- AffineForm.h - Index expressions as sums of symbol products -*- C++ -*-===//
//
// The symbolic form of an integer expression in device code:
//
//   c0 + c1 * threadIdx.x + c2 * blockIdx.x * blockDim.x + c3 * width * threadIdx.y ...
//
// a sum of integer-weighted products of symbols. The symbols are the CUDA
// coordinates (threadIdx, blockIdx, blockDim, gridDim), loop iteration
// counters, and values that are the same for every thread of a warp (kernel
// parameters, variables that only ever hold such values, loads from an
// address that is the same for every lane). A form is "affine" in the thread
// coordinates: no product holds more than one threadIdx symbol. Anything
// else (a product of two thread-dependent values, a division of a thread
// coordinate, a value loaded from a thread-dependent address) is Unknown,
// and an Unknown form never produces a finding.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_ANALYSIS_AFFINEFORM_H
#define CUDA_ADVISOR_ANALYSIS_AFFINEFORM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace clang {
class ASTContext;
} // namespace clang

namespace cuda_advisor::analysis {

enum class SymbolKind : uint8_t {
  ThreadIdx,   ///< threadIdx.{x,y,z}: differs between the lanes of a warp.
  BlockIdx,    ///< blockIdx.{x,y,z}
  BlockDim,    ///< blockDim.{x,y,z}
  GridDim,     ///< gridDim.{x,y,z}
  LoopCounter, ///< 0, 1, 2... the iteration of Site (a loop); Decl: its induction variable.
  Value,       ///< A uniform named value: Decl is a parameter or variable; Site, when set,
               ///< the statement after which it holds that value (a loop or a branch).
  Member,      ///< Field Site (a FieldDecl) of the by-value struct parameter Decl.
  Opaque,      ///< A uniform value that is not affine: Site is the expression (n / 2,
               ///< offsets[blockIdx.x], tid / 32).
};

/// One symbol. Cheap to copy and compare (by kind, dimension and pointers).
struct Symbol {
  SymbolKind Kind = SymbolKind::Opaque;
  uint8_t Dim = 0;              ///< 0, 1, 2 for x, y, z (CUDA coordinates only).
  const void *Decl = nullptr;   ///< clang::ValueDecl / FieldDecl, see SymbolKind.
  const void *Site = nullptr;   ///< clang::Stmt / FieldDecl, see SymbolKind.

  static Symbol threadIdx(unsigned D) { return {SymbolKind::ThreadIdx, uint8_t(D), nullptr, nullptr}; }
  static Symbol builtin(SymbolKind K, unsigned D) { return {K, uint8_t(D), nullptr, nullptr}; }

  /// Differs between the lanes of one warp.
  bool isThreadVarying() const { return Kind == SymbolKind::ThreadIdx; }
  bool isCoordinate() const { return Kind <= SymbolKind::GridDim; }

  friend bool operator==(const Symbol &A, const Symbol &B) {
    return A.Kind == B.Kind && A.Dim == B.Dim && A.Decl == B.Decl && A.Site == B.Site;
  }
  friend bool operator!=(const Symbol &A, const Symbol &B) { return !(A == B); }
  friend bool operator<(const Symbol &A, const Symbol &B);

  /// How the symbol reads in a message: "threadIdx.x", "width", "n / 2".
  std::string name(const clang::ASTContext &Ctx) const;
};

/// A product of symbols (sorted, with repetition) and its integer weight.
struct Term {
  llvm::SmallVector<Symbol, 3> Symbols;
  int64_t Coefficient = 0;
  unsigned threadDegree() const;
};

class AffineForm {
public:
  AffineForm() = default; ///< The constant 0.
  static AffineForm constant(int64_t C);
  static AffineForm symbol(const Symbol &S);
  static AffineForm unknown();

  bool isUnknown() const { return Unknown; }
  bool isZero() const { return !Unknown && Terms.empty(); }
  /// The value when the form has no symbols.
  std::optional<int64_t> asConstant() const;
  /// The constant term (0 when there is none); nothing for Unknown.
  int64_t constantTerm() const;
  /// No symbol that differs between the lanes of a warp (and not Unknown).
  bool isUniform() const;
  bool dependsOnKind(SymbolKind K) const;

  AffineForm operator+(const AffineForm &O) const;
  AffineForm operator-(const AffineForm &O) const;
  /// Unknown when the product would multiply two thread-dependent terms.
  AffineForm operator*(const AffineForm &O) const;
  AffineForm scaled(int64_t K) const;
  /// Exact division by K: every coefficient must be a multiple of K.
  std::optional<AffineForm> dividedExactly(int64_t K) const;
  /// The largest integer dividing every coefficient (0 for the zero form).
  int64_t content() const;

  /// The part of the form that multiplies S (S removed from each term that
  /// holds it once); Unknown when S appears squared. 0 when S is absent.
  AffineForm coefficientOf(const Symbol &S) const;
  /// The form with every term that holds S removed.
  AffineForm without(const Symbol &S) const;
  /// The form without its constant term.
  AffineForm withoutConstant() const;

  llvm::ArrayRef<Term> terms() const { return Terms; }

  friend bool operator==(const AffineForm &A, const AffineForm &B);
  friend bool operator!=(const AffineForm &A, const AffineForm &B) { return !(A == B); }

  /// "4 * threadIdx.x + 4 * width * threadIdx.y + 8", "unknown".
  std::string str(const clang::ASTContext &Ctx) const;

private:
  void addTerm(Term T);
  static constexpr unsigned MaxTerms = 24;

  bool Unknown = false;
  llvm::SmallVector<Term, 4> Terms; ///< Sorted by Symbols, no zero coefficients.
};

/// The byte distance between the addresses of consecutive lanes' accesses:
/// the coefficient of threadIdx.x in a byte offset.
AffineForm laneStride(const AffineForm &ByteOffset);

} // namespace cuda_advisor::analysis

#endif
