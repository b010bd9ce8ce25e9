// SPDX-License-Identifier: MIT
// `onnxmicro bench MODEL [...]`: load, prepare and run times (median, p10, p90), memory, and a per-node profile
// (the counterpart of onnxruntime's perf_test). Inputs come from files or are generated at random.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#if __has_include(<sys/resource.h>)
#include <sys/resource.h>
#define ONNXMICRO_CLI_HAVE_GETRUSAGE 1
#endif

#include "cli_support.hpp"
#include "commands.hpp"
#include "inputs.hpp"
#include "json_writer.hpp"

namespace onnxmicro_cli {
namespace {

constexpr int kDefaultWarmup = 10;
constexpr int kDefaultRuns = 100;
constexpr int kMaxRuns = 1000000;
/// The per-node profile keeps one time per node and run: at most this many observed runs.
constexpr int kMaxProfileRuns = 1000;
/// Generated integer inputs are uniform in [0, kMaxRandomInt] (small, so that indices are likely in range).
constexpr int kMaxRandomInt = 3;
constexpr std::uint32_t kRandomSeed = 42;

constexpr const char kUsage[] =
    "usage: onnxmicro bench MODEL [--inputs FILE...] [--input NAME=FILE]... [--shape NAME=D0,D1,...]... "
    "[--threads N] " ONNXMICRO_CLI_DEVICE_USAGE " [--warmup W] [--runs R] [--optimize-for-size] [--json]";
constexpr const char kHelp[] =
    "usage: onnxmicro bench MODEL [--inputs FILE...] [--input NAME=FILE]... [--shape NAME=D0,D1,...]... "
    "[--threads N] " ONNXMICRO_CLI_DEVICE_USAGE
    " [--warmup W] [--runs R] [--optimize-for-size] [--json]\n"
    "\n"
    "Times MODEL with this build's kernels: loading, prepare, the first run, and R runs after W warm-up runs\n"
    "(median, p10, p90); prints the arena and session metadata bytes, the peak resident memory, the instruction\n"
    "set the kernels use and a per-node profile sorted by time (median ms per run, share of the sum of the node\n"
    "medians, GFLOP/s for Conv, Gemm and MatMul, integer GOP/s for QLinearConv), measured in further runs (R of\n"
    "them, at most 1000) so that the per-node clock does not slow the headline runs. A node whose kernel rounds\n"
    "differently from the op's plain order says how after its name (Winograd convs: their GFLOP/s count the\n"
    "direct conv's multiply-adds).\n"
    "Inputs without a file get random data (seed 42): floats uniform in [-1,1], integers in [0,3], bools\n"
    "false/true, of the declared shape; --shape gives dims the model leaves symbolic or unknown (a symbolic dim\n"
    "also takes its size from another input that has it).\n"
    "\n"
    "Options:\n"
    "  --inputs FILE...     input files (.pb or .npy, as for 'run'), in graph order; the others are random\n"
    "  --input NAME=FILE    the file for the input called NAME\n"
    "  --shape NAME=D0,...  the shape of the random input NAME (may be repeated)\n" ONNXMICRO_CLI_THREADS_HELP
        ONNXMICRO_CLI_DEVICE_HELP
    "                       (the per-node profile then waits for each device node to finish)\n"
    "  --warmup W           runs before the timed ones (default 10)\n"
    "  --runs R             timed runs, at least 1 (default 100)\n"
    "  --json               print one JSON object instead\n" ONNXMICRO_CLI_OPTIMIZE_FOR_SIZE_HELP
    "  -h, --help           show this help\n";

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// ---- the command line --------------------------------------------------------------------------------------

/// One --shape NAME=D0,D1,...
struct ShapeArg {
  std::vector<std::int64_t> dims;
  std::string text;  ///< "NAME=D0,D1,...", as written, for messages
};

struct BenchOptions {
  InputArgs inputs;
  std::map<std::string, ShapeArg> shapes;  ///< by input name
  int warmup = kDefaultWarmup;
  int runs = kDefaultRuns;
  bool json = false;
};

bool parse_int(const std::string& text, std::int64_t& value) {
  const char* end = text.data() + text.size();
  auto result = std::from_chars(text.data(), end, value);
  return !text.empty() && result.ec == std::errc() && result.ptr == end;
}

// --warmup/--runs N (or =N) into `out`, which must lie in [min, kMaxRuns].
OptionResult parse_count(const Args& args, std::size_t& i, const std::string& name, int min, int& out,
                         std::string& error) {
  std::string option, value;
  bool has_value = false;
  split_option(args[i], option, value, has_value);
  if (!has_value) {
    if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0) {
      error = name + " needs a number";
      return OptionResult::error;
    }
    value = args[++i];
  }
  std::int64_t n = 0;
  if (!parse_int(value, n) || n < min || n > kMaxRuns) {
    error = name + " expects a whole number from " + std::to_string(min) + " to " + std::to_string(kMaxRuns) +
            ", got '" + printable(value) + "'";
    return OptionResult::error;
  }
  out = static_cast<int>(n);
  return OptionResult::consumed;
}

// --shape NAME=D0,D1,... (or --shape=NAME=...).
OptionResult parse_shape(const Args& args, std::size_t& i, BenchOptions& out, std::string& error) {
  std::string option, value;
  bool has_value = false;
  split_option(args[i], option, value, has_value);
  if (!has_value && i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) value = args[++i];
  if (value.empty()) {
    error = "--shape needs NAME=D0,D1,...";
    return OptionResult::error;
  }
  const std::size_t equals = value.find('=');
  std::vector<std::int64_t> dims;
  bool ok = equals != std::string::npos && equals > 0 && equals + 1 < value.size();
  for (std::size_t at = equals + 1; ok && at <= value.size();) {
    std::size_t comma = std::min(value.find(',', at), value.size());
    std::int64_t d = 0;
    ok = parse_int(value.substr(at, comma - at), d) && d >= 0;
    dims.push_back(d);
    at = comma + 1;
  }
  if (!ok) {
    error = "--shape expects NAME=D0,D1,... (dims: whole numbers >= 0), got '" + printable(value) + "'";
    return OptionResult::error;
  }
  const std::string name = value.substr(0, equals);
  if (!out.shapes.emplace(name, ShapeArg{dims, value}).second) {
    error = "--shape for '" + printable(name) + "' is given twice";
    return OptionResult::error;
  }
  return OptionResult::consumed;
}

// Returns -1 to go on with `model_path` and `options`, else the exit code (usage errors printed).
int parse_bench_command_line(const Args& args, std::string& model_path, BenchOptions& options) {
  auto own_option = [&](const Args& all, std::size_t& i, std::string& error) {
    std::string name, value;
    bool has_value = false;
    split_option(all[i], name, value, has_value);
    if (name == "--warmup") return parse_count(all, i, name, 0, options.warmup, error);
    if (name == "--runs") return parse_count(all, i, name, 1, options.runs, error);
    if (name == kThreadsOption) return parse_threads_option(all, i, options.inputs, error);
    if (name == "--shape") return parse_shape(all, i, options, error);
    if (all[i] != "--json") return OptionResult::not_mine;
    options.json = true;
    return OptionResult::consumed;
  };
  const int exit_code = parse_model_command_line(args, "bench", kUsage, kHelp, own_option, model_path, options.inputs);
  if (exit_code >= 0) return exit_code;
  return -1;
}

// ---- generated inputs --------------------------------------------------------------------------------------

const onnxmicro::model::Value& input_value(const onnxmicro::Model& model, std::size_t k) {
  const onnxmicro::model::Graph& graph = model.graph();
  return graph.values[static_cast<std::size_t>(graph.inputs[k])];
}

std::string input_names(const onnxmicro::Model& model) {
  std::string out;
  for (std::size_t k = 0; k < model.graph().inputs.size(); ++k) {
    out += (out.empty() ? "'" : ", '") + printable(input_value(model, k).name) + "'";
  }
  return out.empty() ? "it has no inputs" : "its inputs: " + out;
}

// Every --shape names an input that has no file.
bool check_shape_names(const onnxmicro::Model& model, const BenchOptions& options, const BoundInputs& bound,
                       std::string& error) {
  for (const auto& [name, arg] : options.shapes) {
    const std::string text = "--shape " + printable(arg.text);
    bool found = false;
    for (std::size_t k = 0; k < model.graph().inputs.size(); ++k) found = found || input_value(model, k).name == name;
    if (!found) {
      error = text + ": the model has no input named '" + printable(name) + "' (" + input_names(model) + ")";
      return false;
    }
    for (const onnxmicro::InputShape& given : bound.shapes) {
      if (given.name != name) continue;
      error = text + ": input '" + printable(name) + "' is read from a file, which gives its shape";
      return false;
    }
  }
  return true;
}

// The sizes of symbolic dims (by name) that the files and the --shape options give.
std::map<std::string, std::int64_t> known_symbols(const onnxmicro::Model& model, const BenchOptions& options,
                                                  const BoundInputs& bound) {
  std::map<std::string, std::int64_t> symbols;
  auto learn = [&symbols](const onnxmicro::model::Value& value, const std::int64_t* dims, int rank) {
    if (!value.has_declared_shape || value.declared_rank != rank) return;
    for (int i = 0; i < rank; ++i) {
      if (!value.declared_dims[i].param.empty()) symbols.emplace(std::string(value.declared_dims[i].param), dims[i]);
    }
  };
  for (std::size_t k = 0; k < model.graph().inputs.size(); ++k) {
    const onnxmicro::model::Value& value = input_value(model, k);
    for (const onnxmicro::InputShape& given : bound.shapes) {
      if (given.name == value.name) learn(value, given.shape.data(), given.shape.rank());
    }
    auto it = options.shapes.find(std::string(value.name));
    if (it != options.shapes.end()) learn(value, it->second.dims.data(), static_cast<int>(it->second.dims.size()));
  }
  return symbols;
}

// "x=1,3": the declared shape with 1 for every dim it leaves open, as a --shape example.
std::string shape_example(const onnxmicro::model::Value& value) {
  std::string out = printable(value.name) + "=";
  for (int i = 0; i < value.declared_rank; ++i) {
    out += (i ? "," : "") + std::to_string(std::max<std::int64_t>(value.declared_dims[i].value, 1));
  }
  return out;
}

// The shape of a generated input: --shape (checked against the declared dims), else the declared dims with
// symbolic ones taken from `symbols`.
bool resolve_shape(const onnxmicro::model::Value& value, const BenchOptions& options,
                   const std::map<std::string, std::int64_t>& symbols, onnxmicro::Shape& shape, std::string& error) {
  const std::string name = printable(value.name);
  auto given = options.shapes.find(std::string(value.name));
  if (given != options.shapes.end()) {
    const std::vector<std::int64_t>& dims = given->second.dims;
    bool fits = !value.has_declared_shape || value.declared_rank == static_cast<int>(dims.size());
    for (int i = 0; fits && value.has_declared_shape && i < value.declared_rank; ++i) {
      fits = value.declared_dims[i].value < 0 || value.declared_dims[i].value == dims[static_cast<std::size_t>(i)];
    }
    const onnxmicro::Status status = shape.assign(dims.data(), dims.size());
    if (!fits || !status.ok()) {
      error = "--shape " + printable(given->second.text) + " does not fit input '" + name + "', declared " +
              declared_shape_text(value) + (status.ok() ? "" : ": " + describe_status(status));
      return false;
    }
    return true;
  }
  if (!value.has_declared_shape) {
    error = "input '" + name + "' declares no shape: give it with --shape " + name + "=D0,D1,...";
    return false;
  }
  shape.resize(value.declared_rank);
  for (int i = 0; i < value.declared_rank; ++i) {
    const onnxmicro::model::DeclaredDim& d = value.declared_dims[i];
    auto symbol = symbols.find(std::string(d.param));
    shape[i] = d.value >= 0 ? d.value : symbol != symbols.end() ? symbol->second : -1;
    if (shape[i] >= 0) continue;
    error = "input '" + name + "': axis " + std::to_string(i) + " has no size (" +
            (d.param.empty() ? std::string("unknown dim") : "symbolic dim '" + printable(d.param) + "'") +
            "): give the shape with --shape, e.g. --shape " + shape_example(value);
    return false;
  }
  return true;
}

bool can_generate(onnxmicro::DataType dtype) {
  return onnxmicro::is_floating(dtype) || onnxmicro::is_signed_integer(dtype) ||
         onnxmicro::is_unsigned_integer(dtype) || dtype == onnxmicro::DataType::boolean;
}

template <typename T>
void store(unsigned char* at, T value) {
  std::memcpy(at, &value, sizeof value);
}

// One random element of `dtype` (can_generate) at `at`.
void store_random(onnxmicro::DataType dtype, std::mt19937& rng, unsigned char* at) {
  using onnxmicro::DataType;
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  std::uniform_int_distribution<int> small(0, dtype == DataType::boolean ? 1 : kMaxRandomInt);
  switch (dtype) {
    case DataType::float32: store(at, real(rng)); break;
    case DataType::float64: store(at, static_cast<double>(real(rng))); break;
    case DataType::float16: store(at, onnxmicro::float16_t::from_float(real(rng)).bits); break;
    case DataType::bfloat16: store(at, onnxmicro::bfloat16_t::from_float(real(rng)).bits); break;
    case DataType::int8: store(at, static_cast<std::int8_t>(small(rng))); break;
    case DataType::int16: store(at, static_cast<std::int16_t>(small(rng))); break;
    case DataType::int32: store(at, static_cast<std::int32_t>(small(rng))); break;
    case DataType::int64: store(at, static_cast<std::int64_t>(small(rng))); break;
    case DataType::uint16: store(at, static_cast<std::uint16_t>(small(rng))); break;
    case DataType::uint32: store(at, static_cast<std::uint32_t>(small(rng))); break;
    case DataType::uint64: store(at, static_cast<std::uint64_t>(small(rng))); break;
    default: store(at, static_cast<std::uint8_t>(small(rng))); break;  // uint8, bool
  }
}

bool make_random_input(const onnxmicro::model::Value& value, const onnxmicro::Shape& shape, std::mt19937& rng,
                       HostTensor& out, std::string& error) {
  const std::string name = printable(value.name);
  const bool tensor = value.type_kind == onnxmicro::proto::Type::Kind::tensor;
  if (!tensor || !can_generate(value.dtype)) {
    const std::string what = !tensor ? "not a tensor"
                             : value.dtype == onnxmicro::DataType::undefined
                                 ? "of no declared element type"
                                 : std::string("of ") + onnxmicro::dtype_name(value.dtype);
    error = "input '" + name + "' is " + what +
            ": bench makes random float, integer and bool tensors only; give a file with --input " + name + "=FILE";
    return false;
  }
  std::int64_t count = 0;
  const onnxmicro::Status status = shape.checked_element_count(count);
  if (!status.ok()) {
    error = "input '" + name + "' of shape " + format_shape(shape) + ": " + describe_status(status);
    return false;
  }
  const std::size_t size = onnxmicro::dtype_size(value.dtype);
  out.dtype = value.dtype;
  out.shape = shape;
  out.data.resize(static_cast<std::size_t>(count) * size);
  for (std::size_t at = 0; at < out.data.size(); at += size) store_random(value.dtype, rng, out.data.data() + at);
  return true;
}

// Random tensors for the inputs without a file, appended to `bound` (`generated` says which entries they are).
bool generate_inputs(const onnxmicro::Model& model, const BenchOptions& options, BoundInputs& bound,
                     std::vector<bool>& generated, std::string& error) {
  if (!check_shape_names(model, options, bound, error)) return false;
  const std::map<std::string, std::int64_t> symbols = known_symbols(model, options, bound);
  generated.assign(bound.tensors.size(), false);
  const std::size_t from_files = bound.shapes.size();
  std::mt19937 rng(kRandomSeed);
  for (std::size_t k = 0; k < model.graph().inputs.size(); ++k) {
    const onnxmicro::model::Value& value = input_value(model, k);
    bool has_file = false;
    for (std::size_t f = 0; f < from_files; ++f) has_file = has_file || bound.shapes[f].name == value.name;
    if (has_file) continue;
    onnxmicro::Shape shape;
    HostTensor tensor;
    if (!resolve_shape(value, options, symbols, shape, error) || !make_random_input(value, shape, rng, tensor, error)) {
      return false;
    }
    bound.shapes.push_back(onnxmicro::InputShape{value.name, shape});
    bound.tensors.push_back(std::move(tensor));
    generated.push_back(true);
  }
  return true;
}

// ---- timing ------------------------------------------------------------------------------------------------

struct NodeTime {
  std::string op;
  std::string name;      ///< "#index" when the model leaves it empty
  double ms = 0;         ///< median per run
  double share = 0;      ///< of the sum of the node medians
  double flops = 0;      ///< per run; 0 when not computed
  std::string rounding;  ///< NodeReport::rounding (empty: the op's plain order)
};

struct BenchResult {
  double load_ms = 0;
  double prepare_ms = 0;
  double first_run_ms = 0;
  double median_ms = 0;
  double p10_ms = 0;
  double p90_ms = 0;
  std::int64_t peak_rss_kb = -1;  ///< -1: unknown on this platform
  int profile_runs = 0;
  std::vector<NodeTime> nodes;  ///< sorted by time, slowest first
};

// Linear interpolation between the closest ranks (numpy's default), of sorted `values`.
double percentile(const std::vector<double>& sorted, double fraction) {
  const double position = fraction * static_cast<double>(sorted.size() - 1);
  const std::size_t below = static_cast<std::size_t>(position);
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - static_cast<double>(below));
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return percentile(values, 0.5);
}

