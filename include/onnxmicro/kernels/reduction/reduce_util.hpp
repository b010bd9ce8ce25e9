// SPDX-License-Identifier: MIT
// The engine behind every Reduce* kernel. prepare() reads the axes (attribute up to ReduceSum-12 / the others-17,
// constant input afterwards), computes the output shape (keepdims, noop_with_empty_axes) and a plan: the input's
// dims split into kept and reduced groups, with size-1 dims dropped and neighbours of the same kind merged, so
// run() walks each output element's reduced elements with a small odometer. The op only says how one slice
// reduces (ReduceOp::reduce, see below); a slice with no element gives the op's empty-set value (sum 0,
// prod 1, max the lowest value, log-sum -inf, ...), as in the ONNX reference.
//
//   struct SumOp {
//     using Types = TypeList<float, ...>;                                  // every dtype of any version
//     static bool allows(DataType dtype, std::int64_t opset) noexcept;      // dtype list of that opset
//     template <typename T> static T reduce(const T* base, const ReducePlan& plan) noexcept;
//   };
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "onnxmicro/kernels/common/axis_slices.hpp"
#include "onnxmicro/kernels/common/elementwise.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

/// How run() walks the input: output element o (row-major over the kept groups) reduces the elements at
/// base(o) + sum(j_r * reduced_strides[r]) for every j_r < reduced_dims[r].
struct ReducePlan {
  int kept_rank = 0;
  int reduced_rank = 0;
  std::int64_t kept_dims[kMaxRank] = {};
  std::int64_t kept_strides[kMaxRank] = {};  ///< input element strides
  std::int64_t reduced_dims[kMaxRank] = {};
  std::int64_t reduced_strides[kMaxRank] = {};
  std::int64_t output_count = 1;
  std::int64_t reduced_count = 1;  ///< elements per slice (0: every slice is the empty set)
};

/// Calls f(element) for every element of the slice starting at `base`. The innermost reduced group is a tight
/// strided loop; the outer groups use an odometer.
template <typename T, typename F>
inline void for_each_reduced(const T* base, const ReducePlan& plan, F&& f) noexcept {
  if (plan.reduced_count == 0) return;
  if (plan.reduced_rank == 0) {
    f(base[0]);
    return;
  }
  const int last = plan.reduced_rank - 1;
  const std::int64_t inner_dim = plan.reduced_dims[last];
  const std::int64_t inner_stride = plan.reduced_strides[last];
  std::int64_t counter[kMaxRank] = {};
  std::int64_t offset = 0;
  for (;;) {
    const T* p = base + offset;
    if (inner_stride == 1) {
      for (std::int64_t j = 0; j < inner_dim; ++j) f(p[j]);
    } else {
      for (std::int64_t j = 0; j < inner_dim; ++j) f(p[j * inner_stride]);
    }
    int r = last - 1;
    for (; r >= 0; --r) {
      offset += plan.reduced_strides[r];
      if (++counter[r] < plan.reduced_dims[r]) break;
      offset -= plan.reduced_strides[r] * plan.reduced_dims[r];
      counter[r] = 0;
    }
    if (r < 0) return;
  }
}

namespace reduce_detail {

template <typename T>
constexpr bool is_float_type() noexcept {
  return std::is_floating_point_v<T> || std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>;
}

template <typename T, typename Op>
void reduce_all(const ReducePlan& plan, const void* x, void* y) noexcept {
  const T* in = static_cast<const T*>(x);
  T* out = static_cast<T*>(y);
  std::int64_t counter[kMaxRank] = {};
  std::int64_t base = 0;
  const int last = plan.kept_rank - 1;
  for (std::int64_t o = 0; o < plan.output_count; ++o) {
    out[o] = Op::template reduce<T>(in + base, plan);
    for (int k = last; k >= 0; --k) {
      base += plan.kept_strides[k];
      if (++counter[k] < plan.kept_dims[k]) break;
      base -= plan.kept_strides[k] * plan.kept_dims[k];
      counter[k] = 0;
    }
  }
}

}  // namespace reduce_detail

/// The dtypes of ReduceSum/Mean/Prod/L1/L2/SumSquare/LogSum/LogSumExp across all their versions.
using ReduceBaseTypes =
    TypeList<float, double, float16_t, bfloat16_t, std::int32_t, std::int64_t, std::uint32_t, std::uint64_t>;

/// The common dtype list of the Reduce* ops that did not change it beyond bfloat16 (Sum, Mean, Prod, L1, L2,
/// SumSquare, and LogSum/LogSumExp before 28): float, double, float16, int32/64, uint32/64; bfloat16 from 13.
inline bool reduce_base_dtype_allowed(DataType dtype, std::int64_t opset) noexcept {
  switch (compiled_dtype(dtype)) {
    case DataType::float32:
    case DataType::float64:
    case DataType::float16:
    case DataType::int32:
    case DataType::int64:
    case DataType::uint32:
    case DataType::uint64: return true;
    case DataType::bfloat16: return opset >= 13;  // bfloat16: added in opset 13
    default: return false;
  }
}

