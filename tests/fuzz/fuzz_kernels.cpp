// SPDX-License-Identifier: MIT
// Instantiates the fuzz kernel set (see fuzz_kernels.hpp) in one translation unit.
#include "fuzz_kernels.hpp"

namespace onnxmicro_fuzz {
namespace {

namespace k = onnxmicro::kernels;
using FuzzKernels = onnxmicro::KernelSet<
    // nn
    k::Conv_1, k::ConvTranspose_1, k::MaxPool_1, k::MaxPool_8, k::MaxPool_10, k::AveragePool_1, k::AveragePool_7,
    k::AveragePool_10, k::AveragePool_19, k::GlobalAveragePool_1, k::BatchNormalization_1, k::BatchNormalization_9,
    k::BatchNormalization_14, k::BatchNormalization_15, k::Flatten_1, k::Flatten_11, k::Resize_10, k::Resize_11,
    k::Resize_13, k::Resize_18, k::Resize_19,
    // math
    k::Gemm_1, k::Gemm_7, k::Gemm_11, k::MatMul_1, k::Add_1, k::Add_7, k::Mul_1, k::Mul_7, k::Sub_1, k::Sub_7, k::Div_1,
    k::Div_7, k::Pow_1, k::Pow_7, k::Pow_12, k::Relu_1, k::Sigmoid_1, k::Tanh_1, k::LeakyRelu_1, k::Clip_1, k::Clip_11,
    k::Identity_1, k::Softmax_1, k::Softmax_13, k::Sqrt_1, k::Exp_1, k::Neg_1, k::Not_1, k::TopK_1, k::TopK_10,
    k::TopK_11, k::ReduceMean_1, k::ReduceMean_18, k::ReduceSum_1, k::ReduceSum_13,
    // tensor
    k::Reshape_1, k::Reshape_5, k::Reshape_14, k::Transpose_1, k::Concat_1, k::Concat_4, k::Concat_11, k::Gather_1,
    k::Cast_1, k::Cast_6, k::Cast_19, k::Cast_24, k::Shape_1, k::Shape_15, k::Unsqueeze_1, k::Unsqueeze_11,
    k::Unsqueeze_13, k::Squeeze_1, k::Squeeze_11, k::Squeeze_13, k::Slice_1, k::Slice_10, k::Slice_11, k::Pad_1,
    k::Pad_2, k::Pad_11, k::Pad_18, k::Pad_19, k::Split_1, k::Split_2, k::Split_11, k::Split_13, k::Split_18,
    k::Expand_8, k::Tile_1, k::Tile_6, k::Range_11, k::ConstantOfShape_9, k::Constant_1, k::Constant_11, k::Constant_12,
    k::Where_9, k::Equal_1, k::Equal_7, k::Equal_19, k::Less_1, k::Less_7, k::Greater_1, k::Greater_7,
    // quantization
    k::QuantizeLinear_10, k::QuantizeLinear_13, k::QuantizeLinear_19, k::QuantizeLinear_21, k::QuantizeLinear_23,
    k::DequantizeLinear_10, k::DequantizeLinear_13, k::DequantizeLinear_19, k::DequantizeLinear_21,
    k::DequantizeLinear_23, k::QLinearConv_10, k::QLinearMatMul_10, k::QLinearMatMul_21, k::MatMulInteger_10,
    // text, sequences and optionals (inputs of those kinds come from fuzz_mutate_run's fill)
    k::RegexFullMatch_20, k::StringConcat_20, k::StringNormalizer_10, k::StringSplit_20, k::ConcatFromSequence_11,
    k::Optional_15, k::OptionalGetElement_15, k::OptionalHasElement_15, k::SequenceAt_11, k::SequenceConstruct_11,
    k::SequenceEmpty_11, k::SequenceErase_11, k::SequenceInsert_11, k::SequenceLength_11, k::SplitToSequence_11,
    // control flow
    k::If_1, k::Loop_1, k::Scan_8, k::Scan_9>;

}  // namespace

onnxmicro::KernelRegistry fuzz_kernels_registry() noexcept { return FuzzKernels::registry(); }

}  // namespace onnxmicro_fuzz
