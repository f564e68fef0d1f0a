//===- HotPath.h - Where a program spends the time it measures -*- C++ -*-===//
//
// A static priority for every place in a translation unit, inferred from the
// code alone: the region between a function's timing calls (CUDA events,
// std::chrono, gettimeofday, clock, omp_get_wtime, SDK timers...) and the
// repetition loops around it are the hot path; code of that function before
// the first timing call (set-up, warm-up) or after the last one (verification,
// clean-up) is off it, and so is a loop over problem sizes or launch
// configurations (a sweep). In a function without timing calls, the outermost
// loops that launch kernels are its hot path. A function or kernel without timing calls of its
// own takes the priority of its call and launch sites.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_ANALYSIS_HOTPATH_H
#define CUDA_ADVISOR_ANALYSIS_HOTPATH_H

#include "cuda-advisor/Core/Finding.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace cuda_advisor::analysis {

class ValueTracker;

struct PriorityVerdict {
  Priority Level = Priority::Normal;
  /// Why, one clause ("after the timed region (lines 40-52): verification or
  /// clean-up"); empty for Normal.
  std::string Reason;
  /// The verdict is about the place itself, whatever the code it reaches:
  /// a call in a loop that repeats a function timing itself.
  bool Final = false;
};

/// A file of a test suite: its directory is test/, tests/, testing/ or
/// unittest(s)/, or its name is test_*, *_test, *_tests or *_unittest. Only
/// the file's own directory counts, not the folders above the project.
bool isTestCodePath(llvm::StringRef Path);

/// The variable of Loop that E's value follows: E reads the loop's variable
/// (its induction variable, or the one a geometric step `n *= 2` writes), or
/// a variable declared or assigned in the loop from one that does
/// (`N = start; numBytes = N * N * 4;`). Null when E does not follow it: a
/// size that is recomputed in the loop from invariant values is no sweep.
const clang::VarDecl *followedLoopVariable(const clang::Expr *E, const clang::Stmt *Loop,
                                           ValueTracker &VT);

class HotPath {
public:
  HotPath(clang::ASTContext &Ctx, ValueTracker &VT);
  ~HotPath();

  /// The priority of code at Loc (a host call, a launch or a statement in a
  /// kernel).
  PriorityVerdict classify(clang::SourceLocation Loc);
  /// Whether the straight-line code of FD (outside its own loops) runs at
  /// most once per run of the program: FD is `main`, or it is called in this
  /// file, and every call is outside loops in a function that runs once. A
  /// function with no call in the file (an entry point of a library, a
  /// callback) may run any number of times: false.
  bool runsOnce(const clang::FunctionDecl *FD);
  /// The loop around Call, in a function that runs once, whose every
  /// iteration times Call by itself (a timing call before Call and one after
  /// it in the loop's body), that is no loop over problem sizes, and whose
  /// variable Arg follows (followedLoopVariable): a sweep that measures the
  /// call once per value of Arg. Null otherwise.
  const clang::Stmt *timedSweepOver(const clang::CallExpr *Call, const clang::Expr *Arg);

private:
  struct Region {
    clang::SourceLocation Begin, End; ///< File locations, inclusive.
    unsigned BeginLine = 0, EndLine = 0;
  };
  struct FunctionFacts {
    const clang::FunctionDecl *Key = nullptr; ///< Canonical declaration of the pattern.
    Region Body;
    std::vector<Region> Timed; ///< At most one: first to last timing call, widened.
    /// Every timing call (expansion locations, in source order).
    std::vector<clang::SourceLocation> TimingCalls;
    /// When the timing calls sit in a loop's body (Timed is widened to the
    /// loop) and the rest of that body launches no work: the innermost loop
    /// around both calls, and the span from the first to the last. The rest
    /// of the loop's body is each repetition's untimed set-up or check.
    struct Repetition {
      Region Loop, Span;
    };
    std::optional<Repetition> TimedRepetition;
    /// The timed region makes CUDA runtime calls but launches no kernel and
    /// calls no code that does (nor a GPU library): it measures those calls.
    bool TimesApiCallsOnly = false;
    std::vector<Region> Sweeps;
    /// Without timing calls: the outermost loops that launch kernels (and
    /// are no sweep), the program's iterations.
    std::vector<Region> LaunchLoops;
    /// Those of LaunchLoops whose only GPU work is launches of kernels that
    /// time themselves (two clock reads), copying at most SmallResultBytes
    /// at a time: a microbenchmark's warm-up and repetitions.
    std::vector<Region> SelfTimedLoops;
    /// Calls in loops: expansion location of the call and its callee's key.
    std::vector<std::pair<clang::SourceLocation, const clang::FunctionDecl *>> LoopCalls;
    /// The outermost loops of the body, launching or not.
    std::vector<Region> Loops;
    /// Kernels launched inside any of the body's loops.
    std::vector<const clang::FunctionDecl *> LoopKernels;
    /// Launches outside every loop: expansion location and kernel (may be null).
    std::vector<std::pair<clang::SourceLocation, const clang::FunctionDecl *>> StraightLaunches;
    /// A kernel's loops, every one, with their constant trip counts.
    std::vector<std::pair<Region, std::optional<int64_t>>> KernelLoops;
    /// Every function the body calls directly (keys), and every kernel it
    /// launches, in loops or not.
    std::vector<const clang::FunctionDecl *> Callees, Kernels;
    /// The body makes a CUDA runtime call or a launch of its own (it is no
    /// mere forwarder to a function that does).
    bool OwnGpuCalls = false;
    /// It launches a kernel through a pointer (`spec.kernel<<<...>>>`).
    bool IndirectLaunch = false;
  };
  /// A launch of a kernel: where, its total thread count when grid and
  /// block are constants, whether it sits in a loop, and the function that
  /// launches it.
  struct KernelLaunch {
    clang::SourceLocation Loc;
    std::optional<int64_t> Threads;
    bool InLoop = false;
    const clang::FunctionDecl *Caller = nullptr;
  };
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<KernelLaunch>> Launches;

