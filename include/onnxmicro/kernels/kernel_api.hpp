// SPDX-License-Identifier: MIT
// The contract every kernel implements: what KernelSet reads of a kernel type. A kernel is named after its op
// and the opset version its semantics start at (Squeeze_13), and declares:
//
//   kDomain        "" = ai.onnx
//   kOpType        "Relu"
//   kSinceVersion  first opset version it implements
//   kUntilVersion  first version it does NOT implement (kOpenEnded)
//   kInPlaceInput  input whose buffer output 0 may share (-1: none); kFoldable, kNeedsInputData (KernelDefaults)
//   static Status prepare(PrepareContext& ctx);   checks, output dtypes/shapes, state, scratch
//   static Status run(RunContext& ctx);           computes; never allocates
//
// Built-in kernels never spell this out: each is a VersionedKernel alias (below) of an implementation written
// once, which supplies everything but the version range (a custom kernel of an application may declare the
// members by hand):
//
//   // Flatten-11: negative axis.
//   using Flatten_11 = VersionedKernel<flatten_detail::FlattenImpl, 11>;
//   // Relu-1 (unchanged since): the elementwise body with Relu's function.
//   using Relu_1 = VersionedKernel<UnaryElementwise<ReluOp, ReluTypes>, 1>;
//
// prepare() runs once per shape binding: it validates dtypes, shapes and attributes (returning a Status whose
// message names the input/attribute and expected vs actual; the session prefixes node, op, domain and
// opset), sets every output's dtype and shape, and precomputes everything run() needs into a state object.
// run() only computes. Kernel files live in kernels/<family>/<op>.hpp, one op per file.
#pragma once
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "onnxmicro/core/isa.hpp"
#include "onnxmicro/core/memory.hpp"
#include "onnxmicro/core/tensor.hpp"
#include "onnxmicro/core/threads.hpp"
#include "onnxmicro/model/graph.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {}
class Model;
struct KernelEntry;
namespace kernels {

/// Core internals live in onnxmicro::detail, the kernel-set machinery in kernels::detail; from inside kernels,
/// `detail::X` finds either (qualified lookup falls back to the namespaces a using-directive names). Kernel helpers
/// have namespaces of their own: engines in kernels::<what>, family helpers in <topic>_util, an op file's private
/// helpers in <op>_detail (DEVELOPERS.md, "Where shared kernel code goes").
namespace detail {
using namespace ::onnxmicro::detail;
}  // namespace detail

/// kUntilVersion of a kernel whose semantics have not changed since kSinceVersion.
constexpr int kOpenEnded = 1 << 30;

/// Defaults a kernel type, or the Impl of a VersionedKernel, inherits and may hide.
struct KernelDefaults {
  static constexpr std::string_view kDomain = "";  ///< ai.onnx
  static constexpr int kUntilVersion = kOpenEnded;
  /// Input whose buffer output 0 may reuse when that input dies at this node (-1: none). run() must then
  /// work when input and output alias (elementwise ops, or a copy skipped when pointers are equal).
  static constexpr int kInPlaceInput = -1;
  /// False for kernels that must not be evaluated at prepare time even when all inputs are constant.
  static constexpr bool kFoldable = true;
  /// False for kernels whose outputs depend only on input shapes/dtypes (Shape, Size): the session folds them
  /// as soon as shapes are known, passing input views whose data pointer is null.
  static constexpr bool kNeedsInputData = true;
};

/// What prepare() knows about an input or output.
struct TensorInfo {
  bool present = false;   ///< false for an omitted optional input/output
  std::string_view name;  ///< tensor name in the model
  DataType dtype = DataType::undefined;
  Shape shape;
  /// True when the value is known at prepare time (initializer, Constant, or folded); then const_data
  /// points to its elements (nullptr only when it has zero elements).
  bool is_constant = false;
  const void* const_data = nullptr;
};

/// A Relu or Clip the session folded into a quantized node's output (QDQ fusion: DequantizeLinear -> op ->
/// Relu/Clip -> QuantizeLinear runs as one integer kernel). Bounds are in real (dequantized) units; the kernel
/// clamps its quantized output to [quantize(min), quantize(max)] besides saturating. Only the ops the fusion
/// rules (runtime/qdq_fusion.hpp) fold activations into receive one: QLinearConv, QLinearMatMul, QGemm,
/// QLinearAdd, QLinearMul, and the table kernels (QLinearLeakyRelu, QLinearSigmoid).
struct FusedClamp {
  bool has_min = false;  ///< Relu, or Clip with a min
  bool has_max = false;  ///< Clip with a max
  float min = 0.0f;
  float max = 0.0f;
  bool present() const noexcept { return has_min || has_max; }
};

/// What the session folded into a float32 MatMul's output besides a clamp (runtime/activation_fusion.hpp): the
/// Add of a bias, which the node then reads as input 2 (a 1-D float32 initializer as long as the last axis), and
/// after it the Erf form of GELU as the model wrote it: t = erf(v / divisor) + addend, then (v * t) * scale, or
/// (v * scale) * t when `scale_first`. The kernel computes each removed node's float operation in its order, so
/// the outputs are bit-identical to the unfused graph.
struct FusedEpilogue {
  bool bias = false;
  bool gelu = false;
  bool scale_first = false;
  float divisor = 0.0f;
  float addend = 0.0f;
  float scale = 0.0f;
  bool present() const noexcept { return bias || gelu; }
};

/// Where a graph's nodes are prepared: what the session knows beyond a node's own tensors, the same for every node
/// of the graph. Kernels read it through PrepareContext's getters; a kernel test may leave it default.
struct PrepareEnvironment {
  const Model* model = nullptr;      ///< the node's model (a subgraph's own Model inside If/Loop/Scan bodies)
  Span<const KernelEntry> registry;  ///< the registry the session resolves nodes with
  bool size_optimized = false;       ///< SessionOptions::size_optimized_kernels
  bool winograd = false;             ///< SessionOptions::winograd_convolutions
  Isa isa = Isa::baseline;           ///< the session's instruction set (Session::isa())
  Workers workers;                   ///< the session's pool and thread count (Session::thread_count())
};

/// Handed to a kernel's prepare().
class PrepareContext {
 public:
  /// `environment`, `fused_clamp` (the clamp a fusion folded into this node's output; null for none) and
  /// `fused_epilogue` (a MatMul's folded bias and GELU; null for none) are referred to, not copied: they must
  /// outlive the context.
  PrepareContext(const model::Node& node, Span<TensorInfo> inputs, Span<TensorInfo> outputs,
                 MetadataAllocator& allocator, const PrepareEnvironment& environment = default_environment(),
                 const FusedClamp* fused_clamp = nullptr, const FusedEpilogue* fused_epilogue = nullptr) noexcept
      : node_(node),
        inputs_(inputs),
        outputs_(outputs),
        allocator_(allocator),
        environment_(&environment),
        fused_clamp_(fused_clamp),
        fused_epilogue_(fused_epilogue) {}

