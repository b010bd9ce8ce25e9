// SPDX-License-Identifier: MIT
// String tensors end to end (initializers, inputs, the session's string pool) and the text kernels' behaviour
// the ONNX suite does not pin down: RE2 regex syntax and its errors, Python str.split semantics, stopword
// handling, a string pool that is too small.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::DataType;
using om::Shape;
using om::Status;
using om::StatusCode;
using om::StringRef;
using onnxmicro_test::ProtoWriter;
using namespace onnxmicro_test;

std::vector<StringRef> refs(const std::vector<std::string>& strings) {
  std::vector<StringRef> out;
  for (const std::string& s : strings) out.push_back(StringRef::of(s));
  return out;
}
std::vector<std::string> texts(const om::ConstTensorView& view) {
  std::vector<std::string> out;
  for (std::int64_t i = 0; i < view.element_count(); ++i) out.emplace_back(view.data_as<StringRef>()[i].view());
  return out;
}

ProtoWriter string_tensor(std::string_view name, const std::vector<std::int64_t>& dims,
                          const std::vector<std::string>& values) {
  ProtoWriter t;
  t.packed_varints(1, dims);
  t.int_field(2, static_cast<std::int64_t>(DataType::string));
  t.repeated_strings(6, values);
  t.string_field(8, name);
  return t;
}

/// One node over string input(s) "a" (and "b"), output "y" of `out_dtype`.
struct TextModel {
  std::vector<unsigned char> bytes;
  om::Model model;
  om::Session session;

  Status load(const ProtoWriter& node, std::vector<std::int64_t> a_dims, std::vector<std::int64_t> y_dims,
              DataType out_dtype, std::int64_t opset, const std::vector<ProtoWriter>& initializers = {},
              std::vector<std::int64_t> b_dims = {}) {
    std::vector<ProtoWriter> inputs = {make_value_info("a", DataType::string, a_dims)};
    if (!b_dims.empty()) inputs.push_back(make_value_info("b", DataType::string, b_dims));
    bytes = make_model(make_graph("g", {node}, inputs, {make_value_info("y", out_dtype, y_dims)}, initializers), opset)
                .bytes();
    return model.load(om::ByteSpan(bytes.data(), bytes.size()));
  }
};

bool regex_matches(const std::string& pattern, const std::string& text, Status* prepare_status = nullptr) {
  TextModel m;
  EXPECT_TRUE(m.load(make_node("RegexFullMatch", {"a"}, {"y"}, {make_attribute_string("pattern", pattern)}), {1}, {1},
                     DataType::boolean, 20)
                  .ok());
  Status st = m.session.prepare(m.model, om::all_kernels_registry());
  if (prepare_status != nullptr) *prepare_status = st;
  if (!st.ok()) return false;
  StringRef x = StringRef::of(text);
  EXPECT_TRUE(m.session.set_input(0, om::ConstTensorView(DataType::string, Shape{1}, &x)).ok());
  EXPECT_TRUE(m.session.run().ok());
  return *m.session.output(0).data_as<bool>();
}

TEST(RegexFullMatch, MatchesTheWholeTextOnly) {
  EXPECT_TRUE(regex_matches("ab+c", "abbbc"));
  EXPECT_FALSE(regex_matches("ab+c", "xabbbc"));
  EXPECT_FALSE(regex_matches("ab+c", "abbbcx"));
  EXPECT_TRUE(regex_matches("", ""));
  EXPECT_FALSE(regex_matches("", "a"));
}

