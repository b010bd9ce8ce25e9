// SPDX-License-Identifier: MIT
// Graph inputs at prepare time: the shape each is planned for (declared by the model, or bound by the caller
// through SessionOptions::input_shapes), and the values bound as constants because a kernel needs them to plan
// (SessionOptions::input_values: Reshape's shape, sequences, ...). A build without dynamic shapes
// (ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0) plans every input at the shape the model fixes and binds no value.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/runtime/prepared_graph.hpp"
#include "onnxmicro/runtime/session_options.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {

/// The shape the model fixes for graph input `value`; fails naming the input (and the dim) when it declares
/// none or a dim is symbolic or unknown.
inline Status declared_input_shape(const model::Value& value, Shape& shape) noexcept {
#if ONNXMICRO_ENABLE_DYNAMIC_SHAPES
  constexpr StatusCode kCode = StatusCode::invalid_argument;
  constexpr const char* kNoShapeHint = ": bind one with SessionOptions::input_shapes";
  constexpr const char* kDimHint = ": bind it with SessionOptions::input_shapes";
#else
  constexpr StatusCode kCode = StatusCode::unsupported;
  constexpr const char* kNoShapeHint =
      ", and this build binds no shapes (ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0): export the model with fixed input shapes";
  constexpr const char* kDimHint = kNoShapeHint;
#endif
  if (!value.has_declared_shape)
    return Status(kCode) << "input '" << value.name << "' has no declared shape" << kNoShapeHint;
  shape.resize(value.declared_rank);
  for (int d = 0; d < value.declared_rank; ++d) {
    const model::DeclaredDim& dim = value.declared_dims[d];
    if (dim.value < 0) {
      Status s(kCode);
      s << "input '" << value.name << "' dim " << d;
      if (!dim.param.empty()) s << " ('" << dim.param << "')";
      return s << " is not fixed by the model" << kDimHint;
    }
    shape[d] = dim.value;
  }
  return {};
}

/// Whether two tensors of `count` elements of `dtype` hold the same values (string tensors by their characters,
/// sequences and optionals by their elements).
inline bool same_elements(DataType dtype, const void* a, const void* b, std::int64_t count) noexcept {
  if (is_value_container(dtype)) {
    const auto* x = static_cast<const ValueRef*>(a);
    const auto* y = static_cast<const ValueRef*>(b);
    for (std::int64_t i = 0; i < count; ++i) {
      const ConstTensorView vx = view_of(x[i]), vy = view_of(y[i]);
      if (vx.dtype != vy.dtype || vx.shape != vy.shape ||
          !same_elements(vx.dtype, vx.data, vy.data, vx.element_count()))
        return false;
    }
    return true;
  }
  if (dtype != DataType::string) return std::memcmp(a, b, byte_size_of(dtype, count)) == 0;
  const auto* x = static_cast<const StringRef*>(a);
  const auto* y = static_cast<const StringRef*>(b);
  for (std::int64_t i = 0; i < count; ++i)
    if (x[i].view() != y[i].view()) return false;
  return true;
}

#if !ONNXMICRO_ENABLE_DYNAMIC_SHAPES

/// Plans graph input `value` at the shape the model fixes (this build binds neither shapes nor values).
inline ONNXMICRO_DETAIL_ALWAYS_INLINE Status bind_graph_input(const model::Value& value, ValueRuntime& rt) noexcept {
  if (is_value_container(value.dtype)) {
    return Status(StatusCode::unsupported)
           << "graph input '" << value.name << "' is " << (value.dtype == DataType::optional ? "an " : "a ")
           << dtype_name(value.dtype)
           << ": its value is needed when planning, which this build cannot bind (ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0)";
  }
  return declared_input_shape(value, rt.info.shape);
}

#else

/// Gives the characters of `count` string elements copies in `allocator` (the caller's need not outlive prepare).
inline Status copy_string_characters(StringRef* strings, std::int64_t count, MetadataAllocator& allocator) noexcept {
  for (std::int64_t k = 0; k < count; ++k) {
    char* chars = static_cast<char*>(allocator.allocate(strings[k].size == 0 ? 1 : strings[k].size, 1));
    if (chars == nullptr) return Status(StatusCode::out_of_memory) << "metadata allocator exhausted copying strings";
    if (strings[k].size != 0) std::memcpy(chars, strings[k].data, strings[k].size);
    strings[k].data = chars;
  }
  return {};
}

