// SPDX-License-Identifier: MIT
// The random generator ops (RandomUniform, RandomNormal, *Like, Bernoulli, Multinomial), whose suite cases cannot
// match numpy's generator: PCG32 against its published reference outputs, distribution statistics over 10000
// draws with fixed seeds (mean, variance, rates, frequencies), determinism per seed, runs that advance the
// sequence, dtypes and shapes, version selection, errors, and through Model + Session that a random node is never
// folded at prepare time while two unseeded nodes still differ and a second session reproduces the first.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_harness.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::StatusCode;
using onnxmicro_test::KernelHarness;
using onnxmicro_test::make;
using onnxmicro_test::make_attribute_float;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::make_attribute_ints;
using onnxmicro_test::NodeResult;
using onnxmicro_test::ProtoWriter;
using onnxmicro_test::run_node;
using onnxmicro_test::TestTensor;
using onnxmicro_test::values_of;

om::KernelRegistry registry() { return om::all_kernels_registry(); }

constexpr int kCount = 10000;

// Every element of `t` as double, whatever its dtype.
std::vector<double> doubles(const TestTensor& t) {
  std::vector<double> out;
  const std::size_t n = static_cast<std::size_t>(t.shape.element_count());
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char* p = t.bytes.data();
    switch (t.dtype) {
      case DataType::float32: out.push_back(values_of<float>(t)[i]); break;
      case DataType::float64: out.push_back(values_of<double>(t)[i]); break;
      case DataType::float16: out.push_back(values_of<om::float16_t>(t)[i].to_float()); break;
      case DataType::bfloat16: out.push_back(values_of<om::bfloat16_t>(t)[i].to_float()); break;
      case DataType::int32: out.push_back(values_of<std::int32_t>(t)[i]); break;
      case DataType::int64: out.push_back(static_cast<double>(values_of<std::int64_t>(t)[i])); break;
      case DataType::boolean: out.push_back(p[i] != 0 ? 1.0 : 0.0); break;
      default: ADD_FAILURE() << "unexpected dtype"; return out;
    }
  }
  return out;
}

