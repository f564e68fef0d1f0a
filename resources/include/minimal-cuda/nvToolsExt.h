/* cuda-advisor bundled minimal CUDA declarations: nvToolsExt.h, NVTX 2's
 * location of the NVTX header; the declarations are nvtx3/nvToolsExt.h's. */
#include "nvtx3/nvToolsExt.h"
