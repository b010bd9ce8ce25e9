// SPDX-License-Identifier: MIT
// Dynamic axes: one session re-plans when input shapes change (Session::run(inputs), set_input_shapes), sized
// once by SessionOptions::max_input_shapes; shapes that contradict the model are errors naming input and dim.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/loaded_model.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::ConstTensorView;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using namespace onnxmicro_test;

/// A dim of a declared shape: a fixed size, or a dim_param name.
struct Dim {
  std::int64_t value = -1;
  std::string param;
  Dim(std::int64_t v) : value(v) {}  // NOLINT: implicit on purpose, {batch, 4} reads like a shape
  Dim(const char* p) : param(p) {}   // NOLINT
};

ProtoWriter value_info_with_dims(std::string_view name, DataType dtype, const std::vector<Dim>& dims) {
  ProtoWriter shape;
  for (const Dim& d : dims) {
    ProtoWriter dim;
    if (d.param.empty())
      dim.int_field(1, d.value);
    else
      dim.string_field(2, d.param);
    shape.message_field(1, dim);
  }
  ProtoWriter tensor_type;
  tensor_type.int_field(1, static_cast<std::int64_t>(dtype));
  tensor_type.message_field(2, shape);
  ProtoWriter type;
  type.message_field(1, tensor_type);
  ProtoWriter v;
  v.string_field(1, name);
  v.message_field(2, type);
  return v;
}

using Loaded = LoadedModel;

constexpr int kFeatures = 4, kHidden = 3;
const std::vector<float> kWeights = {0.5f, -1.f, 2.f, 1.f, 0.25f, -0.5f, -2.f, 1.5f, 0.f, 0.75f, 1.f, -1.f};
const std::vector<float> kBias = {0.1f, -0.2f, 0.3f};

// x [batch, sequence, 4] -> MatMul W [4, 3] + b -> Relu -> Reshape to [batch, -1] with the batch size read by
// Shape/Gather/Unsqueeze/Concat, as PyTorch's exporter writes dynamic reshapes.
ProtoWriter exporter_style_model() {
  ProtoWriter graph =
      make_graph("dynamic",
                 {make_node("MatMul", {"x", "W"}, {"xw"}), make_node("Add", {"xw", "b"}, {"h"}),
                  make_node("Relu", {"h"}, {"r"}), make_node("Shape", {"x"}, {"x_shape"}),
                  make_node("Gather", {"x_shape", "zero"}, {"batch"}, {make_attribute_int("axis", 0)}),
                  make_node("Unsqueeze", {"batch", "axes0"}, {"batch_1d"}),
                  make_node("Concat", {"batch_1d", "minus_one"}, {"new_shape"}, {make_attribute_int("axis", 0)}),
                  make_node("Reshape", {"r", "new_shape"}, {"y"})},
                 {value_info_with_dims("x", DataType::float32, {"batch", "sequence", kFeatures})},
                 {value_info_with_dims("y", DataType::float32, {"batch", "flat"})},
                 {make_float_tensor("W", {kFeatures, kHidden}, kWeights), make_float_tensor("b", {kHidden}, kBias),
                  make_int64_tensor("zero", {}, {0}), make_int64_tensor("axes0", {1}, {0}),
                  make_int64_tensor("minus_one", {1}, {-1})});
  return make_model(graph, 13);
}

std::vector<float> input_values(std::int64_t batch, std::int64_t sequence) {
  std::vector<float> x(static_cast<std::size_t>(batch * sequence * kFeatures));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37f * static_cast<float>(i) + 0.1f);
  return x;
}

std::vector<float> reference(const std::vector<float>& x) {
  std::vector<float> y;
  for (std::size_t row = 0; row < x.size() / kFeatures; ++row) {
    for (int j = 0; j < kHidden; ++j) {
      float sum = 0;
      for (int k = 0; k < kFeatures; ++k) sum += x[row * kFeatures + k] * kWeights[k * kHidden + j];
      sum += kBias[j];
      y.push_back(sum > 0 ? sum : 0);
    }
  }
  return y;
}

