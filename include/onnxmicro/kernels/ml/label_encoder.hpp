// SPDX-License-Identifier: MIT
// LabelEncoder (ai.onnx.ml): maps each input element through a key -> value table, or to a default value.
//   opset 1: classes_strings; string input -> its index in the list (default_int64), int64 input -> the
//            string at that index (default_string).
//   opset 2: keys_{floats,int64s,strings} and values_{floats,int64s,strings}.
//   opset 4: adds keys_tensor / values_tensor / default_tensor and the int16/int32/double dtypes.
// The table is sorted at prepare time and searched with binary search in run(). Float keys: NaN matches NaN
// (as the spec says) and -0.0 matches 0.0. Duplicate keys: the last one wins (as a Python dict in the
// reference). Defaults when absent: -1 (integers), -0.0 (floats), "_Unused" (strings).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/elementwise.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace label_encoder_detail {

/// Key/value element types LabelEncoder knows (opset 4's list; earlier versions use a subset).
using LabelEncoderTypes = TypeList<StringRef, std::int64_t, float, double, std::int32_t, std::int16_t>;

/// Strict weak order on keys: NaN after every number and equivalent to NaN.
template <typename T>
inline bool label_key_less(const T& a, const T& b) noexcept {
  if constexpr (std::is_same<T, StringRef>::value) {
    return a.view() < b.view();
  } else if constexpr (std::is_floating_point<T>::value) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
    return a < b;
  } else {
    return a < b;
  }
}

/// A list of keys or values: `count` elements of `dtype` in persistent memory.
struct LabelColumn {
  DataType dtype = DataType::undefined;
  void* data = nullptr;
  std::int64_t count = 0;
};

struct LabelEncoderState {
  LabelColumn keys;    // sorted, unique
  LabelColumn values;  // values[i] belongs to keys[i]
  alignas(8) unsigned char default_value[sizeof(StringRef) > 8 ? sizeof(StringRef) : 8];
  void (*lookup)(const LabelEncoderState&, const void*, void*, std::int64_t) noexcept;
};

template <typename K>
void label_lookup(const LabelEncoderState& state, const void* x, void* y, std::int64_t count) noexcept {
  const K* in = static_cast<const K*>(x);
  const K* keys = static_cast<const K*>(state.keys.data);
  const std::size_t value_bytes = dtype_size(state.values.dtype);
  const auto* values = static_cast<const unsigned char*>(state.values.data);
  auto* out = static_cast<unsigned char*>(y);
  const K* end = keys + state.keys.count;
  for (std::int64_t i = 0; i < count; ++i) {
    const K* it = std::lower_bound(keys, end, in[i], [](const K& a, const K& b) { return label_key_less(a, b); });
    const unsigned char* value = state.default_value;
    if (it != end && !label_key_less(in[i], *it)) value = values + static_cast<std::size_t>(it - keys) * value_bytes;
    std::memcpy(out + static_cast<std::size_t>(i) * value_bytes, value, value_bytes);
  }
}

class LabelEncoderBuilder {
 public:
  explicit LabelEncoderBuilder(PrepareContext& ctx) noexcept : ctx_(ctx) {}

  Status allocate(LabelColumn& column, DataType dtype, std::int64_t count) noexcept {
    column.dtype = dtype;
    column.count = count;
    const std::size_t bytes = byte_size_of(dtype, count);
    Span<std::uint64_t> memory;
    ONNXMICRO_RETURN_IF_ERROR(ctx_.allocate_persistent(bytes / 8 + 1, memory));
    column.data = memory.data();
    return {};
  }

