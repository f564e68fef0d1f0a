//===- CommandTranslationTest.cpp - nvcc/gcc/clang -> clang parse args ----===//
//
// Command lines as CMake 3.25+ writes them for nvcc 12/13 (and as people
// write them in Makefiles), and what the parse must get from each.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Frontend/CommandTranslation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace cuda_advisor::frontend;

namespace {

std::vector<std::string> split(llvm::StringRef Line) {
  llvm::SmallVector<llvm::StringRef, 32> Parts;
  Line.split(Parts, ' ', -1, false);
  return std::vector<std::string>(Parts.begin(), Parts.end());
}

NeutralCommand translate(llvm::StringRef Line, llvm::StringRef File = "/src/a.cu",
                         llvm::StringRef Dir = "/build") {
  return translateCommand(split(Line), File, Dir);
}

bool has(const std::vector<std::string> &V, llvm::StringRef S) {
  return llvm::is_contained(V, S.str());
}

/// True when Flags holds A immediately followed by B.
bool hasPair(const std::vector<std::string> &Flags, llvm::StringRef A, llvm::StringRef B) {
  for (size_t I = 0; I + 1 < Flags.size(); ++I)
    if (Flags[I] == A && Flags[I + 1] == B)
      return true;
  return false;
}

bool droppedStartsWith(const NeutralCommand &C, llvm::StringRef Prefix) {
  return llvm::any_of(C.Dropped, [&](const std::string &D) {
    return llvm::StringRef(D).starts_with(Prefix);
  });
}

// The command of shared/NOTES.md, verbatim from CMake 3.25 with nvcc 13.
TEST(CommandTranslationTest, CMakeNvcc13Command) {
  NeutralCommand C = translate(
      "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DMINI_BUILD=1 "
      "--generate-code=arch=compute_90,code=[compute_90,sm_90] --expt-relaxed-constexpr "
      "-lineinfo -Xcompiler=-Wall --use_fast_math -std=c++17 -x cu -c /src/a.cu -o "
      "CMakeFiles/x.dir/a.cu.o");
  EXPECT_TRUE(C.Cuda);
  EXPECT_FALSE(C.Rdc);
  EXPECT_EQ(C.Nvcc, "/usr/local/cuda/bin/nvcc");
  EXPECT_EQ(C.Flags, (std::vector<std::string>{"-DMINI_BUILD=1", "-ffast-math",
                                                "-D__USE_FAST_MATH__", "-std=c++17"}));
  EXPECT_EQ(C.GpuArchs, std::vector<std::string>{"sm_90"});
  EXPECT_TRUE(has(C.Dropped, "-forward-unknown-to-host-compiler"));
  EXPECT_TRUE(has(C.Dropped, "--expt-relaxed-constexpr"));
  EXPECT_TRUE(has(C.Dropped, "-lineinfo"));
  EXPECT_TRUE(has(C.Dropped, "-Wall"));
  EXPECT_TRUE(C.Warnings.empty());
}

TEST(CommandTranslationTest, SeveralGencodes) {
  NeutralCommand C = translate("nvcc -gencode arch=compute_80,code=sm_80 "
                               "-gencode=arch=compute_90,code=[compute_90,sm_90] "
                               "--generate-code arch=compute_120,code=sm_120 -c a.cu");
  EXPECT_EQ(C.GpuArchs,
            (std::vector<std::string>{"sm_80", "sm_90", "sm_120"}));
  EXPECT_EQ(chooseGpuArch(C.GpuArchs), "sm_90");
  EXPECT_TRUE(C.Flags.empty());
}

TEST(CommandTranslationTest, ArchSpellings) {
  EXPECT_EQ(translate("nvcc -arch=sm_80 -c a.cu").GpuArchs, std::vector<std::string>{"sm_80"});
  EXPECT_EQ(translate("nvcc -arch sm_75 -c a.cu").GpuArchs, std::vector<std::string>{"sm_75"});
  EXPECT_EQ(translate("nvcc --gpu-architecture=compute_86 -c a.cu").GpuArchs,
            std::vector<std::string>{"sm_86"});
  EXPECT_EQ(translate("nvcc -arch=compute_80 -code=sm_90 -c a.cu").GpuArchs,
            (std::vector<std::string>{"sm_80", "sm_90"}));
  EXPECT_EQ(translate("nvcc --gpu-code=sm_89,compute_89 -c a.cu").GpuArchs,
            std::vector<std::string>{"sm_89"});
  // native / all name no architecture: the default is used.
  NeutralCommand Native = translate("nvcc -arch=native -c a.cu");
  EXPECT_TRUE(Native.GpuArchs.empty());
  EXPECT_EQ(chooseGpuArch(Native.GpuArchs), "sm_90");
  EXPECT_TRUE(translate("nvcc -arch=all-major -c a.cu").GpuArchs.empty());
}

TEST(CommandTranslationTest, NewArchitecturesMapToTheNewestClangKnows) {
  EXPECT_EQ(chooseGpuArch({"sm_100"}), "sm_90");
  EXPECT_EQ(chooseGpuArch({"sm_120"}), "sm_90");
  EXPECT_EQ(chooseGpuArch({"sm_100a"}), "sm_90");
  EXPECT_EQ(chooseGpuArch({"sm_103f"}), "sm_90");
  // Clang 19 knows sm_90a; it is kept when asked for, never chosen for newer GPUs.
  EXPECT_EQ(chooseGpuArch({"sm_90a"}), "sm_90a");
  EXPECT_EQ(chooseGpuArch({"sm_90", "sm_90a"}), "sm_90a");
  EXPECT_EQ(chooseGpuArch({"sm_80", "sm_100"}), "sm_90");
  EXPECT_EQ(chooseGpuArch({"sm_89"}), "sm_89");
  EXPECT_EQ(chooseGpuArch({"sm_52", "sm_61"}), "sm_61");
  EXPECT_EQ(chooseGpuArch({"sm_35"}), "sm_35");
  EXPECT_EQ(chooseGpuArch({}), "sm_90");
}

TEST(CommandTranslationTest, SystemIncludeSpellings) {
  NeutralCommand C = translate("nvcc -isystem=/opt/a -isystem /opt/b -isystem/opt/c "
                               "--system-include=/opt/d -I/inc -I /inc2 --include-path=/inc3 "
                               "-c a.cu");
  EXPECT_TRUE(hasPair(C.Flags, "-isystem", "/opt/a"));
  EXPECT_TRUE(hasPair(C.Flags, "-isystem", "/opt/b"));
  EXPECT_TRUE(hasPair(C.Flags, "-isystem", "/opt/c"));
  EXPECT_TRUE(hasPair(C.Flags, "-isystem", "/opt/d"));
  EXPECT_TRUE(has(C.Flags, "-I/inc"));
  EXPECT_TRUE(has(C.Flags, "-I/inc2"));
  EXPECT_TRUE(has(C.Flags, "-I/inc3"));
}

TEST(CommandTranslationTest, HostCompilerOptions) {
  NeutralCommand C = translateCommand(
      {"nvcc", "-Xcompiler=-Wall,-fPIC", "-Xcompiler", "-fopenmp", "--compiler-options",
       "-DHOST=1,-O3", "--compiler-options=-pthread", "-Xcompiler", "-march=native -Wextra",
       "-c", "a.cu"},
      "/src/a.cu", "/build");
  EXPECT_TRUE(has(C.Flags, "-march=native"));
  EXPECT_TRUE(has(C.Dropped, "-Wextra"));
  EXPECT_TRUE(has(C.Dropped, "-Wall"));
  EXPECT_TRUE(has(C.Dropped, "-fPIC"));
  EXPECT_TRUE(has(C.Flags, "-DHOST=1"));
  EXPECT_TRUE(has(C.Flags, "-pthread"));
  EXPECT_FALSE(has(C.Flags, "-O3"));
  EXPECT_FALSE(has(C.Flags, "-Wall"));
  EXPECT_FALSE(has(C.Flags, "-fPIC"));
  // -fopenmp: _OPENMP is defined, the pragmas are not parsed.
  EXPECT_TRUE(has(C.Flags, "-D_OPENMP=201511"));
  EXPECT_FALSE(has(C.Flags, "-fopenmp"));
}

TEST(CommandTranslationTest, HostOptionValueInTheNextXcompiler) {
  NeutralCommand C =
      translateCommand({"nvcc", "-Xcompiler", "-isystem", "-Xcompiler", "/opt/h", "-Xcompiler",
                        "-march=native -fPIC", "-c", "a.cu"},
                       "/src/a.cu", "/build");
  EXPECT_TRUE(hasPair(C.Flags, "-isystem", "/opt/h"));
  EXPECT_TRUE(has(C.Flags, "-march=native"));
  EXPECT_TRUE(has(C.Dropped, "-fPIC"));
}

TEST(CommandTranslationTest, RelocatableDeviceCode) {
  EXPECT_TRUE(translate("nvcc -rdc=true -c a.cu").Rdc);
  EXPECT_TRUE(translate("nvcc -rdc true -c a.cu").Rdc);
  EXPECT_TRUE(translate("nvcc --relocatable-device-code=true -c a.cu").Rdc);
  EXPECT_FALSE(translate("nvcc --relocatable-device-code=false -c a.cu").Rdc);
  EXPECT_FALSE(translate("nvcc -rdc=false -c a.cu").Rdc);
  EXPECT_TRUE(translate("nvcc -dc a.cu").Rdc);
  EXPECT_TRUE(translate("nvcc --device-c a.cu").Rdc);
  EXPECT_FALSE(translate("nvcc -c a.cu").Rdc);
}

TEST(CommandTranslationTest, FlagsOnlyNvccKnowsAreDropped) {
  NeutralCommand C = translate(
      "nvcc --use_fast_math --expt-relaxed-constexpr --extended-lambda --expt-extended-lambda "
      "-Wno-deprecated-gpu-targets -lineinfo -G -g -O3 --ptxas-options=-v -Xptxas -O3,-v "
      "-maxrregcount=64 --maxrregcount 32 -res-usage --keep --keep-dir /tmp/k -t 4 "
      "--threads 0 --diag-suppress 177,550 -Xcudafe --display_error_number "
      "-Werror all-warnings --ftz=true -prec-div=false --fmad true -Ofc max -c a.cu");
  // Only fast math changes what the parse sees.
  EXPECT_EQ(C.Flags, (std::vector<std::string>{"-ffast-math", "-D__USE_FAST_MATH__"}));
  EXPECT_TRUE(has(C.Dropped, "-G"));
  EXPECT_TRUE(has(C.Dropped, "--extended-lambda"));
  EXPECT_TRUE(has(C.Dropped, "-Wno-deprecated-gpu-targets"));
  EXPECT_TRUE(has(C.Dropped, "--keep-dir /tmp/k"));
  EXPECT_TRUE(has(C.Dropped, "-Xcudafe --display_error_number"));
}

TEST(CommandTranslationTest, WerrorWithoutValueDoesNotEatTheNextFlag) {
  NeutralCommand C = translate("nvcc -Werror -DKEEP=1 -c a.cu");
  EXPECT_TRUE(has(C.Flags, "-DKEEP=1"));
  NeutralCommand D = translate("nvcc -Werror cross-execution-space-call -DKEEP=2 -c a.cu");
  EXPECT_TRUE(has(D.Flags, "-DKEEP=2"));
  EXPECT_FALSE(has(D.Flags, "cross-execution-space-call"));
}

TEST(CommandTranslationTest, Language) {
  NeutralCommand Cpp = translate("nvcc -x cu -c /src/host.cpp", "/src/host.cpp");
  EXPECT_TRUE(Cpp.Cuda);
  NeutralCommand Cu = translate("nvcc -c /src/a.cu");
  EXPECT_TRUE(Cu.Cuda);
  // -dc alone does not make a .cpp file CUDA: nvcc hands it to the host compiler.
  NeutralCommand Dc = translate("nvcc -dc /src/host.cpp", "/src/host.cpp");
  EXPECT_FALSE(Dc.Cuda);
  NeutralCommand AsCxx = translate("nvcc -x c++ -c /src/a.cu");
  EXPECT_FALSE(AsCxx.Cuda);
  EXPECT_TRUE(hasPair(AsCxx.Flags, "-x", "c++"));
  EXPECT_TRUE(translate("nvcc --x=cu -c /src/k.cc", "/src/k.cc").Cuda);
}

TEST(CommandTranslationTest, StandardSpellings) {
  EXPECT_TRUE(has(translate("nvcc -std=c++17 -c a.cu").Flags, "-std=c++17"));
  EXPECT_TRUE(has(translate("nvcc --std c++17 -c a.cu").Flags, "-std=c++17"));
  EXPECT_TRUE(has(translate("nvcc --std=c++20 -c a.cu").Flags, "-std=c++20"));
  EXPECT_TRUE(has(translate("nvcc -std c++14 -c a.cu").Flags, "-std=c++14"));
}

TEST(CommandTranslationTest, MacroSpellings) {
  NeutralCommand C = translate("nvcc -D X=1 -DY --define-macro=Z --define-macro W=2 "
                               "-U OLD -UOLD2 --undefine-macro=OLD3 -c a.cu");
  EXPECT_TRUE(has(C.Flags, "-DX=1"));
  EXPECT_TRUE(has(C.Flags, "-DY"));
  EXPECT_TRUE(has(C.Flags, "-DZ"));
  EXPECT_TRUE(has(C.Flags, "-DW=2"));
  EXPECT_TRUE(has(C.Flags, "-UOLD"));
  EXPECT_TRUE(has(C.Flags, "-UOLD2"));
  EXPECT_TRUE(has(C.Flags, "-UOLD3"));
}

TEST(CommandTranslationTest, HostCompilerAndOutputsAreDropped) {
  NeutralCommand C = translate("nvcc -ccbin /usr/bin/g++-12 --compiler-bindir=/usr/bin/g++ "
                               "-MD -MT CMakeFiles/x.dir/a.cu.o -MF CMakeFiles/x.dir/a.cu.o.d "
                               "-o CMakeFiles/x.dir/a.cu.o -c /src/a.cu");
  EXPECT_TRUE(C.Flags.empty());
  EXPECT_TRUE(has(C.Dropped, "-ccbin /usr/bin/g++-12"));
  EXPECT_TRUE(has(C.Dropped, "-MD"));
  EXPECT_TRUE(has(C.Dropped, "-MT CMakeFiles/x.dir/a.cu.o"));
  EXPECT_TRUE(has(C.Dropped, "-MF CMakeFiles/x.dir/a.cu.o.d"));
}

TEST(CommandTranslationTest, DefaultStreamKeepsThePlainApiNames) {
  NeutralCommand C = translate("nvcc --default-stream per-thread -c a.cu");
  EXPECT_TRUE(C.Flags.empty());
  EXPECT_TRUE(has(C.Dropped, "--default-stream per-thread"));
  EXPECT_TRUE(translate("nvcc -default-stream=legacy -c a.cu").Flags.empty());
}

TEST(CommandTranslationTest, UnknownOptionsAreDroppedNeverFatal) {
  NeutralCommand C = translate("nvcc --some-option-from-nvcc-14 -fancy-new=3 --frob "
                               "-DKEEP -c a.cu");
  EXPECT_EQ(C.Flags, std::vector<std::string>{"-DKEEP"});
  EXPECT_TRUE(has(C.Dropped, "--some-option-from-nvcc-14"));
  EXPECT_TRUE(has(C.Dropped, "-fancy-new=3"));
  EXPECT_TRUE(has(C.Dropped, "--frob"));
  // A value-taking option at the very end is noted, not a failure.
  NeutralCommand End = translate("nvcc -c a.cu -o");
  EXPECT_TRUE(has(End.Dropped, "-o (no value)"));
}

class ResponseFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ca-rsp", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  void write(llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  llvm::SmallString<256> Dir;
};

