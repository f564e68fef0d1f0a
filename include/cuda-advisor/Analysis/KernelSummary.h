//===- KernelSummary.h - What a kernel does with memory --------*- C++ -*-===//
//
// One walk over a kernel's body (and the bodies of the __device__ helpers it
// calls, with their parameters bound to the arguments) finds every memory
// access, its memory space and its byte offset as an AffineForm, and what
// the kernel reads and writes: the facts that access-uncoalesced,
// access-shared-bank-conflict and kernel-fusion are built on.
//
// Summaries are computed on first use, once per function, and shared by the
// checks of a translation unit through TUFacts.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_ANALYSIS_KERNELSUMMARY_H
#define CUDA_ADVISOR_ANALYSIS_KERNELSUMMARY_H

#include "cuda-advisor/Analysis/AffineForm.h"
#include "cuda-advisor/Analysis/MemorySpace.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class Stmt;
class ValueDecl;
} // namespace clang

namespace cuda_advisor::analysis {

class ValueTracker;

enum class AccessKind : uint8_t { Load, Store, LoadStore, Atomic };

/// One memory access of device code, in the context of the kernel (or device
/// function) whose summary holds it.
struct MemoryAccess {
  /// The lvalue accessed (a[i], *p, p[i].x, tile[y][x]) or the call (atomicAdd, __ldg).
  const clang::Expr *Site = nullptr;
  AccessKind Kind = AccessKind::Load;
  PointerValue Address;
  /// Bytes each thread reads or writes (sizeof the accessed type); 0 if unknown.
  unsigned SizeBytes = 0;
  /// At most this many distinct threadIdx.x values keep the access inside the
  /// bounds of a fixed-size array it indexes (tile[threadIdx.x] on a [16]
  /// array: 16); 0 when unbounded.
  unsigned MaxThreadsX = 0;
  /// The __device__ helper calls (outermost first) through which the kernel
  /// reaches the access; empty when it is in the kernel's own body.
  llvm::SmallVector<const clang::CallExpr *, 2> CallChain;
  /// The loops around the access inside its own function, outermost first.
  llvm::SmallVector<const clang::Stmt *, 2> Loops;
  /// At most one lane of a warp runs it (under `if (threadIdx.x == 0)`,
  /// after `if (lane != 0) return;`): no warp-wide access pattern.
  bool SingleLane = false;
  /// Only threads with threadIdx.x below this run it (`if (threadIdx.x < 8)`,
  /// after `if (tid >= 16) return;`); 0 when no guard bounds threadIdx.x.
  unsigned GuardThreadsX = 0;

  bool reads() const { return Kind != AccessKind::Store; }
  bool writes() const { return Kind != AccessKind::Load; }
  /// The byte stride between consecutive lanes (threadIdx.x and threadIdx.x + 1).
  AffineForm laneStride() const { return analysis::laneStride(Address.ByteOffset); }
};

/// How a kernel uses one global buffer.
struct BufferUse {
  MemoryRoot Root;
  bool Read = false;
  bool Written = false;
  bool Atomic = false;
};

struct KernelSummary {
  const clang::FunctionDecl *Function = nullptr;
  std::vector<MemoryAccess> Accesses;
  /// Global memory, one entry per root, in order of first use.
  std::vector<BufferUse> Buffers;

  bool UsesSharedMemory = false;
  bool UsesAtomics = false;
  /// __syncthreads, __syncwarp, cooperative-groups sync, barriers.
  bool Synchronizes = false;
  /// Calls whose bodies the TU cannot see (or inline assembly) that may touch memory.
  bool HasOpaqueCalls = false;
  /// Memory accesses whose object or offset is not known.
  bool HasUnknownAccesses = false;
  std::vector<const clang::Stmt *> SyncSites, AtomicSites, OpaqueSites, SharedSites;

  /// Set when the kernel is element-wise: every global access uses this one
  /// element index (byte offset over the buffer's element size), whose
  /// threadIdx.x coefficient is 1: blockIdx.x * blockDim.x + threadIdx.x, or
  /// a grid-stride loop variable. Loads at an index that is the same for all
  /// threads (a[0], coeffs[blockIdx.x]) are allowed and listed in UniformReads.
  std::optional<AffineForm> ElementIndex;
  std::vector<MemoryRoot> UniformReads;

  /// How the kernel uses the buffer its parameter Param points to (Param may
  /// belong to any declaration of the kernel); null when it never touches it.
  const BufferUse *buffer(const clang::ValueDecl *Param) const;
};

/// The per-TU cache of summaries.
class KernelSummaries {
public:
  KernelSummaries(clang::ASTContext &Ctx, ValueTracker &Values);
  ~KernelSummaries();

  /// The summary of a kernel (its pointer parameters are global memory and
  /// its scalar parameters uniform) or of a __device__ function (parameters
  /// unknown). Null when FD has no body or is a template pattern.
  const KernelSummary *summaryOf(const clang::FunctionDecl *FD);

  /// Helper calls inlined into a summary at most this deep.
  static constexpr unsigned MaxInlineDepth = 3;

private:
  clang::ASTContext &Ctx;
  ValueTracker &Values;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<KernelSummary>> Cache;
};

/// Sectors of 32 bytes that one warp's access touches when lane L accesses
/// SizeBytes bytes at L * StrideBytes + PhaseBytes (a 32-byte aligned base:
/// PhaseBytes is, say, a field's offset in its record).
unsigned sectorsPerWarp(int64_t StrideBytes, unsigned SizeBytes, int64_t PhaseBytes = 0);

/// Shared-memory bank conflict of one warp's access: lane L (tx = L % ThreadsX,
/// ty = L / ThreadsX) accesses SizeBytes at tx * StrideX + ty * StrideY bytes.
/// Accesses wider than 4 bytes are served in phases of 128 bytes (half-warps
/// for 8 bytes, quarter-warps for 16).
struct BankConflict {
  unsigned Degree = 1;     ///< The most distinct 4-byte words one bank serves in one phase.
  unsigned Wavefronts = 1; ///< Shared-memory wavefronts the access needs.
  unsigned Ideal = 1;      ///< Wavefronts it would need without conflicts.
};
/// Only lanes below ActiveLanes take part.
BankConflict bankConflict(int64_t StrideX, int64_t StrideY, unsigned ThreadsX,
                          unsigned SizeBytes, unsigned ActiveLanes = 32);

} // namespace cuda_advisor::analysis

#endif
