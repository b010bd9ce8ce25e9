// SPDX-License-Identifier: MIT
// `onnxmicro plan --svg FILE`: the arena plan as an SVG picture (see plan_svg.hpp).
#include "plan_svg.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "markup.hpp"

namespace onnxmicro_cli {
namespace {

namespace model = onnxmicro::model;

// Replays the session's buffer assignment (runtime/lifetimes.hpp, assign_buffers): graph inputs not bound at
// prepare, then per node that runs its outputs (output 0 in its dying input's buffer when the kernel works in
// place) and its scratch. Every step is checked against the plan (first step, size), so a replay that drifts from
// the runtime names nothing rather than the wrong tensor.
class BufferReplay {
 public:
  explicit BufferReplay(const onnxmicro::Session& session)
      : session_(session),
        graph_(session.model()->graph()),
        buffers_(session.plan().buffers),
        contents_(buffers_.size()),
        buffer_of_(graph_.values.size(), -1),
        last_reader_(graph_.values.size(), -1) {}

  std::vector<std::string> run() {
    for (std::size_t k = 0; k < graph_.inputs.size(); ++k) {
      if (session_.input_bound_at_prepare(k)) continue;
      const model::ValueId id = graph_.inputs[k];
      buffer_of_[static_cast<std::size_t>(id)] = take("'" + std::string(graph_.values[id].name) + "'", 0, bytes(id));
    }
    const onnxmicro::Span<const onnxmicro::NodeReport> reports = session_.node_reports();
    for (std::size_t step = 0; step < reports.size(); ++step) {
      if (reports[step].folded) continue;
      for (model::ValueId id : reports[step].node->inputs) {
        if (id != model::kNoValue) last_reader_[static_cast<std::size_t>(id)] = static_cast<std::int32_t>(step);
      }
    }
    for (std::size_t step = 0; step < reports.size() && consistent_; ++step) {
      if (!reports[step].folded) replay_node(reports[step], static_cast<std::int32_t>(step));
    }
    if (!consistent_ || next_ != buffers_.size()) return std::vector<std::string>(buffers_.size());
    return contents_;
  }

 private:
  std::size_t bytes(model::ValueId id) const {
    return onnxmicro::byte_size_of(session_.value_dtype(id), session_.value_shape(id).element_count());
  }
  // The next buffer, for `what`, made at `step` with `size` bytes.
  std::int32_t take(std::string what, std::int32_t step, std::size_t size) {
    if (next_ >= buffers_.size() || buffers_[next_].first_use != step || buffers_[next_].size != size) {
      consistent_ = false;
      return -1;
    }
    contents_[next_] = std::move(what);
    return static_cast<std::int32_t>(next_++);
  }
  // The input whose buffer output `out` of the node at `step` takes over (lifetimes.hpp, in_place_input), or
  // kNoValue.
  model::ValueId in_place_input(const onnxmicro::NodeReport& report, std::int32_t step, model::ValueId out) const {
    const int in_place = report.kernel == nullptr ? -1 : report.kernel->in_place_input;
    const model::Node& node = *report.node;
    if (in_place < 0 || static_cast<std::size_t>(in_place) >= node.inputs.size()) return model::kNoValue;
    const model::ValueId in = node.inputs[static_cast<std::size_t>(in_place)];
    if (in == model::kNoValue) return model::kNoValue;
    const model::Value& value = graph_.values[in];
    const bool reusable = value.kind == model::ValueKind::intermediate && !value.is_graph_output &&
                          last_reader_[static_cast<std::size_t>(in)] == step &&
                          buffer_of_[static_cast<std::size_t>(in)] >= 0 && bytes(in) == bytes(out);
    return reusable ? in : model::kNoValue;
  }
  void replay_node(const onnxmicro::NodeReport& report, std::int32_t step) {
    const model::Node& node = *report.node;
    for (std::size_t k = 0; k < node.outputs.size(); ++k) {
      const model::ValueId id = node.outputs[k];
      if (id == model::kNoValue) continue;
      const std::string name = "'" + std::string(graph_.values[id].name) + "'";
      const model::ValueId shared = k == 0 ? in_place_input(report, step, id) : model::kNoValue;
      if (shared == model::kNoValue) {
        buffer_of_[static_cast<std::size_t>(id)] = take(name, step, bytes(id));
        continue;
      }
      const std::int32_t buffer = buffer_of_[static_cast<std::size_t>(shared)];
      buffer_of_[static_cast<std::size_t>(id)] = buffer;
      contents_[static_cast<std::size_t>(buffer)] += ", then " + name + " in place";
    }
    // A scratch buffer is made at this step and lives for it only; the next node's outputs are made later.
    if (next_ < buffers_.size() && buffers_[next_].first_use == step && buffers_[next_].last_use == step) {
      const std::string owner = std::string(node.op_type) + " '" + std::string(node.name) + "'";
      contents_[next_++] = "scratch of " + owner;
    }
  }

