// SPDX-License-Identifier: MIT
// Helpers shared by the indexing kernels (GatherElements, GatherND, Scatter*, TensorScatter, OneHot, Compress,
// NonZero, Unique, SpaceToDepth, DepthToSpace, ReverseSequence): element sizes for byte-wise moves, reading
// int32/int64 index buffers that may be unaligned, out-of-range errors that name the input, the position
// (as coordinates) and the value, the scatter reductions (none/add/mul/max/min) per dtype, and a strided
// 6-D permuted copy for the depth/space rearrangements.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "onnxmicro/kernels/common/shape_util.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace index_util {

/// Bytes per element of input `index` for kernels that move whole elements (a StringRef for strings: copies
/// of a string tensor share its characters). Fails (unsupported, naming the input) for the packed sub-byte
/// types and dtypes without a fixed size.
inline Status input_element_bytes(const PrepareContext& ctx, int index, std::size_t& bytes) noexcept {
  const TensorInfo& info = ctx.input(index);
  bytes = is_sub_byte(info.dtype) ? 0 : dtype_size(info.dtype);
  if (bytes != 0) return {};
  return ctx.unsupported_input_dtype(index);
}

/// Fails unless input `index` is int64, or (when `allow_int32`) int32; `role` names it ("indices").
inline Status check_index_dtype(const PrepareContext& ctx, int index, std::string_view role,
                                bool allow_int32) noexcept {
  const TensorInfo& info = ctx.input(index);
  if (info.dtype == DataType::int64 || (allow_int32 && info.dtype == DataType::int32)) return {};
  return ctx.input_error(index, role) << " has dtype " << dtype_name(info.dtype)
                                      << (allow_int32 ? ", expected int32 or int64" : ", expected int64");
}

/// Element `k` of an int64 (`is_int64`) or int32 buffer; memcpy because buffers may be unaligned constants.
inline std::int64_t read_index(const void* data, bool is_int64, std::int64_t k) noexcept {
  const unsigned char* bytes = static_cast<const unsigned char*>(data);
  if (is_int64) {
    std::int64_t v;
    std::memcpy(&v, bytes + k * 8, 8);
    return v;
  }
  std::int32_t v;
  std::memcpy(&v, bytes + k * 4, 4);
  return v;
}

/// Appends the coordinates of flat element `flat` of `shape` as "[1,0,2]".
inline Status& append_coordinates(Status& status, const Shape& shape, std::int64_t flat) noexcept {
  std::int64_t coords[kMaxRank] = {};
  for (int d = shape.rank() - 1; d >= 0; --d) {
    const std::int64_t dim = shape[d] > 0 ? shape[d] : 1;
    coords[d] = flat % dim;
    flat /= dim;
  }
  status << "[";
  for (int d = 0; d < shape.rank(); ++d) {
    if (d) status << ",";
    status << coords[d];
  }
  return status << "]";
}

/// The run-time error for an index outside [low, high]: names the input (its number and role, e.g. "indices"),
/// the element's coordinates in it, the value and the valid range. Callers may append what the index addresses.
inline Status index_out_of_range(int input, std::string_view role, const Shape& shape, std::int64_t flat,
                                 std::int64_t value, std::int64_t low, std::int64_t high) noexcept {
  Status status(StatusCode::out_of_range);
  status << "input " << input << " (" << role << ") element ";
  append_coordinates(status, shape, flat);
  status << " = " << value << " is out of range [" << low << ", " << high << "]";
  return status;
}

/// Row-major strides of `shape` in elements.
inline void strides_of(const Shape& shape, std::int64_t* strides) noexcept {
  std::int64_t s = 1;
  for (int d = shape.rank() - 1; d >= 0; --d) {
    strides[d] = s;
    s *= shape[d];
  }
}

/// Advances the row-major counter `coords` over `dims` (rank `rank`); false after the last element.
inline bool next_coordinates(std::int64_t* coords, const std::int64_t* dims, int rank) noexcept {
  for (int d = rank - 1; d >= 0; --d) {
    if (++coords[d] < dims[d]) return true;
    coords[d] = 0;
  }
  return false;
}

