// SPDX-License-Identifier: MIT
// Accuracy of static INT8 models (issue #6): every model of ROOT/qdq-models (tests/models/make_qdq_models.py)
// runs through every kernel with default options (QDQ fusion on) and, for quantised models, once more with
// SessionOptions::fuse_qdq off (the float path); both are held to the QDQ graph's own semantics (onnxruntime with
// every optimisation off, which make_qdq_models.py writes as output_<k>.pb), which do not depend on the CPU.
// onnxruntime's default (fused) outputs, whose integer rounding depends on the CPU, are reported beside them for
// information. Differences of quantised models are counted in quanta: the scale of the DequantizeLinear that
// produces the output.
// Usage: onnxmicro_qdq_accuracy ROOT. Exit 0 when every model is within its tolerance, 1 otherwise, 2 when the
// data cannot be read.
#include <onnxmicro/onnxmicro.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "../support/output_quantum.hpp"
#include "cli_support.hpp"  // tools/cli: model loading and status text, shared with the CLI
#include "tensor_io.hpp"    // tools/cli: TensorProto files

namespace {

namespace om = onnxmicro;
namespace fs = std::filesystem;
using onnxmicro_cli::HostTensor;

// Tolerances (issues #6, #16): quantised outputs within one quantum on at least 99% of the elements, and none
// beyond kCeilingQuanta (a guard against gross errors); float models as the conformance suite's rtol/atol. Where a
// float op's sum order differs from onnxruntime's, a value near a rounding tie of a QuantizeLinear lands one quantum
// away, and a float op after it (LayerNormalization: its gain gamma / std) can amplify that.
constexpr double kMaxQuanta = 1.0;
constexpr double kMaxBeyondShare = 0.01;
constexpr double kCeilingQuanta = 2.0;
constexpr double kDifferenceInQuanta = 1e-6;  // a quantised element "differs" past this share of a quantum
constexpr double kFloatRtol = 1e-4, kFloatAtol = 1e-5;
constexpr double kRounding = 1e-3;  // quanta computed in float are off by rounding: 1.0000001 is one quantum
constexpr int kTimingRuns = 20;

struct DataSet {
  std::string name;
  std::vector<HostTensor> inputs, outputs;
  std::vector<HostTensor> onnxruntime_default;  ///< onnxruntime's fused outputs (information), when written
};

/// One model directory, loaded.
struct ModelCase {
  std::string name;
  std::unique_ptr<onnxmicro_cli::LoadedModel> loaded;
  std::vector<DataSet> data_sets;
  bool quantized = false;  ///< has DequantizeLinear, QuantizeLinear or QLinear*/QGemm nodes
  double quantum = 0;      ///< of output 0; 0: compare as float
  std::string quantum_source;
};

/// Results of one configuration (fusion on or off) over every data set of a model.
struct Totals {
  std::string error;  ///< prepare or run failure, with the Status
  std::size_t elements = 0, differing = 0;
  std::size_t beyond = 0;  ///< quantised elements more than kMaxQuanta off
  double max_abs = 0, max_quanta = 0;
  double ms_per_run = 0;
  std::size_t integer_ops = 0, float_ops = 0;
  std::vector<std::string> float_op_lines;  ///< "Conv 'conv1': <reason>"
};

bool is_quantization_op(const om::model::Node& node) {
  const std::string_view op = node.op_type;
  return op == "DequantizeLinear" || op == "QuantizeLinear" || op.rfind("QLinear", 0) == 0 || op == "QGemm" ||
         op == "MatMulInteger" || op == "ConvInteger" || op == "DynamicQuantizeLinear";
}

std::string node_label(const om::model::Node& node) {
  std::string label(node.op_type);
  label += " '" + (node.name.empty() ? "#" + std::to_string(node.index) : std::string(node.name)) + "'";
  return label;
}

/// The quantum of output 0: the scale of the DequantizeLinear that makes it or, when a float op makes it (a
/// LayerNormalization left in float), of the nearest one up its first-input chain.
void find_quantum(ModelCase& c) {
  const om::model::Graph& graph = c.loaded->model.graph();
  if (graph.outputs.size() == 0) return;
  std::int32_t producer = graph.values[static_cast<std::size_t>(graph.outputs[0])].producer;
  std::string via;
  for (int depth = 0; producer >= 0 && depth < 8; ++depth) {
    const om::model::Node& node = graph.nodes[static_cast<std::size_t>(producer)];
    if (onnxmicro_test::dequantize_scale(c.loaded->model, node, c.quantum)) {
      c.quantum_source = via.empty() ? "output " + node_label(node) : node_label(node) + " before " + via;
      return;
    }
    if (via.empty()) via = node_label(node);
    if (node.inputs.size() == 0 || node.inputs[0] == om::model::kNoValue) return;
    producer = graph.values[static_cast<std::size_t>(node.inputs[0])].producer;
  }
}

bool load_case(const fs::path& dir, ModelCase& c, std::string& error) {
  c.name = dir.filename().string();
  c.loaded = std::make_unique<onnxmicro_cli::LoadedModel>();
  if (!onnxmicro_cli::load_model((dir / "model.onnx").string(), *c.loaded, error)) return false;
  for (const om::model::Node& node : c.loaded->model.graph().nodes) c.quantized |= is_quantization_op(node);
  if (c.quantized) find_quantum(c);
  std::vector<fs::path> sets;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.is_directory() && entry.path().filename().string().rfind("test_data_set_", 0) == 0) {
      sets.push_back(entry.path());
    }
  }
  std::sort(sets.begin(), sets.end());
  if (sets.empty()) {
    error = dir.string() + ": no test_data_set_* directory";
    return false;
  }
  for (const fs::path& set : sets) {
    DataSet data;
    data.name = set.filename().string();
    for (const char* kind : {"input", "output", "onnxruntime_default"}) {
      std::vector<HostTensor>& tensors =
          kind[0] == 'i' ? data.inputs : (kind[0] == 'o' && kind[1] == 'u' ? data.outputs : data.onnxruntime_default);
      for (int k = 0; fs::exists(set / (std::string(kind) + "_" + std::to_string(k) + ".pb")); ++k) {
        tensors.emplace_back();
        const fs::path file = set / (std::string(kind) + "_" + std::to_string(k) + ".pb");
        if (!onnxmicro_cli::read_tensor_file(file.string(), tensors.back(), error)) return false;
      }
    }
    c.data_sets.push_back(std::move(data));
  }
  return true;
}

