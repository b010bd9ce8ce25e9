// SPDX-License-Identifier: MIT
// onnxmicro_conformance: runs ONNX backend test cases (DIR/<suite>/<case>/model.onnx with
// test_data_set_*/input_K.pb and output_K.pb, as tests/conformance/generate_data.py writes them) through
// onnxmicro with every kernel of the build, and compares each output with numpy.allclose semantics.
//
// Each case is one of:
//   pass         every output matches
//   fail         an output differs, or loading/preparing/running returned an error although a kernel was
//                found for every node
//   unsupported  some node (subgraphs included) has no kernel in this build for its op and opset, or the
//                case needs something the runner cannot feed yet (sequence/optional/map/string values)
// Unsupported cases do not fail the run: kernel coverage grows op by op. The exit code is non-zero when a
// case fails that allowlist.txt does not list, or when a listed case passes (the entry is stale).
//
// One session per case is prepared once and every data set is fed through Session::run(inputs), which
// re-plans when shapes change (tests/models/make_dynamic_models.py writes cases whose data sets differ in
// shape for this); --session-per-data-set prepares a fresh session per data set and feeds it by set_input().
//
// Each case runs in a forked child (POSIX), so a crash or a hang in one kernel is reported as that case's
// failure instead of ending the run; --no-fork runs in-process (for a debugger).
#include <onnxmicro/onnxmicro.hpp>
#if ONNXMICRO_RUNNER_OPENCL
#include <onnxmicro/backends/opencl.hpp>
#endif

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <new>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../support/output_quantum.hpp"

#if defined(__unix__) || defined(__APPLE__)
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#define ONNXMICRO_CONFORMANCE_CAN_FORK 1
#else
#define ONNXMICRO_CONFORMANCE_CAN_FORK 0
#endif

// Every operator new in this process is counted, so each case proves that Session::run() never allocates.
#include "../support/counted_heap.hpp"

namespace {

namespace om = onnxmicro;
namespace fs = std::filesystem;

// ---- options ---------------------------------------------------------------------------------------------

const char* const kUsage =
    "usage: onnxmicro_conformance [options]\n"
    "  --data DIR            test data root holding <suite>/<case>/ (default: $ONNXMICRO_CONFORMANCE_DATA or\n"
    "                        ./onnx-data); made by tests/conformance/generate_data.py\n"
    "  --suite NAME[,NAME]   suites to run: node, simple, pytorch-converted, pytorch-operator, light, or any\n"
    "                        directory under --data (e.g. --data tests --suite models); default node\n"
    "  --filter SUBSTR       only cases whose name contains SUBSTR (repeatable: any of them)\n"
    "  --allowlist FILE      known failures, 'case_name  # reason' per line\n"
    "  --results-json FILE   write one entry per case (suite, name, status, reason) to FILE\n"
    "  --rtol X --atol X     tolerances of |actual - expected| <= atol + rtol * |expected| (1e-3, 1e-5)\n"
    "  --atol-of-range F     float outputs: atol is at least F times the range (max - min) of the expected output\n"
    "                        (for models whose error scales with their values, e.g. quantized ones)\n"
    "  --quantum-atol N      an output made by a DequantizeLinear with a constant scalar scale may differ by N of\n"
    "                        that scale (a fused integer kernel and the QDQ graph it replaces round apart)\n"
    "  --integer-atol N      integer outputs may differ by up to N (default 0: exact), for quantized kernels whose\n"
    "                        reference rounds in float; a printed PASS (--verbose) then says how many elements\n"
    "                        differed and the largest difference\n"
    "  --list-unsupported    print one line per unsupported case (default: only a summary of missing kernels)\n"
    "  --one-session         (default) one Session per case for all its data sets: prepared once for the first\n"
    "                        (max_input_shapes: the elementwise maxima of inputs whose shape varies between\n"
    "                        data sets), each data set fed twice by run(inputs); fails when a run re-plans\n"
    "                        for unchanged inputs or the arena changes size; prints the re-plan counts of\n"
    "                        cases with several data sets\n"
    "  --no-max-input-shapes declare no maxima (the arena may grow when shapes grow)\n"
    "  --optimize-for-size   prepare with SessionOptions::size_optimized_kernels (as ONNXMICRO_OPTIMIZE_FOR_SIZE=1)\n"
    "  --session-per-data-set  a fresh Session per data set, prepared for its shapes, fed by set_input() + run()\n"
    "  --verbose             also print passing cases and timings\n"
    "  --no-fork             run cases in this process (a crash then ends the run)\n"
    "  --timeout SECONDS     per case, when forking (default 120; 0: none)\n"
    "  --via-cli ONNXMICRO   run each data set through the onnxmicro CLI at that path, as a user would\n"
    "                        ('run model.onnx --inputs input_*.pb --output-dir DIR'), and compare the files it\n"
    "                        writes (TensorProto, SequenceProto, OptionalProto); a failing run must print exactly\n"
    "                        one error line\n"
#if ONNXMICRO_RUNNER_OPENCL
    "  --device opencl       prepare with the OpenCL backend (prefer_device; with --session-per-data-set and\n"
    "                        --no-fork): prints each case's placement and how many cases ran wholly on OpenCL\n"
    "  --opencl-cache DIR    the OpenCL program cache the sessions share\n"
#endif
    ;

struct Options {
  std::string data_dir;
  std::vector<std::string> suites;
  std::vector<std::string> filters;
  std::string allowlist_path;
  std::string results_json_path;
  double rtol = 1e-3;
  double atol = 1e-5;
  long long integer_atol = 0;
  double atol_of_range = 0;
  double quantum_atol = 0;
  bool list_unsupported = false;
  bool verbose = false;
  bool one_session = true;
  bool max_input_shapes = true;
  bool size_optimized_kernels = false;
  bool fork_cases = ONNXMICRO_CONFORMANCE_CAN_FORK != 0;
  unsigned timeout_seconds = 120;
  std::string via_cli;  ///< --via-cli: the onnxmicro CLI each data set runs through (empty: in process)
  bool opencl = false;  ///< --device opencl (the runner built with ONNXMICRO_RUNNER_OPENCL)
  std::string opencl_cache;
};

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::string current;
  for (char c : text) {
    if (c == ',') {
      if (!current.empty()) parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) parts.push_back(current);
  return parts;
}

// Returns false (after printing why) on a bad command line.
bool parse_options(int argc, char** argv, Options& options) {
  const char* env_data = std::getenv("ONNXMICRO_CONFORMANCE_DATA");
  options.data_dir = env_data != nullptr ? env_data : "onnx-data";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char* name) -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "onnxmicro_conformance: %s needs a value\n%s", name, kUsage);
        return nullptr;
      }
      return argv[++i];
    };
    auto number = [&](const char* name, double& out) -> bool {
      const char* v = value(name);
      if (v == nullptr) return false;
      char* end = nullptr;
      out = std::strtod(v, &end);
      if (end == v || *end != '\0' || !(out >= 0)) {
        std::fprintf(stderr, "onnxmicro_conformance: %s expects a non-negative number, got '%s'\n", name, v);
        return false;
      }
      return true;
    };
    if (arg == "--data") {
      const char* v = value("--data");
      if (v == nullptr) return false;
      options.data_dir = v;
    } else if (arg == "--suite") {
      const char* v = value("--suite");
      if (v == nullptr) return false;
      for (const std::string& s : split_commas(v)) options.suites.push_back(s);
    } else if (arg == "--filter") {
      const char* v = value("--filter");
      if (v == nullptr) return false;
      options.filters.push_back(v);
    } else if (arg == "--allowlist") {
      const char* v = value("--allowlist");
      if (v == nullptr) return false;
      options.allowlist_path = v;
    } else if (arg == "--results-json") {
      const char* v = value("--results-json");
      if (v == nullptr) return false;
      options.results_json_path = v;
    } else if (arg == "--rtol") {
      if (!number("--rtol", options.rtol)) return false;
    } else if (arg == "--atol") {
      if (!number("--atol", options.atol)) return false;
    } else if (arg == "--quantum-atol") {
      if (!number("--quantum-atol", options.quantum_atol)) return false;
    } else if (arg == "--atol-of-range") {
      if (!number("--atol-of-range", options.atol_of_range)) return false;
    } else if (arg == "--integer-atol") {
      double n = 0;
      if (!number("--integer-atol", n)) return false;
      if (n < 0 || n != static_cast<double>(static_cast<long long>(n))) {
        std::fprintf(stderr, "onnxmicro_conformance: --integer-atol needs a non-negative integer\n");
        return false;
      }
      options.integer_atol = static_cast<long long>(n);
    } else if (arg == "--timeout") {
      double seconds = 0;
      if (!number("--timeout", seconds)) return false;
      options.timeout_seconds = static_cast<unsigned>(seconds);
    } else if (arg == "--list-unsupported") {
      options.list_unsupported = true;
    } else if (arg == "--one-session") {
      options.one_session = true;
    } else if (arg == "--session-per-data-set") {
      options.one_session = false;
    } else if (arg == "--optimize-for-size") {
      options.size_optimized_kernels = true;
    } else if (arg == "--no-max-input-shapes") {
      options.max_input_shapes = false;
    } else if (arg == "--verbose" || arg == "-v") {
      options.verbose = true;
    } else if (arg == "--no-fork") {
      options.fork_cases = false;
    } else if (arg == "--via-cli") {
      const char* v = value("--via-cli");
      if (v == nullptr) return false;
      options.via_cli = v;
#if ONNXMICRO_RUNNER_OPENCL
    } else if (arg == "--device") {
      const char* device = value("--device");
      if (device == nullptr || std::string(device) != "opencl") {
        std::fprintf(stderr, "onnxmicro_conformance: --device takes opencl\n");
        return false;
      }
      options.opencl = true;
    } else if (arg == "--opencl-cache") {
      const char* dir = value("--opencl-cache");
      if (dir == nullptr) return false;
      options.opencl_cache = dir;
#endif
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else {
      std::fprintf(stderr, "onnxmicro_conformance: unknown option '%s'\n%s", arg.c_str(), kUsage);
      return false;
    }
  }
  if (options.suites.empty()) options.suites.push_back("node");
  return true;
}

