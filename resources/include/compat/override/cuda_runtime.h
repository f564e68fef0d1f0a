/* cuda-advisor compat: cuda_runtime.h, followed by the declarations of the
 * runtime API that the toolkit no longer has (see
 * ../cuda_advisor_removed_api.h and ../cuda_advisor_removed_templates.h).
 * cuda-advisor puts this directory on the include path (-isystem) before the
 * toolkit's include directory; Clang's CUDA wrapper includes cuda_runtime.h
 * too, so .cu files get them as well.
 */
#include <driver_types.h>
#include_next <cuda_runtime.h>
#include "../cuda_advisor_removed_api.h"
#if defined(__cplusplus) && defined(__CUDACC__)
#include "../cuda_advisor_removed_templates.h"
#endif
