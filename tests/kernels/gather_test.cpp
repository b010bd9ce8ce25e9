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

#include "onnxmicro/kernels/generator/generator_kernels.hpp"
#include "onnxmicro/kernels/tensor/tensor_kernels.hpp"
#include "support/proto_writer.hpp"

namespace {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using onnxmicro_test::make_attribute_int;
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

}  // namespace