// ---- results ---------------------------------------------------------------------------------------------

enum class Outcome { pass, fail, unsupported };

const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::pass: return "pass";
    case Outcome::fail: return "fail";
    case Outcome::unsupported: return "unsupported";
  }
  return "?";
}

struct CaseResult {
  Outcome outcome = Outcome::pass;
  std::string reason;
  std::vector<std::string> missing_kernels;  ///< "Op (domain, opset N)" for unsupported cases
};

CaseResult make_result(Outcome outcome, std::string reason) {
  CaseResult r;
  r.outcome = outcome;
  r.reason = std::move(reason);
  return r;
}

std::string status_text(const om::Status& status) {
  return std::string(om::status_code_name(status.code())) + ": " + std::string(status.message_view());
}

std::string shape_text(const om::Shape& shape) {
  std::string s = "[";
  for (int i = 0; i < shape.rank(); ++i) {
    if (i) s += ",";
    s += std::to_string(static_cast<long long>(shape[i]));
  }
  return s + "]";
}

std::string number_text(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.9g", v);
  return buffer;
}

// ---- buffers and tensor files ----------------------------------------------------------------------------

/// Heap bytes aligned for any element type (decoded tensors are read as float, int64, double, ...).
class AlignedBytes {
 public:
  void resize(std::size_t bytes) { storage_.assign(bytes / sizeof(std::max_align_t) + 1, std::max_align_t{}); }
  unsigned char* data() { return reinterpret_cast<unsigned char*>(storage_.data()); }
  const unsigned char* data() const { return reinterpret_cast<const unsigned char*>(storage_.data()); }

 private:
  std::vector<std::max_align_t> storage_;
};

