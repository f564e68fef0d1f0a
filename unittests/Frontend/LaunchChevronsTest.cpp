#include "cuda-advisor/Frontend/LaunchChevrons.h"

#include "gtest/gtest.h"

using cuda_advisor::frontend::normalizeLaunchChevrons;

namespace {

TEST(LaunchChevrons, JoinsVisualStudioSpelling) {
  auto R = normalizeLaunchChevrons("addKernel << <1, size >> > (dev_c, dev_a);");
  ASSERT_TRUE(R);
  EXPECT_EQ(*R, "addKernel <<< 1, size >>>  (dev_c, dev_a);");
}

TEST(LaunchChevrons, KeepsLengthAndOtherBytes) {
  std::string In = "int main() {\n\tk << < (n + 255) / 256, 256 >> > (p);\n\treturn 0; }\n";
  auto R = normalizeLaunchChevrons(In);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->size(), In.size());
  EXPECT_EQ(*R, "int main() {\n\tk <<<  (n + 255) / 256, 256 >>>  (p);\n\treturn 0; }\n");
}

TEST(LaunchChevrons, SeveralLaunches) {
  auto R = normalizeLaunchChevrons("a << <g, b >> > (x);\nb << <g, b, 0, s >> > (y);\n");
  ASSERT_TRUE(R);
  EXPECT_EQ(*R, "a <<< g, b >>>  (x);\nb <<< g, b, 0, s >>>  (y);\n");
}

TEST(LaunchChevrons, OpeningSpacedClosingJoined) {
  auto R = normalizeLaunchChevrons("k << <g, b>>>(x);");
  ASSERT_TRUE(R);
  EXPECT_EQ(*R, "k <<< g, b>>>(x);");
}

// Look-alikes that are valid C++ or not launches: left alone.
TEST(LaunchChevrons, LeavesValidCodeAlone) {
  EXPECT_FALSE(normalizeLaunchChevrons("k<<<g, b>>>(x);"));
  EXPECT_FALSE(normalizeLaunchChevrons("std::cout << x << std::endl;"));
  EXPECT_FALSE(normalizeLaunchChevrons("std::vector<std::vector<int>> v; a >> > b;"));
  EXPECT_FALSE(normalizeLaunchChevrons("friend std::ostream &operator<< <>(std::ostream &, const X<T> &);"));
  EXPECT_FALSE(normalizeLaunchChevrons("friend std::ostream &operator << <T>(std::ostream &, X<T>);"));
  // An opening without a closing in its statement.
  EXPECT_FALSE(normalizeLaunchChevrons("x << <y; z >> > w;"));
  EXPECT_FALSE(normalizeLaunchChevrons(""));
}

} // namespace
