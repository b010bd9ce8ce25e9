// SPDX-License-Identifier: MIT
// onnxmicro_bench: times Session::run() on ONNX models with Google Benchmark.
//
//   onnxmicro_bench [--model [NAME=]PATH]... [--models-dir DIR]... [--threads N] [--benchmark_* flags]
//
// --threads N prepares every session with a std::thread pool of N threads (SessionOptions::thread_pool; default 1,
// no pool).
// PATH is a model.onnx or a directory holding one; NAME defaults to the directory's name. --models-dir adds every
// subdirectory of DIR that holds a model.onnx. Inputs come from test_data_set_0/input_K.pb beside the model (the
// K-th graph input that is not an initializer). Every model is loaded and prepared once, before any timing;
// benchmark NAME then times set_input() of every input plus run(), as onnxruntime's run() copies its feeds too.
// A model with an op reading a DequantizeLinear output gets a second benchmark, NAME/float_path, prepared with
// SessionOptions::fuse_qdq = false (every node runs its own float kernel), so both paths are timed in one run.
// Counters: integer_ops / float_ops (Session::quantized_nodes()), arena_bytes, and max_abs_diff between the
// first output and test_data_set_0/output_0.pb when that file exists.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <onnxmicro/onnxmicro.hpp>
#include <onnxmicro/runtime/std_thread_pool.hpp>

#include "cli_support.hpp"
#include "tensor_io.hpp"

namespace {

namespace om = onnxmicro;
namespace cli = onnxmicro_cli;
namespace fs = std::filesystem;

constexpr int kExitUsage = 2;

/// --threads N: the pool every session runs on (null for 1).
om::ThreadPool* g_thread_pool = nullptr;

/// A model named on the command line, loaded, with its test inputs and expected outputs.
struct BenchModel {
  std::string name;
  std::string path;  ///< the model.onnx file
  cli::LoadedModel loaded;
  std::vector<cli::HostTensor> inputs;    ///< one per graph input, in order
  std::vector<cli::HostTensor> expected;  ///< output_K.pb that exist, in order
  bool has_qdq = false;                   ///< some node reads a DequantizeLinear output (a group fuse_qdq may fuse)
};

/// One timed configuration: a session prepared on a BenchModel.
struct BenchCase {
  const BenchModel* model = nullptr;
  bool fuse_qdq = true;
  om::Session session;
  std::vector<om::InputShape> shapes;
  int integer_ops = 0;
  int float_ops = 0;
  double max_abs_diff = -1.0;  ///< -1: no output_0.pb to compare with
};

std::string status_text(const om::Status& status) { return cli::describe_status(status); }

/// Element `i` of a numeric tensor as double; false for dtypes the comparison does not handle.
bool element_as_double(om::DataType dtype, const void* data, std::size_t i, double& out) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  switch (dtype) {
    case om::DataType::float32: {
      float v;
      std::memcpy(&v, bytes + 4 * i, 4);
      out = v;
      return true;
    }
    case om::DataType::int8: out = static_cast<std::int8_t>(bytes[i]); return true;
    case om::DataType::uint8: out = bytes[i]; return true;
    case om::DataType::int32: {
      std::int32_t v;
      std::memcpy(&v, bytes + 4 * i, 4);
      out = v;
      return true;
    }
    case om::DataType::int64: {
      std::int64_t v;
      std::memcpy(&v, bytes + 8 * i, 8);
      out = static_cast<double>(v);
      return true;
    }
    default: return false;
  }
}

/// Resolves "[NAME=]PATH" to a name and a model.onnx path.
bool resolve_model_arg(const std::string& arg, std::string& name, std::string& path, std::string& error) {
  const std::size_t eq = arg.find('=');
  path = eq == std::string::npos ? arg : arg.substr(eq + 1);
  fs::path p(path);
  std::error_code ec;
  if (fs::is_directory(p, ec)) p /= "model.onnx";
  if (!fs::is_regular_file(p, ec)) {
    error = "--model '" + arg + "': no model file at '" + p.string() + "'";
    return false;
  }
  path = p.string();
  if (eq != std::string::npos) {
    name = arg.substr(0, eq);
  } else {
    // .../cnn_qdq_asym/model.onnx -> cnn_qdq_asym; other.onnx -> other
    name = p.filename() == "model.onnx" ? fs::absolute(p).parent_path().filename().string() : p.stem().string();
  }
  if (name.empty()) {
    error = "--model '" + arg + "': empty benchmark name";
    return false;
  }
  return true;
}