TEST(RegexFullMatch, SyntaxSubset) {
  EXPECT_TRUE(regex_matches("(cat|dog)s?", "dogs"));
  EXPECT_TRUE(regex_matches("(?:ab){2,3}", "ababab"));
  EXPECT_FALSE(regex_matches("(?:ab){2,3}", "abababab"));
  EXPECT_TRUE(regex_matches("a{3}", "aaa"));
  EXPECT_FALSE(regex_matches("a{3}", "aa"));
  EXPECT_TRUE(regex_matches("a{2,}", "aaaaa"));
  EXPECT_TRUE(regex_matches("[a-c\\d_]+", "ab3_c"));
  EXPECT_FALSE(regex_matches("[^a-c]+", "xyzb"));
  EXPECT_TRUE(regex_matches("\\w+@\\w+\\.com", "me@mail.com"));
  EXPECT_TRUE(regex_matches("\\bfoo\\b.*", "foo bar"));
  EXPECT_FALSE(regex_matches("\\bfoo\\b.*", "foobar"));
  EXPECT_TRUE(regex_matches("^a.c$", "abc"));
  EXPECT_FALSE(regex_matches("a.c", "a\nc"));    // '.' excludes newline, as in RE2
  EXPECT_TRUE(regex_matches("x{,2}", "x{,2}"));  // RE2: '{' starting no count is a literal
  EXPECT_TRUE(regex_matches("a*?b", "aab"));     // lazy quantifier
}

TEST(RegexFullMatch, LinearTimeOnPathologicalPatterns) {
  // Exponential for a backtracking matcher; the Pike VM takes one pass.
  EXPECT_FALSE(regex_matches("(a*)*(a*)*(a*)*b", std::string(5000, 'a')));
  EXPECT_TRUE(regex_matches("(a|aa)*", std::string(3000, 'a')));
}

TEST(RegexFullMatch, RejectsUnsupportedSyntaxAtPrepare) {
  const std::pair<const char*, const char*> cases[] = {
      {"(ab", "missing ')'"},
      {"ab)", "unmatched ')'"},
      {"*a", "missing argument to repetition operator"},
      {"a**", "bad repetition operator"},
      {"[abc", "missing ']'"},
      {"[z-a]", "bad character class range"},
      {"(?P<n>a)", "unsupported group syntax"},
      {"\\1", "unsupported escape"},
      {"a{1001}", "repetition count above 1000"},
      {"a{3,2}", "m < n"},
  };
  for (const auto& [pattern, message] : cases) {
    Status st;
    regex_matches(pattern, "a", &st);
    EXPECT_EQ(st.code(), StatusCode::invalid_model) << pattern;
    EXPECT_NE(st.message_view().find(message), std::string::npos) << pattern << ": " << st.message();
    EXPECT_NE(st.message_view().find("RegexFullMatch"), std::string::npos) << st.message();  // names the node
  }
}

TEST(RegexFullMatch, RejectsPatternsThatCompileTooLarge) {
  Status st;
  regex_matches("(a{1000}){1000}", "a", &st);
  EXPECT_EQ(st.code(), StatusCode::limit_exceeded) << st.message();
}

std::vector<std::string> split_strings(const std::vector<ProtoWriter>& attributes, const std::string& text) {
  // The input is an initializer (split needs its value at prepare), so its characters live in the model bytes.
  TextModel m;
  ProtoWriter node = make_node("StringSplit", {"c"}, {"y", "n"}, attributes);
  std::vector<unsigned char> bytes =
      make_model(make_graph("g", {node}, {}, {make_value_info("y", DataType::string, {1, -1})},
                            {string_tensor("c", {1}, {text})}),
                 20)
          .bytes();
  EXPECT_TRUE(m.model.load(om::ByteSpan(bytes.data(), bytes.size())).ok());
  Status st = m.session.prepare(m.model, om::all_kernels_registry());
  EXPECT_TRUE(st.ok()) << st.message();
  if (!st.ok()) return {};
  EXPECT_TRUE(m.session.run().ok());
  return texts(m.session.output(0));
}

