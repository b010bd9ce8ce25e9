// SPDX-License-Identifier: MIT
// Conv beyond the ONNX node suite (which only has small 2-D, group-1 float cases): groups and depthwise,
// 1-D and 3-D, dilations with asymmetric pads, SAME/VALID auto_pad, the 1x1 direct path, several im2col
// tiles, float64/float16/bfloat16, constant weights, version resolution, and every attribute/shape check.
// Expected values come from a direct seven-loop convolution in double written here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "onnxmicro/runtime/std_thread_pool.hpp"
#include "support/loaded_model.hpp"
#include "support/proto_writer.hpp"
#include "support/scoped_environment.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Status;
using om::StatusCode;
using onnxmicro_test::ProtoWriter;

// ---- harness: one node in a model, run through Model + Session -------------------------------------------

struct Value {
  std::string name;
  DataType dtype = DataType::undefined;  ///< undefined: an omitted optional input
  std::vector<std::int64_t> dims;
  std::vector<unsigned char> bytes;
  bool initializer = false;

  template <typename T>
  std::vector<T> as() const {
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
  }
};

template <typename T>
Value value(std::string name, std::vector<std::int64_t> dims, const std::vector<T>& values,
            DataType dtype = om::dtype_of<T>::value) {
  Value v{std::move(name), dtype, std::move(dims), {}, false};
  v.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(v.bytes.data(), values.data(), v.bytes.size());
  return v;
}
[[maybe_unused]] Value constant(Value v) {
  v.initializer = true;
  return v;
}

struct Outcome {
  Status status;
  std::vector<Value> outputs;
};

Outcome run_node(const std::string& op, int opset, const std::vector<Value>& inputs,
                 const std::vector<std::pair<std::string, DataType>>& outputs,
                 const std::vector<ProtoWriter>& attributes = {}) {
  std::vector<std::string> names;
  std::vector<ProtoWriter> graph_inputs, initializers, graph_outputs;
  for (const Value& v : inputs) {
    names.push_back(v.dtype == DataType::undefined ? "" : v.name);
    if (v.dtype == DataType::undefined) continue;
    if (v.initializer) {
      initializers.push_back(onnxmicro_test::make_tensor_raw(v.name, v.dtype, v.dims, v.bytes.data(), v.bytes.size()));
    } else {
      graph_inputs.push_back(onnxmicro_test::make_value_info(v.name, v.dtype, v.dims));
    }
  }
  std::vector<std::string> output_names;
  for (const auto& o : outputs) {
    output_names.push_back(o.first);
    ProtoWriter info;
    info.string_field(1, o.first).message_field(2, onnxmicro_test::make_tensor_type(o.second, {}, false));
    graph_outputs.push_back(info);
  }
  ProtoWriter node = onnxmicro_test::make_node(op, names, output_names, attributes);
  std::vector<unsigned char> bytes =
      onnxmicro_test::make_model(onnxmicro_test::make_graph("g", {node}, graph_inputs, graph_outputs, initializers),
                                 opset)
          .bytes();
  Outcome outcome;
  om::Model model;
  outcome.status = model.load(om::ByteSpan(bytes.data(), bytes.size()));
  if (!outcome.status.ok()) return outcome;
  om::Session session;
  outcome.status = session.prepare(model, om::all_kernels_registry());
  if (!outcome.status.ok()) return outcome;
  for (const Value& v : inputs) {
    if (v.dtype == DataType::undefined || v.initializer) continue;
    om::Shape shape;
    EXPECT_TRUE(shape.assign(v.dims.data(), v.dims.size()).ok());
    outcome.status = session.set_input(v.name, om::ConstTensorView(v.dtype, shape, v.bytes.data()));
    if (!outcome.status.ok()) return outcome;
  }
  outcome.status = session.run();
  if (!outcome.status.ok()) return outcome;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    om::ConstTensorView y = session.output(i);
    Value out{outputs[i].first, y.dtype, {}, {}, false};
    for (int d = 0; d < y.shape.rank(); ++d) out.dims.push_back(y.shape[d]);
    const auto* p = static_cast<const unsigned char*>(y.data);
    out.bytes.assign(p, p + y.byte_size());
    outcome.outputs.push_back(out);
  }
  return outcome;
}

[[maybe_unused]] std::vector<float> pattern(std::size_t count, float scale = 1.0f, int seed = 1) {
  std::vector<float> v(count);
  std::uint32_t state = 2463534242u + static_cast<std::uint32_t>(seed);
  for (float& x : v) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    x = scale * (static_cast<float>(state % 2001) / 1000.0f - 1.0f);
  }
  return v;
}

[[maybe_unused]] std::int64_t count_of(const std::vector<std::int64_t>& dims) {
  std::int64_t n = 1;
  for (std::int64_t d : dims) n *= d;
  return n;
}

// ---- independent reference: direct convolution over explicit pads ---------------------------------------

struct ConvSpec {
  std::vector<std::int64_t> x_dims, w_dims;
  std::int64_t group = 1;
  std::vector<std::int64_t> strides, dilations, pads;  // empty: defaults; pads as [begins..., ends...]
  bool bias = false;
};

std::vector<std::int64_t> conv_output_dims(const ConvSpec& s) {
  const std::size_t rank = s.x_dims.size() - 2;
  std::vector<std::int64_t> y = {s.x_dims[0], s.w_dims[0]};
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t stride = s.strides.empty() ? 1 : s.strides[i];
    const std::int64_t dilation = s.dilations.empty() ? 1 : s.dilations[i];
    const std::int64_t pads = s.pads.empty() ? 0 : s.pads[i] + s.pads[i + rank];
    y.push_back((s.x_dims[i + 2] + pads - (dilation * (s.w_dims[i + 2] - 1) + 1)) / stride + 1);
  }
  return y;
}

