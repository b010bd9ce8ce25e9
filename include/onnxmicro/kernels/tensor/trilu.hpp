// SPDX-License-Identifier: MIT
// Trilu: keeps the upper (upper=1, the default: column - row >= k) or lower (column - row <= k) triangle of each
// matrix in the last two dims and zeroes the rest; k is the optional scalar input 1 (default 0), read at run time.
// Elements move as raw bytes (any whole-byte dtype); the output may share the input's buffer.
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace trilu_detail {

/// The implementation of Trilu (see the file comment).
struct TriluImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Trilu";
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInput = 0;
  static constexpr int kK = 1;

  struct State {
    bool upper;
    std::int64_t matrices;
    std::int64_t rows;
    std::int64_t columns;
    std::size_t element_bytes;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& in = ctx.input(kInput);
    std::size_t bits = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::input_element_bits(ctx, kInput, bits));
    if (bits < 8) return ctx.unsupported_input_dtype(kInput);
    const int rank = in.shape.rank();
    if (rank < 2) {
      return ctx.input_error(kInput) << " has shape " << in.shape << "; Trilu needs rank >= 2";
    }
    if (ctx.has_input(kK)) {
      const TensorInfo& k = ctx.input(kK);
      if (k.dtype != DataType::int64 || k.shape.element_count() != 1 || k.shape.rank() > 1) {
        return ctx.input_error(kK, "k") << " has dtype " << dtype_name(k.dtype) << " and shape " << k.shape
                                        << ", expected an int64 scalar";
      }
    }
    std::int64_t upper = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("upper", upper, 1));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->upper = upper != 0;
    state->rows = in.shape[rank - 2];
    state->columns = in.shape[rank - 1];
    state->matrices = shape_util::dims_product(in.shape, 0, rank - 2);
    state->element_bytes = bits / 8;
    ctx.set_output(0, in.dtype, in.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    std::int64_t k = 0;
    if (ctx.has_input(kK)) std::memcpy(&k, ctx.input(kK).data, sizeof k);
    const unsigned char* src = static_cast<const unsigned char*>(ctx.input(kInput).data);
    unsigned char* dst = static_cast<unsigned char*>(ctx.output(0).data);
    const std::size_t size = state.element_bytes;
    const std::int64_t columns = state.columns;
    for (std::int64_t m = 0; m < state.matrices; ++m) {
      for (std::int64_t r = 0; r < state.rows; ++r) {
        // Kept columns [begin, end): upper keeps c >= r + k, lower keeps c <= r + k.
        std::int64_t begin = state.upper ? r + k : 0;
        std::int64_t end = state.upper ? columns : r + k + 1;
        begin = begin < 0 ? 0 : (begin > columns ? columns : begin);
        end = end < begin ? begin : (end > columns ? columns : end);
        const std::size_t row = static_cast<std::size_t>((m * state.rows + r) * columns) * size;
        std::memset(dst + row, 0, static_cast<std::size_t>(begin) * size);
        shape_util::copy_unless_aliased(dst + row + static_cast<std::size_t>(begin) * size,
                                        src + row + static_cast<std::size_t>(begin) * size,
                                        static_cast<std::size_t>(end - begin) * size);
        std::memset(dst + row + static_cast<std::size_t>(end) * size, 0,
                    static_cast<std::size_t>(columns - end) * size);
      }
    }
    return {};
  }
};

}  // namespace trilu_detail

// Opset 14: the first version.
using Trilu_14 = VersionedKernel<trilu_detail::TriluImpl, 14>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
