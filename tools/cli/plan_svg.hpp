// SPDX-License-Identifier: MIT
// `onnxmicro plan --svg FILE`: the arena plan as a picture, written directly (no Graphviz): execution steps across,
// arena offsets up, one rectangle per planned buffer with a tooltip naming its tensor.
#pragma once
#include <string>
#include <vector>

#include <onnxmicro/onnxmicro.hpp>

namespace onnxmicro_cli {

/// What each buffer of session.plan() holds ("'conv_out'", "'a', then 'b' in place", "scratch of Conv 'conv'"),
/// found by replaying how the session assigns buffers; all empty when the replay does not match the plan.
std::vector<std::string> buffer_contents(const onnxmicro::Session& session);

/// The SVG picture of session.plan() (`title` goes on top). Fixed size whatever the number of buffers.
std::string plan_svg(const onnxmicro::Session& session, const std::string& title);

}  // namespace onnxmicro_cli
