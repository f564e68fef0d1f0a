//===- CudaSnippet.h - Parse inline CUDA snippets for analysis tests -*- C++ -*-===//
//
// Builds the AST of a CUDA snippet (host-side parse, no CUDA installation)
// behind a prelude that declares what the snippets use: the CUDA attribute
// macros, the built-in variables the way Clang's __clang_cuda_builtin_vars.h
// declares them (properties read through __fetch_builtin_x), dim3, the
// launch configuration call, and a few device functions.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_UNITTESTS_ANALYSIS_CUDASNIPPET_H
#define CUDA_ADVISOR_UNITTESTS_ANALYSIS_CUDASNIPPET_H

#include "cuda-advisor/Analysis/KernelSummary.h"
#include "cuda-advisor/Analysis/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>

namespace cuda_advisor::analysis::testing {

inline const char *cudaPrelude() {
  return R"cuda(
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ inline __attribute__((always_inline))
#define CA_BUILTIN(FIELD, INTRINSIC)                                                \
  __declspec(property(get = __fetch_builtin_##FIELD)) unsigned int FIELD;          \
  static inline __attribute__((device)) unsigned int __fetch_builtin_##FIELD(void) { \
    return INTRINSIC;                                                               \
  }
struct __cuda_builtin_threadIdx_t {
  CA_BUILTIN(x, __nvvm_read_ptx_sreg_tid_x()) CA_BUILTIN(y, __nvvm_read_ptx_sreg_tid_y())
  CA_BUILTIN(z, __nvvm_read_ptx_sreg_tid_z())
};
struct __cuda_builtin_blockIdx_t {
  CA_BUILTIN(x, __nvvm_read_ptx_sreg_ctaid_x()) CA_BUILTIN(y, __nvvm_read_ptx_sreg_ctaid_y())
  CA_BUILTIN(z, __nvvm_read_ptx_sreg_ctaid_z())
};
struct __cuda_builtin_blockDim_t {
  CA_BUILTIN(x, __nvvm_read_ptx_sreg_ntid_x()) CA_BUILTIN(y, __nvvm_read_ptx_sreg_ntid_y())
  CA_BUILTIN(z, __nvvm_read_ptx_sreg_ntid_z())
};
struct __cuda_builtin_gridDim_t {
  CA_BUILTIN(x, __nvvm_read_ptx_sreg_nctaid_x()) CA_BUILTIN(y, __nvvm_read_ptx_sreg_nctaid_y())
  CA_BUILTIN(z, __nvvm_read_ptx_sreg_nctaid_z())
};
extern const __device__ __cuda_builtin_threadIdx_t threadIdx;
extern const __device__ __cuda_builtin_blockIdx_t blockIdx;
extern const __device__ __cuda_builtin_blockDim_t blockDim;
extern const __device__ __cuda_builtin_gridDim_t gridDim;
__device__ const int warpSize = 32;
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};
typedef struct CUstream_st *cudaStream_t;
extern "C" int __cudaPushCallConfiguration(dim3 grid, dim3 block, unsigned long shmem = 0,
                                           void *stream = 0);
extern "C" __device__ void __syncthreads();
extern "C" __device__ float atomicAdd(float *address, float val);
extern "C" __device__ int atomicAdd(int *address, int val);
extern "C" __device__ float __ldg(const float *p);
__device__ float sqrtf(float);
__device__ float opaqueDevice(float *p);
)cuda";
}

/// A parsed snippet and the analysis caches over it.
class Snippet {
public:
  explicit Snippet(llvm::StringRef Code) {
    // The prelude is a system header, like the CUDA headers it stands for.
    std::string Source = "#include <cuda_prelude.h>\n" + Code.str();
    AST = clang::tooling::buildASTFromCodeWithArgs(
        Source,
        {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-std=c++17",
         "-Wno-unknown-cuda-version", "-fsyntax-only", "-isystem", "/cuda-prelude"},
        "/work/input.cu", "clang-tool", std::make_shared<clang::PCHContainerOperations>(),
        clang::tooling::getClangStripDependencyFileAdjuster(),
        {{"/cuda-prelude/cuda_prelude.h", cudaPrelude()}});
    if (!AST)
      return;
    Values = std::make_unique<ValueTracker>(AST->getASTContext());
    Summaries = std::make_unique<KernelSummaries>(AST->getASTContext(), *Values);
  }

  bool ok() const {
    return AST && !AST->getDiagnostics().hasErrorOccurred();
  }
  clang::ASTContext &context() { return AST->getASTContext(); }

  /// The function named Name (the first instantiation of a template when
  /// Instantiation is set).
  const clang::FunctionDecl *function(llvm::StringRef Name, bool Instantiation = false) {
    for (clang::Decl *D : context().getTranslationUnitDecl()->decls()) {
      if (const auto *FT = llvm::dyn_cast<clang::FunctionTemplateDecl>(D)) {
        if (FT->getName() == Name && Instantiation)
          for (const clang::FunctionDecl *Spec : FT->specializations())
            return Spec;
        continue;
      }
      const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D);
      if (FD && FD->getIdentifier() && FD->getName() == Name && FD->hasBody())
        return FD;
    }
    return nullptr;
  }

  const KernelSummary *summary(llvm::StringRef Name, bool Instantiation = false) {
    const clang::FunctionDecl *FD = function(Name, Instantiation);
    return FD ? Summaries->summaryOf(FD) : nullptr;
  }

  /// The source text of an access site.
  std::string text(const MemoryAccess &A) {
    clang::SourceManager &SM = context().getSourceManager();
    return clang::Lexer::getSourceText(
               clang::CharSourceRange::getTokenRange(A.Site->getSourceRange()), SM,
               context().getLangOpts())
        .str();
  }

  /// The access whose source text is Text (the first, or the one of kind K).
  const MemoryAccess *access(const KernelSummary &S, llvm::StringRef Text,
                             std::optional<AccessKind> K = std::nullopt) {
    for (const MemoryAccess &A : S.Accesses)
      if (text(A) == Text && (!K || A.Kind == *K))
        return &A;
    return nullptr;
  }

  std::string str(const AffineForm &F) { return F.str(context()); }

  /// The byte offset of the access Text, printed ("missing" when there is none).
  std::string offset(llvm::StringRef Kernel, llvm::StringRef Text) {
    const KernelSummary *S = summary(Kernel);
    if (!S)
      return "no summary";
    const MemoryAccess *A = access(*S, Text);
    return A ? str(A->Address.ByteOffset) : "missing";
  }
  std::string stride(llvm::StringRef Kernel, llvm::StringRef Text) {
    const KernelSummary *S = summary(Kernel);
    if (!S)
      return "no summary";
    const MemoryAccess *A = access(*S, Text);
    return A ? str(A->laneStride()) : "missing";
  }

private:
  std::unique_ptr<clang::ASTUnit> AST;
  std::unique_ptr<ValueTracker> Values;
  std::unique_ptr<KernelSummaries> Summaries;
};

} // namespace cuda_advisor::analysis::testing

#endif
