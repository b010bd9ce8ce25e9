// SPDX-License-Identifier: MIT
// Session: resolves every node to a kernel for the model's opset imports, infers shapes, folds constants,
// plans one arena, then runs. prepare() does all the allocating and checking; run() allocates nothing.
// The steps of prepare live in their own units: node_preparation.hpp (kernels, shape inference, folding),
// initializers.hpp and input_binding.hpp (constants, input shapes and values), lifetimes.hpp and planner.hpp
// (buffers and offsets), arena.hpp (who owns the arena and the string pool).
#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/model/loader.hpp"
#include "onnxmicro/runtime/activation_fusion.hpp"
#include "onnxmicro/runtime/arena.hpp"
#include "onnxmicro/runtime/device_backend.hpp"
#include "onnxmicro/runtime/initializers.hpp"
#include "onnxmicro/runtime/input_binding.hpp"
#include "onnxmicro/runtime/lifetimes.hpp"
#include "onnxmicro/runtime/node_preparation.hpp"
#include "onnxmicro/runtime/planner.hpp"
#include "onnxmicro/runtime/prepared_graph.hpp"
#include "onnxmicro/runtime/qdq_fusion.hpp"
#include "onnxmicro/runtime/session_options.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// One model prepared to run: prepare() once (or again for other options), then set inputs, run(), read outputs.
/// Not copyable; not thread-safe (one run at a time).
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
  std::size_t arena_capacity() const noexcept { return arena_.capacity(); }
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

  /// Runs every node once. Allocates nothing. Errors name the node. With a node observer set
  /// (SessionOptions::node_observer, set_node_observer()) it runs as run(NodeObserver&) with it.
  Status run() noexcept;
  /// run(), telling `observer` before and after each node (for profilers; without a node observer set, the plain
  /// run() has no such calls). A node placed on a device is finished before after_node.
  Status run(NodeObserver& observer) noexcept;
  /// Replaces SessionOptions::node_observer for the following runs (nullptr: none). prepare() resets it to the
  /// options' value.
  void set_node_observer(NodeObserver* observer) noexcept { kept_.node_observer = observer; }
  NodeObserver* node_observer() const noexcept { return kept_.node_observer; }
  /// Output `k` of node `node_index` (of node_reports(); k below node_reports()[node_index].node->outputs.size()),
  /// for a NodeObserver: valid inside after_node(node_index) only, because the arena reuses the memory for later
  /// nodes (an observer that keeps values copies them; the view allocates nothing). For a Conv that absorbed an
  /// activation (fused_activation()) it holds the clamped values. An empty view (dtype undefined) for an omitted
  /// optional output, an index out of range, and the output of a device node that stays in device memory (only
  /// the tensors transfers() downloads reach the host).
  ConstTensorView node_output(std::size_t node_index, std::size_t k) const noexcept;
  /// Graph value `id` (an id of model::Node::inputs/outputs) where the host holds it now: initializers and values
  /// folded at prepare for the session's life, graph outputs after run(), any other value only while it lives in
  /// the arena (inside NodeObserver::after_node of its producer). An empty view for kNoValue, ids out of range and
  /// values the session never computes (those a fusion absorbed).
  ConstTensorView value(model::ValueId id) const noexcept;

  /// Output `index` after run(): points into the arena (or at a constant), valid until the next run/prepare.
  ConstTensorView output(std::size_t index) const noexcept;

  const MemoryPlan& plan() const noexcept { return plan_; }
  /// Most bytes of the string pool any run() so far has used (see SessionOptions::string_pool_bytes).
  std::size_t string_pool_peak() const noexcept { return string_pool_.pool().peak(); }
  Span<const NodeReport> node_reports() const noexcept { return reports_; }
  /// The nodes node `index` (of node_reports()) absorbed (SessionOptions::fuse_activations), in graph order: a
  /// Conv's or Gemm's Relu/Clip; a MatMul's bias Add, then its Relu/Clip or GELU's Div, Erf, Add, Mul, Mul. Empty
  /// for none.
  Span<const model::Node* const> fused_nodes(std::size_t index) const noexcept {
#if ONNXMICRO_ENABLE_FAST_PATHS
    if (index < fused_nodes_.size()) return fused_nodes_[index];
#else
    static_cast<void>(index);  // (nothing fuses without fast paths)
#endif
    return {};
  }
  /// The last of fused_nodes(index), or null: node `index` writes that node's output instead of its own.
  const model::Node* fused_activation(std::size_t index) const noexcept {
    const Span<const model::Node* const> nodes = fused_nodes(index);
    return nodes.empty() ? nullptr : nodes[nodes.size() - 1];
  }
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
  /// The instruction set the kernels of this session use, chosen at prepare (SessionOptions::max_isa).
  Isa isa() const noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
    return kept_.isa;
