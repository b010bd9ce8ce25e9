// SPDX-License-Identifier: MIT
// ONNX message views: parse() validation (wire, depth limits, tensor checks), field extraction, tensor
// decoding, attribute types, and error messages with field path and byte offset. Inputs are hand-encoded
// with ProtoWriter, so every byte under test is known.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test;  // NOLINT: test builders
using onnxmicro::bfloat16_t;
using onnxmicro::ByteSpan;
using onnxmicro::DataType;
using onnxmicro::float16_t;
using onnxmicro::Status;
using onnxmicro::StatusCode;
namespace proto = onnxmicro::proto;

bool contains(const Status& s, const std::string& text) {
  return std::string(s.message()).find(text) != std::string::npos;
}

template <typename V>
Status parse(const ProtoWriter& w, V& out, int depth = 0) {
  return V::parse(w.span(), depth, out);
}

/// Absolute offset of `needle` (a nested message's bytes) inside `haystack`.
std::size_t offset_of(const ProtoWriter& haystack, const ProtoWriter& needle) {
  auto it = std::search(haystack.bytes().begin(), haystack.bytes().end(), needle.bytes().begin(), needle.bytes().end());
  EXPECT_NE(it, haystack.bytes().end());
  return static_cast<std::size_t>(it - haystack.bytes().begin());
}

