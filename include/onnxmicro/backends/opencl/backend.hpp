// SPDX-License-Identifier: MIT
// onnxmicro::opencl::Backend: the DeviceBackend (runtime/device_backend.hpp) that runs nodes on an OpenCL device.
//
//   opencl::Backend device;
//   device.open({/*device=*/"", /*cache_directory=*/""});   // optional: plan() opens with defaults
//   SessionOptions options;
//   options.device = &device;
//   options.device_policy = DevicePolicy::prefer_device;     // or device_strict
//   session.prepare(model, registry, options);               // places nodes; node_reports() say where and why
//
// Device memory is one buffer per session: the arena at the host arena's offsets (so the CPU plan's lifetimes hold
// on the device too), then the constants the device nodes read (uploaded once, at prepare), then the parameter
// blocks of every launch, then one error word. run() enqueues what prepare decided (uploads of host-produced
// inputs, kernels, downloads of what the host reads) and allocates nothing; the driver's own bookkeeping in
// clEnqueue* is outside our control.
#pragma once
#include <cstring>
#include <string>
#include <vector>

#include "onnxmicro/backends/opencl/cl_api.hpp"
#include "onnxmicro/backends/opencl/device.hpp"
#include "onnxmicro/backends/opencl/node_lowering.hpp"
#include "onnxmicro/runtime/device_backend.hpp"

#if !ONNXMICRO_ENABLE_DEVICES
#error "the OpenCL backend needs ONNXMICRO_ENABLE_DEVICES=1 (0 on bare metal and with ONNXMICRO_OPTIMIZE_FOR_SIZE)"
#endif

ONNXMICRO_NAMESPACE_BEGIN
namespace opencl {

struct Options {
  /// Which device: empty (the first GPU, else the first device), "N", "P:D", or a name substring
  /// (see select_device). Tools take it from --opencl-device or ONNXMICRO_OPENCL_DEVICE.
  std::string device;
  /// Directory of the program binary cache; empty: no cache (the program is compiled at every open()).
  std::string cache_directory;
  /// Extra options for the OpenCL C compiler, after "-cl-std=CL1.2" (part of the cache key).
  std::string build_options;
};

class Backend final : public DeviceBackend {
 public:
  Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  ~Backend() = default;

  /// Selects the device, creates its context and queue and obtains the program. A failure is also kept:
  /// available() returns it, so a prefer_device session runs on the CPU and reports why.
  Status open(const Options& options = Options());
  bool opened() const noexcept { return opened_; }
  /// "platform / device (type, version, driver)" once open() succeeded.
  const std::string& device_description() const noexcept { return choice_.description; }
  const ProgramStats& program_stats() const noexcept { return stats_; }
  /// Path of the program cache entry (empty without a cache directory, or when program_stats().cache_bypassed).
  const std::string& cache_entry() const noexcept { return cache_entry_; }
  /// Device bytes of the current plan (arena + constants + parameters) and the constants' share of it.
  std::size_t device_bytes() const noexcept { return device_bytes_; }
  std::size_t constant_bytes() const noexcept { return constant_bytes_; }

  Status available() const noexcept override;
  Status plan(const DevicePlanView& view) noexcept override;
  Status run_node(std::size_t node) noexcept override;
  Status finish() noexcept override;
  std::string_view reason(std::size_t node) const noexcept override {
    return node < reasons_.size() ? std::string_view(reasons_[node]) : std::string_view();
  }
  Span<const TransferReport> transfers() const noexcept override {
    return Span<const TransferReport>(transfers_.data(), transfers_.size());
  }

 private:
  /// What run_node does for one node, in order.
  struct Step {
    enum class Kind : std::uint8_t { upload, launch, copy, download } kind = Kind::launch;
    cl_kernel kernel = nullptr;  ///< launch (arguments set at plan)
    std::size_t work_items = 0;
    std::size_t device_offset = 0;  ///< upload/download: byte offset (host arena offset); copy: destination
    std::size_t source_offset = 0;  ///< copy: source
    std::size_t bytes = 0;
  };
  struct NodeSteps {
    std::size_t first = 0, count = 0;
  };

  void open_if_needed();
  void classify_nodes(const DevicePlanView& view, std::vector<std::vector<Launch>>& launches);
  bool eligible(const DevicePlanView& view, std::size_t node, std::string& why) const;
  Status lay_out_memory(const DevicePlanView& view, std::vector<std::vector<Launch>>& launches,
                        std::vector<unsigned char>& image);
  Status build_steps(const DevicePlanView& view, const std::vector<std::vector<Launch>>& launches);
  Status warm_up();
  std::int64_t byte_offset(const DevicePlanView& view, model::ValueId id) const;
  void release_plan();

