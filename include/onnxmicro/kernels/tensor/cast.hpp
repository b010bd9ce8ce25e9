// SPDX-License-Identifier: MIT
// Cast: converts every element to the dtype `to`, with the ONNX reference's rounding and overflow rules:
//  - float -> float: round to nearest even, +/-inf when out of range (double -> float16 rounds once, from the
//    exact value, like numpy; double -> bfloat16 goes through float, like ml_dtypes).
//  - float -> integer: truncate toward zero, then keep the low bits like an integer -> integer cast. ONNX leaves
//    out-of-range values undefined; this matches numpy on x86-64 for |x| < 2^31 and ml_dtypes (the reference)
//    for int4/uint4/int2/uint2. NaN gives 0; values beyond the 64-bit range give the nearest 64-bit bound
//    before the low bits are kept.
//  - integer -> integer: keep the low bits (two's complement); -> bool: != 0; bool -> number: 0 or 1.
//  - float8 (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz): round to nearest even; out-of-range and +/-inf go to +/-max with
//    saturate=1 (the default), else to NaN (or inf for e5m2). float4e2m1 always saturates. float8e8m0 follows
//    'round_mode' (up, down, nearest) and 'saturate'.
// Strings and the float6 types are not supported yet (a clear `unsupported` status at prepare).
//
// The conversion itself is the dtype_convert engine (kernels/common/dtype_convert.hpp).
#pragma once
#include <cstdint>

#include "onnxmicro/kernels/common/dtype_convert.hpp"
#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace cast_detail {

/// Parses Cast-1's string 'to' ("FLOAT", "INT64", ...; case-insensitive). Returns undefined when unknown.
inline DataType dtype_from_onnx_name(std::string_view name) noexcept {
  struct Entry {
    const char* name;
    DataType dtype;
  };
  static constexpr Entry kNames[] = {
      {"FLOAT", DataType::float32},   {"UINT8", DataType::uint8},       {"INT8", DataType::int8},
      {"UINT16", DataType::uint16},   {"INT16", DataType::int16},       {"INT32", DataType::int32},
      {"INT64", DataType::int64},     {"STRING", DataType::string},     {"BOOL", DataType::boolean},
      {"FLOAT16", DataType::float16}, {"DOUBLE", DataType::float64},    {"UINT32", DataType::uint32},
      {"UINT64", DataType::uint64},   {"BFLOAT16", DataType::bfloat16},
  };
  for (const Entry& entry : kNames) {
    std::string_view candidate(entry.name);
    if (candidate.size() != name.size()) continue;
    bool equal = true;
    for (std::size_t i = 0; equal && i < name.size(); ++i) {
      char c = name[i];
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      equal = c == candidate[i];
    }
    if (equal) return entry.dtype;
  }
  return DataType::undefined;
}

}  // namespace cast_detail

/// Shared implementation of every Cast version; they differ in which attributes exist.
struct CastBase : KernelDefaults {
  static constexpr std::string_view kDomain = "";
  static constexpr std::string_view kOpType = "Cast";
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  struct State {
    bool same_dtype;  ///< plain copy
    dtype_convert::LoadBlock load;
    dtype_convert::StoreBlock store;
    dtype_convert::Options options;
  };

