// SPDX-License-Identifier: MIT
// Constant: outputs the tensor held in its attribute. prepare() sets the output and points the state at the
// value (raw_data in the model bytes, or a decoded copy in persistent memory); run() copies it out. The session
// folds Constant nodes at prepare time (they have no inputs), so run() normally executes once. Sparse tensors and
// strings are not supported yet.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Shared implementation of every Constant version; they differ in which attributes may carry the value.
struct ConstantBase : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Constant";
  static constexpr int kOutput = 0;

  struct State {
    const void* data;  ///< decoded elements (persistent memory); nullptr when empty
    std::size_t bytes;
  };

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    shape_util::copy_unless_aliased(ctx.output(kOutput).data, state.data, state.bytes);
    return {};
  }

 protected:
  /// Which value attributes a version accepts.
  enum Accepts : unsigned {
    kValue = 1u,                 ///< 'value' (TENSOR), every version
    kSparseValue = 2u,           ///< 'sparse_value', opset 11+
    kValueScalarsAndLists = 4u,  ///< 'value_float(s)', 'value_int(s)', 'value_string(s)', opset 12+
  };

  static constexpr bool accepted(std::string_view name, unsigned accepts) noexcept {
    return name == "value"          ? (accepts & kValue) != 0
           : name == "sparse_value" ? (accepts & kSparseValue) != 0
                                    : (accepts & kValueScalarsAndLists) != 0;
  }

  static Status prepare_accepting(PrepareContext& ctx, unsigned accepts) noexcept {
    static constexpr const char* kNames[] = {"value",     "sparse_value", "value_float",  "value_floats",
                                             "value_int", "value_ints",   "value_string", "value_strings"};
    int found = 0;
    const char* which = nullptr;
    proto::Attribute attribute;
    for (const char* name : kNames) {
      proto::Attribute candidate;
      if (!ctx.find_attribute(name, candidate)) continue;
      if (!accepted(name, accepts)) {
        return Status(StatusCode::invalid_model)
               << "attribute '" << name << "' is not defined for Constant at opset " << ctx.opset_version();
      }
      ++found;
      which = name;
      attribute = candidate;
    }
    if (found != 1) {
      Status status(StatusCode::invalid_model);
      status << "expected exactly one value attribute (";
      bool first = true;
      for (const char* name : kNames) {
        if (!accepted(name, accepts)) continue;
        status << (first ? "" : ", ") << name;
        first = false;
      }
      return status << "), found " << found;
    }

    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    std::string_view name(which);
    if (name == "value") return prepare_tensor(ctx, attribute, *state);
    if (name == "sparse_value") {
      return Status(StatusCode::unsupported) << "attribute 'sparse_value': sparse tensors are not supported yet";
    }
    if (name == "value_string") {
      // The element is a view of the attribute's bytes in the model, which outlive the session.
      ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(attribute, proto::AttributeType::string));
      StringRef v{reinterpret_cast<const char*>(attribute.s.data()), attribute.s.size()};
      ONNXMICRO_RETURN_IF_ERROR(store(ctx, &v, sizeof v, *state));
      ctx.set_output(kOutput, DataType::string, Shape());
      return {};
    }
    if (name == "value_strings") {
      ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(attribute, proto::AttributeType::strings));
      std::size_t count = 0;
      for (std::string_view text : attribute.strings()) {
        (void)text;
        ++count;
      }
      void* dst = nullptr;
      ONNXMICRO_RETURN_IF_ERROR(allocate(ctx, count * sizeof(StringRef), *state, dst));
      std::size_t i = 0;
      for (std::string_view text : attribute.strings()) {
        const StringRef v = StringRef::of(text);
        std::memcpy(static_cast<unsigned char*>(dst) + sizeof(StringRef) * i++, &v, sizeof v);
      }
      ctx.set_output(kOutput, DataType::string, Shape{static_cast<std::int64_t>(count)});
      return {};
    }
    if (name == "value_float") {
      ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(attribute, proto::AttributeType::float_));
      float v = attribute.f;
      ONNXMICRO_RETURN_IF_ERROR(store(ctx, &v, sizeof v, *state));
      ctx.set_output(kOutput, DataType::float32, Shape());
      return {};
    }
    if (name == "value_int") {
      ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(attribute, proto::AttributeType::int_));
      std::int64_t v = attribute.i;
      ONNXMICRO_RETURN_IF_ERROR(store(ctx, &v, sizeof v, *state));
      ctx.set_output(kOutput, DataType::int64, Shape());
      return {};
    }
    if (name == "value_floats") {
      ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(attribute, proto::AttributeType::floats));
      return store_list<float>(ctx, attribute.floats(), DataType::float32, *state);
    }
    ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(attribute, proto::AttributeType::ints));
    return store_list<std::int64_t>(ctx, attribute.ints(), DataType::int64, *state);
  }

 private:
  static bool host_is_little_endian() noexcept {
    const std::uint16_t probe = 1;
    unsigned char first = 0;
    std::memcpy(&first, &probe, 1);
    return first == 1;
  }

  /// Copies `bytes` into fresh persistent memory and records it in the state.
  static Status store(PrepareContext& ctx, const void* data, std::size_t bytes, State& state) noexcept {
    void* dst = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(allocate(ctx, bytes, state, dst));
    if (bytes != 0) std::memcpy(dst, data, bytes);
    return {};
  }

  /// Allocates `bytes` of persistent memory (8-byte aligned) for the value and records it in the state.
  static Status allocate(PrepareContext& ctx, std::size_t bytes, State& state, void*& out) noexcept {
    out = nullptr;
    state.bytes = bytes;
    state.data = nullptr;
    if (bytes == 0) return {};
    Span<std::uint64_t> memory;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent((bytes + 7) / 8, memory));
    out = memory.data();
    state.data = out;
    return {};
  }

  template <typename T, typename List>
  static Status store_list(PrepareContext& ctx, const List& values, DataType dtype, State& state) noexcept {
    const std::size_t count = values.size();
    void* dst = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(allocate(ctx, count * sizeof(T), state, dst));
    std::size_t i = 0;
    for (T v : values) std::memcpy(static_cast<unsigned char*>(dst) + sizeof(T) * i++, &v, sizeof(T));
    ctx.set_output(kOutput, dtype, Shape{static_cast<std::int64_t>(count)});
    return {};
  }

  static Status prepare_tensor(PrepareContext& ctx, const proto::Attribute& attribute, State& state) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(attribute, proto::AttributeType::tensor));
    const proto::Tensor tensor = proto::Tensor::unchecked(attribute.t);
    if (!is_known_dtype(tensor.data_type)) {
      return Status(StatusCode::unsupported) << "attribute 'value' has data_type " << static_cast<int>(tensor.data_type)
                                             << ", which this build does not know";
    }
    const DataType dtype = static_cast<DataType>(tensor.data_type);
    if (tensor.data_location == proto::DataLocation::external) {
      return Status(StatusCode::unsupported) << "attribute 'value': external data in a Constant is not supported";
    }
    Shape shape;
    ONNXMICRO_RETURN_IF_ERROR(shape.assign(tensor.dims, static_cast<std::size_t>(tensor.rank)));
    std::size_t bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(dtype, shape, bytes));
    if (tensor.has_raw_data && tensor.raw_data.size() == bytes && host_is_little_endian()) {
      // raw_data is already the little-endian element bytes: run() copies straight from the model bytes (which
      // outlive the session), so a large Constant costs no metadata memory.
      state.data = tensor.raw_data.data();
      state.bytes = bytes;
      ctx.set_output(kOutput, dtype, shape);
      return {};
    }
    void* dst = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(allocate(ctx, bytes, state, dst));
    if (bytes != 0) {
      Status status = tensor.decode_to(dst, bytes);
      if (!status.ok()) return status.prepend("attribute 'value': ");
    }
    ctx.set_output(kOutput, dtype, shape);
    return {};
  }
};

/// Constant's version rules (VersionedKernel): prepare reads what version `since` accepts; ConstantBase holds the
/// rest.
struct ConstantImpl : ConstantBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    if (since >= 12) return prepare_accepting(ctx, kValue | kSparseValue | kValueScalarsAndLists);
    if (since >= 11) return prepare_accepting(ctx, kValue | kSparseValue);
    return prepare_accepting(ctx, kValue);
  }
};

// Opset 1: the 'value' tensor (float types; opset 9 allows every dtype).
using Constant_1 = VersionedKernel<ConstantImpl, 1, 11>;
// Opset 11: 'value' may be replaced by 'sparse_value' (not supported yet: a clear status).
using Constant_11 = VersionedKernel<ConstantImpl, 11, 12>;
// Opset 12: adds value_float(s), value_int(s) and value_string(s). Opset 13 and later
// only add dtypes.
using Constant_12 = VersionedKernel<ConstantImpl, 12>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
