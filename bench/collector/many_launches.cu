// N launches of an empty-ish kernel, for bench/collector-memory.sh: the
// collector must stream its records, so its memory must not grow with N.
//
//   many_launches N
//
// Synchronizes every 1024 launches (the launch queue stays short) and prints
// "launches: N".
#include <cstdio>
#include <cstdlib>

__global__ void tiny(int *p) {
  if (p)
    p[threadIdx.x] += 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s N\n", argv[0]);
    return 2;
  }
  long n = std::atol(argv[1]);
  int *d = nullptr;
  if (cudaMalloc(&d, 32 * sizeof(int)) != cudaSuccess) {
    std::fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  for (long i = 0; i < n; ++i) {
    tiny<<<1, 32>>>(d);
    if ((i & 1023) == 1023)
      cudaDeviceSynchronize();
  }
  cudaError_t rc = cudaDeviceSynchronize();
  cudaFree(d);
  std::printf("launches: %ld\n", n);
  return rc == cudaSuccess ? 0 : 1;
}
