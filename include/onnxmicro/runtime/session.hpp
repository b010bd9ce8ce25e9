// SPDX-License-Identifier: MIT
// Session: resolves every node to a kernel for the model's opset imports, infers shapes, folds constants,
// plans one arena, then runs. prepare() does all the allocating and checking; run() allocates nothing.
#pragma once
#include <cstdint>
#include <string_view>

#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/model/loader.hpp"
#include "onnxmicro/runtime/planner.hpp"
#include "onnxmicro/runtime/qdq_fusion.hpp"

#if ONNXMICRO_HAS_HEAP
#include <cstdlib>
#endif
#include <cstring>

ONNXMICRO_NAMESPACE_BEGIN

/// Shape to bind to a graph input with symbolic or unknown dims (by input name).
struct InputShape {
  std::string_view name;
  Shape shape;
};

/// The value of a graph input, known before prepare (see SessionOptions::input_values).
struct InputValue {
  std::string_view name;
  ConstTensorView value;
};

/// Where a node executes. Only cpu exists today; the OpenCL backend will add its own.
enum class Placement : std::uint8_t { cpu = 0 };

struct SessionOptions {
  /// Caller-provided arena (aligned to ONNXMICRO_TENSOR_ALIGNMENT). nullptr: the session owns a heap arena.
  /// prepare() fails with out_of_memory naming the bytes needed when it is too small.
  void* arena = nullptr;
  std::size_t arena_bytes = 0;
  /// Where kernel state, packed weights and folded constants go. nullptr: a session-owned heap allocator.
  MetadataAllocator* metadata_allocator = nullptr;
  /// Shapes for graph inputs whose declared shapes have symbolic/unknown dims (or to override nothing else).
  Span<const InputShape> input_shapes;
  /// The largest shape each dynamic input will ever be bound to. prepare() plans for these first and sizes the
  /// arena for them (an owned arena is allocated at that size; a caller's arena must hold it), so that later
  /// re-plans for smaller shapes (run(inputs), set_input_shapes) reuse the same arena and allocate nothing.
  /// Binding a dim above its maximum is an error naming the input and dim. Inputs without an entry in
  /// input_shapes are prepared at these shapes.
  Span<const InputShape> max_input_shapes;
  /// Values of graph inputs, offered for inputs that decide shapes (Reshape's shape, Unsqueeze's axes, ...).
  /// prepare() binds only the ones a kernel needs at prepare time (treated as constants; set_input() then
  /// only accepts the same value) and leaves the rest as ordinary inputs. Copied: need not outlive prepare().
  Span<const InputValue> input_values;
  /// Storage for the characters of strings kernels build at run time (StringConcat, StringNormalizer, ...),
  /// emptied at the start of every run(). nullptr: when the model has string tensors the session owns a heap pool
  /// of string_pool_bytes (or ONNXMICRO_DEFAULT_STRING_POOL_BYTES when 0). A run that needs more fails with
  /// out_of_memory naming the node; Session::string_pool_peak() tells how much a run used.
  char* string_pool = nullptr;
  std::size_t string_pool_bytes = 0;
  /// Keep every input's arena slot out of reach of other tensors for the whole run, so that the next run's
  /// inputs may be written while this run's outputs are still being read (subgraph iterations do this).
  bool inputs_outlive_run = false;
  /// Run DequantizeLinear -> op -> QuantizeLinear groups of QDQ models as integer kernels (see
  /// runtime/qdq_fusion.hpp); Session::quantized_nodes() reports every op between DQ and Q and how it ran.
  /// false: every node runs its own kernel (the float reference path), e.g. to compare the two.
  bool fuse_qdq = true;
  /// Plan and run with the kernels' size-optimised choices, which a build with ONNXMICRO_OPTIMIZE_FOR_SIZE=1
  /// always makes (this option cannot turn them off there): Conv sums each window directly instead of gathering
  /// columns into scratch, Gemm reads a transposed B in place instead of packing a copy. The arena and metadata
  /// differ, so a host planning for such a firmware sets it (`onnxmicro plan --optimize-for-size`). Subgraph
  /// sessions inherit it.
  bool size_optimized_kernels = false;
};

/// Per-node facts after prepare(), for reports (which kernel, placement, folded or not).
struct NodeReport {
  const model::Node* node = nullptr;
  const KernelEntry* kernel = nullptr;
  Placement placement = Placement::cpu;
  bool folded = false;  ///< computed once at prepare time (all inputs constant)
};

class Session {
 public:
  Session() noexcept = default;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();

  /// Resolves kernels (error names node, op, domain, opset and the versions the registry has), decodes
  /// initializers, runs each kernel's prepare in order (shape/dtype inference), folds all-constant nodes,
  /// plans the arena. `model` must outlive the session.
  Status prepare(const Model& model, KernelRegistry registry,
                 const SessionOptions& options = SessionOptions()) noexcept;

  /// Arena bytes the current plan needs (valid after prepare; also after a prepare that failed with
  /// out_of_memory because the caller's arena was too small).
  std::size_t required_arena_bytes() const noexcept { return required_arena_bytes_; }
  /// Bytes of the arena in use (the caller's arena_bytes, or the size of the owned arena). With
  /// SessionOptions::max_input_shapes it is fixed at prepare and never grows.
  std::size_t arena_capacity() const noexcept { return arena_capacity_; }
  /// Arena bytes the plan at SessionOptions::max_input_shapes needs (0 when none were declared).
  std::size_t max_shapes_arena_bytes() const noexcept { return max_shapes_arena_bytes_; }
  /// Metadata bytes the current plan uses (kernel state, folded constants, tables), excluding the Model's own.
  std::size_t metadata_bytes() const noexcept;

  /// Re-plans for new shapes of dynamic inputs (shape inference, folding, the arena plan), keeping the arena
  /// and rewinding the metadata allocator to where prepare() began, so that with a caller's arena and
  /// metadata buffer nothing is allocated. `values` offers input values as SessionOptions::input_values does.
  /// Shapes must respect the model's fixed dims and symbolic dims (one value per name across inputs) and
  /// SessionOptions::max_input_shapes. Unchanged shapes and values: nothing happens. On failure the session
  /// must be prepared again (or re-planned with valid shapes).
  Status set_input_shapes(Span<const InputShape> shapes, Span<const InputValue> values = {}) noexcept;
  /// Binds every graph input by name (shape and data) and runs. Re-plans first (see set_input_shapes) when a
  /// shape differs from the current plan, or when an input that was bound at prepare time (because it decides
  /// shapes) has a new value; replan_count() reports how often that happened. Without a re-plan it allocates
  /// nothing, like run().
  Status run(Span<const InputValue> inputs) noexcept;
  /// Re-plans done by set_input_shapes()/run(inputs) since prepare().
  std::size_t replan_count() const noexcept { return replan_count_; }

  /// Points every planned tensor and scratch buffer at `arena` instead (same offsets; it must hold
  /// required_arena_bytes()). For control-flow kernels: a subgraph's tensors live in a scratch buffer of the
  /// enclosing session's plan, whose address is known only when the node runs.
  void rebase_arena(void* arena) noexcept;

  std::size_t input_count() const noexcept;
  std::size_t output_count() const noexcept;
  std::string_view input_name(std::size_t index) const noexcept;
  std::string_view output_name(std::size_t index) const noexcept;
  /// Index of the graph input / output called `name`; fails naming the known names when absent.
  Status input_index(std::string_view name, std::size_t& index) const noexcept;
  Status output_index(std::string_view name, std::size_t& index) const noexcept;

  /// Copies `value` into the input's arena slot. Fails with a message naming the input and the expected vs
  /// actual dtype or shape (the shape must equal the planned one; set_input_shapes() or run(inputs) re-plan).
  Status set_input(std::size_t index, const ConstTensorView& value) noexcept;
  Status set_input(std::string_view name, const ConstTensorView& value) noexcept;
  /// True when input `index` was bound to a value at prepare time (SessionOptions::input_values).
  bool input_bound_at_prepare(std::size_t index) const noexcept;
  /// After a prepare() that failed because a kernel needs a value at prepare time: the index of a graph input
  /// that value depends on and that SessionOptions::input_values did not offer; -1 otherwise.
  std::int32_t missing_input_value() const noexcept { return missing_input_value_; }
  /// The input's arena slot, to be filled in place instead of set_input (dtype and shape as prepared); an
  /// empty view (dtype undefined) for inputs bound at prepare time.
  TensorView input(std::size_t index) const noexcept;

  /// Runs every node once. Allocates nothing. Errors name the node.
  Status run() noexcept;

  /// Output `index` after run(): points into the arena (or at a constant), valid until the next run/prepare.
  ConstTensorView output(std::size_t index) const noexcept;

