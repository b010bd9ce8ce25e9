// SPDX-License-Identifier: MIT
// ConvTranspose beyond the ONNX node suite: groups with several channels per group, strides, dilations,
// asymmetric pads and output_padding together; SAME_LOWER; output_shape smaller than the natural size (pads
// from the spec's formula); float64; and the validation messages. Expected values come from a gather-form
// loop written here (each output sums the (input, tap) pairs that land on it), independent of the kernel's
// scatter loop.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult run(int opset, const std::vector<TestTensor>& inputs, const std::vector<ProtoWriter>& attributes) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "ConvTranspose", opset, inputs, attributes);
}

std::vector<double> ramp(int count, double scale) {
  std::vector<double> v(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) v[static_cast<std::size_t>(i)] = scale * ((i * 5) % 9 - 4);
  return v;
}

/// 2-D ConvTranspose by gathering: y[n, m, oh, ow] = B[m] + sum over c in m's group, taps (kh, kw) and input
/// (ih, iw) with ih * sh + kh * dh - ph == oh (same for w) of x * W[c, m % (M / group), kh, kw].
struct Spec {
  std::int64_t n, c, h, w, m, kh, kw, group, sh, sw, dh, dw, ph, pw, oh, ow;
};
std::vector<double> gather(const Spec& s, const std::vector<double>& x, const std::vector<double>& w,
                           const std::vector<double>& b) {
  std::vector<double> y(static_cast<std::size_t>(s.n * s.m * s.oh * s.ow));
  const std::int64_t cg = s.c / s.group, mg = s.m / s.group;
  for (std::int64_t n = 0; n < s.n; ++n)
    for (std::int64_t m = 0; m < s.m; ++m)
      for (std::int64_t oh = 0; oh < s.oh; ++oh)
        for (std::int64_t ow = 0; ow < s.ow; ++ow) {
          double sum = b.empty() ? 0.0 : b[static_cast<std::size_t>(m)];
          for (std::int64_t cl = 0; cl < cg; ++cl) {
            const std::int64_t c = (m / mg) * cg + cl;
            for (std::int64_t kh = 0; kh < s.kh; ++kh)
              for (std::int64_t kw = 0; kw < s.kw; ++kw) {
                const std::int64_t th = oh + s.ph - kh * s.dh, tw = ow + s.pw - kw * s.dw;
                if (th < 0 || tw < 0 || th % s.sh != 0 || tw % s.sw != 0) continue;
                const std::int64_t ih = th / s.sh, iw = tw / s.sw;
                if (ih >= s.h || iw >= s.w) continue;
                sum += x[static_cast<std::size_t>(((n * s.c + c) * s.h + ih) * s.w + iw)] *
                       w[static_cast<std::size_t>(((c * mg + m % mg) * s.kh + kh) * s.kw + kw)];
              }
          }
          y[static_cast<std::size_t>(((n * s.m + m) * s.oh + oh) * s.ow + ow)] = sum;
        }
  return y;
}

void expect_values(const NodeResult& result, const std::vector<double>& expected) {
  ASSERT_TRUE(result.status.ok()) << result.status.message();
  const std::vector<double> y = values_of<double>(result.output);
  ASSERT_EQ(y.size(), expected.size());
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i], 1e-9) << i;
}

TEST(ConvTranspose, GroupsStridesDilationsPadsAndOutputPadding) {
  // in 3x4, k 3x2, stride 2x3, dilation 2x1, pads (1,0) begin (2,1) end, output_padding 1x2:
  // out = 2*2+1+5-3 = 7 by 3*3+2+2-1 = 12.
  const Spec s{2, 4, 3, 4, 6, 3, 2, 2, 2, 3, 2, 1, 1, 0, 7, 12};
  const std::vector<double> x = ramp(2 * 4 * 3 * 4, 0.5), w = ramp(4 * 3 * 3 * 2, 0.25), b = ramp(6, 1.0);
  auto result = run(
      11, {make(Shape{2, 4, 3, 4}, x), make(Shape{4, 3, 3, 2}, w).named("W"), make(Shape{6}, b).named("B")},
      {make_attribute_int("group", 2), make_attribute_ints("strides", {2, 3}), make_attribute_ints("dilations", {2, 1}),
       make_attribute_ints("pads", {1, 0, 2, 1}), make_attribute_ints("output_padding", {1, 2})});
  ASSERT_TRUE(result.status.ok()) << result.status.message();
  EXPECT_EQ(result.output.shape, (Shape{2, 6, 7, 12}));
  expect_values(result, gather(s, x, w, b));
}

