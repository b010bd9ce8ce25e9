// SPDX-License-Identifier: MIT
// Kernels split over a thread pool (core/threads.hpp, runtime/std_thread_pool.hpp): the std::thread pool runs every
// task exactly once, also when sessions share it; and every kernel that splits its work (Conv's item, row and
// product and band splits, depthwise Conv, Gemm's row and column splits, MatMul's batch and product splits, MaxPool,
// Concat, bidirectional LSTM and RNN, QLinearConv's unit, channel and depthwise splits, QLinearAdd, 8-bit MaxPool)
// gives bit-identical outputs with 1, 2, 3 and 4 threads and with a pool that runs tasks in reverse order, at every
// instruction-set level this CPU has; a counting pool proves each model really was split. Built twice: as a plain test
// (threads_split) and under ThreadSanitizer (threads_split_tsan), which reports any race between tasks.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "onnxmicro/kernels/math/gemm.hpp"
#include "onnxmicro/kernels/math/matmul.hpp"
#include "onnxmicro/kernels/math/relu.hpp"
#include "onnxmicro/kernels/nn/conv.hpp"
#include "onnxmicro/kernels/nn/lstm.hpp"
#include "onnxmicro/kernels/nn/max_pool.hpp"
#include "onnxmicro/kernels/nn/rnn.hpp"
#include "onnxmicro/kernels/quantization/qlinear_add.hpp"
#include "onnxmicro/kernels/quantization/qlinear_conv.hpp"
#include "onnxmicro/kernels/quantization/quantize_linear.hpp"
#include "onnxmicro/runtime.hpp"
#include "onnxmicro/runtime/std_thread_pool.hpp"
#include "support/proto_writer.hpp"