/// Replaces the data of `count` ValueRefs (recursively: an optional may hold a sequence) by copies in `allocator`.
inline Status deep_copy_elements(ValueRef* refs, std::int64_t count, MetadataAllocator& allocator) noexcept {
  for (std::int64_t i = 0; i < count; ++i) {
    const ConstTensorView element = view_of(refs[i]);
    std::size_t bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(element.dtype, element.shape, bytes));
    void* copy = allocator.allocate(bytes == 0 ? 1 : bytes, ONNXMICRO_TENSOR_ALIGNMENT);
    if (copy == nullptr) return Status(StatusCode::out_of_memory) << "metadata allocator exhausted copying a sequence";
    if (bytes != 0) std::memcpy(copy, element.data, bytes);
    if (is_value_container(element.dtype)) {
      ONNXMICRO_RETURN_IF_ERROR(deep_copy_elements(static_cast<ValueRef*>(copy), element.element_count(), allocator));
    }
    if (element.dtype == DataType::string) {
      ONNXMICRO_RETURN_IF_ERROR(
          copy_string_characters(static_cast<StringRef*>(copy), element.element_count(), allocator));
    }
    refs[i].data = copy;
  }
  return {};
}

/// Checks the elements of a sequence or optional offered for graph input `name` against the element type the
/// model declares (`declared`, the input's TypeProto): each tensor's elem_type, or an optional's sequence.
inline Status check_declared_elements(std::string_view name, const proto::Type& declared,
                                      const ConstTensorView& offered) noexcept {
  using Kind = proto::Type::Kind;
  if (declared.kind != Kind::sequence && declared.kind != Kind::optional) return {};
  const proto::Type element = declared.element();
  const auto* refs = static_cast<const ValueRef*>(offered.data);
  for (std::int64_t i = 0; i < offered.element_count(); ++i) {
    const ConstTensorView got = view_of(refs[i]);
    const bool wants_sequence = element.kind == Kind::sequence;
    if (wants_sequence != (got.dtype == DataType::sequence)) {
      return Status(StatusCode::invalid_argument) << "input '" << name << "': the model declares an optional of a "
                                                  << (wants_sequence ? "sequence" : "tensor") << ", the value holds a "
                                                  << (wants_sequence ? "tensor" : "sequence");
    }
    if (wants_sequence) {
      ONNXMICRO_RETURN_IF_ERROR(check_declared_elements(name, element, got));
    } else if (element.kind == Kind::tensor && element.elem_type != 0 &&
               static_cast<std::int32_t>(got.dtype) != element.elem_type) {
      return Status(StatusCode::invalid_argument)
             << "input '" << name << "': element " << i << " is a " << dtype_name(got.dtype)
             << " tensor, the model declares " << (declared.kind == Kind::sequence ? "a sequence" : "an optional")
             << " of " << dtype_name(static_cast<DataType>(element.elem_type)) << " tensors";
    }
  }
  return {};
}

/// Appends the declared shape of `value` as "[2,'batch',?]" (for messages).
inline Status& describe_declared_shape(Status& s, const model::Value& value) noexcept {
  s << "[";
  for (int d = 0; d < value.declared_rank; ++d) {
    if (d) s << ",";
    if (value.declared_dims[d].value >= 0)
      s << value.declared_dims[d].value;
    else
      s << (value.declared_dims[d].param.empty() ? std::string_view("?") : value.declared_dims[d].param);
  }
  return s << "]";
}

/// Whether `shape` fits what the model declares for `value` (rank, and every fixed dim).
inline bool fits_declared_shape(const model::Value& value, const Shape& shape) noexcept {
  if (!value.has_declared_shape) return true;
  if (shape.rank() != value.declared_rank) return false;
  for (int d = 0; d < value.declared_rank; ++d) {
    const std::int64_t fixed = value.declared_dims[d].value;
    if (fixed >= 0 && shape[d] != fixed) return false;
  }
  return true;
}

