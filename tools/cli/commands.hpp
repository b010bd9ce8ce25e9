// SPDX-License-Identifier: MIT
// The CLI's commands. Each takes the arguments after its name and returns the process exit code
// (kExitSuccess, kExitFailure, kExitUsage from cli_support.hpp); each handles its own --help.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace onnxmicro_cli {

using Args = std::vector<std::string>;

int inspect_command(const Args& args);
int check_command(const Args& args);
int run_command(const Args& args);
int plan_command(const Args& args);
int kernels_command(const Args& args);
int bench_command(const Args& args);
int compare_command(const Args& args);
int graph_command(const Args& args);

/// Reports a command-line mistake: the error line, the command's usage line and a pointer to --help, on
/// stderr. Returns kExitUsage.
int usage_error(std::string_view command, std::string_view usage, const std::string& message);

/// Splits "--name=value" into name and value; `has_value` says whether '=' was present.
void split_option(const std::string& arg, std::string& name, std::string& value, bool& has_value);

/// True for "--help" and "-h".
inline bool is_help_flag(const std::string& arg) { return arg == "--help" || arg == "-h"; }

}  // namespace onnxmicro_cli
