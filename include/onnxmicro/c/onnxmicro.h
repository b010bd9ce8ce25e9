/* SPDX-License-Identifier: MIT */
/* onnxmicro's C API: load an ONNX model from bytes, prepare a session in caller-provided memory, set inputs, run,
 * read outputs. Valid C99 and C++; needs only <stddef.h> and <stdint.h>.
 *
 * The implementation is C++ (the runtime is header-only C++17) and is compiled once per program: link the CMake
 * target onnxmicro::c (every kernel, precompiled), or compile one C++ file that does
 *
 *     #define ONNXMICRO_C_API_IMPLEMENTATION
 *     #include <onnxmicro/c/onnxmicro_impl.hpp>
 *
 * optionally naming the kernels the program carries (firmware: the model's own set, from `onnxmicro kernels`):
 *
 *     #include "my_net_kernels.hpp"
 *     #define ONNXMICRO_C_API_KERNELS my_net::Kernels
 *
 * Conventions:
 * - Every function that can fail returns an onnxmicro_status: ONNXMICRO_OK (0) or an error code. The handle's
 *   last message (onnxmicro_model_message, onnxmicro_session_message) then says what and where; it lives in the
 *   handle (no heap), is "" after a success and stays valid until the next call on that handle.
 * - A NULL handle or a NULL pointer where a value is required gives ONNXMICRO_INVALID_ARGUMENT.
 * - Handles live either in caller storage (onnxmicro_model_init, onnxmicro_session_init: no heap at all) or on
 *   the heap (onnxmicro_model_create, onnxmicro_session_create: hosted builds). Either way
 *   onnxmicro_*_destroy ends them.
 * - Memory: the model's graph tables and the session's kernel state go to caller metadata buffers, the tensors
 *   to a caller arena. Passing NULL for a buffer makes the runtime allocate it on the heap (hosted builds only).
 *   onnxmicro_session_run() never allocates.
 * - A handle is used by one thread at a time. One model may serve several sessions.
 */
#ifndef ONNXMICRO_C_ONNXMICRO_H
#define ONNXMICRO_C_ONNXMICRO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Status codes ---------------------------------------------------------------------------------------- */

/** What a function returns: ONNXMICRO_OK or one of the codes below (the same as onnxmicro::StatusCode). A fixed
 *  32-bit type rather than an enum, so that the C and C++ sides agree on its size under any enum setting. */
typedef int32_t onnxmicro_status;

enum {
  ONNXMICRO_OK = 0,               /**< success */
  ONNXMICRO_INVALID_ARGUMENT = 1, /**< the caller passed something wrong (handle, input name, dtype, shape, buffer) */
  ONNXMICRO_INVALID_MODEL = 2,    /**< the model bytes or graph are malformed or inconsistent */
  ONNXMICRO_UNSUPPORTED = 3,      /**< valid ONNX this build cannot run (no kernel, dtype), or no heap/file system */
  ONNXMICRO_OUT_OF_MEMORY = 4,    /**< a caller buffer is too small (the message, and the size queries, say how big) */
  ONNXMICRO_IO_ERROR = 5,         /**< a file could not be opened, mapped or read */
  ONNXMICRO_LIMIT_EXCEEDED = 6,   /**< a configured limit (rank, nesting, tensor bytes) was crossed */
  ONNXMICRO_OUT_OF_RANGE = 7,     /**< an index or value outside its valid range */
  ONNXMICRO_INTERNAL = 8,         /**< a bug in onnxmicro */
  ONNXMICRO_DEVICE_ERROR = 9      /**< a device backend's call failed */
};

/** The name of a status code ("ok", "invalid_model", ...); "unknown" for other values. Never NULL. */
const char* onnxmicro_status_name(onnxmicro_status status);

/* ---- Element types --------------------------------------------------------------------------------------- */

/** An element type: ONNX's TensorProto.DataType numbering (onnxmicro::DataType). */
typedef int32_t onnxmicro_dtype;

