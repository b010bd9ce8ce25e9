// SPDX-License-Identifier: MIT
// Unique: all four outputs for sorted and first-occurrence order, with and without an axis (slices compared
// lexicographically), NaNs collapsing into one entry after every number, and X having to be known at prepare.
// Runs through Model + Session so the optional outputs exist.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

struct UniqueResult {
  Status status;
  Shape y_shape;
  std::vector<unsigned char> y;
  std::vector<std::int64_t> indices, inverse, counts;
};

// Output declaration without a shape: the kernel decides it.
ProtoWriter output_info(std::string_view name, DataType dtype) {
  ProtoWriter v;
  v.string_field(1, name);
  v.message_field(2, onnxmicro_test::make_tensor_type(dtype, {}, false));
  return v;
}

// X is an initializer (so it is known at prepare time); all four outputs are graph outputs.
template <typename T>
UniqueResult run_unique(DataType dtype, const std::vector<std::int64_t>& dims, const std::vector<T>& x,
                        const std::vector<ProtoWriter>& attributes) {
  ProtoWriter graph = onnxmicro_test::make_graph(
      "g", {onnxmicro_test::make_node("Unique", {"X"}, {"Y", "I", "V", "C"}, attributes, "n")}, {},
      {output_info("Y", dtype), output_info("I", DataType::int64), output_info("V", DataType::int64),
       output_info("C", DataType::int64)},
      {onnxmicro_test::make_tensor_raw("X", dtype, dims, x)});
  const std::vector<unsigned char> bytes = onnxmicro_test::make_model(graph, 11).bytes();
  UniqueResult r;
  om::Model model;
  r.status = model.load(om::ByteSpan(bytes.data(), bytes.size()));
  if (!r.status.ok()) return r;
  om::Session session;
  r.status = session.prepare(model, om::all_kernels_registry());
  if (!r.status.ok()) return r;
  r.status = session.run();
  if (!r.status.ok()) return r;
  auto int64s = [&](std::size_t i) {
    const om::ConstTensorView v = session.output(i);
    std::vector<std::int64_t> out(static_cast<std::size_t>(v.element_count()));
    if (!out.empty()) std::memcpy(out.data(), v.data, out.size() * 8);
    return out;
  };
  const om::ConstTensorView y = session.output(0);
  r.y_shape = y.shape;
  r.y.assign(static_cast<const unsigned char*>(y.data), static_cast<const unsigned char*>(y.data) + y.byte_size());
  r.indices = int64s(1);
  r.inverse = int64s(2);
  r.counts = int64s(3);
  return r;
}

template <typename T>
std::vector<T> as(const std::vector<unsigned char>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

TEST(Unique, FlattenedSortedAndFirstOccurrenceOrder) {
  const std::vector<std::int32_t> x = {2, 1, 1, 3, 4, 3};  // the spec's example 1, as [2,3]
  UniqueResult s = run_unique(DataType::int32, {2, 3}, x, {});
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.y_shape, (Shape{4}));
  EXPECT_EQ(as<std::int32_t>(s.y), (std::vector<std::int32_t>{1, 2, 3, 4}));
  EXPECT_EQ(s.indices, (std::vector<std::int64_t>{1, 0, 3, 4}));
  EXPECT_EQ(s.inverse, (std::vector<std::int64_t>{1, 0, 0, 2, 3, 2}));
  EXPECT_EQ(s.counts, (std::vector<std::int64_t>{2, 1, 2, 1}));
  UniqueResult u = run_unique(DataType::int32, {2, 3}, x, {make_attribute_int("sorted", 0)});
  ASSERT_TRUE(u.status.ok()) << u.status.message();
  EXPECT_EQ(as<std::int32_t>(u.y), (std::vector<std::int32_t>{2, 1, 3, 4}));
  EXPECT_EQ(u.indices, (std::vector<std::int64_t>{0, 1, 3, 4}));
  EXPECT_EQ(u.inverse, (std::vector<std::int64_t>{0, 1, 1, 2, 3, 2}));
  EXPECT_EQ(u.counts, (std::vector<std::int64_t>{1, 2, 2, 1}));
}

TEST(Unique, SlicesAlongAxisInFirstOccurrenceOrder) {
  // X [2,3]: columns (axis 1) are [5,1], [0,2], [5,1] -> unique columns in order of appearance: [5,1], [0,2].
  UniqueResult u = run_unique(DataType::int64, {2, 3}, std::vector<std::int64_t>{5, 0, 5, 1, 2, 1},
                              {make_attribute_int("axis", 1), make_attribute_int("sorted", 0)});
  ASSERT_TRUE(u.status.ok()) << u.status.message();
  EXPECT_EQ(u.y_shape, (Shape{2, 2}));
  EXPECT_EQ(as<std::int64_t>(u.y), (std::vector<std::int64_t>{5, 0, 1, 2}));
  EXPECT_EQ(u.indices, (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(u.inverse, (std::vector<std::int64_t>{0, 1, 0}));
  EXPECT_EQ(u.counts, (std::vector<std::int64_t>{2, 1}));
  // Sorted: [0,2] < [5,1].
  UniqueResult s = run_unique(DataType::int64, {2, 3}, std::vector<std::int64_t>{5, 0, 5, 1, 2, 1},
                              {make_attribute_int("axis", -1)});
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(as<std::int64_t>(s.y), (std::vector<std::int64_t>{0, 5, 2, 1}));
  EXPECT_EQ(s.inverse, (std::vector<std::int64_t>{1, 0, 1}));
}

TEST(Unique, NaNsCollapseAfterEveryNumber) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  UniqueResult r = run_unique(DataType::float32, {5}, std::vector<float>{nan, 1.0f, nan, -0.0f, 0.0f}, {});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<float> y = as<float>(r.y);
  ASSERT_EQ(y.size(), 3u);
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_EQ(y[1], 1.0f);
  EXPECT_NE(y[2], y[2]);
  EXPECT_EQ(r.counts, (std::vector<std::int64_t>{2, 1, 2}));
  EXPECT_EQ(r.indices, (std::vector<std::int64_t>{3, 1, 0}));
}

TEST(Unique, InputMustBeKnownAtPrepare) {
  onnxmicro_test::NodeResult r = onnxmicro_test::run_node(om::all_kernels_registry(), "Unique", 11,
                                                          {make(Shape{2}, std::vector<float>{1.0f, 1.0f})});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(r.status.message()).find("decides the output shape"), std::string::npos) << r.status.message();
  r = onnxmicro_test::run_node(om::all_kernels_registry(), "Unique", 11,
                               {make(Shape{3}, std::vector<float>{2.0f, 1.0f, 2.0f}).as_constant()});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1.0f, 2.0f}));
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