#else
    return Isa::baseline;
#endif
  }
  /// Threads the kernels of this session split their work over: SessionOptions::thread_pool's concurrency at
  /// prepare, or 1 without a pool.
  std::size_t thread_count() const noexcept { return thread_workers().count(); }
  /// SessionOptions::device_policy as prepared (cpu_only when no device was given).
  DevicePolicy device_policy() const noexcept {
#if ONNXMICRO_ENABLE_DEVICES
    return kept_.device_policy;
#else
    return DevicePolicy::cpu_only;
#endif
  }
  /// SessionOptions::device as prepared (null when the policy is cpu_only).
  DeviceBackend* device() const noexcept {
#if ONNXMICRO_ENABLE_DEVICES
    return kept_.device;
#else
    return nullptr;
#endif
  }
  /// Why node `index` (of node_reports()) runs where it does when that is not the device asked for (a fallback's
  /// cause, "folded at prepare", ...); empty on the device and without a device policy. Valid until the next plan.
  std::string_view placement_reason(std::size_t index) const noexcept {
#if ONNXMICRO_ENABLE_DEVICES
    if (kept_.device_policy != DevicePolicy::cpu_only && prepared_) return kept_.device->reason(index);
#endif
    static_cast<void>(index);
    return {};
  }
  /// The tensors that cross between host and device in every run (empty without a device policy).
  Span<const TransferReport> transfers() const noexcept {
#if ONNXMICRO_ENABLE_DEVICES
    if (kept_.device_policy != DevicePolicy::cpu_only && prepared_) return kept_.device->transfers();
#endif
    return {};
  }

 private:
  Workers thread_workers() const noexcept {
#if ONNXMICRO_ENABLE_THREADS
    return kept_.workers;
#else
    return Workers();
#endif
  }
  using NodeRuntime = detail::NodeRuntime;
  using ValueRuntime = detail::ValueRuntime;
  /// What prepare() keeps to re-plan later: everything in SessionOptions but the per-call shapes and values.
  struct KeptOptions {
    void* arena = nullptr;
    std::size_t arena_bytes = 0;
    char* string_pool = nullptr;
    std::size_t string_pool_bytes = 0;
    bool inputs_outlive_run = false;
    bool size_optimized_kernels = false;
    bool winograd_convolutions = false;
#if ONNXMICRO_ENABLE_ISA_DISPATCH  // (builds without dispatch keep no byte for it)
    Isa isa = Isa::baseline;       ///< chosen once, at prepare
#endif
#if ONNXMICRO_ENABLE_THREADS
    Workers workers;  ///< SessionOptions::thread_pool and its concurrency, read once, at prepare
#endif
#if ONNXMICRO_ENABLE_DEVICES
    DeviceBackend* device = nullptr;  ///< null when device_policy is cpu_only
    DevicePolicy device_policy = DevicePolicy::cpu_only;
#endif
    NodeObserver* node_observer = nullptr;  ///< SessionOptions::node_observer, or set_node_observer()'s
  };
  void release() noexcept;
  void release_plan() noexcept;
  // prepare(), once per session; its steps and those of prepare_pass are inlined where they are called
  // (ONNXMICRO_DETAIL_ALWAYS_INLINE: split for reading, not for reuse).
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status adopt_metadata_allocator(MetadataAllocator* allocator) noexcept;
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status choose_isa(Isa max_isa) noexcept;
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status adopt_thread_pool(ThreadPool* pool) noexcept;
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status adopt_device(const SessionOptions& options) noexcept;
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status read_dynamic_options(const SessionOptions& options, bool& any_max) noexcept;
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status fuse_qdq_groups(const SessionOptions& options) noexcept;
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status fuse_activations(const SessionOptions& options) noexcept;
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status plan_at_max_shapes(const SessionOptions& options) noexcept;
  // The node loop of run(); `observe(node, after)` is called around each node (a no-op for the plain run()).
  template <typename Observe>
  Status run_nodes(Observe observe) noexcept;
  // One plan (prepare(), and every re-plan).
  Status plan_for(Span<const InputShape> shapes, Span<const InputValue> values) noexcept;
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status prepare_pass(const SessionOptions& options, Span<unsigned char> bind_value,
                                                     bool& retry) noexcept;
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status bind_graph_values(const SessionOptions& options,
                                                          Span<unsigned char> bind_value) noexcept;