/// Adds the difference between `actual` and `expected` to `t`; false (with t.error) when they cannot be
/// compared.
bool compare(const ModelCase& c, const om::ConstTensorView& actual, const HostTensor& expected, Totals& t,
             const std::string& where) {
  if (actual.dtype != om::DataType::float32 || expected.dtype != om::DataType::float32 ||
      !(actual.shape == expected.shape)) {
    t.error = where + ": output " + std::string(om::dtype_name(actual.dtype)) +
              onnxmicro_cli::format_shape(actual.shape) + ", expected " + std::string(om::dtype_name(expected.dtype)) +
              onnxmicro_cli::format_shape(expected.shape);
    return false;
  }
  const float* a = actual.data_as<float>();
  const float* e = reinterpret_cast<const float*>(expected.data.data());
  const std::size_t n = static_cast<std::size_t>(actual.element_count());
  for (std::size_t i = 0; i < n; ++i) {
    const double difference = std::fabs(static_cast<double>(a[i]) - static_cast<double>(e[i]));
    const double d = std::isnan(difference) ? HUGE_VAL : difference;  // a NaN is as far off as it gets
    t.max_abs = std::max(t.max_abs, d);
    // An output a float op makes (LayerNormalization after the last DQ) carries float rounding: it "differs"
    // past the float tolerance; its quanta are still measured against the DQ before that op.
    const bool dequantized_output = c.quantum_source.rfind("output ", 0) == 0;
    if (c.quantum > 0) {
      t.max_quanta = std::max(t.max_quanta, d / c.quantum);
      t.beyond += d / c.quantum > kMaxQuanta + kRounding ? 1 : 0;
      const double threshold = dequantized_output ? kDifferenceInQuanta * c.quantum
                                                  : kFloatAtol + kFloatRtol * std::fabs(static_cast<double>(e[i]));
      t.differing += d > threshold ? 1 : 0;
    } else {
      t.differing += d > kFloatAtol + kFloatRtol * std::fabs(static_cast<double>(e[i])) ? 1 : 0;
    }
  }
  t.elements += n;
  return true;
}

