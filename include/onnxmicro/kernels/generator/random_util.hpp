// SPDX-License-Identifier: MIT
// Shared machinery of the random generator ops (RandomUniform, RandomNormal, their *Like forms, Bernoulli,
// Multinomial): a PCG32 generator (O'Neill's PCG-XSH-RR 64/32, seeded through splitmix64) written out here rather
// than taken from <random>, whose distributions differ between standard libraries: the same model and seed give
// the same numbers on every platform and compiler.
//
// Seeding: with the 'seed' attribute (a float), the generator starts from the bits of that float, so a model is
// reproducible. Without it, from a fixed per-op constant mixed with the node's index in the graph, so two random
// nodes draw different numbers yet every session of the model reproduces them: onnxmicro never reads a clock or
// /dev/urandom (an application wanting fresh numbers per process makes it a seeded model of its own).
// The generator state lives in the kernel State and advances across run() calls: consecutive runs of one session
// draw consecutive parts of one sequence (different values), while a new session (prepare) restarts it.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace random_util {

/// splitmix64 step (Steele, Lea, Flood): turns any 64-bit seed into well-mixed generator words.
inline std::uint64_t splitmix64(std::uint64_t& x) noexcept {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// PCG32 (XSH-RR output on a 64-bit LCG): small state, good statistics, identical results everywhere.
struct Pcg32 {
  std::uint64_t state;
  std::uint64_t increment;  ///< odd: selects the stream

  void seed(std::uint64_t seed_value) noexcept {
    std::uint64_t mixer = seed_value;
    state = splitmix64(mixer);
    increment = splitmix64(mixer) | 1u;
    (void)next();
  }
  std::uint32_t next() noexcept {
    const std::uint64_t old = state;
    state = old * 6364136223846793005ull + increment;
    const std::uint32_t xorshifted = static_cast<std::uint32_t>(((old >> 18) ^ old) >> 27);
    const std::uint32_t rotation = static_cast<std::uint32_t>(old >> 59);
    return (xorshifted >> rotation) | (xorshifted << ((32u - rotation) & 31u));
  }
  /// Uniform double in [0, 1) with 53 random bits (two draws).
  double next_double() noexcept {
    const std::uint64_t high = next() >> 5;  // 27 bits
    const std::uint64_t low = next() >> 6;   // 26 bits
    return static_cast<double>((high << 26) | low) * (1.0 / 9007199254740992.0);
  }
  /// Standard normal by Box-Muller in double; one value per pair of uniforms, so no cached half-pair state.
  double next_normal() noexcept {
    const double u1 = 1.0 - next_double();  // (0, 1]: log stays finite
    const double u2 = next_double();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586476925 * u2);
  }
};

/// Seed of a node's generator (see the file comment). `op_constant` differs per op so that, e.g., a RandomUniform
/// and a RandomNormal at the same index do not share a stream.
inline Status node_seed(const PrepareContext& ctx, std::uint64_t op_constant, std::uint64_t& seed) noexcept {
  if (ctx.has_attribute("seed")) {
    float value = 0.0f;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("seed", value, 0.0f));
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    seed = 0x5EEDull << 32 | bits;
    return {};
  }
  seed =
      op_constant ^ (static_cast<std::uint64_t>(static_cast<std::uint32_t>(ctx.node().index)) * 0xD1B54A32D192ED03ull);
  return {};
}

/// Writes `value` as element `index` of a tensor of some dtype (rounding float16/bfloat16 to nearest even).
using StoreFunction = void (*)(double value, void* data, std::size_t index);

template <typename T>
void store_as(double value, void* data, std::size_t index) noexcept {
  static_cast<T*>(data)[index] = static_cast<T>(value);
}
inline void store_float16(double value, void* data, std::size_t index) noexcept {
  static_cast<float16_t*>(data)[index] = float16_t::from_float(static_cast<float>(value));
}
inline void store_bfloat16(double value, void* data, std::size_t index) noexcept {
  static_cast<bfloat16_t*>(data)[index] = bfloat16_t::from_float(static_cast<float>(value));
}
inline void store_bool(double value, void* data, std::size_t index) noexcept {
  static_cast<bool*>(data)[index] = value != 0.0;
}

/// Storer for a floating-point dtype (bfloat16 only when `allow_bfloat16`), nullptr for any other.
inline StoreFunction real_storer(DataType dtype, bool allow_bfloat16) noexcept {
  switch (compiled_dtype(dtype)) {
    case DataType::float16: return &store_float16;
    case DataType::bfloat16: return allow_bfloat16 ? &store_bfloat16 : nullptr;
    case DataType::float32: return &store_as<float>;
    case DataType::float64: return &store_as<double>;
    default: return nullptr;
  }
}

