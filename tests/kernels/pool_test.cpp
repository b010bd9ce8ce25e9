// SPDX-License-Identifier: MIT
// MaxPool, AveragePool and GlobalAveragePool beyond the ONNX node suite (whose Indices cases have N = C = 1):
// Indices across batches and channels in both storage orders, ceil_mode's last-window rule, count_include_pad
// with ceil_mode and SAME pads, dilations with pads, 1-D/3-D, int8/uint8/float16/float64, windows lying
// entirely in padding, attributes gated by opset version, and validation messages. Expected values come from
// a direct loop over every kernel tap written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/kernel_harness.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Status;
using om::StatusCode;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::make_attribute_ints;
using onnxmicro_test::make_attribute_string;
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

// ---- independent reference: every tap of every window, explicit pads -------------------------------------

struct PoolSpec {
  std::vector<std::int64_t> x_dims;
  std::vector<std::int64_t> kernel, strides, dilations, pads;  // pads as [begins..., ends...]
  std::vector<std::int64_t> y_dims;                            // expected output shape, worked out by hand
  bool count_include_pad = false;
  bool column_major = false;
};

struct PoolResult {
  std::vector<double> max, average;
  std::vector<std::int64_t> indices;
};

PoolResult reference_pool(const PoolSpec& s, const std::vector<double>& x) {
  const std::size_t rank = s.x_dims.size() - 2;
  std::int64_t in_spatial = 1, out_spatial = 1, taps = 1;
  for (std::size_t d = 0; d < rank; ++d) {
    in_spatial *= s.x_dims[d + 2];
    out_spatial *= s.y_dims[d + 2];
    taps *= s.kernel[d];
  }
  PoolResult r;
  for (std::int64_t plane = 0; plane < s.x_dims[0] * s.x_dims[1]; ++plane) {
    for (std::int64_t o = 0; o < out_spatial; ++o) {
      std::vector<std::int64_t> oi(rank);
      for (std::int64_t rest = o, d = static_cast<std::int64_t>(rank) - 1; d >= 0; --d) {
        oi[static_cast<std::size_t>(d)] = rest % s.y_dims[static_cast<std::size_t>(d) + 2];
        rest /= s.y_dims[static_cast<std::size_t>(d) + 2];
      }
      double best = -std::numeric_limits<double>::infinity(), sum = 0;
      std::int64_t best_index = -1, inside = 0, padded = 0;
      for (std::int64_t t = 0; t < taps; ++t) {
        std::vector<std::int64_t> ti(rank);
        for (std::int64_t rest = t, d = static_cast<std::int64_t>(rank) - 1; d >= 0; --d) {
          ti[static_cast<std::size_t>(d)] = rest % s.kernel[static_cast<std::size_t>(d)];
          rest /= s.kernel[static_cast<std::size_t>(d)];
        }
        bool in_input = true, in_padded = true;
        std::int64_t row_major = 0, column_major = 0, column_stride = 1;
        for (std::size_t d = 0; d < rank; ++d) {
          const std::int64_t stride = s.strides.empty() ? 1 : s.strides[d];
          const std::int64_t dilation = s.dilations.empty() ? 1 : s.dilations[d];
          const std::int64_t begin = s.pads.empty() ? 0 : s.pads[d], end = s.pads.empty() ? 0 : s.pads[d + rank];
          const std::int64_t c = oi[d] * stride - begin + ti[d] * dilation;
          in_input = in_input && c >= 0 && c < s.x_dims[d + 2];
          in_padded = in_padded && c >= -begin && c < s.x_dims[d + 2] + end;
          row_major = row_major * s.x_dims[d + 2] + c;
          column_major += c * column_stride;
          column_stride *= s.x_dims[d + 2];
        }
        if (in_padded) ++padded;
        if (!in_input) continue;
        ++inside;
        const double v = x[static_cast<std::size_t>(plane * in_spatial + row_major)];
        sum += v;
        if (v > best) {
          best = v;
          best_index = plane * in_spatial + (s.column_major ? column_major : row_major);
        }
      }
      r.max.push_back(best);
      r.indices.push_back(best_index);
      r.average.push_back(sum / static_cast<double>(s.count_include_pad ? padded : inside));
    }
  }
  return r;
}