  const model::Node& node() const noexcept { return node_; }
  std::int64_t opset_version() const noexcept { return node_.opset_version; }

  // ---- where the node is prepared (for kernels that prepare subgraphs of their own: If, Loop, Scan) ----

  /// Whether to take the size-optimised choices that change the plan (always, with ONNXMICRO_OPTIMIZE_FOR_SIZE=1):
  /// no scratch or packed copies that exist only for speed.
  bool size_optimized() const noexcept { return ONNXMICRO_OPTIMIZE_FOR_SIZE || environment_->size_optimized; }
  /// Whether a Conv may run as Winograd F(2x2, 3x3), which rounds differently (SessionOptions::winograd_convolutions;
  /// never in size-optimised sessions).
  bool winograd_allowed() const noexcept { return environment_->winograd && !size_optimized(); }
  /// Tells the session that this node's arithmetic departs from the op's plain order of operations, so its last
  /// bits differ (`how`: a string literal, e.g. "winograd F(2x2,3x3)"); the session reports it (NodeReport::rounding).
  void note_rounding(const char* how) noexcept { rounding_ = how; }
  /// What note_rounding() said (null: nothing).
  const char* rounding() const noexcept { return rounding_; }
  /// The instruction set the session chose (core/isa.hpp); a kernel with per-ISA code keeps it in its state.
  Isa isa() const noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
    return environment_->isa;
#else
    return Isa::baseline;
#endif
  }
  /// Most tasks run() may split the node's work into (core/threads.hpp; 1 without a pool): a kernel that gives each
  /// task scratch of its own requests that many slices here and indexes them by task in run().
  std::size_t workers() const noexcept { return environment_->workers.count(); }
  /// The pool and count themselves, for kernels that prepare subgraphs of their own.
  const Workers& thread_workers() const noexcept { return environment_->workers; }
  /// The model the node belongs to (a subgraph's own Model for nodes inside If/Loop/Scan bodies); may be null
  /// outside a session.
  const Model* model() const noexcept { return environment_->model; }
  /// The kernel registry the session resolves nodes with.
  Span<const KernelEntry> registry() const noexcept { return environment_->registry; }
  /// The allocator prepare-time memory comes from (state, persistent buffers, subgraph sessions).
  MetadataAllocator& metadata_allocator() const noexcept { return allocator_; }
  /// Inputs written in the node; inputs from there to input_count() are implicit: enclosing-scope values that
  /// the node's subgraphs read (see model::Node::inputs).
  int explicit_input_count() const noexcept {
    const int count = node_.explicit_input_count;
    return count < 0 || count > input_count() ? input_count() : count;
  }

