// SPDX-License-Identifier: MIT
// Building blocks for elementwise kernels: per-dtype dispatch at prepare time, the compute type of each
// element type (16-bit floats compute in float32 and round to nearest even on store), and two kernel bodies:
//
//   UnaryElementwise<Op, Types>        y = Op::apply(x), same dtype and shape; safe in place.
//   BinaryElementwise<Op, Types>       y = Op::apply(a, b) with numpy broadcasting (opset >= 7) or the
//                                       legacy `broadcast`/`axis` attributes of opset 1-6 arithmetic.
//
// Each version of an op is one VersionedKernel alias of the body instantiated with the op's policy:
//
//   using Sigmoid_6 = VersionedKernel<UnaryElementwise<SigmoidOp, FloatTypes>, 6>;
//
// Op is a struct of static members:
//   both:   static constexpr std::string_view kOpType = "Sigmoid";     // the op it computes (ai.onnx)
//   unary:  using Params = <trivially destructible struct with    // parsed attributes; NoParams when none
//                           static Status parse(const PrepareContext&, Params&) noexcept>;
//           template <typename C> static C apply(C x, const Params&) noexcept;
//   binary: template <typename C> static R apply(C a, C b) noexcept;   // R = C, or bool (output dtype bool)
// where C = compute_t<T>: T itself (so integer ops see the real integer type), or float for float16/bfloat16.
#pragma once
#include <cstdint>
#include <type_traits>

#include "onnxmicro/kernels/common/broadcast.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

// ---- per-dtype dispatch ---------------------------------------------------------------------------------

/// A list of element types a kernel accepts.
template <typename... Ts>
struct TypeList {};
/// The first type of a TypeList.
template <typename List>
struct FirstType;
template <typename T, typename... Rest>
struct FirstType<TypeList<T, Rest...>> {
  using type = T;
};
template <typename List>
using first_type_t = typename FirstType<List>::type;
/// Carries a type into a generic lambda: [&](auto tag) { using T = typename decltype(tag)::type; ... }.
template <typename T>
struct TypeTag {
  using type = T;
};

using FloatTypes = TypeList<float, double, float16_t, bfloat16_t>;
using SignedIntegerTypes = TypeList<std::int8_t, std::int16_t, std::int32_t, std::int64_t>;
using UnsignedIntegerTypes = TypeList<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>;
/// Every real numeric dtype: the arithmetic ops' list since opset 14.
using NumericTypes = TypeList<float, double, float16_t, bfloat16_t, std::int8_t, std::int16_t, std::int32_t,
                              std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>;

/// visit_dtype's step for one T. Compiled-out dtypes (dtype_enabled) are skipped at compile time, so the
/// visitor is never instantiated for them and their code is not in the binary.
template <typename T, typename Visitor>
bool visit_dtype_one([[maybe_unused]] DataType dtype, [[maybe_unused]] Visitor& visitor) noexcept {
  if constexpr (dtype_enabled(dtype_of<T>::value)) {
    if (dtype == dtype_of<T>::value) {
      visitor(TypeTag<T>{});
      return true;
    }
  }
  return false;
}

/// Calls `visitor(TypeTag<T>{})` for the T of `Types` whose dtype is `dtype`; false when none matches.
template <typename... Ts, typename Visitor>
bool visit_dtype(DataType dtype, TypeList<Ts...>, Visitor&& visitor) noexcept {
  return (false || ... || visit_dtype_one<Ts>(dtype, visitor));
}

// ---- compute types --------------------------------------------------------------------------------------

/// The type arithmetic on T is done in: float for the 16-bit floats, T otherwise.
template <typename T>
struct ComputeType {
  using type = T;
};
template <>
struct ComputeType<float16_t> {
  using type = float;
};
template <>
struct ComputeType<bfloat16_t> {
  using type = float;
};
template <typename T>
using compute_t = typename ComputeType<T>::type;

/// Widens an element to its compute type.
template <typename T>
inline compute_t<T> load_element(T value) noexcept {
  if constexpr (std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>) {
    return value.to_float();
  } else {
    return value;
  }
}
/// Narrows a compute value back to T (16-bit floats: round to nearest even).
template <typename T>
inline T store_element(compute_t<T> value) noexcept {
  if constexpr (std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>) {
    return T::from_float(value);
  } else {
    return static_cast<T>(value);
  }
}