std::vector<ProtoWriter> pool_attributes(const PoolSpec& s) {
  std::vector<ProtoWriter> a = {make_attribute_ints("kernel_shape", s.kernel)};
  if (!s.strides.empty()) a.push_back(make_attribute_ints("strides", s.strides));
  if (!s.dilations.empty()) a.push_back(make_attribute_ints("dilations", s.dilations));
  if (!s.pads.empty()) a.push_back(make_attribute_ints("pads", s.pads));
  return a;
}

void expect_max_pool_matches_reference(const PoolSpec& spec, std::vector<ProtoWriter> extra = {}, int opset = 12) {
  const std::vector<float> x = pattern(static_cast<std::size_t>(count_of(spec.x_dims)));
  std::vector<ProtoWriter> attributes = pool_attributes(spec);
  for (const ProtoWriter& a : extra) attributes.push_back(a);
  if (spec.column_major) attributes.push_back(make_attribute_int("storage_order", 1));
  Outcome r = run_node("MaxPool", opset, {value("x", spec.x_dims, x)},
                       {{"y", DataType::float32}, {"i", DataType::int64}}, attributes);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].dims, spec.y_dims);
  EXPECT_EQ(r.outputs[1].dims, spec.y_dims);
  const PoolResult expected = reference_pool(spec, std::vector<double>(x.begin(), x.end()));
  const std::vector<float> y = r.outputs[0].as<float>();
  ASSERT_EQ(y.size(), expected.max.size());
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_EQ(y[i], static_cast<float>(expected.max[i])) << "element " << i;
  EXPECT_EQ(r.outputs[1].as<std::int64_t>(), expected.indices);
}

void expect_average_pool_matches_reference(const PoolSpec& spec, std::vector<ProtoWriter> extra = {}, int opset = 19) {
  const std::vector<float> x = pattern(static_cast<std::size_t>(count_of(spec.x_dims)));
  std::vector<ProtoWriter> attributes = pool_attributes(spec);
  for (const ProtoWriter& a : extra) attributes.push_back(a);
  if (spec.count_include_pad) attributes.push_back(make_attribute_int("count_include_pad", 1));
  Outcome r = run_node("AveragePool", opset, {value("x", spec.x_dims, x)}, {{"y", DataType::float32}}, attributes);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].dims, spec.y_dims);
  const PoolResult expected = reference_pool(spec, std::vector<double>(x.begin(), x.end()));
  const std::vector<float> y = r.outputs[0].as<float>();
  ASSERT_EQ(y.size(), expected.average.size());
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected.average[i], 1e-6) << "element " << i;
}

// ---- MaxPool -------------------------------------------------------------------------------------------------

TEST(MaxPool, IndicesCountBatchAndChannelPlanesRowMajor) {
  // 9 x 8, kernel 3x2, strides 2, pads (1,0,1,1): out = (9+2-3)/2+1 = 5, (8+1-2)/2+1 = 4.
  expect_max_pool_matches_reference({{2, 3, 9, 8}, {3, 2}, {2, 2}, {}, {1, 0, 1, 1}, {2, 3, 5, 4}});
}

TEST(MaxPool, IndicesColumnMajorWithStorageOrder1) {
  expect_max_pool_matches_reference({{2, 3, 9, 8}, {3, 2}, {2, 1}, {}, {}, {2, 3, 4, 7}, false, true});
  expect_max_pool_matches_reference({{1, 2, 4, 5, 3}, {2, 2, 2}, {}, {}, {}, {1, 2, 3, 4, 2}, false, true});
}

TEST(MaxPool, OneAndThreeDimensional) {
  expect_max_pool_matches_reference({{2, 2, 11}, {3}, {2}, {}, {1, 1}, {2, 2, 6}});
  expect_max_pool_matches_reference({{1, 2, 5, 6, 7}, {2, 3, 2}, {2, 2, 3}, {}, {1, 1, 0, 0, 1, 1}, {1, 2, 3, 3, 3}});
}