  /// Number of input slots written in the node (omitted optional inputs count, as not present).
  int input_count() const noexcept { return static_cast<int>(inputs_.size()); }
  bool has_input(int i) const noexcept { return i >= 0 && i < input_count() && inputs_[i].present; }
  /// Precondition: i < input_count(). Check has_input() for optional inputs.
  const TensorInfo& input(int i) const noexcept { return inputs_[i]; }
  int output_count() const noexcept { return static_cast<int>(outputs_.size()); }
  bool has_output(int i) const noexcept { return i >= 0 && i < output_count() && outputs_[i].present; }
  /// Declares output i's dtype and shape (every present output must be set). Setting an output the node does not
  /// name (omitted, or past its outputs) is recorded and fails the node's preparation: run() would have nowhere
  /// to write it. Optional outputs are set only when has_output(i).
  void set_output(int i, DataType dtype, const Shape& shape) noexcept {
    if (i < 0 || i >= output_count() || !outputs_[i].present) {
      if (unnamed_output_ < 0) unnamed_output_ = i;
      return;
    }
    outputs_[i].dtype = dtype;
    outputs_[i].shape = shape;
  }
  /// The clamp folded into this node's output by QDQ or activation fusion (present == false for ordinary nodes).
  const FusedClamp& fused_clamp() const noexcept {
    static constexpr FusedClamp kNone{};
    return fused_clamp_ != nullptr ? *fused_clamp_ : kNone;
  }
  /// The bias and GELU folded into a MatMul's output, applied before fused_clamp() (present == false otherwise).
  const FusedEpilogue& fused_epilogue() const noexcept {
    static constexpr FusedEpilogue kNone{};
    return fused_epilogue_ != nullptr ? *fused_epilogue_ : kNone;
  }

  /// The first output index set_output() was called for that the node does not name, or -1.
  int unnamed_output() const noexcept { return unnamed_output_; }
  const TensorInfo& output(int i) const noexcept { return outputs_[i]; }

  // ---- attributes (errors name the attribute, expected and actual type) ----