  /// Loads a list attribute (INTS, FLOATS, STRINGS) or a TENSOR attribute `name` into `column`; `found`
  /// tells whether the attribute exists.
  Status load(std::string_view name, LabelColumn& column, bool& found) noexcept {
    proto::Attribute a;
    found = ctx_.find_attribute(name, a);
    if (!found) return {};
    switch (a.type) {
      case proto::AttributeType::ints: return fill<std::int64_t>(a.ints(), DataType::int64, column);
      case proto::AttributeType::floats: return fill<float>(a.floats(), DataType::float32, column);
      case proto::AttributeType::strings: {
        ONNXMICRO_RETURN_IF_ERROR(allocate(column, DataType::string, static_cast<std::int64_t>(a.strings().size())));
        auto* out = static_cast<StringRef*>(column.data);
        for (std::string_view s : a.strings()) *out++ = StringRef::of(s);
        return {};
      }
      case proto::AttributeType::tensor: return load_tensor(a, column);
      default:
        return Status(StatusCode::invalid_model)
               << "attribute '" << name << "' has type " << proto::attribute_type_name(a.type)
               << ", expected a list or a tensor";
    }
  }

  /// The 0..count-1 column (opset 1's implicit indices).
  Status iota(LabelColumn& column, std::int64_t count) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(allocate(column, DataType::int64, count));
    auto* out = static_cast<std::int64_t*>(column.data);
    for (std::int64_t i = 0; i < count; ++i) out[i] = i;
    return {};
  }

  /// Sorts keys (carrying values along) and drops all but the last of equal keys.
  Status sort(LabelEncoderState& state) noexcept {
    Status status;
    const bool known = visit_dtype(state.keys.dtype, LabelEncoderTypes{},
                                   [&](auto tag) { status = sort_as<typename decltype(tag)::type>(state); });
    if (!known) {
      return Status(StatusCode::unsupported)
             << "keys of dtype " << dtype_name(state.keys.dtype) << " are not supported";
    }
    return status;
  }

 private:
  template <typename T, typename List>
  Status fill(const List& list, DataType dtype, LabelColumn& column) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(allocate(column, dtype, static_cast<std::int64_t>(list.size())));
    T* out = static_cast<T*>(column.data);
    for (T v : list) *out++ = v;
    return {};
  }

  Status load_tensor(const proto::Attribute& a, LabelColumn& column) noexcept {
    const proto::Tensor tensor = proto::Tensor::unchecked(a.t);
    const DataType dtype = static_cast<DataType>(tensor.data_type);
    bool known = false;
    visit_dtype(dtype, LabelEncoderTypes{}, [&](auto) { known = true; });
    if (!known) {
      return Status(StatusCode::unsupported) << "attribute '" << a.name << "' has dtype " << dtype_name(dtype)
                                             << ", expected string, int64, float, int32, int16 or double";
    }
    std::int64_t count = 0;
    ONNXMICRO_RETURN_IF_ERROR(tensor.element_count(count));
    ONNXMICRO_RETURN_IF_ERROR(allocate(column, dtype, count));
    if (dtype == DataType::string) {
      auto* out = static_cast<StringRef*>(column.data);
      std::int64_t stored = 0;
      for (ByteSpan s : tensor.string_data()) {
        if (stored++ == count) break;
        *out++ = StringRef{reinterpret_cast<const char*>(s.data()), s.size()};
      }
      if (stored != count) {
        return Status(StatusCode::invalid_model)
               << "attribute '" << a.name << "' holds " << stored << " strings, its dims say " << count;
      }
      return {};
    }
    if (count == 0) return {};
    const Status status = tensor.decode_to(column.data, byte_size_of(dtype, count));
    if (!status.ok()) {
      Status error = status;
      return error.prepend("': ").prepend(a.name).prepend("attribute '");
    }
    return {};
  }

  template <typename K>
  Status sort_as(LabelEncoderState& state) noexcept {
    const std::int64_t n = state.keys.count;
    Span<std::int64_t> order;
    ONNXMICRO_RETURN_IF_ERROR(ctx_.allocate_persistent(static_cast<std::size_t>(n) + 1, order));
    for (std::int64_t i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    const K* keys = static_cast<const K*>(state.keys.data);
    // Stable by construction (ties ordered by position): std::stable_sort would take a heap buffer.
    std::sort(order.data(), order.data() + n, [keys](std::int64_t a, std::int64_t b) {
      if (label_key_less(keys[a], keys[b])) return true;
      if (label_key_less(keys[b], keys[a])) return false;
      return a < b;
    });
    LabelColumn sorted_keys, sorted_values;
    ONNXMICRO_RETURN_IF_ERROR(allocate(sorted_keys, state.keys.dtype, n));
    ONNXMICRO_RETURN_IF_ERROR(allocate(sorted_values, state.values.dtype, n));
    const std::size_t value_bytes = dtype_size(state.values.dtype);
    K* out_keys = static_cast<K*>(sorted_keys.data);
    auto* out_values = static_cast<unsigned char*>(sorted_values.data);
    const auto* values = static_cast<const unsigned char*>(state.values.data);
    std::int64_t unique = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t from = order[static_cast<std::size_t>(i)];
      // Equal keys are adjacent and in model order: the last one overwrites the earlier ones.
      if (unique > 0 && !label_key_less(out_keys[unique - 1], keys[from])) --unique;
      out_keys[unique] = keys[from];
      std::memcpy(out_values + static_cast<std::size_t>(unique) * value_bytes,
                  values + static_cast<std::size_t>(from) * value_bytes, value_bytes);
      ++unique;
    }
    sorted_keys.count = unique;
    sorted_values.count = unique;
    state.keys = sorted_keys;
    state.values = sorted_values;
    state.lookup = &label_lookup<K>;
    return {};
  }

  PrepareContext& ctx_;
};