  const onnxmicro::Session& session_;
  const model::Graph& graph_;
  onnxmicro::Span<const onnxmicro::PlannedBuffer> buffers_;
  std::vector<std::string> contents_;
  std::vector<std::int32_t> buffer_of_;    ///< per value: its buffer, -1 for none
  std::vector<std::int32_t> last_reader_;  ///< per value: the last step that reads it
  std::size_t next_ = 0;
  bool consistent_ = true;
};

// Picture geometry: a fixed canvas, whatever the number of buffers or arena bytes.
constexpr double kWidth = 960, kHeight = 620;
constexpr double kLeft = 100, kRight = 30, kTop = 56, kBottom = 60;
constexpr double kPlotWidth = kWidth - kLeft - kRight, kPlotHeight = kHeight - kTop - kBottom;

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

// A tick spacing of 1, 2 or 5 times a power of ten giving at most `max_ticks` ticks over [0, range].
std::uint64_t tick_step(std::uint64_t range, std::uint64_t max_ticks) {
  std::uint64_t step = 1;
  for (;;) {
    for (std::uint64_t factor : {1, 2, 5}) {
      if (range / (step * factor) < max_ticks) return step * factor;
    }
    step *= 10;
  }
}

struct Scale {
  double steps = 1;        ///< execution steps across
  double arena_bytes = 1;  ///< bytes up
  double x(double step) const { return kLeft + step * kPlotWidth / steps; }
  double y(double offset) const { return kTop + kPlotHeight - offset * kPlotHeight / arena_bytes; }
};

void write_axes(std::ostream& svg, const Scale& scale) {
  svg << "<g stroke=\"#333333\" stroke-width=\"1\">\n"
      << "<line x1=\"" << kLeft << "\" y1=\"" << kTop + kPlotHeight << "\" x2=\"" << kLeft + kPlotWidth << "\" y2=\""
      << kTop + kPlotHeight << "\"/>\n"
      << "<line x1=\"" << kLeft << "\" y1=\"" << kTop << "\" x2=\"" << kLeft << "\" y2=\"" << kTop + kPlotHeight
      << "\"/>\n</g>\n<g font-size=\"11\" fill=\"#333333\">\n";
  const auto steps = static_cast<std::uint64_t>(scale.steps);
  for (std::uint64_t s = 0, by = tick_step(steps, 12); s <= steps; s += by) {
    svg << "<text x=\"" << number(scale.x(static_cast<double>(s))) << "\" y=\"" << kTop + kPlotHeight + 16
        << "\" text-anchor=\"middle\">" << s << "</text>\n";
  }
  const auto bytes = static_cast<std::uint64_t>(scale.arena_bytes);
  for (std::uint64_t b = 0, by = tick_step(bytes, 10); b <= bytes; b += by) {
    svg << "<text x=\"" << kLeft - 6 << "\" y=\"" << number(scale.y(static_cast<double>(b)) + 4)
        << "\" text-anchor=\"end\">" << b << "</text>\n";
  }
  svg << "</g>\n<text x=\"" << kLeft + kPlotWidth / 2 << "\" y=\"" << kHeight - 16
      << "\" font-size=\"13\" text-anchor=\"middle\">execution step</text>\n"
      << "<text x=\"18\" y=\"" << kTop + kPlotHeight / 2
      << "\" font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 18 " << kTop + kPlotHeight / 2
      << ")\">arena offset (bytes)</text>\n";
}

// A dashed horizontal line at `bytes`, labelled.
void write_level(std::ostream& svg, const Scale& scale, std::size_t bytes, const std::string& name,
                 const char* colour) {
  const std::string y = number(scale.y(static_cast<double>(bytes)));
  svg << "<line x1=\"" << kLeft << "\" y1=\"" << y << "\" x2=\"" << kLeft + kPlotWidth << "\" y2=\"" << y
      << "\" stroke=\"" << colour << "\" stroke-dasharray=\"6 4\"/>\n"
      << "<text x=\"" << kLeft + kPlotWidth << "\" y=\"" << number(scale.y(static_cast<double>(bytes)) - 4)
      << "\" font-size=\"11\" text-anchor=\"end\" fill=\"" << colour << "\">" << name << " " << bytes << "</text>\n";
}

void write_buffer(std::ostream& svg, const Scale& scale, std::size_t index, const onnxmicro::PlannedBuffer& buffer,
                  const std::string& contents) {
  const double x = scale.x(buffer.first_use), width = scale.x(buffer.last_use + 1.0) - x;
  const double top = scale.y(static_cast<double>(buffer.offset + buffer.size));
  const double height = std::max(0.5, scale.y(static_cast<double>(buffer.offset)) - top);
  const double hue = static_cast<double>((index * 137) % 360);
  svg << "<rect class=\"buffer\" x=\"" << number(x) << "\" y=\"" << number(top) << "\" width=\"" << number(width)
      << "\" height=\"" << number(height) << "\" fill=\"hsl(" << hue << ",65%,62%)\" stroke=\"#222222\" "
      << "stroke-width=\"0.4\"><title>buffer " << index << ": " << xml_escape(contents.empty() ? "?" : contents) << ", "
      << buffer.size << " bytes at offset " << buffer.offset << ", steps " << buffer.first_use << ".."
      << buffer.last_use << "</title></rect>\n";
}

}  // namespace

std::vector<std::string> buffer_contents(const onnxmicro::Session& session) { return BufferReplay(session).run(); }

std::string plan_svg(const onnxmicro::Session& session, const std::string& title) {
  const onnxmicro::MemoryPlan& plan = session.plan();
  Scale scale;
  for (const onnxmicro::PlannedBuffer& b : plan.buffers) scale.steps = std::max(scale.steps, b.last_use + 1.0);
  scale.arena_bytes = std::max<double>(1, static_cast<double>(plan.arena_bytes));
  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" viewBox=\"0 0 " << kWidth << " " << kHeight << "\" font-family=\"Helvetica, Arial, sans-serif\">\n"
      << "<title>" << xml_escape(title) << "</title>\n"
      << "<text x=\"" << kLeft << "\" y=\"22\" font-size=\"14\">" << xml_escape(title) << "</text>\n"
      << "<text x=\"" << kLeft << "\" y=\"40\" font-size=\"11\" fill=\"#555555\">" << plan.buffers.size()
      << " buffers; arena_bytes " << plan.arena_bytes << ", lower_bound_bytes " << plan.lower_bound_bytes
      << " (hover over a buffer for its tensor)</text>\n";
  const std::vector<std::string> contents = buffer_contents(session);
  svg << "<g>\n";
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) write_buffer(svg, scale, i, plan.buffers[i], contents[i]);
  svg << "</g>\n";
  write_axes(svg, scale);
  if (plan.lower_bound_bytes < plan.arena_bytes) {
    write_level(svg, scale, plan.lower_bound_bytes, "lower_bound_bytes", "#1f77b4");
  }
  write_level(svg, scale, plan.arena_bytes, "arena_bytes", "#d62728");
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace onnxmicro_cli
