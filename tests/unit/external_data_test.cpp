// SPDX-License-Identifier: MIT
// External data of initializers: files mapped at Model::load (one mapping per file, unmapped with the Model),
// values after prepare+run, every location attack refused with a message naming the tensor, the reader
// interface, checksums, offsets beyond 2 GiB, and (when ctest provides one) a model the onnx package saved.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

#if ONNXMICRO_HAS_FILESYSTEM
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
namespace fs = std::filesystem;
using namespace onnxmicro_test;
using om::ByteSpan;
using om::ConstTensorView;
using om::Model;
using om::ModelBytes;
using om::Session;
using om::Shape;
using om::Status;
using om::StatusCode;

std::string text_of(const Status& s) { return std::string(s.message_view()); }

// ---- model builders ---------------------------------------------------------------------------------------

struct External {
  std::string location;
  std::string offset;  ///< "" leaves the key out
  std::string length;  ///< "" leaves the key out
  std::string checksum;
};

ProtoWriter entry(std::string_view key, std::string_view value) {
  ProtoWriter e;
  e.string_field(1, key);
  e.string_field(2, value);
  return e;
}

/// TensorProto with data_location EXTERNAL and the given external_data entries.
ProtoWriter external_tensor(std::string_view name, DataType dtype, const std::vector<std::int64_t>& dims,
                            const External& ext) {
  ProtoWriter t;
  for (std::int64_t d : dims) t.int_field(1, d);
  t.int_field(2, static_cast<std::int64_t>(dtype));
  t.string_field(8, name);
  t.message_field(13, entry("location", ext.location));
  if (!ext.offset.empty()) t.message_field(13, entry("offset", ext.offset));
  if (!ext.length.empty()) t.message_field(13, entry("length", ext.length));
  if (!ext.checksum.empty()) t.message_field(13, entry("checksum", ext.checksum));
  t.int_field(14, 1);
  return t;
}

/// y = MatMul(x, A) + B with x, A, B float [2,2]; A and B are the given initializers.
std::vector<unsigned char> matmul_add_model(const ProtoWriter& a, const ProtoWriter& b) {
  return make_model(make_graph("g",
                               {make_node("MatMul", {"x", "A"}, {"t"}, {}, "mm"),
                                make_node("Add", {"t", "B"}, {"y"}, {}, "add")},
                               {make_value_info("x", DataType::float32, {2, 2})},
                               {make_value_info("y", DataType::float32, {2, 2})}, {a, b}),
                    13)
      .bytes();
}

/// y = Identity(W) for one initializer W (any dtype and shape).
std::vector<unsigned char> identity_model(const ProtoWriter& w, DataType dtype, const std::vector<std::int64_t>& dims) {
  return make_model(make_graph("g", {make_node("Identity", {"W"}, {"y"}, {}, "id")}, {},
                               {make_value_info("y", dtype, dims)}, {w}),
                    13)
      .bytes();
}

const std::vector<float> kA = {1.5f, -2.0f, 0.25f, 4.0f};
const std::vector<float> kB = {10.0f, 20.0f, -30.0f, 0.5f};
const std::vector<float> kX = {1.0f, 2.0f, -3.0f, 0.5f};

std::vector<float> expected_matmul_add() {
  std::vector<float> y(4);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) y[i * 2 + j] = kX[i * 2] * kA[j] + kX[i * 2 + 1] * kA[2 + j] + kB[i * 2 + j];
  return y;
}

std::vector<unsigned char> bytes_of(const std::vector<float>& values) {
  std::vector<unsigned char> out(values.size() * sizeof(float));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

/// Runs y = MatMul(x, A) + B (or any model with one float [2,2] input) and returns y.
std::vector<float> run_float_model(const Model& model, Status& status) {
  Session session;
  status = session.prepare(model, om::all_kernels_registry());
  if (!status.ok()) return {};
  status = session.set_input(0, ConstTensorView(DataType::float32, Shape{2, 2}, kX.data()));
  if (!status.ok()) return {};
  status = session.run();
  if (!status.ok()) return {};
  const float* y = session.output(0).data_as<float>();
  return std::vector<float>(y, y + session.output(0).element_count());
}

void expect_refused(const Status& st, StatusCode code, const std::string& what) {
  EXPECT_EQ(st.code(), code) << st.message();
  EXPECT_NE(text_of(st).find("initializer 'W'"), std::string::npos) << st.message();
  EXPECT_NE(text_of(st).find(what), std::string::npos) << "expected '" << what << "' in: " << st.message();
}

#if ONNXMICRO_HAS_FILESYSTEM

// ---- files ------------------------------------------------------------------------------------------------

/// A fresh directory per test, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/onnxmicro-extdata-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    const char* made = ::mkdtemp(buffer.data());
    EXPECT_NE(made, nullptr);
    path_ = made ? made : "";
  }
  ~TempDir() {
    std::error_code error;
    fs::remove_all(path_, error);
  }
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  std::string write(const std::string& name, const std::vector<unsigned char>& bytes) const {
    const std::string path = file(name);
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    EXPECT_TRUE(out.good()) << path;
    return path;
  }

 private:
  std::string path_;
};

