// SPDX-License-Identifier: MIT
// TreeEnsemble (ai.onnx.ml, opset 5): sums (or averages, min/max) leaf weights of every tree per target for each
// row of X [N, F], then applies post_transform; Y is [N, n_targets] in X's dtype (float16 computed in float32).
// Interior nodes compare X[feature] with nodes_splits (LEQ, LT, GTE, GT, EQ, NEQ) or test membership in a set of
// membership_values (MEMBER; sets listed in node order, each ended by NaN); a NaN feature follows the true
// branch where nodes_missing_value_tracks_true says so. A one-leaf tree is a root whose two branches name the
// same leaf, so it needs no special case. The spec is followed where the reference differs: the reference
// ignores post_transform, ends a membership set at a 0.0 member, and reads sets in traversal order.
// MIN/MAX start from the dtype's largest/lowest finite value, as the reference does (targets no leaf reaches
// keep it).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {
namespace tree_ensemble_detail {

enum class TreeNodeMode : std::uint8_t { leq = 0, lt = 1, gte = 2, gt = 3, eq = 4, neq = 5, member = 6 };
enum class TreeAggregate : std::uint8_t { average = 0, sum = 1, min = 2, max = 3 };
enum class TreePostTransform : std::uint8_t { none = 0, softmax = 1, logistic = 2, softmax_zero = 3, probit = 4 };

struct TreeNode {
  double split;
  std::int64_t feature;
  std::int32_t branch[2];  // [false, true]: node index, or leaf index when is_leaf[...]
  bool is_leaf[2];
  TreeNodeMode mode;
  bool missing_tracks_true;
  std::int32_t member_begin, member_count;  // into TreeEnsembleState::members
};

struct TreeLeaf {
  double weight;
  std::int64_t target;
};

struct TreeEnsembleState {
  const TreeNode* nodes;
  std::int32_t node_count;
  const TreeLeaf* leaves;
  const std::int32_t* roots;
  std::int32_t tree_count;
  const double* members;
  std::int64_t rows, features, targets;
  TreeAggregate aggregate;
  TreePostTransform post_transform;
  DataType dtype;
};

/// Reads a float/double/float16 tensor attribute as doubles; `count` = -1 when absent.
inline Status tree_tensor_as_double(PrepareContext& ctx, std::string_view name, Span<double>& out,
                                    std::int64_t& count) noexcept {
  proto::Attribute a;
  count = -1;
  if (!ctx.find_attribute(name, a)) return {};
  ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(a, proto::AttributeType::tensor));
  const proto::Tensor tensor = proto::Tensor::unchecked(a.t);
  const auto dtype = static_cast<DataType>(tensor.data_type);
  if (dtype != DataType::float32 && dtype != DataType::float64 && dtype != DataType::float16) {
    return Status(StatusCode::invalid_model)
           << "attribute '" << name << "' has dtype " << dtype_name(dtype) << ", expected float, double or float16";
  }
  ONNXMICRO_RETURN_IF_ERROR(tensor.element_count(count));
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(count) + 1, out));
  if (count == 0) return {};
  // Decode into the tail of `out` (each element is at most 8 bytes), then widen in place from the front.
  const std::size_t bytes = byte_size_of(dtype, count);
  auto* raw = reinterpret_cast<unsigned char*>(out.data()) + (static_cast<std::size_t>(count) * 8 - bytes);
  Status status = tensor.decode_to(raw, bytes);
  if (!status.ok()) return status.prepend("': ").prepend(name).prepend("attribute '");
  for (std::int64_t i = 0; i < count; ++i) {
    double v = 0;
    if (dtype == DataType::float64) {
      std::memcpy(&v, raw + i * 8, 8);
    } else if (dtype == DataType::float32) {
      float f;
      std::memcpy(&f, raw + i * 4, 4);
      v = f;
    } else {
      std::uint16_t b;
      std::memcpy(&b, raw + i * 2, 2);
      v = float16_t::from_bits(b).to_float();
    }
    out[static_cast<std::size_t>(i)] = v;
  }
  return {};
}