namespace {

namespace om = onnxmicro;
namespace k = onnxmicro::kernels;
using namespace onnxmicro_test;

using SplitKernels = om::KernelSet<k::Conv_1, k::Gemm_11, k::MatMul_1, k::MaxPool_10, k::Relu_1, k::Concat_11,
                                   k::LSTM_7, k::RNN_7, k::QuantizeLinear_13, k::QLinearConv_10, k::QLinearAdd_1>;

// ---- the pool itself ----

TEST(StdThreadPool, RunsEveryTaskExactlyOnce) {
  for (std::size_t threads : {1u, 2u, 3u, 5u}) {
    om::StdThreadPool pool(threads);
    EXPECT_EQ(pool.concurrency(), threads);
    for (std::size_t tasks : {0u, 1u, 2u, 3u, 7u, 64u, 70000u}) {  // 70000: more than one job word holds
      std::vector<std::atomic<int>> hits(tasks);
      struct Context {
        std::vector<std::atomic<int>>* hits;
      } context{&hits};
      pool.parallel_for(
          tasks, [](void* c, std::size_t t) noexcept { (*static_cast<Context*>(c)->hits)[t].fetch_add(1); }, &context);
      for (std::size_t t = 0; t < tasks; ++t) ASSERT_EQ(hits[t].load(), 1) << threads << " threads, task " << t;
    }
  }
}

TEST(StdThreadPool, ManyShortJobsInARow) {
  om::StdThreadPool pool(3);
  std::vector<std::int64_t> sums(3);
  for (int round = 0; round < 2000; ++round) {
    pool.parallel_for(
        3, [](void* c, std::size_t t) noexcept { static_cast<std::int64_t*>(c)[t] += static_cast<std::int64_t>(t); },
        sums.data());
  }
  EXPECT_EQ(sums[0], 0);
  EXPECT_EQ(sums[1], 2000);
  EXPECT_EQ(sums[2], 4000);
}

TEST(StdThreadPool, SessionsOnTwoThreadsShareOnePool) {
  om::StdThreadPool pool(2);
  std::vector<std::int64_t> counts(2 * 4);
  auto submit = [&](std::size_t caller) {
    for (int round = 0; round < 500; ++round) {
      pool.parallel_for(
          4, [](void* c, std::size_t t) noexcept { static_cast<std::int64_t*>(c)[t] += 1; }, &counts[caller * 4]);
    }
  };
  std::thread first(submit, 0), second(submit, 1);
  first.join();
  second.join();
  for (std::int64_t count : counts) EXPECT_EQ(count, 500);
}

TEST(StdThreadPool, TheCallerRunsTheFirstTask) {
  // Consecutive nodes split alike then find their part in the same core's cache (std_thread_pool.hpp).
  om::StdThreadPool pool(2);
  struct Context {
    std::thread::id caller;
    std::atomic<int> elsewhere{0};
  } context;
  context.caller = std::this_thread::get_id();
  for (int round = 0; round < 2000; ++round) {
    pool.parallel_for(
        2,
        [](void* c, std::size_t t) noexcept {
          Context& ctx = *static_cast<Context*>(c);
          if (t == 0 && std::this_thread::get_id() != ctx.caller) ctx.elsewhere.fetch_add(1);
        },
        &context);
  }
  EXPECT_EQ(context.elsewhere.load(), 0);
}

TEST(SplitRange, CoversTheRangeInGranules) {
  for (std::int64_t total : {0, 1, 7, 31, 32, 33, 100, 1000}) {
    for (std::size_t parts = 1; parts <= 5; ++parts) {
      for (std::int64_t granule : {1, 8, 32}) {
        std::int64_t next = 0;
        for (std::size_t p = 0; p < parts; ++p) {
          const om::SplitRange r = om::split_range(total, parts, p, granule);
          EXPECT_EQ(r.begin, next);
          EXPECT_GE(r.size(), 0);
          if (r.end < total) {
            EXPECT_EQ(r.size() % granule, 0);
          }
          next = r.end;
        }
        EXPECT_EQ(next, total) << total << " in " << parts << " parts of " << granule;
      }
    }
  }
}

TEST(SplitRange, BalanceIsTheShareOfTheTasksTimeSpentWorking) {
  EXPECT_DOUBLE_EQ(k::gemm::split_balance(3, 2), 0.75);  // 24 rows in 8-row panels over 2 tasks: 2 and 1
  EXPECT_DOUBLE_EQ(k::gemm::split_balance(98, 2), 1.0);
  EXPECT_DOUBLE_EQ(k::gemm::split_balance(5, 4), 5.0 / 8.0);
  EXPECT_DOUBLE_EQ(k::gemm::split_balance(0, 2), 0.0);
}

// ---- kernels: the same bits for any split ----

// A pool that runs the tasks in reverse order on the caller's thread and counts the splits it was given.
class ReversePool final : public om::ThreadPool {
 public:
  explicit ReversePool(std::size_t concurrency) : concurrency_(concurrency) {}
  std::size_t concurrency() const noexcept override { return concurrency_; }
  void parallel_for(std::size_t tasks, Task task, void* context) noexcept override {
    if (tasks > 1) ++splits;
    for (std::size_t t = tasks; t > 0; --t) task(context, t - 1);
  }
  int splits = 0;

 private:
  std::size_t concurrency_;
};

std::vector<float> wave(std::size_t count, float step, float scale) {
  std::vector<float> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = std::sin(step * static_cast<float>(i) + 0.3f) * scale;
  return v;
}

std::size_t count_of(const std::vector<std::int64_t>& dims) {
  std::size_t n = 1;
  for (std::int64_t d : dims) n *= static_cast<std::size_t>(d);
  return n;
}

ProtoWriter untyped_output(const std::string& name, om::DataType dtype) {
  ProtoWriter v;
  v.string_field(1, name);
  v.message_field(2, make_tensor_type(dtype, {}, false));
  return v;
}

// One node on input x (dims given) with float initializers (or double for dtype float64).
struct SplitCase {
  std::string name;
  std::string op;
  std::vector<std::int64_t> x_dims;
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> weights;  // initializers, in input order
  std::vector<ProtoWriter> attributes;
  om::DataType dtype = om::DataType::float32;
  bool relu_after = false;  // followed by a Relu the session folds into a Conv
  // x is quantized to uint8 first (QuantizeLinear) and the op runs on uint8: QLinearConv with the int8 weights `w`
  // (one scale per output channel) and an int32 bias "b" when listed, QLinearAdd with a constant uint8 operand,
  // or an 8-bit MaxPool.
  bool quantized = false;

