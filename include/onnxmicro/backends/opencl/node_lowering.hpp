// SPDX-License-Identifier: MIT
// From one prepared node to the launches of kernel_source.hpp, or to the reason the device cannot run it. The CPU
// prepare has already validated the node and inferred every shape; lowering only reads attributes and shapes,
// checks what the OpenCL kernels support (op, dtypes, ranks, constant operands) and writes parameter blocks.
// Tensors in a block are placeholders (TensorRef) that the backend resolves to device offsets once the node is
// placed, so a node that falls back reserves no device memory.
//
// To add an op: write `bool lower_<op>(Lowering& l)` returning l.unsupported("why") when it cannot run, and add
// it to lowering_for().
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "onnxmicro/backends/opencl/kernel_source.hpp"
#include "onnxmicro/kernels/nn/resize.hpp"
#include "onnxmicro/runtime/session.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace opencl {

/// A tensor operand in a parameter block, resolved by the backend to an element offset.
struct TensorRef {
  std::size_t param = 0;  ///< index in Launch::params
  model::ValueId value = model::kNoValue;
  std::int64_t element_offset = 0;  ///< added to the tensor's first element (a slab of Concat's output, ...)
};

/// One kernel launch (or, with kernel == KernelId::count, a device copy between two tensors of equal bytes).
struct Launch {
  KernelId kernel = KernelId::count;
  std::size_t work_items = 0;
  std::vector<int> params;
  std::vector<TensorRef> tensors;
  model::ValueId copy_from = model::kNoValue;  ///< buffer copy: source and destination values
  model::ValueId copy_to = model::kNoValue;
};

/// The lowering of one node.
class Lowering {
 public:
  Lowering(const model::Node& node, const detail::NodeRuntime& runtime, const kernels::FusedClamp& clamp,
           MetadataAllocator& unused_allocator) noexcept
      : node_(node),
        runtime_(runtime),
        clamp_(clamp),
        attributes_(node, runtime.input_infos, runtime.output_infos, unused_allocator) {}

  const model::Node& node() const noexcept { return node_; }
  const kernels::PrepareContext& attributes() const noexcept { return attributes_; }
  const kernels::FusedClamp& clamp() const noexcept { return clamp_; }
  /// The CPU kernel's prepared state (for lowerings that reuse what its prepare computed, as Resize's taps).
  const void* cpu_state() const noexcept { return runtime_.state; }
  std::int64_t opset() const noexcept { return node_.opset_version; }

  int inputs() const noexcept { return static_cast<int>(runtime_.input_infos.size()); }
  int outputs() const noexcept { return static_cast<int>(runtime_.output_infos.size()); }
  bool has_input(int k) const noexcept { return k < inputs() && runtime_.input_infos[k].present; }
  bool has_output(int k) const noexcept { return k < outputs() && runtime_.output_infos[k].present; }
  const kernels::TensorInfo& input(int k) const noexcept { return runtime_.input_infos[k]; }
  const kernels::TensorInfo& output(int k) const noexcept { return runtime_.output_infos[k]; }
  const Shape& in_shape(int k) const noexcept { return input(k).shape; }
  const Shape& out_shape(int k) const noexcept { return output(k).shape; }
  model::ValueId in_id(int k) const noexcept { return node_.inputs[k]; }
  model::ValueId out_id(int k) const noexcept { return node_.outputs[k]; }

  /// Marks the node unsupported; always false, so lowerings end with `return l.unsupported(...)`.
  bool unsupported(std::string why) {
    reason_ = std::move(why);
    return false;
  }
  const std::string& reason() const noexcept { return reason_; }
  std::vector<Launch>& launches() noexcept { return launches_; }

  /// Inputs [first, first + count) present and float32 (count -1: all the rest), or unsupported.
  bool require_float_inputs(int first, int count = -1) {
    const int end = count < 0 ? inputs() : first + count;
    for (int k = first; k < end; ++k) {
      if (!has_input(k)) continue;
      if (input(k).dtype != DataType::float32) {
        return unsupported("input " + std::to_string(k) + " is " + dtype_name(input(k).dtype) +
                           " (the OpenCL kernels take float32)");
      }
    }
    return true;
  }
  /// Only output 0 present, float32.
  bool require_single_float_output() {
    for (int k = 1; k < outputs(); ++k)
      if (has_output(k)) return unsupported("optional output " + std::to_string(k) + " is not computed on OpenCL");
    if (output(0).dtype != DataType::float32) {
      return unsupported(std::string("output is ") + dtype_name(output(0).dtype) +
                         " (the OpenCL kernels write float32)");
    }
    return true;
  }
  /// Input k must be a constant known at prepare (its values shape the launch).
  bool require_constant(int k, const char* role) {
    if (has_input(k) && !input(k).is_constant) {
      return unsupported(std::string(role) + " (input " + std::to_string(k) + ") is computed at run time");
    }
    return true;
  }
  /// Reads constant int64/int32 input k into `values`.
  bool constant_ints(int k, std::vector<std::int64_t>& values) {
    values.clear();
    const kernels::TensorInfo& info = input(k);
    const std::int64_t count = info.shape.element_count();
    for (std::int64_t j = 0; j < count; ++j) {
      if (info.dtype == DataType::int64) {
        values.push_back(static_cast<const std::int64_t*>(info.const_data)[j]);
      } else if (info.dtype == DataType::int32) {
        values.push_back(static_cast<const std::int32_t*>(info.const_data)[j]);
      } else {
        return unsupported("input " + std::to_string(k) + " is not int64/int32");
      }
    }
    return true;
  }
  /// INTS attribute `name` into `values` (empty when absent).
  bool attribute_list(const char* name, std::vector<std::int64_t>& values) {
    std::int64_t buffer[kMaxRank];
    std::size_t count = 0;
    bool present = false;
    if (!attributes_.attribute_ints(name, buffer, kMaxRank, count, present).ok()) {
      return unsupported(std::string("bad '") + name + "'");
    }
    values.assign(buffer, buffer + count);
    return true;
  }
  /// A constant float32 scalar input k (absent: keeps `value`).
  bool constant_float(int k, float& value) {
    if (!has_input(k)) return true;
    if (!require_constant(k, "a bound")) return false;
    if (input(k).dtype != DataType::float32 || input(k).shape.element_count() != 1) {
      return unsupported("input " + std::to_string(k) + " is not a float32 scalar");
    }
    value = *static_cast<const float*>(input(k).const_data);
    return true;
  }

