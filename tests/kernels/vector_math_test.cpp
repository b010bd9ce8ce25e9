// SPDX-License-Identifier: MIT
// kernels/common/vector_math.hpp at every instruction set this CPU has: sigmoid, tanh and erf against double
// precision over [-100, 100] and near 0 (the series branches), at array lengths that leave masked tails, plus NaN,
// infinities and in-place use. Bounds: sigmoid/tanh 2 ulp of float (relative), erf 2.5e-7 absolute
// (Abramowitz-Stegun 7.1.26 above |x| = 0.9) and 4e-7 relative below it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "onnxmicro/kernels/common/vector_math.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
namespace vm = onnxmicro::kernels::vector_math;

std::vector<om::Isa> isas_here() {
  om::Isa best = om::Isa::baseline;
  EXPECT_TRUE(om::effective_isa(om::Isa::best, best));
  std::vector<om::Isa> out;
  for (om::Isa isa : {om::Isa::baseline, om::Isa::avx2, om::Isa::avx512})
    if (static_cast<int>(isa) <= static_cast<int>(best)) out.push_back(isa);
  return out;
}

std::vector<float> arguments() {
  std::vector<float> x;
  for (float v = -100.0f; v <= 100.0f; v += 0.0731f) x.push_back(v);
  for (float v = -1.5f; v <= 1.5f; v += 0.000917f) x.push_back(v);
  for (float v = -1e-3f; v <= 1e-3f; v += 1.7e-6f) x.push_back(v);
  x.push_back(0.0f);
  x.push_back(-0.0f);
  x.push_back(4e-39f);  // a denormal
  return x;
}

template <typename F, typename R>
void expect_close(F f, R reference, double rel, double abs) {
  const std::vector<float> x = arguments();
  for (om::Isa isa : isas_here()) {
    for (std::size_t n : {x.size(), x.size() - 5, std::size_t{7}, std::size_t{1}}) {  // masked tails
      std::vector<float> y(n, 123.0f);
      f(isa, x.data(), y.data(), static_cast<std::int64_t>(n));
      for (std::size_t i = 0; i < n; ++i) {
        const double want = reference(static_cast<double>(x[i]));
        ASSERT_NEAR(y[i], want, abs + rel * std::fabs(want)) << "isa " << om::isa_name(isa) << " x " << x[i];
      }
    }
  }
}

constexpr double kUlp = std::numeric_limits<float>::epsilon();

TEST(VectorMath, SigmoidWithinTwoUlp) {
  expect_close(
      vm::sigmoid, [](double v) { return 1.0 / (1.0 + std::exp(-v)); }, 2 * kUlp, 1e-38);
}

TEST(VectorMath, TanhWithinTwoUlp) {
  expect_close(
      vm::tanh, [](double v) { return std::tanh(v); }, 2 * kUlp, 1e-45);
}

TEST(VectorMath, ErfWithinItsBound) {
  expect_close(
      vm::erf, [](double v) { return std::erf(v); }, 4e-7, 2.5e-7);
  // Below |x| = 0.9 the series keeps the relative error small down to the denormals.
  for (om::Isa isa : isas_here()) {
    const float x[] = {1e-30f, -3e-8f, 0.25f, -0.85f};
    float y[4];
    vm::erf(isa, x, y, 4);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(y[i], std::erf(double{x[i]}), 4e-7 * std::fabs(std::erf(double{x[i]})));
  }
}

TEST(VectorMath, NanInfinityAndInPlace) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (om::Isa isa : isas_here()) {
    float v[] = {nan, inf, -inf, 0.5f};
    float s[4], t[4], e[4];
    vm::sigmoid(isa, v, s, 4);
    vm::tanh(isa, v, t, 4);
    vm::erf(isa, v, e, 4);
    EXPECT_TRUE(std::isnan(s[0]) && std::isnan(t[0]) && std::isnan(e[0])) << om::isa_name(isa);
    EXPECT_EQ(s[1], 1.0f);
    EXPECT_NEAR(s[2], 0.0f, 1e-38f);
    EXPECT_EQ(t[1], 1.0f);
    EXPECT_EQ(t[2], -1.0f);
    EXPECT_EQ(e[1], 1.0f);
    EXPECT_EQ(e[2], -1.0f);
    vm::tanh(isa, v, v, 4);  // in place
    EXPECT_FLOAT_EQ(v[3], t[3]);
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