/// Binds graph input `value` to its offered value, copied into metadata: from here on a constant.
inline ONNXMICRO_DETAIL_ALWAYS_INLINE Status bind_input_value(const model::Value& value, const InputValue& bound,
                                                              MetadataAllocator& allocator, ValueRuntime& rt) noexcept {
  const ConstTensorView& v = bound.value;
  if (v.dtype != value.dtype) {
    return Status(StatusCode::invalid_argument) << "input '" << value.name << "': expected dtype "
                                                << dtype_name(value.dtype) << ", got " << dtype_name(v.dtype);
  }
  if (!fits_declared_shape(value, v.shape)) {
    Status s(StatusCode::invalid_argument);
    s << "input '" << value.name << "': value of shape " << v.shape << " contradicts the declared shape ";
    return describe_declared_shape(s, value);
  }
  std::size_t bytes = 0;
  Status size_status = checked_byte_size(v.dtype, v.shape, bytes);
  if (!size_status.ok())
    return Status(size_status.code()) << "input '" << value.name << "': " << size_status.message_view();
  void* storage = allocate_tensor_storage(allocator, bytes);
  if (storage == nullptr) {
    return Status(StatusCode::out_of_memory) << "metadata allocator exhausted binding input '" << value.name << "'";
  }
  if (bytes > 0) {
    if (v.data == nullptr) return Status(StatusCode::invalid_argument) << "input '" << value.name << "': data is null";
    std::memcpy(storage, v.data, bytes);
    // The caller's element tensors and characters need not outlive prepare(): keep copies with the bound value.
    Status st;
    if (is_value_container(v.dtype)) {
      st = deep_copy_elements(static_cast<ValueRef*>(storage), v.shape.element_count(), allocator);
    } else if (v.dtype == DataType::string) {
      st = copy_string_characters(static_cast<StringRef*>(storage), v.shape.element_count(), allocator);
    }
    if (!st.ok()) return st.prepend("': ").prepend(value.name).prepend("input '");
  }
  rt.info.shape = v.shape;
  rt.info.is_constant = true;
  rt.info.const_data = storage;
  rt.data = storage;
  return {};
}

/// Plans graph input `value` at the shape the caller bound (checked against the declared one).
inline ONNXMICRO_DETAIL_ALWAYS_INLINE Status bind_input_shape(const model::Value& value, const InputShape& bound,
                                                              ValueRuntime& rt) noexcept {
  if (value.has_declared_shape && bound.shape.rank() != value.declared_rank) {
    return Status(StatusCode::invalid_argument)
           << "input '" << value.name << "': bound shape " << bound.shape << " has rank " << bound.shape.rank()
           << ", the model declares rank " << value.declared_rank;
  }
  for (int d = 0; value.has_declared_shape && d < value.declared_rank; ++d) {
    const std::int64_t fixed = value.declared_dims[d].value;
    if (fixed >= 0 && bound.shape[d] != fixed) {
      return Status(StatusCode::invalid_argument)
             << "input '" << value.name << "': bound shape " << bound.shape << " has dim " << d << " = "
             << bound.shape[d] << ", the model fixes it to " << fixed;
    }
  }
  for (int d = 0; d < bound.shape.rank(); ++d) {
    if (bound.shape[d] < 0) {
      return Status(StatusCode::invalid_argument)
             << "input '" << value.name << "': bound shape " << bound.shape << " has a negative dim";
    }
  }
  rt.info.shape = bound.shape;
  return {};
}

/// The entry of `offered` named `name` (the last one, as a later binding overrides), or nullptr.
template <typename Binding>
const Binding* find_binding(Span<const Binding> offered, std::string_view name) noexcept {
  const Binding* found = nullptr;
  for (const Binding& b : offered)
    if (b.name == name) found = &b;
  return found;
}

/// Plans graph input `value` (at position `position` among the graph's inputs): bound to its offered value when
/// bind_value says so or when it is a sequence/optional, else at the caller's shape or the declared one.
/// `missing_input_value` gets `position` when a value is needed and was not offered.
inline ONNXMICRO_DETAIL_ALWAYS_INLINE Status bind_graph_input(const model::Value& value, std::size_t position,
                                                              const SessionOptions& options,
                                                              Span<unsigned char> bind_value,
                                                              MetadataAllocator& allocator, ValueRuntime& rt,
                                                              std::int32_t& missing_input_value) noexcept {
  const InputValue* offered = find_binding(options.input_values, value.name);
  if (is_value_container(value.dtype)) {
    // Sequences and optionals are values known at prepare time in this build.
    if (offered == nullptr) {
      missing_input_value = static_cast<std::int32_t>(position);
      return Status(StatusCode::unsupported)
             << "graph input '" << value.name << "' is " << (value.dtype == DataType::optional ? "an " : "a ")
             << dtype_name(value.dtype)
             << ": its value is needed when planning: offer it in SessionOptions::input_values (Session::run(inputs) "
                "does)";
    }
    bind_value[position] = 1;
  }
  if (bind_value[position]) {
    if (offered == nullptr) return Status(StatusCode::internal) << "no value offered for input '" << value.name << "'";
    return bind_input_value(value, *offered, allocator, rt);
  }
  const InputShape* bound = find_binding(options.input_shapes, value.name);
  ONNXMICRO_RETURN_IF_ERROR(bound != nullptr ? bind_input_shape(value, *bound, rt)
                                             : declared_input_shape(value, rt.info.shape));
  rt.first_use = 0;
  rt.last_use = 0;
  return {};
}

