// SPDX-License-Identifier: MIT
// The sequence and optional family (values known when planning: Session::run(inputs) offers them).
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/sequence/concat_from_sequence.hpp"
#include "onnxmicro/kernels/sequence/optional.hpp"
#include "onnxmicro/kernels/sequence/optional_get_element.hpp"
#include "onnxmicro/kernels/sequence/optional_has_element.hpp"
#include "onnxmicro/kernels/sequence/sequence_at.hpp"
#include "onnxmicro/kernels/sequence/sequence_construct.hpp"
#include "onnxmicro/kernels/sequence/sequence_empty.hpp"
#include "onnxmicro/kernels/sequence/sequence_erase.hpp"
#include "onnxmicro/kernels/sequence/sequence_insert.hpp"
#include "onnxmicro/kernels/sequence/sequence_length.hpp"
#include "onnxmicro/kernels/sequence/split_to_sequence.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using SequenceKernels = KernelSet<ConcatFromSequence_11, Optional_15, OptionalGetElement_15, OptionalHasElement_15,
                                  SequenceAt_11, SequenceConstruct_11, SequenceEmpty_11, SequenceErase_11,
                                  SequenceInsert_11, SequenceLength_11, SplitToSequence_11>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
