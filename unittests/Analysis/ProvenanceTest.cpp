//===- ProvenanceTest.cpp - Host pointer provenance ------------------------===//
#include "cuda-advisor/Analysis/Provenance.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace cuda_advisor::analysis;

namespace {

// Just enough of the C library, the CUDA runtime and the standard library
// for the analysis, which goes by the names and namespaces of declarations.
const char *Prelude = R"cpp(
typedef unsigned long size_t;
extern "C" void *malloc(size_t);
extern "C" void *calloc(size_t, size_t);
extern "C" int posix_memalign(void **, size_t, size_t);
enum cudaError { cudaSuccess };
typedef enum cudaError cudaError_t;
extern "C" cudaError_t cudaMallocHost(void **, size_t);
extern "C" cudaError_t cudaHostAlloc(void **, size_t, unsigned);
extern "C" cudaError_t cudaMalloc(void **, size_t);
extern "C" cudaError_t cudaMallocManaged(void **, size_t, unsigned = 1);
extern "C" cudaError_t cudaHostRegister(void *, size_t, unsigned);
namespace std {
template <class T> struct allocator {};
template <class T> struct default_delete {};
template <class C> struct char_traits {};
template <class T, class A = allocator<T>> struct vector {
  T *data(); const T *data() const; T &operator[](size_t); size_t size() const;
};
template <class C, class Tr = char_traits<C>, class A = allocator<C>> struct basic_string {
  const C *c_str() const; C *data();
};
typedef basic_string<char> string;
template <class T, size_t N> struct array { T *data(); T &operator[](size_t); };
template <class T, class D = default_delete<T>> struct unique_ptr {
  unique_ptr(); explicit unique_ptr(T *); T *get() const;
};
template <class T, class D> struct unique_ptr<T[], D> {
  unique_ptr(); explicit unique_ptr(T *); T *get() const;
};
template <class T> unique_ptr<T> make_unique(size_t);
template <class T> void swap(T &, T &);
}
template <class T> struct pinned_allocator {};
void probe(const void *) {}
)cpp";

/// Parses Prelude + Code and returns the provenance of every probe(...)
/// argument, in source order.
class Probe {
public:
  explicit Probe(llvm::StringRef Code) {
    AST = tooling::buildASTFromCodeWithArgs(std::string(Prelude) + Code.str(), {"-std=c++17"},
                                            "input.cc");
    Analysis = std::make_unique<ProvenanceAnalysis>(AST->getASTContext());
    Collector C;
    C.TraverseAST(AST->getASTContext());
    Args = std::move(C.Args);
  }

  size_t size() const { return Args.size(); }
  Provenance at(size_t I) { return Analysis->of(Args.at(I)); }
  MemoryKind kind(size_t I) { return at(I).Kind; }
  std::string source(size_t I) { return at(I).Source; }
  const ValueDecl *root(size_t I) { return Analysis->rootOf(Args.at(I)); }
  bool hasErrors() const { return AST->getDiagnostics().hasErrorOccurred(); }

private:
  struct Collector : RecursiveASTVisitor<Collector> {
    bool VisitCallExpr(CallExpr *CE) {
      if (const FunctionDecl *FD = CE->getDirectCallee())
        if (FD->getIdentifier() && FD->getName() == "probe" && CE->getNumArgs() == 1)
          Args.push_back(CE->getArg(0));
      return true;
    }
    std::vector<const Expr *> Args;
  };

  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<ProvenanceAnalysis> Analysis;
  std::vector<const Expr *> Args;
};

TEST(ProvenanceTest, HeapAllocationsThroughLocalsCastsAndArithmetic) {
  Probe P(R"cpp(
    void f(int n) {
      float *h = (float *)malloc(n * sizeof(float));
      probe(h + 4);
      probe(&h[2]);
      char *c = static_cast<char *>(calloc(n, 1));
      probe((void *)(c + 1));
      float *a = new float[16];
      probe(a);
      float *bumped = (float *)malloc(64);
      bumped += 4;
      probe(bumped);
      void *pm;
      posix_memalign(&pm, 64, 1024);
      probe(pm);
    }
  )cpp");
  ASSERT_FALSE(P.hasErrors());
  ASSERT_EQ(P.size(), 6u);
  EXPECT_EQ(P.kind(0), MemoryKind::Pageable);
  EXPECT_EQ(P.source(0), "malloc");
  EXPECT_EQ(P.kind(1), MemoryKind::Pageable);
  EXPECT_EQ(P.source(2), "calloc");
  EXPECT_EQ(P.source(3), "new[]");
  EXPECT_EQ(P.kind(4), MemoryKind::Pageable);
  EXPECT_EQ(P.source(5), "posix_memalign");
}

