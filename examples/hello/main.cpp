// SPDX-License-Identifier: MIT
// onnxmicro hello: runs a small CNN embedded in the binary (default_model.hpp, made by tools/make_models.py)
// on a fixed 8x8 image and checks the result against the output onnxruntime computed for the same input.
// It shows the whole API: borrow the bytes, load the model, prepare a session, set the input, run, read
// the output. Usage: onnxmicro_hello [timed_runs] (default 100).
// Exit code: 0 when the output matches, 1 on a mismatch or error, 2 when this build cannot run the model
// (a kernel is missing: StatusCode::unsupported).
#include <onnxmicro/onnxmicro.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "default_model.hpp"

namespace {

namespace om = onnxmicro;

// numpy.allclose's tolerances, the same the conformance runner uses.
constexpr double kRelativeTolerance = 1e-3;
constexpr double kAbsoluteTolerance = 1e-5;
constexpr int kDefaultTimedRuns = 100;

int report_failure(const char* step, const om::Status& status) {
  std::fprintf(stderr, "hello: %s failed (%s): %s\n", step, om::status_code_name(status.code()), status.message());
  return status.code() == om::StatusCode::unsupported ? 2 : 1;
}

void print_shape(const om::Shape& shape) {
  std::printf("[");
  for (int i = 0; i < shape.rank(); ++i) std::printf(i ? ",%lld" : "%lld", static_cast<long long>(shape[i]));
  std::printf("]");
}

void print_values(const char* label, const float* values, std::size_t count) {
  std::printf("%-9s", label);
  for (std::size_t i = 0; i < count; ++i) std::printf(" %.6f", static_cast<double>(values[i]));
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  int timed_runs = kDefaultTimedRuns;
  if (argc > 1) timed_runs = std::max(1, std::atoi(argv[1]));

  // 1. The model's bytes stay in the const array (flash on a microcontroller): borrow, do not copy.
  om::ModelBytes bytes = om::ModelBytes::borrow(hello_cnn_model, hello_cnn_model_size);

  // 2. Parse and validate the graph once.
  om::Model model;
  om::Status status = model.load(bytes.bytes());
  if (!status.ok()) return report_failure("Model::load", status);

  // 3. Resolve kernels, infer shapes and plan the arena. Only the kernels this model needs (its ops at its opset,
  //    13) are compiled into the program; onnxmicro::AllKernels would compile every kernel.
  using HelloKernels = om::KernelSet<om::kernels::Conv_1, om::kernels::Relu_1, om::kernels::MaxPool_10,
                                     om::kernels::BatchNormalization_9, om::kernels::GlobalAveragePool_1,
                                     om::kernels::Flatten_11, om::kernels::Gemm_11, om::kernels::Softmax_13>;
  om::Session session;
  status = session.prepare(model, HelloKernels::registry());
  if (!status.ok()) return report_failure("Session::prepare", status);

  std::printf("model: %zu bytes embedded, opset %lld, %zu nodes\n", hello_cnn_model_size,
              static_cast<long long>(model.opset_version("")), model.graph().nodes.size());
  for (std::size_t i = 0; i < session.input_count(); ++i) {
    om::TensorView slot = session.input(i);
    std::printf("input  %zu: '%.*s' %s ", i, static_cast<int>(session.input_name(i).size()),
                session.input_name(i).data(), om::dtype_name(slot.dtype));
    print_shape(slot.shape);
    std::printf("\n");
  }
  for (std::size_t i = 0; i < session.output_count(); ++i) {
    std::printf("output %zu: '%.*s'\n", i, static_cast<int>(session.output_name(i).size()),
                session.output_name(i).data());
  }
  std::printf("arena: %zu bytes, model metadata: %zu bytes\n", session.required_arena_bytes(), model.metadata_bytes());

  // 4. Bind the input (copied into the arena) and run.
  om::Shape input_shape;
  status = input_shape.assign(hello_cnn_model_input_shape, hello_cnn_model_input_rank);
  if (!status.ok()) return report_failure("Shape::assign", status);
  status = session.set_input(0, om::ConstTensorView(om::DataType::float32, input_shape, hello_cnn_model_input));
  if (!status.ok()) return report_failure("Session::set_input", status);
  status = session.run();
  if (!status.ok()) return report_failure("Session::run", status);

  // 5. Read the output (it points into the arena) and compare with onnxruntime's.
  om::ConstTensorView output = session.output(0);
  om::Shape expected_shape;
  status = expected_shape.assign(hello_cnn_model_expected_shape, hello_cnn_model_expected_rank);
  if (!status.ok()) return report_failure("Shape::assign", status);
  std::printf("output: %s ", om::dtype_name(output.dtype));
  print_shape(output.shape);
  std::printf("\n");
  if (output.dtype != om::DataType::float32 || output.shape != expected_shape) {
    std::printf("MISMATCH: expected float ");
    print_shape(expected_shape);
    std::printf("\n");
    return 1;
  }
  const float* actual = output.data_as<float>();
  print_values("actual:", actual, hello_cnn_model_expected_count);
  print_values("expected:", hello_cnn_model_expected, hello_cnn_model_expected_count);
  double max_abs_diff = 0;
  bool within_tolerance = true;
  std::size_t best_class = 0;
  for (std::size_t i = 0; i < hello_cnn_model_expected_count; ++i) {
    double a = actual[i];
    double e = hello_cnn_model_expected[i];
    double diff = std::fabs(a - e);
    if (!(diff <= kAbsoluteTolerance + kRelativeTolerance * std::fabs(e))) within_tolerance = false;  // NaN fails
    if (!(diff <= max_abs_diff)) max_abs_diff = diff;
    if (actual[i] > actual[best_class]) best_class = i;
  }
  std::printf("max abs diff: %.3g (tolerance %.0e + %.0e * |expected|), predicted class %zu\n", max_abs_diff,
              kAbsoluteTolerance, kRelativeTolerance, best_class);

  // 6. Time it: run() allocates nothing, so repeated runs measure only the kernels.
  std::vector<double> microseconds;
  microseconds.reserve(static_cast<std::size_t>(timed_runs));
  for (int i = 0; i < timed_runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    status = session.run();
    auto stop = std::chrono::steady_clock::now();
    if (!status.ok()) return report_failure("Session::run (timed)", status);
    microseconds.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
  }
  std::nth_element(microseconds.begin(), microseconds.begin() + timed_runs / 2, microseconds.end());
  std::printf("run time: %.1f us (median of %d runs)\n", microseconds[static_cast<std::size_t>(timed_runs / 2)],
              timed_runs);

  std::printf(within_tolerance ? "MATCH: output agrees with onnxruntime\n"
                               : "MISMATCH: output differs from onnxruntime\n");
  return within_tolerance ? 0 : 1;
}