/// An INTS attribute in persistent memory; `count` = -1 when absent.
inline Status tree_ints(PrepareContext& ctx, std::string_view name, Span<std::int64_t>& out,
                        std::int64_t& count) noexcept {
  proto::Attribute a;
  count = -1;
  if (!ctx.find_attribute(name, a)) return {};
  ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(a, proto::AttributeType::ints));
  count = static_cast<std::int64_t>(a.ints().size());
  ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(count) + 1, out));
  std::size_t i = 0;
  for (std::int64_t v : a.ints()) out[i++] = v;
  return {};
}

inline bool tree_goes_true(const TreeEnsembleState& s, const TreeNode& node, double x) noexcept {
  if (node.missing_tracks_true && std::isnan(x)) return true;
  switch (node.mode) {
    case TreeNodeMode::leq: return x <= node.split;
    case TreeNodeMode::lt: return x < node.split;
    case TreeNodeMode::gte: return x >= node.split;
    case TreeNodeMode::gt: return x > node.split;
    case TreeNodeMode::eq: return x == node.split;
    case TreeNodeMode::neq: return x != node.split;
    case TreeNodeMode::member:
      for (std::int32_t i = 0; i < node.member_count; ++i) {
        if (s.members[node.member_begin + i] == x) return true;
      }
      return false;
  }
  return false;
}

/// In place over one row of scores (C = float or double).
template <typename C>
void tree_post_transform(TreePostTransform transform, C* v, std::int64_t n) noexcept {
  switch (transform) {
    case TreePostTransform::none: return;
    case TreePostTransform::softmax: {
      C max = v[0];
      for (std::int64_t i = 1; i < n; ++i) max = v[i] > max ? v[i] : max;
      C sum = 0;
      for (std::int64_t i = 0; i < n; ++i) sum += (v[i] = std::exp(v[i] - max));
      for (std::int64_t i = 0; i < n; ++i) v[i] /= sum;
      return;
    }
    case TreePostTransform::logistic:
      for (std::int64_t i = 0; i < n; ++i) {
        const C e = C(1) / (C(1) + std::exp(-std::fabs(v[i])));
        v[i] = v[i] < 0 ? C(1) - e : e;
      }
      return;
    case TreePostTransform::softmax_zero: {
      // Zero scores stay (almost) zero: they are scaled by exp(-max) instead of exponentiated.
      C max = v[0];
      for (std::int64_t i = 1; i < n; ++i) max = v[i] > max ? v[i] : max;
      const C scale = std::exp(-max);
      C sum = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        v[i] = (v[i] > C(1e-7) || v[i] < C(-1e-7)) ? std::exp(v[i] - max) : v[i] * scale;
        sum += v[i];
      }
      for (std::int64_t i = 0; i < n; ++i) v[i] = sum == 0 ? C(0.5) : v[i] / sum;
      return;
    }
    case TreePostTransform::probit:
      for (std::int64_t i = 0; i < n; ++i) {
        // sqrt(2) * erfinv(2v - 1), with the closed-form erfinv approximation onnxruntime and the reference use.
        const C x = v[i] * 2 - 1;
        const C sign = x < 0 ? C(-1) : C(1);
        const C t = (C(1) - x) * (C(1) + x);
        C r = 0;
        if (t != 0) {
          const C lg = std::log(t);
          const C a = C(2) / (C(3.14159265358979323846) * C(0.147)) + C(0.5) * lg;
          const C b = C(1) / C(0.147) * lg;
          r = sign * std::sqrt(-a + std::sqrt(a * a - b));
        }
        v[i] = C(1.41421356) * r;
      }
      return;
  }
}