  /// Starts a launch of `kernel` over `work_items` work-items.
  Launch& launch(KernelId kernel, std::int64_t work_items) {
    launches_.emplace_back();
    launches_.back().kernel = kernel;
    launches_.back().work_items = static_cast<std::size_t>(work_items);
    return launches_.back();
  }
  /// Appends a tensor operand (resolved later) to `launch`'s block.
  static void tensor(Launch& launch, model::ValueId value, std::int64_t element_offset = 0) {
    launch.tensors.push_back(TensorRef{launch.params.size(), value, element_offset});
    launch.params.push_back(0);
  }
  /// Appends an optional tensor: -1 when absent.
  static void optional_tensor(Launch& launch, model::ValueId value) {
    if (value == model::kNoValue) {
      launch.params.push_back(-1);
    } else {
      tensor(launch, value);
    }
  }
  static void ints(Launch& launch, std::initializer_list<std::int64_t> values) {
    for (std::int64_t v : values) launch.params.push_back(static_cast<int>(v));
  }
  static void real(Launch& launch, float value) {
    int bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    launch.params.push_back(bits);
  }
  /// The node's folded clamp: has_min, has_max, min, max.
  void clamp_params(Launch& launch) const {
    ints(launch, {clamp_.has_min ? 1 : 0, clamp_.has_max ? 1 : 0});
    real(launch, clamp_.min);
    real(launch, clamp_.max);
  }
  /// A device copy of input `from` into output `to` (same bytes), skipped at run when both share a buffer.
  void copy(model::ValueId from, model::ValueId to) {
    launches_.emplace_back();
    launches_.back().copy_from = from;
    launches_.back().copy_to = to;
  }

 private:
  const model::Node& node_;
  const detail::NodeRuntime& runtime_;
  kernels::FusedClamp clamp_;
  kernels::PrepareContext attributes_;
  std::string reason_;
  std::vector<Launch> launches_;
};

// ---- shape helpers -------------------------------------------------------------------------------------------

/// Row-major strides of `shape`.
inline void contiguous_strides(const Shape& shape, std::int64_t* strides) noexcept {
  std::int64_t s = 1;
  for (int d = shape.rank() - 1; d >= 0; --d) {
    strides[d] = s;
    s *= shape[d];
  }
}

/// Strides reading `in` broadcast to `out` (right-aligned; 0 along broadcast dims), in out's rank.
inline void broadcast_strides(const Shape& in, const Shape& out, std::int64_t* strides) noexcept {
  std::int64_t own[kMaxRank];
  contiguous_strides(in, own);
  const int shift = out.rank() - in.rank();
  for (int d = 0; d < out.rank(); ++d) {
    const int k = d - shift;
    strides[d] = (k < 0 || in[k] == 1) ? 0 : own[k];
  }
}

/// Fits the kernels' int indexing and rank limit.
inline bool check_extent(Lowering& l, const Shape& shape, int max_rank = kMaxKernelRank) {
  if (shape.rank() > max_rank) {
    return l.unsupported("rank " + std::to_string(shape.rank()) + " is above the OpenCL kernels' " +
                         std::to_string(max_rank));
  }
  if (shape.element_count() > (std::int64_t(1) << 30)) return l.unsupported("more than 2^30 elements");
  return true;
}

/// Appends rank, dims (padded to kMaxKernelRank) and the given stride sets.
inline void strided_block(Launch& launch, const Shape& dims, std::initializer_list<const std::int64_t*> strides) {
  Lowering::ints(launch, {dims.rank()});
  for (int d = 0; d < kMaxKernelRank; ++d) launch.params.push_back(d < dims.rank() ? static_cast<int>(dims[d]) : 1);
  for (const std::int64_t* set : strides)
    for (int d = 0; d < kMaxKernelRank; ++d) launch.params.push_back(d < dims.rank() ? static_cast<int>(set[d]) : 0);
}

inline std::int64_t normalized_axis(std::int64_t axis, int rank) noexcept { return axis < 0 ? axis + rank : axis; }

inline std::int64_t product(const Shape& shape, int begin, int end) noexcept {
  std::int64_t p = 1;
  for (int d = begin; d < end; ++d) p *= shape[d];
  return p;
}

// ---- ops -----------------------------------------------------------------------------------------------------

inline bool lower_unary(Lowering& l, UnaryOp op, float alpha = 0.0f, float beta = 0.0f) {
  if (!l.require_float_inputs(0, 1) || !l.require_single_float_output() || !check_extent(l, l.out_shape(0))) {
    return false;
  }
  Launch& launch = l.launch(KernelId::unary, l.out_shape(0).element_count());
  Lowering::tensor(launch, l.in_id(0));
  Lowering::tensor(launch, l.out_id(0));
  Lowering::ints(launch, {l.out_shape(0).element_count(), static_cast<int>(op)});
  Lowering::real(launch, alpha);
  Lowering::real(launch, beta);
  return true;
}

inline bool lower_activation(Lowering& l) {
  const std::string_view op = l.node().op_type;
  float alpha = 0.0f, beta = 0.0f;
  const kernels::PrepareContext& a = l.attributes();
  if (op == "Relu") return lower_unary(l, UnaryOp::relu);
  if (op == "LeakyRelu") return a.attribute("alpha", alpha, 0.01f).ok() && lower_unary(l, UnaryOp::leaky_relu, alpha);
  if (op == "Elu") return a.attribute("alpha", alpha, 1.0f).ok() && lower_unary(l, UnaryOp::elu, alpha);
  if (op == "HardSigmoid") {
    return a.attribute("alpha", alpha, 0.2f).ok() && a.attribute("beta", beta, 0.5f).ok() &&
           lower_unary(l, UnaryOp::hard_sigmoid, alpha, beta);
  }
  if (op == "Clip") {
    alpha = -INFINITY;
    beta = INFINITY;
    if (l.opset() < 11) {
      return a.attribute("min", alpha, -INFINITY).ok() && a.attribute("max", beta, INFINITY).ok() &&
             lower_unary(l, UnaryOp::clip, alpha, beta);
    }
    return l.constant_float(1, alpha) && l.constant_float(2, beta) && lower_unary(l, UnaryOp::clip, alpha, beta);
  }
  if (op == "Gelu") {
    std::string_view approximate;
    if (!a.attribute("approximate", approximate, "none").ok()) return l.unsupported("bad 'approximate'");
    return lower_unary(l, approximate == "tanh" ? UnaryOp::gelu_tanh : UnaryOp::gelu);
  }
  struct Named {
    const char* name;
    UnaryOp op;
  };
  static const Named plain[] = {{"Sigmoid", UnaryOp::sigmoid},   {"Tanh", UnaryOp::tanh},
                                {"Erf", UnaryOp::erf},           {"HardSwish", UnaryOp::hard_swish},
                                {"Exp", UnaryOp::exp},           {"Sqrt", UnaryOp::sqrt},
                                {"Neg", UnaryOp::neg},           {"Abs", UnaryOp::abs},
                                {"Log", UnaryOp::log},           {"Reciprocal", UnaryOp::reciprocal},
                                {"Softplus", UnaryOp::softplus}, {"Floor", UnaryOp::floor},
                                {"Ceil", UnaryOp::ceil},         {"Sin", UnaryOp::sin},
                                {"Cos", UnaryOp::cos},           {"Softsign", UnaryOp::softsign}};
  for (const Named& n : plain)
    if (op == n.name) return lower_unary(l, n.op);
  return l.unsupported("no OpenCL kernel for " + std::string(op));
}

/// Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout (inference): the same bytes under another shape, of any
/// numeric dtype.
inline bool lower_alias(Lowering& l) {
  for (int k = 1; k < l.outputs(); ++k)
    if (l.has_output(k)) return l.unsupported("optional output " + std::to_string(k) + " is not computed on OpenCL");
  if (l.input(0).dtype == DataType::string) return l.unsupported("string tensors stay on the CPU");
  if (l.node().op_type == "Dropout" && l.has_input(2)) {
    if (!l.require_constant(2, "training_mode")) return false;
    if (l.input(2).shape.element_count() == 1 && *static_cast<const bool*>(l.input(2).const_data)) {
      return l.unsupported("training_mode is true");
    }
  }
  l.copy(l.in_id(0), l.out_id(0));
  return true;
}

/// Cast (and CastLike, whose target is its second input's dtype) between float32, int32, int64 and bool (bool only
/// as a source).
inline bool lower_cast(Lowering& l) {
  auto code = [](DataType t) {
    switch (t) {
      case DataType::float32: return 0;
      case DataType::int32: return 1;
      case DataType::int64: return 2;
      case DataType::boolean:
      case DataType::uint8: return 3;
      default: return -1;
    }
  };
  const int from = code(l.input(0).dtype), to = code(l.output(0).dtype);
  if (from < 0 || to < 0 || to == 3) {
    return l.unsupported(std::string("Cast from ") + dtype_name(l.input(0).dtype) + " to " +
                         dtype_name(l.output(0).dtype) + " (OpenCL: float32/int32/int64/bool to float32/int32/int64)");
  }
  const std::int64_t count = l.out_shape(0).element_count();
  Launch& launch = l.launch(KernelId::cast, count);
  Lowering::tensor(launch, l.in_id(0));
  Lowering::tensor(launch, l.out_id(0));
  Lowering::ints(launch, {count, from, to});
  return true;
}

/// One om_binary launch: y (of shape `out`) = a op b, each operand broadcast to `out`.
inline void binary_launch(Lowering& l, BinaryOp code, model::ValueId a, const Shape& a_shape, model::ValueId b,
                          const Shape& b_shape, model::ValueId y, const Shape& out) {
  std::int64_t sa[kMaxRank], sb[kMaxRank];
  broadcast_strides(a_shape, out, sa);
  broadcast_strides(b_shape, out, sb);
  Launch& launch = l.launch(KernelId::binary, out.element_count());
  Lowering::tensor(launch, a);
  Lowering::tensor(launch, b);
  Lowering::tensor(launch, y);
  Lowering::ints(launch, {out.element_count(), static_cast<int>(code)});
  strided_block(launch, out, {sa, sb});
}

/// Add, Sub, Mul, Div, Pow, PRelu (float32 out) and Equal, Less, Greater, LessOrEqual, GreaterOrEqual (bool out), on
/// float32 operands with broadcast.
inline bool lower_binary(Lowering& l) {
  const std::string_view op = l.node().op_type;
  static const struct {
    const char* name;
    BinaryOp op;
  } table[] = {{"Add", BinaryOp::add},
               {"Sub", BinaryOp::sub},
               {"Mul", BinaryOp::mul},
               {"Div", BinaryOp::div},
               {"Pow", BinaryOp::pow},
               {"PRelu", BinaryOp::prelu},
               {"Equal", BinaryOp::equal},
               {"Less", BinaryOp::less},
               {"Greater", BinaryOp::greater},
               {"LessOrEqual", BinaryOp::less_equal},
               {"GreaterOrEqual", BinaryOp::greater_equal}};
  BinaryOp code = BinaryOp::add;
  for (const auto& entry : table)
    if (op == entry.name) code = entry.op;
  if (l.inputs() != 2) return l.unsupported(std::to_string(l.inputs()) + " inputs (the kernel takes 2)");
  if (!l.require_float_inputs(0)) return false;
  if (code >= BinaryOp::equal ? l.output(0).dtype != DataType::boolean : !l.require_single_float_output()) {
    return code >= BinaryOp::equal ? l.unsupported("output is not bool") : false;
  }
  const Shape& out = l.out_shape(0);
  if (!check_extent(l, out)) return false;
  binary_launch(l, code, l.in_id(0), l.in_shape(0), l.in_id(1), l.in_shape(1), l.out_id(0), out);
  return true;
}

/// Sum, Mean, Max, Min of any number of inputs with broadcast: the first two into the output, then each further
/// input folded into it in place (Mean then scales by 1/N).
inline bool lower_variadic(Lowering& l) {
  const std::string_view op = l.node().op_type;
  const BinaryOp code = op == "Max" ? BinaryOp::max : op == "Min" ? BinaryOp::min : BinaryOp::add;
  if (!l.require_float_inputs(0) || !l.require_single_float_output()) return false;
  const Shape& out = l.out_shape(0);
  if (!check_extent(l, out)) return false;
  const int n = l.inputs();
  if (n == 1) {
    l.copy(l.in_id(0), l.out_id(0));
  } else {
    binary_launch(l, code, l.in_id(0), l.in_shape(0), l.in_id(1), l.in_shape(1), l.out_id(0), out);
    for (int k = 2; k < n; ++k) binary_launch(l, code, l.out_id(0), out, l.in_id(k), l.in_shape(k), l.out_id(0), out);
  }
  if (op == "Mean" && n > 1) {
    Launch& launch = l.launch(KernelId::unary, out.element_count());
    Lowering::tensor(launch, l.out_id(0));
    Lowering::tensor(launch, l.out_id(0));
    Lowering::ints(launch, {out.element_count(), static_cast<int>(UnaryOp::scale)});
    Lowering::real(launch, 1.0f / static_cast<float>(n));
    Lowering::real(launch, 0.0f);
  }
  return true;
}

