// SPDX-License-Identifier: MIT
// NodeObserver with SessionOptions::node_observer: every node that runs is seen once, in order, the plain run()
// included; Session::node_output() views each node's outputs inside after_node (clamped for a Conv that absorbed a
// Relu, unclamped when fusion is off), they match the final outputs, folded values stay reachable through
// Session::value(), and a run with an observer that copies into buffers sized beforehand allocates nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

// Every operator new of this test program is counted (the run itself must not add to the count).
#include "support/counted_heap.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using namespace onnxmicro_test;

constexpr std::int64_t kChannels = 4, kSize = 5;
constexpr std::size_t kElements = static_cast<std::size_t>(kChannels * kSize * kSize);

// x[1,4,5,5] -> Conv 'conv' -> c -> Relu 'act' -> r (a graph output) -> Add 'add' with -k (Neg 'neg' of an
// initializer: folded at prepare) -> y (a graph output).
std::vector<unsigned char> model_bytes() {
  std::vector<float> w(static_cast<std::size_t>(kChannels * kChannels * 9)), b(kChannels), k(kChannels);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::sin(0.7f * static_cast<float>(i)) * 0.5f;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = 0.1f * static_cast<float>(i) - 0.15f;
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = 0.5f + static_cast<float>(i);
  const std::vector<ProtoWriter> nodes = {
      make_node("Conv", {"x", "w", "b"}, {"c"}, {make_attribute_ints("pads", {1, 1, 1, 1})}, "conv"),
      make_node("Relu", {"c"}, {"r"}, {}, "act"), make_node("Neg", {"k"}, {"kn"}, {}, "neg"),
      make_node("Add", {"r", "kn"}, {"y"}, {}, "add")};
  const std::vector<std::int64_t> dims = {1, kChannels, kSize, kSize};
  const ProtoWriter graph =
      make_graph("g", nodes, {make_value_info("x", om::DataType::float32, dims)},
                 {make_value_info("y", om::DataType::float32, dims), make_value_info("r", om::DataType::float32, dims)},
                 {make_float_tensor("w", {kChannels, kChannels, 3, 3}, w), make_float_tensor("b", {kChannels}, b),
                  make_float_tensor("k", {kChannels, 1, 1}, k)});
  return make_model(graph, 13).bytes();
}

std::vector<float> input_values() {
  std::vector<float> x(kElements);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.37f * static_cast<float>(i)) * 3.0f;
  return x;
}

// Records the events and copies every float output into a slot per value id, all sized before the run.
class Recorder final : public om::NodeObserver {
 public:
  explicit Recorder(const om::Session& session) : session_(session) {
    events_.reserve(64);
    copies_.assign(session.model()->graph().values.size(), std::vector<float>(kElements, 0.0f));
    copied_.assign(copies_.size(), 0);
  }
  void before_node(std::size_t node) noexcept override { events_.push_back(static_cast<int>(node)); }
  void after_node(std::size_t node) noexcept override {
    events_.push_back(-1 - static_cast<int>(node));
    const om::model::Node& n = *session_.node_reports()[node].node;
    for (std::size_t k = 0; k < n.outputs.size(); ++k) {
      const om::ConstTensorView view = session_.node_output(node, k);
      const std::size_t id = static_cast<std::size_t>(n.outputs[k]);
      if (view.dtype != om::DataType::float32 || static_cast<std::size_t>(view.element_count()) > kElements) {
        bad_views_ += 1;
        continue;
      }
      std::memcpy(copies_[id].data(), view.data, static_cast<std::size_t>(view.element_count()) * sizeof(float));
      copied_[id] = 1;
    }
  }
  std::vector<int> events_;  ///< i before node i, -1 - i after it
  std::vector<std::vector<float>> copies_;
  std::vector<unsigned char> copied_;
  int bad_views_ = 0;

 private:
  const om::Session& session_;
};

struct Prepared {
  std::vector<unsigned char> bytes = model_bytes();
  om::Model model;
  om::Session session;
  std::vector<float> x = input_values();
  void prepare(bool fuse, om::NodeObserver* observer = nullptr) {
    ASSERT_TRUE(model.load(om::ByteSpan(bytes.data(), bytes.size())).ok());
    om::SessionOptions options;
    options.fuse_activations = fuse;
    options.node_observer = observer;
    const om::Status st = session.prepare(model, om::all_kernels_registry(), options);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_TRUE(session.set_input(0, {om::DataType::float32, {1, kChannels, kSize, kSize}, x.data()}).ok());
  }
  om::model::ValueId id_of(std::string_view name) const {
    const om::model::Graph& graph = model.graph();
    for (std::size_t id = 0; id < graph.values.size(); ++id)
      if (graph.values[id].name == name) return static_cast<om::model::ValueId>(id);
    return om::model::kNoValue;
  }
  std::vector<float> output(std::size_t k) const {
    const float* p = session.output(k).data_as<float>();
    return std::vector<float>(p, p + session.output(k).element_count());
  }
};

// The node indices, in execution order, that were not folded.
std::vector<int> run_nodes(const om::Session& session) {
  std::vector<int> expected;
  for (std::size_t i = 0; i < session.node_reports().size(); ++i) {
    if (session.node_reports()[i].folded) continue;
    expected.push_back(static_cast<int>(i));
    expected.push_back(-1 - static_cast<int>(i));
  }
  return expected;
}

std::vector<std::string> op_types(const om::Session& session, const std::vector<int>& events) {
  std::vector<std::string> ops;
  for (int e : events)
    if (e >= 0) ops.emplace_back(session.node_reports()[static_cast<std::size_t>(e)].node->op_type);
  return ops;
}

