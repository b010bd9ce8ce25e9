// SPDX-License-Identifier: MIT
// DepthToSpace: DCR and CRD element placement against the spec's index formulas for random sizes, the mode
// attribute only from opset 11, and shape/attribute errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult run(int opset, const Shape& shape, const std::vector<std::int32_t>& x,
               const std::vector<ProtoWriter>& attributes) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "DepthToSpace", opset, {make(shape, x)}, attributes);
}

TEST(DepthToSpace, MatchesSpecIndexFormulasInBothModes) {
  const std::int64_t n = 2, b = 2, c_out = 3, h = 2, w = 3, c = c_out * b * b;
  std::vector<std::int32_t> x(static_cast<std::size_t>(n * c * h * w));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<std::int32_t>(i);
  for (const char* mode : {"DCR", "CRD"}) {
    NodeResult r =
        run(13, Shape{n, c, h, w}, x, {make_attribute_int("blocksize", b), make_attribute_string("mode", mode)});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    ASSERT_EQ(r.output.shape, (Shape{n, c_out, h * b, w * b}));
    const std::vector<std::int32_t> y = values_of<std::int32_t>(r.output);
    const bool crd = std::string(mode) == "CRD";
    for (std::int64_t in = 0; in < n; ++in)
      for (std::int64_t co = 0; co < c_out; ++co)
        for (std::int64_t yy = 0; yy < h * b; ++yy)
          for (std::int64_t xx = 0; xx < w * b; ++xx) {
            const std::int64_t by = yy % b, bx = xx % b;
            // DCR: channel = (by*b + bx)*c_out + co; CRD: channel = co*b*b + by*b + bx.
            const std::int64_t ci = crd ? co * b * b + by * b + bx : (by * b + bx) * c_out + co;
            const std::int64_t src = ((in * c + ci) * h + yy / b) * w + xx / b;
            const std::int64_t dst = ((in * c_out + co) * h * b + yy) * w * b + xx;
            EXPECT_EQ(y[static_cast<std::size_t>(dst)], x[static_cast<std::size_t>(src)]) << mode;
          }
  }
}

TEST(DepthToSpace, ModeOnlyFromOpset11) {
  const std::vector<std::int32_t> x = {0, 1, 2, 3, 4, 5, 6, 7};  // [1,8,1,1], b 2: DCR and CRD differ
  NodeResult old =
      run(1, Shape{1, 8, 1, 1}, x, {make_attribute_int("blocksize", 2), make_attribute_string("mode", "CRD")});
  ASSERT_TRUE(old.status.ok()) << old.status.message();
  EXPECT_EQ(values_of<std::int32_t>(old.output), (std::vector<std::int32_t>{0, 2, 4, 6, 1, 3, 5, 7}));  // DCR
  NodeResult crd =
      run(11, Shape{1, 8, 1, 1}, x, {make_attribute_int("blocksize", 2), make_attribute_string("mode", "CRD")});
  ASSERT_TRUE(crd.status.ok()) << crd.status.message();
  EXPECT_EQ(values_of<std::int32_t>(crd.output), (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(DepthToSpace, RejectsBadShapesAndAttributes) {
  NodeResult r = run(13, Shape{1, 6, 1, 1}, std::vector<std::int32_t>(6, 0), {make_attribute_int("blocksize", 2)});
  EXPECT_NE(std::string(r.status.message()).find("not a multiple of blocksize^2 = 4"), std::string::npos)
      << r.status.message();
  r = run(13, Shape{4, 1, 1}, std::vector<std::int32_t>(4, 0), {make_attribute_int("blocksize", 2)});
  EXPECT_NE(std::string(r.status.message()).find("expected rank 4"), std::string::npos) << r.status.message();
  r = run(13, Shape{1, 4, 1, 1}, std::vector<std::int32_t>(4, 0), {});
  EXPECT_NE(std::string(r.status.message()).find("'blocksize'"), std::string::npos) << r.status.message();
  r = run(13, Shape{1, 4, 1, 1}, std::vector<std::int32_t>(4, 0),
          {make_attribute_int("blocksize", 2), make_attribute_string("mode", "RCD")});
  EXPECT_NE(std::string(r.status.message()).find("expected DCR or CRD"), std::string::npos) << r.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
