// Declares the kernels of access-shared-bank-conflict.cu as a header does for other files:
// the check's cases are kernels another file may launch (see
// test/analysis/hot-path-unlaunched-layer.cu for the ones none can).
// A kernel added to access-shared-bank-conflict.cu that no launch there names must be
// declared here too, or its findings are off the hot path (notes).
__global__ void transposeConflicted(const float *in, float *out, int n);
__global__ void everyOtherWord(float *out);
__global__ void doubleColumns(double *out);
__global__ void interleavedReduction(const float *in, float *out);
__global__ void interleavedReductionOneWarp(const float *in, float *out);
__global__ void matmulTransposedTile(const float *A, const float *B, float *C, int n);
__global__ void dynamicColumn(float *out);
__global__ void throughHelper(float *out);
__global__ void transposePadded(const float *in, float *out, int n);
__global__ void unitAndBroadcast(float *out, int k);
__global__ void wideElements(double *out, float4 *out4);
__global__ void sequentialReduction(const float *in, float *out);
__global__ void matmulTiled(const float *A, const float *B, float *C, int n);
__global__ void oddAndUnknownStrides(float *out, const int *idx, int ld);
__global__ void histogram(const int *in, int *bins, int n);
__global__ void columnFilter(float *dst, const float *src, int pitch);
__global__ void warpSums(const float *in, float *out);
__global__ void scanBlelloch(float *out, const float *in, int n);
__global__ void scanBlellochPadded(float *out, const float *in, int n);
__global__ void tileLaunchedNarrow(float *out);
__global__ void unpackTile(const float4 *in, float *out, int n);
__global__ void unpackTileSplit(const float4 *in, float *out, int n);
__global__ void mixedDegrees(float *out);
__global__ void tileEdges(const float *b, float *out, int n, int k);
