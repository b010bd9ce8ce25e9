// SPDX-License-Identifier: MIT
// onnxmicro: command-line tool to inspect, check and run ONNX models with the onnxmicro runtime.
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "cli_support.hpp"
#include "commands.hpp"

namespace onnxmicro_cli {

int usage_error(std::string_view command, std::string_view usage, const std::string& message) {
  print_error(message);
  std::cerr << usage << "\nTry 'onnxmicro " << command << " --help'.\n";
  return kExitUsage;
}

void split_option(const std::string& arg, std::string& name, std::string& value, bool& has_value) {
  std::size_t equals = arg.find('=');
  has_value = arg.rfind("--", 0) == 0 && equals != std::string::npos;
  name = has_value ? arg.substr(0, equals) : arg;
  value = has_value ? arg.substr(equals + 1) : std::string();
}

namespace {

constexpr const char kUsage[] = "usage: onnxmicro [--version] [--help] COMMAND [ARGS]";

constexpr const char kHelp[] =
    "usage: onnxmicro [--version] [--help] COMMAND [ARGS]\n"
    "\n"
    "Inspect, check and run ONNX models with the onnxmicro runtime.\n"
    "\n"
    "Commands:\n"
    "  inspect MODEL [--json]     IR version, producer, opsets, inputs/outputs, initializers,\n"
    "                             external data and an op histogram\n"
    "  check MODEL                exit 0 when this build has a kernel for every node, else list the\n"
    "                             unsupported nodes and exit 1\n"
    "  run MODEL --inputs FILE... run the model on .pb (TensorProto) or .npy inputs and write or\n"
    "                             print the outputs\n"
    "  plan MODEL [--inputs FILE...] [--svg FILE]\n"
    "                             print the arena plan and the model's metadata bytes; --svg: draw\n"
    "                             the arena (steps across, offsets up, a box per buffer)\n"
    "  kernels MODEL [--name NAME] [-o FILE]\n"
    "                             write a C++ header with the exact kernel set and planned buffer\n"
    "                             sizes MODEL needs, for a firmware build\n"
    "  bench MODEL [--runs R] [--warmup W] [--json]\n"
    "                             time load, prepare and runs (median, p10, p90) on given or random\n"
    "                             inputs; arena, metadata and peak memory; a per-node profile\n"
    "  compare MODEL --inputs FILE... --expected FILE... [--rtol R] [--atol A] [--layerwise]\n"
    "                             run the model and compare its outputs with reference files (exit 1\n"
    "                             beyond tolerance); --layerwise: fused vs as written, node by node\n"
    "  graph MODEL [--format dot|svg] [-o FILE]\n"
    "                             draw the graph (Graphviz DOT, or SVG through 'dot'): shapes and\n"
    "                             dtypes on edges, fused nodes boxed, subgraphs as clusters\n"
    "\n"
    "Options:\n"
    "  -h, --help                 show this help (onnxmicro COMMAND --help: help for a command)\n"
    "  --version                  print the version and the instruction set kernels use here\n"
    "\n"
    "Exit status: 0 success, 1 failure (the message says why), 2 wrong command line.\n";

// The instruction set sessions choose in this process (core/isa.hpp): the CPU's best, capped by ONNXMICRO_MAX_ISA.
bool print_isa() {
  onnxmicro::Isa isa = onnxmicro::Isa::baseline, cap = onnxmicro::Isa::best;
  if (!onnxmicro::effective_isa(onnxmicro::Isa::best, isa) || !onnxmicro::isa_cap_from_environment(cap)) {
    print_error(
        "environment variable ONNXMICRO_MAX_ISA is not an instruction set: expected sse2, avx2, avx512 or best");
    return false;
  }
  const onnxmicro::Isa detected = onnxmicro::detected_isa();
  std::cout << "isa: " << onnxmicro::isa_name(isa) << " (this CPU: " << onnxmicro::isa_name(detected);
  if (cap != onnxmicro::Isa::best) std::cout << "; capped by ONNXMICRO_MAX_ISA=" << onnxmicro::isa_name(cap);
  std::cout << ")\n";
  const onnxmicro::Isa conv_isa = onnxmicro::kernels::gemm::convolution_isa(isa);
  if (conv_isa != isa) {
    std::cout << "float convolutions: " << onnxmicro::isa_name(conv_isa)
              << " tiles (this CPU splits 512-bit operations; ONNXMICRO_SPLIT_512=0 overrides)\n";
  }
  return true;
}

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    print_error("no command given");
    std::cerr << kUsage << "\nTry 'onnxmicro --help'.\n";
    return kExitUsage;
  }
  std::string command = argv[1];
  Args rest(argv + 2, argv + argc);
  if (is_help_flag(command)) {
    std::cout << kHelp;
    return kExitSuccess;
  }
  if (command == "--version") {
    const onnxmicro::Version v = onnxmicro::version();
    std::cout << "onnxmicro " << v.major << '.' << v.minor << '.' << v.patch << '\n';
    return print_isa() ? kExitSuccess : kExitFailure;
  }
  if (command == "inspect") return inspect_command(rest);
  if (command == "check") return check_command(rest);
  if (command == "run") return run_command(rest);
  if (command == "plan") return plan_command(rest);
  if (command == "kernels") return kernels_command(rest);
  if (command == "bench") return bench_command(rest);
  if (command == "compare") return compare_command(rest);
  if (command == "graph") return graph_command(rest);
  print_error(command.rfind("-", 0) == 0 ? "unknown option '" + printable(command) + "'"
                                         : "unknown command '" + printable(command) + "'");
  std::cerr << kUsage << "\nTry 'onnxmicro --help'.\n";
  return kExitUsage;
}

}  // namespace
}  // namespace onnxmicro_cli

int main(int argc, char** argv) {
  // The library reports errors as Status values; only the CLI's own std containers can throw (allocation).
  // Builds without exceptions (-fno-exceptions) abort on allocation failure instead.
#if defined(__cpp_exceptions) || defined(_CPPUNWIND)
  try {
#endif
    int code = onnxmicro_cli::dispatch(argc, argv);
    std::cout.flush();
    if (!std::cout) {
      onnxmicro_cli::print_error("cannot write to standard output");
      return onnxmicro_cli::kExitFailure;
    }
    return code;
#if defined(__cpp_exceptions) || defined(_CPPUNWIND)
  } catch (const std::bad_alloc&) {
    onnxmicro_cli::print_error("out of memory");
  } catch (const std::exception& e) {
    onnxmicro_cli::print_error(e.what());
  }
  return onnxmicro_cli::kExitFailure;
#endif
}
