//===- Timeline.h - What ran when, indexed for the cost model --*- C++ -*-===//
//
// The Rank layer's view of a Profile: the GPU's busy intervals (the union of
// kernel, copy and memset intervals, per process and device), the link from
// each runtime API call to the GPU work it created (by process and
// correlation id), and the stacks of the calls.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_RANK_TIMELINE_H
#define CUDA_ADVISOR_RANK_TIMELINE_H

#include "cuda-advisor/Profile/Profile.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <optional>
#include <vector>

namespace cuda_advisor::rank {

struct Interval {
  uint64_t Start = 0, End = 0;
  uint64_t length() const { return End > Start ? End - Start : 0; }
};

/// A union of intervals: sorted, disjoint, non-empty.
class IntervalSet {
public:
  IntervalSet() = default;
  explicit IntervalSet(std::vector<Interval> Intervals);
  uint64_t total() const { return Total; }
  /// The length of I covered by the set.
  uint64_t covered(Interval I) const;
  /// The length of I not covered by the set.
  uint64_t uncovered(Interval I) const { return I.length() - covered(I); }
  /// The start of the first interval that ends after T (T itself when T is
  /// inside one); nullopt when nothing comes after T.
  std::optional<uint64_t> nextBusy(uint64_t T) const;
  /// The end of the last interval that starts at or before T, capped at T.
  std::optional<uint64_t> lastBusyBefore(uint64_t T) const;
  /// The uncovered stretches of Within.
  std::vector<Interval> gaps(Interval Within) const;
  llvm::ArrayRef<Interval> intervals() const { return Parts; }
  bool empty() const { return Parts.empty(); }

private:
  std::vector<Interval> Parts;
  uint64_t Total = 0;
};

enum class WorkKind { Kernel, Copy, Memset };
struct WorkRef {
  WorkKind Kind;
  size_t Index; ///< Into Profile::Kernels, Copies or Memsets.
};

class ProfileIndex {
public:
  explicit ProfileIndex(const profile::Profile &P);

  const profile::Profile &profile() const { return P; }
  /// GPU busy time of one process on all its devices, and on one device.
  const IntervalSet &busy(profile::ProcessIndex Proc) const;
  const IntervalSet &busy(profile::ProcessIndex Proc, uint32_t Device) const;
  /// Sum over processes and devices of the busy time.
  uint64_t gpuBusyNs() const { return GpuBusy; }
  /// Sum over processes of their profiled wall time.
  uint64_t wallNs() const { return Wall; }
  uint64_t wallNs(profile::ProcessIndex Proc) const;

  /// The API call (index into Profile::ApiCalls) that created the GPU work
  /// with this correlation id in Proc.
  std::optional<size_t> launcher(profile::ProcessIndex Proc, uint64_t Correlation) const;
  std::optional<size_t> launcher(WorkRef W) const;
  /// The GPU work that API call I created.
  llvm::ArrayRef<WorkRef> workOf(size_t ApiIndex) const;
  Interval interval(WorkRef W) const;
  profile::ProcessIndex process(WorkRef W) const;
  uint32_t device(WorkRef W) const;
  /// The stack of API call I, or null.
  const profile::Stack *stackOf(size_t ApiIndex) const;
  /// The stack of the call that launched W, or null.
  const profile::Stack *stackOf(WorkRef W) const;
  /// The device record for (Proc, Id), or null.
  const profile::Device *deviceOf(profile::ProcessIndex Proc, uint32_t Id) const {
    return P.findDevice(Proc, Id);
  }

  /// Host time inside API call I that was not spent waiting for earlier GPU
  /// work: its duration minus the time of the GPU work that finished inside
  /// it before its own work started (work still running on other streams
  /// when its own began was not waited for). For a blocking copy, what the
  /// copy itself cost the host.
  uint64_t ownHostTime(size_t ApiIndex) const;
  /// Whether API call I made the host wait for its GPU work (a blocking
  /// copy/memset, or an asynchronous one that the runtime had to stage from
  /// pageable memory).
  bool blocks(size_t ApiIndex) const;

private:
  const profile::Profile &P;
  std::map<std::pair<profile::ProcessIndex, uint32_t>, IntervalSet> ByDevice;
  std::map<profile::ProcessIndex, IntervalSet> ByProcess;
  IntervalSet Empty;
  std::map<std::pair<profile::ProcessIndex, uint64_t>, size_t> Launchers;
  std::vector<std::vector<WorkRef>> Work; ///< Per API call.
  std::map<profile::ProcessIndex, std::vector<Interval>> WorkByEnd; ///< Sorted by End.
  uint64_t GpuBusy = 0, Wall = 0;
};

/// The median of V (the upper one of an even count), or Default when V is
/// empty.
uint64_t median(std::vector<uint64_t> V, uint64_t Default = 0);

/// The API family of a runtime function name: "copy", "memset", "alloc",
/// "free", "launch", "sync", or "" when it is none of these.
llvm::StringRef apiFamily(llvm::StringRef Name);

/// Whether the API call is a synchronous copy or memset by its name
/// (cudaMemcpy, cudaMemcpy2D, cudaMemset... without "Async").
bool isSynchronousTransferApi(llvm::StringRef Name);

} // namespace cuda_advisor::rank

#endif