inline bool lower_where(Lowering& l) {
  if (l.input(0).dtype != DataType::boolean) return l.unsupported("condition is not bool");
  if (!l.require_float_inputs(1) || !l.require_single_float_output()) return false;
  const Shape& out = l.out_shape(0);
  if (!check_extent(l, out)) return false;
  std::int64_t sc[kMaxRank], sx[kMaxRank], sy[kMaxRank];
  broadcast_strides(l.in_shape(0), out, sc);
  broadcast_strides(l.in_shape(1), out, sx);
  broadcast_strides(l.in_shape(2), out, sy);
  Launch& launch = l.launch(KernelId::where_select, out.element_count());
  for (int k = 0; k < 3; ++k) Lowering::tensor(launch, l.in_id(k));
  Lowering::tensor(launch, l.out_id(0));
  Lowering::ints(launch, {out.element_count()});
  strided_block(launch, out, {sc, sx, sy});
  return true;
}

/// One om_copy_strided launch: `dims` elements read at x strides from `from` (+ x_offset) and written at y strides
/// into `to` (+ y_offset).
inline void strided_copy(Lowering& l, model::ValueId from, std::int64_t x_offset, const std::int64_t* x_strides,
                         model::ValueId to, std::int64_t y_offset, const std::int64_t* y_strides, const Shape& dims) {
  Launch& launch = l.launch(KernelId::copy_strided, dims.element_count());
  Lowering::tensor(launch, from, x_offset);
  Lowering::tensor(launch, to, y_offset);
  launch.params.push_back(static_cast<int>(dims.element_count()));
  strided_block(launch, dims, {x_strides, y_strides});
}

inline bool lower_transpose(Lowering& l) {
  if (!l.require_float_inputs(0) || !l.require_single_float_output()) return false;
  const Shape& in = l.in_shape(0);
  const Shape& out = l.out_shape(0);
  if (!check_extent(l, out)) return false;
  std::int64_t perm[kMaxRank];
  std::size_t count = 0;
  bool present = false;
  if (!l.attributes().attribute_ints("perm", perm, kMaxRank, count, present).ok()) {
    return l.unsupported("bad 'perm'");
  }
  if (!present)
    for (int d = 0; d < in.rank(); ++d) perm[d] = in.rank() - 1 - d;
  std::int64_t own[kMaxRank], x_strides[kMaxRank], y_strides[kMaxRank];
  contiguous_strides(in, own);
  contiguous_strides(out, y_strides);
  for (int d = 0; d < out.rank(); ++d) x_strides[d] = own[perm[d]];
  strided_copy(l, l.in_id(0), 0, x_strides, l.out_id(0), 0, y_strides, out);
  return true;
}

inline bool lower_concat(Lowering& l) {
  if (!l.require_float_inputs(0) || !l.require_single_float_output()) return false;
  const Shape& out = l.out_shape(0);
  if (!check_extent(l, out)) return false;
  std::int64_t axis = 0;
  if (!l.attributes().required_attribute("axis", axis).ok()) return l.unsupported("bad 'axis'");
  axis = normalized_axis(axis, out.rank());
  std::int64_t y_strides[kMaxRank];
  contiguous_strides(out, y_strides);
  std::int64_t at = 0;
  for (int k = 0; k < l.inputs(); ++k) {
    const Shape& in = l.in_shape(k);
    std::int64_t x_strides[kMaxRank];
    contiguous_strides(in, x_strides);
    if (in.element_count() > 0) {
      strided_copy(l, l.in_id(k), 0, x_strides, l.out_id(0), at * y_strides[axis], y_strides, in);
    }
    at += in[static_cast<int>(axis)];
  }
  return true;
}

/// Slice (opset 10+: constant starts/ends/axes/steps inputs; 1-9: attributes). The output shape is known, so only
/// each axis' first index and step are needed.
inline bool lower_slice(Lowering& l) {
  if (!l.require_float_inputs(0, 1) || !l.require_single_float_output()) return false;
  const Shape& in = l.in_shape(0);
  const Shape& out = l.out_shape(0);
  if (!check_extent(l, out)) return false;
  std::vector<std::int64_t> starts, ends, axes, steps;
  if (l.opset() >= 10) {
    for (int k = 1; k < 5; ++k)
      if (!l.require_constant(k, "a slice bound")) return false;
    if (!l.constant_ints(1, starts) || !l.constant_ints(2, ends)) return false;
    if (l.has_input(3) && !l.constant_ints(3, axes)) return false;
    if (l.has_input(4) && !l.constant_ints(4, steps)) return false;
  } else if (!l.attribute_list("starts", starts) || !l.attribute_list("axes", axes)) {
    return false;
  }
  if (axes.empty())
    for (std::size_t k = 0; k < starts.size(); ++k) axes.push_back(static_cast<std::int64_t>(k));
  std::int64_t own[kMaxRank], x_strides[kMaxRank], y_strides[kMaxRank];
  contiguous_strides(in, own);
  contiguous_strides(out, y_strides);
  std::int64_t offset = 0;
  for (int d = 0; d < in.rank(); ++d) x_strides[d] = own[d];
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const int d = static_cast<int>(normalized_axis(axes[k], in.rank()));
    const std::int64_t step = k < steps.size() ? steps[k] : 1;
    std::int64_t start = starts[k];
    const std::int64_t dim = in[d];
    if (start < 0) start += dim;
    start = step > 0 ? (start < 0 ? 0 : (start > dim ? dim : start))
                     : (start < 0 ? -1 : (start > dim - 1 ? dim - 1 : start));
    offset += start * own[d];
    x_strides[d] = own[d] * step;
  }
  strided_copy(l, l.in_id(0), offset, x_strides, l.out_id(0), 0, y_strides, out);
  return true;
}