  /// Finds attribute `name`; false when absent.
  bool find_attribute(std::string_view name, proto::Attribute& out) const noexcept {
    return node_.proto.find_attribute(name, out);
  }
  bool has_attribute(std::string_view name) const noexcept {
    proto::Attribute a;
    return find_attribute(name, a);
  }
  /// INT attribute, or `default_value` when absent.
  Status attribute(std::string_view name, std::int64_t& value, std::int64_t default_value) const noexcept {
    return read_scalar(name, proto::AttributeType::int_, &value, default_value, false);
  }
  Status required_attribute(std::string_view name, std::int64_t& value) const noexcept {
    return read_scalar(name, proto::AttributeType::int_, &value, 0, true);
  }
  /// FLOAT attribute, or `default_value` when absent.
  Status attribute(std::string_view name, float& value, float default_value) const noexcept {
    proto::Attribute a;
    if (!find_attribute(name, a)) {
      value = default_value;
      return {};
    }
    ONNXMICRO_RETURN_IF_ERROR(expect_type(a, proto::AttributeType::float_));
    value = a.f;
    return {};
  }
  Status required_attribute(std::string_view name, float& value) const noexcept {
    proto::Attribute a;
    if (!find_attribute(name, a)) return missing(name, proto::AttributeType::float_);
    ONNXMICRO_RETURN_IF_ERROR(expect_type(a, proto::AttributeType::float_));
    value = a.f;
    return {};
  }
  /// STRING attribute, or `default_value` when absent. The view points into the model bytes.
  Status attribute(std::string_view name, std::string_view& value, std::string_view default_value) const noexcept {
    proto::Attribute a;
    if (!find_attribute(name, a)) {
      value = default_value;
      return {};
    }
    ONNXMICRO_RETURN_IF_ERROR(expect_type(a, proto::AttributeType::string));
    value = std::string_view(reinterpret_cast<const char*>(a.s.data()), a.s.size());
    return {};
  }
  /// STRING attribute that must be present: "required attribute 'name' (STRING) is missing" otherwise.
  Status required_attribute(std::string_view name, std::string_view& value) const noexcept {
    proto::Attribute a;
    if (!find_attribute(name, a)) return missing(name, proto::AttributeType::string);
    ONNXMICRO_RETURN_IF_ERROR(expect_type(a, proto::AttributeType::string));
    value = std::string_view(reinterpret_cast<const char*>(a.s.data()), a.s.size());
    return {};
  }
  /// INTS attribute copied into `values` (capacity `capacity`); `count` = number read, `present` whether
  /// the attribute exists. Fails when the list is longer than `capacity`.
  Status attribute_ints(std::string_view name, std::int64_t* values, std::size_t capacity, std::size_t& count,
                        bool& present) const noexcept {
    proto::Attribute a;
    count = 0;
    present = find_attribute(name, a);
    if (!present) return {};
    ONNXMICRO_RETURN_IF_ERROR(expect_type(a, proto::AttributeType::ints));
    for (std::int64_t v : a.ints()) {
      if (count == capacity) {
        return Status(StatusCode::unsupported) << "attribute '" << name << "' has more than " << capacity << " values";
      }
      values[count++] = v;
    }
    return {};
  }
  /// FLOATS attribute copied into `values`, as attribute_ints.
  Status attribute_floats(std::string_view name, float* values, std::size_t capacity, std::size_t& count,
                          bool& present) const noexcept {
    proto::Attribute a;
    count = 0;
    present = find_attribute(name, a);
    if (!present) return {};
    ONNXMICRO_RETURN_IF_ERROR(expect_type(a, proto::AttributeType::floats));
    for (float v : a.floats()) {
      if (count == capacity) {
        return Status(StatusCode::unsupported) << "attribute '" << name << "' has more than " << capacity << " values";
      }
      values[count++] = v;
    }
    return {};
  }
  /// INTS attribute that must be present (an empty list counts as present), as attribute_ints.
  Status required_attribute_ints(std::string_view name, std::int64_t* values, std::size_t capacity,
                                 std::size_t& count) const noexcept {
    bool present = false;
    ONNXMICRO_RETURN_IF_ERROR(attribute_ints(name, values, capacity, count, present));
    return present ? Status() : missing(name, proto::AttributeType::ints);
  }
  /// FLOATS attribute that must be present, as attribute_floats.
  Status required_attribute_floats(std::string_view name, float* values, std::size_t capacity,
                                   std::size_t& count) const noexcept {
    bool present = false;
    ONNXMICRO_RETURN_IF_ERROR(attribute_floats(name, values, capacity, count, present));
    return present ? Status() : missing(name, proto::AttributeType::floats);
  }
  /// Checks that attribute `a` has type `expected`; the error names both.
  static Status expect_type(const proto::Attribute& a, proto::AttributeType expected) noexcept {
    if (a.type == expected) return {};
    return Status(StatusCode::invalid_model)
           << "attribute '" << a.name << "' has type " << proto::attribute_type_name(a.type) << ", expected "
           << proto::attribute_type_name(expected);
  }

  // ---- memory ----

