// SPDX-License-Identifier: MIT
// BitCast: reinterprets the input's bits as dtype 'to' of the same element width (float32 <-> int32, bool <->
// uint8, int4 <-> uint4, ...); the shape is unchanged and the bytes are copied as they are (or not at all when the
// output shares the input's buffer).
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace bit_cast_detail {

/// The implementation of BitCast (see the file comment).
struct BitCastImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "BitCast";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInput = 0;

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& in = ctx.input(kInput);
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::input_element_bits(ctx, kInput, bits));
    std::int64_t to_value = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("to", to_value));
    const bool known = to_value > 0 && to_value <= kMaxDataTypeValue;
    const DataType to = known ? static_cast<DataType>(to_value) : DataType::undefined;
    if (in.dtype == DataType::string) return ctx.unsupported_input_dtype(kInput);
    const std::size_t to_bits = to == DataType::string ? 0 : shape_util::element_bits(to);
    if (to_bits == 0) {
      return Status(StatusCode::unsupported)
             << "attribute 'to' is " << to_value << " (" << (known ? dtype_name(to) : "unknown")
             << "), which has no fixed element size";
    }
    if (to_bits != bits) {
      return Status(StatusCode::invalid_model)
             << "attribute 'to' is " << dtype_name(to) << " (" << to_bits << " bits), but input 0 '" << in.name
             << "' is " << dtype_name(in.dtype) << " (" << bits << " bits); BitCast needs equal element widths";
    }
    ctx.set_output(0, to, in.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    shape_util::copy_unless_aliased(ctx.output(0).data, ctx.input(kInput).data, ctx.input(kInput).byte_size());
    return {};
  }
};

}  // namespace bit_cast_detail

// Opset 26: the first version.
using BitCast_26 = VersionedKernel<bit_cast_detail::BitCastImpl, 26>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