/// Integer arithmetic that wraps modulo 2^bits like numpy, without signed-overflow UB: computes in an
/// unsigned type at least as wide as unsigned int (so uint16 * uint16 cannot overflow a promoted int).
template <typename T>
using wrapping_t = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
template <typename T>
constexpr T wrapping_add(T a, T b) noexcept {
  return static_cast<T>(static_cast<wrapping_t<T>>(a) + static_cast<wrapping_t<T>>(b));
}
template <typename T>
constexpr T wrapping_sub(T a, T b) noexcept {
  return static_cast<T>(static_cast<wrapping_t<T>>(a) - static_cast<wrapping_t<T>>(b));
}
template <typename T>
constexpr T wrapping_mul(T a, T b) noexcept {
  return static_cast<T>(static_cast<wrapping_t<T>>(a) * static_cast<wrapping_t<T>>(b));
}

// ---- unary ----------------------------------------------------------------------------------------------

/// Op::Params for ops without attributes.
struct NoParams {
  static Status parse(const PrepareContext&, NoParams&) noexcept { return {}; }
};

/// An op with a float32 array form on the session's instruction set (kernels/common/vector_math.hpp) declares
///   static void apply_float(Isa isa, const float* x, float* y, std::int64_t n) noexcept;
/// UnaryElementwise then runs float32 tensors through it on AVX2/AVX-512 (hosted x86-64 builds).
template <typename Op, typename = void>
struct HasFloatArrayForm : std::false_type {};
template <typename Op>
struct HasFloatArrayForm<Op, std::void_t<decltype(&Op::apply_float)>> : std::true_type {};

/// Body of a unary elementwise kernel (see the file comment). Output 0 has input 0's dtype and shape; run()
/// is correct when input and output alias (each element is read before it is written).
template <typename Op, typename Types>
struct UnaryElementwise : KernelDefaults {
  static constexpr std::string_view kOpType = Op::kOpType;
  static constexpr int kInPlaceInput = 0;
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;
  using Params = typename Op::Params;

  // Params as a base: an op without attributes (NoParams) then adds nothing to the node's state (metadata RAM).
  struct State : Params {
    void (*compute)(const void* x, void* y, std::int64_t count, const Params& params) noexcept;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    ONNXMICRO_RETURN_IF_ERROR(Params::parse(ctx, static_cast<Params&>(*state)));
    const bool supported = visit_dtype(ctx.input(kInput).dtype, Types{}, [&](auto tag) noexcept {
      state->compute = &compute<typename decltype(tag)::type>;
    });
    if (!supported) return ctx.unsupported_input_dtype(kInput);
#if ONNXMICRO_ENABLE_ISA_DISPATCH
    if constexpr (HasFloatArrayForm<Op>::value) {
      if (ctx.input(kInput).dtype == DataType::float32 && ctx.isa() != Isa::baseline) {
        state->compute = ctx.isa() == Isa::avx512 ? &compute_float_array<Isa::avx512> : &compute_float_array<Isa::avx2>;
      }
    }
#endif
    ctx.set_output(kOutput, ctx.input(kInput).dtype, ctx.input(kInput).shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(ctx.input(kInput).data, ctx.output(kOutput).data, ctx.input(kInput).element_count(),
                  static_cast<const Params&>(state));
    return {};
  }

  template <typename T>
  static void compute(const void* x, void* y, std::int64_t count, const Params& params) noexcept {
    const T* in = static_cast<const T*>(x);
    T* out = static_cast<T*>(y);
    const Params local = params;  // a local copy cannot alias `out`, so the loop vectorises
    for (std::int64_t i = 0; i < count; ++i) out[i] = store_element<T>(Op::apply(load_element(in[i]), local));
  }