template <typename T, typename C>
Status tree_ensemble_compute(const TreeEnsembleState& s, const void* x_data, void* y_data, C* scores) noexcept {
  const T* x = static_cast<const T*>(x_data);
  T* y = static_cast<T*>(y_data);
  // The dtype's largest finite value (numpy's finfo(X.dtype).max in the reference).
  double largest = std::numeric_limits<double>::max();
  if constexpr (std::is_same<T, float>::value) largest = std::numeric_limits<float>::max();
  if constexpr (std::is_same<T, float16_t>::value) largest = 65504.0;
  C init = 0;
  if (s.aggregate == TreeAggregate::min) init = static_cast<C>(largest);
  if (s.aggregate == TreeAggregate::max) init = static_cast<C>(-largest);
  for (std::int64_t r = 0; r < s.rows; ++r) {
    const T* row = x + r * s.features;
    for (std::int64_t t = 0; t < s.targets; ++t) scores[t] = init;
    for (std::int32_t tree = 0; tree < s.tree_count; ++tree) {
      std::int32_t node = s.roots[tree];
      std::int32_t leaf = -1;
      for (std::int32_t steps = 0; steps <= s.node_count && leaf < 0; ++steps) {
        const TreeNode& n = s.nodes[node];
        double feature;
        if constexpr (std::is_same<T, float16_t>::value) {
          feature = row[n.feature].to_float();
        } else {
          feature = static_cast<double>(row[n.feature]);
        }
        const int side = tree_goes_true(s, n, feature) ? 1 : 0;
        if (n.is_leaf[side]) {
          leaf = n.branch[side];
        } else {
          node = n.branch[side];
        }
      }
      if (leaf < 0) {
        return Status(StatusCode::invalid_model)
               << "tree " << tree << " has a cycle (no leaf after " << s.node_count << " steps)";
      }
      const TreeLeaf& l = s.leaves[leaf];
      const C w = static_cast<C>(l.weight);
      C& score = scores[l.target];
      switch (s.aggregate) {
        case TreeAggregate::sum: score += w; break;
        case TreeAggregate::average: score += w / static_cast<C>(s.tree_count); break;
        case TreeAggregate::min: score = w < score ? w : score; break;
        case TreeAggregate::max: score = w > score ? w : score; break;
      }
    }
    tree_post_transform(s.post_transform, scores, s.targets);
    for (std::int64_t t = 0; t < s.targets; ++t) {
      if constexpr (std::is_same<T, float16_t>::value) {
        y[r * s.targets + t] = float16_t::from_float(scores[t]);
      } else {
        y[r * s.targets + t] = static_cast<T>(scores[t]);
      }
    }
  }
  return {};
}

}  // namespace tree_ensemble_detail

namespace tree_ensemble_detail {

/// The implementation of TreeEnsemble (see the file comment).
struct TreeEnsembleImpl : KernelDefaults {
  static constexpr std::string_view kDomain = "ai.onnx.ml";
  static constexpr std::string_view kOpType = "TreeEnsemble";
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  static Status prepare(PrepareContext& ctx) noexcept {
    using namespace tree_ensemble_detail;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    const TensorInfo& x = ctx.input(kInput);
    if (x.dtype != DataType::float32 && x.dtype != DataType::float64 && x.dtype != DataType::float16) {
      return ctx.unsupported_input_dtype(kInput);
    }
    if (x.shape.rank() != 2) {
      return ctx.input_error(kInput) << " must have shape [N, F], got rank " << x.shape.rank();
    }
    TreeEnsembleState* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    state->dtype = x.dtype;
    state->rows = x.shape[0];
    state->features = x.shape[1];

    std::int64_t aggregate = 1, post = 0;
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("aggregate_function", aggregate, 1));
    ONNXMICRO_RETURN_IF_ERROR(ctx.attribute("post_transform", post, 0));
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("n_targets", state->targets));
    if (aggregate < 0 || aggregate > 3) {
      return Status(StatusCode::invalid_model)
             << "attribute 'aggregate_function' is " << aggregate << ", expected 0..3";
    }
    if (post < 0 || post > 4) {
      return Status(StatusCode::invalid_model) << "attribute 'post_transform' is " << post << ", expected 0..4";
    }
    if (state->targets < 1) {
      return Status(StatusCode::invalid_model) << "attribute 'n_targets' must be >= 1";
    }
    state->aggregate = static_cast<TreeAggregate>(aggregate);
    state->post_transform = static_cast<TreePostTransform>(post);

