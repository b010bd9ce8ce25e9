// SPDX-License-Identifier: MIT
// EyeLike: a 2-D tensor of input 0's shape with ones on diagonal k (attribute, default 0: the main one; positive
// above it) and zeros elsewhere, of dtype 'dtype' (default: input 0's). Only the input's shape is read, so the
// session folds the node as soon as shapes are known (kNeedsInputData = false). The one is written through Cast's
// storer for the dtype.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/dtype_convert.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace eye_like_detail {

/// The implementation of EyeLike (see the file comment).
struct EyeLikeImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "EyeLike";
  static constexpr bool kNeedsInputData = false;
  static constexpr int kInput = 0;

  struct State {
    std::int64_t k;
    std::size_t element_bytes;
    unsigned char one[8];
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& in = ctx.input(kInput);
    if (in.shape.rank() != 2 || !in.shape.is_static()) {
      return ctx.input_error(kInput) << " has shape " << in.shape << "; EyeLike needs a known 2-D shape";
    }
    std::int64_t dtype_value = static_cast<std::int64_t>(in.dtype);
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("dtype", dtype_value, dtype_value));
    const DataType dtype = static_cast<DataType>(dtype_value);
    if (!supported(dtype)) {
      return Status(StatusCode::unsupported)
             << (ctx.has_attribute("dtype") ? "attribute 'dtype'" : "input 0's dtype") << " is " << dtype_value << " ("
             << (is_known_dtype(static_cast<std::int32_t>(dtype_value)) ? dtype_name(dtype) : "unknown")
             << "); EyeLike supports numeric and bool dtypes";
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("k", state->k, 0));
    state->element_bytes = dtype_size(dtype);
    dtype_convert::Wide one;
    one.i = 1;
    dtype_convert::storer_for<dtype_convert::SourceKind::signed_integer>(dtype)(&one, state->one, 0, 1,
                                                                                dtype_convert::Options());
    ctx.set_output(0, dtype, in.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const TensorView& out = ctx.output(0);
    unsigned char* dst = static_cast<unsigned char*>(out.data);
    std::memset(dst, 0, out.byte_size());
    const std::int64_t rows = out.shape[0];
    const std::int64_t columns = out.shape[1];
    for (std::int64_t r = state.k < 0 ? -state.k : 0; r < rows && r + state.k < columns; ++r) {
      std::memcpy(dst + static_cast<std::size_t>(r * columns + r + state.k) * state.element_bytes, state.one,
                  state.element_bytes);
    }
    return {};
  }

 private:
  static bool supported(DataType dtype) noexcept {
    switch (compiled_dtype(dtype)) {
      case DataType::float16:
      case DataType::bfloat16:
      case DataType::float32:
      case DataType::float64:
      case DataType::int8:
      case DataType::int16:
      case DataType::int32:
      case DataType::int64:
      case DataType::uint8:
      case DataType::uint16:
      case DataType::uint32:
      case DataType::uint64:
      case DataType::boolean: return true;
      default: return false;
    }
  }
};

}  // namespace eye_like_detail

// Opset 9: the first version (opset 22 only adds bfloat16).
using EyeLike_9 = VersionedKernel<eye_like_detail::EyeLikeImpl, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