TEST(StringSplit, FollowsPythonStrSplit) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split_strings({make_attribute_string("delimiter", ",")}, "a,,b,"), (V{"a", "", "b", ""}));
  EXPECT_EQ(split_strings({make_attribute_string("delimiter", "::")}, "a::b:c"), (V{"a", "b:c"}));
  EXPECT_EQ(split_strings({}, "  a \t b  "), (V{"a", "b"}));
  EXPECT_EQ(split_strings({make_attribute_int("maxsplit", 1)}, " a b c "), (V{"a", "b c"}));
  EXPECT_EQ(split_strings({make_attribute_string("delimiter", "-"), make_attribute_int("maxsplit", 1)}, "a-b-c"),
            (V{"a", "b-c"}));
  EXPECT_EQ(split_strings({make_attribute_string("delimiter", "-")}, ""), (V{""}));
}

TEST(StringSplit, NeedsItsInputAtPrepare) {
  TextModel m;
  ASSERT_TRUE(m.load(make_node("StringSplit", {"a"}, {"y", "n"}), {2}, {2, -1}, DataType::string, 20).ok());
  Status st = m.session.prepare(m.model, om::all_kernels_registry());
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_NE(st.message_view().find("must be known at prepare time"), std::string::npos) << st.message();
}

TEST(StringNormalizer, DropsStopwordsThenChangesCase) {
  TextModel m;
  ProtoWriter node = make_node(
      "StringNormalizer", {"c"}, {"y"},
      {make_attribute_string("case_change_action", "UPPER"), make_attribute_strings("stopwords", {"the", "A"})});
  std::vector<unsigned char> bytes =
      make_model(make_graph("g", {node}, {}, {make_value_info("y", DataType::string, {-1})},
                            {string_tensor("c", {4}, {"The", "quick", "a", "fox"})}),
                 10)
          .bytes();
  ASSERT_TRUE(m.model.load(om::ByteSpan(bytes.data(), bytes.size())).ok());
  Status st = m.session.prepare(m.model, om::all_kernels_registry());
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(m.session.run().ok());
  // is_case_sensitive defaults to 0: "The" and "a" are stopwords too.
  EXPECT_EQ(texts(m.session.output(0)), (std::vector<std::string>{"QUICK", "FOX"}));
}

TEST(StringNormalizer, RejectsOtherRanksAndActions) {
  TextModel m;
  ASSERT_TRUE(m.load(make_node("StringNormalizer", {"a"}, {"y"}), {2, 2}, {2, 2}, DataType::string, 10).ok());
  Status st = m.session.prepare(m.model, om::all_kernels_registry());
  EXPECT_NE(st.message_view().find("must have shape [C] or [1, C], got [2,2]"), std::string::npos) << st.message();
  TextModel m2;
  ASSERT_TRUE(
      m2.load(make_node("StringNormalizer", {"a"}, {"y"}, {make_attribute_string("case_change_action", "TITLE")}), {2},
              {2}, DataType::string, 10, {}, {})
          .ok());
  om::StringRef values[2] = {StringRef::of("x"), StringRef::of("y")};
  om::InputValue bound{"a", om::ConstTensorView(DataType::string, Shape{2}, values)};
  om::SessionOptions options;
  options.input_values = om::Span<const om::InputValue>(&bound, 1);
  st = m2.session.prepare(m2.model, om::all_kernels_registry(), options);
  EXPECT_NE(st.message_view().find("'case_change_action' is 'TITLE'"), std::string::npos) << st.message();
}