TEST(ProvenanceTest, CudaAllocations) {
  Probe P(R"cpp(
    void f() {
      float *pinned, *mapped, *dev, *managed;
      cudaMallocHost((void **)&pinned, 64);
      cudaHostAlloc((void **)&mapped, 64, 2);
      cudaMalloc((void **)&dev, 64);
      cudaMallocManaged((void **)&managed, 64);
      probe(pinned);
      probe(mapped);
      probe(dev);
      probe(managed);
      float *reg = (float *)malloc(64);
      cudaHostRegister(reg, 64, 0);
      probe(reg + 1);
    }
  )cpp");
  ASSERT_EQ(P.size(), 5u);
  EXPECT_EQ(P.kind(0), MemoryKind::Pinned);
  EXPECT_FALSE(P.at(0).Mapped);
  EXPECT_EQ(P.kind(1), MemoryKind::Pinned);
  EXPECT_TRUE(P.at(1).Mapped);
  EXPECT_EQ(P.kind(2), MemoryKind::Device);
  EXPECT_EQ(P.kind(3), MemoryKind::Managed);
  EXPECT_EQ(P.kind(4), MemoryKind::Pinned);
  EXPECT_EQ(P.source(4), "cudaHostRegister");
}

TEST(ProvenanceTest, ContainersAndStack) {
  Probe P(R"cpp(
    void f(const std::vector<float> &param, std::vector<float, pinned_allocator<float>> &pv) {
      std::vector<float> v;
      probe(v.data());
      probe(&v[0]);
      probe(param.data());
      std::string s;
      probe(s.c_str());
      float buf[16];
      probe(buf);
      std::array<float, 4> arr;
      probe(arr.data());
      int scalar;
      probe(&scalar);
      std::unique_ptr<float[]> u(new float[4]);
      probe(u.get());
      probe(pv.data());
    }
  )cpp");
  ASSERT_EQ(P.size(), 9u);
  EXPECT_EQ(P.source(0), "std::vector");
  EXPECT_EQ(P.source(1), "std::vector");
  EXPECT_EQ(P.kind(2), MemoryKind::Pageable) << "std::allocator memory, wherever the vector is";
  EXPECT_EQ(P.source(3), "std::string");
  EXPECT_EQ(P.source(4), "the stack array 'buf'");
  EXPECT_EQ(P.source(5), "the std::array 'arr'");
  EXPECT_EQ(P.source(6), "the stack variable 'scalar'");
  EXPECT_EQ(P.source(7), "new[]");
  EXPECT_EQ(P.kind(8), MemoryKind::Unknown) << "a custom allocator may pin its memory";
}

TEST(ProvenanceTest, UnknownProvenanceStaysUnknown) {
  Probe P(R"cpp(
    float *getBuffer();
    void stash(float **);
    void g(float *p) { probe(p); }
    void f(bool c, float *param) {
      probe(getBuffer());
      float *h = (float *)malloc(64);
      stash(&h);
      probe(h);
      float *m = c ? (float *)malloc(4) : param;
      probe(m);
      float *x = (float *)malloc(4), *y = (float *)malloc(4);
      std::swap(x, y);
      probe(x);
      float *never;
      probe(never);
    }
  )cpp");
  ASSERT_EQ(P.size(), 6u);
  for (size_t I = 0; I < P.size(); ++I)
    EXPECT_EQ(P.kind(I), MemoryKind::Unknown) << "probe #" << I;
}

TEST(ProvenanceTest, OneLevelOfParameters) {
  Probe P(R"cpp(
    static void upload(const float *src) { probe(src); }
    static void mixed(const float *src) { probe(src); }
    static void inner(const float *p) { probe(p); }
    static void outer(const float *q) { inner(q); }
    void caller(int n) {
      float *h = (float *)malloc(n);
      std::vector<float> v;
      upload(h);
      upload(v.data());
      float *pinned;
      cudaMallocHost((void **)&pinned, n);
      mixed(h);
      mixed(pinned);
      outer(h);
    }
  )cpp");
  ASSERT_EQ(P.size(), 3u);
  EXPECT_EQ(P.kind(0), MemoryKind::Pageable);
  EXPECT_NE(P.at(0).ViaCall, nullptr);
  EXPECT_EQ(P.kind(1), MemoryKind::Unknown) << "callers disagree";
  EXPECT_EQ(P.kind(2), MemoryKind::Unknown) << "only one level of parameters";
}

