// SPDX-License-Identifier: MIT
// Scan: runs `body` once per position along the scan axis of the M scan inputs, carrying N state values and
// stacking K per-iteration scan outputs.
//  - Scan-8: inputs carry a batch axis 0 (states [B, ...], scan inputs [B, L, ...]) and an optional first input
//    sequence_lens [B]; the body runs per batch entry; `directions` reverses scan inputs. Positions past a
//    batch entry's length are zero in the scan outputs.
//  - Scan-9: no batch axis and no sequence_lens; scan_input_axes/scan_output_axes choose the axes (negative
//    counts from the end), scan_input_directions/scan_output_directions reverse. Versions 11, 16, 19, 21, 23, 24
//    and 25 only widened the dtype lists (11: negative axes, which this kernel accepts for 9 as well).
// The body is prepared once (its input shapes are the same at every position), and run() iterates it, copying
// slices in and out of its arena: nothing is allocated at run time.
#pragma once
#include "onnxmicro/runtime/control_flow/subgraph.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace detail {

/// Bytes of one position along `axis` of `shape` and the number of such blocks before it: element (outer o,
/// position p) starts at byte (o * shape[axis] + p) * block.
struct AxisLayout {
  std::int64_t outer = 1;
  std::int64_t length = 0;
  std::size_t block = 0;
  static AxisLayout of(DataType dtype, const Shape& shape, int axis) noexcept {
    AxisLayout l;
    std::int64_t inner = 1;
    for (int d = 0; d < axis; ++d) l.outer *= shape[d];
    for (int d = axis + 1; d < shape.rank(); ++d) inner *= shape[d];
    l.length = shape[axis];
    l.block = byte_size_of(dtype, inner);
    return l;
  }
  /// Copies position `position` of `full` into the dense `slice`, or (scatter) back.
  void gather(const void* full, std::int64_t position, void* slice) const noexcept {
    for (std::int64_t o = 0; o < outer; ++o) {
      std::memcpy(static_cast<unsigned char*>(slice) + static_cast<std::size_t>(o) * block,
                  static_cast<const unsigned char*>(full) + static_cast<std::size_t>(o * length + position) * block,
                  block);
    }
  }
  void scatter(const void* slice, std::int64_t position, void* full) const noexcept {
    for (std::int64_t o = 0; o < outer; ++o) {
      std::memcpy(static_cast<unsigned char*>(full) + static_cast<std::size_t>(o * length + position) * block,
                  static_cast<const unsigned char*>(slice) + static_cast<std::size_t>(o) * block, block);
    }
  }
};

inline Shape remove_axis(const Shape& shape, int axis) noexcept {
  Shape out;
  out.resize(shape.rank() - 1);
  for (int d = 0, k = 0; d < shape.rank(); ++d)
    if (d != axis) out[k++] = shape[d];
  return out;
}
inline Shape insert_axis(const Shape& shape, int axis, std::int64_t length) noexcept {
  Shape out;
  out.resize(shape.rank() + 1);
  for (int d = 0, k = 0; d < out.rank(); ++d) out[d] = d == axis ? length : shape[k++];
  return out;
}

/// What Scan-8 and Scan-9 share: the body, the counts, and per scan input/output its axis and direction.
struct ScanPlan {
  ::onnxmicro::detail::Subgraph body;
  int first_state;      ///< node input index of the first state (1 for Scan-8, after sequence_lens; 0 for Scan-9)
  int states;           ///< N
  int scan_inputs;      ///< M
  int scan_outputs;     ///< K
  std::int64_t length;  ///< L
  std::int64_t batch;   ///< B (Scan-8), 1 for Scan-9
  Span<std::int32_t> input_axes;  ///< in the node's tensors (Scan-8: 1, past the batch axis)
  Span<std::uint8_t> input_reverse, output_reverse;
  // Slice copies, computed once at prepare: a state as batch entries (Scan-9: one entry, the whole tensor), a
  // scan input/output within one batch entry along its scan axis, and the bytes of one batch entry.
  Span<AxisLayout> state_layouts, input_layouts, output_layouts;
  Span<std::size_t> input_batch_bytes, output_batch_bytes;
};

/// `shape` as `batch` entries along axis 0 (one entry holding everything when `batched` is false).
inline AxisLayout batch_layout(DataType dtype, const Shape& shape, bool batched) noexcept {
  if (batched) return AxisLayout::of(dtype, shape, 0);
  AxisLayout whole;
  whole.outer = 1;
  whole.length = 1;
  whole.block = byte_size_of(dtype, shape.element_count());
  return whole;
}
/// Bytes of one of `batch` entries of `shape` (0 without a batch axis).
inline std::size_t batch_entry_bytes(DataType dtype, const Shape& shape, bool batched) noexcept {
  if (!batched || shape[0] == 0) return 0;
  return byte_size_of(dtype, shape.element_count() / shape[0]);
}

