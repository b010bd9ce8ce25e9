// SPDX-License-Identifier: MIT
// The implementation of the C API (onnxmicro/c/onnxmicro.h): each function wraps one Model or Session call and
// keeps the Status in the handle, so the C side gets a code and, from the handle, its message. Compiled into the
// one C++ translation unit of a program that defines ONNXMICRO_C_API_IMPLEMENTATION before including this (the
// CMake target onnxmicro::c is such a unit); elsewhere this header declares nothing.
//   ONNXMICRO_C_API_KERNELS  a KernelSet type (e.g. my_net::Kernels from `onnxmicro kernels`, included before):
//                            the kernels sessions resolve to. Default: all_kernels_registry(), every kernel, from
//                            the library onnxmicro::all_kernels (or ONNXMICRO_DEFINE_ALL_KERNELS_REGISTRY).
#pragma once
#ifdef ONNXMICRO_C_API_IMPLEMENTATION

#include <cstddef>
#include <cstdint>
#include <new>
#include <string_view>

#include "onnxmicro/c/onnxmicro.h"
#include "onnxmicro/runtime.hpp"
#ifndef ONNXMICRO_C_API_KERNELS
#include "onnxmicro/runtime/all_kernels_registry.hpp"
#endif

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {
namespace c_api {

static_assert(static_cast<int>(StatusCode::device_error) == ONNXMICRO_DEVICE_ERROR, "status codes must mirror");
static_assert(static_cast<int>(DataType::bfloat16) == ONNXMICRO_DTYPE_BFLOAT16, "dtypes must mirror");
static_assert(ONNXMICRO_TENSOR_ALIGNMENT == ONNXMICRO_ARENA_ALIGNMENT,
              "ONNXMICRO_TENSOR_ALIGNMENT differs from the C API's ONNXMICRO_ARENA_ALIGNMENT");

constexpr std::size_t kBufferAlignment = 16;

/// The caller's metadata buffer, aligned to 16 bytes inside (a C99 array has no alignment to offer), remembering
/// whether it ran out: an out_of_memory from prepare() may also be the arena's.
class MetadataBuffer final : public MetadataAllocator {
 public:
  void assign(void* buffer, std::size_t bytes) noexcept {
    const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(buffer);
    skipped_ = static_cast<std::size_t>(align_up(begin, kBufferAlignment) - begin);
    buffer_ = skipped_ <= bytes ? BufferAllocator(static_cast<unsigned char*>(buffer) + skipped_, bytes - skipped_)
                                : BufferAllocator();
    exhausted_ = false;
  }
  void* allocate(std::size_t bytes, std::size_t alignment) noexcept override {
    void* p = buffer_.allocate(bytes, alignment);
    if (p == nullptr) exhausted_ = true;
    return p;
  }
  std::size_t used_bytes() const noexcept override { return buffer_.used_bytes(); }
  void reset() noexcept override { buffer_.reset(); }
  void rewind(std::size_t mark) noexcept override { buffer_.rewind(mark); }

  bool exhausted() const noexcept { return exhausted_; }
  /// Bytes at the buffer's start skipped to align it (part of what the caller must provide).
  std::size_t skipped() const noexcept { return skipped_; }

 private:
  BufferAllocator buffer_;
  std::size_t skipped_ = 0;
  bool exhausted_ = false;
};

/// Ends `object` and makes a fresh one in its place: Model and Session then start over from nothing.
template <typename T>
void renew(T& object) noexcept {
  object.~T();
  new (&object) T();
}

inline onnxmicro_status code_of(const Status& status) noexcept { return static_cast<onnxmicro_status>(status.code()); }

/// Builds the handle in `storage`, aligned within it.
template <typename Handle>
onnxmicro_status construct_in(void* storage, std::size_t storage_bytes, Handle** out) noexcept {
  if (out == nullptr) return ONNXMICRO_INVALID_ARGUMENT;
  *out = nullptr;
  if (storage == nullptr) return ONNXMICRO_INVALID_ARGUMENT;
  const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(storage);
  const std::size_t skip = static_cast<std::size_t>(align_up(begin, alignof(Handle)) - begin);
  if (storage_bytes < skip || storage_bytes - skip < sizeof(Handle)) return ONNXMICRO_OUT_OF_MEMORY;
  *out = new (static_cast<unsigned char*>(storage) + skip) Handle();
  return ONNXMICRO_OK;
}

template <typename Handle>
constexpr std::size_t storage_bytes_of() noexcept {
  return sizeof(Handle) + alignof(Handle) - 1;
}

/// onnxmicro_*_create: caller storage from malloc, remembered so destroy can free it.
template <typename Handle>
onnxmicro_status create_on_heap(Handle** out) noexcept {
#if ONNXMICRO_HAS_HEAP
  if (out == nullptr) return ONNXMICRO_INVALID_ARGUMENT;
  void* block = std::malloc(storage_bytes_of<Handle>());
  if (block == nullptr) {
    *out = nullptr;
    return ONNXMICRO_OUT_OF_MEMORY;
  }
  const onnxmicro_status status = construct_in(block, storage_bytes_of<Handle>(), out);
  (*out)->heap_block = block;
  return status;
#else
  if (out != nullptr) *out = nullptr;
  return ONNXMICRO_UNSUPPORTED;
#endif
}

template <typename Handle>
void destroy_handle(Handle* handle) noexcept {
  if (handle == nullptr) return;
  void* block = handle->heap_block;
  handle->~Handle();
#if ONNXMICRO_HAS_HEAP
  std::free(block);
#else
  static_cast<void>(block);
#endif
}

inline Status missing(const char* what) noexcept { return Status(StatusCode::invalid_argument) << what << " is NULL"; }

inline Status no_heap(const char* what) noexcept {
  return Status(StatusCode::invalid_argument)
         << what << " is required in a build without a heap (ONNXMICRO_HAS_HEAP=0)";
}

inline Status index_out_of_range(const char* what, std::size_t index, std::size_t count) noexcept {
  return Status(StatusCode::out_of_range)
         << what << " index " << static_cast<unsigned long long>(index) << " is out of range: the model has "
         << static_cast<unsigned long long>(count) << " " << what << "s";
}

inline const char* null_handle_message() noexcept { return "the handle is NULL"; }

}  // namespace c_api
}  // namespace detail
ONNXMICRO_NAMESPACE_END

