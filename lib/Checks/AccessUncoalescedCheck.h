//===- AccessUncoalescedCheck.h - access-uncoalesced -----------*- C++ -*-===//
//
/// Finds global-memory loads and stores whose addresses are strided across
/// the lanes of a warp (consecutive threadIdx.x more than one element apart),
/// with the stride and the share of each 32-byte sector that is used.
/// See docs/checks/access-uncoalesced.md.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CHECKS_ACCESSUNCOALESCEDCHECK_H
#define CUDA_ADVISOR_CHECKS_ACCESSUNCOALESCEDCHECK_H

#include "cuda-advisor/Analysis/KernelSummary.h"
#include "cuda-advisor/Checks/Check.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

namespace cuda_advisor::checks {

class AccessUncoalescedCheck : public Check {
public:
  AccessUncoalescedCheck(llvm::StringRef Id, Severity Level, CheckContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// One strided access site, with every kernel that reaches it.
  struct Site {
    analysis::MemoryAccess Access;
    std::vector<const clang::FunctionDecl *> Kernels;
    /// Global loads and stores of the kernel (the cost model's denominator).
    unsigned GlobalAccesses = 0;
    /// How often a thread runs the access (the loops around it and around
    /// the calls that reach it, counted as analysis::tripWeight does), and
    /// the global sectors per warp of the kernel's accesses that the check
    /// does not report, each weighted so.
    double Weight = 1, KernelSectors = 0;
    /// The share of each element's bytes that this access and the thread's
    /// others at the same base (p[i].x, p[i].y) use; 0 when only its own.
    double PooledUse = 0;
    /// The kernel that Weight and KernelSectors are of.
    const clang::FunctionDecl *Measured = nullptr;
  };
  /// How often a thread of the kernel runs A (see Site::Weight).
  double weightOf(const analysis::MemoryAccess &A);
  /// What identifies R's buffer: its declaration, or for a pointer loaded
  /// from memory the first load seen of the same expression (`in->data` in
  /// three statements is one buffer: the kernel does not change it).
  const void *bufferOf(const analysis::MemoryRoot &R);
  bool sameBuffer(const analysis::MemoryRoot &A, const analysis::MemoryRoot &B) {
    return A.Space == B.Space && A.Field == B.Field && bufferOf(A) == bufferOf(B);
  }
  void analyze(const clang::FunctionDecl *Kernel, const analysis::KernelSummary &S);
  /// S, and the other sites of its kernels that access the same buffer with
  /// the same stride (Others, in source order): one finding.
  void report(const Site &S, llvm::ArrayRef<const Site *> Others);

  const bool ReportSymbolic; ///< Report strides that are kernel parameters (`in[i * stride]`).
  /// bufferOf's loads, by the hash of their profile.
  llvm::DenseMap<unsigned, llvm::SmallVector<const clang::Expr *, 2>> LoadsByHash;
  /// Kernels launched in this TU with blocks narrower than a warp in x: a
  /// warp then spans several threadIdx.y, and the threadIdx.x stride alone
  /// says nothing about coalescing.
  llvm::DenseSet<const clang::FunctionDecl *> NarrowKernels;
  /// Kernels that a launch of this file runs with blocks at least 32 wide.
  llvm::DenseSet<const clang::FunctionDecl *> WideKernels;
  /// Keyed by the access's file position, so that the instantiations of a
  /// template and the kernels sharing a helper give one finding.
  llvm::MapVector<unsigned, Site> Sites;
};

} // namespace cuda_advisor::checks

#endif
