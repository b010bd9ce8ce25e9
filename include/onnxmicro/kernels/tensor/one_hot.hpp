// SPDX-License-Identifier: MIT
// OneHot: output has indices' shape with a new dim of size `depth` inserted at `axis` (default -1, the
// innermost); an element is values[1] (on) where its position along the new dim equals the index, values[0]
// (off) elsewhere. Indices outside the valid range are not an error: their whole row is off (spec). Indices and
// depth may be any numeric dtype; non-integer values are truncated towards zero (cast to int64). `depth`
// decides the output shape, so it must be known at prepare time. Output elements are copies of the two values,
// so every fixed-size value dtype works.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/tensor/index_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace one_hot_detail {

using ReadFunction = std::int64_t (*)(const void* data, std::int64_t k) noexcept;

// Non-finite or huge floats map to a value outside every depth, so they select nothing.
inline std::int64_t truncate_to_int64(double v) noexcept {
  constexpr double kLimit = 4611686018427387904.0;  // 2^62
  if (!(v > -kLimit && v < kLimit)) return -(std::int64_t(1) << 62);
  return static_cast<std::int64_t>(v);
}

template <typename T>
std::int64_t read_as_int64(const void* data, std::int64_t k) noexcept {
  T v;
  std::memcpy(&v, static_cast<const unsigned char*>(data) + k * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
  if constexpr (std::is_same<T, float16_t>::value || std::is_same<T, bfloat16_t>::value) {
    return truncate_to_int64(v.to_float());
  } else if constexpr (std::is_floating_point<T>::value) {
    return truncate_to_int64(v);
  } else if constexpr (std::is_same<T, std::uint64_t>::value) {
    return v > static_cast<std::uint64_t>(INT64_MAX) ? -(std::int64_t(1) << 62) : static_cast<std::int64_t>(v);
  } else {
    return static_cast<std::int64_t>(v);
  }
}

/// Reader for a numeric index/depth input (T1/T2 of the schema); fails for other dtypes.
inline Status reader_for(const PrepareContext& ctx, int index, ReadFunction& out) noexcept {
  switch (compiled_dtype(ctx.input(index).dtype)) {
    case DataType::float32: out = &read_as_int64<float>; break;
    case DataType::float64: out = &read_as_int64<double>; break;
    case DataType::float16: out = &read_as_int64<float16_t>; break;
    case DataType::bfloat16: out = &read_as_int64<bfloat16_t>; break;
    case DataType::int8: out = &read_as_int64<std::int8_t>; break;
    case DataType::int16: out = &read_as_int64<std::int16_t>; break;
    case DataType::int32: out = &read_as_int64<std::int32_t>; break;
    case DataType::int64: out = &read_as_int64<std::int64_t>; break;
    case DataType::uint8: out = &read_as_int64<std::uint8_t>; break;
    case DataType::uint16: out = &read_as_int64<std::uint16_t>; break;
    case DataType::uint32: out = &read_as_int64<std::uint32_t>; break;
    case DataType::uint64: out = &read_as_int64<std::uint64_t>; break;
    default: return ctx.unsupported_input_dtype(index);
  }
  return {};
}

/// Implementation shared by the OneHot versions.
struct OneHotImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "OneHot";
  static constexpr int kIndices = 0;
  static constexpr int kDepth = 1;
  static constexpr int kValues = 2;
  static constexpr int kOutput = 0;

  struct State {
    ReadFunction read_index;
    std::int64_t outer;  ///< product of indices dims before the new axis
    std::int64_t depth;
    std::int64_t inner;  ///< product of indices dims from the new axis on
    std::size_t element_bytes;
    bool negative_indices;  ///< indices in [-depth, -1] count from the back (opset 11+)
  };

  static Status prepare(PrepareContext& ctx, int since) noexcept {
    for (int i = kIndices; i <= kValues; ++i) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
    const TensorInfo& indices = ctx.input(kIndices);
    const TensorInfo& depth_info = ctx.input(kDepth);
    const TensorInfo& values = ctx.input(kValues);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(reader_for(ctx, kIndices, state->read_index));
    ReadFunction read_depth = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(reader_for(ctx, kDepth, read_depth));
    ONNXMICRO_RETURN_IF_ERROR(index_util::input_element_bytes(ctx, kValues, state->element_bytes));
    if (values.shape.rank() != 1 || values.shape[0] != 2) {
      return ctx.input_error(kValues) << " has shape " << values.shape << ", expected [2] ([off_value, on_value])";
    }
    if (depth_info.shape.element_count() != 1 || depth_info.shape.rank() > 1) {
      return ctx.input_error(kDepth, "depth") << " has shape " << depth_info.shape << ", expected a scalar or [1]";
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(kDepth));
    const std::int64_t depth = read_depth(depth_info.const_data, 0);
    if (depth < 1) {
      return ctx.input_error(kDepth, "depth") << " is " << depth << ", expected >= 1";
    }
    const int rank = indices.shape.rank();
    std::int64_t axis_value = -1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis_value, -1));
    int axis = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::normalize_axis(axis_value, rank + 1, "attribute 'axis'", true, axis));
    ONNXMICRO_RETURN_IF_ERROR(shape_util::check_output_rank(rank + 1));
    Shape out;
    out.resize(rank + 1);
    for (int d = 0, o = 0; d <= rank; ++d) out[d] = d == axis ? depth : indices.shape[o++];
    std::size_t bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(values.dtype, out, bytes));
    state->outer = shape_util::dims_product(indices.shape, 0, axis);
    state->depth = depth;
    state->inner = shape_util::dims_product(indices.shape, axis, rank);
    state->negative_indices = since >= 11;
    ctx.set_output(kOutput, values.dtype, out);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const void* indices = ctx.input(kIndices).data;
    const unsigned char* values = static_cast<const unsigned char*>(ctx.input(kValues).data);
    const std::size_t size = s.element_bytes;
    unsigned char* out = static_cast<unsigned char*>(ctx.output(kOutput).data);
    for (std::int64_t o = 0; o < s.outer; ++o) {
      for (std::int64_t d = 0; d < s.depth; ++d) {
        for (std::int64_t i = 0; i < s.inner; ++i) {
          std::int64_t index = s.read_index(indices, o * s.inner + i);
          if (s.negative_indices && index < 0) index += s.depth;  // negative indices: opset 11+
          std::memcpy(out, values + (index == d ? size : 0), size);
          out += size;
        }
      }
    }
    return {};
  }
};

}  // namespace one_hot_detail

// Opset 9: indices outside [0, depth-1] select nothing.
using OneHot_9 = VersionedKernel<one_hot_detail::OneHotImpl, 9, 11>;
// Opset 11: negative indices in [-depth, -1] count from the back (28 only added bfloat16 values).
using OneHot_11 = VersionedKernel<one_hot_detail::OneHotImpl, 11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
