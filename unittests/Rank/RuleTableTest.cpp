//===- RuleTableTest.cpp - The runtime rule table and its documentation ---===//
//
// Every runtime rule in the table has a page in docs/checks, and every option
// the table declares for it is in that page's options table with the same
// default: a renamed option or a changed default fails here, not in a user's
// configuration file.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Rank/Rank.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <cstdio>
#include <set>

using namespace cuda_advisor;

namespace {

std::string page(llvm::StringRef Rule) {
  std::string Path = std::string(CUDA_ADVISOR_SOURCE_DIR) + "/docs/checks/" + Rule.str() + ".md";
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

TEST(RuleTableTest, EveryRuleAndOptionIsDocumented) {
  std::set<std::string> Rules;
  for (const CheckInfo &C : rank::runtimeRules()) {
    EXPECT_TRUE(C.Runtime) << C.Id;
    EXPECT_FALSE(page(C.Id).empty()) << "docs/checks/" << C.Id << ".md is missing";
    Rules.insert(C.Id);
  }
  size_t Checked = 0;
  for (const rank::RuleOption &O : rank::runtimeRuleOptions()) {
    ASSERT_TRUE(Rules.count(O.Rule)) << O.Rule;
    std::string Text = page(O.Rule);
    char Default[32];
    std::snprintf(Default, sizeof(Default), "%.10g", O.Default);
    std::string Row = "| `" + O.Name + "` | " + Default + " |";
    EXPECT_NE(Text.find(Row), std::string::npos)
        << "docs/checks/" << O.Rule << ".md has no options row '" << Row << "'";
    EXPECT_EQ(rank::ruleOptionDefault(O.Rule, O.Name), O.Default);
    ++Checked;
  }
  // Every rule has at least the two shared options.
  EXPECT_GE(Checked, 2 * Rules.size());
}

} // namespace
