//===- SymbolizeTest.cpp - Return addresses to file:line ------------------===//
//
// Builds a tiny program with g++ at test time; it prints a real return
// address (of a call in main, through __builtin_return_address in a noinline
// function) and its module map entry, as the collector records them. The
// test symbolizes that address in place, after moving the binary, from a
// split debug file found by build-id, and without debug information.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Profile/Symbolize.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace cuda_advisor;
using namespace cuda_advisor::profile;
using namespace llvm;

namespace {

// The call whose return address the program prints is on line 13.
const char *const Program = R"(#include <cstdio>
#include <cstdint>
#include <link.h>
__attribute__((noinline)) void *where() { return __builtin_return_address(0); }
static int first(dl_phdr_info *I, size_t, void *D) {
  uintptr_t *Out = static_cast<uintptr_t *>(D), Lo = UINTPTR_MAX, Hi = 0;
  for (int K = 0; K < I->dlpi_phnum; ++K)
    if (I->dlpi_phdr[K].p_type == PT_LOAD) {
      uintptr_t B = I->dlpi_addr + I->dlpi_phdr[K].p_vaddr, E = B + I->dlpi_phdr[K].p_memsz;
      Lo = B < Lo ? B : Lo; Hi = E > Hi ? E : Hi;
    }
  Out[0] = I->dlpi_addr; Out[1] = Lo; Out[2] = Hi; return 1; }
int main() { void *A = where();
  uintptr_t M[3] = {0, 0, 0}; dl_iterate_phdr(first, M);
  std::printf("%lx %lx %lx %lx\n", (unsigned long)(uintptr_t)A, (unsigned long)M[0],
              (unsigned long)M[1], (unsigned long)M[2]);
  return 0; }
)";
constexpr unsigned CallLine = 13;

struct Recorded {
  uint64_t Address = 0, Bias = 0, Start = 0, End = 0;
};

class SymbolizeTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (auto G = sys::findProgramByName("g++"))
      GxxPath = *G;
    if (GxxPath.empty())
      GTEST_SKIP() << "g++ is not installed";
    ASSERT_FALSE(sys::fs::createUniqueDirectory("cuda-advisor-symbolize", Dir));
    Source = path("where.cpp");
    std::error_code EC;
    raw_fd_ostream OS(Source, EC);
    ASSERT_FALSE(EC);
    OS << Program;
  }
  void TearDown() override {
    if (!Dir.empty())
      sys::fs::remove_directories(Dir);
  }
  std::string path(StringRef Name) const {
    SmallString<256> P(Dir);
    sys::path::append(P, Name);
    return P.str().str();
  }
  bool run(StringRef Exe, ArrayRef<StringRef> Args, StringRef Stdout = "") {
    std::vector<StringRef> Argv{Exe};
    Argv.insert(Argv.end(), Args.begin(), Args.end());
    std::optional<StringRef> Redirects[] = {std::nullopt, Stdout.empty() ? std::nullopt
                                                                         : std::optional(Stdout),
                                            std::nullopt};
    return sys::ExecuteAndWait(Exe, Argv, std::nullopt, Redirects) == 0;
  }
  /// Builds the program (with -g unless told otherwise) and runs it.
  std::optional<Recorded> buildAndRun(StringRef Exe, bool Debug = true) {
    std::vector<StringRef> Args{"-O0", "-Wl,--build-id", "-o", Exe, Source};
    if (Debug)
      Args.insert(Args.begin(), "-g");
    if (!run(GxxPath, Args))
      return std::nullopt;
    std::string Out = path("out.txt");
    if (!run(Exe, {}, Out))
      return std::nullopt;
    auto Buf = MemoryBuffer::getFile(Out);
    if (!Buf)
      return std::nullopt;
    SmallVector<StringRef, 4> F;
    StringRef((*Buf)->getBuffer()).trim().split(F, ' ');
    Recorded R;
    if (F.size() != 4 || F[0].getAsInteger(16, R.Address) || F[1].getAsInteger(16, R.Bias) ||
        F[2].getAsInteger(16, R.Start) || F[3].getAsInteger(16, R.End))
      return std::nullopt;
    return R;
  }
  static std::string buildId(StringRef Exe) {
    auto Obj = object::ObjectFile::createObjectFile(Exe);
    if (!Obj) {
      consumeError(Obj.takeError());
      return "";
    }
    return toHex(object::getBuildID(Obj->getBinary()), true);
  }
  /// A profile with one module (the program as recorded at RecordedPath) and
  /// Copies stacks of the recorded address.
  static Profile profileOf(const Recorded &R, StringRef RecordedPath, StringRef BuildId,
                           unsigned Copies = 1) {
    Profile P;
    P.Processes.emplace_back();
    Module M;
    M.Path = RecordedPath.str();
    M.LoadBias = R.Bias;
    M.LoadAddress = R.Start;
    M.Size = R.End - R.Start;
    M.BuildId = BuildId.str();
    P.Modules.push_back(M);
    for (unsigned I = 0; I < Copies; ++I) {
      Stack S;
      S.Frames = {R.Address};
      P.Stacks.push_back(S);
    }
    return P;
  }

  std::string GxxPath;
  SmallString<256> Dir;
  std::string Source;
};

