// SPDX-License-Identifier: MIT
// FlexAttention (ai.onnx.preview): Y = prob_mod(softmax(score_mod((Q*s) . (K*s)^T))) . V with s = sqrt(scale)
// over rank-4 inputs (batch, heads, sequence, head_size); query head h uses KV head h / (q_heads / kv_heads).
// score_mod and prob_mod are optional one-input, one-output subgraphs applied to the (B, Hq, L, S) scores and
// probabilities in softmax precision (float32 unless softmax_precision says otherwise; double for double input).
//
// The kernel API runs no subgraphs, so the modifier graphs are compiled at prepare time by ModGraph below:
// everything that does not depend on the scores (initializers, Constant, Shape of the scores, Gather, Range,
// Reshape, Unsqueeze, Squeeze and elementwise ops on constants) is folded into constant tensors, and the ops that
// do depend on them must be elementwise (arithmetic, comparisons, logic, Where, Cast and common unary math), with
// constants broadcasting into (B, Hq, L, S). run() then evaluates that straight-line program per score. Graphs
// outside this subset fail in prepare with an `unsupported` status naming the node.
// Unlike Attention, a row whose scores are all -inf gives NaN here, as in the reference.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>

#include "onnxmicro/kernels/nn/attention_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// A modifier subgraph compiled to a straight-line elementwise program over one score (see the file comment).
struct ModGraph {
  static constexpr int kMaxValues = 48;        ///< named values of the subgraph (inputs, constants, node outputs)
  static constexpr int kMaxInstructions = 48;  ///< score-dependent elementwise nodes
  static constexpr int kInputRegister = kMaxInstructions;

  enum class Op : std::uint8_t {
    identity,
    add,
    sub,
    mul,
    div,
    pow,
    min,
    max,
    neg,
    abs,
    exp,
    log,
    tanh,
    sqrt,
    sigmoid,
    relu,
    reciprocal,
    floor,
    ceil,
    sin,
    cos,
    equal,
    less,
    less_equal,
    greater,
    greater_equal,
    logical_and,
    logical_or,
    logical_xor,
    logical_not,
    where,
    cast,
  };

  /// A register (>= 0, kInputRegister for the score) or a constant tensor broadcast over (B, Hq, L, S).
  struct Operand {
    int reg;
    const double* data;
    std::int64_t strides[4];
  };
  struct Instruction {
    Op op;
    DataType dtype;  // result dtype: decides the rounding of the result
    int input_count;
    Operand inputs[3];
  };

  bool present;
  int count;
  int output_reg;
  const Instruction* code;  ///< `count` instructions in persistent memory

  /// Evaluates the program for the score `input` at position (b, h, i, j).
  double evaluate(double input, std::int64_t b, std::int64_t h, std::int64_t i, std::int64_t j) const noexcept {
    double regs[kMaxInstructions + 1];
    regs[kInputRegister] = input;
    for (int k = 0; k < count; ++k) {
      const Instruction& in = code[k];
      double args[3] = {0, 0, 0};
      for (int a = 0; a < in.input_count; ++a) {
        const Operand& o = in.inputs[a];
        args[a] = o.reg >= 0 ? regs[o.reg]
                             : o.data[b * o.strides[0] + h * o.strides[1] + i * o.strides[2] + j * o.strides[3]];
      }
      regs[k] = apply(in.op, in.dtype, args[0], args[1], args[2]);
    }
    return regs[output_reg];
  }

  /// Compiles the GRAPH attribute `attribute` (absent: present = false). `io_dtype` is the element type of the
  /// graph's input and output, `full` the (B, Hq, L, S) shape.
  static Status compile(PrepareContext& ctx, std::string_view attribute, DataType io_dtype, const Shape& full,
                        ModGraph& out) noexcept;

