//===- MemorySpace.h - Where the memory of a device access lives -*- C++ -*-===//
//
// Device code reads and writes global memory (kernel pointer parameters,
// __device__ variables, pointers derived from them), shared memory
// (__shared__ variables, static or extern dynamic), constant memory and
// thread-local memory (local arrays). A MemoryRoot names the object an
// address points into; a PointerValue is a root plus a symbolic byte offset.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_ANALYSIS_MEMORYSPACE_H
#define CUDA_ADVISOR_ANALYSIS_MEMORYSPACE_H

#include "cuda-advisor/Analysis/AffineForm.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace clang {
class Expr;
class FieldDecl;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace cuda_advisor::analysis {

enum class MemorySpace : uint8_t { Global, Shared, Constant, Local, Unknown };

/// The object a pointer points into.
struct MemoryRoot {
  MemorySpace Space = MemorySpace::Unknown;
  /// The kernel parameter, __device__/__shared__/__constant__ variable or local
  /// array. Null for a pointer loaded from memory (Load is then set).
  const clang::ValueDecl *Decl = nullptr;
  /// A pointer field of the by-value struct parameter Decl (p.data[i]).
  const clang::FieldDecl *Field = nullptr;
  /// The load that produced the pointer (rows[blockIdx.x]), for roots without Decl.
  const clang::Expr *Load = nullptr;
  bool DynamicShared = false; ///< extern __shared__ T s[];

  bool isKnown() const { return Space != MemorySpace::Unknown; }
  /// "in", "params.data", "tile"; "memory" for a loaded pointer.
  std::string name() const;
  friend bool operator==(const MemoryRoot &A, const MemoryRoot &B) {
    return A.Space == B.Space && A.Decl == B.Decl && A.Field == B.Field && A.Load == B.Load;
  }
  friend bool operator!=(const MemoryRoot &A, const MemoryRoot &B) { return !(A == B); }
};

/// An address: Root plus ByteOffset (Unknown offset: somewhere in Root).
struct PointerValue {
  MemoryRoot Root;
  AffineForm ByteOffset = AffineForm::unknown();

  static PointerValue unknown() { return {}; }
  bool isKnown() const { return Root.isKnown(); }
  friend bool operator==(const PointerValue &A, const PointerValue &B) {
    return A.Root == B.Root && A.ByteOffset == B.ByteOffset;
  }
};

/// The memory space of a variable declared with a CUDA attribute
/// (__shared__, __device__, __constant__) or a local array; nothing for
/// anything else (a scalar local lives in registers).
std::optional<MemorySpace> variableMemorySpace(const clang::VarDecl *V);

} // namespace cuda_advisor::analysis

#endif