  /// float32 through Op::apply_float on instruction set kIsa (chosen at prepare: the state keeps no Isa).
  template <Isa kIsa>
  static void compute_float_array(const void* x, void* y, std::int64_t count, const Params&) noexcept {
    Op::apply_float(kIsa, static_cast<const float*>(x), static_cast<float*>(y), count);
  }
};

// ---- binary ---------------------------------------------------------------------------------------------

namespace elementwise_detail {

/// The first opset whose binary arithmetic and logic ops broadcast as numpy does (Add, Sub, Mul, Div, Pow, And,
/// Or, Xor, Equal, Less, Greater); before it they take the legacy `broadcast`/`axis` attributes.
constexpr int kLegacyBroadcastUntil = 7;

/// Opset 1-6 arithmetic and logic (opset < kLegacyBroadcastUntil): B must equal A's shape unless attribute
/// broadcast=1, which lets B (a scalar, or a contiguous run of A's dims starting at attribute `axis`, suffix by
/// default) repeat over A; the output has A's shape. Rewrites B's shape to A's rank (1s outside
/// [axis, axis + rank(B))) so the numpy plan applies. One function for every op: it does not depend on the op.
inline Status legacy_broadcast_shape(const PrepareContext& ctx, Shape& b) noexcept {
  constexpr int kInputA = 0;
  constexpr int kInputB = 1;
  const TensorInfo& in_a = ctx.input(kInputA);
  const TensorInfo& in_b = ctx.input(kInputB);
  const Shape& a = in_a.shape;
  std::int64_t broadcast = 0;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("broadcast", broadcast, 0));
  if (broadcast != 0 && broadcast != 1) {
    return Status(StatusCode::invalid_model) << "attribute 'broadcast' is " << broadcast << ", expected 0 or 1";
  }
  if (broadcast == 0) {
    if (a == b) return {};
    return ctx.input_error(kInputB) << " has shape " << b << ", expected " << a << " (same as input 0 '" << in_a.name
                                    << "': attribute 'broadcast' is 0, and opset < 7 broadcasts only with broadcast=1)";
  }
  if (b.rank() > a.rank()) {
    return ctx.input_error(kInputB) << " has shape " << b << ", whose rank exceeds input 0 '" << in_a.name << "' shape "
                                    << a << " (opset < 7 broadcasts input 1 onto input 0)";
  }
  std::int64_t axis = a.rank() - b.rank();  // suffix matching by default
  if (ctx.has_attribute("axis")) {
    std::int64_t requested = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("axis", requested, 0));
    axis = requested < 0 ? requested + a.rank() : requested;
    if (axis < 0 || axis > a.rank() - b.rank()) {
      return Status(StatusCode::invalid_model)
             << "attribute 'axis' is " << requested << ", expected a value in [" << -a.rank() << ", "
             << (a.rank() - b.rank()) << "] to place input 1 '" << in_b.name << "' shape " << b << " inside input 0 '"
             << in_a.name << "' shape " << a;
    }
  }
  Shape aligned;
  aligned.resize(a.rank());
  if (b.is_static() && b.element_count() == 1) {  // a single value repeats everywhere
    b = aligned;
    return {};
  }
  for (int i = 0; i < b.rank(); ++i) {
    const int target = static_cast<int>(axis) + i;
    if (b[i] != a[target]) {
      return ctx.input_error(kInputB) << " shape " << b << " does not match input 0 '" << in_a.name << "' shape " << a
                                      << " at axis " << target << " (input 1 placed at axis " << axis
                                      << "): opset < 7 requires equal sizes, got " << b[i] << " vs " << a[target];
    }
    aligned[target] = b[i];
  }
  b = aligned;
  return {};
}

}  // namespace elementwise_detail

/// Body of a binary elementwise kernel (see the file comment). Both inputs have the same dtype; the output
/// has it too, or bool when Op::apply returns bool. When the output has A's dtype, run() is correct with the
/// output aliasing input A of the same byte size (what the session requires before sharing a buffer, for
/// kInPlaceInput = 0): A then spans the whole output, so both advance in step and each element is read
/// before it is written; B aliases nothing or is A itself (Add(x, x)). Kernels with a bool output must not
/// declare kInPlaceInput: a smaller, broadcast A could then have the output's byte size.
template <typename Op, typename Types>
struct BinaryElementwise : KernelDefaults {
  static constexpr int kInputA = 0;
  static constexpr int kInputB = 1;
  static constexpr int kOutput = 0;
  template <typename T>
  using result_t = decltype(Op::apply(compute_t<T>(), compute_t<T>()));

