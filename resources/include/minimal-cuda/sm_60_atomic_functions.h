/* cuda-advisor bundled minimal CUDA declarations: sm_60_atomic_functions.h (see cuda_advisor_minimal.h). */
#include "cuda_advisor_minimal.h"
