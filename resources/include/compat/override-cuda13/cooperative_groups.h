/* cuda-advisor compat: cooperative_groups.h of CUDA 13 and later, followed by
 * the cooperative_groups::experimental names CUDA 13 removed (see
 * ../cuda_advisor_cg_experimental.h). On the include path (-isystem, before
 * the toolkit's include directory) only for a CUDA 13 or later installation. */
#include_next <cooperative_groups.h>
#include "../cuda_advisor_cg_experimental.h"