std::int64_t peak_rss_kb() {
#ifdef ONNXMICRO_CLI_HAVE_GETRUSAGE
  struct rusage usage {};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return -1;
#ifdef __APPLE__
  return static_cast<std::int64_t>(usage.ru_maxrss) / 1024;  // bytes there, kilobytes on Linux and the BSDs
#else
  return static_cast<std::int64_t>(usage.ru_maxrss);
#endif
#else
  return -1;
#endif
}

bool set_inputs(onnxmicro::Session& session, const BoundInputs& bound, std::string& error) {
  for (std::size_t k = 0; k < bound.tensors.size(); ++k) {
    const onnxmicro::Status set = session.set_input(bound.shapes[k].name, bound.tensors[k].view());
    if (!set.ok()) {
      error = "cannot set input '" + printable(bound.shapes[k].name) + "': " + describe_status(set);
      return false;
    }
  }
  return true;
}

// Sets the inputs again, then runs: a run may reuse a graph input's arena slot once the input has been read, so
// every run (warm-up, timed, profiled) starts from the inputs rather than their leftovers; the copy is not timed.
bool run_once(onnxmicro::Session& session, const BoundInputs& bound, std::string& error) {
  if (!set_inputs(session, bound, error)) return false;
  const onnxmicro::Status status = session.run();
  if (!status.ok()) error = "run failed: " + describe_status(status);
  return status.ok();
}

