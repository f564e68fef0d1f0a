/* cuda-advisor bundled minimal CUDA declarations: mma.h, the warp matrix
 * (WMMA) API of nvcuda::wmma: fragments, their load, store, fill and
 * multiply-accumulate. Written for cuda-advisor (declarations only); names and
 * signatures follow CUDA 13.0. */
#ifndef CUDA_ADVISOR_MMA_H
#define CUDA_ADVISOR_MMA_H
#define __CUDA_MMA_H__
#include "cuda_advisor_minimal.h"
#include "cuda_fp16.h"
#include "cuda_bf16.h"
#if defined(__cplusplus) && defined(__CUDA__)
namespace nvcuda {
namespace wmma {
struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
namespace experimental {
namespace precision {
struct u4;
struct s4;
struct b1;
} // namespace precision
} // namespace experimental
namespace precision {
struct tf32;
} // namespace precision
enum layout_t { mem_row_major, mem_col_major };

/* The element type a fragment stores for a precision tag. */
template <class T> struct cuda_advisor_storage { typedef T type; };
template <> struct cuda_advisor_storage<precision::tf32> { typedef float type; };
template <> struct cuda_advisor_storage<experimental::precision::u4> { typedef int type; };
template <> struct cuda_advisor_storage<experimental::precision::s4> { typedef int type; };
template <> struct cuda_advisor_storage<experimental::precision::b1> { typedef int type; };

template <class Use, int m, int n, int k, class T, class Layout = void> class fragment {
public:
  typedef typename cuda_advisor_storage<T>::type storage_element_type;
  typedef storage_element_type element_type;
  enum { num_elements = 8 };
  storage_element_type x[num_elements];
};

template <class Use, int m, int n, int k, class T, class Layout, class V>
__device__ void fill_fragment(fragment<Use, m, n, k, T, Layout> &a, const V &v);
template <class Use, int m, int n, int k, class T, class Layout, class P>
__device__ void load_matrix_sync(fragment<Use, m, n, k, T, Layout> &a, const P *p, unsigned ldm);
template <int m, int n, int k, class T, class P>
__device__ void load_matrix_sync(fragment<accumulator, m, n, k, T> &a, const P *p, unsigned ldm,
                                 layout_t layout);
template <int m, int n, int k, class T, class P>
__device__ void store_matrix_sync(P *p, const fragment<accumulator, m, n, k, T> &a, unsigned ldm,
                                  layout_t layout);
template <int m, int n, int k, class Ta, class Tb, class Tc, class Td, class La, class Lb>
__device__ void mma_sync(fragment<accumulator, m, n, k, Td> &d,
                         const fragment<matrix_a, m, n, k, Ta, La> &a,
                         const fragment<matrix_b, m, n, k, Tb, Lb> &b,
                         const fragment<accumulator, m, n, k, Tc> &c, bool satf = false);
template <class T> __device__ T __float_to_tf32(T in);
} // namespace wmma
} // namespace nvcuda
#endif
#endif