void expect_near(const std::vector<float>& actual, const std::vector<float>& expected, const std::string& where) {
  ASSERT_EQ(actual.size(), expected.size()) << where;
  for (std::size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], 1e-5f) << where << " [" << i << "]";
}

TEST(DynamicShapes, OneSessionRunsEveryShapeWithinTheDeclaredMaximum) {
  Loaded m;
  ASSERT_TRUE(m.load(exporter_style_model()).ok());
  const om::InputShape max_shapes[] = {{"x", Shape{8, 64, kFeatures}}};
  om::SessionOptions options;
  options.max_input_shapes = om::Span<const om::InputShape>(max_shapes, 1);
  Status st = m.session.prepare(m.model, om::all_kernels_registry(), options);
  ASSERT_TRUE(st.ok()) << st.message();
  const std::size_t capacity = m.session.arena_capacity();
  EXPECT_EQ(capacity, m.session.max_shapes_arena_bytes());
  EXPECT_GE(capacity, std::size_t{8 * 64 * kHidden * sizeof(float)});

  const std::int64_t shapes[][2] = {{1, 7}, {8, 7}, {1, 64}, {8, 64}, {8, 64}, {2, 3}, {1, 7}};
  std::size_t expected_replans = 0;
  Shape previous;
  for (const auto& bs : shapes) {
    const std::vector<float> x = input_values(bs[0], bs[1]);
    const Shape shape{bs[0], bs[1], kFeatures};
    if (shape != previous) ++expected_replans;
    previous = shape;
    const om::InputValue inputs[] = {{"x", ConstTensorView(DataType::float32, shape, x.data())}};
    st = m.session.run(om::Span<const om::InputValue>(inputs, 1));
    const std::string where = "batch " + std::to_string(bs[0]) + ", sequence " + std::to_string(bs[1]);
    ASSERT_TRUE(st.ok()) << where << ": " << st.message();
    EXPECT_EQ(m.session.output(0).shape, (Shape{bs[0], bs[1] * kHidden})) << where;
    expect_near(m.floats(0), reference(x), where);
    EXPECT_EQ(m.session.replan_count(), expected_replans) << where;
    EXPECT_EQ(m.session.arena_capacity(), capacity) << where << ": the arena grew";
    EXPECT_LE(m.session.required_arena_bytes(), capacity) << where;
  }
}

TEST(DynamicShapes, ReplanningWithCallerMemoryAllocatesNothingAndReusesTheMetadata) {
  Loaded m;
  ASSERT_TRUE(m.load(exporter_style_model()).ok());
  // Ask how big the arena must be for the maxima, then hand in exactly that.
  const om::InputShape max_shapes[] = {{"x", Shape{4, 16, kFeatures}}};
  std::size_t arena_bytes = 0;
  {
    om::Session probe;
    om::SessionOptions options;
    options.max_input_shapes = om::Span<const om::InputShape>(max_shapes, 1);
    ASSERT_TRUE(probe.prepare(m.model, om::all_kernels_registry(), options).ok());
    arena_bytes = probe.max_shapes_arena_bytes();
  }
  alignas(ONNXMICRO_TENSOR_ALIGNMENT) static unsigned char arena[1 << 16];
  alignas(16) static unsigned char metadata[1 << 16];
  ASSERT_LE(arena_bytes, sizeof(arena));
  om::BufferAllocator metadata_allocator(metadata, sizeof(metadata));
  om::SessionOptions options;
  options.arena = arena;
  options.arena_bytes = arena_bytes;
  options.metadata_allocator = &metadata_allocator;
  options.max_input_shapes = om::Span<const om::InputShape>(max_shapes, 1);
  Status st = m.session.prepare(m.model, om::all_kernels_registry(), options);
  ASSERT_TRUE(st.ok()) << st.message();
  const std::size_t metadata_at_max = metadata_allocator.used_bytes();

  for (int round = 0; round < 3; ++round) {
    for (std::int64_t sequence : {1, 16, 5}) {
      const std::vector<float> x = input_values(4, sequence);
      const om::InputValue inputs[] = {
          {"x", ConstTensorView(DataType::float32, Shape{4, sequence, kFeatures}, x.data())}};
      st = m.session.run(om::Span<const om::InputValue>(inputs, 1));
      ASSERT_TRUE(st.ok()) << st.message();
      expect_near(m.floats(0), reference(x), "sequence " + std::to_string(sequence));
      // Every re-plan starts from the same mark: the metadata buffer does not creep.
      EXPECT_LE(metadata_allocator.used_bytes(), metadata_at_max) << "sequence " << sequence;
      EXPECT_EQ(m.session.arena_capacity(), arena_bytes);
    }
  }
  EXPECT_EQ(m.session.replan_count(), 9u);
}

