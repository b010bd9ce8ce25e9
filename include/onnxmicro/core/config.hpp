// SPDX-License-Identifier: MIT
// Every configuration macro of onnxmicro, defaulted in one place. Define any of them before the first
// include of onnxmicro (or with -D) to change it; the inline namespace in version.hpp encodes the ones that
// change object layout so translation units built with different values fail to link instead of mixing.
#pragma once
#include <cstdint>

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

/// Largest byte size of any single tensor (a crafted shape must not make us multiply past this). Byte sizes are
/// std::size_t, so the limit must fit it: 1 TiB on 64-bit targets, 2 GiB on 32-bit ones (a 2^40 limit there let
/// a byte count wrap to 0 and an initializer without data pass the size check).
#ifndef ONNXMICRO_MAX_TENSOR_BYTES
#if SIZE_MAX > 0xffffffffu
#define ONNXMICRO_MAX_TENSOR_BYTES (static_cast<unsigned long long>(1) << 40)
#else
#define ONNXMICRO_MAX_TENSOR_BYTES (static_cast<unsigned long long>(1) << 31)
#endif
#endif
static_assert(ONNXMICRO_MAX_TENSOR_BYTES <= SIZE_MAX, "ONNXMICRO_MAX_TENSOR_BYTES must fit std::size_t on this target");

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

// ---- Features a firmware can compile out (code size). Each defaults to 1; with 0 the code is gone and a model
// that needs the feature fails to load or prepare with a message naming the macro, never silently.

/// QDQ fusion (runtime/qdq_fusion.hpp, ~8 KB of Cortex-M code). With 0, Session::prepare refuses a model with
/// DequantizeLinear nodes unless SessionOptions::fuse_qdq is false (then they run in float, as requested).
#ifndef ONNXMICRO_ENABLE_QDQ_FUSION
#define ONNXMICRO_ENABLE_QDQ_FUSION 1
#endif

/// Expansion of model-local functions (model/function_inliner.hpp, ~4 KB). With 0, Model::load refuses a
/// model that defines functions.
#ifndef ONNXMICRO_ENABLE_MODEL_FUNCTIONS
#define ONNXMICRO_ENABLE_MODEL_FUNCTIONS 1
#endif

/// Initializers stored outside the model bytes (model/external_data.hpp, ~4 KB). With 0, Model::load refuses a
/// model with an EXTERNAL initializer, naming it.
#ifndef ONNXMICRO_ENABLE_EXTERNAL_DATA
#define ONNXMICRO_ENABLE_EXTERNAL_DATA 1
#endif

/// Subgraphs (GRAPH attributes: If, Loop, Scan bodies; ~2 KB of Cortex-M code in the loader alone). With 0,
/// Model::load refuses a node with a subgraph attribute, naming node, op and attribute.
#ifndef ONNXMICRO_ENABLE_SUBGRAPHS
#define ONNXMICRO_ENABLE_SUBGRAPHS 1
#endif

/// Input shapes and values bound at prepare time: SessionOptions::input_shapes, max_input_shapes and
/// input_values, re-planning (Session::set_input_shapes, Session::run(inputs)), symbolic-dim checks and sequence or
/// optional graph inputs (~2 KB of Cortex-M code in Session). With 0, every graph input must have a shape the
/// model fixes: prepare() refuses a symbolic or unknown dim naming input and dim, refuses those options, and the
/// re-planning calls fail with unsupported.
#ifndef ONNXMICRO_ENABLE_DYNAMIC_SHAPES
#define ONNXMICRO_ENABLE_DYNAMIC_SHAPES 1
#endif

/// Error message text (code size: on Cortex-M the messages' strings and formatting are ~20 KB of a runtime).
/// With 0, a Status carries its StatusCode only, and message() is one fixed text telling where to find the
/// message: the same model, loaded and prepared on the host (`onnxmicro plan MODEL`, built with the same
/// ONNXMICRO_ENABLE_* values), fails with the full message naming node, op, input, dtype and shape. Nothing
/// turns silent: every error still fails with its code. It changes Status's layout (ABI namespace "_m0").
#ifndef ONNXMICRO_ENABLE_ERROR_MESSAGES
#define ONNXMICRO_ENABLE_ERROR_MESSAGES 1
#endif

/// Element types whose kernels are compiled (code size): every kernel instantiates its loops once per dtype
/// it supports, and on Cortex-M the double loops cost ~11 KB and the float16/bfloat16 ones ~12 KB for a small
/// CNN. With 0 those instantiations are left out of every kernel, and Session::prepare refuses a model in which
/// any node reads or writes such a tensor (Cast to or from one included), naming the node, the input or output,
/// its dtype and the macro. Every translation unit of one program must use the same values.
/// ONNXMICRO_ENABLE_FLOAT64: double (TensorProto DOUBLE).
#ifndef ONNXMICRO_ENABLE_FLOAT64
#define ONNXMICRO_ENABLE_FLOAT64 1
#endif
/// ONNXMICRO_ENABLE_FLOAT16: float16 and bfloat16 (both stored as 16 bits and computed in float).
#ifndef ONNXMICRO_ENABLE_FLOAT16
#define ONNXMICRO_ENABLE_FLOAT16 1
#endif

