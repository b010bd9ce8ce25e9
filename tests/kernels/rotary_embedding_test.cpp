// SPDX-License-Identifier: MIT
// RotaryEmbedding beyond the ONNX node suite (float only): float16 and bfloat16 with interleaving, a partial
// rotary dimension and a 3-D input, against a reference written from the definition; position ids outside the
// caches fail at run time instead of reading out of bounds; attribute and shape errors.
#include <cmath>
#include <vector>

#include "support/node_runner.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::node_runner;
using onnxmicro_test::make_attribute_int;

// Reference on a (batch, seq, heads, head) view: caches indexed by position_ids[b][s].
std::vector<double> rotary_ref(const std::vector<double>& x, int batch, int seq, int heads, int head, int rotary,
                               bool interleaved, const std::vector<double>& cos, const std::vector<double>& sin,
                               const std::vector<int>& positions) {
  std::vector<double> y = x;
  const int half = rotary / 2;
  for (int b = 0; b < batch; ++b) {
    for (int s = 0; s < seq; ++s) {
      const int p = positions[b * seq + s];
      for (int h = 0; h < heads; ++h) {
        const int base = ((b * seq + s) * heads + h) * head;
        for (int i = 0; i < half; ++i) {
          const int i1 = interleaved ? 2 * i : i;
          const int i2 = interleaved ? 2 * i + 1 : i + half;
          const double c = cos[p * half + i], sn = sin[p * half + i];
          y[base + i1] = c * x[base + i1] - sn * x[base + i2];
          y[base + i2] = sn * x[base + i1] + c * x[base + i2];
        }
      }
    }
  }
  return y;
}

void check(DataType dtype, bool interleaved, double tolerance) {
  const int batch = 2, seq = 3, heads = 2, head = 8, rotary = 4, positions = 5;
  const auto x = ramp(batch * seq * heads * head, 1);
  std::vector<double> cos, sin;
  for (int p = 0; p < positions; ++p) {
    for (int i = 0; i < rotary / 2; ++i) {
      cos.push_back(std::cos(p * (i + 1) * 0.3));
      sin.push_back(std::sin(p * (i + 1) * 0.3));
    }
  }
  const std::vector<int> ids = {4, 0, 2, 1, 3, 3};
  NodeRun r =
      run_node("RotaryEmbedding", {{"", 23}},
               {input("X", dtype, {batch, seq, heads * head}, x), input("cos", dtype, {positions, rotary / 2}, cos),
                input("sin", dtype, {positions, rotary / 2}, sin),
                input("ids", DataType::int64, {batch, seq}, {4, 0, 2, 1, 3, 3})},
               {{"Y", dtype}},
               {make_attribute_int("num_heads", heads), make_attribute_int("rotary_embedding_dim", rotary),
                make_attribute_int("interleaved", interleaved ? 1 : 0)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.dtypes[0], dtype);
  expect_near_all(r.values[0], rotary_ref(x, batch, seq, heads, head, rotary, interleaved, cos, sin, ids), tolerance);
}

TEST(RotaryEmbeddingKernel, Float16InterleavedPartialRotation) { check(DataType::float16, true, 4e-3); }
TEST(RotaryEmbeddingKernel, BFloat16HalvesPartialRotation) { check(DataType::bfloat16, false, 3e-2); }
TEST(RotaryEmbeddingKernel, FloatHalvesPartialRotation) { check(DataType::float32, false, 1e-6); }

TEST(RotaryEmbeddingKernel, PositionIdOutsideTheCacheFailsAtRun) {
  NodeRun r = run_node(
      "RotaryEmbedding", {{"", 23}},
      {input("X", DataType::float32, {1, 1, 1, 4}, ramp(4, 1)), input("cos", DataType::float32, {2, 2}, ramp(4, 2)),
       input("sin", DataType::float32, {2, 2}, ramp(4, 3)), input("ids", DataType::int64, {1, 1}, {2})},
      {{"Y"}});
  expect_error(r.status, StatusCode::out_of_range, "'position_ids' holds 2, outside [0, 2)");
}

TEST(RotaryEmbeddingKernel, ValidationMessages) {
  const Input x = input("X", DataType::float32, {1, 1, 2, 4}, ramp(8, 1));
  const Input cos = input("cos", DataType::float32, {1, 2, 2}, ramp(4, 2));
  const Input sin = input("sin", DataType::float32, {1, 2, 2}, ramp(4, 3));
  expect_error(
      run_node("RotaryEmbedding", {{"", 23}}, {x, cos, sin}, {{"Y"}}, {make_attribute_int("rotary_embedding_dim", 3)})
          .status,
      StatusCode::invalid_model, "'rotary_embedding_dim' is 3, expected an even value in [0, head_size = 4]");
  expect_error(
      run_node("RotaryEmbedding", {{"", 23}}, {x, cos, sin}, {{"Y"}}, {make_attribute_int("rotary_embedding_dim", 2)})
          .status,
      StatusCode::invalid_model, "dim 2 must be 1 (rotary_embedding_dim / 2)");
  expect_error(run_node("RotaryEmbedding", {{"", 23}},
                        {input("X", DataType::float32, {1, 2, 8}, ramp(16, 1)), cos, sin}, {{"Y"}})
                   .status,
               StatusCode::invalid_model, "required attribute 'num_heads'");
  expect_error(run_node("RotaryEmbedding", {{"", 23}},
                        {input("X", DataType::float64, {1, 1, 2, 4}, ramp(8, 1)),
                         input("cos", DataType::float64, {1, 2, 2}, ramp(4, 2)),
                         input("sin", DataType::float64, {1, 2, 2}, ramp(4, 3))},
                        {{"Y", DataType::float64}})
                   .status,
               StatusCode::unsupported, "has dtype double");
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
