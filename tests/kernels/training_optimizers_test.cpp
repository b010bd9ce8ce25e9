// SPDX-License-Identifier: MIT
// The ai.onnx.preview.training optimizers (Adagrad, Adam, Momentum) beyond the ONNX node suite: two tensors of
// different shapes in one node against the spec's pseudo code in double, the first-step special cases (T = 0),
// double tensors with a float learning rate, and the input-count/shape/attribute errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::StatusCode;
using onnxmicro_test::ProtoWriter;

constexpr const char* kTrainingDomain = "ai.onnx.preview.training";

bool contains(const om::Status& st, const std::string& text) {
  return std::string(st.message()).find(text) != std::string::npos;
}

// One optimizer node in a model importing ai.onnx.preview.training opset 1: inputs R (float), T (int64) and
// `tensors` (float32 or float64, all graph inputs); outputs y0..y{count-1}, read back as double.
template <typename T>
struct Optimizer {
  om::Status status;
  std::vector<std::vector<double>> outputs;

  Optimizer(const std::string& op, float rate, std::int64_t count, const std::vector<std::vector<T>>& tensors,
            std::size_t output_count, const std::vector<ProtoWriter>& attributes) {
    using namespace onnxmicro_test;
    const DataType dtype = om::dtype_of<T>::value;
    std::vector<std::string> names = {"R", "T"};
    std::vector<ProtoWriter> inputs = {make_value_info("R", DataType::float32, {}),
                                       make_value_info("T", DataType::int64, {})};
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      names.push_back("in" + std::to_string(i));
      inputs.push_back(make_value_info(names.back(), dtype, {static_cast<std::int64_t>(tensors[i].size())}));
    }
    std::vector<std::string> output_names;
    std::vector<ProtoWriter> output_infos;
    for (std::size_t i = 0; i < output_count; ++i) {
      output_names.push_back("y" + std::to_string(i));
      ProtoWriter v;
      v.string_field(1, output_names.back());
      v.message_field(2, make_tensor_type(dtype, {}, false));
      output_infos.push_back(v);
    }
    bytes_ = make_model(make_graph("g", {make_node(op, names, output_names, attributes, "node", kTrainingDomain)},
                                   inputs, output_infos),
                        1, 8, {make_opset(kTrainingDomain, 1)})
                 .bytes();
    status = model_.load(om::ByteSpan(bytes_.data(), bytes_.size()));
    if (status.ok()) status = session_.prepare(model_, om::all_kernels_registry());
    if (status.ok()) status = session_.set_input("R", om::ConstTensorView(DataType::float32, {}, &rate));
    if (status.ok()) status = session_.set_input("T", om::ConstTensorView(DataType::int64, {}, &count));
    for (std::size_t i = 0; status.ok() && i < tensors.size(); ++i) {
      status = session_.set_input(
          names[i + 2], om::ConstTensorView(dtype, {static_cast<std::int64_t>(tensors[i].size())}, tensors[i].data()));
    }
    if (status.ok()) status = session_.run();
    if (!status.ok()) return;
    for (std::size_t i = 0; i < output_count; ++i) {
      const om::ConstTensorView v = session_.output(i);
      std::vector<T> values(static_cast<std::size_t>(v.element_count()));
      std::memcpy(values.data(), v.data, values.size() * sizeof(T));
      outputs.emplace_back(values.begin(), values.end());
    }
  }

 private:
  std::vector<unsigned char> bytes_;
  om::Model model_;
  om::Session session_;
};

using onnxmicro_test::make_attribute_float;
using onnxmicro_test::make_attribute_string;

const std::vector<std::vector<float>> kX = {{1.0f}, {-2.0f, 0.5f}};
const std::vector<std::vector<float>> kG = {{0.25f}, {1.5f, -3.0f}};
const std::vector<std::vector<float>> kS1 = {{0.5f}, {0.1f, 2.0f}};   // V or H
const std::vector<std::vector<float>> kS2 = {{0.75f}, {0.2f, 1.0f}};  // H of Adam

std::vector<std::vector<float>> concat(std::initializer_list<std::vector<std::vector<float>>> groups) {
  std::vector<std::vector<float>> all;
  for (const auto& g : groups) all.insert(all.end(), g.begin(), g.end());
  return all;
}

TEST(Adagrad, TwoTensorsFollowThePseudoCode) {
  const float rate = 0.1f, decay = 0.5f, norm = 0.01f, epsilon = 1e-3f;
  Optimizer<float> op("Adagrad", rate, 3, concat({kX, kG, kS1}), 4,
                      {make_attribute_float("decay_factor", decay), make_attribute_float("norm_coefficient", norm),
                       make_attribute_float("epsilon", epsilon)});
  ASSERT_TRUE(op.status.ok()) << op.status.message();
  const double r = rate / (1.0 + 3 * double(decay));
  for (std::size_t t = 0; t < 2; ++t) {
    for (std::size_t e = 0; e < kX[t].size(); ++e) {
      const double g = double(norm) * kX[t][e] + kG[t][e];
      const double h = kS1[t][e] + g * g;
      EXPECT_NEAR(op.outputs[t][e], kX[t][e] - r * g / (std::sqrt(h) + double(epsilon)), 1e-6);
      EXPECT_NEAR(op.outputs[2 + t][e], h, 1e-6);
    }
  }
}

