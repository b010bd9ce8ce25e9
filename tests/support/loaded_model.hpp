// SPDX-License-Identifier: MIT
// A model loaded from bytes a test built (ProtoWriter), with a session on it: the bytes live as long as the model.
#pragma once
#include <cstddef>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace onnxmicro_test {

struct LoadedModel {
  std::vector<unsigned char> bytes;
  onnxmicro::Model model;
  onnxmicro::Session session;

  onnxmicro::Status load(const ProtoWriter& proto) {
    bytes = proto.bytes();
    return model.load(onnxmicro::ByteSpan(bytes.data(), bytes.size()));
  }
  /// Prepares with every kernel and `options` (default options when not given).
  onnxmicro::Status prepare(const onnxmicro::SessionOptions& options = {}) {
    return session.prepare(model, onnxmicro::all_kernels_registry(), options);
  }
  /// Output `output` after run(), as floats.
  std::vector<float> floats(std::size_t output) const {
    const onnxmicro::ConstTensorView v = session.output(output);
    return std::vector<float>(v.data_as<float>(), v.data_as<float>() + v.element_count());
  }
};

}  // namespace onnxmicro_test
