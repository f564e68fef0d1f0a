#include "CudaSnippet.h"

using namespace cuda_advisor::analysis;
using namespace cuda_advisor::analysis::testing;

namespace {

TEST(KernelSummaryTest, GlobalIndex) {
  Snippet S(R"(
    __global__ void k(float *out, const float *in, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n)
        out[i] = in[i] * 2.0f;
    })");
  ASSERT_TRUE(S.ok());
  EXPECT_EQ(S.offset("k", "in[i]"), "4 * threadIdx.x + 4 * blockDim.x * blockIdx.x");
  EXPECT_EQ(S.stride("k", "out[i]"), "4");
  const KernelSummary *K = S.summary("k");
  ASSERT_TRUE(K);
  ASSERT_EQ(K->Accesses.size(), 2u);
  EXPECT_EQ(K->Accesses[0].Address.Root.Space, MemorySpace::Global);
  EXPECT_EQ(K->Accesses[0].Address.Root.name(), "in");
  EXPECT_EQ(K->Accesses[0].Kind, AccessKind::Load);
  EXPECT_EQ(K->Accesses[1].Kind, AccessKind::Store);
  EXPECT_EQ(K->Accesses[1].SizeBytes, 4u);
  ASSERT_TRUE(K->ElementIndex);
  EXPECT_EQ(S.str(*K->ElementIndex), "threadIdx.x + blockDim.x * blockIdx.x");
  EXPECT_FALSE(K->UsesSharedMemory || K->UsesAtomics || K->Synchronizes || K->HasOpaqueCalls);
  ASSERT_EQ(K->Buffers.size(), 2u);
  EXPECT_TRUE(K->buffer(S.function("k")->getParamDecl(0))->Written);
  EXPECT_FALSE(K->buffer(S.function("k")->getParamDecl(1))->Written);
}

TEST(KernelSummaryTest, StridesAndTranspose) {
  Snippet S(R"(
    __global__ void strided(float *in, float *out, int stride) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = in[i * stride];
    }
    __global__ void transpose(const float *in, float *out, int w, int h) {
      int x = blockIdx.x * blockDim.x + threadIdx.x;
      int y = blockIdx.y * blockDim.y + threadIdx.y;
      if (x < w && y < h)
        out[x * h + y] = in[y * w + x];
    }
    __global__ void shifted(double *a) {
      a[threadIdx.x << 1] = 0;
      a[(threadIdx.x + 1) * 3] = 1;
    })");
  ASSERT_TRUE(S.ok());
  EXPECT_EQ(S.stride("strided", "in[i * stride]"), "4 * stride");
  EXPECT_EQ(S.stride("strided", "out[i]"), "4");
  EXPECT_EQ(S.stride("transpose", "in[y * w + x]"), "4");
  EXPECT_EQ(S.stride("transpose", "out[x * h + y]"), "4 * h");
  EXPECT_EQ(S.offset("transpose", "out[x * h + y]"),
            "4 * threadIdx.x * h + 4 * threadIdx.y + 4 * blockDim.x * blockIdx.x * h + "
            "4 * blockDim.y * blockIdx.y");
  EXPECT_EQ(S.stride("shifted", "a[threadIdx.x << 1]"), "16");
  EXPECT_EQ(S.offset("shifted", "a[(threadIdx.x + 1) * 3]"), "24 * threadIdx.x + 24");
}

TEST(KernelSummaryTest, NonAffineIsUnknown) {
  Snippet S(R"(
    __global__ void k(float *a, const int *idx, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      a[idx[i]] = 1;                  // data-dependent
      a[threadIdx.x * threadIdx.x] = 2; // product of thread terms
      a[threadIdx.x / 2] = 3;         // division of a thread term
      a[i % n] = 4;
    })");
  ASSERT_TRUE(S.ok());
  EXPECT_EQ(S.offset("k", "a[idx[i]]"), "unknown");
  EXPECT_EQ(S.stride("k", "a[idx[i]]"), "unknown");
  EXPECT_EQ(S.stride("k", "idx[i]"), "4");
  EXPECT_EQ(S.offset("k", "a[threadIdx.x * threadIdx.x]"), "unknown");
  EXPECT_EQ(S.offset("k", "a[threadIdx.x / 2]"), "unknown");
  EXPECT_EQ(S.offset("k", "a[i % n]"), "unknown");
  const KernelSummary *K = S.summary("k");
  ASSERT_TRUE(K);
  EXPECT_TRUE(K->HasUnknownAccesses);
  EXPECT_FALSE(K->ElementIndex);
}