TEST(DynamicShapes, ShapesAboveTheDeclaredMaximumAreErrorsNamingInputAndDim) {
  Loaded m;
  ASSERT_TRUE(m.load(exporter_style_model()).ok());
  const om::InputShape max_shapes[] = {{"x", Shape{8, 64, kFeatures}}};
  om::SessionOptions options;
  options.max_input_shapes = om::Span<const om::InputShape>(max_shapes, 1);
  ASSERT_TRUE(m.session.prepare(m.model, om::all_kernels_registry(), options).ok());
  const std::vector<float> x = input_values(8, 65);
  const om::InputValue inputs[] = {{"x", ConstTensorView(DataType::float32, Shape{8, 65, kFeatures}, x.data())}};
  Status st = m.session.run(om::Span<const om::InputValue>(inputs, 1));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::invalid_argument);
  EXPECT_NE(st.message_view().find("input 'x' dim 1 is 65, above its declared maximum 64"), std::string::npos)
      << st.message();
  // The session still holds its last plan: a valid shape runs.
  const std::vector<float> ok = input_values(2, 2);
  const om::InputValue fine[] = {{"x", ConstTensorView(DataType::float32, Shape{2, 2, kFeatures}, ok.data())}};
  st = m.session.run(om::Span<const om::InputValue>(fine, 1));
  ASSERT_TRUE(st.ok()) << st.message();
  expect_near(m.floats(0), reference(ok), "after the rejected shape");
}

TEST(DynamicShapes, CallerArenaTooSmallForANewShapeNamesTheBytes) {
  Loaded m;
  ASSERT_TRUE(m.load(exporter_style_model()).ok());
  const om::InputShape small[] = {{"x", Shape{1, 2, kFeatures}}};
  alignas(ONNXMICRO_TENSOR_ALIGNMENT) static unsigned char arena[256];
  om::SessionOptions options;
  options.arena = arena;
  options.arena_bytes = sizeof(arena);
  options.input_shapes = om::Span<const om::InputShape>(small, 1);
  Status st = m.session.prepare(m.model, om::all_kernels_registry(), options);
  ASSERT_TRUE(st.ok()) << st.message();
  const om::InputShape big[] = {{"x", Shape{8, 64, kFeatures}}};
  st = m.session.set_input_shapes(om::Span<const om::InputShape>(big, 1));
  ASSERT_EQ(st.code(), StatusCode::out_of_memory) << st.message();
  EXPECT_NE(st.message_view().find("the arena is too small: this model needs"), std::string::npos) << st.message();
  EXPECT_NE(st.message_view().find("'x' [8,64,4]"), std::string::npos) << st.message();
  EXPECT_NE(st.message_view().find("arena_bytes is 256"), std::string::npos) << st.message();
  EXPECT_GT(m.session.required_arena_bytes(), sizeof(arena));
}

