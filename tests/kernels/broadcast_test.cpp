// SPDX-License-Identifier: MIT
// kernels/common/broadcast.hpp: output shapes and errors of numpy broadcasting, and iteration plans checked
// against a naive per-element index computation on many random shapes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/kernels/common/broadcast.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using onnxmicro::Shape;
using onnxmicro::Span;
using onnxmicro::Status;
using onnxmicro::StatusCode;
using onnxmicro::kernels::broadcast_shapes;
using onnxmicro::kernels::BroadcastOperand;
using onnxmicro::kernels::BroadcastPlan;
using onnxmicro::kernels::make_broadcast_plan;

Status broadcast_two(const Shape& a, const Shape& b, Shape& out) {
  BroadcastOperand operands[2];
  operands[0].shape = &a;
  operands[0].index = 0;
  operands[0].name = "A";
  operands[1].shape = &b;
  operands[1].index = 1;
  operands[1].name = "B";
  return broadcast_shapes(Span<const BroadcastOperand>(operands, 2), out);
}

Shape broadcast_ok(const Shape& a, const Shape& b) {
  Shape out;
  Status s = broadcast_two(a, b, out);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

TEST(BroadcastShapes, FollowsNumpyRules) {
  EXPECT_EQ(broadcast_ok(Shape{3, 4, 5}, Shape{5}), (Shape{3, 4, 5}));
  EXPECT_EQ(broadcast_ok(Shape{2, 1, 4}, Shape{3, 1}), (Shape{2, 3, 4}));
  EXPECT_EQ(broadcast_ok(Shape{}, Shape{2, 3}), (Shape{2, 3}));
  EXPECT_EQ(broadcast_ok(Shape{}, Shape{}), Shape{});
  EXPECT_EQ(broadcast_ok(Shape{1, 1}, Shape{1}), (Shape{1, 1}));
  // A 0 broadcasts against 1 (and only against 1 or 0).
  EXPECT_EQ(broadcast_ok(Shape{0}, Shape{1}), (Shape{0}));
  EXPECT_EQ(broadcast_ok(Shape{2, 0, 3}, Shape{1, 3}), (Shape{2, 0, 3}));
}

TEST(BroadcastShapes, ThreeOperands) {
  const Shape a{4, 1, 1}, b{1, 5, 1}, c{6};
  BroadcastOperand operands[3] = {{&a, "input", 0, "cond"}, {&b, "input", 1, "x"}, {&c, "input", 2, "y"}};
  Shape out;
  ASSERT_TRUE(broadcast_shapes(Span<const BroadcastOperand>(operands, 3), out).ok());
  EXPECT_EQ(out, (Shape{4, 5, 6}));
}

TEST(BroadcastShapes, IncompatibleSizesNameBothOperandsAndTheAxis) {
  Shape out;
  Status s = broadcast_two(Shape{2, 3}, Shape{4}, out);
  ASSERT_EQ(s.code(), StatusCode::invalid_model);
  const std::string message = s.message();
  EXPECT_NE(message.find("input 0 'A' with shape [2,3]"), std::string::npos) << message;
  EXPECT_NE(message.find("input 1 'B' with shape [4]"), std::string::npos) << message;
  EXPECT_NE(message.find("output axis 1"), std::string::npos) << message;
  EXPECT_NE(message.find("size 3 and 4"), std::string::npos) << message;

  EXPECT_EQ(broadcast_two(Shape{0}, Shape{2}, out).code(), StatusCode::invalid_model);
}

TEST(BroadcastShapes, UsesTheOperandLabel) {
  const Shape input{3, 2}, target{4, 3};
  BroadcastOperand operands[2] = {{&input, "input", 0, "x"}, {&target, "value of input", 1, "shape"}};
  Shape out;
  Status s = broadcast_shapes(Span<const BroadcastOperand>(operands, 2), out);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find("value of input 1 'shape' with shape [4,3]"), std::string::npos)
      << s.message();
}

TEST(BroadcastShapes, UnknownDimsTakeTheKnownSize) {
  const std::int64_t unknown = Shape::kUnknownDim;
  EXPECT_EQ(broadcast_ok(Shape{unknown, 3}, Shape{4, 3}), (Shape{4, 3}));
  EXPECT_EQ(broadcast_ok(Shape{unknown, 3}, Shape{1, 3}), (Shape{unknown, 3}));
  EXPECT_EQ(broadcast_ok(Shape{unknown}, Shape{unknown}), (Shape{unknown}));
}

TEST(BroadcastPlan, SameShapesBecomeOneElementwiseRow) {
  const Shape a{3, 4, 5};
  BroadcastPlan<2> plan;
  ASSERT_TRUE(make_broadcast_plan({&a, &a}, a, plan).ok());
  EXPECT_TRUE(plan.is_elementwise());
  EXPECT_EQ(plan.rank, 1);
  EXPECT_EQ(plan.row_length(), 60);
  EXPECT_EQ(plan.output_count, 60);
}