/// Storer for any numeric or bool dtype (Bernoulli's outputs), nullptr for others.
inline StoreFunction numeric_storer(DataType dtype) noexcept {
  switch (dtype) {
    case DataType::int8: return &store_as<std::int8_t>;
    case DataType::int16: return &store_as<std::int16_t>;
    case DataType::int32: return &store_as<std::int32_t>;
    case DataType::int64: return &store_as<std::int64_t>;
    case DataType::uint8: return &store_as<std::uint8_t>;
    case DataType::uint16: return &store_as<std::uint16_t>;
    case DataType::uint32: return &store_as<std::uint32_t>;
    case DataType::uint64: return &store_as<std::uint64_t>;
    case DataType::boolean: return &store_bool;
    default: return real_storer(dtype, true);
  }
}

/// Reads element `index` of a floating-point tensor as double.
using LoadFunction = double (*)(const void* data, std::size_t index);

template <typename T>
double load_as(const void* data, std::size_t index) noexcept {
  return static_cast<double>(static_cast<const T*>(data)[index]);
}
template <typename T>
double load_half(const void* data, std::size_t index) noexcept {
  return static_cast<double>(static_cast<const T*>(data)[index].to_float());
}

/// Loader for a floating-point input dtype (bfloat16 only when `allow_bfloat16`), nullptr for any other.
inline LoadFunction real_loader(DataType dtype, bool allow_bfloat16) noexcept {
  switch (compiled_dtype(dtype)) {
    case DataType::float16: return &load_half<float16_t>;
    case DataType::bfloat16: return allow_bfloat16 ? &load_half<bfloat16_t> : nullptr;
    case DataType::float32: return &load_as<float>;
    case DataType::float64: return &load_as<double>;
    default: return nullptr;
  }
}

/// Error for a dtype the op's schema does not allow; names where it came from and what is allowed.
inline Status dtype_error(std::string_view source, std::int64_t dtype_value, std::string_view allowed) noexcept {
  return Status(StatusCode::unsupported) << source << " is " << dtype_value << " ("
                                         << (is_known_dtype(static_cast<std::int32_t>(dtype_value))
                                                 ? dtype_name(static_cast<DataType>(dtype_value))
                                                 : "unknown")
                                         << "); allowed: " << allowed;
}

inline constexpr std::string_view kRealDtypes = "float16, float, double";
inline constexpr std::string_view kRealDtypesBf16 = "bfloat16, float16, float, double";

/// Reads the 'dtype' attribute of an op producing floating-point values. `fallback_dtype` is used when the
/// attribute is absent (RandomUniform: float; *Like: the input's dtype).
inline Status real_output_dtype(const PrepareContext& ctx, DataType fallback_dtype, bool allow_bfloat16,
                                DataType& dtype, StoreFunction& store) noexcept {
  std::int64_t dtype_value = static_cast<std::int64_t>(fallback_dtype);
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("dtype", dtype_value, dtype_value));
  dtype = static_cast<DataType>(dtype_value);
  store = is_known_dtype(static_cast<std::int32_t>(dtype_value)) ? real_storer(dtype, allow_bfloat16) : nullptr;
  if (store != nullptr) return {};
  return dtype_error(ctx.has_attribute("dtype") ? "attribute 'dtype'" : "input 0's dtype (no 'dtype' attribute)",
                     dtype_value, allow_bfloat16 ? kRealDtypesBf16 : kRealDtypes);
}

/// Reads the required 'shape' attribute of RandomUniform / RandomNormal: every dim >= 0.
inline Status shape_attribute(const PrepareContext& ctx, Shape& shape) noexcept {
  std::int64_t dims[kMaxRank];
  std::size_t count = 0;
  ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute_ints("shape", dims, kMaxRank, count));
  for (std::size_t i = 0; i < count; ++i) {
    if (dims[i] < 0) {
      return Status(StatusCode::invalid_model)
             << "attribute 'shape' has dim " << dims[i] << " at position " << i << "; dims must be >= 0";
    }
  }
  return shape.assign(dims, count);
}

/// What RandomUniform / RandomNormal (and their *Like forms) need at run time.
struct FillState {
  Pcg32 generator;
  StoreFunction store;
  double offset;  ///< low, or mean
  double scale;   ///< high - low, or the standard deviation
};

/// Fills output 0 with offset + scale * u, u uniform in [0, 1).
inline Status run_uniform(RunContext& ctx) noexcept {
  FillState& s = ctx.state<FillState>();
  const TensorView& out = ctx.output(0);
  const std::size_t count = static_cast<std::size_t>(out.shape.element_count());
  for (std::size_t i = 0; i < count; ++i) s.store(s.offset + s.scale * s.generator.next_double(), out.data, i);
  return {};
}

/// Fills output 0 with offset + scale * z, z standard normal.
inline Status run_normal(RunContext& ctx) noexcept {
  FillState& s = ctx.state<FillState>();
  const TensorView& out = ctx.output(0);
  const std::size_t count = static_cast<std::size_t>(out.shape.element_count());
  for (std::size_t i = 0; i < count; ++i) s.store(s.offset + s.scale * s.generator.next_normal(), out.data, i);
  return {};
}

