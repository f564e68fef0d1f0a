//===- AccessWalker.h - The walk behind KernelSummary (private) -*- C++ -*-===//
//
// The Walker keeps, at each point of an in-order walk over a function body,
// the symbolic value of every local variable, and records memory accesses
// with their addresses. SymbolicValues.cpp evaluates expressions against
// that state; AccessWalker.cpp walks statements, loops, branches and calls.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_LIB_ANALYSIS_ACCESSWALKER_H
#define CUDA_ADVISOR_LIB_ANALYSIS_ACCESSWALKER_H

#include "cuda-advisor/Analysis/KernelSummary.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class CXXConstructExpr;
class FunctionDecl;
class IfStmt;
class ParmVarDecl;
} // namespace clang

namespace cuda_advisor::analysis {

class ValueTracker;

/// Walks FD's body in order, tracking the symbolic value of every local
/// variable, and appends its memory accesses and the uses of shared memory,
/// atomics, synchronization and opaque calls to Out. Kernels' parameters are
/// uniform symbols (pointers: global memory); other functions' are unknown.
void walkFunction(clang::ASTContext &Ctx, ValueTracker &VT, const clang::FunctionDecl *FD,
                  KernelSummary &Out, unsigned MaxInlineDepth);

namespace detail {

using namespace clang;


/// What a variable or expression holds: an integer form, an address, or
/// nothing known.
struct SymValue {
  enum Kind : uint8_t { None, Int, Ptr } K = None;
  AffineForm IntVal = AffineForm::unknown();
  PointerValue PtrVal;

  static SymValue none() { return {}; }
  static SymValue integer(AffineForm F) {
    SymValue V;
    if (F.isUnknown())
      return V;
    V.K = Int;
    V.IntVal = std::move(F);
    return V;
  }
  static SymValue pointer(PointerValue P) {
    SymValue V;
    if (!P.isKnown())
      return V;
    V.K = Ptr;
    V.PtrVal = std::move(P);
    return V;
  }
  bool isUniform() const {
    if (K == Int)
      return IntVal.isUniform();
    if (K == Ptr)
      return PtrVal.ByteOffset.isUniform();
    return false;
  }
  friend bool operator==(const SymValue &A, const SymValue &B) {
    if (A.K != B.K || A.K == None)
      return false;
    return A.K == Int ? A.IntVal == B.IntVal : A.PtrVal == B.PtrVal;
  }
};

/// The address of an lvalue, when it is memory (not a register variable).
struct LValue {
  bool IsMemory = false;
  PointerValue Addr;
  unsigned MaxThreadsX = 0;
};

/// One write of a local variable inside a loop or a switch.
struct VarWrite {
  enum Kind : uint8_t { Assign, Compound, Step, Other } K = Other;
  BinaryOperatorKind Op = BO_Assign;
  const Expr *RHS = nullptr; ///< Assign / Compound: the value; Step: null.
  int64_t Delta = 0;         ///< Step: +1 / -1.
  bool TopLevel = false;     ///< Runs exactly once per iteration.
};

using WriteMap = llvm::MapVector<const VarDecl *, llvm::SmallVector<VarWrite, 2>>;

enum class CallRole { None, Sync, Atomic, Load, Store, Harmless, Multiply };

/// What a call to a CUDA device function does (by name).
CallRole classifyDeviceCall(const clang::FunctionDecl *FD);

/// A local variable (or parameter) held in a register: not a reference, not
/// a __shared__/__device__ variable or array.
const VarDecl *localVar(const Expr *E);

struct WalkShared {
  WalkShared(ASTContext &Ctx, ValueTracker &VT, KernelSummary &Out, unsigned MaxDepth)
      : Ctx(Ctx), VT(VT), Out(Out), MaxDepth(MaxDepth) {}
  ASTContext &Ctx;
  ValueTracker &VT;
  KernelSummary &Out;
  unsigned MaxDepth;
  /// Methods whose bodies mention `this` (they are not inlined).
  llvm::DenseMap<const FunctionDecl *, bool> UsesThis;
  /// Helper bodies left to inline into this summary: a kernel that calls
  /// helpers calling helpers many times over stays linear in practice.
  unsigned InlineBudget = 64;
};


class Walker {
public:
  using DefMap = llvm::DenseMap<const VarDecl *, SymValue>;

  Walker(WalkShared &S, const FunctionDecl *FD, unsigned Depth,
         llvm::SmallVector<const CallExpr *, 2> Chain, const void *Context)
      : S(S), Ctx(S.Ctx), FD(FD), Depth(Depth), Chain(std::move(Chain)), Context(Context) {}

  void bindParameters(bool IsKernel);
  void bind(const ParmVarDecl *P, SymValue V) { Defs[P] = std::move(V); }
  void bindValueReference(const ParmVarDecl *P, SymValue V);

  void run();

  /// The value every return statement returns, if they agree.
  SymValue returnValue(const CallExpr *Call) const;

private:
  // --- Values -------------------------------------------------------------

  bool isWritten(const VarDecl *V);
  bool escapes(const VarDecl *V);

