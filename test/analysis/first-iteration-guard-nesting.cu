// A first-iteration guard (`if (iter == 0)`) whose condition and else branch
// hold loops of their own: the walk of the else branch pushes those loops on
// the stack of enclosing loops, and the guarded loop must still be found by
// its position, not by an iterator into that stack (a use after free that an
// ASan build found on NanoVDB's examples, where it corrupted the heap or hung
// the run). The copy on the first iteration only is not "per iteration"; the
// copies in the nested loops of the else branch are.
// RUN: %expect-exit 1 %cuda-advisor --sort=location --checks='-*,transfer-in-loop' %s -- -x cuda \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// REQUIRES: cuda

#include <cuda_runtime.h>

void run(float *d, float *h, int iters, int n) {
  for (int iter = 0; iter < iters; ++iter) {
    if (iter == 0) {
      cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    } else {
      for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b)
          for (int c = 0; c < 2; ++c)
            for (int e = 0; e < 2; ++e)
              for (int f = 0; f < 2; ++f)
                for (int g = 0; g < 2; ++g)
                  for (int k = 0; k < 2; ++k)
                    for (int m = 0; m < 2; ++m)
                      for (int q = 0; q < 2; ++q)
                        // CHECK: :[[@LINE+1]]:25: warning: cudaMemcpy runs on every iteration of this loop
                        cudaMemcpy(h + q, d, sizeof(float), cudaMemcpyDeviceToHost);
    }
  }
}