inline bool lower_split(Lowering& l) {
  if (!l.require_float_inputs(0, 1)) return false;
  const Shape& in = l.in_shape(0);
  if (!check_extent(l, in)) return false;
  std::int64_t axis = 0;
  if (!l.attributes().attribute("axis", axis, 0).ok()) return l.unsupported("bad 'axis'");
  axis = normalized_axis(axis, in.rank());
  std::int64_t x_strides[kMaxRank];
  contiguous_strides(in, x_strides);
  std::int64_t at = 0;
  for (int k = 0; k < l.outputs(); ++k) {
    if (!l.has_output(k)) return l.unsupported("an omitted output");
    if (l.output(k).dtype != DataType::float32) return l.unsupported("output is not float32");
    const Shape& out = l.out_shape(k);
    std::int64_t y_strides[kMaxRank];
    contiguous_strides(out, y_strides);
    if (out.element_count() > 0) {
      strided_copy(l, l.in_id(0), at * x_strides[axis], x_strides, l.out_id(k), 0, y_strides, out);
    }
    at += out[static_cast<int>(axis)];
  }
  return true;
}

inline bool lower_expand(Lowering& l) {
  if (!l.require_float_inputs(0, 1) || !l.require_single_float_output()) return false;
  const Shape& out = l.out_shape(0);
  if (!check_extent(l, out)) return false;
  std::int64_t x_strides[kMaxRank], y_strides[kMaxRank];
  broadcast_strides(l.in_shape(0), out, x_strides);
  contiguous_strides(out, y_strides);
  strided_copy(l, l.in_id(0), 0, x_strides, l.out_id(0), 0, y_strides, out);
  return true;
}

/// Conv pads after auto_pad, for spatial dim d of a 1-D or 2-D conv.
inline bool conv_pads(Lowering& l, const std::int64_t* kernel, const std::int64_t* strides,
                      const std::int64_t* dilations, int spatial, std::int64_t* pads) {
  std::string_view auto_pad;
  if (!l.attributes().attribute("auto_pad", auto_pad, "NOTSET").ok()) return l.unsupported("bad 'auto_pad'");
  for (int d = 0; d < 2 * spatial; ++d) pads[d] = 0;
  if (auto_pad == "NOTSET") {
    std::size_t count = 0;
    bool present = false;
    if (!l.attributes().attribute_ints("pads", pads, 4, count, present).ok()) return l.unsupported("bad 'pads'");
    return true;
  }
  if (auto_pad == "VALID") return true;
  const Shape& in = l.in_shape(0);
  const Shape& out = l.out_shape(0);
  for (int d = 0; d < spatial; ++d) {
    const std::int64_t needed = (out[2 + d] - 1) * strides[d] + (kernel[d] - 1) * dilations[d] + 1 - in[2 + d];
    const std::int64_t total = needed > 0 ? needed : 0;
    pads[d] = auto_pad == "SAME_LOWER" ? total - total / 2 : total / 2;
    pads[d + spatial] = total - pads[d];
  }
  return true;
}

/// Kernel, strides, dilations and pads of a Conv or pool over 1 or 2 spatial dims, as 2-D (a 1-D op has height 1).
struct Window2d {
  std::int64_t kernel[2] = {1, 1}, strides[2] = {1, 1}, dilations[2] = {1, 1}, pads[4] = {0, 0, 0, 0};
  std::int64_t in_h = 1, in_w = 1, out_h = 1, out_w = 1;
};

inline bool read_window(Lowering& l, const std::int64_t* kernel_dims, Window2d& w) {
  const int spatial = l.in_shape(0).rank() - 2;
  if (spatial < 1 || spatial > 2) return l.unsupported(std::to_string(spatial) + " spatial dims (OpenCL: 1 or 2)");
  std::int64_t kernel[2] = {1, 1}, strides[2] = {1, 1}, dilations[2] = {1, 1}, pads[4] = {0, 0, 0, 0};
  for (int d = 0; d < spatial; ++d) kernel[d] = kernel_dims[d];
  std::size_t count = 0;
  bool present = false;
  if (!l.attributes().attribute_ints("strides", strides, 2, count, present).ok()) return l.unsupported("bad strides");
  if (!l.attributes().attribute_ints("dilations", dilations, 2, count, present).ok()) {
    return l.unsupported("bad dilations");
  }
  if (!conv_pads(l, kernel, strides, dilations, spatial, pads)) return false;
  const Shape& in = l.in_shape(0);
  const Shape& out = l.out_shape(0);
  // A 1-D op runs as 2-D with height 1: its only spatial dim becomes the width.
  const int h = spatial == 2 ? 0 : 1;
  w.kernel[h] = kernel[0];
  w.strides[h] = strides[0];
  w.dilations[h] = dilations[0];
  w.pads[h] = pads[0];
  w.pads[2 + h] = pads[spatial];
  if (spatial == 2) {
    w.kernel[1] = kernel[1];
    w.strides[1] = strides[1];
    w.dilations[1] = dilations[1];
    w.pads[1] = pads[1];
    w.pads[3] = pads[3];
    w.in_h = in[2];
    w.out_h = out[2];
  }
  w.in_w = in[in.rank() - 1];
  w.out_w = out[out.rank() - 1];
  return true;
}

inline bool lower_conv(Lowering& l) {
  if (!l.require_float_inputs(0) || !l.require_single_float_output()) return false;
  const Shape& x = l.in_shape(0);
  const Shape& weights = l.in_shape(1);
  const Shape& out = l.out_shape(0);
  if (!check_extent(l, out) || !check_extent(l, x)) return false;
  Window2d w;
  if (!read_window(l, weights.data() + 2, w)) return false;
  std::int64_t group = 1;
  if (!l.attributes().attribute("group", group, 1).ok()) return l.unsupported("bad 'group'");
  Launch& launch = l.launch(KernelId::conv2d, out.element_count());
  Lowering::tensor(launch, l.in_id(0));
  Lowering::tensor(launch, l.in_id(1));
  Lowering::optional_tensor(launch, l.has_input(2) ? l.in_id(2) : model::kNoValue);
  Lowering::tensor(launch, l.out_id(0));
  Lowering::ints(launch, {x[0], x[1], w.in_h, w.in_w, out[1], w.out_h, w.out_w, w.kernel[0], w.kernel[1], w.strides[0],
                          w.strides[1], w.pads[0], w.pads[1], w.dilations[0], w.dilations[1], group});
  l.clamp_params(launch);
  return true;
}

