// SPDX-License-Identifier: MIT
// Helpers shared by the fuzzers: a check that aborts (a finding libFuzzer reports) when a library promise is
// broken, and a check that every view the library hands out lies inside the fuzz input.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include <onnxmicro/onnxmicro.hpp>

namespace onnxmicro_fuzz {

/// Aborts with `what` when `condition` is false: the fuzzers' own assertions, active in every build type.
inline void require(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "onnxmicro fuzz: promise broken: %s\n", what);
    std::abort();
  }
}

/// A failed Status must say what went wrong: an error code other than ok and a non-empty message.
inline void require_clear_error(const onnxmicro::Status& status, const char* where) {
  if (status.ok()) return;
  if (status.message()[0] == '\0') {
    std::fprintf(stderr, "onnxmicro fuzz: %s failed with an empty error message\n", where);
    std::abort();
  }
}

/// The bytes of one fuzz input; views the library returns must lie inside them.
struct InputBounds {
  const unsigned char* begin = nullptr;
  const unsigned char* end = nullptr;

  void check(const void* data, std::size_t size, const char* what) const {
    if (size == 0) return;
    const auto* p = static_cast<const unsigned char*>(data);
    require(p >= begin && p <= end && size <= static_cast<std::size_t>(end - p), what);
  }
  void check(onnxmicro::ByteSpan span, const char* what) const { check(span.data(), span.size(), what); }
  void check(std::string_view text, const char* what) const { check(text.data(), text.size(), what); }
};

/// Shapes for every graph input of `model` that declares a shape with unknown (symbolic) dims: each such dim is
/// bound to 1 + pick(n) % 3 for the n-th unknown dim, so prepare() plans small concrete tensors.
template <typename Pick>
std::vector<onnxmicro::InputShape> bind_unknown_dims(const onnxmicro::Model& model, Pick pick) {
  const onnxmicro::model::Graph& graph = model.graph();
  std::vector<onnxmicro::InputShape> shapes;
  std::size_t unknown = 0;
  for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
    const onnxmicro::model::Value& value = graph.values[graph.inputs[i]];
    if (!value.has_declared_shape) continue;
    std::int64_t dims[ONNXMICRO_MAX_RANK] = {};
    bool dynamic = false;
    for (int d = 0; d < value.declared_rank; ++d) {
      dims[d] = value.declared_dims[d].value;
      if (dims[d] < 0) {
        dims[d] = 1 + static_cast<std::int64_t>(pick(unknown++) % 3);
        dynamic = true;
      }
    }
    onnxmicro::InputShape shape;
    shape.name = value.name;
    if (dynamic && shape.shape.assign(dims, static_cast<std::size_t>(value.declared_rank)).ok()) {
      shapes.push_back(shape);
    }
  }
  return shapes;
}

}  // namespace onnxmicro_fuzz