  /// Applies `op` to scalars and rounds the result to `dtype`.
  static double apply(Op op, DataType dtype, double a, double b, double c) noexcept {
    const bool integer = !attention_util::is_float_dtype(dtype) && dtype != DataType::boolean;
    double r = 0;
    switch (op) {
      case Op::identity: r = a; break;
      case Op::add: r = a + b; break;
      case Op::sub: r = a - b; break;
      case Op::mul: r = a * b; break;
      case Op::div: r = integer ? (b == 0 ? 0 : std::trunc(a / b)) : a / b; break;
      case Op::pow: r = std::pow(a, b); break;
      case Op::min: r = (std::isnan(a) || a < b) ? a : b; break;
      case Op::max: r = (std::isnan(a) || a > b) ? a : b; break;
      case Op::neg: r = -a; break;
      case Op::abs: r = std::fabs(a); break;
      case Op::exp: r = std::exp(a); break;
      case Op::log: r = std::log(a); break;
      case Op::tanh: r = std::tanh(a); break;
      case Op::sqrt: r = std::sqrt(a); break;
      case Op::sigmoid: r = 1.0 / (1.0 + std::exp(-a)); break;
      case Op::relu: r = a < 0 ? 0.0 : a; break;
      case Op::reciprocal: r = 1.0 / a; break;
      case Op::floor: r = std::floor(a); break;
      case Op::ceil: r = std::ceil(a); break;
      case Op::sin: r = std::sin(a); break;
      case Op::cos: r = std::cos(a); break;
      case Op::equal: r = a == b; break;
      case Op::less: r = a < b; break;
      case Op::less_equal: r = a <= b; break;
      case Op::greater: r = a > b; break;
      case Op::greater_equal: r = a >= b; break;
      case Op::logical_and: r = (a != 0) && (b != 0); break;
      case Op::logical_or: r = (a != 0) || (b != 0); break;
      case Op::logical_xor: r = (a != 0) != (b != 0); break;
      case Op::logical_not: r = a == 0; break;
      case Op::where: r = a != 0 ? b : c; break;
      case Op::cast: r = a; break;
    }
    if (dtype == DataType::boolean) return r != 0 ? 1.0 : 0.0;
    if (integer) return std::isfinite(r) ? std::trunc(r) : 0.0;
    return attention_util::round_to_dtype(dtype, r);
  }

 private:
  /// A named value while compiling: a register or a folded constant tensor.
  struct Value {
    std::string_view name;
    bool dynamic;
    int reg;
    DataType dtype;
    Shape shape;
    const double* data;
  };
  struct Compiler {
    PrepareContext& ctx;
    std::string_view attribute;
    Shape full;
    Value values[kMaxValues];
    int value_count = 0;
    Instruction code[kMaxInstructions];  // copied to an array of the exact size when compiled
    int instruction_count = 0;

    Status unsupported(const proto::Node& node, const char* why) const noexcept {
      return Status(StatusCode::unsupported)
             << "attribute '" << attribute << "': node '" << node.name << "' (" << node.op_type << ") " << why;
    }
    const Value* find(std::string_view name) const noexcept {
      for (int k = value_count - 1; k >= 0; --k) {
        if (values[k].name == name) return &values[k];
      }
      return nullptr;
    }
    Status add(const Value& v) noexcept {
      if (value_count == kMaxValues) {
        return Status(StatusCode::limit_exceeded)
               << "attribute '" << attribute << "' has more than " << kMaxValues << " values";
      }
      values[value_count++] = v;
      return {};
    }
    Status add_constant(std::string_view name, DataType dtype, const Shape& shape, double*& data) noexcept {
      Span<double> storage;
      const std::int64_t n = shape.element_count();
      ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent<double>(static_cast<std::size_t>(n > 0 ? n : 1), storage));
      data = storage.data();
      return add(Value{name, false, -1, dtype, shape, data});
    }
    /// Decodes a TensorProto into a constant (elements converted to double).
    Status add_tensor(std::string_view name, const proto::Tensor& t) noexcept {
      const DataType dtype = is_known_dtype(t.data_type) ? static_cast<DataType>(t.data_type) : DataType::undefined;
      if (attention_util::element_loader(dtype) == nullptr) {
        return Status(StatusCode::unsupported) << "attribute '" << attribute << "': tensor '" << name << "' has dtype "
                                               << dtype_name(dtype) << ", which modifier graphs do not support";
      }
      Shape shape;
      ONNXMICRO_RETURN_IF_ERROR(shape.assign(t.dims, static_cast<std::size_t>(t.rank)));
      double* data = nullptr;
      ONNXMICRO_RETURN_IF_ERROR(add_constant(name, dtype, shape, data));
      const std::int64_t n = shape.element_count();
      unsigned char* bytes = reinterpret_cast<unsigned char*>(data);
      ONNXMICRO_RETURN_IF_ERROR(t.decode_to(bytes, byte_size_of(dtype, n)));
      // Widen in place from the back: element k's source bytes lie at or before its 8-byte destination.
      auto widen = [&](auto tag) noexcept {
        using T = typename decltype(tag)::type;
        for (std::int64_t k = n - 1; k >= 0; --k) {
          T v;
          std::memcpy(&v, bytes + k * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
          const double d = static_cast<double>(load_element(v));
          std::memcpy(bytes + k * 8, &d, sizeof(d));
        }
      };
      if (dtype == DataType::boolean) {
        widen(TypeTag<bool>{});
      } else {
        visit_dtype(dtype, NumericTypes{}, widen);
      }
      return {};
    }
    /// Strides of `shape` broadcast right-aligned onto `target` (rank <= kMaxRank); false when it does not fit.
    static bool broadcast_strides(const Shape& shape, const Shape& target, std::int64_t* strides) noexcept {
      if (shape.rank() > target.rank()) return false;
      std::int64_t stride = 1;
      for (int axis = target.rank() - 1; axis >= 0; --axis) {
        const int source = axis - (target.rank() - shape.rank());
        const std::int64_t dim = source >= 0 ? shape[source] : 1;
        if (dim != 1 && dim != target[axis]) return false;
        strides[axis] = dim == 1 ? 0 : stride;
        stride *= dim;
      }
      return true;
    }
    Status elementwise(const proto::Node& node, Op op, int arity, DataType dtype_override) noexcept;
    Status structural(const proto::Node& node) noexcept;
    Status constant_int_list(const proto::Node& node, int input, std::int64_t* values, int& count) const noexcept;
  };

