//===- HostCode.cpp - What host-side calls do to GPU ordering --------------===//
#include "cuda-advisor/Analysis/HostCode.h"
#include "cuda-advisor/Analysis/CudaApi.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using llvm::StringRef;

namespace cuda_advisor::analysis {

std::string formatBytes(int64_t B) {
  if (B >= (int64_t(1) << 30) && B % (int64_t(1) << 30) == 0)
    return std::to_string(B >> 30) + " GiB";
  if (B >= (1 << 20) && B % (1 << 20) == 0)
    return std::to_string(B >> 20) + " MiB";
  if (B >= (1 << 10) && B % (1 << 10) == 0)
    return std::to_string(B >> 10) + " KiB";
  return std::to_string(B) + (B == 1 ? " byte" : " bytes");
}

std::string describeCallee(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD)
    return "a call through a pointer";
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->getParent()->isLambda()) {
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call); OC && OC->getNumArgs() > 0)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts());
          DRE && DRE->getDecl()->getIdentifier())
        return "the lambda '" + DRE->getDecl()->getName().str() + "'";
    return "a lambda";
  }
  if (FD->getIdentifier())
    return "'" + FD->getName().str() + "'";
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->getParent()->getIdentifier())
    return "'" + MD->getParent()->getName().str() + "::" + FD->getNameAsString() + "'";
  std::string N = FD->getNameAsString();
  return N.empty() ? std::string("a function") : "'" + N + "'";
}

static bool isTimerName(StringRef N) {
  std::string L = N.lower();
  StringRef S(L);
  return S.contains("timer") || S.contains("stopwatch") || S.contains("wtime") || S == "tic" ||
         S == "toc";
}

/// Functions of the GPU libraries that queue work (not handles, plans,
/// settings or queries).
static bool isLibraryWork(const FunctionDecl *FD) {
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  StringRef N = FD->getName();
  if (DC->isTranslationUnit() || FD->isExternC()) {
    static constexpr StringRef Prefixes[] = {"cublas",  "cufft", "cusparse", "cusolver",
                                             "curand",  "cudnn", "nccl",     "cutensor",
                                             "nvjpeg",  "npp"};
    bool Library = llvm::any_of(Prefixes, [&](StringRef P) { return N.starts_with(P); });
    if (!Library)
      return false;
    for (StringRef Admin : {"Create", "Destroy", "Set", "Get", "Plan", "Version", "Init",
                            "Finalize", "Estimate", "Query", "Alloc", "Free", "Abort",
                            "GroupStart", "Logger"})
      if (N.contains(Admin))
        return false;
    return true;
  }
  // thrust:: and cub:: algorithms.
  const auto *NS = dyn_cast<NamespaceDecl>(DC);
  while (NS && NS->isInline())
    NS = dyn_cast<NamespaceDecl>(NS->getParent()->getRedeclContext());
  const NamedDecl *Top = NS;
  while (NS) {
    Top = NS;
    NS = dyn_cast<NamespaceDecl>(NS->getParent()->getRedeclContext());
  }
  if (const auto *RD = dyn_cast<CXXRecordDecl>(DC)) { // cub::DeviceReduce::Sum
    const DeclContext *P = RD->getDeclContext()->getRedeclContext();
    while (const auto *PN = dyn_cast<NamespaceDecl>(P)) {
      Top = PN;
      P = PN->getParent()->getRedeclContext();
    }
  }
  if (!Top || !Top->getIdentifier())
    return false;
  StringRef TopName = Top->getName();
  if (TopName == "cub")
    return isa<CXXMethodDecl>(FD) && cast<CXXMethodDecl>(FD)->isStatic();
  if (TopName != "thrust" || isa<CXXMethodDecl>(FD))
    return false;
  return !N.starts_with("make_") && !N.ends_with("pointer_cast") && N != "get" && N != "tie" &&
         N != "distance" && N != "advance";
}

HostCallKind classifyHostCall(const CallExpr *Call) {
  if (!Call)
    return HostCallKind::Other;
  if (isa<CUDAKernelCallExpr>(Call))
    return HostCallKind::Launch;
  if (std::optional<ApiInfo> Api = classifyApiCall(Call)) {
    switch (Api->Kind) {
    case ApiKind::Launch:
      return HostCallKind::Launch;
    case ApiKind::CopyAsync:
    case ApiKind::Memset:
      return HostCallKind::AsyncWork;
    case ApiKind::Copy:
      return HostCallKind::BlockingCopy;
    case ApiKind::DeviceSync:
    case ApiKind::StreamSync:
    case ApiKind::EventSync:
      return HostCallKind::Sync;
    case ApiKind::Alloc:
    case ApiKind::Free:
      return Api->Async ? HostCallKind::AsyncWork : HostCallKind::Other;
    default:
      return HostCallKind::Other;
    }
  }
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return HostCallKind::Other;
  StringRef N = FD->getName();
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  bool Global = DC->isTranslationUnit() || DC->isStdNamespace() || FD->isExternC();
  if (Global) {
    std::string Canon = canonicalApiName(N);
    StringRef C(Canon);
    if (C == "cudaGraphLaunch")
      return HostCallKind::Launch;
    if (C == "cudaMemPrefetchAsync" || C == "cudaLaunchHostFunc" || C == "cudaStreamAddCallback")
      return HostCallKind::AsyncWork;
    if (C == "cudaEventElapsedTime")
      return HostCallKind::Timing;
    if (llvm::is_contained({"clock", "gettimeofday", "clock_gettime", "time", "timespec_get",
                            "omp_get_wtime", "MPI_Wtime", "QueryPerformanceCounter", "__rdtsc",
                            "getrusage", "times"},
                           N))
      return HostCallKind::Timing;
    if (N.starts_with("MPI_") || N.starts_with("PMPI_") || N.starts_with("shmem_") ||
        N.starts_with("nvshmem_") || N.starts_with("nvshmemx_"))
      return HostCallKind::HostComm;
    // Other host threads may wait for what the GPU wrote.
    if (N.starts_with("pthread_barrier") || N.starts_with("pthread_cond") ||
        N.starts_with("sem_post") || N.starts_with("omp_set_lock") || N.starts_with("omp_unset_lock"))
      return HostCallKind::HostComm;
  }
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    const CXXRecordDecl *RD = MD->getParent();
    if (MD->isInStdNamespace() &&
        (N.starts_with("notify") || N.starts_with("arrive") || N == "set_value" ||
         N == "count_down"))
      return HostCallKind::HostComm; // condition_variable, barrier, latch, promise
    if (N == "now" && RD && RD->getQualifiedNameAsString().find("chrono") != std::string::npos)
      return HostCallKind::Timing;
    if (RD && RD->getIdentifier() && isTimerName(RD->getName()))
      return HostCallKind::Timing;
  }
  if (isTimerName(N))
    return HostCallKind::Timing;
  if (isLibraryWork(FD))
    return HostCallKind::LibraryWork;
  return HostCallKind::Other;
}

} // namespace cuda_advisor::analysis
