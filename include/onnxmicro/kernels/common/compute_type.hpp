// SPDX-License-Identifier: MIT
// The type a kernel computes in for each storage type: float16/bfloat16 are widened to float32 and rounded
// once on store (widen/narrow), and float inputs of any float dtype are loaded into one accumulator type
// (load_floating/store_floating). Used by the conv, pool, normalisation, matrix and quantized kernels and by
// the GEMM engine (kernels/common/gemm.hpp).
#pragma once
#include <cstdint>
#include <type_traits>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace compute_type {

/// True for the 16-bit float storage types, which are computed in float32.
template <typename T>
constexpr bool kIsHalf = std::is_same<T, float16_t>::value || std::is_same<T, bfloat16_t>::value;

/// The type arithmetic on T is done in: float for float16/bfloat16, T itself otherwise.
template <typename T>
using ComputeType = std::conditional_t<kIsHalf<T>, float, T>;

/// T -> its compute type.
template <typename T>
inline ComputeType<T> widen(T value) noexcept {
  if constexpr (kIsHalf<T>) {
    return value.to_float();
  } else {
    return value;
  }
}

/// Compute type -> T (rounds to nearest even for the half types).
template <typename T>
inline T narrow(ComputeType<T> value) noexcept {
  if constexpr (kIsHalf<T>) {
    return T::from_float(value);
  } else {
    return value;
  }
}

/// True for the float dtypes load_floating() reads.
constexpr bool is_loadable_floating(DataType dtype) noexcept {
  return dtype == DataType::float32 || dtype == DataType::float64 || dtype == DataType::float16 ||
         dtype == DataType::bfloat16;
}

/// Converts `count` elements of floating dtype `dtype` (see is_loadable_floating) at `src` into `dst`.
template <typename Acc>
inline void load_floating(DataType dtype, const void* src, Acc* dst, std::int64_t count) noexcept {
  switch (compiled_dtype(dtype)) {
    case DataType::float32: {
      const float* p = static_cast<const float*>(src);
      for (std::int64_t i = 0; i < count; ++i) dst[i] = static_cast<Acc>(p[i]);
      break;
    }
    case DataType::float64: {
      const double* p = static_cast<const double*>(src);
      for (std::int64_t i = 0; i < count; ++i) dst[i] = static_cast<Acc>(p[i]);
      break;
    }
    case DataType::float16: {
      const float16_t* p = static_cast<const float16_t*>(src);
      for (std::int64_t i = 0; i < count; ++i) dst[i] = static_cast<Acc>(p[i].to_float());
      break;
    }
    case DataType::bfloat16: {
      const bfloat16_t* p = static_cast<const bfloat16_t*>(src);
      for (std::int64_t i = 0; i < count; ++i) dst[i] = static_cast<Acc>(p[i].to_float());
      break;
    }
    default: break;  // prepare() admits only the dtypes above
  }
}

/// Writes `count` values of `src` as floating dtype `dtype` (see is_loadable_floating) into `dst`.
template <typename Acc>
inline void store_floating(DataType dtype, const Acc* src, void* dst, std::int64_t count) noexcept {
  switch (compiled_dtype(dtype)) {
    case DataType::float32: {
      float* p = static_cast<float*>(dst);
      for (std::int64_t i = 0; i < count; ++i) p[i] = static_cast<float>(src[i]);
      break;
    }
    case DataType::float64: {
      double* p = static_cast<double*>(dst);
      for (std::int64_t i = 0; i < count; ++i) p[i] = static_cast<double>(src[i]);
      break;
    }
    case DataType::float16: {
      float16_t* p = static_cast<float16_t*>(dst);
      for (std::int64_t i = 0; i < count; ++i) p[i] = float16_t::from_float(static_cast<float>(src[i]));
      break;
    }
    case DataType::bfloat16: {
      bfloat16_t* p = static_cast<bfloat16_t*>(dst);
      for (std::int64_t i = 0; i < count; ++i) p[i] = bfloat16_t::from_float(static_cast<float>(src[i]));
      break;
    }
    default: break;
  }
}

}  // namespace compute_type
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
