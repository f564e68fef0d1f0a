/* cuda-advisor compat: thrust::unary_function and thrust::binary_function,
 * which CCCL 3.0 (CUDA 13.0) removed: older Thrust code derives its functors
 * from them (`struct op : public thrust::unary_function<float, float>`).
 * Declared again, with their member types, and reported as removed like the
 * runtime API of cuda_advisor_removed_api.h. Before 13.0 the toolkit's own
 * Thrust declares them. Declarations only.
 *
 * CUDA_ADVISOR_NO_THRUST_FUNCTIONAL: cuda-advisor parses a file again with
 * it when these clash with the file's own (a project's back-port of them;
 * see docs/frontend.md).
 */
#ifndef CUDA_ADVISOR_REMOVED_THRUST_H
#define CUDA_ADVISOR_REMOVED_THRUST_H

#include "cuda_advisor_removed_api.h"

#if defined(__cplusplus) && defined(CUDART_VERSION) && CUDART_VERSION >= 13000 &&          \
    !defined(CUDA_ADVISOR_NO_THRUST_FUNCTIONAL)
namespace thrust {
template <typename Argument, typename Result>
struct CUDA_ADVISOR_REMOVED("thrust::unary_function", "13.0",
                            "drop the base class (and declare in the functor any member "
                            "type the code uses, such as result_type)")
    unary_function {
  typedef Argument argument_type;
  typedef Result result_type;
};
template <typename Argument1, typename Argument2, typename Result>
struct CUDA_ADVISOR_REMOVED("thrust::binary_function", "13.0",
                            "drop the base class (and declare in the functor any member "
                            "type the code uses, such as result_type)")
    binary_function {
  typedef Argument1 first_argument_type;
  typedef Argument2 second_argument_type;
  typedef Result result_type;
};
} // namespace thrust
#endif

#endif /* CUDA_ADVISOR_REMOVED_THRUST_H */
