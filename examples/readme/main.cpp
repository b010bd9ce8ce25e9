// SPDX-License-Identifier: MIT
// The README's C++ example as a whole program (its body is the README's snippet, line for line): load model.onnx,
// prepare a session with every kernel, run it on a zero [1, 1, 8, 8] input, print the output. The kernels come
// precompiled from onnxmicro::all_kernels (all_kernels_registry()), so this file parses only the runtime's headers
// and compiles in seconds.
// Usage: run it where model.onnx is (examples/hello's CNN: cd tests/models/hello_cnn).
// clang-format off
#include <onnxmicro/all_kernels_registry.hpp>   // the runtime + all_kernels_registry() (link onnxmicro::all_kernels)
// clang-format on

#include <cstdint>
#include <cstdio>

int main() {
  // ---- the README's snippet (ctest readme_example_in_sync compares them) ----
  // clang-format off
  onnxmicro::ModelBytes bytes;
  onnxmicro::Status st = onnxmicro::ModelBytes::from_file("model.onnx", bytes);   // mmap; or ModelBytes::borrow(array, size)
  onnxmicro::Model model;
  if (st.ok()) st = model.load(bytes.bytes());                                     // parse + validate, errors name node and tensor
  onnxmicro::Session session;
  if (st.ok()) st = session.prepare(model, onnxmicro::all_kernels_registry());    // kernels, shapes, constant folding, arena plan
  float x[1 * 1 * 8 * 8] = {};
  if (st.ok()) st = session.set_input(0, {onnxmicro::DataType::float32, {1, 1, 8, 8}, x});
  if (st.ok()) st = session.run();                                                // allocates nothing
  if (!st.ok()) std::fprintf(stderr, "%s\n", st.message());
  onnxmicro::ConstTensorView y = session.output(0);                                // y.data_as<float>(), y.shape
  // clang-format on
  // ---- end of the snippet ----
  if (!st.ok()) return 1;
  std::printf("output 0: %lld values:", static_cast<long long>(y.element_count()));
  for (std::int64_t i = 0; i < y.element_count(); ++i) std::printf(" %.6f", static_cast<double>(y.data_as<float>()[i]));
  std::printf("\n");
  return 0;
}