bool read_file(const fs::path& path, std::vector<unsigned char>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

/// A TensorProto file decoded into dense little-endian elements.
struct LoadedTensor {
  std::vector<unsigned char> file;  ///< the proto bytes (the Tensor view points into them)
  om::proto::Tensor proto;
  om::DataType dtype = om::DataType::undefined;
  om::Shape shape;
  AlignedBytes data;
  std::size_t bytes = 0;
  /// Sequences and optionals: the decoded elements `data`'s ValueRefs point at (sizes fixed once filled).
  std::vector<LoadedTensor> elements;

  om::ConstTensorView view() const { return om::ConstTensorView(dtype, shape, data.data()); }
};

bool decode_tensor(const fs::path& path, om::ByteSpan bytes, LoadedTensor& out, CaseResult& why);

// SequenceProto/OptionalProto elem_type numbers.
constexpr std::int32_t kElemTensor = 1, kElemSequence = 3;

/// Decodes a SequenceProto (of tensors) into `out`: dtype sequence, shape [n], data the ValueRefs.
bool decode_sequence(const fs::path& path, om::ByteSpan bytes, LoadedTensor& out, CaseResult& why) {
  om::proto::Sequence sequence;
  om::Status status = om::proto::Sequence::parse(bytes, 0, sequence);
  if (!status.ok()) {
    why = make_result(Outcome::fail, path.filename().string() + ": Sequence::parse: " + status_text(status));
    return false;
  }
  if (sequence.elem_type != kElemTensor && sequence.elem_type != 0) {
    why = make_result(Outcome::unsupported, path.filename().string() + ": a sequence of non-tensors");
    return false;
  }
  out.elements.resize(sequence.tensor_values().size());
  std::size_t i = 0;
  for (const om::proto::Tensor& t : sequence.tensor_values()) {
    if (!decode_tensor(path, t.bytes, out.elements[i++], why)) return false;
  }
  out.dtype = om::DataType::sequence;
  out.shape = om::Shape{static_cast<std::int64_t>(out.elements.size())};
  out.bytes = out.elements.size() * sizeof(om::ValueRef);
  out.data.resize(out.bytes);
  for (std::size_t k = 0; k < out.elements.size(); ++k) {
    const om::ValueRef ref = om::value_ref_of(out.elements[k].view());
    std::memcpy(out.data.data() + k * sizeof(om::ValueRef), &ref, sizeof ref);
  }
  return true;
}

/// Decodes an OptionalProto (of a tensor or a sequence) into `out`: dtype optional, shape [0] or [1].
bool decode_optional(const fs::path& path, om::ByteSpan bytes, LoadedTensor& out, CaseResult& why) {
  om::proto::Optional optional;
  om::Status status = om::proto::Optional::parse(bytes, 0, optional);
  if (!status.ok()) {
    why = make_result(Outcome::fail, path.filename().string() + ": Optional::parse: " + status_text(status));
    return false;
  }
  out.dtype = om::DataType::optional;
  if (optional.has_value) {
    out.elements.resize(1);
    bool ok =
        optional.elem_type == kElemSequence ? decode_sequence(path, optional.value, out.elements[0], why)
        : optional.elem_type == kElemTensor
            ? decode_tensor(path, optional.value, out.elements[0], why)
            : (why = make_result(Outcome::unsupported, path.filename().string() + ": an optional of a map or optional"),
               false);
    if (!ok) return false;
  }
  out.shape = om::Shape{static_cast<std::int64_t>(out.elements.size())};
  out.bytes = out.elements.size() * sizeof(om::ValueRef);
  out.data.resize(out.bytes);
  if (!out.elements.empty()) {
    const om::ValueRef ref = om::value_ref_of(out.elements[0].view());
    std::memcpy(out.data.data(), &ref, sizeof ref);
  }
  return true;
}

/// Reads and decodes a TensorProto file (a SequenceProto or OptionalProto for values of those kinds). On
/// failure `why` says what and the outcome to report.
bool load_tensor(const fs::path& path, LoadedTensor& out, CaseResult& why,
                 om::proto::Type::Kind kind = om::proto::Type::Kind::tensor) {
  if (!read_file(path, out.file)) {
    why = make_result(Outcome::fail, "cannot read " + path.string());
    return false;
  }
  om::ByteSpan bytes(out.file.data(), out.file.size());
  if (kind == om::proto::Type::Kind::sequence) return decode_sequence(path, bytes, out, why);
  if (kind == om::proto::Type::Kind::optional) return decode_optional(path, bytes, out, why);
  return decode_tensor(path, bytes, out, why);
}

bool decode_tensor(const fs::path& path, om::ByteSpan bytes, LoadedTensor& out, CaseResult& why) {
  om::Status status = om::proto::Tensor::parse(bytes, 0, out.proto);
  if (!status.ok()) {
    why = make_result(Outcome::fail, path.filename().string() + ": Tensor::parse: " + status_text(status));
    return false;
  }
  if (!om::is_known_dtype(out.proto.data_type)) {
    why = make_result(Outcome::unsupported,
                      path.filename().string() + ": unknown dtype " + std::to_string(out.proto.data_type));
    return false;
  }
  // String tensors decode to StringRefs pointing into `file`, which lives as long as this LoadedTensor.
  out.dtype = static_cast<om::DataType>(out.proto.data_type);
  status = out.shape.assign(out.proto.dims, static_cast<std::size_t>(out.proto.rank));
  if (status.ok()) status = om::checked_byte_size(out.dtype, out.shape, out.bytes);
  if (!status.ok()) {
    why = make_result(Outcome::unsupported, path.filename().string() + ": " + status_text(status));
    return false;
  }
  out.data.resize(out.bytes);
  if (out.bytes != 0) status = out.proto.decode_to(out.data.data(), out.bytes);
  if (!status.ok()) {
    why = make_result(Outcome::fail, path.filename().string() + ": decode_to: " + status_text(status));
    return false;
  }
  return true;
}

// ---- element conversion for comparison ------------------------------------------------------------------

template <typename T>
T load_as(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

/// Element i of a densely packed sub-byte buffer (om::dtype_bits(dtype) bits each, from the lowest bits of
/// the first byte up; a 6-bit element may straddle two bytes).
unsigned packed_element(const unsigned char* data, std::size_t i, int bits) {
  const std::size_t first_bit = i * static_cast<std::size_t>(bits);
  unsigned window = data[first_bit / 8];
  if (first_bit % 8 + static_cast<std::size_t>(bits) > 8) window |= static_cast<unsigned>(data[first_bit / 8 + 1]) << 8;
  return (window >> (first_bit % 8)) & ((1u << bits) - 1u);
}

/// 8-, 6- and 4-bit float formats (ONNX float8e4m3fn/fnuz, float8e5m2/fnuz, float4e2m1) to double.
double minifloat_to_double(unsigned bits, int exponent_bits, int mantissa_bits, int bias, bool ieee_inf_nan, bool fnuz,
                           bool e4m3fn) {
  const int total = 1 + exponent_bits + mantissa_bits;
  const unsigned sign = (bits >> (total - 1)) & 1u;
  const unsigned exponent = (bits >> mantissa_bits) & ((1u << exponent_bits) - 1u);
  const unsigned mantissa = bits & ((1u << mantissa_bits) - 1u);
  if (fnuz && sign == 1 && exponent == 0 && mantissa == 0) return std::nan("");  // 0x80 is NaN, no -0
  const unsigned max_exponent = (1u << exponent_bits) - 1u;
  if (ieee_inf_nan && exponent == max_exponent) {
    if (mantissa != 0) return std::nan("");
    return sign ? -HUGE_VAL : HUGE_VAL;
  }
  if (e4m3fn && exponent == max_exponent && mantissa == (1u << mantissa_bits) - 1u) return std::nan("");
  double value;
  if (exponent == 0) {
    value = std::ldexp(static_cast<double>(mantissa), 1 - bias - mantissa_bits);
  } else {
    value = std::ldexp(static_cast<double>(mantissa | (1u << mantissa_bits)),
                       static_cast<int>(exponent) - bias - mantissa_bits);
  }
  return sign ? -value : value;
}

/// Element i of a dense buffer of a floating (or float-like) dtype, as double.
double float_element(om::DataType dtype, const unsigned char* data, std::size_t i) {
  switch (dtype) {
    case om::DataType::float32: return load_as<float>(data + 4 * i);
    case om::DataType::float64: return load_as<double>(data + 8 * i);
    case om::DataType::float16: return om::float16_t::from_bits(load_as<std::uint16_t>(data + 2 * i)).to_float();
    case om::DataType::bfloat16: return om::bfloat16_t::from_bits(load_as<std::uint16_t>(data + 2 * i)).to_float();
    case om::DataType::float8e4m3fn: return minifloat_to_double(data[i], 4, 3, 7, false, false, true);
    case om::DataType::float8e4m3fnuz: return minifloat_to_double(data[i], 4, 3, 8, false, true, false);
    case om::DataType::float8e5m2: return minifloat_to_double(data[i], 5, 2, 15, true, false, false);
    case om::DataType::float8e5m2fnuz: return minifloat_to_double(data[i], 5, 2, 16, false, true, false);
    case om::DataType::float8e8m0: return data[i] == 0xff ? std::nan("") : std::ldexp(1.0, data[i] - 127);
    case om::DataType::float4e2m1: return minifloat_to_double(packed_element(data, i, 4), 2, 1, 1, false, false, false);
    case om::DataType::float6e2m3: return minifloat_to_double(packed_element(data, i, 6), 2, 3, 1, false, false, false);
    case om::DataType::float6e3m2: return minifloat_to_double(packed_element(data, i, 6), 3, 2, 3, false, false, false);
    default: return 0;
  }
}

bool is_float_like(om::DataType dtype) {
  switch (dtype) {
    case om::DataType::float32:
    case om::DataType::float64:
    case om::DataType::float16:
    case om::DataType::bfloat16:
    case om::DataType::float8e4m3fn:
    case om::DataType::float8e4m3fnuz:
    case om::DataType::float8e5m2:
    case om::DataType::float8e5m2fnuz:
    case om::DataType::float8e8m0:
    case om::DataType::float4e2m1:
    case om::DataType::float6e2m3:
    case om::DataType::float6e3m2: return true;
    default: return false;
  }
}

/// Element i of an integer or bool buffer, widened (uint64 values above INT64_MAX compare by bits).
long long integer_element(om::DataType dtype, const unsigned char* data, std::size_t i) {
  switch (dtype) {
    case om::DataType::int8: return load_as<std::int8_t>(data + i);
    case om::DataType::uint8: return data[i];
    case om::DataType::boolean: return data[i] != 0;
    case om::DataType::int16: return load_as<std::int16_t>(data + 2 * i);
    case om::DataType::uint16: return load_as<std::uint16_t>(data + 2 * i);
    case om::DataType::int32: return load_as<std::int32_t>(data + 4 * i);
    case om::DataType::uint32: return load_as<std::uint32_t>(data + 4 * i);
    case om::DataType::int64: return load_as<std::int64_t>(data + 8 * i);
    case om::DataType::uint64: return static_cast<long long>(load_as<std::uint64_t>(data + 8 * i));
    case om::DataType::int4:
    case om::DataType::int2: {
      const int bits = om::dtype_bits(dtype);
      const long long value = packed_element(data, i, bits);
      return value >= (1LL << (bits - 1)) ? value - (1LL << bits) : value;  // sign-extend
    }
    case om::DataType::uint4:
    case om::DataType::uint2: return packed_element(data, i, om::dtype_bits(dtype));
    default: return 0;
  }
}

/// numpy.isclose(actual, expected, rtol, atol, equal_nan=True).
bool is_close(double actual, double expected, double rtol, double atol) {
  if (std::isnan(actual) || std::isnan(expected)) return std::isnan(actual) && std::isnan(expected);
  if (std::isinf(actual) || std::isinf(expected)) return actual == expected;
  return std::fabs(actual - expected) <= atol + rtol * std::fabs(expected);
}

std::string index_text(const om::Shape& shape, std::size_t flat) {
  std::vector<long long> index(static_cast<std::size_t>(shape.rank()));
  for (int d = shape.rank() - 1; d >= 0; --d) {
    long long extent = shape[d] > 0 ? shape[d] : 1;
    index[static_cast<std::size_t>(d)] = static_cast<long long>(flat % static_cast<std::size_t>(extent));
    flat /= static_cast<std::size_t>(extent);
  }
  std::string s = "[";
  for (std::size_t d = 0; d < index.size(); ++d) s += (d ? "," : "") + std::to_string(index[d]);
  return s + "]";
}

/// Integer elements compared under --integer-atol in the current case, to report how close a pass was.
struct IntegerDifferences {
  std::size_t compared = 0;
  std::size_t differing = 0;
  long long largest = 0;
};
IntegerDifferences integer_differences;

/// Largest minus smallest finite element of a float tensor (0 when it has none).
double value_range(om::DataType dtype, const unsigned char* data, std::size_t count) {
  double low = HUGE_VAL, high = -HUGE_VAL;
  for (std::size_t i = 0; i < count; ++i) {
    const double v = float_element(dtype, data, i);
    if (!std::isfinite(v)) continue;
    low = std::min(low, v);
    high = std::max(high, v);
  }
  return high >= low ? high - low : 0.0;
}

/// Compares one output; returns "" when it matches, else what differs. Integer elements may differ by
/// `integer_atol` (counted in integer_differences when it is > 0); float elements by at least `atol_of_range`
/// times the expected output's range.
std::string compare_output(const om::ConstTensorView& actual, const LoadedTensor& expected, double rtol, double atol,
                           long long integer_atol = 0, double atol_of_range = 0) {
  if (actual.dtype != expected.dtype) {
    return std::string("dtype ") + om::dtype_name(actual.dtype) + ", expected " + om::dtype_name(expected.dtype);
  }
  if (actual.shape != expected.shape) {
    return "shape " + shape_text(actual.shape) + ", expected " + shape_text(expected.shape);
  }
  const std::size_t count = static_cast<std::size_t>(expected.shape.element_count());
  if (count == 0) return "";
  if (actual.data == nullptr) return "output data is null";
  if (om::is_value_container(expected.dtype)) {
    const auto* got_values = static_cast<const om::ValueRef*>(actual.data);
    for (std::size_t i = 0; i < count; ++i) {
      std::string difference =
          compare_output(om::view_of(got_values[i]), expected.elements[i], rtol, atol, integer_atol, atol_of_range);
      if (!difference.empty()) return "element " + std::to_string(i) + ": " + difference;
    }
    return "";
  }
  if (expected.dtype == om::DataType::string) {
    const auto* got_strings = static_cast<const om::StringRef*>(actual.data);
    const auto* want_strings = reinterpret_cast<const om::StringRef*>(expected.data.data());
    for (std::size_t i = 0; i < count; ++i) {
      if (got_strings[i].view() != want_strings[i].view()) {
        return "string element " + std::to_string(i) + " is \"" + std::string(got_strings[i].view()) +
               "\", expected \"" + std::string(want_strings[i].view()) + "\"";
      }
    }
    return "";
  }
  const auto* got = static_cast<const unsigned char*>(actual.data);
  const unsigned char* want = expected.data.data();
  std::size_t mismatches = 0;
  std::size_t worst = 0;
  double worst_excess = -1;
  std::string worst_text;
  const om::DataType dtype = expected.dtype;
  if (atol_of_range > 0 && is_float_like(dtype)) atol = std::max(atol, atol_of_range * value_range(dtype, want, count));
  for (std::size_t i = 0; i < count; ++i) {
    bool close;
    double excess;  // how far past the tolerance, to report the worst element
    std::string text;
    if (is_float_like(dtype)) {
      // numpy.testing.assert_allclose widens bfloat16's rtol to two bfloat16 ULPs; so does the ONNX runner.
      double element_rtol = dtype == om::DataType::bfloat16 ? std::max(rtol, 1.0 / 64) : rtol;
      double a = float_element(dtype, got, i);
      double e = float_element(dtype, want, i);
      close = is_close(a, e, element_rtol, atol);
      excess = std::isfinite(a - e) ? std::fabs(a - e) - (atol + element_rtol * std::fabs(e)) : HUGE_VAL;
      text = number_text(a) + ", expected " + number_text(e);
    } else if (dtype == om::DataType::complex64 || dtype == om::DataType::complex128) {
      double ar, ai, er, ei;
      if (dtype == om::DataType::complex64) {
        ar = load_as<float>(got + 8 * i), ai = load_as<float>(got + 8 * i + 4);
        er = load_as<float>(want + 8 * i), ei = load_as<float>(want + 8 * i + 4);
      } else {
        ar = load_as<double>(got + 16 * i), ai = load_as<double>(got + 16 * i + 8);
        er = load_as<double>(want + 16 * i), ei = load_as<double>(want + 16 * i + 8);
      }
      double diff = std::hypot(ar - er, ai - ei);
      double tolerance = atol + rtol * std::hypot(er, ei);
      close = diff <= tolerance || (std::isnan(ar + ai) && std::isnan(er + ei));
      excess = std::isfinite(diff) ? diff - tolerance : HUGE_VAL;
      text = "(" + number_text(ar) + "," + number_text(ai) + "), expected (" + number_text(er) + "," + number_text(ei) +
             ")";
    } else {
      long long a = integer_element(dtype, got, i);
      long long e = integer_element(dtype, want, i);
      const long long difference = a > e ? a - e : e - a;
      close = difference <= integer_atol;
      excess = close ? 0 : static_cast<double>(difference);
      if (integer_atol > 0) {
        ++integer_differences.compared;
        if (difference != 0) ++integer_differences.differing;
        if (difference > integer_differences.largest) integer_differences.largest = difference;
      }
      text = std::to_string(a) + ", expected " + std::to_string(e);
    }
    if (!close) {
      ++mismatches;
      if (excess > worst_excess) {
        worst_excess = excess;
        worst = i;
        worst_text = text;
      }
    }
  }
  if (mismatches == 0) return "";
  return std::to_string(mismatches) + " of " + std::to_string(count) + " elements differ; worst at " +
         index_text(expected.shape, worst) + ": got " + worst_text;
}

// ---- kernel coverage -------------------------------------------------------------------------------------

/// Resolves the opset of a domain in the scope being walked (the model's imports, or a function's).
struct OpsetScope {
  const om::Model* model = nullptr;
  const om::proto::Function* function = nullptr;

  std::int64_t version(std::string_view domain) const {
    if (function == nullptr) return model->opset_version(domain);
    for (om::proto::OperatorSetId id : function->opset_imports()) {
      if (om::model::normalize_domain(id.domain) == domain) return id.version;
    }
    return model->opset_version(domain);
  }
};

/// Finds a model-local function (FunctionProto) called `op_type` in `domain`.
bool find_local_function(const om::Model& model, std::string_view domain, std::string_view op_type,
                         om::proto::Function& out) {
  for (om::proto::Function function : model.proto().functions()) {
    if (om::model::normalize_domain(function.domain) == domain && function.name == op_type) {
      out = function;
      return true;
    }
  }
  return false;
}

constexpr int kMaxWalkDepth = 64;  // the loader has already bounded nesting; this only guards the recursion

/// Adds "Op (domain, opset N)" to `missing` for every node of `nodes`, of their subgraphs and of the
/// model-local functions they call, that no kernel of `registry` implements.
void collect_missing_kernels(const om::Model& model, om::KernelRegistry registry,
                             const om::proto::RepeatedField<om::proto::Node>& nodes, const OpsetScope& scope, int depth,
                             std::set<std::string>& missing) {
  if (depth > kMaxWalkDepth) return;
  for (om::proto::Node node : nodes) {
    const std::string_view domain = om::model::normalize_domain(node.domain);
    const std::int64_t version = scope.version(domain);
    if (om::find_kernel(registry, domain, node.op_type, version) == nullptr) {
      om::proto::Function function;
      if (find_local_function(model, domain, node.op_type, function)) {
        OpsetScope inner{&model, &function};
        collect_missing_kernels(model, registry, function.nodes(), inner, depth + 1, missing);
      } else {
        missing.insert(std::string(node.op_type) + " (" + std::string(om::model::display_domain(domain)) + ", opset " +
                       std::to_string(static_cast<long long>(version)) + ")");
      }
    }
    for (om::proto::Attribute attribute : node.attributes()) {
      if (attribute.type == om::proto::AttributeType::graph) {
        om::proto::Graph body = om::proto::Graph::unchecked(attribute.g);
        collect_missing_kernels(model, registry, body.nodes(), scope, depth + 1, missing);
      } else if (attribute.type == om::proto::AttributeType::graphs) {
        for (om::ByteSpan bytes : attribute.graphs()) {
          om::proto::Graph body = om::proto::Graph::unchecked(bytes);
          collect_missing_kernels(model, registry, body.nodes(), scope, depth + 1, missing);
        }
      }
    }
  }
}

const char* type_kind_name(om::proto::Type::Kind kind) {
  switch (kind) {
    case om::proto::Type::Kind::tensor: return "tensor";
    case om::proto::Type::Kind::sequence: return "sequence";
    case om::proto::Type::Kind::map: return "map";
    case om::proto::Type::Kind::optional: return "optional";
    case om::proto::Type::Kind::sparse_tensor: return "sparse tensor";
    case om::proto::Type::Kind::unknown: return "unknown";
  }
  return "?";
}

/// Why a graph input/output cannot be fed or compared by this runner ("" when it can).
std::string unsupported_value(const om::proto::ValueInfo& value, const char* role) {
  if (!value.has_type) return "";
  const om::proto::Type& type = value.type;
  if (type.kind != om::proto::Type::Kind::tensor && type.kind != om::proto::Type::Kind::sequence &&
      type.kind != om::proto::Type::Kind::optional) {
    return std::string(role) + " '" + std::string(value.name) + "' is a " + type_kind_name(type.kind) +
           " (the runner feeds and compares tensors only)";
  }
  return "";
}

bool is_initializer(const om::Model& model, std::string_view name) {
  for (om::model::ValueId id : model.graph().initializers) {
    if (model.graph().values[static_cast<std::size_t>(id)].name == name) return true;
  }
  return false;
}

std::vector<fs::path> sorted_subdirectories(const fs::path& dir, std::string_view prefix) {
  std::vector<fs::path> result;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (!it->is_directory(error)) continue;
    std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) == 0) result.push_back(it->path());
  }
  std::sort(result.begin(), result.end());
  return result;
}