#if ONNXMICRO_ENABLE_DYNAMIC_SHAPES
  // The elements of a sequence/optional graph input offered in `options` against the model's declared type.
  Status check_declared_elements(const model::Value& value, const SessionOptions& options) const noexcept;
#endif
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status prepare_nodes(const SessionOptions& options, Span<unsigned char> bind_value,
                                                      bool& retry) noexcept;
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status plan_buffers(const SessionOptions& options,
                                                     detail::BufferList& buffers) noexcept;
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status provide_memory(const SessionOptions& options) noexcept;
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status bind_views(const detail::BufferList& buffers) noexcept;
  ONNXMICRO_DETAIL_ALWAYS_INLINE Status place_on_device() noexcept;
  // Re-plans.
  Status check_against_max_shapes(Span<const InputShape> shapes) const noexcept;
  std::size_t merge_shapes(Span<const InputShape> given, bool keep_current) noexcept;
  bool plan_differs(Span<const InputShape> shapes, Span<const InputValue> values) const noexcept;

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
#if ONNXMICRO_ENABLE_FAST_PATHS
  Span<Span<const model::Node*>> fused_nodes_;    ///< per node of *graph_: the nodes it absorbed (empty: none)
  Span<kernels::FusedEpilogue> fused_epilogues_;  ///< per node of *graph_ (empty when no MatMul absorbed any)
#endif
  detail::ArenaStorage arena_;
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
  detail::StringPoolStorage string_pool_;
#if ONNXMICRO_HAS_HEAP
  ChunkAllocator owned_metadata_;
#endif
};

// ---- implementation ---------------------------------------------------------------------------------------

inline DataType Session::value_dtype(model::ValueId id) const noexcept {
  if (id < 0 || static_cast<std::size_t>(id) >= values_.size()) return DataType::undefined;
  return values_[static_cast<std::size_t>(id)].info.dtype;
}

inline Shape Session::value_shape(model::ValueId id) const noexcept {
  if (id < 0 || static_cast<std::size_t>(id) >= values_.size()) return Shape();
  return values_[static_cast<std::size_t>(id)].info.shape;
}

inline Session::~Session() { release(); }

inline void Session::release() noexcept {
  release_plan();
  arena_.release();
  string_pool_.release();
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
#if ONNXMICRO_ENABLE_FAST_PATHS
  fused_nodes_ = Span<Span<const model::Node*>>();
  fused_epilogues_ = Span<kernels::FusedEpilogue>();
#endif
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
  if (!prepared_ || to == arena_.data() || arena_.data() == nullptr) return;
  const std::uintptr_t from = reinterpret_cast<std::uintptr_t>(arena_.data());
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
  arena_.rebase(to);
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
  ONNXMICRO_RETURN_IF_ERROR(adopt_metadata_allocator(options.metadata_allocator));
  kept_.arena = options.arena;
  kept_.arena_bytes = options.arena_bytes;
  kept_.string_pool = options.string_pool;
  kept_.string_pool_bytes = options.string_pool_bytes;
  kept_.inputs_outlive_run = options.inputs_outlive_run;
  kept_.size_optimized_kernels = options.size_optimized_kernels;
  kept_.winograd_convolutions = options.winograd_convolutions;
  kept_.node_observer = options.node_observer;
  ONNXMICRO_RETURN_IF_ERROR(choose_isa(options.max_isa));
  ONNXMICRO_RETURN_IF_ERROR(adopt_thread_pool(options.thread_pool));
  ONNXMICRO_RETURN_IF_ERROR(adopt_device(options));
  bool any_max = false;
  ONNXMICRO_RETURN_IF_ERROR(read_dynamic_options(options, any_max));
  ONNXMICRO_RETURN_IF_ERROR(fuse_qdq_groups(options));
  ONNXMICRO_RETURN_IF_ERROR(fuse_activations(options));
  // Everything from here on is rewound by a re-plan.
  metadata_mark_ = metadata_->used_bytes();
  if (any_max) return plan_at_max_shapes(options);
  // (Without dynamic shapes both are empty: one plan, at the shapes the model fixes.)
  return plan_for(options.input_shapes, options.input_values);
}

inline Status Session::adopt_metadata_allocator(MetadataAllocator* allocator) noexcept {
  metadata_ = allocator;
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
  return {};
}

