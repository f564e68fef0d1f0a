/* cuda-advisor bundled minimal CUDA declarations: texture_types.h (see cuda_advisor_minimal.h). */
#include "cuda_advisor_minimal.h"
