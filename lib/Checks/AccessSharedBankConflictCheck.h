//===- AccessSharedBankConflictCheck.h - access-shared-bank-conflict -*- C++ -*-===//
//
/// Finds __shared__ memory accesses whose 4-byte-word stride across the
/// lanes of a warp sends several lanes to one of the 32 banks, which
/// serializes the access, and gives the conflict degree.
/// See docs/checks/access-shared-bank-conflict.md.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CHECKS_ACCESSSHAREDBANKCONFLICTCHECK_H
#define CUDA_ADVISOR_CHECKS_ACCESSSHAREDBANKCONFLICTCHECK_H

#include "cuda-advisor/Analysis/KernelSummary.h"
#include "cuda-advisor/Checks/Check.h"
#include <optional>
#include <vector>
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

namespace cuda_advisor::checks {

class AccessSharedBankConflictCheck : public Check {
public:
  AccessSharedBankConflictCheck(llvm::StringRef Id, Severity Level, CheckContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  struct Conflict {
    analysis::MemoryAccess Access;
    analysis::BankConflict Banks;
    bool AtLeast = false;       ///< A symbolic stride: the degree is a lower bound.
    int64_t StrideWords = 0;    ///< 0 when symbolic.
    unsigned ThreadsX = 32;     ///< Distinct threadIdx.x values per warp assumed.
    int64_t StrideY = 0;        ///< Bytes between rows of threadIdx.y in a warp (ThreadsX < 32).
    /// One warp of each block makes the access, once: a guard keeps
    /// threadIdx.x below 32 in a kernel that never reads threadIdx.y, and
    /// no loop is around it.
    bool OncePerBlock = false;
    std::vector<const clang::FunctionDecl *> Kernels;
  };
  void analyze(const clang::FunctionDecl *Kernel, const analysis::KernelSummary &S);
  std::optional<Conflict> evaluate(const analysis::MemoryAccess &A, bool TwoDimensional) const;
  /// Reports C; Siblings are further accesses of the same statement with the
  /// same conflict, shown as its notes.
  /// Siblings: the group's other accesses, of Statements statements in all.
  void report(const Conflict &C, unsigned Statements, llvm::ArrayRef<const clang::Expr *> Siblings,
              bool Consecutive = true);

  /// Another kernel's __shared__ array of V's shape with its rows padded
  /// (`tile[32][33]` beside V's `tile[32][32]`), or null.
  const clang::VarDecl *paddedSibling(const clang::VarDecl *V);
  std::optional<std::vector<const clang::VarDecl *>> SharedArrays;

  const unsigned MinDegree; ///< Conflicts of a lower degree are not reported.
  /// The narrowest known blockDim.x below 32 of each kernel's launches in this TU.
  llvm::DenseMap<const clang::FunctionDecl *, int64_t> NarrowKernels;
  llvm::MapVector<unsigned, Conflict> Sites;
};

} // namespace cuda_advisor::checks

#endif