// ---- one case --------------------------------------------------------------------------------------------

/// The inputs of one test_data_set_N directory, decoded, with the graph input each feeds.
struct DataSet {
  fs::path dir;
  std::string where;  ///< "test_data_set_N: ", prefixed to every message about it
  std::vector<LoadedTensor> inputs;
  std::vector<std::string_view> names;

  std::vector<om::InputShape> shapes() const {
    std::vector<om::InputShape> result;
    for (std::size_t k = 0; k < inputs.size(); ++k) result.push_back(om::InputShape{names[k], inputs[k].shape});
    return result;
  }
  std::vector<om::InputValue> values() const {
    std::vector<om::InputValue> result;
    for (std::size_t k = 0; k < inputs.size(); ++k) result.push_back(om::InputValue{names[k], inputs[k].view()});
    return result;
  }
};

/// Reads input_K.pb of `dir` for the K-th graph input. On failure `why` holds the result to report.
bool load_data_set(const fs::path& dir, const std::vector<om::proto::ValueInfo>& graph_inputs, DataSet& out,
                   CaseResult& why) {
  out.dir = dir;
  out.where = dir.filename().string() + ": ";
  std::error_code error;
  for (std::size_t k = 0;; ++k) {
    const fs::path path = dir / ("input_" + std::to_string(k) + ".pb");
    if (!fs::exists(path, error)) break;
    if (k >= graph_inputs.size()) {
      why = make_result(Outcome::fail, out.where + path.filename().string() + " has no graph input to feed");
      return false;
    }
    out.inputs.emplace_back();
    const om::proto::Type::Kind kind =
        graph_inputs[k].has_type ? graph_inputs[k].type.kind : om::proto::Type::Kind::tensor;
    if (!load_tensor(path, out.inputs.back(), why, kind)) {
      why.reason = out.where + why.reason;
      return false;
    }
    out.names.push_back(graph_inputs[k].name);
  }
  return true;
}