// The best instruction set the CPU has, at most the caller's cap and the environment's (ONNXMICRO_MAX_ISA).
// The caller's pool and its concurrency, fixed for the session (kernels plan per-thread scratch from it).
inline Status Session::adopt_thread_pool(ThreadPool* pool) noexcept {
#if ONNXMICRO_ENABLE_THREADS
  kept_.workers = pool != nullptr ? Workers(pool, pool->concurrency()) : Workers();
  return {};
#else
  if (pool == nullptr) return {};
  return Status(StatusCode::unsupported)
         << "SessionOptions::thread_pool is set, but this build has ONNXMICRO_ENABLE_THREADS=0 (the default on bare "
            "metal and with ONNXMICRO_OPTIMIZE_FOR_SIZE): build with -DONNXMICRO_ENABLE_THREADS=1 or pass no pool";
#endif
}

// The device backend and its policy, fixed for the session (every plan places nodes again).
inline Status Session::adopt_device(const SessionOptions& options) noexcept {
  if (options.device_policy == DevicePolicy::cpu_only) return {};
#if ONNXMICRO_ENABLE_DEVICES
  if (options.device == nullptr) {
    return Status(StatusCode::invalid_argument)
           << "SessionOptions::device_policy asks for a device, but SessionOptions::device is null (e.g. an "
              "onnxmicro::opencl::Backend from <onnxmicro/backends/opencl.hpp>)";
  }
  kept_.device = options.device;
  kept_.device_policy = options.device_policy;
  return {};
#else
  // (Short: this is the firmware's copy.)
  return Status(StatusCode::unsupported) << "SessionOptions::device_policy needs ONNXMICRO_ENABLE_DEVICES=1";
#endif
}

inline Status Session::choose_isa(Isa max_isa) noexcept {
#if ONNXMICRO_ENABLE_ISA_DISPATCH
  if (!effective_isa(max_isa, kept_.isa)) {
    return Status(StatusCode::invalid_argument)
           << "environment variable ONNXMICRO_MAX_ISA='" << std::getenv("ONNXMICRO_MAX_ISA")
           << "' is not an instruction set: expected sse2, avx2, avx512 or best";
  }
#else
  static_cast<void>(max_isa);
#endif
  return {};
}

// Checks the names in input_shapes/input_values/max_input_shapes and keeps the maxima (any_max: some given).
inline Status Session::read_dynamic_options(const SessionOptions& options, bool& any_max) noexcept {
  any_max = false;
#if !ONNXMICRO_ENABLE_DYNAMIC_SHAPES
  const char* const dynamic_option = !options.input_shapes.empty()       ? "input_shapes"
                                     : !options.max_input_shapes.empty() ? "max_input_shapes"
                                     : !options.input_values.empty()     ? "input_values"
                                                                         : nullptr;
  if (dynamic_option == nullptr) return {};
  return Status(StatusCode::unsupported)
         << "SessionOptions::" << dynamic_option
         << " binds graph inputs at prepare time, which this build compiles out (ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0): "
            "every input must have the shape the model fixes";
#else
  std::size_t ignored;
  for (const InputShape& bound : options.input_shapes) ONNXMICRO_RETURN_IF_ERROR(input_index(bound.name, ignored));
  for (const InputValue& bound : options.input_values) ONNXMICRO_RETURN_IF_ERROR(input_index(bound.name, ignored));
  const std::size_t inputs = input_count();
  ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(inputs, bind_value_));
  ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(inputs, max_shapes_));
  ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(inputs, has_max_shape_));
  ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(inputs, replan_shapes_));
  ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(inputs, replan_values_));
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
  return {};
#endif
}

// Relu/Clip after Conv, bias, GELU and Relu/Clip after MatMul fold into their producer once, for every plan
// (runtime/activation_fusion.hpp).
inline Status Session::fuse_activations(const SessionOptions& options) noexcept {
#if ONNXMICRO_ENABLE_FAST_PATHS
  // Size-optimised sessions plan as an ONNXMICRO_OPTIMIZE_FOR_SIZE build runs, which has no fast paths to fuse with.
  if (!options.fuse_activations || options.size_optimized_kernels) return {};
  // The device kernels take a clamp on Conv but no Gemm/MatMul epilogue: with a device, those keep their nodes.
  const bool matrix = options.device == nullptr || options.device_policy == DevicePolicy::cpu_only;
  model::Graph fused;
  detail::activation_fusion::Result result;
  ONNXMICRO_RETURN_IF_ERROR(detail::activation_fusion::fuse(*graph_, fused_clamps_, matrix, *metadata_, fused, result));
  if (result.absorbed.empty()) return {};
  fused_graph_ = fused;
  graph_ = &fused_graph_;
  fused_clamps_ = result.clamps;
  fused_epilogues_ = result.epilogues;
  fused_nodes_ = result.absorbed;
#else
  static_cast<void>(options);
#endif
  return {};
}