std::vector<double> reference_conv(const ConvSpec& s, const std::vector<double>& x, const std::vector<double>& w,
                                   const std::vector<double>& b) {
  const std::size_t rank = s.x_dims.size() - 2;
  const std::vector<std::int64_t> y_dims = conv_output_dims(s);
  const std::int64_t channels = s.x_dims[1], out_channels = s.w_dims[0];
  const std::int64_t cg = channels / s.group, mg = out_channels / s.group;
  std::vector<double> y(static_cast<std::size_t>(count_of(y_dims)));
  std::int64_t out_spatial = 1, in_spatial = 1, kernel = 1;
  for (std::size_t i = 0; i < rank; ++i) {
    out_spatial *= y_dims[i + 2];
    in_spatial *= s.x_dims[i + 2];
    kernel *= s.w_dims[i + 2];
  }
  std::vector<std::vector<std::int64_t>> taps(static_cast<std::size_t>(kernel));  // each tap's index per axis
  for (std::int64_t k = 0; k < kernel; ++k) {
    std::vector<std::int64_t>& ki = taps[static_cast<std::size_t>(k)];
    ki.resize(rank);
    for (std::int64_t r = k, d = static_cast<std::int64_t>(rank) - 1; d >= 0; --d) {
      ki[static_cast<std::size_t>(d)] = r % s.w_dims[static_cast<std::size_t>(d) + 2];
      r /= s.w_dims[static_cast<std::size_t>(d) + 2];
    }
  }
  for (std::int64_t n = 0; n < s.x_dims[0]; ++n) {
    for (std::int64_t m = 0; m < out_channels; ++m) {
      const std::int64_t g = m / mg;
      for (std::int64_t o = 0; o < out_spatial; ++o) {
        std::vector<std::int64_t> oi(rank);
        for (std::int64_t r = o, d = static_cast<std::int64_t>(rank) - 1; d >= 0; --d) {
          oi[static_cast<std::size_t>(d)] = r % y_dims[static_cast<std::size_t>(d) + 2];
          r /= y_dims[static_cast<std::size_t>(d) + 2];
        }
        double sum = s.bias ? b[static_cast<std::size_t>(m)] : 0.0;
        for (std::int64_t c = 0; c < cg; ++c) {
          for (std::int64_t k = 0; k < kernel; ++k) {
            const std::vector<std::int64_t>& ki = taps[static_cast<std::size_t>(k)];
            bool inside = true;
            std::int64_t offset = 0;
            for (std::size_t d = 0; d < rank; ++d) {
              const std::int64_t stride = s.strides.empty() ? 1 : s.strides[d];
              const std::int64_t dilation = s.dilations.empty() ? 1 : s.dilations[d];
              const std::int64_t pad = s.pads.empty() ? 0 : s.pads[d];
              const std::int64_t coordinate = oi[d] * stride + ki[d] * dilation - pad;
              inside = inside && coordinate >= 0 && coordinate < s.x_dims[d + 2];
              offset = offset * s.x_dims[d + 2] + coordinate;
            }
            if (!inside) continue;
            const double xv = x[static_cast<std::size_t>((n * channels + g * cg + c) * in_spatial + offset)];
            const double wv = w[static_cast<std::size_t>((m * cg + c) * kernel + k)];
            sum += xv * wv;
          }
        }
        y[static_cast<std::size_t>((n * out_channels + m) * out_spatial + o)] = sum;
      }
    }
  }
  return y;
}

std::vector<ProtoWriter> conv_attributes(const ConvSpec& s) {
  std::vector<ProtoWriter> a;
  if (s.group != 1) a.push_back(onnxmicro_test::make_attribute_int("group", s.group));
  if (!s.strides.empty()) a.push_back(onnxmicro_test::make_attribute_ints("strides", s.strides));
  if (!s.dilations.empty()) a.push_back(onnxmicro_test::make_attribute_ints("dilations", s.dilations));
  if (!s.pads.empty()) a.push_back(onnxmicro_test::make_attribute_ints("pads", s.pads));
  return a;
}

// Runs a float32 Conv of `spec` and compares with the reference.
void expect_conv_matches_reference(const ConvSpec& spec, bool constant_weights = false) {
  const std::vector<float> x = pattern(static_cast<std::size_t>(count_of(spec.x_dims)), 1.0f, 1);
  const std::vector<float> w = pattern(static_cast<std::size_t>(count_of(spec.w_dims)), 0.5f, 2);
  const std::vector<float> b = pattern(static_cast<std::size_t>(spec.w_dims[0]), 1.0f, 3);
  std::vector<Value> inputs = {value("x", spec.x_dims, x), value("w", spec.w_dims, w)};
  if (constant_weights) inputs[1] = constant(inputs[1]);
  if (spec.bias) inputs.push_back(value("b", {spec.w_dims[0]}, b));
  Outcome r = run_node("Conv", 11, inputs, {{"y", DataType::float32}}, conv_attributes(spec));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].dims, conv_output_dims(spec));
  const std::vector<double> expected =
      reference_conv(spec, std::vector<double>(x.begin(), x.end()), std::vector<double>(w.begin(), w.end()),
                     std::vector<double>(b.begin(), b.end()));
  const std::vector<float> got = r.outputs[0].as<float>();
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], expected[i], 1e-4 + 1e-4 * std::fabs(expected[i])) << "element " << i;
  }
}