  void build();
  void addFunction(const clang::FunctionDecl *FD);
  const FunctionFacts *functionAt(clang::SourceLocation Loc) const;
  PriorityVerdict verdictIn(const FunctionFacts &F, clang::SourceLocation Loc, unsigned Depth);
  PriorityVerdict functionVerdict(const FunctionFacts &F, unsigned Depth);
  bool isDeadHostFunction(const FunctionFacts &F) const;
  /// The most a microbenchmark's loop copies at a time: its results.
  static constexpr int64_t SmallResultBytes = 64 * 1024;
  PriorityVerdict straightLineVerdict(const FunctionFacts &F, clang::SourceLocation Loc,
                                      unsigned Depth);
  PriorityVerdict toySizeVerdict(const FunctionFacts &F, clang::SourceLocation Loc,
                                 unsigned Depth);
  void collectOutermostLoops(const clang::Stmt *S, std::vector<Region> &Out) const;
  const FunctionFacts *factsOf(const clang::FunctionDecl *Key) const;
  Region regionOf(const clang::Stmt *S) const;
  bool inside(const Region &R, clang::SourceLocation Loc) const;

  clang::ASTContext &Ctx;
  ValueTracker &VT;
  bool Built = false;
  bool HasMain = false; ///< The TU defines main: the whole program is here.
  /// Host code of the TU launches a kernel (this file is not a kernel
  /// library that another program loads by name).
  bool HostLaunches = false;
  std::vector<FunctionFacts> Functions;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<clang::SourceLocation>> CallSites;
  llvm::DenseMap<const clang::FunctionDecl *, PriorityVerdict> Memo;
  llvm::DenseMap<const clang::FunctionDecl *, bool> InProgress;
  llvm::DenseMap<const clang::FunctionDecl *, bool> TimerFunctions;
  llvm::DenseMap<const clang::FunctionDecl *, bool> RunsOnceMemo;
  bool runsOnce(const clang::FunctionDecl *Key, unsigned Depth);
  /// Whether a call to FD queues GPU work: FD launches a kernel, calls a GPU
  /// library, or calls a user function that does (a few levels deep).
  bool launchesWork(const clang::FunctionDecl *FD, unsigned Depth);
  /// Whether Call queues GPU work: a launch, cudaLaunchKernel and friends,
  /// or a call to a function that launchesWork.
  bool callLaunchesWork(const clang::CallExpr *Call, unsigned Depth);
  llvm::DenseMap<const clang::FunctionDecl *, bool> LaunchesWorkMemo;
  /// Whether a call of Key is one timed run of its own, and how it is timed
  /// (for the verdict's reason); empty when it is not.
  std::string timedRun(const clang::FunctionDecl *Key, unsigned Depth);
  /// How many times a kernel (and the device functions it calls) reads the
  /// GPU's clock: clock(), clock64(), %clock64 or %globaltimer in asm.
  unsigned deviceClockReads(const clang::FunctionDecl *FD, unsigned Depth);
  /// Every kernel the TU defines reads the GPU's clock twice or more (a
  /// microbenchmark whose kernels time themselves); computed once.
  std::optional<bool> AllKernelsTimeThemselves;
};

} // namespace cuda_advisor::analysis

#endif
