/* cuda-advisor compat: cuda_runtime_api.h, followed by the declarations of
 * the runtime API that the toolkit no longer has (see
 * ../cuda_advisor_removed_api.h). cuda-advisor puts this directory on the
 * include path (-isystem) before the toolkit's include directory.
 * <driver_types.h> comes first so that the toolkit's own quoted includes
 * find it already included (see ../override-cuda13/driver_types.h).
 */
#include <driver_types.h>
#include_next <cuda_runtime_api.h>
#include "../cuda_advisor_removed_api.h"