TEST(KernelSummaryTest, WarpUniformDivisions) {
  Snippet S(R"(
    __global__ void k(float *a) {
      int lane = threadIdx.x % 32;
      int warp = threadIdx.x / 32;
      int lane2 = threadIdx.x & 31;
      a[warp * 32 + lane] = 0;
      a[lane2] = 1;
      a[warp] = 2;
      a[threadIdx.x % 16] = 3;
    })");
  ASSERT_TRUE(S.ok());
  EXPECT_EQ(S.stride("k", "a[warp * 32 + lane]"), "4");
  EXPECT_EQ(S.stride("k", "a[lane2]"), "4");
  EXPECT_EQ(S.stride("k", "a[warp]"), "0");
  EXPECT_EQ(S.stride("k", "a[threadIdx.x % 16]"), "unknown");
}

TEST(KernelSummaryTest, StructsAndMultiDimensionalArrays) {
  Snippet S(R"(
    struct Particle { float x, y, z; float w; };
    __global__ void aos(Particle *p, float *out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = p[i].y;
      p[i].x = 0;
    }
    __global__ void tiles(float *out) {
      __shared__ float tile[32][33];
      __shared__ double dtile[32][32];
      tile[threadIdx.y][threadIdx.x] = 1;
      out[0] = tile[threadIdx.x][threadIdx.y];
      dtile[threadIdx.x][0] = 2;
    })");
  ASSERT_TRUE(S.ok());
  EXPECT_EQ(S.offset("aos", "p[i].y"), "16 * threadIdx.x + 16 * blockDim.x * blockIdx.x + 4");
  EXPECT_EQ(S.stride("aos", "p[i].x"), "16");
  const KernelSummary *K = S.summary("aos");
  ASSERT_TRUE(K);
  EXPECT_EQ(S.access(*K, "p[i].y")->SizeBytes, 4u);
  EXPECT_FALSE(K->ElementIndex); // Fields of a struct element: not element-wise.

  EXPECT_EQ(S.offset("tiles", "tile[threadIdx.y][threadIdx.x]"),
            "4 * threadIdx.x + 132 * threadIdx.y");
  EXPECT_EQ(S.stride("tiles", "tile[threadIdx.x][threadIdx.y]"), "132");
  EXPECT_EQ(S.stride("tiles", "dtile[threadIdx.x][0]"), "256");
  const KernelSummary *T = S.summary("tiles");
  ASSERT_TRUE(T);
  EXPECT_TRUE(T->UsesSharedMemory);
  const MemoryAccess *A = S.access(*T, "tile[threadIdx.x][threadIdx.y]");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Address.Root.Space, MemorySpace::Shared);
  EXPECT_EQ(A->MaxThreadsX, 32u);
}

TEST(KernelSummaryTest, PointerArithmetic) {
  Snippet S(R"(
    __global__ void k(float *m, int cols, float *out) {
      float *row = m + blockIdx.x * cols;
      const float *p = &row[threadIdx.x];
      out[threadIdx.x] = *p;
      float *q = out;
      q += 64;
      q[threadIdx.x] = *(row + 2 * threadIdx.x);
      char *bytes = (char *)m;
      bytes[threadIdx.x * 4] = 0;
    })");
  ASSERT_TRUE(S.ok());
  EXPECT_EQ(S.offset("k", "*p"), "4 * threadIdx.x + 4 * blockIdx.x * cols");
  EXPECT_EQ(S.offset("k", "q[threadIdx.x]"), "4 * threadIdx.x + 256");
  EXPECT_EQ(S.stride("k", "*(row + 2 * threadIdx.x)"), "8");
  EXPECT_EQ(S.stride("k", "bytes[threadIdx.x * 4]"), "4");
  const MemoryAccess *A = S.access(*S.summary("k"), "bytes[threadIdx.x * 4]");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Address.Root.name(), "m");
  EXPECT_EQ(A->SizeBytes, 1u);
}

