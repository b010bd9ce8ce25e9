// SPDX-License-Identifier: MIT
// CORTEX_M_VARIANT selects what is compiled, for the footprint measurement (tools/footprint.py):
//   2 (default) the firmware: the runtime and, per model, exactly the kernels it needs (models_kernels.inc);
//   1 the framework alone: the same runtime calls with an empty kernel set (prepare fails, nothing runs);
//   0 the baseline: no onnxmicro at all; the same startup, output code, libc, embedded model and test bytes.
// CORTEX_M_ONLY_MODEL (with CORTEX_M_ONLY_MODEL_KERNELS, its kernels header) makes each of them run one model of
// the list: the footprint's minimal configuration (examples/cortex-m/CMakeLists.txt).
#include "runner.hpp"

#include <cstdint>

#include "models_data.inc"

// CORTEX_M_ONLY_MODEL=NAME: the program runs that model of the list only (the footprint's minimal variants).
#ifdef CORTEX_M_ONLY_MODEL
#define CORTEX_M_APPLY(X, name) X(name)  // expands CORTEX_M_ONLY_MODEL before X pastes it
#define CORTEX_M_RUN_LIST(X) CORTEX_M_APPLY(X, CORTEX_M_ONLY_MODEL)
#else
#define CORTEX_M_RUN_LIST(X) CORTEX_M_MODEL_LIST(X)
#endif

#ifndef CORTEX_M_VARIANT
#define CORTEX_M_VARIANT 2
#endif

#if CORTEX_M_VARIANT >= 1
#include <onnxmicro/onnxmicro.hpp>
#if CORTEX_M_VARIANT == 2 && defined(CORTEX_M_ONLY_MODEL_KERNELS)
#include CORTEX_M_ONLY_MODEL_KERNELS  // "NAME_kernels.hpp" of CORTEX_M_ONLY_MODEL
#elif CORTEX_M_VARIANT == 2
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
const ModelEntry kModels[] = {CORTEX_M_RUN_LIST(CORTEX_M_MODEL_ENTRY)};
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
// A quantized model's output (made by DequantizeLinear) may differ from its expected value, the QDQ graph's own
// semantics (onnxruntime with every optimisation off), by one quantum, its scale: fused integer kernels round apart
// from the float ops they replace (tests/models/make_qdq_models.py prints how far onnxruntime's own fused kernels
// are), and tests/quantization's qdq_accuracy holds the host build to the same bound. The slack covers the float
// product (q - zero_point) * scale, which makes one quantum of difference a few ulps more or less than the scale.
constexpr double kQuantumSlack = 1e-3;

// The metadata sizes are a 32-bit target's. Metadata holds pointers and string views, so a 64-bit host (the
// host reference) needs more: measured 1.2 to 1.5 times as much for the models of the list.
constexpr std::size_t kPointerScale = sizeof(void*) > 4 ? 2 : 1;

// Every byte the runtime touches lives here: no heap (ONNXMICRO_HAS_HEAP=0 on bare metal).
alignas(16) unsigned char g_model_metadata[CORTEX_M_MODEL_METADATA_BYTES * kPointerScale];
alignas(16) unsigned char g_session_metadata[CORTEX_M_SESSION_METADATA_BYTES * kPointerScale];
#if CORTEX_M_VARIANT == 2
// The arena is exactly the largest plan of the list, as `onnxmicro kernels` computed it on the host.
#define CORTEX_M_ARENA_OF(name) name::kArenaBytes,
constexpr std::size_t largest_planned_arena() {
  std::size_t largest = 0;
  for (std::size_t bytes : {CORTEX_M_RUN_LIST(CORTEX_M_ARENA_OF) std::size_t{0}})
    largest = bytes > largest ? bytes : largest;
  return largest;
}
#undef CORTEX_M_ARENA_OF
alignas(ONNXMICRO_TENSOR_ALIGNMENT) unsigned char g_arena[largest_planned_arena()];
#else
alignas(ONNXMICRO_TENSOR_ALIGNMENT) unsigned char g_arena[CORTEX_M_ARENA_BYTES];
#endif
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
  /// What `onnxmicro kernels` planned on the host (models/NAME_kernels.hpp); all 0 for the framework variant.
  std::size_t planned_arena_bytes;
  std::size_t planned_lower_bound_bytes;
  std::size_t host_model_metadata_bytes;
  std::size_t host_session_metadata_bytes;
};