/// Loads the model and test_data_set_0/{input,output}_K.pb beside it.
bool load_bench_model(BenchModel& m, std::string& error) {
  if (!cli::load_model(m.path, m.loaded, error)) return false;
  const om::model::Graph& graph = m.loaded.model.graph();
  for (const om::model::Node& node : graph.nodes) {
    if (node.op_type != "DequantizeLinear") continue;
    for (const om::model::Node& reader : graph.nodes) {
      for (const om::model::ValueId input : reader.inputs) {
        if (input == node.outputs[0]) m.has_qdq = true;
      }
    }
  }
  const fs::path data_dir = fs::path(m.path).parent_path() / "test_data_set_0";
  for (std::size_t k = 0; k < graph.inputs.size(); ++k) {
    const fs::path file = data_dir / ("input_" + std::to_string(k) + ".pb");
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) {
      error = "model '" + m.name + "': graph input " + std::to_string(k) + " '" +
              std::string(graph.values[graph.inputs[k]].name) + "' has no data file '" + file.string() + "'";
      return false;
    }
    m.inputs.emplace_back();
    if (!cli::read_tensor_file(file.string(), m.inputs.back(), error)) return false;
  }
  for (std::size_t k = 0; k < graph.outputs.size(); ++k) {
    const fs::path file = data_dir / ("output_" + std::to_string(k) + ".pb");
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) break;
    m.expected.emplace_back();
    if (!cli::read_tensor_file(file.string(), m.expected.back(), error)) return false;
  }
  return true;
}

om::Status set_inputs(BenchCase& c) {
  om::Status status;
  for (std::size_t k = 0; k < c.model->inputs.size() && status.ok(); ++k) {
    status = c.session.set_input(k, c.model->inputs[k].view());
  }
  return status;
}

/// Prepares the session, runs it once and compares the first output with output_0.pb.
bool prepare_case(BenchCase& c, std::string& error) {
  const BenchModel& m = *c.model;
  const om::model::Graph& graph = m.loaded.model.graph();
  // The data files fix every symbolic dim, so dynamic models are planned for exactly these shapes.
  for (std::size_t k = 0; k < m.inputs.size(); ++k) {
    c.shapes.push_back({graph.values[graph.inputs[k]].name, m.inputs[k].shape});
  }
  om::SessionOptions options;
  options.input_shapes = {c.shapes.data(), c.shapes.size()};
  options.fuse_qdq = c.fuse_qdq;
  options.thread_pool = g_thread_pool;
  const std::string what = "model '" + m.name + "'" + (c.fuse_qdq ? "" : " (fuse_qdq = false)") + ": ";
  om::Status status = c.session.prepare(m.loaded.model, om::all_kernels_registry(), options);
  if (!status.ok()) {
    error = what + "prepare: " + status_text(status);
    return false;
  }
  for (const om::QuantizedNodeReport& report : c.session.quantized_nodes()) {
    ++(report.integer ? c.integer_ops : c.float_ops);
  }
  status = set_inputs(c);
  if (status.ok()) status = c.session.run();
  if (!status.ok()) {
    error = what + "run: " + status_text(status);
    return false;
  }
  if (!m.expected.empty()) {
    const om::ConstTensorView got = c.session.output(0);
    const cli::HostTensor& want = m.expected[0];
    if (got.dtype != want.dtype || got.shape != want.shape) {
      error = what + "output 0 is " + om::dtype_name(got.dtype) + " " + cli::format_shape(got.shape) +
              ", output_0.pb holds " + om::dtype_name(want.dtype) + " " + cli::format_shape(want.shape);
      return false;
    }
    double worst = 0.0;
    const std::size_t count = static_cast<std::size_t>(got.element_count());
    for (std::size_t i = 0; i < count; ++i) {
      double a = 0.0, b = 0.0;
      if (!element_as_double(got.dtype, got.data, i, a) || !element_as_double(want.dtype, want.data.data(), i, b)) {
        worst = -1.0;  // a dtype the comparison does not handle: no counter
        break;
      }
      worst = std::max(worst, std::fabs(a - b));
    }
    c.max_abs_diff = worst;
  }
  return true;
}

void run_case(benchmark::State& state, BenchCase* c) {
  for (auto _ : state) {
    om::Status status = set_inputs(*c);
    if (status.ok()) status = c->session.run();
    if (!status.ok()) {
      state.SkipWithError(status_text(status).c_str());
      break;
    }
    benchmark::DoNotOptimize(c->session.output(0).data);
  }
  state.counters["integer_ops"] = c->integer_ops;
  state.counters["float_ops"] = c->float_ops;
  state.counters["arena_bytes"] = static_cast<double>(c->session.arena_capacity());
  if (c->max_abs_diff >= 0.0) state.counters["max_abs_diff"] = c->max_abs_diff;
}

/// The benchmark of a model that could not be loaded or prepared: reports why, times nothing.
void fail_case(benchmark::State& state, const std::string* error) { state.SkipWithError(error->c_str()); }

void usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--model [NAME=]PATH]... [--models-dir DIR]... [--threads N] [--benchmark_* flags]\n"
               "  PATH: a model.onnx, or a directory holding model.onnx and test_data_set_0/input_K.pb\n"
               "  DIR: every subdirectory of DIR that holds a model.onnx\n",
               argv0);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);  // removes the --benchmark_* flags it knows

  std::vector<std::pair<std::string, std::string>> named;  // name, model path
  long threads = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::string value;
    if (arg == "--threads" || arg.rfind("--threads=", 0) == 0) {
      const std::string count = arg == "--threads" ? (i + 1 < argc ? argv[++i] : "") : arg.substr(10);
      char* end = nullptr;
      threads = std::strtol(count.c_str(), &end, 10);
      if (count.empty() || *end != '\0' || threads < 1 || threads > 1024) {
        std::fprintf(stderr, "onnxmicro_bench: --threads expects a whole number from 1 to 1024, got '%s'\n",
                     count.c_str());
        return kExitUsage;
      }
      continue;
    }
    if ((arg == "--model" || arg == "--models-dir") && i + 1 < argc) {
      value = argv[++i];
    } else if (arg.rfind("--model=", 0) == 0 || arg.rfind("--models-dir=", 0) == 0) {
      value = arg.substr(arg.find('=') + 1);
    } else if (arg == "-h" || arg == "--help") {
      usage(argv[0]);
      return 0;
    } else if (!arg.empty() && arg[0] != '-') {
      value = arg;  // a bare path is a --model
    } else {
      std::fprintf(stderr, "onnxmicro_bench: unknown argument '%s'\n", arg.c_str());
      usage(argv[0]);
      return kExitUsage;
    }
    std::string error;
    if (arg.rfind("--models-dir", 0) == 0) {
      std::error_code ec;
      std::vector<fs::path> dirs;
      for (const fs::directory_entry& entry : fs::directory_iterator(value, ec)) {
        if (fs::is_regular_file(entry.path() / "model.onnx", ec)) dirs.push_back(entry.path());
      }
      if (ec || dirs.empty()) {
        std::fprintf(stderr, "onnxmicro_bench: --models-dir '%s': no subdirectory with a model.onnx%s%s\n",
                     value.c_str(), ec ? ": " : "", ec ? ec.message().c_str() : "");
        return kExitUsage;
      }
      std::sort(dirs.begin(), dirs.end());
      for (const fs::path& dir : dirs) named.emplace_back(dir.filename().string(), (dir / "model.onnx").string());
      continue;
    }
    std::string name, path;
    if (!resolve_model_arg(value, name, path, error)) {
      std::fprintf(stderr, "onnxmicro_bench: %s\n", error.c_str());
      return kExitUsage;
    }
    named.emplace_back(name, path);
  }
  if (named.empty()) {
    std::fprintf(stderr, "onnxmicro_bench: no model given\n");
    usage(argv[0]);
    return kExitUsage;
  }

  std::unique_ptr<om::StdThreadPool> pool;
  if (threads > 1) {
    pool = std::make_unique<om::StdThreadPool>(static_cast<std::size_t>(threads));
    g_thread_pool = pool.get();
  }
  benchmark::AddCustomContext("onnxmicro_threads", std::to_string(threads));
  om::Isa isa = om::Isa::baseline;
  om::effective_isa(om::Isa::best, isa);
  benchmark::AddCustomContext("onnxmicro_isa", std::string(om::isa_name(isa)));

  // Everything is loaded and prepared before the first timing. A model that fails is reported on stderr and as a
  // benchmark with an error (so a JSON reader sees it too), the others still run, and the exit status is 1.
  std::vector<std::unique_ptr<BenchModel>> models;
  std::vector<std::unique_ptr<BenchCase>> cases;
  std::vector<std::unique_ptr<std::string>> errors;
  const auto report_failure = [&errors](const std::string& benchmark_name, const std::string& error) {
    std::fprintf(stderr, "onnxmicro_bench: %s\n", error.c_str());
    errors.push_back(std::make_unique<std::string>(error));
    benchmark::RegisterBenchmark(benchmark_name.c_str(), fail_case, errors.back().get())->Unit(benchmark::kMillisecond);
  };
  for (const auto& [name, path] : named) {
    models.push_back(std::make_unique<BenchModel>());
    BenchModel& m = *models.back();
    m.name = name;
    m.path = path;
    std::string error;
    if (!load_bench_model(m, error)) {
      report_failure(name, error);
      continue;
    }
    for (const bool fuse : {true, false}) {
      if (!fuse && !m.has_qdq) continue;  // fuse_qdq changes nothing without an op reading dequantized values
      const std::string benchmark_name = fuse ? name : name + "/float_path";
      cases.push_back(std::make_unique<BenchCase>());
      BenchCase* c = cases.back().get();
      c->model = &m;
      c->fuse_qdq = fuse;
      if (!prepare_case(*c, error)) {
        report_failure(benchmark_name, error);
        continue;
      }
      benchmark::RegisterBenchmark(benchmark_name.c_str(), run_case, c)->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::AddCustomContext("onnxmicro_version", std::to_string(ONNXMICRO_VERSION_MAJOR) + "." +
                                                       std::to_string(ONNXMICRO_VERSION_MINOR) + "." +
                                                       std::to_string(ONNXMICRO_VERSION_PATCH));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return errors.empty() ? 0 : 1;
}