/// Body of the Reduce* kernels, usable directly as a VersionedKernel's Impl:
/// `using ReduceSum_13 = VersionedKernel<ReduceKernel<ReduceSumOp>, 13>;`. From Op::kAxesInputSince on, the axes
/// come from optional input 1 (with noop_with_empty_axes) instead of the `axes` attribute.
template <typename Op>
struct ReduceKernel : KernelDefaults {
  static constexpr std::string_view kOpType = Op::kOpType;
  static constexpr int kInput = 0;
  static constexpr int kAxesInputIndex = 1;
  static constexpr int kOutput = 0;

  struct State {
    ReducePlan plan;
    bool copy_input;  ///< noop_with_empty_axes with no axes: output = input
    void (*compute)(const ReducePlan& plan, const void* x, void* y) noexcept;
  };

  /// `since`: the first version of the kernel's range (VersionedKernel passes it).
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    ONNXMICRO_RETURN_IF_ERROR(axis_slices::require_static_shape(ctx, kInput));
    const TensorInfo& data = ctx.input(kInput);
    const Shape& shape = data.shape;
    const int rank = shape.rank();
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    if (!Op::allows(data.dtype, ctx.opset_version())) return ctx.unsupported_input_dtype(kInput);
    const bool supported = visit_dtype(data.dtype, typename Op::Types{}, [&](auto tag) noexcept {
      state->compute = &reduce_detail::reduce_all<typename decltype(tag)::type, Op>;
    });
    if (!supported) return ctx.unsupported_input_dtype(kInput);

    std::int64_t keepdims = 1;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("keepdims", keepdims, 1));
    std::int64_t axes[kMaxRank] = {};
    std::size_t axis_count = 0;
    bool noop_with_empty_axes = false;
    const char* axes_name = "attribute 'axes'";
    if (since >= Op::kAxesInputSince) {
      std::int64_t noop = 0;
      ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("noop_with_empty_axes", noop, 0));
      noop_with_empty_axes = noop != 0;
      if (ctx.has_input(kAxesInputIndex)) {
        axes_name = "input 1 'axes'";
        // Shape-deciding: the axes must be known at prepare time.
        ONNXMICRO_RETURN_IF_ERROR(shape_util_read_axes(ctx, axes, static_cast<std::size_t>(kMaxRank), axis_count));
      }
    } else {
      bool present = false;
      ONNXMICRO_RETURN_IF_ERROR(
          ctx.attribute_ints("axes", axes, static_cast<std::size_t>(kMaxRank), axis_count, present));
    }

    bool reduced[kMaxRank] = {};
    for (std::size_t i = 0; i < axis_count; ++i) {
      int axis = 0;
      // negative axes: allowed from opset 11
      ONNXMICRO_RETURN_IF_ERROR(axis_slices::normalize(axes[i], shape, axes_name, ctx.opset_version() >= 11, 0, axis));
      if (reduced[axis]) {
        Status s = Status(StatusCode::invalid_model) << axes_name << " lists axis " << axis << " twice: ";
        return append_list(s, axes, axis_count);
      }
      reduced[axis] = true;
    }
    if (axis_count == 0) {
      if (noop_with_empty_axes) {
        state->copy_input = true;
        ctx.set_output(kOutput, data.dtype, shape);
        return {};
      }
      for (int i = 0; i < rank; ++i) reduced[i] = true;  // no axes: reduce everything
    }

    Shape out_shape;
    int out_rank = 0;
    for (int i = 0; i < rank; ++i) {
      if (!reduced[i]) {
        out_shape.resize(out_rank + 1);
        out_shape[out_rank++] = shape[i];
      } else if (keepdims != 0) {
        out_shape.resize(out_rank + 1);
        out_shape[out_rank++] = 1;
      }
    }
    build_plan(shape, reduced, state->plan);
    ctx.set_output(kOutput, data.dtype, out_shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    if (state.copy_input) {
      const ConstTensorView& in = ctx.input(kInput);
      if (ctx.output(kOutput).data != in.data && in.byte_size() != 0) {
        std::memcpy(ctx.output(kOutput).data, in.data, in.byte_size());
      }
      return {};
    }
    state.compute(state.plan, ctx.input(kInput).data, ctx.output(kOutput).data);
    return {};
  }

  /// Splits `shape` into merged kept/reduced groups (size-1 dims dropped: they change no offset).
  static void build_plan(const Shape& shape, const bool* reduced, ReducePlan& plan) noexcept {
    plan = ReducePlan{};
    std::int64_t stride = 1;
    // Walk from the innermost dim out, then reverse, so strides are known as we go.
    int last_kind = -1;  // 0 kept, 1 reduced
    for (int i = shape.rank() - 1; i >= 0; --i) {
      const std::int64_t dim = shape[i];
      const int kind = reduced[i] ? 1 : 0;
      if (kind == 1) {
        plan.reduced_count *= dim;
      } else {
        plan.output_count *= dim;
      }
      if (dim != 1) {
        std::int64_t* dims = kind ? plan.reduced_dims : plan.kept_dims;
        std::int64_t* strides = kind ? plan.reduced_strides : plan.kept_strides;
        int& count = kind ? plan.reduced_rank : plan.kept_rank;
        if (kind == last_kind && count > 0 && strides[count - 1] * dims[count - 1] == stride) {
          dims[count - 1] *= dim;  // contiguous with the group just inside it: merge
        } else {
          dims[count] = dim;
          strides[count] = stride;
          ++count;
        }
        last_kind = kind;
      }
      stride *= dim;
    }
    reverse(plan.kept_dims, plan.kept_rank);
    reverse(plan.kept_strides, plan.kept_rank);
    reverse(plan.reduced_dims, plan.reduced_rank);
    reverse(plan.reduced_strides, plan.reduced_rank);
  }

 private:
  static void reverse(std::int64_t* v, int n) noexcept {
    for (int i = 0, j = n - 1; i < j; ++i, --j) {
      const std::int64_t t = v[i];
      v[i] = v[j];
      v[j] = t;
    }
  }
  static Status& append_list(Status& s, const std::int64_t* values, std::size_t count) noexcept {
    s << "[";
    for (std::size_t i = 0; i < count; ++i) {
      if (i) s << ",";
      s << values[i];
    }
    return s << "]";
  }
  /// Reads the constant axes input (int64, 0-D or 1-D).
  static Status shape_util_read_axes(PrepareContext& ctx, std::int64_t* axes, std::size_t capacity,
                                     std::size_t& count) noexcept {
    count = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(kAxesInputIndex));
    const TensorInfo& info = ctx.input(kAxesInputIndex);
    if (info.dtype != DataType::int64) {
      return ctx.input_error(kAxesInputIndex, "axes") << " has dtype " << dtype_name(info.dtype) << ", expected int64";
    }
    if (info.shape.rank() > 1) {
      return ctx.input_error(kAxesInputIndex, "axes") << " must be 1-D, got shape " << info.shape;
    }
    const std::int64_t n = info.shape.element_count();
    if (n < 0 || static_cast<std::uint64_t>(n) > capacity) {
      return ctx.input_error(kAxesInputIndex, "axes")
             << " has " << n << " values, more than the input rank " << capacity;
    }
    // memcpy: constant data may point into the model bytes, unaligned.
    for (std::int64_t i = 0; i < n; ++i)
      std::memcpy(&axes[i], static_cast<const unsigned char*>(info.const_data) + i * 8, 8);
    count = static_cast<std::size_t>(n);
    return {};
  }
};