// W warm-up runs, then R timed ones: median, p10 and p90 into `result`.
bool time_runs(onnxmicro::Session& session, const BoundInputs& bound, const BenchOptions& options, BenchResult& result,
               std::string& error) {
  for (int i = 0; i < options.warmup; ++i) {
    if (!run_once(session, bound, error)) return false;
  }
  std::vector<double> times(static_cast<std::size_t>(options.runs));
  for (double& ms : times) {
    if (!set_inputs(session, bound, error)) return false;
    const Clock::time_point start = Clock::now();
    const onnxmicro::Status status = session.run();
    ms = ms_since(start);
    if (!status.ok()) {
      error = "run failed: " + describe_status(status);
      return false;
    }
  }
  std::sort(times.begin(), times.end());
  result.median_ms = percentile(times, 0.5);
  result.p10_ms = percentile(times, 0.1);
  result.p90_ms = percentile(times, 0.9);
  return true;
}

// Times each node of observed runs; one slot per run and node, allocated before the runs.
class NodeClock final : public onnxmicro::NodeObserver {
 public:
  NodeClock(std::size_t nodes, std::size_t runs) : nodes_(nodes), elapsed_ms_(nodes * runs, 0.0) {}
  void start_run(std::size_t run) { offset_ = run * nodes_; }
  void before_node(std::size_t) noexcept override { start_ = Clock::now(); }
  void after_node(std::size_t node) noexcept override { elapsed_ms_[offset_ + node] = ms_since(start_); }
  double elapsed_ms(std::size_t run, std::size_t node) const { return elapsed_ms_[run * nodes_ + node]; }