template <typename T>
std::vector<T> decode(const proto::Tensor& t, std::size_t count) {
  std::vector<T> out(count);
  Status s = t.decode_to(out.data(), count * sizeof(T));
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

std::vector<std::int64_t> collect(proto::RepeatedScalar<std::int64_t> r) { return {r.begin(), r.end()}; }
std::vector<float> collect(proto::RepeatedScalar<float> r) { return {r.begin(), r.end()}; }

// ---- Generic protobuf behaviour ---------------------------------------------------------------------------

TEST(ProtoViews, UnknownFieldsOfEveryWireTypeAreSkipped) {
  ProtoWriter inner;
  inner.varint_field(1, 1);
  ProtoWriter n;
  n.varint_field(100, 5)
      .fixed64_field(101, 1)
      .string_field(102, "junk")
      .fixed32_field(103, 2)
      .message_field((1u << 29) - 1, inner)
      .string_field(4, "Relu")
      .varint_field(1000, std::numeric_limits<std::uint64_t>::max())
      .string_field(1, "x");
  proto::Node node;
  Status s = parse(n, node);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(node.op_type, "Relu");
  ASSERT_EQ(node.inputs().size(), 1u);
  EXPECT_EQ(node.inputs()[0], "x");
}

TEST(ProtoViews, KnownFieldWithWrongWireTypeIsSkippedLikeProtobufLite) {
  ProtoWriter t;
  t.int_field(2, 1).fixed32_field(2, 7);      // data_type as fixed32: ignored, stays FLOAT
  t.varint_field(8, 3).string_field(8, "w");  // name as varint: ignored
  t.varint_field(9, 4);                       // raw_data as varint: not raw data
  t.fixed64_field(4, 0);                      // float_data as fixed64: not float data
  t.int_field(1, 2);
  t.packed_floats(4, {1.5f, 2.5f});
  proto::Tensor tensor;
  Status s = parse(t, tensor);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(tensor.data_type, 1);
  EXPECT_EQ(tensor.name, "w");
  EXPECT_FALSE(tensor.has_raw_data);
  EXPECT_EQ(tensor.typed_data_field, 4u);
  EXPECT_EQ(collect(tensor.float_data()), (std::vector<float>{1.5f, 2.5f}));
  EXPECT_EQ(decode<float>(tensor, 2), (std::vector<float>{1.5f, 2.5f}));
}

TEST(ProtoViews, LastOccurrenceOfSingularFieldWins) {
  ProtoWriter n;
  n.string_field(4, "Relu").string_field(3, "a").string_field(4, "Sigmoid").string_field(3, "b");
  proto::Node node;
  ASSERT_TRUE(parse(n, node).ok());
  EXPECT_EQ(node.op_type, "Sigmoid");
  EXPECT_EQ(node.name, "b");
}

TEST(ProtoViews, Int32FieldKeepsLow32BitsOfVarint) {
  ProtoWriter t;
  t.varint_field(2, (std::uint64_t{1} << 32) + 1);
  proto::Tensor tensor;
  ASSERT_TRUE(parse(t, tensor).ok());
  EXPECT_EQ(tensor.data_type, 1);
}

TEST(ProtoViews, FieldNumberZeroRejectedWithPath) {
  ProtoWriter bad_node;
  bad_node.string_field(4, "Relu").tag(0, Wire::varint).raw_varint(1);
  ProtoWriter graph;
  graph.message_field(1, make_node("Relu", {"x"}, {"y"})).message_field(1, bad_node);
  ProtoWriter model;
  model.int_field(1, 8).message_field(7, graph);
  proto::Model m;
  Status s = proto::Model::parse(model.span(), m);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  const std::size_t at = offset_of(model, bad_node) + 6;
  EXPECT_EQ(std::string(s.message()), "graph.node[1] (NodeProto): field number 0 at byte " + std::to_string(at));
}

TEST(ProtoViews, GroupsRejectedWithClearMessage) {
  ProtoWriter t;
  t.int_field(2, 1).tag(50, Wire::start_group).varint_field(1, 1).tag(50, Wire::end_group);
  proto::Tensor tensor;
  Status s = parse(t, tensor);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_EQ(std::string(s.message()),
            "TensorProto: wire type 3 (start group) at byte 2; groups are not supported (ONNX never uses them) "
            "(field 50)");
}

TEST(ProtoViews, TruncatedTagAndPayloadRejected) {
  ProtoWriter truncated_payload;
  truncated_payload.tag(4, Wire::length_delimited).raw_varint(10).raw_bytes({'R', 'e'});
  proto::Node node;
  Status s = parse(truncated_payload, node);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_EQ(std::string(s.message()),
            "NodeProto: length 10 at byte 1 runs past the end (2 bytes left in the enclosing message) (field 4)");

  const std::vector<unsigned char> truncated_tag = {0x80};
  proto::Model m;
  s = proto::Model::parse({truncated_tag.data(), truncated_tag.size()}, m);
  EXPECT_EQ(std::string(s.message()), "ModelProto: tag truncated at byte 0");
}

TEST(ProtoViews, ErrorMessageNamesFieldPathAndAbsoluteOffset) {
  ProtoWriter bad_attribute;
  bad_attribute.string_field(1, "axis").tag(3, Wire::varint).raw_bytes({0x80});
  ProtoWriter node1;
  node1.string_field(4, "Concat").message_field(5, make_attribute_int("other", 1)).message_field(5, bad_attribute);
  ProtoWriter graph = make_graph("g", {make_node("Relu", {"x"}, {"y"}), node1}, {}, {});
  ProtoWriter model = make_model(graph);
  proto::Model m;
  Status s = proto::Model::parse(model.span(), m);
  ASSERT_EQ(s.code(), StatusCode::invalid_model);
  const std::size_t at = offset_of(model, bad_attribute) + 7;  // after name (2 + 4 bytes) and the tag
  EXPECT_EQ(std::string(s.message()), "graph.node[1].attribute[1] (AttributeProto): varint truncated at byte " +
                                          std::to_string(at) + " (field 3)");
}

TEST(ProtoViews, PackedAndUnpackedRepeatedScalarsMix) {
  ProtoWriter a;
  a.string_field(1, "axes")
      .packed_varints(8, {1, -2})
      .int_field(8, 3)
      .fixed32_field(8, 9)
      .packed_varints(8, {})
      .packed_varints(8, {4});
  a.float_field(7, 0.5f).packed_floats(7, {1.5f, -2.0f}).float_field(7, 3.0f);
  proto::Attribute attribute;
  Status s = parse(a, attribute);
  ASSERT_TRUE(s.ok()) << s.message();
  // the fixed32 occurrence of field 8 has the wrong wire type: skipped, as protobuf does
  EXPECT_EQ(collect(attribute.ints()), (std::vector<std::int64_t>{1, -2, 3, 4}));
  EXPECT_EQ(attribute.ints().size(), 4u);
  EXPECT_EQ(attribute.ints()[2], 3);
  EXPECT_EQ(collect(attribute.floats()), (std::vector<float>{0.5f, 1.5f, -2.0f, 3.0f}));
  EXPECT_EQ(attribute.floats().size(), 4u);
}

TEST(ProtoViews, PackedPayloadsAreValidated) {
  ProtoWriter bad_floats;
  bad_floats.int_field(2, 1).tag(4, Wire::length_delimited).raw_varint(5).raw_bytes({0, 0, 0, 0, 0});
  proto::Tensor t;
  Status s = parse(bad_floats, t);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_EQ(std::string(s.message()),
            "TensorProto: packed fixed32 payload of 5 bytes at byte 4 is not a multiple of 4 (field 4)");

  ProtoWriter bad_doubles;
  bad_doubles.tag(10, Wire::length_delimited).raw_varint(12).raw_bytes({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(parse(bad_doubles, t).code(), StatusCode::invalid_model);

  ProtoWriter bad_ints;
  bad_ints.string_field(1, "x").tag(8, Wire::length_delimited).raw_varint(2).raw_bytes({0x01, 0x80});
  proto::Attribute a;
  s = parse(bad_ints, a);
  EXPECT_EQ(std::string(s.message()), "AttributeProto: varint truncated at byte 6 (field 8)");
}

TEST(ProtoViews, RepeatedFieldIteration) {
  ProtoWriter n = make_node("Add", {"a", "", "c"}, {"y"});
  proto::Node node;
  ASSERT_TRUE(parse(n, node).ok());
  auto inputs = node.inputs();
  EXPECT_EQ(inputs.size(), 3u);
  EXPECT_FALSE(inputs.empty());
  EXPECT_EQ(inputs[0], "a");
  EXPECT_EQ(inputs[1], "");
  EXPECT_EQ(inputs[2], "c");
  auto it = inputs.begin();
  auto first = it++;
  EXPECT_EQ(*first, "a");
  EXPECT_EQ(*it, "");
  EXPECT_TRUE(first != it);
  EXPECT_TRUE(inputs.begin() == first);
  EXPECT_EQ(std::distance(inputs.begin(), inputs.end()), 3);
  EXPECT_TRUE(node.attributes().empty());
  EXPECT_EQ(node.attributes().size(), 0u);
}

TEST(ProtoViews, UncheckedOnMalformedBytesStopsQuietly) {
  // op_type "Relu", then an input whose length runs past the end
  const std::vector<unsigned char> garbage = {0x22, 0x04, 'R', 'e', 'l', 'u', 0x0a, 0xff, 0xff, 0x01};
  const ByteSpan bytes(garbage.data(), garbage.size());
  proto::Node parsed;
  EXPECT_EQ(proto::Node::parse(bytes, 0, parsed).code(), StatusCode::invalid_model);
  proto::Node node = proto::Node::unchecked(bytes);
  EXPECT_EQ(node.op_type, "Relu");  // read before the broken field
  EXPECT_EQ(node.inputs().size(), 0u);
  EXPECT_TRUE(node.inputs().begin() == node.inputs().end());
  proto::Tensor t = proto::Tensor::unchecked(bytes);
  EXPECT_EQ(t.rank, 0);
  proto::RepeatedScalar<std::int64_t> dims(bytes, 1);
  EXPECT_EQ(std::distance(dims.begin(), dims.end()), 0);
  EXPECT_EQ(dims.size(), 0u);
}

// ---- Nesting limits ---------------------------------------------------------------------------------------

/// A SequenceProto nested `levels` deep (levels = total number of SequenceProto messages).
ProtoWriter nested_sequences(int levels) {
  ProtoWriter inner;
  inner.int_field(2, 1);
  for (int i = 1; i < levels; ++i) {
    ProtoWriter outer;
    outer.int_field(2, 3).message_field(5, inner);
    inner = outer;
  }
  return inner;
}

TEST(ProtoViews, MessageDepthLimitAtLimitAcceptedOnePastRejected) {
  proto::Sequence seq;
  Status s = parse(nested_sequences(ONNXMICRO_MAX_PROTO_DEPTH), seq);
  EXPECT_TRUE(s.ok()) << s.message();
  s = parse(nested_sequences(ONNXMICRO_MAX_PROTO_DEPTH + 1), seq);
  EXPECT_EQ(s.code(), StatusCode::limit_exceeded);
  // The path is longer than a message holds: its outer steps are elided, the error itself is kept.
  EXPECT_EQ(std::string(s.message()).substr(0, 3), "...") << s.message();
  EXPECT_TRUE(contains(s, "sequence_values[0] (SequenceProto): message nesting depth " +
                              std::to_string(ONNXMICRO_MAX_PROTO_DEPTH + 1) + " exceeds ONNXMICRO_MAX_PROTO_DEPTH (" +
                              std::to_string(ONNXMICRO_MAX_PROTO_DEPTH) + ")"))
      << s.message();
  // A caller-given starting depth counts too.
  EXPECT_TRUE(parse(nested_sequences(ONNXMICRO_MAX_PROTO_DEPTH - 10), seq, 10).ok());
  EXPECT_EQ(parse(nested_sequences(ONNXMICRO_MAX_PROTO_DEPTH - 9), seq, 10).code(), StatusCode::limit_exceeded);
}

TEST(ProtoViews, MessageDepthLimitThroughNestedTypes) {
  // ValueInfo -> TypeProto -> (Sequence -> TypeProto) x n -> Tensor -> Shape -> Dimension
  auto value_info = [](int sequences) {
    ProtoWriter type = make_tensor_type(DataType::float32, {1});
    for (int i = 0; i < sequences; ++i) {
      ProtoWriter sequence;
      sequence.message_field(1, type);
      ProtoWriter outer;
      outer.message_field(4, sequence);
      type = outer;
    }
    ProtoWriter v;
    v.string_field(1, "x").message_field(2, type);
    return v;
  };
  // Messages on the deepest path: ValueInfo, 2 per sequence, TypeProto, Tensor, Shape, Dimension = 2n + 5.
  const int fits = (ONNXMICRO_MAX_PROTO_DEPTH - 5) / 2;
  proto::ValueInfo v;
  EXPECT_TRUE(parse(value_info(fits), v).ok());
  Status s = parse(value_info(fits + 1), v);
  EXPECT_EQ(s.code(), StatusCode::limit_exceeded);
  EXPECT_TRUE(contains(s, "type.sequence_type.elem_type.sequence_type")) << s.message();
}

/// A graph whose If node nests `levels` then_branch subgraphs.
ProtoWriter nested_if_graph(int levels, bool use_graphs_field = false) {
  ProtoWriter g = make_graph("body", {make_node("Identity", {"x"}, {"y"})}, {}, {});
  for (int i = 0; i < levels; ++i) {
    ProtoWriter attribute =
        use_graphs_field ? make_attribute_graphs("branches", {g}) : make_attribute_graph("then_branch", g);
    g = make_graph("level" + std::to_string(i), {make_node("If", {"c"}, {"y"}, {attribute})}, {}, {});
  }
  return g;
}

TEST(ProtoViews, SubgraphDepthLimitAtLimitAcceptedOnePastRejected) {
  proto::Model m;
  ProtoWriter at_limit = make_model(nested_if_graph(ONNXMICRO_MAX_SUBGRAPH_DEPTH));
  Status s = proto::Model::parse(at_limit.span(), m);
  EXPECT_TRUE(s.ok()) << s.message();

  ProtoWriter past = make_model(nested_if_graph(ONNXMICRO_MAX_SUBGRAPH_DEPTH + 1));
  s = proto::Model::parse(past.span(), m);
  EXPECT_EQ(s.code(), StatusCode::limit_exceeded);
  EXPECT_TRUE(
      contains(s, "exceeds ONNXMICRO_MAX_SUBGRAPH_DEPTH (" + std::to_string(ONNXMICRO_MAX_SUBGRAPH_DEPTH) + ")"))
      << s.message();
  EXPECT_TRUE(contains(s, ".node[0].attribute[0].g.node[0].attribute[0].g (GraphProto): subgraph nesting depth " +
                              std::to_string(ONNXMICRO_MAX_SUBGRAPH_DEPTH + 1)))
      << s.message();

  ProtoWriter past_graphs = make_model(nested_if_graph(ONNXMICRO_MAX_SUBGRAPH_DEPTH + 1, true));
  s = proto::Model::parse(past_graphs.span(), m);
  EXPECT_EQ(s.code(), StatusCode::limit_exceeded);
  EXPECT_TRUE(contains(s, ".node[0].attribute[0].graphs[0] (GraphProto): subgraph nesting depth")) << s.message();

  proto::Graph g;
  EXPECT_EQ(proto::Graph::parse_subgraph(nested_if_graph(1).span(), 0, ONNXMICRO_MAX_SUBGRAPH_DEPTH, g).code(),
            StatusCode::limit_exceeded);
  EXPECT_TRUE(proto::Graph::parse_subgraph(nested_if_graph(1).span(), 0, ONNXMICRO_MAX_SUBGRAPH_DEPTH - 1, g).ok());
}

// ---- TensorProto ------------------------------------------------------------------------------------------

TEST(ProtoTensor, DimsPackedUnpackedAndMixed) {
  ProtoWriter t;
  t.int_field(1, 2).packed_varints(1, {3, 4}).int_field(1, 5).int_field(2, 1).string_field(8, "t");
  proto::Tensor tensor;
  ASSERT_TRUE(parse(t, tensor).ok());
  ASSERT_EQ(tensor.rank, 4);
  EXPECT_EQ(tensor.dims[0], 2);
  EXPECT_EQ(tensor.dims[1], 3);
  EXPECT_EQ(tensor.dims[2], 4);
  EXPECT_EQ(tensor.dims[3], 5);
  std::int64_t count = 0;
  ASSERT_TRUE(tensor.element_count(count).ok());
  EXPECT_EQ(count, 120);
}

TEST(ProtoTensor, NegativeDimRejected) {
  ProtoWriter t;
  t.int_field(1, 2).int_field(1, -3).int_field(2, 1).string_field(8, "w");
  proto::Tensor tensor;
  Status s = parse(t, tensor);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_EQ(std::string(s.message()), "TensorProto 'w': dims[1] is negative (-3)");
}

TEST(ProtoTensor, RankAtMaxAcceptedAboveRejected) {
  ProtoWriter at_max;
  for (int i = 0; i < ONNXMICRO_MAX_RANK; ++i) at_max.int_field(1, 1);
  at_max.int_field(2, 1);
  proto::Tensor tensor;
  ASSERT_TRUE(parse(at_max, tensor).ok());
  EXPECT_EQ(tensor.rank, ONNXMICRO_MAX_RANK);

  ProtoWriter above = at_max;
  above.packed_varints(1, {1}).string_field(8, "big");
  Status s = parse(above, tensor);
  EXPECT_EQ(s.code(), StatusCode::limit_exceeded);
  EXPECT_EQ(std::string(s.message()), "TensorProto 'big': rank " + std::to_string(ONNXMICRO_MAX_RANK + 1) +
                                          " exceeds ONNXMICRO_MAX_RANK (" + std::to_string(ONNXMICRO_MAX_RANK) + ")");
}

TEST(ProtoTensor, TwoDataFieldsRejected) {
  const std::vector<float> values = {1, 2};
  ProtoWriter raw_and_float = make_tensor_raw("w", DataType::float32, {2}, values);
  raw_and_float.packed_floats(4, {1, 2});
  proto::Tensor tensor;
  Status s = parse(raw_and_float, tensor);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_EQ(std::string(s.message()),
            "TensorProto 'w': has both float_data and raw_data; a tensor stores its data in exactly one field");

  ProtoWriter float_and_int32 = make_float_tensor("v", {1}, {1});
  float_and_int32.packed_varints(5, {1});
  s = parse(float_and_int32, tensor);
  EXPECT_TRUE(contains(s, "has both float_data and int32_data")) << s.message();

  ProtoWriter empty_second = make_int64_tensor("e", {1}, {1});
  empty_second.tag(11, Wire::length_delimited).raw_varint(0);  // present even when empty
  EXPECT_TRUE(contains(parse(empty_second, tensor), "has both int64_data and uint64_data"));
}

TEST(ProtoTensor, SegmentRejectedAsUnsupported) {
  ProtoWriter segment;
  segment.int_field(1, 0).int_field(2, 4);
  ProtoWriter t = make_float_tensor("seg", {4}, {1, 2, 3, 4});
  t.message_field(3, segment);
  proto::Tensor tensor;
  Status s = parse(t, tensor);
  EXPECT_EQ(s.code(), StatusCode::unsupported);
  EXPECT_TRUE(contains(s, "segment")) << s.message();
}

TEST(ProtoTensor, DecodeFloatDataPackedAndUnpacked) {
  ProtoWriter unpacked;
  unpacked.int_field(1, 3).int_field(2, 1).repeated_floats(4, {1.25f, -0.5f}).float_field(4, 7.0f);
  proto::Tensor tensor;
  ASSERT_TRUE(parse(unpacked, tensor).ok());
  EXPECT_EQ(tensor.stored_element_count(), 3u);
  EXPECT_EQ(decode<float>(tensor, 3), (std::vector<float>{1.25f, -0.5f, 7.0f}));

  ProtoWriter mixed;
  mixed.int_field(1, 6)
      .int_field(2, 1)
      .float_field(4, 1.0f)
      .packed_floats(4, {2, 3})
      .packed_floats(4, {})
      .float_field(4, 4.0f)
      .packed_floats(4, {5, 6});
  ASSERT_TRUE(parse(mixed, tensor).ok());
  EXPECT_EQ(tensor.stored_element_count(), 6u);
  EXPECT_EQ(decode<float>(tensor, 6), (std::vector<float>{1, 2, 3, 4, 5, 6}));

  ProtoWriter mixed_double;
  mixed_double.int_field(1, 3).int_field(2, 11).packed_doubles(10, {0.5, 1.5}).double_field(10, -2.5);
  ASSERT_TRUE(parse(mixed_double, tensor).ok());
  EXPECT_EQ(decode<double>(tensor, 3), (std::vector<double>{0.5, 1.5, -2.5}));
}

TEST(ProtoTensor, DecodeInt32DataNarrowTypes) {
  proto::Tensor t;
  ProtoWriter int8 = make_int32_data_tensor("i8", DataType::int8, {3}, {-1, 127, -128});
  ASSERT_TRUE(parse(int8, t).ok());
  EXPECT_EQ(decode<std::int8_t>(t, 3), (std::vector<std::int8_t>{-1, 127, -128}));

  ProtoWriter uint8 = make_int32_data_tensor("u8", DataType::uint8, {2}, {0, 255});
  ASSERT_TRUE(parse(uint8, t).ok());
  EXPECT_EQ(decode<std::uint8_t>(t, 2), (std::vector<std::uint8_t>{0, 255}));

  ProtoWriter int16 = make_int32_data_tensor("i16", DataType::int16, {2}, {-300, 32767});
  ASSERT_TRUE(parse(int16, t).ok());
  EXPECT_EQ(decode<std::int16_t>(t, 2), (std::vector<std::int16_t>{-300, 32767}));

  ProtoWriter uint16 = make_int32_data_tensor("u16", DataType::uint16, {1}, {65535});
  ASSERT_TRUE(parse(uint16, t).ok());
  EXPECT_EQ(decode<std::uint16_t>(t, 1), (std::vector<std::uint16_t>{65535}));

  ProtoWriter int32 = make_int32_data_tensor("i32", DataType::int32, {2}, {-5, 2147483647});
  ASSERT_TRUE(parse(int32, t).ok());
  EXPECT_EQ(decode<std::int32_t>(t, 2), (std::vector<std::int32_t>{-5, 2147483647}));

  ProtoWriter boolean = make_int32_data_tensor("b", DataType::boolean, {3}, {1, 0, 1});
  ASSERT_TRUE(parse(boolean, t).ok());
  EXPECT_EQ(decode<std::uint8_t>(t, 3), (std::vector<std::uint8_t>{1, 0, 1}));
}

TEST(ProtoTensor, DecodeInt32DataFloatBitPatterns) {
  proto::Tensor t;
  const std::uint16_t h1 = float16_t::from_float(1.5f).bits;
  const std::uint16_t h2 = float16_t::from_float(-65504.0f).bits;
  ASSERT_EQ(h1, 0x3e00);
  ProtoWriter half = make_int32_data_tensor("h", DataType::float16, {2}, {h1, h2});
  ASSERT_TRUE(parse(half, t).ok());
  std::vector<std::uint16_t> bits = decode<std::uint16_t>(t, 2);
  EXPECT_EQ(float16_t::from_bits(bits[0]).to_float(), 1.5f);
  EXPECT_EQ(float16_t::from_bits(bits[1]).to_float(), -65504.0f);

  ProtoWriter bf = make_int32_data_tensor("bf", DataType::bfloat16, {1}, {0x3f80});
  ASSERT_TRUE(parse(bf, t).ok());
  EXPECT_EQ(bfloat16_t::from_bits(decode<std::uint16_t>(t, 1)[0]).to_float(), 1.0f);

  ProtoWriter f8 = make_int32_data_tensor("f8", DataType::float8e4m3fn, {2}, {0x38, 0xc0});
  ASSERT_TRUE(parse(f8, t).ok());
  EXPECT_EQ(decode<std::uint8_t>(t, 2), (std::vector<std::uint8_t>{0x38, 0xc0}));
}

TEST(ProtoTensor, DecodeInt4PackedTwoPerInt32Entry) {
  // ONNX: [1, -2, 7] as int4 -> int32_data [0xE1, 0x07] (first element in the low nibble)
  ProtoWriter int4 = make_int32_data_tensor("q", DataType::int4, {3}, {0xE1, 0x07});
  proto::Tensor t;
  ASSERT_TRUE(parse(int4, t).ok());
  EXPECT_EQ(t.stored_element_count(), 3u);
  EXPECT_EQ(decode<std::uint8_t>(t, 2), (std::vector<std::uint8_t>{0xE1, 0x07}));

  ProtoWriter raw = make_tensor_raw("r", DataType::uint4, {4}, std::vector<std::uint8_t>{0x21, 0x43});
  ASSERT_TRUE(parse(raw, t).ok());
  EXPECT_EQ(t.stored_element_count(), 4u);
  EXPECT_EQ(decode<std::uint8_t>(t, 2), (std::vector<std::uint8_t>{0x21, 0x43}));

  ProtoWriter too_many = make_int32_data_tensor("q", DataType::int4, {3}, {0xE1, 0x07, 0x00});
  ASSERT_TRUE(parse(too_many, t).ok());
  std::vector<std::uint8_t> out(2);
  EXPECT_EQ(t.decode_to(out.data(), out.size()).code(), StatusCode::invalid_model);
}

TEST(ProtoTensor, DecodeTwoAndSixBitTypes) {
  proto::Tensor t;
  // ONNX: int2 [1, -2, 0, -1, 1] -> int32_data [201, 1] (four elements per entry, first in the lowest bits)
  ProtoWriter int2 = make_int32_data_tensor("q2", DataType::int2, {5}, {201, 1});
  ASSERT_TRUE(parse(int2, t).ok());
  EXPECT_EQ(t.stored_element_count(), 5u);
  EXPECT_EQ(decode<std::uint8_t>(t, 2), (std::vector<std::uint8_t>{201, 1}));

  ProtoWriter raw2 = make_tensor_raw("r2", DataType::uint2, {5}, std::vector<std::uint8_t>{0x39, 0x03});
  ASSERT_TRUE(parse(raw2, t).ok());
  EXPECT_EQ(t.stored_element_count(), 5u);
  EXPECT_EQ(decode<std::uint8_t>(t, 2), (std::vector<std::uint8_t>{0x39, 0x03}));

  // ONNX: float6e2m3 [1, -1, 0.5, 2, 0] -> int32_data [8, 40, 4, 16, 0] (one element per entry); packed as
  // numpy_helper.from_array packs raw_data: [8, 74, 64, 0]
  ProtoWriter f6 = make_int32_data_tensor("f6", DataType::float6e2m3, {5}, {8, 40, 4, 16, 0});
  ASSERT_TRUE(parse(f6, t).ok());
  EXPECT_EQ(t.stored_element_count(), 5u);
  EXPECT_EQ(decode<std::uint8_t>(t, 4), (std::vector<std::uint8_t>{8, 74, 64, 0}));

  ProtoWriter f6_bad = make_int32_data_tensor("f6", DataType::float6e3m2, {2}, {1, 64});
  ASSERT_TRUE(parse(f6_bad, t).ok());
  std::vector<std::uint8_t> out(2);
  Status s = t.decode_to(out.data(), out.size());
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(s, "int32_data[1] = 64 does not fit the 6 bits")) << s.message();

  ProtoWriter f6_raw = make_tensor_raw("f6r", DataType::float6e2m3, {5}, std::vector<std::uint8_t>{8, 74, 64, 0});
  ASSERT_TRUE(parse(f6_raw, t).ok());
  EXPECT_EQ(t.stored_element_count(), 5u);
  EXPECT_EQ(decode<std::uint8_t>(t, 4), (std::vector<std::uint8_t>{8, 74, 64, 0}));
}

TEST(ProtoTensor, DecodeUint64DataForUint32AndUint64) {
  proto::Tensor t;
  ProtoWriter u64;
  u64.int_field(1, 2).int_field(2, 13).packed_uint64s(11, {std::numeric_limits<std::uint64_t>::max(), 5});
  ASSERT_TRUE(parse(u64, t).ok());
  EXPECT_EQ(t.typed_data_field, 11u);
  EXPECT_EQ(decode<std::uint64_t>(t, 2), (std::vector<std::uint64_t>{std::numeric_limits<std::uint64_t>::max(), 5}));

  ProtoWriter u32;
  u32.int_field(1, 2).int_field(2, 12).varint_field(11, 4000000000u).varint_field(11, 1);
  ASSERT_TRUE(parse(u32, t).ok());
  EXPECT_EQ(decode<std::uint32_t>(t, 2), (std::vector<std::uint32_t>{4000000000u, 1}));
}

TEST(ProtoTensor, DecodeDoubleAndComplex) {
  proto::Tensor t;
  ProtoWriter dbl;
  dbl.int_field(1, 2).int_field(2, 11).packed_doubles(10, {0.1, -1e300});
  ASSERT_TRUE(parse(dbl, t).ok());
  EXPECT_EQ(decode<double>(t, 2), (std::vector<double>{0.1, -1e300}));

  ProtoWriter c128;  // [1+2i] as double_data [1, 2]
  c128.int_field(1, 1).int_field(2, 15).double_field(10, 1.0).double_field(10, 2.0);
  ASSERT_TRUE(parse(c128, t).ok());
  EXPECT_EQ(t.stored_element_count(), 1u);
  EXPECT_EQ(decode<double>(t, 2), (std::vector<double>{1.0, 2.0}));

  ProtoWriter c64;  // [1+2i, 3+4i] as float_data [1, 2, 3, 4]
  c64.int_field(1, 2).int_field(2, 14).packed_floats(4, {1, 2, 3, 4});
  ASSERT_TRUE(parse(c64, t).ok());
  EXPECT_EQ(t.stored_element_count(), 2u);
  EXPECT_EQ(decode<float>(t, 4), (std::vector<float>{1, 2, 3, 4}));

  ProtoWriter c64_odd;  // 3 floats cannot be complex64 values
  c64_odd.int_field(1, 2).int_field(2, 14).packed_floats(4, {1, 2, 3});
  ASSERT_TRUE(parse(c64_odd, t).ok());
  std::vector<float> out(4);
  EXPECT_EQ(t.decode_to(out.data(), 16).code(), StatusCode::invalid_model);
}

TEST(ProtoTensor, DecodeInt64AndRaw) {
  proto::Tensor t;
  ProtoWriter i64 = make_int64_tensor("shape", {3}, {-1, 0, std::numeric_limits<std::int64_t>::max()});
  ASSERT_TRUE(parse(i64, t).ok());
  EXPECT_EQ(decode<std::int64_t>(t, 3), (std::vector<std::int64_t>{-1, 0, std::numeric_limits<std::int64_t>::max()}));

  const std::vector<float> values = {1, -2, 3.5f, 4, 5, 6};
  ProtoWriter raw = make_tensor_raw("w", DataType::float32, {2, 3}, values);
  ASSERT_TRUE(parse(raw, t).ok());
  EXPECT_TRUE(t.has_raw_data);
  EXPECT_EQ(t.typed_data_field, 0u);
  EXPECT_EQ(t.raw_data.size(), 24u);
  EXPECT_EQ(t.stored_element_count(), 6u);
  EXPECT_EQ(decode<float>(t, 6), values);

  ProtoWriter bad_raw = make_tensor_raw("w", DataType::float32, {2, 3}, values.data(), 22);
  ASSERT_TRUE(parse(bad_raw, t).ok());
  EXPECT_EQ(t.stored_element_count(), std::numeric_limits<std::size_t>::max());
  std::vector<float> out(6);
  Status s = t.decode_to(out.data(), 24);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_EQ(std::string(s.message()), "tensor 'w' (float [2,3]): raw_data holds 22 bytes, the dims need 24");
}

TEST(ProtoTensor, DecodeFailuresNameTheTensor) {
  proto::Tensor t;
  std::vector<float> out(4);

  ProtoWriter short_data = make_float_tensor("w", {2, 2}, {1, 2, 3});
  ASSERT_TRUE(parse(short_data, t).ok());
  Status s = t.decode_to(out.data(), 16);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_EQ(std::string(s.message()), "tensor 'w' (float [2,2]): float_data holds 3 values, the dims need 4");

  ProtoWriter strings;
  strings.int_field(1, 1).int_field(2, 8).string_field(6, "abc").string_field(8, "s");
  ASSERT_TRUE(parse(strings, t).ok());
  EXPECT_EQ(t.string_data().size(), 1u);
  EXPECT_EQ(t.stored_element_count(), 1u);
  // A string tensor decodes to StringRefs into the message bytes; the destination must hold one per element.
  s = t.decode_to(out.data(), 4);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument);
  EXPECT_TRUE(contains(s, "tensor 's'")) << s.message();
  onnxmicro::StringRef decoded{};
  ASSERT_TRUE(t.decode_to(&decoded, sizeof decoded).ok());
  EXPECT_EQ(decoded.view(), "abc");

  ProtoWriter undefined;
  undefined.int_field(1, 1).string_field(8, "u").packed_floats(4, {1});
  ASSERT_TRUE(parse(undefined, t).ok());
  s = t.decode_to(out.data(), 4);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(s, "tensor 'u'")) << s.message();
  EXPECT_TRUE(contains(s, "UNDEFINED")) << s.message();

  ProtoWriter unknown;
  unknown.int_field(1, 1).int_field(2, 200).string_field(8, "k").packed_floats(4, {1});
  ASSERT_TRUE(parse(unknown, t).ok());
  EXPECT_EQ(t.decode_to(out.data(), 4).code(), StatusCode::invalid_model);

  ProtoWriter wrong_field = make_int64_tensor("x", {1}, {1});
  wrong_field.int_field(2, 1);  // now FLOAT, but the data is in int64_data
  ASSERT_TRUE(parse(wrong_field, t).ok());
  s = t.decode_to(out.data(), 4);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_EQ(std::string(s.message()),
            "tensor 'x' (float [1]): stores its data in int64_data; a float tensor uses float_data or raw_data");

  ProtoWriter good = make_float_tensor("g", {2}, {1, 2});
  ASSERT_TRUE(parse(good, t).ok());
  EXPECT_EQ(t.decode_to(out.data(), 12).code(), StatusCode::invalid_argument);
  EXPECT_EQ(t.decode_to(nullptr, 8).code(), StatusCode::invalid_argument);

  ProtoWriter no_data;
  no_data.int_field(1, 2).int_field(2, 1).string_field(8, "n");
  ASSERT_TRUE(parse(no_data, t).ok());
  s = t.decode_to(out.data(), 8);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(s, "has no data")) << s.message();

  ProtoWriter empty;
  empty.int_field(1, 0).int_field(2, 1).string_field(8, "e");
  ASSERT_TRUE(parse(empty, t).ok());
  EXPECT_TRUE(t.decode_to(nullptr, 0).ok());
}