/// Batched product of `a` [.., M, K] (strides given) and `b` [.., K, N] into y [batch.., M, N], plus beta * c.
struct Product {
  model::ValueId a = model::kNoValue, b = model::kNoValue, c = model::kNoValue, y = model::kNoValue;
  Shape batch;  ///< the output's batch dims
  std::int64_t a_batch[kMaxRank] = {}, b_batch[kMaxRank] = {};
  std::int64_t M = 1, N = 1, K = 1;
  std::int64_t a_row = 0, a_col = 0, b_row = 0, b_col = 0, c_row = 0, c_col = 0;
  float alpha = 1.0f, beta = 0.0f;
};

inline bool launch_product(Lowering& l, const Product& p) {
  if (p.batch.rank() > 4) return l.unsupported("more than 4 batch dims");
  Launch& launch = l.launch(KernelId::matmul, p.batch.element_count() * p.M * p.N);
  Lowering::tensor(launch, p.a);
  Lowering::tensor(launch, p.b);
  Lowering::optional_tensor(launch, p.c);
  Lowering::tensor(launch, p.y);
  Lowering::ints(launch, {p.batch.element_count(), p.M, p.N, p.K, p.batch.rank()});
  for (int d = 0; d < 4; ++d) launch.params.push_back(d < p.batch.rank() ? static_cast<int>(p.batch[d]) : 1);
  for (int d = 0; d < 4; ++d) launch.params.push_back(d < p.batch.rank() ? static_cast<int>(p.a_batch[d]) : 0);
  for (int d = 0; d < 4; ++d) launch.params.push_back(d < p.batch.rank() ? static_cast<int>(p.b_batch[d]) : 0);
  Lowering::ints(launch, {p.a_row, p.a_col, p.b_row, p.b_col, p.c_row, p.c_col});
  Lowering::real(launch, p.alpha);
  Lowering::real(launch, p.beta);
  l.clamp_params(launch);
  return true;
}

inline bool lower_gemm(Lowering& l) {
  if (!l.require_float_inputs(0) || !l.require_single_float_output()) return false;
  std::int64_t trans_a = 0, trans_b = 0;
  Product p;
  const kernels::PrepareContext& a = l.attributes();
  if (!a.attribute("transA", trans_a, 0).ok() || !a.attribute("transB", trans_b, 0).ok() ||
      !a.attribute("alpha", p.alpha, 1.0f).ok() || !a.attribute("beta", p.beta, 1.0f).ok()) {
    return l.unsupported("bad attributes");
  }
  const Shape& sa = l.in_shape(0);
  const Shape& sb = l.in_shape(1);
  p.M = l.out_shape(0)[0];
  p.N = l.out_shape(0)[1];
  p.K = trans_a ? sa[0] : sa[1];
  p.a_row = trans_a ? 1 : sa[1];
  p.a_col = trans_a ? sa[1] : 1;
  p.b_row = trans_b ? 1 : sb[1];
  p.b_col = trans_b ? sb[1] : 1;
  p.a = l.in_id(0);
  p.b = l.in_id(1);
  p.y = l.out_id(0);
  if (l.has_input(2) && p.beta != 0.0f) {
    const Shape& sc = l.in_shape(2);
    std::int64_t strides[kMaxRank];
    broadcast_strides(sc, l.out_shape(0), strides);
    p.c = l.in_id(2);
    p.c_row = strides[0];
    p.c_col = strides[1];
  }
  return launch_product(l, p);
}

inline bool lower_matmul(Lowering& l) {
  if (!l.require_float_inputs(0) || !l.require_single_float_output()) return false;
  Shape sa = l.in_shape(0), sb = l.in_shape(1);
  const Shape& out = l.out_shape(0);
  if (!check_extent(l, out)) return false;
  // 1-D operands: A [K] is [1, K], B [K] is [K, 1]; the output shape already drops those dims.
  if (sa.rank() == 1) sa = Shape{1, sa[0]};
  if (sb.rank() == 1) sb = Shape{sb[0], 1};
  Product p;
  p.M = sa[sa.rank() - 2];
  p.K = sa[sa.rank() - 1];
  p.N = sb[sb.rank() - 1];
  p.a_row = p.K;
  p.a_col = 1;
  p.b_row = p.N;
  p.b_col = 1;
  const int batch_rank = (sa.rank() > sb.rank() ? sa.rank() : sb.rank()) - 2;
  p.batch.resize(batch_rank);
  std::int64_t a_strides[kMaxRank], b_strides[kMaxRank];
  contiguous_strides(sa, a_strides);
  contiguous_strides(sb, b_strides);
  for (int d = 0; d < batch_rank; ++d) {
    const int da = d - (batch_rank - (sa.rank() - 2));
    const int db = d - (batch_rank - (sb.rank() - 2));
    const std::int64_t dim_a = da >= 0 ? sa[da] : 1;
    const std::int64_t dim_b = db >= 0 ? sb[db] : 1;
    p.batch[d] = dim_a > dim_b ? dim_a : dim_b;
    p.a_batch[d] = (da < 0 || dim_a == 1) ? 0 : a_strides[da];
    p.b_batch[d] = (db < 0 || dim_b == 1) ? 0 : b_strides[db];
  }
  p.a = l.in_id(0);
  p.b = l.in_id(1);
  p.y = l.out_id(0);
  return launch_product(l, p);
}

inline bool lower_pool(Lowering& l) {
  const bool average = l.node().op_type == "AveragePool";
  if (!l.require_float_inputs(0) || !l.require_single_float_output()) return false;
  std::int64_t kernel[kMaxRank] = {1, 1};
  std::size_t count = 0;
  if (!l.attributes().required_attribute_ints("kernel_shape", kernel, kMaxRank, count).ok()) {
    return l.unsupported("bad 'kernel_shape'");
  }
  Window2d w;
  if (!read_window(l, kernel, w)) return false;
  std::int64_t include_pad = 0;
  if (average && !l.attributes().attribute("count_include_pad", include_pad, 0).ok()) {
    return l.unsupported("bad 'count_include_pad'");
  }
  const Shape& x = l.in_shape(0);
  const Shape& out = l.out_shape(0);
  Launch& launch = l.launch(KernelId::pool2d, out.element_count());
  Lowering::tensor(launch, l.in_id(0));
  Lowering::tensor(launch, l.out_id(0));
  Lowering::ints(launch, {x[0] * x[1], w.in_h, w.in_w, w.out_h, w.out_w, w.kernel[0], w.kernel[1], w.strides[0],
                          w.strides[1], w.pads[0], w.pads[1], w.dilations[0], w.dilations[1], average ? 1 : 0,
                          include_pad, w.pads[2], w.pads[3]});
  return true;
}

