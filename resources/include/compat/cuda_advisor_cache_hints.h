/* cuda-advisor compat: the cache-hinted loads and stores of sm_32_intrinsics.h
 * (__ldcg, __ldca, __ldcs, __ldlu, __ldcv; __stwb, __stcg, __stcs, __stwt).
 * Clang's CUDA wrapper does not include that header (it defines __ldg with
 * builtins instead) and Clang 19 has no definitions of its own, so code like
 * `__ldcs(reinterpret_cast<const int4 *>(p))` does not parse. They are
 * declared as templates: an overload that a header defines for one type (the
 * __half and __nv_bfloat16 ones of cuda_fp16.h / cuda_bf16.h, or a later
 * Clang's) is a better match and wins. Declarations only; the analysis reads
 * the calls by name as loads and stores. */
#ifndef CUDA_ADVISOR_CACHE_HINTS_H
#define CUDA_ADVISOR_CACHE_HINTS_H

#if defined(__cplusplus) && defined(__CUDA__)
template <class T> struct cuda_advisor_same_type { typedef T type; };
#define CUDA_ADVISOR_LOAD(Name) template <class T> __device__ T Name(const T *ptr);
#define CUDA_ADVISOR_STORE(Name)                                                           \
  template <class T>                                                                       \
  __device__ void Name(T *ptr, typename cuda_advisor_same_type<T>::type value);
CUDA_ADVISOR_LOAD(__ldcg)
CUDA_ADVISOR_LOAD(__ldca)
CUDA_ADVISOR_LOAD(__ldcs)
CUDA_ADVISOR_LOAD(__ldlu)
CUDA_ADVISOR_LOAD(__ldcv)
CUDA_ADVISOR_STORE(__stwb)
CUDA_ADVISOR_STORE(__stcg)
CUDA_ADVISOR_STORE(__stcs)
CUDA_ADVISOR_STORE(__stwt)
#undef CUDA_ADVISOR_LOAD
#undef CUDA_ADVISOR_STORE
#endif

#endif /* CUDA_ADVISOR_CACHE_HINTS_H */
