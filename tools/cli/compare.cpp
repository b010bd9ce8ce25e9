// SPDX-License-Identifier: MIT
// `onnxmicro compare MODEL --inputs IN_0.pb ... --expected OUT_0.pb ... [--rtol R] [--atol A] [--layerwise]`: runs
// the model and checks its outputs against reference files (e.g. from PyTorch or onnxruntime); --layerwise runs it
// as deployed and as written and names the first node where the two part.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "dump.hpp"
#include "inputs.hpp"
#include "tensor_io.hpp"

namespace onnxmicro_cli {
namespace {

using onnxmicro::ConstTensorView;
using onnxmicro::DataType;

constexpr double kDefaultRtol = 1e-3;
constexpr double kDefaultAtol = 1e-5;

constexpr const char kUsage[] =
    "usage: onnxmicro compare MODEL [--inputs FILE...] [--input NAME=FILE]... [--expected FILE|NAME=FILE...] "
    "[--rtol R] [--atol A] [--layerwise] [--optimize-for-size] [--threads N] " ONNXMICRO_CLI_DEVICE_USAGE;
constexpr const char kHelp[] =
    "usage: onnxmicro compare MODEL [--inputs FILE...] [--input NAME=FILE]... [--expected FILE|NAME=FILE...]\n"
    "                         [--rtol R] [--atol A] [--layerwise] [--optimize-for-size] [--threads N]\n"
    "                         " ONNXMICRO_CLI_DEVICE_USAGE
    "\n"
    "\n"
    "Runs MODEL once on the input files (as `onnxmicro run` reads them) and compares its outputs with reference\n"
    "outputs (.pb TensorProto or .npy, e.g. saved from PyTorch or onnxruntime). For each output it prints the\n"
    "largest absolute and relative difference, how many elements are beyond tolerance and the worst element's\n"
    "index with both values. An element is within tolerance when |got - expected| <= atol + rtol * |expected|\n"
    "(numpy.isclose; NaN matches NaN, an infinity only the same infinity). Integer and bool outputs must be equal\n"
    "unless --rtol or --atol is given.\n"
    "\n"
    "Options:\n"
    "  --inputs FILE...     one file per graph input that is not an initializer, in graph order\n"
    "  --input NAME=FILE    the file for the input called NAME (may be repeated)\n"
    "  --expected FILE...   reference files: one per graph output in graph-output order, or NAME=FILE for the\n"
    "                       output called NAME (then only the outputs named are compared)\n"
    "  --layerwise          run the model twice, as deployed (activation and QDQ fusions on, the given\n"
    "                       --device) and as written (every node its own kernel, on the CPU), compare every\n"
    "                       intermediate tensor with the tolerances and name the first node where they part;\n"
    "                       tensors a fusion absorbs are not comparable (--expected is then optional)\n"
    "  --rtol R             relative tolerance (default 1e-3)\n"
    "  --atol A             absolute tolerance (default 1e-5)\n" ONNXMICRO_CLI_OPTIMIZE_FOR_SIZE_HELP
        ONNXMICRO_CLI_THREADS_HELP ONNXMICRO_CLI_DEVICE_HELP
    "  -h, --help           show this help\n"
    "\n"
    "Exit status: 0 when every comparison is within tolerance, 1 when one is not or on any error (a missing\n"
    "or unreadable file, an expected dtype or shape that differs from the output's), 2 wrong command line.\n";

struct Tolerance {
  double rtol = kDefaultRtol;
  double atol = kDefaultAtol;
  bool given = false;  ///< --rtol or --atol on the command line: integers compare with it too

