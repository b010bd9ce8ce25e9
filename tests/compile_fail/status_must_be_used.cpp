// SPDX-License-Identifier: MIT
// Must NOT compile with -Werror: a Status is [[nodiscard]], so an ignored error is a build failure.
#include "onnxmicro/onnxmicro.hpp"

onnxmicro::Status might_fail() { return onnxmicro::Status(onnxmicro::StatusCode::invalid_argument) << "x"; }

int main() {
  might_fail();
  return 0;
}