/// Distribution parameters of a fill op: (low, high) or (mean, scale) attribute names and defaults.
struct FillParameters {
  std::string_view first_name;
  float first_default;
  std::string_view second_name;
  float second_default;
  bool uniform;  ///< (low, high) → offset low, scale high - low; else (mean, scale) directly
};
inline constexpr FillParameters kUniformParameters{"low", 0.0f, "high", 1.0f, true};
inline constexpr FillParameters kNormalParameters{"mean", 0.0f, "scale", 1.0f, false};

/// Shared prepare of the four fill ops once the output dtype/shape are decided.
inline Status prepare_fill(PrepareContext& ctx, const FillParameters& parameters, std::uint64_t op_constant,
                           DataType dtype, StoreFunction store, const Shape& shape) noexcept {
  FillState* state = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
  float first = 0.0f;
  float second = 0.0f;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute(parameters.first_name, first, parameters.first_default));
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute(parameters.second_name, second, parameters.second_default));
  state->offset = first;
  state->scale = parameters.uniform ? static_cast<double>(second) - static_cast<double>(first) : second;
  state->store = store;
  std::uint64_t seed = 0;
  ONNXMICRO_RETURN_IF_ERROR(node_seed(ctx, op_constant, seed));
  state->generator.seed(seed);
  ctx.set_output(0, dtype, shape);
  return {};
}

/// RandomUniform / RandomNormal: output of the 'shape' attribute, dtype from 'dtype' (default float).
inline Status prepare_shaped_fill(PrepareContext& ctx, const FillParameters& parameters, std::uint64_t op_constant,
                                  bool allow_bfloat16) noexcept {
  DataType dtype = DataType::undefined;
  StoreFunction store = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(real_output_dtype(ctx, DataType::float32, allow_bfloat16, dtype, store));
  Shape shape;
  ONNXMICRO_RETURN_IF_ERROR(shape_attribute(ctx, shape));
  return prepare_fill(ctx, parameters, op_constant, dtype, store, shape);
}

/// RandomUniformLike / RandomNormalLike: output of input 0's shape, dtype from 'dtype' (default input 0's).
inline Status prepare_like_fill(PrepareContext& ctx, const FillParameters& parameters, std::uint64_t op_constant,
                                bool allow_bfloat16) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(0));
  const TensorInfo& in = ctx.input(0);
  if (!in.shape.is_static()) {
    return ctx.input_error(0, {}, StatusCode::unsupported)
           << " has shape " << in.shape << "; its shape must be known at prepare time";
  }
  DataType dtype = DataType::undefined;
  StoreFunction store = nullptr;
  ONNXMICRO_RETURN_IF_ERROR(real_output_dtype(ctx, in.dtype, allow_bfloat16, dtype, store));
  return prepare_fill(ctx, parameters, op_constant, dtype, store, in.shape);
}

/// The opset that added bfloat16 to the random ops' floating-point inputs and outputs (Bernoulli's outputs had it
/// from its first version, 15).
inline constexpr int kBfloat16Since = 22;

}  // namespace random_util

/// Body of RandomUniform, RandomNormal and their *Like forms, usable directly as a VersionedKernel's Impl:
/// `using RandomNormal_22 = VersionedKernel<RandomFillKernel<RandomNormalOp>, 22>;`. Op is the op's policy:
///
///   struct RandomNormalOp {
///     static constexpr std::string_view kOpType = "RandomNormal";
///     static constexpr std::uint64_t kSeedConstant = ...;               // random_util::node_seed
///     static constexpr random_util::FillParameters kParameters = ...;   // the distribution and its attributes
///     static constexpr bool kLike = false;  // output shaped like input 0 (true) or by the 'shape' attribute
///   };
///
/// bfloat16 outputs from opset 22 (random_util::kBfloat16Since).
template <typename Op>
struct RandomFillKernel : KernelDefaults {
  static constexpr std::string_view kOpType = Op::kOpType;
  static constexpr bool kFoldable = false;
  static constexpr bool kNeedsInputData = !Op::kLike;  ///< the *Like forms read only input 0's shape and dtype

  static Status prepare(PrepareContext& ctx, int since) noexcept {
    const bool allow_bfloat16 = since >= random_util::kBfloat16Since;
    if constexpr (Op::kLike) {
      return random_util::prepare_like_fill(ctx, Op::kParameters, Op::kSeedConstant, allow_bfloat16);
    } else {
      return random_util::prepare_shaped_fill(ctx, Op::kParameters, Op::kSeedConstant, allow_bfloat16);
    }
  }
  static Status run(RunContext& ctx) noexcept {
    if constexpr (Op::kParameters.uniform) {
      return random_util::run_uniform(ctx);
    } else {
      return random_util::run_normal(ctx);
    }
  }
};
}  // namespace kernels
ONNXMICRO_NAMESPACE_END
