//===- CudaInstallation.cpp - Finding the CUDA toolkit --------------------===//
#include "cuda-advisor/Frontend/CudaInstallation.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

#include <cstdlib>

using namespace llvm;

namespace cuda_advisor::frontend {

std::string CudaInstallation::versionString() const {
  if (!Version)
    return "unknown";
  return std::to_string(Version / 1000) + "." + std::to_string(Version % 1000 / 10);
}

bool isCudaInstallation(StringRef Dir) {
  if (Dir.empty())
    return false;
  SmallString<256> P(Dir);
  sys::path::append(P, "include", "cuda_runtime.h");
  return sys::fs::exists(P);
}

ArrayRef<const char *> wrapperHeadersToCheck() {
  // Included by clang/lib/Headers/__clang_cuda_runtime_wrapper.h.
  static const char *const Headers[] = {"texture_fetch_functions.h",
                                        "texture_indirect_functions.h"};
  return Headers;
}

static unsigned readCudaVersion(StringRef Root) {
  SmallString<256> P(Root);
  sys::path::append(P, "include", "cuda.h");
  auto Buf = MemoryBuffer::getFile(P);
  if (!Buf)
    return 0;
  Regex R("#define[ \t]+CUDA_VERSION[ \t]+([0-9]+)");
  SmallVector<StringRef, 2> M;
  if (!R.match((*Buf)->getBuffer(), &M))
    return 0;
  unsigned V = 0;
  M[1].getAsInteger(10, V);
  return V;
}

CudaLocator::CudaLocator(std::string Explicit, std::vector<std::string> Defaults)
    : Explicit(std::move(Explicit)), Defaults(std::move(Defaults)) {}

CudaInstallation CudaLocator::inspect(StringRef Root, StringRef FoundBy) const {
  CudaInstallation C;
  SmallString<256> Real;
  if (sys::fs::real_path(Root, Real))
    Real = Root;
  C.Path = Real.str().str();
  C.FoundBy = FoundBy.str();
  C.Version = readCudaVersion(C.Path);
  for (const char *H : wrapperHeadersToCheck()) {
    SmallString<256> P(C.Path);
    sys::path::append(P, "include", H);
    if (!sys::fs::exists(P))
      C.MissingWrapperHeaders.push_back(H);
  }
  SmallString<256> Cccl(C.Path);
  sys::path::append(Cccl, "include", "cccl");
  C.HasCccl = sys::fs::is_directory(Cccl);
  return C;
}

/// The installation root of an nvcc binary: <root>/bin/nvcc.
static std::string rootOfNvcc(StringRef Nvcc) {
  std::string Path = Nvcc.str();
  if (!sys::path::has_parent_path(Path)) {
    auto Found = sys::findProgramByName(Path);
    if (!Found)
      return "";
    Path = *Found;
  }
  SmallString<256> Real;
  if (!sys::fs::real_path(Path, Real))
    Path = Real.str().str();
  return sys::path::parent_path(sys::path::parent_path(Path)).str();
}

Expected<CudaInstallation> CudaLocator::locate(StringRef Nvcc, StringRef CommandCudaPath) {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::string Key = Nvcc.str() + "\n" + CommandCudaPath.str();
  auto It = Cache.find(Key);
  if (It != Cache.end())
    return It->second;

  CudaInstallation Result;
  if (Explicit == "bundled") {
    Result.Bundled = true;
    Result.FoundBy = "--cuda-path=bundled";
  } else if (!Explicit.empty()) {
    if (!isCudaInstallation(Explicit))
      return createStringError(inconvertibleErrorCode(),
                               "%s: not a CUDA installation (no include/cuda_runtime.h) "
                               "given with --cuda-path",
                               Explicit.c_str());
    Result = inspect(Explicit, "--cuda-path");
  } else {
    std::vector<std::pair<std::string, std::string>> Candidates;
    for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
      if (const char *V = std::getenv(Var); V && *V)
        Candidates.emplace_back(V, Var);
    if (!CommandCudaPath.empty())
      Candidates.emplace_back(CommandCudaPath.str(), "the --cuda-path of the compile command");
    if (!Nvcc.empty())
      Candidates.emplace_back(rootOfNvcc(Nvcc), "the nvcc of the compile command");
    for (const std::string &D : Defaults)
      Candidates.emplace_back(D, D);
    Result.Bundled = true;
    Result.FoundBy = "none found";
    for (auto &[Dir, By] : Candidates) {
      if (isCudaInstallation(Dir)) {
        Result = inspect(Dir, By);
        break;
      }
    }
  }
  Cache[Key] = Result;
  return Result;
}

} // namespace cuda_advisor::frontend