TEST(KernelSummaryTest, Loops) {
  Snippet S(R"(
    __global__ void gridStride(float *a, int n) {
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        a[i] = a[i] + 1;
    }
    __global__ void columns(float *m, int rows, int cols) {
      int c = blockIdx.x * blockDim.x + threadIdx.x;
      for (int r = 0; r < rows; ++r)
        m[r * cols + c] = 0;
    }
    __global__ void rowPerThread(float *m, int cols, float *sum) {
      int r = blockIdx.x * blockDim.x + threadIdx.x;
      float s = 0;
      for (int c = 0; c < cols; c++)
        s += m[r * cols + c];
      sum[r] = s;
    }
    __global__ void whileLoop(float *a, int n, int stride) {
      int i = threadIdx.x;
      while (i < n) {
        a[i] = 0;
        i += stride;
      }
    }
    __global__ void reduce(float *out) {
      __shared__ float sdata[256];
      unsigned tid = threadIdx.x;
      for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
          sdata[tid] += sdata[tid + s];
        __syncthreads();
      }
      if (tid == 0)
        out[blockIdx.x] = sdata[0];
    }
    __global__ void bumped(float *p, int n) {
      for (int k = 0; k < n; ++k) {
        p[threadIdx.x * 2] = 0;
        if (n > 3)
          p += 32;
      }
    })");
  ASSERT_TRUE(S.ok());
  EXPECT_EQ(S.offset("gridStride", "a[i]"),
            "4 * threadIdx.x + 4 * blockDim.x * blockIdx.x + "
            "4 * blockDim.x * gridDim.x * the iteration of the loop over i");
  const KernelSummary *G = S.summary("gridStride");
  ASSERT_TRUE(G && G->ElementIndex);
  EXPECT_EQ(S.stride("columns", "m[r * cols + c]"), "4");
  EXPECT_EQ(S.stride("rowPerThread", "m[r * cols + c]"), "4 * cols");
  EXPECT_EQ(S.stride("whileLoop", "a[i]"), "4");
  EXPECT_EQ(S.offset("whileLoop", "a[i]"), "4 * threadIdx.x + 4 * stride * the loop iteration");
  EXPECT_EQ(S.stride("reduce", "sdata[tid + s]"), "4");
  EXPECT_EQ(S.offset("reduce", "sdata[tid + s]"), "4 * threadIdx.x + 4 * s");
  EXPECT_EQ(S.stride("reduce", "out[blockIdx.x]"), "0");
  EXPECT_EQ(S.stride("bumped", "p[threadIdx.x * 2]"), "8");
  const KernelSummary *R = S.summary("reduce");
  ASSERT_TRUE(R);
  EXPECT_TRUE(R->Synchronizes);
  EXPECT_TRUE(R->UsesSharedMemory);
}

TEST(KernelSummaryTest, ReachingAssignments) {
  Snippet S(R"(
    __global__ void k(const float *in, float *out, int w) {
      int x = blockIdx.x * 32 + threadIdx.x;
      int y = blockIdx.y * 32 + threadIdx.y;
      float v = in[y * w + x];
      x = blockIdx.y * 32 + threadIdx.y;
      y = blockIdx.x * 32 + threadIdx.x;
      out[y * w + x] = v;
    }
    __global__ void branches(float *a, int n) {
      int j;
      if (n > 4)
        j = threadIdx.x;
      else
        j = threadIdx.x + 1;
      a[j] = 0;
      int u;
      if (n > 4)
        u = 2 * n;
      else
        u = n;
      a[u + threadIdx.x] = 1;
      int v = threadIdx.x;
      if (v >= n)
        return;
      a[v] = 2;
    })");
  ASSERT_TRUE(S.ok());
  EXPECT_EQ(S.stride("k", "in[y * w + x]"), "4");
  EXPECT_EQ(S.stride("k", "out[y * w + x]"), "4 * w");
  EXPECT_EQ(S.offset("branches", "a[j]"), "unknown");
  EXPECT_EQ(S.stride("branches", "a[u + threadIdx.x]"), "4");
  EXPECT_EQ(S.stride("branches", "a[v]"), "4");
}

