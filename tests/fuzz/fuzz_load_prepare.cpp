// SPDX-License-Identifier: MIT
// fuzz_load_prepare: arbitrary bytes as a model file: ModelBytes::borrow -> Model::load -> Session::prepare with
// the fuzz kernel set. Metadata and arena come from fixed caller buffers (64 MiB each), so a model that claims a
// huge tensor must fail with a Status (out_of_memory, limit_exceeded, ...), never allocate it. A prepared session
// is not run (fuzz_mutate_run does that). Set ONNXMICRO_FUZZ_VERBOSE=1 to print each input's outcome.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fuzz_common.hpp"
#include "fuzz_kernels.hpp"

namespace {

namespace om = onnxmicro;
using onnxmicro_fuzz::require;
using onnxmicro_fuzz::require_clear_error;

constexpr std::size_t kMetadataBytes = std::size_t{64} << 20;
constexpr std::size_t kArenaBytes = std::size_t{64} << 20;
constexpr std::size_t kStringPoolBytes = std::size_t{1} << 20;

struct Buffers {
  unsigned char* model_metadata = static_cast<unsigned char*>(std::aligned_alloc(64, kMetadataBytes));
  unsigned char* session_metadata = static_cast<unsigned char*>(std::aligned_alloc(64, kMetadataBytes));
  unsigned char* arena = static_cast<unsigned char*>(std::aligned_alloc(64, kArenaBytes));
  char* string_pool = static_cast<char*>(std::malloc(kStringPoolBytes));
  bool verbose = std::getenv("ONNXMICRO_FUZZ_VERBOSE") != nullptr;
};

Buffers& buffers() {
  static Buffers b;  // allocated once: the fuzzer's RSS stays flat and leak checks see nothing per input
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Buffers& b = buffers();
  om::ModelBytes bytes = om::ModelBytes::borrow(data, size);
  om::BufferAllocator model_metadata(b.model_metadata, kMetadataBytes);
  om::LoadOptions load_options;
  load_options.metadata_allocator = &model_metadata;
  om::Model model;
  om::Status status = model.load(bytes.bytes(), load_options);
  require_clear_error(status, "Model::load");
  require(status.ok() == model.loaded(), "Model::loaded() disagrees with load()'s Status");
  if (!status.ok()) {
    if (b.verbose) std::fprintf(stderr, "load: %s\n", status.message());
    return 0;
  }

  // Symbolic dims of the inputs bound to 1 (byte 0 of the input picks 1..3), so dynamic models prepare too.
  const std::vector<om::InputShape> shapes = onnxmicro_fuzz::bind_unknown_dims(
      model, [data, size](std::size_t) { return size == 0 ? std::size_t{0} : std::size_t{data[0]}; });
  om::BufferAllocator session_metadata(b.session_metadata, kMetadataBytes);
  om::SessionOptions options;
  options.input_shapes = om::Span<const om::InputShape>(shapes.data(), shapes.size());
  options.arena = b.arena;
  options.arena_bytes = kArenaBytes;
  options.metadata_allocator = &session_metadata;
  options.string_pool = b.string_pool;
  options.string_pool_bytes = kStringPoolBytes;
  om::Session session;
  status = session.prepare(model, onnxmicro_fuzz::fuzz_kernels_registry(), options);
  require_clear_error(status, "Session::prepare");
  if (b.verbose) std::fprintf(stderr, "prepare: %s\n", status.ok() ? "ok" : status.message());
  if (status.ok()) {
    require(session.required_arena_bytes() <= kArenaBytes, "prepared with an arena larger than the caller's");
    for (std::size_t i = 0; i < session.input_count(); ++i) (void)session.input_name(i);
    for (std::size_t i = 0; i < session.output_count(); ++i) (void)session.output_name(i);
  }
  return 0;
}