TEST(ProvenanceTest, AllocationHelpers) {
  Probe P(R"cpp(
    static float *allocHost(size_t n) { return (float *)malloc(n * sizeof(float)); }
    static float *allocPinned(size_t n) {
      float *p = nullptr;
      cudaMallocHost((void **)&p, n * sizeof(float));
      return p;
    }
    static float *either(bool c, size_t n) { return c ? allocHost(n) : allocPinned(n); }
    float *external(size_t n);
    void f() {
      probe(allocHost(16));
      probe(allocPinned(16));
      probe(either(true, 16));
      probe(external(16));
    }
  )cpp");
  ASSERT_EQ(P.size(), 4u);
  EXPECT_EQ(P.kind(0), MemoryKind::Pageable);
  EXPECT_EQ(P.source(0), "malloc");
  EXPECT_EQ(P.kind(1), MemoryKind::Pinned);
  EXPECT_EQ(P.kind(2), MemoryKind::Unknown) << "the returns disagree";
  EXPECT_EQ(P.kind(3), MemoryKind::Unknown) << "no body in this file";
}

TEST(ProvenanceTest, MembersAndGlobals) {
  Probe P(R"cpp(
    struct Buffers { float *host; float *pinned; float *either; };
    static float *gHost;
    void setup(Buffers &b, bool c) {
      b.host = (float *)malloc(64);
      cudaMallocHost((void **)&b.pinned, 64);
      b.either = (float *)malloc(64);
      gHost = new float[16];
    }
    void other(Buffers &b) { cudaMallocHost((void **)&b.either, 64); }
    void use(Buffers &b) {
      probe(b.host);
      probe(b.pinned);
      probe(b.either);
      probe(gHost);
    }
  )cpp");
  ASSERT_EQ(P.size(), 4u);
  EXPECT_EQ(P.kind(0), MemoryKind::Pageable);
  EXPECT_EQ(P.kind(1), MemoryKind::Pinned);
  EXPECT_EQ(P.kind(2), MemoryKind::Unknown);
  EXPECT_EQ(P.kind(3), MemoryKind::Pageable);
}

TEST(ProvenanceTest, RegistrationElsewhereMakesPageableUnknown) {
  Probe P(R"cpp(
    void registerIt(void *p, size_t n) { cudaHostRegister(p, n, 0); }
    void pin(void *p, size_t n);
    void f() {
      float *h = (float *)malloc(64);
      pin(h, 64);
      probe(h);
    }
  )cpp");
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P.kind(0), MemoryKind::Unknown);
}

TEST(ProvenanceTest, HandedToCodeThatMayRegisterIt) {
  Probe P(R"cpp(
    void pin(void *p, size_t n);
    static void fill(float *p) { p[0] = 1; }
    void f() {
      float *a = (float *)malloc(64);
      pin(a, 64);
      probe(a);
      float *b = (float *)malloc(64);
      fill(b);
      probe(b);
    }
  )cpp");
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(P.kind(0), MemoryKind::Unknown) << "pin() lives in another TU";
  EXPECT_EQ(P.kind(1), MemoryKind::Pageable) << "fill() only writes it";
}

TEST(ProvenanceTest, RootOf) {
  Probe P(R"cpp(
    struct S { float *p; };
    void f(S &s) {
      float *h = (float *)malloc(64);
      float *q = h + 8;
      probe(q);
      std::vector<float> v;
      probe(&v[3]);
      probe(s.p + 1);
    }
  )cpp");
  ASSERT_EQ(P.size(), 3u);
  ASSERT_NE(P.root(0), nullptr);
  EXPECT_EQ(P.root(0)->getName(), "h");
  ASSERT_NE(P.root(1), nullptr);
  EXPECT_EQ(P.root(1)->getName(), "v");
  ASSERT_NE(P.root(2), nullptr);
  EXPECT_EQ(P.root(2)->getName(), "p");
}

TEST(ProvenanceTest, NullInitialValuesAreNotAllocations) {
  Probe P(R"cpp(
    struct Holder { float *buf = nullptr; };
    void f(Holder &h) {
      float *late = nullptr;
      late = (float *)malloc(8);
      probe(late);
      h.buf = new float[4];
      probe(h.buf);
      float *onlyNull = nullptr;
      probe(onlyNull);
    }
  )cpp");
  ASSERT_EQ(P.size(), 3u);
  EXPECT_EQ(P.kind(0), MemoryKind::Pageable);
  EXPECT_EQ(P.kind(1), MemoryKind::Pageable);
  EXPECT_EQ(P.kind(2), MemoryKind::Unknown);
}

} // namespace
