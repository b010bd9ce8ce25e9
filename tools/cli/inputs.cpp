// SPDX-License-Identifier: MIT
#include "inputs.hpp"

#include <charconv>
#include <iostream>
#include <map>
#include <memory>
#include <string_view>

#include <onnxmicro/runtime/std_thread_pool.hpp>
#if ONNXMICRO_CLI_HAS_OPENCL
#include <onnxmicro/backends/opencl.hpp>
#endif

#include "cli_support.hpp"
#include "value_io.hpp"

namespace onnxmicro_cli {
namespace {

using onnxmicro::proto::Type;

// A non-tensor kind with its article and the onnx message its test data uses.
const char* kind_name(Type::Kind kind) {
  switch (kind) {
    case Type::Kind::sequence: return "a sequence (onnx SequenceProto)";
    case Type::Kind::optional: return "an optional (onnx OptionalProto)";
    case Type::Kind::map: return "a map (onnx MapProto)";
    case Type::Kind::sparse_tensor: return "a sparse tensor (onnx SparseTensorProto)";
    default: return "a tensor";
  }
}

// Kinds `run` reads and writes: tensors (of any dtype, strings too), sequences of tensors, optionals.
bool is_supported_kind(Type::Kind kind) { return kind != Type::Kind::map && kind != Type::Kind::sparse_tensor; }

std::string quoted_list(const onnxmicro::model::Graph& graph, onnxmicro::Span<const onnxmicro::model::ValueId> ids) {
  std::string out;
  for (onnxmicro::model::ValueId id : ids) {
    if (!out.empty()) out += ", ";
    out += "'" + printable(graph.values[static_cast<std::size_t>(id)].name) + "'";
  }
  return out;
}

std::string count_text(std::size_t n, const char* noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }

}  // namespace

int parse_model_command_line(const Args& args, std::string_view command, std::string_view usage, std::string_view help,
                             const OwnOption& own_option, std::string& model_path, InputArgs& inputs) {
  for (const std::string& arg : args) {
    if (is_help_flag(arg)) {
      std::cout << help;
      return kExitSuccess;
    }
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == kOptimizeForSizeOption) {
      inputs.optimize_for_size = true;
      continue;
    }
    if (args[i] == kNoWinogradOption) {
      inputs.winograd = false;
      continue;
    }
    std::string error;
    OptionResult result = parse_device_option(args, i, inputs, error);
    if (result == OptionResult::not_mine) result = parse_input_option(args, i, inputs, error);
    if (result == OptionResult::not_mine && own_option) result = own_option(args, i, error);
    if (result == OptionResult::error) return usage_error(command, usage, error);
    if (result == OptionResult::consumed) continue;
    if (args[i].rfind("-", 0) == 0 && args[i].size() > 1) {
      return usage_error(command, usage,
                         "unknown option '" + printable(args[i]) + "' for '" + std::string(command) + "'");
    }
    if (!model_path.empty()) {
      return usage_error(command, usage,
                         "unexpected argument '" + printable(args[i]) + "' (input files follow --inputs)");
    }
    model_path = args[i];
  }
  if (model_path.empty()) return usage_error(command, usage, "missing MODEL");
  return -1;
}

OptionResult parse_threads_option(const Args& args, std::size_t& i, InputArgs& out, std::string& error) {
  std::string name, value;
  bool has_value = false;
  split_option(args[i], name, value, has_value);
  if (name != kThreadsOption) return OptionResult::not_mine;
  if (!has_value && i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) value = args[++i];
  int threads = 0;
  const char* end = value.data() + value.size();
  const auto parsed = std::from_chars(value.data(), end, threads);
  if (value.empty() || parsed.ec != std::errc() || parsed.ptr != end || threads < 1 || threads > kMaxThreads) {
    error = std::string(kThreadsOption) + " expects a whole number from 1 to " + std::to_string(kMaxThreads) +
            (value.empty() ? std::string(", got nothing") : ", got '" + printable(value) + "'");
    return OptionResult::error;
  }
  out.threads = threads;
  return OptionResult::consumed;
}

