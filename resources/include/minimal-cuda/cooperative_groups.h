/* cuda-advisor bundled minimal CUDA declarations: cooperative_groups.h (see
 * cuda_advisor_minimal.h). Only for parses without a toolkit: the groups,
 * tiles and collectives code uses most, declared and never defined (nothing
 * is compiled), so that kernels written with them parse and are analyzed.
 * Member names and signatures follow CUDA 13.0's cooperative_groups.h. */
#include "cuda_advisor_minimal.h"
#ifndef CUDA_ADVISOR_MINIMAL_COOPERATIVE_GROUPS_H
#define CUDA_ADVISOR_MINIMAL_COOPERATIVE_GROUPS_H
#ifdef __cplusplus

namespace cooperative_groups {

class thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ bool is_valid() const;
  __device__ unsigned int get_type() const;
};

class thread_block : public thread_group {
public:
  static __device__ void sync();
  static __device__ unsigned int size();
  static __device__ unsigned int num_threads();
  static __device__ unsigned int thread_rank();
  static __device__ dim3 group_index();
  static __device__ dim3 thread_index();
  static __device__ dim3 group_dim();
  static __device__ dim3 dim_threads();
};
__device__ thread_block this_thread_block();
/* Scratch for tiles of several warps (CUDA 12.x/13). */
template <unsigned int MaxBlockSize = 1024> struct alignas(8) block_tile_memory {
  char scratch[8 * (MaxBlockSize / 32)];
};
template <unsigned int MaxBlockSize>
__device__ thread_block this_thread_block(block_tile_memory<MaxBlockSize> &scratch);

class grid_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ bool is_valid() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_blocks() const;
  __device__ dim3 block_index() const;
  __device__ unsigned long long block_rank() const;
  __device__ unsigned long long num_blocks() const;
};
__device__ grid_group this_grid();

class multi_grid_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long thread_rank() const;
  __device__ bool is_valid() const;
  __device__ unsigned int grid_rank() const;
  __device__ unsigned int num_grids() const;
};
__device__ multi_grid_group this_multi_grid();

/* The collectives a warp-sized group offers. */
class cuda_advisor_warp_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  template <class T> __device__ T shfl(T var, int srcRank) const;
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned int laneMask) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned int ballot(int predicate) const;
  template <class T> __device__ unsigned int match_any(T val) const;
  template <class T> __device__ unsigned int match_all(T val, int &pred) const;
};

class coalesced_group : public cuda_advisor_warp_group {};
__device__ coalesced_group coalesced_threads();

template <unsigned int Size, typename ParentT = void> class thread_block_tile;
template <unsigned int Size>
class thread_block_tile<Size, void> : public cuda_advisor_warp_group {
public:
  static constexpr unsigned int num_threads() { return Size; }
  static constexpr unsigned int size() { return Size; }
};
template <unsigned int Size, typename ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {};

template <unsigned int Size, typename ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &parent);
__device__ thread_group tiled_partition(const thread_group &parent, unsigned int tilesz);
__device__ coalesced_group labeled_partition(const coalesced_group &g, int label);
__device__ coalesced_group binary_partition(const coalesced_group &g, bool pred);
template <unsigned int Size, typename ParentT>
__device__ thread_block_tile<Size, ParentT> labeled_partition(
    const thread_block_tile<Size, ParentT> &g, int label);
template <unsigned int Size, typename ParentT>
__device__ thread_block_tile<Size, ParentT> binary_partition(
    const thread_block_tile<Size, ParentT> &g, bool pred);

template <class Group> __device__ void sync(const Group &g);
template <class Group> __device__ unsigned long long thread_rank(const Group &g);
template <class Group> __device__ unsigned long long group_size(const Group &g);

} // namespace cooperative_groups

/* What CUDA 11 and 12 had as cooperative_groups::experimental. */
#include "../compat/cuda_advisor_cg_experimental.h"

#endif /* __cplusplus */
#endif /* CUDA_ADVISOR_MINIMAL_COOPERATIVE_GROUPS_H */