#if CORTEX_M_VARIANT == 2
#define CORTEX_M_PLANNED(name)                                                                         \
  &name::Kernels::registry, name::kArenaBytes, name::kArenaLowerBoundBytes, name::kModelMetadataBytes, \
      name::kSessionMetadataBytes
#else
#define CORTEX_M_PLANNED(name) &om::KernelSet<>::registry, 0, 0, 0, 0
#endif
#define CORTEX_M_MODEL_ENTRY(name)               \
  {#name,                                        \
   name##_model,                                 \
   name##_model_size,                            \
   name##_inputs,                                \
   sizeof(name##_inputs) / sizeof(TensorBytes),  \
   name##_outputs,                               \
   sizeof(name##_outputs) / sizeof(TensorBytes), \
   CORTEX_M_PLANNED(name)},
const ModelEntry kModels[] = {CORTEX_M_RUN_LIST(CORTEX_M_MODEL_ENTRY)};
#undef CORTEX_M_MODEL_ENTRY
#undef CORTEX_M_PLANNED

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

/// The scale of the DequantizeLinear that makes graph output `index` when it is a float32 scalar initializer
/// (per-tensor quantization), else 0: the output is then compared as a float.
float output_quantum(const om::Model& model, std::size_t index) {
  const om::model::Graph& graph = model.graph();
  if (index >= graph.outputs.size()) return 0;
  const std::int32_t producer = graph.values[graph.outputs[index]].producer;
  if (producer < 0) return 0;
  const om::model::Node& node = graph.nodes[static_cast<std::size_t>(producer)];
  if (node.op_type != "DequantizeLinear" || node.inputs.size() < 2 || node.inputs[1] == om::model::kNoValue) return 0;
  const om::model::Value& scale = graph.values[node.inputs[1]];
  std::int64_t count = 0;
  float quantum = 0;
  if (scale.kind != om::model::ValueKind::initializer ||
      scale.initializer().data_type != static_cast<std::int32_t>(om::DataType::float32) ||
      !scale.initializer().element_count(count).ok() || count != 1 ||
      !scale.initializer().decode_to(&quantum, sizeof(quantum)).ok()) {
    return 0;
  }
  return quantum;
}

/// Prints every element of `output` ("y MODEL OUTPUT INDEX BITS VALUE"); compares it with `expected`, within one
/// `quantum` when that is > 0, else within the float tolerances.
bool print_and_compare(Output& out, const ModelEntry& m, std::size_t index, const om::ConstTensorView& output,
                       const om::ConstTensorView& expected, float quantum, double& max_abs_diff) {
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
        const double bound =
            quantum > 0 ? quantum * (1 + kQuantumSlack) : kAbsoluteTolerance + kRelativeTolerance * (e < 0 ? -e : e);
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

/// For a QDQ model: how many of its quantized ops run as integer kernels, and why any other runs in float.
void print_quantized_nodes(Output& out, const ModelEntry& m, const om::Session& session) {
  const om::Span<const om::QuantizedNodeReport> nodes = session.quantized_nodes();
  if (nodes.size() == 0) return;
  std::size_t integer = 0;
  for (const om::QuantizedNodeReport& r : nodes) integer += r.integer ? 1 : 0;
  out.text("quantized ops ").text(m.name).text(": ").unsigned_decimal(integer).text(" of ");
  out.unsigned_decimal(nodes.size()).text(" run as integer kernels").endl();
  for (const om::QuantizedNodeReport& r : nodes) {
    if (r.integer) continue;
    out.text("  float ").text(r.node->op_type.data(), r.node->op_type.size()).text(" '");
    out.text(r.node->name.data(), r.node->name.size()).text("': ").text(r.reason.data(), r.reason.size()).endl();
  }
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
  print_quantized_nodes(out, m, session);

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
  double max_quantum = 0;  // of the quantized outputs; 0 when there are none
  bool float_outputs = false;
  for (std::size_t i = 0; i < session.output_count(); ++i) {
    const om::ConstTensorView output = session.output(i);
    const std::string_view name = session.output_name(i);
    out.text("output ").unsigned_decimal(i).text(" '").text(name.data(), name.size()).text("' ");
    print_shape(out.text(om::dtype_name(output.dtype)).text(" "), output.shape).endl();
    const float quantum = output.dtype == om::DataType::float32 ? output_quantum(model, i) : 0.0f;
    if (quantum > 0) {
      // "quantum MODEL OUTPUT BITS VALUE": compare_outputs.py then requires the host's values bit for bit.
      out.text("quantum ").text(m.name).text(" ").unsigned_decimal(i).text(" ").float_bits_and_value(quantum).endl();
      if (quantum > max_quantum) max_quantum = quantum;
    } else {
      float_outputs = true;
    }
    om::proto::Tensor tensor;
    om::ConstTensorView expected;
    if (i < m.output_count) {
      status = decode_tensor(m.outputs[i], tensor, expected);
      if (!status.ok()) return fail(out, m, "decoding an expected output", status);
    }
    if (!print_and_compare(out, m, i, output, expected, quantum, max_abs_diff)) all_ok = false;
  }

  out.text("memory ").text(m.name).text(": arena ").unsigned_decimal(session.required_arena_bytes());
  out.text(" bytes (buffer ").unsigned_decimal(sizeof(g_arena)).text(", lower bound ");
  out.unsigned_decimal(session.plan().lower_bound_bytes).text("), model metadata ");
  out.unsigned_decimal(model_allocator.used_bytes()).text(" bytes, session metadata ");
  out.unsigned_decimal(session_allocator.used_bytes()).text(" bytes").endl();
  // The sizes a developer reads on the host before deployment (`onnxmicro kernels`/`plan`) must hold here: the
  // arena exactly (tensor sizes and ONNXMICRO_TENSOR_ALIGNMENT do not depend on the target), the host's
  // metadata as an upper bound (its pointers are at least as wide).
  if (m.planned_arena_bytes != 0) {
    const bool arena_as_planned = session.required_arena_bytes() == m.planned_arena_bytes &&
                                  session.plan().lower_bound_bytes == m.planned_lower_bound_bytes;
    const bool metadata_within = model_allocator.used_bytes() <= m.host_model_metadata_bytes &&
                                 session_allocator.used_bytes() <= m.host_session_metadata_bytes;
    out.text("planned ").text(m.name).text(": arena ").unsigned_decimal(m.planned_arena_bytes).text(", lower bound ");
    out.unsigned_decimal(m.planned_lower_bound_bytes).text(", host metadata ");
    out.unsigned_decimal(m.host_model_metadata_bytes).text(" + ").unsigned_decimal(m.host_session_metadata_bytes);
    out.text(": ").text(arena_as_planned ? "arena as planned" : "ARENA DIFFERS FROM THE PLAN");
    out.text(metadata_within ? ", metadata within the host's" : ", METADATA ABOVE THE HOST'S").endl();
    if (!arena_as_planned || !metadata_within) all_ok = false;
  }
  out.text("check ").text(m.name).text(": max abs diff ").scientific(max_abs_diff, 3);
  out.text(" vs test_data_set_0 (tolerance ");
  if (max_quantum > 0) {
    out.text("one quantum, ").scientific(max_quantum, 3);
    if (float_outputs) out.text("; float outputs ");
  }
  if (float_outputs) {
    out.scientific(kAbsoluteTolerance, 0).text(" + ").scientific(kRelativeTolerance, 0).text(" * |expected|");
  }
  out.text("): ").text(all_ok ? "MATCH" : "MISMATCH").endl();
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
