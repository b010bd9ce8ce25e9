// SPDX-License-Identifier: MIT
// BatchNormalization beyond the ONNX node suite (which has opset 15 float cases only): versions 7 (spatial = 0)
// and 9 (1-D input), training mode with momentum and optional running outputs, mixed parameter dtypes of
// opset 15 against the stricter 14, float16/float64, legacy training outputs, and validation messages.
// Expected values are the ONNX formulas evaluated in double here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Status;
using om::StatusCode;
using onnxmicro_test::make_attribute_float;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::ProtoWriter;

// ---- harness: one node in a model, run through Model + Session -------------------------------------------

struct Value {
  std::string name;
  DataType dtype = DataType::undefined;  ///< undefined: an omitted optional input
  std::vector<std::int64_t> dims;
  std::vector<unsigned char> bytes;
  bool initializer = false;

  template <typename T>
  std::vector<T> as() const {
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
  }
};

template <typename T>
Value value(std::string name, std::vector<std::int64_t> dims, const std::vector<T>& values,
            DataType dtype = om::dtype_of<T>::value) {
  Value v{std::move(name), dtype, std::move(dims), {}, false};
  v.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(v.bytes.data(), values.data(), v.bytes.size());
  return v;
}
Value constant(Value v) {
  v.initializer = true;
  return v;
}

struct Outcome {
  Status status;
  std::vector<Value> outputs;
};

Outcome run_node(const std::string& op, int opset, const std::vector<Value>& inputs,
                 const std::vector<std::pair<std::string, DataType>>& outputs,
                 const std::vector<ProtoWriter>& attributes = {}) {
  std::vector<std::string> names;
  std::vector<ProtoWriter> graph_inputs, initializers, graph_outputs;
  for (const Value& v : inputs) {
    names.push_back(v.dtype == DataType::undefined ? "" : v.name);
    if (v.dtype == DataType::undefined) continue;
    if (v.initializer) {
      initializers.push_back(onnxmicro_test::make_tensor_raw(v.name, v.dtype, v.dims, v.bytes.data(), v.bytes.size()));
    } else {
      graph_inputs.push_back(onnxmicro_test::make_value_info(v.name, v.dtype, v.dims));
    }
  }
  std::vector<std::string> output_names;
  for (const auto& o : outputs) {
    output_names.push_back(o.first);
    ProtoWriter info;
    info.string_field(1, o.first).message_field(2, onnxmicro_test::make_tensor_type(o.second, {}, false));
    graph_outputs.push_back(info);
  }
  ProtoWriter node = onnxmicro_test::make_node(op, names, output_names, attributes);
  std::vector<unsigned char> bytes =
      onnxmicro_test::make_model(onnxmicro_test::make_graph("g", {node}, graph_inputs, graph_outputs, initializers),
                                 opset)
          .bytes();
  Outcome outcome;
  om::Model model;
  outcome.status = model.load(om::ByteSpan(bytes.data(), bytes.size()));
  if (!outcome.status.ok()) return outcome;
  om::Session session;
  outcome.status = session.prepare(model, om::all_kernels_registry());
  if (!outcome.status.ok()) return outcome;
  for (const Value& v : inputs) {
    if (v.dtype == DataType::undefined || v.initializer) continue;
    om::Shape shape;
    EXPECT_TRUE(shape.assign(v.dims.data(), v.dims.size()).ok());
    outcome.status = session.set_input(v.name, om::ConstTensorView(v.dtype, shape, v.bytes.data()));
    if (!outcome.status.ok()) return outcome;
  }
  outcome.status = session.run();
  if (!outcome.status.ok()) return outcome;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    om::ConstTensorView y = session.output(i);
    Value out{outputs[i].first, y.dtype, {}, {}, false};
    for (int d = 0; d < y.shape.rank(); ++d) out.dims.push_back(y.shape[d]);
    const auto* p = static_cast<const unsigned char*>(y.data);
    out.bytes.assign(p, p + y.byte_size());
    outcome.outputs.push_back(out);
  }
  return outcome;
}

[[maybe_unused]] std::vector<float> pattern(std::size_t count, float scale = 1.0f, int seed = 1) {
  std::vector<float> v(count);
  std::uint32_t state = 2463534242u + static_cast<std::uint32_t>(seed);
  for (float& x : v) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    x = scale * (static_cast<float>(state % 2001) / 1000.0f - 1.0f);
  }
  return v;
}

[[maybe_unused]] std::int64_t count_of(const std::vector<std::int64_t>& dims) {
  std::int64_t n = 1;
  for (std::int64_t d : dims) n *= d;
  return n;
}

// ---- reference -------------------------------------------------------------------------------------------

