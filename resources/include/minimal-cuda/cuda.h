/* cuda-advisor bundled minimal CUDA declarations: cuda.h (see cuda_advisor_minimal.h). */
#include "cuda_advisor_minimal.h"