  static bool elementwise_op(std::string_view type, Op& op, int& arity) noexcept {
    struct Entry {
      std::string_view name;
      Op op;
      int arity;
    };
    static constexpr Entry kTable[] = {
        {"Identity", Op::identity, 1},
        {"Add", Op::add, 2},
        {"Sub", Op::sub, 2},
        {"Mul", Op::mul, 2},
        {"Div", Op::div, 2},
        {"Pow", Op::pow, 2},
        {"Min", Op::min, 2},
        {"Max", Op::max, 2},
        {"Neg", Op::neg, 1},
        {"Abs", Op::abs, 1},
        {"Exp", Op::exp, 1},
        {"Log", Op::log, 1},
        {"Tanh", Op::tanh, 1},
        {"Sqrt", Op::sqrt, 1},
        {"Sigmoid", Op::sigmoid, 1},
        {"Relu", Op::relu, 1},
        {"Reciprocal", Op::reciprocal, 1},
        {"Floor", Op::floor, 1},
        {"Ceil", Op::ceil, 1},
        {"Sin", Op::sin, 1},
        {"Cos", Op::cos, 1},
        {"Equal", Op::equal, 2},
        {"Less", Op::less, 2},
        {"LessOrEqual", Op::less_equal, 2},
        {"Greater", Op::greater, 2},
        {"GreaterOrEqual", Op::greater_equal, 2},
        {"And", Op::logical_and, 2},
        {"Or", Op::logical_or, 2},
        {"Xor", Op::logical_xor, 2},
        {"Not", Op::logical_not, 1},
        {"Where", Op::where, 3},
        {"Cast", Op::cast, 1},
    };
    for (const Entry& e : kTable) {
      if (e.name == type) {
        op = e.op;
        arity = e.arity;
        return true;
      }
    }
    return false;
  }
};

inline Status ModGraph::Compiler::constant_int_list(const proto::Node& node, int input, std::int64_t* list,
                                                    int& count) const noexcept {
  count = 0;
  int k = 0;
  for (std::string_view name : node.inputs()) {
    if (k++ != input) continue;
    const Value* v = find(name);
    if (v == nullptr || v->dynamic || v->shape.rank() > 1 || v->shape.element_count() > kMaxRank) {
      return unsupported(node, "needs a constant list of at most kMaxRank integers here");
    }
    count = static_cast<int>(v->shape.element_count());
    for (int i = 0; i < count; ++i) list[i] = static_cast<std::int64_t>(v->data[i]);
  }
  return {};
}