// ---- The handles ----------------------------------------------------------------------------------------------

struct onnxmicro_model {
#if ONNXMICRO_HAS_FILESYSTEM
  onnxmicro::ModelBytes file;  ///< onnxmicro_model_load_file's bytes (declared first: they outlive `model`)
#endif
  onnxmicro::detail::c_api::MetadataBuffer metadata;
  onnxmicro::Model model;
  onnxmicro::Status status;
  std::size_t metadata_bytes = 0;  ///< used, or needed after a too small buffer
  void* heap_block = nullptr;      ///< onnxmicro_model_create's allocation

  onnxmicro_status finish(const onnxmicro::Status& result) noexcept {
    status = result;
    return onnxmicro::detail::c_api::code_of(result);
  }
};

struct onnxmicro_session {
  onnxmicro::detail::c_api::MetadataBuffer metadata;
#if ONNXMICRO_HAS_HEAP
  onnxmicro::ChunkAllocator heap_metadata;  ///< NULL metadata, and the trial prepare that measures a need
#endif
  onnxmicro::Session session;  ///< after the allocators: ends before them
  /// Per graph input / output: the shape last reported, which onnxmicro_tensor::dims points at (in metadata).
  onnxmicro::Span<onnxmicro::Shape> input_shapes;
  onnxmicro::Span<onnxmicro::Shape> output_shapes;
  const onnxmicro_model* model = nullptr;
  onnxmicro::Status status;
  std::size_t arena_bytes = 0;     ///< required_arena_bytes of the last prepare (or of the trial prepare)
  std::size_t metadata_bytes = 0;  ///< used, or needed after a too small buffer
  bool prepared = false;
  void* heap_block = nullptr;  ///< onnxmicro_session_create's allocation

