//===- HostAccess.h - What host code does to a buffer in a loop -*- C++ -*-===//
//
// Facts about a host loop that the transfer checks need and that are not
// about any check: whether host code touches or writes a buffer, which
// buffers the loop's kernels write, and which way a copy goes.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_ANALYSIS_HOSTACCESS_H
#define CUDA_ADVISOR_ANALYSIS_HOSTACCESS_H

#include "cuda-advisor/Analysis/CudaApi.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class Stmt;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace cuda_advisor::analysis {

class KernelSummaries;
class ProvenanceAnalysis;

/// Whether host code in Loop reads or writes the buffer Root (directly, or
/// by passing it to a function), other than through the CUDA calls.
bool hostTouches(const clang::Stmt *Loop, const clang::ValueDecl *Root, ProvenanceAnalysis &PA);

/// Whether host code in Loop may write the buffer Root: a store through it,
/// an increment, or passing it where the callee may write (anything but a
/// pointer or reference to const). Reads do not count; whatever is not
/// clearly a read counts as a write.
bool hostWrites(const clang::Stmt *Loop, const clang::ValueDecl *Root, ProvenanceAnalysis &PA,
                clang::ASTContext &Ctx);

/// The buffers (host-side roots of the launch arguments) that the kernels
/// launched in Loop may write; None when some launch is not understood.
std::optional<llvm::SmallPtrSet<const clang::ValueDecl *, 8>>
writtenByKernels(const clang::Stmt *Loop, ProvenanceAnalysis &PA, KernelSummaries &KS);

/// The direction of a copy: its cudaMemcpyKind, or for cudaMemcpyDefault
/// the side whose memory is host memory.
std::optional<CopyKind> directionOf(const clang::CallExpr *Call, const ApiInfo &Api,
                                    clang::ASTContext &Ctx, ProvenanceAnalysis &PA);

/// A scalar variable whose address is the host side of a copy: `&stop`.
const clang::VarDecl *addressedScalar(const clang::Expr *E);

} // namespace cuda_advisor::analysis

#endif
