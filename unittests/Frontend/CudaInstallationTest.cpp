//===- CudaInstallationTest.cpp - Which CUDA a file is parsed against -----===//
#include "cuda-advisor/Frontend/CudaInstallation.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <cstdlib>

using namespace cuda_advisor::frontend;

namespace {

/// A fake installation: include/cuda_runtime.h, include/cuda.h with a
/// version, optionally include/cccl and the texture headers.
class CudaInstallationTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ca-cuda", Root));
    // The environment must not decide for the tests.
    for (const char *Var : {"CUDA_PATH", "CUDA_HOME"}) {
      if (const char *V = std::getenv(Var))
        Saved.emplace_back(Var, V);
      ::unsetenv(Var);
    }
  }
  void TearDown() override {
    llvm::sys::fs::remove_directories(Root);
    for (auto &[Var, Value] : Saved)
      ::setenv(Var.c_str(), Value.c_str(), 1);
  }
  std::string makeToolkit(llvm::StringRef Name, unsigned Version, bool Cccl,
                          bool TextureFetch) {
    llvm::SmallString<256> Dir(Root);
    llvm::sys::path::append(Dir, Name);
    write(Dir, "include/cuda_runtime.h", "");
    write(Dir, "include/cuda.h", "#define CUDA_VERSION " + std::to_string(Version) + "\n");
    write(Dir, "include/texture_indirect_functions.h", "");
    if (TextureFetch)
      write(Dir, "include/texture_fetch_functions.h", "");
    if (Cccl)
      write(Dir, "include/cccl/cuda/std/version", "");
    write(Dir, "bin/nvcc", "");
    return Dir.str().str();
  }
  static void write(llvm::StringRef Dir, llvm::StringRef Rel, llvm::StringRef Text) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Rel);
    ASSERT_FALSE(llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P)));
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  llvm::SmallString<256> Root;
  std::vector<std::pair<std::string, std::string>> Saved;
};

TEST_F(CudaInstallationTest, NothingFoundMeansBundled) {
  CudaLocator L("", {Root.str().str() + "/no-cuda-here"});
  auto C = L.locate("");
  ASSERT_TRUE(static_cast<bool>(C));
  EXPECT_TRUE(C->Bundled);
  EXPECT_TRUE(C->Path.empty());
}

TEST_F(CudaInstallationTest, BundledOnRequest) {
  std::string Cuda13 = makeToolkit("cuda-13.0", 13000, true, false);
  CudaLocator L("bundled", {Cuda13});
  auto C = L.locate("");
  ASSERT_TRUE(static_cast<bool>(C));
  EXPECT_TRUE(C->Bundled);
}

TEST_F(CudaInstallationTest, Cuda13LacksTextureFetchAndHasCccl) {
  std::string Cuda13 = makeToolkit("cuda-13.0", 13000, true, false);
  CudaLocator L("", {Cuda13});
  auto C = L.locate("");
  ASSERT_TRUE(static_cast<bool>(C));
  EXPECT_FALSE(C->Bundled);
  EXPECT_EQ(C->Version, 13000u);
  EXPECT_EQ(C->versionString(), "13.0");
  EXPECT_TRUE(C->HasCccl);
  EXPECT_EQ(C->MissingWrapperHeaders, std::vector<std::string>{"texture_fetch_functions.h"});
}

TEST_F(CudaInstallationTest, Cuda12HasEverything) {
  std::string Cuda12 = makeToolkit("cuda-12.4", 12040, false, true);
  CudaLocator L(Cuda12);
  auto C = L.locate("");
  ASSERT_TRUE(static_cast<bool>(C));
  EXPECT_EQ(C->FoundBy, "--cuda-path");
  EXPECT_EQ(C->versionString(), "12.4");
  EXPECT_FALSE(C->HasCccl);
  EXPECT_TRUE(C->MissingWrapperHeaders.empty());
}

TEST_F(CudaInstallationTest, LookupOrder) {
  std::string Env = makeToolkit("env-cuda", 12000, false, true);
  std::string OfNvcc = makeToolkit("nvcc-cuda", 12020, false, true);
  std::string Last = makeToolkit("default-cuda", 13000, true, false);
  // The nvcc of the compile command, before the default.
  {
    CudaLocator L("", {Last});
    auto C = L.locate(OfNvcc + "/bin/nvcc");
    ASSERT_TRUE(static_cast<bool>(C));
    EXPECT_EQ(C->Version, 12020u);
    EXPECT_EQ(C->FoundBy, "the nvcc of the compile command");
    // A clang command's --cuda-path counts like nvcc's directory.
    auto D = L.locate("", Env);
    ASSERT_TRUE(static_cast<bool>(D));
    EXPECT_EQ(D->Version, 12000u);
  }
  // CUDA_HOME before the compile command's nvcc.
  ::setenv("CUDA_HOME", Env.c_str(), 1);
  {
    CudaLocator L("", {Last});
    auto C = L.locate(OfNvcc + "/bin/nvcc");
    ASSERT_TRUE(static_cast<bool>(C));
    EXPECT_EQ(C->Version, 12000u);
    EXPECT_EQ(C->FoundBy, "CUDA_HOME");
  }
  // A variable naming a directory that is no installation is skipped.
  ::setenv("CUDA_HOME", Root.c_str(), 1);
  {
    CudaLocator L("", {Last});
    auto C = L.locate("");
    ASSERT_TRUE(static_cast<bool>(C));
    EXPECT_EQ(C->Version, 13000u);
  }
  ::unsetenv("CUDA_HOME");
}

TEST_F(CudaInstallationTest, ExplicitPathThatIsNoInstallationFails) {
  CudaLocator L(Root.str().str());
  auto C = L.locate("");
  ASSERT_FALSE(static_cast<bool>(C));
  std::string Message = llvm::toString(C.takeError());
  EXPECT_NE(Message.find("not a CUDA installation"), std::string::npos);
  EXPECT_NE(Message.find(Root.str().str()), std::string::npos);
}

} // namespace