TEST_F(ResponseFileTest, OptionsFileAndAtFile) {
  write("includes_CUDA.rsp", "-I/rsp/inc -isystem=/rsp/sys \"-DQUOTED=a b\"\n");
  write("flags.rsp", "-DFROM_AT -Xcompiler=-fopenmp @nested.rsp");
  write("nested.rsp", "-DNESTED");
  NeutralCommand C = translateCommand(
      {"nvcc", "--options-file", "includes_CUDA.rsp", "@flags.rsp", "-c", "a.cu"}, "/src/a.cu",
      Dir);
  EXPECT_TRUE(has(C.Flags, "-I/rsp/inc"));
  EXPECT_TRUE(hasPair(C.Flags, "-isystem", "/rsp/sys"));
  EXPECT_TRUE(has(C.Flags, "-DQUOTED=a b"));
  EXPECT_TRUE(has(C.Flags, "-DFROM_AT"));
  EXPECT_TRUE(has(C.Flags, "-DNESTED"));
  EXPECT_TRUE(has(C.Flags, "-D_OPENMP=201511"));
  EXPECT_TRUE(C.Warnings.empty());
  // -optf=FILE, and @FILE in a g++ command.
  EXPECT_TRUE(has(translateCommand({"nvcc", "-optf=includes_CUDA.rsp", "a.cu"}, "/src/a.cu", Dir)
                      .Flags,
                  "-I/rsp/inc"));
  EXPECT_TRUE(has(translateCommand({"g++", "@nested.rsp", "-c", "a.cpp"}, "/src/a.cpp", Dir).Flags,
                  "-DNESTED"));
}

