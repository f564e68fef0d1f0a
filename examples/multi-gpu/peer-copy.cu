// peer-copy: a multi-GPU program of the shape users profile: one host thread
// per device, each running element-wise kernels on its own stream, then a
// ring exchange of halos with cudaMemcpyPeerAsync between neighbouring GPUs.
// With one GPU the ring has one member and the "peer" copy stays on device 0
// (CUPTI then records a device-to-device copy instead of a peer copy).
//
// Usage: peer-copy [steps]   (default 20)
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#define CUDA_CHECK(call)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                    \
                   cudaGetErrorString(err_));                                                      \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

constexpr int N = 1 << 24;        // 64 MiB of floats per device.
constexpr int Halo = 1 << 20;     // 4 MiB exchanged with the next device.
constexpr int Threads = 256;

__global__ void peer_relax(float *x, int n, float w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * w + (1.0f - w);
}

struct DeviceState {
  int Device = 0;
  float *Data = nullptr;
  float *Inbox = nullptr; // Halo received from the previous device.
  cudaStream_t Stream = nullptr;
};

static void setUp(DeviceState &S) {
  CUDA_CHECK(cudaSetDevice(S.Device));
  CUDA_CHECK(cudaMalloc(&S.Data, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&S.Inbox, Halo * sizeof(float)));
  CUDA_CHECK(cudaMemset(S.Data, 0, N * sizeof(float)));
  CUDA_CHECK(cudaStreamCreateWithFlags(&S.Stream, cudaStreamNonBlocking));
}

static void compute(DeviceState &S) {
  CUDA_CHECK(cudaSetDevice(S.Device));
  peer_relax<<<(N + Threads - 1) / Threads, Threads, 0, S.Stream>>>(S.Data, N, 0.5f);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(S.Stream));
}

int main(int argc, char **argv) {
  int Steps = argc > 1 ? std::atoi(argv[1]) : 20;
  int Count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&Count));
  std::printf("devices: %d\n", Count);
  std::vector<DeviceState> States(Count);
  for (int D = 0; D < Count; ++D)
    States[D].Device = D;
  // Peer access where the hardware allows it (NVLink/PCIe P2P).
  for (int D = 0; D < Count; ++D) {
    CUDA_CHECK(cudaSetDevice(D));
    for (int P = 0; P < Count; ++P) {
      int Can = 0;
      if (P != D && cudaDeviceCanAccessPeer(&Can, D, P) == cudaSuccess && Can)
        cudaDeviceEnablePeerAccess(P, 0);
    }
  }
  for (DeviceState &S : States)
    setUp(S);

  auto Start = std::chrono::steady_clock::now();
  for (int Step = 0; Step < Steps; ++Step) {
    // One host thread per device for the compute phase.
    std::vector<std::thread> Workers;
    for (DeviceState &S : States)
      Workers.emplace_back([&S] { compute(S); });
    for (std::thread &W : Workers)
      W.join();
    // Ring exchange: device D sends its tail to device (D + 1) % Count.
    for (int D = 0; D < Count; ++D) {
      DeviceState &From = States[D], &To = States[(D + 1) % Count];
      CUDA_CHECK(cudaSetDevice(From.Device));
      CUDA_CHECK(cudaMemcpyPeerAsync(To.Inbox, To.Device, From.Data + (N - Halo), From.Device,
                                     Halo * sizeof(float), From.Stream));
    }
    for (DeviceState &S : States) {
      CUDA_CHECK(cudaSetDevice(S.Device));
      CUDA_CHECK(cudaStreamSynchronize(S.Stream));
    }
  }
  double Ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
                  .count();
  std::printf("steps: %d, %.3f ms\n", Steps, Ms);
  for (DeviceState &S : States) {
    CUDA_CHECK(cudaSetDevice(S.Device));
    CUDA_CHECK(cudaStreamDestroy(S.Stream));
    CUDA_CHECK(cudaFree(S.Inbox));
    CUDA_CHECK(cudaFree(S.Data));
  }
  return 0;
}
