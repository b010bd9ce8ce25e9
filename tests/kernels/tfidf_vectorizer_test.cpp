// SPDX-License-Identifier: MIT
// TfIdfVectorizer beyond the ONNX node suite: IDF and TFIDF with weights, int32 input, skip distances,
// min_gram_length above 1, 2-D string input, and attribute errors.
#include "support/node_runner.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

using namespace onnxmicro_test::node_runner;
using onnxmicro_test::make_attribute_floats;
using onnxmicro_test::make_attribute_int;
using onnxmicro_test::make_attribute_ints;
using onnxmicro_test::make_attribute_string;
using onnxmicro_test::make_attribute_strings;
using onnxmicro_test::ProtoWriter;

// Pool: unigrams 1, 2, 3 (columns 0..2) and the bigram (1, 2) (column 3).
std::vector<ProtoWriter> int_pool(const char* mode, std::int64_t min_gram, std::int64_t skip, bool weights) {
  std::vector<ProtoWriter> a = {make_attribute_string("mode", mode),
                                make_attribute_int("min_gram_length", min_gram),
                                make_attribute_int("max_gram_length", 2),
                                make_attribute_int("max_skip_count", skip),
                                make_attribute_ints("ngram_counts", {0, 3}),
                                make_attribute_ints("ngram_indexes", {0, 1, 2, 3}),
                                make_attribute_ints("pool_int64s", {1, 2, 3, 1, 2})};
  if (weights) a.push_back(make_attribute_floats("weights", {0.5f, 1.0f, 2.0f, 4.0f}));
  return a;
}

std::vector<float> run_ints(const std::vector<std::int32_t>& x, const std::vector<ProtoWriter>& attributes) {
  NodeRunner node;
  const Status st =
      node.prepare("TfIdfVectorizer", "", 9, {input<std::int32_t>("x", {static_cast<std::int64_t>(x.size())}, x)},
                   DataType::float32, attributes);
  EXPECT_TRUE(st.ok()) << st.message();
  if (!st.ok()) return {};
  EXPECT_TRUE(node.run().ok());
  EXPECT_EQ(node.dims(), (std::vector<std::int64_t>{4}));
  return node.values<float>();
}

TEST(TfIdfVectorizerOp, ModesAndWeightsOnInt32) {
  const std::vector<std::int32_t> x = {1, 2, 1, 2, 3};
  EXPECT_EQ(run_ints(x, int_pool("TF", 1, 0, false)), (std::vector<float>{2, 2, 1, 2}));
  EXPECT_EQ(run_ints(x, int_pool("IDF", 1, 0, false)), (std::vector<float>{1, 1, 1, 1}));
  EXPECT_EQ(run_ints(x, int_pool("IDF", 1, 0, true)), (std::vector<float>{0.5f, 1, 2, 4}));
  EXPECT_EQ(run_ints(x, int_pool("TFIDF", 1, 0, true)), (std::vector<float>{1, 2, 2, 8}));
  EXPECT_EQ(run_ints(x, int_pool("TF", 2, 0, false)), (std::vector<float>{0, 0, 0, 2}));
}

TEST(TfIdfVectorizerOp, SkipDistanceFindsSeparatedBigramsAndCountsUnigramsOnce) {
  EXPECT_EQ(run_ints({1, 9, 2}, int_pool("TF", 1, 0, false)), (std::vector<float>{1, 1, 0, 0}));
  EXPECT_EQ(run_ints({1, 9, 2}, int_pool("TF", 1, 1, false)), (std::vector<float>{1, 1, 0, 1}));
  // Adjacent (skip 0) and one apart (skip 1): (1, 2) twice, (1, 1) is no n-gram.
  EXPECT_EQ(run_ints({1, 1, 2}, int_pool("TF", 1, 1, false)), (std::vector<float>{2, 1, 0, 2}));
}

TEST(TfIdfVectorizerOp, TwoDimensionalStrings) {
  NodeRunner node;
  const Status st =
      node.prepare("TfIdfVectorizer", "", 9, {string_input("x", {2, 2}, {"x", "y", "y", "y"})}, DataType::float32,
                   {make_attribute_string("mode", "TF"), make_attribute_int("min_gram_length", 1),
                    make_attribute_int("max_gram_length", 2), make_attribute_int("max_skip_count", 0),
                    make_attribute_ints("ngram_counts", {0, 2}), make_attribute_ints("ngram_indexes", {2, 0, 1}),
                    make_attribute_strings("pool_strings", {"x", "y", "x", "y"})});
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(node.run().ok());
  EXPECT_EQ(node.dims(), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(node.values<float>(), (std::vector<float>{1, 1, 1, 2, 0, 0}));
}

TEST(TfIdfVectorizerOp, AttributeErrors) {
  NodeRunner bad_mode;
  Status st = bad_mode.prepare("TfIdfVectorizer", "", 9, {input<std::int64_t>("x", {1}, {1})}, DataType::float32,
                               int_pool("BM25", 1, 0, false));
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(contains(st, "attribute 'mode' is \"BM25\"")) << st.message();

  NodeRunner strings_without_pool;
  st = strings_without_pool.prepare("TfIdfVectorizer", "", 9, {string_input("x", {1}, {"a"})}, DataType::float32,
                                    int_pool("TF", 1, 0, false));
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(contains(st, "attribute 'pool_strings' is required for string input")) << st.message();

  NodeRunner few_weights;
  std::vector<ProtoWriter> a = int_pool("TFIDF", 1, 0, false);
  a.push_back(make_attribute_floats("weights", {1.0f}));
  st = few_weights.prepare("TfIdfVectorizer", "", 9, {input<std::int64_t>("x", {1}, {1})}, DataType::float32, a);
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(contains(st, "'weights' has 1 entries, expected 4")) << st.message();
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
