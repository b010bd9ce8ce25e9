// SPDX-License-Identifier: MIT
// Gather: random data shapes, axes and int32/int64 indices of any rank (negative ones included) against a
// per-element reference, packed element types, and out-of-range indices: a run-time out_of_range naming the
// index and the bound, or a prepare-time error when the indices are constant.
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

// output[outer, indices..., inner] = data[outer, normalised index, inner].
std::vector<unsigned char> reference_gather(const Tensor& data, const std::vector<std::int64_t>& indices, int axis) {
  const int bits = bits_of(data.dtype);
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= data.shape[d];
  for (int d = axis + 1; d < data.shape.rank(); ++d) inner *= data.shape[d];
  const std::int64_t size = data.shape[axis];
  const std::int64_t count = outer * static_cast<std::int64_t>(indices.size()) * inner;
  std::vector<unsigned char> out(om::byte_size_of(data.dtype, count), 0);
  std::int64_t o = 0;
  for (std::int64_t a = 0; a < outer; ++a)
    for (std::int64_t index : indices)
      for (std::int64_t b = 0; b < inner; ++b) {
        const std::int64_t k = index < 0 ? index + size : index;
        write_element(out, o++, bits, read_element(data.bytes, (a * size + k) * inner + b, bits));
      }
  return out;
}

Tensor indices_tensor(const Shape& shape, const std::vector<std::int64_t>& values, bool as_int32, bool constant) {
  if (!as_int32) return tensor(shape, values, constant);
  std::vector<std::int32_t> narrow(values.begin(), values.end());
  return tensor(shape, narrow, constant);
}

TEST(Gather, MatchesTheDefinitionOnRandomShapes) {
  const DataType dtypes[] = {DataType::int8, DataType::float16, DataType::int32, DataType::uint64, DataType::int4};
  std::mt19937 rng(2024);
  for (DataType dtype : dtypes) {
    for (int trial = 0; trial < 60; ++trial) {
      const int rank = 1 + static_cast<int>(rng() % 4);
      Shape shape;
      shape.resize(rank);
      for (int d = 0; d < rank; ++d) shape[d] = 1 + static_cast<std::int64_t>(rng() % 4);
      const int axis = static_cast<int>(rng() % static_cast<unsigned>(rank));
      const int q = static_cast<int>(rng() % 3);  // scalar, 1-D or 2-D indices
      Shape index_shape;
      index_shape.resize(q);
      for (int d = 0; d < q; ++d) index_shape[d] = static_cast<std::int64_t>(rng() % 4);
      std::vector<std::int64_t> indices(static_cast<std::size_t>(index_shape.element_count()));
      for (std::int64_t& v : indices) v = static_cast<std::int64_t>(rng() % (2 * shape[axis])) - shape[axis];
      const Tensor data = random_tensor(dtype, shape, rng);
      const bool as_int32 = trial % 2 == 0;
      Result r = run_op("Gather", 13, {data, indices_tensor(index_shape, indices, as_int32, trial % 3 == 0)},
                        {make_attribute_int("axis", trial % 4 == 0 ? axis - rank : axis)});
      ASSERT_TRUE(r.ok()) << om::dtype_name(dtype) << ": " << r.error();
      EXPECT_EQ(r.output.shape.rank(), rank - 1 + q);
      EXPECT_EQ(r.output.bytes, reference_gather(data, indices, axis)) << om::dtype_name(dtype) << " " << trial;
    }
  }
}

TEST(Gather, ScalarIndexDropsTheAxis) {
  const Tensor data = tensor(Shape{2, 3}, std::vector<float>{0, 1, 2, 10, 11, 12});
  Result r =
      run_op("Gather", 11, {data, tensor(Shape{}, std::vector<std::int64_t>{-1})}, {make_attribute_int("axis", 1)});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.shape, (Shape{2}));
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{2, 12}));
}

TEST(Gather, OutOfRangeIndexAtRunTimeNamesTheIndexAndTheBound) {
  const Tensor data = tensor(Shape{2, 3}, std::vector<float>{0, 1, 2, 10, 11, 12});
  Result r = run_op("Gather", 13, {data, tensor(Shape{3}, std::vector<std::int64_t>{0, 3, 1})},
                    {make_attribute_int("axis", 1)});
  ASSERT_TRUE(r.prepare.ok()) << r.prepare.message();
  EXPECT_EQ(r.run.code(), StatusCode::out_of_range);
  EXPECT_TRUE(contains(r.run, "indices[1] = 3 is out of range for axis 1 of size 3 (valid: [-3, 2])"))
      << r.run.message();
  Result low = run_op("Gather", 13, {data, tensor(Shape{1}, std::vector<std::int32_t>{-3})});
  EXPECT_EQ(low.run.code(), StatusCode::out_of_range);
  EXPECT_TRUE(contains(low.run, "indices[0] = -3")) << low.run.message();
}

TEST(Gather, ConstantOutOfRangeIndicesFailAtPrepare) {
  const Tensor data = tensor(Shape{4}, std::vector<float>{0, 1, 2, 3});
  Result r = run_op("Gather", 13, {data, tensor(Shape{2}, std::vector<std::int64_t>{1, 9}, /*constant=*/true)});
  EXPECT_EQ(r.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(r.prepare, "indices[1] = 9")) << r.prepare.message();
}

TEST(Gather, RejectsBadIndicesDtypeAxisAndScalarData) {
  const Tensor data = tensor(Shape{4}, std::vector<float>{0, 1, 2, 3});
  Result dtype = run_op("Gather", 13, {data, tensor(Shape{1}, std::vector<float>{1})});
  EXPECT_TRUE(contains(dtype.prepare, "has dtype float, expected int32 or int64")) << dtype.prepare.message();
  Result axis =
      run_op("Gather", 13, {data, tensor(Shape{1}, std::vector<std::int64_t>{1})}, {make_attribute_int("axis", 1)});
  EXPECT_TRUE(contains(axis.prepare, "attribute 'axis' is 1, expected a value in [-1, 0]")) << axis.prepare.message();
  Result scalar =
      run_op("Gather", 13, {tensor(Shape{}, std::vector<float>{1}), tensor(Shape{1}, std::vector<std::int64_t>{0})});
  EXPECT_EQ(scalar.prepare.code(), StatusCode::invalid_model);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
