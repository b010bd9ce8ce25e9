// SPDX-License-Identifier: MIT
// LabelEncoder beyond the ONNX node suite: opset 1's classes_strings in both directions, opset 2's float keys
// (NaN matches NaN, -0.0 default), duplicate keys, opset 4's tensors with wider dtypes and their defaults, and
// attribute errors.
#include <cmath>
#include <limits>

#include "support/node_runner.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::node_runner;
using onnxmicro_test::make_attribute_float;
using onnxmicro_test::make_attribute_floats;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::make_attribute_ints;
using onnxmicro_test::make_attribute_string;
using onnxmicro_test::make_attribute_strings;
using onnxmicro_test::make_attribute_tensor;
using onnxmicro_test::make_tensor_raw;

constexpr const char* kMl = "ai.onnx.ml";

TEST(LabelEncoderOp, Opset1ClassesStringsMapStringsToIndexes) {
  NodeRunner node;
  ASSERT_TRUE(
      node.prepare("LabelEncoder", kMl, 1, {string_input("x", {4}, {"b", "zz", "a", "c"})}, DataType::int64,
                   {make_attribute_strings("classes_strings", {"a", "b", "c"}), make_attribute_int("default_int64", 7)})
          .ok());
  ASSERT_TRUE(node.run().ok());
  EXPECT_EQ(node.values<std::int64_t>(), (std::vector<std::int64_t>{1, 7, 0, 2}));
}

TEST(LabelEncoderOp, Opset1ClassesStringsMapIndexesToStringsWithDefault) {
  NodeRunner node;
  ASSERT_TRUE(node.prepare("LabelEncoder", kMl, 1, {input<std::int64_t>("x", {2, 2}, {2, -1, 0, 3})}, DataType::string,
                           {make_attribute_strings("classes_strings", {"a", "b", "c"})})
                  .ok());
  ASSERT_TRUE(node.run().ok());
  EXPECT_EQ(node.strings(), (std::vector<std::string>{"c", "_Unused", "a", "_Unused"}));
  EXPECT_EQ(node.dims(), (std::vector<std::int64_t>{2, 2}));
}

TEST(LabelEncoderOp, Opset2FloatKeysMatchNaNAndDefaultIsNegativeZero) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  NodeRunner node;
  ASSERT_TRUE(node.prepare("LabelEncoder", kMl, 2, {input<float>("x", {4}, {nan, 1.5f, 2.0f, -0.0f})},
                           DataType::float32,
                           {make_attribute_floats("keys_floats", {1.5f, nan, 0.0f}),
                            make_attribute_floats("values_floats", {10.0f, 20.0f, 30.0f})})
                  .ok());
  ASSERT_TRUE(node.run().ok());
  const std::vector<float> y = node.values<float>();
  EXPECT_EQ(y[0], 20.0f);
  EXPECT_EQ(y[1], 10.0f);
  EXPECT_EQ(y[2], 0.0f);
  EXPECT_TRUE(std::signbit(y[2])) << "default_float is -0.0";
  EXPECT_EQ(y[3], 30.0f) << "-0.0 equals the key 0.0";
}

TEST(LabelEncoderOp, Opset2DuplicateKeysTakeTheLastValueAndStringDefaultApplies) {
  NodeRunner node;
  ASSERT_TRUE(node.prepare("LabelEncoder", kMl, 2, {input<std::int64_t>("x", {3}, {5, 6, 9})}, DataType::string,
                           {make_attribute_ints("keys_int64s", {5, 6, 5}),
                            make_attribute_strings("values_strings", {"first", "six", "last"}),
                            make_attribute_string("default_string", "none")})
                  .ok());
  ASSERT_TRUE(node.run().ok());
  EXPECT_EQ(node.strings(), (std::vector<std::string>{"last", "six", "none"}));
}