  bool opened_ = false;
  std::string unavailable_;  ///< why the device cannot be used (empty when it can)
  DeviceChoice choice_;
  cl::Context context_;
  cl::CommandQueue queue_;
  cl::Program program_;
  ProgramStats stats_;
  std::string cache_entry_;

  // The current plan.
  std::vector<std::string> reasons_;
  std::vector<std::int64_t> constant_offsets_;  ///< per value: byte offset in the device buffer, -1 when not there
  std::vector<Step> steps_;
  std::vector<NodeSteps> node_steps_;
  std::vector<cl::Kernel> kernels_;
  std::vector<TransferReport> transfers_;
  cl::Buffer memory_;
  unsigned char* host_arena_ = nullptr;
  std::size_t device_bytes_ = 0;
  std::size_t constant_bytes_ = 0;
  std::size_t error_word_ = 0;  ///< byte offset of the error word
  bool checks_errors_ = false;  ///< some kernel may set the error word (Gather)
};

// ---- implementation ---------------------------------------------------------------------------------------

inline Status Backend::open(const Options& options) {
  opened_ = true;
  unavailable_.clear();
  std::string why;
  if (!select_device(options.device, choice_, why)) {
    unavailable_ = why;
    return Status(StatusCode::unsupported) << why.c_str();
  }
  cl_int code = CL_SUCCESS;
  context_ = cl::Context(choice_.device, nullptr, nullptr, nullptr, &code);
  if (code == CL_SUCCESS) queue_ = cl::CommandQueue(context_, choice_.device, 0, &code);
  Status st = code == CL_SUCCESS ? Status() : cl_failure("clCreateContext/clCreateCommandQueue", code);
  const std::string build_options =
      options.build_options.empty() ? "-cl-std=CL1.2" : "-cl-std=CL1.2 " + options.build_options;
  if (st.ok()) st = obtain_program(context_, choice_, build_options, options.cache_directory, program_, stats_);
  const bool cached = !options.cache_directory.empty() && stats_.cache_bypassed.empty();
  cache_entry_ = cached ? ProgramCache(options.cache_directory, choice_, build_options).path() : std::string();
  if (!st.ok()) unavailable_ = std::string(choice_.description + ": ") + st.message();
  return st;
}

inline void Backend::open_if_needed() {
  if (opened_) return;
  const char* selector = std::getenv("ONNXMICRO_OPENCL_DEVICE");
  Options options;
  if (selector != nullptr) options.device = selector;
  static_cast<void>(open(options));  // a failure is kept in unavailable_ and reported per node
}

inline Status Backend::available() const noexcept {
  if (!opened_) return Status(StatusCode::unsupported) << "the OpenCL backend was not opened";
  if (unavailable_.empty()) return {};
  return Status(StatusCode::unsupported) << unavailable_.c_str();
}

inline void Backend::release_plan() {
  steps_.clear();
  node_steps_.clear();
  kernels_.clear();
  transfers_.clear();
  reasons_.clear();
  constant_offsets_.clear();
  memory_ = cl::Buffer();
  device_bytes_ = constant_bytes_ = 0;
  checks_errors_ = false;
}

inline Status Backend::plan(const DevicePlanView& view) noexcept {
  open_if_needed();
  release_plan();
  // The session's arena is writable memory; the view is const because planning never writes it.
  host_arena_ = const_cast<unsigned char*>(view.arena);
  std::vector<std::vector<Launch>> launches(view.nodes.size());
  classify_nodes(view, launches);
  bool any = false;
  for (const NodeReport& report : view.reports) any = any || report.placement == Placement::opencl;
  node_steps_.assign(view.nodes.size(), NodeSteps());
  if (!any) return {};
  std::vector<unsigned char> image;
  ONNXMICRO_RETURN_IF_ERROR(lay_out_memory(view, launches, image));
  cl_int code = CL_SUCCESS;
  memory_ = cl::Buffer(context_, CL_MEM_READ_WRITE, device_bytes_, nullptr, &code);
  ONNXMICRO_CL_CHECK("clCreateBuffer (the session's device memory)", code);
  // Constants, parameter blocks and a cleared error word, once.
  const std::size_t image_start = device_bytes_ - image.size();
  ONNXMICRO_CL_CHECK("clEnqueueWriteBuffer (constants)",
                     queue_.enqueueWriteBuffer(memory_, CL_TRUE, image_start, image.size(), image.data()));
  ONNXMICRO_RETURN_IF_ERROR(build_steps(view, launches));
  return warm_up();
}

// Every launch once, on whatever the device buffer holds: drivers compile a kernel for its launch size at the first
// enqueue (PoCL JIT-compiles work-group functions), and that compiling and allocating belongs in prepare, not in the
// first run(). Gather may see garbage indices, so the error word is cleared afterwards.
inline Status Backend::warm_up() {
  for (const Step& step : steps_) {
    if (step.kind != Step::Kind::launch) continue;
    ONNXMICRO_CL_CHECK(
        "clEnqueueNDRangeKernel (warm-up)",
        clEnqueueNDRangeKernel(queue_(), step.kernel, 1, nullptr, &step.work_items, nullptr, 0, nullptr, nullptr));
  }
  ONNXMICRO_CL_CHECK("clFinish (warm-up)", clFinish(queue_()));
  const int cleared = 0;
  ONNXMICRO_CL_CHECK(
      "clEnqueueWriteBuffer (error word)",
      clEnqueueWriteBuffer(queue_(), memory_(), CL_TRUE, error_word_, sizeof cleared, &cleared, 0, nullptr, nullptr));
  return {};
}

/// Shape, Size, and nodes that compute small integer vectors from integer vectors (the arithmetic of dynamic
/// shapes): they stay on the CPU without counting as fallbacks.
inline bool shape_arithmetic(const model::Node& node, const detail::NodeRuntime& runtime) {
  auto integer_vector = [](const kernels::TensorInfo& t) {
    return !t.present || ((t.dtype == DataType::int64 || t.dtype == DataType::int32) && t.shape.rank() <= 1);
  };
  for (const kernels::TensorInfo& out : runtime.output_infos)
    if (!integer_vector(out)) return false;
  if (node.op_type == "Shape" || node.op_type == "Size") return true;
  for (const kernels::TensorInfo& in : runtime.input_infos)
    if (!integer_vector(in)) return false;
  return true;
}

// Placement of every node: folded, shape arithmetic, fallback (with its reason) or OpenCL (with its launches).
inline void Backend::classify_nodes(const DevicePlanView& view, std::vector<std::vector<Launch>>& launches) {
  reasons_.assign(view.nodes.size(), std::string());
  ChunkAllocator unused;
  for (std::size_t i = 0; i < view.nodes.size(); ++i) {
    NodeReport& report = view.reports[i];
    const model::Node& node = view.graph->nodes[i];
    report.placement = Placement::cpu;
    report.fallback = false;
    std::string& why = reasons_[i];
    if (report.folded) {
      why = "folded at prepare";
      continue;
    }
    if (shape_arithmetic(node, view.nodes[i])) {
      why = "shape arithmetic stays on the CPU";
      continue;
    }
    report.fallback = true;
    if (!unavailable_.empty()) {
      why = unavailable_;
      continue;
    }
    if (!eligible(view, i, why)) continue;
    const kernels::FusedClamp clamp = i < view.fused_clamps.size() ? view.fused_clamps[i] : kernels::FusedClamp();
    Lowering lowering(node, view.nodes[i], clamp, unused);
    const LowerFunction lower = lowering_for(node.op_type);
    if (lower == nullptr) {
      why = "no OpenCL kernel for " + std::string(node.op_type);
      continue;
    }
    if (!lower(lowering)) {
      why = lowering.reason();
      continue;
    }
    if (clamp.present() && node.op_type != "Conv") {
      why = "a fused clamp on " + std::string(node.op_type);
      continue;
    }
    launches[i] = std::move(lowering.launches());
    report.placement = Placement::opencl;
    report.fallback = false;
  }
}

// What every OpenCL node needs whatever its op: default domain, no subgraph, every tensor in the arena or constant.
inline bool Backend::eligible(const DevicePlanView& view, std::size_t node_index, std::string& why) const {
  const model::Node& node = view.graph->nodes[node_index];
  if (!node.domain.empty()) {
    why = "no OpenCL kernel for domain " + std::string(node.domain);
    return false;
  }
  if (node.explicit_input_count >= 0 && static_cast<std::size_t>(node.explicit_input_count) < node.inputs.size()) {
    why = "control flow (subgraphs) runs on the CPU";
    return false;
  }
  auto check = [&](model::ValueId id, const char* role) {
    if (id == model::kNoValue) return true;
    const detail::ValueRuntime& rt = view.values[static_cast<std::size_t>(id)];
    // An empty constant (empty axes, say) is read at prepare by the lowering, never by a kernel.
    if (rt.info.is_constant && rt.info.shape.element_count() == 0) return true;
    if (rt.info.shape.element_count() == 0) {
      why = std::string(role) + " '" + std::string(rt.info.name) + "' is empty";
      return false;
    }
    if (rt.info.is_constant) {
      if (rt.info.const_data != nullptr) return true;
      why = std::string(role) + " '" + std::string(rt.info.name) + "' is a constant without data";
      return false;
    }
    const unsigned char* data = static_cast<const unsigned char*>(rt.data);
    if (rt.buffer < 0 || data < view.arena || data >= view.arena + view.arena_bytes) {
      why = std::string(role) + " '" + std::string(rt.info.name) + "' is not in the arena";
      return false;
    }
    return true;
  };
  for (model::ValueId id : node.inputs)
    if (!check(id, "input")) return false;
  for (model::ValueId id : node.outputs)
    if (!check(id, "output")) return false;
  return true;
}

inline std::int64_t Backend::byte_offset(const DevicePlanView& view, model::ValueId id) const {
  const detail::ValueRuntime& rt = view.values[static_cast<std::size_t>(id)];
  if (rt.info.is_constant) return constant_offsets_[static_cast<std::size_t>(id)];
  return static_cast<const unsigned char*>(rt.data) - view.arena;
}

// The device buffer: [arena | constants | parameter blocks | error word]. `image` gets everything after the arena.
inline Status Backend::lay_out_memory(const DevicePlanView& view, std::vector<std::vector<Launch>>& launches,
                                      std::vector<unsigned char>& image) {
  auto align = [](std::size_t n) { return (n + 63) / 64 * 64; };
  const std::size_t arena = align(view.arena_bytes == 0 ? 64 : view.arena_bytes);
  std::size_t at = arena;
  constant_offsets_.assign(view.values.size(), -1);
  auto place_constant = [&](model::ValueId id) {
    const detail::ValueRuntime& rt = view.values[static_cast<std::size_t>(id)];
    if (!rt.info.is_constant || constant_offsets_[static_cast<std::size_t>(id)] >= 0) return;
    const std::size_t bytes = byte_size_of(rt.info.dtype, rt.info.shape.element_count());
    constant_offsets_[static_cast<std::size_t>(id)] = static_cast<std::int64_t>(at);
    image.resize(at + bytes - arena);
    if (bytes > 0) std::memcpy(image.data() + (at - arena), rt.info.const_data, bytes);
    at = align(at + bytes);
  };
  for (std::size_t i = 0; i < launches.size(); ++i)
    for (const Launch& launch : launches[i]) {
      for (const TensorRef& ref : launch.tensors) place_constant(ref.value);
      if (launch.copy_from != model::kNoValue) place_constant(launch.copy_from);
    }
  constant_bytes_ = at - arena;
  image.resize(at - arena);
  // Parameter blocks follow, each at an int index the kernel receives as its second argument.
  error_word_ = at;
  at += 64;
  for (std::vector<Launch>& node_launches : launches)
    for (Launch& launch : node_launches) {
      if (launch.kernel == KernelId::count) continue;
      for (const TensorRef& ref : launch.tensors) {
        const model::ValueId id = ref.value;
        const std::size_t element = dtype_size(view.values[static_cast<std::size_t>(id)].info.dtype);
        const std::int64_t offset = byte_offset(view, id) / static_cast<std::int64_t>(element) + ref.element_offset;
        launch.params[ref.param] = static_cast<int>(offset);
      }
      if (launch.kernel == KernelId::gather) {
        launch.params.back() = static_cast<int>(error_word_ / 4);
        checks_errors_ = true;
      }
      const std::size_t block = at;
      at += align(launch.params.size() * sizeof(int));
      launch.params.push_back(static_cast<int>(block / sizeof(int)));  // remembered for build_steps, not uploaded
    }
  image.resize(at - arena, 0);
  for (const std::vector<Launch>& node_launches : launches)
    for (const Launch& launch : node_launches) {
      if (launch.kernel == KernelId::count) continue;
      const std::size_t block = static_cast<std::size_t>(launch.params.back()) * sizeof(int);
      std::memcpy(image.data() + (block - arena), launch.params.data(), (launch.params.size() - 1) * sizeof(int));
    }
  device_bytes_ = at;
  if (device_bytes_ > (std::size_t(1) << 31) - 1) {
    return Status(StatusCode::unsupported)
           << "OpenCL: the session needs " << device_bytes_ << " device bytes, above the kernels' 2 GiB int indexing";
  }
  return {};
}

// Per node, in run order: uploads of host-produced inputs (each tensor once per run), the launches, and the
// downloads of outputs the host reads (a CPU node or a graph output).
inline Status Backend::build_steps(const DevicePlanView& view, const std::vector<std::vector<Launch>>& launches) {
  const model::Graph& graph = *view.graph;
  std::vector<std::int32_t> producer(view.values.size(), -1);
  std::vector<unsigned char> read_by_host(view.values.size(), 0), on_device(view.values.size(), 0);
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    for (model::ValueId id : graph.nodes[i].outputs)
      if (id != model::kNoValue) producer[static_cast<std::size_t>(id)] = static_cast<std::int32_t>(i);
    if (view.reports[i].placement == Placement::opencl || view.reports[i].folded) continue;
    for (model::ValueId id : graph.nodes[i].inputs)
      if (id != model::kNoValue) read_by_host[static_cast<std::size_t>(id)] = 1;
  }
  for (model::ValueId id : graph.outputs) read_by_host[static_cast<std::size_t>(id)] = 1;
  auto bytes_of = [&](model::ValueId id) {
    const detail::ValueRuntime& rt = view.values[static_cast<std::size_t>(id)];
    return byte_size_of(rt.info.dtype, rt.info.shape.element_count());
  };
  // One crossing of value `id` at node `node`: its step and its report.
  auto transfer = [&](TransferDirection direction, model::ValueId id, std::size_t node) {
    Step step;
    step.kind = direction == TransferDirection::host_to_device ? Step::Kind::upload : Step::Kind::download;
    step.device_offset = static_cast<std::size_t>(byte_offset(view, id));
    step.bytes = bytes_of(id);
    steps_.push_back(step);
    transfers_.push_back(TransferReport{view.values[static_cast<std::size_t>(id)].info.name, direction, step.bytes,
                                        static_cast<std::int32_t>(node)});
  };
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    if (view.reports[i].placement != Placement::opencl) continue;
    node_steps_[i].first = steps_.size();
    const model::Node& node = graph.nodes[i];
    for (model::ValueId id : node.inputs) {
      if (id == model::kNoValue || view.values[static_cast<std::size_t>(id)].info.is_constant) continue;
      const std::int32_t from = producer[static_cast<std::size_t>(id)];
      const bool device_made = from >= 0 && view.reports[static_cast<std::size_t>(from)].placement == Placement::opencl;
      if (device_made || on_device[static_cast<std::size_t>(id)]) continue;
      on_device[static_cast<std::size_t>(id)] = 1;
      transfer(TransferDirection::host_to_device, id, i);
    }
    for (const Launch& launch : launches[i]) {
      Step step;
      if (launch.kernel == KernelId::count) {
        step.kind = Step::Kind::copy;
        step.source_offset = static_cast<std::size_t>(byte_offset(view, launch.copy_from));
        step.device_offset = static_cast<std::size_t>(byte_offset(view, launch.copy_to));
        step.bytes = bytes_of(launch.copy_to);
        if (step.source_offset != step.device_offset) steps_.push_back(step);
        continue;
      }
      cl_int code = CL_SUCCESS;
      cl::Kernel kernel(program_, kernel_name(launch.kernel), &code);
      if (code == CL_SUCCESS) code = kernel.setArg(0, memory_);
      if (code == CL_SUCCESS) code = kernel.setArg(1, launch.params.back());
      if (code != CL_SUCCESS) {
        return detail::node_error(node, cl_failure("clCreateKernel/clSetKernelArg", code)
                                            << " (" << kernel_name(launch.kernel) << ")");
      }
      kernels_.push_back(kernel);
      step.kind = Step::Kind::launch;
      step.kernel = kernel();
      step.work_items = (launch.work_items + 63) / 64 * 64;
      if (launch.work_items > 0) steps_.push_back(step);
    }
    for (model::ValueId id : node.outputs)
      if (id != model::kNoValue && read_by_host[static_cast<std::size_t>(id)]) {
        transfer(TransferDirection::device_to_host, id, i);
      }
    node_steps_[i].count = steps_.size() - node_steps_[i].first;
  }
  return {};
}