/// Compares the session's outputs with output_K.pb of `data_set`; a pass result (empty reason) when all match.
CaseResult compare_outputs(const om::Model& model, const om::Session& session, const DataSet& data_set,
                           const std::vector<om::proto::ValueInfo>& graph_outputs, const Options& options) {
  std::error_code error;
  std::string differences;
  for (std::size_t k = 0;; ++k) {
    const fs::path path = data_set.dir / ("output_" + std::to_string(k) + ".pb");
    if (!fs::exists(path, error)) break;
    if (k >= graph_outputs.size()) {
      return make_result(Outcome::fail, data_set.where + path.filename().string() + " has no graph output");
    }
    LoadedTensor expected;
    CaseResult why;
    const om::proto::Type::Kind kind =
        graph_outputs[k].has_type ? graph_outputs[k].type.kind : om::proto::Type::Kind::tensor;
    if (!load_tensor(path, expected, why, kind)) return make_result(why.outcome, data_set.where + why.reason);
    std::size_t index = 0;
    om::Status status = session.output_index(graph_outputs[k].name, index);
    if (!status.ok()) return make_result(Outcome::fail, data_set.where + "output_index: " + status_text(status));
    // A quantum computed in float32 is a few ulps off: 1.0001 of it still counts as one.
    const double quantum_atol = options.quantum_atol * onnxmicro_test::output_quantum(model, k) * (1 + 1e-4);
    std::string difference =
        compare_output(session.output(index), expected, options.rtol, std::max(options.atol, quantum_atol),
                       options.integer_atol, options.atol_of_range);
    if (!difference.empty()) {
      if (!differences.empty()) differences += "; ";
      differences += "output " + std::to_string(k) + " '" + std::string(graph_outputs[k].name) + "': " + difference;
    }
  }
  if (!differences.empty()) return make_result(Outcome::fail, data_set.where + differences);
  return make_result(Outcome::pass, "");
}

/// The result of a failed Session::prepare: a kernel the session found missing (one the coverage walk did not,
/// in a function it does not expand, say) is a coverage gap, anything else a failure.
CaseResult prepare_failure(const std::string& where, const om::Status& status) {
  bool missing_kernel =
      status.code() == om::StatusCode::unsupported && status.message_view().find("no kernel") != std::string_view::npos;
  return make_result(missing_kernel ? Outcome::unsupported : Outcome::fail,
                     where + "Session::prepare: " + status_text(status));
}

#if ONNXMICRO_RUNNER_OPENCL
/// --device opencl: cases with every node on OpenCL (or folded), with some, with none.
struct DeviceTally {
  int wholly = 0, partly = 0, none = 0;
};
DeviceTally g_device_tally;
std::string g_placement;  ///< the current case's placement line (main prints it after the case)

/// Where the case's nodes ran, counted once per case (its first data set).
void report_placement(const om::Session& session, bool first_data_set) {
  int on_device = 0, fallbacks = 0;
  std::string reasons;
  for (std::size_t i = 0; i < session.node_reports().size(); ++i) {
    const om::NodeReport& r = session.node_reports()[i];
    on_device += r.placement == om::Placement::opencl ? 1 : 0;
    if (!r.fallback) continue;
    ++fallbacks;
    reasons +=
        (reasons.empty() ? "" : "; ") + std::string(r.node->op_type) + ": " + std::string(session.placement_reason(i));
  }
  if (!first_data_set) return;
  (fallbacks == 0 ? g_device_tally.wholly : on_device > 0 ? g_device_tally.partly : g_device_tally.none) += 1;
  g_placement = std::to_string(on_device) + " on opencl, " + std::to_string(fallbacks) + " fallbacks" +
                (reasons.empty() ? "" : ": ") + reasons;
}
#endif

/// A fresh session per data set, prepared for its shapes (every input's value offered, so the session binds
/// the shape-deciding ones), fed with set_input() and run().
CaseResult run_data_sets_separately(const om::Model& model, om::KernelRegistry registry,
                                    const std::vector<DataSet>& data_sets,
                                    const std::vector<om::proto::ValueInfo>& graph_outputs, const Options& options) {
  for (const DataSet& data_set : data_sets) {
    const std::string& where = data_set.where;
    const std::vector<om::InputShape> shapes = data_set.shapes();
    const std::vector<om::InputValue> values = data_set.values();
    om::Session session;
    om::SessionOptions session_options;
    session_options.size_optimized_kernels = options.size_optimized_kernels;
    session_options.input_shapes = om::Span<const om::InputShape>(shapes.data(), shapes.size());
    session_options.input_values = om::Span<const om::InputValue>(values.data(), values.size());
#if ONNXMICRO_RUNNER_OPENCL
    om::opencl::Backend backend;  // one per session; the program comes from the shared cache
    if (options.opencl) {
      om::opencl::Options opencl;
      opencl.cache_directory = options.opencl_cache;
      static_cast<void>(backend.open(opencl));  // an unusable device shows as fallbacks in the placement line
      session_options.device = &backend;
      session_options.device_policy = om::DevicePolicy::prefer_device;
    }
#endif
    om::Status status = session.prepare(model, registry, session_options);
    if (!status.ok()) return prepare_failure(where, status);
#if ONNXMICRO_RUNNER_OPENCL
    if (options.opencl) report_placement(session, &data_set == &data_sets.front());
#endif
    for (std::size_t k = 0; k < data_set.inputs.size(); ++k) {
      std::size_t index = 0;
      status = session.input_index(data_set.names[k], index);
      if (status.ok()) status = session.set_input(index, data_set.inputs[k].view());
      if (!status.ok()) {
        return make_result(Outcome::fail,
                           where + "set_input(input_" + std::to_string(k) + ".pb): " + status_text(status));
      }
    }
    const std::size_t allocations_before = onnxmicro_test::heap_allocation_count();
    status = session.run();
    const std::size_t run_allocations = onnxmicro_test::heap_allocation_count() - allocations_before;
    if (!status.ok()) return make_result(Outcome::fail, where + "Session::run: " + status_text(status));
    if (run_allocations != 0) {
      return make_result(Outcome::fail, where + "Session::run allocated on the heap " +
                                            std::to_string(run_allocations) + " times (it must never allocate)");
    }
    CaseResult compared = compare_outputs(model, session, data_set, graph_outputs, options);
    if (compared.outcome != Outcome::pass) return compared;
  }
  return make_result(Outcome::pass, "");
}

/// The elementwise maximum of each dynamic input's shape over every data set; "" or why there is none. An
/// input is dynamic when its shape differs between data sets: one whose shape never changes gets no maximum,
/// so that prepare() may bind its value while planning at the maxima (a Reshape's shape, a ReduceSum's axes).
std::string max_input_shapes(const std::vector<DataSet>& data_sets, std::vector<om::InputShape>& out) {
  std::vector<om::InputShape> maxima = data_sets.front().shapes();
  std::vector<bool> varies(maxima.size(), false);
  for (const DataSet& data_set : data_sets) {
    if (data_set.inputs.size() != maxima.size()) {
      return data_set.where + "feeds " + std::to_string(data_set.inputs.size()) + " inputs, " +
             data_sets.front().where + std::to_string(maxima.size());
    }
    for (std::size_t k = 0; k < maxima.size(); ++k) {
      const om::Shape& shape = data_set.inputs[k].shape;
      om::Shape& maximum = maxima[k].shape;
      if (shape.rank() != maximum.rank()) {
        return data_set.where + "input '" + std::string(maxima[k].name) + "' has shape " + shape_text(shape) +
               ", another data set " + shape_text(maximum) + " (ranks differ)";
      }
      if (shape != maximum) varies[k] = true;
      for (int d = 0; d < shape.rank(); ++d) maximum[d] = std::max(maximum[d], shape[d]);
    }
  }
  out.clear();
  for (std::size_t k = 0; k < maxima.size(); ++k)
    if (varies[k]) out.push_back(maxima[k]);
  return "";
}

