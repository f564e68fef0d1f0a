//===- Stacks.h - Host call stacks and the module map ----------*- C++ -*-===//
//
// Part of the CUPTI collector. Captures the return addresses of the program's
// frames when it calls a CUDA runtime API that creates GPU work, allocates,
// frees or synchronizes; interns each distinct stack once (a loop that calls
// cudaMemcpy 10^6 times from one place writes one stack record); and writes
// the module map (path, load address, size, GNU build-id) that lets a reader
// symbolize the addresses after the run.
//
// Cost, measured in the profile's end record (stack_capture_ns): a walk of
// at most the depth limit plus the frames inside the collector, libcupti,
// libcuda and libcudart (dropped by an address-range test computed once),
// each frame a lookup in a cache of unwind rules by return address.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_COLLECTOR_STACKS_H
#define CUDA_ADVISOR_COLLECTOR_STACKS_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <link.h>
#include <mutex>
#include <string>
#include <vector>

namespace cuda_advisor::collector {

inline constexpr size_t MaxStackDepth = 64;

/// Walks the calling thread's stack. The fast path unwinds with a cache of
/// unwind rules keyed by return address: the first time an address is seen
/// its rule (where the caller's stack pointer, frame pointer and return
/// address are, from the DWARF call frame information that libgcc's
/// _Unwind_Find_FDE finds) is computed and cached; after that a frame costs a
/// hash lookup and two loads. Frames whose rules it cannot express (CFA
/// expressions, signal frames, code without unwind tables) make it fall back
/// to libgcc's _Unwind_Backtrace for the whole stack.
class StackWalker {
public:
  StackWalker();
  ~StackWalker();
  StackWalker(const StackWalker &) = delete;
  StackWalker &operator=(const StackWalker &) = delete;

  /// Finds the address ranges of the modules whose frames are dropped: the
  /// one holding SelfAddress (the collector) and every loaded libcuda,
  /// libcupti and libcudart.
  void init(const void *SelfAddress);
  /// Fills Frames with up to Max return addresses, innermost first, starting
  /// at the first frame of the caller's callers outside the dropped modules.
  /// Returns the count.
  __attribute__((noinline)) size_t capture(uintptr_t *Frames, size_t Max);
  /// The same with _Unwind_Backtrace only: the reference for the fast path,
  /// and its fallback.
  __attribute__((noinline)) size_t captureSlow(uintptr_t *Frames, size_t Max) const;
  bool isSkipped(uintptr_t Address) const;
  /// Captures that fell back to _Unwind_Backtrace.
  uint64_t slowCaptures() const { return SlowCaptures.load(std::memory_order_relaxed); }

private:
  struct Range {
    uintptr_t Begin, End;
  };
  struct InitState;
  struct Slot {
    std::atomic<uintptr_t> Key;
    std::atomic<uint64_t> Rule;
  };
  static int onObject(struct dl_phdr_info *Info, size_t Size, void *Data);
  uint64_t rule(uintptr_t ReturnAddress);
  size_t fallback(uintptr_t *Frames, size_t Max, uintptr_t Ip, const char *Why);

  static constexpr size_t MaxRanges = 32;
  Range Ranges[MaxRanges];
  size_t NumRanges = 0;
  static constexpr size_t NumSlots = 1 << 14;
  Slot *Slots = nullptr; // Insert-only hash table: return address -> rule.
  std::mutex InsertMutex;
  std::atomic<uint64_t> SlowCaptures{0};
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
