// SPDX-License-Identifier: MIT
// CORTEX_M_VARIANT selects what is compiled, for the footprint measurement (tools/footprint.py):
//   2 (default) the firmware: the runtime and, per model, exactly the kernels it needs (models_kernels.inc);
//   1 the framework alone: the same runtime calls with an empty kernel set (prepare fails, nothing runs);
//   0 the baseline: no onnxmicro at all; the same startup, output code, libc, embedded model and test bytes.
#include "runner.hpp"

#include <cstdint>

#include "models_data.inc"

#ifndef CORTEX_M_VARIANT
#define CORTEX_M_VARIANT 2
#endif

#if CORTEX_M_VARIANT >= 1
#include <onnxmicro/onnxmicro.hpp>
#if CORTEX_M_VARIANT == 2
#include "models_kernels.inc"
#endif
#endif

#ifndef CORTEX_M_MODEL_METADATA_BYTES
#define CORTEX_M_MODEL_METADATA_BYTES (16 * 1024)
#endif
#ifndef CORTEX_M_SESSION_METADATA_BYTES
#define CORTEX_M_SESSION_METADATA_BYTES (16 * 1024)
#endif
#ifndef CORTEX_M_ARENA_BYTES
#define CORTEX_M_ARENA_BYTES (16 * 1024)
#endif
#ifndef CORTEX_M_SCRATCH_BYTES
#define CORTEX_M_SCRATCH_BYTES (4 * 1024)
#endif