  const MemoryPlan& plan() const noexcept { return plan_; }
  /// Most bytes of the string pool any run() so far has used (see SessionOptions::string_pool_bytes).
  std::size_t string_pool_peak() const noexcept { return string_pool_.peak(); }
  Span<const NodeReport> node_reports() const noexcept { return reports_; }
  /// The dtype prepare inferred for graph value `id` (an id of model::Node::inputs/outputs); undefined for
  /// kNoValue or an id out of range. `onnxmicro kernels` lists with it the dtypes a model's tensors use.
  DataType value_dtype(model::ValueId id) const noexcept;
  /// The shape prepare inferred for graph value `id`; rank 0 for kNoValue or an id out of range. `onnxmicro kernels`
  /// takes the highest rank of a model's tensors from it.
  Shape value_shape(model::ValueId id) const noexcept;
  /// One entry per op that reads a DequantizeLinear output (in execution order): whether it runs as an integer
  /// kernel and, when not, why. Empty for models without QDQ groups or with SessionOptions::fuse_qdq off.
  Span<const QuantizedNodeReport> quantized_nodes() const noexcept { return quantized_nodes_; }
  const Model* model() const noexcept { return model_; }

 private:
  struct NodeRuntime;
  struct ValueRuntime;
  /// What prepare() keeps to re-plan later: everything in SessionOptions but the per-call shapes and values.
  struct KeptOptions {
    void* arena = nullptr;
    std::size_t arena_bytes = 0;
    char* string_pool = nullptr;
    std::size_t string_pool_bytes = 0;
    bool inputs_outlive_run = false;
    bool size_optimized_kernels = false;
  };
  void release() noexcept;
  void release_plan() noexcept;
  Status plan_for(Span<const InputShape> shapes, Span<const InputValue> values) noexcept;
  Status check_against_max_shapes(Span<const InputShape> shapes) const noexcept;
  Status check_symbolic_dims() const noexcept;
  std::size_t merge_shapes(Span<const InputShape> given, bool keep_current) noexcept;
  bool plan_differs(Span<const InputShape> shapes, Span<const InputValue> values) const noexcept;
  Status prepare_pass(const SessionOptions& options, Span<unsigned char> bind_value, bool& retry) noexcept;
  Status bind_input_value(const model::Value& value, const SessionOptions& options, MetadataAllocator& allocator,
                          ValueRuntime& rt) noexcept;
  bool offer_bindings(model::ValueId needed, const SessionOptions& options, Span<unsigned char> bind_value) noexcept;

  const Model* model_ = nullptr;
  KernelRegistry registry_;
  MemoryPlan plan_;
  Span<NodeRuntime> nodes_;
  Span<ValueRuntime> values_;
  Span<NodeReport> reports_;
  Span<QuantizedNodeReport> quantized_nodes_;
  /// The graph the session executes: the model's, or its QDQ-fused rewrite (same values, other nodes).
  const model::Graph* graph_ = nullptr;
  model::Graph fused_graph_;
  Span<kernels::FusedClamp> fused_clamps_;  ///< per node of *graph_ (empty when nothing was fused)
  unsigned char* arena_ = nullptr;
  std::size_t arena_capacity_ = 0;
  bool owns_arena_ = false;
  void* arena_allocation_ = nullptr;
  std::size_t required_arena_bytes_ = 0;
  std::int32_t missing_input_value_ = -1;
  bool prepared_ = false;
  KeptOptions kept_;
  std::size_t metadata_mark_ = 0;   ///< metadata_->used_bytes() where planning begins (rewound on re-plan)
  Span<unsigned char> bind_value_;  ///< per input: bind its value at prepare time
  Span<Shape> max_shapes_;          ///< per input: SessionOptions::max_input_shapes, when has_max_shape_
  Span<unsigned char> has_max_shape_;
  Span<InputShape> replan_shapes_;  ///< scratch: one shape per input for a re-plan
  Span<InputValue> replan_values_;  ///< scratch: the values offered to the plan at the maxima
  std::size_t metadata_start_ = 0;
  std::size_t max_shapes_arena_bytes_ = 0;
  std::size_t replan_count_ = 0;
  MetadataAllocator* metadata_ = nullptr;
  kernels::StringPool string_pool_;
  void* owned_string_pool_ = nullptr;
#if ONNXMICRO_HAS_HEAP
  ChunkAllocator owned_metadata_;
#endif
};

// ---- implementation ---------------------------------------------------------------------------------------

struct Session::ValueRuntime {
  kernels::TensorInfo info;
  std::int32_t buffer = -1;  ///< planned buffer, -1 for constants
  std::int32_t first_use = -1;
  std::int32_t last_use = -1;
  void* data = nullptr;  ///< where the value lives after planning (arena slot or constant data)
};

inline DataType Session::value_dtype(model::ValueId id) const noexcept {
  if (id < 0 || static_cast<std::size_t>(id) >= values_.size()) return DataType::undefined;
  return values_[static_cast<std::size_t>(id)].info.dtype;
}

inline Shape Session::value_shape(model::ValueId id) const noexcept {
  if (id < 0 || static_cast<std::size_t>(id) >= values_.size()) return Shape();
  return values_[static_cast<std::size_t>(id)].info.shape;
}

struct Session::NodeRuntime {
  const KernelEntry* kernel = nullptr;
  void* state = nullptr;
  std::size_t scratch_bytes = 0;
  std::int32_t scratch_buffer = -1;
  bool folded = false;
  Span<kernels::TensorInfo> input_infos;
  Span<kernels::TensorInfo> output_infos;
  Span<ConstTensorView> inputs;
  Span<TensorView> outputs;
  void* scratch = nullptr;
};

namespace detail {

/// A failed kernel or planning status, prefixed with the node's identity.
inline Status node_error(const model::Node& node, const Status& cause) noexcept {
  Status s(cause.code());
  Model::describe_node(s, node) << ": " << cause.message_view();
  return s;
}

/// node_error() for input or output k of `node` having a dtype this build compiles out (one copy for both checks).
inline Status disabled_dtype_error(const model::Node& node, const char* role, std::size_t k, std::string_view name,
                                   DataType dtype) noexcept {
  return node_error(node, kernels::PrepareContext::disabled_dtype(role, static_cast<int>(k), name, dtype));
}

/// Lists the version ranges a registry has for an op: " [1,13) [13,inf)" or " none".
inline Status& describe_available_versions(Status& s, KernelRegistry registry, std::string_view domain,
                                           std::string_view op_type) noexcept {
  bool any = false;
  for (const KernelEntry& e : registry) {
    if (e.domain != domain || e.op_type != op_type) continue;
    any = true;
    s << " [" << e.since_version << ",";
    if (e.until_version >= kernels::kOpenEnded)
      s << "newest]";
    else
      s << e.until_version << ")";
  }
  if (!any) s << " none";
  return s;
}

/// Replaces the data of `count` ValueRefs (recursively: an optional may hold a sequence) by copies in `allocator`.
inline Status deep_copy_elements(ValueRef* refs, std::int64_t count, MetadataAllocator& allocator) noexcept {
  for (std::int64_t i = 0; i < count; ++i) {
    const ConstTensorView element = view_of(refs[i]);
    std::size_t bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(element.dtype, element.shape, bytes));
    void* copy = allocator.allocate(bytes == 0 ? 1 : bytes, ONNXMICRO_TENSOR_ALIGNMENT);
    if (copy == nullptr) return Status(StatusCode::out_of_memory) << "metadata allocator exhausted copying a sequence";
    if (bytes != 0) std::memcpy(copy, element.data, bytes);
    if (is_value_container(element.dtype)) {
      ONNXMICRO_RETURN_IF_ERROR(deep_copy_elements(static_cast<ValueRef*>(copy), element.element_count(), allocator));
    }
    if (element.dtype == DataType::string) {
      auto* strings = static_cast<StringRef*>(copy);
      for (std::int64_t k = 0; k < element.element_count(); ++k) {
        char* chars = static_cast<char*>(allocator.allocate(strings[k].size == 0 ? 1 : strings[k].size, 1));
        if (chars == nullptr)
          return Status(StatusCode::out_of_memory) << "metadata allocator exhausted copying strings";
        if (strings[k].size != 0) std::memcpy(chars, strings[k].data, strings[k].size);
        strings[k].data = chars;
      }
    }
    refs[i].data = copy;
  }
  return {};
}

/// Whether two tensors of `count` elements of `dtype` hold the same values (string tensors by their characters,
/// sequences and optionals by their elements).
inline bool same_elements(DataType dtype, const void* a, const void* b, std::int64_t count) noexcept {
  if (is_value_container(dtype)) {
    const auto* x = static_cast<const ValueRef*>(a);
    const auto* y = static_cast<const ValueRef*>(b);
    for (std::int64_t i = 0; i < count; ++i) {
      const ConstTensorView vx = view_of(x[i]), vy = view_of(y[i]);
      if (vx.dtype != vy.dtype || vx.shape != vy.shape ||
          !same_elements(vx.dtype, vx.data, vy.data, vx.element_count()))
        return false;
    }
    return true;
  }
  if (dtype != DataType::string) return std::memcmp(a, b, byte_size_of(dtype, count)) == 0;
  const auto* x = static_cast<const StringRef*>(a);
  const auto* y = static_cast<const StringRef*>(b);
  for (std::int64_t i = 0; i < count; ++i)
    if (x[i].view() != y[i].view()) return false;
  return true;
}

