// SPDX-License-Identifier: MIT
// QDQ fusion: a model in onnxruntime's QDQ format computes every quantized op as DequantizeLinear -> float op
// -> QuantizeLinear. At prepare time the session rewrites each such group into the integer kernel of the
// QOperator format, which computes the same thing on int8/uint8 values with int32 accumulation and
// fixed-point requantisation:
//
//   DQ(x) -> Conv(DQ(w), DQ(b)) [-> Relu|Clip] -> Q   =>  QLinearConv (Conv's attributes, clamp folded)
//   DQ(a) -> MatMul(DQ(b)) [-> Relu|Clip] -> Q          =>  QLinearMatMul
//   DQ(a) -> Gemm(DQ(b), DQ(c)) [-> Relu|Clip] -> Q     =>  com.microsoft QGemm
//   DQ(a) -> Add|Mul(DQ(b)) [-> Relu|Clip] -> Q         =>  com.microsoft QLinearAdd | QLinearMul
//   DQ -> AveragePool | GlobalAveragePool | LeakyRelu | Sigmoid -> Q, DQs -> Concat -> Q
//                                                       =>  com.microsoft QLinear<op>
//   DQ -> MaxPool | Reshape | Transpose | Flatten | Squeeze | Unsqueeze -> Q with equal scale and zero point
//                                                       =>  the same op on the int8/uint8 tensor
//
// The rewritten graph shares the model's value table: the fused node reads the DQs' quantized inputs and
// writes the Q's output; the float intermediates are then produced by nobody and get no arena. A DQ is
// dropped only when every reader of its output was fused. Every op that reads a DQ output gets a
// QuantizedNodeReport saying whether it was fused, and if not, which rule failed: nothing falls back silently.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/model/graph.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// How QDQ fusion treated one op of the model that reads dequantized values (Session::quantized_nodes()).
struct QuantizedNodeReport {
  const model::Node* node = nullptr;  ///< the model's op (Conv, MatMul, Add, ...)
  bool integer = false;               ///< true: ran as the integer kernel `kernel`
  std::string_view kernel;            ///< the integer kernel it runs as (or would, when the kernel set lacks it), e.g.
                                      ///< "QLinearConv", "com.microsoft.QLinearAdd", "MaxPool on int8/uint8"
  std::string_view reason;            ///< when !integer: why it ran in float (which rule failed)
  std::int32_t absorbed_nodes = 0;    ///< DequantizeLinear inputs it reads as integers, plus the Relu/Clip and
                                      ///< QuantizeLinear it replaced
};

namespace detail {
namespace qdq {

using model::kNoValue;
using model::ValueId;

/// A DequantizeLinear whose scale and zero point are initializers.
struct Dequantized {
  std::int32_t node = -1;
  ValueId quantized = kNoValue;  ///< the DQ's input x
  ValueId scale = kNoValue;
  ValueId zero_point = kNoValue;  ///< kNoValue when the DQ has none (then only int32 biases qualify)
  DataType dtype = DataType::undefined;
  std::int64_t scale_count = 1;
  std::int64_t axis = 1;
};

/// The QuantizeLinear an op's output reaches, with a Relu or Clip in between folded into a clamp.
struct Requantized {
  std::int32_t node = -1;
  std::int32_t activation = -1;
  ValueId output = kNoValue;
  ValueId scale = kNoValue;
  ValueId zero_point = kNoValue;
  kernels::FusedClamp clamp;
};

/// The DequantizeLinear inputs and QuantizeLinear output a rule matches, declared once for every rule (one set of
/// locals keeps the inlined rules as small as the single function they were).
struct Operands {
  Dequantized a, b, c;
  Requantized q;
};

/// One planned rewrite of an op.
struct Rewrite {
  std::string_view op_type;  ///< of the fused node
  std::string_view domain;
  std::int64_t version = 1;
  std::string_view report_name;
  Span<ValueId> inputs;
  ValueId output = kNoValue;
  kernels::FusedClamp clamp;
  std::int32_t q_node = -1, activation_node = -1;
  const unsigned char* attributes = nullptr;  ///< replacement NodeProto bytes (17), or nullptr: the op's own
};

/// NodeProto bytes holding only attribute alpha (FLOAT): the attributes of the QLinearLeakyRelu that a
/// standalone Relu (alpha 0) or Clip (alpha 1, bounds as the fused clamp) becomes.
///   0x2A len: field 5 (attribute); 0x0A 5 "alpha": name; 0x15 + 4 bytes: f; 0xA0 0x01 0x01: type FLOAT.
alignas(4) constexpr unsigned char kAlphaZero[] = {0x2A, 0x0F, 0x0A, 0x05, 'a',  'l',  'p',  'h', 'a',
                                                   0x15, 0x00, 0x00, 0x00, 0x00, 0xA0, 0x01, 0x01};
alignas(4) constexpr unsigned char kAlphaOne[] = {0x2A, 0x0F, 0x0A, 0x05, 'a',  'l',  'p',  'h', 'a',
                                                  0x15, 0x00, 0x00, 0x80, 0x3F, 0xA0, 0x01, 0x01};

class Fuser {
 public:
  Fuser(const model::Graph& graph, KernelRegistry registry, MetadataAllocator& allocator) noexcept
      : graph_(graph), registry_(registry), allocator_(allocator) {}

