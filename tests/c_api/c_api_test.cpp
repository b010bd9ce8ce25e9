// SPDX-License-Identifier: MIT
// The C API (onnxmicro/c/onnxmicro.h, linked as onnxmicro::c): its error paths (NULL handles, bad bytes, buffers
// too small and the sizes reported, wrong inputs) and full runs of the hello CNN, from C++ and from C99.
#include <onnxmicro/c/onnxmicro.h>
#include <onnxmicro/core/config.hpp>  // the version macros

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "c_api_c99.h"
#include "default_model.hpp"  // examples/hello: the hello CNN, an input and onnxruntime's output

namespace {

constexpr double kTolerance = 1e-4;

std::string message(const onnxmicro_model* model) { return onnxmicro_model_message(model); }
std::string message(const onnxmicro_session* session) { return onnxmicro_session_message(session); }

/// 16-byte aligned bytes (a std::vector of these is an aligned buffer for arenas and metadata).
struct alignas(16) Block {
  unsigned char bytes[16];
};

onnxmicro_tensor hello_input(onnxmicro_dtype dtype = ONNXMICRO_DTYPE_FLOAT32) {
  onnxmicro_tensor tensor{};
  tensor.dtype = dtype;
  tensor.rank = hello_cnn_model_input_rank;
  tensor.dims = hello_cnn_model_input_shape;
  tensor.data = hello_cnn_model_input;
  tensor.byte_size = sizeof(hello_cnn_model_input);
  return tensor;
}

void expect_hello_output(onnxmicro_session* session) {
  onnxmicro_tensor output{};
  ASSERT_EQ(onnxmicro_session_get_output(session, 0, &output), ONNXMICRO_OK) << message(session);
  ASSERT_EQ(output.dtype, ONNXMICRO_DTYPE_FLOAT32);
  ASSERT_EQ(output.rank, 2u);
  EXPECT_EQ(output.dims[0], 1);
  EXPECT_EQ(output.dims[1], 10);
  ASSERT_EQ(output.byte_size, sizeof(hello_cnn_model_expected));
  const auto* values = static_cast<const float*>(output.data);
  for (std::size_t i = 0; i < hello_cnn_model_expected_count; ++i) {
    EXPECT_NEAR(values[i], hello_cnn_model_expected[i], kTolerance) << "element " << i;
  }
}

/// A model and a session in caller storage, the model loaded into a caller metadata buffer.
class CApiStorage : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(onnxmicro_model_init(model_storage_, sizeof(model_storage_), &model_), ONNXMICRO_OK);
    ASSERT_EQ(onnxmicro_session_init(session_storage_, sizeof(session_storage_), &session_), ONNXMICRO_OK);
    ASSERT_EQ(onnxmicro_model_load(model_, hello_cnn_model, hello_cnn_model_size, model_metadata_.data(),
                                   model_metadata_.size() * sizeof(Block)),
              ONNXMICRO_OK)
        << message(model_);
  }
  void TearDown() override {
    onnxmicro_session_destroy(session_);
    onnxmicro_model_destroy(model_);
  }
  onnxmicro_status prepare(std::size_t arena_bytes, std::size_t metadata_bytes) {
    arena_.assign((arena_bytes + 15) / 16, Block{});
    session_metadata_.assign((metadata_bytes + 15) / 16, Block{});
    return onnxmicro_session_prepare(session_, model_, arena_.data(), arena_bytes, session_metadata_.data(),
                                     metadata_bytes);
  }
  onnxmicro_status prepare() { return prepare(64 * 1024, 64 * 1024); }

  unsigned char model_storage_[ONNXMICRO_MODEL_STORAGE_BYTES];
  unsigned char session_storage_[ONNXMICRO_SESSION_STORAGE_BYTES];
  std::vector<Block> model_metadata_ = std::vector<Block>(2048);
  std::vector<Block> arena_;
  std::vector<Block> session_metadata_;
  onnxmicro_model* model_ = nullptr;
  onnxmicro_session* session_ = nullptr;
};