  onnxmicro_status finish(const onnxmicro::Status& result) noexcept {
    status = result;
    return onnxmicro::detail::c_api::code_of(result);
  }
};

ONNXMICRO_NAMESPACE_BEGIN
namespace detail {
namespace c_api {

static_assert(storage_bytes_of<onnxmicro_model>() <= ONNXMICRO_MODEL_STORAGE_BYTES,
              "a model handle needs more than ONNXMICRO_MODEL_STORAGE_BYTES: define it larger for C and C++ alike");
static_assert(storage_bytes_of<onnxmicro_session>() <= ONNXMICRO_SESSION_STORAGE_BYTES,
              "a session handle needs more than ONNXMICRO_SESSION_STORAGE_BYTES: define it larger for C and C++ alike");

inline KernelRegistry registry() noexcept {
#ifdef ONNXMICRO_C_API_KERNELS
  return ONNXMICRO_C_API_KERNELS::registry();
#else
  return all_kernels_registry();
#endif
}

// ---- Models ----

/// After a load that ran out of the caller's metadata: the need, measured by a trial load on the heap.
inline void measure_model_metadata(onnxmicro_model& m, ByteSpan bytes, LoadOptions options, Status& failure) noexcept {
#if ONNXMICRO_HAS_HEAP
  renew(m.model);
  options.metadata_allocator = nullptr;
  if (m.model.load(bytes, options).ok()) {
    m.metadata_bytes = m.metadata.skipped() + m.model.metadata_bytes();
    failure << " (the model needs " << static_cast<unsigned long long>(m.metadata_bytes) << " metadata bytes)";
  }
  renew(m.model);
#else
  static_cast<void>(m);
  static_cast<void>(bytes);
  static_cast<void>(options);
  static_cast<void>(failure);
#endif
}

inline Status load_model(onnxmicro_model& m, ByteSpan bytes, void* metadata, std::size_t metadata_bytes,
                         std::string_view directory) noexcept {
  renew(m.model);
  m.metadata_bytes = 0;
  LoadOptions options;
  options.base_directory = directory;
  if (metadata != nullptr) {
    m.metadata.assign(metadata, metadata_bytes);
    options.metadata_allocator = &m.metadata;
  } else if (!ONNXMICRO_HAS_HEAP) {
    return no_heap("the metadata buffer");
  }
  Status status = m.model.load(bytes, options);
  if (status.ok()) {
    m.metadata_bytes = metadata != nullptr ? m.metadata.skipped() + m.metadata.used_bytes() : m.model.metadata_bytes();
  } else if (status.code() == StatusCode::out_of_memory && metadata != nullptr && m.metadata.exhausted()) {
    measure_model_metadata(m, bytes, options, status);
  }
  return status;
}

inline Status load_model_file(onnxmicro_model& m, const char* path, void* metadata,
                              std::size_t metadata_bytes) noexcept {
#if ONNXMICRO_HAS_FILESYSTEM
  renew(m.model);  // before the bytes it views
  m.file = ModelBytes();
  ONNXMICRO_RETURN_IF_ERROR(ModelBytes::from_file(path, m.file));
  return load_model(m, m.file.bytes(), metadata, metadata_bytes, m.file.directory());
#else
  static_cast<void>(m);
  static_cast<void>(path);
  static_cast<void>(metadata);
  static_cast<void>(metadata_bytes);
  return Status(StatusCode::unsupported) << "onnxmicro_model_load_file needs a file system (ONNXMICRO_HAS_FILESYSTEM)";
#endif
}

inline Status value_name(const onnxmicro_model* m, bool input, std::size_t index, const char** name,
                         std::size_t* length) noexcept {
  if (name == nullptr || length == nullptr) return missing("name or length");
  *name = nullptr;
  *length = 0;
  if (!m->model.loaded()) return Status(StatusCode::invalid_argument) << "the model is not loaded";
  const model::Graph& graph = m->model.graph();
  const Span<const model::ValueId> ids =
      input ? Span<const model::ValueId>(graph.inputs) : Span<const model::ValueId>(graph.outputs);
  if (index >= ids.size()) return index_out_of_range(input ? "input" : "output", index, ids.size());
  const std::string_view text = graph.values[static_cast<std::size_t>(ids[index])].name;
  *name = text.data();
  *length = text.size();
  return {};
}

// ---- Sessions ----

/// The C API's bookkeeping, then the session's own prepare, all in `allocator`.
inline Status prepare_into(onnxmicro_session& s, const Model& model, void* arena, std::size_t arena_bytes,
                           MetadataAllocator& allocator) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(model.graph().inputs.size(), s.input_shapes));
  ONNXMICRO_RETURN_IF_ERROR(allocator.allocate_array(model.graph().outputs.size(), s.output_shapes));
  SessionOptions options;
  options.arena = arena;
  options.arena_bytes = arena_bytes;
  options.metadata_allocator = &allocator;
  return s.session.prepare(model, registry(), options);
}

