/* cuda-advisor bundled minimal CUDA declarations: device_launch_parameters.h (see cuda_advisor_minimal.h). */
#include "cuda_advisor_minimal.h"