  bool exact_for(DataType dtype) const {
    const bool floating = dtype == DataType::float32 || dtype == DataType::float64 || dtype == DataType::float16 ||
                          dtype == DataType::bfloat16;
    return !floating && !given;
  }
};

// Element `i` of a numeric tensor as a double.
double element(DataType dtype, const void* data, std::size_t i) {
  auto load = [&](auto zero) {
    decltype(zero) v;
    std::memcpy(&v, static_cast<const unsigned char*>(data) + i * sizeof v, sizeof v);
    return v;
  };
  switch (dtype) {
    case DataType::float32: return load(float());
    case DataType::float64: return load(double());
    case DataType::float16: return onnxmicro::float16_t::from_bits(load(std::uint16_t())).to_float();
    case DataType::bfloat16: return onnxmicro::bfloat16_t::from_bits(load(std::uint16_t())).to_float();
    case DataType::int64: return static_cast<double>(load(std::int64_t()));
    case DataType::int32: return load(std::int32_t());
    case DataType::int16: return load(std::int16_t());
    case DataType::int8: return load(std::int8_t());
    case DataType::uint64: return static_cast<double>(load(std::uint64_t()));
    case DataType::uint32: return load(std::uint32_t());
    case DataType::uint16: return load(std::uint16_t());
    case DataType::uint8:
    case DataType::boolean: return load(std::uint8_t());
    default: return 0;
  }
}

bool comparable_dtype(DataType dtype) {
  switch (dtype) {
    case DataType::float32:
    case DataType::float64:
    case DataType::float16:
    case DataType::bfloat16:
    case DataType::int64:
    case DataType::int32:
    case DataType::int16:
    case DataType::int8:
    case DataType::uint64:
    case DataType::uint32:
    case DataType::uint16:
    case DataType::uint8:
    case DataType::boolean: return true;
    default: return false;
  }
}

struct Difference {
  double max_abs = 0;
  double max_rel = 0;
  std::size_t mismatched = 0;
  std::size_t total = 0;
  std::size_t worst = std::numeric_limits<std::size_t>::max();  ///< the largest |got - expected|; none when equal
  bool exact = false;
  bool within() const { return mismatched == 0; }
};

// Compares `got` with `expected` (same dtype and shape) element by element, as numpy.isclose does.
Difference compare_values(const ConstTensorView& got, const ConstTensorView& expected, const Tolerance& tolerance) {
  Difference d;
  d.exact = tolerance.exact_for(got.dtype);
  const double rtol = d.exact ? 0 : tolerance.rtol, atol = d.exact ? 0 : tolerance.atol;
  d.total = static_cast<std::size_t>(got.shape.element_count());
  double worst_abs = -1;
  for (std::size_t i = 0; i < d.total; ++i) {
    const double a = element(got.dtype, got.data, i), e = element(expected.dtype, expected.data, i);
    if (a == e || (std::isnan(a) && std::isnan(e))) continue;  // (equal infinities included)
    // A NaN against a number, or different infinities: infinitely far.
    const double abs = std::isnan(a) || std::isnan(e) ? std::numeric_limits<double>::infinity() : std::fabs(a - e);
    const double rel = e == 0 || std::isinf(abs) ? std::numeric_limits<double>::infinity() : abs / std::fabs(e);
    const bool close = !std::isinf(abs) && abs <= atol + rtol * std::fabs(e);
    if (!close) ++d.mismatched;
    if (abs > d.max_abs) d.max_abs = abs;
    if (rel > d.max_rel) d.max_rel = rel;
    if (abs > worst_abs) {
      worst_abs = abs;
      d.worst = i;
    }
  }
  return d;
}

// "[0,2,3,1]": the multi-index of flat element `flat` of `shape`.
std::string element_index(const onnxmicro::Shape& shape, std::size_t flat) {
  std::vector<std::int64_t> index(static_cast<std::size_t>(shape.rank()));
  for (int d = shape.rank() - 1; d >= 0; --d) {
    const std::int64_t dim = shape[d] > 0 ? shape[d] : 1;
    index[static_cast<std::size_t>(d)] = static_cast<std::int64_t>(flat) % dim;
    flat = static_cast<std::size_t>(static_cast<std::int64_t>(flat) / dim);
  }
  std::string out = "[";
  for (std::size_t d = 0; d < index.size(); ++d) out += (d ? "," : "") + std::to_string(index[d]);
  return out + "]";
}

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

// "max abs diff 2.5, max rel diff 0.1, mismatched 3 / 100 (rtol 0.001, atol 1e-05)".
std::string summary(const Difference& d, const Tolerance& tolerance) {
  std::string out = "max abs diff " + number(d.max_abs) + ", max rel diff " + number(d.max_rel) + ", mismatched " +
                    std::to_string(d.mismatched) + " / " + std::to_string(d.total);
  out += d.exact ? " (exact: an integer type)"
                 : " (rtol " + number(tolerance.rtol) + ", atol " + number(tolerance.atol) + ")";
  return out;
}

std::string worst_element(const ConstTensorView& got, const ConstTensorView& expected, const Difference& d,
                          const char* got_label, const char* expected_label) {
  return "worst element " + element_index(got.shape, d.worst) + ": " + got_label + " " +
         format_element(got.dtype, got.data, d.worst) + ", " + expected_label + " " +
         format_element(expected.dtype, expected.data, d.worst);
}

std::string node_text(const onnxmicro::model::Node& node, std::size_t index) {
  return std::string(node.op_type) + " '" + printable(node.name.empty() ? "#" + std::to_string(index) : node.name) +
         "'";
}

// --expected: FILE (the next output in order) or NAME=FILE, as given; resolved against the model's outputs.
struct Expected {
  std::vector<std::string> raw;
  bool any = false;
};

// Pairs each graph output with its reference file; fails naming what does not fit.
bool assign_expected(const onnxmicro::Session& session, const Expected& expected, std::vector<std::string>& files,
                     std::string& error) {
  const std::size_t outputs = session.output_count();
  files.assign(outputs, std::string());
  std::vector<std::string> positional;
  bool named = false;
  for (const std::string& arg : expected.raw) {
    const std::size_t equals = arg.find('=');
    std::size_t index = 0;
    if (equals != std::string::npos && equals > 0 && session.output_index(arg.substr(0, equals), index).ok()) {
      if (!files[index].empty()) {
        error = "--expected: output '" + printable(arg.substr(0, equals)) + "' is given twice";
        return false;
      }
      files[index] = arg.substr(equals + 1);
      named = true;
      continue;
    }
    positional.push_back(arg);
  }
  std::size_t unnamed = 0;
  for (const std::string& file : files) unnamed += file.empty() ? 1 : 0;
  if (!positional.empty() || !named) {
    if (positional.size() != unnamed) {
      error = "--expected: " + std::to_string(positional.size()) + (positional.size() == 1 ? " file" : " files") +
              " for " + std::to_string(unnamed) + (named ? " outputs not named" : " graph outputs") +
              " (one reference file per output, in graph-output order, or NAME=FILE)";
      return false;
    }
    std::size_t next = 0;
    for (std::string& file : files)
      if (file.empty()) file = positional[next++];
  }
  return true;
}

// Every output's reference against the session's outputs: checks first (one error line), then the report.
bool compare_outputs(const onnxmicro::Session& session, const std::vector<std::string>& files,
                     const Tolerance& tolerance, bool& within, std::string& error) {
  std::vector<HostTensor> references(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (files[i].empty()) continue;
    const std::string name = printable(session.output_name(i));
    if (!read_tensor_file(files[i], references[i], error)) {
      error = "output '" + name + "': " + error;
      return false;
    }
    const ConstTensorView got = session.output(i);
    if (!comparable_dtype(got.dtype)) {
      error = "output '" + name + "' is " + onnxmicro::dtype_name(got.dtype) +
              ": compare handles numeric and bool tensors only";
      return false;
    }
    if (references[i].dtype != got.dtype) {
      error = "output '" + name + "': '" + files[i] + "' holds " + onnxmicro::dtype_name(references[i].dtype) +
              " data, the output is " + onnxmicro::dtype_name(got.dtype);
      return false;
    }
    if (references[i].shape != got.shape) {
      error = "output '" + name + "': '" + files[i] + "' has shape " + format_shape(references[i].shape) +
              ", the output has shape " + format_shape(got.shape);
      return false;
    }
  }
  std::size_t compared = 0, beyond = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (files[i].empty()) continue;
    const ConstTensorView got = session.output(i), expected = references[i].view();
    const Difference d = compare_values(got, expected, tolerance);
    ++compared;
    beyond += d.within() ? 0 : 1;
    std::cout << "output '" << printable(session.output_name(i)) << "' " << onnxmicro::dtype_name(got.dtype) << ' '
              << format_shape(got.shape) << ": " << (d.within() ? "ok" : "BEYOND TOLERANCE") << '\n'
              << "  " << summary(d, tolerance) << '\n';
    if (d.worst != std::numeric_limits<std::size_t>::max()) {
      std::cout << "  " << worst_element(got, expected, d, "got", "expected") << '\n';
    }
  }
  if (beyond == 0) {
    std::cout << "all " << compared << (compared == 1 ? " output" : " outputs") << " within tolerance\n";
  } else {
    std::cout << beyond << " of " << compared << (compared == 1 ? " output" : " outputs") << " beyond tolerance\n";
  }
  within = beyond == 0;
  return true;
}

// ---- --layerwise ---------------------------------------------------------------------------------------------

// Every tensor one run computed (and the values folded at prepare), by value id.
struct Captured {
  std::map<onnxmicro::model::ValueId, HostTensor> values;
};

HostTensor copy_of(const ConstTensorView& view) {
  HostTensor t;
  t.dtype = view.dtype;
  t.shape = view.shape;
  const std::size_t bytes = onnxmicro::byte_size_of(view.dtype, view.shape.element_count());
  const auto* data = static_cast<const unsigned char*>(view.data);
  if (bytes > 0 && data != nullptr) t.data.assign(data, data + bytes);
  return t;
}

// The test hook of DEVELOPERS.md: ONNXMICRO_CLI_INJECT_DIVERGENCE=NODE adds 1 to the first element of that node's
// outputs in the as-written run's copies, as a kernel bug there would.
void perturb(HostTensor& t) {
  if (t.data.empty()) return;
  switch (t.dtype) {
    case DataType::float32: {
      float v;
      std::memcpy(&v, t.data.data(), sizeof v);
      v += 1.0f;
      std::memcpy(t.data.data(), &v, sizeof v);
      break;
    }
    case DataType::float64: {
      double v;
      std::memcpy(&v, t.data.data(), sizeof v);
      v += 1.0;
      std::memcpy(t.data.data(), &v, sizeof v);
      break;
    }
    default: t.data[0] ^= 1; break;  // (little-endian: the lowest bit of the first element)
  }
}

// Runs `session` with a tap copying every node output (`inject`: the node whose copies are perturbed).
bool capture_run(onnxmicro::Session& session, const BoundInputs& bound, const std::string& inject, Captured& out,
                 std::string& error) {
  OutputTap tap(session, [&](std::size_t node, std::size_t, onnxmicro::model::ValueId id, const ConstTensorView& v) {
    if (v.dtype == DataType::undefined || !comparable_dtype(v.dtype)) return;  // (device memory, strings, ...)
    HostTensor& copy = out.values[id] = copy_of(v);
    if (!inject.empty() && session.node_reports()[node].node->name == inject) perturb(copy);
  });
  std::vector<onnxmicro::InputValue> values;
  for (std::size_t k = 0; k < bound.tensors.size(); ++k) {
    values.push_back(onnxmicro::InputValue{bound.shapes[k].name, bound.tensors[k].view()});
  }
  session.set_node_observer(&tap);
  const onnxmicro::Status status =
      session.run(onnxmicro::Span<const onnxmicro::InputValue>(values.data(), values.size()));
  session.set_node_observer(nullptr);
  if (!status.ok()) {
    error = "run failed: " + describe_status(status);
    return false;
  }
  for (const onnxmicro::NodeReport& report : session.node_reports()) {
    if (!report.folded) continue;
    for (onnxmicro::model::ValueId id : report.node->outputs) {
      const ConstTensorView v = session.value(id);
      if (id != onnxmicro::model::kNoValue && comparable_dtype(v.dtype)) out.values[id] = copy_of(v);
    }
  }
  return true;
}

// Walks the as-written nodes in order: every tensor both runs computed is compared; reports the first beyond
// tolerance. `within` tells the verdict.
void compare_layers(const onnxmicro::Session& deployed, const Captured& deployed_values,
                    const onnxmicro::Session& written, const Captured& written_values, const Tolerance& tolerance,
                    bool& within) {
  const onnxmicro::model::Graph& graph = written.model()->graph();
  std::size_t fusions = 0;
  for (std::size_t i = 0; i < deployed.node_reports().size(); ++i) fusions += deployed.fused_nodes(i).size();
  std::cout << "layerwise: " << written.node_reports().size() << " nodes as written, " << deployed.node_reports().size()
            << " as deployed";
  if (fusions > 0) std::cout << " (" << fusions << (fusions == 1 ? " node" : " nodes") << " absorbed by fusion)";
  if (!deployed.quantized_nodes().empty()) std::cout << " (QDQ groups fused)";
  std::cout << "; rtol " << number(tolerance.rtol) << ", atol " << number(tolerance.atol) << '\n';

  std::size_t compared = 0, beyond = 0, not_comparable = 0;
  bool first_reported = false;
  std::vector<std::string> absent;
  for (std::size_t i = 0; i < written.node_reports().size(); ++i) {
    const onnxmicro::model::Node& node = *written.node_reports()[i].node;
    for (onnxmicro::model::ValueId id : node.outputs) {
      if (id == onnxmicro::model::kNoValue) continue;
      const std::string tensor = printable(graph.values[static_cast<std::size_t>(id)].name);
      const auto w = written_values.values.find(id);
      const auto d = deployed_values.values.find(id);
      if (w == written_values.values.end() || d == deployed_values.values.end()) {
        ++not_comparable;
        absent.push_back(tensor);
        continue;
      }
      const ConstTensorView got = d->second.view(), expected = w->second.view();
      if (got.dtype != expected.dtype || got.shape != expected.shape) {
        ++compared;
        ++beyond;
        if (!first_reported) {
          first_reported = true;
          std::cout << "first divergence: node " << i << ' ' << node_text(node, i) << ", output '" << tensor
                    << "': deployed " << onnxmicro::dtype_name(got.dtype) << ' ' << format_shape(got.shape)
                    << ", as written " << onnxmicro::dtype_name(expected.dtype) << ' ' << format_shape(expected.shape)
                    << '\n';
        }
        continue;
      }
      const Difference diff = compare_values(got, expected, tolerance);
      ++compared;
      if (diff.within()) continue;
      ++beyond;
      if (first_reported) continue;
      first_reported = true;
      std::cout << "first divergence: node " << i << ' ' << node_text(node, i) << ", output '" << tensor << "'\n"
                << "  " << summary(diff, tolerance) << '\n'
                << "  " << worst_element(got, expected, diff, "deployed", "as written") << '\n';
    }
  }
  std::cout << compared << (compared == 1 ? " tensor" : " tensors") << " compared: " << compared - beyond
            << " within tolerance, " << beyond << " beyond";
  if (not_comparable > 0) {
    std::cout << "; " << not_comparable << " not comparable (computed in one run only, e.g. absorbed by a fusion):";
    constexpr std::size_t kListed = 10;
    for (std::size_t k = 0; k < absent.size() && k < kListed; ++k) std::cout << " '" << absent[k] << "'";
    if (absent.size() > kListed) std::cout << " ...";
  }
  std::cout << '\n';
  if (beyond == 0) std::cout << "no divergence: every compared tensor is within tolerance\n";
  within = beyond == 0;
}

bool parse_number(const std::string& text, double& value) {
  if (text.empty()) return false;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(value) && value >= 0;
}

}  // namespace

