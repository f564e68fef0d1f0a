/* cuda-advisor stand-in for texture_indirect_functions.h.
 *
 * Clang's CUDA wrapper (__clang_cuda_runtime_wrapper.h) includes this header,
 * which newer CUDA toolkits no longer ship (CUDA 13 dropped texture
 * references). cuda-advisor puts this directory on the include path with
 * -idirafter, and only when the installation lacks the header, so a real one
 * always wins. Empty on purpose: cuda-advisor only parses code.
 */