enum {
  ONNXMICRO_DTYPE_UNDEFINED = 0,
  ONNXMICRO_DTYPE_FLOAT32 = 1,
  ONNXMICRO_DTYPE_UINT8 = 2,
  ONNXMICRO_DTYPE_INT8 = 3,
  ONNXMICRO_DTYPE_UINT16 = 4,
  ONNXMICRO_DTYPE_INT16 = 5,
  ONNXMICRO_DTYPE_INT32 = 6,
  ONNXMICRO_DTYPE_INT64 = 7,
  ONNXMICRO_DTYPE_STRING = 8, /**< not settable through this API (elements are C++ string views) */
  ONNXMICRO_DTYPE_BOOL = 9,
  ONNXMICRO_DTYPE_FLOAT16 = 10,
  ONNXMICRO_DTYPE_FLOAT64 = 11,
  ONNXMICRO_DTYPE_UINT32 = 12,
  ONNXMICRO_DTYPE_UINT64 = 13,
  ONNXMICRO_DTYPE_BFLOAT16 = 16
  /* The other ONNX numbers (complex, float8, 4-bit, ...) are accepted as they are. */
};

/** The name of an element type, ONNX's ("float", "int8", "bool", ...); "undefined" for unknown values. Never NULL. */
const char* onnxmicro_dtype_name(onnxmicro_dtype dtype);

/* ---- Version --------------------------------------------------------------------------------------------- */

/** The library's version as MAJOR * 10000 + MINOR * 100 + PATCH (0.1.0 is 100). */
uint32_t onnxmicro_version(void);
/** The library's version as text, "MAJOR.MINOR.PATCH". Never NULL. */
const char* onnxmicro_version_string(void);

/* ---- Tensors --------------------------------------------------------------------------------------------- */

/** A dense, row-major tensor the caller or the session owns: what onnxmicro_session_set_input() reads and
 *  onnxmicro_session_get_input() / onnxmicro_session_get_output() fill. */
typedef struct onnxmicro_tensor {
  onnxmicro_dtype dtype; /**< element type */
  size_t rank;           /**< number of dims (0: a scalar) */
  const int64_t* dims;   /**< `rank` dims (may be NULL when rank is 0) */
  const void* data;      /**< the elements */
  size_t byte_size;      /**< bytes at `data`: elements x element size (sub-byte types packed, rounded up) */
} onnxmicro_tensor;

/* ---- Models ---------------------------------------------------------------------------------------------- */

/** A loaded, validated model (onnxmicro::Model). Opaque. */
typedef struct onnxmicro_model onnxmicro_model;

/** Caller storage that is always enough for a model handle (alignment slack included) on 32- and 64-bit targets
 *  with the default ONNXMICRO_MAX_ERROR_MESSAGE. The implementation checks it at compile time; define it larger
 *  (for the C and the C++ side alike) if that check fails. onnxmicro_model_storage_bytes() is the exact need. */
#ifndef ONNXMICRO_MODEL_STORAGE_BYTES
#define ONNXMICRO_MODEL_STORAGE_BYTES 2048
#endif

/** Bytes of caller storage onnxmicro_model_init() needs, alignment slack included. */
size_t onnxmicro_model_storage_bytes(void);

/** Creates a model handle in `storage` (any alignment; at least onnxmicro_model_storage_bytes() bytes, which must
 *  outlive the handle). No heap. Sets *model to the handle, or to NULL on failure (ONNXMICRO_INVALID_ARGUMENT for
 *  NULL pointers, ONNXMICRO_OUT_OF_MEMORY when `storage_bytes` is too small). */
onnxmicro_status onnxmicro_model_init(void* storage, size_t storage_bytes, onnxmicro_model** model);

/** Creates a model handle on the heap. ONNXMICRO_UNSUPPORTED in builds without a heap (bare metal). */
onnxmicro_status onnxmicro_model_create(onnxmicro_model** model);

/** Ends a handle from onnxmicro_model_init() or onnxmicro_model_create() (freeing the latter). Sessions prepared
 *  with it must be destroyed first. NULL is ignored. */
void onnxmicro_model_destroy(onnxmicro_model* model);