TEST(ConvTranspose, SameLowerPutsTheOddPadFirst) {
  // in 1x5, k 1x3, stride 1x2: out = in * stride = 10; the total pad 2*4+3-10 = 1 goes to the beginning.
  const Spec s{1, 1, 1, 5, 1, 1, 3, 1, 1, 2, 1, 1, 0, 1, 1, 10};
  const std::vector<double> x = ramp(5, 1.0), w = ramp(3, 0.5);
  auto result = run(22, {make(Shape{1, 1, 1, 5}, x), make(Shape{1, 1, 1, 3}, w).named("W")},
                    {make_attribute_string("auto_pad", "SAME_LOWER"), make_attribute_ints("strides", {1, 2})});
  ASSERT_TRUE(result.status.ok()) << result.status.message();
  EXPECT_EQ(result.output.shape, (Shape{1, 1, 1, 10}));
  expect_values(result, gather(s, x, w, {}));
}

TEST(ConvTranspose, SmallerOutputShapeCropsBothEnds) {
  // natural size 2*3+3 = 9, requested 6: total pad 3, NOTSET puts 3 - 3//2 = 2 at the beginning.
  const Spec s{1, 1, 1, 4, 1, 1, 3, 1, 1, 2, 1, 1, 0, 2, 1, 6};
  const std::vector<double> x = ramp(4, 1.0), w = ramp(3, 1.0);
  auto result = run(11, {make(Shape{1, 1, 1, 4}, x), make(Shape{1, 1, 1, 3}, w).named("W")},
                    {make_attribute_ints("strides", {1, 2}), make_attribute_ints("output_shape", {1, 6})});
  ASSERT_TRUE(result.status.ok()) << result.status.message();
  EXPECT_EQ(result.output.shape, (Shape{1, 1, 1, 6}));
  expect_values(result, gather(s, x, w, {}));
}

TEST(ConvTranspose, ValidationMessages) {
  const TestTensor x = make(Shape{1, 2, 3, 3}, ramp(18, 1.0));
  auto channels = run(11, {x, make(Shape{3, 1, 2, 2}, ramp(12, 1.0)).named("W")}, {});
  EXPECT_EQ(channels.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(channels.status.message()).find("dim 0 must equal X's channels 2"), std::string::npos)
      << channels.status.message();
  auto pad =
      run(11, {x, make(Shape{2, 1, 2, 2}, ramp(8, 1.0)).named("W")}, {make_attribute_string("auto_pad", "SAME")});
  EXPECT_NE(std::string(pad.status.message()).find("attribute 'auto_pad' is 'SAME'"), std::string::npos)
      << pad.status.message();
  auto bias =
      run(11, {x, make(Shape{2, 1, 2, 2}, ramp(8, 1.0)).named("W"), make(Shape{3}, ramp(3, 1.0)).named("B")}, {});
  EXPECT_NE(std::string(bias.status.message()).find("(B) has shape [3], expected [1]"), std::string::npos)
      << bias.status.message();
  auto kernel =
      run(11, {x, make(Shape{2, 1, 2, 2}, ramp(8, 1.0)).named("W")}, {make_attribute_ints("kernel_shape", {3, 3})});
  EXPECT_NE(std::string(kernel.status.message()).find("attribute 'kernel_shape'[0] is 3"), std::string::npos)
      << kernel.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