/// ONNXMICRO_ENABLED_DTYPES: a bitmask of the element types whose kernels are compiled, bit N for TensorProto
/// data_type N (float32 = 1 << 1, uint8 = 1 << 2, int8 = 1 << 3, int32 = 1 << 6, int64 = 1 << 7, ...); all by
/// default. A firmware sets it to what its models use (`onnxmicro kernels MODEL` prints the mask as kDtypeMask and
/// its header fails to compile when this build lacks one of them), so a float CNN does not carry Gemm's int64 or
/// MaxPool's int8 loops. It combines with the two switches above; a model with another dtype fails at prepare.
#ifndef ONNXMICRO_ENABLED_DTYPES
#define ONNXMICRO_ENABLED_DTYPES 0xffffffffu
#endif

/// Kernel loops chosen for code size rather than speed: 1 replaces the register-tiled matrix multiply (Conv,
/// Gemm, MatMul; ~3 KB of Cortex-M code per element type) with one plain loop nest, and pooling's separate
/// interior and border window walks with the border walk alone. Results stay within the conformance tolerances
/// (only the summation order of matrix products changes). A firmware without SIMD loses little speed: the
/// tiles' vector accumulators exceed a Cortex-M's registers anyway. Default 0 (hosted builds want the speed).
#ifndef ONNXMICRO_OPTIMIZE_FOR_SIZE
#define ONNXMICRO_OPTIMIZE_FOR_SIZE 0
#endif

/// Kernel paths that exist only for speed, beside generic ones that compute the same (float depthwise Conv and
/// MaxPool a row at a time, ...): 1 on hosted targets; 0 on bare-metal ARM and with ONNXMICRO_OPTIMIZE_FOR_SIZE,
/// where flash matters more than the speed-up.
#ifndef ONNXMICRO_ENABLE_FAST_PATHS
#if ONNXMICRO_OPTIMIZE_FOR_SIZE || (defined(__arm__) && !defined(__linux__))
#define ONNXMICRO_ENABLE_FAST_PATHS 0
#else
#define ONNXMICRO_ENABLE_FAST_PATHS 1
#endif
#endif

/// Kernels that split their work over the session's thread pool (core/threads.hpp, SessionOptions::thread_pool):
/// 1 on hosted targets; 0 on bare-metal ARM and with ONNXMICRO_OPTIMIZE_FOR_SIZE, where every split compiles out
/// and a session given a pool fails at prepare saying so.
#ifndef ONNXMICRO_ENABLE_THREADS
#if ONNXMICRO_OPTIMIZE_FOR_SIZE || (defined(__arm__) && !defined(__linux__))
#define ONNXMICRO_ENABLE_THREADS 0
#else
#define ONNXMICRO_ENABLE_THREADS 1
#endif
#endif

/// Sessions that place nodes on a device backend (SessionOptions::device, e.g. backends/opencl): 1 on hosted
/// targets; 0 on bare-metal ARM and with ONNXMICRO_OPTIMIZE_FOR_SIZE, where run() has no device branch and a
/// session given a device policy fails at prepare saying so.
#ifndef ONNXMICRO_ENABLE_DEVICES
#if ONNXMICRO_OPTIMIZE_FOR_SIZE || (defined(__arm__) && !defined(__linux__))
#define ONNXMICRO_ENABLE_DEVICES 0
#else
#define ONNXMICRO_ENABLE_DEVICES 1
#endif
#endif

/// Run-time instruction-set dispatch (core/isa.hpp): 1 compiles the x86-64 AVX2+FMA and AVX-512 micro-kernels
/// beside the portable ones (per-function target attributes, so a plain -O2 build without -march gets them) and
/// picks the best the CPU has at prepare. Default 1 with GCC/Clang on x86-64 unless ONNXMICRO_OPTIMIZE_FOR_SIZE;
/// 0 elsewhere (aarch64 and armhf builds use their compile-time NEON baseline, Cortex-M its scalar/DSP code).
#ifndef ONNXMICRO_ENABLE_ISA_DISPATCH
#if defined(__x86_64__) && defined(__GNUC__) && !ONNXMICRO_OPTIMIZE_FOR_SIZE
#define ONNXMICRO_ENABLE_ISA_DISPATCH 1
#else
#define ONNXMICRO_ENABLE_ISA_DISPATCH 0
#endif
#endif

/// The instruction set the compiler may assume everywhere (its -m/-march flags): 0 none beyond the scalar ISA,
/// 1 128-bit SIMD (SSE2, NEON), 2 AVX2, 3 AVX-512F. Not a setting: part of the ABI namespace (version.hpp), because
/// integer GEMM tile layouts follow it, so translation units compiled for different baselines cannot mix.
#if defined(__AVX512F__)
#define ONNXMICRO_BASELINE_ISA 3
#elif defined(__AVX2__)
#define ONNXMICRO_BASELINE_ISA 2
#elif defined(__SSE2__) || defined(__ARM_NEON)
#define ONNXMICRO_BASELINE_ISA 1
#else
#define ONNXMICRO_BASELINE_ISA 0
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

/// Marks a function the compiler must inline. For `compiled_dtype()` (see dtype.hpp), and for the steps a long
/// function is split into for reading (Session's prepare steps, the QDQ fuser's per-op rules): each has one call
/// site, but GCC's -Os keeps such header (COMDAT) functions out of line, which costs firmware flash for nothing.
#if defined(__GNUC__)
#define ONNXMICRO_DETAIL_ALWAYS_INLINE __attribute__((always_inline))
#else
#define ONNXMICRO_DETAIL_ALWAYS_INLINE
#endif