OptionResult parse_device_option(const Args& args, std::size_t& i, InputArgs& out, std::string& error) {
  std::string name, value;
  bool has_value = false;
  split_option(args[i], name, value, has_value);
  if (name == "--strict" && !has_value) {
    out.strict = true;
    return OptionResult::consumed;
  }
  if (name != "--device" && name != "--opencl-device" && name != "--opencl-cache") return OptionResult::not_mine;
  if (!has_value && i + 1 < args.size()) value = args[++i];
  if (value.empty()) {
    error = name + " needs a value";
    return OptionResult::error;
  }
  if (name == "--device") {
    if (value != "cpu" && value != "opencl") {
      error = "--device expects cpu or opencl, got '" + printable(value) + "'";
      return OptionResult::error;
    }
    out.device = value;
  } else if (name == "--opencl-device") {
    out.opencl_device = value;
  } else {
    out.opencl_cache = value;
  }
  return OptionResult::consumed;
}

#if ONNXMICRO_CLI_HAS_OPENCL
namespace {
// The OpenCL backends of this process's sessions (one each; they live until exit).
std::vector<std::unique_ptr<onnxmicro::opencl::Backend>>& opencl_backends() {
  static std::vector<std::unique_ptr<onnxmicro::opencl::Backend>> backends;
  return backends;
}
}  // namespace
#endif

void print_placement(std::ostream& out, const onnxmicro::Session& session, const InputArgs& inputs, bool per_node) {
  if (inputs.device != "opencl") return;
#if ONNXMICRO_CLI_HAS_OPENCL
  for (const auto& backend : opencl_backends()) {
    if (static_cast<onnxmicro::DeviceBackend*>(backend.get()) != session.device()) continue;
    const onnxmicro::opencl::ProgramStats& stats = backend->program_stats();
    if (backend->available().ok()) {
      out << "opencl: " << backend->device_description() << "; program " << stats.builds << " built, "
          << stats.cache_hits << " from cache, " << stats.cache_rejected << " cache entries rejected\n";
      if (!stats.cache_bypassed.empty()) out << "opencl: " << stats.cache_bypassed << '\n';
    }
  }
  out << "placement: " << onnxmicro::opencl::placement_summary(session) << '\n';
  if (!per_node) return;
  for (std::size_t i = 0; i < session.node_reports().size(); ++i) {
    const onnxmicro::NodeReport& r = session.node_reports()[i];
    const std::string_view reason = session.placement_reason(i);
    out << "  " << (r.folded ? "folded" : onnxmicro::placement_name(r.placement)) << (r.fallback ? " (fallback)" : "")
        << "  " << r.node->op_type << " '" << printable(r.node->name) << "'";
    if (!reason.empty() && !r.folded) out << ": " << printable(reason);
    out << '\n';
  }
  out << "transfers: " << session.transfers().size() << '\n';
  for (const onnxmicro::TransferReport& t : session.transfers()) {
    out << "  " << onnxmicro::transfer_direction_name(t.direction) << " '" << printable(t.tensor) << "' " << t.bytes
        << " bytes\n";
  }
#else
  static_cast<void>(out);
  static_cast<void>(session);
  static_cast<void>(per_node);
#endif
}

OptionResult parse_input_option(const Args& args, std::size_t& i, InputArgs& out, std::string& error) {
  std::string name, value;
  bool has_value = false;
  split_option(args[i], name, value, has_value);
  if (name == "--inputs") {
    std::size_t before = out.positional.size();
    if (has_value) out.positional.push_back(value);
    while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) out.positional.push_back(args[++i]);
    if (out.positional.size() == before) {
      error = "--inputs needs at least one FILE";
      return OptionResult::error;
    }
    return OptionResult::consumed;
  }
  if (name == "--input") {
    if (!has_value) {
      if (i + 1 >= args.size()) {
        error = "--input needs NAME=FILE";
        return OptionResult::error;
      }
      value = args[++i];
    }
    std::size_t equals = value.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == value.size()) {
      error = "--input expects NAME=FILE, got '" + printable(value) + "'";
      return OptionResult::error;
    }
    out.named.emplace_back(value.substr(0, equals), value.substr(equals + 1));
    return OptionResult::consumed;
  }
  return OptionResult::not_mine;
}

