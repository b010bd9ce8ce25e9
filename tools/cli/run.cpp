// SPDX-License-Identifier: MIT
// `onnxmicro run MODEL --inputs IN_0.pb ... [--output-dir DIR] [--print]`: one inference from files.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "dump.hpp"
#include "inputs.hpp"
#include "tensor_io.hpp"
#include "value_io.hpp"

namespace onnxmicro_cli {
namespace {

constexpr const char kUsage[] =
    "usage: onnxmicro run MODEL [--inputs FILE...] [--input NAME=FILE]... [--optimize-for-size] [--threads "
    "N] " ONNXMICRO_CLI_DEVICE_USAGE " [--output-dir DIR] [--print] [--dump DIR]";
constexpr const char kHelp[] =
    "usage: onnxmicro run MODEL [--inputs FILE...] [--input NAME=FILE]... [--optimize-for-size] [--threads "
    "N] " ONNXMICRO_CLI_DEVICE_USAGE
    " [--output-dir DIR] [--print] [--dump DIR]\n"
    "\n"
    "Runs MODEL once with this build's kernels. Each input file is what the ONNX test data holds for the\n"
    "input's kind: a serialized onnx TensorProto (.pb; numeric or string tensors) or a NumPy .npy array\n"
    "(little-endian f4 f8 f2 i8 i4 i2 i1 u1 u2 u4 u8 b1, strings as Un or Sn, C order) for a tensor, a\n"
    "SequenceProto for a sequence of tensors, an OptionalProto for an optional (of a tensor or a sequence).\n"
    "Its shape binds the input's symbolic dims.\n"
    "\n"
    "Options:\n"
    "  --inputs FILE...     one file per graph input that is not an initializer, in graph order\n"
    "  --input NAME=FILE    the file for the input called NAME (may be repeated, mixed with --inputs)\n"
    "  --output-dir DIR     write DIR/output_0.pb, output_1.pb, ... in graph-output order (TensorProto with\n"
    "                       dims, data_type, name = the graph output name, raw_data or string_data;\n"
    "                       SequenceProto or OptionalProto for those kinds); DIR is created\n"
    "  --dump DIR           write every intermediate tensor (each node's outputs, folded constants) to\n"
    "                       DIR/NNNN_<name>.npy (.pb for dtypes NumPy lacks) and DIR/index.json mapping\n"
    "                       each tensor to its file, producing node, op, dtype and shape\n"
    "  --print              print each output: name, dtype, shape and the first 20 values\n"
    "  --print-all          print every value\n" ONNXMICRO_CLI_OPTIMIZE_FOR_SIZE_HELP ONNXMICRO_CLI_THREADS_HELP
        ONNXMICRO_CLI_DEVICE_HELP
    "  -h, --help           show this help\n"
    "Without --output-dir, the outputs are printed. With --device opencl, the placement summary (nodes per\n"
    "device, fallbacks with their reasons, transfers) goes to stderr.\n";

constexpr std::size_t kPrintedValues = 20;

}  // namespace

int run_command(const Args& args) {
  std::string model_path;
  std::string output_dir;
  std::string dump_dir;
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
    } else if (name == "--dump") {
      if (!has_value && i + 1 < all.size()) value = all[++i];
      if (value.empty()) {
        error = "--dump needs DIR";
        return OptionResult::error;
      }
      dump_dir = value;
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
  IntermediateDump dump;  // --dump: the session's node observer for the run (dump.hpp)
  if (!dump_dir.empty() && !dump.begin(session, dump_dir, error)) {
    print_error(error);
    return kExitFailure;
  }
  // run(inputs) binds every kind of input: tensors are copied into the arena, sequences and optionals (values
  // the session binds at prepare) are checked to be the values it was prepared with.
  std::vector<onnxmicro::InputValue> values;
  for (std::size_t k = 0; k < bound.tensors.size(); ++k) {
    values.push_back(onnxmicro::InputValue{bound.shapes[k].name, bound.tensors[k].view()});
  }
  const onnxmicro::Status status =
      session.run(onnxmicro::Span<const onnxmicro::InputValue>(values.data(), values.size()));
  if (!status.ok()) {
    print_error("run failed: " + describe_status(status));
    return kExitFailure;
  }
  if (!dump_dir.empty() && !dump.finish(error)) {
    print_error(error);
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
      const std::string name(session.output_name(i));
      onnxmicro::proto::Type declared;
      const bool has_declared = declared_type(loaded->model, name, /*output=*/true, declared);
      if (!encode_value_proto(name, session.output(i), has_declared ? &declared : nullptr, bytes, error) ||
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