inline bool lower_global_pool(Lowering& l) {
  if (!l.require_float_inputs(0) || !l.require_single_float_output()) return false;
  const Shape& x = l.in_shape(0);
  if (x.rank() < 2) return l.unsupported("rank below 2");
  Launch& launch = l.launch(KernelId::global_pool, x[0] * x[1]);
  Lowering::tensor(launch, l.in_id(0));
  Lowering::tensor(launch, l.out_id(0));
  Lowering::ints(launch, {x[0] * x[1], product(x, 2, x.rank()), l.node().op_type == "GlobalAveragePool" ? 1 : 0});
  return true;
}

inline bool lower_softmax(Lowering& l) {
  if (!l.require_float_inputs(0) || !l.require_single_float_output()) return false;
  const Shape& x = l.in_shape(0);
  std::int64_t axis = 0;
  if (!l.attributes().attribute("axis", axis, l.opset() < 13 ? 1 : -1).ok()) return l.unsupported("bad 'axis'");
  const int a = static_cast<int>(normalized_axis(axis, x.rank()));
  // Before opset 13 the input is coerced to 2-D at `axis`: the softmax runs over everything from it on.
  const std::int64_t inner = l.opset() < 13 ? 1 : product(x, a + 1, x.rank());
  const std::int64_t length = l.opset() < 13 ? product(x, a, x.rank()) : x[a];
  const std::int64_t outer = product(x, 0, a);
  Launch& launch = l.launch(KernelId::softmax, outer * inner);
  Lowering::tensor(launch, l.in_id(0));
  Lowering::tensor(launch, l.out_id(0));
  Lowering::ints(launch, {outer, length, inner, l.node().op_type == "LogSoftmax" ? 1 : 0});
  return true;
}

inline bool lower_layer_norm(Lowering& l) {
  if (!l.require_float_inputs(0) || !l.require_single_float_output()) return false;
  const Shape& x = l.in_shape(0);
  std::int64_t axis = -1;
  float epsilon = 1e-5f;
  if (!l.attributes().attribute("axis", axis, -1).ok() || !l.attributes().attribute("epsilon", epsilon, 1e-5f).ok()) {
    return l.unsupported("bad attributes");
  }
  const int a = static_cast<int>(normalized_axis(axis, x.rank()));
  const std::int64_t cols = product(x, a, x.rank());
  if (l.in_shape(1).element_count() != cols || (l.has_input(2) && l.in_shape(2).element_count() != cols)) {
    return l.unsupported("scale or bias broadcast over the normalized dims");
  }
  Launch& launch = l.launch(KernelId::layer_norm, product(x, 0, a));
  Lowering::tensor(launch, l.in_id(0));
  Lowering::tensor(launch, l.in_id(1));
  Lowering::optional_tensor(launch, l.has_input(2) ? l.in_id(2) : model::kNoValue);
  Lowering::tensor(launch, l.out_id(0));
  Lowering::ints(launch, {product(x, 0, a), cols});
  Lowering::real(launch, epsilon);
  return true;
}

inline bool lower_batch_norm(Lowering& l) {
  if (!l.require_float_inputs(0) || !l.require_single_float_output()) return false;
  std::int64_t training = 0;
  float epsilon = 1e-5f;
  if (!l.attributes().attribute("training_mode", training, 0).ok() ||
      !l.attributes().attribute("epsilon", epsilon, 1e-5f).ok()) {
    return l.unsupported("bad attributes");
  }
  if (training != 0) return l.unsupported("training_mode");
  const Shape& x = l.in_shape(0);
  Launch& launch = l.launch(KernelId::batch_norm, x.element_count());
  Lowering::tensor(launch, l.in_id(0));
  Lowering::tensor(launch, l.in_id(1));
  Lowering::tensor(launch, l.in_id(2));
  Lowering::tensor(launch, l.in_id(3));
  Lowering::tensor(launch, l.in_id(4));
  Lowering::tensor(launch, l.out_id(0));
  Lowering::ints(launch, {x.element_count(), x.rank() > 1 ? x[1] : 1, product(x, 2, x.rank())});
  Lowering::real(launch, epsilon);
  return true;
}

/// Gather needs the error word's offset: `error_word` is its int index in the device buffer (set by the backend).
inline bool lower_gather(Lowering& l) {
  if (!l.require_float_inputs(0, 1) || !l.require_single_float_output()) return false;
  const DataType index_type = l.input(1).dtype;
  if (index_type != DataType::int64 && index_type != DataType::int32) return l.unsupported("indices not int64/int32");
  const Shape& data = l.in_shape(0);
  std::int64_t axis = 0;
  if (!l.attributes().attribute("axis", axis, 0).ok()) return l.unsupported("bad 'axis'");
  const int a = static_cast<int>(normalized_axis(axis, data.rank()));
  const std::int64_t count = l.in_shape(1).element_count();
  const std::int64_t outer = product(data, 0, a), inner = product(data, a + 1, data.rank());
  Launch& launch = l.launch(KernelId::gather, outer * count * inner);
  Lowering::tensor(launch, l.in_id(0));
  Lowering::tensor(launch, l.in_id(1));
  Lowering::tensor(launch, l.out_id(0));
  Lowering::ints(launch, {outer, data[a], inner, count, index_type == DataType::int32 ? 1 : 0});
  launch.params.push_back(0);  // the error word, patched by the backend (the last parameter of every gather)
  return true;
}