inline Status ModGraph::Compiler::elementwise(const proto::Node& node, Op op, int arity,
                                              DataType dtype_override) noexcept {
  const Value* in[3] = {nullptr, nullptr, nullptr};
  int count = 0;
  bool dynamic = false;
  for (std::string_view name : node.inputs()) {
    if (count == 3) break;
    in[count] = find(name);
    if (in[count] == nullptr) return unsupported(node, "reads a value the graph does not define");
    dynamic = dynamic || in[count]->dynamic;
    ++count;
  }
  if (count != arity) return unsupported(node, "has an unexpected number of inputs");
  DataType dtype = in[op == Op::where ? 1 : 0]->dtype;
  if (op >= Op::equal && op <= Op::logical_not) dtype = DataType::boolean;
  if (dtype_override != DataType::undefined) dtype = dtype_override;
  std::string_view output;
  for (std::string_view name : node.outputs()) {
    output = name;
    break;
  }
  if (dynamic) {
    if (instruction_count == kMaxInstructions) {
      return unsupported(node, "exceeds the modifier graph's instruction limit");
    }
    Instruction& ins = code[instruction_count];
    ins.op = op;
    ins.dtype = dtype;
    ins.input_count = arity;
    for (int a = 0; a < arity; ++a) {
      Operand& o = ins.inputs[a];
      o.reg = in[a]->dynamic ? in[a]->reg : -1;
      o.data = in[a]->data;
      for (std::int64_t& s : o.strides) s = 0;
      if (!in[a]->dynamic && !broadcast_strides(in[a]->shape, full, o.strides)) {
        return unsupported(node, "has a constant input that does not broadcast to the scores' shape");
      }
    }
    ONNXMICRO_RETURN_IF_ERROR(add(Value{output, true, instruction_count, dtype, full, nullptr}));
    ++instruction_count;
    return {};
  }
  // Fold: numpy broadcasting of constants.
  Shape shape;
  int rank = 0;
  for (int a = 0; a < arity; ++a) rank = in[a]->shape.rank() > rank ? in[a]->shape.rank() : rank;
  shape.resize(rank);
  for (int axis = 0; axis < rank; ++axis) {
    std::int64_t dim = 1;
    for (int a = 0; a < arity; ++a) {
      const int source = axis - (rank - in[a]->shape.rank());
      const std::int64_t d = source >= 0 ? in[a]->shape[source] : 1;
      if (d != 1 && dim != 1 && d != dim) return unsupported(node, "has constant inputs that do not broadcast");
      if (d != 1) dim = d;
    }
    shape[axis] = dim;
  }
  double* data = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(add_constant(output, dtype, shape, data));
  std::int64_t strides[3][kMaxRank] = {};
  for (int a = 0; a < arity; ++a) broadcast_strides(in[a]->shape, shape, strides[a]);
  const std::int64_t n = shape.element_count();
  for (std::int64_t flat = 0; flat < n; ++flat) {
    double args[3] = {0, 0, 0};
    for (int a = 0; a < arity; ++a) {
      std::int64_t rest = flat;
      std::int64_t offset = 0;
      for (int axis = rank - 1; axis >= 0; --axis) {
        offset += (rest % shape[axis]) * strides[a][axis];
        rest /= shape[axis];
      }
      args[a] = in[a]->data[offset];
    }
    data[flat] = apply(op, dtype, args[0], args[1], args[2]);
  }
  return {};
}

