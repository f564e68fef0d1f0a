// Suppression comments, as in clang-tidy (see test/driver/nolint.test).
#include <cuda_runtime.h>

void suppressions(float *d, const float *h, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpy(d, h, 16, cudaMemcpyHostToDevice); // NOLINT
    cudaMemcpy(d, h, 17, cudaMemcpyHostToDevice); // NOLINT(transfer-in-loop)
    cudaMemcpy(d, h, 18, cudaMemcpyHostToDevice); // NOLINT(launch-*): another check
    // NOLINTNEXTLINE(transfer-*)
    cudaMemcpy(d, h, 19, cudaMemcpyHostToDevice);
    // NOLINTNEXTLINE(launch-block-size)
    cudaMemcpy(d, h, 20, cudaMemcpyHostToDevice);
    // NOLINTBEGIN(transfer-in-loop)
    cudaMemcpy(d, h, 21, cudaMemcpyHostToDevice);
    cudaMemcpy(d, h, 22, cudaMemcpyHostToDevice);
    // NOLINTEND(transfer-in-loop)
    cudaMemcpy(d, h, 23, cudaMemcpyHostToDevice);
  }
}

// Markers outside comments, and a NOLINTBEGIN that is never closed, suppress
// nothing (clang-tidy reports the unmatched one instead of hiding the file).
void notSuppressed(float *d, const float *h, int n, const char *msg) {
  for (int i = 0; i < n; ++i) {
    msg = "NOLINT"; cudaMemcpy(d, h, 24, cudaMemcpyHostToDevice);
    // NOLINTBEGIN(transfer-in-loop): this one is never closed
    cudaMemcpy(d, h, 25, cudaMemcpyHostToDevice);
  }
}