struct Params {
  std::vector<double> scale, bias, mean, var;
};

// y = (x - mean[p]) / sqrt(var[p] + eps) * scale[p] + bias[p], p = the parameter of each element: its channel
// (inner = elements per channel), or its (channel, position) pair with spatial = 0 (inner = 1).
std::vector<double> reference_inference(const std::vector<double>& x, std::int64_t batch, std::int64_t params,
                                        std::int64_t inner, const Params& p, double epsilon) {
  std::vector<double> y(x.size());
  for (std::int64_t n = 0; n < batch; ++n)
    for (std::int64_t c = 0; c < params; ++c)
      for (std::int64_t i = 0; i < inner; ++i) {
        const std::size_t k = static_cast<std::size_t>((n * params + c) * inner + i);
        const std::size_t q = static_cast<std::size_t>(c);
        y[k] = (x[k] - p.mean[q]) / std::sqrt(p.var[q] + epsilon) * p.scale[q] + p.bias[q];
      }
  return y;
}

Params make_params(std::size_t count, int seed) {
  Params p;
  for (float v : pattern(count, 1.0f, seed)) p.scale.push_back(v);
  for (float v : pattern(count, 1.0f, seed + 1)) p.bias.push_back(v);
  for (float v : pattern(count, 1.0f, seed + 2)) p.mean.push_back(v);
  for (float v : pattern(count, 0.5f, seed + 3)) p.var.push_back(v + 1.0);  // > 0
  return p;
}

template <typename T>
std::vector<T> cast(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

std::vector<Value> inputs_of(const Value& x, const Params& p, std::vector<std::int64_t> param_dims) {
  return {x, value("scale", param_dims, cast<float>(p.scale)), value("b", param_dims, cast<float>(p.bias)),
          value("mean", param_dims, cast<float>(p.mean)), value("var", param_dims, cast<float>(p.var))};
}

void expect_near_all(const std::vector<float>& got, const std::vector<double>& expected, double tolerance) {
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], tolerance) << "element " << i;
}

// The float parameters the kernel sees, read back in double (so the reference uses the same values).
Params as_float(const Params& p) {
  Params q;
  for (double v : p.scale) q.scale.push_back(static_cast<float>(v));
  for (double v : p.bias) q.bias.push_back(static_cast<float>(v));
  for (double v : p.mean) q.mean.push_back(static_cast<float>(v));
  for (double v : p.var) q.var.push_back(static_cast<float>(v));
  return q;
}

std::vector<double> as_double(const std::vector<float>& v) { return std::vector<double>(v.begin(), v.end()); }

TEST(BatchNormalization, InferenceUsesGivenStatisticsAndEpsilon) {
  const std::vector<float> x = pattern(2 * 3 * 2 * 2, 2.0f, 1);
  const Params p = as_float(make_params(3, 10));
  for (int opset : {6, 7, 9, 14, 15, 23}) {
    Outcome r = run_node("BatchNormalization", opset, inputs_of(value("x", {2, 3, 2, 2}, x), p, {3}),
                         {{"y", DataType::float32}}, {make_attribute_float("epsilon", 0.01f)});
    ASSERT_TRUE(r.status.ok()) << "opset " << opset << ": " << r.status.message();
    expect_near_all(r.outputs[0].as<float>(), reference_inference(as_double(x), 2, 3, 4, p, 0.01f), 1e-5);
  }
}

TEST(BatchNormalization, ConstantParametersFoldedAtPrepareGiveTheSameBits) {
  // Initializer parameters are folded once at prepare (no scratch at run); graph-input ones at every run.
  // Both fold in double the same way, so the outputs agree bit for bit: float32 and double X, and opset 15's
  // float16 scale/B beside float32 mean/var.
  const std::vector<float> x = pattern(2 * 3 * 2 * 2, 2.0f, 3);
  const Params p = as_float(make_params(3, 20));
  auto run_both = [&](const std::vector<Value>& inputs, DataType y_dtype, int opset) {
    std::vector<Value> constants = inputs;
    for (std::size_t i = 1; i < constants.size(); ++i) constants[i] = constant(constants[i]);
    Outcome at_run = run_node("BatchNormalization", opset, inputs, {{"y", y_dtype}});
    Outcome at_prepare = run_node("BatchNormalization", opset, constants, {{"y", y_dtype}});
    ASSERT_TRUE(at_run.status.ok()) << at_run.status.message();
    ASSERT_TRUE(at_prepare.status.ok()) << at_prepare.status.message();
    EXPECT_EQ(at_prepare.outputs[0].bytes, at_run.outputs[0].bytes) << om::dtype_name(y_dtype);
  };
  run_both(inputs_of(value("x", {2, 3, 2, 2}, x), p, {3}), DataType::float32, 9);
  run_both({value("x", {2, 3, 2, 2}, cast<double>(as_double(x))), value("scale", {3}, p.scale), value("b", {3}, p.bias),
            value("mean", {3}, p.mean), value("var", {3}, p.var)},
           DataType::float64, 9);
  std::vector<om::float16_t> scale16, bias16;
  for (double v : p.scale) scale16.push_back(om::float16_t::from_float(static_cast<float>(v)));
  for (double v : p.bias) bias16.push_back(om::float16_t::from_float(static_cast<float>(v)));
  run_both({value("x", {2, 3, 2, 2}, x), value("scale", {3}, scale16), value("b", {3}, bias16),
            value("mean", {3}, cast<float>(p.mean)), value("var", {3}, cast<float>(p.var))},
           DataType::float32, 15);
}

