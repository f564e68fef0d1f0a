/* cuda-advisor bundled minimal CUDA declarations: device_atomic_functions.h (see cuda_advisor_minimal.h). */
#include "cuda_advisor_minimal.h"
