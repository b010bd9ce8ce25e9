// SPDX-License-Identifier: MIT
// run_op: one op of the build prepared and run once through KernelHarness (support/kernel_harness.hpp), with the
// prepare and run statuses apart and the input the kernel wanted constant, for the tests of the tensor and
// generator kernels (Cast, Concat, Constant, Gather, Reshape, Shape, Squeeze/Unsqueeze, Transpose). A test says
// `using namespace onnxmicro_test::op_runner;`.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "support/kernel_harness.hpp"
#include "support/kernel_test_prelude.hpp"
#include "support/proto_writer.hpp"

namespace onnxmicro_test::op_runner {

using onnxmicro_test::values_of;
using onnxmicro_test::prelude::contains;

/// dtype undefined: an omitted optional input; `constant`: known at prepare time, like an initializer.
using Tensor = TestTensor;

template <typename T>
Tensor tensor(om::Shape shape, const std::vector<T>& values, bool constant = false) {
  Tensor t = make(shape, values);
  t.constant = constant;
  return t;
}

/// A constant int64 vector: the shape or axes input these ops read when preparing.
inline Tensor shape_input(const std::vector<std::int64_t>& dims) {
  return tensor(om::Shape{static_cast<std::int64_t>(dims.size())}, dims, true);
}

struct Result {
  om::Status prepare;
  om::Status run;
  Tensor output;
  int missing_constant_input = -1;
  /// Kept with the result: a string output (Constant's) views the attribute bytes of the node it encoded.
  std::shared_ptr<const KernelHarness> harness;

  bool ok() const { return prepare.ok() && run.ok(); }
  std::string error() const { return std::string(prepare.message()) + run.message(); }
};

/// Resolves `op` at `opset` among every kernel, prepares and (if that worked) runs once; inputs are named in0,
/// in1, ... The output gets guard bytes that must survive; with `in_place` it is written into the kernel's
/// in-place input's buffer instead, as the session does.
inline Result run_op(const std::string& op, int opset, const std::vector<Tensor>& inputs,
                     const std::vector<ProtoWriter>& attributes = {}, bool in_place = false) {
  std::vector<TestTensor> named = inputs;
  for (std::size_t i = 0; i < named.size(); ++i) named[i].name = "in" + std::to_string(i);
  auto harness = std::make_shared<KernelHarness>(op, opset, std::move(named), attributes);
  Result result;
  result.prepare = harness->prepare_status;
  result.missing_constant_input = harness->missing_constant_input();
  if (result.prepare.ok()) result.run = harness->run(result.output, in_place);
  result.harness = std::move(harness);
  return result;
}

}  // namespace onnxmicro_test::op_runner