/// A tensor seen as [outer, n, inner] around the optional `axis` attribute (Compress, Unique).
struct AxisSplit {
  std::int64_t outer = 1;  ///< product of dims before the axis (1 when flattened)
  std::int64_t n = 0;      ///< the axis dim, or every element when flattened
  std::int64_t inner = 1;  ///< product of dims after the axis (1 when flattened)
  int axis = -1;           ///< -1: no `axis` attribute, the tensor is flattened
};

/// Reads the optional `axis` attribute for a tensor of `shape` (negative values only when `allow_negative`).
inline Status split_at_optional_axis(const PrepareContext& ctx, const Shape& shape, bool allow_negative,
                                     AxisSplit& out) noexcept {
  out = AxisSplit{};
  if (!ctx.has_attribute("axis")) {
    out.n = shape.element_count();
    return {};
  }
  std::int64_t axis_value = 0;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis_value, 0));
  ONNXMICRO_RETURN_IF_ERROR(
      shape_util::normalize_axis(axis_value, shape.rank(), "attribute 'axis'", allow_negative, out.axis));
  out.outer = shape_util::dims_product(shape, 0, out.axis);
  out.n = shape[out.axis];
  out.inner = shape_util::dims_product(shape, out.axis + 1, shape.rank());
  return {};
}

// ---- scatter reductions ----

enum class Reduction : std::uint8_t { none, add, mul, max, min };

/// The last reduction ScatterElements and ScatterND define at opset `since`: none before 16 (no `reduction`
/// attribute), mul from 16 (add, mul), min from 18 (max, min).
constexpr Reduction max_scatter_reduction(int since) noexcept {
  return since >= 18 ? Reduction::min : since >= 16 ? Reduction::mul : Reduction::none;
}

/// Reads the `reduction` attribute. `max_allowed` is the last reduction the version knows (16: mul, 18: min).
inline Status parse_reduction(const PrepareContext& ctx, Reduction max_allowed, Reduction& out) noexcept {
  std::string_view text;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("reduction", text, "none"));
  if (text == "none") {
    out = Reduction::none;
  } else if (text == "add") {
    out = Reduction::add;
  } else if (text == "mul") {
    out = Reduction::mul;
  } else if (text == "max") {
    out = Reduction::max;
  } else if (text == "min") {
    out = Reduction::min;
  } else {
    return Status(StatusCode::invalid_model)
           << "attribute 'reduction' is '" << text << "', expected one of none, add, mul"
           << (max_allowed == Reduction::min ? ", max, min" : "");
  }
  if (static_cast<int>(out) > static_cast<int>(max_allowed)) {
    return Status(StatusCode::invalid_model)
           << "attribute 'reduction' is '" << text << "', which this opset does not define (max/min: opset 18+)";
  }
  return {};
}

/// Combines `count` elements of `src` into `dst` (dst[i] = dst[i] (op) src[i]); buffers may be unaligned.
using CombineFunction = void (*)(void* dst, const void* src, std::int64_t count) noexcept;

template <typename T>
struct ReduceOps {
  static T apply(Reduction r, T a, T b) noexcept {
    switch (r) {
      case Reduction::add: return static_cast<T>(a + b);
      case Reduction::mul: return static_cast<T>(a * b);
      case Reduction::max: return a < b ? b : a;  // numpy maximum propagates NaN: a NaN `a` stays
      case Reduction::min: return b < a ? b : a;
      default: return b;
    }
  }
};
template <>
struct ReduceOps<bool> {
  // numpy on bool: + is or, * is and, max is or, min is and.
  static bool apply(Reduction r, bool a, bool b) noexcept {
    return (r == Reduction::add || r == Reduction::max) ? (a || b) : (a && b);
  }
};