    // Per-node attributes.
    Span<std::int64_t> feature_ids, true_ids, false_ids, true_leafs, false_leafs, missing, target_ids, roots;
    std::int64_t n_features = 0, n_true = 0, n_false = 0, n_true_leafs = 0, n_false_leafs = 0, n_missing = 0,
                 n_targets = 0, n_roots = 0;
    ONNXMICRO_RETURN_IF_ERROR(tree_ints(ctx, "nodes_featureids", feature_ids, n_features));
    ONNXMICRO_RETURN_IF_ERROR(tree_ints(ctx, "nodes_truenodeids", true_ids, n_true));
    ONNXMICRO_RETURN_IF_ERROR(tree_ints(ctx, "nodes_falsenodeids", false_ids, n_false));
    ONNXMICRO_RETURN_IF_ERROR(tree_ints(ctx, "nodes_trueleafs", true_leafs, n_true_leafs));
    ONNXMICRO_RETURN_IF_ERROR(tree_ints(ctx, "nodes_falseleafs", false_leafs, n_false_leafs));
    ONNXMICRO_RETURN_IF_ERROR(tree_ints(ctx, "nodes_missing_value_tracks_true", missing, n_missing));
    ONNXMICRO_RETURN_IF_ERROR(tree_ints(ctx, "leaf_targetids", target_ids, n_targets));
    ONNXMICRO_RETURN_IF_ERROR(tree_ints(ctx, "tree_roots", roots, n_roots));
    Span<double> splits, weights, members;
    std::int64_t n_splits = 0, n_weights = 0, n_members = 0;
    ONNXMICRO_RETURN_IF_ERROR(tree_tensor_as_double(ctx, "nodes_splits", splits, n_splits));
    ONNXMICRO_RETURN_IF_ERROR(tree_tensor_as_double(ctx, "leaf_weights", weights, n_weights));
    ONNXMICRO_RETURN_IF_ERROR(tree_tensor_as_double(ctx, "membership_values", members, n_members));