/// Writes `model` as model.onnx in `dir` and loads it from there (base directory = the model's directory).
struct LoadedModel {
  ModelBytes bytes;
  Model model;
  Status load(const TempDir& dir, const std::vector<unsigned char>& model_bytes,
              om::ExternalDataReader* reader = nullptr) {
    const std::string path = dir.write("model.onnx", model_bytes);
    Status st = ModelBytes::from_file(path.c_str(), bytes);
    if (!st.ok()) return st;
    om::LoadOptions options;
    options.base_directory = bytes.directory();
    options.external_data_reader = reader;
    return model.load(bytes.bytes(), options);
  }
  const om::model::Value& value(std::string_view name) const {
    for (const om::model::Value& v : model.graph().values)
      if (v.name == name) return v;
    ADD_FAILURE() << "no value " << name;
    return model.graph().values[0];
  }
  bool outside_model_bytes(ByteSpan data) const {
    const unsigned char* begin = bytes.bytes().data();
    const unsigned char* end = begin + bytes.bytes().size();
    return data.data() + data.size() <= begin || data.data() >= end;
  }
};

bool is_mapped_in_this_process(const std::string& file) {
  const std::string path = fs::canonical(file).string();  // /proc/self/maps shows resolved paths
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find(path) != std::string::npos) return true;
  return false;
}

// ---- values -----------------------------------------------------------------------------------------------

TEST(ExternalData, OneFileForAllTensorsIsMappedOnceAndComputesTheRightValues) {
  TempDir dir;
  std::vector<unsigned char> data = bytes_of(kA);
  data.resize(64, 0xEE);  // B at offset 64 (onnx aligns offsets too)
  std::vector<unsigned char> b = bytes_of(kB);
  data.insert(data.end(), b.begin(), b.end());
  dir.write("weights.bin", data);
  LoadedModel m;
  Status st =
      m.load(dir, matmul_add_model(external_tensor("A", DataType::float32, {2, 2}, {"weights.bin", "0", "16", ""}),
                                   external_tensor("B", DataType::float32, {2, 2}, {"weights.bin", "64", "16", ""})));
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(m.model.external_file_count(), 1u);
  const om::proto::Tensor& a = m.value("A").initializer();
  const om::proto::Tensor& bt = m.value("B").initializer();
  ASSERT_TRUE(a.has_raw_data);
  ASSERT_TRUE(bt.has_raw_data);
  EXPECT_TRUE(m.outside_model_bytes(a.raw_data));         // the file's bytes, not a copy inside the model
  EXPECT_EQ(bt.raw_data.data(), a.raw_data.data() + 64);  // both views into the one mapping
  EXPECT_EQ(std::memcmp(a.raw_data.data(), kA.data(), 16), 0);
  EXPECT_EQ(std::memcmp(bt.raw_data.data(), kB.data(), 16), 0);
  std::vector<float> y = run_float_model(m.model, st);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(y, expected_matmul_add());
}

TEST(ExternalData, OneFilePerTensorInASubdirectory) {
  TempDir dir;
  dir.write("weights/a.bin", bytes_of(kA));
  dir.write("weights/b.bin", bytes_of(kB));
  LoadedModel m;
  // No offset and no length: each tensor is its whole file.
  Status st =
      m.load(dir, matmul_add_model(external_tensor("A", DataType::float32, {2, 2}, {"weights/a.bin", "", "", ""}),
                                   external_tensor("B", DataType::float32, {2, 2}, {"./weights//b.bin", "0", "", ""})));
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(m.model.external_file_count(), 2u);
  std::vector<float> y = run_float_model(m.model, st);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(y, expected_matmul_add());
}