TEST(MaxPool, CeilModeDropsAWindowStartingInTheRightPadding) {
  // in 5, kernel 2, stride 2, pads 1/1: ceil((5+2-2)/2)+1 = 4, but window 3 would start at 3*2-1 = 5, past the
  // input, so 3 windows remain.
  expect_max_pool_matches_reference({{1, 1, 5}, {2}, {2}, {}, {1, 1}, {1, 1, 3}}, {make_attribute_int("ceil_mode", 1)});
  // Without that case ceil rounds up: in 6, kernel 3, stride 2, no pads: ceil(3/2)+1 = 3.
  expect_max_pool_matches_reference({{1, 2, 6, 6}, {3, 3}, {2, 2}, {}, {}, {1, 2, 3, 3}},
                                    {make_attribute_int("ceil_mode", 1)});
}

TEST(MaxPool, DilationsWithPadsAndCeilMode) {
  // 10 x 9, kernel 3, dilations (2,1), strides (2,3), pads (1,2,1,2), ceil: ceil((10+2-5)/2)+1 = 5,
  // ceil((9+4-3)/3)+1 = 5, and (5-1)*3 = 12 >= 9+2 drops one: 4.
  expect_max_pool_matches_reference({{1, 2, 10, 9}, {3, 3}, {2, 3}, {2, 1}, {1, 2, 1, 2}, {1, 2, 5, 4}},
                                    {make_attribute_int("ceil_mode", 1)});
}

TEST(MaxPool, SameUpperAndLowerWithStrides) {
  // 10 x 9, kernel 3x4, strides 2x3: out ceil(10/2) x ceil(9/3) = 5 x 3; total pads (5-1)*2+3-10 = 1 and
  // (3-1)*3+4-9 = 1, at the end for UPPER and at the beginning for LOWER.
  expect_max_pool_matches_reference({{1, 2, 10, 9}, {3, 4}, {2, 3}, {}, {0, 0, 1, 1}, {1, 2, 5, 3}},
                                    {make_attribute_string("auto_pad", "SAME_UPPER")});
  expect_max_pool_matches_reference({{1, 2, 10, 9}, {3, 4}, {2, 3}, {}, {1, 1, 0, 0}, {1, 2, 5, 3}},
                                    {make_attribute_string("auto_pad", "SAME_LOWER")});
}

