// SPDX-License-Identifier: MIT
// Concat: random shapes and axes (zero-sized inputs, packed types at odd element offsets) against a per-element
// reference, negative axes by version (11+), the opset-1 default axis, and errors naming the mismatching input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/op_runner.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::ProtoWriter;

// ---- harness: one tensor/generator kernel through prepare() and run() (support/op_runner.hpp) -----------

using namespace onnxmicro_test::op_runner;

// Element `index` of a buffer of `bits`-bit elements (bits <= 64), for the references below.
std::uint64_t read_element(const std::vector<unsigned char>& bytes, std::int64_t index, int bits) {
  std::uint64_t v = 0;
  for (int b = 0; b < bits; ++b) {
    const std::int64_t bit = index * bits + b;
    v |= std::uint64_t{(bytes[static_cast<std::size_t>(bit / 8)] >> (bit % 8)) & 1u} << b;
  }
  return v;
}
void write_element(std::vector<unsigned char>& bytes, std::int64_t index, int bits, std::uint64_t v) {
  for (int b = 0; b < bits; ++b) {
    const std::int64_t bit = index * bits + b;
    bytes[static_cast<std::size_t>(bit / 8)] |= static_cast<unsigned char>(((v >> b) & 1u) << (bit % 8));
  }
}
int bits_of(DataType dtype) {
  return om::is_sub_byte(dtype) ? om::dtype_bits(dtype) : static_cast<int>(om::dtype_size(dtype) * 8);
}
// Random elements; packed types get zero padding bits, as a producer writes them.
Tensor random_tensor(DataType dtype, const Shape& shape, std::mt19937& rng) {
  Tensor t;
  t.dtype = dtype;
  t.shape = shape;
  t.bytes.assign(om::byte_size_of(dtype, shape.element_count()), 0);
  const std::int64_t bits = static_cast<std::int64_t>(bits_of(dtype)) * shape.element_count();
  for (std::int64_t bit = 0; bit < bits; ++bit)
    t.bytes[static_cast<std::size_t>(bit / 8)] |= static_cast<unsigned char>((rng() & 1u) << (bit % 8));
  return t;
}

// Output element = element of the input that owns that position along the axis.
std::vector<unsigned char> reference_concat(const std::vector<Tensor>& inputs, int axis, const Shape& out_shape) {
  const int bits = bits_of(inputs[0].dtype);
  std::vector<unsigned char> out(om::byte_size_of(inputs[0].dtype, out_shape.element_count()), 0);
  std::int64_t inner = 1;
  for (int d = axis + 1; d < out_shape.rank(); ++d) inner *= out_shape[d];
  for (std::int64_t o = 0; o < out_shape.element_count(); ++o) {
    std::int64_t outer_index = o / (inner * out_shape[axis]);
    std::int64_t along = (o / inner) % out_shape[axis];
    std::int64_t within = o % inner;
    for (const Tensor& in : inputs) {
      if (along < in.shape[axis]) {
        const std::int64_t source = (outer_index * in.shape[axis] + along) * inner + within;
        write_element(out, o, bits, read_element(in.bytes, source, bits));
        break;
      }
      along -= in.shape[axis];
    }
  }
  return out;
}

