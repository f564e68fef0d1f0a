"""many_findings.py N: a CUDA file with N float kernels that each compute in
double (one kernel-double-promotion finding each)."""
import sys

print("#include <cuda_runtime.h>")
for i in range(int(sys.argv[1])):
    print("__global__ void k%d(float *x) { x[threadIdx.x] = sqrt(x[threadIdx.x] * 0.1); }" % i)
