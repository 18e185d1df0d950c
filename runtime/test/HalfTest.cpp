//===- HalfTest.cpp - f16/bf16 conversion and the relative error ----------===//
//
// No GPU needed: exact values, round to nearest even at the halfway points,
// subnormals, overflow to infinity, NaN; and RelativeError's sums.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Half.h"
#include "tile/runtime/RelativeError.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tile::rt;

namespace {

TEST(Half, ExactValuesRoundTrip) {
  for (float f : {0.0f, 1.0f, -2.0f, 0.5f, 65504.0f, 1.0f / 1024})
    EXPECT_EQ(halfToFloat(floatToHalf(f)), f) << f;
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  // Every f16 bit pattern that is not NaN survives float and back.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    if ((bits & 0x7c00) == 0x7c00 && (bits & 0x3ff))
      continue;
    EXPECT_EQ(floatToHalf(halfToFloat(uint16_t(bits))), bits) << bits;
  }
}

TEST(Half, RoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and the next f16: even (1) wins;
  // 1 + 3 * 2^-11 is halfway between two f16s: the even upper one wins.
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(floatToHalf(1.0f + 1.5f * std::ldexp(1.0f, -11)), 0x3c01);
  // Subnormals: 2^-24 is the smallest; half of it rounds to zero (even).
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -25)), 0x0002);
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
}

TEST(Half, OverflowInfinityAndNan) {
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // rounds up past the largest
  EXPECT_EQ(floatToHalf(1e9f), 0x7c00);
  EXPECT_EQ(floatToHalf(-std::numeric_limits<float>::infinity()), 0xfc00);
  EXPECT_TRUE(std::isnan(
      halfToFloat(floatToHalf(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_TRUE(std::isinf(halfToFloat(0x7c00)));
}

TEST(Bf16, RoundsToNearestEven) {
  EXPECT_EQ(floatToBf16(1.0f), 0x3f80);
  EXPECT_EQ(bf16ToFloat(0x3f80), 1.0f);
  EXPECT_EQ(bf16ToFloat(floatToBf16(-3.5f)), -3.5f);
  // 1 + 2^-8 is halfway: even (1) wins; 1 + 3 * 2^-8: the upper even wins.
  EXPECT_EQ(floatToBf16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_EQ(floatToBf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
  EXPECT_EQ(lowToFloat(floatToLow(2.0f, /*bf16=*/true), true), 2.0f);
  EXPECT_EQ(lowToFloat(floatToLow(2.0f, /*bf16=*/false), false), 2.0f);
}

TEST(RelativeError, NormOfTheDifference) {
  RelativeError error;
  error.add(3.0, 4.0); // diff 1, norm 16
  error.add(0.0, 0.0);
  RelativeError part;
  part.add(3.0, 3.0); // norm 9
  error.add(part);
  EXPECT_DOUBLE_EQ(error.value(), 1.0 / 5.0);
  EXPECT_TRUE(error.finite);
  error.add(std::nan(""), 1.0);
  EXPECT_FALSE(error.finite);
}

} // namespace