inline Status Backend::run_node(std::size_t node) noexcept {
  const NodeSteps& span = node_steps_[node];
  cl_command_queue queue = queue_();
  cl_mem memory = memory_();
  for (std::size_t s = span.first; s < span.first + span.count; ++s) {
    const Step& step = steps_[s];
    switch (step.kind) {
      case Step::Kind::upload:
        ONNXMICRO_CL_CHECK("clEnqueueWriteBuffer (input upload)",
                           clEnqueueWriteBuffer(queue, memory, CL_FALSE, step.device_offset, step.bytes,
                                                host_arena_ + step.device_offset, 0, nullptr, nullptr));
        break;
      case Step::Kind::launch:
        ONNXMICRO_CL_CHECK(
            "clEnqueueNDRangeKernel",
            clEnqueueNDRangeKernel(queue, step.kernel, 1, nullptr, &step.work_items, nullptr, 0, nullptr, nullptr));
        break;
      case Step::Kind::copy:
        ONNXMICRO_CL_CHECK("clEnqueueCopyBuffer",
                           clEnqueueCopyBuffer(queue, memory, memory, step.source_offset, step.device_offset,
                                               step.bytes, 0, nullptr, nullptr));
        break;
      case Step::Kind::download:
        ONNXMICRO_CL_CHECK("clEnqueueReadBuffer (output download)",
                           clEnqueueReadBuffer(queue, memory, CL_FALSE, step.device_offset, step.bytes,
                                               host_arena_ + step.device_offset, 0, nullptr, nullptr));
        break;
    }
  }
  return {};
}