/** Parses and validates the ONNX model in `bytes` (not copied: they must stay unchanged and alive as long as the
 *  model and its sessions; 16-byte aligned bytes let initializers be read in place). The graph tables go to
 *  `metadata` (`metadata_bytes` bytes, kept until the next load or destroy); metadata NULL: heap (hosted builds).
 *  A handle may be loaded again; sessions prepared with it must then be prepared again.
 *  ONNXMICRO_OUT_OF_MEMORY when `metadata` is too small: onnxmicro_model_metadata_bytes() then tells the size
 *  needed (hosted builds measure it with a trial load on the heap; 0 where there is none). */
onnxmicro_status onnxmicro_model_load(onnxmicro_model* model, const void* bytes, size_t size, void* metadata,
                                      size_t metadata_bytes);

/** Like onnxmicro_model_load() for the file at `path` (mapped read-only, or read, and kept by the handle;
 *  external data is resolved next to it). ONNXMICRO_UNSUPPORTED in builds without a file system or heap. */
onnxmicro_status onnxmicro_model_load_file(onnxmicro_model* model, const char* path, void* metadata,
                                           size_t metadata_bytes);

/** The last call's error message on this handle ("" after a success). Never NULL; for a NULL handle, a fixed
 *  text saying so. Valid until the next call on the handle. */
const char* onnxmicro_model_message(const onnxmicro_model* model);

/** Metadata bytes of the last load: what the graph tables use, or after ONNXMICRO_OUT_OF_MEMORY for a too small
 *  metadata buffer, what they need (0 when unknown). 0 for NULL. */
size_t onnxmicro_model_metadata_bytes(const onnxmicro_model* model);

/** Number of graph inputs / outputs of a loaded model (0 for NULL or not loaded); the inputs are those a session
 *  takes (onnxmicro::Model's graph inputs). */
size_t onnxmicro_model_input_count(const onnxmicro_model* model);
size_t onnxmicro_model_output_count(const onnxmicro_model* model);

/** The name of graph input / output `index`: *name points into the model bytes and is NOT NUL-terminated; print
 *  it with "%.*s" and (int)*length. ONNXMICRO_OUT_OF_RANGE for an index past the count. */
onnxmicro_status onnxmicro_model_input_name(const onnxmicro_model* model, size_t index, const char** name,
                                            size_t* length);
onnxmicro_status onnxmicro_model_output_name(const onnxmicro_model* model, size_t index, const char** name,
                                             size_t* length);

/* ---- Sessions -------------------------------------------------------------------------------------------- */

/** A model prepared to run (onnxmicro::Session): kernels resolved, shapes inferred, the arena planned. Opaque. */
typedef struct onnxmicro_session onnxmicro_session;

/** Caller storage that is always enough for a session handle (alignment slack included), as
 *  ONNXMICRO_MODEL_STORAGE_BYTES is for a model. onnxmicro_session_storage_bytes() is the exact need. */
#ifndef ONNXMICRO_SESSION_STORAGE_BYTES
#define ONNXMICRO_SESSION_STORAGE_BYTES 2048
#endif

/** The alignment a caller arena must have (ONNXMICRO_TENSOR_ALIGNMENT of the default configuration). */
#define ONNXMICRO_ARENA_ALIGNMENT 16

/** Bytes of caller storage onnxmicro_session_init() needs, alignment slack included. */
size_t onnxmicro_session_storage_bytes(void);

/** Creates a session handle in `storage` (any alignment; at least onnxmicro_session_storage_bytes() bytes, which
 *  must outlive the handle). No heap. Sets *session, or NULL on failure (as onnxmicro_model_init()). */
onnxmicro_status onnxmicro_session_init(void* storage, size_t storage_bytes, onnxmicro_session** session);

/** Creates a session handle on the heap. ONNXMICRO_UNSUPPORTED in builds without a heap. */
onnxmicro_status onnxmicro_session_create(onnxmicro_session** session);

/** Ends a handle from onnxmicro_session_init() or onnxmicro_session_create() (freeing the latter, and a heap arena
 *  or metadata it owns). NULL is ignored. */
void onnxmicro_session_destroy(onnxmicro_session* session);

