//===- CudaInstallation.h - Which CUDA to parse against --------*- C++ -*-===//
//
// The CUDA installation a file is parsed against: --cuda-path, else
// CUDA_PATH / CUDA_HOME, else the installation of the nvcc named in the
// compile command (or the --cuda-path of a clang command), else
// /usr/local/cuda. With none, the tool's bundled minimal
// CUDA declarations are used instead (Bundled).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_FRONTEND_CUDAINSTALLATION_H
#define CUDA_ADVISOR_FRONTEND_CUDAINSTALLATION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace cuda_advisor::frontend {

struct CudaInstallation {
  std::string Path;      ///< Root (holds include/cuda_runtime.h); empty if Bundled.
  bool Bundled = false;  ///< No installation: the bundled declarations are used.
  unsigned Version = 0;  ///< CUDA_VERSION from include/cuda.h, e.g. 13000.
  std::string FoundBy;   ///< "--cuda-path", "CUDA_PATH", "the nvcc of the compile command"...
  /// Headers Clang's CUDA wrapper includes that this installation lacks
  /// (CUDA 13 dropped texture_fetch_functions.h): stand-ins are used for them.
  std::vector<std::string> MissingWrapperHeaders;
  bool HasCccl = false;  ///< include/cccl exists (CUDA 13 moved Thrust/CUB/libcu++ there).

  std::string versionString() const; ///< "13.0", or "unknown".
};

/// True if Dir looks like a CUDA installation (include/cuda_runtime.h).
bool isCudaInstallation(llvm::StringRef Dir);

/// The headers of Clang's CUDA wrapper that a CUDA installation may lack.
llvm::ArrayRef<const char *> wrapperHeadersToCheck();

/// Finds installations, caching by the nvcc path of the compile command so
/// that every file of a project resolves the same way. Thread-safe.
class CudaLocator {
public:
  /// Explicit: the --cuda-path value ("" for none; "bundled" forces the
  /// bundled declarations). Defaults: where to look last.
  explicit CudaLocator(std::string Explicit,
                       std::vector<std::string> Defaults = {"/usr/local/cuda"});

  /// Nvcc: the compiler path of the compile command when it is nvcc, else "";
  /// CommandCudaPath: the --cuda-path of a clang compile command, else "".
  /// Fails only when --cuda-path names a directory that is not an installation.
  llvm::Expected<CudaInstallation> locate(llvm::StringRef Nvcc,
                                          llvm::StringRef CommandCudaPath = "");

private:
  CudaInstallation inspect(llvm::StringRef Root, llvm::StringRef FoundBy) const;
  std::string Explicit;
  std::vector<std::string> Defaults;
  std::mutex Mutex;
  std::map<std::string, CudaInstallation> Cache;
};

} // namespace cuda_advisor::frontend

#endif