TEST(BroadcastPlan, ScalarOperandRepeatsAlongOneRow) {
  const Shape a{3, 4, 5}, scalar{}, one{1, 1};
  for (const Shape* s : {&scalar, &one}) {
    BroadcastPlan<2> plan;
    ASSERT_TRUE(make_broadcast_plan({&a, s}, a, plan).ok());
    EXPECT_EQ(plan.rank, 1);
    EXPECT_EQ(plan.row_length(), 60);
    EXPECT_EQ(plan.inner_stride(0), 1);
    EXPECT_EQ(plan.inner_stride(1), 0);
    EXPECT_FALSE(plan.is_elementwise());
  }
}

TEST(BroadcastPlan, ChannelBiasFoldsToChannelsTimesPixels) {
  const Shape x{1, 3, 4, 5}, bias{3, 1, 1};
  BroadcastPlan<2> plan;
  ASSERT_TRUE(make_broadcast_plan({&x, &bias}, x, plan).ok());
  ASSERT_EQ(plan.rank, 2);
  EXPECT_EQ(plan.dims[0], 3);
  EXPECT_EQ(plan.dims[1], 20);
  EXPECT_EQ(plan.strides[0][0], 20);
  EXPECT_EQ(plan.strides[0][1], 1);
  EXPECT_EQ(plan.strides[1][0], 1);
  EXPECT_EQ(plan.strides[1][1], 0);
}

TEST(BroadcastPlan, EmptyOutputVisitsNothing) {
  const Shape a{2, 0, 3}, b{3};
  BroadcastPlan<2> plan;
  ASSERT_TRUE(make_broadcast_plan({&a, &b}, a, plan).ok());
  int rows = 0;
  plan.for_each_row([&](const std::int64_t*, std::int64_t, std::int64_t) { ++rows; });
  EXPECT_EQ(rows, 0);
}

TEST(BroadcastPlan, RejectsOperandsThatDoNotBroadcastToTheOutput) {
  const Shape a{2, 3}, b{4}, out{2, 3};
  BroadcastPlan<2> plan;
  EXPECT_EQ(make_broadcast_plan({&a, &b}, out, plan).code(), StatusCode::invalid_argument);
  const Shape unknown{Shape::kUnknownDim, 3};
  EXPECT_EQ(make_broadcast_plan({&unknown, &a}, out, plan).code(), StatusCode::unsupported);
}

// Offset of output element `linear` in an operand of shape `shape` broadcast to `out`, by unravelling the
// index: the definition the plan must reproduce.
std::int64_t naive_offset(std::int64_t linear, const Shape& out, const Shape& shape) {
  std::int64_t offset = 0, stride = 1;
  const int lead = out.rank() - shape.rank();
  for (int axis = out.rank() - 1; axis >= 0; --axis) {
    const std::int64_t index = linear % out[axis];
    linear /= out[axis];
    if (axis < lead) continue;
    const std::int64_t dim = shape[axis - lead];
    if (dim != 1) offset += index * stride;
    stride *= dim;
  }
  return offset;
}

struct Lcg {
  std::uint64_t state;
  int next(int bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(bound));
  }
};

// Random output shape, then each operand keeps a random suffix of it with random dims set to 1.
TEST(BroadcastPlan, MatchesNaiveIndexingOnRandomShapes) {
  Lcg rng{12345};
  for (int trial = 0; trial < 500; ++trial) {
    const int rank = rng.next(6);
    Shape full;
    full.resize(rank);
    for (int i = 0; i < rank; ++i) full[i] = 1 + rng.next(4);
    Shape operands[3];
    for (Shape& s : operands) {
      const int keep = rank == 0 ? 0 : rng.next(rank + 1);
      s = Shape();
      s.resize(keep);
      for (int i = 0; i < keep; ++i) s[i] = rng.next(3) == 0 ? 1 : full[rank - keep + i];
    }
    BroadcastOperand described[3];
    for (int i = 0; i < 3; ++i) described[i].shape = &operands[i];
    Shape out;
    ASSERT_TRUE(broadcast_shapes(Span<const BroadcastOperand>(described, 3), out).ok());
    BroadcastPlan<3> plan;
    ASSERT_TRUE(make_broadcast_plan({&operands[0], &operands[1], &operands[2]}, out, plan).ok());
    ASSERT_EQ(plan.output_count, out.element_count());

    std::vector<std::int64_t> seen;
    bool match = true;
    plan.for_each_row([&](const std::int64_t* offsets, std::int64_t out_offset, std::int64_t n) {
      EXPECT_EQ(out_offset, static_cast<std::int64_t>(seen.size()));
      for (std::int64_t e = 0; e < n; ++e) {
        const std::int64_t linear = out_offset + e;
        for (int i = 0; i < 3; ++i) {
          const std::int64_t got = offsets[i] + e * plan.inner_stride(i);
          if (got != naive_offset(linear, out, operands[i])) match = false;
        }
        seen.push_back(linear);
      }
    });
    ASSERT_TRUE(match) << "trial " << trial << ": operand offsets differ from naive indexing";
    ASSERT_EQ(static_cast<std::int64_t>(seen.size()), out.element_count()) << "trial " << trial;
    for (int i = 0; i < 3; ++i) {
      const std::int64_t s = plan.inner_stride(i);
      ASSERT_TRUE(s == 0 || s == 1) << "trial " << trial;
    }
  }
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
