// SPDX-License-Identifier: MIT
// ModelBytes: borrowing, copying, mapping files (and the read() fallback), directories, move semantics.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "onnxmicro/onnxmicro.hpp"
#include "support/proto_writer.hpp"

#if ONNXMICRO_HAS_FILESYSTEM
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace ONNXMICRO_TEST_FILE_SCOPE {

using onnxmicro::ModelBytes;
using onnxmicro::Status;
using onnxmicro::StatusCode;

bool contains(const Status& s, const std::string& text) {
  return std::string(s.message()).find(text) != std::string::npos;
}

std::vector<unsigned char> to_vector(const ModelBytes& b) {
  return {b.bytes().data(), b.bytes().data() + b.bytes().size()};
}

TEST(ModelBytes, DefaultIsEmpty) {
  ModelBytes b;
  EXPECT_EQ(b.bytes().size(), 0u);
  EXPECT_EQ(b.bytes().data(), nullptr);
  EXPECT_EQ(b.directory(), "");
  EXPECT_FALSE(b.is_mapped());
}

TEST(ModelBytes, BorrowViewsCallerMemory) {
  static const unsigned char kFlash[] = {0x08, 0x07};
  ModelBytes b = ModelBytes::borrow(kFlash, sizeof kFlash);
  EXPECT_EQ(b.bytes().data(), kFlash);  // no copy
  EXPECT_EQ(b.bytes().size(), 2u);
  EXPECT_EQ(b.directory(), "");
  EXPECT_EQ(ModelBytes::borrow(nullptr, 5).bytes().size(), 0u);
}

#if ONNXMICRO_HAS_HEAP
TEST(ModelBytes, CopyOwnsIndependentBytes) {
  std::vector<unsigned char> source = {1, 2, 3, 4};
  ModelBytes b;
  ASSERT_TRUE(ModelBytes::copy(source.data(), source.size(), b).ok());
  EXPECT_NE(b.bytes().data(), source.data());
  source[0] = 9;
  EXPECT_EQ(to_vector(b), (std::vector<unsigned char>{1, 2, 3, 4}));

  ModelBytes empty;
  ASSERT_TRUE(ModelBytes::copy(source.data(), 0, empty).ok());
  EXPECT_EQ(empty.bytes().size(), 0u);
  EXPECT_EQ(ModelBytes::copy(nullptr, 3, empty).code(), StatusCode::invalid_argument);
}

TEST(ModelBytes, MoveTransfersOwnershipOnce) {
  const std::vector<unsigned char> source = {5, 6, 7};
  ModelBytes a;
  ASSERT_TRUE(ModelBytes::copy(source.data(), source.size(), a).ok());
  const unsigned char* data = a.bytes().data();
  ModelBytes b(std::move(a));
  EXPECT_EQ(b.bytes().data(), data);
  EXPECT_EQ(a.bytes().size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from state is specified
  EXPECT_EQ(a.bytes().data(), nullptr);
  ModelBytes c;
  ASSERT_TRUE(ModelBytes::copy(source.data(), 1, c).ok());
  c = std::move(b);  // frees c's old bytes, takes b's
  EXPECT_EQ(c.bytes().data(), data);
  EXPECT_EQ(b.bytes().size(), 0u);  // NOLINT(bugprone-use-after-move)
  ModelBytes& alias = c;
  c = std::move(alias);  // self-move keeps the bytes
  EXPECT_EQ(c.bytes().data(), data);
  EXPECT_EQ(to_vector(c), source);
}
#endif

#if ONNXMICRO_HAS_FILESYSTEM

/// A fresh temporary directory, removed with its files at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern = testing::TempDir() + "onnxmicro_model_bytes_XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    const char* made = ::mkdtemp(buffer.data());
    EXPECT_NE(made, nullptr);
    path_ = made ? made : "";
  }
  ~TempDir() {
    for (const std::string& f : files_) ::unlink(f.c_str());
    ::rmdir(path_.c_str());
  }
  const std::string& path() const { return path_; }
  std::string write(const std::string& name, const std::vector<unsigned char>& bytes) {
    const std::string file = path_ + "/" + name;
    std::FILE* f = std::fopen(file.c_str(), "wb");
    EXPECT_NE(f, nullptr);
    if (f) {
      if (!bytes.empty()) {
        EXPECT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
      }
      std::fclose(f);
    }
    files_.push_back(file);
    return file;
  }
  std::string add(const std::string& name) {
    files_.push_back(path_ + "/" + name);
    return files_.back();
  }

 private:
  std::string path_;
  std::vector<std::string> files_;
};