  std::vector<unsigned char> model() const { return quantized ? quantized_model() : float_model(); }

  std::vector<unsigned char> quantized_model() const {
    std::vector<ProtoWriter> initializers = {
        make_float_tensor("xs", {}, {2.0f / 127.0f}),
        make_tensor_raw("xz", om::DataType::uint8, {}, std::vector<std::uint8_t>{128}),
        make_float_tensor("ys", {}, {0.5f}),
        make_tensor_raw("yz", om::DataType::uint8, {}, std::vector<std::uint8_t>{100})};
    std::vector<std::string> inputs = {"xq"};
    if (op == "QLinearConv") {
      const std::vector<std::int64_t>& w_dims = weights[0].second;
      std::vector<std::int8_t> w(count_of(w_dims));
      for (std::size_t i = 0; i < w.size(); ++i)
        w[i] = static_cast<std::int8_t>(static_cast<int>((i * 37) % 255) - 127);
      std::vector<float> w_scales(static_cast<std::size_t>(w_dims[0]));
      for (std::size_t m = 0; m < w_scales.size(); ++m) w_scales[m] = 0.0005f + 0.00002f * static_cast<float>(m);
      initializers.push_back(make_tensor_raw("w", om::DataType::int8, w_dims, w));
      initializers.push_back(make_float_tensor("ws", {w_dims[0]}, w_scales));
      initializers.push_back(
          make_tensor_raw("wz", om::DataType::int8, {w_dims[0]}, std::vector<std::int8_t>(w_scales.size(), 0)));
      inputs.insert(inputs.end(), {"xs", "xz", "w", "ws", "wz", "ys", "yz"});
      if (weights.size() > 1) {
        std::vector<std::int32_t> b(w_scales.size());
        for (std::size_t m = 0; m < b.size(); ++m) b[m] = static_cast<std::int32_t>((m * 101) % 2001) - 1000;
        initializers.push_back(make_tensor_raw("b", om::DataType::int32, {w_dims[0]}, b));
        inputs.push_back("b");
      }
    }
    if (op == "QLinearAdd") {  // com.microsoft: plus a constant uint8 operand of x's shape
      std::vector<std::uint8_t> other(count_of(x_dims));
      for (std::size_t i = 0; i < other.size(); ++i) other[i] = static_cast<std::uint8_t>((i * 29) % 256);
      initializers.push_back(make_tensor_raw("other", om::DataType::uint8, x_dims, other));
      initializers.push_back(make_float_tensor("os", {}, {0.03f}));
      inputs.insert(inputs.end(), {"xs", "xz", "other", "os", "yz", "ys", "yz"});
    }
    const std::string domain = op == "QLinearAdd" ? "com.microsoft" : "";
    const std::vector<ProtoWriter> nodes = {make_node("QuantizeLinear", {"x", "xs", "xz"}, {"xq"}, {}, "quantize"),
                                            make_node(op, inputs, {"y"}, attributes, "node", domain)};
    return make_model(make_graph("g", nodes, {make_value_info("x", om::DataType::float32, x_dims)},
                                 {untyped_output("y", om::DataType::uint8)}, initializers),
                      13, 8, {make_opset("", 13), make_opset("com.microsoft", 1)})
        .bytes();
  }