/// Back to an unprepared session that holds nothing (frees what a heap prepare took).
inline void unprepare(onnxmicro_session& s) noexcept {
  renew(s.session);
  s.input_shapes = Span<Shape>();
  s.output_shapes = Span<Shape>();
  s.prepared = false;
#if ONNXMICRO_HAS_HEAP
  s.heap_metadata.reset();
#endif
}

/// After a prepare that ran out of the caller's metadata: both needs, measured by a trial prepare on the heap.
inline void measure_session_needs(onnxmicro_session& s, const Model& model, Status& failure) noexcept {
#if ONNXMICRO_HAS_HEAP
  unprepare(s);
  if (prepare_into(s, model, nullptr, 0, s.heap_metadata).ok()) {
    s.metadata_bytes = s.metadata.skipped() + s.heap_metadata.used_bytes();
    s.arena_bytes = s.session.required_arena_bytes();
    failure << " (the session needs " << static_cast<unsigned long long>(s.metadata_bytes)
            << " metadata bytes and an arena of " << static_cast<unsigned long long>(s.arena_bytes) << " bytes)";
  }
  unprepare(s);
#else
  static_cast<void>(s);
  static_cast<void>(model);
  static_cast<void>(failure);
#endif
}

inline Status prepare_session(onnxmicro_session& s, const onnxmicro_model* m, void* arena, std::size_t arena_bytes,
                              void* metadata, std::size_t metadata_bytes) noexcept {
  unprepare(s);
  s.model = nullptr;
  s.arena_bytes = 0;
  s.metadata_bytes = 0;
  if (m == nullptr) return missing("the model");
  if (!m->model.loaded()) return Status(StatusCode::invalid_argument) << "the model is not loaded";
  if (arena == nullptr && !ONNXMICRO_HAS_HEAP) return no_heap("the arena");
  MetadataAllocator* allocator = &s.metadata;
  if (metadata != nullptr) {
    s.metadata.assign(metadata, metadata_bytes);
  } else {
#if ONNXMICRO_HAS_HEAP
    allocator = &s.heap_metadata;
#else
    return no_heap("the metadata buffer");
#endif
  }
  Status status = prepare_into(s, m->model, arena, arena_bytes, *allocator);
  s.arena_bytes = s.session.required_arena_bytes();
  if (status.ok()) {
    s.model = m;
    s.prepared = true;
    s.metadata_bytes = (metadata != nullptr ? s.metadata.skipped() : 0) + allocator->used_bytes();
  } else if (status.code() == StatusCode::out_of_memory && metadata != nullptr && s.metadata.exhausted()) {
    measure_session_needs(s, m->model, status);
  }
  return status;
}

inline Status require_prepared(const onnxmicro_session& s) noexcept {
  if (s.prepared) return {};
  return Status(StatusCode::invalid_argument) << "the session is not prepared (onnxmicro_session_prepare)";
}