TEST(ModelBytes, FromFileMapsTheFileAndRemembersItsDirectory) {
  TempDir dir;
  std::vector<unsigned char> content(10000);
  for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<unsigned char>(i * 7);
  const std::string file = dir.write("model.onnx", content);
  ModelBytes b;
  Status s = ModelBytes::from_file(file.c_str(), b);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(b.is_mapped());
  EXPECT_EQ(to_vector(b), content);
  EXPECT_EQ(b.directory(), dir.path());

  // Moving a mapping hands it over: only the last owner unmaps (a double unmap would fault under ASan/valgrind,
  // and reading through the new owner after the old one died proves the mapping is still there).
  const unsigned char* data = b.bytes().data();
  ModelBytes moved;
  {
    ModelBytes temporary(std::move(b));
    moved = std::move(temporary);
  }
  EXPECT_EQ(moved.bytes().data(), data);
  EXPECT_EQ(moved.directory(), dir.path());
  EXPECT_EQ(b.directory(), "");  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(to_vector(moved), content);
}

TEST(ModelBytes, FromFileParsesAHandBuiltModel) {
  using namespace onnxmicro_test;  // NOLINT
  ProtoWriter model =
      make_model(make_graph("g", {make_node("Relu", {"x"}, {"y"})}, {make_value_info("x", DataType::float32, {2})},
                            {make_value_info("y", DataType::float32, {2})}));
  TempDir dir;
  const std::string file = dir.write("relu.onnx", model.bytes());
  ModelBytes b;
  ASSERT_TRUE(ModelBytes::from_file(file.c_str(), b).ok());
  onnxmicro::proto::Model m;
  Status s = onnxmicro::proto::Model::parse(b.bytes(), m);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(m.graph.nodes()[0].op_type, "Relu");
}

TEST(ModelBytes, FromFileEmptyFileGivesEmptyBytes) {
  TempDir dir;
  const std::string file = dir.write("empty.onnx", {});
  ModelBytes b;
  Status s = ModelBytes::from_file(file.c_str(), b);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(b.bytes().size(), 0u);
  EXPECT_EQ(b.directory(), dir.path());
}

TEST(ModelBytes, FromFileErrorsNameThePathAndReason) {
  TempDir dir;
  const std::string missing = dir.path() + "/missing.onnx";
  ModelBytes b;
  Status s = ModelBytes::from_file(missing.c_str(), b);
  EXPECT_EQ(s.code(), StatusCode::io_error);
  EXPECT_EQ(std::string(s.message()), "cannot open '" + missing + "': No such file or directory");

  s = ModelBytes::from_file(dir.path().c_str(), b);
  EXPECT_EQ(s.code(), StatusCode::io_error);
  EXPECT_TRUE(contains(s, "'" + dir.path() + "'")) << s.message();
  EXPECT_TRUE(contains(s, "Is a directory")) << s.message();

  EXPECT_EQ(ModelBytes::from_file(nullptr, b).code(), StatusCode::invalid_argument);

  const std::string long_path = "/" + std::string(600, 'd') + "/model.onnx";
  s = ModelBytes::from_file(long_path.c_str(), b);
  EXPECT_EQ(s.code(), StatusCode::limit_exceeded);
  EXPECT_TRUE(contains(s, "longer than 511 bytes")) << s.message();
}

TEST(ModelBytes, DirectoryOfRelativeAndDoubledSlashPaths) {
  TempDir dir;
  const std::string file = dir.write("m.onnx", {1});
  ModelBytes b;
  const std::string doubled = dir.path() + "//m.onnx";
  ASSERT_TRUE(ModelBytes::from_file(doubled.c_str(), b).ok());
  EXPECT_EQ(b.directory(), dir.path());

  char cwd[4096];
  ASSERT_NE(::getcwd(cwd, sizeof cwd), nullptr);
  ASSERT_EQ(::chdir(dir.path().c_str()), 0);
  Status s = ModelBytes::from_file("m.onnx", b);
  EXPECT_EQ(::chdir(cwd), 0);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(b.directory(), ".");
  EXPECT_EQ(to_vector(b), (std::vector<unsigned char>{1}));
}

#if ONNXMICRO_HAS_HEAP
TEST(ModelBytes, FromFileReadsWhatCannotBeMapped) {
  // A FIFO cannot be mapped: from_file falls back to read() until end of file.
  TempDir dir;
  const std::string fifo = dir.add("pipe.onnx");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::vector<unsigned char> content(200000);
  for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<unsigned char>(i % 251);
  std::thread writer([&] {
    const int fd = ::open(fifo.c_str(), O_WRONLY);
    if (fd < 0) return;
    std::size_t done = 0;
    while (done < content.size()) {
      const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(fd);
  });
  ModelBytes b;
  Status s = ModelBytes::from_file(fifo.c_str(), b);
  writer.join();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_FALSE(b.is_mapped());
  EXPECT_EQ(to_vector(b), content);
  EXPECT_EQ(b.directory(), dir.path());
}
#endif

#endif  // ONNXMICRO_HAS_FILESYSTEM

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