TEST(StringConcat, BroadcastsAndUsesTheStringPoolPerRun) {
  TextModel m;
  ASSERT_TRUE(m.load(make_node("StringConcat", {"a", "b"}, {"y"}), {2, 1}, {2, 3}, DataType::string, 20, {}, {3}).ok());
  om::SessionOptions options;
  std::vector<char> pool(64);
  options.string_pool = pool.data();
  options.string_pool_bytes = pool.size();
  ASSERT_TRUE(m.session.prepare(m.model, om::all_kernels_registry(), options).ok());
  std::vector<std::string> a = {"x", "yy"}, b = {"1", "22", ""};
  std::vector<StringRef> ra = refs(a), rb = refs(b);
  for (int run = 0; run < 3; ++run) {  // the pool empties at every run: no growth
    ASSERT_TRUE(m.session.set_input(0, om::ConstTensorView(DataType::string, Shape{2, 1}, ra.data())).ok());
    ASSERT_TRUE(m.session.set_input(1, om::ConstTensorView(DataType::string, Shape{3}, rb.data())).ok());
    Status st = m.session.run();
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(texts(m.session.output(0)), (std::vector<std::string>{"x1", "x22", "x", "yy1", "yy22", "yy"}));
  }
  EXPECT_EQ(m.session.string_pool_peak(), 2u + 3u + 1u + 3u + 4u + 2u);
}

TEST(StringConcat, PoolTooSmallIsAClearRunError) {
  TextModel m;
  ASSERT_TRUE(
      m.load(make_node("StringConcat", {"a", "b"}, {"y"}, {}, "joiner"), {1}, {1}, DataType::string, 20, {}, {1}).ok());
  om::SessionOptions options;
  char pool[4];
  options.string_pool = pool;
  options.string_pool_bytes = sizeof(pool);
  ASSERT_TRUE(m.session.prepare(m.model, om::all_kernels_registry(), options).ok());
  StringRef a = StringRef::of("hello"), b = StringRef::of("world");
  ASSERT_TRUE(m.session.set_input(0, om::ConstTensorView(DataType::string, Shape{1}, &a)).ok());
  ASSERT_TRUE(m.session.set_input(1, om::ConstTensorView(DataType::string, Shape{1}, &b)).ok());
  Status st = m.session.run();
  EXPECT_EQ(st.code(), StatusCode::out_of_memory);
  EXPECT_NE(st.message_view().find("node 'joiner' (StringConcat"), std::string::npos) << st.message();
  EXPECT_NE(st.message_view().find("10 more bytes needed, capacity 4"), std::string::npos) << st.message();
}

TEST(StringTensors, InitializersAreViewsIntoTheModelAndEqualComparesBytes) {
  TextModel m;
  ASSERT_TRUE(m.load(make_node("Equal", {"a", "w"}, {"y"}), {3}, {3}, DataType::boolean, 19,
                     {string_tensor("w", {3}, {"x", "", "\xc3\xa9"})})
                  .ok());
  ASSERT_TRUE(m.session.prepare(m.model, om::all_kernels_registry()).ok());
  std::vector<std::string> a = {"x", "", "e"};
  std::vector<StringRef> ra = refs(a);
  ASSERT_TRUE(m.session.set_input(0, om::ConstTensorView(DataType::string, Shape{3}, ra.data())).ok());
  ASSERT_TRUE(m.session.run().ok());
  const bool* y = m.session.output(0).data_as<bool>();
  EXPECT_TRUE(y[0]);
  EXPECT_TRUE(y[1]);
  EXPECT_FALSE(y[2]);
}

TEST(StringTensors, EqualBeforeOpset19RejectsStrings) {
  TextModel m;
  ASSERT_TRUE(m.load(make_node("Equal", {"a", "b"}, {"y"}), {1}, {1}, DataType::boolean, 13, {}, {1}).ok());
  Status st = m.session.prepare(m.model, om::all_kernels_registry());
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_NE(st.message_view().find("dtype string"), std::string::npos) << st.message();
}

TEST(StringTensors, StringCountMustMatchTheDims) {
  TextModel m;
  Status st = m.load(make_node("Identity", {"w"}, {"y"}), {1}, {2}, DataType::string, 13,
                     {string_tensor("w", {2}, {"only one"})});
  EXPECT_EQ(st.code(), om::StatusCode::invalid_model);
  EXPECT_NE(st.message_view().find("initializer 'w'"), std::string::npos) << st.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