std::string declared_shape_text(const onnxmicro::model::Value& value) {
  if (!value.has_declared_shape) return "(no declared shape)";
  std::string out = "[";
  for (int i = 0; i < value.declared_rank; ++i) {
    if (i) out += ',';
    const onnxmicro::model::DeclaredDim& d = value.declared_dims[i];
    out += d.value >= 0 ? std::to_string(d.value) : (d.param.empty() ? std::string("?") : printable(d.param));
  }
  return out + "]";
}

bool bind_inputs(const onnxmicro::Model& model, const InputArgs& args, bool require_all, BoundInputs& out,
                 std::string& error) {
  const onnxmicro::model::Graph& graph = model.graph();
  const std::size_t input_count = graph.inputs.size();
  const std::size_t given = args.positional.size() + args.named.size();
  auto wrong_count = [&]() {
    return "wrong number of inputs: the model has " + count_text(input_count, "input") +
           (input_count ? " (" + quoted_list(graph, graph.inputs) + ")" : std::string()) + ", got " +
           count_text(given, "file");
  };
  if (args.positional.size() > input_count) {
    error = wrong_count();
    return false;
  }
  std::vector<std::string> files(input_count);
  for (std::size_t k = 0; k < args.positional.size(); ++k) files[k] = args.positional[k];
  for (const auto& [name, path] : args.named) {
    std::size_t k = 0;
    while (k < input_count && graph.values[static_cast<std::size_t>(graph.inputs[k])].name != name) ++k;
    if (k == input_count) {
      error = "the model has no input named '" + printable(name) + "'" +
              (input_count ? " (its inputs: " + quoted_list(graph, graph.inputs) + ")" : " (it has no inputs)");
      return false;
    }
    if (!files[k].empty()) {
      error = "input '" + printable(name) + "' is given twice";
      return false;
    }
    files[k] = path;
  }
  if (require_all) {
    for (std::size_t k = 0; k < input_count; ++k) {
      if (!files[k].empty()) continue;
      if (args.named.empty()) {
        error = wrong_count();
      } else {
        const std::string name = printable(graph.values[static_cast<std::size_t>(graph.inputs[k])].name);
        error = "input '" + name + "' has no file (use --inputs or --input " + name + "=FILE)";
      }
      return false;
    }
  }

  for (std::size_t k = 0; k < input_count; ++k) {
    if (files[k].empty()) continue;
    const onnxmicro::model::Value& value = graph.values[static_cast<std::size_t>(graph.inputs[k])];
    const std::string name = printable(value.name);
    if (!is_supported_kind(value.type_kind)) {
      error = "input '" + name + "' is " + kind_name(value.type_kind) +
              ": unsupported, the runtime takes tensors, sequences of tensors and optionals";
      return false;
    }
    Type declared;
    if (!declared_type(model, value.name, /*output=*/false, declared)) declared = Type();
    HostTensor tensor;
    if (!read_value_file(files[k], declared, tensor, error)) {
      error = "input '" + name + "': " + error;
      return false;
    }
    if (value.dtype != onnxmicro::DataType::undefined && value.dtype != tensor.dtype) {
      error = "input '" + name + "': '" + files[k] + "' holds " + onnxmicro::dtype_name(tensor.dtype) +
              " data, the model declares " + onnxmicro::dtype_name(value.dtype);
      return false;
    }
    if (value.has_declared_shape) {
      bool matches = value.declared_rank == tensor.shape.rank();
      for (int i = 0; matches && i < value.declared_rank; ++i) {
        std::int64_t declared = value.declared_dims[i].value;
        if (declared >= 0 && declared != tensor.shape[i]) matches = false;
      }
      if (!matches) {
        error = "input '" + name + "': '" + files[k] + "' has shape " + format_shape(tensor.shape) +
                ", the model declares " + declared_shape_text(value);
        return false;
      }
    }
    out.shapes.push_back(onnxmicro::InputShape{value.name, tensor.shape});
    out.tensors.push_back(std::move(tensor));
  }
  return true;
}