TEST(KernelSummaryTest, DeviceHelpers) {
  Snippet S(R"(
    __device__ int globalIndex() { return blockIdx.x * blockDim.x + threadIdx.x; }
    __device__ void put(float *p, int i, float v) { p[i] = v; }
    __device__ float &at(float *p, int i, int ld) { return p[i * ld]; }
    __device__ void toShared(float *s, const float *g) { s[threadIdx.x] = g[threadIdx.x]; }
    __global__ void k(float *out, const float *in, int ld) {
      __shared__ float buf[128];
      int i = globalIndex();
      put(out, i, in[i]);
      at(out, i, ld) = 1;
      toShared(buf, in);
    })");
  ASSERT_TRUE(S.ok());
  const KernelSummary *K = S.summary("k");
  ASSERT_TRUE(K);
  EXPECT_EQ(S.stride("k", "in[i]"), "4");
  const MemoryAccess *Put = S.access(*K, "p[i]");
  ASSERT_TRUE(Put);
  EXPECT_EQ(Put->Address.Root.name(), "out");
  EXPECT_EQ(Put->Address.Root.Space, MemorySpace::Global);
  EXPECT_EQ(Put->CallChain.size(), 1u);
  EXPECT_EQ(S.str(Put->laneStride()), "4");
  const MemoryAccess *At = S.access(*K, "at(out, i, ld)");
  ASSERT_TRUE(At);
  EXPECT_EQ(S.str(At->laneStride()), "4 * ld");
  const MemoryAccess *Sh = S.access(*K, "s[threadIdx.x]");
  ASSERT_TRUE(Sh);
  EXPECT_EQ(Sh->Address.Root.Space, MemorySpace::Shared);
  EXPECT_EQ(Sh->Address.Root.name(), "buf");
  EXPECT_TRUE(K->UsesSharedMemory);
  // A device function on its own: its pointer parameters could be anything.
  const KernelSummary *P = S.summary("put");
  ASSERT_TRUE(P);
  ASSERT_EQ(P->Accesses.size(), 1u);
  EXPECT_EQ(P->Accesses[0].Address.Root.Space, MemorySpace::Unknown);
}

TEST(KernelSummaryTest, Flags) {
  Snippet S(R"(
    __global__ void hist(const int *in, int *bins, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n)
        atomicAdd(&bins[in[i]], 1);
    }
    __global__ void opaque(float *a) { opaqueDevice(a); }
    __global__ void pure(float *a) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      a[i] = sqrtf(a[i]) + __ldg(&a[i]);
    }
    __global__ void dynamicShared(float *a) {
      extern __shared__ float s[];
      s[threadIdx.x] = a[threadIdx.x];
      __syncthreads();
    }
    __global__ void stencil(const float *a, float *b) {
      int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
      b[i] = a[i - 1] + a[i] + a[i + 1];
    }
    __global__ void scaleBy(float *a, const float *scale) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      a[i] = a[i] * scale[0];
    })");
  ASSERT_TRUE(S.ok());
  const KernelSummary *H = S.summary("hist");
  ASSERT_TRUE(H);
  EXPECT_TRUE(H->UsesAtomics);
  EXPECT_FALSE(H->ElementIndex);
  const KernelSummary *O = S.summary("opaque");
  ASSERT_TRUE(O);
  EXPECT_TRUE(O->HasOpaqueCalls);
  const KernelSummary *P = S.summary("pure");
  ASSERT_TRUE(P);
  EXPECT_FALSE(P->HasOpaqueCalls);
  EXPECT_TRUE(P->ElementIndex);
  EXPECT_EQ(P->Accesses.size(), 3u); // a[i] twice (one through __ldg) and the store.
  const KernelSummary *D = S.summary("dynamicShared");
  ASSERT_TRUE(D);
  EXPECT_TRUE(D->UsesSharedMemory && D->Synchronizes);
  EXPECT_TRUE(D->Accesses[1].Address.Root.DynamicShared);
  const KernelSummary *St = S.summary("stencil");
  ASSERT_TRUE(St);
  EXPECT_FALSE(St->ElementIndex);
  const KernelSummary *Sc = S.summary("scaleBy");
  ASSERT_TRUE(Sc);
  EXPECT_TRUE(Sc->ElementIndex);
  ASSERT_EQ(Sc->UniformReads.size(), 1u);
  EXPECT_EQ(Sc->UniformReads[0].name(), "scale");
}