inline void describe(onnxmicro_tensor& out, DataType dtype, const Shape& shape, const void* data,
                     std::size_t byte_size) noexcept {
  out.dtype = static_cast<onnxmicro_dtype>(dtype);
  out.rank = static_cast<std::size_t>(shape.rank());
  out.dims = shape.data();
  out.data = data;
  out.byte_size = byte_size;
}

/// The caller's tensor as a view, checked for what only the C side can get wrong: pointers, a dtype number,
/// the rank, and byte_size against dtype x dims (set_input copies that many bytes from data).
inline Status view_of(const onnxmicro_tensor* value, std::string_view input, ConstTensorView& view) noexcept {
  if (value == nullptr) return missing("the tensor");
  if (!is_known_dtype(value->dtype)) {
    return Status(StatusCode::invalid_argument) << "input '" << input << "': unknown dtype " << value->dtype;
  }
  if (value->rank > 0 && value->dims == nullptr) {
    return Status(StatusCode::invalid_argument)
           << "input '" << input << "': dims is NULL for rank " << static_cast<unsigned long long>(value->rank);
  }
  view.dtype = static_cast<DataType>(value->dtype);
  const Status shape_status = view.shape.assign(value->dims, value->rank);
  if (!shape_status.ok()) {
    return Status(shape_status.code()) << "input '" << input << "': " << shape_status.message();
  }
  view.data = value->data;
  const std::size_t expected = byte_size_of(view.dtype, view.shape.element_count());
  if (value->byte_size != expected) {
    return Status(StatusCode::invalid_argument)
           << "input '" << input << "': byte_size is " << static_cast<unsigned long long>(value->byte_size) << ", "
           << dtype_name(view.dtype) << " " << view.shape << " has " << static_cast<unsigned long long>(expected);
  }
  if (view.data == nullptr && expected > 0)
    return Status(StatusCode::invalid_argument) << "input '" << input << "': data is NULL";
  return {};
}

inline Status set_input(onnxmicro_session& s, std::size_t index, const onnxmicro_tensor* value) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(require_prepared(s));
  if (index >= s.session.input_count()) return index_out_of_range("input", index, s.session.input_count());
  ConstTensorView view;
  ONNXMICRO_RETURN_IF_ERROR(view_of(value, s.session.input_name(index), view));
  return s.session.set_input(index, view);
}

inline Status set_input_by_name(onnxmicro_session& s, const char* name, const onnxmicro_tensor* value) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(require_prepared(s));
  if (name == nullptr) return missing("the input name");
  std::size_t index = 0;
  ONNXMICRO_RETURN_IF_ERROR(s.session.input_index(name, index));
  return set_input(s, index, value);
}

inline Status get_input(onnxmicro_session& s, std::size_t index, onnxmicro_tensor* info) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(require_prepared(s));
  if (info == nullptr) return missing("the tensor");
  if (index >= s.session.input_count()) return index_out_of_range("input", index, s.session.input_count());
  const TensorView slot = s.session.input(index);
  s.input_shapes[index] = slot.shape;
  describe(*info, slot.dtype, s.input_shapes[index], nullptr, slot.byte_size());
  return {};
}

inline Status get_output(onnxmicro_session& s, std::size_t index, onnxmicro_tensor* output) noexcept {
  ONNXMICRO_RETURN_IF_ERROR(require_prepared(s));
  if (output == nullptr) return missing("the tensor");
  if (index >= s.session.output_count()) return index_out_of_range("output", index, s.session.output_count());
  const ConstTensorView value = s.session.output(index);
  s.output_shapes[index] = value.shape;
  describe(*output, value.dtype, s.output_shapes[index], value.data, value.byte_size());
  return {};
}

}  // namespace c_api
}  // namespace detail
ONNXMICRO_NAMESPACE_END

// ---- The C functions ------------------------------------------------------------------------------------------

#define ONNXMICRO_C_API_STRINGIFY_IMPL(x) #x
#define ONNXMICRO_C_API_STRINGIFY(x) ONNXMICRO_C_API_STRINGIFY_IMPL(x)