/// The shape the model fixes for graph input `value`; fails naming the input (and the dim) when it declares
/// none or a dim is symbolic or unknown.
inline Status declared_input_shape(const model::Value& value, Shape& shape) noexcept {
#if ONNXMICRO_ENABLE_DYNAMIC_SHAPES
  constexpr StatusCode kCode = StatusCode::invalid_argument;
  constexpr const char* kNoShapeHint = ": bind one with SessionOptions::input_shapes";
  constexpr const char* kDimHint = ": bind it with SessionOptions::input_shapes";
#else
  constexpr StatusCode kCode = StatusCode::unsupported;
  constexpr const char* kNoShapeHint =
      ", and this build binds no shapes (ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0): export the model with fixed input shapes";
  constexpr const char* kDimHint = kNoShapeHint;
#endif
  if (!value.has_declared_shape)
    return Status(kCode) << "input '" << value.name << "' has no declared shape" << kNoShapeHint;
  shape.resize(value.declared_rank);
  for (int d = 0; d < value.declared_rank; ++d) {
    const model::DeclaredDim& dim = value.declared_dims[d];
    if (dim.value < 0) {
      Status s(kCode);
      s << "input '" << value.name << "' dim " << d;
      if (!dim.param.empty()) s << " ('" << dim.param << "')";
      return s << " is not fixed by the model" << kDimHint;
    }
    shape[d] = dim.value;
  }
  return {};
}

/// Zero-size tensors still get a valid, aligned pointer.
inline void* empty_tensor_storage() noexcept {
  alignas(ONNXMICRO_TENSOR_ALIGNMENT) static unsigned char storage[ONNXMICRO_TENSOR_ALIGNMENT];
  return storage;
}

}  // namespace detail

inline Session::~Session() { release(); }

inline void Session::release() noexcept {
  release_plan();
#if ONNXMICRO_HAS_HEAP
  if (owns_arena_ && arena_ != nullptr) std::free(arena_allocation_);
  arena_allocation_ = nullptr;
  std::free(owned_string_pool_);
#endif
  owned_string_pool_ = nullptr;
  string_pool_ = kernels::StringPool();
  arena_ = nullptr;
  arena_capacity_ = 0;
  owns_arena_ = false;
  kept_ = KeptOptions();
  bind_value_ = Span<unsigned char>();
  max_shapes_ = Span<Shape>();
  has_max_shape_ = Span<unsigned char>();
  replan_shapes_ = Span<InputShape>();
  replan_values_ = Span<InputValue>();
  quantized_nodes_ = Span<QuantizedNodeReport>();
  graph_ = nullptr;
  fused_graph_ = model::Graph();
  fused_clamps_ = Span<kernels::FusedClamp>();
}

// Forgets the plan but keeps the arena and string pool, which a re-plan reuses.
inline void Session::release_plan() noexcept {
  prepared_ = false;
  nodes_ = Span<NodeRuntime>();
  values_ = Span<ValueRuntime>();
  reports_ = Span<NodeReport>();
  plan_ = MemoryPlan();
}

inline void Session::rebase_arena(void* arena) noexcept {
  unsigned char* const to = static_cast<unsigned char*>(arena);
  if (!prepared_ || to == arena_ || arena_ == nullptr) return;
  const std::uintptr_t from = reinterpret_cast<std::uintptr_t>(arena_);
  const std::uintptr_t extent = plan_.arena_bytes;
  auto moved = [&](const void* p) -> void* {
    const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(p);
    if (p == nullptr || address < from || address - from >= extent) return const_cast<void*>(p);
    return to + (address - from);
  };
  for (ValueRuntime& rt : values_)
    if (rt.buffer >= 0) rt.data = moved(rt.data);
  for (NodeRuntime& nr : nodes_) {
    if (nr.folded) continue;
    for (ConstTensorView& in : nr.inputs) in.data = moved(in.data);
    for (TensorView& out : nr.outputs) out.data = moved(out.data);
    nr.scratch = moved(nr.scratch);
  }
  arena_ = to;
}

inline std::size_t Session::metadata_bytes() const noexcept {
  return metadata_ == nullptr ? 0 : metadata_->used_bytes() - metadata_start_;
}

inline std::size_t Session::input_count() const noexcept {
  return model_ == nullptr ? 0 : model_->graph().inputs.size();
}
inline std::size_t Session::output_count() const noexcept {
  return model_ == nullptr ? 0 : model_->graph().outputs.size();
}
inline std::string_view Session::input_name(std::size_t index) const noexcept {
  if (index >= input_count()) return {};
  return model_->graph().values[model_->graph().inputs[index]].name;
}
inline std::string_view Session::output_name(std::size_t index) const noexcept {
  if (index >= output_count()) return {};
  return model_->graph().values[model_->graph().outputs[index]].name;
}

inline Status Session::input_index(std::string_view name, std::size_t& index) const noexcept {
  for (std::size_t i = 0; i < input_count(); ++i) {
    if (input_name(i) == name) {
      index = i;
      return {};
    }
  }
  Status s(StatusCode::invalid_argument);
  s << "the model has no input '" << name << "'; its inputs are:";
  for (std::size_t i = 0; i < input_count(); ++i) s << " '" << input_name(i) << "'";
  return s;
}
inline Status Session::output_index(std::string_view name, std::size_t& index) const noexcept {
  for (std::size_t i = 0; i < output_count(); ++i) {
    if (output_name(i) == name) {
      index = i;
      return {};
    }
  }
  Status s(StatusCode::invalid_argument);
  s << "the model has no output '" << name << "'; its outputs are:";
  for (std::size_t i = 0; i < output_count(); ++i) s << " '" << output_name(i) << "'";
  return s;
}

inline Status Session::prepare(const Model& model, KernelRegistry registry, const SessionOptions& options) noexcept {
  release();
  required_arena_bytes_ = 0;
  max_shapes_arena_bytes_ = 0;
  replan_count_ = 0;
  missing_input_value_ = -1;
  if (!model.loaded()) return Status(StatusCode::invalid_argument) << "prepare() needs a loaded Model";
  model_ = &model;
  registry_ = registry;
  metadata_ = options.metadata_allocator;
#if ONNXMICRO_HAS_HEAP
  if (metadata_ == nullptr) {
    owned_metadata_.reset();
    metadata_ = &owned_metadata_;
  }
#endif
  if (metadata_ == nullptr) {
    return Status(StatusCode::invalid_argument)
           << "SessionOptions::metadata_allocator is required when ONNXMICRO_HAS_HEAP is 0";
  }
  metadata_start_ = metadata_->used_bytes();
#if !ONNXMICRO_ENABLE_DYNAMIC_SHAPES
  const char* const dynamic_option = !options.input_shapes.empty()       ? "input_shapes"
                                     : !options.max_input_shapes.empty() ? "max_input_shapes"
                                     : !options.input_values.empty()     ? "input_values"
                                                                         : nullptr;
  if (dynamic_option != nullptr) {
    return Status(StatusCode::unsupported)
           << "SessionOptions::" << dynamic_option
           << " binds graph inputs at prepare time, which this build compiles out (ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0): "
              "every input must have the shape the model fixes";
  }
#endif
  kept_.arena = options.arena;
  kept_.arena_bytes = options.arena_bytes;
  kept_.string_pool = options.string_pool;
  kept_.string_pool_bytes = options.string_pool_bytes;
  kept_.inputs_outlive_run = options.inputs_outlive_run;
  kept_.size_optimized_kernels = options.size_optimized_kernels;
#if ONNXMICRO_ENABLE_DYNAMIC_SHAPES
  for (const InputShape& bound : options.input_shapes) {
    std::size_t ignored;
    ONNXMICRO_RETURN_IF_ERROR(input_index(bound.name, ignored));
  }
  for (const InputValue& bound : options.input_values) {
    std::size_t ignored;
    ONNXMICRO_RETURN_IF_ERROR(input_index(bound.name, ignored));
  }
  const std::size_t inputs = input_count();
  ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(inputs, bind_value_));
  ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(inputs, max_shapes_));
  ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(inputs, has_max_shape_));
  ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(inputs, replan_shapes_));
  ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(inputs, replan_values_));
  bool any_max = false;
  for (const InputShape& bound : options.max_input_shapes) {
    std::size_t index = 0;
    ONNXMICRO_RETURN_IF_ERROR(input_index(bound.name, index));
    for (int d = 0; d < bound.shape.rank(); ++d) {
      if (bound.shape[d] < 0) {
        return Status(StatusCode::invalid_argument) << "input '" << bound.name << "': maximum shape " << bound.shape
                                                    << " has a negative dim (SessionOptions::max_input_shapes)";
      }
    }
    max_shapes_[index] = bound.shape;
    has_max_shape_[index] = 1;
    any_max = true;
  }