// QDQ groups become integer nodes once, for every plan (the rewrite does not depend on shapes).
inline Status Session::fuse_qdq_groups(const SessionOptions& options) noexcept {
  graph_ = &model_->graph();
  if (!options.fuse_qdq) return {};
#if ONNXMICRO_ENABLE_QDQ_FUSION
  detail::qdq::Fuser fuser(model_->graph(), registry_, *metadata_);
  ONNXMICRO_RETURN_IF_ERROR(fuser.run(fused_graph_, fused_clamps_, quantized_nodes_));
  graph_ = &fused_graph_;
#else
  // Running the QDQ groups in float without being asked would be a silent slow path.
  for (const model::Node& node : model_->graph().nodes) {
    if (node.op_type == "DequantizeLinear" && node.domain.empty()) {
      Status s(StatusCode::unsupported);
      Model::describe_node(s, node) << ": a QDQ model, but this build compiled QDQ fusion out "
                                    << "(ONNXMICRO_ENABLE_QDQ_FUSION=0); set SessionOptions::fuse_qdq = false to run "
                                       "its DequantizeLinear -> op -> QuantizeLinear groups in float";
      return s;
    }
  }
#endif
  return {};
}

// First the plan at the maxima, which sizes the arena; then, when the caller bound shapes or values, the plan at
// those (inputs they leave out stay at their maxima).
inline Status Session::plan_at_max_shapes(const SessionOptions& options) noexcept {
#if !ONNXMICRO_ENABLE_DYNAMIC_SHAPES
  (void)options;
  return Status(StatusCode::internal) << "maximum shapes in a build without dynamic shapes";
#else
  // Inputs without a maximum take the caller's shape and value, if any.
  const std::size_t inputs = input_count();
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
  shape_count = merge_shapes(options.input_shapes, false);
  return plan_for(Span<const InputShape>(replan_shapes_.data(), shape_count), options.input_values);
#endif
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
  options.winograd_convolutions = kept_.winograd_convolutions;
  options.max_isa = isa();
  options.thread_pool = thread_workers().pool();
#if ONNXMICRO_ENABLE_DEVICES
  options.device = kept_.device;
  options.device_policy = kept_.device_policy;
#endif
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
               << "input '" << bound.name << "' dim " << d << " is " << bound.shape[d]
               << ", above its declared maximum " << max[d] << " (shape " << bound.shape << ", maximum " << max
               << "; SessionOptions::max_input_shapes sized the arena)";
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

// One planning pass over the graph; `retry` is set when a kernel needs the value of a graph input the caller
// offered but this pass did not bind (plan_for binds it and starts over).
inline Status Session::prepare_pass(const SessionOptions& options, Span<unsigned char> bind_value,
                                    bool& retry) noexcept {
  const model::Graph& graph = *graph_;
  ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(graph.values.size(), values_));
  ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(graph.nodes.size(), nodes_));
  ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(graph.nodes.size(), reports_));
  // 1. Every node gets its kernel before anything else, so a missing kernel is reported up front.
  ONNXMICRO_RETURN_IF_ERROR(detail::resolve_kernels(graph, registry_, nodes_, reports_));
  // 2. Constants and graph inputs.
  ONNXMICRO_RETURN_IF_ERROR(bind_graph_values(options, bind_value));
  // 3. Kernels' prepare in execution order: dtype/shape inference, state, folding of all-constant nodes.
  ONNXMICRO_RETURN_IF_ERROR(prepare_nodes(options, bind_value, retry));
  // 4-5. Lifetimes, buffers (with in-place reuse) and their offsets in the arena.
  detail::BufferList buffers;
  ONNXMICRO_RETURN_IF_ERROR(plan_buffers(options, buffers));
  // 6-7. The arena and the string pool.
  ONNXMICRO_RETURN_IF_ERROR(provide_memory(options));
  // 8. Every view bound to its final address, so run() only calls kernels.
  ONNXMICRO_RETURN_IF_ERROR(bind_views(buffers));
  // 9. With a device policy: which nodes the device runs, its memory, the transfers.
  ONNXMICRO_RETURN_IF_ERROR(place_on_device());
  prepared_ = true;
  return {};
}