TEST(ProtoTensor, ExternalDataEntriesAndLocation) {
  ProtoWriter location;
  location.string_field(1, "location").string_field(2, "weights.bin");
  ProtoWriter offset;
  offset.string_field(1, "offset").string_field(2, "4096");
  ProtoWriter t;
  t.int_field(1, 4).int_field(2, 1).string_field(8, "ext").message_field(13, location).message_field(13, offset);
  t.int_field(14, 1);
  proto::Tensor tensor;
  ASSERT_TRUE(parse(t, tensor).ok());
  EXPECT_EQ(tensor.data_location, proto::DataLocation::external);
  ASSERT_EQ(tensor.external_data().size(), 2u);
  EXPECT_EQ(tensor.external_data()[0].key, "location");
  EXPECT_EQ(tensor.external_data()[0].value, "weights.bin");
  EXPECT_EQ(tensor.external_data()[1].value, "4096");
  std::vector<float> out(4);
  Status s = tensor.decode_to(out.data(), 16);
  EXPECT_EQ(s.code(), StatusCode::unsupported);
  EXPECT_TRUE(contains(s, "externally")) << s.message();

  ProtoWriter unknown_location = t;
  unknown_location.int_field(14, 7);  // closed enum: unknown value ignored, stays EXTERNAL
  ASSERT_TRUE(parse(unknown_location, tensor).ok());
  EXPECT_EQ(tensor.data_location, proto::DataLocation::external);

  ProtoWriter bad_entry;
  bad_entry.string_field(1, "location").tag(2, Wire::length_delimited).raw_varint(100);
  ProtoWriter bad;
  bad.int_field(2, 1).message_field(13, location).message_field(13, bad_entry);
  s = parse(bad, tensor);
  EXPECT_TRUE(contains(s, "external_data[1] (StringStringEntryProto): length 100 at byte")) << s.message();
}

