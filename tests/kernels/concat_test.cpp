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

}  // namespace
