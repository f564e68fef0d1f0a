/* cuda-advisor compat header: declarations of CUDA runtime APIs that newer
 * toolkits removed, so that legacy code still parses. Force-included after
 * Clang's CUDA wrapper. */
#ifndef CUDA_ADVISOR_COMPAT_H
#define CUDA_ADVISOR_COMPAT_H
#endif