 private:
  std::size_t nodes_;
  std::vector<double> elapsed_ms_;
  std::size_t offset_ = 0;
  Clock::time_point start_;
};

std::int64_t element_count(const onnxmicro::Shape& shape) { return shape.is_static() ? shape.element_count() : 0; }

// Multiply-adds x 2 of a Conv, Gemm or MatMul from its inferred shapes, and of a QLinearConv (integer operations,
// counted alike: the QDQ models' convs); 0 for other ops (or shapes it cannot use).
double node_flops(const onnxmicro::Session& session, const onnxmicro::model::Node& node) {
  if (node.op_type == "QLinearConv" && node.domain.empty() && node.inputs.size() >= 4 && node.outputs.size() > 0) {
    const onnxmicro::Shape w = session.value_shape(node.inputs[3]);
    const double outputs = static_cast<double>(element_count(session.value_shape(node.outputs[0])));
    return w.rank() >= 3 && w[0] > 0 ? 2.0 * outputs * static_cast<double>(element_count(w) / w[0]) : 0;
  }
  if (!node.domain.empty() || node.inputs.size() < 2 || node.outputs.size() == 0) return 0;
  const onnxmicro::Shape a = session.value_shape(node.inputs[0]);
  const onnxmicro::Shape b = session.value_shape(node.inputs[1]);
  const double outputs = static_cast<double>(element_count(session.value_shape(node.outputs[0])));
  if (node.op_type == "Conv" && b.rank() >= 3 && b[0] > 0) {
    // W is [M, C/group, kH, kW]: each output element takes (C/group)*kH*kW multiply-adds.
    return 2.0 * outputs * static_cast<double>(element_count(b) / b[0]);
  }
  const onnxmicro::Shape y = session.value_shape(node.outputs[0]);
  if (node.op_type == "Gemm" && a.rank() == 2 && y.rank() == 2 && y[0] > 0) {
    return 2.0 * outputs * static_cast<double>(element_count(a) / y[0]);  // A holds M*K elements (transposed or not)
  }
  if (node.op_type == "MatMul" && a.rank() >= 1) return 2.0 * outputs * static_cast<double>(a[a.rank() - 1]);
  return 0;
}