TEST(Conv, GroupedWithDilationsAndAsymmetricPadsMatchesReference) {
  expect_conv_matches_reference({{2, 4, 9, 11}, {6, 2, 3, 2}, 2, {2, 1}, {2, 3}, {1, 2, 0, 1}, true});
}

TEST(Conv, FirstLayerSevenBySevenStrideTwoMatchesReference) {
  // RGB in, 7x7 taps, stride 2, pads 3 (ResNet's first conv): im2col gathers every other input value, in runs that
  // end inside a row and at its last column.
  expect_conv_matches_reference({{1, 3, 40, 37}, {10, 3, 7, 7}, 1, {2, 2}, {}, {3, 3, 3, 3}, true}, true);
}

TEST(Conv, DepthwiseStridedMatchesReference) {
  expect_conv_matches_reference({{1, 8, 10, 7}, {8, 1, 3, 3}, 8, {2, 2}, {}, {1, 1, 1, 1}, true});
}

TEST(Conv, DepthwiseWithChannelMultiplierMatchesReference) {
  expect_conv_matches_reference({{1, 3, 6, 6}, {6, 1, 3, 3}, 3, {}, {}, {1, 1, 1, 1}, false});
}

TEST(Conv, OneDimensionalMatchesReference) {
  expect_conv_matches_reference({{2, 3, 17}, {4, 3, 3}, 1, {2}, {}, {2, 1}, true});
}

TEST(Conv, ThreeDimensionalMatchesReference) {
  expect_conv_matches_reference({{1, 2, 5, 6, 7}, {3, 2, 2, 3, 2}, 1, {1, 2, 1}, {2, 1, 1}, {1, 0, 1, 0, 1, 1}, true});
}

TEST(Conv, PointwiseDirectPathMatchesReference) {
  expect_conv_matches_reference({{2, 16, 7, 5}, {24, 16, 1, 1}, 1, {}, {}, {}, true});
  expect_conv_matches_reference({{1, 8, 6, 6}, {12, 4, 1, 1}, 2, {}, {}, {}, false});
}

TEST(Conv, ManyIm2colTilesAndRaggedGemmEdgesMatchReference) {
  // 64 input channels x 3x3 taps: each tile holds fewer output positions than the 37 x 41 image, and 21
  // output channels leave a partial row tile.
  expect_conv_matches_reference({{1, 64, 37, 41}, {21, 64, 3, 3}, 1, {}, {}, {1, 1, 1, 1}, true}, true);
}

// Constant float32 weights are packed at prepare and im2col writes its column matrix in the GEMM's strips; weights
// given at run time take the plain row-major path. The two must give the same bits (the same tiles add the same
// products in the same order) at every level this CPU has, on one thread and split over two, for runs of positions
// that cross strips, image rows and tiles, padding on every side, strides, dilations, groups, 1-D runs longer than
// the im2col's piece list takes at once, 3-D, and the 1x1 convs that gather their input striped (few positions, or many
// channels over a deep input), grouped ones included. (Each striped case has a GEMM depth of at least 64 rows, where
// the column matrix is striped.)
// (`winograd`: SessionOptions::winograd_convolutions, off for the bit comparisons; `relu`: a Relu after the Conv, which
// the session folds into it; `report`: where to put the Conv's NodeReport::rounding and the session's ISA.)
struct BitsReport {
  const char* rounding = "unset";
  om::Isa isa = om::Isa::baseline;
};
std::vector<float> conv_bits(const ConvSpec& spec, bool constant_weights, om::Isa cap, om::ThreadPool* pool,
                             bool winograd = false, bool relu = false, BitsReport* report = nullptr) {
  using namespace onnxmicro_test;
  const std::vector<float> x = pattern(static_cast<std::size_t>(count_of(spec.x_dims)), 1.0f, 1);
  const std::vector<float> w = pattern(static_cast<std::size_t>(count_of(spec.w_dims)), 0.5f, 2);
  const std::vector<float> b = pattern(static_cast<std::size_t>(spec.w_dims[0]), 1.0f, 3);
  std::vector<ProtoWriter> inputs = {make_value_info("x", DataType::float32, spec.x_dims)};
  std::vector<ProtoWriter> initializers;
  if (spec.bias) {
    initializers.push_back(
        make_tensor_raw("b", DataType::float32, {spec.w_dims[0]}, b.data(), b.size() * sizeof(float)));
  }
  if (constant_weights) {
    initializers.push_back(make_tensor_raw("w", DataType::float32, spec.w_dims, w.data(), w.size() * sizeof(float)));
  } else {
    inputs.push_back(make_value_info("w", DataType::float32, spec.w_dims));
  }
  const std::vector<std::int64_t> y_dims = conv_output_dims(spec);
  const std::vector<std::string> node_inputs =
      spec.bias ? std::vector<std::string>{"x", "w", "b"} : std::vector<std::string>{"x", "w"};
  std::vector<ProtoWriter> nodes = {make_node("Conv", node_inputs, {relu ? "c" : "y"}, conv_attributes(spec))};
  if (relu) nodes.push_back(make_node("Relu", {"c"}, {"y"}));
  LoadedModel loaded;
  EXPECT_TRUE(
      loaded
          .load(make_model(
              make_graph("g", nodes, inputs, {make_value_info("y", DataType::float32, y_dims)}, initializers), 11))
          .ok());
  om::SessionOptions options;
  options.max_isa = cap;
  options.thread_pool = pool;
  options.winograd_convolutions = winograd;
  const Status prepared = loaded.prepare(options);
  EXPECT_TRUE(prepared.ok()) << prepared.message();
  if (!prepared.ok()) return {};
  om::Shape x_shape, w_shape;
  EXPECT_TRUE(x_shape.assign(spec.x_dims.data(), spec.x_dims.size()).ok());
  EXPECT_TRUE(w_shape.assign(spec.w_dims.data(), spec.w_dims.size()).ok());
  EXPECT_TRUE(loaded.session.set_input("x", om::ConstTensorView(DataType::float32, x_shape, x.data())).ok());
  if (!constant_weights) {
    EXPECT_TRUE(loaded.session.set_input("w", om::ConstTensorView(DataType::float32, w_shape, w.data())).ok());
  }
  EXPECT_TRUE(loaded.session.run().ok());
  if (report != nullptr) *report = BitsReport{loaded.session.node_reports()[0].rounding, loaded.session.isa()};
  return loaded.floats(0);
}