/// ReduceSum/Mean/Max/Min over one run of adjacent axes.
inline bool lower_reduce(Lowering& l) {
  const std::string_view op = l.node().op_type;
  const int mode = op == "ReduceSum" ? 0 : op == "ReduceMean" ? 1 : op == "ReduceMax" ? 2 : 3;
  if (!l.require_float_inputs(0, 1) || !l.require_single_float_output()) return false;
  const Shape& x = l.in_shape(0);
  std::vector<std::int64_t> axes;
  const bool axes_input = op == "ReduceSum" ? l.opset() >= 13 : l.opset() >= 18;
  if (axes_input) {
    if (l.has_input(1) && (!l.require_constant(1, "axes") || !l.constant_ints(1, axes))) return false;
  } else if (!l.attribute_list("axes", axes)) {
    return false;
  }
  std::int64_t noop = 0;
  if (!l.attributes().attribute("noop_with_empty_axes", noop, 0).ok()) return l.unsupported("bad attribute");
  if (axes.empty() && noop) return lower_alias(l);
  if (axes.empty())
    for (int d = 0; d < x.rank(); ++d) axes.push_back(d);
  int first = x.rank(), last = -1;
  for (std::int64_t& axis : axes) {
    const int d = static_cast<int>(normalized_axis(axis, x.rank()));
    first = d < first ? d : first;
    last = d > last ? d : last;
  }
  if (last - first + 1 != static_cast<int>(axes.size())) return l.unsupported("axes that are not adjacent");
  const std::int64_t outer = product(x, 0, first), inner = product(x, last + 1, x.rank());
  Launch& launch = l.launch(KernelId::reduce, outer * inner);
  Lowering::tensor(launch, l.in_id(0));
  Lowering::tensor(launch, l.out_id(0));
  Lowering::ints(launch, {outer, product(x, first, last + 1), inner, mode});
  return true;
}

/// Resize (10+, every mode) from the taps the CPU kernel's prepare computed: each output element sums its taps'
/// weighted inputs (float on the device, double on the CPU).
inline bool lower_resize(Lowering& l) {
  if (!l.require_float_inputs(0, 1) || !l.require_single_float_output()) return false;
  const Shape& out = l.out_shape(0);
  if (!check_extent(l, out)) return false;
  const auto* state = static_cast<const kernels::resize_detail::ResizeCommon::State*>(l.cpu_state());
  if (state == nullptr) return l.unsupported("no prepared taps");
  const kernels::resize_util::Plan& plan = state->plan;
  Launch& launch = l.launch(KernelId::resize, out.element_count());
  Lowering::tensor(launch, l.in_id(0));
  Lowering::tensor(launch, l.out_id(0));
  Lowering::ints(launch, {out.element_count(), out.rank()});
  for (int d = 0; d < kMaxKernelRank; ++d) launch.params.push_back(d < out.rank() ? static_cast<int>(out[d]) : 1);
  const std::size_t axis_table = launch.params.size();
  launch.params.resize(axis_table + 2 * kMaxKernelRank, 1);
  Lowering::real(launch, static_cast<float>(plan.extrapolation_value));
  for (int d = 0; d < out.rank(); ++d) {
    const kernels::resize_util::AxisTaps& taps = plan.axes[d];
    launch.params[axis_table + 2 * static_cast<std::size_t>(d)] = taps.count;
    launch.params[axis_table + 2 * static_cast<std::size_t>(d) + 1] = static_cast<int>(launch.params.size());
    for (std::int64_t o = 0; o < out[d]; ++o) {
      launch.params.push_back(taps.flags.empty() ? 0 : taps.flags[static_cast<std::size_t>(o)]);
      for (int k = 0; k < taps.count; ++k) {
        const std::size_t i = static_cast<std::size_t>(o * taps.count + k);
        launch.params.push_back(static_cast<int>(taps.offsets[i]));
        Lowering::real(launch, taps.weights.empty() ? 1.0f : static_cast<float>(taps.weights[i]));
      }
    }
  }
  return true;
}

using LowerFunction = bool (*)(Lowering&);

/// The lowering of an ai.onnx op, or nullptr when the OpenCL path has none.
inline LowerFunction lowering_for(std::string_view op) noexcept {
  static const struct {
    const char* op;
    LowerFunction lower;
  } table[] = {
      {"Relu", lower_activation},
      {"LeakyRelu", lower_activation},
      {"Clip", lower_activation},
      {"Sigmoid", lower_activation},
      {"Tanh", lower_activation},
      {"Erf", lower_activation},
      {"Gelu", lower_activation},
      {"HardSwish", lower_activation},
      {"HardSigmoid", lower_activation},
      {"Exp", lower_activation},
      {"Sqrt", lower_activation},
      {"Neg", lower_activation},
      {"Abs", lower_activation},
      {"Log", lower_activation},
      {"Reciprocal", lower_activation},
      {"Elu", lower_activation},
      {"Softplus", lower_activation},
      {"Floor", lower_activation},
      {"Ceil", lower_activation},
      {"Sin", lower_activation},
      {"Cos", lower_activation},
      {"Softsign", lower_activation},
      {"Add", lower_binary},
      {"Sub", lower_binary},
      {"Mul", lower_binary},
      {"Div", lower_binary},
      {"Pow", lower_binary},
      {"Max", lower_variadic},
      {"Min", lower_variadic},
      {"Sum", lower_variadic},
      {"Mean", lower_variadic},
      {"Equal", lower_binary},
      {"Less", lower_binary},
      {"Greater", lower_binary},
      {"LessOrEqual", lower_binary},
      {"GreaterOrEqual", lower_binary},
      {"PRelu", lower_binary},
      {"Where", lower_where},
      {"Reshape", lower_alias},
      {"Flatten", lower_alias},
      {"Squeeze", lower_alias},
      {"Unsqueeze", lower_alias},
      {"Identity", lower_alias},
      {"Dropout", lower_alias},
      {"Transpose", lower_transpose},
      {"Concat", lower_concat},
      {"Slice", lower_slice},
      {"Split", lower_split},
      {"Expand", lower_expand},
      {"Conv", lower_conv},
      {"Gemm", lower_gemm},
      {"MatMul", lower_matmul},
      {"MaxPool", lower_pool},
      {"AveragePool", lower_pool},
      {"GlobalAveragePool", lower_global_pool},
      {"GlobalMaxPool", lower_global_pool},
      {"Softmax", lower_softmax},
      {"LogSoftmax", lower_softmax},
      {"LayerNormalization", lower_layer_norm},
      {"BatchNormalization", lower_batch_norm},
      {"Gather", lower_gather},
      {"ReduceSum", lower_reduce},
      {"ReduceMean", lower_reduce},
      {"ReduceMax", lower_reduce},
      {"ReduceMin", lower_reduce},
      {"Cast", lower_cast},
      {"CastLike", lower_cast},
      {"Resize", lower_resize},
  };
  for (const auto& entry : table)
    if (op == entry.op) return entry.lower;
  return nullptr;
}

}  // namespace opencl
ONNXMICRO_NAMESPACE_END
