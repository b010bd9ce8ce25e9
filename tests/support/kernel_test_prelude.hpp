// SPDX-License-Identifier: MIT
// The names nearly every kernel test spells unqualified, declared once instead of at the top of each test file:
// a test says `using namespace onnxmicro_test::prelude;` inside its file's namespace (ONNXMICRO_TEST_FILE_SCOPE,
// tests/CMakeLists.txt). A file's own declaration of the same name (say a differently shaped `contains`) hides the
// one here.
#pragma once
#include <string>

#include "support/kernel_harness.hpp"
#include "support/proto_writer.hpp"

namespace onnxmicro_test::prelude {

namespace om = ::onnxmicro;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using onnxmicro_test::kOmitted;
using onnxmicro_test::make;
using onnxmicro_test::make_attribute_float;
using onnxmicro_test::make_attribute_floats;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::make_attribute_ints;
using onnxmicro_test::make_attribute_string;
using onnxmicro_test::make_attribute_strings;
using onnxmicro_test::NodeResult;
using onnxmicro_test::ProtoWriter;
using onnxmicro_test::TestTensor;
using onnxmicro_test::values_of;

/// Whether `status`'s message contains `text` (error tests assert the message names the problem).
inline bool contains(const Status& status, const std::string& text) {
  return std::string(status.message()).find(text) != std::string::npos;
}

}  // namespace onnxmicro_test::prelude