Totals run_configuration(const ModelCase& c, bool fuse_qdq) {
  Totals t;
  om::Session session;
  om::SessionOptions options;
  options.fuse_qdq = fuse_qdq;
  om::Status status = session.prepare(c.loaded->model, om::all_kernels_registry(), options);
  if (!status.ok()) {
    t.error = "Session::prepare: " + onnxmicro_cli::describe_status(status);
    return t;
  }
  for (const om::QuantizedNodeReport& report : session.quantized_nodes()) {
    if (report.integer) {
      ++t.integer_ops;
      continue;
    }
    ++t.float_ops;
    t.float_op_lines.push_back(node_label(*report.node) + ": " +
                               (report.reason.empty() ? "(no reason given)" : std::string(report.reason)));
  }
  for (const DataSet& data : c.data_sets) {
    for (std::size_t k = 0; k < data.inputs.size() && status.ok(); ++k)
      status = session.set_input(k, data.inputs[k].view());
    if (status.ok()) status = session.run();
    if (!status.ok()) {
      t.error = data.name + ": " + onnxmicro_cli::describe_status(status);
      return t;
    }
    if (data.outputs.size() != session.output_count()) {
      t.error = data.name + ": " + std::to_string(data.outputs.size()) + " output files for " +
                std::to_string(session.output_count()) + " graph outputs";
      return t;
    }
    for (std::size_t k = 0; k < data.outputs.size(); ++k) {
      if (!compare(c, session.output(k), data.outputs[k], t, data.name + " output " + std::to_string(k))) return t;
    }
  }
  std::vector<double> ms;
  for (int r = 0; r < kTimingRuns && status.ok(); ++r) {
    const auto start = std::chrono::steady_clock::now();
    status = session.run();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  if (!status.ok()) {
    t.error = "timing run: " + onnxmicro_cli::describe_status(status);
    return t;
  }
  std::sort(ms.begin(), ms.end());
  t.ms_per_run = ms[ms.size() / 2];
  return t;
}

/// onnxruntime's default-level outputs against the reference, as a Totals row (information).
Totals onnxruntime_default_totals(const ModelCase& c) {
  Totals t;
  for (const DataSet& data : c.data_sets) {
    if (data.onnxruntime_default.size() != data.outputs.size()) {
      t.error = data.name + ": no onnxruntime_default_<k>.pb for every output";
      return t;
    }
    for (std::size_t k = 0; k < data.outputs.size(); ++k) {
      if (!compare(c, data.onnxruntime_default[k].view(), data.outputs[k], t,
                   data.name + " output " + std::to_string(k)))
        return t;
    }
  }
  return t;
}

/// Why `t` fails its tolerance (empty: within it).
std::string failure(const ModelCase& c, const Totals& t) {
  if (!t.error.empty()) return t.error;
  char text[160] = "";
  const double beyond = t.elements == 0 ? 0.0 : static_cast<double>(t.beyond) / static_cast<double>(t.elements);
  if (c.quantum > 0 && t.max_quanta > kCeilingQuanta + kRounding) {
    std::snprintf(text, sizeof text, "max difference %.3g quanta > %g", t.max_quanta, kCeilingQuanta);
  } else if (c.quantum > 0 && beyond > kMaxBeyondShare) {
    std::snprintf(text, sizeof text, "%.2f%% of elements beyond %g quantum > %g%%", 100 * beyond, kMaxQuanta,
                  100 * kMaxBeyondShare);
  } else if (c.quantum <= 0 && t.differing > 0) {
    std::snprintf(text, sizeof text, "%zu elements beyond rtol %g / atol %g (max |diff| %.3g)", t.differing, kFloatRtol,
                  kFloatAtol, t.max_abs);
  }
  return text;
}

void print_row(const ModelCase& c, const char* path, const Totals& t, const std::string& why, bool gates) {
  std::printf("%-22s %-11s ", c.name.c_str(), path);
  if (!t.error.empty()) {
    std::printf("%-64s %s\n", "PREPARE/RUN FAILED (see below)", gates ? "FAIL" : "(info) fails");
    return;
  }
  const auto percent = [&t](std::size_t n) {
    return t.elements == 0 ? 0.0 : 100.0 * static_cast<double>(n) / static_cast<double>(t.elements);
  };
  char max_text[32], quantum[24] = "-", ops[24] = "-";
  if (c.quantum > 0) {
    std::snprintf(max_text, sizeof max_text, "%.3g q", t.max_quanta);
    std::snprintf(quantum, sizeof quantum, "%.4g", c.quantum);
  } else {
    std::snprintf(max_text, sizeof max_text, "%.3g abs", t.max_abs);
  }
  if (t.integer_ops + t.float_ops > 0) std::snprintf(ops, sizeof ops, "%zu/%zu", t.integer_ops, t.float_ops);
  char ms[16] = "-";
  if (t.ms_per_run > 0) std::snprintf(ms, sizeof ms, "%.3f", t.ms_per_run);
  char beyond[16] = "-";
  if (c.quantum > 0) std::snprintf(beyond, sizeof beyond, "%.2f%%", percent(t.beyond));
  std::printf("%8zu %7.2f%% %8s %11s %10s %9s %9s  %s\n", t.elements, percent(t.differing), beyond, max_text, quantum,
              ops, ms,
              !why.empty() ? (gates ? "FAIL" : "(info) beyond tolerance") : (gates ? "pass" : "(info) within"));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || std::string_view(argv[1]).rfind("-", 0) == 0) {
    std::fprintf(stderr, "usage: %s ROOT   (runs every model of ROOT/qdq-models; make_qdq_models.py -o ROOT)\n",
                 argv[0]);
    return 2;
  }
  const fs::path root = fs::path(argv[1]) / "qdq-models";
  std::error_code io_error;
  std::vector<fs::path> dirs;
  for (fs::directory_iterator it(root, io_error), end; !io_error && it != end; it.increment(io_error)) {
    if (it->is_directory()) dirs.push_back(it->path());
  }
  std::sort(dirs.begin(), dirs.end());
  if (io_error || dirs.empty()) {
    std::fprintf(stderr, "qdq_accuracy: no model directories in %s%s%s (run tests/models/make_qdq_models.py -o %s)\n",
                 root.string().c_str(), io_error ? ": " : "", io_error ? io_error.message().c_str() : "", argv[1]);
    return 2;
  }

  std::printf(
      "Expected outputs: the QDQ graph's semantics (onnxruntime CPU EP, every graph optimisation off). q = quantum:\n"
      "the scale of the DequantizeLinear making the output (* = of the one before the float op making it; such\n"
      "outputs differ past the float tolerance). Quantised models, fused and with fuse_qdq=0 (the float path),\n"
      "fail with more than %g%% of elements beyond %g quantum or any beyond %g; float models past rtol %g / atol %g.\n"
      "'differ': elements off by more than %g q; '>1q': beyond one quantum. Rows\n"
      "'onnxruntime' are onnxruntime's default level (its fused integer kernels, CPU-dependent), for information.\n"
      "ops int/float: quantized_nodes().\n\n",
      100 * kMaxBeyondShare, kMaxQuanta, kCeilingQuanta, kFloatRtol, kFloatAtol, kDifferenceInQuanta);
  std::printf("%-22s %-11s %8s %8s %8s %11s %10s %9s %9s  %s\n", "model", "path", "elements", "differ", ">1q",
              "max diff", "quantum", "int/float", "ms/run", "verdict");

  std::vector<std::string> failures, details;
  for (const fs::path& dir : dirs) {
    ModelCase c;
    std::string error;
    if (!load_case(dir, c, error)) {
      std::printf("%-22s %-11s LOAD FAILED: %s\n", dir.filename().string().c_str(), "-", error.c_str());
      failures.push_back(dir.filename().string() + ": load: " + error);
      continue;
    }
    if (c.quantized && c.quantum > 0 && c.quantum_source.rfind("output ", 0) != 0) c.name += "*";
    if (c.quantized && c.quantum <= 0) {
      details.push_back(c.name + ": no DequantizeLinear with a scalar scale before output 0: compared as float");
    }
    const Totals fused = run_configuration(c, true);
    const std::string why = failure(c, fused);
    print_row(c, c.quantized ? "fused" : "float", fused, why, true);
    if (!why.empty()) failures.push_back(c.name + ": " + why);
    for (const std::string& line : fused.float_op_lines) details.push_back(c.name + ": ran in float: " + line);
    if (c.quantized) {
      const Totals unfused = run_configuration(c, false);
      const std::string unfused_why = failure(c, unfused);
      print_row(c, "fuse_qdq=0", unfused, unfused_why, true);
      if (!unfused_why.empty()) failures.push_back(c.name + " (fuse_qdq=0): " + unfused_why);
      const Totals onnxruntime = onnxruntime_default_totals(c);
      print_row(c, "onnxruntime", onnxruntime, failure(c, onnxruntime), false);
      if (!onnxruntime.error.empty()) details.push_back(c.name + " (onnxruntime): " + onnxruntime.error);
      if (fused.error.empty() && fused.integer_ops + fused.float_ops == 0) {
        details.push_back(c.name + ": quantized_nodes() is empty: no op ran as a fused integer kernel");
      }
    }
    if (!c.quantum_source.empty()) details.push_back(c.name + ": quantum " + c.quantum_source);
  }

  std::printf("\n");
  for (const std::string& line : details) std::printf("  %s\n", line.c_str());
  if (!failures.empty()) {
    std::printf("\nqdq_accuracy: FAILED: %zu of %zu models:\n", failures.size(), dirs.size());
    for (const std::string& line : failures) std::printf("  FAIL %s\n", line.c_str());
    return 1;
  }
  std::printf("\nqdq_accuracy: all %zu models within tolerance\n", dirs.size());
  return 0;
}