TEST(ExternalData, TheSameFileUnderTwoSpellingsIsMappedOnce) {
  TempDir dir;
  std::vector<unsigned char> data = bytes_of(kA);
  std::vector<unsigned char> b = bytes_of(kB);
  data.insert(data.end(), b.begin(), b.end());
  dir.write("w.bin", data);
  LoadedModel m;
  Status st =
      m.load(dir, matmul_add_model(external_tensor("A", DataType::float32, {2, 2}, {"w.bin", "0", "16", ""}),
                                   external_tensor("B", DataType::float32, {2, 2}, {"./w.bin", "16", "16", ""})));
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(m.model.external_file_count(), 1u);
}

TEST(ExternalData, UnalignedOffsetIsDecodedIntoAlignedMemory) {
  TempDir dir;
  std::vector<unsigned char> data = {0x77};  // A starts at offset 1: not float-aligned
  std::vector<unsigned char> a = bytes_of(kA), b = bytes_of(kB);
  data.insert(data.end(), a.begin(), a.end());
  data.insert(data.end(), b.begin(), b.end());
  dir.write("w.bin", data);
  LoadedModel m;
  Status st = m.load(dir, matmul_add_model(external_tensor("A", DataType::float32, {2, 2}, {"w.bin", "1", "16", ""}),
                                           external_tensor("B", DataType::float32, {2, 2}, {"w.bin", "17", "16", ""})));
  ASSERT_TRUE(st.ok()) << st.message();
  std::vector<float> y = run_float_model(m.model, st);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(y, expected_matmul_add());
}

TEST(ExternalData, DecodeToReadsAResolvedExternalTensor) {
  TempDir dir;
  dir.write("a.bin", bytes_of(kA));
  dir.write("b.bin", bytes_of(kB));
  LoadedModel m;
  Status st = m.load(dir, matmul_add_model(external_tensor("A", DataType::float32, {2, 2}, {"a.bin", "", "", ""}),
                                           external_tensor("B", DataType::float32, {2, 2}, {"b.bin", "", "", ""})));
  ASSERT_TRUE(st.ok()) << st.message();
  float decoded[4] = {};
  st = m.value("A").initializer().decode_to(decoded, sizeof decoded);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(std::vector<float>(decoded, decoded + 4), kA);
  // The raw view of the model, not resolved by the loader, still says why it cannot be decoded.
  om::proto::Tensor unresolved = om::proto::Tensor::unchecked(m.value("A").initializer().bytes);
  st = unresolved.decode_to(decoded, sizeof decoded);
  EXPECT_EQ(st.code(), StatusCode::unsupported);
  EXPECT_NE(text_of(st).find("not resolved"), std::string::npos) << st.message();
}

TEST(ExternalData, FilesAreUnmappedWhenTheModelIsDestroyed) {
  TempDir dir;
  const std::string a = dir.write("a_unmap_probe.bin", bytes_of(kA));
  dir.write("b_unmap_probe.bin", bytes_of(kB));
  {
    LoadedModel m;
    Status st = m.load(
        dir, matmul_add_model(external_tensor("A", DataType::float32, {2, 2}, {"a_unmap_probe.bin", "", "", ""}),
                              external_tensor("B", DataType::float32, {2, 2}, {"b_unmap_probe.bin", "", "", ""})));
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_TRUE(is_mapped_in_this_process(a));
    // Loading another model into the same Model releases the first one's mappings.
    st = m.model.load(m.bytes.bytes(), om::LoadOptions());
    EXPECT_FALSE(st.ok());  // no base directory this time
    EXPECT_FALSE(is_mapped_in_this_process(a));
    om::LoadOptions options;
    options.base_directory = m.bytes.directory();
    ASSERT_TRUE(m.model.load(m.bytes.bytes(), options).ok());
    EXPECT_TRUE(is_mapped_in_this_process(a));
  }
  EXPECT_FALSE(is_mapped_in_this_process(a));
}