  Symbol opaque(const Expr *E) const { return {SymbolKind::Opaque, 0, Context, E}; }

  unsigned sizeOf(QualType T) const;
  /// A trivially copyable class of at most 16 bytes (__half, __nv_bfloat16,
  /// their pairs): a const use of one in memory reads it.
  bool isSmallValueType(QualType T) const;
  unsigned pointeeSize(QualType PtrType) const;

  std::optional<Symbol> coordinate(const Expr *E) const;

  SymValue varValue(const VarDecl *V);
  /// A const global with a constant initializer (warpSize, kTile): its uses
  /// are folded, not loads.
  bool isFoldedConstant(const VarDecl *V) const;

  SymValue evalValue(const Expr *E);

  /// The value of a glvalue read as an rvalue: a variable's value, a
  /// coordinate, a struct parameter's field, or a load.
  AffineForm loadedInt(const Expr *LV, const Expr *Whole);

  /// p.n for a by-value struct parameter p that the kernel never changes.
  std::optional<Symbol> structMember(const Expr *LV) const;

  AffineForm divide(const AffineForm &L, int64_t K, const Expr *E);

  AffineForm modulo(const AffineForm &L, int64_t K, const Expr *E);

  AffineForm intForm(const Expr *E, unsigned D = 0);

  AffineForm binaryForm(const BinaryOperator *BO, unsigned D);

  AffineForm callForm(const CallExpr *Call, unsigned D);

  PointerValue ptrValue(const Expr *E, unsigned D = 0);

  /// A pointer read from a variable or from memory.
  PointerValue loadedPointer(const Expr *LV, const Expr *Whole);

  LValue lvalue(const Expr *E, unsigned D = 0);

  // --- Recording ----------------------------------------------------------

  void record(const Expr *Site, const PointerValue &Addr, unsigned Size, AccessKind K,
              unsigned MaxThreadsX = 0);

  void recordLValue(const Expr *LV, AccessKind K);

  void opaqueSite(const Stmt *Site);

  // --- The walk -----------------------------------------------------------

  void setDef(const VarDecl *V, SymValue Value);

  /// The new value of V after `V op= RHS` (or ++/-- when RHS is null).
  SymValue updated(const VarDecl *V, BinaryOperatorKind Op, const Expr *RHS, int64_t Delta);

  void walkLValueOperands(const Expr *LV);

  void walkExpr(const Expr *E);

  void walkConstruct(const CXXConstructExpr *CC);

  bool inSystemHeader(const Decl *D) const;

  bool inChain(const FunctionDecl *Def) const;
  /// A method that reads no member can be inlined like a free function
  /// (SharedMemory<T>::operator T *()).
  bool usesThis(const FunctionDecl *Def);
  /// Whether Cond (or its negation) holds for at most one lane of a warp:
  /// threadIdx.x == 0, lane == 0, tid == k && ...
  bool selectsOneLane(const Expr *Cond, bool Negated);
  /// L when Cond (or its negation) holds only for threadIdx.x < L
  /// (`threadIdx.x < 8`, `tid <= 15`, `16 > tid`, alone or in a `&&`); 0
  /// when it bounds no lane.
  unsigned lanesBelow(const Expr *Cond, bool Negated);

  /// An argument that hands the callee memory it may read or write.
  bool passesMemory(const Expr *Arg);

  void walkCall(const CallExpr *Call);

  /// Locals passed by address or by non-const reference may be changed by the call.
  void invalidateWrittenArgs(const CallExpr *Call);

  void inlineCall(const CallExpr *Call, const FunctionDecl *Def, unsigned Shift);

  void walkStmt(const Stmt *St);

  void walkVarDecl(const VarDecl *V);


  void walkIf(const IfStmt *If);

  /// The writes of the loop's variables (outside its init), and whether each
  /// runs exactly once per iteration.
  WriteMap loopWrites(const Stmt *L);

  /// Init + k * Step for a variable with one write per iteration `v += s`.
  std::optional<SymValue> induction(const VarDecl *V, const VarWrite &W, const SymValue &Before,
                                    const WriteMap &Writes, const Symbol &K);

  void walkLoop(const Stmt *L);

  WalkShared &S;
  ASTContext &Ctx;
  const FunctionDecl *FD;
  unsigned Depth;
  llvm::SmallVector<const CallExpr *, 2> Chain;
  const void *Context;
  DefMap Defs;
  llvm::DenseMap<const CallExpr *, SymValue> CallValues;
  llvm::SmallPtrSet<const VarDecl *, 4> ValueRefs;
  llvm::SmallPtrSet<const ParmVarDecl *, 4> UniformStructs;
  std::vector<const Stmt *> Loops;
  std::vector<SymValue> Returns;
  bool ReturnsUnknown = false;
  bool SingleLane = false; ///< Inside code that at most one lane of a warp runs.
  /// Inside code that only threads with threadIdx.x < LaneBound run; 0: no bound.
  unsigned LaneBound = 0;
};

} // namespace detail
} // namespace cuda_advisor::analysis

#endif