TEST_F(ResponseFileTest, MissingResponseFileIsAWarning) {
  NeutralCommand C = translateCommand(
      {"nvcc", "--options-file", "CMakeFiles/x.dir/includes_CUDA.rsp", "-DX", "-c", "a.cu"},
      "/src/a.cu", Dir);
  ASSERT_EQ(C.Warnings.size(), 1u);
  EXPECT_NE(C.Warnings[0].find("includes_CUDA.rsp"), std::string::npos);
  EXPECT_TRUE(has(C.Flags, "-DX"));
}

TEST(CommandTranslationTest, ClangEntries) {
  NeutralCommand C = translate(
      "/usr/bin/clang++-19 -x cuda --cuda-gpu-arch=sm_80 --offload-arch=sm_86 "
      "--cuda-path=/opt/cuda-12.4 -fgpu-rdc -DX -I/i -isystem /s -std=c++20 -O2 -Wall -g "
      "-Xclang -fno-pch-timestamp -mllvm -inline-threshold=100 -stdlib=libc++ -fno-exceptions "
      "-c /src/a.cu -o a.o");
  EXPECT_TRUE(C.Cuda);
  EXPECT_TRUE(C.Rdc);
  EXPECT_EQ(C.CudaPath, "/opt/cuda-12.4");
  EXPECT_EQ(C.GpuArchs, (std::vector<std::string>{"sm_80", "sm_86"}));
  EXPECT_EQ(C.Flags, (std::vector<std::string>{"-DX", "-I/i", "-isystem", "/s", "-std=c++20",
                                                "-stdlib=libc++", "-fno-exceptions"}));
  EXPECT_TRUE(C.Nvcc.empty());
  NeutralCommand Host = translate("clang++ --cuda-host-only -nocudainc -xcuda -c /src/b.cu",
                                  "/src/b.cu");
  EXPECT_TRUE(Host.Cuda);
  EXPECT_TRUE(Host.Flags.empty());
}