TEST(BatchNormalization, SpatialZeroHasOneParameterPerChannelAndPosition) {
  const std::vector<float> x = pattern(3 * 2 * 4, 2.0f, 2);
  const Params p = as_float(make_params(8, 20));
  Outcome r = run_node("BatchNormalization", 7, inputs_of(value("x", {3, 2, 4}, x), p, {2, 4}),
                       {{"y", DataType::float32}}, {make_attribute_int("spatial", 0)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  expect_near_all(r.outputs[0].as<float>(), reference_inference(as_double(x), 3, 8, 1, p, 1e-5), 1e-5);
}

TEST(BatchNormalization, OneDimensionalInputIsOneChannel) {
  const std::vector<float> x = {1, 2, 3, 4};
  const Params p = as_float(make_params(1, 30));
  Outcome r = run_node("BatchNormalization", 9, inputs_of(value("x", {4}, x), p, {1}), {{"y", DataType::float32}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  expect_near_all(r.outputs[0].as<float>(), reference_inference(as_double(x), 4, 1, 1, p, 1e-5), 1e-5);
}

TEST(BatchNormalization, TrainingModeUsesBatchStatisticsAndUpdatesRunningOnes) {
  const std::int64_t n = 3, c = 4, inner = 5;
  const std::vector<float> x = pattern(static_cast<std::size_t>(n * c * inner), 3.0f, 3);
  const Params p = as_float(make_params(4, 40));
  const double momentum = 0.8f, epsilon = 1e-3f;
  Outcome r =
      run_node("BatchNormalization", 15, inputs_of(value("x", {n, c, inner}, x), p, {c}),
               {{"y", DataType::float32}, {"running_mean", DataType::float32}, {"running_var", DataType::float32}},
               {make_attribute_int("training_mode", 1), make_attribute_float("momentum", 0.8f),
                make_attribute_float("epsilon", 1e-3f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  Params batch = p;
  std::vector<double> running_mean, running_var;
  for (std::int64_t ch = 0; ch < c; ++ch) {
    double sum = 0, squares = 0;
    for (std::int64_t b = 0; b < n; ++b)
      for (std::int64_t i = 0; i < inner; ++i) sum += x[static_cast<std::size_t>((b * c + ch) * inner + i)];
    const double mean = sum / static_cast<double>(n * inner);
    for (std::int64_t b = 0; b < n; ++b)
      for (std::int64_t i = 0; i < inner; ++i) {
        const double d = x[static_cast<std::size_t>((b * c + ch) * inner + i)] - mean;
        squares += d * d;
      }
    const double var = squares / static_cast<double>(n * inner);  // population variance, as onnx's reference
    batch.mean[static_cast<std::size_t>(ch)] = mean;
    batch.var[static_cast<std::size_t>(ch)] = var;
    running_mean.push_back(p.mean[static_cast<std::size_t>(ch)] * momentum + mean * (1 - momentum));
    running_var.push_back(p.var[static_cast<std::size_t>(ch)] * momentum + var * (1 - momentum));
  }
  expect_near_all(r.outputs[0].as<float>(), reference_inference(as_double(x), n, c, inner, batch, epsilon), 1e-5);
  expect_near_all(r.outputs[1].as<float>(), running_mean, 1e-6);
  expect_near_all(r.outputs[2].as<float>(), running_var, 1e-6);

  // The running outputs are optional.
  Outcome y_only =
      run_node("BatchNormalization", 14, inputs_of(value("x", {n, c, inner}, x), p, {c}), {{"y", DataType::float32}},
               {make_attribute_int("training_mode", 1), make_attribute_float("epsilon", 1e-3f)});
  ASSERT_TRUE(y_only.status.ok()) << y_only.status.message();
  expect_near_all(y_only.outputs[0].as<float>(), reference_inference(as_double(x), n, c, inner, batch, epsilon), 1e-5);
}

TEST(BatchNormalization, Opset15AcceptsEachParameterPairInItsOwnFloatType) {
  const Params p = make_params(2, 50);
  std::vector<om::float16_t> x;
  std::vector<double> xd;
  for (float v : pattern(2 * 2 * 3, 2.0f, 5))
    x.push_back(om::float16_t::from_float(v)), xd.push_back(x.back().to_float());
  Params used = as_float(p);  // scale/B travel as float, mean/var as double
  used.mean = p.mean;
  used.var = p.var;
  const std::vector<Value> inputs = {value("x", {2, 2, 3}, x, DataType::float16),
                                     value("scale", {2}, cast<float>(p.scale)), value("b", {2}, cast<float>(p.bias)),
                                     value("mean", {2}, p.mean), value("var", {2}, p.var)};
  Outcome r = run_node("BatchNormalization", 15, inputs, {{"y", DataType::float16}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<double> expected = reference_inference(xd, 2, 2, 3, used, 1e-5);
  const std::vector<om::float16_t> y = r.outputs[0].as<om::float16_t>();
  ASSERT_EQ(y.size(), expected.size());
  for (std::size_t i = 0; i < y.size(); ++i)
    EXPECT_NEAR(y[i].to_float(), expected[i], 2e-3 * (1 + std::fabs(expected[i])));

  // Opset 14 ties scale/B to X's type (only mean/var may differ).
  Status st = run_node("BatchNormalization", 14, inputs, {{"y", DataType::float16}}).status;
  EXPECT_EQ(st.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(st.message()).find("input 1 'scale' has dtype float, expected float16 (same as input 0 'x')"),
            std::string::npos)
      << st.message();
}

TEST(BatchNormalization, Float64) {
  const Params p = make_params(2, 60);
  const std::vector<double> x = as_double(pattern(2 * 2 * 3, 2.0f, 6));
  Outcome r = run_node("BatchNormalization", 15,
                       {value("x", {2, 2, 3}, x), value("scale", {2}, p.scale), value("b", {2}, p.bias),
                        value("mean", {2}, p.mean), value("var", {2}, p.var)},
                       {{"y", DataType::float64}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<double> expected = reference_inference(x, 2, 2, 3, p, 1e-5f);
  const std::vector<double> y = r.outputs[0].as<double>();
  ASSERT_EQ(y.size(), expected.size());
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i], 1e-12);
}

TEST(BatchNormalization, TrainingOutputsNeedTrainingMode) {
  const Params p = make_params(2, 70);
  const std::vector<Value> inputs = inputs_of(value("x", {1, 2, 2}, std::vector<float>(4, 1.0f)), p, {2});
  // Opset 14+: running outputs without training_mode = 1 are a model error.
  Status st = run_node("BatchNormalization", 15, inputs,
                       {{"y", DataType::float32}, {"rm", DataType::float32}, {"rv", DataType::float32}})
                  .status;
  EXPECT_EQ(st.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(st.message()).find("only produced with training_mode = 1"), std::string::npos) << st.message();
  // Before 14, extra outputs mean training, which is not supported.
  st = run_node("BatchNormalization", 9, inputs,
                {{"y", DataType::float32},
                 {"m", DataType::float32},
                 {"v", DataType::float32},
                 {"sm", DataType::float32},
                 {"sv", DataType::float32}})
           .status;
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_NE(std::string(st.message()).find("before opset 14 are not supported"), std::string::npos) << st.message();
}

TEST(BatchNormalization, Validation) {
  const Params p = make_params(3, 80);
  Status st = run_node("BatchNormalization", 15, inputs_of(value("x", {1, 2, 2}, std::vector<float>(4)), p, {3}),
                       {{"y", DataType::float32}})
                  .status;
  EXPECT_EQ(st.code(), StatusCode::invalid_model);
  EXPECT_NE(
      std::string(st.message()).find("input 1 'scale' (scale) has shape [3], expected [2] (one value per channel"),
      std::string::npos)
      << st.message();
  std::vector<Value> ints = inputs_of(value("x", {1, 3, 2}, std::vector<std::int32_t>(6)), p, {3});
  st = run_node("BatchNormalization", 15, ints, {{"y", DataType::int32}}).status;
  EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
  st = run_node("BatchNormalization", 15, inputs_of(value("x", {1, 3, 2}, std::vector<float>(6)), p, {3}),
                {{"y", DataType::float32}}, {make_attribute_int("training_mode", 2)})
           .status;
  EXPECT_NE(std::string(st.message()).find("'training_mode' is 2, expected 0 or 1"), std::string::npos) << st.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
