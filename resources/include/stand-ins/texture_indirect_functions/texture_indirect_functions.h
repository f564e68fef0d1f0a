/* cuda-advisor stand-in for texture_indirect_functions.h.
 *
 * Clang's CUDA wrapper (__clang_cuda_runtime_wrapper.h) includes this header
 * (the fetch functions of texture objects). CUDA 13 still ships it, and the
 * real one must never be shadowed: cuda-advisor adds this directory with
 * -idirafter, and only for an installation that lacks the header. Empty on
 * purpose: code that fetches from texture objects then fails to parse, as it
 * would with that installation's nvcc.
 */
