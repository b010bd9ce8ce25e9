// SPDX-License-Identifier: MIT
// LSTM and RNN on the GEMM path (kernels/nn/recurrent_gemm.hpp) against the per-row path (what sessions with
// size_optimized_kernels run, reading W and R in place), at every instruction-set level this CPU has: constant and
// run-time weights, both directions, batch-major layout, per-row sequence_lens (0 included), initial states,
// peepholes with clip and input_forget (the gate math then stays scalar), a non-default RNN activation, and odd sizes
// that leave vector tails. The two paths sum in different orders and the vector sigmoid/tanh are within 2 ulp, so
// outputs agree to 2e-5 + 1e-4 relative (float32 rounding over a few dozen steps), not bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using namespace onnxmicro_test;

struct Case {
  std::string op = "LSTM";
  int opset = 14;
  std::int64_t seq = 5, batch = 3, input = 7, hidden = 9;
  std::string direction = "forward";
  int layout = 0;
  bool constant_weights = true;
  bool bias = true, initial = false, peepholes = false, clip = false, input_forget = false;
  std::vector<std::int32_t> lens;  ///< empty: no sequence_lens
  std::string activation;          ///< RNN: a non-default activation
};

struct Tensor {
  std::string name;
  om::DataType dtype;
  std::vector<std::int64_t> dims;
  std::vector<float> floats;
  std::vector<std::int32_t> ints;
};

std::vector<float> random_values(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = uniform(rng);
  return v;
}

/// The node's inputs in order (empty names for the omitted ones) with their values.
std::vector<Tensor> node_inputs(const Case& c, std::mt19937& rng) {
  const std::int64_t d = c.direction == "bidirectional" ? 2 : 1;
  const std::int64_t g = c.op == "LSTM" ? 4 : 1;
  auto floats = [&](std::string name, std::vector<std::int64_t> dims) {
    std::size_t n = 1;
    for (std::int64_t x : dims) n *= static_cast<std::size_t>(x);
    return Tensor{std::move(name), om::DataType::float32, std::move(dims), random_values(n, rng), {}};
  };
  const std::vector<std::int64_t> x_dims = c.layout == 1 ? std::vector<std::int64_t>{c.batch, c.seq, c.input}
                                                         : std::vector<std::int64_t>{c.seq, c.batch, c.input};
  const std::vector<std::int64_t> state_dims =
      c.layout == 1 ? std::vector<std::int64_t>{c.batch, d, c.hidden} : std::vector<std::int64_t>{d, c.batch, c.hidden};
  std::vector<Tensor> in = {floats("X", x_dims), floats("W", {d, g * c.hidden, c.input}),
                            floats("R", {d, g * c.hidden, c.hidden})};
  in.push_back(c.bias ? floats("B", {d, 2 * g * c.hidden}) : Tensor{});
  in.push_back(c.lens.empty() ? Tensor{} : Tensor{"sequence_lens", om::DataType::int32, {c.batch}, {}, c.lens});
  in.push_back(c.initial ? floats("initial_h", state_dims) : Tensor{});
  if (c.op == "LSTM") {
    in.push_back(c.initial ? floats("initial_c", state_dims) : Tensor{});
    in.push_back(c.peepholes ? floats("P", {d, 3 * c.hidden}) : Tensor{});
  }
  while (!in.empty() && in.back().name.empty()) in.pop_back();
  return in;
}

ProtoWriter tensor_proto(const Tensor& t) {
  return t.dtype == om::DataType::int32 ? make_tensor_raw(t.name, t.dtype, t.dims, t.ints)
                                        : make_tensor_raw(t.name, t.dtype, t.dims, t.floats);
}

std::vector<unsigned char> model_bytes(const Case& c, const std::vector<Tensor>& inputs) {
  std::vector<std::string> names;
  std::vector<ProtoWriter> graph_inputs, initializers;
  for (const Tensor& t : inputs) {
    names.push_back(t.name);
    if (t.name.empty()) continue;
    const bool weight = t.name == "W" || t.name == "R" || t.name == "B";
    if (weight && c.constant_weights) {
      initializers.push_back(tensor_proto(t));
    } else {
      graph_inputs.push_back(make_value_info(t.name, t.dtype, t.dims));
    }
  }
  std::vector<ProtoWriter> attributes = {make_attribute_int("hidden_size", c.hidden),
                                         make_attribute_string("direction", c.direction)};
  if (c.layout != 0) attributes.push_back(make_attribute_int("layout", c.layout));
  if (c.clip) attributes.push_back(make_attribute_float("clip", 0.75f));
  if (c.input_forget) attributes.push_back(make_attribute_int("input_forget", 1));
  if (!c.activation.empty()) {
    const int directions = c.direction == "bidirectional" ? 2 : 1;
    attributes.push_back(make_attribute_strings("activations", std::vector<std::string>(directions, c.activation)));
  }
  std::vector<std::string> outputs = {"Y", "Y_h"};
  if (c.op == "LSTM") outputs.push_back("Y_c");
  std::vector<ProtoWriter> graph_outputs;
  for (const std::string& o : outputs) graph_outputs.push_back(make_value_info(o, om::DataType::float32, {}));
  ProtoWriter graph =
      make_graph("g", {make_node(c.op, names, outputs, attributes, "rnn")}, graph_inputs, graph_outputs, initializers);
  return make_model(graph, c.opset).bytes();
}

