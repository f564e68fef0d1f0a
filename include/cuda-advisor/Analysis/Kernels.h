//===- Kernels.h - Kernels, launches and their configuration ---*- C++ -*-===//
#ifndef CUDA_ADVISOR_ANALYSIS_KERNELS_H
#define CUDA_ADVISOR_ANALYSIS_KERNELS_H

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
} // namespace clang

namespace cuda_advisor::analysis {

/// A __global__ function.
bool isKernel(const clang::FunctionDecl *FD);
/// Code that runs on the GPU only: __global__, or __device__ without __host__.
bool isDeviceOnly(const clang::FunctionDecl *FD);
/// Code that may run on the host: no CUDA attribute, or __host__ (maybe __device__ too).
bool mayRunOnHost(const clang::FunctionDecl *FD);

/// The device-side mangled names a profile shows for the kernel FD: its own
/// name for a plain kernel or an instantiation, one per instantiation for a
/// function template's pattern.
std::vector<std::string> kernelMangledNames(const clang::FunctionDecl *FD,
                                            clang::ASTContext &Ctx);

/// A kernel launch: `k<<<grid, block, shmem, stream>>>(...)` or
/// `cudaLaunchKernel(k, grid, block, args, shmem, stream)`.
struct LaunchSite {
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Kernel = nullptr; ///< May be null (a function pointer).
  const clang::Expr *Grid = nullptr;
  const clang::Expr *Block = nullptr;
  const clang::Expr *SharedMem = nullptr; ///< Null when not given.
  const clang::Expr *Stream = nullptr;    ///< Null when not given (the default stream).
  bool TripleChevron = true;
};

std::optional<LaunchSite> getLaunchSite(const clang::CallExpr *Call);

} // namespace cuda_advisor::analysis

#endif