TEST(CommandTranslationTest, GccEntries) {
  NeutralCommand C = translate(
      "/usr/bin/c++ -DHOST -I/inc -isystem /sys -iquote /q -include pch.h -std=gnu++17 -O3 "
      "-fPIC -Wall -Werror -pthread -march=native -fopenmp -MD -MT x.o -MF x.o.d -o x.o "
      "-c /src/host.cpp",
      "/src/host.cpp");
  EXPECT_FALSE(C.Cuda);
  EXPECT_EQ(C.Flags, (std::vector<std::string>{"-DHOST", "-I/inc", "-isystem", "/sys",
                                                "-iquote", "/q", "-include", "pch.h",
                                                "-std=gnu++17", "-pthread", "-march=native",
                                                "-D_OPENMP=201511"}));
  // ccache in front of the compiler, and a C file.
  NeutralCommand Cc = translate("/usr/bin/ccache /usr/bin/gcc -DC_FILE -c /src/x.c", "/src/x.c");
  EXPECT_FALSE(Cc.Cuda);
  EXPECT_EQ(Cc.Flags, std::vector<std::string>{"-DC_FILE"});
  NeutralCommand CcacheNvcc = translate("ccache /usr/local/cuda/bin/nvcc -DN -c /src/a.cu");
  EXPECT_EQ(CcacheNvcc.Nvcc, "/usr/local/cuda/bin/nvcc");
  EXPECT_TRUE(has(CcacheNvcc.Flags, "-DN"));
}