TEST(Conv, StripedColumnMatrixGivesTheBitsOfTheRowMajorOneAtEveryLevelAndThreadCount) {
  const ConvSpec specs[] = {
      {{1, 64, 37, 41}, {21, 64, 3, 3}, 1, {}, {}, {1, 1, 1, 1}, true},        // several tiles, ragged edges
      {{1, 8, 23, 30}, {7, 8, 3, 3}, 1, {2, 2}, {}, {1, 0, 2, 1}, true},       // strided, uneven pads
      {{2, 24, 9, 11}, {6, 12, 3, 2}, 2, {2, 1}, {2, 3}, {1, 2, 0, 1}, true},  // groups, dilations
      {{1, 16, 700}, {5, 16, 5}, 1, {}, {}, {2, 2}, true},                     // a run of 700 positions
      {{1, 6, 5, 6, 7}, {3, 6, 2, 3, 2}, 1, {1, 2, 1}, {2, 1, 1}, {1, 0, 1, 0, 1, 1}, true},  // 3-D
      {{1, 128, 7, 7}, {64, 128, 3, 3}, 1, {}, {}, {1, 1, 1, 1}, true},                       // 49 positions: one tile
      {{1, 960, 7, 7}, {320, 960, 1, 1}, 1, {}, {}, {}, true},                                // 1x1, 7x7: striped
      {{1, 1200, 7, 7}, {256, 1200, 1, 1}, 1, {}, {}, {}, false},                             // 1x1, 7x7: striped
      {{2, 2048, 6, 5}, {128, 1024, 1, 1}, 2, {}, {}, {}, false},                             // 1x1, grouped: striped
      {{1, 256, 13, 13}, {512, 256, 1, 1}, 1, {}, {}, {}, true},           // 1x1, tall and deep: striped
      {{1, 96, 14, 14}, {64, 96, 1, 1}, 1, {}, {}, {}, true},              // 1x1 read in place
      {{1, 3, 30, 20}, {16, 3, 3, 3}, 1, {2, 2}, {}, {1, 1, 1, 1}, true},  // shallow (27 rows): not striped
      {{1, 64, 45, 37}, {20, 64, 3, 3}, 1, {}, {}, {1, 1, 1, 1}, false},   // 1665 positions: no lone last column
      // Output rows 48 or more wide: padded bands on AVX2 (an implicit GEMM), with and without bias, last strips full
      // or of at most 8 columns, several bands, groups, dilations and uneven pads; horizontal stride 2 (the band
      // rows split into phases: the CNNs' first convs), vertical strides 2 and 3.
      {{1, 16, 13, 49}, {24, 16, 3, 3}, 1, {}, {}, {1, 1, 1, 1}, true},
      {{1, 64, 9, 56}, {13, 64, 3, 3}, 1, {}, {}, {1, 1, 1, 1}, false},
      {{2, 12, 7, 52}, {8, 6, 3, 3}, 2, {}, {2, 2}, {0, 1, 2, 3}, true},
      {{1, 8, 5, 50}, {6, 8, 5, 1}, 1, {}, {}, {2, 0, 1, 0}, false},
      {{1, 3, 31, 230}, {16, 3, 7, 7}, 1, {2, 2}, {}, {3, 3, 3, 3}, true},
      {{1, 3, 17, 226}, {24, 3, 3, 3}, 1, {2, 2}, {}, {}, false},
      {{1, 4, 12, 101}, {8, 4, 3, 3}, 1, {1, 2}, {2, 2}, {1, 2, 0, 1}, true},
      {{1, 5, 20, 49}, {6, 5, 3, 3}, 1, {3, 1}, {}, {1, 1, 1, 1}, false},
  };
  om::StdThreadPool pool(2);
  // The avx512 level twice: with its own tiles, and stepped down to avx2's as on CPUs that split 512-bit operations.
  struct Level {
    om::Isa cap;
    const char* split_512;
  };
  const Level levels[] = {
      {om::Isa::baseline, "0"}, {om::Isa::avx2, "0"}, {om::Isa::avx512, "0"}, {om::Isa::avx512, "1"}};
  for (const Level& level : levels) {
    const onnxmicro_test::ScopedEnvironment split("ONNXMICRO_SPLIT_512", level.split_512);
    for (const ConvSpec& spec : specs) {
      for (om::ThreadPool* threads : {static_cast<om::ThreadPool*>(nullptr), static_cast<om::ThreadPool*>(&pool)}) {
        const std::vector<float> reference = conv_bits(spec, false, level.cap, threads);
        const std::vector<float> striped = conv_bits(spec, true, level.cap, threads);  // (Winograd off: see below)
        ASSERT_EQ(striped.size(), reference.size());
        EXPECT_EQ(0, std::memcmp(striped.data(), reference.data(), striped.size() * sizeof(float)))
            << "x " << spec.x_dims.size() << "-D, " << spec.x_dims[1] << " channels, cap " << om::isa_name(level.cap)
            << ", ONNXMICRO_SPLIT_512=" << level.split_512 << (threads != nullptr ? ", two threads" : ", one thread");
      }
    }
  }
}