inline Status read_axes_attribute(const PrepareContext& ctx, const char* name, std::size_t count, bool directions,
                                  Span<std::int64_t> out) noexcept {
  std::size_t read = 0;
  bool present = false;
  for (std::int64_t& v : out) v = 0;
  ONNXMICRO_RETURN_IF_ERROR(ctx.attribute_ints(name, out.data(), count, read, present));
  if (present && read != count) {
    return Status(StatusCode::invalid_model)
           << "attribute '" << name << "' has " << read << " values, expected " << count;
  }
  if (directions) {
    for (std::size_t i = 0; i < count; ++i) {
      if (out[i] != 0 && out[i] != 1) {
        return Status(StatusCode::invalid_model)
               << "attribute '" << name << "' value " << out[i] << " must be 0 (forward) or 1 (reverse)";
      }
    }
  }
  return {};
}

}  // namespace detail

namespace scan_detail {

/// The implementation of Scan (see the file comment); `batched`: the Scan-8 layout (since < 9).
struct ScanImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "Scan";

  using State = detail::ScanPlan;

  static Status prepare(PrepareContext& ctx, int since) noexcept {
    const bool batched = since < 9;
    State* plan = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(plan));
    ONNXMICRO_RETURN_IF_ERROR(count_inputs_and_outputs(ctx, batched, *plan));
    Attributes attributes;
    ONNXMICRO_RETURN_IF_ERROR(read_attributes(ctx, batched, *plan, attributes));
    ONNXMICRO_RETURN_IF_ERROR(plan_scan_inputs(ctx, batched, attributes, *plan));
    Span<TensorInfo> formal;
    ONNXMICRO_RETURN_IF_ERROR(prepare_body(ctx, batched, *plan, formal));
    return plan_outputs(ctx, batched, attributes, formal, *plan);
  }

 private:
  /// The per-scan-input and per-scan-output attributes (Scan-8 has directions only).
  struct Attributes {
    Span<std::int64_t> input_axes, input_directions, output_axes, output_directions;
  };

  static Status count_inputs_and_outputs(PrepareContext& ctx, bool batched, State& plan) noexcept {
    std::int64_t m = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("num_scan_inputs", m));
    plan.first_state = batched ? 1 : 0;
    const int explicit_inputs = ctx.explicit_input_count();
    if (m < 1 || m > explicit_inputs - plan.first_state) {
      return Status(StatusCode::invalid_model)
             << "attribute 'num_scan_inputs' is " << m << ", the node has " << explicit_inputs << " inputs";
    }
    plan.scan_inputs = static_cast<int>(m);
    plan.states = explicit_inputs - plan.first_state - plan.scan_inputs;
    plan.scan_outputs = ctx.output_count() - plan.states;
    if (plan.scan_outputs < 0) {
      return Status(StatusCode::invalid_model)
             << "Scan has " << plan.states << " state inputs but " << ctx.output_count() << " outputs";
    }
    return {};
  }

  static Status read_attributes(PrepareContext& ctx, bool batched, State& plan, Attributes& a) noexcept {
    MetadataAllocator& allocator = ctx.metadata_allocator();
    const std::size_t mi = static_cast<std::size_t>(plan.scan_inputs);
    const std::size_t ko = static_cast<std::size_t>(plan.scan_outputs);
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(mi, a.input_axes));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(mi, a.input_directions));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(ko, a.output_axes));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(ko, a.output_directions));
    if (batched) {
      ONNXMICRO_RETURN_IF_ERROR(detail::read_axes_attribute(ctx, "directions", mi, true, a.input_directions));
    } else {
      ONNXMICRO_RETURN_IF_ERROR(detail::read_axes_attribute(ctx, "scan_input_axes", mi, false, a.input_axes));
      ONNXMICRO_RETURN_IF_ERROR(
          detail::read_axes_attribute(ctx, "scan_input_directions", mi, true, a.input_directions));
      ONNXMICRO_RETURN_IF_ERROR(detail::read_axes_attribute(ctx, "scan_output_axes", ko, false, a.output_axes));
      ONNXMICRO_RETURN_IF_ERROR(
          detail::read_axes_attribute(ctx, "scan_output_directions", ko, true, a.output_directions));
    }
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(mi, plan.input_axes));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(mi, plan.input_reverse));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(ko, plan.output_reverse));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(mi, plan.input_layouts));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(mi, plan.input_batch_bytes));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(ko, plan.output_layouts));
    return allocator.allocate_array(ko, plan.output_batch_bytes);
  }

  /// Batch size, sequence length and each scan input's axis, direction and layout.
  static Status plan_scan_inputs(PrepareContext& ctx, bool batched, const Attributes& a, State& plan) noexcept {
    plan.batch = 1;
    plan.length = -1;
    if (batched && ctx.has_input(0)) {
      return ctx.input_error(0, "sequence_lens", StatusCode::unsupported)
             << " of Scan-8 is not supported yet: every batch entry runs the full length";
    }
    for (int i = 0; i < plan.states + plan.scan_inputs; ++i) {
      ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(plan.first_state + i));
      if (is_sub_byte(ctx.input(plan.first_state + i).dtype)) return ctx.unsupported_input_dtype(plan.first_state + i);
    }
    for (std::size_t j = 0; j < static_cast<std::size_t>(plan.scan_inputs); ++j) {
      const int index = plan.first_state + plan.states + static_cast<int>(j);
      const TensorInfo& x = ctx.input(index);
      const int rank = x.shape.rank();
      std::int64_t axis = batched ? 1 : a.input_axes[j];
      if (axis < 0) axis += rank;
      if (axis < 0 || axis >= rank || (batched && rank < 2)) {
        return ctx.input_error(index) << " (scan input " << j << ") of shape " << x.shape << " has no scan axis "
                                      << a.input_axes[j];
      }
      if (batched) {
        if (j == 0) plan.batch = x.shape[0];
        if (x.shape[0] != plan.batch) {
          return ctx.input_error(index) << " (scan input " << j << ") has batch " << x.shape[0] << ", expected "
                                        << plan.batch;
        }
      }
      if (plan.length < 0) plan.length = x.shape[static_cast<int>(axis)];
      if (x.shape[static_cast<int>(axis)] != plan.length) {
        return ctx.input_error(index) << " (scan input " << j << ") has length " << x.shape[axis]
                                      << " along its scan axis, expected " << plan.length
                                      << " (as the first scan input)";
      }
      plan.input_axes[j] = static_cast<std::int32_t>(axis);
      plan.input_reverse[j] = static_cast<std::uint8_t>(a.input_directions[j]);
      plan.input_layouts[j] = detail::AxisLayout::of(x.dtype, batched ? detail::remove_axis(x.shape, 0) : x.shape,
                                                     static_cast<int>(axis) - (batched ? 1 : 0));
      plan.input_batch_bytes[j] = detail::batch_entry_bytes(x.dtype, x.shape, batched);
    }
    return {};
  }

  /// Prepares the body: it sees states without the batch axis and scan inputs without batch and scan axes.
  static Status prepare_body(PrepareContext& ctx, bool batched, State& p, Span<TensorInfo>& formal) noexcept {
    MetadataAllocator& allocator = ctx.metadata_allocator();
    ONNXMICRO_RETURN_IF_ERROR(p.body.load(ctx, "body"));
    if (p.body.formal_input_count() != static_cast<std::size_t>(p.states + p.scan_inputs) ||
        p.body.output_count() != static_cast<std::size_t>(p.states + p.scan_outputs)) {
      return Status(StatusCode::invalid_model)
             << "subgraph 'body' has " << p.body.formal_input_count() << " inputs and " << p.body.output_count()
             << " outputs, the node needs " << (p.states + p.scan_inputs) << " and " << (p.states + p.scan_outputs);
    }
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(static_cast<std::size_t>(p.states + p.scan_inputs), formal));
    ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(static_cast<std::size_t>(p.states), p.state_layouts));
    for (int c = 0; c < p.states; ++c) {
      const TensorInfo& s = ctx.input(p.first_state + c);
      if (batched && (s.shape.rank() < 1 || s.shape[0] != p.batch)) {
        return ctx.input_error(p.first_state + c)
               << " (state " << c << ") of shape " << s.shape << " must start with the batch size " << p.batch;
      }
      formal[c].dtype = s.dtype;
      formal[c].shape = batched ? detail::remove_axis(s.shape, 0) : s.shape;
      p.state_layouts[c] = detail::batch_layout(s.dtype, s.shape, batched);
    }
    for (int j = 0; j < p.scan_inputs; ++j) {
      const TensorInfo& x = ctx.input(p.first_state + p.states + j);
      Shape slice = detail::remove_axis(x.shape, p.input_axes[j]);
      formal[p.states + j].dtype = x.dtype;
      formal[p.states + j].shape = batched ? detail::remove_axis(slice, 0) : slice;
    }
    for (TensorInfo& f : formal) f.present = true;  // not constant: they change every iteration
    p.body.place_arena_in_scratch();
    ONNXMICRO_RETURN_IF_ERROR(p.body.prepare(ctx, formal));
    ctx.request_scratch(p.body.scratch_bytes());
    return {};
  }

  /// The node's outputs: final states as they entered, scan outputs stacked along their axis.
  static Status plan_outputs(PrepareContext& ctx, bool batched, const Attributes& a, Span<const TensorInfo> formal,
                             State& p) noexcept {
    Session& session = p.body.session();
    for (int c = 0; c < p.states; ++c) {
      const ConstTensorView out = session.output(static_cast<std::size_t>(c));
      if (out.dtype != formal[c].dtype || out.shape != formal[c].shape) {
        return Status(StatusCode::invalid_model)
               << "state " << c << " enters the body as " << dtype_name(formal[c].dtype) << " " << formal[c].shape
               << " but leaves it as " << dtype_name(out.dtype) << " " << out.shape;
      }
      ctx.set_output(c, ctx.input(p.first_state + c).dtype, ctx.input(p.first_state + c).shape);
    }
    for (std::size_t k = 0; k < static_cast<std::size_t>(p.scan_outputs); ++k) {
      const ConstTensorView out = session.output(static_cast<std::size_t>(p.states) + k);
      if (is_sub_byte(out.dtype)) {
        return Status(StatusCode::unsupported) << "scan output " << k << " has packed dtype " << dtype_name(out.dtype);
      }
      std::int64_t axis = batched ? 0 : a.output_axes[k];
      if (axis < 0) axis += out.shape.rank() + 1;
      if (axis < 0 || axis > out.shape.rank()) {
        return Status(StatusCode::invalid_model)
               << "attribute 'scan_output_axes' value " << a.output_axes[k] << " is out of range for scan output " << k
               << " of rank " << (out.shape.rank() + 1);
      }
      Shape full = detail::insert_axis(out.shape, static_cast<int>(axis), p.length);
      if (batched) full = detail::insert_axis(full, 0, p.batch);
      p.output_reverse[k] = static_cast<std::uint8_t>(a.output_directions[k]);
      p.output_layouts[k] =
          detail::AxisLayout::of(out.dtype, batched ? detail::remove_axis(full, 0) : full, static_cast<int>(axis));
      p.output_batch_bytes[k] = detail::batch_entry_bytes(out.dtype, full, batched);
      ctx.set_output(p.states + static_cast<int>(k), out.dtype, full);
    }
    return {};
  }

 public:
  static Status run(RunContext& ctx) noexcept {
    detail::ScanPlan& p = ctx.state<detail::ScanPlan>();
    Session& session = p.body.session();
    ONNXMICRO_RETURN_IF_ERROR(p.body.bind_outer(ctx));
    for (std::int64_t b = 0; b < p.batch; ++b) {
      for (std::int64_t t = 0; t < p.length; ++t) {
        for (int c = 0; c < p.states; ++c) {
          const TensorView slot = session.input(static_cast<std::size_t>(c));
          if (t == 0) {
            p.state_layouts[c].gather(ctx.input(p.first_state + c).data, b, slot.data);
          } else {
            ::onnxmicro::detail::copy_tensor(slot, session.output(static_cast<std::size_t>(c)));
          }
        }
        for (int j = 0; j < p.scan_inputs; ++j) {
          const ConstTensorView x = ctx.input(p.first_state + p.states + j);
          const TensorView slot = session.input(static_cast<std::size_t>(p.states + j));
          const std::int64_t position = p.input_reverse[j] ? p.length - 1 - t : t;
          const unsigned char* base =
              static_cast<const unsigned char*>(x.data) + static_cast<std::size_t>(b) * p.input_batch_bytes[j];
          p.input_layouts[j].gather(base, position, slot.data);
        }
        ONNXMICRO_RETURN_IF_ERROR(p.body.run());
        for (int k = 0; k < p.scan_outputs; ++k) {
          const TensorView y = ctx.output(p.states + k);
          if (y.data == nullptr) continue;
          const std::int64_t position = p.output_reverse[k] ? p.length - 1 - t : t;
          unsigned char* base =
              static_cast<unsigned char*>(y.data) + static_cast<std::size_t>(b) * p.output_batch_bytes[k];
          p.output_layouts[k].scatter(session.output(static_cast<std::size_t>(p.states + k)).data, position, base);
        }
      }
      for (int c = 0; c < p.states; ++c) {
        if (!ctx.has_output(c)) continue;
        const TensorView y = ctx.output(c);
        const ConstTensorView final_value =
            p.length == 0 ? ConstTensorView(ctx.input(p.first_state + c)) : session.output(static_cast<std::size_t>(c));
        if (p.length == 0) {
          ::onnxmicro::detail::copy_tensor(y, final_value);
        } else {
          p.state_layouts[c].scatter(final_value.data, b, y.data);
        }
      }
    }
    return {};
  }
};

}  // namespace scan_detail

// Opset 8: batch axis 0 and optional sequence_lens; `directions` per scan input.
using Scan_8 = VersionedKernel<scan_detail::ScanImpl, 8, 9>;
// Opset 9+: per-input/output scan axes and directions, no batch axis.
using Scan_9 = VersionedKernel<scan_detail::ScanImpl, 9>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