TEST(CApi, VersionAndNames) {
  EXPECT_EQ(onnxmicro_version(),
            ONNXMICRO_VERSION_MAJOR * 10000u + ONNXMICRO_VERSION_MINOR * 100u + ONNXMICRO_VERSION_PATCH);
  EXPECT_EQ(std::string(onnxmicro_version_string()), std::to_string(ONNXMICRO_VERSION_MAJOR) + "." +
                                                         std::to_string(ONNXMICRO_VERSION_MINOR) + "." +
                                                         std::to_string(ONNXMICRO_VERSION_PATCH));
  EXPECT_STREQ(onnxmicro_status_name(ONNXMICRO_OK), "ok");
  EXPECT_STREQ(onnxmicro_status_name(ONNXMICRO_OUT_OF_MEMORY), "out_of_memory");
  EXPECT_STREQ(onnxmicro_status_name(ONNXMICRO_DEVICE_ERROR), "device_error");
  EXPECT_STREQ(onnxmicro_status_name(99), "unknown");
  EXPECT_STREQ(onnxmicro_status_name(-1), "unknown");
  EXPECT_STREQ(onnxmicro_dtype_name(ONNXMICRO_DTYPE_FLOAT32), "float");
  EXPECT_STREQ(onnxmicro_dtype_name(ONNXMICRO_DTYPE_INT8), "int8");
  EXPECT_STREQ(onnxmicro_dtype_name(12345), "undefined");
}

