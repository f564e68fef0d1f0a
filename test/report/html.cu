// --format=html: one well-formed, self-contained page with the findings
// table and a section per finding.
// RUN: rm -rf %t && mkdir -p %t
// RUN: cd %S && %expect-exit 1 %cuda-advisor --cuda-path=bundled --format=html -o %t/report.html html.cu -- -x cuda
// RUN: %python %S/Inputs/check_html.py %t/report.html | FileCheck %s --check-prefix=WELLFORMED
// RUN: FileCheck %s < %t/report.html
// No toolkit needed: the bundled CUDA declarations (--cuda-path=bundled).

#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

void run(float *h, float *d, int n) {
  int threads = 256;
  scale<<<n / threads, threads>>>(d, n);
  scale<<<n, 100>>>(d, n);
}

// WELLFORMED: ok

// CHECK: <title>cuda-advisor report</title>
// CHECK: <p>2 warnings in 1 file <span class="muted">(cuda-advisor {{.*}})</span></p>
// CHECK: <thead><tr><th>#</th><th>severity</th><th>finding</th><th>location</th></tr></thead>
// CHECK: <tr><td class="num"><a href="#f1">1</a></td><td><span class="sev warning">warning</span></td><td>grid of n / threads blocks {{.*}}<code>[launch-grid-truncation]</code></td><td><code>html.cu:18:11</code></td></tr>
// CHECK: <tr><td class="num"><a href="#f2">2</a></td>{{.*}}<code>[launch-block-size]</code></td><td><code>html.cu:19:14</code></td></tr>
// CHECK: <section class="finding" id="f1">
// CHECK: <pre class="snippet"><code><span class="ln">   18  </span>  scale&lt;&lt;&lt;<mark>n / threads</mark>, threads&gt;&gt;&gt;(d, n);
// CHECK: <h3>Suggested fix</h3>
// CHECK-NEXT: <pre class="diff"><code><span class="del">-   scale&lt;&lt;&lt;n / threads, threads&gt;&gt;&gt;(d, n);</span><span class="ins">+   scale&lt;&lt;&lt;(n + threads - 1) / threads, threads&gt;&gt;&gt;(d, n);</span></code></pre>
// CHECK: <section class="finding" id="f2">
// CHECK: </html>