/// One session for every data set (the default, --one-session): prepared once for the first data set with
/// max_input_shapes the elementwise maxima of the dynamic inputs over all data sets (none with
/// --no-max-input-shapes), then fed each data set by run(inputs), twice.
/// Asserts every output, that the second run of the same inputs re-plans nothing (so does the first run of
/// the data set prepare saw), that no run allocates and that the arena never changes size after prepare
/// (without maxima: that it always holds the current plan).
/// A pass of several data sets (or with re-plans) reports the re-plan counts.
CaseResult run_data_sets_in_one_session(const om::Model& model, om::KernelRegistry registry,
                                        const std::vector<DataSet>& data_sets,
                                        const std::vector<om::proto::ValueInfo>& graph_outputs,
                                        const Options& options) {
  std::vector<om::InputShape> maxima;
  std::string why = max_input_shapes(data_sets, maxima);
  if (!why.empty()) return make_result(Outcome::fail, "--one-session: " + why);
  const DataSet& first = data_sets.front();
  const std::vector<om::InputShape> shapes = first.shapes();
  const std::vector<om::InputValue> first_values = first.values();
  om::Session session;
  om::SessionOptions session_options;
  session_options.size_optimized_kernels = options.size_optimized_kernels;
  session_options.input_shapes = om::Span<const om::InputShape>(shapes.data(), shapes.size());
  session_options.input_values = om::Span<const om::InputValue>(first_values.data(), first_values.size());
  if (options.max_input_shapes) {
    session_options.max_input_shapes = om::Span<const om::InputShape>(maxima.data(), maxima.size());
  }
  om::Status status = session.prepare(model, registry, session_options);
  if (!status.ok()) return prepare_failure(first.where, status);
  const std::size_t arena_after_prepare = session.arena_capacity();
  std::string replans;  // per data set, for the report
  for (const DataSet& data_set : data_sets) {
    const std::vector<om::InputValue> values = data_set.values();
    const om::Span<const om::InputValue> feed(values.data(), values.size());
    std::size_t replans_before = session.replan_count();
    for (int repeat = 0; repeat < 2; ++repeat) {
      const std::string where = data_set.where + (repeat == 0 ? "" : "second ") + "run(inputs): ";
      const std::size_t replans_before_run = session.replan_count();
      const std::size_t allocations_before = onnxmicro_test::heap_allocation_count();
      status = session.run(feed);
      const std::size_t run_allocations = onnxmicro_test::heap_allocation_count() - allocations_before;
      if (!status.ok()) return make_result(Outcome::fail, where + status_text(status));
      if (run_allocations != 0) {
        return make_result(Outcome::fail, where + "allocated on the heap " + std::to_string(run_allocations) +
                                              " times (it must never allocate)");
      }
      const std::size_t replanned = session.replan_count() - replans_before_run;
      if (replanned != 0 && (repeat == 1 || &data_set == &first)) {
        return make_result(Outcome::fail, where + "re-planned " + std::to_string(replanned) +
                                              " times for the shapes and values it was planned for (expected 0)");
      }
      if (!options.max_input_shapes && session.arena_capacity() < session.required_arena_bytes()) {
        return make_result(Outcome::fail, where + "the arena is " + std::to_string(session.arena_capacity()) +
                                              " bytes, the plan needs " +
                                              std::to_string(session.required_arena_bytes()));
      }
      if (options.max_input_shapes && session.arena_capacity() != arena_after_prepare) {
        return make_result(Outcome::fail, where + "the arena is " + std::to_string(session.arena_capacity()) +
                                              " bytes, " + std::to_string(arena_after_prepare) +
                                              " after prepare (it must not change)");
      }
      CaseResult compared = compare_outputs(model, session, data_set, graph_outputs, options);
      if (compared.outcome != Outcome::pass) {
        compared.reason = (repeat == 0 ? "" : "second run(inputs): ") + compared.reason;
        return compared;
      }
    }
    replans += (replans.empty() ? "" : " ") + std::to_string(session.replan_count() - replans_before);
  }
  if (data_sets.size() == 1 && session.replan_count() == 0) return make_result(Outcome::pass, "");
  return make_result(Outcome::pass, "re-plans " + std::to_string(session.replan_count()) + " over " +
                                        std::to_string(data_sets.size()) + " data sets (per set: " + replans +
                                        "), arena " + std::to_string(arena_after_prepare) + " bytes after prepare, " +
                                        std::to_string(session.arena_capacity()) + " at the end");
}

