// SPDX-License-Identifier: MIT
// Transpose: every element size (1 to 16 bytes and packed 2/4/6-bit) on random shapes and permutations
// against a naive per-element reference, the simplified loop plans (copy, batched 2-D, general) including
// NCHW<->NHWC, the default reversed permutation and perm validation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
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
using om::kernels::Transpose_1;
namespace transpose_detail = om::kernels::transpose_detail;
using onnxmicro_test::make_attribute_ints;
using onnxmicro_test::ProtoWriter;

// ---- harness: one tensor/generator kernel through prepare() and run() (support/op_runner.hpp) -----------

using namespace onnxmicro_test::op_runner;

// Element `index` of a buffer of `bits`-bit elements, as an integer of up to 128 bits (two halves).
struct Element {
  std::uint64_t low = 0, high = 0;
  bool operator==(const Element& o) const { return low == o.low && high == o.high; }
};
Element read_element(const std::vector<unsigned char>& bytes, std::int64_t index, int bits) {
  Element e;
  for (int b = 0; b < bits; ++b) {
    const std::int64_t bit = index * bits + b;
    const unsigned v = (bytes[static_cast<std::size_t>(bit / 8)] >> (bit % 8)) & 1u;
    if (b < 64)
      e.low |= std::uint64_t{v} << b;
    else
      e.high |= std::uint64_t{v} << (b - 64);
  }
  return e;
}
void write_element(std::vector<unsigned char>& bytes, std::int64_t index, int bits, const Element& e) {
  for (int b = 0; b < bits; ++b) {
    const std::int64_t bit = index * bits + b;
    const unsigned v = b < 64 ? (e.low >> b) & 1u : (e.high >> (b - 64)) & 1u;
    bytes[static_cast<std::size_t>(bit / 8)] |= static_cast<unsigned char>(v << (bit % 8));
  }
}

// The definition: output[i0..ik] = input[index with input axis perm[j] = i_j].
std::vector<unsigned char> reference_transpose(const Tensor& in, const std::vector<std::int64_t>& perm, int bits) {
  const int rank = in.shape.rank();
  Shape out_shape;
  out_shape.resize(rank);
  for (int i = 0; i < rank; ++i) out_shape[i] = in.shape[static_cast<int>(perm[i])];
  const std::int64_t count = in.shape.element_count();
  std::vector<unsigned char> out(om::byte_size_of(in.dtype, count), 0);
  std::vector<std::int64_t> index(static_cast<std::size_t>(rank), 0);
  for (std::int64_t o = 0; o < count; ++o) {
    std::int64_t rest = o;
    for (int i = rank - 1; i >= 0; --i) {
      index[i] = rest % out_shape[i];
      rest /= out_shape[i];
    }
    std::int64_t source = 0;
    for (int a = 0; a < rank; ++a) {
      int i = static_cast<int>(std::find(perm.begin(), perm.end(), a) - perm.begin());
      source = source * in.shape[a] + index[i];
    }
    write_element(out, o, bits, read_element(in.bytes, source, bits));
  }
  return out;
}

Tensor random_tensor(DataType dtype, const Shape& shape, std::mt19937& rng) {
  Tensor t;
  t.dtype = dtype;
  t.shape = shape;
  t.bytes.resize(om::byte_size_of(dtype, shape.element_count()));
  for (unsigned char& b : t.bytes) b = static_cast<unsigned char>(rng());
  return t;
}

int bits_of(DataType dtype) {
  return om::is_sub_byte(dtype) ? om::dtype_bits(dtype) : static_cast<int>(om::dtype_size(dtype) * 8);
}

TEST(Transpose, MatchesTheDefinitionForEveryElementSizeOnRandomShapes) {
  const DataType dtypes[] = {DataType::uint8,      DataType::float16, DataType::float32, DataType::int64,
                             DataType::complex128, DataType::int4,    DataType::uint2,   DataType::float6e2m3};
  std::mt19937 rng(1234);
  for (DataType dtype : dtypes) {
    for (int trial = 0; trial < 60; ++trial) {
      const int rank = static_cast<int>(rng() % 7);
      Shape shape;
      shape.resize(rank);
      for (int d = 0; d < rank; ++d) shape[d] = rng() % 8 == 0 ? 1 : static_cast<std::int64_t>(rng() % 5);
      if (trial % 10 == 0 && rank > 0) shape[0] = 0;  // empty tensors too
      std::vector<std::int64_t> perm(static_cast<std::size_t>(rank));
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), rng);
      const Tensor in = random_tensor(dtype, shape, rng);
      Result r = run_op("Transpose", 21, {in}, {make_attribute_ints("perm", perm)});
      ASSERT_TRUE(r.ok()) << om::dtype_name(dtype) << ": " << r.error();
      EXPECT_EQ(r.output.bytes, reference_transpose(in, perm, bits_of(dtype)))
          << om::dtype_name(dtype) << " trial " << trial << " rank " << rank;
    }
  }
}

