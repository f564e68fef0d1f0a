/* cuda-advisor bundled minimal CUDA declarations: crt/sm_70_rt.hpp, which
 * Clang's __clang_cuda_intrinsics.h includes. The warp match functions of
 * compute capability 7.0, declarations only. */
#ifndef CUDA_ADVISOR_MINIMAL_SM_70_RT_HPP
#define CUDA_ADVISOR_MINIMAL_SM_70_RT_HPP
#define CUDA_ADVISOR_MATCH(T)                                                               \
  __device__ unsigned int __match_any_sync(unsigned mask, T value);                         \
  __device__ unsigned int __match_all_sync(unsigned mask, T value, int *pred);
CUDA_ADVISOR_MATCH(unsigned)
CUDA_ADVISOR_MATCH(int)
CUDA_ADVISOR_MATCH(unsigned long)
CUDA_ADVISOR_MATCH(long)
CUDA_ADVISOR_MATCH(unsigned long long)
CUDA_ADVISOR_MATCH(long long)
CUDA_ADVISOR_MATCH(float)
CUDA_ADVISOR_MATCH(double)
#undef CUDA_ADVISOR_MATCH
#endif