  /// Allocates the node's state object (value-initialised, trivially destructible), kept for run().
  template <typename State>
  Status allocate_state(State*& state) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(allocator_.allocate_object(state));
    state_ = state;
    return {};
  }
  /// Allocates persistent memory for the node (packed weights, tables) that lives as long as the session.
  template <typename T>
  Status allocate_persistent(std::size_t count, Span<T>& out) noexcept {
    return allocator_.allocate_array(count, out);
  }
  /// Asks for `bytes` of scratch memory, available to run() through RunContext::scratch(). Placed in the
  /// arena and live only while this node runs.
  void request_scratch(std::size_t bytes) noexcept { scratch_bytes_ = bytes; }

  void* state() const noexcept { return state_; }
  std::size_t scratch_bytes() const noexcept { return scratch_bytes_; }

  // ---- helpers for common checks ----

  /// The start of an error about input i: "input 1 'w'", or with the spec's name for it "input 1 'w' (W)". The
  /// caller appends the rest (the session prefixes the node):
  ///   return ctx.input_error(kW, "W") << " has shape " << ctx.input(kW).shape << ", expected rank 4";
  Status input_error(int i, std::string_view role = {}, StatusCode code = StatusCode::invalid_model) const noexcept {
    return tensor_error(code, "input", i, inputs_[i].name, role);
  }
  /// The same for output i: "output 0 'y'" or "output 0 'y' (Y)".
  Status output_error(int i, std::string_view role = {}, StatusCode code = StatusCode::invalid_model) const noexcept {
    return tensor_error(code, "output", i, outputs_[i].name, role);
  }

  /// Error for input i or output i (`role` "input" / "output") having a dtype this build compiles out
  /// (dtype_enabled): names the tensor, its dtype and the macro to turn it back on.
  static Status disabled_dtype(const char* role, int i, std::string_view name, DataType dtype) noexcept {
    return tensor_error(StatusCode::unsupported, role, i, name, {})
           << " is " << dtype_name(dtype) << ", which this build leaves out (" << dtype_disabled_by(dtype) << ")";
  }
  /// Error for input i having dtype not in the kernel's supported list; names input and dtype.
  Status unsupported_input_dtype(int i) const noexcept {
    return input_error(i, {}, StatusCode::unsupported)
           << " has dtype " << dtype_name(inputs_[i].dtype) << ", which this kernel does not support";
  }
  /// Fails unless input i is known at prepare time (an initializer, a Constant, a folded value, or a graph
  /// input whose value the caller bound with SessionOptions::input_values). Use it for inputs that decide
  /// output shapes (Reshape's shape, Unsqueeze's axes). The session reacts by binding the graph input's value
  /// when the caller supplied one; otherwise the error tells the user what to do.
  Status require_constant_input(int i) noexcept {
    if (inputs_[i].is_constant) return {};
    missing_constant_input_ = i;
    return input_error(i, {}, StatusCode::unsupported)
           << " decides the output shape, so its value must be known at prepare time: make it a constant or bind "
              "it with SessionOptions::input_values (Session::run(inputs) offers every input and re-plans when such a "
              "value changes)";
  }
  /// The input index require_constant_input() failed on, or -1.
  int missing_constant_input() const noexcept { return missing_constant_input_; }

  /// Fails unless input i exists (for required inputs).
  Status require_input(int i) const noexcept {
    if (has_input(i)) return {};
    return Status(StatusCode::invalid_model) << "required input " << i << " is missing";
  }
  /// Fails unless inputs a and b have the same dtype.
  Status require_same_dtype(int a, int b) const noexcept {
    if (inputs_[a].dtype == inputs_[b].dtype) return {};
    return input_error(b) << " has dtype " << dtype_name(inputs_[b].dtype) << ", expected "
                          << dtype_name(inputs_[a].dtype) << " (same as input " << a << " '" << inputs_[a].name << "')";
  }

 private:
  static const PrepareEnvironment& default_environment() noexcept {
    static constexpr PrepareEnvironment kDefault{};
    return kDefault;
  }
  static Status tensor_error(StatusCode code, const char* kind, int i, std::string_view name,
                             std::string_view role) noexcept {
    Status s(code);
    s << kind << " " << i << " '" << name << "'";
    if (!role.empty()) s << " (" << role << ")";
    return s;
  }
  Status missing(std::string_view name, proto::AttributeType type) const noexcept {
    return Status(StatusCode::invalid_model)
           << "required attribute '" << name << "' (" << proto::attribute_type_name(type) << ") is missing";
  }
  Status read_scalar(std::string_view name, proto::AttributeType type, std::int64_t* value, std::int64_t default_value,
                     bool required) const noexcept {
    proto::Attribute a;
    if (!find_attribute(name, a)) {
      if (required) return missing(name, type);
      *value = default_value;
      return {};
    }
    ONNXMICRO_RETURN_IF_ERROR(expect_type(a, type));
    *value = a.i;
    return {};
  }

  const model::Node& node_;
  Span<TensorInfo> inputs_;
  Span<TensorInfo> outputs_;
  MetadataAllocator& allocator_;
  const PrepareEnvironment* environment_;
  const FusedClamp* fused_clamp_;
  const FusedEpilogue* fused_epilogue_;
  void* state_ = nullptr;
  std::size_t scratch_bytes_ = 0;
  const char* rounding_ = nullptr;
  int missing_constant_input_ = -1;
  int unnamed_output_ = -1;
};