inline Status Session::bind_graph_values(const SessionOptions& options, Span<unsigned char> bind_value) noexcept {
  const model::Graph& graph = *graph_;
  for (std::size_t id = 0; id < graph.values.size(); ++id) {
    const model::Value& value = graph.values[id];
    ValueRuntime& rt = values_[id];
    rt.info.present = true;
    rt.info.name = value.name;
    rt.info.dtype = value.dtype;
    if (value.kind == model::ValueKind::initializer) {
      ONNXMICRO_RETURN_IF_ERROR(detail::bind_initializer(value, *metadata_, rt));
      continue;
    }
    if (value.kind != model::ValueKind::graph_input) continue;
    if (!is_value_container(value.dtype) && value.type_kind != proto::Type::Kind::tensor) {
      return Status(StatusCode::unsupported)
             << "graph input '" << value.name << "' is a map, which this build does not support";
    }
#if ONNXMICRO_ENABLE_DYNAMIC_SHAPES
    std::size_t position = 0;
    ONNXMICRO_RETURN_IF_ERROR(input_index(value.name, position));
    ONNXMICRO_RETURN_IF_ERROR(
        detail::bind_graph_input(value, position, options, bind_value, *metadata_, rt, missing_input_value_));
    if (is_value_container(value.dtype)) ONNXMICRO_RETURN_IF_ERROR(check_declared_elements(value, options));
#else
    (void)options;
    (void)bind_value;
    ONNXMICRO_RETURN_IF_ERROR(detail::bind_graph_input(value, rt));
    rt.first_use = 0;
    rt.last_use = 0;
#endif
  }
#if ONNXMICRO_ENABLE_DYNAMIC_SHAPES  // (else every input dim is fixed by the model)
  ONNXMICRO_RETURN_IF_ERROR(detail::check_symbolic_dims(graph, values_));
#endif
  return {};
}

#if ONNXMICRO_ENABLE_DYNAMIC_SHAPES
inline Status Session::check_declared_elements(const model::Value& value,
                                               const SessionOptions& options) const noexcept {
  // Only the model's own graph inputs have a declaration to check; a subgraph session's inputs come from its node.
  if (graph_ != &model_->graph() && graph_ != &fused_graph_) return {};
  const InputValue* offered = detail::find_binding(options.input_values, value.name);
  for (const proto::ValueInfo& info : model_->proto().graph.inputs()) {
    if (info.name == value.name && info.has_type && offered != nullptr) {
      return detail::check_declared_elements(value.name, info.type, offered->value);
    }
  }
  return {};
}
#endif

inline Status Session::prepare_nodes(const SessionOptions& options, Span<unsigned char> bind_value,
                                     bool& retry) noexcept {
  const model::Graph& graph = *graph_;
  detail::NodeEnvironment env;
  env.shared.model = model_;
  env.shared.registry = registry_;
  env.shared.size_optimized = options.size_optimized_kernels;
  env.shared.winograd = options.winograd_convolutions;
  env.shared.isa = isa();
  env.shared.workers = thread_workers();
  env.fused_clamps = fused_clamps_;
#if ONNXMICRO_ENABLE_FAST_PATHS
  env.fused_epilogues = fused_epilogues_;
#endif
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    NodeRuntime& nr = nodes_[i];
    bool all_constant = false;
    model::ValueId missing = model::kNoValue;
    Status st = detail::prepare_node(graph, i, env, *metadata_, values_, nr, all_constant, missing);
    if (!st.ok()) {
#if ONNXMICRO_ENABLE_DYNAMIC_SHAPES
      if (missing != model::kNoValue) {
        retry = detail::mark_inputs_to_bind(graph, values_, missing, options.input_values, bind_value,
                                            missing_input_value_);
      }
#else
      (void)bind_value;
      (void)retry;
#endif
      return st;
    }
#if ONNXMICRO_ENABLE_FAST_PATHS
    reports_[i].rounding = nr.rounding;
#endif
    if (detail::foldable_now(nr, all_constant)) {
      ONNXMICRO_RETURN_IF_ERROR(detail::fold_node(graph.nodes[i], *metadata_, values_, nr));
      reports_[i].folded = true;
      continue;
    }
    for (model::ValueId id : graph.nodes[i].outputs) {
      if (id == model::kNoValue) continue;
      values_[id].first_use = static_cast<std::int32_t>(i);
      values_[id].last_use = static_cast<std::int32_t>(i);
    }
  }
  return {};
}