TEST(Transpose, ImageLayoutPermutationsUseTheBatched2dLoop) {
  std::mt19937 rng(7);
  const std::vector<std::int64_t> to_nhwc = {0, 2, 3, 1}, to_nchw = {0, 3, 1, 2};
  for (const auto& perm : {to_nhwc, to_nchw}) {
    transpose_detail::TransposeImpl::State state{};
    transpose_detail::TransposeImpl::plan(Shape{2, 3, 17, 19}, perm.data(), state);
    EXPECT_EQ(state.plan, transpose_detail::TransposeImpl::Plan::batched_2d);
    EXPECT_EQ(state.batch, 2);
    const Tensor in = random_tensor(DataType::float32, Shape{2, 3, 17, 19}, rng);  // not a multiple of the block
    Result r = run_op("Transpose", 13, {in}, {make_attribute_ints("perm", perm)});
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r.output.bytes, reference_transpose(in, perm, 32));
  }
}

TEST(Transpose, SimplifiesThePermutationBeforeChoosingALoop) {
  auto plan_of = [](const Shape& shape, std::vector<std::int64_t> perm) {
    transpose_detail::TransposeImpl::State state{};
    transpose_detail::TransposeImpl::plan(shape, perm.data(), state);
    return state;
  };
  EXPECT_EQ(plan_of(Shape{2, 3, 4}, {0, 1, 2}).plan, transpose_detail::TransposeImpl::Plan::copy);
  EXPECT_EQ(plan_of(Shape{1, 5}, {1, 0}).plan, transpose_detail::TransposeImpl::Plan::copy);  // size-1 axes move freely
  EXPECT_EQ(plan_of(Shape{4, 1, 5}, {1, 0, 2}).plan, transpose_detail::TransposeImpl::Plan::copy);
  transpose_detail::TransposeImpl::State merged = plan_of(Shape{2, 3, 4}, {2, 0, 1});  // axes 0 and 1 stay together
  EXPECT_EQ(merged.plan, transpose_detail::TransposeImpl::Plan::batched_2d);
  EXPECT_EQ(merged.rows, 6);
  EXPECT_EQ(merged.cols, 4);
  transpose_detail::TransposeImpl::State general = plan_of(Shape{2, 3, 4}, {1, 0, 2});
  EXPECT_EQ(general.plan, transpose_detail::TransposeImpl::Plan::general);
  EXPECT_EQ(general.rank, 3);
}

TEST(Transpose, DefaultPermutationReversesTheAxes) {
  std::mt19937 rng(3);
  const Tensor in = random_tensor(DataType::int32, Shape{2, 3, 4}, rng);
  Result r = run_op("Transpose", 1, {in});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.output.shape, (Shape{4, 3, 2}));
  EXPECT_EQ(r.output.bytes, reference_transpose(in, {2, 1, 0}, 32));
}

TEST(Transpose, RejectsPermutationsThatAreNotPermutations) {
  std::mt19937 rng(5);
  const Tensor in = random_tensor(DataType::float32, Shape{2, 3, 4}, rng);
  Result short_perm = run_op("Transpose", 13, {in}, {make_attribute_ints("perm", {1, 0})});
  EXPECT_EQ(short_perm.prepare.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(short_perm.prepare, "[1,0] has 2 values, expected 3")) << short_perm.prepare.message();
  Result repeated = run_op("Transpose", 13, {in}, {make_attribute_ints("perm", {0, 2, 0})});
  EXPECT_TRUE(contains(repeated.prepare, "perm[2] is 0 (repeated)")) << repeated.prepare.message();
  Result out_of_range = run_op("Transpose", 13, {in}, {make_attribute_ints("perm", {0, 3, 1})});
  EXPECT_TRUE(contains(out_of_range.prepare, "perm[1] is 3 (out of range)")) << out_of_range.prepare.message();
  Result negative = run_op("Transpose", 13, {in}, {make_attribute_ints("perm", {-1, 0, 1})});
  EXPECT_EQ(negative.prepare.code(), StatusCode::invalid_model);
}

TEST(Transpose, ScalarIsCopied) {
  Result r = run_op("Transpose", 13, {tensor(Shape{}, std::vector<double>{2.5})});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(values_of<double>(r.output), std::vector<double>{2.5});
}

TEST(Transpose, StringTensorsMoveTheirElementViews) {
  const std::vector<om::StringRef> in = {om::StringRef::of("a"), om::StringRef::of("b"), om::StringRef::of("c"),
                                         om::StringRef::of("d")};
  Result r = run_op("Transpose", 13, {tensor(Shape{2, 2}, in)});
  ASSERT_TRUE(r.ok()) << r.error();
  const std::vector<om::StringRef> out = values_of<om::StringRef>(r.output);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(
      std::string(out[0].view()) + std::string(out[1].view()) + std::string(out[2].view()) + std::string(out[3].view()),
      "acbd");
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