TEST(CommandTranslationTest, ClassifyCompiler) {
  EXPECT_EQ(classifyCompiler("/usr/local/cuda/bin/nvcc"), CompilerKind::Nvcc);
  EXPECT_EQ(classifyCompiler("nvcc"), CompilerKind::Nvcc);
  EXPECT_EQ(classifyCompiler("clang++-19"), CompilerKind::Clang);
  EXPECT_EQ(classifyCompiler("/usr/bin/x86_64-linux-gnu-g++-12"), CompilerKind::Gcc);
  EXPECT_EQ(classifyCompiler("c++"), CompilerKind::Gcc);
  EXPECT_EQ(classifyCompiler("/opt/intel/bin/icpx"), CompilerKind::Other);
}

// What the parse adds for each kind of file and installation.
class ParseArgsTest : public ::testing::Test {
protected:
  ParseArgsTest() {
    Cuda.Path = "/usr/local/cuda-13.0";
    Cuda.Version = 13000;
    Cuda.HasCccl = true;
    Cuda.MissingWrapperHeaders = {"texture_fetch_functions.h"};
    Setup.ResourceDir = "/share/cuda-advisor";
  }
  CudaInstallation Cuda;
  ParseSetup Setup;
};

TEST_F(ParseArgsTest, CudaFileAgainstCuda13) {
  NeutralCommand C = translate("nvcc -DX -arch=sm_120 -rdc=true -c /src/a.cu");
  std::vector<std::string> A = buildParseArgs(C, Cuda, Setup, "/src/a.cu");
  EXPECT_EQ(A.front(), "clang++");
  EXPECT_EQ(A.back(), "/src/a.cu");
  EXPECT_TRUE(hasPair(A, "-x", "cuda"));
  EXPECT_TRUE(has(A, "-DX"));
  EXPECT_TRUE(has(A, "--cuda-host-only"));
  EXPECT_TRUE(has(A, "--cuda-gpu-arch=sm_90"));
  EXPECT_TRUE(has(A, "-fgpu-rdc"));
  EXPECT_TRUE(has(A, "-Wno-unknown-cuda-version"));
  EXPECT_TRUE(has(A, "--cuda-path=/usr/local/cuda-13.0"));
  EXPECT_TRUE(hasPair(A, "-isystem", "/usr/local/cuda-13.0/include/cccl"));
  EXPECT_TRUE(hasPair(A, "-isystem", "/share/cuda-advisor/include/compat/override"));
  EXPECT_TRUE(hasPair(A, "-isystem", "/share/cuda-advisor/include/compat/override-cuda13"));
  EXPECT_TRUE(hasPair(A, "-include", "/share/cuda-advisor/include/compat/cuda_advisor_compat.h"));
  // Stand-ins: only for the header the installation lacks, and only behind it.
  EXPECT_TRUE(hasPair(A, "-idirafter",
                      "/share/cuda-advisor/include/stand-ins/texture_fetch_functions"));
  EXPECT_FALSE(hasPair(A, "-idirafter",
                       "/share/cuda-advisor/include/stand-ins/texture_indirect_functions"));
  EXPECT_FALSE(hasPair(A, "-isystem", "/share/cuda-advisor/include/stand-ins/texture_fetch_functions"));
  EXPECT_FALSE(has(A, "-nocudainc"));
  EXPECT_FALSE(has(A, "-Xclang"));
}

