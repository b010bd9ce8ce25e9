// SPDX-License-Identifier: MIT
// NonZero: the coordinates of the non-zero elements of X, as an int64 tensor [rank, count] in row-major order
// (a scalar gives [0, count]). Floats compare as numbers (-0.0 is zero, NaN is not); complex elements are
// non-zero when either part is, strings when not empty. The output size depends on X's values, so X must be known at
// prepare time (Session::run(inputs) offers it and re-plans per value).
#pragma once
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/tensor/index_util.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace non_zero_detail {

/// The implementation of NonZero (see the file comment).
struct NonZeroImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "NonZero";
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  using TestFunction = bool (*)(const void* data, std::int64_t k) noexcept;

  struct State {
    std::int64_t count;  ///< non-zero elements, as counted at prepare time
    TestFunction is_non_zero;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& x = ctx.input(kInput);
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    switch (compiled_dtype(x.dtype)) {
      case DataType::float32: state->is_non_zero = &test<float, 1>; break;
      case DataType::float64: state->is_non_zero = &test<double, 1>; break;
      case DataType::complex64: state->is_non_zero = &test<float, 2>; break;
      case DataType::complex128: state->is_non_zero = &test<double, 2>; break;
      // float16/bfloat16: non-zero unless every bit but the sign is clear (-0.0 is zero, NaN is not).
      case DataType::float16:
      case DataType::bfloat16: state->is_non_zero = &test_half; break;
      case DataType::boolean:
      case DataType::int8:
      case DataType::uint8: state->is_non_zero = &test<std::uint8_t, 1>; break;
      case DataType::int16:
      case DataType::uint16: state->is_non_zero = &test<std::uint16_t, 1>; break;
      case DataType::int32:
      case DataType::uint32: state->is_non_zero = &test<std::uint32_t, 1>; break;
      case DataType::int64:
      case DataType::uint64: state->is_non_zero = &test<std::uint64_t, 1>; break;
      case DataType::string: state->is_non_zero = &test_string; break;
      default: return ctx.unsupported_input_dtype(kInput);
    }
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(kInput));
    state->count = count_non_zero(*state, x.const_data, x.shape.element_count());
    ctx.set_output(kOutput, DataType::int64, Shape{static_cast<std::int64_t>(x.shape.rank()), state->count});
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& s = ctx.state<State>();
    const ConstTensorView& x = ctx.input(kInput);
    const std::int64_t n = x.element_count();
    if (count_non_zero(s, x.data, n) != s.count) {
      // The output buffer was sized for the prepare-time values.
      return Status(StatusCode::invalid_argument)
             << "input 0 has a different number of non-zero elements than when prepared (" << s.count << ")";
    }
    const int rank = x.shape.rank();
    std::int64_t* out = static_cast<std::int64_t*>(ctx.output(kOutput).data);
    std::int64_t coords[kMaxRank] = {};
    std::int64_t column = 0;
    for (std::int64_t k = 0; k < n; ++k) {
      if (s.is_non_zero(x.data, k)) {
        for (int d = 0; d < rank; ++d) out[d * s.count + column] = coords[d];
        ++column;
      }
      index_util::next_coordinates(coords, x.shape.data(), rank);
    }
    return {};
  }

 private:
  // Element k made of `Parts` values of T (2 for complex: non-zero when either part is).
  template <typename T, int Parts>
  static bool test(const void* data, std::int64_t k) noexcept {
    T v[Parts];
    std::memcpy(v, static_cast<const unsigned char*>(data) + k * static_cast<std::int64_t>(sizeof(v)), sizeof(v));
    for (int p = 0; p < Parts; ++p)
      if (v[p] != T(0)) return true;  // NaN != 0
    return false;
  }
  static bool test_half(const void* data, std::int64_t k) noexcept {
    std::uint16_t bits;
    std::memcpy(&bits, static_cast<const unsigned char*>(data) + k * 2, 2);
    return (bits & 0x7fffu) != 0;
  }
  // A string is non-zero when it is not empty (numpy's truth value of a string).
  static bool test_string(const void* data, std::int64_t k) noexcept {
    return static_cast<const StringRef*>(data)[k].size != 0;
  }
  static std::int64_t count_non_zero(const State& s, const void* data, std::int64_t n) noexcept {
    std::int64_t count = 0;
    for (std::int64_t k = 0; k < n; ++k) count += s.is_non_zero(data, k) ? 1 : 0;
    return count;
  }
};

}  // namespace non_zero_detail

// Opset 9 introduced it; 13 only added bfloat16, so one kernel serves every version.
using NonZero_9 = VersionedKernel<non_zero_detail::NonZeroImpl, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