inline Status ModGraph::Compiler::structural(const proto::Node& node) noexcept {
  const std::string_view type = node.op_type;
  const Value* in[3] = {nullptr, nullptr, nullptr};
  int count = 0;
  for (std::string_view name : node.inputs()) {
    if (count < 3) in[count] = name.empty() ? nullptr : find(name);
    ++count;
  }
  std::string_view output;
  for (std::string_view name : node.outputs()) {
    output = name;
    break;
  }
  if (type == "Constant") {
    proto::Attribute a;
    for (proto::Attribute attr : node.attributes()) {
      a = attr;
      break;
    }
    if (a.name == "value" && a.type == proto::AttributeType::tensor) {
      return add_tensor(output, proto::Tensor::unchecked(a.t));
    }
    double* data = nullptr;
    if (a.name == "value_float" || a.name == "value_int") {
      const bool is_float = a.name == "value_float";
      ONNXMICRO_RETURN_IF_ERROR(add_constant(output, is_float ? DataType::float32 : DataType::int64, Shape{}, data));
      data[0] = is_float ? static_cast<double>(a.f) : static_cast<double>(a.i);
      return {};
    }
    if (a.name == "value_floats" || a.name == "value_ints") {
      const bool is_float = a.name == "value_floats";
      const std::int64_t n = static_cast<std::int64_t>(is_float ? a.floats().size() : a.ints().size());
      ONNXMICRO_RETURN_IF_ERROR(add_constant(output, is_float ? DataType::float32 : DataType::int64, Shape{n}, data));
      std::int64_t k = 0;
      if (is_float) {
        for (float f : a.floats()) data[k++] = f;
      } else {
        for (std::int64_t v : a.ints()) data[k++] = static_cast<double>(v);
      }
      return {};
    }
    return unsupported(node, "has an attribute modifier graphs do not support");
  }
  if (in[0] == nullptr) return unsupported(node, "reads a value the graph does not define");
  if (type == "Shape") {
    std::int64_t start = 0;
    std::int64_t end = in[0]->shape.rank();
    const std::int64_t rank = end;
    proto::Attribute a;
    if (node.find_attribute("start", a)) start = a.i;
    if (node.find_attribute("end", a)) end = a.i;
    if (start < 0) start += rank;
    if (end < 0) end += rank;
    start = start < 0 ? 0 : start > rank ? rank : start;
    end = end < start ? start : end > rank ? rank : end;
    double* data = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(add_constant(output, DataType::int64, Shape{end - start}, data));
    for (std::int64_t k = start; k < end; ++k) data[k - start] = static_cast<double>(in[0]->shape[static_cast<int>(k)]);
    return {};
  }
  if (type == "Reshape" || type == "Unsqueeze" || type == "Squeeze") {
    std::int64_t list[kMaxRank] = {};
    int list_count = 0;
    const bool has_list_input = count > 1 && in[1] != nullptr;
    if (has_list_input) {
      ONNXMICRO_RETURN_IF_ERROR(constant_int_list(node, 1, list, list_count));
    } else if (type != "Reshape") {
      // Unsqueeze/Squeeze before opset 13 take `axes` as an attribute.
      proto::Attribute a;
      if (node.find_attribute("axes", a)) {
        for (std::int64_t v : a.ints()) {
          if (list_count == kMaxRank) return unsupported(node, "has too many axes");
          list[list_count++] = v;
        }
      }
    } else {
      return unsupported(node, "needs its shape input");
    }
    const Shape& source = in[0]->shape;
    Shape shape;
    if (type == "Reshape") {
      shape.resize(list_count);
      std::int64_t known = 1;
      int infer = -1;
      for (int axis = 0; axis < list_count; ++axis) {
        std::int64_t d = list[axis];
        if (d == 0 && axis < source.rank()) d = source[axis];
        if (d == -1) {
          infer = axis;
          d = 1;
        }
        shape[axis] = d;
        known *= d;
      }
      if (infer >= 0 && known > 0) shape[infer] = source.element_count() / known;
    } else if (type == "Unsqueeze") {
      const int rank = source.rank() + list_count;
      bool inserted[kMaxRank] = {};
      for (int k = 0; k < list_count; ++k) {
        const std::int64_t axis = list[k] < 0 ? list[k] + rank : list[k];
        if (axis < 0 || axis >= rank || rank > kMaxRank) return unsupported(node, "has an axis out of range");
        inserted[axis] = true;
      }
      shape.resize(rank);
      int next = 0;
      for (int axis = 0; axis < rank; ++axis) shape[axis] = inserted[axis] ? 1 : source[next++];
    } else {
      int rank = 0;
      Shape kept;
      kept.resize(source.rank());
      for (int axis = 0; axis < source.rank(); ++axis) {
        bool squeeze = list_count == 0 && source[axis] == 1;
        for (int k = 0; k < list_count; ++k) {
          squeeze = squeeze || list[k] == axis || list[k] + source.rank() == axis;
        }
        if (!squeeze) kept[rank++] = source[axis];
      }
      shape.resize(rank);
      for (int axis = 0; axis < rank; ++axis) shape[axis] = kept[axis];
    }
    if (shape.element_count() != source.element_count()) return unsupported(node, "changes the element count");
    if (in[0]->dynamic) {
      // A score-dependent value keeps its layout only when the shape stays (B, Hq, L, S).
      if (shape != full) return unsupported(node, "reshapes the scores, which modifier graphs do not support");
      return add(Value{output, true, in[0]->reg, in[0]->dtype, full, nullptr});
    }
    return add(Value{output, false, -1, in[0]->dtype, shape, in[0]->data});
  }
  if (in[0]->dynamic) return unsupported(node, "would need the scores' values at prepare time");
  if (type == "Gather") {
    if (in[1] == nullptr || in[1]->dynamic) return unsupported(node, "needs constant indices");
    std::int64_t axis = 0;
    proto::Attribute a;
    if (node.find_attribute("axis", a)) axis = a.i;
    const Shape& data_shape = in[0]->shape;
    const Shape& index_shape = in[1]->shape;
    if (axis < 0) axis += data_shape.rank();
    if (axis < 0 || axis >= data_shape.rank() || data_shape.rank() - 1 + index_shape.rank() > kMaxRank) {
      return unsupported(node, "has an axis out of range");
    }
    Shape shape;
    shape.resize(data_shape.rank() - 1 + index_shape.rank());
    int r = 0;
    for (int k = 0; k < axis; ++k) shape[r++] = data_shape[k];
    for (int k = 0; k < index_shape.rank(); ++k) shape[r++] = index_shape[k];
    for (int k = static_cast<int>(axis) + 1; k < data_shape.rank(); ++k) shape[r++] = data_shape[k];
    double* data = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(add_constant(output, in[0]->dtype, shape, data));
    std::int64_t outer = 1;
    std::int64_t inner = 1;
    for (int k = 0; k < axis; ++k) outer *= data_shape[k];
    for (int k = static_cast<int>(axis) + 1; k < data_shape.rank(); ++k) inner *= data_shape[k];
    const std::int64_t extent = data_shape[static_cast<int>(axis)];
    const std::int64_t indices = index_shape.element_count();
    for (std::int64_t o = 0; o < outer; ++o) {
      for (std::int64_t x = 0; x < indices; ++x) {
        std::int64_t index = static_cast<std::int64_t>(in[1]->data[x]);
        if (index < 0) index += extent;
        if (index < 0 || index >= extent) return unsupported(node, "has an index out of range");
        for (std::int64_t k = 0; k < inner; ++k) {
          data[(o * indices + x) * inner + k] = in[0]->data[(o * extent + index) * inner + k];
        }
      }
    }
    return {};
  }
  if (type == "Range") {
    if (count != 3 || in[1] == nullptr || in[2] == nullptr || in[1]->dynamic || in[2]->dynamic) {
      return unsupported(node, "needs constant start, limit and delta");
    }
    const double start = in[0]->data[0];
    const double delta = in[2]->data[0];
    const double steps = delta == 0 ? 0 : std::ceil((in[1]->data[0] - start) / delta);
    const std::int64_t n = steps > 0 ? static_cast<std::int64_t>(steps) : 0;
    double* data = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(add_constant(output, in[0]->dtype, Shape{n}, data));
    for (std::int64_t k = 0; k < n; ++k) data[k] = apply(Op::identity, in[0]->dtype, start + k * delta, 0, 0);
    return {};
  }
  return unsupported(node, "is not supported in a modifier graph");
}