    proto::Attribute modes_attribute;
    if (!ctx.find_attribute("nodes_modes", modes_attribute)) {
      return Status(StatusCode::invalid_model) << "required attribute 'nodes_modes' (TENSOR) is missing";
    }
    ONNXMICRO_RETURN_IF_ERROR(PrepareContext::expect_type(modes_attribute, proto::AttributeType::tensor));
    const proto::Tensor modes_tensor = proto::Tensor::unchecked(modes_attribute.t);
    if (modes_tensor.data_type != static_cast<std::int32_t>(DataType::uint8)) {
      return Status(StatusCode::invalid_model) << "attribute 'nodes_modes' must be a uint8 tensor, got "
                                               << dtype_name(static_cast<DataType>(modes_tensor.data_type));
    }
    std::int64_t n_modes = 0;
    ONNXMICRO_RETURN_IF_ERROR(modes_tensor.element_count(n_modes));
    Span<std::uint8_t> modes;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(n_modes) + 1, modes));
    if (n_modes != 0) {
      Status status = modes_tensor.decode_to(modes.data(), static_cast<std::size_t>(n_modes));
      if (!status.ok()) return status.prepend("attribute 'nodes_modes': ");
    }

    const std::int64_t n = n_features;
    const struct {
      const char* name;
      std::int64_t count;
      bool optional;
    } node_lists[] = {{"nodes_featureids", n_features, false},    {"nodes_truenodeids", n_true, false},
                      {"nodes_falsenodeids", n_false, false},     {"nodes_trueleafs", n_true_leafs, false},
                      {"nodes_falseleafs", n_false_leafs, false}, {"nodes_modes", n_modes, false},
                      {"nodes_splits", n_splits, false},          {"nodes_missing_value_tracks_true", n_missing, true}};
    for (const auto& list : node_lists) {
      if (list.count < 0 && !list.optional) {
        return Status(StatusCode::invalid_model) << "required attribute '" << list.name << "' is missing";
      }
      if (list.count >= 0 && list.count != n) {
        return Status(StatusCode::invalid_model) << "attribute '" << list.name << "' has " << list.count
                                                 << " entries, expected " << n << " (as nodes_featureids)";
      }
    }
    if (n_weights < 0 || n_targets < 0 || n_weights != n_targets) {
      return Status(StatusCode::invalid_model)
             << "attributes 'leaf_weights' and 'leaf_targetids' are required and must have the same length";
    }
    if (n_roots < 1) return Status(StatusCode::invalid_model) << "attribute 'tree_roots' is missing or empty";
    if (n > std::numeric_limits<std::int32_t>::max() || n_weights > std::numeric_limits<std::int32_t>::max()) {
      return Status(StatusCode::limit_exceeded) << "too many tree nodes";
    }

    Span<TreeLeaf> leaves;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(n_weights) + 1, leaves));
    for (std::int64_t i = 0; i < n_weights; ++i) {
      if (target_ids[i] < 0 || target_ids[i] >= state->targets) {
        return Status(StatusCode::invalid_model)
               << "attribute 'leaf_targetids'[" << i << "] = " << target_ids[i] << " is outside [0, n_targets)";
      }
      leaves[i] = TreeLeaf{weights[i], target_ids[i]};
    }

    Span<TreeNode> nodes;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(n) + 1, nodes));
    std::int64_t member_at = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      TreeNode& node = nodes[i];
      if (modes[i] > 6) {
        return Status(StatusCode::invalid_model)
               << "attribute 'nodes_modes'[" << i << "] = " << static_cast<int>(modes[i]) << " is not 0..6";
      }
      node.mode = static_cast<TreeNodeMode>(modes[i]);
      node.split = splits[i];
      node.feature = feature_ids[i];
      if (node.feature < 0 || node.feature >= state->features) {
        return Status(StatusCode::invalid_model) << "attribute 'nodes_featureids'[" << i << "] = " << node.feature
                                                 << " is outside [0, " << state->features << ") (X's feature count)";
      }
      node.missing_tracks_true = n_missing > 0 && missing[i] != 0;
      const std::int64_t ids[2] = {false_ids[i], true_ids[i]};
      const bool leaf[2] = {false_leafs[i] != 0, true_leafs[i] != 0};
      for (int side = 0; side < 2; ++side) {
        const std::int64_t limit = leaf[side] ? n_weights : n;
        if (ids[side] < 0 || ids[side] >= limit) {
          return Status(StatusCode::invalid_model) << "node " << i << ": " << (side ? "true" : "false") << " branch "
                                                   << ids[side] << " is outside [0, " << limit << ")";
        }
        node.branch[side] = static_cast<std::int32_t>(ids[side]);
        node.is_leaf[side] = leaf[side];
      }
      if (node.mode == TreeNodeMode::member) {
        // The next set of membership_values, up to its NaN.
        node.member_begin = static_cast<std::int32_t>(member_at);
        while (member_at < n_members && !std::isnan(members[member_at])) ++member_at;
        if (member_at >= n_members) {
          return Status(StatusCode::invalid_model)
                 << "attribute 'membership_values' lacks the NaN-terminated set of BRANCH_MEMBER node " << i;
        }
        node.member_count = static_cast<std::int32_t>(member_at - node.member_begin);
        ++member_at;  // the NaN
      }
    }
    Span<std::int32_t> tree_roots;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(n_roots), tree_roots));
    for (std::int64_t i = 0; i < n_roots; ++i) {
      if (roots[i] < 0 || roots[i] >= n) {
        return Status(StatusCode::invalid_model)
               << "attribute 'tree_roots'[" << i << "] = " << roots[i] << " is not a node";
      }
      tree_roots[i] = static_cast<std::int32_t>(roots[i]);
    }
    state->nodes = nodes.data();
    state->node_count = static_cast<std::int32_t>(n);
    state->leaves = leaves.data();
    state->roots = tree_roots.data();
    state->tree_count = static_cast<std::int32_t>(n_roots);
    state->members = members.data();
    ctx.request_scratch(static_cast<std::size_t>(state->targets) * sizeof(double));
    ctx.set_output(kOutput, x.dtype, Shape{state->rows, state->targets});
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    using namespace tree_ensemble_detail;
    const auto& state = ctx.state<TreeEnsembleState>();
    const void* x = ctx.input(kInput).data;
    void* y = ctx.output(kOutput).data;
    switch (compiled_dtype(state.dtype)) {
      case DataType::float64:
        return tree_ensemble_compute<double, double>(state, x, y, static_cast<double*>(ctx.scratch()));
      case DataType::float16:
        return tree_ensemble_compute<float16_t, float>(state, x, y, static_cast<float*>(ctx.scratch()));
      default: return tree_ensemble_compute<float, float>(state, x, y, static_cast<float*>(ctx.scratch()));
    }
  }
};

}  // namespace tree_ensemble_detail

// Opset 5: the only version (replaces TreeEnsembleRegressor/Classifier's attribute layout).
using TreeEnsemble_5 = VersionedKernel<tree_ensemble_detail::TreeEnsembleImpl, 5>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
