// SPDX-License-Identifier: MIT
// Shape and data-movement helpers shared by the tensor and generator kernels: axis normalisation with precise
// errors, reading constant integer inputs (shapes, axes) at prepare time, element sizes for byte-wise copies,
// and element access for the packed sub-byte dtypes (int2/uint2, int4/uint4/float4e2m1, float6).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace shape_util {

/// Maps `axis` in [-rank, rank-1] to [0, rank-1]. `what` names the value in the error ("attribute 'axis'",
/// "axes[1]"). Negative axes are refused when `allow_negative` is false (opsets before 11 for most ops).
inline Status normalize_axis(std::int64_t axis, int rank, std::string_view what, bool allow_negative,
                             int& out) noexcept {
  if (axis < 0 && !allow_negative) {
    return Status(StatusCode::invalid_model)
           << what << " is " << axis
           << ", but negative axes are only allowed from opset 11 on; expected a value in [0, " << rank - 1 << "]";
  }
  if (axis < -static_cast<std::int64_t>(rank) || axis >= rank) {
    return Status(StatusCode::invalid_model)
           << what << " is " << axis << ", expected a value in [" << -rank << ", " << rank - 1 << "] for rank " << rank;
  }
  out = static_cast<int>(axis < 0 ? axis + rank : axis);
  return {};
}

/// Fails with limit_exceeded when a computed output rank is above ONNXMICRO_MAX_RANK.
inline Status check_output_rank(std::int64_t rank) noexcept {
  if (rank <= kMaxRank) return {};
  return Status(StatusCode::limit_exceeded)
         << "output rank " << rank << " exceeds ONNXMICRO_MAX_RANK (" << kMaxRank << ")";
}

/// Reads a constant 0-D or 1-D int64 (or int32) input into `values` (capacity `capacity`); `count` = number
/// read. `role` names the input in errors ("target shape", "axes"). Fails when the input is not known at prepare
/// time (unsupported, through PrepareContext::require_constant_input(), so the session can bind an offered
/// graph-input value and retry), has another dtype or rank > 1 (invalid_model), or has more than `capacity`
/// values (limit_exceeded).
inline Status read_constant_ints(PrepareContext& ctx, int index, std::string_view role, std::int64_t* values,
                                 std::size_t capacity, std::size_t& count) noexcept {
  count = 0;
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(index));
  const TensorInfo& info = ctx.input(index);
  if (info.dtype != DataType::int64 && info.dtype != DataType::int32) {
    return ctx.input_error(index, role) << " has dtype " << dtype_name(info.dtype) << ", expected int64 (or int32)";
  }
  if (info.shape.rank() > 1) {
    return ctx.input_error(index, role) << " must be 1-D, got shape " << info.shape;
  }
  std::int64_t n = info.shape.element_count();
  if (n < 0 || static_cast<std::uint64_t>(n) > capacity) {
    return ctx.input_error(index, role, StatusCode::limit_exceeded)
           << " has " << n << " values, more than the " << capacity << " supported (ONNXMICRO_MAX_RANK)";
  }
  // memcpy: constant data need not be aligned for its dtype (it may point into the model bytes).
  const unsigned char* bytes = static_cast<const unsigned char*>(info.const_data);
  for (std::int64_t i = 0; i < n; ++i) {
    if (info.dtype == DataType::int64) {
      std::int64_t v;
      std::memcpy(&v, bytes + i * 8, 8);
      values[i] = v;
    } else {
      std::int32_t v;
      std::memcpy(&v, bytes + i * 4, 4);
      values[i] = v;
    }
  }
  count = static_cast<std::size_t>(n);
  return {};
}

/// Appends a list of integers as "[2,-1,0]" to an error message (unlike Shape, negative values print as is).
inline Status& append_int_list(Status& status, const std::int64_t* values, std::size_t count) noexcept {
  status << "[";
  for (std::size_t i = 0; i < count; ++i) {
    if (i) status << ",";
    status << values[i];
  }
  return status << "]";
}

/// Product of dims [begin, end) of `shape` (1 for an empty range).
inline std::int64_t dims_product(const Shape& shape, int begin, int end) noexcept {
  std::int64_t n = 1;
  for (int i = begin; i < end; ++i) n *= shape[i];
  return n;
}

/// Size of one element in bits for data-movement kernels: dtype_bits() for the packed sub-byte types (2, 4 or
/// 6), 0 for undefined (a string element is a StringRef). See input_element_bits() for the checked form.
constexpr std::size_t element_bits(DataType dtype) noexcept {
  return is_sub_byte(dtype) ? static_cast<std::size_t>(dtype_bits(dtype)) : dtype_size(dtype) * 8;
}