  static constexpr std::string_view kOpType = Op::kOpType;
  /// In place on A when the output keeps A's dtype (see above); never for a bool result.
  static constexpr int kInPlaceInput = std::is_same_v<result_t<first_type_t<Types>>, bool> ? -1 : 0;

  struct State {
    BroadcastPlan<2> plan;
    void (*compute)(const BroadcastPlan<2>& plan, const void* a, const void* b, void* y) noexcept;
  };

  /// `since` < kLegacyBroadcastUntil: the legacy broadcast attributes; the versions share one instantiation.
  static Status prepare(PrepareContext& ctx, int since) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputA));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInputB));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_same_dtype(kInputA, kInputB));
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    DataType output_dtype = DataType::undefined;
    const bool supported = visit_dtype(ctx.input(kInputA).dtype, Types{}, [&](auto tag) noexcept {
      using T = typename decltype(tag)::type;
      state->compute = &compute<T>;
      output_dtype = std::is_same_v<result_t<T>, bool> ? DataType::boolean : dtype_of<T>::value;
    });
    if (!supported) return ctx.unsupported_input_dtype(kInputA);

    const Shape& a = ctx.input(kInputA).shape;
    Shape b = ctx.input(kInputB).shape;
    Shape output;
    if (since < elementwise_detail::kLegacyBroadcastUntil) {
      ONNXMICRO_RETURN_IF_ERROR(elementwise_detail::legacy_broadcast_shape(ctx, b));
      output = a;
    } else {
      ONNXMICRO_RETURN_IF_ERROR(broadcast_input_shapes(ctx, {kInputA, kInputB}, output));
    }
    ONNXMICRO_RETURN_IF_ERROR(make_broadcast_plan({&a, &b}, output, state->plan));
    ctx.set_output(kOutput, output_dtype, output);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    state.compute(state.plan, ctx.input(kInputA).data, ctx.input(kInputB).data, ctx.output(kOutput).data);
    return {};
  }

  template <typename T>
  static void compute(const BroadcastPlan<2>& plan, const void* a, const void* b, void* y) noexcept {
    using C = compute_t<T>;
    using R = result_t<T>;
    using Out = std::conditional_t<std::is_same_v<R, bool>, bool, T>;
    const T* a_base = static_cast<const T*>(a);
    const T* b_base = static_cast<const T*>(b);
    Out* y_base = static_cast<Out*>(y);
    const bool a_walks = plan.inner_stride(0) != 0;
    const bool b_walks = plan.inner_stride(1) != 0;
    plan.for_each_row([&](const std::int64_t* offsets, std::int64_t out_offset, std::int64_t n) noexcept {
      const T* ra = a_base + offsets[0];
      const T* rb = b_base + offsets[1];
      Out* ry = y_base + out_offset;
      // One tight loop per stride pattern so each vectorises (the same-shape case is a single row).
      if (a_walks && b_walks) {
        for (std::int64_t i = 0; i < n; ++i) ry[i] = store<Out>(Op::apply(load_element(ra[i]), load_element(rb[i])));
      } else if (a_walks) {
        const C vb = load_element(*rb);
        for (std::int64_t i = 0; i < n; ++i) ry[i] = store<Out>(Op::apply(load_element(ra[i]), vb));
      } else if (b_walks) {
        const C va = load_element(*ra);
        for (std::int64_t i = 0; i < n; ++i) ry[i] = store<Out>(Op::apply(va, load_element(rb[i])));
      } else {
        const Out v = store<Out>(Op::apply(load_element(*ra), load_element(*rb)));
        for (std::int64_t i = 0; i < n; ++i) ry[i] = v;
      }
    });
  }

 private:
  template <typename Out, typename R>
  static Out store(R value) noexcept {
    if constexpr (std::is_same_v<Out, bool>) {
      return value;
    } else {
      return store_element<Out>(value);
    }
  }
};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