namespace cortex_m {
namespace {

#if CORTEX_M_VARIANT == 0

struct ModelEntry {
  const char* name;
  const unsigned char* model;
  std::size_t model_size;
  const TensorBytes* inputs;
  std::size_t input_count;
  const TensorBytes* outputs;
  std::size_t output_count;
};
#define CORTEX_M_MODEL_ENTRY(name)              \
  {#name,                                       \
   name##_model,                                \
   name##_model_size,                           \
   name##_inputs,                               \
   sizeof(name##_inputs) / sizeof(TensorBytes), \
   name##_outputs,                              \
   sizeof(name##_outputs) / sizeof(TensorBytes)},
const ModelEntry kModels[] = {CORTEX_M_MODEL_LIST(CORTEX_M_MODEL_ENTRY)};
#undef CORTEX_M_MODEL_ENTRY

std::uint32_t checksum(std::uint32_t sum, const unsigned char* bytes, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) sum = sum * 31u + bytes[i];
  return sum;
}

}  // namespace

int run_models(Output& out) noexcept {
  // Reads every byte, so the linker keeps the model and test-set arrays: the image holds the same data as the
  // firmware's, and the differences in size are code.
  for (const ModelEntry& m : kModels) {
    std::uint32_t sum = checksum(0, m.model, m.model_size);
    for (std::size_t i = 0; i < m.input_count; ++i) sum = checksum(sum, m.inputs[i].data, m.inputs[i].size);
    for (std::size_t i = 0; i < m.output_count; ++i) sum = checksum(sum, m.outputs[i].data, m.outputs[i].size);
    out.text("model ").text(m.name).text(": ").unsigned_decimal(m.model_size).text(" bytes, checksum ");
    out.hex(sum, 4).endl();
    // The float formatter too (it brings in soft double arithmetic), so the firmware's output code is not
    // counted as runtime.
    out.text("as float ").float_bits_and_value(static_cast<float>(sum)).endl();
  }
  return 0;
}

#else

namespace om = onnxmicro;

// numpy.allclose's tolerances, as examples/hello and the conformance runner use against onnxruntime's outputs.
constexpr double kRelativeTolerance = 1e-3;
constexpr double kAbsoluteTolerance = 1e-5;

// Every byte the runtime touches lives here: no heap (ONNXMICRO_HAS_HEAP=0 on bare metal).
alignas(16) unsigned char g_model_metadata[CORTEX_M_MODEL_METADATA_BYTES];
alignas(16) unsigned char g_session_metadata[CORTEX_M_SESSION_METADATA_BYTES];
alignas(ONNXMICRO_TENSOR_ALIGNMENT) unsigned char g_arena[CORTEX_M_ARENA_BYTES];
// Decoded test-set tensors (an input until set_input copies it into the arena; an expected output).
alignas(16) unsigned char g_scratch[CORTEX_M_SCRATCH_BYTES];

struct ModelEntry {
  const char* name;
  const unsigned char* model;
  std::size_t model_size;
  const TensorBytes* inputs;
  std::size_t input_count;
  const TensorBytes* outputs;
  std::size_t output_count;
  om::KernelRegistry (*registry)() noexcept;
};

#if CORTEX_M_VARIANT == 2
#define CORTEX_M_REGISTRY(name) &name##_kernels::registry
#else
#define CORTEX_M_REGISTRY(name) &om::KernelSet<>::registry
#endif
#define CORTEX_M_MODEL_ENTRY(name)               \
  {#name,                                        \
   name##_model,                                 \
   name##_model_size,                            \
   name##_inputs,                                \
   sizeof(name##_inputs) / sizeof(TensorBytes),  \
   name##_outputs,                               \
   sizeof(name##_outputs) / sizeof(TensorBytes), \
   CORTEX_M_REGISTRY(name)},
const ModelEntry kModels[] = {CORTEX_M_MODEL_LIST(CORTEX_M_MODEL_ENTRY)};
#undef CORTEX_M_MODEL_ENTRY
#undef CORTEX_M_REGISTRY

int fail(Output& out, const ModelEntry& m, const char* step, const om::Status& status) {
  out.text("error ").text(m.name).text(": ").text(step).text(" failed (").text(om::status_code_name(status.code()));
  out.text("): ").text(status.message()).endl();
  return status.code() == om::StatusCode::unsupported ? 2 : 1;
}

Output& print_shape(Output& out, const om::Shape& shape) {
  out.text("[");
  for (int i = 0; i < shape.rank(); ++i) {
    if (i > 0) out.text(",");
    out.signed_decimal(shape[i]);
  }
  return out.text("]");
}

/// Parses a test-set TensorProto and decodes its data into g_scratch; `view` points there.
om::Status decode_tensor(const TensorBytes& bytes, om::proto::Tensor& tensor, om::ConstTensorView& view) {
  ONNXMICRO_RETURN_IF_ERROR(om::proto::Tensor::parse(om::ByteSpan(bytes.data, bytes.size), 0, tensor));
  if (!om::is_known_dtype(tensor.data_type)) {
    return om::Status(om::StatusCode::invalid_argument)
           << "test tensor '" << tensor.name << "' has unknown data_type " << static_cast<int>(tensor.data_type);
  }
  const auto dtype = static_cast<om::DataType>(tensor.data_type);
  om::Shape shape;
  ONNXMICRO_RETURN_IF_ERROR(shape.assign(tensor.dims, static_cast<std::size_t>(tensor.rank)));
  const std::size_t size = om::byte_size_of(dtype, shape.element_count());
  if (size > sizeof(g_scratch)) {
    return om::Status(om::StatusCode::out_of_memory)
           << "test tensor '" << tensor.name << "' needs " << static_cast<unsigned long long>(size)
           << " bytes, CORTEX_M_SCRATCH_BYTES is " << static_cast<unsigned long long>(sizeof(g_scratch));
  }
  ONNXMICRO_RETURN_IF_ERROR(tensor.decode_to(g_scratch, size));
  view = om::ConstTensorView(dtype, shape, g_scratch);
  return {};
}

/// Prints every element of `output` ("y MODEL OUTPUT INDEX BITS VALUE"); compares it with `expected`.
bool print_and_compare(Output& out, const ModelEntry& m, std::size_t index, const om::ConstTensorView& output,
                       const om::ConstTensorView& expected, double& max_abs_diff) {
  const std::int64_t count = output.element_count();
  const std::size_t element_bytes = count > 0 ? output.byte_size() / static_cast<std::size_t>(count) : 0;
  const auto* bytes = static_cast<const unsigned char*>(output.data);
  const bool comparable = expected.dtype == output.dtype && expected.shape == output.shape;
  bool ok = comparable;
  for (std::int64_t i = 0; i < count; ++i) {
    out.text("y ").text(m.name).text(" ").unsigned_decimal(index).text(" ").signed_decimal(i).text(" ");
    if (output.dtype == om::DataType::float32) {
      const float a = output.data_as<float>()[i];
      out.float_bits_and_value(a);
      if (comparable) {
        const double e = expected.data_as<float>()[i];
        const double diff = a > e ? a - e : e - a;
        const double bound = kAbsoluteTolerance + kRelativeTolerance * (e < 0 ? -e : e);
        if (!(diff <= bound)) ok = false;  // NaN fails
        if (!(diff <= max_abs_diff)) max_abs_diff = diff;
      }
    } else {
      // Other dtypes: the element's bytes, little-endian, compared exactly.
      std::uint64_t v = 0;
      const std::size_t n = element_bytes < 8 ? element_bytes : 8;
      for (std::size_t b = 0; b < n; ++b) v |= static_cast<std::uint64_t>(bytes[i * element_bytes + b]) << (8 * b);
      out.hex(v, static_cast<int>(n));
      if (comparable) {
        const auto* e = static_cast<const unsigned char*>(expected.data) + i * element_bytes;
        for (std::size_t b = 0; b < element_bytes; ++b) ok = ok && e[b] == bytes[i * element_bytes + b];
      }
    }
    out.endl();
  }
  return ok;
}

int run_model(Output& out, const ModelEntry& m) {
  out.text("model ").text(m.name).text(": ").unsigned_decimal(m.model_size).text(" bytes in flash").endl();

  // The model stays in flash: borrowed, parsed in place; metadata goes to a static buffer.
  const om::ModelBytes bytes = om::ModelBytes::borrow(m.model, m.model_size);
  om::BufferAllocator model_allocator(g_model_metadata, sizeof(g_model_metadata));
  om::LoadOptions load_options;
  load_options.metadata_allocator = &model_allocator;
  om::Model model;
  om::Status status = model.load(bytes.bytes(), load_options);
  if (!status.ok()) return fail(out, m, "Model::load", status);

  om::BufferAllocator session_allocator(g_session_metadata, sizeof(g_session_metadata));
  om::SessionOptions session_options;
  session_options.arena = g_arena;
  session_options.arena_bytes = sizeof(g_arena);
  session_options.metadata_allocator = &session_allocator;
  om::Session session;
  status = session.prepare(model, m.registry(), session_options);
  if (!status.ok()) return fail(out, m, "Session::prepare", status);

  for (std::size_t i = 0; i < m.input_count; ++i) {
    om::proto::Tensor tensor;
    om::ConstTensorView view;
    status = decode_tensor(m.inputs[i], tensor, view);
    if (!status.ok()) return fail(out, m, "decoding a test input", status);
    // Bound by name when the test set names its tensors (ONNX test sets do), else by position.
    status = tensor.name.empty() ? session.set_input(i, view) : session.set_input(tensor.name, view);
    if (!status.ok()) return fail(out, m, "Session::set_input", status);
    out.text("input ").unsigned_decimal(i).text(" '").text(tensor.name.data(), tensor.name.size()).text("' ");
    print_shape(out.text(om::dtype_name(view.dtype)).text(" "), view.shape).endl();
  }
  status = session.run();
  if (!status.ok()) return fail(out, m, "Session::run", status);

  bool all_ok = session.output_count() == m.output_count;
  double max_abs_diff = 0;
  for (std::size_t i = 0; i < session.output_count(); ++i) {
    const om::ConstTensorView output = session.output(i);
    const std::string_view name = session.output_name(i);
    out.text("output ").unsigned_decimal(i).text(" '").text(name.data(), name.size()).text("' ");
    print_shape(out.text(om::dtype_name(output.dtype)).text(" "), output.shape).endl();
    om::proto::Tensor tensor;
    om::ConstTensorView expected;
    if (i < m.output_count) {
      status = decode_tensor(m.outputs[i], tensor, expected);
      if (!status.ok()) return fail(out, m, "decoding an expected output", status);
    }
    if (!print_and_compare(out, m, i, output, expected, max_abs_diff)) all_ok = false;
  }

  out.text("memory ").text(m.name).text(": arena ").unsigned_decimal(session.required_arena_bytes());
  out.text(" bytes (buffer ").unsigned_decimal(sizeof(g_arena)).text("), model metadata ");
  out.unsigned_decimal(model_allocator.used_bytes()).text(" bytes, session metadata ");
  out.unsigned_decimal(session_allocator.used_bytes()).text(" bytes").endl();
  out.text("check ").text(m.name).text(": max abs diff ").scientific(max_abs_diff, 3);
  out.text(" vs test_data_set_0 (tolerance ").scientific(kAbsoluteTolerance, 0).text(" + ");
  out.scientific(kRelativeTolerance, 0).text(" * |expected|): ").text(all_ok ? "MATCH" : "MISMATCH").endl();
  return all_ok ? 0 : 1;
}

}  // namespace

int run_models(Output& out) noexcept {
  int result = 0;
  for (const ModelEntry& m : kModels) {
    const int code = run_model(out, m);
    if (code > result) result = code;
  }
  return result;
}

#endif

}  // namespace cortex_m