#endif
  // QDQ groups become integer nodes once, for every plan (the rewrite does not depend on shapes).
  graph_ = &model.graph();
  if (options.fuse_qdq) {
#if ONNXMICRO_ENABLE_QDQ_FUSION
    detail::qdq::Fuser fuser(model.graph(), registry, *metadata_);
    ONNXMICRO_RETURN_IF_ERROR(fuser.run(fused_graph_, fused_clamps_, quantized_nodes_));
    graph_ = &fused_graph_;
#else
    // Running the QDQ groups in float without being asked would be a silent slow path.
    for (const model::Node& node : model.graph().nodes) {
      if (node.op_type == "DequantizeLinear" && node.domain.empty()) {
        Status s(StatusCode::unsupported);
        Model::describe_node(s, node) << ": a QDQ model, but this build compiled QDQ fusion out "
                                      << "(ONNXMICRO_ENABLE_QDQ_FUSION=0); set SessionOptions::fuse_qdq = false to run "
                                         "its DequantizeLinear -> op -> QuantizeLinear groups in float";
        return s;
      }
    }
#endif
  }
  // Everything from here on is rewound by a re-plan.
  metadata_mark_ = metadata_->used_bytes();

#if ONNXMICRO_ENABLE_DYNAMIC_SHAPES
  if (any_max) {
    // First the plan at the maxima, which sizes the arena; inputs without a maximum take the caller's shape and
    // value, if any.
    std::size_t shape_count = 0, value_count = 0;
    for (std::size_t i = 0; i < inputs; ++i) {
      if (has_max_shape_[i]) {
        replan_shapes_[shape_count++] = InputShape{input_name(i), max_shapes_[i]};
        continue;
      }
      for (const InputShape& bound : options.input_shapes)
        if (bound.name == input_name(i)) replan_shapes_[shape_count] = bound;
      if (!replan_shapes_[shape_count].name.empty()) ++shape_count;
    }
    // Values are offered for inputs without a maximum, and for those whose value has exactly the maximum shape.
    for (std::size_t i = 0; i < inputs; ++i) {
      for (const InputValue& offered : options.input_values) {
        if (offered.name == input_name(i) && (!has_max_shape_[i] || offered.value.shape == max_shapes_[i]))
          replan_values_[value_count++] = offered;
      }
    }
    Status st = plan_for(Span<const InputShape>(replan_shapes_.data(), shape_count),
                         Span<const InputValue>(replan_values_.data(), value_count));
    if (!st.ok()) {
      if (missing_input_value_ >= 0) {
        st << " (a shape that depends on an input's value cannot be bounded by maximum shapes yet: prepare without "
              "SessionOptions::max_input_shapes, and the arena follows each plan)";
      }
      return st.prepend("planning at SessionOptions::max_input_shapes: ");
    }
    max_shapes_arena_bytes_ = required_arena_bytes_;
    if (options.input_shapes.empty() && options.input_values.empty()) return st;
    ONNXMICRO_RETURN_IF_ERROR(check_against_max_shapes(options.input_shapes));
    // Then the plan at the caller's shapes; inputs they leave out stay at their maxima.
    shape_count = merge_shapes(options.input_shapes, false);
    return plan_for(Span<const InputShape>(replan_shapes_.data(), shape_count), options.input_values);
  }
#endif
  // (Without dynamic shapes both are empty: one plan, at the shapes the model fixes.)
  return plan_for(options.input_shapes, options.input_values);
}

// Fills replan_shapes_ with one shape per input that has one: the given shape, else (keep_current) the shape of
// the current plan, else the declared maximum. Returns how many. `given` must not be replan_shapes_ itself.
inline std::size_t Session::merge_shapes(Span<const InputShape> given, bool keep_current) noexcept {
  const model::Graph& graph = model_->graph();
  std::size_t count = 0;
  for (std::size_t i = 0; i < input_count(); ++i) {
    InputShape merged;
    for (const InputShape& bound : given)
      if (bound.name == input_name(i)) merged = bound;
    if (merged.name.empty() && keep_current && prepared_)
      merged = InputShape{input_name(i), values_[graph.inputs[i]].info.shape};
    if (merged.name.empty() && has_max_shape_[i]) merged = InputShape{input_name(i), max_shapes_[i]};
    if (!merged.name.empty()) replan_shapes_[count++] = merged;
  }
  return count;
}

// One full planning (the passes prepare() always did), from the metadata mark, reusing the arena.
inline Status Session::plan_for(Span<const InputShape> shapes, Span<const InputValue> values) noexcept {
  SessionOptions options;
  options.arena = kept_.arena;
  options.arena_bytes = kept_.arena_bytes;
  options.metadata_allocator = metadata_;
  options.input_shapes = shapes;
  options.input_values = values;
  options.string_pool = kept_.string_pool;
  options.string_pool_bytes = kept_.string_pool_bytes;
  options.inputs_outlive_run = kept_.inputs_outlive_run;
  options.size_optimized_kernels = kept_.size_optimized_kernels;
  for (unsigned char& bind : bind_value_) bind = 0;
  // A pass that finds a shape-deciding input fed by graph inputs whose values the caller offered binds them
  // and starts over; each retry binds at least one more input, so this ends.
  for (;;) {
    release_plan();
    metadata_->rewind(metadata_mark_);
    missing_input_value_ = -1;
    bool retry = false;
    Status st = prepare_pass(options, bind_value_, retry);
    if (st.ok() || !retry) {
      if (!st.ok()) release_plan();
      return st;
    }
  }
}

inline Status Session::check_against_max_shapes(Span<const InputShape> shapes) const noexcept {
  for (const InputShape& bound : shapes) {
    std::size_t index = 0;
    ONNXMICRO_RETURN_IF_ERROR(input_index(bound.name, index));
    if (!has_max_shape_[index]) continue;
    const Shape& max = max_shapes_[index];
    if (bound.shape.rank() != max.rank()) {
      return Status(StatusCode::invalid_argument)
             << "input '" << bound.name << "': shape " << bound.shape << " has rank " << bound.shape.rank()
             << ", its declared maximum " << max << " has rank " << max.rank() << " (SessionOptions::max_input_shapes)";
    }
    for (int d = 0; d < max.rank(); ++d) {
      if (bound.shape[d] > max[d]) {
        return Status(StatusCode::invalid_argument)
               << "input '" << bound.name << "' dim " << d << " is " << static_cast<long long>(bound.shape[d])
               << ", above its declared maximum " << static_cast<long long>(max[d]) << " (shape " << bound.shape
               << ", maximum " << max << "; SessionOptions::max_input_shapes sized the arena)";
      }
    }
  }
  return {};
}

// A dim_param names one size: every input dim carrying the same name must be bound to the same value.
inline Status Session::check_symbolic_dims() const noexcept {
  const model::Graph& graph = model_->graph();
  for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
    const model::Value& a = graph.values[graph.inputs[i]];
    if (!a.has_declared_shape || is_value_container(a.dtype)) continue;
    const Shape& shape_a = values_[graph.inputs[i]].info.shape;
    for (int da = 0; da < a.declared_rank && da < shape_a.rank(); ++da) {
      const std::string_view param = a.declared_dims[da].param;
      if (param.empty() || a.declared_dims[da].value >= 0) continue;
      for (std::size_t j = 0; j <= i; ++j) {
        const model::Value& b = graph.values[graph.inputs[j]];
        if (!b.has_declared_shape || is_value_container(b.dtype)) continue;
        const Shape& shape_b = values_[graph.inputs[j]].info.shape;
        for (int db = 0; db < b.declared_rank && db < shape_b.rank(); ++db) {
          if (j == i && db >= da) break;
          if (b.declared_dims[db].param != param || b.declared_dims[db].value >= 0) continue;
          if (shape_a[da] != shape_b[db]) {
            return Status(StatusCode::invalid_argument)
                   << "input '" << a.name << "' dim " << da << " ('" << param << "') is bound to "
                   << static_cast<long long>(shape_a[da]) << " but input '" << b.name << "' dim " << db << " ('"
                   << param << "') is bound to " << static_cast<long long>(shape_b[db])
                   << ": a symbolic dim has one value per run";
          }
        }
      }
    }
  }
  return {};
}

