#include "cuda-advisor/Core/CheckInfo.h"
#include "gtest/gtest.h"

using namespace cuda_advisor;

TEST(GlobListTest, LastMatchWins) {
  GlobList G("-*,transfer-*,-transfer-pageable-async");
  EXPECT_TRUE(G.contains("transfer-in-loop"));
  EXPECT_FALSE(G.contains("transfer-pageable-async"));
  EXPECT_FALSE(G.contains("launch-block-size"));
}

TEST(GlobListTest, StarMatchesEverything) {
  GlobList G("*");
  EXPECT_TRUE(G.contains("sync-in-loop"));
  EXPECT_TRUE(G.contains("runtime-idle-gaps"));
}

TEST(GlobListTest, EmptyAndSpaces) {
  EXPECT_FALSE(GlobList("").contains("transfer-in-loop"));
  GlobList G(" -* , launch-* ");
  EXPECT_TRUE(G.contains("launch-grid-truncation"));
  EXPECT_FALSE(G.contains("kernel-fusion"));
}

TEST(GlobMatchTest, Wildcards) {
  EXPECT_TRUE(globMatch("a*c", "abbbc"));
  EXPECT_TRUE(globMatch("*-in-loop", "sync-in-loop"));
  EXPECT_FALSE(globMatch("a*c", "abbb"));
  EXPECT_TRUE(globMatch("**", ""));
  EXPECT_FALSE(globMatch("sync", "sync-in-loop"));
}