TEST(Concat, MatchesTheDefinitionOnRandomShapes) {
  const DataType dtypes[] = {DataType::uint8, DataType::bfloat16, DataType::float32,   DataType::float64,
                             DataType::int4,  DataType::uint2,    DataType::float6e3m2};
  std::mt19937 rng(99);
  for (DataType dtype : dtypes) {
    for (int trial = 0; trial < 50; ++trial) {
      const int rank = 1 + static_cast<int>(rng() % 4);
      const int axis = static_cast<int>(rng() % static_cast<unsigned>(rank));
      Shape base;
      base.resize(rank);
      for (int d = 0; d < rank; ++d) base[d] = 1 + static_cast<std::int64_t>(rng() % 3);
      const int count = 1 + static_cast<int>(rng() % 4);
      std::vector<Tensor> inputs;
      Shape out_shape = base;
      out_shape[axis] = 0;
      for (int i = 0; i < count; ++i) {
        Shape s = base;
        s[axis] = static_cast<std::int64_t>(rng() % 4);  // includes empty inputs and odd packed offsets
        out_shape[axis] += s[axis];
        inputs.push_back(random_tensor(dtype, s, rng));
      }
      const int axis_attribute = trial % 2 ? axis - rank : axis;  // negative half of the time
      Result r = run_op("Concat", 13, inputs, {make_attribute_int("axis", axis_attribute)});
      ASSERT_TRUE(r.ok()) << om::dtype_name(dtype) << ": " << r.error();
      EXPECT_EQ(r.output.shape, out_shape);
      EXPECT_EQ(r.output.bytes, reference_concat(inputs, axis, out_shape)) << om::dtype_name(dtype) << " " << trial;
    }
  }
}

TEST(Concat, NegativeAxisNeedsOpset11) {
  const std::vector<Tensor> inputs = {tensor(Shape{2, 2}, std::vector<float>{1, 2, 3, 4}),
                                      tensor(Shape{2, 1}, std::vector<float>{5, 6})};
  Result old = run_op("Concat", 10, inputs, {make_attribute_int("axis", -1)});
  EXPECT_EQ(old.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(old.prepare, "negative axes are only allowed from opset 11")) << old.prepare.message();
  Result r = run_op("Concat", 11, inputs, {make_attribute_int("axis", -1)});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1, 2, 5, 3, 4, 6}));
}

TEST(Concat, AxisDefaultsToOneOnlyInOpset1) {
  const std::vector<Tensor> inputs = {tensor(Shape{2, 1}, std::vector<std::int32_t>{1, 2}),
                                      tensor(Shape{2, 1}, std::vector<std::int32_t>{3, 4})};
  Result r = run_op("Concat", 1, inputs);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.shape, (Shape{2, 2}));
  EXPECT_EQ(values_of<std::int32_t>(r.output), (std::vector<std::int32_t>{1, 3, 2, 4}));
  Result required = run_op("Concat", 4, inputs);
  EXPECT_TRUE(contains(required.prepare, "required attribute 'axis'")) << required.prepare.message();
}

TEST(Concat, ErrorsNameTheMismatchingInput) {
  const Tensor a = tensor(Shape{2, 3}, std::vector<float>(6, 1.0f));
  Result dims =
      run_op("Concat", 13, {a, tensor(Shape{3, 3}, std::vector<float>(9, 2.0f))}, {make_attribute_int("axis", 1)});
  EXPECT_EQ(dims.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(dims.prepare, "input 1 'in1' has shape [3,3], incompatible with input 0 'in0' of shape [2,3]"))
      << dims.prepare.message();
  Result rank =
      run_op("Concat", 13, {a, tensor(Shape{6}, std::vector<float>(6, 2.0f))}, {make_attribute_int("axis", 0)});
  EXPECT_EQ(rank.prepare.code(), StatusCode::invalid_model);
  Result dtype =
      run_op("Concat", 13, {a, tensor(Shape{2, 3}, std::vector<double>(6, 2.0))}, {make_attribute_int("axis", 0)});
  EXPECT_TRUE(contains(dtype.prepare, "has dtype double, expected float")) << dtype.prepare.message();
  Result axis = run_op("Concat", 13, {a, a}, {make_attribute_int("axis", 2)});
  EXPECT_TRUE(contains(axis.prepare, "attribute 'axis' is 2, expected a value in [-2, 1]")) << axis.prepare.message();
  Result scalar = run_op("Concat", 13, {tensor(Shape{}, std::vector<float>{1})}, {make_attribute_int("axis", 0)});
  EXPECT_EQ(scalar.prepare.code(), StatusCode::invalid_model);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
