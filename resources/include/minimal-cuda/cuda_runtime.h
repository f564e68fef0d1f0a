/* cuda-advisor bundled minimal CUDA declarations: cuda_runtime.h (see cuda_advisor_minimal.h). */
#include "cuda_advisor_minimal.h"