  /// Rewrites the graph. `fused` is the model's graph with new nodes (unchanged when nothing fuses), `clamps`
  /// one per fused-graph node, `reports` one per op that reads a DQ output.
  Status run(model::Graph& fused, Span<kernels::FusedClamp>& clamps, Span<QuantizedNodeReport>& reports) noexcept {
    fused = graph_;
    const std::size_t node_count = graph_.nodes.size();
    bool any_dq = false;
    for (const model::Node& node : graph_.nodes) any_dq = any_dq || is_op(node, "DequantizeLinear");
    if (!any_dq) return {};
    // What the session keeps: reports, the new node list, clamps, and the fused nodes' input/output lists
    // (drawn from pools sized for the worst case). The working tables after them are released at the end.
    std::size_t candidates = 0, pool = 0;
    for (const model::Node& node : graph_.nodes) {
      if (!reads_dequantized(node)) continue;
      ++candidates;
      pool += 9 + 3 * node.inputs.size();  // QLinearConcat: 2 + 3 per input; the others at most 9
    }
    Span<model::Node> nodes;
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(candidates, reports));
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(node_count, nodes));
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(node_count, clamps));
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(pool, id_pool_));
    const std::size_t working_mark = allocator_.used_bytes();
    Status st = plan_all(nodes, clamps, reports);
    allocator_.rewind(working_mark);
    if (!st.ok()) return st;
    if (nodes_kept_ == 0) {  // nothing fused: run the model's own nodes
      clamps = Span<kernels::FusedClamp>();
      return {};
    }
    fused.nodes = nodes.subspan(0, nodes_kept_);
    clamps = clamps.subspan(0, nodes_kept_);
    return {};
  }

 private:
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status plan_all(Span<model::Node> nodes, Span<kernels::FusedClamp> clamps,
                                                 Span<QuantizedNodeReport> reports) noexcept {
    const std::size_t node_count = graph_.nodes.size();
    const std::size_t value_count = graph_.values.size();
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(value_count, readers_));
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(value_count, fused_reads_));
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(value_count, only_reader_));
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(node_count, rewrites_));
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(node_count, removed_));
    for (std::size_t i = 0; i < node_count; ++i) {
      for (ValueId id : graph_.nodes[i].inputs) {
        if (id == kNoValue) continue;
        ++readers_[id];
        only_reader_[id] = static_cast<std::int32_t>(i);
      }
    }
    for (ValueId id : graph_.outputs) readers_[id] += 1 << 20;  // a graph output is never fused away

    std::size_t r = 0;
    bool any_fused = false;
    for (std::size_t i = 0; i < node_count; ++i) {
      const model::Node& node = graph_.nodes[i];
      if (!reads_dequantized(node)) continue;
      QuantizedNodeReport& report = reports[r++];
      report.node = &node;
      Rewrite& rewrite = rewrites_[i];
      std::string_view reason;
      const std::size_t pool_mark = pool_used_;
      ONNXMICRO_RETURN_IF_ERROR(plan(node, rewrite, reason));
      if (!rewrite.op_type.empty() &&
          find_kernel(registry_, rewrite.domain, rewrite.op_type, rewrite.version) == nullptr) {
        report.kernel = rewrite.report_name;
        reason = "this build's kernel set lacks the integer kernel (see `kernel`): add it to run this op in int8";
        rewrite = Rewrite();
      }
      if (rewrite.op_type.empty()) {
        report.reason = reason;
        pool_used_ = pool_mark;  // inputs of a rewrite that did not happen
        continue;
      }
      report.integer = true;
      report.kernel = rewrite.report_name;
      any_fused = true;
      removed_[rewrite.q_node] = 1;
      report.absorbed_nodes = 1;
      if (rewrite.activation_node >= 0) {
        removed_[rewrite.activation_node] = 1;
        ++report.absorbed_nodes;
      }
      for (ValueId id : node.inputs) {
        if (id == kNoValue || !is_dequantize_output(id)) continue;
        ++fused_reads_[id];
        ++report.absorbed_nodes;
      }
    }
    if (!any_fused) return {};
    // A DQ whose every reader was fused is dropped.
    for (std::size_t i = 0; i < node_count; ++i) {
      const model::Node& node = graph_.nodes[i];
      if (!is_op(node, "DequantizeLinear") || node.outputs.size() != 1 || node.outputs[0] == kNoValue) continue;
      const ValueId out = node.outputs[0];
      if (fused_reads_[out] == readers_[out]) removed_[i] = 1;
    }
    std::size_t n = 0;
    for (std::size_t i = 0; i < node_count; ++i) {
      if (removed_[i]) continue;
      model::Node& out = nodes[n];
      out = graph_.nodes[i];
      const Rewrite& rewrite = rewrites_[i];
      if (!rewrite.op_type.empty()) {
        // The fused node keeps the op's name and attributes (QLinearConv reads Conv's, QGemm Gemm's, ...).
        out.op_type = rewrite.op_type;
        out.domain = rewrite.domain;
        out.opset_version = rewrite.version;
        out.inputs = rewrite.inputs;
        out.explicit_input_count = -1;
        if (rewrite.attributes != nullptr) {
          out.proto = proto::Node::unchecked(ByteSpan(rewrite.attributes, sizeof(kAlphaZero)));
        }
        ONNXMICRO_RETURN_IF_ERROR(take_ids(1, out.outputs));
        out.outputs[0] = rewrite.output;
        clamps[n] = rewrite.clamp;
      }
      out.index = static_cast<std::int32_t>(n);
      ++n;
    }
    nodes_kept_ = n;
    return {};
  }
  /// `count` ids from the pool run() sized for every rewrite.
  Status take_ids(std::size_t count, Span<ValueId>& out) noexcept {
    if (id_pool_.size() - pool_used_ < count) {
      return Status(StatusCode::internal) << "QDQ fusion: input pool exhausted";
    }
    out = id_pool_.subspan(pool_used_, count);
    pool_used_ += count;
    return {};
  }
  static bool is_op(const model::Node& node, std::string_view op) noexcept {
    return node.domain.empty() && node.op_type == op;
  }
  bool is_dequantize_output(ValueId id) const noexcept {
    const model::Value& v = graph_.values[id];
    return v.kind == model::ValueKind::intermediate && v.producer >= 0 &&
           is_op(graph_.nodes[v.producer], "DequantizeLinear");
  }
  bool reads_dequantized(const model::Node& node) const noexcept {
    if (is_op(node, "DequantizeLinear") || is_op(node, "QuantizeLinear")) return false;
    for (ValueId id : node.inputs)
      if (id != kNoValue && is_dequantize_output(id)) return true;
    return false;
  }
  bool is_initializer(ValueId id) const noexcept {
    return id != kNoValue && graph_.values[id].kind == model::ValueKind::initializer;
  }
  std::int64_t element_count(ValueId id) const noexcept {
    std::int64_t count = -1;
    if (!graph_.values[id].initializer().element_count(count).ok()) return -1;
    return count;
  }
  /// Reads an initializer of at most `capacity` elements as doubles (float32, int8, uint8, int32).
  bool read_values(ValueId id, double* out, std::int64_t capacity) const noexcept {
    const std::int64_t count = element_count(id);
    if (count < 0 || count > capacity || count > 8) return false;
    alignas(8) unsigned char bytes[8 * sizeof(std::int32_t)] = {};
    const DataType dtype = graph_.values[id].dtype;
    const std::size_t size = dtype_size(dtype);
    if (size == 0 || !graph_.values[id].initializer().decode_to(bytes, size * static_cast<std::size_t>(count)).ok())
      return false;
    for (std::int64_t i = 0; i < count; ++i) {
      switch (dtype) {
        case DataType::float32: out[i] = reinterpret_cast<const float*>(bytes)[i]; break;
        case DataType::int8: out[i] = reinterpret_cast<const std::int8_t*>(bytes)[i]; break;
        case DataType::uint8: out[i] = bytes[i]; break;
        case DataType::int32: out[i] = reinterpret_cast<const std::int32_t*>(bytes)[i]; break;
        default: return false;
      }
    }
    return true;
  }
  /// Reads a float32 initializer of `count` elements into metadata (per-channel scales).
  Status read_floats(ValueId id, std::int64_t count, Span<float>& out) const noexcept {
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(static_cast<std::size_t>(count), out));
    return graph_.values[id].initializer().decode_to(out.data(), out.size() * sizeof(float));
  }
  std::int64_t int_attribute(const model::Node& node, std::string_view name, std::int64_t fallback) const noexcept {
    proto::Attribute a;
    if (!node.proto.find_attribute(name, a) || a.type != proto::AttributeType::int_) return fallback;
    return a.i;
  }
  float float_attribute(const model::Node& node, std::string_view name, float fallback) const noexcept {
    proto::Attribute a;
    if (!node.proto.find_attribute(name, a) || a.type != proto::AttributeType::float_) return fallback;
    return a.f;
  }

  /// Input `id` as a DequantizeLinear with initializer scale and zero point, or the reason it is not one.
  bool dequantized(ValueId id, bool per_channel_ok, Dequantized& out, std::string_view& reason) const noexcept {
    if (id == kNoValue || !is_dequantize_output(id)) {
      reason = "an input is not produced by a DequantizeLinear";
      return false;
    }
    const std::int32_t producer = graph_.values[id].producer;
    const model::Node& dq = graph_.nodes[producer];
    out = Dequantized();
    out.node = producer;
    out.quantized = dq.inputs.size() > 0 ? dq.inputs[0] : kNoValue;
    out.scale = dq.inputs.size() > 1 ? dq.inputs[1] : kNoValue;
    out.zero_point = dq.inputs.size() > 2 ? dq.inputs[2] : kNoValue;
    if (out.quantized == kNoValue || !is_initializer(out.scale) ||
        graph_.values[out.scale].dtype != DataType::float32) {
      reason = "a DequantizeLinear's scale is not a float initializer";
      return false;
    }
    if (int_attribute(dq, "block_size", 0) != 0) {
      reason = "a DequantizeLinear uses blocked quantization";
      return false;
    }
    if (out.zero_point != kNoValue) {
      if (!is_initializer(out.zero_point)) {
        reason = "a DequantizeLinear's zero point is not an initializer";
        return false;
      }
      out.dtype = graph_.values[out.zero_point].dtype;
    } else {
      out.dtype = graph_.values[out.quantized].dtype;
    }
    out.scale_count = element_count(out.scale);
    out.axis = int_attribute(dq, "axis", 1);
    if (out.scale_count != 1 && !per_channel_ok) {
      reason = "a per-channel DequantizeLinear feeds an input that needs one scale";
      return false;
    }
    if (out.zero_point != kNoValue && element_count(out.zero_point) != out.scale_count) {
      reason = "a DequantizeLinear's zero point and scale differ in size";
      return false;
    }
    return true;
  }
  static bool is_8bit(DataType t) noexcept { return t == DataType::int8 || t == DataType::uint8; }
  bool activation_dq(ValueId id, Dequantized& out, std::string_view& reason) const noexcept {
    if (!dequantized(id, false, out, reason)) return false;
    if (!is_8bit(out.dtype) || out.zero_point == kNoValue) {
      reason = "a dequantized input is not int8/uint8 with a zero point";
      return false;
    }
    return true;
  }

  /// The op's only output through an optional Relu/Clip into a QuantizeLinear with initializer parameters.
  bool requantized(const model::Node& op, bool activation_ok, Requantized& out,
                   std::string_view& reason) const noexcept {
    out = Requantized();
    for (std::size_t k = 1; k < op.outputs.size(); ++k) {
      if (op.outputs[k] != kNoValue) {
        reason = "the op has more than one output";
        return false;
      }
    }
    ValueId value = op.outputs.empty() ? kNoValue : op.outputs[0];
    if (value == kNoValue || readers_[value] != 1) {
      reason = "its output is read by more than one node, or is a graph output";
      return false;
    }
    const model::Node* next = &graph_.nodes[only_reader_[value]];
    if (activation_ok && (is_op(*next, "Relu") || is_op(*next, "Clip"))) {
      if (!clamp_of(*next, out.clamp)) {
        reason = "a Clip after it has bounds that are not initializers";
        return false;
      }
      out.activation = next->index;
      value = next->outputs.empty() ? kNoValue : next->outputs[0];
      if (value == kNoValue || readers_[value] != 1) {
        reason = "its activation's output is read by more than one node, or is a graph output";
        return false;
      }
      next = &graph_.nodes[only_reader_[value]];
    }
    if (!is_op(*next, "QuantizeLinear") || next->inputs.empty() || next->inputs[0] != value ||
        next->outputs.size() != 1) {
      reason = "its output is not quantized by a QuantizeLinear";
      return false;
    }
    out.node = next->index;
    out.output = next->outputs[0];
    out.scale = next->inputs.size() > 1 ? next->inputs[1] : kNoValue;
    out.zero_point = next->inputs.size() > 2 ? next->inputs[2] : kNoValue;
    if (!is_initializer(out.scale) || graph_.values[out.scale].dtype != DataType::float32 ||
        element_count(out.scale) != 1) {
      reason = "the QuantizeLinear's scale is not a scalar float initializer";
      return false;
    }
    if (!is_initializer(out.zero_point) || !is_8bit(graph_.values[out.zero_point].dtype) ||
        element_count(out.zero_point) != 1) {
      reason = "the QuantizeLinear's zero point is not a scalar int8/uint8 initializer";
      return false;
    }
    if (int_attribute(*next, "block_size", 0) != 0) {
      reason = "the QuantizeLinear uses blocked quantization";
      return false;
    }
    return true;
  }
  bool clamp_of(const model::Node& node, kernels::FusedClamp& clamp) const noexcept {
    clamp = kernels::FusedClamp();
    if (node.op_type == "Relu") {
      clamp.has_min = true;
      return true;
    }
    if (node.opset_version < 11) {  // Clip-1/6: attributes
      proto::Attribute a;
      if (node.proto.find_attribute("min", a)) {
        clamp.has_min = true;
        clamp.min = a.f;
      }
      if (node.proto.find_attribute("max", a)) {
        clamp.has_max = true;
        clamp.max = a.f;
      }
      return true;
    }
    for (std::size_t k = 1; k < 3 && k < node.inputs.size(); ++k) {
      const ValueId id = node.inputs[k];
      if (id == kNoValue) continue;
      double v = 0;
      if (!is_initializer(id) || graph_.values[id].dtype != DataType::float32 || !read_values(id, &v, 1)) return false;
      (k == 1 ? clamp.has_min : clamp.has_max) = true;
      (k == 1 ? clamp.min : clamp.max) = static_cast<float>(v);
    }
    return true;
  }
  /// True when the two quantization parameter pairs hold the same values (and zero point dtype).
  bool same_params(ValueId scale_a, ValueId zero_a, ValueId scale_b, ValueId zero_b) const noexcept {
    double sa = 0, sb = 0, za = 0, zb = 0;
    if (!read_values(scale_a, &sa, 1) || !read_values(scale_b, &sb, 1)) return false;
    if ((zero_a == kNoValue) != (zero_b == kNoValue)) return false;
    if (zero_a == kNoValue) return sa == sb;
    if (graph_.values[zero_a].dtype != graph_.values[zero_b].dtype) return false;
    return read_values(zero_a, &za, 1) && read_values(zero_b, &zb, 1) && sa == sb && za == zb;
  }
  /// A bias DequantizeLinear of int32 values whose scale is x_scale * w_scale (per channel): what
  /// onnxruntime's quantizer writes, so the integer kernel may add it to the accumulator as is.
  Status bias_matches(const Dequantized& x, const Dequantized& w, const Dequantized& b, bool& ok) const noexcept {
    ok = false;
    if (b.dtype != DataType::int32 || b.scale_count < 1 || (b.scale_count != 1 && b.scale_count != w.scale_count))
      return {};
    if (b.zero_point != kNoValue) {
      Span<std::int32_t> zeros;
      ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_array(static_cast<std::size_t>(b.scale_count), zeros));
      ONNXMICRO_RETURN_IF_ERROR(
          graph_.values[b.zero_point].initializer().decode_to(zeros.data(), zeros.size() * sizeof(std::int32_t)));
      for (std::int32_t zero : zeros)
        if (zero != 0) return {};
    }
    double xs = 0;
    if (!read_values(x.scale, &xs, 1)) return {};
    Span<float> ws, bs;
    ONNXMICRO_RETURN_IF_ERROR(read_floats(w.scale, w.scale_count, ws));
    ONNXMICRO_RETURN_IF_ERROR(read_floats(b.scale, b.scale_count, bs));
    for (std::int64_t m = 0; m < w.scale_count; ++m) {
      const double expected = xs * ws[static_cast<std::size_t>(m)];
      const double actual = bs[static_cast<std::size_t>(b.scale_count == 1 ? 0 : m)];
      const double diff = expected > actual ? expected - actual : actual - expected;
      if (diff > 1e-6 * expected) return {};
    }
    ok = true;
    return {};
  }
  Status make_inputs(std::initializer_list<ValueId> ids, Span<ValueId>& out) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(take_ids(ids.size(), out));
    std::size_t k = 0;
    for (ValueId id : ids) out[k++] = id;
    return {};
  }
  static void set_target(Rewrite& rewrite, std::string_view op, std::string_view domain, std::int64_t version,
                         std::string_view report_name, const Requantized& q) noexcept {
    rewrite.op_type = op;
    rewrite.domain = domain;
    rewrite.version = version;
    rewrite.report_name = report_name;
    rewrite.output = q.output;
    rewrite.clamp = q.clamp;
    rewrite.q_node = q.node;
    rewrite.activation_node = q.activation;
  }

  static constexpr std::string_view kMicrosoft = "com.microsoft";

  /// Decides how `node` runs; leaves rewrite.op_type empty (and says why in `reason`) when it stays float.
  Status plan(const model::Node& node, Rewrite& rewrite, std::string_view& reason) noexcept {
    rewrite = Rewrite();
    Operands operands;
    const std::string_view op = node.domain.empty() ? node.op_type : std::string_view();
    if (op == "Conv") return plan_conv(node, operands, rewrite, reason);
    if (op == "MatMul") return plan_matmul(node, operands, rewrite, reason);
    if (op == "Gemm") return plan_gemm(node, operands, rewrite, reason);
    if (op == "Add" || op == "Mul") return plan_add_or_mul(node, op, operands, rewrite, reason);
    if (const SingleInputRule* rule = single_input_rule(op))
      return plan_single_input_op(node, *rule, operands, rewrite, reason);
    if (op == "Concat") return plan_concat(node, operands, rewrite, reason);
    if (op == "Relu" || op == "Clip") return plan_relu_or_clip(node, op, operands, rewrite, reason);
    if (op == "Reshape" || op == "Transpose" || op == "Flatten" || op == "Squeeze" || op == "Unsqueeze" ||
        (op == "MaxPool" && node.opset_version >= 12))
      return plan_data_movement(node, op, operands, rewrite, reason);
    reason = "no integer kernel for this op: it runs in float between its DequantizeLinear and QuantizeLinear";
    return {};
  }

  /// Conv -> QLinearConv (per-tensor or per-output-channel int8/uint8 weights, optional int32 bias).
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status plan_conv(const model::Node& node, Operands& operands, Rewrite& rewrite,
                                                  std::string_view& reason) noexcept {
    Dequantized& a = operands.a;
    Dequantized& b = operands.b;
    Dequantized& c = operands.c;
    Requantized& q = operands.q;
    const std::int64_t onnx_version = node.opset_version < 10 ? 10 : node.opset_version;  // QLinear ops start at 10
    if (!activation_dq(node.inputs[0], a, reason) || node.inputs.size() < 2 ||
        !dequantized(node.inputs[1], true, b, reason) || !requantized(node, true, q, reason))
      return {};
    if (!is_8bit(b.dtype) || b.zero_point == kNoValue || (b.scale_count != 1 && b.axis != 0)) {
      reason = "the weights are not int8/uint8 quantized per tensor or per output channel (axis 0)";
      return {};
    }
    ValueId bias = kNoValue;
    if (node.inputs.size() > 2 && node.inputs[2] != kNoValue) {
      bool ok = false;
      if (dequantized(node.inputs[2], true, c, reason)) ONNXMICRO_RETURN_IF_ERROR(bias_matches(a, b, c, ok));
      if (!ok) {
        reason = "the bias is not int32 dequantized with scale x_scale * w_scale";
        return {};
      }
      bias = c.quantized;
    }
    ONNXMICRO_RETURN_IF_ERROR(make_inputs(
        {a.quantized, a.scale, a.zero_point, b.quantized, b.scale, b.zero_point, q.scale, q.zero_point, bias},
        rewrite.inputs));
    if (bias == kNoValue) rewrite.inputs = rewrite.inputs.subspan(0, 8);
    set_target(rewrite, "QLinearConv", "", onnx_version, "QLinearConv", q);
    return {};
  }

  /// MatMul -> QLinearMatMul (per-tensor, or per-column 2-D constant weights).
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status plan_matmul(const model::Node& node, Operands& operands, Rewrite& rewrite,
                                                    std::string_view& reason) noexcept {
    Dequantized& a = operands.a;
    Dequantized& b = operands.b;
    Requantized& q = operands.q;
    const std::int64_t onnx_version = node.opset_version < 10 ? 10 : node.opset_version;  // QLinear ops start at 10
    if (!activation_dq(node.inputs[0], a, reason) || !dequantized(node.inputs[1], true, b, reason) ||
        !requantized(node, true, q, reason))
      return {};
    const model::Value& weights = graph_.values[b.quantized];
    const bool per_column = b.scale_count != 1 && weights.kind == model::ValueKind::initializer &&
                            weights.initializer().rank == 2 && (b.axis == 1 || b.axis == -1);
    if (!is_8bit(b.dtype) || b.zero_point == kNoValue || (b.scale_count != 1 && !per_column)) {
      reason = "the second input is not int8/uint8 quantized per tensor or per column of 2-D weights";
      return {};
    }
    ONNXMICRO_RETURN_IF_ERROR(
        make_inputs({a.quantized, a.scale, a.zero_point, b.quantized, b.scale, b.zero_point, q.scale, q.zero_point},
                    rewrite.inputs));
    set_target(rewrite, "QLinearMatMul", "", onnx_version, "QLinearMatMul", q);
    return {};
  }

  /// Gemm -> com.microsoft QGemm (alpha 1; C an int32 bias with beta 1).
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status plan_gemm(const model::Node& node, Operands& operands, Rewrite& rewrite,
                                                  std::string_view& reason) noexcept {
    Dequantized& a = operands.a;
    Dequantized& b = operands.b;
    Dequantized& c = operands.c;
    Requantized& q = operands.q;
    if (!activation_dq(node.inputs[0], a, reason) || node.inputs.size() < 2 ||
        !dequantized(node.inputs[1], true, b, reason) || !requantized(node, true, q, reason))
      return {};
    if (float_attribute(node, "alpha", 1.0f) != 1.0f) {
      reason = "alpha is not 1 (QGemm would scale the bias by it too)";
      return {};
    }
    const std::int64_t channel_axis = int_attribute(node, "transB", 0) != 0 ? 0 : 1;
    if (!is_8bit(b.dtype) || b.zero_point == kNoValue || (b.scale_count != 1 && b.axis != channel_axis)) {
      reason = "B is not int8/uint8 quantized per tensor or per output column";
      return {};
    }
    ValueId bias = kNoValue;
    if (node.inputs.size() > 2 && node.inputs[2] != kNoValue) {
      bool ok = float_attribute(node, "beta", 1.0f) == 1.0f;
      if (ok && dequantized(node.inputs[2], true, c, reason))
        ONNXMICRO_RETURN_IF_ERROR(bias_matches(a, b, c, ok));
      else
        ok = false;
      if (!ok) {
        reason = "C is not int32 dequantized with scale a_scale * b_scale (and beta 1)";
        return {};
      }
      bias = c.quantized;
    }
    ONNXMICRO_RETURN_IF_ERROR(make_inputs(
        {a.quantized, a.scale, a.zero_point, b.quantized, b.scale, b.zero_point, bias, q.scale, q.zero_point},
        rewrite.inputs));
    set_target(rewrite, "QGemm", kMicrosoft, 1, "com.microsoft.QGemm", q);
    return {};
  }

  /// Add/Mul -> com.microsoft QLinearAdd/QLinearMul.
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status plan_add_or_mul(const model::Node& node, std::string_view op,
                                                        Operands& operands, Rewrite& rewrite,
                                                        std::string_view& reason) noexcept {
    Dequantized& a = operands.a;
    Dequantized& b = operands.b;
    Requantized& q = operands.q;
    if (!activation_dq(node.inputs[0], a, reason) || node.inputs.size() < 2 ||
        !activation_dq(node.inputs[1], b, reason) || !requantized(node, true, q, reason))
      return {};
    ONNXMICRO_RETURN_IF_ERROR(
        make_inputs({a.quantized, a.scale, a.zero_point, b.quantized, b.scale, b.zero_point, q.scale, q.zero_point},
                    rewrite.inputs));
    if (op == "Add") {
      set_target(rewrite, "QLinearAdd", kMicrosoft, 1, "com.microsoft.QLinearAdd", q);
    } else {
      set_target(rewrite, "QLinearMul", kMicrosoft, 1, "com.microsoft.QLinearMul", q);
    }
    return {};
  }

  /// An op of one quantized input and output that has a com.microsoft QLinear twin.
  struct SingleInputRule {
    std::string_view op, target, report_name;
  };
  static const SingleInputRule* single_input_rule(std::string_view op) noexcept {
    static constexpr SingleInputRule kRules[] = {
        {"AveragePool", "QLinearAveragePool", "com.microsoft.QLinearAveragePool"},
        {"GlobalAveragePool", "QLinearGlobalAveragePool", "com.microsoft.QLinearGlobalAveragePool"},
        {"LeakyRelu", "QLinearLeakyRelu", "com.microsoft.QLinearLeakyRelu"},
        {"Sigmoid", "QLinearSigmoid", "com.microsoft.QLinearSigmoid"},
        {"Softmax", "QLinearSoftmax", "com.microsoft.QLinearSoftmax"}};
    for (const SingleInputRule& rule : kRules)
      if (rule.op == op) return &rule;
    return nullptr;
  }

  /// AveragePool, GlobalAveragePool, LeakyRelu, Sigmoid, Softmax -> their com.microsoft QLinear ops.
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status plan_single_input_op(const model::Node& node, const SingleInputRule& rule,
                                                             Operands& operands, Rewrite& rewrite,
                                                             std::string_view& reason) noexcept {
    Dequantized& a = operands.a;
    Requantized& q = operands.q;
    if (!activation_dq(node.inputs[0], a, reason) || !requantized(node, false, q, reason)) return {};
    ONNXMICRO_RETURN_IF_ERROR(make_inputs({a.quantized, a.scale, a.zero_point, q.scale, q.zero_point}, rewrite.inputs));
    // Softmax keeps its own opset version: QLinearSoftmax reads which axis semantics apply from it.
    const std::int64_t version = rule.op == "Softmax" ? node.opset_version : 1;
    set_target(rewrite, rule.target, kMicrosoft, version, rule.report_name, q);
    return {};
  }

  /// Concat -> com.microsoft QLinearConcat.
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status plan_concat(const model::Node& node, Operands& operands, Rewrite& rewrite,
                                                    std::string_view& reason) noexcept {
    Dequantized& a = operands.a;
    Requantized& q = operands.q;
    if (!requantized(node, false, q, reason)) return {};
    ONNXMICRO_RETURN_IF_ERROR(take_ids(2 + 3 * node.inputs.size(), rewrite.inputs));
    rewrite.inputs[0] = q.scale;
    rewrite.inputs[1] = q.zero_point;
    for (std::size_t k = 0; k < node.inputs.size(); ++k) {
      if (!activation_dq(node.inputs[k], a, reason)) return {};
      rewrite.inputs[2 + 3 * k] = a.quantized;
      rewrite.inputs[3 + 3 * k] = a.scale;
      rewrite.inputs[4 + 3 * k] = a.zero_point;
    }
    set_target(rewrite, "QLinearConcat", kMicrosoft, 1, "com.microsoft.QLinearConcat", q);
    return {};
  }

  /// Relu/Clip that follows no fusable op -> a 256-entry table (QLinearLeakyRelu).
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status plan_relu_or_clip(const model::Node& node, std::string_view op,
                                                          Operands& operands, Rewrite& rewrite,
                                                          std::string_view& reason) noexcept {
    Dequantized& a = operands.a;
    Requantized& q = operands.q;
    // A Relu/Clip that follows no fusable op: a 256-entry table of x -> Q(f(DQ(x))) (QLinearLeakyRelu with
    // alpha 0, or alpha 1 and Clip's bounds as the clamp), which is what the float path computes.
    Requantized bounds;
    if (!activation_dq(node.inputs[0], a, reason)) return {};
    if (!clamp_of(node, bounds.clamp)) {
      reason = "Clip's bounds are not initializers";
      return {};
    }
    if (!requantized(node, false, q, reason)) return {};
    ONNXMICRO_RETURN_IF_ERROR(make_inputs({a.quantized, a.scale, a.zero_point, q.scale, q.zero_point}, rewrite.inputs));
    set_target(rewrite, "QLinearLeakyRelu", kMicrosoft, 1, "com.microsoft.QLinearLeakyRelu (table)", q);
    if (op == "Relu") {
      rewrite.attributes = kAlphaZero;
    } else {
      rewrite.attributes = kAlphaOne;
      rewrite.clamp = bounds.clamp;
    }
    return {};
  }

  /// Reshape, Transpose, Flatten, Squeeze, Unsqueeze, MaxPool (12+) -> the same op on the quantized values.
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status plan_data_movement(const model::Node& node, std::string_view op,
                                                           Operands& operands, Rewrite& rewrite,
                                                           std::string_view& reason) noexcept {
    Dequantized& a = operands.a;
    Requantized& q = operands.q;
    // Moving or picking elements commutes with (de)quantization when both sides share scale and zero point.
    if (!activation_dq(node.inputs[0], a, reason) || !requantized(node, false, q, reason)) return {};
    for (std::size_t k = 1; k < node.inputs.size(); ++k) {
      if (node.inputs[k] != kNoValue && is_dequantize_output(node.inputs[k])) {
        reason = "a second input is dequantized";
        return {};
      }
    }
    if (!same_params(a.scale, a.zero_point, q.scale, q.zero_point)) {
      reason = "its DequantizeLinear and QuantizeLinear have different scales or zero points";
      return {};
    }
    ONNXMICRO_RETURN_IF_ERROR(take_ids(node.inputs.size(), rewrite.inputs));
    for (std::size_t k = 0; k < node.inputs.size(); ++k) rewrite.inputs[k] = node.inputs[k];
    rewrite.inputs[0] = a.quantized;
    set_target(rewrite, node.op_type, "", node.opset_version,
               op == "MaxPool" ? "MaxPool on int8/uint8" : "the same op on int8/uint8", q);
    return {};
  }

  const model::Graph& graph_;
  KernelRegistry registry_;
  MetadataAllocator& allocator_;
  Span<std::int32_t> readers_;      ///< per value: input slots reading it (+2^20 for graph outputs)
  Span<std::int32_t> fused_reads_;  ///< per value: input slots of fused ops reading it
  Span<std::int32_t> only_reader_;  ///< per value: the last node reading it (the only one when readers_ == 1)
  Span<Rewrite> rewrites_;
  Span<unsigned char> removed_;
  Span<ValueId> id_pool_;  ///< inputs/outputs of the fused nodes (kept)
  std::size_t pool_used_ = 0;
  std::size_t nodes_kept_ = 0;  ///< 0 when nothing was fused
};

}  // namespace qdq
}  // namespace detail
ONNXMICRO_NAMESPACE_END