inline Status Session::plan_buffers(const SessionOptions& options, detail::BufferList& buffers) noexcept {
  detail::mark_lifetimes(*graph_, nodes_, values_, options.inputs_outlive_run);
  ONNXMICRO_RETURN_IF_ERROR(buffers.allocate(values_, nodes_, *metadata_));
  ONNXMICRO_RETURN_IF_ERROR(detail::assign_buffers(*graph_, nodes_, values_, buffers));
  plan_arena(buffers.buffers(), buffers.order(), ONNXMICRO_TENSOR_ALIGNMENT, plan_);
  required_arena_bytes_ = plan_.arena_bytes;
  return {};
}

inline Status Session::provide_memory(const SessionOptions& options) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(arena_.provide(options, required_arena_bytes_, max_shapes_arena_bytes_));
  bool run_time_strings = false;
  for (const ValueRuntime& rt : values_)
    if (rt.info.dtype == DataType::string && !rt.info.is_constant) run_time_strings = true;
  return string_pool_.provide(options, run_time_strings);
}

inline Status Session::bind_views(const detail::BufferList& buffers) noexcept {
  const Span<const PlannedBuffer> planned = buffers.buffers();
  unsigned char* const arena = arena_.data();
  for (ValueRuntime& rt : values_) {
    if (rt.buffer < 0) continue;
    const PlannedBuffer& slot = planned[static_cast<std::size_t>(rt.buffer)];
    rt.data = slot.size == 0 ? detail::empty_tensor_storage() : arena + slot.offset;
  }
  const model::Graph& graph = *graph_;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    NodeRuntime& nr = nodes_[i];
    if (nr.folded) continue;
    const model::Node& node = graph.nodes[i];
    ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(node.inputs.size(), nr.inputs));
    ONNXMICRO_RETURN_IF_ERROR(metadata_->allocate_array(node.outputs.size(), nr.outputs));
    for (std::size_t k = 0; k < node.inputs.size(); ++k) {
      const model::ValueId id = node.inputs[k];
      if (id == model::kNoValue) continue;
      nr.inputs[k] = ConstTensorView(values_[id].info.dtype, values_[id].info.shape, values_[id].data);
    }
    for (std::size_t k = 0; k < node.outputs.size(); ++k) {
      const model::ValueId id = node.outputs[k];
      if (id == model::kNoValue) continue;
      nr.outputs[k] = TensorView{values_[id].info.dtype, values_[id].info.shape, values_[id].data};
    }
    if (nr.scratch_buffer >= 0) nr.scratch = arena + planned[static_cast<std::size_t>(nr.scratch_buffer)].offset;
  }
  return {};
}

inline Status Session::place_on_device() noexcept {
#if ONNXMICRO_ENABLE_DEVICES
  if (kept_.device_policy == DevicePolicy::cpu_only) return {};
  DevicePlanView view;
  view.model = model_;
  view.graph = graph_;
  view.nodes = Span<const NodeRuntime>(nodes_.data(), nodes_.size());
  view.values = Span<const ValueRuntime>(values_.data(), values_.size());
  view.fused_clamps = Span<const kernels::FusedClamp>(fused_clamps_.data(), fused_clamps_.size());
  view.arena = arena_.data();
  view.arena_bytes = plan_.arena_bytes;
  view.reports = reports_;
  ONNXMICRO_RETURN_IF_ERROR(kept_.device->plan(view));
  if (kept_.device_policy != DevicePolicy::device_strict) return {};
  const Status available = kept_.device->available();
  if (!available.ok()) {
    return Status(StatusCode::unsupported) << "device_strict: the device is unavailable: " << available.message_view();
  }
  std::size_t fallbacks = 0;
  for (const NodeReport& report : reports_) fallbacks += report.fallback ? 1 : 0;
  if (fallbacks == 0) return {};
  Status s(StatusCode::unsupported);
  s << "device_strict: " << fallbacks << (fallbacks == 1 ? " node" : " nodes") << " would fall back to the CPU:";
  for (std::size_t i = 0; i < reports_.size(); ++i) {
    if (!reports_[i].fallback) continue;
    Model::describe_node(s << " ", *reports_[i].node) << ": " << kept_.device->reason(i) << ";";
  }
  return s;
#else
  return {};
#endif
}