// Observed runs (as many as the timed ones, at most kMaxProfileRuns): each node's median, share and FLOPs.
bool profile_nodes(onnxmicro::Session& session, const BoundInputs& bound, const BenchOptions& options,
                   BenchResult& result, std::string& error) {
  const onnxmicro::Span<const onnxmicro::NodeReport> reports = session.node_reports();
  const std::size_t runs = static_cast<std::size_t>(std::min(options.runs, kMaxProfileRuns));
  NodeClock clock(reports.size(), runs);
  for (std::size_t run = 0; run < runs; ++run) {
    clock.start_run(run);
    if (!set_inputs(session, bound, error)) return false;
    const onnxmicro::Status status = session.run(clock);
    if (!status.ok()) {
      error = "run failed: " + describe_status(status);
      return false;
    }
  }
  double total_ms = 0;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    if (reports[i].folded) continue;  // computed at prepare, never run
    const onnxmicro::model::Node& node = *reports[i].node;
    std::vector<double> times(runs);
    for (std::size_t run = 0; run < runs; ++run) times[run] = clock.elapsed_ms(run, i);
    NodeTime t{std::string(node.op_type), node.name.empty() ? "#" + std::to_string(i) : std::string(node.name),
               median(std::move(times)),  0,
               node_flops(session, node), reports[i].rounding != nullptr ? reports[i].rounding : ""};
    total_ms += t.ms;
    result.nodes.push_back(std::move(t));
  }
  for (NodeTime& t : result.nodes) t.share = total_ms > 0 ? t.ms / total_ms : 0;
  std::stable_sort(result.nodes.begin(), result.nodes.end(),
                   [](const NodeTime& x, const NodeTime& y) { return x.ms > y.ms; });
  result.profile_runs = static_cast<int>(runs);
  return true;
}

