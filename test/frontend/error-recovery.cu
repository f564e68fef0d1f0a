// A file with errors Clang can recover from is still analyzed, as clangd
// does: the finding in the intact function is reported, the errors are
// printed under the file's name, and the exit code is 2.
//
// RUN: %expect-exit 2 %cuda-advisor --checks='-*,transfer-in-loop' %s -- -x cuda \
// RUN:   > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.out --implicit-check-not=warning:
// RUN: FileCheck %s --input-file=%t.err --check-prefix=ERR
// The same without a CUDA installation.
// RUN: %expect-exit 2 %cuda-advisor --cuda-path=bundled --checks='-*,transfer-in-loop' %s -- -x cuda \
// RUN:   > %t.bundled.out 2> %t.bundled.err
// RUN: FileCheck %s --input-file=%t.bundled.out --implicit-check-not=warning:
// RUN: FileCheck %s --input-file=%t.bundled.err --check-prefix=ERR
// REQUIRES: cuda

// ERR: cuda-advisor: error: {{.*}}error-recovery.cu: the file has compiler errors; findings come from what Clang could recover:
// ERR-NEXT: error-recovery.cu:[[@LINE+3]]:{{[0-9]+}}: error: use of undeclared identifier 'undeclaredHelper'
// ERR: error-recovery.cu:[[@LINE+6]]:{{[0-9]+}}: error: expected ';'
void broken(float *d) {
  undeclaredHelper(d);
}

struct Config {
  int steps
};

void stepLoop(float *dev, const float *host, int steps) {
  for (int s = 0; s < steps; ++s)
    // CHECK: error-recovery.cu:[[@LINE+1]]:5: warning: {{.*}}[transfer-in-loop]
    cudaMemcpy(dev, host, 1024, cudaMemcpyHostToDevice);
}