// On CPUs that split 512-bit operations (AMD Zen 4) float convolutions run the avx2 tiles at the avx512 level, where
// they were measured faster; elsewhere, and at every other level, the session's own. The CPU's answer is what the
// CLI reports; ONNXMICRO_SPLIT_512 overrides it both ways.
TEST(Conv, StepsDownToAvx2TilesOnlyAtTheAvx512LevelOfCpusThatSplit512BitOperations) {
  using om::kernels::gemm::convolution_isa;
  {
    const onnxmicro_test::ScopedEnvironment split("ONNXMICRO_SPLIT_512", "1");
    EXPECT_TRUE(om::detected_split_512bit());
    EXPECT_EQ(convolution_isa(om::Isa::avx512), om::Isa::avx2);
    EXPECT_EQ(convolution_isa(om::Isa::avx2), om::Isa::avx2);
    EXPECT_EQ(convolution_isa(om::Isa::baseline), om::Isa::baseline);
  }
  {
    const onnxmicro_test::ScopedEnvironment split("ONNXMICRO_SPLIT_512", "0");
    EXPECT_FALSE(om::detected_split_512bit());
    EXPECT_EQ(convolution_isa(om::Isa::avx512), om::Isa::avx512);
  }
  bool split = false;
  {
    const onnxmicro_test::ScopedEnvironment empty("ONNXMICRO_SPLIT_512", "");  // the CPU decides
    split = om::detected_split_512bit();
    EXPECT_EQ(convolution_isa(om::Isa::avx512), split ? om::Isa::avx2 : om::Isa::avx512);
    std::printf("this CPU %s 512-bit operations\n", split ? "splits" : "does not split");
  }
  const onnxmicro_test::ScopedEnvironment malformed("ONNXMICRO_SPLIT_512", "yes");  // ignored too
  EXPECT_EQ(om::detected_split_512bit(), split);
}

// Winograd F(2x2, 3x3) (SessionOptions::winograd_convolutions) on stride-1 3x3 convs with constant weights and 16 or
// more channels: odd output sizes (tiles partly outside), asymmetric and no pads, batches, output channels that leave
// a partial GEMM row tile, several blocks of tile rows (claimed by two threads), filters too large for the cache (one
// block, its products split over two threads), rows wide enough for the 8-tile vector loops and their tails, with and
// without bias, with a fused Relu. It rounds differently from the direct sum: every output must lie within
// 1e-5 x (the sum of its |products| and |bias|) of the exact result in double, about 170 float roundings of the
// terms' magnitude (a wrong transform is off by the terms themselves). Its bits must not depend on the thread count.
// Where it runs it is reported (NodeReport::rounding), and turning it off gives the direct path's bits.
TEST(Conv, WinogradMatchesTheExactSumWithinItsRoundingAndIsReported) {
  const ConvSpec specs[] = {
      {{1, 16, 9, 11}, {16, 16, 3, 3}, 1, {}, {}, {1, 1, 1, 1}, true},
      {{2, 32, 14, 14}, {40, 32, 3, 3}, 1, {}, {}, {1, 1, 1, 1}, false},
      {{1, 24, 8, 21}, {17, 24, 3, 3}, 1, {}, {}, {0, 2, 1, 0}, true},
      {{1, 16, 5, 5}, {16, 16, 3, 3}, 1, {}, {}, {}, true},
      {{1, 32, 26, 26}, {24, 32, 3, 3}, 1, {}, {}, {1, 1, 1, 1}, true},
      {{1, 16, 45, 37}, {20, 16, 3, 3}, 1, {}, {}, {1, 1, 1, 1}, false},
      {{1, 160, 5, 6}, {128, 160, 3, 3}, 1, {}, {}, {1, 1, 1, 1}, true},
  };
  om::StdThreadPool pool(2);
  auto doubles = [](const std::vector<float>& v, bool magnitude) {
    std::vector<double> out;
    for (float f : v) out.push_back(magnitude ? std::fabs(static_cast<double>(f)) : f);
    return out;
  };
  for (const ConvSpec& spec : specs) {
    const std::vector<float> x = pattern(static_cast<std::size_t>(count_of(spec.x_dims)), 1.0f, 1);
    const std::vector<float> w = pattern(static_cast<std::size_t>(count_of(spec.w_dims)), 0.5f, 2);
    const std::vector<float> b = pattern(static_cast<std::size_t>(spec.w_dims[0]), 1.0f, 3);
    const std::vector<double> exact = reference_conv(spec, doubles(x, false), doubles(w, false), doubles(b, false));
    const std::vector<double> terms = reference_conv(spec, doubles(x, true), doubles(w, true), doubles(b, true));
    for (bool relu : {false, true}) {
      BitsReport report, plain_report;
      const std::vector<float> got = conv_bits(spec, true, om::Isa::best, nullptr, true, relu, &report);
      const std::vector<float> two = conv_bits(spec, true, om::Isa::best, &pool, true, relu);
      const std::vector<float> plain = conv_bits(spec, true, om::Isa::best, nullptr, false, relu, &plain_report);
      const std::vector<float> direct = conv_bits(spec, false, om::Isa::best, nullptr, false, relu);
      const std::string what = std::to_string(spec.x_dims[1]) + " -> " + std::to_string(spec.w_dims[0]) +
                               " channels at " + std::to_string(spec.x_dims[2]) + "x" + std::to_string(spec.x_dims[3]) +
                               (relu ? ", Relu" : "");
      // (Only the packed GEMM's levels run Winograd: not the baseline, e.g. under ONNXMICRO_MAX_ISA=baseline.)
      const bool packed = om::kernels::gemm::packed_tile_rows(report.isa) > 0;
      EXPECT_STREQ(report.rounding, packed ? "winograd F(2x2,3x3)" : nullptr) << what;
      EXPECT_EQ(plain_report.rounding, nullptr) << what;
      ASSERT_EQ(got.size(), two.size());
      EXPECT_EQ(0, std::memcmp(got.data(), two.data(), got.size() * sizeof(float))) << what << ": two threads";
      ASSERT_EQ(plain.size(), direct.size());
      EXPECT_EQ(0, std::memcmp(plain.data(), direct.data(), plain.size() * sizeof(float))) << what << ": turned off";
      ASSERT_EQ(got.size(), exact.size()) << what;
      for (std::size_t i = 0; i < got.size(); ++i) {
        const double expected = relu && exact[i] < 0 ? 0.0 : exact[i];
        ASSERT_NEAR(got[i], expected, 1e-5 * terms[i] + 1e-7) << what << ", element " << i;
      }
    }
  }
}