/// Storage for the characters of strings that kernels create at run time (StringConcat, StringNormalizer, ...).
/// A bump allocator over a fixed buffer (SessionOptions::string_pool), emptied at the start of every run(), so
/// run() still allocates nothing; or, while the session folds constants at prepare time, drawing from the
/// metadata allocator so that folded strings live as long as the session.
class StringPool {
 public:
  StringPool() noexcept = default;
  StringPool(char* buffer, std::size_t capacity) noexcept : buffer_(buffer), capacity_(capacity) {}
  explicit StringPool(MetadataAllocator* allocator) noexcept : allocator_(allocator) {}

  /// `bytes` of storage, or nullptr when the pool is full.
  char* allocate(std::size_t bytes) noexcept {
    if (bytes == 0) bytes = 1;  // a valid pointer even for an empty string
    if (allocator_ != nullptr) return static_cast<char*>(allocator_->allocate(bytes, 1));
    if (capacity_ - used_ < bytes) return nullptr;
    char* out = buffer_ + used_;
    used_ += bytes;
    if (used_ > peak_) peak_ = used_;
    return out;
  }
  void reset() noexcept { used_ = 0; }
  std::size_t capacity() const noexcept { return capacity_; }
  std::size_t used() const noexcept { return used_; }
  /// Most bytes in use at once since the session was prepared (to size SessionOptions::string_pool_bytes).
  std::size_t peak() const noexcept { return peak_; }

 private:
  char* buffer_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t used_ = 0;
  std::size_t peak_ = 0;
  MetadataAllocator* allocator_ = nullptr;
};

/// Handed to a kernel's run(). Everything here was fixed by prepare(); run() must not allocate.
class RunContext {
 public:
  RunContext() noexcept = default;
  RunContext(Span<const ConstTensorView> inputs, Span<const TensorView> outputs, void* state, void* scratch,
             std::size_t scratch_bytes, StringPool* strings = nullptr, Workers workers = Workers()) noexcept
      : inputs_(inputs),
        outputs_(outputs),
        state_(state),
        scratch_(scratch),
        scratch_bytes_(scratch_bytes),
        strings_(strings),
        workers_(workers) {}

  int input_count() const noexcept { return static_cast<int>(inputs_.size()); }
  bool has_input(int i) const noexcept {
    return i >= 0 && i < input_count() && inputs_[i].dtype != DataType::undefined;
  }
  const ConstTensorView& input(int i) const noexcept { return inputs_[i]; }
  int output_count() const noexcept { return static_cast<int>(outputs_.size()); }
  bool has_output(int i) const noexcept {
    return i >= 0 && i < output_count() && outputs_[i].dtype != DataType::undefined;
  }
  const TensorView& output(int i) const noexcept { return outputs_[i]; }
  /// The state allocated in prepare().
  template <typename State>
  State& state() const noexcept {
    return *static_cast<State*>(state_);
  }
  void* scratch() const noexcept { return scratch_; }
  std::size_t scratch_bytes() const noexcept { return scratch_bytes_; }
  /// The threads the node may split its work over: at most PrepareContext::workers() tasks (fewer when the node is
  /// folded at prepare, where it runs on one).
  const Workers& workers() const noexcept { return workers_; }