TEST(MaxPool, WindowEntirelyInPaddingGivesLowestValueAndIndexMinusOne) {
  Outcome r = run_node("MaxPool", 12, {value("x", {1, 1, 2}, std::vector<float>{3, 4})},
                       {{"y", DataType::float32}, {"i", DataType::int64}},
                       {make_attribute_ints("kernel_shape", {2}), make_attribute_ints("pads", {2, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].as<float>(), (std::vector<float>{std::numeric_limits<float>::lowest(), 3, 4}));
  EXPECT_EQ(r.outputs[1].as<std::int64_t>(), (std::vector<std::int64_t>{-1, 0, 1}));
}

TEST(MaxPool, NanIsSkippedAndTiesKeepTheFirstIndex) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Outcome r = run_node("MaxPool", 12, {value("x", {1, 1, 4}, std::vector<float>{nan, 2, 2, nan})},
                       {{"y", DataType::float32}, {"i", DataType::int64}}, {make_attribute_ints("kernel_shape", {3})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].as<float>(), (std::vector<float>{2, 2}));
  EXPECT_EQ(r.outputs[1].as<std::int64_t>(), (std::vector<std::int64_t>{1, 1}));
}

TEST(MaxPool, IntegerAndHalfTypesKeepExactValues) {
  const std::vector<std::int8_t> x8 = {-128, -5, 7, -128, 100, -3};
  Outcome r8 = run_node("MaxPool", 12, {value("x", {1, 1, 6}, x8)}, {{"y", DataType::int8}},
                        {make_attribute_ints("kernel_shape", {2}), make_attribute_ints("pads", {1, 0})});
  ASSERT_TRUE(r8.status.ok()) << r8.status.message();
  EXPECT_EQ(r8.outputs[0].as<std::int8_t>(), (std::vector<std::int8_t>{-128, -5, 7, 7, 100, 100}));
  const std::vector<std::uint8_t> xu = {0, 255, 3, 9};
  Outcome ru = run_node("MaxPool", 12, {value("x", {1, 1, 4}, xu)}, {{"y", DataType::uint8}},
                        {make_attribute_ints("kernel_shape", {2}), make_attribute_ints("strides", {2})});
  ASSERT_TRUE(ru.status.ok()) << ru.status.message();
  EXPECT_EQ(ru.outputs[0].as<std::uint8_t>(), (std::vector<std::uint8_t>{255, 9}));
  std::vector<om::float16_t> xh;
  for (float v : {0.1f, -2.5f, 65504.0f, 1e-7f}) xh.push_back(om::float16_t::from_float(v));
  Outcome rh = run_node("MaxPool", 12, {value("x", {1, 1, 4}, xh)}, {{"y", DataType::float16}},
                        {make_attribute_ints("kernel_shape", {2})});
  ASSERT_TRUE(rh.status.ok()) << rh.status.message();
  const std::vector<om::float16_t> yh = rh.outputs[0].as<om::float16_t>();
  ASSERT_EQ(yh.size(), 3u);
  EXPECT_EQ(yh[0].bits, xh[0].bits);
  EXPECT_EQ(yh[1].bits, xh[2].bits);
  EXPECT_EQ(yh[2].bits, xh[2].bits);
}

// 8-bit planes (QDQ models' pools): as bytes at strides 1 and 2 (window_rows::max_plane_bytes), else widened to
// floats, pooled and narrowed back with vectors. Every ISA level this CPU has gives a scalar max over each window
// (windows cut by the pads, ceil_mode's partial last windows, strides 1, 2 and 3, rows whose length leaves vector
// tails), uint8 and int8 with values at both ends of the range.
template <typename T>
void check_8bit_max_pool(std::int64_t h, std::int64_t w, std::int64_t k, std::int64_t stride, std::int64_t pad,
                         bool ceil_mode) {
  const std::int64_t channels = 3;
  std::vector<T> x(static_cast<std::size_t>(channels * h * w));
  std::uint32_t seed = 17;
  for (T& v : x) {
    seed = seed * 1664525u + 1013904223u;
    v = static_cast<T>(seed >> 24);  // every byte, the type's lowest and highest included
  }
  const std::vector<ProtoWriter> attributes = {
      make_attribute_ints("kernel_shape", {k, k}), make_attribute_ints("strides", {stride, stride}),
      make_attribute_ints("pads", {pad, pad, pad, pad}), make_attribute_int("ceil_mode", ceil_mode ? 1 : 0)};
  for (om::Isa isa : {om::Isa::best, om::Isa::avx2, om::Isa::baseline}) {
    onnxmicro_test::HarnessSettings settings;
    settings.max_isa = isa;
    onnxmicro_test::KernelHarness harness(om::all_kernels_registry(), "", "MaxPool", 12,
                                          {onnxmicro_test::make(om::Shape{1, channels, h, w}, x)}, attributes, {},
                                          settings);
    ASSERT_TRUE(harness.prepare_status.ok()) << harness.prepare_status.message();
    onnxmicro_test::TestTensor y;
    ASSERT_TRUE(harness.run(y).ok());
    ASSERT_EQ(y.shape.rank(), 4);
    const std::int64_t oh = y.shape[2], ow = y.shape[3];
    std::vector<T> expected;
    for (std::int64_t c = 0; c < channels; ++c)
      for (std::int64_t oy = 0; oy < oh; ++oy)
        for (std::int64_t ox = 0; ox < ow; ++ox) {
          T best = std::numeric_limits<T>::lowest();
          for (std::int64_t ky = 0; ky < k; ++ky)
            for (std::int64_t kx = 0; kx < k; ++kx) {
              const std::int64_t iy = oy * stride - pad + ky, ix = ox * stride - pad + kx;
              if (iy >= 0 && iy < h && ix >= 0 && ix < w) {
                best = std::max(best, x[static_cast<std::size_t>((c * h + iy) * w + ix)]);
              }
            }
          expected.push_back(best);
        }
    EXPECT_EQ(onnxmicro_test::values_of<T>(y), expected)
        << "level " << om::isa_name(isa) << " " << h << "x" << w << " k" << k << " s" << stride << " pad " << pad
        << (ceil_mode ? " ceil" : "");
  }
}

TEST(MaxPool, EightBitPlanesGiveTheScalarMaximaAtEveryLevel) {
  check_8bit_max_pool<std::uint8_t>(23, 45, 3, 2, 1, true);
  check_8bit_max_pool<std::uint8_t>(16, 40, 2, 1, 0, false);
  check_8bit_max_pool<std::int8_t>(21, 37, 3, 2, 0, true);
  check_8bit_max_pool<std::int8_t>(9, 19, 3, 1, 1, false);
  check_8bit_max_pool<std::uint8_t>(20, 41, 3, 3, 1, true);  // (through floats)
  check_8bit_max_pool<std::int8_t>(5, 7, 2, 2, 1, true);     // (rows shorter than a vector)
  check_8bit_max_pool<std::uint8_t>(7, 16, 3, 1, 1, false);  // (one whole vector a row)
  check_8bit_max_pool<std::int8_t>(6, 17, 3, 2, 1, true);    // (the last vector overlapping by 15)
  check_8bit_max_pool<std::int8_t>(11, 111, 3, 2, 0, true);  // (SqueezeNet's first pool's rows)
  check_8bit_max_pool<std::uint8_t>(4, 33, 5, 1, 2, false);  // (window rows cut at both ends)
}

TEST(MaxPool, OpsetGatesIndicesStorageOrderCeilModeAndDilations) {
  const Value x = value("x", {1, 1, 4, 4}, std::vector<float>(16, 1.0f));
  const ProtoWriter kernel = make_attribute_ints("kernel_shape", {2, 2});
  Status st = run_node("MaxPool", 7, {x}, {{"y", DataType::float32}, {"i", DataType::int64}}, {kernel}).status;
  EXPECT_EQ(st.code(), StatusCode::invalid_model);
  EXPECT_NE(std::string(st.message()).find("output 1 'i' (Indices) is only defined from opset 8"), std::string::npos)
      << st.message();
  st = run_node("MaxPool", 7, {x}, {{"y", DataType::float32}}, {kernel, make_attribute_int("storage_order", 1)}).status;
  EXPECT_NE(std::string(st.message()).find("'storage_order' is only defined from opset 8"), std::string::npos)
      << st.message();
  st = run_node("MaxPool", 9, {x}, {{"y", DataType::float32}}, {kernel, make_attribute_int("ceil_mode", 1)}).status;
  EXPECT_NE(std::string(st.message()).find("'ceil_mode' is only defined from opset 10, but the node's opset is 9"),
            std::string::npos)
      << st.message();
  st = run_node("MaxPool", 9, {x}, {{"y", DataType::float32}}, {kernel, make_attribute_ints("dilations", {2, 2})})
           .status;
  EXPECT_NE(std::string(st.message()).find("'dilations' is only defined from opset 10"), std::string::npos)
      << st.message();
  // Default values of later attributes are harmless in older versions, and every version resolves.
  for (int opset : {1, 8, 10, 11, 12, 22, 23}) {
    Outcome r =
        run_node("MaxPool", opset, {x}, {{"y", DataType::float32}}, {kernel, make_attribute_ints("dilations", {1, 1})});
    EXPECT_TRUE(r.status.ok()) << "opset " << opset << ": " << r.status.message();
  }
}

TEST(MaxPool, Validation) {
  const Value x = value("x", {1, 1, 4, 4}, std::vector<float>(16, 1.0f));
  Status st = run_node("MaxPool", 12, {x}, {{"y", DataType::float32}}, {}).status;
  EXPECT_NE(std::string(st.message()).find("required attribute 'kernel_shape' (INTS) is missing"), std::string::npos)
      << st.message();
  st = run_node("MaxPool", 12, {x}, {{"y", DataType::float32}}, {make_attribute_ints("kernel_shape", {2, 0})}).status;
  EXPECT_NE(std::string(st.message()).find("'kernel_shape'[1] is 0, expected >= 1"), std::string::npos) << st.message();
  st = run_node("MaxPool", 12, {x}, {{"y", DataType::float32}},
                {make_attribute_ints("kernel_shape", {2, 2}), make_attribute_int("storage_order", 2)})
           .status;
  EXPECT_NE(std::string(st.message()).find("'storage_order' is 2, expected 0 or 1"), std::string::npos) << st.message();
  st = run_node("MaxPool", 12, {value("x", {1, 1, 4, 4}, std::vector<std::int32_t>(16))}, {{"y", DataType::int32}},
                {make_attribute_ints("kernel_shape", {2, 2})})
           .status;
  EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
}

// ---- AveragePool ---------------------------------------------------------------------------------------------

TEST(AveragePool, PadsExcludedOrIncludedInTheDivisor) {
  expect_average_pool_matches_reference({{2, 3, 9, 8}, {3, 3}, {2, 2}, {}, {1, 1, 1, 1}, {2, 3, 5, 4}});
  // pads (1,2,2,1): (9+3-3)/2+1 = 5, (8+3-3)/2+1 = 5.
  expect_average_pool_matches_reference({{2, 3, 9, 8}, {3, 3}, {2, 2}, {}, {1, 2, 2, 1}, {2, 3, 5, 5}, true});
}

TEST(AveragePool, CeilModeExtraRoomIsNotCountedAsPadding) {
  // 9 x 8, kernel 3, strides 2, pads 1: ceil((9+2-3)/2)+1 = 5, ceil((8+2-3)/2)+1 = 5 (start 8 < 8+1 stays);
  // the last column's window reaches one past the end pad, which count_include_pad does not count.
  expect_average_pool_matches_reference({{2, 3, 9, 8}, {3, 3}, {2, 2}, {}, {1, 1, 1, 1}, {2, 3, 5, 5}, true},
                                        {make_attribute_int("ceil_mode", 1)});
  expect_average_pool_matches_reference({{2, 3, 9, 8}, {2, 3}, {2, 2}, {}, {}, {2, 3, 5, 4}},
                                        {make_attribute_int("ceil_mode", 1)});
}

TEST(AveragePool, SamePadsCountWhenIncluded) {
  expect_average_pool_matches_reference({{1, 2, 10, 9}, {3, 4}, {2, 3}, {}, {0, 0, 1, 1}, {1, 2, 5, 3}, true},
                                        {make_attribute_string("auto_pad", "SAME_UPPER")});
  expect_average_pool_matches_reference({{1, 2, 10, 9}, {3, 4}, {2, 3}, {}, {1, 1, 0, 0}, {1, 2, 5, 3}},
                                        {make_attribute_string("auto_pad", "SAME_LOWER")});
}

TEST(AveragePool, DilationsWithPads) {
  // 9 x 8, kernel 2, dilations (2,3), pads 1: (9+2-3)/1+1 = 9, (8+2-4)+1 = 7.
  expect_average_pool_matches_reference({{2, 3, 9, 8}, {2, 2}, {}, {2, 3}, {1, 1, 1, 1}, {2, 3, 9, 7}, true});
  expect_average_pool_matches_reference({{2, 3, 9, 8}, {2, 2}, {2, 1}, {2, 3}, {1, 1, 1, 1}, {2, 3, 5, 7}});
}

TEST(AveragePool, OneAndThreeDimensional) {
  expect_average_pool_matches_reference({{2, 2, 11}, {4}, {3}, {}, {2, 1}, {2, 2, 4}});
  expect_average_pool_matches_reference(
      {{1, 2, 5, 6, 7}, {2, 3, 2}, {2, 2, 3}, {}, {1, 1, 0, 0, 1, 1}, {1, 2, 3, 3, 3}}, {}, 11);
}

TEST(AveragePool, Opset1ExcludesPadding) {
  // Before count_include_pad existed (opset 7) padding never counted.
  expect_average_pool_matches_reference({{1, 2, 6, 6}, {3, 3}, {}, {}, {1, 1, 1, 1}, {1, 2, 6, 6}}, {}, 1);
}

TEST(AveragePool, HalfAndDoubleTypes) {
  std::vector<om::float16_t> xh;
  for (float v : {1.0f, 2.0f, 4.0f, 8.0f}) xh.push_back(om::float16_t::from_float(v));
  Outcome rh = run_node("AveragePool", 11, {value("x", {1, 1, 4}, xh)}, {{"y", DataType::float16}},
                        {make_attribute_ints("kernel_shape", {3}), make_attribute_ints("pads", {1, 1})});
  ASSERT_TRUE(rh.status.ok()) << rh.status.message();
  const std::vector<om::float16_t> yh = rh.outputs[0].as<om::float16_t>();
  ASSERT_EQ(yh.size(), 4u);
  EXPECT_EQ(yh[0].to_float(), 1.5f);
  EXPECT_EQ(yh[1].to_float(), om::float16_t::from_float(7.0f / 3.0f).to_float());
  EXPECT_EQ(yh[3].to_float(), 6.0f);
  Outcome rd = run_node("AveragePool", 11, {value("x", {1, 1, 3}, std::vector<double>{1, 2, 4})},
                        {{"y", DataType::float64}}, {make_attribute_ints("kernel_shape", {3})});
  ASSERT_TRUE(rd.status.ok()) << rd.status.message();
  EXPECT_DOUBLE_EQ(rd.outputs[0].as<double>()[0], 7.0 / 3.0);
}

TEST(AveragePool, OpsetGatesCountIncludePadAndDilations) {
  const Value x = value("x", {1, 1, 4, 4}, std::vector<float>(16, 1.0f));
  const ProtoWriter kernel = make_attribute_ints("kernel_shape", {2, 2});
  Status st =
      run_node("AveragePool", 6, {x}, {{"y", DataType::float32}}, {kernel, make_attribute_int("count_include_pad", 1)})
          .status;
  EXPECT_NE(std::string(st.message()).find("'count_include_pad' is only defined from opset 7"), std::string::npos)
      << st.message();
  st = run_node("AveragePool", 18, {x}, {{"y", DataType::float32}}, {kernel, make_attribute_ints("dilations", {2, 1})})
           .status;
  EXPECT_NE(std::string(st.message()).find("'dilations' is only defined from opset 19, but the node's opset is 18"),
            std::string::npos)
      << st.message();
  st = run_node("AveragePool", 9, {x}, {{"y", DataType::float32}}, {kernel, make_attribute_int("ceil_mode", 1)}).status;
  EXPECT_NE(std::string(st.message()).find("'ceil_mode' is only defined from opset 10"), std::string::npos)
      << st.message();
  st =
      run_node("AveragePool", 19, {x}, {{"y", DataType::float32}}, {kernel, make_attribute_int("count_include_pad", 3)})
          .status;
  EXPECT_NE(std::string(st.message()).find("'count_include_pad' is 3, expected 0 or 1"), std::string::npos)
      << st.message();
  for (int opset : {1, 7, 10, 11, 19, 22, 23}) {
    EXPECT_TRUE(run_node("AveragePool", opset, {x}, {{"y", DataType::float32}}, {kernel}).status.ok()) << opset;
  }
}

// ---- GlobalAveragePool -------------------------------------------------------------------------------------

TEST(GlobalAveragePool, AveragesEverySpatialAxisOfAnyRank) {
  std::vector<float> x(2 * 3 * 2 * 3 * 4);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  Outcome r = run_node("GlobalAveragePool", 1, {value("x", {2, 3, 2, 3, 4}, x)}, {{"y", DataType::float32}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].dims, (std::vector<std::int64_t>{2, 3, 1, 1, 1}));
  const std::vector<float> y = r.outputs[0].as<float>();
  ASSERT_EQ(y.size(), 6u);
  for (std::size_t p = 0; p < 6; ++p) EXPECT_FLOAT_EQ(y[p], static_cast<float>(p * 24) + 11.5f);
  Outcome one_d = run_node("GlobalAveragePool", 22, {value("x", {1, 2, 3}, std::vector<double>{1, 2, 6, -1, -2, -6})},
                           {{"y", DataType::float64}});
  ASSERT_TRUE(one_d.status.ok()) << one_d.status.message();
  EXPECT_EQ(one_d.outputs[0].as<double>(), (std::vector<double>{3, -3}));
  Status st =
      run_node("GlobalAveragePool", 1, {value("x", {2, 3}, std::vector<float>(6))}, {{"y", DataType::float32}}).status;
  EXPECT_NE(std::string(st.message()).find("expected rank >= 3"), std::string::npos) << st.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
