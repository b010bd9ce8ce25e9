// SPDX-License-Identifier: MIT
// RegexFullMatch (opset 20): y[i] = whether the whole of string x[i] matches `pattern` (RE2 syntax; the subset
// common/regex.hpp implements, checked at prepare time). Linear-time matching in a scratch buffer.
#pragma once
#include "onnxmicro/kernels/common/regex.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

namespace regex_full_match_detail {

/// The implementation of RegexFullMatch (see the file comment).
struct RegexFullMatchImpl : KernelDefaults {
  static constexpr std::string_view kOpType = "RegexFullMatch";
  static constexpr int kInput = 0;
  static constexpr int kOutput = 0;

  struct State {
    regex::Program program;
  };

  static Status prepare(PrepareContext& ctx) noexcept {
    namespace rx = regex;
    ONNXMICRO_RETURN_IF_ERROR(ctx.require_input(kInput));
    if (ctx.input(kInput).dtype != DataType::string) return ctx.unsupported_input_dtype(kInput);
    std::string_view pattern;
    ONNXMICRO_RETURN_IF_ERROR(ctx.required_attribute("pattern", pattern));

    Span<rx::Node> nodes;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(pattern.size() * 2 + 2, nodes));
    rx::Parser parser(pattern, nodes.data(), static_cast<std::int32_t>(nodes.size()));
    std::int32_t root = 0;
    ONNXMICRO_RETURN_IF_ERROR(parser.parse(root));
    const std::int64_t size = rx::program_size(nodes.data(), root) + 1;  // + match
    const std::int64_t sets = rx::set_count(nodes.data(), root);
    if (size > rx::kMaxProgram || sets > rx::kMaxProgram) {
      return Status(StatusCode::limit_exceeded) << "attribute 'pattern' \"" << pattern << "\" compiles to more than "
                                                << rx::kMaxProgram << " instructions";
    }
    State* state = nullptr;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_state(state));
    Span<rx::Instruction> code;
    Span<rx::ByteSet> set_storage;
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(size), code));
    ONNXMICRO_RETURN_IF_ERROR(ctx.allocate_persistent(static_cast<std::size_t>(sets == 0 ? 1 : sets), set_storage));
    rx::Program& program = state->program;
    program.code = code.data();
    program.sets = set_storage.data();
    std::int32_t pc = 0;
    rx::emit(nodes.data(), root, program, pc);
    program.code[pc++] = rx::Instruction{rx::Op::match, 0, 0};
    program.size = pc;
    ctx.request_scratch(program.scratch_bytes());
    ctx.set_output(kOutput, DataType::boolean, ctx.input(kInput).shape);
    return {};
  }

  static Status run(RunContext& ctx) noexcept {
    const State& state = ctx.state<State>();
    const auto* x = ctx.input(kInput).data_as<StringRef>();
    auto* y = ctx.output(kOutput).data_as<bool>();
    for (std::int64_t i = 0; i < ctx.input(kInput).element_count(); ++i)
      y[i] = regex::full_match(state.program, x[i].view(), ctx.scratch());
    return {};
  }
};

}  // namespace regex_full_match_detail

using RegexFullMatch_20 = VersionedKernel<regex_full_match_detail::RegexFullMatchImpl, 20>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
