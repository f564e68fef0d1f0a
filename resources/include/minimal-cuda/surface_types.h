/* cuda-advisor bundled minimal CUDA declarations: surface_types.h (see cuda_advisor_minimal.h). */
#include "cuda_advisor_minimal.h"
