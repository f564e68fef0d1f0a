/* cuda-advisor bundled minimal CUDA declarations: cooperative_groups/reduce.h
 * (see ../cooperative_groups.h): reduce, the scans and their operators. */
#include "../cooperative_groups.h"
#ifndef CUDA_ADVISOR_MINIMAL_CG_REDUCE_H
#define CUDA_ADVISOR_MINIMAL_CG_REDUCE_H
#ifdef __cplusplus
namespace cooperative_groups {
template <class T> struct plus {
  __device__ T operator()(T a, T b) const { return a + b; }
};
template <class T> struct less {
  __device__ T operator()(T a, T b) const { return a < b ? a : b; }
};
template <class T> struct greater {
  __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  __device__ T operator()(T a, T b) const { return a & b; }
};
template <class T> struct bit_or {
  __device__ T operator()(T a, T b) const { return a | b; }
};
template <class T> struct bit_xor {
  __device__ T operator()(T a, T b) const { return a ^ b; }
};
template <class Group, class T, class Op> __device__ T reduce(const Group &g, T val, Op op);
template <class Group, class T, class Op> __device__ T inclusive_scan(const Group &g, T val, Op op);
template <class Group, class T> __device__ T inclusive_scan(const Group &g, T val);
template <class Group, class T, class Op> __device__ T exclusive_scan(const Group &g, T val, Op op);
template <class Group, class T> __device__ T exclusive_scan(const Group &g, T val);
} // namespace cooperative_groups
#endif
#endif