/// A complex64 (Part = float) or complex128 (Part = double) element for the reductions: add/mul as complex
/// numbers, max/min ordered lexicographically (real part first), as numpy.maximum/minimum order them.
template <typename Part>
struct Complex {
  Part real;
  Part imag;
};
template <typename T>
struct IsComplex : std::false_type {};
template <typename Part>
struct IsComplex<Complex<Part>> : std::true_type {};

template <typename Part>
Complex<Part> reduce_complex(Reduction r, Complex<Part> a, Complex<Part> b) noexcept {
  switch (r) {
    case Reduction::add: return {a.real + b.real, a.imag + b.imag};
    case Reduction::mul: return {a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real};
    case Reduction::max: return (a.real < b.real || (a.real == b.real && a.imag < b.imag)) ? b : a;
    case Reduction::min: return (b.real < a.real || (b.real == a.real && b.imag < a.imag)) ? b : a;
    default: return b;
  }
}

template <typename T>
inline constexpr bool kComputedInFloat = std::is_same<T, float16_t>::value || std::is_same<T, bfloat16_t>::value;

// float16/bfloat16 are computed in float32 and rounded back.
template <typename T, Reduction R>
void combine(void* dst, const void* src, std::int64_t count) noexcept {
  using Compute = typename std::conditional<kComputedInFloat<T>, float, T>::type;
  unsigned char* d = static_cast<unsigned char*>(dst);
  const unsigned char* s = static_cast<const unsigned char*>(src);
  if constexpr (IsComplex<T>::value) {
    for (std::int64_t i = 0; i < count; ++i) {
      T a;
      T b;
      std::memcpy(&a, d + i * sizeof(T), sizeof(T));
      std::memcpy(&b, s + i * sizeof(T), sizeof(T));
      a = reduce_complex(R, a, b);
      std::memcpy(d + i * sizeof(T), &a, sizeof(T));
    }
  } else {
    for (std::int64_t i = 0; i < count; ++i) {
      T stored_a;
      T stored_b;
      std::memcpy(&stored_a, d + i * sizeof(T), sizeof(T));
      std::memcpy(&stored_b, s + i * sizeof(T), sizeof(T));
      Compute a;
      Compute b;
      if constexpr (kComputedInFloat<T>) {
        a = stored_a.to_float();
        b = stored_b.to_float();
      } else {
        a = stored_a;
        b = stored_b;
      }
      if constexpr ((R == Reduction::max || R == Reduction::min) && std::is_floating_point<Compute>::value) {
        if (b != b) a = b;  // a NaN update wins, as numpy.maximum/minimum propagate it
      }
      a = ReduceOps<Compute>::apply(R, a, b);
      if constexpr (kComputedInFloat<T>) {
        stored_a = T::from_float(a);
      } else {
        stored_a = a;
      }
      std::memcpy(d + i * sizeof(T), &stored_a, sizeof(T));
    }
  }
}

template <typename T>
CombineFunction combine_for(Reduction r) noexcept {
  switch (r) {
    case Reduction::add: return &combine<T, Reduction::add>;
    case Reduction::mul: return &combine<T, Reduction::mul>;
    case Reduction::max: return &combine<T, Reduction::max>;
    case Reduction::min: return &combine<T, Reduction::min>;
    default: return nullptr;
  }
}

/// The combine function for input `index`'s dtype and reduction `r` (nullptr for Reduction::none). Fails
/// (unsupported, naming the input) for dtypes without arithmetic here (strings).
inline Status combine_function(const PrepareContext& ctx, int index, Reduction r, CombineFunction& out) noexcept {
  out = nullptr;
  if (r == Reduction::none) return {};
  switch (compiled_dtype(ctx.input(index).dtype)) {
    case DataType::float32: out = combine_for<float>(r); break;
    case DataType::float64: out = combine_for<double>(r); break;
    case DataType::float16: out = combine_for<float16_t>(r); break;
    case DataType::bfloat16: out = combine_for<bfloat16_t>(r); break;
    case DataType::int8: out = combine_for<std::int8_t>(r); break;
    case DataType::int16: out = combine_for<std::int16_t>(r); break;
    case DataType::int32: out = combine_for<std::int32_t>(r); break;
    case DataType::int64: out = combine_for<std::int64_t>(r); break;
    case DataType::uint8: out = combine_for<std::uint8_t>(r); break;
    case DataType::uint16: out = combine_for<std::uint16_t>(r); break;
    case DataType::uint32: out = combine_for<std::uint32_t>(r); break;
    case DataType::uint64: out = combine_for<std::uint64_t>(r); break;
    case DataType::boolean: out = combine_for<bool>(r); break;
    case DataType::complex64: out = combine_for<Complex<float>>(r); break;
    case DataType::complex128: out = combine_for<Complex<double>>(r); break;
    default: {
      return ctx.input_error(index, {}, StatusCode::unsupported)
             << " has dtype " << dtype_name(ctx.input(index).dtype)
             << ", for which this kernel has no add/mul/max/min reduction";
    }
  }
  return {};
}

