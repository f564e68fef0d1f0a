/* cuda-advisor bundled minimal CUDA declarations:
 * cooperative_groups/memcpy_async.h (see ../cooperative_groups.h). */
#include "../cooperative_groups.h"
#ifndef CUDA_ADVISOR_MINIMAL_CG_MEMCPY_ASYNC_H
#define CUDA_ADVISOR_MINIMAL_CG_MEMCPY_ASYNC_H
#ifdef __cplusplus
namespace cooperative_groups {
template <class Group, class T>
__device__ void memcpy_async(const Group &g, T *dst, const T *src, size_t bytes);
template <class Group>
__device__ void memcpy_async(const Group &g, void *dst, const void *src, size_t bytes);
template <class Group> __device__ void wait(const Group &g);
template <unsigned int N, class Group> __device__ void wait_prior(const Group &g);
} // namespace cooperative_groups
#endif
#endif
