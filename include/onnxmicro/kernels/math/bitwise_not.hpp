// SPDX-License-Identifier: MIT
// BitwiseNot: y = ~x on every integer type (opset 18, unchanged since).
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// The function of BitwiseNot, on the integer types.
struct BitwiseNotOp {
  static constexpr std::string_view kOpType = "BitwiseNot";
  using Params = NoParams;
  template <typename C>
  static C apply(C x, const Params&) noexcept {
    return static_cast<C>(~x);  // ~ promotes small types to int; the cast keeps the low bits
  }
};

/// Every integer dtype.
using BitwiseIntegerTypes = TypeList<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t,
                                     std::uint32_t, std::uint64_t>;

// Opset 18+: the first version.
using BitwiseNot_18 = VersionedKernel<UnaryElementwise<BitwiseNotOp, BitwiseIntegerTypes>, 18>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