TEST(ExternalData, MappingTableLivesInTheCallersMetadataBuffer) {
  TempDir dir;
  dir.write("a.bin", bytes_of(kA));
  dir.write("b.bin", bytes_of(kB));
  const std::string path =
      dir.write("model.onnx", matmul_add_model(external_tensor("A", DataType::float32, {2, 2}, {"a.bin", "", "", ""}),
                                               external_tensor("B", DataType::float32, {2, 2}, {"b.bin", "", "", ""})));
  alignas(16) static unsigned char buffer[64 * 1024];
  om::BufferAllocator allocator(buffer, sizeof buffer);
  ModelBytes bytes;
  ASSERT_TRUE(ModelBytes::from_file(path.c_str(), bytes).ok());
  {
    Model model;
    om::LoadOptions options;
    options.metadata_allocator = &allocator;
    options.base_directory = bytes.directory();
    Status st = model.load(bytes.bytes(), options);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(model.external_file_count(), 2u);
    std::vector<float> y = run_float_model(model, st);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(y, expected_matmul_add());
  }
  EXPECT_FALSE(is_mapped_in_this_process(dir.file("a.bin")));
}

TEST(ExternalData, SubgraphInitializersAreResolvedAtLoad) {
  TempDir dir;
  dir.write("then.bin", bytes_of(kA));
  dir.write("else.bin", bytes_of(kB));
  ProtoWriter then_graph = make_graph("then", {make_node("Identity", {"T"}, {"then_y"})}, {},
                                      {make_value_info("then_y", DataType::float32, {2, 2})},
                                      {external_tensor("T", DataType::float32, {2, 2}, {"then.bin", "", "16", ""})});
  ProtoWriter else_graph = make_graph("else", {make_node("Identity", {"E"}, {"else_y"})}, {},
                                      {make_value_info("else_y", DataType::float32, {2, 2})},
                                      {external_tensor("E", DataType::float32, {2, 2}, {"else.bin", "", "16", ""})});
  std::vector<unsigned char> model = make_model(make_graph("g",
                                                           {make_node("If", {"c"}, {"y"},
                                                                      {make_attribute_graph("then_branch", then_graph),
                                                                       make_attribute_graph("else_branch", else_graph)},
                                                                      "if")},
                                                           {make_value_info("c", DataType::boolean, {})},
                                                           {make_value_info("y", DataType::float32, {2, 2})}),
                                                13)
                                         .bytes();
  LoadedModel m;
  Status st = m.load(dir, model);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(m.model.external_file_count(), 2u);  // both branches' files, at Model::load
  for (bool condition : {true, false}) {
    Session session;
    st = session.prepare(m.model, om::all_kernels_registry());
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_TRUE(session.set_input(0, ConstTensorView(DataType::boolean, Shape{}, &condition)).ok());
    st = session.run();
    ASSERT_TRUE(st.ok()) << st.message();
    const float* y = session.output(0).data_as<float>();
    EXPECT_EQ(std::vector<float>(y, y + 4), condition ? kA : kB);
  }
}

// ---- refused locations and sizes: each names the tensor -----------------------------------------------------

/// Loads y = Identity(W), W float [2,2] with the given external data, in a directory holding w.bin (16 bytes).
Status load_w(TempDir& dir, const External& ext, LoadedModel& m, om::ExternalDataReader* reader = nullptr) {
  if (!fs::exists(dir.file("w.bin"))) dir.write("w.bin", bytes_of(kA));
  return m.load(dir, identity_model(external_tensor("W", DataType::float32, {2, 2}, ext), DataType::float32, {2, 2}),
                reader);
}

TEST(ExternalDataRefused, EmptyLocation) {
  TempDir dir;
  LoadedModel m;
  expect_refused(load_w(dir, {"", "", "", ""}, m), StatusCode::invalid_model, "the location is empty");
}

TEST(ExternalDataRefused, AbsolutePath) {
  TempDir dir;
  LoadedModel m;
  const std::string absolute = dir.file("w.bin");
  dir.write("w.bin", bytes_of(kA));
  Status st = load_w(dir, {absolute, "", "", ""}, m);
  expect_refused(st, StatusCode::invalid_model, "absolute path");
  EXPECT_NE(text_of(st).find(absolute), std::string::npos) << st.message();  // names the location
}

TEST(ExternalDataRefused, DotDotComponent) {
  TempDir dir;
  LoadedModel m;
  expect_refused(load_w(dir, {"sub/../w.bin", "", "", ""}, m), StatusCode::invalid_model, "'..' component");
  TempDir dir2;
  LoadedModel m2;
  expect_refused(load_w(dir2, {"../w.bin", "", "", ""}, m2), StatusCode::invalid_model, "'..' component");
}