// Padded bands only where each output row fills its lanes (ResNet-18's 56x56 layers, SqueezeNet's 55x55 ones, the first
// convs' 112-wide rows), on the one level whose micro-kernels read rows through offsets.
TEST(Conv, OnlyWideRowsOnAvx2ReadPaddedBands) {
  using om::kernels::conv_detail::ConvImpl;
  EXPECT_TRUE(ConvImpl::bands_pay(om::Isa::avx2, 56));
  EXPECT_TRUE(ConvImpl::bands_pay(om::Isa::avx2, 55));
  EXPECT_TRUE(ConvImpl::bands_pay(om::Isa::avx2, 112));
  EXPECT_FALSE(ConvImpl::bands_pay(om::Isa::avx2, 111));  // a masked 15-column strip in every row
  EXPECT_FALSE(ConvImpl::bands_pay(om::Isa::avx2, 28));
  EXPECT_FALSE(ConvImpl::bands_pay(om::Isa::baseline, 56));
  EXPECT_FALSE(ConvImpl::bands_pay(om::Isa::avx512, 56));
}

// 1x1 convs gather their input striped on small maps and for tall, deep products (the shapes above take both
// routes); mid-sized maps with few channels read it in place (MobileNetV2's 14x14 layers ran 3-14% slower striped).
TEST(Conv, PointwiseConvsStripeOnlySmallMapsAndTallDeepProducts) {
  using om::kernels::conv_detail::ConvImpl;
  const om::Isa avx2 = om::Isa::avx2;
  EXPECT_TRUE(ConvImpl::stripes_pointwise(avx2, 960, 49, 320));
  EXPECT_TRUE(ConvImpl::stripes_pointwise(avx2, 160, 49, 960));
  EXPECT_TRUE(ConvImpl::stripes_pointwise(avx2, 512, 169, 1000));
  EXPECT_FALSE(ConvImpl::stripes_pointwise(avx2, 576, 196, 96));
  EXPECT_FALSE(ConvImpl::stripes_pointwise(avx2, 96, 196, 576));
  EXPECT_FALSE(ConvImpl::stripes_pointwise(avx2, 32, 112 * 112, 16));
  EXPECT_FALSE(ConvImpl::stripes_pointwise(avx2, 32, 49, 320));                // shallow: no strips
  EXPECT_FALSE(ConvImpl::stripes_pointwise(om::Isa::baseline, 960, 49, 320));  // no micro-kernels
}

TEST(Conv, AutoPadSameUpperAndLowerSplitTheOddPixel) {
  // 1-D, input 5, kernel 2, stride 1: total pad 1 goes to the end (UPPER) or the beginning (LOWER).
  const std::vector<float> x = {1, 2, 3, 4, 5};
  const std::vector<float> w = {1, 10};
  Outcome upper = run_node("Conv", 11, {value("x", {1, 1, 5}, x), value("w", {1, 1, 2}, w)}, {{"y", DataType::float32}},
                           {onnxmicro_test::make_attribute_string("auto_pad", "SAME_UPPER")});
  ASSERT_TRUE(upper.status.ok()) << upper.status.message();
  EXPECT_EQ(upper.outputs[0].as<float>(), (std::vector<float>{21, 32, 43, 54, 5}));
  Outcome lower = run_node("Conv", 11, {value("x", {1, 1, 5}, x), value("w", {1, 1, 2}, w)}, {{"y", DataType::float32}},
                           {onnxmicro_test::make_attribute_string("auto_pad", "SAME_LOWER")});
  ASSERT_TRUE(lower.status.ok()) << lower.status.message();
  EXPECT_EQ(lower.outputs[0].as<float>(), (std::vector<float>{10, 21, 32, 43, 54}));
  // Stride 2: out = ceil(5 / 2) = 3, total pad (3 - 1) * 2 + 2 - 5 = 1.
  Outcome strided =
      run_node("Conv", 11, {value("x", {1, 1, 5}, x), value("w", {1, 1, 2}, w)}, {{"y", DataType::float32}},
               {onnxmicro_test::make_attribute_string("auto_pad", "SAME_UPPER"),
                onnxmicro_test::make_attribute_ints("strides", {2})});
  ASSERT_TRUE(strided.status.ok()) << strided.status.message();
  EXPECT_EQ(strided.outputs[0].as<float>(), (std::vector<float>{21, 43, 5}));
}

