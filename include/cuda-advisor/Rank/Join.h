//===- Join.h - Which profile records a finding is about ------*- C++ -*-===//
//
// API-based findings (copies, allocations, syncs, launches) match the API
// calls whose symbolized host stack passes through the finding's call site
// (the file compared by path suffix, the line exactly); kernel-based findings
// match kernel records by mangled name, or, for formats that give only
// demangled names (Kineto, Nsight Compute), by the demangled name without
// return type and parameter list.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_RANK_JOIN_H
#define CUDA_ADVISOR_RANK_JOIN_H

#include "cuda-advisor/Core/Finding.h"
#include "cuda-advisor/Rank/Timeline.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <string>
#include <vector>

namespace cuda_advisor::rank {

/// How well two spellings of a source path name the same file: 0 when they
/// cannot (different file names), else the number of equal trailing path
/// components (1 = the file name only), or a large number when both exist
/// here and are the same file.
unsigned sameFileScore(llvm::StringRef A, llvm::StringRef B);

/// The kernel's name as the comparisons use it: demangled (mangled input is
/// demangled first), without the return type, without the parameter list,
/// without spaces: "void k<32>(float*, int)" -> "k<32>".
std::string kernelKey(llvm::StringRef Name);

/// The records of a profile a finding is about.
struct Match {
  std::vector<size_t> Calls;   ///< Into Profile::ApiCalls.
  std::vector<size_t> Kernels; ///< Into Profile::Kernels.
  std::vector<size_t> Metrics; ///< Into Profile::Metrics (Nsight Compute rows).
  bool empty() const { return Calls.empty() && Kernels.empty() && Metrics.empty(); }
};

/// Precomputed lookups over one profile; the join of each finding is then
/// proportional to what it matches.
class Joiner {
public:
  explicit Joiner(const ProfileIndex &Index);
  Match match(const Finding &F) const;

  /// API calls whose stack has a frame at Site (the best-scoring file
  /// spelling only), restricted to the API families given (none: any).
  std::vector<size_t> callsAt(const SourceLocation &Site,
                              llvm::ArrayRef<llvm::StringRef> Families) const;
  /// Kernel records whose name matches one of the mangled Names.
  std::vector<size_t> kernelsNamed(llvm::ArrayRef<std::string> Names) const;
  /// Nsight Compute rows whose kernel matches one of the mangled Names.
  std::vector<size_t> metricsNamed(llvm::ArrayRef<std::string> Names) const;

private:
  const ProfileIndex &Index;
  /// Line -> (stack index, symbol index) of every frame with that line.
  std::map<unsigned, std::vector<std::pair<size_t, size_t>>> FramesByLine;
  std::vector<std::vector<size_t>> CallsByStack;
  llvm::StringMap<std::vector<size_t>> KernelsByMangled, KernelsByKey, MetricsByKey;
  bool LaunchStacks = false;
};

} // namespace cuda_advisor::rank

#endif
