// SPDX-License-Identifier: MIT
// What a caller tells Session::prepare() (SessionOptions, the shapes and values it binds to graph inputs) and
// what the session reports per node (NodeReport). Separate from session.hpp so that the planning units of
// runtime/ can take them without the Session class.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "onnxmicro/core/memory.hpp"
#include "onnxmicro/core/tensor.hpp"
#include "onnxmicro/core/threads.hpp"
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/model/graph.hpp"

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

/// Where a node executes: on the CPU kernels, or on a device backend's (backends/opencl).
enum class Placement : std::uint8_t { cpu = 0, opencl = 1 };

constexpr const char* placement_name(Placement placement) noexcept {
  return placement == Placement::opencl ? "opencl" : "cpu";
}

/// Which nodes a session offers to SessionOptions::device.
enum class DevicePolicy : std::uint8_t {
  cpu_only = 0,   ///< every node on the CPU; SessionOptions::device is ignored
  prefer_device,  ///< every node the device supports on it, the rest on the CPU, each fallback reported with why
  device_strict,  ///< every node on the device, or prepare() fails naming each node that would fall back and why
};

class DeviceBackend;
class NodeObserver;

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
  /// Fold the nodes that only transform a producer's output into the producer (runtime/activation_fusion.hpp): a
  /// Relu, or a Clip with constant float32 bounds, into a Conv or a float32 Gemm with constant weights; a bias Add,
  /// then a Relu/Clip or the Erf form of GELU (Div, Erf, Add, Mul, Mul), into a float32 MatMul with constant
  /// weights (Gemm and MatMul: not in sessions with a device backend). The producer computes each removed node's
  /// operation as it writes its output, saving passes over the tensor and their arena slots; the numbers are
  /// bit-identical. Session::fused_nodes() names each absorbed node. false: every node runs its own kernel, as written;
  /// so do sessions with size_optimized_kernels, and builds without ONNXMICRO_ENABLE_FAST_PATHS (bare-metal ARM,
  /// ONNXMICRO_OPTIMIZE_FOR_SIZE).
  bool fuse_activations = true;
  /// Run stride-1 3x3 float32 Convs with constant weights (and 16 or more input and output channels) as Winograd
  /// F(2x2, 3x3) (kernels/common/winograd.hpp) on CPUs with the packed GEMM (AVX2, AVX-512): 2.25x fewer
  /// multiply-adds, and the packed filters take 16/9 of the weights' bytes. Unlike the fusions it changes the last
  /// bits of the results (errors of a few float roundings of the sum of |products|, as a different summation order
  /// would); each node that runs this way says so in NodeReport::rounding (`onnxmicro plan`). false: every Conv adds
  /// its products in the plain order, the same bits on every instruction set. Never in size-optimised sessions or
  /// builds without ONNXMICRO_ENABLE_FAST_PATHS. Subgraph sessions inherit it. It also lets QLinearConv run such
  /// convs as Winograd on integers (kernels/common/integer_winograd.hpp), which is exact: the direct path's bits,
  /// nothing reported; false keeps them direct too (their packed filters take 16/9 of the direct path's).
  bool winograd_convolutions = true;
  /// Plan and run with the kernels' size-optimised choices, which a build with ONNXMICRO_OPTIMIZE_FOR_SIZE=1
  /// always makes (this option cannot turn them off there): Conv sums each window directly instead of gathering
  /// columns into scratch, Gemm reads a transposed B in place instead of packing a copy. The arena and metadata
  /// differ, so a host planning for such a firmware sets it (`onnxmicro plan --optimize-for-size`). Subgraph
  /// sessions inherit it.
  bool size_optimized_kernels = false;
  /// The highest instruction set the kernels may use (core/isa.hpp): the session takes the best one the CPU has,
  /// at most this and at most the environment variable ONNXMICRO_MAX_ISA (e.g. "sse2", "avx2"; for tests and
  /// benchmarks). Session::isa() tells the choice. Subgraph sessions inherit it.
  Isa max_isa = Isa::best;
  /// Threads the kernels split their work over (core/threads.hpp): Conv, Gemm, MatMul and pooling split their
  /// outputs into at most thread_pool->concurrency() tasks (read once, at prepare; Session::thread_count() tells
  /// it), with per-thread scratch planned in the arena; outputs are bit-identical for any thread count and run()
  /// still allocates nothing. The pool must outlive the session; sessions may share one. runtime/std_thread_pool.hpp
  /// has a ready std::thread pool. nullptr: everything runs on the caller's thread. Builds with
  /// ONNXMICRO_ENABLE_THREADS=0 refuse a pool at prepare. Subgraph sessions inherit it.
  ThreadPool* thread_pool = nullptr;
  /// The device backend nodes may run on (e.g. onnxmicro::opencl::Backend from <onnxmicro/backends/opencl.hpp>),
  /// used per device_policy. One backend serves one session and must outlive it. Placement is decided at every
  /// plan and reported per node (NodeReport::placement, fallback, reason) and per transfer (Session::transfers()).
  DeviceBackend* device = nullptr;
  DevicePolicy device_policy = DevicePolicy::cpu_only;
  /// Told before and after every node of every run(), the plain run() included (as run(NodeObserver&) does);
  /// Session::set_node_observer() changes it. It must outlive the session or be replaced. nullptr (the default):
  /// run() makes no per-node call at all. Subgraph sessions (If, Loop, Scan bodies) are not observed.
  NodeObserver* node_observer = nullptr;
};

/// Watches Session::run(NodeObserver&) (or every run() with SessionOptions::node_observer) node by node: a
/// profiler's clock (`onnxmicro bench`), a debugger's dump (`onnxmicro run --dump`, `onnxmicro compare --layerwise`).
/// Indices are those of Session::node_reports(), in execution order: node_reports()[i].node names the node (op_type,
/// name, outputs: value ids into the model's graph values), .placement says where it runs. Inside after_node(i),
/// Session::node_output(i, k) views the node's k-th output; the arena reuses that memory for later nodes, so an
/// observer that keeps values copies them there (the session allocates nothing for observing). Nodes folded at
/// prepare are not run, so not observed (their values are constants: Session::value()). A Conv that absorbed a Relu
/// or Clip, or a MatMul that absorbed nodes (Session::fused_nodes()), is one event whose output is the last
/// absorbed node's output; a QDQ group
/// fused into an integer node (SessionOptions::fuse_qdq) is that node's event. Both methods are noexcept: an
/// observer cannot stop a run.
class NodeObserver {
 public:
  virtual void before_node(std::size_t node_index) noexcept = 0;
  virtual void after_node(std::size_t node_index) noexcept = 0;

 protected:
  ~NodeObserver() = default;
};

/// Per-node facts after prepare(), for reports (which kernel, placement, folded or not).
struct NodeReport {
  const model::Node* node = nullptr;
  const KernelEntry* kernel = nullptr;
  Placement placement = Placement::cpu;
  bool folded = false;        ///< computed once at prepare time (all inputs constant)
#if ONNXMICRO_ENABLE_DEVICES  // (firmware keeps no byte per node for it)
  /// With a device policy: the node was offered to the device, which cannot run it (Session::placement_reason()
  /// says why).
  bool fallback = false;
#endif
#if ONNXMICRO_ENABLE_FAST_PATHS  // (only fast paths round differently)
  /// How the node's kernel departs from the op's plain order of operations, so that its results differ in the last
  /// bits from a kernel that follows it (null: it does not), e.g. "winograd F(2x2,3x3)"
  /// (SessionOptions::winograd_convolutions).
  const char* rounding = nullptr;
#endif
};

ONNXMICRO_NAMESPACE_END