TEST(Conv, AutoPadValidIgnoresPads) {
  const std::vector<float> x = {1, 2, 3, 4, 5};
  Outcome r = run_node("Conv", 11, {value("x", {1, 1, 5}, x), value("w", {1, 1, 2}, std::vector<float>{1, 1})},
                       {{"y", DataType::float32}},
                       {onnxmicro_test::make_attribute_string("auto_pad", "VALID"),
                        onnxmicro_test::make_attribute_ints("pads", {3, 3})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].as<float>(), (std::vector<float>{3, 5, 7, 9}));
}

TEST(Conv, Float64MatchesReference) {
  const ConvSpec spec{{1, 3, 6, 7}, {4, 3, 3, 3}, 1, {2, 1}, {}, {1, 1, 1, 1}, true};
  const std::vector<float> xf = pattern(126, 1.0f, 4), wf = pattern(108, 1.0f, 5), bf = pattern(4, 1.0f, 6);
  const std::vector<double> x(xf.begin(), xf.end()), w(wf.begin(), wf.end()), b(bf.begin(), bf.end());
  Outcome r = run_node("Conv", 11, {value("x", spec.x_dims, x), value("w", spec.w_dims, w), value("b", {4}, b)},
                       {{"y", DataType::float64}}, conv_attributes(spec));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const std::vector<double> expected = reference_conv(spec, x, w, b);
  const std::vector<double> got = r.outputs[0].as<double>();
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-12);
}

// float16/bfloat16: inputs are rounded to the type, the reference runs on the rounded values in double, and
// the result must be that value rounded once (one half-type ulp of slack for float32 accumulation order).
template <typename Half>
void expect_half_conv_matches_reference(DataType dtype, bool constant_weights, int opset) {
  const ConvSpec spec{{1, 3, 6, 6}, {4, 3, 3, 3}, 1, {1, 2}, {}, {1, 1, 1, 1}, true};
  std::vector<Half> x, w, b;
  std::vector<double> xd, wd, bd;
  for (float v : pattern(108, 1.0f, 7)) x.push_back(Half::from_float(v)), xd.push_back(x.back().to_float());
  for (float v : pattern(108, 0.5f, 8)) w.push_back(Half::from_float(v)), wd.push_back(w.back().to_float());
  for (float v : pattern(4, 1.0f, 9)) b.push_back(Half::from_float(v)), bd.push_back(b.back().to_float());
  std::vector<Value> inputs = {value("x", spec.x_dims, x, dtype), value("w", spec.w_dims, w, dtype),
                               value("b", {4}, b, dtype)};
  if (constant_weights) inputs[1] = constant(inputs[1]);
  Outcome r = run_node("Conv", opset, inputs, {{"y", dtype}}, conv_attributes(spec));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.outputs[0].dtype, dtype);
  const std::vector<double> expected = reference_conv(spec, xd, wd, bd);
  const std::vector<Half> got = r.outputs[0].as<Half>();
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double ulp = std::fabs(expected[i]) * (dtype == DataType::float16 ? 1.0 / 1024 : 1.0 / 128) + 1e-3;
    EXPECT_NEAR(got[i].to_float(), expected[i], ulp) << "element " << i;
  }
}

TEST(Conv, Float16ComputesInFloatAndRoundsOnce) {
  expect_half_conv_matches_reference<om::float16_t>(DataType::float16, false, 11);
  expect_half_conv_matches_reference<om::float16_t>(DataType::float16, true, 11);  // converted at prepare
}

TEST(Conv, Bfloat16ComputesInFloatAndRoundsOnce) {
  expect_half_conv_matches_reference<om::bfloat16_t>(DataType::bfloat16, false, 22);
}

TEST(Conv, EveryOpsetVersionResolvesToTheKernel) {
  for (int opset : {1, 11, 22, 23}) {
    Outcome r =
        run_node("Conv", opset,
                 {value("x", {1, 1, 3}, std::vector<float>{1, 2, 3}), value("w", {1, 1, 1}, std::vector<float>{2})},
                 {{"y", DataType::float32}});
    ASSERT_TRUE(r.status.ok()) << "opset " << opset << ": " << r.status.message();
    EXPECT_EQ(r.outputs[0].as<float>(), (std::vector<float>{2, 4, 6}));
  }
}

// ---- validation --------------------------------------------------------------------------------------------

