// SPDX-License-Identifier: MIT
// Every kernel of the text family (string tensor ops), as one KernelSet. Add a new kernel here after writing its
// file.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/text/regex_full_match.hpp"
#include "onnxmicro/kernels/text/string_concat.hpp"
#include "onnxmicro/kernels/text/string_normalizer.hpp"
#include "onnxmicro/kernels/text/string_split.hpp"
#include "onnxmicro/kernels/text/tfidf_vectorizer.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using TextKernels = KernelSet<  //
    RegexFullMatch_20, StringConcat_20, StringNormalizer_10, StringSplit_20, TfIdfVectorizer_9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
