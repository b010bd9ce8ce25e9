// SPDX-License-Identifier: MIT
// Thread safety, as the README promises it: a loaded Model is immutable and may be shared; each thread prepares
// and runs its own Session on it, concurrently. Built with ThreadSanitizer (tests/threads/CMakeLists.txt), so a
// data race anywhere in load-once / prepare-many / run-many is a test failure, and every output is compared with
// a single-threaded run of the same input. Exit 0 when all match and TSan reported nothing.
#include <onnxmicro/onnxmicro.hpp>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "default_model.hpp"  // examples/hello: the embedded CNN and its input

namespace {

namespace om = onnxmicro;

using Kernels = om::KernelSet<om::kernels::Conv_1, om::kernels::Relu_1, om::kernels::MaxPool_10,
                              om::kernels::BatchNormalization_9, om::kernels::GlobalAveragePool_1,
                              om::kernels::Flatten_11, om::kernels::Gemm_11, om::kernels::Softmax_13>;

constexpr int kThreads = 4;
constexpr int kRunsPerThread = 25;

/// The input of run `run` in thread `thread`: the example's image, scaled, so threads disagree if they mix.
std::vector<float> input_for(int thread, int run) {
  std::vector<float> x(hello_cnn_model_input, hello_cnn_model_input + hello_cnn_model_input_count);
  const float scale = 1.0f + 0.1f * static_cast<float>(thread) + 0.01f * static_cast<float>(run);
  for (float& v : x) v *= scale;
  return x;
}

bool run_once(om::Session& session, const std::vector<float>& x, std::vector<float>& out, std::string& error) {
  om::Shape shape;
  om::Status st = shape.assign(hello_cnn_model_input_shape, hello_cnn_model_input_rank);
  if (st.ok()) st = session.set_input(0, om::ConstTensorView(om::DataType::float32, shape, x.data()));
  if (st.ok()) st = session.run();
  if (!st.ok()) {
    error = st.message();
    return false;
  }
  const om::ConstTensorView y = session.output(0);
  out.assign(y.data_as<float>(), y.data_as<float>() + y.element_count());
  return true;
}

}  // namespace

int main() {
  om::Model model;
  om::Status st = model.load(om::ByteSpan(hello_cnn_model, hello_cnn_model_size));
  if (!st.ok()) {
    std::fprintf(stderr, "load: %s\n", st.message());
    return 1;
  }

  // References, one thread.
  std::vector<std::vector<float>> expected(kThreads * kRunsPerThread);
  {
    om::Session session;
    st = session.prepare(model, Kernels::registry());
    std::string error;
    for (int t = 0; st.ok() && t < kThreads; ++t)
      for (int r = 0; r < kRunsPerThread; ++r)
        if (!run_once(session, input_for(t, r), expected[t * kRunsPerThread + r], error)) {
          std::fprintf(stderr, "reference run: %s\n", error.c_str());
          return 1;
        }
    if (!st.ok()) {
      std::fprintf(stderr, "reference prepare: %s\n", st.message());
      return 1;
    }
  }

  // The same, every thread with its own session on the shared model, prepared and run concurrently.
  std::atomic<int> mismatches{0};
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      om::Session session;
      om::Status prepared = session.prepare(model, Kernels::registry());
      if (!prepared.ok()) {
        std::fprintf(stderr, "thread %d prepare: %s\n", t, prepared.message());
        ++errors;
        return;
      }
      std::vector<float> out;
      std::string error;
      for (int r = 0; r < kRunsPerThread; ++r) {
        if (!run_once(session, input_for(t, r), out, error)) {
          std::fprintf(stderr, "thread %d run %d: %s\n", t, r, error.c_str());
          ++errors;
          return;
        }
        if (out != expected[t * kRunsPerThread + r]) ++mismatches;  // same code, same order: bit-identical
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::printf("concurrent sessions: %d threads x %d runs on one Model, %d mismatches, %d errors\n", kThreads,
              kRunsPerThread, mismatches.load(), errors.load());
  return mismatches.load() == 0 && errors.load() == 0 ? 0 : 1;
}