double mean_of(const std::vector<double>& v) {
  double sum = 0.0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

double variance_of(const std::vector<double>& v) {
  const double m = mean_of(v);
  double sum = 0.0;
  for (double x : v) sum += (x - m) * (x - m);
  return sum / static_cast<double>(v.size() - 1);
}

NodeResult shaped(const std::string& op, int opset, std::vector<ProtoWriter> attributes) {
  return run_node(registry(), op, opset, {}, attributes);
}

TEST(RandomPcg32, MatchesTheReferenceImplementationsPublishedOutputs) {
  // pcg32_srandom_r(&rng, 42, 54) from pcg32-demo, whose first outputs are published with the PCG paper's code.
  om::kernels::random_util::Pcg32 rng{0, (54u << 1) | 1u};
  (void)rng.next();
  rng.state += 42;
  (void)rng.next();
  const std::uint32_t expected[] = {0xa15c02b7u, 0x7b47f409u, 0xba1d3330u, 0x83d2f293u, 0xbfa4784bu, 0xcbed606eu};
  for (std::uint32_t e : expected) EXPECT_EQ(rng.next(), e);
}

TEST(RandomUniform, DrawsFromLowToHighWithTheUniformMeanAndVariance) {
  NodeResult r = shaped("RandomUniform", 22,
                        {make_attribute_ints("shape", {100, 100}), make_attribute_float("low", -2.0f),
                         make_attribute_float("high", 3.0f), make_attribute_float("seed", 7.0f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::float32);
  EXPECT_EQ(r.output.shape, (Shape{100, 100}));
  const std::vector<double> v = doubles(r.output);
  for (double x : v) ASSERT_TRUE(x >= -2.0 && x < 3.0) << x;
  EXPECT_NEAR(mean_of(v), 0.5, 0.06);              // 4 standard errors of sqrt(25/12/10000)
  EXPECT_NEAR(variance_of(v), 25.0 / 12.0, 0.12);  // (high - low)^2 / 12
}

TEST(RandomUniform, Float16Bfloat16AndDoubleOutputsByVersion) {
  for (DataType dtype : {DataType::float16, DataType::float64, DataType::bfloat16}) {
    NodeResult r =
        shaped("RandomUniform", 22,
               {make_attribute_ints("shape", {kCount}), make_attribute_int("dtype", static_cast<int>(dtype))});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(r.output.dtype, dtype);
    const std::vector<double> v = doubles(r.output);
    for (double x : v) ASSERT_TRUE(x >= 0.0 && x <= 1.0) << x;  // rounding to 16 bits may reach 1
    EXPECT_NEAR(mean_of(v), 0.5, 0.015);
  }
  // bfloat16 arrives in opset 22.
  NodeResult old = shaped("RandomUniform", 21, {make_attribute_ints("shape", {2}), make_attribute_int("dtype", 16)});
  ASSERT_FALSE(old.status.ok());
  EXPECT_NE(
      std::string(old.status.message()).find("attribute 'dtype' is 16 (bfloat16); allowed: float16, float, double"),
      std::string::npos)
      << old.status.message();
}

TEST(RandomUniform, ShapeAndDtypeErrors) {
  NodeResult missing = shaped("RandomUniform", 1, {});
  ASSERT_FALSE(missing.status.ok());
  EXPECT_EQ(missing.status.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(missing.status.message()).find("required attribute 'shape'"), std::string::npos);
  NodeResult negative = shaped("RandomUniform", 1, {make_attribute_ints("shape", {2, -3})});
  ASSERT_FALSE(negative.status.ok());
  EXPECT_NE(std::string(negative.status.message()).find("dim -3 at position 1"), std::string::npos)
      << negative.status.message();
  NodeResult integer = shaped("RandomUniform", 22, {make_attribute_ints("shape", {2}), make_attribute_int("dtype", 6)});
  ASSERT_FALSE(integer.status.ok());
  EXPECT_EQ(integer.status.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(integer.status.message()).find("attribute 'dtype' is 6 (int32)"), std::string::npos)
      << integer.status.message();
  NodeResult empty = shaped("RandomUniform", 1, {make_attribute_ints("shape", {0, 4})});
  ASSERT_TRUE(empty.status.ok()) << empty.status.message();
  EXPECT_EQ(empty.output.shape, (Shape{0, 4}));
}

TEST(RandomUniform, SameSeedSameValuesAndEveryRunAdvances) {
  const std::vector<ProtoWriter> attributes = {make_attribute_ints("shape", {16}), make_attribute_float("seed", 3.0f)};
  KernelHarness a(registry(), "RandomUniform", 22, {}, attributes);
  KernelHarness b(registry(), "RandomUniform", 22, {}, attributes);
  KernelHarness other(registry(), "RandomUniform", 22, {},
                      {make_attribute_ints("shape", {16}), make_attribute_float("seed", 4.0f)});
  ASSERT_TRUE(a.prepare_status.ok() && b.prepare_status.ok() && other.prepare_status.ok());
  TestTensor a1, a2, b1, b2, o1;
  ASSERT_TRUE(a.run(a1).ok());
  ASSERT_TRUE(a.run(a2).ok());
  ASSERT_TRUE(b.run(b1).ok());
  ASSERT_TRUE(b.run(b2).ok());
  ASSERT_TRUE(other.run(o1).ok());
  EXPECT_EQ(values_of<float>(a1), values_of<float>(b1));  // one seed, one sequence
  EXPECT_EQ(values_of<float>(a2), values_of<float>(b2));
  EXPECT_NE(values_of<float>(a1), values_of<float>(a2));  // the state advances across runs
  EXPECT_NE(values_of<float>(a1), values_of<float>(o1));  // another seed, another sequence
}

TEST(RandomNormal, HasTheRequestedMeanAndStandardDeviation) {
  for (DataType dtype : {DataType::float32, DataType::float64, DataType::float16}) {
    NodeResult r = shaped("RandomNormal", 1,
                          {make_attribute_ints("shape", {kCount}), make_attribute_float("mean", 1.5f),
                           make_attribute_float("scale", 2.0f), make_attribute_float("seed", 11.0f),
                           make_attribute_int("dtype", static_cast<int>(dtype))});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(r.output.dtype, dtype);
    const std::vector<double> v = doubles(r.output);
    EXPECT_NEAR(mean_of(v), 1.5, 0.08);  // 4 standard errors of 2/100
    EXPECT_NEAR(variance_of(v), 4.0, 0.25);
    int within_one_sigma = 0;
    for (double x : v) within_one_sigma += std::fabs(x - 1.5) < 2.0 ? 1 : 0;
    EXPECT_NEAR(within_one_sigma / static_cast<double>(kCount), 0.6827, 0.02);
  }
}

TEST(RandomNormal, Bfloat16FromOpset22) {
  NodeResult r = shaped("RandomNormal", 22, {make_attribute_ints("shape", {3, 2}), make_attribute_int("dtype", 16)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::bfloat16);
  EXPECT_EQ(r.output.shape, (Shape{3, 2}));
  EXPECT_FALSE(
      shaped("RandomNormal", 21, {make_attribute_ints("shape", {2}), make_attribute_int("dtype", 16)}).status.ok());
}

TEST(RandomUniformLike, TakesTheInputsShapeAndDtypeOrTheDtypeAttribute) {
  TestTensor half = make<std::uint16_t>(DataType::float16, Shape{2, 3}, {0, 0, 0, 0, 0, 0});
  NodeResult same = run_node(registry(), "RandomUniformLike", 1, {half});
  ASSERT_TRUE(same.status.ok()) << same.status.message();
  EXPECT_EQ(same.output.dtype, DataType::float16);
  EXPECT_EQ(same.output.shape, (Shape{2, 3}));
  TestTensor ints = make<std::int32_t>(Shape{4}, {1, 2, 3, 4});
  NodeResult converted = run_node(registry(), "RandomUniformLike", 1, {ints}, {make_attribute_int("dtype", 11)});
  ASSERT_TRUE(converted.status.ok()) << converted.status.message();
  EXPECT_EQ(converted.output.dtype, DataType::float64);
  NodeResult no_dtype = run_node(registry(), "RandomUniformLike", 1, {ints});
  ASSERT_FALSE(no_dtype.status.ok());
  EXPECT_NE(std::string(no_dtype.status.message()).find("input 0's dtype (no 'dtype' attribute) is 6 (int32)"),
            std::string::npos)
      << no_dtype.status.message();
}

TEST(RandomUniformLike, StatisticsOverManyDraws) {
  TestTensor x = make<float>(Shape{kCount}, std::vector<float>(kCount, 0.0f));
  NodeResult r = run_node(registry(), "RandomUniformLike", 22, {x},
                          {make_attribute_float("low", 10.0f), make_attribute_float("high", 12.0f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<double> v = doubles(r.output);
  for (double e : v) ASSERT_TRUE(e >= 10.0 && e < 12.0) << e;
  EXPECT_NEAR(mean_of(v), 11.0, 0.025);
  EXPECT_NEAR(variance_of(v), 4.0 / 12.0, 0.02);
}

TEST(RandomNormalLike, StatisticsOverManyDraws) {
  TestTensor x = make<double>(Shape{100, 100}, std::vector<double>(kCount, 0.0));
  NodeResult r = run_node(registry(), "RandomNormalLike", 1, {x},
                          {make_attribute_float("mean", -3.0f), make_attribute_float("scale", 0.5f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::float64);
  EXPECT_EQ(r.output.shape, (Shape{100, 100}));
  const std::vector<double> v = doubles(r.output);
  EXPECT_NEAR(mean_of(v), -3.0, 0.02);
  EXPECT_NEAR(variance_of(v), 0.25, 0.016);
}

TEST(Bernoulli, RateFollowsTheProbabilityInEveryOutputDtype) {
  TestTensor p = make<float>(Shape{kCount}, std::vector<float>(kCount, 0.3f));
  for (DataType dtype : {DataType::float32, DataType::boolean, DataType::int64, DataType::bfloat16, DataType::int32}) {
    NodeResult r = run_node(registry(), "Bernoulli", 15, {p},
                            {make_attribute_int("dtype", static_cast<int>(dtype)), make_attribute_float("seed", 5.0f)});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(r.output.dtype, dtype);
    const std::vector<double> v = doubles(r.output);
    for (double e : v) ASSERT_TRUE(e == 0.0 || e == 1.0) << e;
    EXPECT_NEAR(mean_of(v), 0.3, 0.02);  // 4 standard errors of sqrt(0.21/10000)
  }
}

TEST(Bernoulli, ZeroAndOneAreExactAndDefaultDtypeIsTheInputs) {
  TestTensor p = make<double>(Shape{2, 3}, {0.0, 1.0, 0.0, 1.0, 1.0, 0.0});
  NodeResult r = run_node(registry(), "Bernoulli", 22, {p});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::float64);
  EXPECT_EQ(r.output.shape, (Shape{2, 3}));
  EXPECT_EQ(values_of<double>(r.output), (std::vector<double>{0.0, 1.0, 0.0, 1.0, 1.0, 0.0}));
}

TEST(Bernoulli, ProbabilityOutsideZeroOneFailsNamingValueAndPosition) {
  TestTensor p = make<float>(Shape{4}, {0.5f, 0.2f, 1.0f, 1.5f});
  NodeResult r = run_node(registry(), "Bernoulli", 15, {p});
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.code(), StatusCode::out_of_range);
  EXPECT_NE(std::string(r.status.message()).find("probability 1.5 at flat index 3"), std::string::npos)
      << r.status.message();
  TestTensor nan = make<float>(Shape{2}, {0.5f, std::nanf("")});
  EXPECT_FALSE(run_node(registry(), "Bernoulli", 15, {nan}).status.ok());
  TestTensor negative = make<float>(Shape{1}, {-0.25f});
  EXPECT_FALSE(run_node(registry(), "Bernoulli", 15, {negative}).status.ok());
}

TEST(Bernoulli, DtypeErrorsAndBfloat16InputFromOpset22) {
  TestTensor ints = make<std::int32_t>(Shape{1}, {0});
  NodeResult bad_input = run_node(registry(), "Bernoulli", 22, {ints});
  ASSERT_FALSE(bad_input.status.ok());
  EXPECT_NE(std::string(bad_input.status.message()).find("input 0's dtype is 6 (int32)"), std::string::npos)
      << bad_input.status.message();
  TestTensor p = make<float>(Shape{1}, {0.5f});
  NodeResult bad_output = run_node(registry(), "Bernoulli", 15, {p}, {make_attribute_int("dtype", 8)});
  ASSERT_FALSE(bad_output.status.ok());
  EXPECT_NE(std::string(bad_output.status.message()).find("attribute 'dtype' is 8 (string)"), std::string::npos)
      << bad_output.status.message();
  TestTensor half = make<om::bfloat16_t>(Shape{1}, {om::bfloat16_t::from_float(1.0f)});
  EXPECT_FALSE(run_node(registry(), "Bernoulli", 15, {half}).status.ok());
  NodeResult newer = run_node(registry(), "Bernoulli", 22, {half});
  ASSERT_TRUE(newer.status.ok()) << newer.status.message();
  EXPECT_EQ(newer.output.dtype, DataType::bfloat16);
  EXPECT_EQ(doubles(newer.output), (std::vector<double>{1.0}));
}

TEST(Multinomial, FrequenciesFollowTheSoftmaxOfTheLogits) {
  const float minus_infinity = -HUGE_VALF;
  TestTensor logits = make<float>(
      Shape{2, 3}, {std::log(0.1f) + 4.0f, std::log(0.2f) + 4.0f, std::log(0.7f) + 4.0f, 0.0f, 0.0f, minus_infinity});
  for (DataType dtype : {DataType::int32, DataType::int64}) {
    NodeResult r = run_node(registry(), "Multinomial", 7, {logits},
                            {make_attribute_int("sample_size", kCount),
                             make_attribute_int("dtype", static_cast<int>(dtype)), make_attribute_float("seed", 1.0f)});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(r.output.dtype, dtype);
    EXPECT_EQ(r.output.shape, (Shape{2, kCount}));
    const std::vector<double> v = doubles(r.output);
    double counts[2][3] = {};
    for (int row = 0; row < 2; ++row) {
      for (int k = 0; k < kCount; ++k) {
        const double c = v[static_cast<std::size_t>(row * kCount + k)];
        ASSERT_TRUE(c == 0.0 || c == 1.0 || c == 2.0) << c;
        counts[row][static_cast<int>(c)] += 1.0 / kCount;
      }
    }
    EXPECT_NEAR(counts[0][0], 0.1, 0.015);
    EXPECT_NEAR(counts[0][1], 0.2, 0.02);
    EXPECT_NEAR(counts[0][2], 0.7, 0.02);
    EXPECT_NEAR(counts[1][0], 0.5, 0.02);
    EXPECT_EQ(counts[1][2], 0.0);  // probability exp(-inf) = 0
  }
}

TEST(Multinomial, DefaultsToOneInt32SampleAndChecksAttributesAndLogits) {
  TestTensor logits = make<double>(Shape{3, 2}, {0.0, 0.0, 1.0, 2.0, -1.0, 5.0});
  NodeResult r = run_node(registry(), "Multinomial", 22, {logits});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output.dtype, DataType::int32);
  EXPECT_EQ(r.output.shape, (Shape{3, 1}));
  NodeResult bad_dtype = run_node(registry(), "Multinomial", 7, {logits}, {make_attribute_int("dtype", 1)});
  ASSERT_FALSE(bad_dtype.status.ok());
  EXPECT_NE(std::string(bad_dtype.status.message()).find("attribute 'dtype' is 1 (float)"), std::string::npos)
      << bad_dtype.status.message();
  NodeResult no_samples = run_node(registry(), "Multinomial", 7, {logits}, {make_attribute_int("sample_size", 0)});
  ASSERT_FALSE(no_samples.status.ok());
  EXPECT_NE(std::string(no_samples.status.message()).find("'sample_size' is 0"), std::string::npos);
  TestTensor flat = make<float>(Shape{3}, {0.0f, 0.0f, 0.0f});
  EXPECT_FALSE(run_node(registry(), "Multinomial", 7, {flat}).status.ok());
  const float minus_infinity = -HUGE_VALF;
  TestTensor impossible = make<float>(Shape{2, 2}, {0.0f, 1.0f, minus_infinity, minus_infinity});
  NodeResult all_minus_infinity = run_node(registry(), "Multinomial", 7, {impossible});
  ASSERT_FALSE(all_minus_infinity.status.ok());
  EXPECT_NE(std::string(all_minus_infinity.status.message()).find("row 1"), std::string::npos)
      << all_minus_infinity.status.message();
}

// Through a session: RandomUniformLike of a constant (which a foldable node would compute at prepare time) and two
// unseeded RandomUniform nodes.
struct RandomModel {
  std::vector<unsigned char> bytes;
  om::Model model;
  om::Session session;
  om::Status prepare() {
    using namespace onnxmicro_test;
    ProtoWriter graph =
        make_graph("g",
                   {make_node("RandomUniformLike", {"c"}, {"like"}),
                    make_node("RandomUniform", {}, {"u1"}, {make_attribute_ints("shape", {8})}),
                    make_node("RandomUniform", {}, {"u2"}, {make_attribute_ints("shape", {8})})},
                   {},
                   {make_value_info("like", DataType::float32, {4}), make_value_info("u1", DataType::float32, {8}),
                    make_value_info("u2", DataType::float32, {8})},
                   {make_float_tensor("c", {4}, {1.0f, 2.0f, 3.0f, 4.0f})});
    bytes = make_model(graph, 22).bytes();
    om::Status st = model.load(om::ByteSpan(bytes.data(), bytes.size()));
    if (!st.ok()) return st;
    return session.prepare(model, om::all_kernels_registry());
  }
  std::vector<float> output(std::size_t i) {
    const om::ConstTensorView y = session.output(i);
    const float* data = y.data_as<float>();
    return std::vector<float>(data, data + y.shape.element_count());
  }
};

TEST(RandomUniformLike, IsNeverFoldedAndUnseededNodesDifferButReproduce) {
  RandomModel first;
  ASSERT_TRUE(first.prepare().ok());
  for (const om::NodeReport& report : first.session.node_reports()) EXPECT_FALSE(report.folded);
  ASSERT_TRUE(first.session.run().ok());
  const std::vector<float> like1 = first.output(0);
  const std::vector<float> u1 = first.output(1);
  const std::vector<float> u2 = first.output(2);
  EXPECT_NE(u1, u2);  // the node index is mixed into the seed
  ASSERT_TRUE(first.session.run().ok());
  EXPECT_NE(first.output(0), like1);  // recomputed on every run
  RandomModel second;
  ASSERT_TRUE(second.prepare().ok());
  ASSERT_TRUE(second.session.run().ok());
  EXPECT_EQ(second.output(0), like1);  // no clock, no /dev/urandom: a new session reproduces the first
  EXPECT_EQ(second.output(1), u1);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
