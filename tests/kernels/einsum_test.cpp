// SPDX-License-Identifier: MIT
// Einsum beyond the ONNX node suite: implicit outputs (ASCII order, upper case first), traces and diagonals,
// three operands, ellipsis broadcasting between operands of different batch ranks, size-1 broadcasting, summed
// ellipsis dims, empty sums, integer wrapping, and the equation errors; all against loops written out by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_test_prelude.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::prelude;

NodeResult einsum(const std::string& equation, const std::vector<TestTensor>& inputs, int opset = 12) {
  return onnxmicro_test::run_node(om::all_kernels_registry(), "Einsum", opset, inputs,
                                  {onnxmicro_test::make_attribute_string("equation", equation)});
}
std::vector<float> iota(std::size_t n, float start = 1.0f) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = start + static_cast<float>(i);
  return v;
}

TEST(Einsum, ImplicitOutputSortsLabelsUpperCaseFirst) {
  // "ji" implicit is "ij": a transpose. "bA" implicit is "Ab": also a transpose.
  const std::vector<float> x = iota(6);  // [2, 3]
  for (const char* equation : {"ji", "bA"}) {
    NodeResult r = einsum(equation, {make<float>({2, 3}, x)});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(r.output.shape, (Shape{3, 2}));
    EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  }
  // "ij,jk" implicit is "ik": a matrix product.
  NodeResult r = einsum("ij,jk", {make<float>({2, 3}, x), make<float>({3, 2}, iota(6, -2.0f))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // [[1,2,3],[4,5,6]] x [[-2,-1],[0,1],[2,3]]
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{4, 10, 4, 19}));
}

TEST(Einsum, TraceDiagonalAndSums) {
  const std::vector<float> m = iota(9);  // [[1,2,3],[4,5,6],[7,8,9]]
  NodeResult r = einsum("ii", {make<float>({3, 3}, m)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape.rank(), 0);
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{15}));
  r = einsum("ii->i", {make<float>({3, 3}, m)});
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1, 5, 9}));
  r = einsum("ij->j", {make<float>({3, 3}, m)});
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{12, 15, 18}));
  r = einsum("ij -> ", {make<float>({3, 3}, m)});
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{45}));
}

TEST(Einsum, ThreeOperandsAndOuterProduct) {
  NodeResult r = einsum("i,j->ij", {make<float>({2}, {2, 3}), make<float>({3}, {1, 10, 100})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{2, 20, 200, 3, 30, 300}));
  // sum_jk a[i,j] b[j,k] c[k] with a = [[1,2]], b = [[1,0],[0,1]] * 2, c = [3, 4]: (1*2*3 + 2*2*4) = 22.
  r = einsum("ij,jk,k->i", {make<float>({1, 2}, {1, 2}), make<float>({2, 2}, {2, 0, 0, 2}), make<float>({2}, {3, 4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{22}));
}

TEST(Einsum, EllipsisBroadcastsAcrossBatchRanksAndSize1Dims) {
  // a: [2, 1, 2] ("...ij" with batch [2]), b: [2, 1] ("jk", no batch): out[b,i,k] = a[b,i,0]*b[0,k] + a[b,i,1]*b[1,k].
  NodeResult r = einsum("...ij,jk->...ik", {make<float>({2, 1, 2}, {1, 2, 3, 4}), make<float>({2, 1}, {10, 100})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.shape, (Shape{2, 1, 1}));
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{210, 430}));
  // Batch dims of size 1 broadcast against 3: a [1, 2] ("...i"), b [3, 2] ("...i") -> [3].
  r = einsum("...i,...i->...", {make<float>({1, 2}, {1, 2}), make<float>({3, 2}, iota(6))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{5, 11, 17}));
  // Implicit mode puts the ellipsis dims first; "...ii->...i" is a batched diagonal.
  r = einsum("...ii->...i", {make<float>({2, 2, 2}, iota(8))});
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{1, 4, 5, 8}));
  // Ellipsis dims left out of an explicit output are summed.
  r = einsum("...i->i", {make<float>({2, 2}, iota(4))});
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{4, 6}));
}

TEST(Einsum, EmptySumIsZeroAndIntegersWrap) {
  NodeResult r = einsum("ij->i", {make<float>({2, 0}, {})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<float>(r.output), (std::vector<float>{0, 0}));
  r = einsum("i,i", {make<std::int8_t>({2}, {100, 100}), make<std::int8_t>({2}, {2, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<std::int8_t>(r.output), (std::vector<std::int8_t>{44}));  // 300 mod 256
}

TEST(Einsum, EquationErrorsNameTheProblem) {
  const TestTensor m = make<float>({2, 2}, iota(4));
  NodeResult r = einsum("ij,jk->ik", {m});
  EXPECT_EQ(r.status.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(r.status, "more terms than the 1 inputs")) << r.status.message();
  r = einsum("ij", {m, m});
  EXPECT_TRUE(contains(r.status, "has 1 input terms, expected one per input (2)")) << r.status.message();
  r = einsum("i1", {m});
  EXPECT_TRUE(contains(r.status, "has '1'")) << r.status.message();
  r = einsum("ijk", {m});
  EXPECT_TRUE(contains(r.status, "does not fit rank 2")) << r.status.message();
  r = einsum("ij->k", {m});
  EXPECT_TRUE(contains(r.status, "output label that no input uses")) << r.status.message();
  r = einsum("ij->ii", {m});
  EXPECT_TRUE(contains(r.status, "repeats a label in the output")) << r.status.message();
  r = einsum("ij,jk", {m, make<float>({3, 2}, iota(6))});
  EXPECT_TRUE(contains(r.status, "dimension 0 is 3 but its label has size 2")) << r.status.message();
  r = einsum("ij", {make<om::bfloat16_t>({1, 1}, {om::bfloat16_t::from_float(1)})});
  EXPECT_EQ(r.status.code(), StatusCode::unsupported);
  r = einsum("ij", {make<om::bfloat16_t>({1, 1}, {om::bfloat16_t::from_float(2)})}, 28);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(values_of<om::bfloat16_t>(r.output)[0].to_float(), 2.0f);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