/// Checks the inputs every scatter shares: data, indices and updates present, data of a fixed-size dtype and
/// updates of the same, indices int64 (or int32 when `allow_int32`), and the `reduction` attribute when the
/// version has one (`max_reduction` != none). Fills the element size and the combine function.
inline Status prepare_scatter_inputs(const PrepareContext& ctx, Reduction max_reduction, bool allow_int32,
                                     std::size_t& element_bytes, CombineFunction& combine) noexcept {
  for (int i = 0; i <= 2; ++i) ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(i));
  ONNXMICRO_RETURN_IF_ERROR(input_element_bytes(ctx, 0, element_bytes));
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(0, 2));
  ONNXMICRO_RETURN_IF_ERROR(check_index_dtype(ctx, 1, "indices", allow_int32));
  Reduction reduction = Reduction::none;
  if (max_reduction != Reduction::none) ONNXMICRO_RETURN_IF_ERROR(parse_reduction(ctx, max_reduction, reduction));
  return combine_function(ctx, 0, reduction, combine);
}

/// Writes `count` elements of `source` to `target`, combined by `combine` (nullptr: plain assignment).
inline void scatter_store(void* target, const void* source, std::int64_t count, std::size_t element_bytes,
                          CombineFunction combine) noexcept {
  if (combine != nullptr) {
    combine(target, source, count);
  } else if (count > 0) {
    std::memcpy(target, source, static_cast<std::size_t>(count) * element_bytes);
  }
}

// ---- GatherElements / ScatterElements addressing ----

/// What GatherElements and ScatterElements need to map an indices element to the data element it addresses.
struct ElementsAddressing {
  std::int64_t data_strides[kMaxRank];
  bool indices_are_int64;
  int axis;
};

/// Validates data (input 0, rank >= 1), indices (input 1: int32/int64, data's rank, no dim above data's outside
/// the axis) and the `axis` attribute (negative counts from the back), and fills `out`.
inline Status prepare_elements_addressing(const PrepareContext& ctx, ElementsAddressing& out) noexcept {
  const TensorInfo& data = ctx.input(0);
  const TensorInfo& indices = ctx.input(1);
  ONNXMICRO_RETURN_IF_ERROR(check_index_dtype(ctx, 1, "indices", true));
  const int rank = data.shape.rank();
  if (rank == 0) {
    return ctx.input_error(0) << " is a scalar; expected rank >= 1";
  }
  if (indices.shape.rank() != rank) {
    return ctx.input_error(1) << " has shape " << indices.shape << ", expected rank " << rank
                              << " (the rank of input 0, shape " << data.shape << ")";
  }
  std::int64_t axis_value = 0;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", axis_value, 0));
  int axis = 0;
  ONNXMICRO_RETURN_IF_ERROR(shape_util::normalize_axis(axis_value, rank, "attribute 'axis'", true, axis));
  for (int d = 0; d < rank; ++d) {
    if (d != axis && indices.shape[d] > data.shape[d]) {
      return ctx.input_error(1) << " has shape " << indices.shape << ": dim " << d << " is larger than input 0's "
                                << data.shape;
    }
  }
  strides_of(data.shape, out.data_strides);
  out.indices_are_int64 = indices.dtype == DataType::int64;
  out.axis = axis;
  return {};
}

