/* cuda-advisor bundled minimal CUDA declarations: host_defines.h (see cuda_advisor_minimal.h). */
#include "cuda_advisor_minimal.h"