extern "C" {

const char* onnxmicro_status_name(onnxmicro_status status) {
  if (status < 0 || status > ONNXMICRO_DEVICE_ERROR) return "unknown";
  return onnxmicro::status_code_name(static_cast<onnxmicro::StatusCode>(status));
}

const char* onnxmicro_dtype_name(onnxmicro_dtype dtype) {
  if (!onnxmicro::is_known_dtype(dtype)) return "undefined";
  return onnxmicro::dtype_name(static_cast<onnxmicro::DataType>(dtype));
}

uint32_t onnxmicro_version(void) {
  return ONNXMICRO_VERSION_MAJOR * 10000u + ONNXMICRO_VERSION_MINOR * 100u + ONNXMICRO_VERSION_PATCH;
}

const char* onnxmicro_version_string(void) {
  return ONNXMICRO_C_API_STRINGIFY(ONNXMICRO_VERSION_MAJOR) "." ONNXMICRO_C_API_STRINGIFY(
      ONNXMICRO_VERSION_MINOR) "." ONNXMICRO_C_API_STRINGIFY(ONNXMICRO_VERSION_PATCH);
}

// ---- Models ----

size_t onnxmicro_model_storage_bytes(void) { return onnxmicro::detail::c_api::storage_bytes_of<onnxmicro_model>(); }

onnxmicro_status onnxmicro_model_init(void* storage, size_t storage_bytes, onnxmicro_model** model) {
  return onnxmicro::detail::c_api::construct_in(storage, storage_bytes, model);
}

onnxmicro_status onnxmicro_model_create(onnxmicro_model** model) {
  return onnxmicro::detail::c_api::create_on_heap(model);
}

void onnxmicro_model_destroy(onnxmicro_model* model) { onnxmicro::detail::c_api::destroy_handle(model); }

onnxmicro_status onnxmicro_model_load(onnxmicro_model* model, const void* bytes, size_t size, void* metadata,
                                      size_t metadata_bytes) {
  if (model == nullptr) return ONNXMICRO_INVALID_ARGUMENT;
  if (bytes == nullptr && size > 0) return model->finish(onnxmicro::detail::c_api::missing("the model bytes"));
  const onnxmicro::ByteSpan span(static_cast<const unsigned char*>(bytes), size);
  return model->finish(onnxmicro::detail::c_api::load_model(*model, span, metadata, metadata_bytes, {}));
}

onnxmicro_status onnxmicro_model_load_file(onnxmicro_model* model, const char* path, void* metadata,
                                           size_t metadata_bytes) {
  if (model == nullptr) return ONNXMICRO_INVALID_ARGUMENT;
  if (path == nullptr) return model->finish(onnxmicro::detail::c_api::missing("the path"));
  return model->finish(onnxmicro::detail::c_api::load_model_file(*model, path, metadata, metadata_bytes));
}

const char* onnxmicro_model_message(const onnxmicro_model* model) {
  return model == nullptr ? onnxmicro::detail::c_api::null_handle_message() : model->status.message();
}

size_t onnxmicro_model_metadata_bytes(const onnxmicro_model* model) {
  return model == nullptr ? 0 : model->metadata_bytes;
}

size_t onnxmicro_model_input_count(const onnxmicro_model* model) {
  return model == nullptr || !model->model.loaded() ? 0 : model->model.graph().inputs.size();
}

size_t onnxmicro_model_output_count(const onnxmicro_model* model) {
  return model == nullptr || !model->model.loaded() ? 0 : model->model.graph().outputs.size();
}

// The name queries keep the handle const (a model may be shared), so their failures carry no message.
onnxmicro_status onnxmicro_model_input_name(const onnxmicro_model* model, size_t index, const char** name,
                                            size_t* length) {
  if (model == nullptr) return ONNXMICRO_INVALID_ARGUMENT;
  return onnxmicro::detail::c_api::code_of(onnxmicro::detail::c_api::value_name(model, true, index, name, length));
}

onnxmicro_status onnxmicro_model_output_name(const onnxmicro_model* model, size_t index, const char** name,
                                             size_t* length) {
  if (model == nullptr) return ONNXMICRO_INVALID_ARGUMENT;
  return onnxmicro::detail::c_api::code_of(onnxmicro::detail::c_api::value_name(model, false, index, name, length));
}

// ---- Sessions ----

size_t onnxmicro_session_storage_bytes(void) { return onnxmicro::detail::c_api::storage_bytes_of<onnxmicro_session>(); }

onnxmicro_status onnxmicro_session_init(void* storage, size_t storage_bytes, onnxmicro_session** session) {
  return onnxmicro::detail::c_api::construct_in(storage, storage_bytes, session);
}

onnxmicro_status onnxmicro_session_create(onnxmicro_session** session) {
  return onnxmicro::detail::c_api::create_on_heap(session);
}

void onnxmicro_session_destroy(onnxmicro_session* session) { onnxmicro::detail::c_api::destroy_handle(session); }

onnxmicro_status onnxmicro_session_prepare(onnxmicro_session* session, const onnxmicro_model* model, void* arena,
                                           size_t arena_bytes, void* metadata, size_t metadata_bytes) {
  if (session == nullptr) return ONNXMICRO_INVALID_ARGUMENT;
  return session->finish(
      onnxmicro::detail::c_api::prepare_session(*session, model, arena, arena_bytes, metadata, metadata_bytes));
}

size_t onnxmicro_session_required_arena_bytes(const onnxmicro_session* session) {
  return session == nullptr ? 0 : session->arena_bytes;
}

size_t onnxmicro_session_metadata_bytes(const onnxmicro_session* session) {
  return session == nullptr ? 0 : session->metadata_bytes;
}

const char* onnxmicro_session_message(const onnxmicro_session* session) {
  return session == nullptr ? onnxmicro::detail::c_api::null_handle_message() : session->status.message();
}

size_t onnxmicro_session_input_count(const onnxmicro_session* session) {
  return session == nullptr || !session->prepared ? 0 : session->session.input_count();
}

size_t onnxmicro_session_output_count(const onnxmicro_session* session) {
  return session == nullptr || !session->prepared ? 0 : session->session.output_count();
}

onnxmicro_status onnxmicro_session_get_input(onnxmicro_session* session, size_t index, onnxmicro_tensor* info) {
  if (session == nullptr) return ONNXMICRO_INVALID_ARGUMENT;
  return session->finish(onnxmicro::detail::c_api::get_input(*session, index, info));
}

onnxmicro_status onnxmicro_session_set_input(onnxmicro_session* session, size_t index, const onnxmicro_tensor* value) {
  if (session == nullptr) return ONNXMICRO_INVALID_ARGUMENT;
  return session->finish(onnxmicro::detail::c_api::set_input(*session, index, value));
}

onnxmicro_status onnxmicro_session_set_input_by_name(onnxmicro_session* session, const char* name,
                                                     const onnxmicro_tensor* value) {
  if (session == nullptr) return ONNXMICRO_INVALID_ARGUMENT;
  return session->finish(onnxmicro::detail::c_api::set_input_by_name(*session, name, value));
}

onnxmicro_status onnxmicro_session_run(onnxmicro_session* session) {
  if (session == nullptr) return ONNXMICRO_INVALID_ARGUMENT;
  if (!session->prepared) return session->finish(onnxmicro::detail::c_api::require_prepared(*session));
  return session->finish(session->session.run());
}

onnxmicro_status onnxmicro_session_get_output(onnxmicro_session* session, size_t index, onnxmicro_tensor* output) {
  if (session == nullptr) return ONNXMICRO_INVALID_ARGUMENT;
  return session->finish(onnxmicro::detail::c_api::get_output(*session, index, output));
}

}  // extern "C"

#undef ONNXMICRO_C_API_STRINGIFY
#undef ONNXMICRO_C_API_STRINGIFY_IMPL

#endif  // ONNXMICRO_C_API_IMPLEMENTATION