TEST_F(SymbolizeTest, ReturnAddressToCallLine) {
  std::string Exe = path("where");
  std::optional<Recorded> R = buildAndRun(Exe);
  ASSERT_TRUE(R);
  Profile P = profileOf(*R, Exe, buildId(Exe));
  SymbolizeResult Res = symbolizeStacks(P, {});
  EXPECT_TRUE(Res.Warnings.empty()) << Res.Warnings.front();
  EXPECT_EQ(Res.Stacks, 1u);
  EXPECT_EQ(Res.UserStacks, 1u);
  const Stack &S = P.Stacks[0];
  ASSERT_NE(S.userFrame(), nullptr);
  EXPECT_EQ(sys::path::filename(S.userFrame()->Loc.File), "where.cpp");
  EXPECT_EQ(S.userFrame()->Loc.Line, CallLine);
  EXPECT_EQ(S.userFrame()->Function, "main");
  EXPECT_FALSE(S.userFrame()->Library);
}

TEST_F(SymbolizeTest, MovedBinaryFoundByNameOnBinaryPath) {
  std::string Exe = path("where");
  std::optional<Recorded> R = buildAndRun(Exe);
  ASSERT_TRUE(R);
  std::string Id = buildId(Exe);
  std::string Moved = path("moved");
  ASSERT_FALSE(sys::fs::create_directory(Moved));
  ASSERT_FALSE(sys::fs::rename(Exe, Moved + "/where"));

  // Without --binary-path: one warning for three stacks, nothing resolved.
  Profile Lost = profileOf(*R, Exe, Id, 3);
  SymbolizeResult Res = symbolizeStacks(Lost, {});
  ASSERT_EQ(Res.Warnings.size(), 1u);
  EXPECT_NE(Res.Warnings[0].find("was not found"), std::string::npos) << Res.Warnings[0];
  EXPECT_EQ(Res.UserStacks, 0u);
  EXPECT_EQ(Lost.Stacks[0].userFrame(), nullptr);

  Profile Found = profileOf(*R, Exe, Id);
  SymbolizeOptions Opts;
  Opts.BinaryPaths = {Moved};
  Res = symbolizeStacks(Found, Opts);
  EXPECT_TRUE(Res.Warnings.empty());
  ASSERT_NE(Found.Stacks[0].userFrame(), nullptr);
  EXPECT_EQ(Found.Stacks[0].userFrame()->Loc.Line, CallLine);
}

TEST_F(SymbolizeTest, SplitDebugFileFoundByBuildId) {
  std::string ObjcopyPath;
  if (auto O = sys::findProgramByName("objcopy"))
    ObjcopyPath = *O;
  if (ObjcopyPath.empty())
    GTEST_SKIP() << "objcopy is not installed";
  std::string Exe = path("where");
  std::optional<Recorded> R = buildAndRun(Exe);
  ASSERT_TRUE(R);
  std::string Id = buildId(Exe);
  ASSERT_GT(Id.size(), 2u);
  // DIR/.build-id/ab/cdef....debug, as gdb and debuginfod lay it out; the
  // binary itself is gone.
  std::string Debug = path("debug");
  std::string Sub = Debug + "/.build-id/" + Id.substr(0, 2);
  ASSERT_FALSE(sys::fs::create_directories(Sub));
  std::string DebugFile = Sub + "/" + Id.substr(2) + ".debug";
  ASSERT_TRUE(run(ObjcopyPath, {"--only-keep-debug", Exe, DebugFile}));
  ASSERT_FALSE(sys::fs::remove(Exe));

  Profile P = profileOf(*R, "/build/elsewhere/where", Id);
  SymbolizeOptions Opts;
  Opts.BinaryPaths = {Debug};
  SymbolizeResult Res = symbolizeStacks(P, Opts);
  EXPECT_TRUE(Res.Warnings.empty()) << Res.Warnings.front();
  ASSERT_NE(P.Stacks[0].userFrame(), nullptr);
  EXPECT_EQ(P.Stacks[0].userFrame()->Loc.Line, CallLine);
}