TEST(ExternalDataRefused, Backslash) {
  TempDir dir;
  LoadedModel m;
  expect_refused(load_w(dir, {"..\\w.bin", "", "", ""}, m), StatusCode::invalid_model, "backslash");
}

TEST(ExternalDataRefused, NulByte) {
  TempDir dir;
  LoadedModel m;
  Status st = load_w(dir, {std::string("w.bin\0.txt", 10), "", "", ""}, m);
  expect_refused(st, StatusCode::invalid_model, "NUL byte");
  EXPECT_NE(text_of(st).find("w.bin\\x00.txt"), std::string::npos) << st.message();  // escaped, not cut
}

TEST(ExternalDataRefused, SymlinkToAFileOutsideTheDirectory) {
  TempDir outside;
  const std::string target = outside.write("secret.bin", bytes_of(kA));
  TempDir dir;
  ASSERT_EQ(::symlink(target.c_str(), dir.file("w.bin").c_str()), 0);
  LoadedModel m;
  Status st = load_w(dir, {"w.bin", "", "", ""}, m);
  expect_refused(st, StatusCode::invalid_model, "is a symbolic link");
  EXPECT_NE(text_of(st).find(dir.path()), std::string::npos) << st.message();  // names the path
}

TEST(ExternalDataRefused, SymlinkedSubdirectory) {
  TempDir outside;
  outside.write("w.bin", bytes_of(kA));
  TempDir dir;
  ASSERT_EQ(::symlink(outside.path().c_str(), dir.file("sub").c_str()), 0);
  LoadedModel m;
  Status st = load_w(dir, {"sub/w.bin", "", "", ""}, m);
  expect_refused(st, StatusCode::invalid_model, "is a symbolic link");
  EXPECT_NE(text_of(st).find("'sub' in"), std::string::npos) << st.message();
}

TEST(ExternalDataRefused, HardLink) {
  TempDir dir;
  dir.write("w.bin", bytes_of(kA));
  ASSERT_EQ(::link(dir.file("w.bin").c_str(), dir.file("alias.bin").c_str()), 0);
  LoadedModel m;
  expect_refused(load_w(dir, {"w.bin", "", "", ""}, m), StatusCode::invalid_model, "has 2 hard links");
}

TEST(ExternalDataRefused, Directory) {
  TempDir dir;
  fs::create_directories(dir.file("d.bin"));
  LoadedModel m;
  expect_refused(load_w(dir, {"d.bin", "", "", ""}, m), StatusCode::invalid_model, "not a regular file (a directory)");
}

TEST(ExternalDataRefused, FifoIsRefusedWithoutBlocking) {
  TempDir dir;
  ASSERT_EQ(::mkfifo(dir.file("pipe.bin").c_str(), 0600), 0);
  LoadedModel m;
  expect_refused(load_w(dir, {"pipe.bin", "", "", ""}, m), StatusCode::invalid_model, "not a regular file (a FIFO)");
}

TEST(ExternalDataRefused, OffsetPlusLengthPastTheEnd) {
  TempDir dir;
  LoadedModel m;
  expect_refused(load_w(dir, {"w.bin", "8", "16", ""}, m), StatusCode::invalid_model,
                 "offset 8 + length 16 is past the end of");
  LoadedModel m2;
  expect_refused(load_w(dir, {"w.bin", "17", "16", ""}, m2), StatusCode::invalid_model, "offset 17 is past the end of");
}

TEST(ExternalDataRefused, HugeOffsetDoesNotOverflow) {
  TempDir dir;
  LoadedModel m;
  // offset + length wraps around to 15 in 64 bits: must still be past the end.
  expect_refused(load_w(dir, {"w.bin", "18446744073709551615", "16", ""}, m), StatusCode::invalid_model,
                 "offset 18446744073709551615 is past the end");
  LoadedModel m2;
  expect_refused(load_w(dir, {"w.bin", "18446744073709551616", "16", ""}, m2), StatusCode::invalid_model,
                 "offset '18446744073709551616' is not a decimal number");
  LoadedModel m3;
  expect_refused(load_w(dir, {"w.bin", "-1", "16", ""}, m3), StatusCode::invalid_model, "is not a decimal number");
}