// True when binding these shapes and values would change the current plan.
inline bool Session::plan_differs(Span<const InputShape> shapes, Span<const InputValue> values) const noexcept {
  if (!prepared_) return true;
  const model::Graph& graph = model_->graph();
  for (const InputShape& bound : shapes) {
    std::size_t index = 0;
    if (!input_index(bound.name, index).ok()) return true;
    if (values_[graph.inputs[index]].info.shape != bound.shape) return true;
  }
  for (const InputValue& offered : values) {
    std::size_t index = 0;
    if (!input_index(offered.name, index).ok()) return true;
    const ValueRuntime& rt = values_[graph.inputs[index]];
    if (!rt.info.is_constant) continue;  // an ordinary input: its value does not shape the plan
    if (offered.value.dtype != rt.info.dtype || offered.value.shape != rt.info.shape) return true;
    if (rt.info.shape.element_count() > 0 &&
        (offered.value.data == nullptr ||
         !detail::same_elements(rt.info.dtype, rt.data, offered.value.data, rt.info.shape.element_count())))
      return true;
  }
  return false;
}

inline Status Session::set_input_shapes(Span<const InputShape> shapes, Span<const InputValue> values) noexcept {
#if !ONNXMICRO_ENABLE_DYNAMIC_SHAPES
  (void)shapes;
  (void)values;
  return Status(StatusCode::unsupported)
         << "set_input_shapes(): this build cannot re-plan (ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0)";
#else
  if (model_ == nullptr || metadata_ == nullptr || bind_value_.size() != input_count()) {
    return Status(StatusCode::invalid_argument) << "set_input_shapes() before prepare()";
  }
  for (const InputValue& offered : values) {
    std::size_t ignored;
    ONNXMICRO_RETURN_IF_ERROR(input_index(offered.name, ignored));
  }
  ONNXMICRO_RETURN_IF_ERROR(check_against_max_shapes(shapes));
  if (!plan_differs(shapes, values)) return {};
  // Inputs left out keep their current shape (or their maximum after a failed re-plan). run(inputs) passes
  // replan_shapes_ itself, complete: nothing to merge.
  const std::size_t count = shapes.data() == replan_shapes_.data() ? shapes.size() : merge_shapes(shapes, true);
  ++replan_count_;
  return plan_for(Span<const InputShape>(replan_shapes_.data(), count), values);
#endif
}

inline Status Session::run(Span<const InputValue> inputs) noexcept {
#if !ONNXMICRO_ENABLE_DYNAMIC_SHAPES
  (void)inputs;
  return Status(StatusCode::unsupported)
         << "run(inputs): this build cannot re-plan (ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0); use set_input() and run()";
#else
  if (model_ == nullptr || metadata_ == nullptr || bind_value_.size() != input_count()) {
    return Status(StatusCode::invalid_argument) << "run(inputs) before prepare()";
  }
  for (const InputValue& given : inputs) {
    std::size_t ignored;
    ONNXMICRO_RETURN_IF_ERROR(input_index(given.name, ignored));
  }
  for (std::size_t i = 0; i < input_count(); ++i) {
    std::size_t found = 0;
    for (const InputValue& given : inputs) found += given.name == input_name(i) ? 1 : 0;
    if (found != 1) {
      return Status(StatusCode::invalid_argument)
             << "run(inputs): input '" << input_name(i) << "' is "
             << (found == 0 ? "missing (every graph input must be given)" : "given more than once");
    }
  }
  for (const InputValue& given : inputs) {
    std::size_t index = 0;
    ONNXMICRO_RETURN_IF_ERROR(input_index(given.name, index));
    replan_shapes_[index] = InputShape{input_name(index), given.value.shape};
  }
  ONNXMICRO_RETURN_IF_ERROR(set_input_shapes(replan_shapes_, inputs));
  for (const InputValue& given : inputs) ONNXMICRO_RETURN_IF_ERROR(set_input(given.name, given.value));
  return run();
#endif
}

inline bool Session::input_bound_at_prepare(std::size_t index) const noexcept {
  if (!prepared_ || index >= input_count()) return false;
  return values_[model_->graph().inputs[index]].info.is_constant;
}

inline Status Session::prepare_pass(const SessionOptions& options, Span<unsigned char> bind_value,
                                    bool& retry) noexcept {
  MetadataAllocator& allocator = *metadata_;
  KernelRegistry registry = registry_;
  const model::Graph& graph = *graph_;
  const std::size_t node_count = graph.nodes.size();
  const std::int32_t end_step = static_cast<std::int32_t>(node_count);
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(graph.values.size(), values_));
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, nodes_));
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node_count, reports_));

  // 1. Every node gets its kernel before anything else, so a missing kernel is reported up front.
  for (std::size_t i = 0; i < node_count; ++i) {
    const model::Node& node = graph.nodes[i];
    const KernelEntry* entry = find_kernel(registry, node.domain, node.op_type, node.opset_version);
    if (entry == nullptr) {
      Status s(StatusCode::unsupported);
      Model::describe_node(s, node) << ": no kernel in this build implements " << node.op_type << " at opset "
                                    << static_cast<long long>(node.opset_version) << "; versions this build has:";
      return detail::describe_available_versions(s, registry, node.domain, node.op_type);
    }
    nodes_[i].kernel = entry;
    reports_[i].node = &node;
    reports_[i].kernel = entry;
  }

  // 2. Constants and graph inputs.
  const bool little_endian = detail::host_is_little_endian();
  for (std::size_t id = 0; id < graph.values.size(); ++id) {
    const model::Value& value = graph.values[id];
    ValueRuntime& rt = values_[id];
    rt.info.present = true;
    rt.info.name = value.name;
    rt.info.dtype = value.dtype;
    if (value.kind == model::ValueKind::initializer) {
      const proto::Tensor& tensor = value.initializer();
      ONNXMICRO_RETURN_IF_ERROR(rt.info.shape.assign(tensor.dims, static_cast<std::size_t>(tensor.rank)));
      // The loader resolves external data (model/external_data.hpp) into raw_data; unresolved means a bug there.
      if (tensor.data_location == proto::DataLocation::external && !tensor.has_raw_data) {
        return Status(StatusCode::internal)
               << "initializer '" << value.name << "' uses external data that the loader did not resolve";
      }
      std::size_t bytes = 0;
      Status st = checked_byte_size(value.dtype, rt.info.shape, bytes);
      if (!st.ok()) return Status(st.code()) << "initializer '" << value.name << "': " << st.message_view();
      rt.info.is_constant = true;
      if (bytes == 0) {
        rt.info.const_data = detail::empty_tensor_storage();
      } else if (!dtype_enabled(value.dtype)) {
        // Never decoded (decode_to() is compiled without this dtype): step 3 refuses, by node, every node reading
        // it, and a graph output is refused here.
        if (value.is_graph_output) {
          return Status(StatusCode::unsupported)
                 << "graph output '" << value.name << "' is an initializer of dtype " << dtype_name(value.dtype)
                 << ", which this build leaves out (" << dtype_disabled_by(value.dtype) << ")";
        }
        rt.info.const_data = nullptr;
      } else if (tensor.has_raw_data && little_endian && tensor.raw_data.size() == bytes &&
                 // Sub-byte dtypes (dtype_size 0) are packed bytes: any address will do.
                 (dtype_size(value.dtype) == 0 ||
                  reinterpret_cast<std::uintptr_t>(tensor.raw_data.data()) % dtype_size(value.dtype) == 0)) {
        rt.info.const_data = tensor.raw_data.data();  // zero-copy: the weights stay in the model bytes
      } else {
        void* storage = allocator.allocate(bytes, ONNXMICRO_TENSOR_ALIGNMENT);
        if (storage == nullptr) {
          return Status(StatusCode::out_of_memory)
                 << "metadata allocator exhausted decoding initializer '" << value.name << "' ("
                 << static_cast<unsigned long long>(bytes) << " bytes)";
        }
        ONNXMICRO_RETURN_IF_ERROR(tensor.decode_to(storage, bytes));
        rt.info.const_data = storage;
      }
      rt.data = const_cast<void*>(rt.info.const_data);
    } else if (value.kind == model::ValueKind::graph_input) {
      const bool container = is_value_container(value.dtype);
      if (!container && value.type_kind != proto::Type::Kind::tensor) {
        return Status(StatusCode::unsupported)
               << "graph input '" << value.name << "' is a map, which this build does not support";
      }
#if !ONNXMICRO_ENABLE_DYNAMIC_SHAPES
      if (container) {
        return Status(StatusCode::unsupported)
               << "graph input '" << value.name << "' is " << (value.dtype == DataType::optional ? "an " : "a ")
               << dtype_name(value.dtype)
               << ": its value is needed when planning, which this build cannot bind "
                  "(ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0)";
      }
      (void)bind_value;
      (void)retry;
      ONNXMICRO_RETURN_IF_ERROR(detail::declared_input_shape(value, rt.info.shape));
#else
      std::size_t input_position = 0;
      ONNXMICRO_RETURN_IF_ERROR(input_index(value.name, input_position));
      if (container) {
        // Sequences and optionals are values known at prepare time in this build.
        bool offered = false;
        for (const InputValue& b : options.input_values) offered = offered || b.name == value.name;
        if (!offered) {
          missing_input_value_ = static_cast<std::int32_t>(input_position);
          return Status(StatusCode::unsupported)
                 << "graph input '" << value.name << "' is " << (value.dtype == DataType::optional ? "an " : "a ")
                 << dtype_name(value.dtype)
                 << ": its value is needed when planning: offer it in SessionOptions::input_values "
                    "(Session::run(inputs) "
                    "does)";
        }
        bind_value[input_position] = 1;
      }
      if (bind_value[input_position]) {
        ONNXMICRO_RETURN_IF_ERROR(bind_input_value(value, options, allocator, rt));
        continue;
      }
      const InputShape* bound = nullptr;
      for (const InputShape& b : options.input_shapes)
        if (b.name == value.name) bound = &b;
      if (bound != nullptr) {
        if (value.has_declared_shape) {
          if (bound->shape.rank() != value.declared_rank) {
            return Status(StatusCode::invalid_argument)
                   << "input '" << value.name << "': bound shape " << bound->shape << " has rank "
                   << bound->shape.rank() << ", the model declares rank " << value.declared_rank;
          }
          for (int d = 0; d < value.declared_rank; ++d) {
            std::int64_t fixed = value.declared_dims[d].value;
            if (fixed >= 0 && bound->shape[d] != fixed) {
              return Status(StatusCode::invalid_argument)
                     << "input '" << value.name << "': bound shape " << bound->shape << " has dim " << d << " = "
                     << static_cast<long long>(bound->shape[d]) << ", the model fixes it to "
                     << static_cast<long long>(fixed);
            }
          }
        }
        for (int d = 0; d < bound->shape.rank(); ++d) {
          if (bound->shape[d] < 0) {
            return Status(StatusCode::invalid_argument)
                   << "input '" << value.name << "': bound shape " << bound->shape << " has a negative dim";
          }
        }
        rt.info.shape = bound->shape;
      } else {
        ONNXMICRO_RETURN_IF_ERROR(detail::declared_input_shape(value, rt.info.shape));
      }
#endif
      rt.first_use = 0;
      rt.last_use = 0;
    }
  }