inline Status ModGraph::compile(PrepareContext& ctx, std::string_view attribute, DataType io_dtype, const Shape& full,
                                ModGraph& out) noexcept {
  out.present = false;
  out.count = 0;
  out.output_reg = kInputRegister;
  out.code = nullptr;
  proto::Attribute a;
  if (!ctx.find_attribute(attribute, a)) return {};
  ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(a, proto::AttributeType::graph));
  out.present = true;
  const proto::Graph graph = proto::Graph::unchecked(a.g);
  // The compiler's tables (about 12 KiB) stay off the stack: persistent memory, spent only when a graph is given.
  Compiler* c = nullptr;
  Span<unsigned char> storage;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent<unsigned char>(sizeof(Compiler) + alignof(Compiler), storage));
  void* place = storage.data();
  std::size_t space = storage.size();
  place = std::align(alignof(Compiler), sizeof(Compiler), place, space);
  c = new (place) Compiler{ctx, attribute, full, {}, 0, {}, 0};
  for (proto::Tensor t : graph.initializers()) ONNXMICRO_RETURN_IF_ERROR(c->add_tensor(t.name, t));
  int inputs = 0;
  for (proto::ValueInfo info : graph.inputs()) {
    if (c->find(info.name) != nullptr) continue;  // an initializer listed as input (IR < 4)
    ONNXMICRO_RETURN_IF_ERROR(c->add(Value{info.name, true, kInputRegister, io_dtype, full, nullptr}));
    ++inputs;
  }
  if (inputs != 1 || graph.outputs().size() != 1) {
    return Status(StatusCode::invalid_model)
           << "attribute '" << attribute << "' must be a graph with exactly one input and one output";
  }
  for (proto::Node node : graph.nodes()) {
    Op op = Op::identity;
    int arity = 0;
    if (elementwise_op(node.op_type, op, arity)) {
      DataType to = DataType::undefined;
      if (op == Op::cast) {
        proto::Attribute attr;
        if (!node.find_attribute("to", attr)) return c->unsupported(node, "has no attribute 'to'");
        to = static_cast<DataType>(attr.i);
        if (attention_util::element_loader(to) == nullptr) return c->unsupported(node, "casts to an unsupported dtype");
      }
      ONNXMICRO_RETURN_IF_ERROR(c->elementwise(node, op, arity, to));
    } else {
      ONNXMICRO_RETURN_IF_ERROR(c->structural(node));
    }
  }
  for (proto::ValueInfo info : graph.outputs()) {
    const Value* v = c->find(info.name);
    if (v == nullptr) {
      return Status(StatusCode::invalid_model)
             << "attribute '" << attribute << "': output '" << info.name << "' is not produced by the graph";
    }
    if (v->dynamic) {
      out.output_reg = v->reg;
    } else {
      // A constant result still has to cover every score: copy it through one instruction.
      if (c->instruction_count == kMaxInstructions) {
        return Status(StatusCode::limit_exceeded) << "attribute '" << attribute << "' has too many nodes";
      }
      Instruction& ins = c->code[c->instruction_count];
      ins.op = Op::identity;
      ins.dtype = io_dtype;
      ins.input_count = 1;
      ins.inputs[0].reg = -1;
      ins.inputs[0].data = v->data;
      if (!Compiler::broadcast_strides(v->shape, full, ins.inputs[0].strides)) {
        return Status(StatusCode::unsupported) << "attribute '" << attribute << "': output of shape " << v->shape
                                               << " does not broadcast to the scores' shape " << full;
      }
      out.output_reg = c->instruction_count++;
    }
  }
  Span<Instruction> program;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent<Instruction>(
      static_cast<std::size_t>(c->instruction_count > 0 ? c->instruction_count : 1), program));
  for (int k = 0; k < c->instruction_count; ++k) program.data()[k] = c->code[k];
  out.code = program.data();
  out.count = c->instruction_count;
  return {};
}