  std::vector<unsigned char> float_model() const {
    std::vector<std::string> inputs = {"x"};
    std::vector<ProtoWriter> initializers;
    float step = 0.37f;
    for (const auto& [name, dims] : weights) {
      inputs.push_back(name);
      const std::vector<float> values = wave(count_of(dims), step, 0.25f);
      step += 0.11f;
      if (dtype == om::DataType::float64) {
        initializers.push_back(make_tensor_raw(name, dtype, dims, std::vector<double>(values.begin(), values.end())));
      } else {
        initializers.push_back(make_float_tensor(name, dims, values));
      }
    }
    std::vector<ProtoWriter> nodes = {make_node(op, inputs, {relu_after ? "z" : "y"}, attributes, "node")};
    if (relu_after) nodes.push_back(make_node("Relu", {"z"}, {"y"}, {}, "relu"));
    return make_model(make_graph("g", nodes, {make_value_info("x", dtype, x_dims)}, {untyped_output("y", dtype)},
                                 initializers),
                      13)
        .bytes();
  }
};

// Each case has at least two tasks' worth of work (core/threads.hpp, kMinTaskWork), so it splits for any pool.
std::vector<SplitCase> split_cases() {
  using A = std::vector<std::int64_t>;
  std::vector<SplitCase> cases;
  cases.push_back({"conv 3x3, many tiles (items split)",
                   "Conv",
                   {2, 8, 40, 40},
                   {{"w", {16, 8, 3, 3}}, {"b", {16}}},
                   {make_attribute_ints("pads", A{1, 1, 1, 1})}});
  cases.push_back({"conv 3x3, three tiles (products claimed by point)",
                   "Conv",
                   {1, 64, 9, 9},
                   {{"w", {96, 64, 3, 3}}, {"b", {96}}},
                   {make_attribute_ints("pads", A{1, 1, 1, 1})}});
  cases.push_back({"conv 3x3 on 56-wide rows (padded bands split)",
                   "Conv",
                   {1, 16, 20, 56},
                   {{"w", {32, 16, 3, 3}}, {"b", {32}}},
                   {make_attribute_ints("pads", A{1, 1, 1, 1})},
                   om::DataType::float32,
                   true});
  cases.push_back({"first conv, 3x3 stride 2 over RGB (padded bands in phases)",
                   "Conv",
                   {1, 3, 64, 224},
                   {{"w", {24, 3, 3, 3}}, {"b", {24}}},
                   {make_attribute_ints("pads", A{1, 1, 1, 1}), make_attribute_ints("strides", A{2, 2})}});
  cases.push_back({"conv 1x1 (product split)", "Conv", {1, 64, 20, 20}, {{"w", {96, 64, 1, 1}}}, {}});
  cases.push_back({"conv 1x1 stride 2",
                   "Conv",
                   {1, 64, 40, 40},
                   {{"w", {96, 64, 1, 1}}, {"b", {96}}},
                   {make_attribute_ints("strides", A{2, 2})}});
  cases.push_back({"grouped conv + relu",
                   "Conv",
                   {1, 32, 24, 24},
                   {{"w", {64, 8, 3, 3}}, {"b", {64}}},
                   {make_attribute_int("group", 4), make_attribute_ints("pads", A{1, 1, 1, 1})},
                   om::DataType::float32,
                   true});
  cases.push_back({"depthwise 3x3 stride 2 + relu",
                   "Conv",
                   {1, 96, 112, 112},
                   {{"w", {96, 1, 3, 3}}, {"b", {96}}},
                   {make_attribute_int("group", 96), make_attribute_ints("pads", A{1, 1, 1, 1}),
                    make_attribute_ints("strides", A{2, 2})},
                   om::DataType::float32,
                   true});
  cases.push_back({"depthwise 3x3 on 14x14 planes (split although its multiply-adds alone are few)",
                   "Conv",
                   {1, 576, 14, 14},
                   {{"w", {576, 1, 3, 3}}, {"b", {576}}},
                   {make_attribute_int("group", 576), make_attribute_ints("pads", A{1, 1, 1, 1})}});
  cases.push_back({"conv 1x1 to 24 channels (3 row panels: columns split)",
                   "Conv",
                   {1, 64, 56, 56},
                   {{"w", {24, 64, 1, 1}}, {"b", {24}}},
                   {}});
  cases.push_back({"double conv",
                   "Conv",
                   {1, 16, 32, 32},
                   {{"w", {32, 16, 3, 3}}},
                   {make_attribute_ints("pads", A{1, 1, 1, 1})},
                   om::DataType::float64});
  cases.push_back(
      {"gemm, rows split", "Gemm", {64, 256}, {{"w", {192, 256}}, {"c", {192}}}, {make_attribute_int("transB", 1)}});
  cases.push_back({"gemm, one row (streams B: split)",
                   "Gemm",
                   {1, 1280},
                   {{"w", {1000, 1280}}, {"c", {1000}}},
                   {make_attribute_int("transB", 1)}});
  cases.push_back({"gemm, columns split with a lone last column", "Gemm", {2, 16384}, {{"w", {16384, 97}}}, {}});
  // 4 tasks and 3 whole column tiles besides the lone column: the empty fourth part must not take that column.
  cases.push_back({"gemm, more tasks than column tiles", "Gemm", {1, 16384}, {{"w", {16384, 97}}}, {}});
  cases.push_back({"matmul, batches of their own", "MatMul", {3, 128, 128}, {{"w", {3, 128, 160}}}, {}});
  cases.push_back({"matmul, batches folded", "MatMul", {4, 64, 128}, {{"w", {128, 96}}}, {}});
  cases.push_back({"maxpool 3x3 stride 2",
                   "MaxPool",
                   {1, 96, 112, 112},
                   {},
                   {make_attribute_ints("kernel_shape", A{3, 3}), make_attribute_ints("pads", A{1, 1, 1, 1}),
                    make_attribute_ints("strides", A{2, 2})}});
  cases.push_back({"concat of channels (each input's elements split)",
                   "Concat",
                   {1, 64, 56, 56},
                   {{"w", {1, 48, 56, 56}}},
                   {make_attribute_int("axis", 1)}});
  cases.push_back({"concat of rows (the rows split)",
                   "Concat",
                   {3, 7, 96, 80},
                   {{"w", {3, 7, 96, 33}}},
                   {make_attribute_int("axis", 3)}});
  // A step's product is far below a task's worth: the two directions run as two tasks.
  cases.push_back({"bidirectional lstm (directions split)",
                   "LSTM",
                   {12, 3, 20},
                   {{"w", {2, 96, 20}}, {"r", {2, 96, 24}}, {"b", {2, 192}}},
                   {make_attribute_int("hidden_size", 24), make_attribute_string("direction", "bidirectional")}});
  cases.push_back({"bidirectional rnn (directions split)",
                   "RNN",
                   {9, 2, 16},
                   {{"w", {2, 32, 16}}, {"r", {2, 32, 32}}},
                   {make_attribute_int("hidden_size", 32), make_attribute_string("direction", "bidirectional")}});
  const SplitCase quantized_conv{"", "QLinearConv", {}, {}, {}, om::DataType::float32, false, true};
  cases.push_back(quantized_conv);
  cases.back().name = "qlinearconv 3x3, many tiles (units claimed, image by image)";
  cases.back().x_dims = {2, 16, 40, 40};
  cases.back().weights = {{"w", {32, 16, 3, 3}}, {"b", {32}}};
  cases.back().attributes.push_back(make_attribute_ints("pads", A{1, 1, 1, 1}));
  // 4 column tiles of 16 at 7x7 (depth 2304): 2 and 4 tasks claim them, 3 tasks split the output channels.
  cases.push_back(quantized_conv);
  cases.back().name = "qlinearconv 3x3 on 7x7 (units or channels split)";
  cases.back().x_dims = {1, 256, 7, 7};
  cases.back().weights = {{"w", {132, 256, 3, 3}}};
  cases.back().attributes.push_back(make_attribute_ints("pads", A{1, 1, 1, 1}));
  cases.push_back(quantized_conv);
  cases.back().name = "qlinearconv 1x1 (input rows packed as they are)";
  cases.back().x_dims = {1, 64, 20, 20};
  cases.back().weights = {{"w", {96, 64, 1, 1}}, {"b", {96}}};
  cases.push_back(quantized_conv);
  cases.back().name = "qlinearconv depthwise 3x3 stride 2 (channels split)";
  cases.back().x_dims = {1, 96, 56, 56};
  cases.back().weights = {{"w", {96, 1, 3, 3}}, {"b", {96}}};
  cases.back().attributes = {make_attribute_int("group", 96), make_attribute_ints("pads", A{1, 1, 1, 1}),
                             make_attribute_ints("strides", A{2, 2})};
  cases.push_back({"qlinearadd of same shapes (element ranges split)",
                   "QLinearAdd",
                   {1, 64, 56, 56},
                   {},
                   {},
                   om::DataType::float32,
                   false,
                   true});
  cases.push_back({"maxpool 3x3 stride 2 on uint8 (planes split)",
                   "MaxPool",
                   {1, 96, 112, 112},
                   {},
                   {make_attribute_ints("kernel_shape", A{3, 3}), make_attribute_ints("pads", A{1, 1, 1, 1}),
                    make_attribute_ints("strides", A{2, 2})},
                   om::DataType::float32,
                   false,
                   true});
  return cases;
}

struct Result {
  std::vector<unsigned char> bytes;
  std::size_t threads = 0;
};

Result run_case(const SplitCase& c, om::ThreadPool* pool, om::Isa cap) {
  Result r;
  const std::vector<unsigned char> bytes = c.model();
  om::Model model;
  om::Status st = model.load(om::ByteSpan(bytes.data(), bytes.size()));
  EXPECT_TRUE(st.ok()) << c.name << ": " << st.message();
  om::SessionOptions options;
  options.thread_pool = pool;
  options.max_isa = cap;
  om::Session session;
  st = session.prepare(model, SplitKernels::registry(), options);
  EXPECT_TRUE(st.ok()) << c.name << ": " << st.message();
  if (!st.ok()) return r;
  r.threads = session.thread_count();
  const std::size_t count = count_of(c.x_dims);
  om::Shape shape;
  EXPECT_TRUE(shape.assign(c.x_dims.data(), c.x_dims.size()).ok());
  const std::vector<float> x = wave(count, 0.173f, 2.0f);
  const std::vector<double> x_double(x.begin(), x.end());
  const void* data = c.dtype == om::DataType::float64 ? static_cast<const void*>(x_double.data()) : x.data();
  EXPECT_TRUE(session.set_input(0, om::ConstTensorView(c.dtype, shape, data)).ok());
  st = session.run();
  EXPECT_TRUE(st.ok()) << c.name << ": " << st.message();
  const om::ConstTensorView y = session.output(0);
  const auto* first = static_cast<const unsigned char*>(y.data);
  r.bytes.assign(first, first + y.element_count() * om::dtype_size(y.dtype));
  return r;
}

TEST(ThreadSplit, EveryKernelGivesTheSameBitsForAnyThreadCount) {
  om::StdThreadPool two(2), three(3), four(4);
  for (om::Isa cap : {om::Isa::baseline, om::Isa::avx2, om::Isa::best}) {
    for (const SplitCase& c : split_cases()) {
      SCOPED_TRACE(c.name + " at " + std::string(om::isa_name(cap)));
      const Result serial = run_case(c, nullptr, cap);
      ASSERT_FALSE(serial.bytes.empty());
      EXPECT_EQ(serial.threads, 1u);
      for (om::StdThreadPool* pool : {&two, &three, &four}) {
        const Result threaded = run_case(c, pool, cap);
        EXPECT_EQ(threaded.threads, pool->concurrency());
        ASSERT_EQ(threaded.bytes.size(), serial.bytes.size());
        EXPECT_EQ(std::memcmp(threaded.bytes.data(), serial.bytes.data(), serial.bytes.size()), 0)
            << pool->concurrency() << " threads";
      }
      for (std::size_t concurrency : {2u, 3u, 4u}) {
        ReversePool reverse(concurrency);
        const Result reversed = run_case(c, &reverse, cap);
        EXPECT_GT(reverse.splits, 0) << "the kernel did not split its work over " << concurrency << " threads";
        EXPECT_EQ(std::memcmp(reversed.bytes.data(), serial.bytes.data(), serial.bytes.size()), 0)
            << concurrency << " tasks in reverse order";
      }
    }
  }
}

TEST(ThreadSplit, SmallNodesStayOnOneThread) {
  // 2x4 by 4x3: far below a task's worth of work, so no thread is woken for it.
  SplitCase tiny{"tiny gemm", "Gemm", {2, 4}, {{"w", {4, 3}}}, {}};
  ReversePool pool(4);
  const Result r = run_case(tiny, &pool, om::Isa::best);
  EXPECT_EQ(r.threads, 4u);
  EXPECT_EQ(pool.splits, 0);
}

}  // namespace
