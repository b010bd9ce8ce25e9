// SPDX-License-Identifier: MIT
// `onnxmicro run MODEL --inputs IN_0.pb ... [--output-dir DIR] [--print]`: one inference from files.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "inputs.hpp"
#include "tensor_io.hpp"

namespace onnxmicro_cli {
namespace {

constexpr const char kUsage[] =
    "usage: onnxmicro run MODEL [--inputs FILE...] [--input NAME=FILE]... [--optimize-for-size] [--threads "
    "N] " ONNXMICRO_CLI_DEVICE_USAGE " [--output-dir DIR] [--print]";
constexpr const char kHelp[] =
    "usage: onnxmicro run MODEL [--inputs FILE...] [--input NAME=FILE]... [--optimize-for-size] [--threads "
    "N] " ONNXMICRO_CLI_DEVICE_USAGE
    " [--output-dir DIR] [--print]\n"
    "\n"
    "Runs MODEL once with this build's kernels. Each input file is a serialized onnx TensorProto (.pb, as\n"
    "in the ONNX test data) or a NumPy .npy array (little-endian f4 f8 f2 i8 i4 i2 i1 u1 u2 u4 u8 b1, C\n"
    "order); its shape binds the input's symbolic dims.\n"
    "\n"
    "Options:\n"
    "  --inputs FILE...     one file per graph input that is not an initializer, in graph order\n"
    "  --input NAME=FILE    the file for the input called NAME (may be repeated, mixed with --inputs)\n"
    "  --output-dir DIR     write DIR/output_0.pb, output_1.pb, ... (TensorProto with dims, data_type,\n"
    "                       name = the graph output name, raw_data), in graph-output order; DIR is created\n"
    "  --print              print each output: name, dtype, shape and the first 20 values\n"
    "  --print-all          print every value\n" ONNXMICRO_CLI_OPTIMIZE_FOR_SIZE_HELP ONNXMICRO_CLI_THREADS_HELP
        ONNXMICRO_CLI_DEVICE_HELP
    "  -h, --help           show this help\n"
    "Without --output-dir, the outputs are printed. With --device opencl, the placement summary (nodes per\n"
    "device, fallbacks with their reasons, transfers) goes to stderr.\n"
    "\n"
    "Sequence and optional inputs/outputs (SequenceProto/OptionalProto files) are not supported yet.\n";

constexpr std::size_t kPrintedValues = 20;

}  // namespace

int run_command(const Args& args) {
  std::string model_path;
  std::string output_dir;
  bool print = false;
  bool print_all = false;
  InputArgs inputs;
  auto own_option = [&](const Args& all, std::size_t& i, std::string& error) {
    std::string name, value;
    bool has_value = false;
    split_option(all[i], name, value, has_value);
    const OptionResult threads = parse_threads_option(all, i, inputs, error);
    if (threads != OptionResult::not_mine) return threads;
    if (name == "--output-dir") {
      if (!has_value && i + 1 < all.size()) value = all[++i];
      if (value.empty()) {
        error = "--output-dir needs DIR";
        return OptionResult::error;
      }
      output_dir = value;
    } else if (all[i] == "--print") {
      print = true;
    } else if (all[i] == "--print-all") {
      print = print_all = true;
    } else {
      return OptionResult::not_mine;
    }
    return OptionResult::consumed;
  };
  const int exit_code = parse_model_command_line(args, "run", kUsage, kHelp, own_option, model_path, inputs);
  if (exit_code >= 0) return exit_code;
  if (output_dir.empty()) print = true;

  std::string error;
  auto loaded = std::make_unique<LoadedModel>();
  BoundInputs bound;
  onnxmicro::Session session;
  if (!prepare_with_inputs(model_path, inputs, /*require_all=*/true, *loaded, bound, session, error)) {
    print_error(error);
    return kExitFailure;
  }
  print_placement(std::cerr, session, inputs, /*per_node=*/false);
  onnxmicro::Status status;
  for (std::size_t k = 0; k < bound.tensors.size(); ++k) {
    status = session.set_input(bound.shapes[k].name, bound.tensors[k].view());
    if (!status.ok()) {
      print_error("cannot set input '" + printable(bound.shapes[k].name) + "': " + describe_status(status));
      return kExitFailure;
    }
  }
  status = session.run();
  if (!status.ok()) {
    print_error("run failed: " + describe_status(status));
    return kExitFailure;
  }

  const std::size_t output_count = session.output_count();
  if (!output_dir.empty()) {
    if (!make_directories(output_dir, error)) {
      print_error(error);
      return kExitFailure;
    }
    for (std::size_t i = 0; i < output_count; ++i) {
      std::vector<unsigned char> bytes;
      const std::string path = output_dir + "/output_" + std::to_string(i) + ".pb";
      if (!encode_tensor_proto(std::string(session.output_name(i)), session.output(i), bytes, error) ||
          !write_file(path, bytes, error)) {
        print_error(error);
        return kExitFailure;
      }
    }
  }
  if (print) {
    for (std::size_t i = 0; i < output_count; ++i) {
      print_tensor(std::cout, std::string(session.output_name(i)), session.output(i), print_all ? 0 : kPrintedValues);
    }
  }
  return kExitSuccess;
}

}  // namespace onnxmicro_cli
