// SARIF 2.1.0 (bundled CUDA declarations: no toolkit needed): valid against the schema and GitHub,
// with a rule for every check, results with notes and fixes.
//
// With --source-root: URIs relative to %SRCROOT%; --docs-url gives help links.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cuda-advisor --cuda-path=bundled --checks='*' --list-checks > %t/checks.txt
// RUN: cd %S && %expect-exit 1 %cuda-advisor --cuda-path=bundled --format=sarif -o %t/rel.sarif \
// RUN:   --source-root=%S --docs-url=https://example.invalid/docs/checks/ sarif.cu -- -x cuda
// RUN: %python %S/Inputs/validate_sarif.py --github --relative --expect-rules=%t/checks.txt \
// RUN:   %inputs/sarif-schema-2.1.0.json %t/rel.sarif | FileCheck %s --check-prefixes=CHECK,REL
// A source outside the root: analyzed here, so its findings stay results with
// absolute file:// URIs (runtime ones become notifications); no help links.
// RUN: cd %t && %expect-exit 1 %cuda-advisor --cuda-path=bundled --format=sarif --source-root=%t \
// RUN:   %s -- -x cuda > %t/abs.sarif
// RUN: %python %S/Inputs/validate_sarif.py --github %inputs/sarif-schema-2.1.0.json %t/abs.sarif \
// RUN:   | FileCheck %s --check-prefixes=CHECK,ABS
// RUN: FileCheck %s --check-prefix=NOHELP < %t/abs.sarif
// NOHELP-NOT: helpUri
// NOHELP-NOT: informationUri
// NOHELP-NOT: file://{{.*}}share/cuda-advisor
// The document itself.
// RUN: FileCheck %s --check-prefix=DOC < %t/rel.sarif
// REQUIRES: jsonschema

#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

void run(float *h, float *d, int n) {
  int threads = 256;
  for (int it = 0; it < 10; ++it) {
    cudaMemcpy(d, h, 4096, cudaMemcpyHostToDevice);
    scale<<<n / threads, threads>>>(d, n);
  }
  scale<<<n, 100>>>(d, n);
}

// CHECK-LABEL: valid: {{.*}}.sarif
// CHECK-DAG: rule transfer-in-loop index={{[0-9]+}} level=warning name=TransferInLoop help=markdown
// CHECK-DAG: rule launch-grid-truncation index={{[0-9]+}} level=warning name=LaunchGridTruncation help=markdown
// CHECK-DAG: rule launch-block-size index={{[0-9]+}} level=warning name=LaunchBlockSize help=markdown
// REL: result transfer-in-loop sarif.cu:35:5-35:51 level=warning related=1 fixes=0
// REL-NEXT: related sarif.cu:34:3-None:None inside this loop
// REL: result launch-grid-truncation sarif.cu:36:13-36:24 level=warning related=0 fixes=1
// REL-NEXT: fix sarif.cu offset={{[0-9]+}} length=11 text=(n + threads - 1) / threads
// REL: result launch-block-size sarif.cu:38:14-38:17 level=warning related=0 fixes=0
// ABS: result transfer-in-loop file://{{.*}}sarif.cu:35:5-35:51 level=warning related=1 fixes=0
// ABS: result launch-grid-truncation file://{{.*}}sarif.cu:36:13-36:24
// ABS: result launch-block-size file://{{.*}}sarif.cu:38:14-38:17
// CHECK: invocation executionSuccessful=true
// CHECK-NOT: notification

// DOC: "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
// DOC: "artifacts": [
// DOC: "uri": "sarif.cu",
// DOC-NEXT: "uriBaseId": "%SRCROOT%"
// DOC: "roles": [
// DOC-NEXT: "analysisTarget",
// DOC-NEXT: "resultFile"
// DOC: "columnKind": "unicodeCodePoints",
// DOC: "originalUriBaseIds": {
// DOC-NEXT: "%SRCROOT%": {
// DOC-NEXT: "uri": "file://{{.*}}/test/report/"
// DOC: "partialFingerprints": {
// DOC-NEXT: "cudaAdvisor/v1": "{{[0-9a-f]+}}"
// DOC: "properties": {
// DOC-NEXT: "api": "cudaMemcpy",
// DOC-NEXT: "evidence": {
// DOC: "bytesPerIteration": 4096,
// DOC: "ruleId": "transfer-in-loop",
// DOC: "description": {
// DOC-NEXT: "text": "replace 'n / threads' with '(n + threads - 1) / threads'"
// DOC: "kernels": [
// DOC: "ruleId": "launch-grid-truncation",
// DOC: "driver": {
// DOC-NEXT: "informationUri": "https://example.invalid/docs/checks/",
// DOC-NEXT: "name": "cuda-advisor",
// DOC: "fullDescription": {
// DOC: "help": {
// DOC-NEXT: "markdown": "# transfer-in-loop
// DOC: "helpUri": "https://example.invalid/docs/checks/transfer-in-loop.md",
// DOC: "semanticVersion": "{{[0-9.]+}}",
// DOC: "version": "2.1.0"