bool check_output_kinds(const onnxmicro::Model& model, std::string& error) {
  const onnxmicro::model::Graph& graph = model.graph();
  for (onnxmicro::model::ValueId id : graph.outputs) {
    const onnxmicro::model::Value& value = graph.values[static_cast<std::size_t>(id)];
    if (is_supported_kind(value.type_kind)) continue;
    error = "output '" + printable(value.name) + "' is " + kind_name(value.type_kind) +
            ": unsupported, the runtime produces tensors, sequences of tensors and optionals";
    return false;
  }
  return true;
}

}  // namespace onnxmicro_cli

namespace onnxmicro_cli {

bool prepare_with_inputs(const std::string& model_path, const InputArgs& inputs, bool require_all, LoadedModel& loaded,
                         BoundInputs& bound, onnxmicro::Session& session, std::string& error) {
  return load_model(model_path, loaded, error) && bind_inputs(loaded.model, inputs, require_all, bound, error) &&
         (!require_all || check_output_kinds(loaded.model, error)) &&
         prepare_bound(loaded, bound, inputs, session, error);
}

namespace {

// A pool of `threads` for the sessions of this process (none for 1), made on first use and kept until exit.
onnxmicro::ThreadPool* thread_pool(int threads) {
  static std::map<int, std::unique_ptr<onnxmicro::StdThreadPool>> pools;
  if (threads <= 1) return nullptr;
  std::unique_ptr<onnxmicro::StdThreadPool>& pool = pools[threads];
  if (!pool) pool = std::make_unique<onnxmicro::StdThreadPool>(static_cast<std::size_t>(threads));
  return pool.get();
}

// One OpenCL backend per session this process prepares (each lives until exit), opened with the CLI's options.
bool use_opencl(const InputArgs& inputs, onnxmicro::SessionOptions& options, std::string& error) {
#if ONNXMICRO_CLI_HAS_OPENCL
  static_cast<void>(error);  // (an unusable device is reported by the placement or by prepare)
  auto& backends = opencl_backends();
  backends.push_back(std::make_unique<onnxmicro::opencl::Backend>());
  onnxmicro::opencl::Options opencl;
  opencl.device = inputs.opencl_device;
  const char* from_environment = std::getenv("ONNXMICRO_OPENCL_DEVICE");
  if (opencl.device.empty() && from_environment != nullptr) opencl.device = from_environment;
  opencl.cache_directory = inputs.opencl_cache;
  static_cast<void>(backends.back()->open(opencl));
  options.device = backends.back().get();
  options.device_policy =
      inputs.strict ? onnxmicro::DevicePolicy::device_strict : onnxmicro::DevicePolicy::prefer_device;
  return true;
#else
  static_cast<void>(inputs);
  static_cast<void>(options);
  error =
      "--device opencl: this onnxmicro was built without the OpenCL backend (CMake found no OpenCL: install "
      "ocl-icd-opencl-dev, opencl-clhpp-headers and an ICD such as pocl-opencl-icd, then rebuild)";
  return false;
#endif
}

}  // namespace

bool prepare_bound(LoadedModel& loaded, const BoundInputs& bound, const InputArgs& inputs, onnxmicro::Session& session,
                   std::string& error) {
  onnxmicro::SessionOptions options;
  options.input_shapes = onnxmicro::Span<const onnxmicro::InputShape>(bound.shapes.data(), bound.shapes.size());
  // Offer every value: the session binds only inputs that decide shapes (e.g. Reshape's shape).
  std::vector<onnxmicro::InputValue> values;
  for (std::size_t k = 0; k < bound.tensors.size(); ++k) {
    values.push_back(onnxmicro::InputValue{bound.shapes[k].name, bound.tensors[k].view()});
  }
  options.input_values = onnxmicro::Span<const onnxmicro::InputValue>(values.data(), values.size());
  options.size_optimized_kernels = inputs.optimize_for_size;
  options.fuse_activations = inputs.fuse_activations;
  options.winograd_convolutions = inputs.winograd;
  options.fuse_qdq = inputs.fuse_qdq;
  options.thread_pool = thread_pool(inputs.threads);
  if (inputs.device == "opencl" && !use_opencl(inputs, options, error)) return false;
  onnxmicro::Status status = session.prepare(loaded.model, onnxmicro::all_kernels_registry(), options);
  if (!status.ok()) {
    error = "cannot prepare '" + loaded.path + "': " + describe_status(status);
    return false;
  }
  return true;
}

}  // namespace onnxmicro_cli
