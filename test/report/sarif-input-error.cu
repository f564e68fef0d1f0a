// An input error (a missing file beside a good one) is a tool execution
// notification, executionSuccessful is false, and the good file's results
// are still there; the exit code is 2.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %expect-exit 2 %cuda-advisor --cuda-path=bundled --format=sarif -o %t/out.sarif %s %t/missing.cu -- -x cuda
// RUN: %python %S/Inputs/validate_sarif.py --github %inputs/sarif-schema-2.1.0.json %t/out.sarif \
// RUN:   | FileCheck %s
// RUN: FileCheck %s --check-prefix=DOC < %t/out.sarif
// REQUIRES: jsonschema

#include <cuda_runtime.h>

__global__ void k(float *x) {}

void run(float *d, int n) {
  k<<<n, 100>>>(d);
}

// CHECK: valid: out.sarif
// CHECK: result launch-block-size {{.*}}sarif-input-error.cu:16:10-16:13 level=warning
// CHECK: invocation executionSuccessful=false
// CHECK-NEXT: notification error {{.*}}missing.cu: {{.+}}

// DOC: "uri": "{{.*}}missing.cu"
// DOC: "roles": [
// DOC-NEXT: "analysisTarget"