TEST_F(ParseArgsTest, OlderToolkitGetsNoDevicePropWrapper) {
  Cuda.Version = 12040;
  Cuda.MissingWrapperHeaders.clear();
  Cuda.HasCccl = false;
  std::vector<std::string> A =
      buildParseArgs(translate("nvcc -c /src/a.cu"), Cuda, Setup, "/src/a.cu");
  EXPECT_TRUE(hasPair(A, "-isystem", "/share/cuda-advisor/include/compat/override"));
  EXPECT_FALSE(hasPair(A, "-isystem", "/share/cuda-advisor/include/compat/override-cuda13"));
  EXPECT_FALSE(hasPair(A, "-isystem", "/usr/local/cuda-13.0/include/cccl"));
  EXPECT_TRUE(llvm::none_of(A, [](const std::string &F) {
    return llvm::StringRef(F).contains("stand-ins/texture");
  }));
}

TEST_F(ParseArgsTest, DevicePassTellsClangTheCudaVersion) {
  Setup.DevicePass = true;
  std::vector<std::string> A =
      buildParseArgs(translate("nvcc -arch=sm_80 -c /src/a.cu"), Cuda, Setup, "/src/a.cu");
  EXPECT_TRUE(has(A, "--cuda-device-only"));
  EXPECT_FALSE(has(A, "--cuda-host-only"));
  EXPECT_TRUE(has(A, "--cuda-gpu-arch=sm_80"));
  EXPECT_TRUE(hasPair(A, "-Xclang", "-target-sdk-version=12.5"));
  EXPECT_EQ(sdkVersionForClang(13000), "12.5");
  EXPECT_EQ(sdkVersionForClang(12050), "12.5");
  EXPECT_EQ(sdkVersionForClang(12040), "12.4");
  EXPECT_EQ(sdkVersionForClang(11080), "11.8");
  EXPECT_EQ(sdkVersionForClang(0), "12.5");
}

