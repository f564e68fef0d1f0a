//===- LoopStrideTest.cpp - Counted loops and pointer strides --------------===//
#include "cuda-advisor/Analysis/Loops.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace cuda_advisor::analysis;

namespace {

/// Each probe(p) call in Code, with the innermost loop around it.
class LoopProbe {
public:
  explicit LoopProbe(llvm::StringRef Code) {
    AST = tooling::buildASTFromCodeWithArgs("void probe(const void *);\n" + Code.str(),
                                            {"-std=c++17"}, "input.cc");
    VT = std::make_unique<ValueTracker>(AST->getASTContext());
    struct Finder : RecursiveASTVisitor<Finder> {
      LoopProbe *Self;
      bool VisitFunctionDecl(FunctionDecl *FD) {
        if (!FD->hasBody())
          return true;
        forEachCallInLoops(FD->getBody(), [&](const CallExpr *C, ArrayRef<const Stmt *> Loops) {
          const FunctionDecl *Callee = C->getDirectCallee();
          if (Callee && Callee->getName() == "probe" && !Loops.empty())
            Self->Sites.push_back({C->getArg(0), Loops.back()});
        });
        return true;
      }
    } F;
    F.Self = this;
    F.TraverseAST(AST->getASTContext());
  }
  size_t size() const { return Sites.size(); }
  std::optional<int64_t> trips(size_t I) { return constantTripCount(Sites.at(I).second, *VT); }
  std::optional<int64_t> step(size_t I) {
    auto Ind = inductionOf(Sites.at(I).second, *VT);
    return Ind ? std::optional<int64_t>(Ind->Step) : std::nullopt;
  }
  std::optional<PointerStride> stride(size_t I) {
    return pointerStrideIn(Sites.at(I).first, Sites.at(I).second, *VT);
  }

private:
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<ValueTracker> VT;
  std::vector<std::pair<const Expr *, const Stmt *>> Sites;
};

TEST(LoopStrideTest, TripCounts) {
  LoopProbe P(R"cpp(
    void f(float *p, int n) {
      for (int i = 0; i < 100; ++i) probe(p);
      for (int i = 0; i <= 10; i += 2) probe(p);
      for (int i = 10; i > 0; --i) probe(p);
      for (int i = 0; i < n; ++i) probe(p);
      for (int i = 0; i < 8; ++i) { probe(p); i += 1; }
      int k = 0;
      while (k < 4) { probe(p); ++k; }
      for (int i = 0; 16 > i; i++) probe(p);
    }
  )cpp");
  ASSERT_EQ(P.size(), 7u);
  EXPECT_EQ(P.trips(0), 100);
  EXPECT_EQ(P.trips(1), 6);
  EXPECT_EQ(P.trips(2), 10);
  EXPECT_EQ(P.trips(3), std::nullopt);
  EXPECT_EQ(P.step(3), 1);
  EXPECT_EQ(P.step(4), std::nullopt) << "the body also writes i";
  EXPECT_EQ(P.trips(5), 4);
  EXPECT_EQ(P.trips(6), 16);
}

TEST(LoopStrideTest, PointerStrides) {
  LoopProbe P(R"cpp(
    typedef unsigned long size_t;
    void f(float *d, double *h, char *c, int chunk, int n) {
      for (int i = 0; i < n; ++i) probe(d);
      for (int i = 0; i < n; ++i) probe(d + i * 1024);
      for (int i = 0; i < n; ++i) probe(&h[i * 8]);
      for (int i = 0; i < n; ++i) { size_t off = static_cast<size_t>(i) * 256; probe(d + off); }
      for (int i = 0; i < n; i += 2) probe(c + (i << 4));
      for (int i = 0; i < n; ++i) { probe(d); d += 64; }
      for (int i = 0; i < n; ++i) probe(d + i * chunk);
      for (int i = 0; i < n; ++i) probe(d + i * i);
      for (int i = 0; i < n; ++i) { if (n > 3) d += 4; probe(d); }
      for (int i = 0; i < n; ++i) probe((void *)(d + 16 * i + 3));
    }
  )cpp");
  ASSERT_EQ(P.size(), 10u);
  EXPECT_EQ(P.stride(0)->Bytes, 0);
  EXPECT_EQ(P.stride(1)->Bytes, 4096);
  EXPECT_EQ(P.stride(2)->Bytes, 64);
  EXPECT_EQ(P.stride(3)->Bytes, 1024);
  EXPECT_EQ(P.stride(4)->Bytes, 32);
  EXPECT_EQ(P.stride(5)->Bytes, 256);
  ASSERT_TRUE(P.stride(6).has_value());
  EXPECT_FALSE(P.stride(6)->Bytes.has_value());
  EXPECT_NE(P.stride(6)->Elements, nullptr);
  EXPECT_EQ(P.stride(6)->ElementSize, 4);
  EXPECT_FALSE(P.stride(7).has_value()) << "not linear";
  EXPECT_FALSE(P.stride(8).has_value()) << "bumped on some iterations only";
  EXPECT_EQ(P.stride(9)->Bytes, 64);
}

} // namespace