TEST(DynamicShapes, ASymbolicDimBoundToTwoValuesIsAnError) {
  Loaded m;
  ProtoWriter graph = make_graph("g", {make_node("Add", {"a", "b"}, {"c"})},
                                 {value_info_with_dims("a", DataType::float32, {"batch", 4}),
                                  value_info_with_dims("b", DataType::float32, {"batch", 4})},
                                 {value_info_with_dims("c", DataType::float32, {"batch", 4})});
  ASSERT_TRUE(m.load(make_model(graph, 14)).ok());
  const om::InputShape shapes[] = {{"a", Shape{2, 4}}, {"b", Shape{3, 4}}};
  om::SessionOptions options;
  options.input_shapes = om::Span<const om::InputShape>(shapes, 2);
  Status st = m.session.prepare(m.model, om::all_kernels_registry(), options);
  ASSERT_EQ(st.code(), StatusCode::invalid_argument) << st.message();
  EXPECT_NE(
      st.message_view().find("input 'b' dim 0 ('batch') is bound to 3 but input 'a' dim 0 ('batch') is bound to 2"),
      std::string::npos)
      << st.message();
  // Through run(inputs) too, after a valid first run.
  const om::InputShape same[] = {{"a", Shape{2, 4}}, {"b", Shape{2, 4}}};
  options.input_shapes = om::Span<const om::InputShape>(same, 2);
  ASSERT_TRUE(m.session.prepare(m.model, om::all_kernels_registry(), options).ok());
  const std::vector<float> a(8, 1.f), b(12, 2.f);
  const om::InputValue inputs[] = {{"a", ConstTensorView(DataType::float32, Shape{2, 4}, a.data())},
                                   {"b", ConstTensorView(DataType::float32, Shape{3, 4}, b.data())}};
  st = m.session.run(om::Span<const om::InputValue>(inputs, 2));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message_view().find("('batch') is bound to"), std::string::npos) << st.message();
}

TEST(DynamicShapes, RankAndFixedDimContradictionsNameTheInputAndDim) {
  Loaded m;
  ASSERT_TRUE(m.load(exporter_style_model()).ok());
  ASSERT_TRUE(m.session
                  .prepare(m.model, om::all_kernels_registry(),
                           [] {
                             static const om::InputShape s[] = {{"x", Shape{1, 1, kFeatures}}};
                             om::SessionOptions o;
                             o.input_shapes = om::Span<const om::InputShape>(s, 1);
                             return o;
                           }())
                  .ok());
  const std::vector<float> x(64, 1.f);
  const om::InputValue wrong_rank[] = {{"x", ConstTensorView(DataType::float32, Shape{2, kFeatures}, x.data())}};
  Status st = m.session.run(om::Span<const om::InputValue>(wrong_rank, 1));
  EXPECT_NE(st.message_view().find("input 'x': bound shape [2,4] has rank 2, the model declares rank 3"),
            std::string::npos)
      << st.message();
  const om::InputValue wrong_dim[] = {{"x", ConstTensorView(DataType::float32, Shape{2, 3, 5}, x.data())}};
  st = m.session.run(om::Span<const om::InputValue>(wrong_dim, 1));
  EXPECT_NE(st.message_view().find("input 'x': bound shape [2,3,5] has dim 2 = 5, the model fixes it to 4"),
            std::string::npos)
      << st.message();
  const om::InputValue wrong_dtype[] = {{"x", ConstTensorView(DataType::int32, Shape{1, 1, kFeatures}, x.data())}};
  st = m.session.run(om::Span<const om::InputValue>(wrong_dtype, 1));
  EXPECT_NE(st.message_view().find("input 'x': expected dtype float, got int32"), std::string::npos) << st.message();
  const om::InputValue unknown[] = {{"z", ConstTensorView(DataType::float32, Shape{1, 1, kFeatures}, x.data())}};
  st = m.session.run(om::Span<const om::InputValue>(unknown, 1));
  EXPECT_NE(st.message_view().find("the model has no input 'z'"), std::string::npos) << st.message();
  st = m.session.run(om::Span<const om::InputValue>());
  EXPECT_NE(st.message_view().find("input 'x' is missing"), std::string::npos) << st.message();
}