/** Prepares `model` (loaded; it must outlive the session's use of it) to run: resolves every node to a kernel of
 *  this build, infers shapes, folds constants and plans the tensors into `arena` (`arena_bytes` bytes, aligned to
 *  ONNXMICRO_ARENA_ALIGNMENT). Kernel state goes to `metadata` (`metadata_bytes` bytes). Both buffers are used
 *  until the session is prepared again or destroyed. NULL arena or metadata: heap (hosted builds only).
 *  Preparing again starts over (the buffers may differ).
 *  ONNXMICRO_OUT_OF_MEMORY when a buffer is too small: onnxmicro_session_required_arena_bytes() and
 *  onnxmicro_session_metadata_bytes() then tell the sizes needed (the metadata need is measured with a trial
 *  prepare on the heap in hosted builds; 0 where there is none, as is the arena need when the metadata ran out
 *  first there). Size buffers for a firmware on the host: prepare with NULL buffers and read both queries (the
 *  metadata need on a 32-bit target is at most that of a 64-bit host). */
onnxmicro_status onnxmicro_session_prepare(onnxmicro_session* session, const onnxmicro_model* model, void* arena,
                                           size_t arena_bytes, void* metadata, size_t metadata_bytes);

/** Arena bytes the session's plan needs: valid after a successful prepare, and after one that failed with
 *  ONNXMICRO_OUT_OF_MEMORY (0 when unknown). 0 for NULL. */
size_t onnxmicro_session_required_arena_bytes(const onnxmicro_session* session);

/** Metadata bytes of the last prepare: what the session uses (including the C API's own bookkeeping), or after
 *  ONNXMICRO_OUT_OF_MEMORY for a too small metadata buffer, what it needs (0 when unknown). 0 for NULL. */
size_t onnxmicro_session_metadata_bytes(const onnxmicro_session* session);

/** The last call's error message on this handle ("" after a success); as onnxmicro_model_message(). */
const char* onnxmicro_session_message(const onnxmicro_session* session);

/** Number of inputs / outputs of the prepared model (0 for NULL or not prepared). */
size_t onnxmicro_session_input_count(const onnxmicro_session* session);
size_t onnxmicro_session_output_count(const onnxmicro_session* session);

/** Describes input `index` as prepared: dtype, rank and dims (dims point into the session's metadata, valid until
 *  the next prepare); data NULL, byte_size the bytes set_input expects. ONNXMICRO_OUT_OF_RANGE past the count. */
onnxmicro_status onnxmicro_session_get_input(onnxmicro_session* session, size_t index, onnxmicro_tensor* info);

/** Copies `value` into input `index`'s arena slot. Its dtype and dims must equal the prepared ones and byte_size
 *  their byte size; otherwise ONNXMICRO_INVALID_ARGUMENT with a message naming the input, expected vs actual.
 *  Set every input before each run: the plan reuses an input's slot for other tensors once the input is read. */
onnxmicro_status onnxmicro_session_set_input(onnxmicro_session* session, size_t index, const onnxmicro_tensor* value);

/** onnxmicro_session_set_input() for the input called `name` (NUL-terminated); an unknown name gives
 *  ONNXMICRO_INVALID_ARGUMENT with a message listing the inputs. */
onnxmicro_status onnxmicro_session_set_input_by_name(onnxmicro_session* session, const char* name,
                                                     const onnxmicro_tensor* value);

/** Runs every node once on the inputs set since the last run (see onnxmicro_session_set_input). Allocates
 *  nothing. Errors name the node. */
onnxmicro_status onnxmicro_session_run(onnxmicro_session* session);

/** Fills `output` with output `index`: dtype, rank, dims (in the session's metadata, valid until the next
 *  prepare), data and byte_size. The data points into the arena (or at a constant of the model) and is valid
 *  until the next run or prepare; it holds the last run's values (undefined before the first run).
 *  ONNXMICRO_OUT_OF_RANGE past the count. */
onnxmicro_status onnxmicro_session_get_output(onnxmicro_session* session, size_t index, onnxmicro_tensor* output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ONNXMICRO_C_ONNXMICRO_H */