TEST_F(ParseArgsTest, BundledDeclarations) {
  CudaInstallation None;
  None.Bundled = true;
  std::vector<std::string> A =
      buildParseArgs(translate("nvcc -c /src/a.cu"), None, Setup, "/src/a.cu");
  EXPECT_TRUE(has(A, "-nocudainc"));
  EXPECT_TRUE(hasPair(A, "-include",
                      "/share/cuda-advisor/include/minimal-cuda/cuda_advisor_minimal.h"));
  EXPECT_TRUE(llvm::none_of(A, [](const std::string &F) {
    return llvm::StringRef(F).starts_with("--cuda-path");
  }));
  EXPECT_FALSE(hasPair(A, "-include", "/share/cuda-advisor/include/compat/cuda_advisor_compat.h"));
}

TEST_F(ParseArgsTest, HostFiles) {
  std::vector<std::string> Cpp = buildParseArgs(
      translate("/usr/bin/c++ -DH -c /src/host.cpp", "/src/host.cpp"), Cuda, Setup,
      "/src/host.cpp");
  EXPECT_EQ(Cpp.front(), "clang++");
  EXPECT_FALSE(has(Cpp, "--cuda-host-only"));
  EXPECT_FALSE(hasPair(Cpp, "-x", "cuda"));
  EXPECT_TRUE(hasPair(Cpp, "-isystem", "/usr/local/cuda-13.0/include"));
  EXPECT_TRUE(hasPair(Cpp, "-isystem", "/share/cuda-advisor/include/compat/override"));
  EXPECT_TRUE(hasPair(Cpp, "-idirafter", "/share/cuda-advisor/include/stand-ins/openmp"));
  std::vector<std::string> C =
      buildParseArgs(translate("/usr/bin/gcc -c /src/x.c", "/src/x.c"), Cuda, Setup, "/src/x.c");
  EXPECT_EQ(C.front(), "clang");
  std::vector<std::string> CAsCxx = buildParseArgs(
      translate("/usr/bin/g++ -x c++ -c /src/x.c", "/src/x.c"), Cuda, Setup, "/src/x.c");
  EXPECT_EQ(CAsCxx.front(), "clang++");
}

TEST_F(ParseArgsTest, ExtraArgsAroundTheCommand) {
  Setup.ExtraArgsBefore = {"-DBEFORE"};
  Setup.ExtraArgs = {"-DAFTER"};
  std::vector<std::string> A =
      buildParseArgs(translate("nvcc -DMID -c /src/a.cu"), Cuda, Setup, "/src/a.cu");
  auto Pos = [&](llvm::StringRef S) { return llvm::find(A, S.str()) - A.begin(); };
  EXPECT_LT(Pos("-DBEFORE"), Pos("-DMID"));
  EXPECT_LT(Pos("-DMID"), Pos("-DAFTER"));
  EXPECT_LT(Pos("-DAFTER"), static_cast<long>(A.size() - 1));
}

} // namespace

