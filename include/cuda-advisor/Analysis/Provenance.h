//===- Provenance.h - Where a host pointer's memory comes from -*- C++ -*-===//
//
// Follows a pointer expression in host code back to the allocation it points
// into: through casts, pointer arithmetic, `&p[i]`, local variables (every
// value they are given, including `cudaMallocHost(&p, n)` out-parameters),
// globals and struct members (every store in the translation unit), and one
// level of parameters of functions of the translation unit (every call site
// must agree), and the return statements of allocation helpers of the
// translation unit (every one must agree). The answer is Unknown whenever some path is not understood:
// a parameter of a function called from elsewhere, a pointer returned by an
// unknown function, a pointer whose address escapes, memory that something
// we cannot see may have registered with cudaHostRegister.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_ANALYSIS_PROVENANCE_H
#define CUDA_ADVISOR_ANALYSIS_PROVENANCE_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class ParmVarDecl;
class Stmt;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace cuda_advisor::analysis {

enum class MemoryKind {
  Unknown,
  Pageable, ///< malloc/calloc/realloc, new, std::vector, std::string, stack and static storage.
  Pinned,   ///< cudaMallocHost, cudaHostAlloc, or registered with cudaHostRegister.
  Managed,  ///< cudaMallocManaged, __managed__ variables.
  Device,   ///< cudaMalloc*, __device__ / __constant__ variables.
};

llvm::StringRef memoryKindName(MemoryKind K);

struct Provenance {
  MemoryKind Kind = MemoryKind::Unknown;
  /// How the memory was obtained, for messages: "malloc", "new[]",
  /// "std::vector", "the stack array 'buf'", "cudaMallocHost"...
  std::string Source;
  /// The allocation: the call or new-expression, or the variable whose
  /// storage it is (arrays, containers). Identifies the buffer.
  const void *Site = nullptr;
  clang::SourceLocation SiteLoc;
  /// Set when the pointer reached us through a parameter: the (first) call
  /// site of the function that passed the allocation in.
  const clang::CallExpr *ViaCall = nullptr;
  /// cudaHostAlloc(..., cudaHostAllocMapped) or cudaHostRegisterMapped.
  bool Mapped = false;

  bool known() const { return Kind != MemoryKind::Unknown; }
  static Provenance unknown() { return {}; }
};

/// Per-TU provenance queries. Builds an index of the stores, calls and
/// registrations of the TU's user code on first use.
class ProvenanceAnalysis {
public:
  explicit ProvenanceAnalysis(clang::ASTContext &Ctx);
  ~ProvenanceAnalysis();

  /// The memory a pointer (or array) expression points into.
  Provenance of(const clang::Expr *Pointer);

  /// The variable or member that holds the buffer E points into, following
  /// casts, arithmetic, `&a[i]`, `v.data()` and copies between locals (`q = p`):
  /// what host code would name to read or write it. Null when unclear.
  const clang::ValueDecl *rootOf(const clang::Expr *E);

  clang::ASTContext &context() { return Ctx; }

  /// One value a variable, parameter or member is given.
  struct Def {
    enum DefKind { Value, OutParam, Opaque } Kind = Opaque;
    const clang::Expr *E = nullptr;        ///< Value: the stored expression.
    const clang::CallExpr *Call = nullptr; ///< OutParam: `f(&p)`; Opaque: may be null.
    unsigned Arg = 0;                      ///< OutParam: which argument is `&p`.
  };

  class Index;

private:
  Provenance trace(const clang::Expr *E, unsigned Depth, unsigned ParamBudget);
  Provenance traceObject(const clang::Expr *Obj, unsigned Depth, unsigned ParamBudget);
  Provenance traceContainer(const clang::Expr *Obj, unsigned Depth, unsigned ParamBudget);
  Provenance traceDecl(const clang::ValueDecl *D, unsigned Depth, unsigned ParamBudget);
  Provenance traceParam(const clang::ParmVarDecl *P, unsigned Depth, unsigned ParamBudget);
  Provenance traceReturns(const clang::FunctionDecl *FD, unsigned Depth);
  Provenance traceDef(const Def &D, unsigned Depth, unsigned ParamBudget);
  Provenance applyRegistration(Provenance P, const clang::ValueDecl *Holder);
  Index &index();

  clang::ASTContext &Ctx;
  std::unique_ptr<Index> TheIndex;
  llvm::DenseSet<const clang::ValueDecl *> Visiting;
};

} // namespace cuda_advisor::analysis

#endif