#if ONNXMICRO_CONFORMANCE_CAN_FORK
/// Runs `argv` with stdout discarded and stderr written to `stderr_path`; returns its wait status (-1: not started).
int run_program(const std::vector<std::string>& argv, const fs::path& stderr_path) {
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    std::FILE* out = std::freopen("/dev/null", "w", stdout);
    std::FILE* err = std::freopen(stderr_path.c_str(), "w", stderr);
    if (out == nullptr || err == nullptr) _exit(127);
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int wait_status = 0;
  while (waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  return wait_status;
}

std::string read_text(const fs::path& path) {
  std::vector<unsigned char> bytes;
  if (!read_file(path, bytes)) return "";
  return std::string(bytes.begin(), bytes.end());
}

/// One data set through `onnxmicro run`: a pass when the CLI exits 0 and every output file it writes matches.
CaseResult run_data_set_via_cli(const om::Model& model, const fs::path& model_path, const DataSet& data_set,
                                const std::vector<om::proto::ValueInfo>& graph_outputs, const Options& options,
                                const fs::path& work) {
  std::vector<std::string> argv = {options.via_cli, "run", model_path.string(), "--output-dir", work.string()};
  if (!data_set.inputs.empty()) argv.push_back("--inputs");
  for (std::size_t k = 0; k < data_set.inputs.size(); ++k) {
    argv.push_back((data_set.dir / ("input_" + std::to_string(k) + ".pb")).string());
  }
  const fs::path stderr_path = work.string() + ".stderr";
  const int wait_status = run_program(argv, stderr_path);
  std::string message = read_text(stderr_path);
  while (!message.empty() && message.back() == '\n') message.pop_back();
  if (wait_status == -1) return make_result(Outcome::fail, data_set.where + "cannot start " + options.via_cli);
  if (WIFSIGNALED(wait_status)) {
    return make_result(Outcome::fail,
                       data_set.where + "onnxmicro run crashed: signal " + std::to_string(WTERMSIG(wait_status)));
  }
  const int exit_code = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
  if (exit_code != 0) {
    const bool single_line = message.find('\n') == std::string::npos && message.rfind("onnxmicro: error: ", 0) == 0;
    std::replace(message.begin(), message.end(), '\n', ' ');
    return make_result(Outcome::fail, data_set.where + "onnxmicro run exit " + std::to_string(exit_code) + ": " +
                                          (single_line ? "" : "(not one error line) ") + message);
  }
  std::error_code error;
  std::string differences;
  for (std::size_t k = 0;; ++k) {
    const std::string file = "output_" + std::to_string(k) + ".pb";
    if (!fs::exists(data_set.dir / file, error)) break;
    if (k >= graph_outputs.size()) return make_result(Outcome::fail, data_set.where + file + " has no graph output");
    const om::proto::Type::Kind kind =
        graph_outputs[k].has_type ? graph_outputs[k].type.kind : om::proto::Type::Kind::tensor;
    LoadedTensor expected, actual;
    CaseResult why;
    if (!load_tensor(data_set.dir / file, expected, why, kind))
      return make_result(why.outcome, data_set.where + why.reason);
    if (!load_tensor(work / file, actual, why, kind)) {
      return make_result(Outcome::fail, data_set.where + "the CLI's " + why.reason);
    }
    const double quantum_atol = options.quantum_atol * onnxmicro_test::output_quantum(model, k) * (1 + 1e-4);
    const std::string difference =
        compare_output(actual.view(), expected, options.rtol, std::max(options.atol, quantum_atol),
                       options.integer_atol, options.atol_of_range);
    if (!difference.empty()) {
      differences += (differences.empty() ? "" : "; ") + std::string("output ") + std::to_string(k) + " '" +
                     std::string(graph_outputs[k].name) + "': " + difference;
    }
  }
  if (!differences.empty()) return make_result(Outcome::fail, data_set.where + differences);
  return make_result(Outcome::pass, "");
}

/// --via-cli: every data set through the CLI, in a scratch directory removed afterwards.
CaseResult run_data_sets_via_cli(const om::Model& model, const fs::path& model_path,
                                 const std::vector<DataSet>& data_sets,
                                 const std::vector<om::proto::ValueInfo>& graph_outputs, const Options& options) {
  std::error_code error;
  const fs::path work = fs::temp_directory_path(error) / ("onnxmicro_via_cli_" + std::to_string(getpid()));
  CaseResult result = make_result(Outcome::pass, "");
  for (const DataSet& data_set : data_sets) {
    fs::remove_all(work, error);
    result = run_data_set_via_cli(model, model_path, data_set, graph_outputs, options, work);
    if (result.outcome != Outcome::pass) break;
  }
  fs::remove_all(work, error);
  fs::remove(work.string() + ".stderr", error);
  return result;
}
#endif

/// Runs every data set of the case in `dir`. Never throws or exits; every problem becomes the result.
CaseResult run_case(const fs::path& dir, const Options& options) {
  const om::KernelRegistry registry = om::all_kernels_registry();
  const fs::path model_path = dir / "model.onnx";
  std::error_code error;
  if (!fs::exists(model_path, error)) return make_result(Outcome::unsupported, "no model.onnx (download-only case)");

  om::ModelBytes bytes;
  om::Status status = om::ModelBytes::from_file(model_path.string().c_str(), bytes);
  if (!status.ok()) return make_result(Outcome::fail, "ModelBytes::from_file: " + status_text(status));
  om::Model model;
  om::LoadOptions load_options;
  load_options.base_directory = bytes.directory();
  status = model.load(bytes.bytes(), load_options);
  if (!status.ok()) {
    return make_result(status.code() == om::StatusCode::unsupported ? Outcome::unsupported : Outcome::fail,
                       "Model::load: " + status_text(status));
  }

  // Coverage first: a node without a kernel makes the case unsupported, whatever else happens.
  std::set<std::string> missing;
  collect_missing_kernels(model, registry, model.proto().graph.nodes(), OpsetScope{&model, nullptr}, 0, missing);
  if (!missing.empty()) {
    CaseResult result = make_result(Outcome::unsupported, "no kernel for");
    for (const std::string& op : missing) {
      result.reason += (result.missing_kernels.empty() ? " " : ", ") + op;
      result.missing_kernels.push_back(op);
    }
    return result;
  }

  // input_K.pb feeds the K-th graph input that is not an initializer, as onnx's backend runner does through
  // onnxruntime (older models list every weight among the graph inputs, sometimes first).
  std::vector<om::proto::ValueInfo> graph_inputs;
  std::vector<om::proto::ValueInfo> graph_outputs;
  for (om::proto::ValueInfo value : model.proto().graph.inputs())
    if (!is_initializer(model, value.name)) graph_inputs.push_back(value);
  for (om::proto::ValueInfo value : model.proto().graph.outputs()) graph_outputs.push_back(value);
  for (const om::proto::ValueInfo& value : graph_inputs) {
    std::string why = unsupported_value(value, "input");
    if (!why.empty() && !is_initializer(model, value.name)) return make_result(Outcome::unsupported, why);
  }
  for (const om::proto::ValueInfo& value : graph_outputs) {
    std::string why = unsupported_value(value, "output");
    if (!why.empty()) return make_result(Outcome::unsupported, why);
  }

  const std::vector<fs::path> data_set_dirs = sorted_subdirectories(dir, "test_data_set_");
  if (data_set_dirs.empty()) return make_result(Outcome::fail, "no test_data_set_* directory");
  std::vector<DataSet> data_sets(data_set_dirs.size());
  for (std::size_t i = 0; i < data_set_dirs.size(); ++i) {
    CaseResult why;
    if (!load_data_set(data_set_dirs[i], graph_inputs, data_sets[i], why)) return why;
  }
#if ONNXMICRO_CONFORMANCE_CAN_FORK
  if (!options.via_cli.empty()) return run_data_sets_via_cli(model, model_path, data_sets, graph_outputs, options);
#endif
  if (options.one_session) return run_data_sets_in_one_session(model, registry, data_sets, graph_outputs, options);
  return run_data_sets_separately(model, registry, data_sets, graph_outputs, options);
}

// ---- process isolation -----------------------------------------------------------------------------------

std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

std::string serialize(const CaseResult& result) {
  std::string text = std::string(outcome_name(result.outcome)) + "\n" + one_line(result.reason) + "\n";
  for (const std::string& op : result.missing_kernels) text += one_line(op) + "\n";
  return text;
}

CaseResult deserialize(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (lines.size() < 2) return make_result(Outcome::fail, "child process sent a truncated result");
  CaseResult result;
  result.outcome = lines[0] == "pass"          ? Outcome::pass
                   : lines[0] == "unsupported" ? Outcome::unsupported
                                               : Outcome::fail;
  result.reason = lines[1];
  result.missing_kernels.assign(lines.begin() + 2, lines.end());
  return result;
}

/// run_case(), and with --integer-atol the integer differences of a passing case appended to its reason.
CaseResult run_case_counted(const fs::path& dir, const Options& options) {
  integer_differences = IntegerDifferences();
  CaseResult result = run_case(dir, options);
  const IntegerDifferences& d = integer_differences;
  if (options.integer_atol > 0 && result.outcome == Outcome::pass && d.compared > 0) {
    result.reason += (result.reason.empty() ? "" : "; ") + std::to_string(d.differing) + " of " +
                     std::to_string(d.compared) + " integer elements differ, largest difference " +
                     std::to_string(d.largest);
  }
  return result;
}

#if ONNXMICRO_CONFORMANCE_CAN_FORK
CaseResult run_case_in_child(const fs::path& dir, const Options& options) {
  int fds[2];
  if (pipe(fds) != 0) return run_case_counted(dir, options);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return run_case_counted(dir, options);
  }
  if (pid == 0) {
    close(fds[0]);
    alarm(options.timeout_seconds);  // SIGALRM's default action ends a hung case
    const std::string text = serialize(run_case_counted(dir, options));
    std::size_t written = 0;
    while (written < text.size()) {
      ssize_t n = write(fds[1], text.data() + written, text.size() - written);
      if (n <= 0) break;
      written += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buffer[4096];
  for (;;) {
    ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(fds[0]);
  int wait_status = 0;
  while (waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(wait_status)) {
    const int signal_number = WTERMSIG(wait_status);
    if (signal_number == SIGALRM) {
      return make_result(Outcome::fail, "timed out after " + std::to_string(options.timeout_seconds) + " s");
    }
    const char* description = strsignal(signal_number);
    return make_result(Outcome::fail, "crashed: signal " + std::to_string(signal_number) + " (" +
                                          (description ? description : "?") + ")");
  }
  if (!WIFEXITED(wait_status) || WEXITSTATUS(wait_status) != 0 || text.empty()) {
    return make_result(Outcome::fail, "child process ended without a result (exit status " +
                                          std::to_string(WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1) + ")");
  }
  return deserialize(text);
}
#endif

CaseResult run_case_isolated(const fs::path& dir, const Options& options) {
#if ONNXMICRO_CONFORMANCE_CAN_FORK
  if (options.fork_cases) return run_case_in_child(dir, options);
#endif
  return run_case_counted(dir, options);
}

// ---- allowlist -------------------------------------------------------------------------------------------

struct AllowlistEntry {
  std::string reason;
  int line = 0;
  bool matched = false;
};

std::string trim(const std::string& text) {
  const char* space = " \t\r\n";
  std::size_t first = text.find_first_not_of(space);
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(space) - first + 1);
}

/// Reads 'case_name  # reason' lines; blank lines and lines starting with '#' are comments. Node cases are
/// named by their directory (test_abs), other suites' as suite/directory (an unprefixed name matches in any
/// suite). Returns false (after printing why) when the file is malformed.
bool read_allowlist(const std::string& path, std::map<std::string, AllowlistEntry>& entries) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "onnxmicro_conformance: cannot read allowlist %s\n", path.c_str());
    return false;
  }
  std::string line;
  int number = 0;
  bool ok = true;
  while (std::getline(in, line)) {
    ++number;
    std::string content = line;
    std::string reason;
    std::size_t hash = line.find('#');
    if (hash != std::string::npos) {
      content = line.substr(0, hash);
      reason = trim(line.substr(hash + 1));
    }
    content = trim(content);
    if (content.empty()) continue;
    if (content.find_first_of(" \t") != std::string::npos || reason.empty()) {
      std::fprintf(stderr, "%s:%d: expected 'case_name  # reason', got '%s'\n", path.c_str(), number, line.c_str());
      ok = false;
      continue;
    }
    if (entries.count(content) != 0) {
      std::fprintf(stderr, "%s:%d: '%s' is listed twice (first on line %d)\n", path.c_str(), number, content.c_str(),
                   entries[content].line);
      ok = false;
      continue;
    }
    entries[content] = AllowlistEntry{reason, number, false};
  }
  return ok;
}