/// Builds the state for every LabelEncoder version; `version` selects the attributes it accepts.
inline Status prepare_label_encoder(PrepareContext& ctx, int version) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(0));
  LabelEncoderState* state = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
  LabelEncoderBuilder builder(ctx);
  const DataType input_dtype = ctx.input(0).dtype;
  bool from_tensor = false;  // values come from values_tensor (opset 4): the default is default_tensor

  if (version == 1) {
    LabelColumn classes;
    bool found = false;
    ONNXMICRO_RETURN_IF_ERROR(builder.load("classes_strings", classes, found));
    if (!found) classes.dtype = DataType::string;  // no classes: everything maps to the default
    if (classes.dtype != DataType::string) {
      return Status(StatusCode::invalid_model) << "attribute 'classes_strings' must be a list of strings";
    }
    if (input_dtype == DataType::string) {
      state->keys = classes;
      ONNXMICRO_RETURN_IF_ERROR(builder.iota(state->values, classes.count));
    } else if (input_dtype == DataType::int64) {
      ONNXMICRO_RETURN_IF_ERROR(builder.iota(state->keys, classes.count));
      state->values = classes;
    } else {
      return ctx.unsupported_input_dtype(0);
    }
  } else {
    static constexpr std::string_view kKeyNames[] = {"keys_int64s", "keys_floats", "keys_strings", "keys_tensor"};
    static constexpr std::string_view kValueNames[] = {"values_int64s", "values_floats", "values_strings",
                                                       "values_tensor"};
    const int sources = version >= 4 ? 4 : 3;
    for (int pass = 0; pass < 2; ++pass) {
      const std::string_view* names = pass == 0 ? kKeyNames : kValueNames;
      LabelColumn& column = pass == 0 ? state->keys : state->values;
      int present = 0;
      for (int s = 0; s < sources; ++s) {
        bool found = false;
        LabelColumn loaded;
        ONNXMICRO_RETURN_IF_ERROR(builder.load(names[s], loaded, found));
        if (!found) continue;
        ++present;
        column = loaded;
        if (pass == 1 && s == 3) from_tensor = true;
      }
      if (present != 1) {
        return Status(StatusCode::invalid_model) << "exactly one of the " << (pass == 0 ? "keys" : "values")
                                                 << "_* attributes must be given, found " << present;
      }
    }
    if (state->keys.count != state->values.count) {
      return Status(StatusCode::invalid_model)
             << "the keys attribute has " << state->keys.count << " entries but the values " << state->values.count;
    }
    if (input_dtype != state->keys.dtype) {
      return ctx.input_error(0) << " has dtype " << dtype_name(input_dtype) << ", expected the keys' dtype "
                                << dtype_name(state->keys.dtype);
    }
  }

  // The default value, in the values' dtype.
  const DataType out = state->values.dtype;
  unsigned char* def = state->default_value;
  std::memset(def, 0, sizeof(state->default_value));
  proto::Attribute default_tensor;
  if (from_tensor && ctx.find_attribute("default_tensor", default_tensor)) {
    LabelColumn loaded;
    bool found = false;
    ONNXMICRO_RETURN_IF_ERROR(builder.load("default_tensor", loaded, found));
    if (loaded.dtype != out || loaded.count != 1) {
      return Status(StatusCode::invalid_model) << "attribute 'default_tensor' must hold one " << dtype_name(out)
                                               << " value, got " << loaded.count << " of " << dtype_name(loaded.dtype);
    }
    std::memcpy(def, loaded.data, dtype_size(out));
  } else if (out == DataType::string) {
    std::string_view text = "_Unused";
    if (!from_tensor) ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("default_string", text, "_Unused"));
    const StringRef ref = StringRef::of(text);
    std::memcpy(def, &ref, sizeof(ref));
  } else if (out == DataType::float32 || out == DataType::float64) {
    float value = -0.0f;
    if (!from_tensor) ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("default_float", value, -0.0f));
    if (out == DataType::float32) {
      std::memcpy(def, &value, sizeof(value));
    } else {
      const double wide = value;
      std::memcpy(def, &wide, sizeof(wide));
    }
  } else {
    std::int64_t value = -1;
    if (!from_tensor) ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("default_int64", value, -1));
    if (out == DataType::int64) {
      std::memcpy(def, &value, sizeof(value));
    } else if (out == DataType::int32) {
      const auto narrow = static_cast<std::int32_t>(value);
      std::memcpy(def, &narrow, sizeof(narrow));
    } else {
      const auto narrow = static_cast<std::int16_t>(value);
      std::memcpy(def, &narrow, sizeof(narrow));
    }
  }

  ONNXMICRO_RETURN_IF_ERROR(builder.sort(*state));
  ctx.set_output(0, out, ctx.input(0).shape);
  return {};
}

}  // namespace label_encoder_detail

struct LabelEncoderBase : KernelDefaults {
  static constexpr std::string_view kDomain = "ai.onnx.ml";
  static constexpr std::string_view kOpType = "LabelEncoder";
  static Status run(RunContext& ctx) noexcept {
    const auto& state = ctx.state<label_encoder_detail::LabelEncoderState>();
    state.lookup(state, ctx.input(0).data, ctx.output(0).data, ctx.input(0).element_count());
    return {};
  }
};

/// LabelEncoder's version rules (VersionedKernel): prepare reads what version `since` accepts; LabelEncoderBase holds
/// the rest.
struct LabelEncoderImpl : LabelEncoderBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    return label_encoder_detail::prepare_label_encoder(ctx, since);
  }
};

// Opset 1: classes_strings maps string <-> int64 index.
using LabelEncoder_1 = VersionedKernel<LabelEncoderImpl, 1, 2>;
// Opset 2: explicit keys_* / values_* lists (string, int64, float).
using LabelEncoder_2 = VersionedKernel<LabelEncoderImpl, 2, 4>;
// Opset 4: keys_tensor / values_tensor / default_tensor; adds int16, int32 and double.
using LabelEncoder_4 = VersionedKernel<LabelEncoderImpl, 4>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