TEST(ProtoTensor, ElementCountOverflowAndLimits) {
  proto::Tensor t;
  ProtoWriter huge;
  huge.repeated_varints(1, {std::int64_t{1} << 31, std::int64_t{1} << 31, std::int64_t{1} << 31}).int_field(2, 1);
  ASSERT_TRUE(parse(huge, t).ok());
  std::int64_t count = -1;
  EXPECT_EQ(t.element_count(count).code(), StatusCode::limit_exceeded);

  ProtoWriter max_dims;
  max_dims.repeated_varints(1, {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max()})
      .int_field(2, 1);
  ASSERT_TRUE(parse(max_dims, t).ok());
  EXPECT_EQ(t.element_count(count).code(), StatusCode::limit_exceeded);

  ProtoWriter zero;
  zero.repeated_varints(1, {std::numeric_limits<std::int64_t>::max(), 0}).int_field(2, 1);
  ASSERT_TRUE(parse(zero, t).ok());
  ASSERT_TRUE(t.element_count(count).ok());
  EXPECT_EQ(count, 0);

  ProtoWriter scalar;
  scalar.int_field(2, 7);
  ASSERT_TRUE(parse(scalar, t).ok());
  ASSERT_TRUE(t.element_count(count).ok());
  EXPECT_EQ(count, 1);

  // the byte size counts: 2^38 float32 elements are 2^40 bytes, one element more is past the default limit
  ProtoWriter at_bytes;
  at_bytes.int_field(1, static_cast<std::int64_t>(ONNXMICRO_MAX_TENSOR_BYTES / 4)).int_field(2, 1);
  ASSERT_TRUE(parse(at_bytes, t).ok());
  EXPECT_TRUE(t.element_count(count).ok());
  ProtoWriter past_bytes;
  past_bytes.int_field(1, static_cast<std::int64_t>(ONNXMICRO_MAX_TENSOR_BYTES / 4 + 1)).int_field(2, 1);
  ASSERT_TRUE(parse(past_bytes, t).ok());
  EXPECT_EQ(t.element_count(count).code(), StatusCode::limit_exceeded);
}

