// Part of stack_walker_test: frames without a frame pointer (built with
// -fomit-frame-pointer whatever the flags of the rest).
#pragma GCC optimize("omit-frame-pointer")
#include <cstdio>

extern "C" __attribute__((noinline)) void omitFpRecurse(int Depth, void (*Leaf)(const char *)) {
  volatile int Local[8];
  Local[Depth % 8] = Depth;
  if (Depth == 0)
    Leaf("omit-frame-pointer recursion");
  else
    omitFpRecurse(Depth - 1, Leaf);
  Local[0] = Local[Depth % 8];
}
