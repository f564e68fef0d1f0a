/* cuda-advisor bundled minimal CUDA declarations: math_constants.h, the
 * constants code uses most (see cuda_advisor_minimal.h). */
#include "cuda_advisor_minimal.h"
#ifndef CUDA_ADVISOR_MINIMAL_MATH_CONSTANTS_H
#define CUDA_ADVISOR_MINIMAL_MATH_CONSTANTS_H
#define CUDART_INF_F __builtin_huge_valf()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_PI_F 3.141592654f
#define CUDART_PIO2_F 1.570796327f
#define CUDART_2_OVER_PI_F 0.636619772f
#define CUDART_SQRT_HALF_F 0.707106781f
#define CUDART_SQRT_TWO_F 1.414213562f
#define CUDART_L2E_F 1.442695041f
#define CUDART_LN2_F 0.693147181f
#define CUDART_INF __builtin_huge_val()
#define CUDART_NAN __builtin_nan("")
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_PIO2 1.5707963267948966e+0
#define CUDART_2PI 6.2831853071795865e+0
#define CUDART_SQRT_2PI 2.5066282746310002e+0
#define CUDART_SQRT_TWO 1.4142135623730951e+0
#define CUDART_LN2 6.9314718055994529e-1
#endif