TEST_F(SymbolizeTest, RebuiltBinaryIsNotUsed) {
  std::string Exe = path("where");
  std::optional<Recorded> R = buildAndRun(Exe);
  ASSERT_TRUE(R);
  Profile P = profileOf(*R, Exe, "00112233445566778899aabbccddeeff00112233");
  SymbolizeResult Res = symbolizeStacks(P, {});
  ASSERT_EQ(Res.Warnings.size(), 1u);
  EXPECT_NE(Res.Warnings[0].find("build-id differs"), std::string::npos) << Res.Warnings[0];
  EXPECT_EQ(P.Stacks[0].userFrame(), nullptr);
}

TEST_F(SymbolizeTest, NoDebugInfoReportedOnce) {
  std::string Exe = path("where-nodebug");
  std::optional<Recorded> R = buildAndRun(Exe, /*Debug=*/false);
  ASSERT_TRUE(R);
  Profile P = profileOf(*R, Exe, buildId(Exe), 2);
  P.Stacks[1].Frames = {R->Address + 1}; // Another address in the same binary.
  SymbolizeResult Res = symbolizeStacks(P, {});
  ASSERT_EQ(Res.Warnings.size(), 1u);
  EXPECT_NE(Res.Warnings[0].find("no debug line information"), std::string::npos)
      << Res.Warnings[0];
  EXPECT_EQ(P.Stacks[0].userFrame(), nullptr);
  // The symbol table still names the function.
  ASSERT_FALSE(P.Stacks[0].Symbols.empty());
  EXPECT_EQ(P.Stacks[0].Symbols[0].Function, "main");
}

TEST(SymbolizeLibraries, SkippedByName) {
  EXPECT_TRUE(isLibraryBinary("/usr/local/cuda/lib64/libcudart.so.13"));
  EXPECT_TRUE(isLibraryBinary("/usr/lib/x86_64-linux-gnu/libcuda.so.580.159.04"));
  EXPECT_TRUE(isLibraryBinary("/opt/torch/.venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so"));
  EXPECT_TRUE(isLibraryBinary("/usr/lib/x86_64-linux-gnu/libstdc++.so.6"));
  EXPECT_TRUE(isLibraryBinary("/lib64/ld-linux-x86-64.so.2"));
  EXPECT_TRUE(isLibraryBinary("/usr/bin/python3.12"));
  EXPECT_TRUE(isLibraryBinary("/opt/cuda-advisor/lib/libcuda-advisor-collector.so"));
  EXPECT_FALSE(isLibraryBinary("/home/me/app/build/transfer-in-loop"));
  EXPECT_FALSE(isLibraryBinary("/home/me/app/build/libsolver.so"));
  EXPECT_TRUE(isLibrarySource("/usr/local/cuda/include/cuda_runtime.h"));
  EXPECT_TRUE(isLibrarySource("/usr/include/c++/13/bits/stl_vector.h"));
  EXPECT_FALSE(isLibrarySource("/home/me/app/src/main.cu"));

  // Frames in those libraries are kept, marked, and never the user's frame;
  // the binary is not even looked for.
  Profile P;
  P.Processes.emplace_back();
  Module Cudart;
  Cudart.Path = "/nonexistent/libcudart.so.13";
  Cudart.LoadAddress = 0x7000;
  Cudart.Size = 0x1000;
  P.Modules.push_back(Cudart);
  Stack S;
  S.Frames = {0x7100, 0x9000};
  P.Stacks.push_back(S);
  SymbolizeResult Res = symbolizeStacks(P, {});
  EXPECT_TRUE(Res.Warnings.empty());
  ASSERT_EQ(P.Stacks[0].Symbols.size(), 2u);
  EXPECT_TRUE(P.Stacks[0].Symbols[0].Library);
  EXPECT_EQ(P.Stacks[0].Symbols[0].Module, Cudart.Path);
  EXPECT_TRUE(P.Stacks[0].Symbols[1].Module.empty()); // Outside every module.
  EXPECT_EQ(P.Stacks[0].UserFrame, -1);
}

} // namespace