TEST(ExternalDataRefused, LengthDifferentFromTheTensorsByteSize) {
  TempDir dir;
  LoadedModel m;
  expect_refused(load_w(dir, {"w.bin", "0", "12", ""}, m), StatusCode::invalid_model, "length is 12 bytes but");
  // Without a length the tensor takes offset..end of file: 12 bytes here.
  LoadedModel m2;
  expect_refused(load_w(dir, {"w.bin", "4", "", ""}, m2), StatusCode::invalid_model,
                 "without a length the tensor is the 12 bytes from offset 4");
}

TEST(ExternalDataRefused, MissingFile) {
  TempDir dir;
  LoadedModel m;
  Status st = load_w(dir, {"nope.bin", "", "", ""}, m);
  expect_refused(st, StatusCode::io_error, "No such file or directory");
  EXPECT_NE(text_of(st).find(dir.path() + "/nope.bin"), std::string::npos) << st.message();
}

TEST(ExternalDataRefused, NoBaseDirectoryAndNoReader) {
  TempDir dir;
  dir.write("w.bin", bytes_of(kA));
  std::vector<unsigned char> model =
      identity_model(external_tensor("W", DataType::float32, {2, 2}, {"w.bin", "", "", ""}), DataType::float32, {2, 2});
  Model m;
  Status st = m.load(ByteSpan(model.data(), model.size()));
  expect_refused(st, StatusCode::invalid_argument, "LoadOptions::base_directory");
}

TEST(ExternalDataRefused, MissingLocationKeyAndStringTensor) {
  TempDir dir;
  ProtoWriter t;
  t.int_field(1, 2);
  t.int_field(2, static_cast<std::int64_t>(DataType::float32));
  t.string_field(8, "W");
  t.message_field(13, entry("offset", "0"));
  t.int_field(14, 1);
  LoadedModel m;
  Status st = m.load(dir, identity_model(t, DataType::float32, {2}));
  expect_refused(st, StatusCode::invalid_model, "no external_data 'location'");
  LoadedModel m2;
  st = m2.load(
      dir, identity_model(external_tensor("W", DataType::string, {2}, {"w.bin", "", "", ""}), DataType::string, {2}));
  expect_refused(st, StatusCode::invalid_model, "cannot be stored externally");
}

// ---- checksum ----------------------------------------------------------------------------------------------

const std::string kSha1Text = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

Status load_u8(TempDir& dir, const External& ext, LoadedModel& m) {
  dir.write("t.bin", std::vector<unsigned char>(kSha1Text.begin(), kSha1Text.end()));
  return m.load(dir, identity_model(external_tensor("W", DataType::uint8, {3}, ext), DataType::uint8, {3}));
}

TEST(ExternalDataChecksum, DigestOfTheTensorsBytesIsAccepted) {
  TempDir dir;
  LoadedModel m;
  // "abc" at offset 0 (either case of hex digits).
  Status st = load_u8(dir, {"t.bin", "0", "3", "A9993E364706816ABA3E25717850C26C9CD0D89D"}, m);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(m.value("W").initializer().raw_data.data()), 3), "abc");
}

TEST(ExternalDataChecksum, DigestOfTheWholeFileIsAccepted) {
  TempDir dir;
  LoadedModel m;
  Status st = load_u8(dir, {"t.bin", "0", "3", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"}, m);
  ASSERT_TRUE(st.ok()) << st.message();
}

TEST(ExternalDataChecksum, MismatchIsRefused) {
  TempDir dir;
  LoadedModel m;
  Status st = load_u8(dir, {"t.bin", "3", "3", "a9993e364706816aba3e25717850c26c9cd0d89d"}, m);
  expect_refused(st, StatusCode::invalid_model, "checksum mismatch");
  EXPECT_NE(text_of(st).find("a9993e364706816aba3e25717850c26c9cd0d89d"), std::string::npos) << st.message();
  LoadedModel m2;
  st = load_u8(dir, {"t.bin", "0", "3", "not-a-digest"}, m2);
  expect_refused(st, StatusCode::invalid_model, "is not a 40-digit SHA-1 hex digest");
}

// ---- beyond 2 GiB ---------------------------------------------------------------------------------------------

TEST(ExternalData, TensorAtAnOffsetBeyond2GiBOfASparseFile) {
  if (sizeof(void*) < 8) GTEST_SKIP() << "needs a 64-bit address space to map a file over 2 GiB";
  TempDir dir;
  const std::uint64_t offset = (std::uint64_t{1} << 31) + (std::uint64_t{1} << 20) + 4;  // 2 GiB + 1 MiB + 4
  const std::string path = dir.file("big.bin");
  const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  // Sparse: only the last 32 bytes (A then B) hold data, so the test uses no real disk space.
  ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(offset)), 0);
  std::vector<unsigned char> tail = bytes_of(kA);
  std::vector<unsigned char> b = bytes_of(kB);
  tail.insert(tail.end(), b.begin(), b.end());
  ASSERT_EQ(::pwrite(fd, tail.data(), tail.size(), static_cast<off_t>(offset)), static_cast<ssize_t>(tail.size()));
  ::close(fd);
  LoadedModel m;
  Status st = m.load(
      dir, matmul_add_model(
               external_tensor("A", DataType::float32, {2, 2}, {"big.bin", std::to_string(offset), "16", ""}),
               external_tensor("B", DataType::float32, {2, 2}, {"big.bin", std::to_string(offset + 16), "", ""})));
  ASSERT_TRUE(st.ok()) << st.message();
  const om::proto::Tensor& bt = m.value("B").initializer();
  ASSERT_EQ(bt.raw_data.size(), 16u);
  EXPECT_EQ(std::memcmp(bt.raw_data.data(), kB.data(), 16), 0);  // the last bytes of the file
  std::vector<float> y = run_float_model(m.model, st);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(y, expected_matmul_add());
}

