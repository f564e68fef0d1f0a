/* cuda-advisor bundled minimal CUDA declarations: cuda_profiler_api.h (see cuda_advisor_minimal.h). */
#include "cuda_advisor_minimal.h"
