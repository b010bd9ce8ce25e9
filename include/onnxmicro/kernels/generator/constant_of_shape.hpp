// SPDX-License-Identifier: MIT
// ConstantOfShape: a tensor of the shape given by input 0 (1-D int64, known at prepare time since it decides the
// output shape; empty gives a scalar), every element equal to the one-element 'value' tensor attribute (default:
// float32 0). The value's bits are kept in the state and replicated by run().
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/remap.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace constant_of_shape_detail {

/// The implementation of ConstantOfShape (see the file comment).
struct ConstantOfShapeImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "ConstantOfShape";
  static constexpr int kShape = 0;
  static constexpr int kOutput = 0;
  static constexpr std::size_t kMaxValueBytes = 16;  // complex128

  struct State {
    std::size_t element_bits;
    unsigned char value[kMaxValueBytes];
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kShape));
    if (ctx.input(kShape).dtype != DataType::int64) {
      return ctx.input_error(kShape) << " has dtype " << dtype_name(ctx.input(kShape).dtype) << ", expected int64";
    }
    std::int64_t dims[kMaxRank];
    std::size_t count = 0;
    ONNXMICRO_RETURN_IF_ERROR(shape_util::read_constant_ints(ctx, kShape, "shape", dims, kMaxRank, count));
    Shape out;
    ONNXMICRO_RETURN_IF_ERROR(out.assign(dims, count));
    for (int d = 0; d < out.rank(); ++d) {
      if (out[d] < 0) {
        return ctx.input_error(kShape) << " is " << out << "; dims must be >= 0";
      }
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    DataType dtype = DataType::float32;
    state->element_bits = 32;  // value bytes stay zero: float 0
    proto::Attribute attribute;
    if (ctx.find_attribute("value", attribute)) {
      ONNXMICRO_RETURN_IF_ERROR(read_value(attribute, dtype, *state));
    }
    std::size_t bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(dtype, out, bytes));
    ctx.set_output(kOutput, dtype, out);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const TensorView& out = ctx.output(kOutput);
    remap::fill_elements(out.data, 0, out.element_count(), state.value, state.element_bits);
    if (state.element_bits < 8) shape_util::clear_padding_bits(out.data, out.element_count(), state.element_bits);
    return {};
  }

 private:
  static Status read_value(const proto::Attribute& attribute, DataType& dtype, State& state) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(attribute, proto::AttributeType::tensor));
    const proto::Tensor tensor = proto::Tensor::unchecked(attribute.t);
    if (!is_known_dtype(tensor.data_type)) {
      return Status(StatusCode::unsupported) << "attribute 'value' has data_type " << static_cast<int>(tensor.data_type)
                                             << ", which this build does not know";
    }
    dtype = static_cast<DataType>(tensor.data_type);
    state.element_bits = dtype == DataType::string ? 0 : shape_util::element_bits(dtype);
    if (state.element_bits == 0 || state.element_bits > 8 * kMaxValueBytes) {
      return Status(StatusCode::unsupported)
             << "attribute 'value' has dtype " << dtype_name(dtype) << ", which ConstantOfShape does not support";
    }
    std::int64_t count = 0;
    ONNXMICRO_RETURN_IF_ERROR(tensor.element_count(count));
    if (count != 1) {
      return Status(StatusCode::invalid_model) << "attribute 'value' has " << count << " elements, expected exactly 1";
    }
    Status status = tensor.decode_to(state.value, byte_size_of(dtype, 1));
    if (!status.ok()) return status.prepend("attribute 'value': ");
    return {};
  }
};

}  // namespace constant_of_shape_detail

// Opset 9: the first version (opsets 20, 21, 23, 24, 25 only add dtypes).
using ConstantOfShape_9 = VersionedKernel<constant_of_shape_detail::ConstantOfShapeImpl, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
