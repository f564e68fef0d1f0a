//===- NcuReaderTest.cpp - Nsight Compute CSV -----------------------------===//
//
// On the real `ncu --csv --page raw` files of the transpose examples
// (test/Inputs/profiles/, recorded on the H200 with ncu 2025.3), on a
// `--page details` table in the shape ncu prints it, and on files cut from
// the real ones.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Profile/Reader.h"

#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace cuda_advisor;
using namespace cuda_advisor::profile;

namespace {

const char *const Naive = CUDA_ADVISOR_TEST_INPUTS "/profiles/access-uncoalesced.bad.ncu.csv";
const char *const Conflicted =
    CUDA_ADVISOR_TEST_INPUTS "/profiles/access-shared-bank-conflict.bad.ncu.csv";

std::optional<std::string> readFile(const char *Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return std::nullopt;
  return (*Buf)->getBuffer().str();
}

std::string errorOf(llvm::Expected<Profile> P) {
  if (P)
    return "";
  return llvm::toString(P.takeError());
}

TEST(NcuReaderTest, RawPageOfTheNaiveTranspose) {
  if (!readFile(Naive))
    GTEST_SKIP() << "the ncu recordings are not in test/Inputs/profiles";
  llvm::Expected<Profile> P = readProfile(Naive);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Processes.size(), 1u);
  EXPECT_EQ(P->Processes[0].Format, "ncu-csv");
  EXPECT_EQ(P->Processes[0].Pid, 1931u);
  EXPECT_EQ(P->Processes[0].Command, "access-uncoalesced");
  ASSERT_EQ(P->Metrics.size(), 1u);
  const KernelMetrics &M = P->Metrics[0];
  EXPECT_EQ(M.Name, "transpose_naive(const float *, float *, int, int)");
  EXPECT_EQ(M.Block, (std::array<uint32_t, 3>{{32, 8, 1}}));
  EXPECT_EQ(M.Grid, (std::array<uint32_t, 3>{{128, 512, 1}}));
  EXPECT_EQ(M.ComputeMajor, 9);
  EXPECT_EQ(M.ComputeMinor, 0);
  EXPECT_EQ(M.Stream, 7u);
  EXPECT_EQ(M.DurationNs, 251328u);
  EXPECT_EQ(M.RegistersPerThread, 16u);
  ASSERT_TRUE(M.GlobalLoadEfficiencyPct && M.GlobalStoreEfficiencyPct);
  EXPECT_DOUBLE_EQ(*M.GlobalLoadEfficiencyPct, 100);
  EXPECT_DOUBLE_EQ(*M.GlobalStoreEfficiencyPct, 12.5);
  ASSERT_TRUE(M.SectorsPerRequestStore);
  EXPECT_DOUBLE_EQ(*M.SectorsPerRequestStore, 32);
  ASSERT_TRUE(M.TheoreticalOccupancyPct && M.AchievedOccupancyPct);
  EXPECT_DOUBLE_EQ(*M.TheoreticalOccupancyPct, 100);
  EXPECT_NEAR(*M.AchievedOccupancyPct, 73.06, 1e-9);
  // Thousands separators.
  EXPECT_DOUBLE_EQ(M.Values.at("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 16777216);
  EXPECT_DOUBLE_EQ(M.Values.at("device__attribute_clock_rate"), 1980000);
}

TEST(NcuReaderTest, RawPageOfTheConflictedTranspose) {
  if (!readFile(Conflicted))
    GTEST_SKIP() << "the ncu recordings are not in test/Inputs/profiles";
  llvm::Expected<Profile> P = readProfile(Conflicted);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Metrics.size(), 1u);
  const KernelMetrics &M = P->Metrics[0];
  EXPECT_EQ(M.Name, "transpose_smem_conflicted(const float *, float *, int, int)");
  ASSERT_TRUE(M.SharedWavefrontsLoad && M.SharedBankConflictsLoad);
  EXPECT_DOUBLE_EQ(*M.SharedWavefrontsLoad, 16946855);
  EXPECT_DOUBLE_EQ(*M.SharedBankConflictsLoad, 16422567);
  EXPECT_EQ(M.StaticSharedMem, 4096u);
  EXPECT_EQ(M.DynamicSharedMem, 0u);
}

TEST(NcuReaderTest, CutAndForeignFiles) {
  std::optional<std::string> Text = readFile(Naive);
  if (!Text)
    GTEST_SKIP() << "the ncu recordings are not in test/Inputs/profiles";
  // Cut inside the data row: a quoted field never closes, or a short row.
  std::string Cut = Text->substr(0, Text->size() - 500);
  std::string E = errorOf(readNcuCsv("cut.csv", Cut));
  EXPECT_NE(E.find("cut.csv: "), std::string::npos) << E;
  EXPECT_TRUE(E.find("truncated") != std::string::npos) << E;
  // Cut after the units row: a header without kernels.
  size_t Units = Text->find("\n\"\",");
  ASSERT_NE(Units, std::string::npos);
  size_t EndOfUnits = Text->find('\n', Units + 1);
  E = errorOf(readNcuCsv("header.csv", Text->substr(0, EndOfUnits + 1)));
  EXPECT_NE(E.find("without any kernel row"), std::string::npos) << E;
  // Only ncu's log: no --csv.
  E = errorOf(readNcuCsv("log.txt", "==PROF== Connected to process 12 (/bin/app)\n"
                                    "==WARNING== No kernels were profiled.\n"));
  EXPECT_NE(E.find("without a CSV table"), std::string::npos) << E;
  EXPECT_NE(E.find("No kernels were profiled"), std::string::npos) << E;
  // Another CSV.
  E = errorOf(readNcuCsv("other.csv", "\"name\",\"value\"\n\"a\",\"1\"\n"));
  EXPECT_NE(E.find("not Nsight Compute output"), std::string::npos) << E;
  EXPECT_EQ(detectFormat("\"name\",\"value\"\n\"a\",\"1\"\n"), Format::Unknown);
  EXPECT_EQ(detectFormat(llvm::StringRef(*Text).take_front(4096)), Format::NcuCsv);
}

// --page details: one row per metric; the program's own output comes before
// the table on ncu's stdout.
TEST(NcuReaderTest, DetailsPage) {
  const char *Details =
      "bad: 12.5 ms\n"
      "==PROF== Connected to process 4242 (/work/app)\n"
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
      "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\","
      "\"Metric Unit\",\"Metric Value\",\"Rule Name\",\"Rule Type\",\"Rule Description\","
      "\"Estimated Speedup Type\",\"Estimated Speedup\"\n"
      "\"0\",\"4242\",\"app\",\"127.0.0.1\",\"void k<32>(float *, int)\",\"1\",\"7\","
      "\"(256, 1, 1)\",\"(4096, 1, 1)\",\"0\",\"9.0\",\"GPU Speed Of Light Throughput\","
      "\"Duration\",\"usecond\",\"62.37\",\"\",\"\",\"\",\"\",\"\"\n"
      "\"0\",\"4242\",\"app\",\"127.0.0.1\",\"void k<32>(float *, int)\",\"1\",\"7\","
      "\"(256, 1, 1)\",\"(4096, 1, 1)\",\"0\",\"9.0\",\"Occupancy\",\"Theoretical Occupancy\","
      "\"%\",\"50\",\"\",\"\",\"\",\"\",\"\"\n"
      "\"0\",\"4242\",\"app\",\"127.0.0.1\",\"void k<32>(float *, int)\",\"1\",\"7\","
      "\"(256, 1, 1)\",\"(4096, 1, 1)\",\"0\",\"9.0\",\"Launch Statistics\",\"Registers Per "
      "Thread\",\"register/thread\",\"128\",\"\",\"\",\"\",\"\",\"\"\n"
      "\"0\",\"4242\",\"app\",\"127.0.0.1\",\"void k<32>(float *, int)\",\"1\",\"7\","
      "\"(256, 1, 1)\",\"(4096, 1, 1)\",\"0\",\"9.0\",\"Launch Statistics\",\"\",\"\",\"\","
      "\"LaunchConfiguration\",\"WRN\",\"A \"\"quoted\"\" hint, with a comma\",\"global\",\"12.5\"\n"
      "\"1\",\"4242\",\"app\",\"127.0.0.1\",\"void k<32>(float *, int)\",\"1\",\"7\","
      "\"(256, 1, 1)\",\"(4096, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\","
      "\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\",\"sector\",\"1,048,576\",\"\",\"\",\"\","
      "\"\",\"\"\n"
      "\"1\",\"4242\",\"app\",\"127.0.0.1\",\"void k<32>(float *, int)\",\"1\",\"7\","
      "\"(256, 1, 1)\",\"(4096, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\","
      "\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\",\"\",\"32,768\",\"\",\"\",\"\",\"\","
      "\"\"\n";
  llvm::Expected<Profile> P = readNcuCsv("details.csv", Details);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(detectFormat(Details), Format::NcuCsv);
  ASSERT_EQ(P->Metrics.size(), 2u);
  const KernelMetrics &A = P->Metrics[0];
  EXPECT_EQ(A.Name, "void k<32>(float *, int)");
  EXPECT_EQ(A.LaunchId, 0u);
  EXPECT_EQ(A.DurationNs, 62370u);
  EXPECT_EQ(A.RegistersPerThread, 128u);
  ASSERT_TRUE(A.TheoreticalOccupancyPct);
  EXPECT_DOUBLE_EQ(*A.TheoreticalOccupancyPct, 50);
  const KernelMetrics &B = P->Metrics[1];
  EXPECT_EQ(B.LaunchId, 1u);
  ASSERT_TRUE(B.SectorsPerRequestLoad); // From the two sums.
  EXPECT_DOUBLE_EQ(*B.SectorsPerRequestLoad, 32);
}

} // namespace