Status conv_status(std::vector<std::int64_t> x_dims, std::vector<std::int64_t> w_dims,
                   const std::vector<ProtoWriter>& attributes, DataType dtype = DataType::float32,
                   std::vector<std::int64_t> b_dims = {}) {
  std::vector<Value> inputs;
  const std::size_t xn = static_cast<std::size_t>(count_of(x_dims)), wn = static_cast<std::size_t>(count_of(w_dims));
  if (dtype == DataType::int32) {
    inputs = {value("x", x_dims, std::vector<std::int32_t>(xn)), value("w", w_dims, std::vector<std::int32_t>(wn))};
  } else {
    inputs = {value("x", x_dims, std::vector<float>(xn)), value("w", w_dims, std::vector<float>(wn))};
  }
  if (!b_dims.empty())
    inputs.push_back(value("b", b_dims, std::vector<float>(static_cast<std::size_t>(count_of(b_dims)))));
  return run_node("Conv", 11, inputs, {{"y", dtype}}, attributes).status;
}

void expect_error(const Status& status, StatusCode code, const std::string& fragment) {
  EXPECT_EQ(status.code(), code) << status.message();
  EXPECT_NE(std::string(status.message()).find(fragment), std::string::npos)
      << "message '" << status.message() << "' lacks '" << fragment << "'";
}

TEST(ConvValidation, WeightChannelsMustBeInputChannelsOverGroup) {
  expect_error(conv_status({1, 4, 5, 5}, {2, 4, 3, 3}, {onnxmicro_test::make_attribute_int("group", 2)}),
               StatusCode::invalid_model, "dim 1 is 4, expected C / group = 4 / 2 = 2");
}

TEST(ConvValidation, GroupMustDivideChannelsAndBePositive) {
  expect_error(conv_status({1, 3, 5, 5}, {2, 1, 3, 3}, {onnxmicro_test::make_attribute_int("group", 2)}),
               StatusCode::invalid_model, "3 channels, not divisible by group = 2");
  expect_error(conv_status({1, 4, 5, 5}, {3, 2, 3, 3}, {onnxmicro_test::make_attribute_int("group", 2)}),
               StatusCode::invalid_model, "3 output channels (dim 0), not divisible by group = 2");
  expect_error(conv_status({1, 4, 5, 5}, {2, 4, 3, 3}, {onnxmicro_test::make_attribute_int("group", 0)}),
               StatusCode::invalid_model, "'group' is 0, expected >= 1");
}

TEST(ConvValidation, AttributeListsMustMatchTheSpatialRank) {
  expect_error(conv_status({1, 1, 5, 5}, {1, 1, 3, 3}, {onnxmicro_test::make_attribute_ints("strides", {1})}),
               StatusCode::invalid_model, "'strides' has 1 values, expected 2");
  expect_error(conv_status({1, 1, 5, 5}, {1, 1, 3, 3}, {onnxmicro_test::make_attribute_ints("pads", {1, 1})}),
               StatusCode::invalid_model, "'pads' has 2 values, expected 4");
  expect_error(conv_status({1, 1, 5, 5}, {1, 1, 3, 3}, {onnxmicro_test::make_attribute_ints("dilations", {1, 1, 1})}),
               StatusCode::invalid_model, "'dilations' has 3 values, expected 2");
}

TEST(ConvValidation, StridesDilationsMustBePositiveAndPadsNonNegative) {
  expect_error(conv_status({1, 1, 5, 5}, {1, 1, 3, 3}, {onnxmicro_test::make_attribute_ints("strides", {1, 0})}),
               StatusCode::invalid_model, "'strides'[1] is 0, expected >= 1");
  expect_error(conv_status({1, 1, 5, 5}, {1, 1, 3, 3}, {onnxmicro_test::make_attribute_ints("dilations", {-1, 1})}),
               StatusCode::invalid_model, "'dilations'[0] is -1, expected >= 1");
  expect_error(conv_status({1, 1, 5, 5}, {1, 1, 3, 3}, {onnxmicro_test::make_attribute_ints("pads", {0, 0, -1, 0})}),
               StatusCode::invalid_model, "'pads'[2] is -1, expected >= 0");
}

TEST(ConvValidation, KernelShapeMustAgreeWithWeights) {
  expect_error(conv_status({1, 1, 5, 5}, {1, 1, 3, 3}, {onnxmicro_test::make_attribute_ints("kernel_shape", {3, 2})}),
               StatusCode::invalid_model, "'kernel_shape'[1] is 2 but input 1 (W) has spatial dim 3");
}

TEST(ConvValidation, AutoPadMustBeAKnownValue) {
  expect_error(conv_status({1, 1, 5, 5}, {1, 1, 3, 3}, {onnxmicro_test::make_attribute_string("auto_pad", "SAME")}),
               StatusCode::invalid_model, "'auto_pad' is 'SAME'");
}

TEST(ConvValidation, RanksShapesAndDtypes) {
  expect_error(conv_status({1, 1, 5, 5}, {1, 1, 3}, {}), StatusCode::invalid_model, "expected rank 4");
  expect_error(conv_status({1, 5}, {1, 5}, {}), StatusCode::invalid_model, "expected rank >= 3");
  expect_error(conv_status({1, 1, 2, 2}, {1, 1, 3, 3}, {}), StatusCode::invalid_argument,
               "smaller than the dilated kernel 3");
  expect_error(conv_status({1, 2, 5, 5}, {3, 2, 3, 3}, {}, DataType::float32, {2}), StatusCode::invalid_model,
               "expected [3] (one bias per output channel)");
  expect_error(conv_status({1, 1, 5, 5}, {1, 1, 3, 3}, {}, DataType::int32), StatusCode::unsupported,
               "has dtype int32, which this kernel does not support");
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
