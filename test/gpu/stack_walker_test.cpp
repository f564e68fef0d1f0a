// Checks the collector's fast stack walker (lib/Collector/Stacks.cpp) against
// libgcc's _Unwind_Backtrace on stacks of many shapes, and times both. Needs
// no GPU; test/gpu/run.sh builds and runs it on the GPU machine too (another
// glibc and libgcc).
//
//   g++ -O2 -g -pthread -I lib/Collector -I include test/gpu/stack_walker_test.cpp \
//       lib/Collector/Stacks.cpp test/gpu/stack_walker_test_omitfp.cpp -o swt && ./swt
#include "Stacks.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

using cuda_advisor::collector::StackWalker;

static StackWalker Walker;
static int Failures = 0, Checks = 0;

// Both walks from the same function: frame 0 differs (two call sites), the
// rest must agree.
__attribute__((noinline)) void compareHere(const char *What) {
  uintptr_t Fast[64], Slow[64];
  size_t NF = Walker.capture(Fast, 64);
  size_t NS = Walker.captureSlow(Slow, 64);
  ++Checks;
  bool Same = NF == NS && NF > 1 && std::equal(Fast + 1, Fast + NF, Slow + 1);
  if (!Same) {
    ++Failures;
    std::printf("FAIL %s: fast %zu frames, slow %zu frames\n", What, NF, NS);
    for (size_t I = 0; I < std::max(NF, NS); ++I)
      std::printf("  %2zu %16lx %16lx\n", I, I < NF ? (unsigned long)Fast[I] : 0ul,
                  I < NS ? (unsigned long)Slow[I] : 0ul);
  }
}

extern "C" void omitFpRecurse(int Depth, void (*Leaf)(const char *));

__attribute__((noinline)) void withFramePointer(int Depth) {
  volatile char Pad[100];
  Pad[Depth % 100] = 1;
  if (Depth == 0)
    compareHere("frame-pointer recursion");
  else
    withFramePointer(Depth - 1);
  Pad[0] = Pad[Depth % 100];
}

__attribute__((noinline)) void realigned(int Depth) {
  alignas(64) volatile char Buf[256];
  Buf[Depth] = 1;
  if (Depth == 0)
    compareHere("realigned stack");
  else
    realigned(Depth - 1);
  Buf[1] = Buf[Depth];
}

// Over-aligned locals and alloca in one function: GCC realigns the stack with
// a DRAP register, and the CFA is loaded from the frame
// (DW_CFA_def_cfa_expression: DW_OP_breg6 (rbp): -8; DW_OP_deref), as in
// cuBLASLt's launch paths.
__attribute__((noinline)) void drapFrames(int Depth) {
  alignas(64) volatile char Buf[128];
  volatile char *P = static_cast<volatile char *>(__builtin_alloca(16 + Depth * 8));
  Buf[Depth & 63] = 1;
  P[0] = Buf[0];
  if (Depth == 0)
    compareHere("realigned stack with a DRAP register");
  else
    drapFrames(Depth - 1);
  Buf[1] = P[0];
}

__attribute__((noinline)) void withAlloca(int Depth) {
  volatile char *P = static_cast<volatile char *>(__builtin_alloca(32 + Depth * 16));
  P[0] = 1;
  if (Depth == 0)
    compareHere("alloca");
  else
    withAlloca(Depth - 1);
  P[1] = P[0];
}

static int compareInts(const void *A, const void *B) {
  static bool Once = false;
  if (!Once) {
    Once = true;
    compareHere("inside glibc qsort");
  }
  return *static_cast<const int *>(A) - *static_cast<const int *>(B);
}

static void leafCallback(const char *What) { compareHere(What); }

__attribute__((noinline)) double timeIt(bool Fast, int Reps) {
  uintptr_t F[64];
  auto T0 = std::chrono::steady_clock::now();
  for (int I = 0; I < Reps; ++I)
    Fast ? Walker.capture(F, 24) : Walker.captureSlow(F, 24);
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - T0).count() / Reps;
}

__attribute__((noinline)) void deepForTiming(int Depth, double *FastUs, double *SlowUs) {
  volatile int X = Depth;
  if (Depth > 0) {
    deepForTiming(Depth - 1, FastUs, SlowUs);
  } else {
    *FastUs = timeIt(true, 20000);
    *SlowUs = timeIt(false, 2000);
  }
  (void)X;
}

int main() {
  Walker.init(nullptr); // No frames dropped: compare whole stacks.
  compareHere("main");
  withFramePointer(30);
  realigned(20);
  drapFrames(12);
  withAlloca(25);
  omitFpRecurse(30, &leafCallback);
  std::vector<int> V(1000);
  for (int I = 0; I < 1000; ++I)
    V[I] = (I * 7919) % 1000;
  std::qsort(V.data(), V.size(), sizeof(int), &compareInts);
  std::function<void()> Fn = [] { compareHere("std::function"); };
  Fn();
  std::sort(V.begin(), V.end(), [](int A, int B) {
    static bool Once = false;
    if (!Once) {
      Once = true;
      compareHere("std::sort comparator");
    }
    return A < B;
  });
  std::thread T([] {
    compareHere("second thread");
    withFramePointer(10);
    omitFpRecurse(10, &leafCallback);
  });
  T.join();
  double FastUs = 0, SlowUs = 0;
  deepForTiming(30, &FastUs, &SlowUs);
  std::printf("stack walker: %d of %d checks failed; 24 frames: fast %.3f us, libgcc %.3f us; "
              "%llu fast walks fell back\n",
              Failures, Checks, FastUs, SlowUs,
              static_cast<unsigned long long>(Walker.slowCaptures()));
  return Failures ? 1 : 0;
}