TEST(KernelSummaryTest, Templates) {
  Snippet S(R"(
    template <typename T, int Stride>
    __global__ void k(T *a) { a[threadIdx.x * Stride] = T(); }
    void launch(double *d) { k<double, 3><<<1, 32>>>(d); })");
  ASSERT_TRUE(S.ok());
  const KernelSummary *K = S.summary("k", /*Instantiation=*/true);
  ASSERT_TRUE(K);
  ASSERT_EQ(K->Accesses.size(), 1u);
  EXPECT_EQ(S.str(K->Accesses[0].laneStride()), "24");
  EXPECT_EQ(K->Accesses[0].SizeBytes, 8u);
}

TEST(KernelSummaryTest, StructParameters) {
  Snippet S(R"(
    struct Args { float *data; int pitch; int n; };
    __global__ void k(Args args) {
      int y = blockIdx.y;
      args.data[y * args.pitch + threadIdx.x] = 0;
      args.data[threadIdx.x * args.pitch] = 1;
    })");
  ASSERT_TRUE(S.ok());
  EXPECT_EQ(S.stride("k", "args.data[y * args.pitch + threadIdx.x]"), "4");
  EXPECT_EQ(S.stride("k", "args.data[threadIdx.x * args.pitch]"), "4 * args.pitch");
  const KernelSummary *K = S.summary("k");
  ASSERT_TRUE(K);
  EXPECT_EQ(K->Accesses[0].Address.Root.name(), "args.data");
}

} // namespace

namespace {

TEST(KernelSummaryTest, SharedMemoryConversionIdiom) {
  // The CUDA samples' SharedMemory<T>: a method that only returns the
  // extern __shared__ array is inlined like a free function.
  Snippet S(R"(
    template <class T> struct SharedMemory {
      __device__ inline operator T *() {
        extern __shared__ int __smem[];
        return (T *)__smem;
      }
    };
    struct Counter {
      int *p;
      __device__ int get() { return p[threadIdx.x]; }
    };
    template <class T>
    __global__ void reduce1(T *g_idata, T *g_odata, unsigned int n) {
      T *sdata = SharedMemory<T>();
      unsigned int tid = threadIdx.x;
      sdata[tid] = g_idata[blockIdx.x * blockDim.x + threadIdx.x];
      for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        int index = 2 * s * tid;
        if (index < blockDim.x)
          sdata[index] += sdata[index + s];
      }
      if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
    }
    __global__ void member(Counter c, int *out) { out[threadIdx.x] = c.get(); }
    void launch(float *a, float *b) { reduce1<float><<<1, 256, 1024>>>(a, b, 256); })");
  ASSERT_TRUE(S.ok());
  const KernelSummary *K = S.summary("reduce1", /*Instantiation=*/true);
  ASSERT_TRUE(K);
  EXPECT_FALSE(K->HasOpaqueCalls);
  EXPECT_TRUE(K->UsesSharedMemory);
  const MemoryAccess *A = S.access(*K, "sdata[index]");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Address.Root.Space, MemorySpace::Shared);
  EXPECT_TRUE(A->Address.Root.DynamicShared);
  EXPECT_EQ(S.str(A->laneStride()), "8 * s");
  // A method that reads a member is not inlined: an opaque call.
  const KernelSummary *M = S.summary("member");
  ASSERT_TRUE(M);
  EXPECT_TRUE(M->HasOpaqueCalls);
}

} // namespace

