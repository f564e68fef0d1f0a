// Declares the kernels of access-uncoalesced.cu as a header does for other files:
// the check's cases are kernels another file may launch (see
// test/analysis/hot-path-unlaunched-layer.cu for the ones none can).
// A kernel added to access-uncoalesced.cu that no launch there names must be
// declared here too, or its findings are off the hot path (notes).
__global__ void strided(const float *in, float *out, int stride, int n);
__global__ void transposeNaive(const float *in, float *out, int w, int h);
__global__ void rowPerThread(const float *m, float *sums, int rows, int cols);
__global__ void particles(Particle *p, float dt, int n);
__global__ void everyOther(const float *in, float *out);
__global__ void throughHelper(const float *in, float *out, int ld);
__global__ void rowMajor(const float *in, float *out, int w, int h);
__global__ void gridStride(float *a, int n);
__global__ void columnSums(const float *m, float *sums, int rows, int cols);
__global__ void tiledTranspose(const float *in, float *out, int w, int h);
__global__ void broadcast(const float *coeff, const float *in, float *out, const int *offsets);
__global__ void nonAffine(const float *in, float *out, const int *idx, int n);
__global__ void allFields(const Vec3 *v, float *len, int n);
__global__ void paddedStruct(const Sample *s, double *out);
__global__ void interleaved(const float *iq, float *mag);
__global__ void fieldLoop(const float *xyz, float *sum);
__global__ void wholeStruct(const Particle *p, Particle *q);
__global__ void vectorized(const float *in, float *out);
__global__ void warpLanes(float *a);
__global__ void loopScaled(float *a, int n);
__global__ void laneZeroWrites(const float *in, float *out, int n);
__global__ void coalescedHelper(const float *in, float *out);
__global__ void matmulRowFromX(const float *A, const float *B, float *C, int N);
__global__ void matmulNaive(const float *A, const float *B, float *C, int N);
__global__ void matmulTiled(const float *A, const float *B, float *C, int N);
__global__ void spmvCsr(int rows, const int *ptr, const int *col, const float *val,
                        const float *x, float *y);
__global__ void spmvEllRowMajor(int rows, int width, const int *col, const float *val,
                                const float *x, float *y);
__global__ void spmvEllColumnMajor(int rows, int width, const int *col, const float *val,
                                   const float *x, float *y);
__global__ void histogramGlobal(const unsigned char *in, unsigned *bins, int n);
__global__ void stencil2d(const float *in, float *out, int w, int h);
__global__ void bitonicStep(float *a, int j, int k);
__global__ void nbody(const float4 *pos, float4 *acc, int n);
__global__ void columnBlocks(const float *in, float *out, int h);
__global__ void bf16RowSums(float *out, const __nv_bfloat16 *x, int rows, int cols);
__global__ void bf16ColSums(float *out, const __nv_bfloat16 *x, int rows, int cols);
__global__ void halfRowMax(__half *out, const __half *x, int cols);
__global__ void halfAxpy(__half *y, const __half *x, __half a, int n);
__global__ void vecRows(float *out, int cols);
__global__ void vecRun(float *out);
__global__ void launchedRecord(const float *p, float *out, int s);
__global__ void launchedWide(const float *in, float *out, int stride);
__global__ void launchedMixed(const float *in, float *out, int stride);
__global__ void launchedRuntime(const float *in, float *out, int stride);
__global__ void bodyWhole(const Body *b, Body *q, const float3 *p, float3 *r);
__global__ void pointXyz(const float *p, float *out);
__global__ void greyscale(const Image *img, unsigned char *out);
__global__ void redGreen(const Image *img, unsigned char *out);
__global__ void cellDensity(const Cell *c, float *out);
__global__ void farApart(const float *a, float *out);
__global__ void bounce(float *velocity, float dt, int n);
__global__ void advance(float dt, int n);
__global__ void quadPerThread(const float *acc, float *c, int ld);
__global__ void quadSpread(const float *acc, float *c, int ld);
__global__ void quadShiftMask(const float *acc, float *c, int ld);