TEST(CApi, NullHandles) {
  onnxmicro_tensor tensor = hello_input();
  const char* name = nullptr;
  std::size_t length = 0;
  EXPECT_EQ(onnxmicro_model_init(nullptr, 4096, nullptr), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_EQ(onnxmicro_model_create(nullptr), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_EQ(onnxmicro_model_load(nullptr, hello_cnn_model, hello_cnn_model_size, nullptr, 0),
            ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_EQ(onnxmicro_model_load_file(nullptr, "model.onnx", nullptr, 0), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_EQ(onnxmicro_model_input_name(nullptr, 0, &name, &length), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_EQ(onnxmicro_model_input_count(nullptr), 0u);
  EXPECT_EQ(onnxmicro_model_metadata_bytes(nullptr), 0u);
  EXPECT_STRNE(onnxmicro_model_message(nullptr), "");
  EXPECT_EQ(onnxmicro_session_init(nullptr, 4096, nullptr), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_EQ(onnxmicro_session_prepare(nullptr, nullptr, nullptr, 0, nullptr, 0), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_EQ(onnxmicro_session_set_input(nullptr, 0, &tensor), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_EQ(onnxmicro_session_set_input_by_name(nullptr, "input", &tensor), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_EQ(onnxmicro_session_run(nullptr), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_EQ(onnxmicro_session_get_output(nullptr, 0, &tensor), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_EQ(onnxmicro_session_get_input(nullptr, 0, &tensor), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_EQ(onnxmicro_session_required_arena_bytes(nullptr), 0u);
  EXPECT_EQ(onnxmicro_session_output_count(nullptr), 0u);
  EXPECT_STRNE(onnxmicro_session_message(nullptr), "");
  onnxmicro_model_destroy(nullptr);
  onnxmicro_session_destroy(nullptr);
}

TEST(CApi, StorageTooSmallOrUnaligned) {
  std::vector<unsigned char> storage(onnxmicro_session_storage_bytes() + 1);
  onnxmicro_session* session = reinterpret_cast<onnxmicro_session*>(&storage);
  EXPECT_EQ(onnxmicro_session_init(storage.data(), 16, &session), ONNXMICRO_OUT_OF_MEMORY);
  EXPECT_EQ(session, nullptr);
  // Any alignment: the handle is aligned inside the storage.
  ASSERT_EQ(onnxmicro_session_init(storage.data() + 1, onnxmicro_session_storage_bytes(), &session), ONNXMICRO_OK);
  EXPECT_STREQ(onnxmicro_session_message(session), "");
  onnxmicro_session_destroy(session);
  EXPECT_LE(onnxmicro_model_storage_bytes(), std::size_t{ONNXMICRO_MODEL_STORAGE_BYTES});
  EXPECT_LE(onnxmicro_session_storage_bytes(), std::size_t{ONNXMICRO_SESSION_STORAGE_BYTES});
}

TEST(CApi, BadModelBytesSayWhy) {
  onnxmicro_model* model = nullptr;
  ASSERT_EQ(onnxmicro_model_create(&model), ONNXMICRO_OK);
  const unsigned char garbage[] = {0xff, 0xff, 0xff, 0xff, 0x0f, 0x01, 0x02};
  EXPECT_EQ(onnxmicro_model_load(model, garbage, sizeof(garbage), nullptr, 0), ONNXMICRO_INVALID_MODEL);
  EXPECT_NE(message(model), "");
  EXPECT_EQ(onnxmicro_model_input_count(model), 0u);
  EXPECT_EQ(onnxmicro_model_load(model, nullptr, 10, nullptr, 0), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_NE(message(model).find("NULL"), std::string::npos) << message(model);
  // The handle loads again, and a success clears the message.
  ASSERT_EQ(onnxmicro_model_load(model, hello_cnn_model, hello_cnn_model_size, nullptr, 0), ONNXMICRO_OK);
  EXPECT_EQ(message(model), "");
  onnxmicro_model_destroy(model);
}

TEST(CApi, ModelMetadataTooSmallReportsTheSizeNeeded) {
  onnxmicro_model* model = nullptr;
  ASSERT_EQ(onnxmicro_model_create(&model), ONNXMICRO_OK);
  std::vector<Block> metadata(4);
  EXPECT_EQ(onnxmicro_model_load(model, hello_cnn_model, hello_cnn_model_size, metadata.data(), 64),
            ONNXMICRO_OUT_OF_MEMORY);
  const std::size_t needed = onnxmicro_model_metadata_bytes(model);
  EXPECT_GT(needed, 64u);
  EXPECT_NE(message(model).find(std::to_string(needed)), std::string::npos) << message(model);
  metadata.resize((needed + 15) / 16);
  ASSERT_EQ(onnxmicro_model_load(model, hello_cnn_model, hello_cnn_model_size, metadata.data(), needed), ONNXMICRO_OK)
      << message(model);
  EXPECT_EQ(onnxmicro_model_metadata_bytes(model), needed);
  onnxmicro_model_destroy(model);
}

TEST_F(CApiStorage, ModelNamesAndCounts) {
  ASSERT_EQ(onnxmicro_model_input_count(model_), 1u);
  ASSERT_EQ(onnxmicro_model_output_count(model_), 1u);
  const char* name = nullptr;
  std::size_t length = 0;
  ASSERT_EQ(onnxmicro_model_input_name(model_, 0, &name, &length), ONNXMICRO_OK);
  EXPECT_EQ(std::string(name, length), "input");
  ASSERT_EQ(onnxmicro_model_output_name(model_, 0, &name, &length), ONNXMICRO_OK);
  EXPECT_EQ(std::string(name, length), "probabilities");
  EXPECT_EQ(onnxmicro_model_output_name(model_, 1, &name, &length), ONNXMICRO_OUT_OF_RANGE);
  EXPECT_EQ(onnxmicro_model_input_name(model_, 0, nullptr, &length), ONNXMICRO_INVALID_ARGUMENT);
}

TEST_F(CApiStorage, ArenaTooSmallReportsTheSizeNeeded) {
  EXPECT_EQ(prepare(16, 64 * 1024), ONNXMICRO_OUT_OF_MEMORY);
  const std::size_t needed = onnxmicro_session_required_arena_bytes(session_);
  EXPECT_GT(needed, 16u);
  EXPECT_NE(message(session_).find(std::to_string(needed)), std::string::npos) << message(session_);
  EXPECT_EQ(onnxmicro_session_run(session_), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_NE(message(session_).find("not prepared"), std::string::npos) << message(session_);
  ASSERT_EQ(prepare(needed, 64 * 1024), ONNXMICRO_OK) << message(session_);
  EXPECT_EQ(onnxmicro_session_required_arena_bytes(session_), needed);
  const onnxmicro_tensor input = hello_input();
  ASSERT_EQ(onnxmicro_session_set_input(session_, 0, &input), ONNXMICRO_OK) << message(session_);
  ASSERT_EQ(onnxmicro_session_run(session_), ONNXMICRO_OK) << message(session_);
  expect_hello_output(session_);
}

TEST_F(CApiStorage, SessionMetadataTooSmallReportsTheSizesNeeded) {
  EXPECT_EQ(prepare(64 * 1024, 256), ONNXMICRO_OUT_OF_MEMORY);
  const std::size_t needed = onnxmicro_session_metadata_bytes(session_);
  const std::size_t arena = onnxmicro_session_required_arena_bytes(session_);
  EXPECT_GT(needed, 256u);
  EXPECT_GT(arena, 0u);
  EXPECT_NE(message(session_).find(std::to_string(needed)), std::string::npos) << message(session_);
  // Exactly the sizes reported are enough (the buffers are 16-byte aligned, as when measured).
  ASSERT_EQ(prepare(arena, needed), ONNXMICRO_OK) << message(session_);
  EXPECT_EQ(onnxmicro_session_metadata_bytes(session_), needed);
  EXPECT_EQ(onnxmicro_session_required_arena_bytes(session_), arena);
}

TEST_F(CApiStorage, MisalignedArenaIsRefused) {
  arena_.assign(1024, Block{});
  session_metadata_.assign(4096, Block{});
  EXPECT_EQ(onnxmicro_session_prepare(session_, model_, arena_.data()->bytes + 1, 8192, session_metadata_.data(),
                                      4096 * sizeof(Block)),
            ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_NE(message(session_).find("aligned"), std::string::npos) << message(session_);
}

TEST_F(CApiStorage, WrongDtypeNamesTheInput) {
  ASSERT_EQ(prepare(), ONNXMICRO_OK) << message(session_);
  const onnxmicro_tensor input = hello_input(ONNXMICRO_DTYPE_INT32);
  EXPECT_EQ(onnxmicro_session_set_input(session_, 0, &input), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_NE(message(session_).find("'input'"), std::string::npos) << message(session_);
  EXPECT_NE(message(session_).find("int32"), std::string::npos) << message(session_);
}

TEST_F(CApiStorage, WrongShapeNamesTheInput) {
  ASSERT_EQ(prepare(), ONNXMICRO_OK) << message(session_);
  const std::int64_t dims[] = {1, 4, 4, 4};
  onnxmicro_tensor input = hello_input();
  input.dims = dims;
  EXPECT_EQ(onnxmicro_session_set_input_by_name(session_, "input", &input), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_NE(message(session_).find("'input'"), std::string::npos) << message(session_);
  EXPECT_NE(message(session_).find("[1,4,4,4]"), std::string::npos) << message(session_);
}

TEST_F(CApiStorage, ByteSizeAndPointersAreChecked) {
  ASSERT_EQ(prepare(), ONNXMICRO_OK) << message(session_);
  onnxmicro_tensor input = hello_input();
  input.byte_size -= 4;
  EXPECT_EQ(onnxmicro_session_set_input(session_, 0, &input), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_NE(message(session_).find("'input': byte_size is 252"), std::string::npos) << message(session_);
  input = hello_input();
  input.dims = nullptr;
  EXPECT_EQ(onnxmicro_session_set_input(session_, 0, &input), ONNXMICRO_INVALID_ARGUMENT);
  input = hello_input(777);
  EXPECT_EQ(onnxmicro_session_set_input(session_, 0, &input), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_NE(message(session_).find("unknown dtype 777"), std::string::npos) << message(session_);
  EXPECT_EQ(onnxmicro_session_set_input(session_, 0, nullptr), ONNXMICRO_INVALID_ARGUMENT);
  input = hello_input();
  EXPECT_EQ(onnxmicro_session_set_input(session_, 1, &input), ONNXMICRO_OUT_OF_RANGE);
  EXPECT_EQ(onnxmicro_session_get_output(session_, 1, &input), ONNXMICRO_OUT_OF_RANGE);
  EXPECT_NE(message(session_).find("output index 1"), std::string::npos) << message(session_);
}

TEST_F(CApiStorage, UnknownInputNameListsTheInputs) {
  ASSERT_EQ(prepare(), ONNXMICRO_OK) << message(session_);
  const onnxmicro_tensor input = hello_input();
  EXPECT_EQ(onnxmicro_session_set_input_by_name(session_, "image", &input), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_NE(message(session_).find("'image'"), std::string::npos) << message(session_);
  EXPECT_NE(message(session_).find("'input'"), std::string::npos) << message(session_);
  EXPECT_EQ(onnxmicro_session_set_input_by_name(session_, nullptr, &input), ONNXMICRO_INVALID_ARGUMENT);
}

TEST_F(CApiStorage, FullRunInCallerMemory) {
  ASSERT_EQ(prepare(), ONNXMICRO_OK) << message(session_);
  EXPECT_EQ(onnxmicro_session_input_count(session_), 1u);
  EXPECT_EQ(onnxmicro_session_output_count(session_), 1u);
  onnxmicro_tensor info{};
  ASSERT_EQ(onnxmicro_session_get_input(session_, 0, &info), ONNXMICRO_OK);
  EXPECT_EQ(info.dtype, ONNXMICRO_DTYPE_FLOAT32);
  ASSERT_EQ(info.rank, 4u);
  EXPECT_EQ(info.dims[3], 8);
  EXPECT_EQ(info.byte_size, sizeof(hello_cnn_model_input));
  EXPECT_EQ(info.data, nullptr);
  const onnxmicro_tensor input = hello_input();
  for (int run = 0; run < 2; ++run) {
    SCOPED_TRACE(run);
    // Before every run: the plan reuses an input's slot once the input has been read.
    ASSERT_EQ(onnxmicro_session_set_input_by_name(session_, "input", &input), ONNXMICRO_OK) << message(session_);
    ASSERT_EQ(onnxmicro_session_run(session_), ONNXMICRO_OK) << message(session_);
    expect_hello_output(session_);
  }
  EXPECT_GT(onnxmicro_session_metadata_bytes(session_), 0u);
  // The output lives in the caller's arena.
  onnxmicro_tensor output{};
  ASSERT_EQ(onnxmicro_session_get_output(session_, 0, &output), ONNXMICRO_OK);
  const auto* arena_begin = reinterpret_cast<const unsigned char*>(arena_.data());
  const auto* data = static_cast<const unsigned char*>(output.data);
  EXPECT_TRUE(data >= arena_begin && data < arena_begin + arena_.size() * sizeof(Block));
}

TEST(CApi, FullRunOnTheHeap) {
  onnxmicro_model* model = nullptr;
  onnxmicro_session* session = nullptr;
  ASSERT_EQ(onnxmicro_model_create(&model), ONNXMICRO_OK);
  ASSERT_EQ(onnxmicro_session_create(&session), ONNXMICRO_OK);
  EXPECT_EQ(onnxmicro_session_prepare(session, model, nullptr, 0, nullptr, 0), ONNXMICRO_INVALID_ARGUMENT);
  EXPECT_NE(message(session).find("not loaded"), std::string::npos) << message(session);
  ASSERT_EQ(onnxmicro_model_load(model, hello_cnn_model, hello_cnn_model_size, nullptr, 0), ONNXMICRO_OK);
  EXPECT_GT(onnxmicro_model_metadata_bytes(model), 0u);
  ASSERT_EQ(onnxmicro_session_prepare(session, model, nullptr, 0, nullptr, 0), ONNXMICRO_OK) << message(session);
  EXPECT_GT(onnxmicro_session_required_arena_bytes(session), 0u);
  EXPECT_GT(onnxmicro_session_metadata_bytes(session), 0u);
  const onnxmicro_tensor input = hello_input();
  ASSERT_EQ(onnxmicro_session_set_input(session, 0, &input), ONNXMICRO_OK) << message(session);
  ASSERT_EQ(onnxmicro_session_run(session), ONNXMICRO_OK) << message(session);
  expect_hello_output(session);
  onnxmicro_session_destroy(session);
  onnxmicro_model_destroy(model);
}

TEST(CApi, LoadFile) {
  const std::string path = ::testing::TempDir() + "onnxmicro_c_api_hello.onnx";
  std::FILE* file = std::fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(std::fwrite(hello_cnn_model, 1, hello_cnn_model_size, file), hello_cnn_model_size);
  std::fclose(file);
  onnxmicro_model* model = nullptr;
  ASSERT_EQ(onnxmicro_model_create(&model), ONNXMICRO_OK);
  ASSERT_EQ(onnxmicro_model_load_file(model, path.c_str(), nullptr, 0), ONNXMICRO_OK) << message(model);
  EXPECT_EQ(onnxmicro_model_output_count(model), 1u);
  EXPECT_EQ(onnxmicro_model_load_file(model, (path + ".missing").c_str(), nullptr, 0), ONNXMICRO_IO_ERROR);
  EXPECT_NE(message(model).find(".missing"), std::string::npos) << message(model);
  EXPECT_EQ(onnxmicro_model_output_count(model), 0u);
  onnxmicro_model_destroy(model);
  std::remove(path.c_str());
}

TEST(CApi, CalledFromC99) {
  float output[16] = {};
  std::size_t count = 0;
  ASSERT_EQ(c99_run_model(hello_cnn_model, hello_cnn_model_size, hello_cnn_model_input, hello_cnn_model_input_count,
                          output, 16, &count),
            ONNXMICRO_OK);
  ASSERT_EQ(count, hello_cnn_model_expected_count);
  for (std::size_t i = 0; i < count; ++i) EXPECT_NEAR(output[i], hello_cnn_model_expected[i], kTolerance);
}

}  // namespace
