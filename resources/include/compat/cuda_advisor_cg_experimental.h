/* cuda-advisor compat: cooperative_groups::experimental, which CUDA 13 no
 * longer has: block_tile_memory<TileCommunicationSize, MaxBlockSize>, the
 * this_thread_block(scratch) that takes it, and tiled_partition<Size> for
 * tiles of several warps. CUDA 11 and 12 code (NVIDIA's reduction sample
 * among it) defines _CG_ABI_EXPERIMENTAL and uses them; CUDA 13 has
 * block_tile_memory<MaxBlockSize> and multi-warp tiles in cooperative_groups
 * itself, so each name forwards there. Included after cooperative_groups.h
 * (override-cuda13/cooperative_groups.h, and the bundled one); every name is
 * marked for the compat-removed-api check. */
#ifndef CUDA_ADVISOR_CG_EXPERIMENTAL_H
#define CUDA_ADVISOR_CG_EXPERIMENTAL_H
#if defined(__cplusplus) && defined(__CUDA__)
#ifndef CUDA_ADVISOR_REMOVED
#define CUDA_ADVISOR_REMOVED(Api, Version, Replacement)                                    \
  __attribute__((annotate("cuda-advisor-removed|" Api "|" Version "|" Replacement)))
#endif
namespace cooperative_groups {
namespace experimental {
template <unsigned int TileCommunicationSize = 8, unsigned int MaxBlockSize = 1024>
struct CUDA_ADVISOR_REMOVED("cooperative_groups::experimental::block_tile_memory", "13.0",
                            "use cooperative_groups::block_tile_memory<MaxBlockSize>")
    block_tile_memory : ::cooperative_groups::block_tile_memory<MaxBlockSize> {};

template <unsigned int TileCommunicationSize, unsigned int MaxBlockSize>
__device__ ::cooperative_groups::thread_block
this_thread_block(block_tile_memory<TileCommunicationSize, MaxBlockSize> &scratch)
    CUDA_ADVISOR_REMOVED("cooperative_groups::experimental::this_thread_block", "13.0",
                         "use cooperative_groups::this_thread_block(scratch)");

template <unsigned int Size, typename ParentT>
__device__ auto tiled_partition(const ParentT &parent)
    -> decltype(::cooperative_groups::tiled_partition<Size>(parent))
    CUDA_ADVISOR_REMOVED("cooperative_groups::experimental::tiled_partition", "13.0",
                         "use cooperative_groups::tiled_partition<Size>");
} // namespace experimental
} // namespace cooperative_groups
#endif
#endif /* CUDA_ADVISOR_CG_EXPERIMENTAL_H */