namespace {

TEST(KernelSummaryTest, SingleLaneCode) {
  Snippet S(R"(
    __global__ void k(float *out, int n) {
      int tid = threadIdx.x, lane = threadIdx.x % 32;
      out[tid * n] = 0;
      if (tid == 0)
        out[tid * n + 1] = 1;
      if (lane == 0 && n > 2) {
        out[tid * n + 2] = 2;
      } else {
        out[tid * n + 3] = 3;
      }
      if (tid < 4)
        out[tid * n + 4] = 4;
      if (threadIdx.x != 0)
        return;
      out[tid * n + 5] = 5;
    })");
  ASSERT_TRUE(S.ok());
  const KernelSummary *K = S.summary("k");
  ASSERT_TRUE(K);
  auto Lane = [&](const char *Text) {
    const MemoryAccess *A = S.access(*K, Text);
    return A ? std::optional<bool>(A->SingleLane) : std::nullopt;
  };
  EXPECT_EQ(Lane("out[tid * n]"), false);
  EXPECT_EQ(Lane("out[tid * n + 1]"), true);
  EXPECT_EQ(Lane("out[tid * n + 2]"), true);
  EXPECT_EQ(Lane("out[tid * n + 3]"), false);
  EXPECT_EQ(Lane("out[tid * n + 4]"), false);
  EXPECT_EQ(Lane("out[tid * n + 5]"), true);
}

TEST(KernelSummaryTest, SingleLaneAfterElseReturn) {
  Snippet S(R"(
    __global__ void k(float *out, int n) {
      int tid = threadIdx.x;
      if (tid < 4) {
        out[tid * n + 1] = 1;
      } else {
        return;
      }
      out[tid * n + 2] = 2;
      if (tid == 0) {
        out[tid * n + 3] = 3;
      } else {
        return;
      }
      out[tid * n + 4] = 4;
    })");
  ASSERT_TRUE(S.ok());
  const KernelSummary *K = S.summary("k");
  ASSERT_TRUE(K);
  auto Lane = [&](const char *Text) {
    const MemoryAccess *A = S.access(*K, Text);
    return A ? std::optional<bool>(A->SingleLane) : std::nullopt;
  };
  EXPECT_EQ(Lane("out[tid * n + 1]"), false);
  EXPECT_EQ(Lane("out[tid * n + 2]"), false);
  EXPECT_EQ(Lane("out[tid * n + 3]"), true);
  EXPECT_EQ(Lane("out[tid * n + 4]"), true);
}

} // namespace

namespace {

TEST(KernelSummaryTest, PlainStructCoordinates) {
  // Headers that declare the coordinates as plain uint3 variables (member
  // reads instead of Clang's property reads) give the same forms.
  Snippet S(R"(
    namespace plain {
    struct uint3 { unsigned x, y, z; };
    extern const __device__ uint3 threadIdx, blockIdx, blockDim;
    __global__ void k(float *a, int w) {
      int x = blockIdx.x * blockDim.x + threadIdx.x;
      a[x * w] = a[x];
    }
    } // namespace plain
    void use() { (void)&plain::k; })");
  ASSERT_TRUE(S.ok());
  const clang::FunctionDecl *K = nullptr;
  for (clang::Decl *D : S.context().getTranslationUnitDecl()->decls())
    if (auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(D))
      for (clang::Decl *Inner : NS->decls())
        if (auto *FD = llvm::dyn_cast<clang::FunctionDecl>(Inner); FD && FD->hasBody())
          K = FD;
  ASSERT_TRUE(K);
  ValueTracker VT(S.context());
  KernelSummaries Sums(S.context(), VT);
  const KernelSummary *Sum = Sums.summaryOf(K);
  ASSERT_TRUE(Sum);
  const MemoryAccess *Store = S.access(*Sum, "a[x * w]");
  const MemoryAccess *Load = S.access(*Sum, "a[x]");
  ASSERT_TRUE(Store && Load);
  EXPECT_EQ(S.str(Store->laneStride()), "4 * w");
  EXPECT_EQ(S.str(Load->Address.ByteOffset), "4 * threadIdx.x + 4 * blockDim.x * blockIdx.x");
  EXPECT_EQ(Sum->Accesses.size(), 2u); // The coordinates are not memory reads.
}

} // namespace

namespace {

TEST(KernelSummaryTest, BuffersByAnyDeclarationsParameter) {
  Snippet S(R"(
    __global__ void k(const float *in, float *out);
    void launch(float *a, float *b) { k<<<1, 32>>>(a, b); }
    __global__ void k(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x]; })");
  ASSERT_TRUE(S.ok());
  const clang::FunctionDecl *First = nullptr;
  for (clang::Decl *D : S.context().getTranslationUnitDecl()->decls())
    if (auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D);
        FD && FD->getIdentifier() && FD->getName() == "k" && !FD->doesThisDeclarationHaveABody())
      First = FD;
  ASSERT_TRUE(First);
  const KernelSummary *K = S.summary("k");
  ASSERT_TRUE(K);
  const BufferUse *Out = K->buffer(First->getParamDecl(1));
  ASSERT_TRUE(Out);
  EXPECT_TRUE(Out->Written);
  EXPECT_FALSE(K->buffer(First->getParamDecl(0))->Written);
}

} // namespace