TEST(LabelEncoderOp, Opset4TensorsWithWiderDtypesAndDefaultsPerDtype) {
  // double keys -> int32 values, no default_tensor: the integer default -1.
  const std::vector<double> keys = {0.5, -2.25};
  const std::vector<std::int32_t> values = {100, 200};
  NodeRunner node;
  ASSERT_TRUE(node.prepare("LabelEncoder", kMl, 4, {input<double>("x", {3}, {-2.25, 0.5, 3.0})}, DataType::int32,
                           {make_attribute_tensor("keys_tensor", make_tensor_raw("k", DataType::float64, {2}, keys)),
                            make_attribute_tensor("values_tensor", make_tensor_raw("v", DataType::int32, {2}, values))})
                  .ok());
  ASSERT_TRUE(node.run().ok());
  EXPECT_EQ(node.values<std::int32_t>(), (std::vector<std::int32_t>{200, 100, -1}));
}

TEST(LabelEncoderOp, Opset4Int16KeysWithDefaultTensor) {
  const std::vector<std::int16_t> keys = {3, 4};
  const std::vector<float> values = {0.25f, 0.5f};
  const std::vector<float> fallback = {9.0f};
  NodeRunner node;
  ASSERT_TRUE(
      node.prepare("LabelEncoder", kMl, 4, {input<std::int16_t>("x", {3}, {4, 5, 3})}, DataType::float32,
                   {make_attribute_tensor("keys_tensor", make_tensor_raw("k", DataType::int16, {2}, keys)),
                    make_attribute_tensor("values_tensor", make_tensor_raw("v", DataType::float32, {2}, values)),
                    make_attribute_tensor("default_tensor", make_tensor_raw("d", DataType::float32, {1}, fallback))})
          .ok());
  ASSERT_TRUE(node.run().ok());
  EXPECT_EQ(node.values<float>(), (std::vector<float>{0.5f, 9.0f, 0.25f}));
}

TEST(LabelEncoderOp, AttributeErrorsNameTheProblem) {
  {
    NodeRunner node;
    const Status st = node.prepare("LabelEncoder", kMl, 2, {input<std::int64_t>("x", {1}, {1})}, DataType::int64,
                                   {make_attribute_ints("keys_int64s", {1}), make_attribute_floats("keys_floats", {1}),
                                    make_attribute_ints("values_int64s", {2})});
    EXPECT_FALSE(st.ok());
    EXPECT_TRUE(contains(st, "exactly one of the keys_* attributes")) << st.message();
  }
  {
    NodeRunner node;
    const Status st =
        node.prepare("LabelEncoder", kMl, 2, {input<std::int64_t>("x", {1}, {1})}, DataType::int64,
                     {make_attribute_ints("keys_int64s", {1, 2}), make_attribute_ints("values_int64s", {2})});
    EXPECT_FALSE(st.ok());
    EXPECT_TRUE(contains(st, "has 2 entries but the values 1")) << st.message();
  }
  {
    NodeRunner node;
    const Status st =
        node.prepare("LabelEncoder", kMl, 2, {input<float>("x", {1}, {1})}, DataType::int64,
                     {make_attribute_ints("keys_int64s", {1}), make_attribute_ints("values_int64s", {2})});
    EXPECT_FALSE(st.ok());
    EXPECT_TRUE(contains(st, "expected the keys' dtype int64")) << st.message();
  }
  {
    // keys_tensor does not exist before opset 4.
    NodeRunner node;
    const std::vector<std::int64_t> keys = {1};
    const Status st =
        node.prepare("LabelEncoder", kMl, 2, {input<std::int64_t>("x", {1}, {1})}, DataType::int64,
                     {make_attribute_tensor("keys_tensor", make_tensor_raw("k", DataType::int64, {1}, keys)),
                      make_attribute_ints("values_int64s", {2})});
    EXPECT_FALSE(st.ok());
    EXPECT_TRUE(contains(st, "found 0")) << st.message();
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
