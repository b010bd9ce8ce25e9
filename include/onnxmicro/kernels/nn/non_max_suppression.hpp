// SPDX-License-Identifier: MIT
// NonMaxSuppression: per batch and class, visits boxes by descending score (ties: lower index first), skips those
// at or below score_threshold (when given), and keeps a box unless its IoU with a box already kept for that class
// is strictly above iou_threshold, up to max_output_boxes_per_class boxes. Output: int64 [selected, 3] rows of
// (batch, class, box). Follows onnx/reference/ops/op_non_max_suppression.py (float32 box arithmetic).
// Versions 10 and 11 share the same semantics (11 changed no behaviour), so one kernel serves both.
// The output size depends on the input values, so every input must be known at prepare time: prepare() runs the
// selection and run() copies it (the session folds the node). A later version may size such outputs at run time.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace non_max_suppression_detail {

/// The implementation of NonMaxSuppression (see the file comment).
struct NonMaxSuppressionImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "NonMaxSuppression";
  static constexpr int kBoxes = 0;
  static constexpr int kScores = 1;
  static constexpr int kMaxOutput = 2;
  static constexpr int kIouThreshold = 3;
  static constexpr int kScoreThreshold = 4;

  struct State {
    Span<std::int64_t> selected;  ///< rows of (batch, class, box)
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kBoxes));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kScores));
    const TensorInfo& boxes = ctx.input(kBoxes);
    const TensorInfo& scores = ctx.input(kScores);
    if (boxes.dtype != DataType::float32) return ctx.unsupported_input_dtype(kBoxes);
    if (scores.dtype != DataType::float32) return ctx.unsupported_input_dtype(kScores);
    if (boxes.shape.rank() != 3 || boxes.shape[2] != 4) {
      return ctx.input_error(kBoxes) << " has shape " << boxes.shape
                                     << ", expected [num_batches, spatial_dimension, 4]";
    }
    if (scores.shape.rank() != 3 || scores.shape[0] != boxes.shape[0] || scores.shape[2] != boxes.shape[1]) {
      return ctx.input_error(kScores) << " has shape " << scores.shape << ", expected [" << boxes.shape[0]
                                      << ", num_classes, " << boxes.shape[1] << "] for boxes of shape " << boxes.shape;
    }
    std::int64_t center_point_box = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("center_point_box", center_point_box, 0));
    if (center_point_box != 0 && center_point_box != 1) {
      return Status(StatusCode::invalid_model)
             << "attribute 'center_point_box' is " << center_point_box << ", expected 0 or 1";
    }

    // Optional scalars (an omitted or empty input takes the default: 0 boxes, IoU 0, no score filter).
    std::int64_t max_output = 0;
    float iou_threshold = 0.0f;
    float score_threshold = 0.0f;
    bool has_score_threshold = false;
    bool present = false;
    ONNXMICRO_RETURN_IF_ERROR(read_scalar(ctx, kMaxOutput, DataType::int64, &max_output, present));
    if (max_output < 0) max_output = 0;
    ONNXMICRO_RETURN_IF_ERROR(read_scalar(ctx, kIouThreshold, DataType::float32, &iou_threshold, present));
    ONNXMICRO_RETURN_IF_ERROR(
        read_scalar(ctx, kScoreThreshold, DataType::float32, &score_threshold, has_score_threshold));

    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(kBoxes));
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(kScores));
    const std::int64_t batches = boxes.shape[0];
    const std::int64_t classes = scores.shape[1];
    const std::int64_t count = boxes.shape[1];
    const float* box_data = static_cast<const float*>(boxes.const_data);
    const float* score_data = static_cast<const float*>(scores.const_data);

    Span<std::int64_t> order;  // candidate box indices, sorted per class
    Span<std::int64_t> kept;   // boxes kept for the current class
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(count), order));
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(count), kept));

    // Two passes: count the selection, then store it in an exactly sized array.
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    std::int64_t total = 0;
    for (int pass = 0; pass < 2; ++pass) {
      std::int64_t row = 0;
      for (std::int64_t b = 0; b < batches && max_output > 0; ++b) {
        const float* batch_boxes = box_data + b * count * 4;
        for (std::int64_t c = 0; c < classes; ++c) {
          const float* class_scores = score_data + (b * classes + c) * count;
          std::size_t candidates = 0;
          for (std::int64_t i = 0; i < count; ++i) {
            // Scalar float copies: the constant data may be unaligned.
            float s;
            std::memcpy(&s, class_scores + i, sizeof(float));
            if (!has_score_threshold || s > score_threshold) order[candidates++] = i;
          }
          auto score_at = [&](std::int64_t i) {
            float s;
            std::memcpy(&s, class_scores + i, sizeof(float));
            return s;
          };
          // Descending score, ties by ascending index; NaN sorts last.
          std::sort(order.data(), order.data() + candidates, [&](std::int64_t a, std::int64_t z) {
            const float sa = score_at(a);
            const float sz = score_at(z);
            const bool na = sa != sa;
            const bool nz = sz != sz;
            if (na || nz) return !na && nz ? true : (na == nz && a < z);
            return sa > sz || (sa == sz && a < z);
          });
          std::int64_t kept_count = 0;
          for (std::size_t k = 0; k < candidates && kept_count < max_output; ++k) {
            const std::int64_t candidate = order[k];
            bool keep = true;
            for (std::int64_t j = 0; j < kept_count && keep; ++j) {
              keep = !suppressed(batch_boxes, candidate, kept[static_cast<std::size_t>(j)], center_point_box != 0,
                                 iou_threshold);
            }
            if (!keep) continue;
            kept[static_cast<std::size_t>(kept_count++)] = candidate;
            if (pass == 1) {
              state->selected[static_cast<std::size_t>(row * 3)] = b;
              state->selected[static_cast<std::size_t>(row * 3 + 1)] = c;
              state->selected[static_cast<std::size_t>(row * 3 + 2)] = candidate;
            }
            ++row;
          }
        }
      }
      total = row;
      if (pass == 0)
        ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(total * 3), state->selected));
    }
    ctx.set_output(0, DataType::int64, Shape{total, 3});
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    if (!state.selected.empty())
      std::memcpy(ctx.output(0).data, state.selected.data(), state.selected.size() * sizeof(std::int64_t));
    return {};
  }

 private:
  /// Reads optional 1-element input `index` of `dtype` into `value`; `present` = given and non-empty.
  static Status read_scalar(PrepareContext& ctx, int index, DataType dtype, void* value, bool& present) noexcept {
    present = false;
    if (!ctx.has_input(index)) return {};
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_constant_input(index));
    const TensorInfo& info = ctx.input(index);
    if (info.dtype != dtype) {
      return ctx.input_error(index) << " has dtype " << dtype_name(info.dtype) << ", expected " << dtype_name(dtype);
    }
    const std::int64_t n = info.shape.element_count();
    if (n == 0) return {};
    if (n != 1) {
      return ctx.input_error(index) << " has shape " << info.shape << ", expected a scalar";
    }
    std::memcpy(value, info.const_data, dtype_size(dtype));
    present = true;
    return {};
  }

  static float at(const float* boxes, std::int64_t box, int k) noexcept {
    float v;
    std::memcpy(&v, boxes + box * 4 + k, sizeof(float));
    return v;
  }

  /// suppress_by_iou of the reference: true when IoU(a, b) > threshold.
  static bool suppressed(const float* boxes, std::int64_t a, std::int64_t b, bool center, float threshold) noexcept {
    float ax0, ax1, ay0, ay1, bx0, bx1, by0, by1;
    if (!center) {  // [y1, x1, y2, x2], corners in any order
      ax0 = std::min(at(boxes, a, 1), at(boxes, a, 3));
      ax1 = std::max(at(boxes, a, 1), at(boxes, a, 3));
      bx0 = std::min(at(boxes, b, 1), at(boxes, b, 3));
      bx1 = std::max(at(boxes, b, 1), at(boxes, b, 3));
      ay0 = std::min(at(boxes, a, 0), at(boxes, a, 2));
      ay1 = std::max(at(boxes, a, 0), at(boxes, a, 2));
      by0 = std::min(at(boxes, b, 0), at(boxes, b, 2));
      by1 = std::max(at(boxes, b, 0), at(boxes, b, 2));
    } else {  // [x_center, y_center, width, height]
      const float aw = at(boxes, a, 2) / 2, ah = at(boxes, a, 3) / 2;
      const float bw = at(boxes, b, 2) / 2, bh = at(boxes, b, 3) / 2;
      ax0 = at(boxes, a, 0) - aw;
      ax1 = at(boxes, a, 0) + aw;
      bx0 = at(boxes, b, 0) - bw;
      bx1 = at(boxes, b, 0) + bw;
      ay0 = at(boxes, a, 1) - ah;
      ay1 = at(boxes, a, 1) + ah;
      by0 = at(boxes, b, 1) - bh;
      by1 = at(boxes, b, 1) + bh;
    }
    const float ix0 = std::max(ax0, bx0), ix1 = std::min(ax1, bx1);
    if (ix1 <= ix0) return false;
    const float iy0 = std::max(ay0, by0), iy1 = std::min(ay1, by1);
    if (iy1 <= iy0) return false;
    const float intersection = (ix1 - ix0) * (iy1 - iy0);
    if (intersection <= 0.0f) return false;
    const float area_a = (ax1 - ax0) * (ay1 - ay0);
    const float area_b = (bx1 - bx0) * (by1 - by0);
    const float union_area = area_a + area_b - intersection;
    if (area_a <= 0.0f || area_b <= 0.0f || union_area <= 0.0f) return false;
    return intersection / union_area > threshold;
  }
};

}  // namespace non_max_suppression_detail

// NonMaxSuppression-10 (also 11, which changed no behaviour).
using NonMaxSuppression_10 = VersionedKernel<non_max_suppression_detail::NonMaxSuppressionImpl, 10>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
