// SPDX-License-Identifier: MIT
// Model inputs from the command line (--inputs FILE..., --input NAME=FILE), read and checked against the
// model's declared graph inputs, and the command line `run`, `plan` and `kernels` share.
#pragma once
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "tensor_io.hpp"

namespace onnxmicro_cli {

/// Input files named on the command line.
struct InputArgs {
  std::vector<std::string> positional;                     ///< --inputs: k-th file for the k-th graph input
  std::vector<std::pair<std::string, std::string>> named;  ///< --input NAME=FILE
  /// --optimize-for-size: prepare with SessionOptions::size_optimized_kernels, the plan of a build with
  /// ONNXMICRO_OPTIMIZE_FOR_SIZE=1.
  bool optimize_for_size = false;
  /// SessionOptions::fuse_activations (`kernels` turns it off: a firmware without fast paths runs every node).
  bool fuse_activations = true;
  /// SessionOptions::winograd_convolutions (--no-winograd: false; `kernels` turns it off, as a firmware has none).
  bool winograd = true;
  /// SessionOptions::fuse_qdq (`compare --layerwise` turns it off for its as-written run).
  bool fuse_qdq = true;
  /// --threads N: prepare with a std::thread pool of N threads (SessionOptions::thread_pool); 1: none.
  int threads = 1;
  /// --device cpu|opencl, --strict, --opencl-device SEL, --opencl-cache DIR (SessionOptions::device_policy).
  std::string device = "cpu";
  bool strict = false;
  std::string opencl_device;  ///< empty: ONNXMICRO_OPENCL_DEVICE, else the first GPU, else the first device
  std::string opencl_cache;
  bool empty() const noexcept { return positional.empty() && named.empty(); }
};

enum class OptionResult { not_mine, consumed, error };

/// The option that plans and runs with the size-optimised kernel choices, and its help line.
inline constexpr const char kOptimizeForSizeOption[] = "--optimize-for-size";
inline constexpr const char kNoWinogradOption[] = "--no-winograd";
#define ONNXMICRO_CLI_OPTIMIZE_FOR_SIZE_HELP                                                                 \
  "  --optimize-for-size  plan (and run) as a build with ONNXMICRO_OPTIMIZE_FOR_SIZE=1 does: Conv without\n" \
  "                       im2col scratch, Gemm reading a transposed B in place (SessionOptions::\n"          \
  "                       size_optimized_kernels)\n"                                                         \
  "  --no-winograd        run 3x3 Convs in the plain order of products, not as Winograd F(2x2,3x3), which\n" \
  "                       rounds differently (SessionOptions::winograd_convolutions)\n"

/// The option that runs the kernels on a pool of N threads, its limit, and its help line.
inline constexpr const char kThreadsOption[] = "--threads";
inline constexpr int kMaxThreads = 1024;
#define ONNXMICRO_CLI_THREADS_HELP                                                                           \
  "  --threads N          split the kernels' work over N threads (a std::thread pool; default 1); outputs\n" \
  "                       are the same bits for any N\n"

/// Parses --threads N (or --threads=N) at args[i] into out.threads; not_mine for other options.
OptionResult parse_threads_option(const Args& args, std::size_t& i, InputArgs& out, std::string& error);

/// The options that place nodes on an OpenCL device, and their help lines.
#define ONNXMICRO_CLI_DEVICE_HELP                                                                           \
  "  --device cpu|opencl  where nodes run (default cpu); opencl: every node the OpenCL backend supports,\n" \
  "                       the rest on the CPU, each fallback reported with its reason\n"                    \
  "  --strict             with --device opencl: fail instead of falling back, listing every such node\n"    \
  "  --opencl-device SEL  the device: N, P:D or a name substring (default: ONNXMICRO_OPENCL_DEVICE, else\n" \
  "                       the first GPU, else the first device)\n"                                          \
  "  --opencl-cache DIR   cache compiled OpenCL programs in DIR\n"
#define ONNXMICRO_CLI_DEVICE_USAGE "[--device cpu|opencl [--strict] [--opencl-device SEL] [--opencl-cache DIR]]"

/// Parses --device, --strict, --opencl-device and --opencl-cache at args[i]; not_mine for other options.
OptionResult parse_device_option(const Args& args, std::size_t& i, InputArgs& out, std::string& error);

/// The placement report of a session prepared with --device opencl: one summary line, and with `per_node` every
/// node's placement and reason and every transfer. Nothing for --device cpu.
void print_placement(std::ostream& out, const onnxmicro::Session& session, const InputArgs& inputs, bool per_node);

/// Parses --inputs / --input starting at args[i]; on `consumed`, i is the last argument used. On `error`,
/// `error` says what is wrong with the command line.
OptionResult parse_input_option(const Args& args, std::size_t& i, InputArgs& out, std::string& error);

/// A command's own options: given args[i], it returns consumed (i on the last argument it used), error (`error`
/// says what is wrong) or not_mine.
using OwnOption = std::function<OptionResult(const Args& args, std::size_t& i, std::string& error)>;

/// The command line `run`, `plan` and `kernels` share: -h/--help anywhere prints `help`; --inputs/--input and
/// --optimize-for-size;
/// `own_option` next; then one MODEL, anything else starting with '-' being an unknown option. Returns -1 when
/// the command goes on with `model_path` and `inputs`, else the exit code to return (usage errors printed).
int parse_model_command_line(const Args& args, std::string_view command, std::string_view usage, std::string_view help,
                             const OwnOption& own_option, std::string& model_path, InputArgs& inputs);

/// Input tensors read from files, in the order they were bound.
struct BoundInputs {
  std::vector<HostTensor> tensors;
  /// Shapes for SessionOptions::input_shapes; names point into the model bytes.
  std::vector<onnxmicro::InputShape> shapes;
};

/// Reads the files of `args` and checks each against its graph input (kind, dtype, declared dims).
/// With `require_all`, every graph input (those that are not initializers) must get exactly one file.
bool bind_inputs(const onnxmicro::Model& model, const InputArgs& args, bool require_all, BoundInputs& out,
                 std::string& error);

/// Fails with an "unsupported" message when a graph output is a sequence, optional or map, which the
/// runtime cannot produce yet.
bool check_output_kinds(const onnxmicro::Model& model, std::string& error);

/// Loads `model_path` into `loaded`, binds the input files (their shapes, and their values for inputs that
/// decide shapes, e.g. a Reshape's shape) and prepares `session` with every kernel of this build. Without input
/// files the declared input shapes are used. With `require_all` (to run), every graph input needs a file and the
/// outputs must be kinds the runtime produces.
bool prepare_with_inputs(const std::string& model_path, const InputArgs& inputs, bool require_all, LoadedModel& loaded,
                         BoundInputs& bound, onnxmicro::Session& session, std::string& error);

/// Prepares `session` for the loaded model with every kernel of this build: `bound`'s shapes are bound and its values
/// offered (the session keeps those of inputs that decide shapes); `inputs` gives --optimize-for-size, whether
/// activations fuse and the threads (a pool that lives until the program exits).
bool prepare_bound(LoadedModel& loaded, const BoundInputs& bound, const InputArgs& inputs, onnxmicro::Session& session,
                   std::string& error);

/// "[batch,3,224,224]" for a declared shape, "?" for unnamed unknown dims.
std::string declared_shape_text(const onnxmicro::model::Value& value);

}  // namespace onnxmicro_cli