inline Status Session::set_input(std::size_t index, const ConstTensorView& value) noexcept {
  if (!prepared_) return Status(StatusCode::invalid_argument) << "set_input() before a successful prepare()";
  if (index >= input_count()) {
    return Status(StatusCode::invalid_argument)
           << "input index " << index << " is out of range: the model has " << input_count() << " inputs";
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

namespace detail {
/// The observer of the plain run(): nothing, and device nodes stay asynchronous.
struct UnobservedRun {
  void operator()(std::size_t, bool) const noexcept {}
};
}  // namespace detail

inline Status Session::run() noexcept {
  if (kept_.node_observer != nullptr) return run(*kept_.node_observer);
  return run_nodes(detail::UnobservedRun());
}

inline Status Session::run(NodeObserver& observer) noexcept {
  return run_nodes([&observer](std::size_t node, bool after) noexcept {
    if (after) {
      observer.after_node(node);
    } else {
      observer.before_node(node);
    }
  });
}

template <typename Observe>
inline Status Session::run_nodes(Observe observe) noexcept {
  if (!prepared_) return Status(StatusCode::invalid_argument) << "run() before a successful prepare()";
  const model::Graph& graph = *graph_;
  string_pool_.pool().reset();  // strings of the previous run die here
#if ONNXMICRO_ENABLE_DEVICES
  DeviceBackend* const device = kept_.device_policy != DevicePolicy::cpu_only ? kept_.device : nullptr;
  bool device_pending = false;  // device work enqueued that the host has not waited for
#endif
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    NodeRuntime& nr = nodes_[i];
    if (nr.folded) continue;
#if ONNXMICRO_ENABLE_DEVICES
    if (reports_[i].placement != Placement::cpu) {
      observe(i, false);
      Status st = device->run_node(i);
      // An observer (a profiler's clock) sees each device node complete; the plain run() does not wait.
      if (st.ok() && !std::is_same<Observe, detail::UnobservedRun>::value) st = device->finish();
      observe(i, true);
      if (!st.ok()) return detail::node_error(graph.nodes[i], st);
      device_pending = true;
      continue;
    }
    if (device_pending) {
      device_pending = false;
      ONNXMICRO_RETURN_IF_ERROR(device->finish());
    }
#endif
    kernels::RunContext ctx(nr.inputs, nr.outputs, nr.state, nr.scratch, nr.scratch_bytes, &string_pool_.pool(),
                            thread_workers());
    observe(i, false);
    Status st = nr.kernel->run(ctx);
    observe(i, true);
    if (!st.ok()) return detail::node_error(graph.nodes[i], st);
  }
#if ONNXMICRO_ENABLE_DEVICES
  if (device_pending) ONNXMICRO_RETURN_IF_ERROR(device->finish());
#endif
  return {};
}

inline ConstTensorView Session::value(model::ValueId id) const noexcept {
  if (!prepared_ || id < 0 || static_cast<std::size_t>(id) >= values_.size()) return ConstTensorView();
  const ValueRuntime& rt = values_[static_cast<std::size_t>(id)];
  if (rt.data == nullptr) return ConstTensorView();  // never computed (absorbed by a fusion) or never planned
  return ConstTensorView(rt.info.dtype, rt.info.shape, rt.data);
}

inline ConstTensorView Session::node_output(std::size_t node_index, std::size_t k) const noexcept {
  if (!prepared_ || node_index >= reports_.size()) return ConstTensorView();
  const model::Node& node = *reports_[node_index].node;
  if (k >= node.outputs.size()) return ConstTensorView();
  const model::ValueId id = node.outputs[k];
#if ONNXMICRO_ENABLE_DEVICES
  if (reports_[node_index].placement != Placement::cpu && id != model::kNoValue) {
    bool downloaded = false;  // a device node's output reaches the host only when a transfer downloads it
    for (const TransferReport& transfer : transfers())
      if (transfer.direction == TransferDirection::device_to_host && transfer.tensor == values_[id].info.name)
        downloaded = true;
    if (!downloaded) return ConstTensorView();
  }
#endif
  return value(id);
}

inline ConstTensorView Session::output(std::size_t index) const noexcept {
  if (!prepared_ || index >= output_count()) return ConstTensorView();
  const ValueRuntime& rt = values_[model_->graph().outputs[index]];
  return ConstTensorView(rt.info.dtype, rt.info.shape, rt.data);
}

ONNXMICRO_NAMESPACE_END