// ---- a model saved by the onnx package (ctest external_data_onnx_saved sets the paths) ------------------------

std::vector<unsigned char> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(ExternalDataOnnxSaved, InitializersAreViewsOfTheMappedDataFile) {
  const char* saved = std::getenv("ONNXMICRO_EXTERNAL_DATA_MODEL");        // saved with external data
  const char* original = std::getenv("ONNXMICRO_EXTERNAL_DATA_ORIGINAL");  // the same model, weights inside
  if (saved == nullptr || original == nullptr) {
    GTEST_SKIP() << "set ONNXMICRO_EXTERNAL_DATA_MODEL and ONNXMICRO_EXTERNAL_DATA_ORIGINAL (ctest does)";
  }
  ModelBytes saved_bytes, original_bytes;
  ASSERT_TRUE(ModelBytes::from_file(saved, saved_bytes).ok());
  ASSERT_TRUE(ModelBytes::from_file(original, original_bytes).ok());
  om::LoadOptions options;
  options.base_directory = saved_bytes.directory();
  Model model, reference;
  Status st = model.load(saved_bytes.bytes(), options);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(reference.load(original_bytes.bytes()).ok());
  EXPECT_EQ(model.external_file_count(), 1u);  // all_tensors_to_one_file

  const unsigned char* begin = saved_bytes.bytes().data();
  const unsigned char* end = begin + saved_bytes.bytes().size();
  std::size_t external = 0;
  for (const om::model::Value& v : model.graph().values) {
    if (v.kind != om::model::ValueKind::initializer) continue;
    if (v.initializer().data_location != om::proto::DataLocation::external) continue;
    ++external;
    ByteSpan data = v.initializer().raw_data;
    ASSERT_TRUE(v.initializer().has_raw_data) << v.name;
    EXPECT_TRUE(data.size() == 0 || data.data() >= end || data.data() + data.size() <= begin)
        << v.name << " should view the mapped data file, not the model bytes";
    // The same bytes as the weights inside the original model.
    bool found = false;
    for (const om::model::Value& r : reference.graph().values) {
      if (r.name != v.name) continue;
      found = true;
      ASSERT_TRUE(r.initializer().has_raw_data) << v.name;
      ASSERT_EQ(r.initializer().raw_data.size(), data.size()) << v.name;
      EXPECT_EQ(std::memcmp(r.initializer().raw_data.data(), data.data(), data.size()), 0) << v.name;
    }
    EXPECT_TRUE(found) << v.name;
  }
  EXPECT_GT(external, 0u);
  // And the data file is what the views read (an independent read of it).
  const std::string data_path = std::string(saved_bytes.directory()) + "/model.onnx.data";
  EXPECT_TRUE(is_mapped_in_this_process(data_path));
  EXPECT_FALSE(read_file(data_path).empty());
}

#endif  // ONNXMICRO_HAS_FILESYSTEM

// ---- without a file system too ----------------------------------------------------------------------------