/// Calls visit(k, offset) for every indices element k (row-major) with the flat data element it addresses;
/// stops with an out_of_range error, before visiting, at the first index outside the axis.
template <typename Visit>
Status for_each_addressed_element(const ElementsAddressing& a, const ConstTensorView& data,
                                  const ConstTensorView& indices, Visit&& visit) noexcept {
  const std::int64_t count = indices.element_count();
  const int rank = indices.shape.rank();
  const std::int64_t axis_size = data.shape[a.axis];
  std::int64_t coords[kMaxRank] = {};
  for (std::int64_t k = 0; k < count; ++k) {
    std::int64_t index = read_index(indices.data, a.indices_are_int64, k);
    if (index < -axis_size || index >= axis_size) {
      return index_out_of_range(1, "indices", indices.shape, k, index, -axis_size, axis_size - 1)
             << " of data axis " << a.axis;
    }
    if (index < 0) index += axis_size;
    std::int64_t offset = 0;
    for (int d = 0; d < rank; ++d) offset += (d == a.axis ? index : coords[d]) * a.data_strides[d];
    visit(k, offset);
    next_coordinates(coords, indices.shape.data(), rank);
  }
  return {};
}

// ---- GatherND / ScatterND addressing ----

/// Flat data offset of the slice addressed by the index tuple at indices[k .. k+length) (int64), where tuple
/// entry j indexes a dim of size dims[j] and stride strides[j] (data dim first_dim + j); negative entries count
/// from the back. An entry outside its dim is an out_of_range error naming the indices element (input 1).
inline Status tuple_offset(const ConstTensorView& indices, std::int64_t k, std::int64_t length,
                           const std::int64_t* dims, const std::int64_t* strides, int first_dim,
                           std::int64_t& offset) noexcept {
  offset = 0;
  for (std::int64_t j = 0; j < length; ++j) {
    std::int64_t index = read_index(indices.data, true, k + j);
    const std::int64_t dim = dims[j];
    if (index < -dim || index >= dim) {
      return index_out_of_range(1, "indices", indices.shape, k + j, index, -dim, dim - 1)
             << " of data dim " << (first_dim + j);
    }
    if (index < 0) index += dim;
    offset += index * strides[j];
  }
  return {};
}

// ---- permuted copy (DepthToSpace, SpaceToDepth) ----

/// Copies `src`, viewed as a row-major tensor of the 6 dims `dims`, to `dst` transposed by `perm` (output dim
/// i is input dim perm[i]); elements are `element_bytes` wide.
inline void permute6(const void* src, void* dst, const std::int64_t* dims, const int* perm,
                     std::size_t element_bytes) noexcept {
  std::int64_t src_strides[6];
  std::int64_t s = 1;
  for (int d = 5; d >= 0; --d) {
    src_strides[d] = s;
    s *= dims[d];
  }
  if (s == 0) return;
  std::int64_t out_dims[6];
  std::int64_t strides[6];
  for (int i = 0; i < 6; ++i) {
    out_dims[i] = dims[perm[i]];
    strides[i] = src_strides[perm[i]];
  }
  std::int64_t coords[6] = {};
  const unsigned char* in = static_cast<const unsigned char*>(src);
  unsigned char* out = static_cast<unsigned char*>(dst);
  std::int64_t offset = 0;  // source element of `coords`
  std::int64_t o = 0;
  do {
    std::memcpy(out + static_cast<std::size_t>(o++) * element_bytes,
                in + static_cast<std::size_t>(offset) * element_bytes, element_bytes);
    // Advance the counter and keep the source offset in step.
    for (int d = 5; d >= 0; --d) {
      offset += strides[d];
      if (++coords[d] < out_dims[d]) break;
      offset -= strides[d] * out_dims[d];
      coords[d] = 0;
      if (d == 0) offset = -1;
    }
  } while (offset >= 0);
}

}  // namespace index_util
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
