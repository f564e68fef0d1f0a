/* cuda-advisor bundled minimal CUDA declarations: cooperative_groups/scan.h
 * (see reduce.h, which declares the scans). */
#include "reduce.h"
