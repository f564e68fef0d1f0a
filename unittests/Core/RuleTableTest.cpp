//===- RuleTableTest.cpp - Rules.def against its docs, tests and index ----===//
//
// Every entry of Rules.def has a page in docs/checks, with every option the
// table declares for it in the page's options table at the same default; a
// test that names it (lit, or a unit test of the ranking); and its row in docs/README.md's index, which is
// the tool's own `--list-checks --format markdown`. A renamed option, a
// changed default, a missing page or test fails here, not in a user's
// configuration file. (A missing estimator or rule method does not compile:
// CostModel.cpp and RuntimeRules.cpp expand the same table.)
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Core/Evidence.h"
#include "cuda-advisor/Core/RuleTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <set>

using namespace cuda_advisor;

namespace {

std::string readFile(const llvm::Twine &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

std::string source(llvm::StringRef Rel) {
  return readFile(llvm::Twine(CUDA_ADVISOR_SOURCE_DIR) + "/" + Rel);
}

std::string page(llvm::StringRef Id) { return source(("docs/checks/" + Id + ".md").str()); }

TEST(RuleTableTest, EveryEntryAndOptionIsDocumented) {
  std::set<std::string> Ids;
  for (const CheckInfo &C : allRules()) {
    EXPECT_FALSE(page(C.Id).empty()) << "docs/checks/" << C.Id << ".md is missing";
    EXPECT_TRUE(Ids.insert(C.Id).second) << C.Id << " is declared twice";
  }
  EXPECT_EQ(allRules().size(), staticChecks().size() + runtimeRules().size());
  size_t Checked = 0;
  for (const OptionInfo &O : allOptions()) {
    ASSERT_TRUE(Ids.count(O.Rule)) << O.Rule;
    std::string Row = "| `" + O.Name + "` | " + formatOptionValue(O.Type, O.Default) + " |";
    EXPECT_NE(page(O.Rule).find(Row), std::string::npos)
        << "docs/checks/" << O.Rule << ".md has no options row '" << Row << "'";
    EXPECT_EQ(optionDefault(O.Rule, O.Name), O.Default);
    ++Checked;
  }
  // Every runtime rule has at least the two shared options.
  EXPECT_GE(Checked, 2 * runtimeRules().size());
}

TEST(RuleTableTest, ConfiguredValuesWinOverDefaults) {
  CheckOptions Opts;
  Opts.set("launch-block-size", "MinThreads", "96");
  EXPECT_EQ(intOption(Opts, "launch-block-size", "MinThreads"), 96);
  EXPECT_EQ(intOption(Opts, "launch-block-size", "MaxBlocksPerSM"), 32);
  EXPECT_DOUBLE_EQ(doubleOption(Opts, "runtime-gpu-idle-gaps", "MinSavingShare"), 0.01);
  CheckOptions All = withDefaults(Opts);
  EXPECT_EQ(All.get("launch-block-size", "MinThreads", ""), "96");
  EXPECT_EQ(All.get("runtime-low-occupancy", "MaxOccupancy", ""), "0.5");
  EXPECT_EQ(All.all().size(), allOptions().size());
}

TEST(RuleTableTest, UndeclaredOptionStopsTheProgram) {
  EXPECT_DEATH(optionDefault("launch-block-size", "NoSuchOption"), "does not declare");
}

/// Every test file under Dir (test/ less its inputs, or unittests/Rank).
std::string allTests(llvm::StringRef Dir) {
  std::string All;
  std::error_code EC;
  std::string Root = std::string(CUDA_ADVISOR_SOURCE_DIR) + "/" + Dir.str();
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef P = It->path();
    if (P.contains("/Inputs/") || P.ends_with("/Inputs")) {
      It.no_push();
      continue;
    }
    llvm::StringRef Ext = llvm::sys::path::extension(P);
    if (Ext == ".test" || Ext == ".cu" || Ext == ".cpp" || Ext == ".py")
      All += readFile(P);
  }
  return All;
}

TEST(RuleTableTest, EveryEntryHasATest) {
  // Lit tests over the examples and recordings; a rule no recording
  // triggers (runtime-low-occupancy) has its test on a hand-built profile
  // in unittests/Rank.
  std::string Tests = allTests("test") + allTests("unittests/Rank");
  ASSERT_FALSE(Tests.empty());
  for (const CheckInfo &C : allRules()) {
    if (!C.Runtime)
      EXPECT_FALSE(source("test/checks/" + C.Id + ".cu").empty())
          << "test/checks/" << C.Id << ".cu is missing";
    // Text and JSON outputs name the id as [id] or "check": "id".
    bool Named = Tests.find("[" + C.Id + "]") != std::string::npos ||
                 Tests.find("\"" + C.Id + "\"") != std::string::npos;
    EXPECT_TRUE(Named) << "no test checks a finding of " << C.Id;
  }
}

TEST(RuleTableTest, DocsIndexIsTheGeneratedOne) {
  std::string Readme = source("docs/README.md");
  llvm::StringRef Begin = "<!-- checks-index: cuda-advisor --list-checks --format markdown -->\n";
  size_t B = Readme.find(Begin.str());
  ASSERT_NE(B, std::string::npos) << "docs/README.md lost its index marker";
  B += Begin.size();
  size_t E = Readme.find("<!-- end of checks-index -->", B);
  ASSERT_NE(E, std::string::npos);
  EXPECT_EQ(Readme.substr(B, E - B), checksIndexMarkdown(GlobList("*")))
      << "regenerate docs/README.md's index: cuda-advisor --list-checks --format markdown";
}

TEST(RuleTableTest, EvidenceKeysAreTyped) {
  Finding F;
  setEvidence(F, evidence::LoopInvariant, true);
  setEvidence(F, evidence::SectorUseFraction, 0.125);
  setEvidence(F, evidence::Threads, 256);
  setEvidence(F, evidence::Api, llvm::StringRef("cudaMemcpy"));
  setEvidenceUnknown(F, evidence::StrideBytes);
  EXPECT_EQ(getEvidence(F, evidence::LoopInvariant), std::optional<bool>(true));
  EXPECT_EQ(getEvidence(F, evidence::SectorUseFraction), std::optional<double>(0.125));
  EXPECT_EQ(getEvidence(F, evidence::Threads), std::optional<int64_t>(256));
  EXPECT_EQ(getEvidence(F, evidence::Api), std::optional<std::string>("cudaMemcpy"));
  // Null is "not known": present, without a value.
  EXPECT_TRUE(hasEvidence(F, evidence::StrideBytes));
  EXPECT_FALSE(getEvidence(F, evidence::StrideBytes));
  EXPECT_FALSE(hasEvidence(F, evidence::BlockY));
  // A whole double read back from JSON is an integer: a Double key takes it.
  F.Evidence["sectorUseFraction"] = int64_t(1);
  EXPECT_EQ(getEvidence(F, evidence::SectorUseFraction), std::optional<double>(1.0));
  // Another type is no value.
  F.Evidence["threads"] = "many";
  EXPECT_FALSE(getEvidence(F, evidence::Threads));
}

TEST(RuleTableTest, CoversAndProducesNameDeclaredEntries) {
  std::vector<llvm::StringRef> Covers = coveringChecks("runtime-sync-heavy");
  EXPECT_EQ(Covers, (std::vector<llvm::StringRef>{"sync-in-loop", "sync-redundant"}));
  EXPECT_TRUE(coveringChecks("runtime-tensor-cores-unused").empty());
  EXPECT_TRUE(producesEvidence("transfer-in-loop", "loopInvariant"));
  EXPECT_FALSE(producesEvidence("sync-in-loop", "loopInvariant"));
  // Each static check lists what its findings carry.
  for (const CheckInfo &C : staticChecks())
    EXPECT_FALSE(producedEvidence(C.Id).empty()) << C.Id;
}

} // namespace