TEST(Adam, FirstStepUsesTheRawRateAndLaterStepsTheCorrectedOne) {
  const float rate = 0.1f, alpha = 0.9f, beta = 0.99f, norm = 0.01f, post = 0.05f, epsilon = 1e-4f;
  for (std::int64_t count : {0, 4}) {
    Optimizer<double> op(
        "Adam", rate, count, {{1.0}, {-2.0, 0.5}, {0.25}, {1.5, -3.0}, {0.5}, {0.1, 2.0}, {0.75}, {0.2, 1.0}}, 6,
        {make_attribute_float("alpha", alpha), make_attribute_float("beta", beta),
         make_attribute_float("norm_coefficient", norm), make_attribute_float("norm_coefficient_post", post),
         make_attribute_float("epsilon", epsilon)});
    ASSERT_TRUE(op.status.ok()) << op.status.message();
    const double r = count > 0 ? double(rate) * std::sqrt(1 - std::pow(double(beta), double(count))) /
                                     (1 - std::pow(double(alpha), double(count)))
                               : double(rate);
    for (std::size_t t = 0; t < 2; ++t) {
      for (std::size_t e = 0; e < kX[t].size(); ++e) {
        const double g = double(norm) * kX[t][e] + kG[t][e];
        const double v = double(alpha) * kS1[t][e] + (1 - double(alpha)) * g;
        const double h = double(beta) * kS2[t][e] + (1 - double(beta)) * g * g;
        const double x = (1 - double(post)) * (kX[t][e] - r * v / (std::sqrt(h) + double(epsilon)));
        EXPECT_NEAR(op.outputs[t][e], x, 1e-6) << "T " << count;
        EXPECT_NEAR(op.outputs[2 + t][e], v, 1e-6);
        EXPECT_NEAR(op.outputs[4 + t][e], h, 1e-6);
      }
    }
  }
}

TEST(Momentum, StandardAndNesterovWithBetaOnlyAfterTheFirstStep) {
  const float rate = 0.1f, alpha = 0.9f, beta = 0.5f, norm = 0.01f;
  for (const char* mode : {"standard", "nesterov"}) {
    for (std::int64_t count : {0, 2}) {
      Optimizer<float> op("Momentum", rate, count, concat({kX, kG, kS1}), 4,
                          {make_attribute_float("alpha", alpha), make_attribute_float("beta", beta),
                           make_attribute_float("norm_coefficient", norm), make_attribute_string("mode", mode)});
      ASSERT_TRUE(op.status.ok()) << op.status.message();
      const double b = count > 0 ? double(beta) : 1.0;
      for (std::size_t t = 0; t < 2; ++t) {
        for (std::size_t e = 0; e < kX[t].size(); ++e) {
          const double g = double(norm) * kX[t][e] + kG[t][e];
          const double v = double(alpha) * kS1[t][e] + b * g;
          const double x = std::string(mode) == "standard" ? kX[t][e] - double(rate) * v
                                                           : kX[t][e] - double(rate) * (g + double(alpha) * v);
          EXPECT_NEAR(op.outputs[t][e], x, 1e-6) << mode << " T " << count;
          EXPECT_NEAR(op.outputs[2 + t][e], v, 1e-6);
        }
      }
    }
  }
}

TEST(Momentum, AttributeAndLayoutErrorsNameTheProblem) {
  const std::vector<ProtoWriter> attributes = {make_attribute_float("alpha", 0.9f), make_attribute_float("beta", 0.1f),
                                               make_attribute_float("norm_coefficient", 0.0f),
                                               make_attribute_string("mode", "heavy-ball")};
  Optimizer<float> op("Momentum", 0.1f, 1, concat({kX, kG, kS1}), 4, attributes);
  EXPECT_EQ(op.status.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(op.status, "attribute 'mode' is 'heavy-ball'")) << op.status.message();

  Optimizer<float> missing("Momentum", 0.1f, 1, concat({kX, kG, kS1}), 4,
                           {make_attribute_float("alpha", 0.9f), make_attribute_string("mode", "standard")});
  EXPECT_TRUE(contains(missing.status, "required attribute 'beta'")) << missing.status.message();

  Optimizer<float> uneven("Adagrad", 0.1f, 1, concat({kX, kG}), 2, {});
  EXPECT_EQ(uneven.status.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(uneven.status, "expected R, T and 3 groups of n >= 1 tensors each, got 6 inputs"))
      << uneven.status.message();

  Optimizer<float> shapes("Adagrad", 0.1f, 1, {{1.0f}, {1.0f, 2.0f}, {1.0f}}, 2, {});
  EXPECT_TRUE(contains(shapes.status, "has shape [2], expected the shape [1] of input 2")) << shapes.status.message();

  Optimizer<float> outputs("Adam", 0.1f, 1, {{1.0f}, {1.0f}, {1.0f}, {1.0f}}, 2, {});
  EXPECT_TRUE(contains(outputs.status, "expected 3 outputs (3 groups of 1), got 2")) << outputs.status.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