namespace {
// The parse must see the resource directory of the Clang it runs on (with
// cuda_wrappers/, whose <new> gives device code placement new), not one
// computed from a bare "clang++".
TEST(CommandTranslationTest, FindsTheClangDriverOfTheLinkedClang) {
  std::string Driver = findClangDriver();
  ASSERT_TRUE(llvm::StringRef(Driver).ends_with("/bin/clang++")) << Driver;
  llvm::SmallString<256> Lib(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Driver)));
  llvm::sys::path::append(Lib, "lib", "clang");
  bool Found = false;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Lib, EC), End; It != End && !EC; It.increment(EC))
    Found |= llvm::sys::fs::is_directory(It->path() + "/include/cuda_wrappers");
  EXPECT_TRUE(Found) << Lib.str().str();
  ParseSetup Setup;
  Setup.ClangDriver = Driver;
  CudaInstallation Cuda;
  Cuda.Path = "/usr/local/cuda";
  EXPECT_EQ(buildParseArgs(translate("nvcc -c /src/a.cu"), Cuda, Setup, "/src/a.cu").front(),
            Driver);
  std::vector<std::string> C =
      buildParseArgs(translate("gcc -c /src/x.c", "/src/x.c"), Cuda, Setup, "/src/x.c");
  EXPECT_EQ(C.front(), Driver.substr(0, Driver.size() - 2));
}
} // namespace

// nvcc defines __NVCC__ for every file it compiles, CUDA or host C++ (nvcc
// 13: `nvcc -E -Xcompiler -dM a.cpp` shows `#define __NVCC__ 1`); a command
// from another compiler does not get it.
TEST_F(ParseArgsTest, NvccCommandsDefineNvcc) {
  std::vector<std::string> Cu =
      buildParseArgs(translate("nvcc -c /src/a.cu"), Cuda, Setup, "/src/a.cu");
  EXPECT_TRUE(has(Cu, "-D__NVCC__=1"));
  std::vector<std::string> Cpp = buildParseArgs(
      translate("/usr/local/cuda/bin/nvcc -c /src/host.cpp", "/src/host.cpp"), Cuda, Setup,
      "/src/host.cpp");
  EXPECT_TRUE(has(Cpp, "-D__NVCC__=1"));
  EXPECT_FALSE(hasPair(Cpp, "-x", "cuda"));
  std::vector<std::string> Clang = buildParseArgs(
      translate("clang++ -x cuda --cuda-gpu-arch=sm_80 -c /src/a.cu"), Cuda, Setup, "/src/a.cu");
  EXPECT_FALSE(has(Clang, "-D__NVCC__=1"));
  std::vector<std::string> Gcc = buildParseArgs(
      translate("/usr/bin/g++ -c /src/host.cpp", "/src/host.cpp"), Cuda, Setup, "/src/host.cpp");
  EXPECT_FALSE(has(Gcc, "-D__NVCC__=1"));
}

// Flags after `--` are meant for Clang: kept as given (as clang-tidy keeps
// them), except the output modes a syntax-only parse must not get. The same
// flags in a compile database written for gcc are dropped.
TEST(CommandTranslationTest, FlagsAfterDoubleDashPassThrough) {
  std::vector<std::string> Argv = split("clang-tool -x cuda -std=c++17 -Wno-register "
                                        "-fno-strict-aliasing -Wall -c -MD -o out.o /src/a.cu");
  NeutralCommand P = translateCommand(Argv, "/src/a.cu", ".", /*PassThrough=*/true);
  EXPECT_TRUE(P.Cuda);
  EXPECT_TRUE(has(P.Flags, "-std=c++17"));
  EXPECT_TRUE(has(P.Flags, "-Wno-register"));
  EXPECT_TRUE(has(P.Flags, "-fno-strict-aliasing"));
  EXPECT_TRUE(has(P.Flags, "-Wall"));
  EXPECT_FALSE(has(P.Flags, "-c"));
  EXPECT_FALSE(has(P.Flags, "-MD"));
  EXPECT_FALSE(has(P.Flags, "-o"));
  EXPECT_FALSE(has(P.Flags, "out.o"));
  NeutralCommand Db = translateCommand(Argv, "/src/a.cu", ".");
  EXPECT_FALSE(has(Db.Flags, "-Wno-register"));
  EXPECT_TRUE(has(Db.Dropped, "-Wno-register"));
}