#if ONNXMICRO_ENABLE_DYNAMIC_SHAPES  // (else every input dim is fixed by the model)
  ONNXMICRO_RETURN_IF_ERROR(check_symbolic_dims());
#endif

  // 3. Kernels' prepare in execution order: dtype/shape inference, state, folding of all-constant nodes.
  for (std::size_t i = 0; i < node_count; ++i) {
    const model::Node& node = graph.nodes[i];
    NodeRuntime& nr = nodes_[i];
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node.inputs.size(), nr.input_infos));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node.outputs.size(), nr.output_infos));
    bool all_constant = true;
    for (std::size_t k = 0; k < node.inputs.size(); ++k) {
      model::ValueId id = node.inputs[k];
      if (id == model::kNoValue) continue;
      nr.input_infos[k] = values_[id].info;
      if (!values_[id].info.is_constant) all_constant = false;
      // A dtype compiled out of the kernels (ONNXMICRO_ENABLE_FLOAT64/FLOAT16=0, ONNXMICRO_ENABLED_DTYPES) is
      // refused here, by name, before any kernel sees it (or folds it).
      if (!dtype_enabled(values_[id].info.dtype)) {
        return detail::disabled_dtype_error(node, "input", k, graph.values[id].name, values_[id].info.dtype);
      }
    }
    for (std::size_t k = 0; k < node.outputs.size(); ++k) {
      model::ValueId id = node.outputs[k];
      if (id == model::kNoValue) continue;
      nr.output_infos[k].present = true;
      nr.output_infos[k].name = graph.values[id].name;
    }
    kernels::PrepareContext ctx(node, nr.input_infos, nr.output_infos, allocator);
    ctx.set_environment(model_, registry);
    ctx.set_size_optimized(options.size_optimized_kernels);
    if (!fused_clamps_.empty()) ctx.set_fused_clamp(fused_clamps_[i]);
    Status st = nr.kernel->prepare(ctx);
    if (!st.ok()) {
#if ONNXMICRO_ENABLE_DYNAMIC_SHAPES
      int missing = ctx.missing_constant_input();
      if (missing >= 0 && static_cast<std::size_t>(missing) < node.inputs.size()) {
        retry = offer_bindings(node.inputs[missing], options, bind_value);
      }
#endif
      return detail::node_error(node, st);
    }
    if (ctx.unnamed_output() >= 0) {
      return detail::node_error(
          node, Status(StatusCode::invalid_model)
                    << "the op produces output " << ctx.unnamed_output() << ", which the node does not name (it names "
                    << static_cast<unsigned long long>(node.outputs.size()) << " outputs"
                    << (ctx.unnamed_output() < static_cast<int>(node.outputs.size()) ? ", that one as \"\")" : ")"));
    }
    nr.state = ctx.state();
    nr.scratch_bytes = ctx.scratch_bytes();
    for (std::size_t k = 0; k < node.outputs.size(); ++k) {
      model::ValueId id = node.outputs[k];
      if (id == model::kNoValue) continue;
      const kernels::TensorInfo& out = nr.output_infos[k];
      const model::Value& declared = graph.values[id];
      if (out.dtype == DataType::undefined || !out.shape.is_static()) {
        return detail::node_error(node, Status(StatusCode::internal)
                                            << "the kernel did not set the dtype and shape of output "
                                            << static_cast<unsigned long long>(k) << " '" << declared.name << "'");
      }
      if (!dtype_enabled(out.dtype)) return detail::disabled_dtype_error(node, "output", k, declared.name, out.dtype);
      if (declared.dtype != DataType::undefined && declared.dtype != out.dtype) {
        return detail::node_error(node, Status(StatusCode::invalid_model)
                                            << "output " << static_cast<unsigned long long>(k) << " '" << declared.name
                                            << "' is declared " << dtype_name(declared.dtype) << " but the op produces "
                                            << dtype_name(out.dtype));
      }
      ValueRuntime& rt = values_[id];
      rt.info.dtype = out.dtype;
      rt.info.shape = out.shape;
    }
    if (nr.kernel->foldable && (all_constant || !nr.kernel->needs_input_data)) {
      // Computed once here; at run time the node is skipped and its outputs are constants.
      ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node.inputs.size(), nr.inputs));
      ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node.outputs.size(), nr.outputs));
      for (std::size_t k = 0; k < node.inputs.size(); ++k) {
        model::ValueId id = node.inputs[k];
        if (id == model::kNoValue) continue;
        // Shape-only kernels see a null data pointer for inputs whose values are not known yet.
        nr.inputs[k] = ConstTensorView(values_[id].info.dtype, values_[id].info.shape, values_[id].info.const_data);
      }
      for (std::size_t k = 0; k < node.outputs.size(); ++k) {
        model::ValueId id = node.outputs[k];
        if (id == model::kNoValue) continue;
        ValueRuntime& rt = values_[id];
        std::size_t bytes = 0;
        Status size_status = checked_byte_size(rt.info.dtype, rt.info.shape, bytes);
        if (!size_status.ok()) return detail::node_error(node, size_status);
        void* storage =
            bytes == 0 ? detail::empty_tensor_storage() : allocator.allocate(bytes, ONNXMICRO_TENSOR_ALIGNMENT);
        if (storage == nullptr) {
          return detail::node_error(node, Status(StatusCode::out_of_memory)
                                              << "metadata allocator exhausted folding output '" << rt.info.name
                                              << "' (" << static_cast<unsigned long long>(bytes) << " bytes)");
        }
        nr.outputs[k] = TensorView{rt.info.dtype, rt.info.shape, storage};
        rt.info.is_constant = true;
        rt.info.const_data = storage;
        rt.data = storage;
      }
      void* scratch = nullptr;
      if (nr.scratch_bytes > 0) {
        scratch = allocator.allocate(nr.scratch_bytes, ONNXMICRO_TENSOR_ALIGNMENT);
        if (scratch == nullptr) {
          return detail::node_error(node, Status(StatusCode::out_of_memory)
                                              << "metadata allocator exhausted for scratch while folding");
        }
      }
      // Strings a folded node builds live in metadata, as long as the session.
      kernels::StringPool folded_strings(&allocator);
      kernels::RunContext run_ctx(nr.inputs, nr.outputs, nr.state, scratch, nr.scratch_bytes, &folded_strings);
      Status run_status = nr.kernel->run(run_ctx);
      if (!run_status.ok()) return detail::node_error(node, run_status);
      nr.folded = true;
      reports_[i].folded = true;
      continue;
    }
    for (std::size_t k = 0; k < node.outputs.size(); ++k) {
      model::ValueId id = node.outputs[k];
      if (id == model::kNoValue) continue;
      values_[id].first_use = static_cast<std::int32_t>(i);
      values_[id].last_use = static_cast<std::int32_t>(i);
    }
  }

  // 4. Lifetimes over the execution order.
  for (std::size_t i = 0; i < node_count; ++i) {
    if (nodes_[i].folded) continue;
    for (model::ValueId id : graph.nodes[i].inputs) {
      if (id == model::kNoValue || values_[id].info.is_constant) continue;
      if (values_[id].last_use < static_cast<std::int32_t>(i)) values_[id].last_use = static_cast<std::int32_t>(i);
    }
  }
  for (model::ValueId id : graph.outputs) {
    if (!values_[id].info.is_constant) values_[id].last_use = end_step;
  }
  if (options.inputs_outlive_run) {
    for (model::ValueId id : graph.inputs) {
      if (!values_[id].info.is_constant) values_[id].last_use = end_step;
    }
  }

  // 5. Buffers: one per non-constant value, except outputs that reuse a dying input in place; one per scratch.
  std::size_t buffer_count = 0;
  for (const ValueRuntime& rt : values_)
    if (!rt.info.is_constant && rt.first_use >= 0) ++buffer_count;
  for (const NodeRuntime& nr : nodes_)
    if (!nr.folded && nr.scratch_bytes > 0) ++buffer_count;
  Span<PlannedBuffer> buffers;
  Span<std::int32_t> order;
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(buffer_count, buffers));
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(buffer_count, order));
  std::size_t used = 0;
  auto new_buffer = [&](const ValueRuntime& rt, std::int32_t& index) -> Status {
    std::size_t bytes = 0;
    ONNXMICRO_RETURN_IF_ERROR(checked_byte_size(rt.info.dtype, rt.info.shape, bytes));
    index = static_cast<std::int32_t>(used);
    buffers[used].size = bytes;
    buffers[used].first_use = rt.first_use;
    buffers[used].last_use = rt.last_use;
    ++used;
    return {};
  };
  for (model::ValueId id : graph.inputs) {
    if (values_[id].info.is_constant) continue;  // bound at prepare: lives in metadata, not the arena
    Status st = new_buffer(values_[id], values_[id].buffer);
    if (!st.ok()) return Status(st.code()) << "input '" << values_[id].info.name << "': " << st.message_view();
  }
  for (std::size_t i = 0; i < node_count; ++i) {
    NodeRuntime& nr = nodes_[i];
    if (nr.folded) continue;
    const model::Node& node = graph.nodes[i];
    for (std::size_t k = 0; k < node.outputs.size(); ++k) {
      model::ValueId id = node.outputs[k];
      if (id == model::kNoValue) continue;
      ValueRuntime& out = values_[id];
      int in_place = nr.kernel->in_place_input;
      if (k == 0 && in_place >= 0 && static_cast<std::size_t>(in_place) < node.inputs.size()) {
        model::ValueId in_id = node.inputs[in_place];
        if (in_id != model::kNoValue) {
          ValueRuntime& in = values_[in_id];
          const model::Value& in_value = graph.values[in_id];
          bool dies_here = in.last_use == static_cast<std::int32_t>(i);
          if (!in.info.is_constant && in_value.kind == model::ValueKind::intermediate && !in_value.is_graph_output &&
              dies_here && in.buffer >= 0 &&
              byte_size_of(in.info.dtype, in.info.shape.element_count()) ==
                  byte_size_of(out.info.dtype, out.info.shape.element_count())) {
            out.buffer = in.buffer;
            PlannedBuffer& shared = buffers[in.buffer];
            if (shared.last_use < out.last_use) shared.last_use = out.last_use;
            continue;
          }
        }
      }
      Status st = new_buffer(out, out.buffer);
      if (!st.ok()) return detail::node_error(node, st);
    }
    if (nr.scratch_bytes > 0) {
      nr.scratch_buffer = static_cast<std::int32_t>(used);
      buffers[used].size = nr.scratch_bytes;
      buffers[used].first_use = static_cast<std::int32_t>(i);
      buffers[used].last_use = static_cast<std::int32_t>(i);
      ++used;
    }
  }
  buffers = buffers.subspan(0, used);
  plan_arena(buffers, order, ONNXMICRO_TENSOR_ALIGNMENT, plan_);
  required_arena_bytes_ = plan_.arena_bytes;

  // 6. The arena: the caller's, or our own (kept across re-plans; grown only when a plan needs more).
  if (options.arena != nullptr) {
    if (reinterpret_cast<std::uintptr_t>(options.arena) % ONNXMICRO_TENSOR_ALIGNMENT != 0) {
      return Status(StatusCode::invalid_argument)
             << "SessionOptions::arena must be aligned to " << ONNXMICRO_TENSOR_ALIGNMENT << " bytes";
    }
    if (options.arena_bytes < required_arena_bytes_) {
      Status s(StatusCode::out_of_memory);
      s << "the arena is too small: this model needs " << static_cast<unsigned long long>(required_arena_bytes_)
        << " bytes";
      if (!options.input_shapes.empty()) {
        s << " at input shapes";
        for (const InputShape& bound : options.input_shapes) s << " '" << bound.name << "' " << bound.shape;
      }
      return s << ", SessionOptions::arena_bytes is " << static_cast<unsigned long long>(options.arena_bytes);
    }
    arena_ = static_cast<unsigned char*>(options.arena);
    arena_capacity_ = options.arena_bytes;
  } else if (required_arena_bytes_ > arena_capacity_) {
#if ONNXMICRO_HAS_HEAP
    if (owns_arena_) std::free(arena_allocation_);
    arena_ = nullptr;
    arena_capacity_ = 0;
    owns_arena_ = false;
    const std::size_t bytes =
        required_arena_bytes_ > max_shapes_arena_bytes_ ? required_arena_bytes_ : max_shapes_arena_bytes_;
    arena_allocation_ = std::malloc(bytes + ONNXMICRO_TENSOR_ALIGNMENT);
    if (arena_allocation_ == nullptr) {
      return Status(StatusCode::out_of_memory)
             << "could not allocate an arena of " << static_cast<unsigned long long>(bytes) << " bytes";
    }
    arena_ = reinterpret_cast<unsigned char*>(
        align_up(reinterpret_cast<std::uintptr_t>(arena_allocation_), ONNXMICRO_TENSOR_ALIGNMENT));
    arena_capacity_ = bytes;
    owns_arena_ = true;
#else
    return Status(StatusCode::invalid_argument)
           << "SessionOptions::arena is required in a build without heap: this model needs "
           << static_cast<unsigned long long>(required_arena_bytes_) << " bytes";
#endif
  }

  // 7. The string pool, when some value computed at run time is a string tensor.
  bool run_time_strings = false;
  for (const ValueRuntime& rt : values_)
    if (rt.info.dtype == DataType::string && !rt.info.is_constant) run_time_strings = true;
  if (options.string_pool != nullptr) {
    string_pool_ = kernels::StringPool(options.string_pool, options.string_pool_bytes);
  } else if (run_time_strings && owned_string_pool_ == nullptr) {
#if ONNXMICRO_HAS_HEAP
    const std::size_t pool_bytes =
        options.string_pool_bytes != 0 ? options.string_pool_bytes : ONNXMICRO_DEFAULT_STRING_POOL_BYTES;
    owned_string_pool_ = std::malloc(pool_bytes);
    if (owned_string_pool_ == nullptr) {
      return Status(StatusCode::out_of_memory)
             << "could not allocate a string pool of " << static_cast<unsigned long long>(pool_bytes) << " bytes";
    }
    string_pool_ = kernels::StringPool(static_cast<char*>(owned_string_pool_), pool_bytes);
#endif
  }

  // 8. Bind every view to its final address, so run() only calls kernels.
  for (ValueRuntime& rt : values_) {
    if (rt.buffer >= 0) {
      std::size_t offset = buffers[rt.buffer].offset;
      rt.data = buffers[rt.buffer].size == 0 ? detail::empty_tensor_storage() : arena_ + offset;
    }
  }
  for (std::size_t i = 0; i < node_count; ++i) {
    NodeRuntime& nr = nodes_[i];
    if (nr.folded) continue;
    const model::Node& node = graph.nodes[i];
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node.inputs.size(), nr.inputs));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(node.outputs.size(), nr.outputs));
    for (std::size_t k = 0; k < node.inputs.size(); ++k) {
      model::ValueId id = node.inputs[k];
      if (id == model::kNoValue) continue;
      nr.inputs[k] = ConstTensorView(values_[id].info.dtype, values_[id].info.shape, values_[id].data);
    }
    for (std::size_t k = 0; k < node.outputs.size(); ++k) {
      model::ValueId id = node.outputs[k];
      if (id == model::kNoValue) continue;
      nr.outputs[k] = TensorView{values_[id].info.dtype, values_[id].info.shape, values_[id].data};
    }
    if (nr.scratch_buffer >= 0) nr.scratch = arena_ + buffers[nr.scratch_buffer].offset;
  }
  prepared_ = true;
  return {};
}

