#include "cuda-advisor/Analysis/AffineForm.h"
#include "cuda-advisor/Analysis/KernelSummary.h"
#include "gtest/gtest.h"

using namespace cuda_advisor::analysis;

namespace {

const Symbol TX = Symbol::threadIdx(0);
const Symbol TY = Symbol::threadIdx(1);
const Symbol BX = Symbol::builtin(SymbolKind::BlockIdx, 0);
const Symbol DX = Symbol::builtin(SymbolKind::BlockDim, 0);

AffineForm sym(const Symbol &S) { return AffineForm::symbol(S); }
AffineForm c(int64_t V) { return AffineForm::constant(V); }

TEST(AffineFormTest, Arithmetic) {
  AffineForm F = (sym(TX) + c(2)) * c(3);
  EXPECT_EQ(F.coefficientOf(TX).asConstant(), 3);
  EXPECT_EQ(F.constantTerm(), 6);
  EXPECT_FALSE(F.isUniform());
  EXPECT_TRUE((sym(BX) * sym(DX)).isUniform());
  EXPECT_EQ((F - F).asConstant(), 0);
  EXPECT_TRUE((F - F).isZero());
}

TEST(AffineFormTest, TwoThreadTermsAreNotAffine) {
  EXPECT_TRUE((sym(TX) * sym(TX)).isUnknown());
  EXPECT_TRUE((sym(TX) * sym(TY)).isUnknown());
  EXPECT_FALSE((sym(TX) * sym(BX)).isUnknown());
  // Unknown is contagious and never equal to anything.
  AffineForm U = AffineForm::unknown() + c(1);
  EXPECT_TRUE(U.isUnknown());
  EXPECT_FALSE(U == U);
}

TEST(AffineFormTest, SymbolicCoefficient) {
  // 4 * (blockIdx.x * blockDim.x + threadIdx.x) * blockDim.x: the lane
  // stride is 4 * blockDim.x.
  AffineForm Index = sym(BX) * sym(DX) + sym(TX);
  AffineForm Bytes = (Index * sym(DX)).scaled(4);
  AffineForm Stride = laneStride(Bytes);
  EXPECT_FALSE(Stride.asConstant());
  EXPECT_EQ(Stride, sym(DX).scaled(4));
  EXPECT_EQ(Stride.content(), 4);
}

TEST(AffineFormTest, ExactDivision) {
  AffineForm F = sym(TX).scaled(8) + c(16);
  ASSERT_TRUE(F.dividedExactly(8));
  EXPECT_EQ(*F.dividedExactly(8), sym(TX) + c(2));
  EXPECT_FALSE(F.dividedExactly(3));
  EXPECT_FALSE(AffineForm::unknown().dividedExactly(2));
}

TEST(AffineFormTest, OverflowIsUnknown) {
  AffineForm F = c(int64_t(1) << 62).scaled(4);
  EXPECT_TRUE(F.isUnknown());
}

TEST(AffineFormTest, WithoutAndCoefficient) {
  AffineForm F = sym(TX).scaled(4) + sym(TY).scaled(128) + c(8);
  EXPECT_EQ(F.without(TX), sym(TY).scaled(128) + c(8));
  EXPECT_EQ(F.coefficientOf(TY).asConstant(), 128);
  EXPECT_EQ(F.withoutConstant(), sym(TX).scaled(4) + sym(TY).scaled(128));
  EXPECT_TRUE(F.coefficientOf(BX).isZero());
}

TEST(SectorsTest, PerWarp) {
  EXPECT_EQ(sectorsPerWarp(4, 4), 4u);     // Coalesced floats: 128 bytes.
  EXPECT_EQ(sectorsPerWarp(8, 4), 8u);     // Every other float: 50% used.
  EXPECT_EQ(sectorsPerWarp(12, 4), 12u);   // float3 AoS, one field.
  EXPECT_EQ(sectorsPerWarp(128, 4), 32u);  // One sector per lane.
  EXPECT_EQ(sectorsPerWarp(-4, 4), 4u);    // Reversed.
  EXPECT_EQ(sectorsPerWarp(0, 4), 1u);     // Broadcast.
  EXPECT_EQ(sectorsPerWarp(8, 8), 8u);     // Coalesced doubles: 256 bytes.
  EXPECT_EQ(sectorsPerWarp(16, 16), 16u);  // float4.
}

TEST(BankConflictTest, FourByteWords) {
  EXPECT_EQ(bankConflict(4, 0, 32, 4).Degree, 1u);    // tile[ty][tx]
  EXPECT_EQ(bankConflict(128, 0, 32, 4).Degree, 32u); // tile[tx][ty] on [32][32]
  EXPECT_EQ(bankConflict(132, 0, 32, 4).Degree, 1u);  // padded [32][33]
  EXPECT_EQ(bankConflict(8, 0, 32, 4).Degree, 2u);    // stride 2 words
  EXPECT_EQ(bankConflict(64, 0, 32, 4).Degree, 16u);  // stride 16 words
  EXPECT_EQ(bankConflict(12, 0, 32, 4).Degree, 1u);   // odd stride: conflict-free
  EXPECT_EQ(bankConflict(0, 0, 32, 4).Degree, 1u);    // broadcast
  BankConflict Full = bankConflict(128, 0, 32, 4);
  EXPECT_EQ(Full.Wavefronts, 32u);
  EXPECT_EQ(Full.Ideal, 1u);
}

TEST(BankConflictTest, NarrowAndWideElements) {
  // Bytes: four lanes share a word, which is a multicast, not a conflict.
  EXPECT_EQ(bankConflict(1, 0, 32, 1).Degree, 1u);
  EXPECT_EQ(bankConflict(2, 0, 32, 2).Degree, 1u);
  // 8-byte accesses are served per half-warp: unit-stride doubles are
  // conflict-free, stride-2 doubles 2-way.
  EXPECT_EQ(bankConflict(8, 0, 32, 8).Degree, 1u);
  EXPECT_EQ(bankConflict(8, 0, 32, 8).Ideal, 2u);
  EXPECT_EQ(bankConflict(16, 0, 32, 8).Degree, 2u);
  EXPECT_EQ(bankConflict(256, 0, 32, 8).Degree, 16u); // double tile[32][32], column
  EXPECT_EQ(bankConflict(264, 0, 32, 8).Degree, 1u);  // double tile[32][33]
  // 16-byte accesses per quarter-warp.
  EXPECT_EQ(bankConflict(16, 0, 32, 16).Degree, 1u);
  EXPECT_EQ(bankConflict(32, 0, 32, 16).Degree, 2u);
}

TEST(BankConflictTest, NarrowBlocks) {
  // A 16x16 block: a warp is two rows of 16 threads. Bs[tx][ty] on [16][16]:
  // lanes 0-15 hit banks 0 and 16, lanes 16-31 banks 1 and 17: 8-way.
  EXPECT_EQ(bankConflict(64, 4, 16, 4).Degree, 8u);
  // As[ty][tx] on [16][16]: the two rows fill all 32 banks.
  EXPECT_EQ(bankConflict(4, 64, 16, 4).Degree, 1u);
  // Rows of 81 words: lane 0 (word 0) and lane 31 (word 15 * 81 + 1) share
  // bank 0 when the second row runs, not when only the first one does.
  EXPECT_EQ(bankConflict(324, 4, 16, 4).Degree, 2u);
  EXPECT_EQ(bankConflict(324, 4, 16, 4, /*ActiveLanes=*/16).Degree, 1u);
}

TEST(BankConflictTest, SwitchedOffLanesNeedNoWavefronts) {
  // float4 by 16 lanes: two quarter-warps, not four, even without conflicts.
  BankConflict Half = bankConflict(16, 0, 16, 16, /*ActiveLanes=*/16);
  EXPECT_EQ(Half.Wavefronts, 2u);
  EXPECT_EQ(Half.Ideal, 2u);
  BankConflict Whole = bankConflict(16, 256, 16, 16);
  EXPECT_EQ(Whole.Wavefronts, 4u);
  EXPECT_EQ(Whole.Ideal, 4u);
  // Stride two float4: lanes 0 and 4 of a quarter-warp share bank 0.
  BankConflict Strided = bankConflict(32, 0, 16, 16, /*ActiveLanes=*/16);
  EXPECT_EQ(Strided.Degree, 2u);
  EXPECT_EQ(Strided.Wavefronts, 4u);
  EXPECT_EQ(Strided.Ideal, 2u);
  // A single lane: one wavefront, whatever the width.
  EXPECT_EQ(bankConflict(8, 0, 32, 8, /*ActiveLanes=*/1).Ideal, 1u);
}

} // namespace
