// SPDX-License-Identifier: MIT
// `onnxmicro plan MODEL [--inputs ...]`: the arena plan a session makes for the model, and metadata sizes.
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "inputs.hpp"
#include "json_writer.hpp"
#include "plan_svg.hpp"

namespace onnxmicro_cli {
namespace {

constexpr const char kUsage[] =
    "usage: onnxmicro plan MODEL [--inputs FILE...] [--input NAME=FILE]... [--optimize-for-size] [--threads "
    "N] " ONNXMICRO_CLI_DEVICE_USAGE " [--json] [--svg FILE]";
constexpr const char kHelp[] =
    "usage: onnxmicro plan MODEL [--inputs FILE...] [--input NAME=FILE]... [--optimize-for-size] [--threads "
    "N] " ONNXMICRO_CLI_DEVICE_USAGE
    " [--json] [--svg FILE]\n"
    "\n"
    "Prepares a session for MODEL and prints the memory it needs: the model's metadata bytes (graph\n"
    "tables), the session's metadata bytes (kernel state, folded constants), required_arena_bytes, the\n"
    "plan's arena_bytes and lower_bound_bytes (the most bytes live at one step), and every arena buffer with\n"
    "its size, offset and lifetime (the first and last execution step that use it). Input files (as for\n"
    "'run') bind symbolic input dims; without them the declared\n"
    "input shapes are used.\n"
    "It lists the Relu/Clip nodes folded into the Conv before them (fused_activations), and the nodes whose\n"
    "kernels round differently from the op's plain order (rounding_differs: Winograd convs). For quantized (QDQ)\n"
    "models it also lists every op that reads a DequantizeLinear output: whether it\n"
    "runs as an integer kernel (and which) or in float (and why).\n"
    "With --device opencl it prints where each node runs (opencl, cpu, folded) and why a node falls back,\n"
    "and every tensor that crosses between host and device in a run (direction, bytes); --json prints the\n"
    "memory figures and that placement report as one JSON object.\n"
    "\n"
    "Options:\n"
    "  --inputs FILE...     one file per graph input, in graph order\n"
    "  --input NAME=FILE    the file for the input called NAME\n" ONNXMICRO_CLI_OPTIMIZE_FOR_SIZE_HELP
        ONNXMICRO_CLI_THREADS_HELP
    "                       (the arena holds one im2col buffer per thread)\n" ONNXMICRO_CLI_DEVICE_HELP
    "  --json               print the plan and the placement report as JSON\n"
    "  --svg FILE           also draw the arena as an SVG picture in FILE: execution steps across, offsets up,\n"
    "                       one rectangle per buffer (hover for its tensor, bytes, offset and steps)\n"
    "  -h, --help           show this help\n";

// The nodes activation fusion folded into the op before them (SessionOptions::fuse_activations), one fused node a
// line.
void print_fused_activations(std::ostream& out, const onnxmicro::Session& session) {
  const onnxmicro::Span<const onnxmicro::NodeReport> reports = session.node_reports();
  std::size_t count = 0;
  for (std::size_t i = 0; i < reports.size(); ++i) count += session.fused_nodes(i).empty() ? 0 : 1;
  if (count == 0) return;
  out << "fused_activations: " << count << '\n';
  for (std::size_t i = 0; i < reports.size(); ++i) {
    if (session.fused_nodes(i).empty()) continue;
    out << "  " << reports[i].node->op_type << " '" << printable(reports[i].node->name) << "'";
    for (const onnxmicro::model::Node* node : session.fused_nodes(i))
      out << " + " << node->op_type << " '" << printable(node->name) << "'";
    out << '\n';
  }
}

// The nodes whose kernels round differently from the op's plain order (NodeReport::rounding), one a line.
void print_rounding(std::ostream& out, const onnxmicro::Session& session) {
  const onnxmicro::Span<const onnxmicro::NodeReport> reports = session.node_reports();
  std::size_t count = 0;
  for (const onnxmicro::NodeReport& r : reports) count += r.rounding != nullptr ? 1 : 0;
  if (count == 0) return;
  out << "rounding_differs: " << count << " (--no-winograd: plain order)\n";
  for (const onnxmicro::NodeReport& r : reports) {
    if (r.rounding == nullptr) continue;
    out << "  " << r.node->op_type << " '" << printable(r.node->name) << "': " << r.rounding << '\n';
  }
}

// The plan's figures and the placement report (each node: name, op, placement, fallback, reason; each transfer:
// tensor, direction, bytes) as one JSON object.
void print_json(std::ostream& out, const std::string& model_path, const onnxmicro::Session& session,
                const InputArgs& inputs) {
  JsonWriter json(out);
  json.begin_object();
  json.key("model");
  json.value(model_path);
  json.key("device");
  json.value(inputs.device);
  json.key("strict");
  json.value(inputs.strict);
  json.key("threads");
  json.value(static_cast<std::uint64_t>(session.thread_count()));
  json.key("required_arena_bytes");
  json.value(static_cast<std::uint64_t>(session.required_arena_bytes()));
  json.key("session_metadata_bytes");
  json.value(static_cast<std::uint64_t>(session.metadata_bytes()));
  json.key("nodes");
  json.begin_array();
  for (std::size_t i = 0; i < session.node_reports().size(); ++i) {
    const onnxmicro::NodeReport& r = session.node_reports()[i];
    json.begin_object(/*compact=*/true);
    json.key("name");
    json.value(r.node->name);
    json.key("op");
    json.value(r.node->op_type);
    json.key("placement");
    json.value(r.folded ? "folded" : onnxmicro::placement_name(r.placement));
    json.key("fallback");
    json.value(r.fallback);
    json.key("reason");
    json.value(session.placement_reason(i));
    json.end_object();
  }
  json.end_array();
  json.key("transfers");
  json.begin_array();
  for (const onnxmicro::TransferReport& t : session.transfers()) {
    json.begin_object(/*compact=*/true);
    json.key("tensor");
    json.value(t.tensor);
    json.key("direction");
    json.value(onnxmicro::transfer_direction_name(t.direction));
    json.key("bytes");
    json.value(static_cast<std::uint64_t>(t.bytes));
    json.end_object();
  }
  json.end_array();
  json.end_object();
  json.finish();
}

}  // namespace

int plan_command(const Args& args) {
  std::string model_path;
  InputArgs inputs;
  bool as_json = false;
  std::string svg_path;
  const int exit_code = parse_model_command_line(
      args, "plan", kUsage, kHelp,
      [&](const Args& all, std::size_t& i, std::string& error) {
        if (all[i] == "--svg") {
          if (i + 1 >= all.size()) {
            error = "--svg needs FILE";
            return OptionResult::error;
          }
          svg_path = all[++i];
          return OptionResult::consumed;
        }
        if (all[i] != "--json") return parse_threads_option(all, i, inputs, error);
        as_json = true;
        return OptionResult::consumed;
      },
      model_path, inputs);
  if (exit_code >= 0) return exit_code;

  std::string error;
  auto loaded = std::make_unique<LoadedModel>();
  BoundInputs bound;
  onnxmicro::Session session;
  if (!prepare_with_inputs(model_path, inputs, /*require_all=*/false, *loaded, bound, session, error)) {
    print_error(error);
    return kExitFailure;
  }
  if (!svg_path.empty()) {
    const std::string svg = plan_svg(session, "onnxmicro plan " + printable(model_path));
    if (!write_file(svg_path, std::vector<unsigned char>(svg.begin(), svg.end()), error)) {
      print_error(error);
      return kExitFailure;
    }
  }

  if (as_json) {
    print_json(std::cout, model_path, session, inputs);
    return kExitSuccess;
  }
  const onnxmicro::MemoryPlan& plan = session.plan();
  std::ostream& out = std::cout;
  out << "model: " << printable(model_path) << '\n';
  out << "threads: " << session.thread_count() << '\n';
  out << "metadata_bytes: " << loaded->model.metadata_bytes() << '\n';
  out << "session_metadata_bytes: " << session.metadata_bytes() << '\n';
  out << "required_arena_bytes: " << session.required_arena_bytes() << '\n';
  out << "arena_bytes: " << plan.arena_bytes << '\n';
  out << "lower_bound_bytes: " << plan.lower_bound_bytes << '\n';
  out << "buffers: " << plan.buffers.size() << '\n';
  if (!plan.buffers.empty()) {
    out << "  " << std::setw(6) << "buffer" << std::setw(14) << "size" << std::setw(14) << "offset"
        << "  lifetime (steps)\n";
    for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
      const onnxmicro::PlannedBuffer& b = plan.buffers[i];
      out << "  " << std::setw(6) << i << std::setw(14) << b.size << std::setw(14) << b.offset << "  " << b.first_use
          << ".." << b.last_use << '\n';
    }
  }
  print_fused_activations(out, session);
  print_rounding(out, session);
  print_placement(out, session, inputs, /*per_node=*/true);
  const onnxmicro::Span<const onnxmicro::QuantizedNodeReport> quantized = session.quantized_nodes();
  if (!quantized.empty()) {
    std::size_t integer = 0;
    for (const onnxmicro::QuantizedNodeReport& r : quantized) integer += r.integer ? 1 : 0;
    out << "quantized_ops: " << quantized.size() << " (" << integer << " integer, " << quantized.size() - integer
        << " float)\n";
    for (const onnxmicro::QuantizedNodeReport& r : quantized) {
      out << "  " << (r.integer ? "integer " : "float   ") << r.node->op_type << " '" << printable(r.node->name) << "'";
      if (r.integer) {
        out << " -> " << r.kernel << '\n';
      } else {
        out << ": " << r.reason << '\n';
      }
    }
  }
  return kExitSuccess;
}

}  // namespace onnxmicro_cli
