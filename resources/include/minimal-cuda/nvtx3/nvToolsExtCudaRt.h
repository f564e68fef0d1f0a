/* cuda-advisor bundled minimal CUDA declarations: nvtx3/nvToolsExtCudaRt.h,
 * NVTX names for runtime objects. Written for cuda-advisor (declarations
 * only); names and signatures follow NVTX 3. */
#ifndef CUDA_ADVISOR_NVTOOLSEXTCUDART_H
#define CUDA_ADVISOR_NVTOOLSEXTCUDART_H
#include "../cuda_advisor_minimal.h"
#include "nvToolsExt.h"
#ifdef __cplusplus
extern "C" {
#endif
void nvtxNameCudaDeviceA(int device, const char *name);
void nvtxNameCudaStreamA(cudaStream_t stream, const char *name);
void nvtxNameCudaEventA(cudaEvent_t event, const char *name);
#define nvtxNameCudaDevice nvtxNameCudaDeviceA
#define nvtxNameCudaStream nvtxNameCudaStreamA
#define nvtxNameCudaEvent nvtxNameCudaEventA
#ifdef __cplusplus
}
#endif
#endif
