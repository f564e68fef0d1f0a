/* cuda-advisor bundled minimal CUDA declarations: channel_descriptor.h (see cuda_advisor_minimal.h). */
#include "cuda_advisor_minimal.h"