inline Status Session::bind_input_value(const model::Value& value, const SessionOptions& options,
                                        MetadataAllocator& allocator, ValueRuntime& rt) noexcept {
  const InputValue* bound = nullptr;
  for (const InputValue& b : options.input_values)
    if (b.name == value.name) bound = &b;
  if (bound == nullptr) return Status(StatusCode::internal) << "no value offered for input '" << value.name << "'";
  const ConstTensorView& v = bound->value;
  if (v.dtype != value.dtype) {
    return Status(StatusCode::invalid_argument) << "input '" << value.name << "': expected dtype "
                                                << dtype_name(value.dtype) << ", got " << dtype_name(v.dtype);
  }
  if (value.has_declared_shape) {
    bool matches = v.shape.rank() == value.declared_rank;
    for (int d = 0; matches && d < value.declared_rank; ++d) {
      std::int64_t fixed = value.declared_dims[d].value;
      if (fixed >= 0 && v.shape[d] != fixed) matches = false;
    }
    if (!matches) {
      Status s(StatusCode::invalid_argument);
      s << "input '" << value.name << "': value of shape " << v.shape << " contradicts the declared shape [";
      for (int d = 0; d < value.declared_rank; ++d) {
        if (d) s << ",";
        if (value.declared_dims[d].value >= 0)
          s << static_cast<long long>(value.declared_dims[d].value);
        else
          s << (value.declared_dims[d].param.empty() ? std::string_view("?") : value.declared_dims[d].param);
      }
      return s << "]";
    }
  }
  std::size_t bytes = 0;
  Status size_status = checked_byte_size(v.dtype, v.shape, bytes);
  if (!size_status.ok())
    return Status(size_status.code()) << "input '" << value.name << "': " << size_status.message_view();
  void* storage = bytes == 0 ? detail::empty_tensor_storage() : allocator.allocate(bytes, ONNXMICRO_TENSOR_ALIGNMENT);
  if (storage == nullptr) {
    return Status(StatusCode::out_of_memory) << "metadata allocator exhausted binding input '" << value.name << "'";
  }
  if (bytes > 0) {
    if (v.data == nullptr) return Status(StatusCode::invalid_argument) << "input '" << value.name << "': data is null";
    std::memcpy(storage, v.data, bytes);
    if (is_value_container(v.dtype)) {
      // The caller's element tensors need not outlive prepare(): keep copies with the bound value.
      Status st = detail::deep_copy_elements(static_cast<ValueRef*>(storage), v.shape.element_count(), allocator);
      if (!st.ok()) return st.prepend("': ").prepend(value.name).prepend("input '");
    }
    if (v.dtype == DataType::string) {
      // The caller's characters need not outlive prepare(): keep a copy with the bound value.
      auto* refs = static_cast<StringRef*>(storage);
      for (std::int64_t i = 0; i < v.shape.element_count(); ++i) {
        char* chars = static_cast<char*>(allocator.allocate(refs[i].size == 0 ? 1 : refs[i].size, 1));
        if (chars == nullptr) {
          return Status(StatusCode::out_of_memory)
                 << "metadata allocator exhausted binding input '" << value.name << "'";
        }
        if (refs[i].size != 0) std::memcpy(chars, refs[i].data, refs[i].size);
        refs[i].data = chars;
      }
    }
  }
  rt.info.shape = v.shape;
  rt.info.is_constant = true;
  rt.info.const_data = storage;
  rt.data = storage;
  return {};
}