TEST(DynamicShapes, InputsThatDecideShapesReplanWhenTheirValueChanges) {
  // y = Reshape(x, shape): 'shape' is a graph input, so its value is needed at prepare time.
  Loaded m;
  ProtoWriter graph = make_graph(
      "g", {make_node("Reshape", {"x", "shape"}, {"y"})},
      {value_info_with_dims("x", DataType::float32, {"n"}), value_info_with_dims("shape", DataType::int64, {2})},
      {value_info_with_dims("y", DataType::float32, {"rows", "cols"})});
  ASSERT_TRUE(m.load(make_model(graph, 14)).ok());
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  const std::int64_t two_by_three[] = {2, 3}, three_by_two[] = {3, 2};
  const om::InputShape first[] = {{"x", Shape{6}}};
  const om::InputValue first_values[] = {{"shape", ConstTensorView(DataType::int64, Shape{2}, two_by_three)}};
  om::SessionOptions options;
  options.input_shapes = om::Span<const om::InputShape>(first, 1);
  options.input_values = om::Span<const om::InputValue>(first_values, 1);
  Status st = m.session.prepare(m.model, om::all_kernels_registry(), options);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(m.session.input_bound_at_prepare(1));
  for (const std::int64_t* dims : {two_by_three, two_by_three, three_by_two}) {
    const om::InputValue inputs[] = {{"x", ConstTensorView(DataType::float32, Shape{6}, x.data())},
                                     {"shape", ConstTensorView(DataType::int64, Shape{2}, dims)}};
    st = m.session.run(om::Span<const om::InputValue>(inputs, 2));
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(m.session.output(0).shape, (Shape{dims[0], dims[1]}));
    EXPECT_EQ(m.floats(0), x);
  }
  EXPECT_EQ(m.session.replan_count(), 1u);  // only the new value of 'shape' re-planned
}

TEST(DynamicShapes, DataDependentOutputSizesFollowTheValues) {
  // NonZero's output size depends on x's values: run(inputs) binds x at prepare and re-plans per new value.
  Loaded m;
  ProtoWriter graph =
      make_graph("g", {make_node("NonZero", {"x"}, {"indices"})}, {value_info_with_dims("x", DataType::float32, {"n"})},
                 {value_info_with_dims("indices", DataType::int64, {1, "count"})});
  ASSERT_TRUE(m.load(make_model(graph, 13)).ok());
  const std::vector<float> first = {0, 1, 0, 2}, second = {3, 0, 4, 5, 6};
  const om::InputValue initial[] = {{"x", ConstTensorView(DataType::float32, Shape{4}, first.data())}};
  om::SessionOptions options;
  options.input_values = om::Span<const om::InputValue>(initial, 1);
  options.input_shapes = om::Span<const om::InputShape>();
  const om::InputShape shape4[] = {{"x", Shape{4}}};
  options.input_shapes = om::Span<const om::InputShape>(shape4, 1);
  Status st = m.session.prepare(m.model, om::all_kernels_registry(), options);
  ASSERT_TRUE(st.ok()) << st.message();
  for (const std::vector<float>* x : {&first, &second}) {
    const om::InputValue inputs[] = {
        {"x", ConstTensorView(DataType::float32, Shape{static_cast<std::int64_t>(x->size())}, x->data())}};
    st = m.session.run(om::Span<const om::InputValue>(inputs, 1));
    ASSERT_TRUE(st.ok()) << st.message();
    ConstTensorView out = m.session.output(0);
    std::vector<std::int64_t> indices(out.data_as<std::int64_t>(), out.data_as<std::int64_t>() + out.element_count());
    std::vector<std::int64_t> expected;
    for (std::size_t i = 0; i < x->size(); ++i)
      if ((*x)[i] != 0) expected.push_back(static_cast<std::int64_t>(i));
    EXPECT_EQ(indices, expected);
  }
  EXPECT_EQ(m.session.replan_count(), 1u);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