namespace {

/// The command line of `compare`.
struct CompareRequest {
  std::string model_path;
  Expected expected;
  Tolerance tolerance;
  bool layerwise = false;
  InputArgs inputs;
};

/// -1 when the command goes on with `request`, else the exit code (usage errors printed).
int parse_compare_command_line(const Args& args, CompareRequest& request) {
  auto own_option = [&request](const Args& all, std::size_t& i, std::string& error) {
    std::string name, value;
    bool has_value = false;
    split_option(all[i], name, value, has_value);
    const OptionResult threads = parse_threads_option(all, i, request.inputs, error);
    if (threads != OptionResult::not_mine) return threads;
    if (name == "--expected") {
      std::vector<std::string>& raw = request.expected.raw;
      const std::size_t before = raw.size();
      if (has_value) raw.push_back(value);
      while (i + 1 < all.size() && all[i + 1].rfind("--", 0) != 0) raw.push_back(all[++i]);
      if (raw.size() == before) {
        error = "--expected needs at least one FILE";
        return OptionResult::error;
      }
      request.expected.any = true;
    } else if (name == "--rtol" || name == "--atol") {
      if (!has_value && i + 1 < all.size()) value = all[++i];
      double number = 0;
      if (!parse_number(value, number)) {
        error = name + " expects a non-negative number, got '" + printable(value) + "'";
        return OptionResult::error;
      }
      (name == "--rtol" ? request.tolerance.rtol : request.tolerance.atol) = number;
      request.tolerance.given = true;
    } else if (all[i] == "--layerwise") {
      request.layerwise = true;
    } else {
      return OptionResult::not_mine;
    }
    return OptionResult::consumed;
  };
  const int exit_code =
      parse_model_command_line(args, "compare", kUsage, kHelp, own_option, request.model_path, request.inputs);
  if (exit_code >= 0) return exit_code;
  if (!request.expected.any && !request.layerwise) {
    return usage_error("compare", kUsage, "give --expected FILE... or --layerwise");
  }
  return -1;
}

/// The expected file of each output (empty: not compared), each checked to be a readable file.
bool expected_files(const onnxmicro::Session& session, const Expected& expected, std::vector<std::string>& files,
                    std::string& error) {
  if (!expected.any) return true;
  if (!assign_expected(session, expected, files, error)) return false;
  for (const std::string& file : files) {
    if (!file.empty() && !require_regular_file(file, "cannot open expected output", error)) return false;
  }
  return true;
}

/// One run of the prepared session on the bound inputs.
bool run_once(onnxmicro::Session& session, const BoundInputs& bound, std::string& error) {
  std::vector<onnxmicro::InputValue> values;
  for (std::size_t k = 0; k < bound.tensors.size(); ++k) {
    values.push_back(onnxmicro::InputValue{bound.shapes[k].name, bound.tensors[k].view()});
  }
  const onnxmicro::Status status =
      session.run(onnxmicro::Span<const onnxmicro::InputValue>(values.data(), values.size()));
  if (!status.ok()) error = "run failed: " + describe_status(status);
  return status.ok();
}

/// --layerwise's second run, as written (every node its own kernel, on the CPU), compared node by node with the
/// deployed run's captured values. False on an error (in `error`); `within` says whether every layer agreed.
bool compare_as_written(LoadedModel& loaded, const BoundInputs& bound, const InputArgs& inputs,
                        const onnxmicro::Session& deployed, const Captured& deployed_values, const Tolerance& tolerance,
                        bool& within, std::string& error) {
  InputArgs as_written = inputs;
  as_written.fuse_activations = false;
  as_written.fuse_qdq = false;
  as_written.winograd = false;
  as_written.device = "cpu";
  onnxmicro::Session written;
  Captured written_values;
  const char* inject = std::getenv("ONNXMICRO_CLI_INJECT_DIVERGENCE");
  if (!prepare_bound(loaded, bound, as_written, written, error) ||
      !capture_run(written, bound, inject != nullptr ? inject : "", written_values, error)) {
    error = "as written: " + error;
    return false;
  }
  compare_layers(deployed, deployed_values, written, written_values, tolerance, within);
  return true;
}

}  // namespace

int compare_command(const Args& args) {
  CompareRequest request;
  const int exit_code = parse_compare_command_line(args, request);
  if (exit_code >= 0) return exit_code;
  std::string error;
  auto loaded = std::make_unique<LoadedModel>();
  BoundInputs bound;
  onnxmicro::Session session;
  std::vector<std::string> files;
  Captured deployed_values;
  bool ok =
      prepare_with_inputs(request.model_path, request.inputs, /*require_all=*/true, *loaded, bound, session, error);
  if (ok) print_placement(std::cerr, session, request.inputs, /*per_node=*/false);
  ok = ok && expected_files(session, request.expected, files, error);
  ok = ok && (request.layerwise ? capture_run(session, bound, std::string(), deployed_values, error)
                                : run_once(session, bound, error));
  bool within = true, layers_within = true;
  ok = ok && (!request.expected.any || compare_outputs(session, files, request.tolerance, within, error));
  ok = ok && (!request.layerwise || compare_as_written(*loaded, bound, request.inputs, session, deployed_values,
                                                       request.tolerance, layers_within, error));
  if (!ok) {
    print_error(error);
    return kExitFailure;
  }
  return within && layers_within ? kExitSuccess : kExitFailure;
}

}  // namespace onnxmicro_cli
