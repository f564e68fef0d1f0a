/* cuda-advisor stand-in for texture_fetch_functions.h.
 *
 * Clang's CUDA wrapper (__clang_cuda_runtime_wrapper.h) includes this header.
 * It declared the fetch functions of texture references, which CUDA 12
 * removed; CUDA 13 no longer ships the file at all. cuda-advisor adds this
 * directory with -idirafter, and only when the CUDA installation lacks the
 * header, so a real one always wins. The declarations legacy code needs
 * (texture<>, tex1Dfetch on references...) are in compat/, marked as removed
 * APIs. Empty on purpose: cuda-advisor only parses code.
 */
