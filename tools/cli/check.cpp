// SPDX-License-Identifier: MIT
// `onnxmicro check MODEL`: does this build have a kernel for every node of the model?
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "inputs.hpp"
#include "kernel_report.hpp"

namespace onnxmicro_cli {
namespace {

constexpr const char kUsage[] =
    "usage: onnxmicro check MODEL [--device opencl [--opencl-device SEL] [--opencl-cache DIR]]";
constexpr const char kHelp[] =
    "usage: onnxmicro check MODEL [--device opencl [--opencl-device SEL] [--opencl-cache DIR]]\n"
    "\n"
    "Checks that this build has a kernel for every node of MODEL (subgraphs included), for the op and the\n"
    "opset version the model imports for the node's domain. Exits 0 when it has; otherwise lists each\n"
    "unsupported node with the opset ranges [since,until) this build provides for its op (or none), then a\n"
    "summary per missing op, and exits 1.\n"
    "With --device opencl it then prepares MODEL (at its declared input shapes) for the OpenCL device and\n"
    "lists every node that would fall back to the CPU with the reason; exits 1 when there is one.\n"
    "\n"
    "Options:\n"
    "  --device cpu|opencl  also check placement on the OpenCL device (default cpu: kernels only)\n"
    "  --opencl-device SEL  the device: N, P:D or a name substring (default: ONNXMICRO_OPENCL_DEVICE, else\n"
    "                       the first GPU, else the first device)\n"
    "  --opencl-cache DIR   cache compiled OpenCL programs in DIR\n"
    "  -h, --help           show this help\n";

struct MissingKey {
  std::string domain;
  std::string op_type;
  std::int64_t version;
  bool operator<(const MissingKey& o) const {
    return std::tie(domain, op_type, version) < std::tie(o.domain, o.op_type, o.version);
  }
};

std::string plural(std::uint64_t count, const char* noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

// Which nodes would fall back from the OpenCL device, and why (exit 1 when any).
int check_placement(const std::string& model_path, const InputArgs& inputs) {
  auto loaded = std::make_unique<LoadedModel>();
  BoundInputs bound;
  onnxmicro::Session session;
  std::string error;
  if (!prepare_with_inputs(model_path, inputs, /*require_all=*/false, *loaded, bound, session, error)) {
    print_error(error);
    return kExitFailure;
  }
  std::uint64_t fallbacks = 0;
  for (std::size_t i = 0; i < session.node_reports().size(); ++i) {
    const onnxmicro::NodeReport& r = session.node_reports()[i];
    if (!r.fallback) continue;
    ++fallbacks;
    std::cout << "falls back to the CPU: node '" << printable(r.node->name) << "' (" << printable(r.node->op_type)
              << "): " << printable(session.placement_reason(i)) << '\n';
  }
  print_placement(std::cout, session, inputs, /*per_node=*/false);
  if (fallbacks == 0) {
    std::cout << "ok: every node runs on opencl, is folded at prepare or is shape arithmetic\n";
    return kExitSuccess;
  }
  std::cout << plural(fallbacks, "node") << " would fall back to the CPU\n";
  return kExitFailure;
}

}  // namespace

int check_command(const Args& args) {
  std::string model_path;
  for (const std::string& arg : args) {
    if (is_help_flag(arg)) {
      std::cout << kHelp;
      return kExitSuccess;
    }
  }
  InputArgs inputs;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string error;
    const OptionResult device = parse_device_option(args, i, inputs, error);
    if (device == OptionResult::error) return usage_error("check", kUsage, error);
    if (device == OptionResult::consumed) continue;
    if (arg.rfind("-", 0) == 0 && arg.size() > 1) {
      return usage_error("check", kUsage, "unknown option '" + printable(arg) + "' for 'check'");
    }
    if (!model_path.empty()) {
      return usage_error("check", kUsage, "unexpected argument '" + printable(arg) + "' (one MODEL only)");
    }
    model_path = arg;
  }
  if (inputs.strict) return usage_error("check", kUsage, "--strict is for run, plan and bench");
  if (model_path.empty()) return usage_error("check", kUsage, "missing MODEL");

  auto loaded = std::make_unique<LoadedModel>();
  std::string error;
  if (!load_model(model_path, *loaded, error)) {
    print_error(error);
    return kExitFailure;
  }

  const onnxmicro::KernelRegistry registry = onnxmicro::all_kernels_registry();
  std::uint64_t node_count = 0;
  std::uint64_t unsupported_count = 0;
  std::map<MissingKey, std::uint64_t> missing;
  std::set<std::pair<std::string, std::string>> distinct_ops;
  for_each_node(loaded->model, [&](const NodeVisit& visit) {
    ++node_count;
    std::string op_type(visit.node->op_type);
    distinct_ops.emplace(visit.domain, op_type);
    if (onnxmicro::find_kernel(registry, visit.domain, op_type, visit.opset_version) != nullptr) return;
    ++unsupported_count;
    ++missing[MissingKey{visit.domain, op_type, visit.opset_version}];
    std::cout << "unsupported node '" << printable(visit.label) << "' (" << printable(op_type) << ", domain "
              << printable(display_domain(visit.domain)) << ", opset " << visit.opset_version
              << "); kernels in this build: " << kernel_version_ranges(registry, visit.domain, op_type) << '\n';
  });

  if (unsupported_count == 0) {
    std::cout << "ok: every node has a kernel in this build (" << plural(node_count, "node") << ", "
              << plural(distinct_ops.size(), "distinct op") << ")\n";
    return inputs.device == "opencl" ? check_placement(model_path, inputs) : kExitSuccess;
  }
  std::cout << unsupported_count << " of " << plural(node_count, "node") << " have no kernel in this build:\n";
  for (const auto& [key, count] : missing) {
    std::cout << "  " << printable(display_domain(key.domain)) << ':' << printable(key.op_type) << '@' << key.version
              << ": " << plural(count, "node")
              << "; kernels in this build: " << kernel_version_ranges(registry, key.domain, key.op_type) << '\n';
  }
  return kExitFailure;
}

}  // namespace onnxmicro_cli