inline Status Backend::finish() noexcept {
  ONNXMICRO_CL_CHECK("clFinish", clFinish(queue_()));
  if (!checks_errors_) return {};
  int word = 0;
  ONNXMICRO_CL_CHECK("clEnqueueReadBuffer (error word)", clEnqueueReadBuffer(queue_(), memory_(), CL_TRUE, error_word_,
                                                                             sizeof word, &word, 0, nullptr, nullptr));
  if (word == 0) return {};
  const int cleared = 0;
  ONNXMICRO_CL_CHECK(
      "clEnqueueWriteBuffer (error word)",
      clEnqueueWriteBuffer(queue_(), memory_(), CL_TRUE, error_word_, sizeof cleared, &cleared, 0, nullptr, nullptr));
  return Status(StatusCode::out_of_range)
         << "a Gather on the OpenCL device read an index outside its axis (the output holds 0 there)";
}

/// "54 nodes on opencl, 2 on cpu (1 fallback: node 'x' (Op): reason), 3 transfers, 1.2 MB": one line for logs.
inline std::string placement_summary(const Session& session) {
  std::size_t on_device = 0, on_cpu = 0, folded = 0, fallbacks = 0, bytes = 0;
  std::string reasons;
  for (std::size_t i = 0; i < session.node_reports().size(); ++i) {
    const NodeReport& report = session.node_reports()[i];
    if (report.folded) {
      ++folded;
      continue;
    }
    if (report.placement == Placement::opencl) {
      ++on_device;
      continue;
    }
    ++on_cpu;
    if (!report.fallback) continue;
    ++fallbacks;
    if (fallbacks <= 5) {
      reasons += (fallbacks > 1 ? "; " : "") + std::string(report.node->op_type) + " '" +
                 std::string(report.node->name) + "': " + std::string(session.placement_reason(i));
    }
  }
  for (const TransferReport& t : session.transfers()) bytes += t.bytes;
  char size[32];
  std::snprintf(size, sizeof size, "%.1f MB", static_cast<double>(bytes) / 1e6);
  std::string line = std::to_string(on_device) + " nodes on opencl, " + std::to_string(on_cpu) + " on cpu";
  if (fallbacks > 0) {
    line += " (" + std::to_string(fallbacks) + (fallbacks == 1 ? " fallback: " : " fallbacks: ") + reasons +
            (fallbacks > 5 ? "; ..." : "") + ")";
  }
  if (folded > 0) line += ", " + std::to_string(folded) + " folded at prepare";
  line += ", " + std::to_string(session.transfers().size()) + " transfers, " + size;
  return line;
}

}  // namespace opencl
ONNXMICRO_NAMESPACE_END