// ---- the reduce operations ------------------------------------------------------------------------------

namespace reduce_util {

/// Accumulator of the summing ops: float for 16-bit floats, double for double, T for integers (which wrap
/// modulo 2^bits like numpy).
template <typename T>
using sum_t = std::conditional_t<reduce_detail::is_float_type<T>(), compute_t<T>, T>;

template <typename A>
constexpr A add(A a, A b) noexcept {
  if constexpr (std::is_integral_v<A>) {
    return wrapping_add(a, b);
  } else {
    return a + b;
  }
}
template <typename A>
constexpr A mul(A a, A b) noexcept {
  if constexpr (std::is_integral_v<A>) {
    return wrapping_mul(a, b);
  } else {
    return a * b;
  }
}
template <typename A>
constexpr A absolute(A a) noexcept {
  if constexpr (std::is_unsigned_v<A>) {
    return a;
  } else if constexpr (std::is_integral_v<A>) {
    return a < 0 ? wrapping_sub(A(0), a) : a;
  } else {
    return std::fabs(a);
  }
}

/// Stores a real result (double or float) into T; integers truncate toward zero like numpy's astype.
template <typename T, typename R>
inline T store_real(R value) noexcept {
  if constexpr (reduce_detail::is_float_type<T>()) {
    return store_element<T>(static_cast<compute_t<T>>(value));
  } else {
    return static_cast<T>(value);
  }
}

/// Real-valued accumulator of the ops that end in a division, root or log: compute_t for floats, double for
/// integers.
template <typename T>
using real_t = std::conditional_t<reduce_detail::is_float_type<T>(), compute_t<T>, double>;

template <typename T>
inline sum_t<T> plain_sum(const T* base, const ReducePlan& plan) noexcept {
  sum_t<T> acc = 0;
  for_each_reduced(base, plan, [&](T v) noexcept { acc = add(acc, static_cast<sum_t<T>>(load_element(v))); });
  return acc;
}

}  // namespace reduce_util

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
