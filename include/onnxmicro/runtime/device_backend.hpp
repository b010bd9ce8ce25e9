// SPDX-License-Identifier: MIT
// The interface between a Session and a device backend (backends/opencl implements it; the core never includes a
// backend). The session prepares every node on the CPU as always (shapes, dtypes, folding, one arena plan), then
// hands the backend a view of that plan: the backend decides per node whether its device runs it, lays out device
// memory at the arena's offsets, uploads constants and decides the transfers. run() then asks the backend to
// enqueue each device node and to finish before a CPU node or the end of the run reads what the device wrote.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "onnxmicro/runtime/prepared_graph.hpp"
#include "onnxmicro/runtime/session_options.hpp"

ONNXMICRO_NAMESPACE_BEGIN

enum class TransferDirection : std::uint8_t { host_to_device = 0, device_to_host = 1 };

constexpr const char* transfer_direction_name(TransferDirection direction) noexcept {
  return direction == TransferDirection::host_to_device ? "host_to_device" : "device_to_host";
}

/// One tensor crossing between host and device in every run (graph inputs and outputs included).
struct TransferReport {
  std::string_view tensor;
  TransferDirection direction = TransferDirection::host_to_device;
  std::size_t bytes = 0;
  std::int32_t node =
      -1;  ///< the node (of Session::node_reports()) before (uploads) or after (downloads) which it moves
};

/// What a device backend sees of one plan. Spans index the nodes and values of *graph.
struct DevicePlanView {
  const Model* model = nullptr;
  const model::Graph* graph = nullptr;
  Span<const detail::NodeRuntime> nodes;
  Span<const detail::ValueRuntime> values;
  /// Per node: the Relu/Clip the session folded into it (empty when nothing was folded).
  Span<const kernels::FusedClamp> fused_clamps;
  const unsigned char* arena = nullptr;  ///< planned values live at arena + offset; device memory mirrors offsets
  std::size_t arena_bytes = 0;
  /// Per node: the backend sets placement and fallback (folded nodes arrive with folded = true).
  Span<NodeReport> reports;
};

/// A device that runs some of a session's nodes. Every method is called by the session only: plan() at the end of
/// each plan (prepare and re-plans), the others from run().
class DeviceBackend {
 public:
  /// Ok when the device is usable; otherwise why not (no platform, no device matches the selection, ...).
  virtual Status available() const noexcept = 0;
  /// Places every node of `view` (reports), plans device memory, uploads constants and builds what run() launches.
  /// A node the device cannot run is a fallback with a reason, not an error; errors are device failures.
  virtual Status plan(const DevicePlanView& view) noexcept = 0;
  /// Enqueues node `node` (placed on the device): the uploads of its host-produced inputs, its kernels, and the
  /// downloads of outputs the host reads. Allocates nothing.
  virtual Status run_node(std::size_t node) noexcept = 0;
  /// Waits for everything enqueued: downloaded tensors are then valid on the host. Reports device-side errors.
  virtual Status finish() noexcept = 0;
  /// Why node `node` of the current plan runs where it does when that is not the device: a fallback's cause,
  /// "folded at prepare", "shape arithmetic stays on the CPU"; empty for a node on the device.
  virtual std::string_view reason(std::size_t node) const noexcept = 0;
  /// The tensors that cross between host and device in each run, in run order.
  virtual Span<const TransferReport> transfers() const noexcept = 0;

 protected:
  ~DeviceBackend() = default;
};

ONNXMICRO_NAMESPACE_END
