// The stand-in runtime of a CUDA-to-FPGA flow (as FCUDA's fcutil.h): the
// kernels are C functions for high-level synthesis, and the host code calls
// these instead of the CUDA runtime.
#ifndef FPGA_RUNTIME_H
#define FPGA_RUNTIME_H
#include <stddef.h>
#if defined(__cplusplus)
extern "C" {
#endif
void cudaMemcpy(void *dest, void *src, size_t size, int type);
void cudaMalloc(void **dest, size_t size);
void cudaFree(void *ptr);
void cudaThreadSynchronize();
#if defined(__cplusplus)
}
#endif
#endif