TEST(NodeObserver, PlainRunCallsTheOptionsObserverForEveryNodeOnceInOrder) {
  Prepared p;
  p.prepare(/*fuse=*/true);
  Recorder recorder(p.session);
  p.session.set_node_observer(&recorder);
  EXPECT_EQ(p.session.node_observer(), &recorder);
  ASSERT_TRUE(p.session.run().ok());
  EXPECT_EQ(recorder.events_, run_nodes(p.session));
  // Relu went into the Conv, Neg was folded: the Conv (one event) and the Add.
  EXPECT_EQ(op_types(p.session, recorder.events_), (std::vector<std::string>{"Conv", "Add"}));
  EXPECT_EQ(recorder.bad_views_, 0);

  // Twice: the same events again; without an observer, none.
  recorder.events_.clear();
  ASSERT_TRUE(p.session.run().ok());
  EXPECT_EQ(recorder.events_, run_nodes(p.session));
  recorder.events_.clear();
  p.session.set_node_observer(nullptr);
  ASSERT_TRUE(p.session.run().ok());
  EXPECT_TRUE(recorder.events_.empty());
}

TEST(NodeObserver, SessionOptionsObserverIsUsedByRunAndRunInputs) {
  Prepared p;
  // The recorder needs the session: prepare first without it, then again with it in the options.
  p.prepare(/*fuse=*/false);
  Recorder recorder(p.session);
  om::SessionOptions options;
  options.fuse_activations = false;
  options.node_observer = &recorder;
  ASSERT_TRUE(p.session.prepare(p.model, om::all_kernels_registry(), options).ok());
  EXPECT_EQ(p.session.node_observer(), &recorder);
  const om::InputValue input{"x", {om::DataType::float32, {1, kChannels, kSize, kSize}, p.x.data()}};
  ASSERT_TRUE(p.session.run(om::Span<const om::InputValue>(&input, 1)).ok());
  EXPECT_EQ(recorder.events_, run_nodes(p.session));
  EXPECT_EQ(op_types(p.session, recorder.events_), (std::vector<std::string>{"Conv", "Relu", "Add"}));
  // prepare() takes the options' observer again (none).
  ASSERT_TRUE(p.session.prepare(p.model, om::all_kernels_registry(), om::SessionOptions()).ok());
  EXPECT_EQ(p.session.node_observer(), nullptr);
}

TEST(NodeObserver, OutputViewsMatchTheFinalOutputs) {
  for (bool fuse : {true, false}) {
    SCOPED_TRACE(fuse ? "fused" : "as written");
    Prepared p;
    p.prepare(fuse);
    Recorder recorder(p.session);
    ASSERT_TRUE(p.session.run(recorder).ok());
    EXPECT_EQ(recorder.bad_views_, 0);
    const std::vector<float> y = p.output(0), r = p.output(1);
    const std::size_t y_id = static_cast<std::size_t>(p.id_of("y")), r_id = static_cast<std::size_t>(p.id_of("r"));
    const std::size_t c_id = static_cast<std::size_t>(p.id_of("c"));
    ASSERT_TRUE(recorder.copied_[y_id] && recorder.copied_[r_id]);
    EXPECT_EQ(recorder.copies_[y_id], y);
    EXPECT_EQ(recorder.copies_[r_id], r);  // fused: the Conv's view holds the clamped values
    if (fuse) {
      EXPECT_FALSE(recorder.copied_[c_id]);  // the tensor between Conv and Relu is never computed
      EXPECT_EQ(p.session.value(static_cast<om::model::ValueId>(c_id)).dtype, om::DataType::undefined);
    } else {
      ASSERT_TRUE(recorder.copied_[c_id]);  // the Conv's own output, before the Relu: some negatives
      bool negative = false;
      for (std::size_t i = 0; i < kElements; ++i) {
        negative = negative || recorder.copies_[c_id][i] < 0;
        EXPECT_EQ(std::max(recorder.copies_[c_id][i], 0.0f), r[i]) << i;
      }
      EXPECT_TRUE(negative);
    }
    // The folded Neg's value is a constant, reachable after the run.
    const om::ConstTensorView kn = p.session.value(p.id_of("kn"));
    ASSERT_EQ(kn.dtype, om::DataType::float32);
    ASSERT_EQ(kn.element_count(), kChannels);
    for (std::int64_t i = 0; i < kChannels; ++i) EXPECT_EQ(kn.data_as<float>()[i], -(0.5f + static_cast<float>(i)));
    // Out of range and absent: empty views.
    EXPECT_EQ(p.session.node_output(p.session.node_reports().size(), 0).dtype, om::DataType::undefined);
    EXPECT_EQ(p.session.node_output(0, 5).dtype, om::DataType::undefined);
    EXPECT_EQ(p.session.value(om::model::kNoValue).dtype, om::DataType::undefined);
  }
}

TEST(NodeObserver, RunWithAnObserverAllocatesNothing) {
  Prepared p;
  p.prepare(/*fuse=*/false);
  Recorder recorder(p.session);
  p.session.set_node_observer(&recorder);
  ASSERT_TRUE(p.session.run().ok());  // (a first run: nothing to warm up, but the same path)
  recorder.events_.clear();
  const std::size_t before = onnxmicro_test::heap_allocations;
  const om::Status st = p.session.run();
  const std::size_t after = onnxmicro_test::heap_allocations;
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(after, before) << "Session::run() with a node observer allocated";
  EXPECT_EQ(recorder.events_.size(), 6u);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
