#include "cuda-advisor/Frontend/HostDeviceRedeclarations.h"

#include "gtest/gtest.h"

#include <string>

using namespace cuda_advisor::frontend;

namespace {

/// The text with the attributes inserted before the definition whose name
/// is the first occurrence of Name after the first occurrence of After.
std::string insertBefore(const std::string &Text, const std::string &Name,
                         const std::string &After = "") {
  size_t From = After.empty() ? 0 : Text.find(After) + After.size();
  size_t At = Text.find(Name, From);
  EXPECT_NE(At, std::string::npos);
  return insertHostDevice(Text, {hostDeviceInsertionPoint(Text, At)});
}

TEST(HostDeviceRedeclarations, ConstructorAtLineStart) {
  EXPECT_EQ(insertBefore("Float3::Float3() {}\n", "Float3", "::"),
            "__host__ __device__ Float3::Float3() {}\n");
}

TEST(HostDeviceRedeclarations, AfterTheReturnType) {
  EXPECT_EQ(insertBefore("float Float3::dot(const Float3 &o) const {", "dot"),
            "float __host__ __device__ Float3::dot(const Float3 &o) const {");
  EXPECT_EQ(insertBefore("inline Vec\nVec::operator+(Vec o) const {", "operator"),
            "inline Vec\n__host__ __device__ Vec::operator+(Vec o) const {");
}

TEST(HostDeviceRedeclarations, NestedAndTemplateQualifiers) {
  EXPECT_EQ(insertBefore("template <class T> T Box<T, Pair<T>>::Inner::get() {", "get"),
            "template <class T> T __host__ __device__ Box<T, Pair<T>>::Inner::get() {");
  EXPECT_EQ(insertBefore("Outer::Inner:: ~Inner() {}", "Inner", "~"),
            "__host__ __device__ Outer::Inner:: ~Inner() {}");
}

TEST(HostDeviceRedeclarations, UnqualifiedName) {
  EXPECT_EQ(insertBefore("static float add(float a, float b) {", "add"),
            "static float __host__ __device__ add(float a, float b) {");
  // The global namespace's `::f`.
  EXPECT_EQ(insertBefore("void ::f() {}", "f()"), "void __host__ __device__ ::f() {}");
}

TEST(HostDeviceRedeclarations, ComparisonIsNoTemplate) {
  // A '>' before `::` whose '<' is not found before the statement's start:
  // no template arguments, the qualified name starts at the name.
  std::string T = "x > y; }\nint N>::f() {";
  EXPECT_EQ(insertBefore(T, "f()"), "x > y; }\nint N>::__host__ __device__ f() {");
}

TEST(HostDeviceRedeclarations, SeveralInsertionsKeepTheRest) {
  std::string T = "A::A() {}\nA::~A() {}\n";
  size_t First = hostDeviceInsertionPoint(T, T.find("A()"));
  size_t Second = hostDeviceInsertionPoint(T, T.find("~A") + 1);
  EXPECT_EQ(insertHostDevice(T, {Second, First, First, T.size() + 5}),
            "__host__ __device__ A::A() {}\n__host__ __device__ A::~A() {}\n");
}

} // namespace
