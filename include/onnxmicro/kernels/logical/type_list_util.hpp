// SPDX-License-Identifier: MIT
// Dtype lists of the comparison, logical and bitwise kernels (common/elementwise.hpp has the numeric ones).
#pragma once
#include "onnxmicro/kernels/common/elementwise.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// Every integer dtype: what the bitwise ops accept.
using IntegerTypes = TypeList<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t,
                              std::uint32_t, std::uint64_t>;
/// bool plus every numeric dtype: what Equal and Where accept.
using BoolAndNumericTypes =
    TypeList<bool, float, double, float16_t, bfloat16_t, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
             std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>;
/// BoolAndNumericTypes plus string: Equal since opset 19.
using BoolNumericAndStringTypes =
    TypeList<bool, float, double, float16_t, bfloat16_t, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
             std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, StringRef>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