double gflops(const NodeTime& t) { return t.flops > 0 && t.ms > 0 ? t.flops / (t.ms * 1e6) : 0; }

// ---- reports -----------------------------------------------------------------------------------------------

struct Report {
  const std::string& model_path;
  const BenchOptions& options;
  const LoadedModel& loaded;
  const onnxmicro::Session& session;
  const BoundInputs& bound;
  const std::vector<bool>& generated;
  const BenchResult& result;
};

// The per-node table, slowest first: ms, share, GFLOP/s ("-" when not computed), op, node.
void print_profile(std::ostream& out, const BenchResult& b) {
  double total_ms = 0;
  std::size_t op_width = 2;
  for (const NodeTime& t : b.nodes) {
    total_ms += t.ms;
    op_width = std::max(op_width, printable(t.op).size());
  }
  out << "nodes: " << b.nodes.size() << " (median of " << b.profile_runs << " observed runs; their sum " << total_ms
      << " ms)\n";
  if (b.nodes.empty()) return;
  const int op_column = static_cast<int>(op_width);
  out << "  " << std::setw(10) << "ms" << std::setw(8) << "share" << std::setw(10) << "GFLOP/s"
      << "  " << std::left << std::setw(op_column) << "op"
      << "  node\n"
      << std::right;
  for (const NodeTime& t : b.nodes) {
    out << "  " << std::setprecision(4) << std::setw(10) << t.ms << std::setprecision(1) << std::setw(7)
        << 100.0 * t.share << '%' << std::setprecision(2) << std::setw(10);
    if (t.flops > 0) {
      out << gflops(t);
    } else {
      out << '-';
    }
    out << "  " << std::left << std::setw(op_column) << printable(t.op) << std::right << "  " << printable(t.name);
    if (!t.rounding.empty()) out << "  (" << t.rounding << ')';
    out << '\n';
  }
}

