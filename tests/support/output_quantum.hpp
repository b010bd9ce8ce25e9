// SPDX-License-Identifier: MIT
// The quantum of a quantized model's output: the scale of the DequantizeLinear that makes it, when that scale is
// a one-element float32 initializer. A fused integer kernel and the float QDQ graph it replaces may round such an
// output one quantum apart. Shared by the conformance runner (--quantum-atol) and qdq_accuracy.
#pragma once
#include <onnxmicro/onnxmicro.hpp>

#include <cstddef>
#include <cstdint>

namespace onnxmicro_test {

/// The scale of `node` when it is a DequantizeLinear whose scale is a one-element float32 initializer.
inline bool dequantize_scale(const onnxmicro::Model& model, const onnxmicro::model::Node& node, double& scale) {
  namespace om = onnxmicro;
  if (node.op_type != "DequantizeLinear" || node.inputs.size() < 2 || node.inputs[1] == om::model::kNoValue) {
    return false;
  }
  const om::model::Value& value = model.graph().values[static_cast<std::size_t>(node.inputs[1])];
  std::int64_t count = 0;
  if (value.kind != om::model::ValueKind::initializer || value.dtype != om::DataType::float32 ||
      !value.initializer().element_count(count).ok() || count != 1) {
    return false;
  }
  float stored = 0;
  if (!value.initializer().decode_to(&stored, sizeof stored).ok()) return false;
  scale = stored;
  return true;
}

/// The quantum of graph output `index` (0 when no such DequantizeLinear makes it).
inline double output_quantum(const onnxmicro::Model& model, std::size_t index) {
  const onnxmicro::model::Graph& graph = model.graph();
  if (index >= graph.outputs.size()) return 0;
  const std::int32_t producer = graph.values[static_cast<std::size_t>(graph.outputs[index])].producer;
  double scale = 0;
  if (producer < 0 || !dequantize_scale(model, graph.nodes[static_cast<std::size_t>(producer)], scale)) return 0;
  return scale;
}

}  // namespace onnxmicro_test