// Marks for binding every graph input that `needed` depends on and whose value the caller offered; true when
// at least one new input was marked (worth another pass).
inline bool Session::offer_bindings(model::ValueId needed, const SessionOptions& options,
                                    Span<unsigned char> bind_value) noexcept {
  const model::Graph& graph = model_->graph();
  // Walk up the producers without a stack: ValueRuntime::buffer is free to use as a mark here (the next pass
  // rebuilds values_): -1 unvisited, -2 to visit, -3 visited.
  constexpr std::int32_t kUnvisited = -1, kToVisit = -2, kVisited = -3;
  for (ValueRuntime& rt : values_) rt.buffer = kUnvisited;
  values_[needed].buffer = kToVisit;
  bool marked = false;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t id = 0; id < values_.size(); ++id) {
      if (values_[id].buffer != kToVisit) continue;
      values_[id].buffer = kVisited;
      const model::Value& value = graph.values[id];
      if (value.kind == model::ValueKind::graph_input) {
        std::size_t position = 0;
        if (!input_index(value.name, position).ok() || bind_value[position]) continue;
        bool offered_here = false;
        for (const InputValue& offered : options.input_values) {
          if (offered.name == value.name) {
            bind_value[position] = 1;
            marked = true;
            offered_here = true;
          }
        }
        if (!offered_here && missing_input_value_ < 0) missing_input_value_ = static_cast<std::int32_t>(position);
      } else if (value.producer >= 0) {
        for (model::ValueId in : graph.nodes[value.producer].inputs) {
          if (in != model::kNoValue && values_[in].buffer == kUnvisited) {
            values_[in].buffer = kToVisit;
            changed = true;
          }
        }
      }
    }
  }
  return marked;
}

inline Status Session::set_input(std::size_t index, const ConstTensorView& value) noexcept {
  if (!prepared_) return Status(StatusCode::invalid_argument) << "set_input() before a successful prepare()";
  if (index >= input_count()) {
    return Status(StatusCode::invalid_argument)
           << "input index " << static_cast<unsigned long long>(index) << " is out of range: the model has "
           << static_cast<unsigned long long>(input_count()) << " inputs";
  }
  const ValueRuntime& rt = values_[model_->graph().inputs[index]];
  if (value.dtype != rt.info.dtype) {
    return Status(StatusCode::invalid_argument) << "input '" << rt.info.name << "': expected dtype "
                                                << dtype_name(rt.info.dtype) << ", got " << dtype_name(value.dtype);
  }
  if (value.shape != rt.info.shape) {
    return Status(StatusCode::invalid_argument)
           << "input '" << rt.info.name << "': expected shape " << rt.info.shape << ", got " << value.shape
#if ONNXMICRO_ENABLE_DYNAMIC_SHAPES
           << " (a new shape needs a re-plan: Session::set_input_shapes() or Session::run(inputs))";
#else
           << " (the model fixes it, and this build cannot re-plan: ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0)";
#endif
  }
  std::size_t bytes = byte_size_of(rt.info.dtype, rt.info.shape.element_count());
  if (bytes > 0) {
    if (value.data == nullptr) {
      return Status(StatusCode::invalid_argument) << "input '" << rt.info.name << "': data is null";
    }
#if ONNXMICRO_ENABLE_DYNAMIC_SHAPES  // (else no input is bound at prepare)
    if (rt.info.is_constant) {
      // Bound at prepare: shapes (and folded values) were computed from it, so only that value is valid.
      if (!detail::same_elements(rt.info.dtype, rt.data, value.data, rt.info.shape.element_count())) {
        return Status(StatusCode::invalid_argument)
               << "input '" << rt.info.name
               << "' was bound at prepare time because it decides shapes; this value differs: Session::run(inputs) "
                  "re-plans for it (or prepare again with the new value in SessionOptions::input_values)";
      }
      return {};
    }
#endif
    if (value.data != rt.data) std::memcpy(rt.data, value.data, bytes);
  }
  return {};
}

inline Status Session::set_input(std::string_view name, const ConstTensorView& value) noexcept {
  std::size_t index = 0;
  ONNXMICRO_RETURN_IF_ERROR(input_index(name, index));
  return set_input(index, value);
}

inline TensorView Session::input(std::size_t index) const noexcept {
  if (!prepared_ || index >= input_count()) return TensorView();
  const ValueRuntime& rt = values_[model_->graph().inputs[index]];
  if (rt.info.is_constant) return TensorView();
  return TensorView{rt.info.dtype, rt.info.shape, rt.data};
}

inline Status Session::run() noexcept {
  if (!prepared_) return Status(StatusCode::invalid_argument) << "run() before a successful prepare()";
  const model::Graph& graph = *graph_;
  string_pool_.reset();  // strings of the previous run die here
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    NodeRuntime& nr = nodes_[i];
    if (nr.folded) continue;
    kernels::RunContext ctx(nr.inputs, nr.outputs, nr.state, nr.scratch, nr.scratch_bytes, &string_pool_);
    Status st = nr.kernel->run(ctx);
    if (!st.ok()) return detail::node_error(graph.nodes[i], st);
  }
  return {};
}

inline ConstTensorView Session::output(std::size_t index) const noexcept {
  if (!prepared_ || index >= output_count()) return ConstTensorView();
  const ValueRuntime& rt = values_[model_->graph().outputs[index]];
  return ConstTensorView(rt.info.dtype, rt.info.shape, rt.data);
}

ONNXMICRO_NAMESPACE_END