void print_text(const Report& r) {
  std::ostream& out = std::cout;
  const BenchResult& b = r.result;
  out << "model: " << printable(r.model_path) << '\n';
  out << "isa: " << onnxmicro::isa_name(r.session.isa()) << '\n';
  const onnxmicro::Isa conv_isa = onnxmicro::kernels::gemm::convolution_isa(r.session.isa());
  if (conv_isa != r.session.isa()) {
    out << "float convolutions: " << onnxmicro::isa_name(conv_isa) << " tiles (this CPU splits 512-bit operations)\n";
  }
  out << "threads: " << r.session.thread_count() << '\n';
  print_placement(out, r.session, r.options.inputs, /*per_node=*/false);
  out << "inputs: " << r.bound.shapes.size() << '\n';
  for (std::size_t k = 0; k < r.bound.shapes.size(); ++k) {
    out << "  " << printable(r.bound.shapes[k].name) << ": " << onnxmicro::dtype_name(r.bound.tensors[k].dtype) << ' '
        << format_shape(r.bound.shapes[k].shape) << (r.generated[k] ? " (random)" : " (file)") << '\n';
  }
  out << std::fixed << std::setprecision(4);
  out << "load_ms: " << b.load_ms << "\nprepare_ms: " << b.prepare_ms << "\nfirst_run_ms: " << b.first_run_ms << '\n';
  out << "warmup: " << r.options.warmup << "\nruns: " << r.options.runs << '\n';
  out << "median_ms: " << b.median_ms << "\np10_ms: " << b.p10_ms << "\np90_ms: " << b.p90_ms << '\n';
  out << "arena_bytes: " << r.session.required_arena_bytes() << '\n';
  out << "metadata_bytes: " << r.session.metadata_bytes() << '\n';
  out << "model_metadata_bytes: " << r.loaded.model.metadata_bytes() << '\n';
  out << "peak_rss_kb: " << (b.peak_rss_kb < 0 ? std::string("unknown") : std::to_string(b.peak_rss_kb)) << '\n';
  print_profile(out, b);
}

// JsonWriter writes no floating-point values: the whole part goes through it (separators, indentation), the
// fraction right after it on the same stream. For values >= 0.
void json_fixed(JsonWriter& json, std::ostream& out, double value, int decimals) {
  std::int64_t scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
  const auto scaled = static_cast<std::int64_t>(std::max(value, 0.0) * static_cast<double>(scale) + 0.5);
  json.value(scaled / scale);
  out << '.' << std::setw(decimals) << std::setfill('0') << scaled % scale << std::setfill(' ');
}

void json_nodes(JsonWriter& json, std::ostream& out, const BenchResult& b) {
  json.key("nodes");
  json.begin_array();
  for (const NodeTime& t : b.nodes) {
    json.begin_object(true);
    json.key("op");
    json.value(t.op);
    json.key("name");
    json.value(t.name);
    json.key("ms");
    json_fixed(json, out, t.ms, 6);
    json.key("share");
    json_fixed(json, out, t.share, 6);
    if (t.flops > 0) {
      json.key("gflops");
      json_fixed(json, out, gflops(t), 3);
    }
    if (!t.rounding.empty()) {
      json.key("rounding");
      json.value(t.rounding);
    }
    json.end_object();
  }
  json.end_array();
}

