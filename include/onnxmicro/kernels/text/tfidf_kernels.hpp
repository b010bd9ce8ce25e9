// SPDX-License-Identifier: MIT
// TfIdfVectorizer, kept apart from the text family's list.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/text/tfidf_vectorizer.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using TfIdfKernels = KernelSet<TfIdfVectorizer_9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