// ---- AttributeProto ---------------------------------------------------------------------------------------

TEST(ProtoAttribute, EveryTypeWithTypeField) {
  std::deque<ProtoWriter> kept;  // views point into the bytes: keep every message alive
  auto hold = [&kept](ProtoWriter w) -> const ProtoWriter& {
    kept.push_back(std::move(w));
    return kept.back();
  };
  proto::Attribute a;
  ASSERT_TRUE(parse(hold(make_attribute_float("alpha", 0.25f)), a).ok());
  EXPECT_EQ(a.name, "alpha");
  EXPECT_EQ(a.type, proto::AttributeType::float_);
  EXPECT_EQ(a.f, 0.25f);

  ASSERT_TRUE(parse(hold(make_attribute_int("axis", -3)), a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::int_);
  EXPECT_EQ(a.i, -3);

  ASSERT_TRUE(parse(hold(make_attribute_string("mode", "nearest")), a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::string);
  EXPECT_EQ(proto::as_string_view(a.s), "nearest");

  ASSERT_TRUE(parse(hold(make_attribute_tensor("value", make_float_tensor("c", {1}, {4.5f}))), a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::tensor);
  proto::Tensor t = proto::Tensor::unchecked(a.t);
  EXPECT_EQ(t.name, "c");
  EXPECT_EQ(decode<float>(t, 1), (std::vector<float>{4.5f}));

  ASSERT_TRUE(
      parse(hold(make_attribute_graph("body", make_graph("inner", {make_node("Relu", {"x"}, {"y"})}, {}, {}))), a)
          .ok());
  EXPECT_EQ(a.type, proto::AttributeType::graph);
  proto::Graph g = proto::Graph::unchecked(a.g);
  EXPECT_EQ(g.name, "inner");
  EXPECT_EQ(g.nodes()[0].op_type, "Relu");

  ASSERT_TRUE(parse(hold(make_attribute_floats("scales", {1, 2.5f})), a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::floats);
  EXPECT_EQ(collect(a.floats()), (std::vector<float>{1, 2.5f}));

  ASSERT_TRUE(parse(hold(make_attribute_ints("pads", {0, 1, -1})), a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::ints);
  EXPECT_EQ(collect(a.ints()), (std::vector<std::int64_t>{0, 1, -1}));

  ASSERT_TRUE(parse(hold(make_attribute_strings("names", {"a", "bc"})), a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::strings);
  ASSERT_EQ(a.strings().size(), 2u);
  EXPECT_EQ(a.strings()[1], "bc");

  ASSERT_TRUE(
      parse(hold(make_attribute_tensors("ts", {make_float_tensor("t0", {1}, {1}), make_int64_tensor("t1", {1}, {2})})),
            a)
          .ok());
  EXPECT_EQ(a.type, proto::AttributeType::tensors);
  ASSERT_EQ(a.tensors().size(), 2u);
  EXPECT_EQ(a.tensors()[1].name, "t1");

  ASSERT_TRUE(
      parse(hold(make_attribute_graphs("gs", {make_graph("g0", {}, {}, {}), make_graph("g1", {}, {}, {})})), a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::graphs);
  ASSERT_EQ(a.graphs().size(), 2u);
  EXPECT_EQ(proto::Graph::unchecked(a.graphs()[1]).name, "g1");

  ProtoWriter tp = attribute_head("tp");
  tp.message_field(14, make_tensor_type(DataType::int64, {2})).int_field(20, 13);
  ASSERT_TRUE(parse(tp, a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::type_proto);

  ProtoWriter tps = attribute_head("tps");
  tps.message_field(15, make_tensor_type(DataType::int64, {2})).int_field(20, 14);
  ASSERT_TRUE(parse(tps, a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::type_protos);

  ProtoWriter sparse;
  sparse.message_field(1, make_float_tensor("values", {2}, {1, 2}))
      .message_field(2, make_int64_tensor("indices", {2}, {0, 3}))
      .packed_varints(3, {4});
  ProtoWriter sp = attribute_head("sp");
  sp.message_field(22, sparse).int_field(20, 11);
  ASSERT_TRUE(parse(sp, a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::sparse_tensor);
  ProtoWriter sps = attribute_head("sps");
  sps.message_field(23, sparse).int_field(20, 12);
  ASSERT_TRUE(parse(sps, a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::sparse_tensors);

  ProtoWriter ref = attribute_head("alpha");
  ref.string_field(21, "outer_alpha").int_field(20, 1);
  ASSERT_TRUE(parse(ref, a).ok());
  EXPECT_EQ(a.ref_attr_name, "outer_alpha");
}

TEST(ProtoAttribute, TypeInferredWhenTypeFieldAbsent) {
  proto::Attribute a;
  struct Case {
    ProtoWriter bytes;
    proto::AttributeType expected;
  };
  ProtoWriter tp = attribute_head("tp");
  tp.message_field(14, make_tensor_type(DataType::int64, {2}));
  ProtoWriter tps = attribute_head("tps");
  tps.message_field(15, make_tensor_type(DataType::int64, {2}));
  ProtoWriter sparse;
  sparse.message_field(1, make_float_tensor("values", {1}, {1}));
  ProtoWriter sp = attribute_head("sp");
  sp.message_field(22, sparse);
  ProtoWriter sps = attribute_head("sps");
  sps.message_field(23, sparse);
  const std::vector<Case> cases = {
      {make_attribute_float("a", 1, false), proto::AttributeType::float_},
      {make_attribute_int("a", 1, false), proto::AttributeType::int_},
      {make_attribute_string("a", "s", false), proto::AttributeType::string},
      {make_attribute_tensor("a", make_float_tensor("t", {1}, {1}), false), proto::AttributeType::tensor},
      {make_attribute_graph("a", make_graph("g", {}, {}, {}), false), proto::AttributeType::graph},
      {make_attribute_floats("a", {1, 2}, false), proto::AttributeType::floats},
      {make_attribute_ints("a", {1, 2}, false), proto::AttributeType::ints},
      {make_attribute_strings("a", {"x"}, false), proto::AttributeType::strings},
      {make_attribute_tensors("a", {make_float_tensor("t", {1}, {1})}, false), proto::AttributeType::tensors},
      {make_attribute_graphs("a", {make_graph("g", {}, {}, {})}, false), proto::AttributeType::graphs},
      {tp, proto::AttributeType::type_proto},
      {tps, proto::AttributeType::type_protos},
      {sp, proto::AttributeType::sparse_tensor},
      {sps, proto::AttributeType::sparse_tensors},
  };
  for (const Case& c : cases) {
    ASSERT_TRUE(parse(c.bytes, a).ok());
    EXPECT_EQ(a.type, c.expected) << proto::attribute_type_name(c.expected);
  }
  // No value at all (e.g. an empty list in IR v1): nothing to infer.
  ASSERT_TRUE(parse(attribute_head("empty"), a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::undefined);
  // Values of two kinds: ambiguous, left undefined.
  ProtoWriter two = make_attribute_int("two", 1, false);
  two.float_field(2, 1.0f);
  ASSERT_TRUE(parse(two, a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::undefined);
  // An unknown enum value is ignored (closed enum), so the value decides.
  ProtoWriter unknown = make_attribute_int("u", 5, false);
  unknown.int_field(20, 99);
  ASSERT_TRUE(parse(unknown, a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::int_);
  // An explicit type wins over inference, even when it disagrees with the value present.
  ProtoWriter explicit_type = make_attribute_ints("e", {}, true);
  ASSERT_TRUE(parse(explicit_type, a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::ints);
  EXPECT_EQ(a.ints().size(), 0u);
  ProtoWriter disagreeing = make_attribute_int("d", 3, false);
  disagreeing.int_field(20, 1);  // FLOAT
  ASSERT_TRUE(parse(disagreeing, a).ok());
  EXPECT_EQ(a.type, proto::AttributeType::float_);
  EXPECT_EQ(a.i, 3);
}

TEST(ProtoAttribute, TypeNamesAsInTheSpec) {
  using AT = proto::AttributeType;
  EXPECT_STREQ(proto::attribute_type_name(AT::undefined), "UNDEFINED");
  EXPECT_STREQ(proto::attribute_type_name(AT::float_), "FLOAT");
  EXPECT_STREQ(proto::attribute_type_name(AT::int_), "INT");
  EXPECT_STREQ(proto::attribute_type_name(AT::string), "STRING");
  EXPECT_STREQ(proto::attribute_type_name(AT::tensor), "TENSOR");
  EXPECT_STREQ(proto::attribute_type_name(AT::graph), "GRAPH");
  EXPECT_STREQ(proto::attribute_type_name(AT::sparse_tensor), "SPARSE_TENSOR");
  EXPECT_STREQ(proto::attribute_type_name(AT::type_proto), "TYPE_PROTO");
  EXPECT_STREQ(proto::attribute_type_name(AT::floats), "FLOATS");
  EXPECT_STREQ(proto::attribute_type_name(AT::ints), "INTS");
  EXPECT_STREQ(proto::attribute_type_name(AT::strings), "STRINGS");
  EXPECT_STREQ(proto::attribute_type_name(AT::tensors), "TENSORS");
  EXPECT_STREQ(proto::attribute_type_name(AT::graphs), "GRAPHS");
  EXPECT_STREQ(proto::attribute_type_name(AT::sparse_tensors), "SPARSE_TENSORS");
  EXPECT_STREQ(proto::attribute_type_name(AT::type_protos), "TYPE_PROTOS");
}

TEST(ProtoAttribute, NestedTensorErrorsCarryThePath) {
  ProtoWriter bad_tensor;
  bad_tensor.int_field(1, -1).int_field(2, 1).string_field(8, "c");
  ProtoWriter node = make_node("Constant", {}, {"y"}, {make_attribute_tensor("value", bad_tensor)});
  proto::Node n;
  Status s = parse(node, n);
  EXPECT_EQ(std::string(s.message()), "attribute[0].t (TensorProto 'c'): dims[0] is negative (-1)");
}

TEST(ProtoNode, FindAttributeByName) {
  ProtoWriter node = make_node("Conv", {"x", "w"}, {"y"},
                               {make_attribute_ints("kernel_shape", {3, 3}), make_attribute_int("group", 2),
                                make_attribute_string("auto_pad", "SAME_UPPER")},
                               "conv1", "ai.onnx");
  proto::Node n;
  ASSERT_TRUE(parse(node, n).ok());
  EXPECT_EQ(n.name, "conv1");
  EXPECT_EQ(n.domain, "ai.onnx");
  proto::Attribute a;
  ASSERT_TRUE(n.find_attribute("group", a));
  EXPECT_EQ(a.i, 2);
  ASSERT_TRUE(n.find_attribute("kernel_shape", a));
  EXPECT_EQ(collect(a.ints()), (std::vector<std::int64_t>{3, 3}));
  EXPECT_FALSE(n.find_attribute("strides", a));
  EXPECT_FALSE(n.find_attribute("", a));
}

// ---- TypeProto / ValueInfoProto ---------------------------------------------------------------------------

TEST(ProtoType, TensorShapeWithValuesParamsAndUnknownDims) {
  ProtoWriter unknown_dim;  // neither dim_value nor dim_param
  ProtoWriter shape;
  shape.message_field(1, ProtoWriter().int_field(1, 3))
      .message_field(1, ProtoWriter().string_field(2, "batch"))
      .message_field(1, unknown_dim);
  ProtoWriter tensor_type;
  tensor_type.int_field(1, 1).message_field(2, shape);
  ProtoWriter type;
  type.message_field(1, tensor_type).string_field(6, "IMAGE");
  ProtoWriter v;
  v.string_field(1, "input").message_field(2, type).string_field(3, "doc");
  proto::ValueInfo info;
  ASSERT_TRUE(parse(v, info).ok());
  EXPECT_EQ(info.name, "input");
  ASSERT_TRUE(info.has_type);
  EXPECT_EQ(info.type.kind, proto::Type::Kind::tensor);
  EXPECT_EQ(info.type.elem_type, 1);
  ASSERT_TRUE(info.type.has_shape);
  std::vector<proto::Dimension> dims(info.type.shape.dims().begin(), info.type.shape.dims().end());
  ASSERT_EQ(dims.size(), 3u);
  EXPECT_TRUE(dims[0].has_value);
  EXPECT_EQ(dims[0].value, 3);
  EXPECT_FALSE(dims[1].has_value);
  EXPECT_EQ(dims[1].param, "batch");
  EXPECT_FALSE(dims[2].has_value);
  EXPECT_EQ(dims[2].param, "");

  ProtoWriter no_shape;
  no_shape.string_field(1, "x").message_field(2, make_tensor_type(DataType::int64, {}, false));
  ASSERT_TRUE(parse(no_shape, info).ok());
  EXPECT_FALSE(info.type.has_shape);
  EXPECT_EQ(info.type.elem_type, 7);

  ProtoWriter untyped;
  untyped.string_field(1, "x");
  ASSERT_TRUE(parse(untyped, info).ok());
  EXPECT_FALSE(info.has_type);
}

TEST(ProtoType, SequenceMapOptionalAndSparse) {
  ProtoWriter seq_inner;
  seq_inner.message_field(1, make_tensor_type(DataType::float32, {2}));
  ProtoWriter seq;
  seq.message_field(4, seq_inner);
  proto::Type t;
  ASSERT_TRUE(parse(seq, t).ok());
  EXPECT_EQ(t.kind, proto::Type::Kind::sequence);
  proto::Type element = t.element();
  EXPECT_EQ(element.kind, proto::Type::Kind::tensor);
  EXPECT_EQ(element.elem_type, 1);

  ProtoWriter map_inner;
  map_inner.int_field(1, 7).message_field(2, seq);
  ProtoWriter map;
  map.message_field(5, map_inner);
  ASSERT_TRUE(parse(map, t).ok());
  EXPECT_EQ(t.kind, proto::Type::Kind::map);
  EXPECT_EQ(t.map_key_type, 7);
  EXPECT_EQ(t.element().kind, proto::Type::Kind::sequence);
  EXPECT_EQ(t.element().element().elem_type, 1);

  ProtoWriter opt;
  opt.message_field(9, seq_inner);
  ASSERT_TRUE(parse(opt, t).ok());
  EXPECT_EQ(t.kind, proto::Type::Kind::optional);
  EXPECT_EQ(t.element().kind, proto::Type::Kind::tensor);

  ProtoWriter sparse_inner;
  sparse_inner.int_field(1, 1).message_field(2, ProtoWriter().message_field(1, ProtoWriter().int_field(1, 10)));
  ProtoWriter sparse;
  sparse.message_field(8, sparse_inner);
  ASSERT_TRUE(parse(sparse, t).ok());
  EXPECT_EQ(t.kind, proto::Type::Kind::sparse_tensor);
  EXPECT_TRUE(t.has_shape);
  EXPECT_EQ(t.shape.dims()[0].value, 10);

  ProtoWriter opaque;
  opaque.message_field(7, ProtoWriter().string_field(1, "custom").string_field(2, "thing"));
  ASSERT_TRUE(parse(opaque, t).ok());
  EXPECT_EQ(t.kind, proto::Type::Kind::unknown);

  // oneof: the last value field written decides, earlier ones are cleared.
  ProtoWriter both = make_tensor_type(DataType::int8, {4});
  both.message_field(4, seq_inner);
  ASSERT_TRUE(parse(both, t).ok());
  EXPECT_EQ(t.kind, proto::Type::Kind::sequence);
  EXPECT_EQ(t.elem_type, 0);
  EXPECT_FALSE(t.has_shape);
  for (std::uint32_t field : {5u, 7u, 9u}) {  // map, opaque, optional after a tensor type
    ProtoWriter then_other = make_tensor_type(DataType::int8, {4});
    then_other.message_field(field, field == 5 ? map_inner : field == 9 ? seq_inner : ProtoWriter());
    ASSERT_TRUE(parse(then_other, t).ok());
    EXPECT_EQ(t.elem_type, 0) << field;
    EXPECT_FALSE(t.has_shape) << field;
  }
  ProtoWriter map_then_tensor = map;
  map_then_tensor.append(make_tensor_type(DataType::int8, {4}));
  ASSERT_TRUE(parse(map_then_tensor, t).ok());
  EXPECT_EQ(t.kind, proto::Type::Kind::tensor);
  EXPECT_EQ(t.map_key_type, 0);
}

TEST(ProtoType, NestedTypeErrorsCarryThePath) {
  ProtoWriter bad_dim;
  bad_dim.tag(1, Wire::varint).raw_bytes({0xff});
  ProtoWriter shape;
  shape.message_field(1, bad_dim);
  ProtoWriter tensor_type;
  tensor_type.int_field(1, 1).message_field(2, shape);
  ProtoWriter inner;
  inner.message_field(1, tensor_type);
  ProtoWriter seq;
  seq.message_field(1, inner);
  ProtoWriter type;
  type.message_field(4, seq);
  ProtoWriter v;
  v.string_field(1, "x").message_field(2, type);
  proto::ValueInfo info;
  Status s = parse(v, info);
  EXPECT_EQ(std::string(s.message()),
            "type.sequence_type.elem_type.tensor_type.shape.dim[0] (TensorShapeProto.Dimension): varint truncated at "
            "byte " +
                std::to_string(offset_of(v, bad_dim) + 1) + " (field 1)");
}

// ---- GraphProto / ModelProto ------------------------------------------------------------------------------

TEST(ProtoGraph, InitializerAndSparseErrorsCarryThePath) {
  ProtoWriter bad_init;
  bad_init.int_field(1, -1).int_field(2, 1).string_field(8, "w");
  ProtoWriter graph = make_graph("g", {}, {}, {}, {make_float_tensor("ok", {1}, {1}), bad_init});
  proto::Model m;
  Status s = proto::Model::parse(make_model(graph).span(), m);
  EXPECT_EQ(std::string(s.message()), "graph.initializer[1] (TensorProto 'w'): dims[0] is negative (-1)");

  ProtoWriter bad_values;
  bad_values.int_field(2, 1).tag(4, Wire::fixed32).raw_bytes({0, 0});
  ProtoWriter sparse;
  sparse.message_field(1, bad_values);
  ProtoWriter sparse_graph = make_graph("g", {}, {}, {});
  sparse_graph.message_field(15, sparse);
  s = proto::Model::parse(make_model(sparse_graph).span(), m);
  EXPECT_TRUE(contains(s, "graph.sparse_initializer[0].values (TensorProto): fixed32 truncated")) << s.message();

  ProtoWriter good_sparse;
  good_sparse.message_field(1, make_float_tensor("v", {1}, {1}))
      .message_field(2, make_int64_tensor("i", {1}, {0}))
      .packed_varints(3, {3});
  ProtoWriter annotated = make_graph("g", {}, {}, {});
  annotated.message_field(15, good_sparse);
  ProtoWriter annotation;
  annotation.string_field(1, "x").message_field(2, ProtoWriter().string_field(1, "SCALE_TENSOR").string_field(2, "s"));
  annotated.message_field(14, annotation);
  ASSERT_TRUE(proto::Model::parse(make_model(annotated).span(), m).ok());
  EXPECT_TRUE(m.graph.has_sparse_initializers);

  ProtoWriter bad_annotation;
  bad_annotation.message_field(2, ProtoWriter().tag(1, Wire::length_delimited).raw_varint(9));
  ProtoWriter annotated_bad = make_graph("g", {}, {}, {});
  annotated_bad.message_field(14, bad_annotation);
  s = proto::Model::parse(make_model(annotated_bad).span(), m);
  EXPECT_TRUE(contains(s, "graph.quantization_annotation[0].quant_parameter_tensor_names[0] (StringStringEntryProto)"))
      << s.message();
}

TEST(ProtoModel, TrainingInfoGraphsValidatedLikeAnyGraph) {
  // Training graphs are never run, but a malformed one fails the load as protobuf would fail the parse.
  ProtoWriter fine_graph = make_graph("init", {}, {}, {});
  ProtoWriter training;
  training.message_field(1, fine_graph);
  ProtoWriter model = make_model(make_graph("g", {}, {}, {}));
  model.message_field(20, training);
  proto::Model m;
  Status s = proto::Model::parse(model.span(), m);
  EXPECT_TRUE(s.ok()) << s.message();

  ProtoWriter broken_graph;  // a node field whose length runs past the end of the graph
  broken_graph.tag(1, Wire::length_delimited).raw_varint(50);
  ProtoWriter broken_training;
  broken_training.message_field(2, broken_graph);
  ProtoWriter bad = make_model(make_graph("g", {}, {}, {}));
  bad.message_field(20, training).message_field(20, broken_training);
  s = proto::Model::parse(bad.span(), m);
  EXPECT_EQ(s.code(), StatusCode::invalid_model);
  EXPECT_TRUE(contains(s, "training_info[1].algorithm")) << s.message();
  EXPECT_TRUE(contains(s, "length 50")) << s.message();

  ProtoWriter rank9;  // stricter than protobuf, as everywhere: a tensor of rank 9 is over ONNXMICRO_MAX_RANK
  for (int i = 0; i < 9; ++i) rank9.int_field(1, 1);
  ProtoWriter weird_graph;
  weird_graph.message_field(5, rank9);
  ProtoWriter weird_training;
  weird_training.message_field(1, weird_graph);
  ProtoWriter weird = make_model(make_graph("g", {}, {}, {}));
  weird.message_field(20, weird_training);
  s = proto::Model::parse(weird.span(), m);
  EXPECT_EQ(s.code(), StatusCode::limit_exceeded);
  EXPECT_TRUE(contains(s, "training_info[0].initialization")) << s.message();
}

TEST(ProtoModel, NodeDeviceConfigurationsValidatedLikeProtobuf) {
  ProtoWriter sharding;
  sharding.string_field(1, "x").tag(2, Wire::length_delimited).raw_varint(1).raw_bytes({0x80});
  ProtoWriter config;
  config.string_field(1, "cfg").message_field(2, sharding);
  ProtoWriter node = make_node("Relu", {"x"}, {"y"});
  node.message_field(10, config);
  proto::Node n;
  Status s = parse(node, n);
  EXPECT_TRUE(contains(s, "device_configurations[0].sharding_spec[0] (ShardingSpecProto): varint truncated"))
      << s.message();
}

/// A model laid out like an exporter writes one: a small CNN classifier (Conv, Relu, Flatten, Gemm) with raw
/// and typed initializers, symbolic batch dims, value_info, metadata and two opset imports.
ProtoWriter tiny_cnn_model() {
  const std::vector<float> conv_w = {0, 1, 0, 1, -4, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  const std::vector<float> conv_b = {0.5f, -0.5f};
  std::vector<float> fc_w(3 * 32);
  for (std::size_t i = 0; i < fc_w.size(); ++i) fc_w[i] = static_cast<float>(i) / 10.0f;
  ProtoWriter graph = make_graph(
      "main_graph",
      {make_node("Conv", {"input", "conv.weight", "conv.bias"}, {"conv_out"},
                 {make_attribute_ints("dilations", {1, 1}), make_attribute_int("group", 1),
                  make_attribute_ints("kernel_shape", {3, 3}), make_attribute_ints("pads", {1, 1, 1, 1}),
                  make_attribute_ints("strides", {1, 1})},
                 "/conv/Conv"),
       make_node("Relu", {"conv_out"}, {"relu_out"}, {}, "/relu/Relu"),
       make_node("Flatten", {"relu_out"}, {"flat"}, {make_attribute_int("axis", 1)}, "/Flatten"),
       make_node(
           "Gemm", {"flat", "fc.weight", "fc.bias"}, {"output"},
           {make_attribute_float("alpha", 1.0f), make_attribute_float("beta", 1.0f), make_attribute_int("transB", 1)},
           "/fc/Gemm")},
      {make_value_info("input", DataType::float32, {-1, 1, 4, 4})},
      {make_value_info("output", DataType::float32, {-1, 3})},
      {make_tensor_raw("conv.weight", DataType::float32, {2, 1, 3, 3}, conv_w),
       make_tensor_raw("conv.bias", DataType::float32, {2}, conv_b), make_float_tensor("fc.weight", {3, 32}, fc_w),
       make_float_tensor("fc.bias", {3}, {0.1f, 0.2f, 0.3f})});
  graph.message_field(13, make_value_info("conv_out", DataType::float32, {-1, 2, 4, 4}));
  ProtoWriter model = make_model(graph, 17, 8, {make_opset("", 17), make_opset("com.microsoft", 1)});
  model.string_field(3, "2.1.0").string_field(6, "tiny classifier");
  model.message_field(14, ProtoWriter().string_field(1, "author").string_field(2, "tests"));
  return model;
}

TEST(ProtoModel, ParsesAnExporterStyleModel) {
  ProtoWriter bytes = tiny_cnn_model();
  proto::Model m;
  Status s = proto::Model::parse(bytes.span(), m);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(m.ir_version, 8);
  EXPECT_EQ(m.producer_name, "onnxmicro-tests");
  EXPECT_EQ(m.producer_version, "2.1.0");
  EXPECT_EQ(m.doc_string, "tiny classifier");
  ASSERT_EQ(m.opset_imports().size(), 2u);
  EXPECT_EQ(m.opset_imports()[0].domain, "");
  EXPECT_EQ(m.opset_imports()[0].version, 17);
  EXPECT_EQ(m.opset_imports()[1].domain, "com.microsoft");
  EXPECT_EQ(m.metadata_props()[0].key, "author");
  EXPECT_EQ(m.functions().size(), 0u);
  ASSERT_TRUE(m.has_graph);
  EXPECT_EQ(m.graph.name, "main_graph");
  EXPECT_FALSE(m.graph.has_sparse_initializers);

  std::vector<std::string> ops;
  for (const proto::Node& n : m.graph.nodes()) ops.emplace_back(n.op_type);
  EXPECT_EQ(ops, (std::vector<std::string>{"Conv", "Relu", "Flatten", "Gemm"}));
  proto::Node conv = m.graph.nodes()[0];
  EXPECT_EQ(conv.name, "/conv/Conv");
  EXPECT_EQ(conv.inputs().size(), 3u);
  EXPECT_EQ(conv.inputs()[1], "conv.weight");
  proto::Attribute a;
  ASSERT_TRUE(conv.find_attribute("pads", a));
  EXPECT_EQ(a.type, proto::AttributeType::ints);
  EXPECT_EQ(collect(a.ints()), (std::vector<std::int64_t>{1, 1, 1, 1}));
  ASSERT_TRUE(m.graph.nodes()[3].find_attribute("beta", a));
  EXPECT_EQ(a.f, 1.0f);

  std::vector<std::string> init_names;
  for (const proto::Tensor& t : m.graph.initializers()) init_names.emplace_back(t.name);
  EXPECT_EQ(init_names, (std::vector<std::string>{"conv.weight", "conv.bias", "fc.weight", "fc.bias"}));
  proto::Tensor w = m.graph.initializers()[0];
  ASSERT_EQ(w.rank, 4);
  EXPECT_EQ(w.dims[0], 2);
  EXPECT_EQ(w.dims[3], 3);
  std::vector<float> conv_w = decode<float>(w, 18);
  EXPECT_EQ(conv_w[4], -4.0f);
  proto::Tensor fc = m.graph.initializers()[2];
  EXPECT_EQ(fc.typed_data_field, 4u);
  std::vector<float> fc_w = decode<float>(fc, 96);
  EXPECT_FLOAT_EQ(fc_w[95], 9.5f);

  proto::ValueInfo input = m.graph.inputs()[0];
  EXPECT_EQ(input.name, "input");
  EXPECT_EQ(input.type.elem_type, 1);
  std::vector<proto::Dimension> dims(input.type.shape.dims().begin(), input.type.shape.dims().end());
  ASSERT_EQ(dims.size(), 4u);
  EXPECT_EQ(dims[0].param, "N0");
  EXPECT_EQ(dims[2].value, 4);
  EXPECT_EQ(m.graph.outputs()[0].name, "output");
  EXPECT_EQ(m.graph.value_infos()[0].name, "conv_out");

  // Every prefix of the model is either valid (cut between top-level fields) or rejected with invalid_model:
  // never a crash, never another code.
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    s = proto::Model::parse(ByteSpan(bytes.bytes().data(), n), m);
    if (!s.ok()) {
      EXPECT_EQ(s.code(), StatusCode::invalid_model) << n << ": " << s.message();
    }
  }
}

TEST(ProtoModel, FunctionsAreValidatedAndReadable) {
  ProtoWriter function;
  function.string_field(1, "MyRelu")
      .repeated_strings(4, {"x"})
      .repeated_strings(5, {"y"})
      .repeated_strings(6, {"alpha"})
      .message_field(7, make_node("Relu", {"x"}, {"y"}))
      .message_field(9, make_opset("", 17))
      .string_field(10, "custom")
      .message_field(11, make_attribute_float("alpha", 0.5f));
  ProtoWriter model = make_model(make_graph("g", {make_node("MyRelu", {"a"}, {"b"}, {}, "", "custom")}, {}, {}), 17, 8,
                                 {make_opset("", 17), make_opset("custom", 1)});
  model.message_field(25, function);
  proto::Model m;
  ASSERT_TRUE(proto::Model::parse(model.span(), m).ok());
  ASSERT_EQ(m.functions().size(), 1u);
  proto::Function f = m.functions()[0];
  EXPECT_EQ(f.name, "MyRelu");
  EXPECT_EQ(f.domain, "custom");
  EXPECT_EQ(f.inputs()[0], "x");
  EXPECT_EQ(f.attribute_names()[0], "alpha");
  EXPECT_EQ(f.nodes()[0].op_type, "Relu");
  EXPECT_EQ(f.opset_imports()[0].version, 17);
  EXPECT_EQ(f.attribute_defaults()[0].f, 0.5f);

  ProtoWriter bad_function = function;
  bad_function.message_field(7, ProtoWriter().tag(5, Wire::length_delimited).raw_varint(3));
  ProtoWriter bad_model = make_model(make_graph("g", {}, {}, {}));
  bad_model.message_field(25, bad_function);
  Status s = proto::Model::parse(bad_model.span(), m);
  EXPECT_TRUE(contains(s, "functions[0].node[1] (NodeProto): length 3")) << s.message();
}

TEST(ProtoModel, ModelWithoutGraphParses) {
  ProtoWriter model;
  model.int_field(1, 3).message_field(8, make_opset("", 9));
  proto::Model m;
  ASSERT_TRUE(proto::Model::parse(model.span(), m).ok());
  EXPECT_FALSE(m.has_graph);
  EXPECT_EQ(m.ir_version, 3);
  ASSERT_TRUE(proto::Model::parse(ByteSpan(), m).ok());
  EXPECT_FALSE(m.has_graph);
}

// ---- SequenceProto / OptionalProto ------------------------------------------------------------------------

TEST(ProtoSequence, TensorsMapsAndNestedValues) {
  ProtoWriter seq;
  seq.string_field(1, "s")
      .int_field(2, 1)
      .message_field(3, make_float_tensor("a", {2}, {1, 2}))
      .message_field(3, make_int64_tensor("b", {1}, {7}));
  proto::Sequence s;
  ASSERT_TRUE(parse(seq, s).ok());
  EXPECT_EQ(s.name, "s");
  EXPECT_EQ(s.elem_type, 1);
  ASSERT_EQ(s.tensor_values().size(), 2u);
  EXPECT_EQ(decode<std::int64_t>(s.tensor_values()[1], 1), (std::vector<std::int64_t>{7}));

  ProtoWriter map;
  map.int_field(2, 7).packed_varints(3, {1, 2}).message_field(5, seq);
  ProtoWriter of_maps;
  of_maps.int_field(2, 4).message_field(6, map);
  ASSERT_TRUE(parse(of_maps, s).ok());
  EXPECT_EQ(s.map_values().size(), 1u);

  ProtoWriter bad_map;
  bad_map.int_field(2, 7).tag(3, Wire::length_delimited).raw_varint(1).raw_bytes({0xff});
  ProtoWriter of_bad_maps;
  of_bad_maps.int_field(2, 4).message_field(6, map).message_field(6, bad_map);
  Status st = parse(of_bad_maps, s);
  EXPECT_TRUE(contains(st, "map_values[1] (MapProto): varint truncated")) << st.message();

  ProtoWriter bad_tensor;
  bad_tensor.int_field(1, -2).int_field(2, 1);
  ProtoWriter nested;
  nested.int_field(2, 3).message_field(5, ProtoWriter().int_field(2, 1).message_field(3, bad_tensor));
  st = parse(nested, s);
  EXPECT_EQ(std::string(st.message()), "sequence_values[0].tensor_values[0] (TensorProto): dims[0] is negative (-2)");
}

TEST(ProtoOptional, ValueFollowsElemType) {
  proto::Optional o;
  ProtoWriter with_tensor;
  with_tensor.string_field(1, "o").int_field(2, 1).message_field(3, make_float_tensor("t", {1}, {3}));
  ASSERT_TRUE(parse(with_tensor, o).ok());
  EXPECT_TRUE(o.has_value);
  proto::Tensor t;
  ASSERT_TRUE(proto::Tensor::parse(o.value, 0, t).ok());
  EXPECT_EQ(t.name, "t");

  ProtoWriter empty;
  empty.string_field(1, "o").int_field(2, 1);
  ASSERT_TRUE(parse(empty, o).ok());
  EXPECT_FALSE(o.has_value);

  ProtoWriter mismatched;  // elem_type says tensor, only a sequence is present: empty
  mismatched.int_field(2, 1).message_field(5, ProtoWriter().int_field(2, 1));
  ASSERT_TRUE(parse(mismatched, o).ok());
  EXPECT_FALSE(o.has_value);

  ProtoWriter untyped;
  untyped.message_field(5, ProtoWriter().string_field(1, "inner"));
  ASSERT_TRUE(parse(untyped, o).ok());
  ASSERT_TRUE(o.has_value);
  proto::Sequence inner;
  ASSERT_TRUE(proto::Sequence::parse(o.value, 0, inner).ok());
  EXPECT_EQ(inner.name, "inner");

  ProtoWriter bad;
  bad.int_field(2, 5).message_field(7,
                                    ProtoWriter().int_field(2, 1).message_field(3, ProtoWriter().tag(0, Wire::varint)));
  Status s = parse(bad, o);
  EXPECT_TRUE(contains(s, "optional_value.tensor_value (TensorProto): field number 0")) << s.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