/// A dim_param names one size: every input dim carrying the same name must be bound to the same value.
inline ONNXMICRO_DETAIL_ALWAYS_INLINE Status check_symbolic_dims(const model::Graph& graph,
                                                                 Span<const ValueRuntime> values) noexcept {
  for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
    const model::Value& a = graph.values[graph.inputs[i]];
    if (!a.has_declared_shape || is_value_container(a.dtype)) continue;
    const Shape& shape_a = values[graph.inputs[i]].info.shape;
    for (int da = 0; da < a.declared_rank && da < shape_a.rank(); ++da) {
      const std::string_view param = a.declared_dims[da].param;
      if (param.empty() || a.declared_dims[da].value >= 0) continue;
      for (std::size_t j = 0; j <= i; ++j) {
        const model::Value& b = graph.values[graph.inputs[j]];
        if (!b.has_declared_shape || is_value_container(b.dtype)) continue;
        const Shape& shape_b = values[graph.inputs[j]].info.shape;
        for (int db = 0; db < b.declared_rank && db < shape_b.rank(); ++db) {
          if (j == i && db >= da) break;
          if (b.declared_dims[db].param != param || b.declared_dims[db].value >= 0) continue;
          if (shape_a[da] != shape_b[db]) {
            return Status(StatusCode::invalid_argument)
                   << "input '" << a.name << "' dim " << da << " ('" << param << "') is bound to " << shape_a[da]
                   << " but input '" << b.name << "' dim " << db << " ('" << param << "') is bound to " << shape_b[db]
                   << ": a symbolic dim has one value per run";
          }
        }
      }
    }
  }
  return {};
}

/// Marks for binding every graph input that value `needed` depends on and whose value the caller offered; true
/// when at least one new input was marked (worth another pass). The first input found without an offered value
/// goes to `missing_input_value` (when it is still -1).
inline ONNXMICRO_DETAIL_ALWAYS_INLINE bool mark_inputs_to_bind(const model::Graph& graph, Span<ValueRuntime> values,
                                                               model::ValueId needed, Span<const InputValue> offered,
                                                               Span<unsigned char> bind_value,
                                                               std::int32_t& missing_input_value) noexcept {
  // Walk up the producers without a stack: ValueRuntime::buffer is free to use as a mark here (the next pass
  // rebuilds the table): -1 unvisited, -2 to visit, -3 visited.
  constexpr std::int32_t kUnvisited = -1, kToVisit = -2, kVisited = -3;
  for (ValueRuntime& rt : values) rt.buffer = kUnvisited;
  values[needed].buffer = kToVisit;
  bool marked = false;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t id = 0; id < values.size(); ++id) {
      if (values[id].buffer != kToVisit) continue;
      values[id].buffer = kVisited;
      const model::Value& value = graph.values[id];
      if (value.kind == model::ValueKind::graph_input) {
        std::size_t position = 0;
        while (position < graph.inputs.size() && graph.inputs[position] != static_cast<model::ValueId>(id)) ++position;
        if (position == graph.inputs.size() || bind_value[position]) continue;
        if (find_binding(offered, value.name) != nullptr) {
          bind_value[position] = 1;
          marked = true;
        } else if (missing_input_value < 0) {
          missing_input_value = static_cast<std::int32_t>(position);
        }
      } else if (value.producer >= 0) {
        for (model::ValueId in : graph.nodes[value.producer].inputs) {
          if (in != model::kNoValue && values[in].buffer == kUnvisited) {
            values[in].buffer = kToVisit;
            changed = true;
          }
        }
      }
    }
  }
  return marked;
}

#endif  // ONNXMICRO_ENABLE_DYNAMIC_SHAPES

}  // namespace detail
ONNXMICRO_NAMESPACE_END
