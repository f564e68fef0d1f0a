//===- ReportTestUtil.h - Hand-built findings for the emitter tests -*- C++ -*-===//
#ifndef CUDA_ADVISOR_UNITTESTS_REPORT_REPORTTESTUTIL_H
#define CUDA_ADVISOR_UNITTESTS_REPORT_REPORTTESTUTIL_H

#include "cuda-advisor/Report/Report.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <string>

namespace cuda_advisor::report::test {

/// A directory of its own with source files written from strings; removed
/// with everything in it at the end of the test.
class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> P;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("cuda-advisor-report", P));
    // Real path, so that it matches what the emitters see.
    llvm::SmallString<128> Real;
    Path = llvm::sys::fs::real_path(P, Real) ? P.str().str() : Real.str().str();
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }

  /// Writes Name with Text and returns its absolute path.
  std::string write(llvm::StringRef Name, llvm::StringRef Text) const {
    std::string File = file(Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    EXPECT_FALSE(EC) << File;
    OS << Text;
    return File;
  }
  std::string file(llvm::StringRef Name) const {
    llvm::SmallString<128> P(Path);
    llvm::sys::path::append(P, Name);
    return P.str().str();
  }
  std::string read(llvm::StringRef Name) const {
    auto Buf = llvm::MemoryBuffer::getFile(file(Name));
    return Buf ? (*Buf)->getBuffer().str() : "<unreadable>";
  }

  std::string Path;
};

/// Line:Column (1-based) of File whose text is Text, with its byte offset.
inline SourceLocation at(const std::string &File, llvm::StringRef Text, unsigned Line,
                         unsigned Column) {
  SourceLocation L;
  L.File = File;
  L.Line = Line;
  L.Column = Column;
  unsigned Offset = 0;
  for (unsigned I = 1; I < Line; ++I)
    Offset = Text.find('\n', Offset) + 1;
  L.Offset = Offset + Column - 1;
  return L;
}

inline SourceRange range(const std::string &File, llvm::StringRef Text, unsigned Line,
                         unsigned Begin, unsigned End) {
  return {at(File, Text, Line, Begin), at(File, Text, Line, End)};
}

/// The source the emitter tests show (line 6 starts with a tab).
inline constexpr const char *SeedSource = "#include <cuda_runtime.h>\n"
                                          "__global__ void add(float *x, int n);\n"
                                          "void run(float *d, float *h, int n) {\n"
                                          "  for (int it = 0; it < 100; ++it) {\n"
                                          "    cudaMemcpy(d, h, 4096, cudaMemcpyHostToDevice);\n"
                                          "\tadd<<<n / 256, 256>>>(d, n);\n"
                                          "  }\n"
                                          "}\n";

/// transfer-in-loop at 5:5 with a note at the loop, ranked.
inline Finding copyFinding(const std::string &File) {
  Finding F;
  F.CheckId = "transfer-in-loop";
  F.Message = "cudaMemcpy runs on every iteration of this loop; 4 KiB copied each time";
  F.Loc = at(File, SeedSource, 5, 5);
  F.Range = range(File, SeedSource, 5, 5, 51);
  F.Notes.push_back({at(File, SeedSource, 4, 3), "inside this loop"});
  F.Keys.CallSites.push_back(F.Loc);
  F.Keys.Api = "cudaMemcpy";
  F.Evidence["bytesPerIteration"] = 4096;
  F.Evidence["loopInvariant"] = true;
  Cost C;
  C.Matched = true;
  C.Calls = 100;
  C.MeasuredNs = 35200000;
  C.GpuShare = 0.28;
  C.WallShare = 0.03;
  C.SavingNs = 34800000;
  C.Method = "a loop-invariant copy done 100 times saves 99/100 of its time";
  F.Ranking = C;
  return F;
}

/// launch-grid-truncation at 6:8 (after the tab) with a fix-it, not matched.
inline Finding gridFinding(const std::string &File) {
  Finding F;
  F.CheckId = "launch-grid-truncation";
  F.Message = "grid of n / 256 blocks drops the last n % 256 elements when n is not a "
              "multiple of 256; round up";
  F.Loc = at(File, SeedSource, 6, 8);
  F.Range = range(File, SeedSource, 6, 8, 15);
  F.Fixes.push_back({F.Range, "(n + 255) / 256"});
  F.Keys.Kernels.push_back("_Z3addPfi");
  F.Evidence["dimension"] = 0;
  F.Ranking = Cost(); // Ranked run, not seen in the profile.
  return F;
}

/// A runtime finding: no source location at all.
inline Finding runtimeFinding() {
  Finding F;
  F.CheckId = "runtime-pageable-copy";
  F.Message = "100 host-to-device copies of 4 MiB from pageable memory";
  F.Keys.Api = "cudaMemcpy";
  F.Keys.Kernels.push_back("_Z5scalePfii");
  F.Evidence["copies"] = 100;
  Cost C;
  C.Matched = true;
  C.Calls = 100;
  C.MeasuredNs = 300000000;
  C.GpuShare = 0.73;
  C.SavingNs = 255200000;
  C.Method = "pinned copies at the device's measured bandwidth";
  F.Ranking = C;
  return F;
}

inline RunSummary seedSummary() {
  RunSummary S;
  S.Profiles.push_back("/nonexistent/run.json");
  S.WallNs = 1200000000;
  S.GpuBusyNs = 412000000;
  S.KernelBusyNs = 100000000;   // 23 ms of it under copies:
  S.TransferBusyNs = 335000000; // 100 + 335 - 412.
  S.RankedFindings = 2;
  S.TotalSavingNs = 290000000;
  return S;
}

inline std::vector<CheckInfo> seedChecks() {
  return {{"transfer-in-loop", "host<->device copies executed on every iteration of a host loop",
           Severity::Warning, false},
          {"launch-grid-truncation", "grids computed as n / threads", Severity::Warning, false},
          {"runtime-pageable-copy", "copies from pageable host memory", Severity::Warning, true}};
}

template <typename Emit>
std::string render(Emit E, llvm::ArrayRef<Finding> Findings, const ReportContext &Ctx) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  E(OS, Findings, Ctx);
  OS.flush();
  return S;
}

} // namespace cuda_advisor::report::test

#endif
