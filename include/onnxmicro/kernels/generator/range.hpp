// SPDX-License-Identifier: MIT
// Range: start, start + delta, ... up to (excluding) limit; max(ceil((limit - start) / delta), 0) elements. The
// three scalar inputs decide the output shape, so they must be known at prepare time (the node is then folded).
// Values follow numpy.arange, which the ONNX reference uses: integers exactly in int64; floats in double as
// start + i * ((start + delta) - start), then rounded to the output dtype; float16/bfloat16 (opset 27) in the
// 'stash_type' precision (float32 or double) the same way. Elements are written through Cast's storers.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/common/dtype_convert.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Shared implementation of both Range versions; they differ in the dtypes and 'stash_type'.
struct RangeBase : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Range";
  static constexpr int kOutput = 0;

  /// Precision the float values are computed in.
  enum class Precision : std::uint8_t { integer, float32, float64 };

  struct State {
    Precision precision;
    dtype_convert::StoreBlock store;
    std::int64_t count;
    std::int64_t start_int;
    std::int64_t delta_int;
    double start;
    double delta;  ///< (start + delta) - start, as numpy's fill uses
  };

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    void* dst = ctx.output(kOutput).data;
    dtype_convert::Wide block[dtype_convert::kBlockElements];
    const dtype_convert::Options options;
    for (std::int64_t begin = 0; begin < state.count; begin += dtype_convert::kBlockElements) {
      const std::int64_t left = state.count - begin;
      const int n = left < dtype_convert::kBlockElements ? static_cast<int>(left) : dtype_convert::kBlockElements;
      for (int k = 0; k < n; ++k) {
        const std::int64_t i = begin + k;
        switch (state.precision) {
          case Precision::integer: block[k].i = state.start_int + i * state.delta_int; break;
          case Precision::float32: {
            const float start = static_cast<float>(state.start);
            const float delta = static_cast<float>(state.delta);
            block[k].f = static_cast<double>(i == 0 ? start : start + static_cast<float>(i) * delta);
            break;
          }
          case Precision::float64:
            block[k].f = i == 0 ? state.start : state.start + static_cast<double>(i) * state.delta;
            break;
        }
      }
      state.store(block, dst, begin, n, options);
    }
    return {};
  }

 protected:
  /// `stash` is the compute dtype for float16/bfloat16 (float32 or float64); `allow_half` whether they exist.
  static Status prepare_with(PrepareContext& ctx, DataType stash, bool allow_half) noexcept {
    for (int i = 0; i < 3; ++i) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(0, i));
      if (ctx.input(i).shape.element_count() != 1 || ctx.input(i).shape.rank() > 1) {
        return ctx.input_error(i) << " must be a scalar, got shape " << ctx.input(i).shape;
      }
    }
    for (int i = 0; i < 3; ++i) ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(i));
    const DataType dtype = ctx.input(0).dtype;
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    const bool half = dtype == DataType::float16 || dtype == DataType::bfloat16;
    if (dtype == DataType::int16 || dtype == DataType::int32 || dtype == DataType::int64) {
      const std::int64_t start = read_int(ctx, 0);
      const std::int64_t limit = read_int(ctx, 1);
      const std::int64_t delta = read_int(ctx, 2);
      if (delta == 0) return ctx.input_error(2, "delta") << " is 0";
      state->precision = Precision::integer;
      state->start_int = start;
      state->delta_int = delta;
      std::int64_t span = 0;  // ceil(span / delta), at least 0
      // limit - start, and span / -1 for span = INT64_MIN, overflow int64 (undefined behaviour): too many elements.
      if (__builtin_sub_overflow(limit, start, &span) || (delta == -1 && span < -0x7fffffffffffffff)) {
        return Status(StatusCode::limit_exceeded)
               << "range from " << start << " to " << limit << " has more elements than a 64-bit count holds";
      }
      std::int64_t count = span / delta + ((span % delta != 0 && ((span < 0) == (delta < 0))) ? 1 : 0);
      state->count = count < 0 ? 0 : count;
      state->store = dtype_convert::storer_for<dtype_convert::SourceKind::signed_integer>(dtype);
    } else if (dtype == DataType::float32 || dtype == DataType::float64 || (half && allow_half)) {
      const double start = read_float(ctx, 0);
      const double limit = read_float(ctx, 1);
      const double delta = read_float(ctx, 2);
      if (delta == 0) return ctx.input_error(2, "delta") << " is 0";
      state->precision = half && stash == DataType::float32 ? Precision::float32 : Precision::float64;
      // numpy stores start and start + delta in the compute dtype, then fills from their difference.
      if (state->precision == Precision::float32) {
        const float s = static_cast<float>(start);
        state->start = s;
        state->delta = static_cast<double>(static_cast<float>(static_cast<double>(s) + delta) - s);
      } else {
        state->start = start;
        state->delta = (start + delta) - start;
      }
      const double count = std::ceil((limit - state->start) / delta);
      if (!(count < 9.0e18)) {
        return Status(StatusCode::limit_exceeded)
               << "Range would have more than 9e18 elements (start, limit, delta: " << start << ", " << limit << ", "
               << delta << ")";
      }
      state->count = count > 0 ? static_cast<std::int64_t>(count) : 0;
      state->store = dtype_convert::storer_for<dtype_convert::SourceKind::floating>(dtype);
    } else {
      return ctx.unsupported_input_dtype(0);
    }
    Shape out{state->count};
    std::size_t bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(dtype, out, bytes));
    ctx.set_output(kOutput, dtype, out);
    return {};
  }

 private:
  static std::int64_t read_int(const PrepareContext& ctx, int i) noexcept {
    const void* data = ctx.input(i).const_data;
    switch (ctx.input(i).dtype) {
      case DataType::int16: {
        std::int16_t v;
        std::memcpy(&v, data, sizeof v);
        return v;
      }
      case DataType::int32: {
        std::int32_t v;
        std::memcpy(&v, data, sizeof v);
        return v;
      }
      default: {
        std::int64_t v;
        std::memcpy(&v, data, sizeof v);
        return v;
      }
    }
  }
  static double read_float(const PrepareContext& ctx, int i) noexcept {
    const void* data = ctx.input(i).const_data;
    switch (compiled_dtype(ctx.input(i).dtype)) {
      case DataType::float32: {
        float v;
        std::memcpy(&v, data, sizeof v);
        return v;
      }
      case DataType::float64: {
        double v;
        std::memcpy(&v, data, sizeof v);
        return v;
      }
      default: {
        std::uint16_t bits;
        std::memcpy(&bits, data, sizeof bits);
        return ctx.input(i).dtype == DataType::float16 ? float16_t::from_bits(bits).to_float()
                                                       : bfloat16_t::from_bits(bits).to_float();
      }
    }
  }
};

/// Range's version rules (VersionedKernel): prepare reads what version `since` accepts; RangeBase holds the
/// rest.
struct RangeImpl : RangeBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    if (since >= 27) return prepare_v27(ctx);
    return prepare_with(ctx, DataType::float32, false);
  }

 private:
  static Status prepare_v27(PrepareContext& ctx) noexcept {
    std::int64_t stash = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("stash_type", stash, 1));
    if (stash != static_cast<std::int64_t>(DataType::float32) &&
        stash != static_cast<std::int64_t>(DataType::float64)) {
      return Status(StatusCode::invalid_model)
             << "attribute 'stash_type' is " << stash << ", expected 1 (float) or 11 (double)";
    }
    return prepare_with(ctx, static_cast<DataType>(stash), true);
  }
};

// Opset 11: the first version (float, double, int16, int32, int64).
using Range_11 = VersionedKernel<RangeImpl, 11, 27>;
// Opset 27: adds float16/bfloat16, computed in 'stash_type' (float32, the default, or double).
using Range_27 = VersionedKernel<RangeImpl, 27>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
