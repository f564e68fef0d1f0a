/* cuda-advisor bundled minimal CUDA declarations: builtin_types.h (see cuda_advisor_minimal.h). */
#include "cuda_advisor_minimal.h"