  /// Storage for the characters of a new string in a string output (valid until the next run()). Fails with
  /// out_of_memory naming the pool's capacity when SessionOptions::string_pool_bytes is too small.
  Status allocate_string(std::size_t bytes, char*& out) const noexcept {
    out = strings_ == nullptr ? nullptr : strings_->allocate(bytes);
    if (out != nullptr) return {};
    return Status(StatusCode::out_of_memory)
           << "the string pool is full: " << bytes << " more bytes needed, capacity "
           << (strings_ == nullptr ? 0 : strings_->capacity()) << " (SessionOptions::string_pool_bytes)";
  }

 private:
  Span<const ConstTensorView> inputs_;
  Span<const TensorView> outputs_;
  void* state_ = nullptr;
  void* scratch_ = nullptr;
  std::size_t scratch_bytes_ = 0;
  StringPool* strings_ = nullptr;
  Workers workers_;
};

using PrepareFunction = Status (*)(PrepareContext&);
using RunFunction = Status (*)(RunContext&);

namespace kernel_api_detail {
/// Whether Impl's prepare takes the range's first version (prepare(ctx, since)) or only the context.
template <typename Impl, typename Since, typename = void>
struct PrepareTakesSince : std::false_type {};
template <typename Impl, typename Since>
struct PrepareTakesSince<Impl, Since, std::void_t<decltype(Impl::prepare(std::declval<PrepareContext&>(), Since()))>>
    : std::true_type {};

/// Impl with a one-argument prepare: the version's own prepare(ctx) passes Since on.
template <typename Impl, int Since, bool = PrepareTakesSince<Impl, std::integral_constant<int, Since>>::value>
struct VersionPrepare : Impl {
  static Status prepare(PrepareContext& ctx) noexcept {
    return Impl::prepare(ctx, std::integral_constant<int, Since>());
  }
};
/// Impl whose prepare(ctx) serves every version: inherited as it is, so the registry points at it directly.
template <typename Impl, int Since>
struct VersionPrepare<Impl, Since, false> : Impl {};
}  // namespace kernel_api_detail

/// The kernel for versions [Since, Until) of an op: the one way a built-in kernel is written (every type in
/// AllKernels is one). Impl inherits KernelDefaults (hiding kDomain, kInPlaceInput, kFoldable or kNeedsInputData
/// where they differ) and declares kOpType, `static Status run(RunContext&)` and a prepare: either
/// `static Status prepare(PrepareContext&, int since)`, which receives Since, the range's first version, to pick
/// its rules, or `static Status prepare(PrepareContext&)` where every version it serves prepares alike. Since
/// arrives as std::integral_constant<int, Since>, which converts to int; an Impl that must keep a version's unused
/// code out of the binary takes it as `template <int kSince> ... std::integral_constant<int, kSince>`. Impl may be
/// a family's building block instantiated with the op's policy (UnaryElementwise<SigmoidOp, FloatTypes>), which
/// takes kOpType from the policy. Each version is then one alias:
/// `using Gemm_11 = VersionedKernel<gemm_detail::GemmImpl, 11>;`. The kernel derives from Impl (its State and
/// constants stay reachable through the alias) and adds only the range, so the registry calls Impl's run, and a
/// one-argument prepare, without a forwarding function in between.
template <typename Impl, int Since, int Until = kOpenEnded>
struct VersionedKernel : kernel_api_detail::VersionPrepare<Impl, Since> {
  static_assert(Since < Until, "VersionedKernel: the version range [Since, Until) is empty");
  static constexpr int kSinceVersion = Since;
  static constexpr int kUntilVersion = Until;
};

/// Whether K is a VersionedKernel (all_kernels.hpp asserts it of every built-in kernel).
template <typename K>
struct IsVersionedKernel : std::false_type {};
template <typename Impl, int Since, int Until>
struct IsVersionedKernel<VersionedKernel<Impl, Since, Until>> : std::true_type {};

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
