// SPDX-License-Identifier: MIT
// Every configuration macro of onnxmicro, defaulted in one place. Define any of them before the first
// include of onnxmicro (or with -D) to change it; the inline namespace in version.hpp encodes the ones that
// change object layout so translation units built with different values fail to link instead of mixing.
#pragma once

/// Version of this library (semantic versioning). Read it through onnxmicro::version() at run time.
#define ONNXMICRO_VERSION_MAJOR 0
#define ONNXMICRO_VERSION_MINOR 1
#define ONNXMICRO_VERSION_PATCH 0

/// Largest tensor rank the runtime accepts. Shapes are fixed-capacity arrays of this size (no heap).
#ifndef ONNXMICRO_MAX_RANK
#define ONNXMICRO_MAX_RANK 8
#endif

/// Capacity of an error message, in bytes. Errors are built in place, never on the heap.
#ifndef ONNXMICRO_MAX_ERROR_MESSAGE
#define ONNXMICRO_MAX_ERROR_MESSAGE 480
#endif

/// Deepest protobuf message nesting the wire reader follows before it refuses the input.
#ifndef ONNXMICRO_MAX_PROTO_DEPTH
#define ONNXMICRO_MAX_PROTO_DEPTH 64
#endif

/// Deepest subgraph nesting (If/Loop/Scan bodies inside bodies) a model may have.
#ifndef ONNXMICRO_MAX_SUBGRAPH_DEPTH
#define ONNXMICRO_MAX_SUBGRAPH_DEPTH 16
#endif

/// Deepest nesting of model-local function calls (a function whose body calls a function ...) that load()
/// expands; deeper nesting, or recursion, fails with limit_exceeded naming the function.
#ifndef ONNXMICRO_MAX_FUNCTION_CALL_DEPTH
#define ONNXMICRO_MAX_FUNCTION_CALL_DEPTH 16
#endif

/// Largest byte size of any single tensor (a crafted shape must not make us multiply past this).
#ifndef ONNXMICRO_MAX_TENSOR_BYTES
#define ONNXMICRO_MAX_TENSOR_BYTES (static_cast<unsigned long long>(1) << 40)
#endif

/// Alignment, in bytes, of every tensor placed in the arena.
#ifndef ONNXMICRO_TENSOR_ALIGNMENT
#define ONNXMICRO_TENSOR_ALIGNMENT 16
#endif

/// 1 when the platform has a file system and POSIX I/O (file loaders, mmap). 0 on microcontrollers.
#ifndef ONNXMICRO_HAS_FILESYSTEM
#if defined(__unix__) || defined(__APPLE__)
#define ONNXMICRO_HAS_FILESYSTEM 1
#else
#define ONNXMICRO_HAS_FILESYSTEM 0
#endif
#endif

/// 1 when the library may use the heap for metadata by default (hosted builds). With 0 every byte of
/// metadata comes from a caller-provided buffer; the runtime never calls malloc or new.
#ifndef ONNXMICRO_HAS_HEAP
#if defined(__arm__) && !defined(__linux__)
#define ONNXMICRO_HAS_HEAP 0
#else
#define ONNXMICRO_HAS_HEAP 1
#endif
#endif

/// Bytes of the string pool a session allocates for models with run-time string tensors when the caller gives
/// none (SessionOptions::string_pool_bytes).
#ifndef ONNXMICRO_DEFAULT_STRING_POOL_BYTES
#define ONNXMICRO_DEFAULT_STRING_POOL_BYTES 65536
#endif

/// Most iterations a Loop may run (a model whose trip count or condition never stops fails with
/// limit_exceeded naming the node instead of hanging).
#ifndef ONNXMICRO_MAX_LOOP_ITERATIONS
#define ONNXMICRO_MAX_LOOP_ITERATIONS (static_cast<long long>(1) << 24)
#endif

/// Highest opset version of the default domain this build knows about (kernels' open upper bound).
#ifndef ONNXMICRO_MAX_OPSET
#define ONNXMICRO_MAX_OPSET 28
#endif
