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

#include "onnxmicro/kernels/generator/generator_kernels.hpp"
#include "onnxmicro/kernels/tensor/tensor_kernels.hpp"
#include "support/proto_writer.hpp"

namespace {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using om::kernels::Transpose_1;
using onnxmicro_test::make_attribute_ints;
using onnxmicro_test::ProtoWriter;

// ---- harness: one tensor/generator kernel through prepare() and run() (same in each of their tests) -----

using Registry = om::MergeKernelSets<om::kernels::TensorKernels, om::kernels::GeneratorKernels>;

struct Tensor {
  DataType dtype = DataType::undefined;  ///< undefined: an omitted optional input
  Shape shape;
  std::vector<unsigned char> bytes;
  bool constant = false;  ///< known at prepare time, like an initializer
};

template <typename T>
Tensor tensor(Shape shape, const std::vector<T>& values, bool constant = false) {
  Tensor t;
  t.dtype = om::dtype_of<T>::value;
  t.shape = shape;
  t.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  t.constant = constant;
  return t;
}
[[maybe_unused]] Tensor shape_input(const std::vector<std::int64_t>& dims) {
  return tensor(Shape{static_cast<std::int64_t>(dims.size())}, dims, true);
}
template <typename T>
std::vector<T> values_of(const Tensor& t) {
  std::vector<T> out(t.bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), t.bytes.data(), out.size() * sizeof(T));
  return out;
}

struct Result {
  Status prepare;
  Status run;
  Tensor output;
  int missing_constant_input = -1;
  bool ok() const { return prepare.ok() && run.ok(); }
  std::string error() const { return std::string(prepare.message()) + run.message(); }
};

// Resolves `op` at `opset`, prepares and (if that worked) runs once. The output gets guard bytes that must
// survive; with `in_place` it is written into input 0's buffer instead, as the session does.
Result run_op(const std::string& op, int opset, const std::vector<Tensor>& inputs,
              const std::vector<ProtoWriter>& attributes = {}, bool in_place = false) {
  Result result;
  const om::KernelEntry* kernel = om::find_kernel(Registry::registry(), "", op, opset);
  if (kernel == nullptr) {
    result.prepare = Status(StatusCode::unsupported, "no kernel");
    return result;
  }
  std::vector<std::string> names;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    names.push_back(inputs[i].dtype == DataType::undefined ? "" : "in" + std::to_string(i));
  ProtoWriter encoded = onnxmicro_test::make_node(op, names, {"out"}, attributes);
  om::model::Node node;
  node.op_type = kernel->op_type;
  node.opset_version = opset;
  EXPECT_TRUE(om::proto::Node::parse(encoded.span(), 0, node.proto).ok());
  std::vector<om::kernels::TensorInfo> infos(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    infos[i].present = inputs[i].dtype != DataType::undefined;
    infos[i].name = names[i];
    infos[i].dtype = inputs[i].dtype;
    infos[i].shape = inputs[i].shape;
    infos[i].is_constant = inputs[i].constant;
    infos[i].const_data = inputs[i].constant ? inputs[i].bytes.data() : nullptr;
  }
  om::kernels::TensorInfo output_info;
  output_info.present = true;
  om::ChunkAllocator allocator;
  om::kernels::PrepareContext prepare(node, om::Span<om::kernels::TensorInfo>(infos.data(), infos.size()),
                                      om::Span<om::kernels::TensorInfo>(&output_info, 1), allocator);
  result.prepare = kernel->prepare(prepare);
  result.missing_constant_input = prepare.missing_constant_input();
  if (!result.prepare.ok()) return result;

  constexpr std::size_t kGuard = 16;
  const std::size_t bytes = om::byte_size_of(output_info.dtype, output_info.shape.element_count());
  std::vector<Tensor> owned = inputs;
  std::vector<om::ConstTensorView> views;
  for (const Tensor& t : owned) views.emplace_back(t.dtype, t.shape, t.bytes.data());
  std::vector<unsigned char> buffer(bytes + kGuard, 0xCD);
  if (in_place) {
    EXPECT_EQ(kernel->in_place_input, 0);
    owned[0].bytes.resize(std::max(owned[0].bytes.size(), bytes));
    views[0].data = owned[0].bytes.data();
  }
  om::TensorView out_view;
  out_view.dtype = output_info.dtype;
  out_view.shape = output_info.shape;
  out_view.data = in_place ? owned[0].bytes.data() : buffer.data();
  std::vector<unsigned char> scratch(prepare.scratch_bytes());
  om::kernels::RunContext run(om::Span<const om::ConstTensorView>(views.data(), views.size()),
                              om::Span<const om::TensorView>(&out_view, 1), prepare.state(), scratch.data(),
                              scratch.size());
  result.run = kernel->run(run);
  for (std::size_t i = bytes; i < bytes + kGuard; ++i) EXPECT_EQ(buffer[i], 0xCD) << "write past the end";
  const unsigned char* out = static_cast<const unsigned char*>(out_view.data);
  result.output.dtype = output_info.dtype;
  result.output.shape = output_info.shape;
  result.output.bytes.assign(out, out + bytes);
  return result;
}

[[maybe_unused]] bool contains(const Status& status, const std::string& text) {
  return std::string(status.message()).find(text) != std::string::npos;
}

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
    Transpose_1::State state{};
    Transpose_1::plan(Shape{2, 3, 17, 19}, perm.data(), state);
    EXPECT_EQ(state.plan, Transpose_1::Plan::batched_2d);
    EXPECT_EQ(state.batch, 2);
    const Tensor in = random_tensor(DataType::float32, Shape{2, 3, 17, 19}, rng);  // not a multiple of the block
    Result r = run_op("Transpose", 13, {in}, {make_attribute_ints("perm", perm)});
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r.output.bytes, reference_transpose(in, perm, 32));
  }
}

TEST(Transpose, SimplifiesThePermutationBeforeChoosingALoop) {
  auto plan_of = [](const Shape& shape, std::vector<std::int64_t> perm) {
    Transpose_1::State state{};
    Transpose_1::plan(shape, perm.data(), state);
    return state;
  };
  EXPECT_EQ(plan_of(Shape{2, 3, 4}, {0, 1, 2}).plan, Transpose_1::Plan::copy);
  EXPECT_EQ(plan_of(Shape{1, 5}, {1, 0}).plan, Transpose_1::Plan::copy);  // size-1 axes move freely
  EXPECT_EQ(plan_of(Shape{4, 1, 5}, {1, 0, 2}).plan, Transpose_1::Plan::copy);
  Transpose_1::State merged = plan_of(Shape{2, 3, 4}, {2, 0, 1});  // axes 0 and 1 stay together
  EXPECT_EQ(merged.plan, Transpose_1::Plan::batched_2d);
  EXPECT_EQ(merged.rows, 6);
  EXPECT_EQ(merged.cols, 4);
  Transpose_1::State general = plan_of(Shape{2, 3, 4}, {1, 0, 2});
  EXPECT_EQ(general.plan, Transpose_1::Plan::general);
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

}  // namespace