// ---- results file ----------------------------------------------------------------------------------------

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

struct RecordedCase {
  std::string suite;
  std::string name;
  std::string display_name;
  CaseResult result;
  bool allowlisted = false;
  double milliseconds = 0;
};

bool write_results_json(const std::string& path, const Options& options, const std::vector<RecordedCase>& cases) {
  std::ofstream out(path);
  if (!out) return false;
  out << "{\n  \"data\": " << json_string(options.data_dir) << ",\n  \"rtol\": " << number_text(options.rtol)
      << ",\n  \"atol\": " << number_text(options.atol) << ",\n  \"cases\": [\n";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const RecordedCase& c = cases[i];
    out << "    {\"suite\": " << json_string(c.suite) << ", \"name\": " << json_string(c.name)
        << ", \"status\": " << json_string(outcome_name(c.result.outcome))
        << ", \"reason\": " << json_string(c.result.reason)
        << ", \"allowlisted\": " << (c.allowlisted ? "true" : "false")
        << ", \"milliseconds\": " << number_text(c.milliseconds) << "}" << (i + 1 < cases.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, options)) return 2;
  if (options.opencl && (options.one_session || options.fork_cases)) {
    std::fprintf(stderr, "onnxmicro_conformance: --device opencl needs --session-per-data-set and --no-fork\n");
    return 2;
  }

  std::map<std::string, AllowlistEntry> allowlist;
  if (!options.allowlist_path.empty() && !read_allowlist(options.allowlist_path, allowlist)) return 2;

  // Collect the cases first, so a missing suite is reported before anything runs.
  struct PendingCase {
    std::string suite;
    fs::path dir;
  };
  std::vector<PendingCase> pending;
  for (const std::string& suite : options.suites) {
    const fs::path suite_dir = fs::path(options.data_dir) / suite;
    std::error_code error;
    if (!fs::is_directory(suite_dir, error)) {
      std::fprintf(stderr,
                   "onnxmicro_conformance: no suite directory %s (generate it with "
                   "tests/conformance/generate_data.py -o %s)\n",
                   suite_dir.string().c_str(), options.data_dir.c_str());
      return 2;
    }
    for (const fs::path& dir : sorted_subdirectories(suite_dir, "")) {
      const std::string name = dir.filename().string();
      bool selected = options.filters.empty();
      for (const std::string& filter : options.filters) selected = selected || name.find(filter) != std::string::npos;
      if (selected) pending.push_back({suite, dir});
    }
  }
  if (pending.empty()) {
    std::fprintf(stderr, "onnxmicro_conformance: no case matched under %s\n", options.data_dir.c_str());
    return 2;
  }

  std::vector<RecordedCase> recorded;
  std::map<std::string, int> missing_kernel_cases;
  int passed = 0, failed = 0, unsupported = 0, allowlisted_failures = 0, unexpected_failures = 0, stale = 0;
  const auto run_start = std::chrono::steady_clock::now();
  for (const PendingCase& pending_case : pending) {
    RecordedCase c;
    c.suite = pending_case.suite;
    c.name = pending_case.dir.filename().string();
    c.display_name = options.suites.size() > 1 ? c.suite + "/" + c.name : c.name;
    const auto start = std::chrono::steady_clock::now();
#if ONNXMICRO_RUNNER_OPENCL
    g_placement.clear();
#endif
    c.result = run_case_isolated(pending_case.dir, options);
#if ONNXMICRO_RUNNER_OPENCL
    if (options.opencl && !g_placement.empty()) std::printf("OPENCL %s: %s\n", c.name.c_str(), g_placement.c_str());
#endif
    c.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    AllowlistEntry* entry = nullptr;
    for (const std::string& key : {c.name, c.suite + "/" + c.name}) {
      auto it = allowlist.find(key);
      if (it != allowlist.end()) entry = &it->second;
    }
    if (entry != nullptr) entry->matched = true;
    c.allowlisted = entry != nullptr;
    const char* name = c.display_name.c_str();
    switch (c.result.outcome) {
      case Outcome::pass:
        ++passed;
        if (entry != nullptr) {
          ++stale;
          std::printf("STALE %s: passes now; remove it from the allowlist (line %d)\n", name, entry->line);
        } else if (options.verbose || (options.one_session && !c.result.reason.empty())) {
          // --one-session passes carry the re-plan counts.
          std::printf("PASS  %s (%.1f ms)%s%s\n", name, c.milliseconds, c.result.reason.empty() ? "" : ": ",
                      c.result.reason.c_str());
        }
        break;
      case Outcome::fail:
        ++failed;
        if (entry != nullptr) {
          ++allowlisted_failures;
          std::printf("XFAIL %s: %s [allowlisted: %s]\n", name, c.result.reason.c_str(), entry->reason.c_str());
        } else {
          ++unexpected_failures;
          std::printf("FAIL  %s: %s\n", name, c.result.reason.c_str());
        }
        break;
      case Outcome::unsupported:
        ++unsupported;
        for (const std::string& op : c.result.missing_kernels) {
          // Count per op, without the opset, so the summary ranks the kernels worth writing next.
          ++missing_kernel_cases[op.substr(0, op.find(' '))];
        }
        if (options.list_unsupported || options.verbose) {
          std::printf("UNSUPPORTED %s: %s\n", name, c.result.reason.c_str());
        }
        if (entry != nullptr) {
          std::printf("note: %s is allowlisted (line %d) but unsupported now, not failing: %s\n", name, entry->line,
                      c.result.reason.c_str());
        }
        break;
    }
    recorded.push_back(std::move(c));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();

  if (!missing_kernel_cases.empty()) {
    std::vector<std::pair<int, std::string>> ranked;
    for (const auto& [op, count] : missing_kernel_cases) ranked.push_back({-count, op});
    std::sort(ranked.begin(), ranked.end());
    const std::size_t shown = options.list_unsupported ? ranked.size() : std::min<std::size_t>(ranked.size(), 25);
    std::printf("missing kernels (%zu ops) by cases they block:", ranked.size());
    for (std::size_t i = 0; i < shown; ++i)
      std::printf(" %s %d%s", ranked[i].second.c_str(), -ranked[i].first, i + 1 < shown ? "," : "");
    std::printf(shown < ranked.size() ? ", ... (--list-unsupported for all)\n" : "\n");
  }
  for (const auto& [key, entry] : allowlist) {
    // A shared allowlist names cases of every suite; only entries of the suites run here can be checked.
    const std::size_t slash = key.find('/');
    const std::string entry_suite = slash == std::string::npos ? "node" : key.substr(0, slash);
    const bool suite_ran = std::find(options.suites.begin(), options.suites.end(), entry_suite) != options.suites.end();
    if (!entry.matched && options.filters.empty() && suite_ran) {
      std::printf("note: allowlist line %d names '%s', which is not a case of the selected suites\n", entry.line,
                  key.c_str());
    }
  }
  if (!options.results_json_path.empty() && !write_results_json(options.results_json_path, options, recorded)) {
    std::fprintf(stderr, "onnxmicro_conformance: cannot write %s\n", options.results_json_path.c_str());
    return 2;
  }
  if (!allowlist.empty() || stale != 0) {
    std::printf("allowlist: %d known failures, %d stale entries\n", allowlisted_failures, stale);
  }
  onnxmicro::Isa isa = onnxmicro::Isa::baseline;
  if (onnxmicro::effective_isa(onnxmicro::Isa::best, isa)) {  // (a malformed cap failed every prepare, loudly)
    std::printf("isa: %s\n", std::string(onnxmicro::isa_name(isa)).c_str());
  }
  std::printf("time: %.1f s\n", seconds);
#if ONNXMICRO_RUNNER_OPENCL
  if (options.opencl) {
    std::printf("opencl: %d cases wholly on opencl, %d partly, %d not at all\n", g_device_tally.wholly,
                g_device_tally.partly, g_device_tally.none);
  }
#endif
  std::printf("conformance%s: %d passed, %d failed, %d unsupported (of %zu cases)\n",
              options.via_cli.empty() ? "" : " via CLI", passed, failed, unsupported, recorded.size());
  std::printf("%d passed, %d failed\n", passed, failed);
  return unexpected_failures != 0 || stale != 0 ? 1 : 0;
}
