// 4 threads, 2 streams each, 20 iterations of (async H2D from pinned memory,
// kernel, async D2H) per stream: 160 kernels and 320 copies on 8 streams.
#include "gpu_check.h"

#include <thread>
#include <vector>

constexpr int Threads = 4, StreamsPerThread = 2, Iterations = 20, N = 1 << 18;

static void worker() {
  cudaStream_t streams[StreamsPerThread];
  float *host[StreamsPerThread], *in[StreamsPerThread], *out[StreamsPerThread];
  for (int s = 0; s < StreamsPerThread; ++s) {
    CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    CHECK(cudaMallocHost(&host[s], N * sizeof(float)));
    CHECK(cudaMalloc(&in[s], N * sizeof(float)));
    CHECK(cudaMalloc(&out[s], N * sizeof(float)));
    for (int i = 0; i < N; ++i)
      host[s][i] = 1.0f;
  }
  for (int it = 0; it < Iterations; ++it)
    for (int s = 0; s < StreamsPerThread; ++s) {
      CHECK(cudaMemcpyAsync(in[s], host[s], N * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
      gpu_check_scale<<<(N + 255) / 256, 256, 0, streams[s]>>>(in[s], out[s], N);
      CHECK(cudaMemcpyAsync(host[s], out[s], N * sizeof(float), cudaMemcpyDeviceToHost, streams[s]));
    }
  for (int s = 0; s < StreamsPerThread; ++s) {
    CHECK(cudaStreamSynchronize(streams[s]));
    CHECK(cudaStreamDestroy(streams[s]));
    CHECK(cudaFreeHost(host[s]));
    CHECK(cudaFree(in[s]));
    CHECK(cudaFree(out[s]));
  }
}

int main() {
  CHECK(cudaFree(nullptr)); // Create the context before the threads race for it.
  std::vector<std::thread> pool;
  for (int t = 0; t < Threads; ++t)
    pool.emplace_back(worker);
  for (std::thread &t : pool)
    t.join();
  std::printf("multistream: done\n");
  return 0;
}