namespace flex_attention_detail {

/// The implementation of FlexAttention (see the file comment).
struct FlexAttentionImpl : KernelDefaults {
  static constexpr std::string_view kDomain = "ai.onnx.preview";
  static constexpr std::string_view kOpType = "FlexAttention";
  static constexpr int kQ = 0;
  static constexpr int kK = 1;
  static constexpr int kV = 2;
  static constexpr int kY = 0;

  struct State;
  using Function = void (*)(const RunContext& ctx, const State& state) noexcept;
  struct State {
    Function compute;
    std::int64_t batch, q_heads, kv_heads, group, q_len, kv_len, head_size, v_head_size;
    double scale_factor;     // sqrt(scale) computed in float32, as the reference does
    DataType softmax_dtype;  // precision of the scores, softmax, modifiers and the product with V
    ModGraph score_mod;
    ModGraph prob_mod;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    using attention_util::require_dim;
    for (int i : {kQ, kK, kV}) ONNXMICRO_RETURN_IF_ERROR(attention_util::require_rank(ctx, i, 4, 4));
    ONNXMICRO_RETURN_IF_ERROR(attention_util::require_dtype(ctx, kQ, FloatTypes{}));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kQ, kK));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kQ, kV));
    State* st = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(st));
    const Shape& q = ctx.input(kQ).shape;
    const Shape& k = ctx.input(kK).shape;
    const Shape& v = ctx.input(kV).shape;
    st->batch = q[0];
    st->q_heads = q[1];
    st->q_len = q[2];
    st->head_size = q[3];
    st->kv_heads = k[1];
    st->kv_len = k[2];
    st->v_head_size = v[3];
    ONNXMICRO_RETURN_IF_ERROR(require_dim(ctx, kK, 0, st->batch, "batch size of Q"));
    ONNXMICRO_RETURN_IF_ERROR(require_dim(ctx, kK, 3, st->head_size, "head size of Q"));
    ONNXMICRO_RETURN_IF_ERROR(require_dim(ctx, kV, 0, st->batch, "batch size of Q"));
    ONNXMICRO_RETURN_IF_ERROR(require_dim(ctx, kV, 1, st->kv_heads, "heads of K"));
    ONNXMICRO_RETURN_IF_ERROR(require_dim(ctx, kV, 2, st->kv_len, "sequence length of K"));
    if (st->kv_heads <= 0 || st->q_heads % st->kv_heads != 0) {
      return Status(StatusCode::invalid_model)
             << "query heads (" << st->q_heads << ") must be a multiple of key/value heads (" << st->kv_heads << ")";
    }
    st->group = st->q_heads / st->kv_heads;
    const DataType t = ctx.input(kQ).dtype;
    float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(st->head_size)));
    if (ctx.has_attribute("scale")) ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("scale", scale, 0.0f));
    st->scale_factor = static_cast<double>(std::sqrt(scale));
    st->softmax_dtype = t == DataType::float64 ? DataType::float64 : DataType::float32;
    if (ctx.has_attribute("softmax_precision")) {
      std::int64_t precision = 0;
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("softmax_precision", precision, 0));
      if (!attention_util::is_float_dtype(static_cast<DataType>(precision))) {
        return Status(StatusCode::invalid_model) << "attribute 'softmax_precision' is " << precision
                                                 << ", expected 1 (float), 10 (float16), 11 (double) or 16 (bfloat16)";
      }
      st->softmax_dtype = static_cast<DataType>(precision);
    }
    const Shape scores{st->batch, st->q_heads, st->q_len, st->kv_len};
    ONNXMICRO_RETURN_IF_ERROR(ModGraph::compile(ctx, "score_mod", st->softmax_dtype, scores, st->score_mod));
    ONNXMICRO_RETURN_IF_ERROR(ModGraph::compile(ctx, "prob_mod", st->softmax_dtype, scores, st->prob_mod));
    visit_dtype(t, FloatTypes{}, [&](auto tag) noexcept { st->compute = &compute<typename decltype(tag)::type>; });
    ctx.set_output(kY, t, Shape{st->batch, st->q_heads, st->q_len, st->v_head_size});
    ctx.request_scratch(static_cast<std::size_t>(st->kv_len + st->head_size) * sizeof(double));
    return {};
  }

  static Status run(RunContext& ctx) noexcept { return attention_util::run_state_compute<State>(ctx); }

 private:
  template <typename T>
  static void compute(const RunContext& ctx, const State& st) noexcept {
    using attention_util::round_to;
    using attention_util::round_to_dtype;
    using C = compute_t<T>;
    const DataType sd = st.softmax_dtype;
    const T* q = static_cast<const T*>(ctx.input(kQ).data);
    const T* k = static_cast<const T*>(ctx.input(kK).data);
    const T* v = static_cast<const T*>(ctx.input(kV).data);
    T* y = static_cast<T*>(ctx.output(kY).data);
    double* row = static_cast<double*>(ctx.scratch());
    double* q_row = row + st.kv_len;
    const C factor = round_to<T>(static_cast<C>(st.scale_factor));
    for (std::int64_t b = 0; b < st.batch; ++b) {
      for (std::int64_t h = 0; h < st.q_heads; ++h) {
        const std::int64_t kv_head = b * st.kv_heads + h / st.group;
        const T* k_head = k + kv_head * st.kv_len * st.head_size;
        const T* v_head = v + kv_head * st.kv_len * st.v_head_size;
        for (std::int64_t i = 0; i < st.q_len; ++i) {
          const T* q_in = q + ((b * st.q_heads + h) * st.q_len + i) * st.head_size;
          for (std::int64_t d = 0; d < st.head_size; ++d) {
            q_row[d] = round_to<T>(static_cast<C>(load_element(q_in[d])) * factor);
          }
          for (std::int64_t j = 0; j < st.kv_len; ++j) {
            C dot = 0;
            for (std::int64_t d = 0; d < st.head_size; ++d) {
              dot += static_cast<C>(q_row[d]) *
                     round_to<T>(static_cast<C>(load_element(k_head[j * st.head_size + d])) * factor);
            }
            double score = round_to_dtype(sd, static_cast<double>(round_to<T>(dot)));
            if (st.score_mod.present) score = round_to_dtype(sd, st.score_mod.evaluate(score, b, h, i, j));
            row[j] = score;
          }
          // Softmax without a guard: an all -inf row gives NaN, as in the reference.
          double max = st.kv_len > 0 ? row[0] : 0.0;
          for (std::int64_t j = 1; j < st.kv_len; ++j) {
            if (std::isnan(row[j]) || row[j] > max) max = row[j];
            if (std::isnan(max)) break;
          }
          double sum = 0;
          for (std::int64_t j = 0; j < st.kv_len; ++j) {
            row[j] = round_to_dtype(sd, std::exp(round_to_dtype(sd, row[j] - max)));
            sum = sd == DataType::bfloat16 ? round_to_dtype(sd, sum + row[j]) : sum + row[j];
          }
          sum = round_to_dtype(sd, sum);
          for (std::int64_t j = 0; j < st.kv_len; ++j) {
            double p = round_to_dtype(sd, row[j] / sum);
            if (st.prob_mod.present) p = round_to_dtype(sd, st.prob_mod.evaluate(p, b, h, i, j));
            row[j] = p;
          }
          T* y_out = y + ((b * st.q_heads + h) * st.q_len + i) * st.v_head_size;
          for (std::int64_t d = 0; d < st.v_head_size; ++d) {
            double acc = 0;
            for (std::int64_t j = 0; j < st.kv_len; ++j) {
              acc += row[j] * round_to_dtype(sd, static_cast<double>(load_element(v_head[j * st.v_head_size + d])));
            }
            y_out[d] = store_element<T>(static_cast<C>(round_to_dtype(sd, acc)));
          }
        }
      }
    }
  }
};

}  // namespace flex_attention_detail

// ai.onnx.preview opset 1: first version.
using FlexAttention_1 = VersionedKernel<flex_attention_detail::FlexAttentionImpl, 1>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