/// Runs the model on one path and returns every output's values.
std::vector<std::vector<float>> run(const om::Model& model, const std::vector<Tensor>& inputs, bool per_row_path,
                                    om::Isa isa) {
  om::SessionOptions options;
  options.size_optimized_kernels = per_row_path;
  options.max_isa = isa;
  om::Session session;
  om::Status status = session.prepare(model, om::all_kernels_registry(), options);
  EXPECT_TRUE(status.ok()) << status.message();
  if (!status.ok()) return {};
  for (const Tensor& t : inputs) {
    std::size_t index = 0;
    if (t.name.empty() || !session.input_index(t.name, index).ok()) continue;  // an initializer
    om::Shape shape;
    EXPECT_TRUE(shape.assign(t.dims.data(), t.dims.size()).ok());
    const void* data = t.dtype == om::DataType::int32 ? static_cast<const void*>(t.ints.data()) : t.floats.data();
    status = session.set_input(index, om::ConstTensorView(t.dtype, shape, data));
    EXPECT_TRUE(status.ok()) << status.message();
  }
  status = session.run();
  EXPECT_TRUE(status.ok()) << status.message();
  std::vector<std::vector<float>> outputs;
  for (std::size_t k = 0; k < session.output_count(); ++k) {
    const om::ConstTensorView out = session.output(k);
    outputs.emplace_back(out.data_as<float>(), out.data_as<float>() + out.element_count());
  }
  return outputs;
}

void expect_paths_agree(const Case& c) {
  std::mt19937 rng(17);
  const std::vector<Tensor> inputs = node_inputs(c, rng);
  const std::vector<unsigned char> bytes = model_bytes(c, inputs);
  om::Model model;
  ASSERT_TRUE(model.load(om::ByteSpan(bytes.data(), bytes.size())).ok());
  const std::vector<std::vector<float>> reference = run(model, inputs, /*per_row_path=*/true, om::Isa::best);
  om::Isa best = om::Isa::baseline;
  ASSERT_TRUE(om::effective_isa(om::Isa::best, best));
  for (om::Isa isa : {om::Isa::baseline, om::Isa::avx2, om::Isa::avx512}) {
    if (static_cast<int>(isa) > static_cast<int>(best)) continue;
    const std::vector<std::vector<float>> got = run(model, inputs, /*per_row_path=*/false, isa);
    ASSERT_EQ(got.size(), reference.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      ASSERT_EQ(got[k].size(), reference[k].size());
      for (std::size_t i = 0; i < got[k].size(); ++i) {
        ASSERT_NEAR(got[k][i], reference[k][i], 2e-5 + 1e-4 * std::fabs(reference[k][i]))
            << c.op << " " << c.direction << " isa " << om::isa_name(isa) << " output " << k << " element " << i;
      }
    }
  }
}

TEST(RecurrentGemmPath, LstmForwardConstantWeights) { expect_paths_agree(Case{}); }

TEST(RecurrentGemmPath, LstmBidirectionalRunTimeWeightsSequenceLensInitialStates) {
  Case c;
  c.direction = "bidirectional";
  c.constant_weights = false;
  c.initial = true;
  c.lens = {5, 2, 0};
  expect_paths_agree(c);
}

TEST(RecurrentGemmPath, LstmReverseBatchMajorWithoutBias) {
  Case c;
  c.direction = "reverse";
  c.layout = 1;
  c.bias = false;
  c.lens = {3, 5, 1};
  c.initial = true;
  expect_paths_agree(c);
}

TEST(RecurrentGemmPath, LstmPeepholesClipInputForgetKeepScalarGates) {
  Case c;
  c.direction = "bidirectional";
  c.peepholes = true;
  c.clip = true;
  c.input_forget = true;
  c.initial = true;
  expect_paths_agree(c);
}

TEST(RecurrentGemmPath, LstmBenchmarkLikeSizes) {
  Case c;
  c.seq = 37;
  c.batch = 4;
  c.input = 40;
  c.hidden = 33;
  c.direction = "bidirectional";
  expect_paths_agree(c);
}

TEST(RecurrentGemmPath, RnnBidirectionalAndNonDefaultActivation) {
  Case c;
  c.op = "RNN";
  c.direction = "bidirectional";
  c.lens = {4, 5, 1};
  c.initial = true;
  expect_paths_agree(c);
  c.activation = "Relu";
  c.constant_weights = false;
  expect_paths_agree(c);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
