//===- Stacks.h - Host call stacks and the module map ----------*- C++ -*-===//
//
// Part of the CUPTI collector. Captures the return addresses of the program's
// frames when it calls a CUDA runtime API that creates GPU work, allocates,
// frees or synchronizes; interns each distinct stack once (a loop that calls
// cudaMemcpy 10^6 times from one place writes one stack record); and writes
// the module map (path, load address, size, GNU build-id) that lets a reader
// symbolize the addresses after the run.
//
// Cost, measured in the profile's end record (stack_capture_ns): one unwind
// through libgcc's _Unwind_Backtrace (which finds each frame's unwind table
// through glibc's lock-free _dl_find_object), bounded by the depth limit, with
// the leading frames inside the collector, libcupti, libcuda and libcudart
// dropped by an address-range test computed once.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_COLLECTOR_STACKS_H
#define CUDA_ADVISOR_COLLECTOR_STACKS_H

#include <cstddef>
#include <cstdint>
#include <link.h>
#include <mutex>
#include <string>
#include <vector>

namespace cuda_advisor::collector {

inline constexpr size_t MaxStackDepth = 64;

class StackWalker {
public:
  /// Finds the address ranges of the modules whose frames are dropped: the
  /// one holding SelfAddress (the collector) and every loaded libcuda,
  /// libcupti and libcudart.
  void init(const void *SelfAddress);
  /// Fills Frames with up to Max return addresses, innermost first, starting
  /// at the first frame outside the dropped modules. Returns the count.
  size_t capture(uintptr_t *Frames, size_t Max) const;
  bool isSkipped(uintptr_t Address) const;

private:
  struct Range {
    uintptr_t Begin, End;
  };
  static constexpr size_t MaxRanges = 32;
  Range Ranges[MaxRanges];
  size_t NumRanges = 0;
  struct InitState;
  static int onObject(struct dl_phdr_info *Info, size_t Size, void *Data);
};

/// Interns stacks: equal frame lists get equal ids. Memory is bounded: past
/// MaxStored distinct stacks, new stacks still get fresh ids but are no
/// longer remembered (their records are written again each time).
class StackTable {
public:
  /// Returns the id of Frames[0..N); IsNew when the caller must write the
  /// stack record for it.
  uint32_t intern(const uintptr_t *Frames, size_t N, bool &IsNew);
  uint32_t count() const;

private:
  struct Slot {
    uint64_t Hash = 0;
    uint32_t Id = 0;
    uint32_t Offset = 0;
    uint16_t Length = 0;
    bool Used = false;
  };
  static constexpr size_t NumSlots = 1 << 15;
  static constexpr uint32_t MaxStored = NumSlots / 2;
  mutable std::mutex Mutex;
  std::vector<Slot> Slots;
  std::vector<uintptr_t> Arena;
  uint32_t NextId = 0;
  uint32_t Stored = 0;
};

/// Appends one "module" record per loaded object (dl_iterate_phdr) to Out;
/// returns how many.
uint64_t appendModuleRecords(std::string &Out);

} // namespace cuda_advisor::collector

#endif
