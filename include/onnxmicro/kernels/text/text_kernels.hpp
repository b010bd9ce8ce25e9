// SPDX-License-Identifier: MIT
// The text family: string tensor ops.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/text/regex_full_match.hpp"
#include "onnxmicro/kernels/text/string_concat.hpp"
#include "onnxmicro/kernels/text/string_normalizer.hpp"
#include "onnxmicro/kernels/text/string_split.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using TextKernels = KernelSet<RegexFullMatch_20, StringConcat_20, StringNormalizer_10, StringSplit_20>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