TEST(ExternalDataChecksum, Sha1KnownAnswers) {
  auto hex = [](std::string_view text) {
    unsigned char digest[20];
    om::detail::sha1_of(ByteSpan(reinterpret_cast<const unsigned char*>(text.data()), text.size()), digest);
    Status s;
    om::detail::append_hex(s, digest);
    return text_of(s);
  };
  // FIPS 180 examples (the 56-byte one pads into a second block).
  EXPECT_EQ(hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(hex(std::string(1000000, 'a')), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

// ---- reader -------------------------------------------------------------------------------------------------

/// Serves files from memory, as firmware would from flash.
class MemoryReader final : public om::ExternalDataReader {
 public:
  std::map<std::string, std::vector<unsigned char>> files;
  std::vector<std::string> calls;
  Status read(std::string_view location, std::uint64_t offset, std::uint64_t length, ByteSpan& out) noexcept override {
    calls.emplace_back(location);
    auto it = files.find(std::string(location));
    if (it == files.end()) return Status(StatusCode::io_error) << "flash has no '" << location << "'";
    if (offset > it->second.size() || length > it->second.size() - offset) {
      return Status(StatusCode::out_of_range) << "flash region too small";
    }
    out = ByteSpan(it->second.data() + offset, static_cast<std::size_t>(length));
    return {};
  }
};

TEST(ExternalDataReader, ServesTheBytesInsteadOfTheFileSystem) {
  MemoryReader reader;
  std::vector<unsigned char> flash = bytes_of(kB);
  std::vector<unsigned char> a = bytes_of(kA);
  flash.insert(flash.end(), a.begin(), a.end());  // B then A
  reader.files["flash.bin"] = flash;
  std::vector<unsigned char> model =
      matmul_add_model(external_tensor("A", DataType::float32, {2, 2}, {"flash.bin", "16", "16", ""}),
                       external_tensor("B", DataType::float32, {2, 2}, {"flash.bin", "0", "", ""}));
  om::LoadOptions options;  // no base directory: nothing is read from files
  options.external_data_reader = &reader;
  Model m;
  Status st = m.load(ByteSpan(model.data(), model.size()), options);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(reader.calls.size(), 2u);
  EXPECT_EQ(m.external_file_count(), 0u);
  std::vector<float> y = run_float_model(m, st);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(y, expected_matmul_add());
}

TEST(ExternalDataReader, ErrorsPropagateWithTheTensorName) {
  MemoryReader reader;
  std::vector<unsigned char> model = identity_model(
      external_tensor("W", DataType::float32, {2, 2}, {"absent.bin", "", "", ""}), DataType::float32, {2, 2});
  om::LoadOptions options;
  options.external_data_reader = &reader;
  Model m;
  Status st = m.load(ByteSpan(model.data(), model.size()), options);
  expect_refused(st, StatusCode::io_error, "flash has no 'absent.bin'");
  EXPECT_NE(text_of(st).find("external data 'absent.bin'"), std::string::npos) << st.message();
}

TEST(ExternalDataReader, ShortReadIsRefused) {
  class ShortReader final : public om::ExternalDataReader {
   public:
    unsigned char bytes[4] = {};
    Status read(std::string_view, std::uint64_t, std::uint64_t, ByteSpan& out) noexcept override {
      out = ByteSpan(bytes, 4);
      return {};
    }
  } reader;
  std::vector<unsigned char> model =
      identity_model(external_tensor("W", DataType::float32, {2, 2}, {"w.bin", "", "", ""}), DataType::float32, {2, 2});
  om::LoadOptions options;
  options.external_data_reader = &reader;
  Model m;
  expect_refused(m.load(ByteSpan(model.data(), model.size()), options), StatusCode::io_error,
                 "returned 4 bytes at offset 0, the tensor needs 16");
}

TEST(ExternalDataReader, LocationsAreValidatedBeforeTheReaderIsAsked) {
  MemoryReader reader;
  reader.files["../w.bin"] = bytes_of(kA);
  std::vector<unsigned char> model = identity_model(
      external_tensor("W", DataType::float32, {2, 2}, {"../w.bin", "", "", ""}), DataType::float32, {2, 2});
  om::LoadOptions options;
  options.external_data_reader = &reader;
  Model m;
  expect_refused(m.load(ByteSpan(model.data(), model.size()), options), StatusCode::invalid_model, "'..' component");
  EXPECT_TRUE(reader.calls.empty());
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
