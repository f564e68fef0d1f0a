// A program that dies: after 10 iterations of real work it crashes (segv),
// aborts (abort) or, with "wait", keeps working until a signal stops it
// (after writing READY_FILE, so that the test knows it is running).
#include "gpu_check.h"

#include <csignal>
#include <cstring>
#include <unistd.h>
#include <vector>

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "segv";
  const int n = 1 << 20;
  std::vector<float> host(n, 1.0f);
  float *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  auto iteration = [&] {
    CHECK(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    gpu_check_scale<<<(n + 255) / 256, 256>>>(in, out, n);
    CHECK(cudaMemcpy(host.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  };
  for (int it = 0; it < 10; ++it)
    iteration();
  std::fflush(stdout);
  if (!std::strcmp(mode, "segv")) {
    volatile float *null = nullptr;
    *null = host[0];
  } else if (!std::strcmp(mode, "abort")) {
    std::abort();
  } else if (!std::strcmp(mode, "wait")) {
    if (argc > 2)
      if (FILE *f = std::fopen(argv[2], "w"))
        std::fclose(f);
    for (;;) {
      iteration();
      usleep(1000);
    }
  }
  return 0;
}