  static Status prepare_with(PrepareContext& ctx, DataType to, const dtype_convert::Options& options) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& in = ctx.input(kInput);
    // The session refuses compiled-out inputs before this; the output dtype is only known here.
    if (!dtype_enabled(in.dtype)) return PrepareContext::disabled_dtype("input", kInput, in.name, in.dtype);
    if (!dtype_enabled(to)) return PrepareContext::disabled_dtype("output", kOutput, ctx.output(kOutput).name, to);
    if (in.dtype == DataType::string || to == DataType::string) {
      return Status(StatusCode::unsupported) << "Cast from " << dtype_name(in.dtype) << " to " << dtype_name(to)
                                             << ": string casts are not supported yet";
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->options = options;
    state->same_dtype = in.dtype == to && shape_util::element_bits(to) != 0;
    if (!state->same_dtype) {
      dtype_convert::SourceKind kind = dtype_convert::SourceKind::floating;
      state->load = dtype_convert::loader_for(in.dtype, kind);
      if (state->load == nullptr) {
        return ctx.input_error(kInput, {}, StatusCode::unsupported)
               << " has dtype " << dtype_name(in.dtype) << ", which Cast does not support";
      }
      switch (kind) {
        case dtype_convert::SourceKind::floating:
          state->store = dtype_convert::storer_for<dtype_convert::SourceKind::floating>(to);
          break;
        case dtype_convert::SourceKind::signed_integer:
          state->store = dtype_convert::storer_for<dtype_convert::SourceKind::signed_integer>(to);
          break;
        case dtype_convert::SourceKind::unsigned64:
          state->store = dtype_convert::storer_for<dtype_convert::SourceKind::unsigned64>(to);
          break;
      }
      if (state->store == nullptr) {
        return Status(StatusCode::unsupported) << "attribute 'to' is " << static_cast<int>(to) << " (" << dtype_name(to)
                                               << "), which Cast does not support";
      }
    }
    ctx.set_output(kOutput, to, in.shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const ConstTensorView& in = ctx.input(kInput);
    void* dst = ctx.output(kOutput).data;
    if (state.same_dtype) {
      shape_util::copy_unless_aliased(dst, in.data, in.byte_size());
      return {};
    }
    dtype_convert::Wide block[dtype_convert::kBlockElements];
    const std::int64_t count = in.element_count();
    for (std::int64_t begin = 0; begin < count; begin += dtype_convert::kBlockElements) {
      const std::int64_t left = count - begin;
      const int n = left < dtype_convert::kBlockElements ? static_cast<int>(left) : dtype_convert::kBlockElements;
      state.load(in.data, begin, n, block);
      state.store(block, dst, begin, n, state.options);
    }
    return {};
  }

 protected:
  /// Reads the INT 'to' attribute (opset 6+) and checks it names a dtype.
  static Status read_to(PrepareContext& ctx, DataType& to) noexcept {
    std::int64_t value = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("to", value));
    if (value < 0 || value > kMaxDataTypeValue || !is_known_dtype(static_cast<std::int32_t>(value))) {
      return Status(StatusCode::unsupported)
             << "attribute 'to' is " << value << ", which is not a dtype this build knows (1.." << kMaxDataTypeValue
             << ")";
    }
    to = static_cast<DataType>(value);
    return {};
  }
  /// Reads 'saturate' (opset 19+), 0 or 1.
  static Status read_saturate(PrepareContext& ctx, dtype_convert::Options& options) noexcept {
    std::int64_t saturate = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("saturate", saturate, 1));
    if (saturate != 0 && saturate != 1) {
      return Status(StatusCode::invalid_model) << "attribute 'saturate' is " << saturate << ", expected 0 or 1";
    }
    options.saturate = saturate == 1;
    return {};
  }
  /// Reads 'round_mode' (opset 24 on): how casts to float8e8m0 round.
  static Status read_round_mode(PrepareContext& ctx, dtype_convert::Options& options) noexcept {
    std::string_view round_mode;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("round_mode", round_mode, "up"));
    if (round_mode == "up") {
      options.e8m0_rounding = float_formats::E8M0Rounding::up;
    } else if (round_mode == "down") {
      options.e8m0_rounding = float_formats::E8M0Rounding::down;
    } else if (round_mode == "nearest") {
      options.e8m0_rounding = float_formats::E8M0Rounding::nearest;
    } else {
      return Status(StatusCode::invalid_model)
             << "attribute 'round_mode' is \"" << round_mode << "\", expected \"up\", \"down\" or \"nearest\"";
    }
    return {};
  }
};

/// Cast's version rules (VersionedKernel): prepare reads what version `since` accepts; CastBase holds the
/// rest.
struct CastImpl : CastBase {
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    if (since < 6) return prepare_named_to(ctx);
    DataType to = DataType::undefined;
    ONNXMICRO_RETURN_IF_ERROR(read_to(ctx, to));
    dtype_convert::Options options;
    if (since >= 19) ONNXMICRO_RETURN_IF_ERROR(read_saturate(ctx, options));
    if (since >= 24) ONNXMICRO_RETURN_IF_ERROR(read_round_mode(ctx, options));
    return prepare_with(ctx, to, options);
  }

 private:
  /// Opset 1's 'to': a STRING dtype name.
  static Status prepare_named_to(PrepareContext& ctx) noexcept {
    proto::Attribute attribute;
    if (!ctx.find_attribute("to", attribute)) {
      return Status(StatusCode::invalid_model) << "required attribute 'to' (STRING) is missing";
    }
    if (attribute.type == proto::AttributeType::int_) {  // some old exporters already wrote the opset-6 form
      DataType to = DataType::undefined;
      ONNXMICRO_RETURN_IF_ERROR(read_to(ctx, to));
      return prepare_with(ctx, to, dtype_convert::Options());
    }
    ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(attribute, proto::AttributeType::string));
    std::string_view name(reinterpret_cast<const char*>(attribute.s.data()), attribute.s.size());
    DataType to = cast_detail::dtype_from_onnx_name(name);
    if (to == DataType::undefined) {
      return Status(StatusCode::invalid_model)
             << "attribute 'to' is \"" << name << "\", expected a TensorProto.DataType name such as \"FLOAT\"";
    }
    return prepare_with(ctx, to, dtype_convert::Options());
  }
};

// Opset 1: 'to' is a STRING naming the dtype ("FLOAT", "INT32", ...).
using Cast_1 = VersionedKernel<CastImpl, 1, 6>;
// Opset 6: 'to' becomes an INT (TensorProto.DataType). Opsets 9 (string) and 13 (bfloat16) only add dtypes.
using Cast_6 = VersionedKernel<CastImpl, 6, 19>;
// Opset 19: adds float8 dtypes and 'saturate' (their overflow rule). Opsets 21 (int4/uint4) and 23 (float4e2m1)
// only add dtypes.
using Cast_19 = VersionedKernel<CastImpl, 19, 24>;
// Opset 24: adds float8e8m0 and 'round_mode' (up, down, nearest) for casts to it. Opsets 25 (int2/uint2) and 28
// (float6, not supported yet) only add dtypes.
using Cast_24 = VersionedKernel<CastImpl, 24>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
