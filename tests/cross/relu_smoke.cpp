// SPDX-License-Identifier: MIT
// Runs a one-node Relu model through core_compile.cpp's runtime path and checks the result. Built for every
// cross target; run under qemu (aarch64) or natively, and only linked for bare metal (see CMakeLists.txt).
#include <cstddef>

#include "core_compile.hpp"

#if ONNXMICRO_HAS_FILESYSTEM
#include <cstdio>
#define SMOKE_REPORT(...) std::printf(__VA_ARGS__)
#else
#define SMOKE_REPORT(...) ((void)0)
#endif

namespace {

// ModelProto, hand-encoded (field numbers from onnx.proto; checked with onnx.checker and onnxruntime):
// ir_version 8, opset_import {"" 14}, graph "g": y = Relu(x), x and y float32 [2,3].
// clang-format off
const unsigned char kReluModel[] = {
    0x08, 0x08,                                      // ir_version = 8
    0x3a, 0x3b,                                      // graph, 59 bytes
    0x0a, 0x0c,                                      //   node, 12 bytes
    0x0a, 0x01, 'x',                                 //     input "x"
    0x12, 0x01, 'y',                                 //     output "y"
    0x22, 0x04, 'R', 'e', 'l', 'u',                  //     op_type "Relu"
    0x12, 0x01, 'g',                                 //   name "g"
    0x5a, 0x13,                                      //   input (ValueInfoProto), 19 bytes
    0x0a, 0x01, 'x',                                 //     name "x"
    0x12, 0x0e, 0x0a, 0x0c,                          //     type.tensor_type
    0x08, 0x01,                                      //       elem_type FLOAT
    0x12, 0x08, 0x0a, 0x02, 0x08, 0x02,              //       shape dim 2
    0x0a, 0x02, 0x08, 0x03,                          //             dim 3
    0x62, 0x13,                                      //   output (ValueInfoProto), 19 bytes
    0x0a, 0x01, 'y',                                 //     name "y"
    0x12, 0x0e, 0x0a, 0x0c, 0x08, 0x01,              //     type.tensor_type, elem_type FLOAT
    0x12, 0x08, 0x0a, 0x02, 0x08, 0x02, 0x0a, 0x02,  //       shape [2,
    0x08, 0x03,                                      //              3]
    0x42, 0x02, 0x10, 0x0e,                          // opset_import { version 14 }
};
// clang-format on

}  // namespace

int main() {
  const float input[6] = {-2.5f, -0.0f, 0.0f, 1.5f, 3.0f, -1e30f};
  const float expected[6] = {0.0f, 0.0f, 0.0f, 1.5f, 3.0f, 0.0f};
  const onnxmicro::ConstTensorView x(onnxmicro::DataType::float32, onnxmicro::Shape{2, 3}, input);
  float output[6] = {-1, -1, -1, -1, -1, -1};
  std::size_t count = 0;
  const onnxmicro::Status status =
      onnxmicro_cross::run_first_output(kReluModel, sizeof(kReluModel), x, output, 6, count);
  if (!status.ok()) {
    SMOKE_REPORT("relu_smoke: %s: %s\n", onnxmicro::status_code_name(status.code()), status.message());
    return 1;
  }
  if (count != 6) {
    SMOKE_REPORT("relu_smoke: expected 6 output elements, got %zu\n", count);
    return 1;
  }
  for (std::size_t i = 0; i < 6; ++i) {
    if (output[i] != expected[i]) {
      SMOKE_REPORT("relu_smoke: y[%zu] = %g, expected %g\n", i, static_cast<double>(output[i]),
                   static_cast<double>(expected[i]));
      return 1;
    }
  }
  SMOKE_REPORT("relu_smoke: ok, Relu of 6 values matches\n");
  return 0;
}