void json_inputs(JsonWriter& json, const Report& r) {
  json.key("inputs");
  json.begin_array();
  for (std::size_t k = 0; k < r.bound.shapes.size(); ++k) {
    json.begin_object(true);
    json.key("name");
    json.value(r.bound.shapes[k].name);
    json.key("dtype");
    json.value(onnxmicro::dtype_name(r.bound.tensors[k].dtype));
    json.key("shape");
    json.begin_array(true);
    for (std::int64_t d : r.bound.shapes[k].shape.dims()) json.value(d);
    json.end_array();
    json.key("source");
    json.value(r.generated[k] ? "random" : "file");
    json.end_object();
  }
  json.end_array();
}

void print_json(const Report& r) {
  std::ostream& out = std::cout;
  const BenchResult& b = r.result;
  JsonWriter json(out);
  json.begin_object();
  json.key("model");
  json.value(r.model_path);
  json.key("isa");
  json.value(onnxmicro::isa_name(r.session.isa()));
  json.key("conv_isa");  // float Conv's tiles: the session's level, or avx2 where the CPU splits 512-bit operations
  json.value(onnxmicro::isa_name(onnxmicro::kernels::gemm::convolution_isa(r.session.isa())));
  json.key("threads");
  json.value(static_cast<std::int64_t>(r.session.thread_count()));
  json_inputs(json, r);
  const std::pair<const char*, double> times[] = {
      {"load_ms", b.load_ms},     {"prepare_ms", b.prepare_ms}, {"first_run_ms", b.first_run_ms},
      {"median_ms", b.median_ms}, {"p10_ms", b.p10_ms},         {"p90_ms", b.p90_ms}};
  for (const auto& [key, ms] : times) {
    json.key(key);
    json_fixed(json, out, ms, 6);
  }
  const std::pair<const char*, std::int64_t> counts[] = {
      {"warmup", r.options.warmup},
      {"runs", r.options.runs},
      {"profile_runs", b.profile_runs},
      {"arena_bytes", static_cast<std::int64_t>(r.session.required_arena_bytes())},
      {"metadata_bytes", static_cast<std::int64_t>(r.session.metadata_bytes())},
      {"model_metadata_bytes", static_cast<std::int64_t>(r.loaded.model.metadata_bytes())}};
  for (const auto& [key, n] : counts) {
    json.key(key);
    json.value(n);
  }
  json.key("peak_rss_kb");
  if (b.peak_rss_kb < 0) {
    json.null();
  } else {
    json.value(b.peak_rss_kb);
  }
  json_nodes(json, out, b);
  json.end_object();
  json.finish();
}

}  // namespace

int bench_command(const Args& args) {
  std::string model_path;
  BenchOptions options;
  const int exit_code = parse_bench_command_line(args, model_path, options);
  if (exit_code >= 0) return exit_code;

  std::string error;
  BenchResult result;
  auto loaded = std::make_unique<LoadedModel>();
  BoundInputs bound;
  std::vector<bool> generated;
  onnxmicro::Session session;
  Clock::time_point start = Clock::now();
  bool ok = load_model(model_path, *loaded, error);
  result.load_ms = ms_since(start);
  ok = ok && bind_inputs(loaded->model, options.inputs, /*require_all=*/false, bound, error) &&
       generate_inputs(loaded->model, options, bound, generated, error) && check_output_kinds(loaded->model, error);
  start = Clock::now();
  ok = ok && prepare_bound(*loaded, bound, options.inputs, session, error);
  result.prepare_ms = ms_since(start);
  ok = ok && set_inputs(session, bound, error);
  start = Clock::now();
  const onnxmicro::Status first = ok ? session.run() : onnxmicro::Status();
  result.first_run_ms = ms_since(start);
  if (ok && !first.ok()) {
    error = "run failed: " + describe_status(first);
    ok = false;
  }
  ok = ok && time_runs(session, bound, options, result, error) && profile_nodes(session, bound, options, result, error);
  if (!ok) {
    print_error(error);
    return kExitFailure;
  }
  result.peak_rss_kb = peak_rss_kb();
  const Report report{model_path, options, *loaded, session, bound, generated, result};
  if (options.json) {
    print_json(report);
  } else {
    print_text(report);
  }
  return kExitSuccess;
}

}  // namespace onnxmicro_cli
