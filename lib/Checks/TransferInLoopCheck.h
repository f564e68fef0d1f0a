//===- TransferInLoopCheck.h - transfer-in-loop ----------------*- C++ -*-===//
//
/// Finds host<->device copies, memsets, allocations and frees executed on
/// every iteration of a host loop, directly or through a function of the
/// same translation unit called in the loop. See docs/checks/transfer-in-loop.md.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CHECKS_TRANSFERINLOOPCHECK_H
#define CUDA_ADVISOR_CHECKS_TRANSFERINLOOPCHECK_H

#include "cuda-advisor/Analysis/CudaApi.h"
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/Provenance.h"
#include "cuda-advisor/Checks/Check.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <optional>

namespace cuda_advisor::checks {

struct CopyAdvice;

class TransferInLoopCheck : public Check {
public:
  TransferInLoopCheck(llvm::StringRef Id, Severity Level, CheckContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// A transfer API call reached from a function, through MaxDepth calls.
  struct Reached {
    const clang::CallExpr *ApiCall;
    analysis::ApiInfo Api;
  };
  const std::vector<Reached> &transfersReachedFrom(const clang::FunctionDecl *FD,
                                                   unsigned Depth);
  bool allocatedInLoop(const clang::Expr *Freed, const clang::Stmt *Loop);
  /// Why a transfer is cold in a loop whose iterations read its host
  /// buffer's data as text one value at a time; empty otherwise.
  std::string parsesText(const clang::CallExpr *Call, const analysis::ApiInfo &Api,
                         const clang::Stmt *Loop);
  /// Why a chunk uploaded into a __constant__ symbol on each iteration is
  /// cold; empty otherwise.
  std::string constantChunks(const clang::CallExpr *Call, const analysis::ApiInfo &Api,
                             const clang::Stmt *Loop);
  /// The copy's buffer (source or destination) that Loop allocates and
  /// frees in every iteration, if one is.
  const clang::Expr *iterationLocalBuffer(const clang::CallExpr *Call,
                                          const analysis::ApiInfo &Api, const clang::Stmt *Loop);
  /// A device-to-device copy on one GPU, or a memset of device memory: work
  /// the GPU does at device-memory bandwidth, like a kernel, with no
  /// transfer over the bus and no wait for the host.
  bool isDeviceSideWork(const clang::CallExpr *Call, const analysis::ApiInfo &Api);
  void reportDirect(const clang::CallExpr *Call, const analysis::ApiInfo &Api,
                    llvm::ArrayRef<const clang::Stmt *> Loops, const clang::FunctionDecl *FD);
  /// Why a call in loops of a fixed few iterations, in code that runs once,
  /// costs little: "its loop runs 4 times ...". Empty otherwise.
  std::string fewFixedIterations(llvm::ArrayRef<const clang::Stmt *> Loops,
                                 const clang::FunctionDecl *FD, std::optional<int64_t> Bytes);
  void reportIndirect(const clang::CallExpr *Call, const clang::FunctionDecl *Callee,
                      const Reached &R, const clang::Stmt *Loop);
  /// Which fix the message suggests for a copy in a loop: hoist, batch,
  /// restore on the device, or overlap.
  CopyAdvice adviseCopy(const clang::CallExpr *Call, const analysis::ApiInfo &Api,
                        const clang::Stmt *Loop, std::optional<int64_t> Bytes,
                        analysis::Invariance Inv);
  bool roundTrip(const clang::Stmt *Loop, const clang::ValueDecl *DevRoot,
                 const clang::ValueDecl *HostRoot);
  /// The upload Call (HostRoot -> DevRoot) only resends what the device
  /// holds: a later copy in the loop brings DevRoot back into HostRoot, and
  /// nothing in the loop writes HostRoot or, after that copy, DevRoot.
  bool staleUpload(const clang::CallExpr *Call, const clang::Stmt *Loop,
                   const clang::ValueDecl *DevRoot, const clang::ValueDecl *HostRoot);

  const unsigned MaxCallDepth;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<Reached>> Summaries;
};

} // namespace cuda_advisor::checks

#endif