/// element_bits() of input `index`; fails with `unsupported`, naming the input, for dtypes without a fixed
/// element size.
inline Status input_element_bits(const PrepareContext& ctx, int index, std::size_t& bits) noexcept {
  const TensorInfo& info = ctx.input(index);
  bits = element_bits(info.dtype);
  if (bits != 0) return {};
  return ctx.input_error(index, {}, StatusCode::unsupported)
         << " has dtype " << dtype_name(info.dtype)
         << (info.dtype == DataType::string ? "; string tensors are not supported yet"
                                            : ", which has no fixed element size");
}

/// Copies `bytes` from `src` to `dst` unless they are the same buffer (in-place Reshape/Squeeze/...).
inline void copy_unless_aliased(void* dst, const void* src, std::size_t bytes) noexcept {
  if (dst != src && bytes != 0) std::memcpy(dst, src, bytes);
}

// ---- packed sub-byte elements (bits < 8): element i occupies bits [i*bits, (i+1)*bits) of the buffer, counted
// from the lowest bit of the first byte (so int4 element 2k is the low nibble of byte k) ----

/// Element `index` of a packed buffer of `bits`-bit elements.
inline std::uint8_t get_packed(const void* base, std::int64_t index, std::size_t bits) noexcept {
  const std::uint8_t* bytes = static_cast<const std::uint8_t*>(base);
  const std::uint64_t bit = static_cast<std::uint64_t>(index) * bits;
  const std::size_t byte = static_cast<std::size_t>(bit >> 3);
  const unsigned shift = static_cast<unsigned>(bit & 7u);
  unsigned value = static_cast<unsigned>(bytes[byte]) >> shift;
  if (shift + bits > 8) value |= static_cast<unsigned>(bytes[byte + 1]) << (8u - shift);
  return static_cast<std::uint8_t>(value & ((1u << bits) - 1u));
}

/// Sets element `index` of a packed buffer of `bits`-bit elements, keeping the neighbouring bits.
inline void set_packed(void* base, std::int64_t index, std::size_t bits, std::uint8_t value) noexcept {
  std::uint8_t* bytes = static_cast<std::uint8_t*>(base);
  const std::uint64_t bit = static_cast<std::uint64_t>(index) * bits;
  const std::size_t byte = static_cast<std::size_t>(bit >> 3);
  const unsigned shift = static_cast<unsigned>(bit & 7u);
  const unsigned mask = (1u << bits) - 1u;
  const unsigned v = value & mask;
  bytes[byte] = static_cast<std::uint8_t>((bytes[byte] & ~(mask << shift)) | (v << shift));
  if (shift + bits > 8) {
    const unsigned spill = 8u - shift;  // bits already written to the first byte
    bytes[byte + 1] = static_cast<std::uint8_t>((bytes[byte + 1] & ~(mask >> spill)) | (v >> spill));
  }
}

/// Zeroes the unused high bits of the last byte of a packed buffer of `count` elements, so outputs are
/// deterministic even though set_packed() never wrote them.
inline void clear_padding_bits(void* base, std::int64_t count, std::size_t bits) noexcept {
  const std::uint64_t total = static_cast<std::uint64_t>(count) * bits;
  if (total & 7u) static_cast<std::uint8_t*>(base)[total >> 3] &= static_cast<std::uint8_t>((1u << (total & 7u)) - 1u);
}

/// Copies `count` elements of `bits` bits each from element `src_index` of `src` to element `dst_index` of
/// `dst` (buffers do not overlap). Whole-byte elements use memcpy; packed elements use memcpy for the whole
/// bytes when both runs start on a byte boundary, and go one by one otherwise.
inline void copy_elements(void* dst, std::int64_t dst_index, const void* src, std::int64_t src_index,
                          std::int64_t count, std::size_t bits) noexcept {
  if (count <= 0) return;
  if (bits >= 8) {
    const std::size_t bytes = bits / 8;
    std::memcpy(static_cast<unsigned char*>(dst) + static_cast<std::size_t>(dst_index) * bytes,
                static_cast<const unsigned char*>(src) + static_cast<std::size_t>(src_index) * bytes,
                static_cast<std::size_t>(count) * bytes);
    return;
  }
  std::int64_t done = 0;
  const std::uint64_t dst_bit = static_cast<std::uint64_t>(dst_index) * bits;
  const std::uint64_t src_bit = static_cast<std::uint64_t>(src_index) * bits;
  if ((dst_bit & 7u) == 0 && (src_bit & 7u) == 0) {
    // Elements per whole number of bytes: 2 for 4-bit, 4 for 2-bit and 6-bit.
    const std::int64_t group = bits == 4 ? 2 : (bits == 2 || bits == 6 ? 4 : 8);
    done = count / group * group;
    std::memcpy(static_cast<unsigned char*>(dst) + (dst_bit >> 3),
                static_cast<const unsigned char*>(src) + (src_bit >> 3),
                static_cast<std::size_t>(static_cast<std::uint64_t>(done) * bits / 8));
  }
  for (std::int64_t i = done; i < count; ++i) {
    set_packed(dst, dst_index + i, bits, get_packed(src, src_index + i, bits));
  }
}

}  // namespace shape_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
