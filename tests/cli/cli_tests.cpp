// SPDX-License-Identifier: MIT
// End-to-end tests of the `onnxmicro` CLI: each case writes the models and tensor files it needs (built
// byte by byte here, independently of the CLI's readers), runs the built CLI as a child process and checks
// its exit code, stdout, stderr and output files exactly.
//
//   onnxmicro_cli_tests CASE PATH_TO_CLI WORK_DIR     (one ctest per CASE; see tests/cli/CMakeLists.txt)
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "json_writer.hpp"
#include "kernel_report.hpp"
#include "markup.hpp"
#include "proto_encoder.hpp"

extern char** environ;

namespace {

using onnxmicro_cli::ProtoEncoder;
using Bytes = std::vector<unsigned char>;

// ---- test context and expectations ---------------------------------------------------------------------------

struct Context {
  std::string cli;
  std::string dir;
  int failures = 0;
  std::string path(const std::string& name) const { return dir + "/" + name; }
};

void fail(Context& ctx, const std::string& what) {
  ++ctx.failures;
  std::cerr << "FAILED: " << what << "\n";
}

void expect_eq(Context& ctx, const std::string& what, const std::string& actual, const std::string& expected) {
  if (actual == expected) return;
  fail(ctx, what + "\n--- expected ---\n" + expected + "\n--- actual ---\n" + actual + "\n----------------");
}

void expect_true(Context& ctx, const std::string& what, bool condition) {
  if (!condition) fail(ctx, what);
}

// ---- running the CLI -------------------------------------------------------------------------------------------

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
  std::string command;
};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Bytes read_bytes(const std::string& path) {
  std::string text = read_text(path);
  return Bytes(text.begin(), text.end());
}

void write_bytes(const std::string& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::cerr << "cannot write " << path << "\n";
    std::exit(2);
  }
}

// Runs the CLI with stdin from /dev/null and stdout/stderr captured to files (no pipes: no deadlock on large
// output). A run that takes more than 60 s is killed and reported as a hang (exit_code -2); a crash is
// reported as exit_code -1 with the signal in `err`.
Result run_cli(const Context& ctx, const std::vector<std::string>& args) {
  Result result;
  result.command = "onnxmicro";
  for (const std::string& a : args) result.command += " " + a;
  const std::string out_path = ctx.path("stdout.txt");
  const std::string err_path = ctx.path("stderr.txt");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(ctx.cli.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  int spawn_error = posix_spawn(&pid, ctx.cli.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawn_error != 0) {
    result.err = std::string("cannot start the CLI: ") + std::strerror(spawn_error);
    return result;
  }
  int status = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (;;) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      result.exit_code = -2;
      result.err = "HANG: killed after 60 s";
      return result;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  result.out = read_text(out_path);
  result.err = read_text(err_path);
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.err += "\nCRASH: killed by signal " + std::to_string(WTERMSIG(status));
  }
  return result;
}

std::string describe(const Result& r) {
  return "[" + r.command + "] exit " + std::to_string(r.exit_code) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

void expect_success(Context& ctx, const Result& r, const std::string& expected_stdout) {
  if (r.exit_code != 0 || !r.err.empty()) {
    fail(ctx, "expected exit 0 and no stderr: " + describe(r));
    return;
  }
  expect_eq(ctx, "stdout of [" + r.command + "]", r.out, expected_stdout);
}

// A failure: exit 1, nothing on stdout, exactly one stderr line "onnxmicro: error: " + expected_message.
void expect_error(Context& ctx, const Result& r, const std::string& expected_message) {
  const std::string expected = "onnxmicro: error: " + expected_message + "\n";
  if (r.exit_code != 1 || !r.out.empty() || r.err != expected) {
    fail(ctx, "expected exit 1 with the single stderr line\n" + expected + describe(r));
  }
}

// Like expect_error, for messages that embed text from another component (the library's parser): checks the
// start of the line and that it is one line.
void expect_error_prefix(Context& ctx, const Result& r, const std::string& expected_prefix) {
  const std::string prefix = "onnxmicro: error: " + expected_prefix;
  bool one_line = !r.err.empty() && r.err.back() == '\n' && r.err.find('\n') == r.err.size() - 1;
  if (r.exit_code != 1 || !r.out.empty() || !one_line || r.err.compare(0, prefix.size(), prefix) != 0) {
    fail(ctx, "expected exit 1 with one stderr line starting with\n" + prefix + "\n" + describe(r));
  }
}

void expect_usage_error(Context& ctx, const Result& r, const std::string& expected_first_line) {
  const std::string first = "onnxmicro: error: " + expected_first_line + "\n";
  if (r.exit_code != 2 || !r.out.empty() || r.err.compare(0, first.size(), first) != 0 ||
      r.err.find("usage: onnxmicro") == std::string::npos) {
    fail(ctx, "expected exit 2, first stderr line\n" + first + "and a usage line: " + describe(r));
  }
}

// ---- building ONNX protobuf messages (field numbers from onnx.proto) ------------------------------------------

constexpr std::int32_t kFloat = 1;
constexpr std::int32_t kInt64 = 7;
constexpr std::int32_t kBool = 9;

struct Dim {
  std::int64_t value = -1;  // >= 0: fixed
  std::string param;        // symbolic name; empty with value < 0: unknown
};
Dim fixed(std::int64_t v) { return Dim{v, ""}; }
Dim symbolic(const std::string& name) { return Dim{-1, name}; }
Dim unknown() { return Dim{}; }

// TypeProto with tensor_type (1): elem_type (1), shape (2) of dims (1) with dim_value (1) / dim_param (2).
ProtoEncoder tensor_type(std::int32_t elem_type, const std::vector<Dim>* dims) {
  ProtoEncoder tensor;
  tensor.int_field(1, elem_type);
  if (dims != nullptr) {
    ProtoEncoder shape;
    for (const Dim& d : *dims) {
      ProtoEncoder dim;
      if (d.value >= 0) dim.int_field(1, d.value);
      if (!d.param.empty()) dim.string_field(2, d.param);
      shape.message_field(1, dim);
    }
    tensor.message_field(2, shape);
  }
  ProtoEncoder type;
  type.message_field(1, tensor);
  return type;
}

// ValueInfoProto: name (1), type (2).
ProtoEncoder value_info(const std::string& name, const ProtoEncoder& type) {
  ProtoEncoder v;
  v.string_field(1, name);
  v.message_field(2, type);
  return v;
}
ProtoEncoder tensor_value(const std::string& name, std::int32_t elem_type, const std::vector<Dim>& dims) {
  return value_info(name, tensor_type(elem_type, &dims));
}

// NodeProto: input (1), output (2), name (3), op_type (4), attribute (5), domain (7).
ProtoEncoder node(const std::string& op_type, const std::vector<std::string>& inputs,
                  const std::vector<std::string>& outputs, const std::string& name, const std::string& domain = "",
                  const std::vector<ProtoEncoder>& attributes = {}) {
  ProtoEncoder n;
  for (const std::string& i : inputs) n.string_field(1, i);
  for (const std::string& o : outputs) n.string_field(2, o);
  if (!name.empty()) n.string_field(3, name);
  n.string_field(4, op_type);
  for (const ProtoEncoder& a : attributes) n.message_field(5, a);
  if (!domain.empty()) n.string_field(7, domain);
  return n;
}

// GraphProto: node (1), name (2), initializer (5), input (11), output (12).
ProtoEncoder graph(const std::string& name, const std::vector<ProtoEncoder>& nodes,
                   const std::vector<ProtoEncoder>& inputs, const std::vector<ProtoEncoder>& outputs,
                   const std::vector<ProtoEncoder>& initializers = {}) {
  ProtoEncoder g;
  for (const ProtoEncoder& n : nodes) g.message_field(1, n);
  g.string_field(2, name);
  for (const ProtoEncoder& t : initializers) g.message_field(5, t);
  for (const ProtoEncoder& i : inputs) g.message_field(11, i);
  for (const ProtoEncoder& o : outputs) g.message_field(12, o);
  return g;
}

// AttributeProto of type GRAPH: name (1), g (6), type (20) = 5.
ProtoEncoder graph_attribute(const std::string& name, const ProtoEncoder& g) {
  ProtoEncoder a;
  a.string_field(1, name);
  a.message_field(6, g);
  a.int_field(20, 5);
  return a;
}

// ModelProto: ir_version (1), producer_name (2), producer_version (3), graph (7), opset_import (8) of
// OperatorSetIdProto: domain (1), version (2).
Bytes model(std::int64_t ir_version, const std::string& producer, const std::string& producer_version,
            const std::vector<std::pair<std::string, std::int64_t>>& opsets, const ProtoEncoder& g) {
  ProtoEncoder m;
  m.int_field(1, ir_version);
  m.string_field(2, producer);
  m.string_field(3, producer_version);
  m.message_field(7, g);
  for (const auto& [domain, version] : opsets) {
    ProtoEncoder opset;
    if (!domain.empty()) opset.string_field(1, domain);
    opset.int_field(2, version);
    m.message_field(8, opset);
  }
  return m.take();
}

Bytes le_floats(const std::vector<float>& values) {
  Bytes out(values.size() * 4);
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());  // the tests run on little-endian hosts
  return out;
}
Bytes le_int64s(const std::vector<std::int64_t>& values) {
  Bytes out(values.size() * 8);
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// TensorProto: dims (1), data_type (2), name (8), raw_data (9).
ProtoEncoder raw_tensor(const std::string& name, std::int32_t dtype, const std::vector<std::int64_t>& dims,
                        const Bytes& raw) {
  ProtoEncoder t;
  for (std::int64_t d : dims) t.int_field(1, d);
  t.int_field(2, dtype);
  t.string_field(8, name);
  t.bytes_field(9, raw.data(), raw.size());
  return t;
}

// A .npy version 1.0 file, header padded with spaces and '\n' to a multiple of 64 bytes, as NumPy writes it.
Bytes npy(const std::string& descr, const std::string& shape, const Bytes& data, bool fortran = false) {
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  Bytes out = {0x93,
               'N',
               'U',
               'M',
               'P',
               'Y',
               1,
               0,
               static_cast<unsigned char>(header.size() & 0xff),
               static_cast<unsigned char>(header.size() >> 8)};
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

Bytes hex(const std::string& text) {
  Bytes out;
  for (std::size_t i = 0; i + 1 < text.size(); i += 2) {
    out.push_back(static_cast<unsigned char>(std::stoi(text.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// ---- the models ------------------------------------------------------------------------------------------------

// y = Relu(x), x and y of `dtype` with dims [N,3] (N symbolic), opset 13.
std::string write_relu_model(const Context& ctx, const std::string& file, std::int32_t dtype = kFloat,
                             const std::string& x = "x", const std::string& y = "y") {
  std::vector<Dim> dims = {symbolic("N"), fixed(3)};
  Bytes bytes = model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
                      graph("relu_graph", {node("Relu", {x}, {y}, "relu")}, {tensor_value(x, dtype, dims)},
                            {tensor_value(y, dtype, dims)}));
  write_bytes(ctx.path(file), bytes);
  return ctx.path(file);
}

// Everything inspect reports: symbolic/unknown/no-shape inputs, an initializer listed as an input (IR < 4
// style), raw, typed and external initializers, two domains, and an If whose branches hold more nodes.
std::string write_inspect_model(const Context& ctx) {
  std::vector<ProtoEncoder> initializers;
  initializers.push_back(raw_tensor("w", kFloat, {2, 2}, le_floats({1, 2, 3, 4})));
  ProtoEncoder b;  // int64_data (7), packed
  b.int_field(1, 3);
  b.int_field(2, kInt64);
  const std::int64_t b_values[] = {1, -2, 3};
  b.packed_ints(7, b_values, 3);
  b.string_field(8, "b");
  initializers.push_back(b);
  ProtoEncoder ext;  // external_data (13) entries key (1) / value (2), data_location (14) = EXTERNAL
  ext.int_field(1, 4);
  ext.int_field(2, kFloat);
  ext.string_field(8, "ext");
  for (auto [key, value] :
       {std::pair<const char*, const char*>{"location", "weights.bin"}, {"offset", "0"}, {"length", "16"}}) {
    ProtoEncoder entry;
    entry.string_field(1, key);
    entry.string_field(2, value);
    ext.message_field(13, entry);
  }
  ext.int_field(14, 1);
  initializers.push_back(ext);
  write_bytes(ctx.path("weights.bin"), le_floats({0.5f, 1.5f, 2.5f, 3.5f}));

  ProtoEncoder float_type = tensor_type(kFloat, nullptr);
  ProtoEncoder then_branch =
      graph("then", {node("Relu", {"h"}, {"t_out"}, "then_relu")}, {}, {value_info("t_out", float_type)});
  ProtoEncoder else_branch =
      graph("else", {node("Identity", {"h"}, {"e_out"}, "else_identity")}, {}, {value_info("e_out", float_type)});
  std::vector<ProtoEncoder> nodes = {
      node("Relu", {"image"}, {"a"}, "relu1"),
      node("Relu", {"a"}, {"a2"}, "relu2"),
      node("Add", {"a2", "a2"}, {"s"}, "add"),
      node("Custom", {"s"}, {"c"}, "custom", "com.example"),
      node("Hardmax", {"c"}, {"h"}, "hardmax"),
      node("If", {"flag"}, {"out"}, "cond", "",
           {graph_attribute("then_branch", then_branch), graph_attribute("else_branch", else_branch)}),
  };
  std::vector<ProtoEncoder> inputs = {
      tensor_value("image", kFloat, {symbolic("batch"), fixed(3), unknown(), fixed(8)}),
      tensor_value("flag", kBool, {}),
      tensor_value("w", kFloat, {fixed(2), fixed(2)}),
      value_info("extra", tensor_type(kInt64, nullptr)),
  };
  std::vector<ProtoEncoder> outputs = {tensor_value("out", kFloat, {symbolic("batch"), unknown()})};
  Bytes bytes = model(9, "onnxmicro-cli-tests", "2.1", {{"", 17}, {"com.example", 1}},
                      graph("inspect_graph", nodes, inputs, outputs, initializers));
  write_bytes(ctx.path("inspect.onnx"), bytes);
  return ctx.path("inspect.onnx");
}

// One supported node (Relu) and three whose ops no build has (custom domain), one of them unnamed.
std::string write_unsupported_model(const Context& ctx) {
  std::vector<Dim> dims = {fixed(2)};
  std::vector<ProtoEncoder> nodes = {
      node("Relu", {"x"}, {"r"}, "relu"),
      node("Frobnicate", {"r"}, {"f1"}, "frob1", "com.example"),
      node("Frobnicate", {"f1"}, {"f2"}, "", "com.example"),
      node("Twist", {"f2"}, {"y"}, "twist", "com.example"),
  };
  Bytes bytes =
      model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}, {"com.example", 2}},
            graph("unsupported_graph", nodes, {tensor_value("x", kFloat, dims)}, {tensor_value("y", kFloat, dims)}));
  write_bytes(ctx.path("unsupported.onnx"), bytes);
  return ctx.path("unsupported.onnx");
}

// Input "x" float [2,3] as a TensorProto with raw_data.
const std::vector<float> kReluInput = {-1.5f, 0.0f, 2.25f, -3.0f, 3.0f, -0.5f};
// Expected output_0.pb for it, written out by hand: dims 2 (08 02), dims 3 (08 03), data_type FLOAT (10 01),
// name "y" (42 01 79), raw_data of 24 bytes (4a 18): 0, 0, 2.25 (0x40100000), 0, 3 (0x40400000), 0.
const char kReluOutputHex[] =
    "080208031001420179"
    "4a18"
    "00000000"
    "00000000"
    "00001040"
    "00000000"
    "00004040"
    "00000000";

// ---- cases -----------------------------------------------------------------------------------------------------

// The line --version and bench add where float Conv steps down to the avx2 tiles at the session's level `isa` (CPUs
// that split 512-bit operations), else "".
std::string conv_tiles_line(onnxmicro::Isa isa, const std::string& hint) {
  const onnxmicro::Isa conv = onnxmicro::kernels::gemm::convolution_isa(isa);
  if (conv == isa) return "";
  return "float convolutions: " + std::string(onnxmicro::isa_name(conv)) +
         " tiles (this CPU splits 512-bit operations" + hint + ")\n";
}

void case_version(Context& ctx) {
  // The second line names the instruction set this CPU gives the kernels (the test runs without ONNXMICRO_MAX_ISA).
  const std::string detected(onnxmicro::isa_name(onnxmicro::detected_isa()));
  const std::string conv = conv_tiles_line(onnxmicro::detected_isa(), "; ONNXMICRO_SPLIT_512=0 overrides");
  expect_success(
      ctx, run_cli(ctx, {"--version"}),
      "onnxmicro " ONNXMICRO_EXPECTED_VERSION "\nisa: " + detected + " (this CPU: " + detected + ")\n" + conv);
  // Forced both ways, on any CPU: the line appears exactly at the avx512 level.
  setenv("ONNXMICRO_SPLIT_512", "1", 1);
  const std::string forced = conv_tiles_line(onnxmicro::detected_isa(), "; ONNXMICRO_SPLIT_512=0 overrides");
  expect_success(
      ctx, run_cli(ctx, {"--version"}),
      "onnxmicro " ONNXMICRO_EXPECTED_VERSION "\nisa: " + detected + " (this CPU: " + detected + ")\n" + forced);
  expect_true(ctx, "ONNXMICRO_SPLIT_512=1 steps Conv down at the avx512 level only",
              forced.empty() == (onnxmicro::detected_isa() != onnxmicro::Isa::avx512));
  setenv("ONNXMICRO_SPLIT_512", "0", 1);
  expect_success(ctx, run_cli(ctx, {"--version"}),
                 "onnxmicro " ONNXMICRO_EXPECTED_VERSION "\nisa: " + detected + " (this CPU: " + detected + ")\n");
  unsetenv("ONNXMICRO_SPLIT_512");
}

void case_help(Context& ctx) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{"--help"},
                                                                                    {"-h"},
                                                                                    {"inspect", "--help"},
                                                                                    {"check", "--help"},
                                                                                    {"run", "--help"},
                                                                                    {"plan", "--help"},
                                                                                    {"kernels", "--help"},
                                                                                    {"graph", "--help"}}) {
    Result r = run_cli(ctx, args);
    std::string first_word =
        args[0] == "--help" || args[0] == "-h" ? "usage: onnxmicro [" : "usage: onnxmicro " + args[0];
    if (r.exit_code != 0 || !r.err.empty() || r.out.compare(0, first_word.size(), first_word) != 0) {
      fail(ctx, "help should start with '" + first_word + "': " + describe(r));
    }
  }
  // The overview names every command, each with its usage.
  const Result overview = run_cli(ctx, {"--help"});
  for (const char* command : {"inspect", "check", "run", "plan", "kernels", "graph"}) {
    if (overview.out.find(std::string("\n  ") + command + " MODEL") == std::string::npos) {
      fail(ctx, std::string("onnxmicro --help does not list '") + command + " MODEL': " + describe(overview));
    }
  }
}

void case_usage_errors(Context& ctx) {
  expect_usage_error(ctx, run_cli(ctx, {}), "no command given");
  expect_usage_error(ctx, run_cli(ctx, {"frobnicate"}), "unknown command 'frobnicate'");
  expect_usage_error(ctx, run_cli(ctx, {"--frobnicate"}), "unknown option '--frobnicate'");
  expect_usage_error(ctx, run_cli(ctx, {"inspect"}), "missing MODEL");
  expect_usage_error(ctx, run_cli(ctx, {"inspect", "m.onnx", "--yaml"}), "unknown option '--yaml' for 'inspect'");
  expect_usage_error(ctx, run_cli(ctx, {"check", "a.onnx", "b.onnx"}), "unexpected argument 'b.onnx' (one MODEL only)");
  expect_usage_error(ctx, run_cli(ctx, {"run", "m.onnx", "--inputs"}), "--inputs needs at least one FILE");
  expect_usage_error(ctx, run_cli(ctx, {"run", "m.onnx", "--input", "x.pb"}), "--input expects NAME=FILE, got 'x.pb'");
  expect_usage_error(ctx, run_cli(ctx, {"run", "m.onnx", "--output-dir"}), "--output-dir needs DIR");
  expect_usage_error(ctx, run_cli(ctx, {"run", "m.onnx", "--fast"}), "unknown option '--fast' for 'run'");
  expect_usage_error(ctx, run_cli(ctx, {"plan", "m.onnx", "--yaml"}), "unknown option '--yaml' for 'plan'");
  expect_usage_error(ctx, run_cli(ctx, {"plan", "m.onnx", "--device", "gpu"}),
                     "--device expects cpu or opencl, got 'gpu'");
  expect_usage_error(ctx, run_cli(ctx, {"run", "m.onnx", "--device"}), "--device needs a value");
  expect_usage_error(ctx, run_cli(ctx, {"check", "m.onnx", "--strict"}), "--strict is for run, plan and bench");
}

void case_inspect_text(Context& ctx) {
  std::string path = write_inspect_model(ctx);
  expect_success(ctx, run_cli(ctx, {"inspect", path}),
                 "model: " + path +
                     "\n"
                     "ir_version: 9\n"
                     "producer: onnxmicro-cli-tests 2.1\n"
                     "opset_imports: ai.onnx@17, com.example@1\n"
                     "inputs: 3\n"
                     "  image: float [batch,3,?,8]\n"
                     "  flag: bool []\n"
                     "  extra: int64 (shape not declared)\n"
                     "outputs: 1\n"
                     "  out: float [batch,?]\n"
                     "initializers: 3 (56 bytes)\n"
                     "external_data: 1\n"
                     "  ext: location=weights.bin offset=0 length=16\n"
                     "ops: 8 nodes, 6 distinct\n"
                     "  ai.onnx:Add@17        1\n"
                     "  ai.onnx:Hardmax@17    1\n"
                     "  ai.onnx:Identity@17   1\n"
                     "  ai.onnx:If@17         1\n"
                     "  ai.onnx:Relu@17       3\n"
                     "  com.example:Custom@1  1\n");
}

void case_inspect_json(Context& ctx) {
  std::string path = write_inspect_model(ctx);
  expect_success(ctx, run_cli(ctx, {"inspect", "--json", path}),
                 "{\n"
                 "  \"ir_version\": 9,\n"
                 "  \"producer_name\": \"onnxmicro-cli-tests\",\n"
                 "  \"producer_version\": \"2.1\",\n"
                 "  \"opset_imports\": [\n"
                 "    {\"domain\": \"\", \"version\": 17},\n"
                 "    {\"domain\": \"com.example\", \"version\": 1}\n"
                 "  ],\n"
                 "  \"inputs\": [\n"
                 "    {\"name\": \"image\", \"dtype\": \"float\", \"shape\": [\"batch\", 3, \"?\", 8]},\n"
                 "    {\"name\": \"flag\", \"dtype\": \"bool\", \"shape\": []},\n"
                 "    {\"name\": \"extra\", \"dtype\": \"int64\", \"shape\": null}\n"
                 "  ],\n"
                 "  \"outputs\": [\n"
                 "    {\"name\": \"out\", \"dtype\": \"float\", \"shape\": [\"batch\", \"?\"]}\n"
                 "  ],\n"
                 "  \"initializers\": {\"count\": 3, \"bytes\": 56},\n"
                 "  \"external_data\": [\n"
                 "    {\"name\": \"ext\", \"location\": \"weights.bin\", \"offset\": 0, \"length\": 16}\n"
                 "  ],\n"
                 "  \"ops\": [\n"
                 "    {\"domain\": \"\", \"op_type\": \"Add\", \"version\": 17, \"count\": 1},\n"
                 "    {\"domain\": \"\", \"op_type\": \"Hardmax\", \"version\": 17, \"count\": 1},\n"
                 "    {\"domain\": \"\", \"op_type\": \"Identity\", \"version\": 17, \"count\": 1},\n"
                 "    {\"domain\": \"\", \"op_type\": \"If\", \"version\": 17, \"count\": 1},\n"
                 "    {\"domain\": \"\", \"op_type\": \"Relu\", \"version\": 17, \"count\": 3},\n"
                 "    {\"domain\": \"com.example\", \"op_type\": \"Custom\", \"version\": 1, \"count\": 1}\n"
                 "  ]\n"
                 "}\n");
}

void case_json_escaping(Context& ctx) {
  using onnxmicro_cli::JsonWriter;
  expect_eq(ctx, "quote plain", JsonWriter::quote("abc"), "\"abc\"");
  expect_eq(ctx, "quote specials", JsonWriter::quote("a\"b\\c\nd\te\x01"), "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
  expect_eq(ctx, "quote valid UTF-8", JsonWriter::quote("\xc3\xa9\xe2\x82\xac"), "\"\xc3\xa9\xe2\x82\xac\"");
  expect_eq(ctx, "quote invalid UTF-8",
            JsonWriter::quote("a\xff"
                              "b\xc3"),
            "\"a\xef\xbf\xbd"
            "b\xef\xbf\xbd\"");
  expect_eq(ctx, "quote overlong", JsonWriter::quote("\xc0\xaf"), "\"\xef\xbf\xbd\xef\xbf\xbd\"");
}

void case_odd_names(Context& ctx) {
  // Names are bytes from the model: a newline, a tab and invalid UTF-8 must not break lines or the JSON.
  std::string path = write_relu_model(ctx, "odd.onnx", kFloat, "x\n\xff", "y\t\"\xc3\xa9");
  Result r = run_cli(ctx, {"inspect", path});
  expect_true(ctx, "inspect of odd names succeeds: " + describe(r), r.exit_code == 0 && r.err.empty());
  expect_true(ctx, "input line sanitised: " + r.out, r.out.find("\n  x ?: float [N,3]\n") != std::string::npos);
  expect_true(ctx, "output line sanitised: " + r.out,
              r.out.find("\n  y \"\xc3\xa9: float [N,3]\n") != std::string::npos);
  r = run_cli(ctx, {"inspect", "--json", path});
  expect_true(
      ctx, "JSON escapes the input name: " + r.out,
      r.out.find("{\"name\": \"x\\n\xef\xbf\xbd\", \"dtype\": \"float\", \"shape\": [\"N\", 3]}") != std::string::npos);
  expect_true(ctx, "JSON escapes the output name: " + r.out,
              r.out.find("{\"name\": \"y\\t\\\"\xc3\xa9\", \"dtype\"") != std::string::npos);
  expect_error(ctx, run_cli(ctx, {"run", path}), "wrong number of inputs: the model has 1 input ('x ?'), got 0 files");
}

void case_inspect_errors(Context& ctx) {
  expect_error(ctx, run_cli(ctx, {"inspect", ctx.path("missing.onnx")}),
               "cannot open model '" + ctx.path("missing.onnx") + "': no such file or directory");
  expect_error(ctx, run_cli(ctx, {"inspect", ctx.dir}),
               "cannot open model '" + ctx.dir + "': is a directory, expected a file");
  std::string relu = write_relu_model(ctx, "relu.onnx");
  Bytes bytes = read_bytes(relu);
  for (std::size_t cut : {bytes.size() / 2, bytes.size() - 1, std::size_t{3}}) {
    Bytes truncated(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
    write_bytes(ctx.path("truncated.onnx"), truncated);
    expect_error_prefix(ctx, run_cli(ctx, {"inspect", ctx.path("truncated.onnx")}),
                        "cannot load model '" + ctx.path("truncated.onnx") + "': invalid_model: ");
    expect_error_prefix(ctx, run_cli(ctx, {"inspect", "--json", ctx.path("truncated.onnx")}),
                        "cannot load model '" + ctx.path("truncated.onnx") + "': invalid_model: ");
  }
}

void case_check_supported(Context& ctx) {
  std::string relu = write_relu_model(ctx, "relu.onnx");
  expect_success(ctx, run_cli(ctx, {"check", relu}),
                 "ok: every node has a kernel in this build (1 node, 1 distinct op)\n");
}

void case_check_unsupported(Context& ctx) {
  std::string path = write_unsupported_model(ctx);
  Result r = run_cli(ctx, {"check", path});
  expect_true(ctx, "check of unsupported ops exits 1 with nothing on stderr: " + describe(r),
              r.exit_code == 1 && r.err.empty());
  expect_eq(ctx, "check report", r.out,
            "unsupported node 'frob1' (Frobnicate, domain com.example, opset 2); kernels in this build: none\n"
            "unsupported node '#2' (Frobnicate, domain com.example, opset 2); kernels in this build: none\n"
            "unsupported node 'twist' (Twist, domain com.example, opset 2); kernels in this build: none\n"
            "3 of 4 nodes have no kernel in this build:\n"
            "  com.example:Frobnicate@2: 2 nodes; kernels in this build: none\n"
            "  com.example:Twist@2: 1 node; kernels in this build: none\n");
}

void case_check_kernel_ranges(Context& ctx) {
  // check's "kernels in this build" text, from a registry made up here (unordered, several domains).
  // Rows are filled by field name: KernelEntry gains fields as the runtime grows.
  auto entry = [](std::string_view domain, std::string_view op_type, int since, int until) {
    onnxmicro::KernelEntry e{};
    e.domain = domain;
    e.op_type = op_type;
    e.since_version = since;
    e.until_version = until;
    return e;
  };
  const int open = onnxmicro::kernels::kOpenEnded;
  const onnxmicro::KernelEntry entries[] = {entry("", "Foo", 6, 13), entry("", "Foo", 14, open), entry("", "Foo", 1, 6),
                                            entry("com.x", "Foo", 2, 3), entry("", "Bar", 7, open)};
  onnxmicro::KernelRegistry registry(entries, 5);
  expect_eq(ctx, "Foo ranges", onnxmicro_cli::kernel_version_ranges(registry, "", "Foo"), "[1,6) [6,13) [14,inf)");
  expect_eq(ctx, "com.x Foo ranges", onnxmicro_cli::kernel_version_ranges(registry, "com.x", "Foo"), "[2,3)");
  expect_eq(ctx, "Bar ranges", onnxmicro_cli::kernel_version_ranges(registry, "", "Bar"), "[7,inf)");
  expect_eq(ctx, "no kernels", onnxmicro_cli::kernel_version_ranges(registry, "", "Baz"), "none");
}

void case_check_errors(Context& ctx) {
  expect_error(ctx, run_cli(ctx, {"check", ctx.path("missing.onnx")}),
               "cannot open model '" + ctx.path("missing.onnx") + "': no such file or directory");
  write_bytes(ctx.path("garbage.onnx"), Bytes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01});
  expect_error_prefix(ctx, run_cli(ctx, {"check", ctx.path("garbage.onnx")}),
                      "cannot load model '" + ctx.path("garbage.onnx") + "': invalid_model: ");
}

void case_run_pb(Context& ctx) {
  std::string relu = write_relu_model(ctx, "relu.onnx");
  write_bytes(ctx.path("x.pb"), raw_tensor("x", kFloat, {2, 3}, le_floats(kReluInput)).take());
  expect_success(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("x.pb"), "--output-dir", ctx.path("out")}), "");
  expect_true(ctx, "output_0.pb equals the hand-written TensorProto",
              read_bytes(ctx.path("out/output_0.pb")) == hex(kReluOutputHex));
  expect_true(ctx, "only one output file", read_text(ctx.path("out/output_1.pb")).empty());

  // Two outputs declared in the opposite order of the nodes that make them: files follow graph-output order.
  std::vector<Dim> dims = {symbolic("N"), fixed(3)};
  Bytes two = model(
      8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
      graph("two_outputs", {node("Relu", {"x"}, {"a"}, "first"), node("Relu", {"a"}, {"b"}, "second")},
            {tensor_value("x", kFloat, dims)}, {tensor_value("b", kFloat, dims), tensor_value("a", kFloat, dims)}));
  write_bytes(ctx.path("two.onnx"), two);
  expect_success(
      ctx, run_cli(ctx, {"run", ctx.path("two.onnx"), "--inputs", ctx.path("x.pb"), "--output-dir", ctx.path("two")}),
      "");
  std::string named_b = kReluOutputHex, named_a = kReluOutputHex;
  named_b.replace(named_b.find("420179"), 6, "420162");  // name "b"
  named_a.replace(named_a.find("420179"), 6, "420161");  // name "a"
  expect_true(ctx, "output_0.pb is graph output 0 ('b')", read_bytes(ctx.path("two/output_0.pb")) == hex(named_b));
  expect_true(ctx, "output_1.pb is graph output 1 ('a')", read_bytes(ctx.path("two/output_1.pb")) == hex(named_a));
}

void case_run_pb_typed(Context& ctx) {
  // The same input stored in float_data (4), packed, with dims packed too: readers must accept both layouts.
  std::string relu = write_relu_model(ctx, "relu.onnx");
  ProtoEncoder x;
  const std::int64_t dims[] = {2, 3};
  x.packed_ints(1, dims, 2);
  x.int_field(2, kFloat);
  x.packed_floats(4, kReluInput.data(), kReluInput.size());
  x.string_field(8, "x");
  write_bytes(ctx.path("x.pb"), x.take());
  expect_success(
      ctx, run_cli(ctx, {"run", relu, "--input", "x=" + ctx.path("x.pb"), "--output-dir=" + ctx.path("out")}), "");
  expect_true(ctx, "output_0.pb equals the hand-written TensorProto",
              read_bytes(ctx.path("out/output_0.pb")) == hex(kReluOutputHex));
}

void case_run_npy(Context& ctx) {
  std::string relu = write_relu_model(ctx, "relu.onnx");
  write_bytes(ctx.path("x.npy"), npy("<f4", "(2, 3)", le_floats(kReluInput)));
  expect_success(ctx, run_cli(ctx, {"run", relu, "--input", "x=" + ctx.path("x.npy"), "--output-dir", ctx.path("out")}),
                 "");
  expect_true(ctx, "output_0.pb from .npy input equals the hand-written TensorProto",
              read_bytes(ctx.path("out/output_0.pb")) == hex(kReluOutputHex));
  // The same file through --inputs, printed instead of written.
  expect_success(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("x.npy"), "--print"}),
                 "y: float [2,3]\n[0, 0, 2.25, 0, 3, 0]\n");
}

void case_run_npy_int64(Context& ctx) {
  std::string relu = write_relu_model(ctx, "relu_i64.onnx", kInt64);
  write_bytes(ctx.path("x.npy"), npy("<i8", "(1, 3)", le_int64s({-5, 7, 0})));
  expect_success(ctx,
                 run_cli(ctx, {"run", relu, "--inputs", ctx.path("x.npy"), "--output-dir", ctx.path("out"), "--print"}),
                 "y: int64 [1,3]\n[0, 7, 0]\n");
  // dims 1, 3; data_type INT64 (10 07); name "y"; raw_data 24 bytes: 0, 7, 0.
  expect_true(ctx, "int64 output_0.pb",
              read_bytes(ctx.path("out/output_0.pb")) == hex("080108031007420179"
                                                             "4a18"
                                                             "0000000000000000"
                                                             "0700000000000000"
                                                             "0000000000000000"));
}

void case_run_print_truncation(Context& ctx) {
  std::string relu = write_relu_model(ctx, "relu.onnx");
  std::vector<float> values;
  for (int i = 0; i < 27; ++i) values.push_back(static_cast<float>(i % 2 == 0 ? i : -i) * 0.5f);
  write_bytes(ctx.path("x.npy"), npy("<f4", "(9, 3)", le_floats(values)));
  expect_success(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("x.npy"), "--print"}),
                 "y: float [9,3]\n"
                 "[0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, ...]\n");
  expect_success(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("x.npy"), "--print-all"}),
                 "y: float [9,3]\n"
                 "[0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10, 0, 11, 0, 12, 0, 13]\n");
}

void case_run_bad_model(Context& ctx) {
  std::string relu = write_relu_model(ctx, "relu.onnx");
  write_bytes(ctx.path("x.pb"), raw_tensor("x", kFloat, {2, 3}, le_floats(kReluInput)).take());
  Bytes bytes = read_bytes(relu);
  write_bytes(ctx.path("truncated.onnx"),
              Bytes(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() / 2)));
  expect_error_prefix(ctx, run_cli(ctx, {"run", ctx.path("truncated.onnx"), "--inputs", ctx.path("x.pb")}),
                      "cannot load model '" + ctx.path("truncated.onnx") + "': invalid_model: ");
  expect_error(ctx, run_cli(ctx, {"run", ctx.path("nope.onnx"), "--inputs", ctx.path("x.pb")}),
               "cannot open model '" + ctx.path("nope.onnx") + "': no such file or directory");
  // A model with an op no build has: the session's error, on one line.
  std::string unsupported = write_unsupported_model(ctx);
  write_bytes(ctx.path("x2.pb"), raw_tensor("x", kFloat, {2}, le_floats({1, -1})).take());
  expect_error_prefix(ctx, run_cli(ctx, {"run", unsupported, "--inputs", ctx.path("x2.pb")}),
                      "cannot prepare '" + unsupported + "': unsupported: ");
}

void case_run_bad_inputs(Context& ctx) {
  std::string relu = write_relu_model(ctx, "relu.onnx");
  std::string x = ctx.path("x.pb");
  write_bytes(x, raw_tensor("x", kFloat, {2, 3}, le_floats(kReluInput)).take());
  const std::string out = ctx.path("out");

  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("missing.pb"), "--output-dir", out}),
               "input 'x': cannot read '" + ctx.path("missing.pb") + "': no such file or directory");
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.dir, "--output-dir", out}),
               "input 'x': cannot read '" + ctx.dir + "': is a directory, expected a file");
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", x, x, "--output-dir", out}),
               "wrong number of inputs: the model has 1 input ('x'), got 2 files");
  expect_error(ctx, run_cli(ctx, {"run", relu, "--output-dir", out}),
               "wrong number of inputs: the model has 1 input ('x'), got 0 files");
  expect_error(ctx, run_cli(ctx, {"run", relu, "--input", "z=" + x}),
               "the model has no input named 'z' (its inputs: 'x')");
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", x, "--input", "x=" + x}), "input 'x' is given twice");

  // dtype and shape mismatches against the declared input (float [N,3]).
  write_bytes(ctx.path("i64.npy"), npy("<i8", "(2, 3)", le_int64s({1, 2, 3, 4, 5, 6})));
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("i64.npy")}),
               "input 'x': '" + ctx.path("i64.npy") + "' holds int64 data, the model declares float");
  write_bytes(ctx.path("x24.pb"), raw_tensor("x", kFloat, {2, 4}, le_floats({1, 2, 3, 4, 5, 6, 7, 8})).take());
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("x24.pb")}),
               "input 'x': '" + ctx.path("x24.pb") + "' has shape [2,4], the model declares [N,3]");

  // Malformed TensorProto files: truncated, garbage, data shorter than the dims say.
  Bytes good = read_bytes(x);
  write_bytes(ctx.path("cut.pb"), Bytes(good.begin(), good.end() - 5));
  expect_error_prefix(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("cut.pb")}),
                      "input 'x': '" + ctx.path("cut.pb") + "' is not a valid onnx TensorProto: ");
  write_bytes(ctx.path("garbage.pb"), Bytes{0x0f, 0xff, 0xff, 0xff});
  expect_error_prefix(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("garbage.pb")}),
                      "input 'x': '" + ctx.path("garbage.pb") + "' is not a valid onnx TensorProto: ");
  write_bytes(ctx.path("short.pb"), raw_tensor("x", kFloat, {2, 3}, le_floats({1, 2, 3})).take());
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("short.pb")}),
               "input 'x': '" + ctx.path("short.pb") + "': dims [2,3] describe 6 elements but the tensor stores 3");
  Bytes odd = le_floats(kReluInput);
  odd.pop_back();
  write_bytes(ctx.path("odd.pb"), raw_tensor("x", kFloat, {2, 3}, odd).take());
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("odd.pb")}),
               "input 'x': '" + ctx.path("odd.pb") + "': raw_data has 23 bytes, not a whole number of float elements");
  write_bytes(ctx.path("huge.pb"), raw_tensor("x", kFloat, {1000000000, 3}, le_floats({1, 2, 3})).take());
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("huge.pb")}),
               "input 'x': '" + ctx.path("huge.pb") +
                   "': dims [1000000000,3] describe 3000000000 elements but the tensor stores 3");

  // Malformed .npy files.
  write_bytes(ctx.path("fortran.npy"), npy("<f4", "(2, 3)", le_floats(kReluInput), true));
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("fortran.npy")}),
               "input 'x': '" + ctx.path("fortran.npy") +
                   "': .npy arrays in Fortran order are not supported (save a C-ordered array)");
  write_bytes(ctx.path("big_endian.npy"), npy(">f4", "(2, 3)", le_floats(kReluInput)));
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("big_endian.npy")}),
               "input 'x': '" + ctx.path("big_endian.npy") +
                   "': .npy dtype '>f4' is not supported (<f4 <f8 <f2 <i8 <i4 <i2 <i1 |u1 <u2 <u4 <u8 |b1 <Un |Sn, "
                   "little-endian; object arrays need pickle: save strings as numpy.str_)");
  write_bytes(ctx.path("short.npy"), npy("<f4", "(2, 3)", le_floats({1, 2, 3})));
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("short.npy")}),
               "input 'x': '" + ctx.path("short.npy") + "': shape [2,3] of <f4 needs 24 data bytes, the file has 12");
  Bytes npy_bytes = npy("<f4", "(2, 3)", le_floats(kReluInput));
  write_bytes(ctx.path("cut.npy"), Bytes(npy_bytes.begin(), npy_bytes.begin() + 40));
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("cut.npy")}),
               "input 'x': '" + ctx.path("cut.npy") +
                   "' is not a valid .npy file: header length 118 runs past the end of the file");
  write_bytes(ctx.path("bad_header.npy"), npy("<f4", "[2, 3]", le_floats(kReluInput)));
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("bad_header.npy")}),
               "input 'x': '" + ctx.path("bad_header.npy") +
                   "' is not a valid .npy file: header 'shape' must be a tuple of non-negative integers");

  // An output directory that is a file.
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", x, "--output-dir", x}),
               "output directory '" + x + "' exists and is not a directory");
}

// TypeProto.sequence_type (4) of tensors of `elem_type`; TypeProto.optional_type (9) of `element`.
ProtoEncoder sequence_type(std::int32_t elem_type) {
  ProtoEncoder sequence;  // TypeProto.Sequence: elem_type (1)
  sequence.message_field(1, tensor_type(elem_type, nullptr));
  ProtoEncoder type;
  type.message_field(4, sequence);
  return type;
}
ProtoEncoder optional_type(const ProtoEncoder& element) {
  ProtoEncoder optional;  // TypeProto.Optional: elem_type (1)
  optional.message_field(1, element);
  ProtoEncoder type;
  type.message_field(9, optional);
  return type;
}

// SequenceProto: name (1), elem_type (2) = TENSOR (1), tensor_values (3).
Bytes sequence_proto(const std::string& name, const std::vector<ProtoEncoder>& tensors) {
  ProtoEncoder seq;
  seq.string_field(1, name);
  seq.int_field(2, 1);
  for (const ProtoEncoder& t : tensors) seq.message_field(3, t);
  return seq.take();
}

void case_run_sequence_input(Context& ctx) {
  // seq: sequence(tensor(float)) -> SequenceLength -> n: int64 scalar.
  Bytes bytes = model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
                      graph("sequence_graph", {node("SequenceLength", {"seq"}, {"n"}, "length")},
                            {value_info("seq", sequence_type(kFloat))}, {tensor_value("n", kInt64, {})}));
  write_bytes(ctx.path("sequence.onnx"), bytes);
  write_bytes(ctx.path("seq.pb"), sequence_proto("seq", {raw_tensor("", kFloat, {2}, le_floats({1, 2})),
                                                         raw_tensor("", kFloat, {1}, le_floats({3}))}));
  expect_success(ctx, run_cli(ctx, {"run", ctx.path("sequence.onnx"), "--inputs", ctx.path("seq.pb")}),
                 "n: int64 []\n[2]\n");

  // The wrong element type, a file that is no SequenceProto, a tensor file where a sequence is declared.
  write_bytes(ctx.path("int_seq.pb"), sequence_proto("seq", {raw_tensor("", kInt64, {1}, le_int64s({7}))}));
  expect_error(ctx, run_cli(ctx, {"run", ctx.path("sequence.onnx"), "--inputs", ctx.path("int_seq.pb")}),
               "input 'seq': '" + ctx.path("int_seq.pb") +
                   "' element 0 is an int64 tensor, the model declares a sequence of float tensors");
  write_bytes(ctx.path("garbage.pb"), hex("0a05616263"));  // name (1) of 5 bytes, 3 present
  expect_error_prefix(ctx, run_cli(ctx, {"run", ctx.path("sequence.onnx"), "--inputs", ctx.path("garbage.pb")}),
                      "input 'seq': '" + ctx.path("garbage.pb") + "' is not a valid onnx SequenceProto: ");
}

void case_run_sequence_output(Context& ctx) {
  Bytes construct = model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
                          graph("construct_graph", {node("SequenceConstruct", {"x", "x"}, {"seq"}, "construct")},
                                {tensor_value("x", kFloat, {fixed(2)})}, {value_info("seq", sequence_type(kFloat))}));
  write_bytes(ctx.path("construct.onnx"), construct);
  write_bytes(ctx.path("x.pb"), raw_tensor("x", kFloat, {2}, le_floats({1, 2})).take());
  expect_success(ctx, run_cli(ctx, {"run", ctx.path("construct.onnx"), "--inputs", ctx.path("x.pb")}),
                 "seq: sequence [2]\nseq[0]: float [2]\n[1, 2]\nseq[1]: float [2]\n[1, 2]\n");
  expect_success(
      ctx,
      run_cli(ctx, {"run", ctx.path("construct.onnx"), "--inputs", ctx.path("x.pb"), "--output-dir", ctx.path("out")}),
      "");
  const ProtoEncoder element = raw_tensor("", kFloat, {2}, le_floats({1, 2}));
  expect_true(ctx, "output_0.pb is the SequenceProto protobuf writes",
              read_bytes(ctx.path("out/output_0.pb")) == sequence_proto("seq", {element, element}));
  // The file reads back as the input of the sequence model above.
  Bytes length = model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
                       graph("length_graph", {node("SequenceLength", {"seq"}, {"n"}, "length")},
                             {value_info("seq", sequence_type(kFloat))}, {tensor_value("n", kInt64, {})}));
  write_bytes(ctx.path("length.onnx"), length);
  expect_success(ctx, run_cli(ctx, {"run", ctx.path("length.onnx"), "--inputs", ctx.path("out/output_0.pb")}),
                 "n: int64 []\n[2]\n");
}

void case_run_optional(Context& ctx) {
  // opt: optional(tensor(float)) -> OptionalHasElement -> has: bool scalar; OptionalGetElement -> value.
  const ProtoEncoder float_tensor = tensor_type(kFloat, nullptr);
  Bytes bytes = model(8, "onnxmicro-cli-tests", "1.0", {{"", 18}},
                      graph("optional_graph", {node("OptionalHasElement", {"opt"}, {"has"}, "has_element")},
                            {value_info("opt", optional_type(float_tensor))}, {tensor_value("has", kBool, {})}));
  write_bytes(ctx.path("optional.onnx"), bytes);
  ProtoEncoder full;  // OptionalProto: name (1), elem_type (2) = TENSOR, tensor_value (3)
  full.string_field(1, "opt");
  full.int_field(2, 1);
  full.message_field(3, raw_tensor("", kFloat, {1}, le_floats({5})));
  write_bytes(ctx.path("full.pb"), full.take());
  ProtoEncoder empty;  // elem_type set, no value: an empty optional
  empty.string_field(1, "opt");
  empty.int_field(2, 1);
  write_bytes(ctx.path("empty.pb"), empty.take());
  expect_success(ctx, run_cli(ctx, {"run", ctx.path("optional.onnx"), "--inputs", ctx.path("full.pb")}),
                 "has: bool []\n[true]\n");
  expect_success(ctx, run_cli(ctx, {"run", ctx.path("optional.onnx"), "--inputs", ctx.path("empty.pb")}),
                 "has: bool []\n[false]\n");
  ProtoEncoder of_sequence;  // an optional of a sequence where the model declares an optional of a tensor
  of_sequence.string_field(1, "opt");
  of_sequence.int_field(2, 3);
  of_sequence.message_field(5, ProtoEncoder());  // sequence_value (5): an empty SequenceProto
  write_bytes(ctx.path("of_sequence.pb"), of_sequence.take());
  expect_error(ctx, run_cli(ctx, {"run", ctx.path("optional.onnx"), "--inputs", ctx.path("of_sequence.pb")}),
               "input 'opt': '" + ctx.path("of_sequence.pb") +
                   "' is an optional of a sequence, the model declares an optional of a float tensor");

  // An optional output (Optional wraps a tensor) round-trips as an OptionalProto.
  Bytes wrap = model(8, "onnxmicro-cli-tests", "1.0", {{"", 18}},
                     graph("wrap_graph", {node("Optional", {"x"}, {"opt"}, "wrap")},
                           {tensor_value("x", kFloat, {fixed(1)})}, {value_info("opt", optional_type(float_tensor))}));
  write_bytes(ctx.path("wrap.onnx"), wrap);
  write_bytes(ctx.path("x.pb"), raw_tensor("x", kFloat, {1}, le_floats({5})).take());
  expect_success(
      ctx, run_cli(ctx, {"run", ctx.path("wrap.onnx"), "--inputs", ctx.path("x.pb"), "--output-dir", ctx.path("out")}),
      "");
  expect_success(ctx, run_cli(ctx, {"run", ctx.path("optional.onnx"), "--inputs", ctx.path("out/output_0.pb")}),
                 "has: bool []\n[true]\n");
}

constexpr std::int32_t kString = 8;

void case_run_strings(Context& ctx) {
  // x: string [2] -> Identity -> y.
  Bytes bytes = model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
                      graph("string_graph", {node("Identity", {"x"}, {"y"}, "copy")},
                            {tensor_value("x", kString, {fixed(2)})}, {tensor_value("y", kString, {fixed(2)})}));
  write_bytes(ctx.path("strings.onnx"), bytes);
  ProtoEncoder x;  // TensorProto: dims (1), data_type (2), string_data (6), name (8)
  x.int_field(1, 2);
  x.int_field(2, kString);
  x.string_field(6, "a");
  x.string_field(6, "b\"c");
  x.string_field(8, "x");
  write_bytes(ctx.path("x.pb"), x.bytes());
  expect_success(ctx, run_cli(ctx, {"run", ctx.path("strings.onnx"), "--inputs", ctx.path("x.pb")}),
                 "y: string [2]\n[\"a\", \"b\\\"c\"]\n");
  // NumPy's '<U3' (UTF-32, NUL-padded) and '|S3' arrays hold the same strings.
  Bytes utf32(2 * 3 * 4, 0);
  utf32[0] = 'a', utf32[12] = 'b', utf32[16] = '"', utf32[20] = 'c';
  write_bytes(ctx.path("x_u.npy"), npy("<U3", "(2,)", utf32));
  expect_success(ctx, run_cli(ctx, {"run", ctx.path("strings.onnx"), "--inputs", ctx.path("x_u.npy")}),
                 "y: string [2]\n[\"a\", \"b\\\"c\"]\n");
  write_bytes(ctx.path("x_s.npy"), npy("|S3", "(2,)", Bytes{'a', 0, 0, 'b', '"', 'c'}));
  expect_success(
      ctx,
      run_cli(ctx, {"run", ctx.path("strings.onnx"), "--inputs", ctx.path("x_s.npy"), "--output-dir", ctx.path("out")}),
      "");
  Bytes expected = x.take();
  expected.back() = 'y';  // the name is the last field
  expect_true(ctx, "output_0.pb is the string TensorProto protobuf writes",
              read_bytes(ctx.path("out/output_0.pb")) == expected);

  // A string file where the model declares float32; a float file where it declares strings.
  std::string relu = write_relu_model(ctx, "relu.onnx");
  ProtoEncoder words;
  words.int_field(1, 2);
  words.int_field(1, 3);
  words.int_field(2, kString);
  for (int i = 0; i < 6; ++i) words.string_field(6, "w");
  write_bytes(ctx.path("words.pb"), words.take());
  expect_error(ctx, run_cli(ctx, {"run", relu, "--inputs", ctx.path("words.pb")}),
               "input 'x': '" + ctx.path("words.pb") + "' holds string data, the model declares float");
  write_bytes(ctx.path("floats.pb"), raw_tensor("x", kFloat, {2}, le_floats({1, 2})).take());
  expect_error(ctx, run_cli(ctx, {"run", ctx.path("strings.onnx"), "--inputs", ctx.path("floats.pb")}),
               "input 'x': '" + ctx.path("floats.pb") + "' holds float data, the model declares string");
}

void case_plan(Context& ctx) {
  std::string relu = write_relu_model(ctx, "relu.onnx");
  write_bytes(ctx.path("x.pb"), raw_tensor("x", kFloat, {2, 3}, le_floats(kReluInput)).take());
  Result r = run_cli(ctx, {"plan", relu, "--inputs", ctx.path("x.pb")});
  if (r.exit_code != 0 || !r.err.empty()) {
    fail(ctx, "plan should succeed: " + describe(r));
    return;
  }
  // The numbers belong to the planner; check the report's structure and that the 24-byte input fits.
  std::istringstream lines(r.out);
  std::string line;
  std::map<std::string, long long> fields;
  std::size_t buffer_rows = 0;
  bool in_table = false;
  while (std::getline(lines, line)) {
    if (in_table) {
      ++buffer_rows;
      continue;
    }
    if (line.rfind("  buffer", 0) == 0) {
      in_table = true;
      continue;
    }
    std::size_t colon = line.find(": ");
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    if (key != "model") fields[key] = std::atoll(line.c_str() + colon + 2);
  }
  expect_true(ctx, "plan names the model: " + r.out, r.out.rfind("model: " + relu + "\n", 0) == 0);
  for (const char* key : {"metadata_bytes", "required_arena_bytes", "arena_bytes", "lower_bound_bytes", "buffers"}) {
    expect_true(ctx, std::string("plan prints ") + key + ": " + r.out, fields.count(key) == 1);
  }
  expect_true(ctx, "the arena holds the [2,3] float input: " + r.out, fields["required_arena_bytes"] >= 24);
  expect_true(ctx, "metadata_bytes > 0: " + r.out, fields["metadata_bytes"] > 0);
  expect_true(ctx, "one table row per buffer: " + r.out,
              static_cast<long long>(buffer_rows) == fields["buffers"] && buffer_rows >= 1);
  expect_error(ctx, run_cli(ctx, {"plan", ctx.path("missing.onnx")}),
               "cannot open model '" + ctx.path("missing.onnx") + "': no such file or directory");
}

// The header's constants are the numbers `plan` prints for the same model and inputs.
std::map<std::string, long long> plan_fields(const std::string& out) {
  std::map<std::string, long long> fields;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    std::size_t colon = line.find(": ");
    if (colon != std::string::npos && line.rfind("  ", 0) != 0) {
      fields[line.substr(0, colon)] = std::atoll(line.c_str() + colon + 2);
    }
  }
  return fields;
}

long long header_constant(const std::string& header, const std::string& name) {
  const std::string key = "inline constexpr std::size_t " + name + " = ";
  std::size_t at = header.find(key);
  return at == std::string::npos ? -1 : std::atoll(header.c_str() + at + key.size());
}

void case_kernels(Context& ctx) {
  std::string relu = write_relu_model(ctx, "relu.onnx");
  write_bytes(ctx.path("x.pb"), raw_tensor("x", kFloat, {2, 3}, le_floats(kReluInput)).take());
  Result r = run_cli(ctx, {"kernels", relu, "--name", "relu_net", "--inputs", ctx.path("x.pb")});
  if (r.exit_code != 0 || !r.err.empty()) {
    fail(ctx, "kernels should succeed: " + describe(r));
    return;
  }
  const std::string& h = r.out;
  expect_true(ctx, "the header says how it was made: " + h,
              h.rfind("// Generated by `onnxmicro kernels " + relu + " --name relu_net`; do not edit", 0) == 0);
  expect_true(ctx, "the header names the opset imports: " + h,
              h.find("(opset imports: ai.onnx 13)") != std::string::npos);
  // Relu's kernel type for opset 13 is Relu_1 (its semantics have not changed since version 1).
  expect_true(
      ctx, "exactly Relu's kernel: " + h,
      h.find("namespace relu_net {") != std::string::npos &&
          h.find(
              "using Kernels = onnxmicro::KernelSet<\n    onnxmicro::kernels::Relu_1>;  // ai.onnx Relu: 1 node\n") !=
              std::string::npos);
  // A float model: float32's bit, and a check that fails to compile in a build without float32 loops.
  expect_true(ctx, "kDtypeMask is float32's bit: " + h,
              h.find("inline constexpr std::uint32_t kDtypeMask = 0x2u;\n") != std::string::npos &&
                  h.find("static_assert(onnxmicro::dtype_enabled(onnxmicro::DataType::float32), \"relu_net has float "
                         "tensors") != std::string::npos);
  // Its tensors are [N,3] (bound to [2,3]): rank 2, with a check that fails to compile below it.
  expect_true(ctx, "kMaxRank is 2: " + h,
              h.find("inline constexpr int kMaxRank = 2;\nstatic_assert(ONNXMICRO_MAX_RANK >= 2, \"relu_net has rank-2 "
                     "tensors: ONNXMICRO_MAX_RANK must be at least 2\");\n") != std::string::npos);
  // A one-Relu model uses none of the optional features.
  expect_true(ctx, "kUnusedFeatures lists every switch: " + h,
              h.find("inline constexpr const char* kUnusedFeatures = \"ONNXMICRO_ENABLE_QDQ_FUSION=0;ONNXMICRO_ENABLE_"
                     "MODEL_FUNCTIONS=0;ONNXMICRO_ENABLE_EXTERNAL_DATA=0;ONNXMICRO_ENABLE_SUBGRAPHS=0\";\n") !=
                  std::string::npos);
  // Its input has a symbolic dim, so dynamic shapes are in use; with every input shape fixed they are not.
  expect_true(ctx, "a symbolic dim keeps dynamic shapes: " + h,
              h.find("ONNXMICRO_ENABLE_DYNAMIC_SHAPES") == std::string::npos);
  {
    const std::vector<Dim> dims = {fixed(2), fixed(3)};
    write_bytes(ctx.path("relu_fixed.onnx"),
                model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
                      graph("relu_graph", {node("Relu", {"x"}, {"y"}, "relu")}, {tensor_value("x", kFloat, dims)},
                            {tensor_value("y", kFloat, dims)})));
    Result fixed_shapes = run_cli(ctx, {"kernels", ctx.path("relu_fixed.onnx")});
    expect_true(ctx, "fixed input shapes leave dynamic shapes unused: " + fixed_shapes.out + fixed_shapes.err,
                fixed_shapes.exit_code == 0 &&
                    fixed_shapes.out.find(";ONNXMICRO_ENABLE_SUBGRAPHS=0;ONNXMICRO_ENABLE_DYNAMIC_SHAPES=0\";\n") !=
                        std::string::npos);
  }
  Result p = run_cli(ctx, {"plan", relu, "--inputs", ctx.path("x.pb")});
  std::map<std::string, long long> fields = plan_fields(p.out);
  expect_true(
      ctx, "kArenaBytes = plan's required_arena_bytes: " + h + p.out,
      header_constant(h, "kArenaBytes") == fields["required_arena_bytes"] && fields["required_arena_bytes"] >= 24);
  expect_true(ctx, "kArenaLowerBoundBytes = plan's lower_bound_bytes: " + h + p.out,
              header_constant(h, "kArenaLowerBoundBytes") == fields["lower_bound_bytes"]);
  expect_true(ctx, "kModelMetadataBytes = plan's metadata_bytes: " + h + p.out,
              header_constant(h, "kModelMetadataBytes") == fields["metadata_bytes"] && fields["metadata_bytes"] > 0);
  expect_true(ctx, "kSessionMetadataBytes = plan's session_metadata_bytes: " + h + p.out,
              header_constant(h, "kSessionMetadataBytes") == fields["session_metadata_bytes"] &&
                  fields["session_metadata_bytes"] > 0);

  // -o writes the same text; the default name is the file's stem.
  Result to_file = run_cli(ctx, {"kernels", relu, "-o", ctx.path("relu_kernels.hpp"), "--inputs", ctx.path("x.pb")});
  expect_true(ctx, "-o prints nothing: " + describe(to_file),
              to_file.exit_code == 0 && to_file.out.empty() && to_file.err.empty());
  const std::string written = read_text(ctx.path("relu_kernels.hpp"));
  expect_true(ctx, "default namespace is the file stem: " + written,
              written.find("namespace relu {") != std::string::npos);

  expect_usage_error(ctx, run_cli(ctx, {"kernels", relu, "--name", "9lives"}),
                     "--name '9lives' is not a C++ identifier");
  expect_usage_error(ctx, run_cli(ctx, {"kernels", relu, "--name"}), "--name needs NAME");
  expect_usage_error(ctx, run_cli(ctx, {"kernels", relu, "--json"}), "unknown option '--json' for 'kernels'");
  expect_usage_error(ctx, run_cli(ctx, {"kernels"}), "missing MODEL");
  // A model this build cannot run has no kernel set: the session's error, naming the node.
  expect_error_prefix(ctx, run_cli(ctx, {"kernels", write_unsupported_model(ctx)}),
                      "cannot prepare '" + ctx.path("unsupported.onnx") + "': unsupported: node 'frob1'");
}

// --optimize-for-size plans as a build with ONNXMICRO_OPTIMIZE_FOR_SIZE=1 does: Conv needs no im2col scratch and
// Gemm (transB = 1) keeps no packed copy of its weights, so both the arena and the session metadata shrink;
// the outputs stay the same; `kernels` records the flag in its command line and in a static_assert.
// plan lists the Relu folded into the Conv before it; kernels still lists Relu (a firmware runs every node).
void case_plan_fused_activations(Context& ctx) {
  std::vector<float> w(2 * 2 * 9);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 5) * 0.25f - 0.5f;
  const std::vector<Dim> dims = {fixed(1), fixed(2), fixed(4), fixed(4)};
  const std::vector<Dim> y_dims = {fixed(1), fixed(2), fixed(2), fixed(2)};
  write_bytes(ctx.path("conv_relu.onnx"),
              model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
                    graph("g", {node("Conv", {"x", "w"}, {"c"}, "conv"), node("Relu", {"c"}, {"y"}, "relu")},
                          {tensor_value("x", kFloat, dims)}, {tensor_value("y", kFloat, y_dims)},
                          {raw_tensor("w", kFloat, {2, 2, 3, 3}, le_floats(w))})));
  const std::string path = ctx.path("conv_relu.onnx");
  const Result plan = run_cli(ctx, {"plan", path});
  expect_true(ctx, "plan lists the fusion: " + describe(plan),
              plan.exit_code == 0 &&
                  plan.out.find("\nfused_activations: 1\n  Conv 'conv' + Relu 'relu'\n") != std::string::npos);
  const Result small = run_cli(ctx, {"plan", path, "--optimize-for-size"});
  expect_true(ctx, "a size-optimised plan fuses nothing: " + describe(small),
              small.exit_code == 0 && small.out.find("\nfused_activations:") == std::string::npos);
  const Result kernels = run_cli(ctx, {"kernels", path});
  expect_true(ctx, "kernels keeps Relu: " + describe(kernels),
              kernels.exit_code == 0 && kernels.out.find("Relu_") != std::string::npos);
  // x [2,3] -> MatMul (W [3,4]) -> Add (bias [4]) -> Relu: one line lists all three.
  const std::vector<float> mw(12, 0.5f), bias = {0.25f, -0.5f, 1.0f, -2.0f};
  write_bytes(
      ctx.path("linear_relu.onnx"),
      model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
            graph("g",
                  {node("MatMul", {"x", "w"}, {"m"}, "mm"), node("Add", {"m", "b"}, {"a"}, "bias"),
                   node("Relu", {"a"}, {"y"}, "relu")},
                  {tensor_value("x", kFloat, {fixed(2), fixed(3)})}, {tensor_value("y", kFloat, {fixed(2), fixed(4)})},
                  {raw_tensor("w", kFloat, {3, 4}, le_floats(mw)), raw_tensor("b", kFloat, {4}, le_floats(bias))})));
  const Result linear = run_cli(ctx, {"plan", ctx.path("linear_relu.onnx")});
  expect_true(ctx, "plan lists the MatMul chain: " + describe(linear),
              linear.exit_code == 0 && linear.out.find("\nfused_activations: 1\n  MatMul 'mm' + Add 'bias' + Relu "
                                                       "'relu'\n") != std::string::npos);
}

void case_optimize_for_size(Context& ctx) {
  // x [1,2,6,6] -> Conv (W [4,2,3,3]) -> [1,4,4,4] -> Flatten -> [1,64] -> Gemm (B [8,64], transB) -> [1,8].
  // (Two input channels: a one-channel Conv runs each output plane directly, without a column matrix.)
  std::vector<float> w(4 * 18), b(8 * 64), x(72);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 7) * 0.25f - 0.5f;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 5) * 0.125f - 0.25f;
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.0625f;
  ProtoEncoder trans_b;  // AttributeProto: name (1), i (3), type (20) = INT (2)
  trans_b.string_field(1, "transB");
  trans_b.int_field(3, 1);
  trans_b.int_field(20, 2);
  const std::vector<Dim> x_dims = {fixed(1), fixed(2), fixed(6), fixed(6)};
  const std::vector<Dim> y_dims = {fixed(1), fixed(8)};
  write_bytes(ctx.path("cnn.onnx"),
              model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
                    graph("cnn_graph",
                          {node("Conv", {"x", "w"}, {"c"}, "conv"), node("Flatten", {"c"}, {"f"}, "flatten"),
                           node("Gemm", {"f", "b"}, {"y"}, "gemm", "", {trans_b})},
                          {tensor_value("x", kFloat, x_dims)}, {tensor_value("y", kFloat, y_dims)},
                          {raw_tensor("w", kFloat, {4, 2, 3, 3}, le_floats(w)),
                           raw_tensor("b", kFloat, {8, 64}, le_floats(b))})));
  write_bytes(ctx.path("x.pb"), raw_tensor("x", kFloat, {1, 2, 6, 6}, le_floats(x)).take());
  const std::string cnn = ctx.path("cnn.onnx");
  Result fast = run_cli(ctx, {"plan", cnn});
  Result small = run_cli(ctx, {"plan", cnn, "--optimize-for-size"});
  if (fast.exit_code != 0 || small.exit_code != 0) {
    fail(ctx, "plan should succeed: " + describe(fast) + describe(small));
    return;
  }
  std::map<std::string, long long> f = plan_fields(fast.out), s = plan_fields(small.out);
  // Without the flag Conv gathers a column matrix of 18 rows x 16 positions (1152 bytes) into scratch.
  expect_true(ctx, "the arena loses Conv's scratch: " + fast.out + small.out,
              f["required_arena_bytes"] >= s["required_arena_bytes"] + 1152);
  // ... and Gemm packs the transposed 8 x 64 weights (2048 bytes) into session metadata.
  expect_true(ctx, "session metadata loses Gemm's packed B: " + fast.out + small.out,
              f["session_metadata_bytes"] >= s["session_metadata_bytes"] + 2048);
  Result fast_run = run_cli(ctx, {"run", cnn, "--inputs", ctx.path("x.pb"), "--print"});
  Result small_run = run_cli(ctx, {"run", cnn, "--inputs", ctx.path("x.pb"), "--print", "--optimize-for-size"});
  expect_true(ctx, "same outputs: " + describe(fast_run) + describe(small_run),
              fast_run.exit_code == 0 && !fast_run.out.empty() && fast_run.out == small_run.out);
  Result header = run_cli(ctx, {"kernels", cnn, "--optimize-for-size"});
  expect_true(
      ctx, "the header records the flag: " + describe(header),
      header.exit_code == 0 &&
          header.out.rfind("// Generated by `onnxmicro kernels " + cnn + " --name cnn --optimize-for-size`", 0) == 0 &&
          header.out.find("inline constexpr bool kOptimizeForSize = true;\nstatic_assert("
                          "ONNXMICRO_OPTIMIZE_FOR_SIZE == 1, \"cnn's arena and metadata sizes were planned "
                          "for ONNXMICRO_OPTIMIZE_FOR_SIZE=1: regenerate the header without "
                          "--optimize-for-size\");") != std::string::npos &&
          header_constant(header.out, "kArenaBytes") == s["required_arena_bytes"]);
}

// ---- bench ---------------------------------------------------------------------------------------------------

// A small JSON reader for `bench --json`: the whole text must be one JSON value.
struct Json {
  enum class Kind { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  bool flag = false;
  double number = 0;
  std::string text;
  std::vector<Json> items;
  std::map<std::string, Json> members;
  bool has(const std::string& key) const { return kind == Kind::object && members.count(key) == 1; }
  const Json& at(const std::string& key) const {
    static const Json kNull;
    return has(key) ? members.at(key) : kNull;
  }
};

class JsonReader {
 public:
  explicit JsonReader(const std::string& text) : s_(text) {}
  // False when the text is not exactly one JSON value (surrounding whitespace allowed).
  bool read(Json& out) {
    bool ok = value(out);
    skip_space();
    return ok && at_ == s_.size();
  }

 private:
  void skip_space() {
    while (at_ < s_.size() && std::strchr(" \t\r\n", s_[at_]) != nullptr) ++at_;
  }
  bool literal(const char* word) {
    std::size_t n = std::strlen(word);
    if (s_.compare(at_, n, word) != 0) return false;
    at_ += n;
    return true;
  }
  bool string(std::string& out) {
    if (s_[at_++] != '"') return false;
    while (at_ < s_.size() && s_[at_] != '"') {
      char c = s_[at_++];
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c == '\\') {
        if (at_ >= s_.size()) return false;
        c = s_[at_++];
        if (c == 'u') {
          if (at_ + 4 > s_.size()) return false;
          c = static_cast<char>(std::stoi(s_.substr(at_, 4), nullptr, 16));  // enough for the tests' names
          at_ += 4;
        } else if (std::strchr("\"\\/bfnrt", c) == nullptr) {
          return false;
        }
      }
      out += c;
    }
    return at_++ < s_.size();
  }
  bool number(double& out) {
    std::size_t start = at_;
    while (at_ < s_.size() && std::strchr("+-.eE0123456789", s_[at_]) != nullptr) ++at_;
    if (start == at_) return false;
    char* end = nullptr;
    const std::string text = s_.substr(start, at_ - start);
    out = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size();
  }
  template <typename Element>
  bool sequence(char close, Element element) {
    ++at_;
    skip_space();
    if (at_ < s_.size() && s_[at_] == close) {
      ++at_;
      return true;
    }
    for (;;) {
      if (!element()) return false;
      skip_space();
      if (at_ >= s_.size()) return false;
      char c = s_[at_++];
      if (c == close) return true;
      if (c != ',') return false;
    }
  }
  bool value(Json& out) {
    skip_space();
    if (at_ >= s_.size()) return false;
    switch (s_[at_]) {
      case '{':
        out.kind = Json::Kind::object;
        return sequence('}', [&] {
          std::string key;
          skip_space();
          if (at_ >= s_.size() || !string(key)) return false;
          skip_space();
          if (at_ >= s_.size() || s_[at_++] != ':') return false;
          return out.members.count(key) == 0 && value(out.members[key]);
        });
      case '[':
        out.kind = Json::Kind::array;
        return sequence(']', [&] {
          out.items.emplace_back();
          return value(out.items.back());
        });
      case '"': out.kind = Json::Kind::string; return string(out.text);
      case 't':
        out.kind = Json::Kind::boolean;
        out.flag = true;
        return literal("true");
      case 'f': out.kind = Json::Kind::boolean; return literal("false");
      case 'n': return literal("null");
      default: out.kind = Json::Kind::number; return number(out.number);
    }
  }

  const std::string& s_;
  std::size_t at_ = 0;
};

// x [N,1,4,4] -> Relu -> Conv (W [2,1,3,3]) -> [N,2,2,2] -> Flatten -> [N,8] -> MatMul (B [8,3]) -> y [N,3].
// The Relu comes first so that no fusion into the op before it can take it out of the profile.
std::string write_bench_model(const Context& ctx) {
  std::vector<float> w(2 * 9), b(8 * 3);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 5) * 0.25f - 0.5f;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 3) * 0.5f - 0.5f;
  write_bytes(ctx.path("bench.onnx"),
              model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
                    graph("bench_graph",
                          {node("Relu", {"x"}, {"r"}, "relu"), node("Conv", {"r", "w"}, {"c"}, "conv"),
                           node("Flatten", {"c"}, {"f"}, "flatten"), node("MatMul", {"f", "b"}, {"y"}, "matmul")},
                          {tensor_value("x", kFloat, {symbolic("N"), fixed(1), fixed(4), fixed(4)})},
                          {tensor_value("y", kFloat, {symbolic("N"), fixed(3)})},
                          {raw_tensor("w", kFloat, {2, 1, 3, 3}, le_floats(w)),
                           raw_tensor("b", kFloat, {8, 3}, le_floats(b))})));
  return ctx.path("bench.onnx");
}

// The "key: value" lines of a report (not the indented ones).
std::map<std::string, std::string> text_fields(const std::string& out) {
  std::map<std::string, std::string> fields;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    std::size_t colon = line.find(": ");
    if (colon != std::string::npos && line.rfind(" ", 0) != 0) fields[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return fields;
}

// The instruction set bench reports: this CPU's best, capped by ONNXMICRO_MAX_ISA when the environment sets it.
onnxmicro::Isa expected_isa_level() {
  onnxmicro::Isa isa = onnxmicro::Isa::baseline;
  onnxmicro::effective_isa(onnxmicro::Isa::best, isa);
  return isa;
}
std::string expected_isa() { return std::string(onnxmicro::isa_name(expected_isa_level())); }

const char* const kBenchTimes[] = {"load_ms", "prepare_ms", "first_run_ms", "median_ms", "p10_ms", "p90_ms"};

void case_bench(Context& ctx) {
  std::string relu = write_relu_model(ctx, "relu.onnx");
  write_bytes(ctx.path("x.pb"), raw_tensor("x", kFloat, {2, 3}, le_floats(kReluInput)).take());
  Result r = run_cli(ctx, {"bench", relu, "--inputs", ctx.path("x.pb"), "--runs", "3", "--warmup", "1"});
  if (r.exit_code != 0 || !r.err.empty()) {
    fail(ctx, "bench should succeed: " + describe(r));
    return;
  }
  const std::string isa = expected_isa();
  expect_true(ctx, "bench names the model, ISA, threads and inputs: " + r.out,
              r.out.rfind("model: " + relu + "\nisa: " + isa + "\n" + conv_tiles_line(expected_isa_level(), "") +
                              "threads: 1\ninputs: 1\n  x: float [2,3] (file)\n",
                          0) == 0);
  std::map<std::string, std::string> f = text_fields(r.out);
  for (const char* key : kBenchTimes) {
    expect_true(ctx, std::string("bench prints ") + key + " >= 0: " + r.out,
                f.count(key) == 1 && std::strtod(f[key].c_str(), nullptr) >= 0);
  }
  expect_true(ctx, "p10 <= median <= p90: " + r.out,
              std::strtod(f["p10_ms"].c_str(), nullptr) <= std::strtod(f["median_ms"].c_str(), nullptr) &&
                  std::strtod(f["median_ms"].c_str(), nullptr) <= std::strtod(f["p90_ms"].c_str(), nullptr));
  expect_true(ctx, "runs and warmup as asked: " + r.out, f["runs"] == "3" && f["warmup"] == "1");
  expect_true(ctx, "the arena holds the [2,3] input: " + r.out, std::atoll(f["arena_bytes"].c_str()) >= 24);
  expect_true(ctx, "metadata_bytes > 0: " + r.out, std::atoll(f["metadata_bytes"].c_str()) > 0);
  expect_true(ctx, "peak_rss_kb > 0: " + r.out, std::atoll(f["peak_rss_kb"].c_str()) > 0);
  expect_true(ctx, "one profiled node, from 3 runs: " + r.out,
              f["nodes"].rfind("1 (median of 3 observed runs", 0) == 0);
  expect_true(ctx, "the profile row names Relu, without GFLOP/s: " + r.out,
              r.out.find("%         -  Relu  relu\n") != std::string::npos);

  // Help: bench's own, and a line in the overview.
  Result help = run_cli(ctx, {"bench", "--help"});
  expect_true(ctx, "bench --help: " + describe(help),
              help.exit_code == 0 && help.out.rfind("usage: onnxmicro bench MODEL", 0) == 0);
  Result overview = run_cli(ctx, {"--help"});
  expect_true(ctx, "onnxmicro --help lists bench: " + overview.out,
              overview.out.find("\n  bench MODEL") != std::string::npos);
}

void case_bench_json(Context& ctx) {
  std::string path = write_bench_model(ctx);
  Result r = run_cli(ctx, {"bench", path, "--shape", "x=2,1,4,4", "--runs", "3", "--warmup", "1", "--json"});
  Json json;
  if (r.exit_code != 0 || !r.err.empty() || !JsonReader(r.out).read(json) || json.kind != Json::Kind::object) {
    fail(ctx, "bench --json should succeed and print one JSON object: " + describe(r));
    return;
  }
  for (const char* key : {"median_ms", "p10_ms", "p90_ms", "load_ms", "prepare_ms", "first_run_ms", "threads", "isa",
                          "arena_bytes", "metadata_bytes", "peak_rss_kb", "runs", "warmup", "nodes"}) {
    expect_true(ctx, std::string("bench --json has ") + key + ": " + r.out, json.has(key));
  }
  for (const char* key : kBenchTimes) {
    expect_true(ctx, std::string(key) + " is a number >= 0: " + r.out,
                json.at(key).kind == Json::Kind::number && json.at(key).number >= 0);
  }
  expect_true(ctx, "runs, warmup, threads: " + r.out,
              json.at("runs").number == 3 && json.at("warmup").number == 1 && json.at("threads").number == 1);
  expect_true(ctx, "isa: " + r.out, json.at("isa").text == expected_isa());
  expect_true(
      ctx, "conv_isa: " + r.out,
      json.has("conv_isa") && json.at("conv_isa").text ==
                                  onnxmicro::isa_name(onnxmicro::kernels::gemm::convolution_isa(expected_isa_level())));
  expect_true(ctx, "arena_bytes > 0: " + r.out, json.at("arena_bytes").number > 0);
  const Json& inputs = json.at("inputs");
  expect_true(ctx, "the input is random, of the --shape: " + r.out,
              inputs.items.size() == 1 && inputs.items[0].at("name").text == "x" &&
                  inputs.items[0].at("source").text == "random" && inputs.items[0].at("shape").items.size() == 4 &&
                  inputs.items[0].at("shape").items[0].number == 2);
  const Json& nodes = json.at("nodes");
  std::map<std::string, std::string> ops;  // name -> op
  double shares = 0;
  for (const Json& n : nodes.items) {
    ops[n.at("name").text] = n.at("op").text;
    shares += n.at("share").number;
    const bool counted = n.at("op").text == "Conv" || n.at("op").text == "MatMul";
    expect_true(ctx, "node " + n.at("name").text + ": ms >= 0, share in [0,1], gflops for Conv and MatMul: " + r.out,
                n.at("ms").kind == Json::Kind::number && n.at("ms").number >= 0 && n.at("share").number >= 0 &&
                    n.at("share").number <= 1 && n.has("gflops") == counted &&
                    (!counted || n.at("gflops").number >= 0));
  }
  // Every row is a node of the model; Relu, Conv and MatMul always run (Flatten may become an alias some day).
  const std::map<std::string, std::string> model_ops = {
      {"relu", "Relu"}, {"conv", "Conv"}, {"flatten", "Flatten"}, {"matmul", "MatMul"}};
  bool known = true;
  for (const auto& [name, op] : ops) known = known && model_ops.count(name) == 1 && model_ops.at(name) == op;
  expect_true(ctx, "nodes name the model's ops: " + r.out,
              known && ops.count("relu") == 1 && ops.count("conv") == 1 && ops.count("matmul") == 1);
  expect_true(ctx, "shares add up to 1: " + r.out, shares == 0 || (shares > 0.99 && shares < 1.01));
}

// --threads: bench, run and plan prepare with a pool of that many threads and report it; run's outputs are the same.
void case_threads(Context& ctx) {
  std::string relu = write_relu_model(ctx, "relu.onnx");
  write_bytes(ctx.path("x.pb"), raw_tensor("x", kFloat, {2, 3}, le_floats(kReluInput)).take());
  Result bench = run_cli(ctx, {"bench", relu, "--inputs", ctx.path("x.pb"), "--runs", "2", "--threads", "3", "--json"});
  Json json;
  expect_true(ctx, "bench --threads 3 --json says threads 3: " + describe(bench),
              bench.exit_code == 0 && JsonReader(bench.out).read(json) && json.at("threads").number == 3);
  Result plan = run_cli(ctx, {"plan", relu, "--threads=2", "--inputs", ctx.path("x.pb")});
  expect_true(ctx, "plan --threads=2 says threads: 2: " + describe(plan),
              plan.exit_code == 0 && plan.out.find("\nthreads: 2\n") != std::string::npos);
  Result one = run_cli(ctx, {"run", relu, "--inputs", ctx.path("x.pb"), "--print"});
  Result two = run_cli(ctx, {"run", relu, "--threads", "2", "--inputs", ctx.path("x.pb"), "--print"});
  expect_true(ctx, "run --threads 2 prints what run prints: " + describe(two),
              one.exit_code == 0 && two.exit_code == 0 && !one.out.empty() && one.out == two.out);
  expect_usage_error(ctx, run_cli(ctx, {"run", relu, "--threads", "-1", "--inputs", ctx.path("x.pb")}),
                     "--threads expects a whole number from 1 to 1024, got '-1'");
  expect_usage_error(ctx, run_cli(ctx, {"plan", relu, "--threads", "1025"}),
                     "--threads expects a whole number from 1 to 1024, got '1025'");
  Result help = run_cli(ctx, {"run", "--help"});
  expect_true(ctx, "run --help lists --threads: " + describe(help),
              help.out.find("  --threads N") != std::string::npos);
}

void case_bench_shape(Context& ctx) {
  std::string path = write_bench_model(ctx);
  Result r = run_cli(ctx, {"bench", path, "--shape", "x=3,1,4,4", "--runs", "3", "--warmup", "0"});
  expect_true(
      ctx, "bench with --shape: " + describe(r),
      r.exit_code == 0 && r.err.empty() && r.out.find("\n  x: float [3,1,4,4] (random)\n") != std::string::npos);
  r = run_cli(ctx, {"bench", path, "--shape=x=1,1,4,4", "--runs=3", "--warmup=0"});
  expect_true(ctx, "bench with --shape=: " + describe(r),
              r.exit_code == 0 && r.out.find("\n  x: float [1,1,4,4] (random)\n") != std::string::npos);
  expect_error(ctx, run_cli(ctx, {"bench", path}),
               "input 'x': axis 0 has no size (symbolic dim 'N'): give the shape with --shape, e.g. --shape "
               "x=1,1,4,4");
  expect_error(ctx, run_cli(ctx, {"bench", path, "--shape", "x=2,1,4,5"}),
               "--shape x=2,1,4,5 does not fit input 'x', declared [N,1,4,4]");
  expect_error(ctx, run_cli(ctx, {"bench", path, "--shape", "x=2,16"}),
               "--shape x=2,16 does not fit input 'x', declared [N,1,4,4]");
  expect_usage_error(ctx, run_cli(ctx, {"bench", path, "--shape", "x=2,,4"}),
                     "--shape expects NAME=D0,D1,... (dims: whole numbers >= 0), got 'x=2,,4'");
  expect_usage_error(ctx, run_cli(ctx, {"bench", path, "--shape", "x=1,1,4,4", "--shape", "x=2,1,4,4"}),
                     "--shape for 'x' is given twice");
  // An input with a file takes its shape from it.
  write_bytes(ctx.path("x.pb"), raw_tensor("x", kFloat, {1, 1, 4, 4}, le_floats(std::vector<float>(16, 0.5f))).take());
  expect_error(ctx, run_cli(ctx, {"bench", path, "--inputs", ctx.path("x.pb"), "--shape", "x=1,1,4,4"}),
               "--shape x=1,1,4,4: input 'x' is read from a file, which gives its shape");
}

void case_bench_errors(Context& ctx) {
  std::string relu = write_relu_model(ctx, "relu.onnx");
  expect_usage_error(ctx, run_cli(ctx, {"bench"}), "missing MODEL");
  expect_error(ctx, run_cli(ctx, {"bench", ctx.path("missing.onnx")}),
               "cannot open model '" + ctx.path("missing.onnx") + "': no such file or directory");
  expect_usage_error(ctx, run_cli(ctx, {"bench", relu, "--fast"}), "unknown option '--fast' for 'bench'");
  expect_usage_error(ctx, run_cli(ctx, {"bench", relu, "--runs", "0"}),
                     "--runs expects a whole number from 1 to 1000000, got '0'");
  expect_usage_error(ctx, run_cli(ctx, {"bench", relu, "--warmup", "-1"}),
                     "--warmup expects a whole number from 0 to 1000000, got '-1'");
  expect_usage_error(ctx, run_cli(ctx, {"bench", relu, "--runs"}), "--runs needs a number");
  expect_usage_error(ctx, run_cli(ctx, {"bench", relu, "--threads", "0"}),
                     "--threads expects a whole number from 1 to 1024, got '0'");
  expect_usage_error(ctx, run_cli(ctx, {"bench", relu, "--threads=two"}),
                     "--threads expects a whole number from 1 to 1024, got 'two'");
  expect_usage_error(ctx, run_cli(ctx, {"bench", relu, "--threads"}),
                     "--threads expects a whole number from 1 to 1024, got nothing");
  expect_error(ctx, run_cli(ctx, {"bench", relu, "--shape", "z=2,3"}),
               "--shape z=2,3: the model has no input named 'z' (its inputs: 'x')");
  // The unsupported model fails at prepare, naming the node.
  std::string unsupported = write_unsupported_model(ctx);
  expect_error_prefix(ctx, run_cli(ctx, {"bench", unsupported, "--runs", "1"}),
                      "cannot prepare '" + unsupported + "': unsupported: ");
}

// ---- compare and run --dump -------------------------------------------------------------------------------------

// x [1,2,4,4] -> Conv 'conv' (W [2,2,3,3]) -> c -> Relu 'relu' -> "r/1:0" -> Add 'add' (with nb = Neg 'neg' of the
// initializer b: folded at prepare) -> y [1,2,2,2]; Shape 'shape' of x -> s [4] (int64). The Relu fuses into the Conv.
std::string write_compare_model(const Context& ctx) {
  std::vector<float> w(2 * 2 * 9);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 5) * 0.25f - 0.5f;
  const std::vector<Dim> dims = {fixed(1), fixed(2), fixed(4), fixed(4)};
  const std::vector<Dim> y_dims = {fixed(1), fixed(2), fixed(2), fixed(2)};
  write_bytes(ctx.path("compare.onnx"),
              model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
                    graph("g",
                          {node("Conv", {"x", "w"}, {"c"}, "conv"), node("Relu", {"c"}, {"r/1:0"}, "relu"),
                           node("Neg", {"b"}, {"nb"}, "neg"), node("Add", {"r/1:0", "nb"}, {"y"}, "add"),
                           node("Shape", {"x"}, {"s"}, "shape")},
                          {tensor_value("x", kFloat, dims)},
                          {tensor_value("y", kFloat, y_dims), tensor_value("s", kInt64, {fixed(4)})},
                          {raw_tensor("w", kFloat, {2, 2, 3, 3}, le_floats(w)),
                           raw_tensor("b", kFloat, {1, 2, 1, 1}, le_floats({0.25f, -0.5f}))})));
  std::vector<float> x(32);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7) % 11) * 0.5f - 2.0f;
  write_bytes(ctx.path("compare_x.pb"), raw_tensor("x", kFloat, {1, 2, 4, 4}, le_floats(x)).take());
  return ctx.path("compare.onnx");
}

// The last `n` bytes of a file: the raw_data of a TensorProto the CLI wrote (its last field).
Bytes tail_bytes(const std::string& path, std::size_t n) {
  const Bytes all = read_bytes(path);
  return all.size() < n ? Bytes() : Bytes(all.end() - static_cast<std::ptrdiff_t>(n), all.end());
}

// compare passes against the CLI's own outputs (.pb, .npy, NAME=FILE), fails naming the output and the worst element
// for a wrong reference, and compares integers exactly unless a tolerance is given.
void case_compare(Context& ctx) {
  const std::string m = write_compare_model(ctx);
  const std::string x = ctx.path("compare_x.pb");
  const Result run = run_cli(ctx, {"run", m, "--inputs", x, "--output-dir", ctx.path("out")});
  expect_true(ctx, "run writes the reference outputs: " + describe(run), run.exit_code == 0);
  const std::string y_pb = ctx.path("out/output_0.pb"), s_pb = ctx.path("out/output_1.pb");
  Result r = run_cli(ctx, {"compare", m, "--inputs", x, "--expected", y_pb, s_pb});
  expect_true(ctx, "compare with the CLI's own outputs passes: " + describe(r),
              r.exit_code == 0 && r.err.empty() &&
                  r.out.find("output 'y' float [1,2,2,2]: ok\n  max abs diff 0, max rel diff 0, mismatched 0 / 8 "
                             "(rtol 0.001, atol 1e-05)\n") != std::string::npos &&
                  r.out.find("output 's' int64 [4]: ok\n  max abs diff 0, max rel diff 0, mismatched 0 / 4 (exact: an "
                             "integer type)\n") != std::string::npos &&
                  r.out.find("\nall 2 outputs within tolerance\n") != std::string::npos);

  // The same values as .npy, and by name (only the named output is compared).
  const Bytes y = tail_bytes(y_pb, 32);
  write_bytes(ctx.path("y.npy"), npy("<f4", "(1, 2, 2, 2)", y));
  r = run_cli(ctx, {"compare", m, "--inputs", x, "--expected", "y=" + ctx.path("y.npy")});
  expect_true(ctx, ".npy expected by name passes: " + describe(r),
              r.exit_code == 0 && r.out.find("all 1 output within tolerance\n") != std::string::npos &&
                  r.out.find("output 's'") == std::string::npos);

  // A wrong reference: element [0,1,0,1] off by 0.5.
  std::vector<float> wrong(8);
  std::memcpy(wrong.data(), y.data(), 32);
  wrong[5] += 0.5f;
  write_bytes(ctx.path("wrong.npy"), npy("<f4", "(1, 2, 2, 2)", le_floats(wrong)));
  r = run_cli(ctx, {"compare", m, "--inputs", x, "--expected", ctx.path("wrong.npy"), s_pb});
  std::ostringstream worst;
  worst << "  worst element [0,1,0,1]: got ";
  expect_true(
      ctx, "a wrong reference fails naming the output and the worst element: " + describe(r),
      r.exit_code == 1 && r.err.empty() &&
          r.out.find("output 'y' float [1,2,2,2]: BEYOND TOLERANCE\n  max abs diff 0.5, ") != std::string::npos &&
          r.out.find("mismatched 1 / 8 (rtol 0.001, atol 1e-05)\n" + worst.str()) != std::string::npos &&
          r.out.find("\n1 of 2 outputs beyond tolerance\n") != std::string::npos);
  // ... and passes with a tolerance that covers it.
  r = run_cli(ctx, {"compare", m, "--inputs", x, "--expected", ctx.path("wrong.npy"), s_pb, "--atol", "0.6"});
  expect_true(ctx, "--atol 0.6 covers a difference of 0.5: " + describe(r), r.exit_code == 0);

  // Integers: exact unless a tolerance is given.
  Bytes s = tail_bytes(s_pb, 32);
  s[8] = static_cast<unsigned char>(s[8] + 1);  // s[1] + 1
  write_bytes(ctx.path("s_off.npy"), npy("<i8", "(4,)", s));
  r = run_cli(ctx, {"compare", m, "--inputs", x, "--expected", "s=" + ctx.path("s_off.npy")});
  expect_true(ctx, "an integer off by one fails without a tolerance: " + describe(r),
              r.exit_code == 1 && r.out.find("output 's' int64 [4]: BEYOND TOLERANCE") != std::string::npos &&
                  r.out.find("worst element [1]: got 2, expected 3") != std::string::npos);
  r = run_cli(ctx, {"compare", m, "--inputs", x, "--expected", "s=" + ctx.path("s_off.npy"), "--atol", "1"});
  expect_true(ctx, "an integer off by one passes with --atol 1: " + describe(r), r.exit_code == 0);

  r = run_cli(ctx, {"compare", "--help"});
  expect_true(ctx, "compare --help: " + describe(r),
              r.exit_code == 0 && r.out.rfind("usage: onnxmicro compare", 0) == 0 &&
                  r.out.find("(default 1e-3)") != std::string::npos);
}

// Wrong references and command lines: one error line (exit 1) or a usage error (exit 2).
void case_compare_errors(Context& ctx) {
  const std::string m = write_compare_model(ctx);
  const std::string x = ctx.path("compare_x.pb");
  expect_true(ctx, "reference outputs",
              run_cli(ctx, {"run", m, "--inputs", x, "--output-dir", ctx.path("out")}).exit_code == 0);
  const std::string y_pb = ctx.path("out/output_0.pb"), s_pb = ctx.path("out/output_1.pb");
  const std::string missing = ctx.path("missing.pb");
  expect_error(ctx, run_cli(ctx, {"compare", m, "--inputs", x, "--expected", y_pb, missing}),
               "cannot open expected output '" + missing + "': no such file or directory");
  write_bytes(ctx.path("y_int.npy"), npy("<i8", "(1, 2, 2, 2)", le_int64s({1, 2, 3, 4, 5, 6, 7, 8})));
  expect_error(ctx, run_cli(ctx, {"compare", m, "--inputs", x, "--expected", ctx.path("y_int.npy"), s_pb}),
               "output 'y': '" + ctx.path("y_int.npy") + "' holds int64 data, the output is float");
  write_bytes(ctx.path("y_flat.npy"), npy("<f4", "(8,)", le_floats({1, 2, 3, 4, 5, 6, 7, 8})));
  expect_error(ctx, run_cli(ctx, {"compare", m, "--inputs", x, "--expected", ctx.path("y_flat.npy"), s_pb}),
               "output 'y': '" + ctx.path("y_flat.npy") + "' has shape [8], the output has shape [1,2,2,2]");
  expect_error(ctx, run_cli(ctx, {"compare", m, "--inputs", x, "--expected", y_pb}),
               "--expected: 1 file for 2 graph outputs (one reference file per output, in graph-output order, or "
               "NAME=FILE)");
  expect_usage_error(ctx, run_cli(ctx, {"compare", m, "--inputs", x}), "give --expected FILE... or --layerwise");
  expect_usage_error(ctx, run_cli(ctx, {"compare", m, "--layerwise", "--rtol", "abc"}),
                     "--rtol expects a non-negative number, got 'abc'");
  expect_usage_error(ctx, run_cli(ctx, {"compare", m, "--expected"}), "--expected needs at least one FILE");
}

// --layerwise: the fused run (Conv + Relu as one kernel) agrees with the run as written, except for the tensor the
// fusion absorbed; a divergence injected into one node's output (the test hook) is named.
void case_compare_layerwise(Context& ctx) {
  const std::string m = write_compare_model(ctx);
  const std::string x = ctx.path("compare_x.pb");
  Result r = run_cli(ctx, {"compare", m, "--inputs", x, "--layerwise"});
  expect_true(ctx, "layerwise agreement: " + describe(r),
              r.exit_code == 0 && r.err.empty() &&
                  r.out.find("layerwise: 5 nodes as written, 4 as deployed (1 node absorbed by fusion)") == 0 &&
                  r.out.find("tensors compared: ") != std::string::npos &&
                  r.out.find(" 0 beyond; 1 not comparable (computed in one run only, e.g. absorbed by a fusion): "
                             "'c'\n") != std::string::npos &&
                  r.out.find("no divergence") != std::string::npos);
  setenv("ONNXMICRO_CLI_INJECT_DIVERGENCE", "add", 1);
  r = run_cli(ctx, {"compare", m, "--inputs", x, "--layerwise"});
  unsetenv("ONNXMICRO_CLI_INJECT_DIVERGENCE");
  expect_true(
      ctx, "an injected divergence is named: " + describe(r),
      r.exit_code == 1 &&
          r.out.find("first divergence: node 3 Add 'add', output 'y'\n  max abs diff 1, ") != std::string::npos &&
          r.out.find("worst element [0,0,0,0]: deployed ") != std::string::npos);
  // With --expected as well: both checks.
  expect_true(ctx, "reference outputs",
              run_cli(ctx, {"run", m, "--inputs", x, "--output-dir", ctx.path("out")}).exit_code == 0);
  r = run_cli(ctx, {"compare", m, "--inputs", x, "--layerwise", "--expected", ctx.path("out/output_0.pb"),
                    ctx.path("out/output_1.pb")});
  expect_true(ctx, "--layerwise with --expected: " + describe(r),
              r.exit_code == 0 && r.out.find("all 2 outputs within tolerance\nlayerwise: ") != std::string::npos);
}

// The entry of `index` (DIR/index.json) for tensor `name`.
const Json* dump_entry(const Json& index, const std::string& name) {
  for (const Json& entry : index.at("tensors").items)
    if (entry.at("name").text == name) return &entry;
  return nullptr;
}

// run --dump writes every tensor as .npy with an index naming its file, node, op, dtype and shape; the files hold the
// values run --output-dir writes; folded values are there, and the tensor a fusion absorbed is listed without a file.
void case_run_dump(Context& ctx) {
  const std::string m = write_compare_model(ctx);
  const std::string x = ctx.path("compare_x.pb"), dir = ctx.path("dump");
  const Result r = run_cli(ctx, {"run", m, "--inputs", x, "--dump", dir, "--output-dir", ctx.path("out")});
  expect_true(ctx, "run --dump succeeds: " + describe(r), r.exit_code == 0 && r.err.empty());
  Json index;
  const std::string text = read_text(dir + "/index.json");
  if (!JsonReader(text).read(index) || index.at("tensors").items.size() != 5) {
    fail(ctx, "index.json is not JSON with 5 tensors:\n" + text);
    return;
  }
  const Json* fused = dump_entry(index, "r/1:0");
  expect_true(ctx, "the fused Conv's output, its name sanitised:\n" + text,
              fused != nullptr && fused->at("file").text == "0000_r_1_0.npy" && fused->at("node").text == "conv" &&
                  fused->at("op").text == "Conv" &&
                  fused->at("note").text.find("Relu 'relu' fused") != std::string::npos);
  const Json* y = dump_entry(index, "y");
  expect_true(ctx, "y in the index:\n" + text,
              y != nullptr && y->at("node").text == "add" && y->at("op").text == "Add" &&
                  y->at("dtype").text == "float" && y->at("shape").items.size() == 4 && y->at("format").text == "npy");
  if (y != nullptr) {
    const Bytes file = read_bytes(dir + "/" + y->at("file").text);
    const Bytes expected = npy("<f4", "(1, 2, 2, 2)", tail_bytes(ctx.path("out/output_0.pb"), 32));
    expect_true(ctx, "y's .npy holds the output's values", file == expected);
  }
  const Json* nb = dump_entry(index, "nb");
  expect_true(ctx, "the folded Neg's value:\n" + text,
              nb != nullptr && nb->at("note").text == "folded at prepare (a constant)" &&
                  read_bytes(dir + "/" + nb->at("file").text) == npy("<f4", "(1, 2, 1, 1)", le_floats({-0.25f, 0.5f})));
  const Json* s = dump_entry(index, "s");
  expect_true(
      ctx, "the int64 Shape output:\n" + text,
      s != nullptr && read_bytes(dir + "/" + s->at("file").text) == npy("<i8", "(4,)", le_int64s({1, 2, 4, 4})));
  const Json* c = dump_entry(index, "c");
  expect_true(ctx, "the tensor the fusion absorbed has no file:\n" + text,
              c != nullptr && c->at("file").kind == Json::Kind::null && c->at("op").text == "Conv" &&
                  c->at("note").text.rfind("not computed", 0) == 0);
  // An unwritable directory: one error line.
  write_bytes(ctx.path("plain_file"), Bytes{'x'});
  const std::string bad = ctx.path("plain_file/dump");
  expect_error_prefix(ctx, run_cli(ctx, {"run", m, "--inputs", x, "--dump", bad}),
                      "cannot create output directory '" + bad + "': ");
  expect_usage_error(ctx, run_cli(ctx, {"run", m, "--dump"}), "--dump needs DIR");
}

// ---- graph and plan --svg ----------------------------------------------------------------------------------------

// The executable `program` in a directory of PATH, or "".
std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream directories(path == nullptr ? "" : path);
  std::string directory;
  while (std::getline(directories, directory, ':')) {
    const std::string candidate = (directory.empty() ? "." : directory) + "/" + program;
    if (std::filesystem::is_regular_file(candidate) && access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

bool contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

// Checks that XML without comments, CDATA or DOCTYPE (what plan --svg writes) nests: every start tag closed in order.
bool well_formed_xml(const std::string& text, std::string& error) {
  std::vector<std::string> open;
  for (std::size_t at = text.find('<'); at != std::string::npos; at = text.find('<', at + 1)) {
    const std::size_t end = text.find('>', at);
    if (end == std::string::npos) return (error = "unclosed tag at " + std::to_string(at)), false;
    const std::string tag = text.substr(at + 1, end - at - 1);
    if (tag.empty() || tag[0] == '?' || tag.back() == '/') continue;  // the declaration, <empty/>
    const std::string name = tag.substr(tag[0] == '/' ? 1 : 0, tag.find_first_of(" \t\n") - (tag[0] == '/' ? 1 : 0));
    if (tag[0] != '/') {
      open.push_back(name);
    } else if (open.empty() || open.back() != name) {
      return (error = "</" + name + "> closes " + (open.empty() ? "nothing" : "<" + open.back() + ">")), false;
    } else {
      open.pop_back();
    }
  }
  if (!open.empty()) error = "<" + open.back() + "> is never closed";
  return open.empty();
}

// x [1,2,4,4] -> Conv (w [2,2,3,3] initializer) -> c -> Relu -> y [1,2,2,2]: the session folds the Relu into the Conv.
std::string write_graph_conv_relu(const Context& ctx) {
  std::vector<float> w(2 * 2 * 9);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 5) * 0.25f - 0.5f;
  write_bytes(ctx.path("conv_relu.onnx"),
              model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
                    graph("g", {node("Conv", {"x", "w"}, {"c"}, "conv"), node("Relu", {"c"}, {"y"}, "relu")},
                          {tensor_value("x", kFloat, {fixed(1), fixed(2), fixed(4), fixed(4)})},
                          {tensor_value("y", kFloat, {fixed(1), fixed(2), fixed(2), fixed(2)})},
                          {raw_tensor("w", kFloat, {2, 2, 3, 3}, le_floats(w))})));
  return ctx.path("conv_relu.onnx");
}

// Names with a quote, backslashes (a DOT escape "\n" among them), a newline, a tab and invalid UTF-8.
std::string write_graph_odd_names(const Context& ctx) {
  const std::string x = "x\"\\n\n\xff", y = "y\t\\\xc3\xa9";
  const std::vector<Dim> dims = {fixed(2), fixed(3)};
  write_bytes(ctx.path("odd.onnx"), model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
                                          graph("odd \"graph\"", {node("Relu", {x}, {y}, "re\\lu\"")},
                                                {tensor_value(x, kFloat, dims)}, {tensor_value(y, kFloat, dims)})));
  return ctx.path("odd.onnx");
}

void case_graph_dot(Context& ctx) {
  const std::string path = write_graph_conv_relu(ctx);
  Result r = run_cli(ctx, {"graph", path});
  expect_true(ctx, "graph succeeds: " + describe(r), r.exit_code == 0 && r.err.empty());
  expect_true(ctx, "a digraph: " + r.out,
              r.out.rfind("digraph onnxmicro {\n", 0) == 0 && r.out.size() > 2 &&
                  r.out.compare(r.out.size() - 2, 2, "}\n") == 0);
  expect_true(ctx, "the graph label names the model, counts nodes and hidden initializers: " + r.out,
              contains(r.out, "label=\"" + path +
                                  ": graph 'g', 2 nodes\\n1 initializer not drawn (--initializers draws them)\\n"
                                  "types as prepare inferred them\"];\n"));
  for (const char* line :
       {"  in0 [label=\"x\", shape=ellipse, fillcolor=\"#d9f2d9\"];\n", "  n0 [label=\"Conv\\nconv\"];\n",
        "  n1 [label=\"Relu\\nrelu\"];\n", "  out0 [label=\"y\", shape=ellipse, fillcolor=\"#e6ccff\"];\n",
        "  in0 -> n0 [label=\"x\\nfloat [1,2,4,4]\"];\n",
        // c is not computed (the fusion absorbed it) and declares no type: its name only.
        "  n0 -> n1 [label=\"c\"];\n", "  n1 -> out0 [label=\"y\\nfloat [1,2,2,2]\"];\n",
        "  subgraph cluster_group0 {\n    label=\"fused: Conv + Relu\";"}) {
    expect_true(ctx, std::string("graph writes ") + line + r.out, contains(r.out, line));
  }
  expect_true(ctx, "the fused pair in its box: " + r.out, contains(r.out, "\n    n0; n1;\n  }\n"));
  expect_true(ctx, "no initializer node by default: " + r.out, !contains(r.out, "w0"));

  r = run_cli(ctx, {"graph", path, "--initializers", "--optimize-for-size"});
  expect_true(ctx, "--initializers draws w: " + describe(r),
              r.exit_code == 0 &&
                  contains(r.out, "  w0 [label=\"w\", shape=note, fontsize=8, fillcolor=\"#eeeeee\"];\n") &&
                  contains(r.out, "  w0 -> n0 [label=\"w\\nfloat [2,2,3,3]\"];\n") &&
                  !contains(r.out, "initializer not drawn"));
  expect_true(ctx, "a size-optimised session fuses nothing, so c is computed: " + r.out,
              !contains(r.out, "cluster_group") && contains(r.out, "  n0 -> n1 [label=\"c\\nfloat [1,2,2,2]\"];\n"));

  // -o writes the same text and prints nothing.
  const Result to_file = run_cli(ctx, {"graph", path, "-o", ctx.path("g.dot")});
  expect_true(ctx, "-o prints nothing: " + describe(to_file),
              to_file.exit_code == 0 && to_file.out.empty() && to_file.err.empty());
  expect_eq(ctx, "-o writes the DOT", read_text(ctx.path("g.dot")), run_cli(ctx, {"graph", path}).out);
}

// DequantizeLinear -> MaxPool -> QuantizeLinear with one scale and zero point: QDQ fusion runs the MaxPool on the
// int8 tensor, and the three nodes are drawn in one box named after the integer kernel.
void case_graph_qdq(Context& ctx) {
  ProtoEncoder kernel_shape;  // AttributeProto: name (1), ints (8), type (20) = INTS (7)
  kernel_shape.string_field(1, "kernel_shape");
  kernel_shape.int_field(8, 2);
  kernel_shape.int_field(8, 2);
  kernel_shape.int_field(20, 7);
  constexpr std::int32_t kInt8 = 3;
  const std::vector<Dim> dims = {fixed(1), fixed(1), fixed(4), fixed(4)};
  write_bytes(ctx.path("qdq.onnx"),
              model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
                    graph("qdq",
                          {node("DequantizeLinear", {"x", "s", "z"}, {"xf"}, "dq"),
                           node("MaxPool", {"xf"}, {"pf"}, "pool", "", {kernel_shape}),
                           node("QuantizeLinear", {"pf", "s", "z"}, {"y"}, "q")},
                          {tensor_value("x", kInt8, dims)},
                          {tensor_value("y", kInt8, {fixed(1), fixed(1), fixed(3), fixed(3)})},
                          {raw_tensor("s", kFloat, {}, le_floats({0.5f})), raw_tensor("z", kInt8, {}, Bytes{0})})));
  const Result r = run_cli(ctx, {"graph", ctx.path("qdq.onnx")});
  expect_true(ctx, "graph succeeds: " + describe(r), r.exit_code == 0 && r.err.empty());
  expect_true(ctx, "the group is boxed, the op first: " + r.out,
              contains(r.out, "  subgraph cluster_group0 {\n    label=\"integer kernel: MaxPool on int8/uint8\";") &&
                  contains(r.out, "\n    n1; n0; n2;\n  }\n"));
  // The int8 tensors are computed; the float ones between the nodes are not (declared: no type, the name only).
  expect_true(ctx, "edge types: " + r.out,
              contains(r.out, "  in0 -> n0 [label=\"x\\nint8 [1,1,4,4]\"];\n") &&
                  contains(r.out, "  n0 -> n1 [label=\"xf\"];\n") &&
                  contains(r.out, "  n2 -> out0 [label=\"y\\nint8 [1,1,3,3]\"];\n"));
}

// An If whose branches read a value of the main graph; the model's custom op cannot be prepared, so the graph has
// the declared types and stderr says so in one line.
void case_graph_subgraph(Context& ctx) {
  const std::string path = write_inspect_model(ctx);
  const Result r = run_cli(ctx, {"graph", path});
  const std::string warning = "onnxmicro: warning: cannot prepare '" + path + "': unsupported: node 'custom'";
  expect_true(ctx, "graph succeeds with one warning line: " + describe(r),
              r.exit_code == 0 && r.err.rfind(warning, 0) == 0 && count_of(r.err, "\n") == 1 &&
                  contains(r.err, "; drawing the declared types\n"));
  for (const char* text : {
           "declared types (prepare failed)\"];\n",
           "  n5 [label=\"If\\ncond\"];\n",
           "  subgraph cluster_sub0 {\n    label=\"If cond: then_branch\"; style=\"rounded,dashed\"; "
           "color=\"#777777\";\n"
           "    s0 [label=\"Relu\\nthen_relu\"];\n",
           "    s1 [label=\"t_out\", shape=ellipse, fillcolor=\"#e6ccff\"];\n  }\n",
           "  subgraph cluster_sub1 {\n    label=\"If cond: else_branch\";",
           // The branches read h from the main graph (dashed), with its declared type (none: its name only).
           "  n4 -> s0 [label=\"h\", style=dashed];\n",
           "  s0 -> s1 [label=\"t_out\\nfloat\"];\n",
           "  n5 -> s0 [lhead=cluster_sub0, style=dotted, arrowhead=odot];\n",
           "  n5 -> s2 [lhead=cluster_sub1, style=dotted, arrowhead=odot];\n",
           // Declared input types; the If's condition, flag, is drawn to the If.
           "  in0 -> n0 [label=\"image\\nfloat [batch,3,?,8]\"];\n",
           "  in1 -> n5 [label=\"flag\\nbool []\"];\n",
           "  n5 -> out0 [label=\"out\\nfloat [batch,?]\"];\n",
       }) {
    expect_true(ctx, std::string("graph writes ") + text + r.out, contains(r.out, text));
  }
}

void case_graph_odd_names(Context& ctx) {
  using onnxmicro_cli::dot_quote;
  using onnxmicro_cli::xml_escape;
  expect_eq(ctx, "DOT quote", dot_quote("a\"b\\n\tc\x01\xff\xc3\xa9"), "\"a\\\"b\\\\n c??\xc3\xa9\"");
  expect_eq(ctx, "XML escape", xml_escape("<a & 'b'>\"\n\xc0"), "&lt;a &amp; &apos;b&apos;&gt;&quot; ?");
  const std::string path = write_graph_odd_names(ctx);
  const Result r = run_cli(ctx, {"graph", path});
  expect_true(ctx, "graph of odd names succeeds: " + describe(r), r.exit_code == 0 && r.err.empty());
  // '"' and '\' escaped, the newline and tab as spaces, the invalid byte as '?'.
  for (const char* text :
       {"  in0 [label=\"x\\\"\\\\n ?\", shape=ellipse", "  n0 [label=\"Relu\\nre\\\\lu\\\"\"];\n",
        "  out0 [label=\"y \\\\\xc3\xa9\", shape=ellipse", "  in0 -> n0 [label=\"x\\\"\\\\n ?\\nfloat [2,3]\"];\n",
        ": graph 'odd \\\"graph\\\"', 1 nodes"}) {
    expect_true(ctx, std::string("graph escapes ") + text + "\n" + r.out, contains(r.out, text));
  }
}

void case_graph_errors(Context& ctx) {
  const std::string path = write_graph_conv_relu(ctx);
  expect_usage_error(ctx, run_cli(ctx, {"graph"}), "missing MODEL");
  expect_usage_error(ctx, run_cli(ctx, {"graph", path, "--format", "png"}), "--format expects dot or svg, got 'png'");
  expect_usage_error(ctx, run_cli(ctx, {"graph", path, "--format=pdf"}), "--format expects dot or svg, got 'pdf'");
  expect_usage_error(ctx, run_cli(ctx, {"graph", path, "--format"}), "--format needs dot or svg");
  expect_usage_error(ctx, run_cli(ctx, {"graph", path, "-o"}), "-o needs FILE");
  expect_usage_error(ctx, run_cli(ctx, {"graph", path, "--json"}), "unknown option '--json' for 'graph'");
  expect_error(ctx, run_cli(ctx, {"graph", ctx.path("missing.onnx")}),
               "cannot open model '" + ctx.path("missing.onnx") + "': no such file or directory");
  const std::string unwritable = ctx.path("no/such/dir/g.dot");
  expect_error(ctx, run_cli(ctx, {"graph", path, "-o", unwritable}),
               "cannot create '" + unwritable + "': No such file or directory");
  // Without Graphviz on PATH, --format svg says what is missing and how to get it.
  const char* saved = std::getenv("PATH");
  const std::string saved_path = saved == nullptr ? "" : saved;
  std::filesystem::create_directories(ctx.path("empty_bin"));
  setenv("PATH", ctx.path("empty_bin").c_str(), 1);
  const Result no_dot = run_cli(ctx, {"graph", path, "--format", "svg"});
  setenv("PATH", saved_path.c_str(), 1);
  expect_error(ctx, no_dot,
               "--format svg needs Graphviz's 'dot' program, which is not on PATH: install Graphviz (Debian/Ubuntu: "
               "apt-get install graphviz; macOS: brew install graphviz) or use --format dot");
}

// Needs Graphviz (the test is added only where CMake found dot, and then dot must be on PATH): --format svg, and dot
// accepts the DOT of every model of the graph cases.
void case_graph_svg(Context& ctx) {
  const std::string dot = find_on_path("dot");
  if (dot.empty()) {
    fail(ctx, "Graphviz's dot is not on PATH (Debian/Ubuntu: apt-get install graphviz)");
    return;
  }
  const std::string conv_relu = write_graph_conv_relu(ctx);
  Result r = run_cli(ctx, {"graph", conv_relu, "--format", "svg"});
  expect_true(ctx, "--format svg writes SVG: " + describe(r),
              r.exit_code == 0 && r.err.empty() && (r.out.rfind("<?xml", 0) == 0 || r.out.rfind("<svg", 0) == 0) &&
                  contains(r.out, "</svg>") && contains(r.out, "fused: Conv + Relu"));
  r = run_cli(ctx, {"graph", conv_relu, "--format=svg", "-o", ctx.path("g.svg")});
  const std::string svg = read_text(ctx.path("g.svg"));
  expect_true(ctx, "--format svg -o writes the file: " + describe(r) + svg,
              r.exit_code == 0 && r.out.empty() && r.err.empty() && contains(svg, "<svg") && contains(svg, "</svg>"));
  Context dot_ctx = ctx;
  dot_ctx.cli = dot;
  const std::vector<std::vector<std::string>> drawings = {{conv_relu},
                                                          {conv_relu, "--initializers"},
                                                          {write_inspect_model(ctx), "--initializers"},
                                                          {write_graph_odd_names(ctx)}};
  for (const std::vector<std::string>& drawing : drawings) {
    std::vector<std::string> args = {"graph", "-o", ctx.path("check.dot")};
    args.insert(args.end(), drawing.begin(), drawing.end());
    const Result made = run_cli(ctx, args);
    const Result checked = run_cli(dot_ctx, {"-Tsvg", ctx.path("check.dot"), "-o", ctx.path("check.svg")});
    expect_true(ctx, "dot accepts the DOT: " + describe(made) + describe(checked) + read_text(ctx.path("check.dot")),
                made.exit_code == 0 && checked.exit_code == 0 && checked.err.empty());
  }
}

// The rows of plan's buffer table.
std::size_t plan_buffer_rows(const std::string& out) {
  const std::size_t table = out.find("\n  buffer ");
  if (table == std::string::npos) return 0;
  std::size_t rows = 0;
  std::istringstream lines(out.substr(out.find('\n', table + 1) + 1));
  std::string line;
  while (std::getline(lines, line) && line.rfind("    ", 0) == 0) ++rows;
  return rows;
}

void case_plan_svg(Context& ctx) {
  // x -> Relu -> a -> Sigmoid -> b -> Add(b, x) -> s (b and s in a's buffer) -> Conv (an im2col scratch) -> y.
  std::vector<float> w(2 * 2 * 9, 0.5f);
  const std::vector<Dim> dims = {fixed(1), fixed(2), fixed(4), fixed(4)};
  write_bytes(ctx.path("chain.onnx"),
              model(8, "onnxmicro-cli-tests", "1.0", {{"", 13}},
                    graph("chain",
                          {node("Relu", {"x"}, {"a"}, "relu"), node("Sigmoid", {"a"}, {"b"}, "sigmoid"),
                           node("Add", {"b", "x"}, {"s"}, "add"), node("Conv", {"s", "w"}, {"y"}, "conv")},
                          {tensor_value("x", kFloat, dims)},
                          {tensor_value("y", kFloat, {fixed(1), fixed(2), fixed(2), fixed(2)})},
                          {raw_tensor("w", kFloat, {2, 2, 3, 3}, le_floats(w))})));
  const std::string path = ctx.path("chain.onnx"), svg_path = ctx.path("plan.svg");
  const Result r = run_cli(ctx, {"plan", path, "--svg", svg_path});
  const std::string svg = read_text(svg_path);
  expect_true(ctx, "plan --svg succeeds and prints the plan: " + describe(r),
              r.exit_code == 0 && r.err.empty() && r.out == run_cli(ctx, {"plan", path}).out);
  const long long buffers = plan_fields(r.out)["buffers"];
  std::string error;
  const bool well_formed = well_formed_xml(svg, error);
  expect_true(
      ctx, "well-formed SVG (" + error + "):\n" + svg,
      well_formed &&
          svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  expect_true(ctx, "one rectangle per buffer: " + r.out + svg,
              buffers >= 4 && static_cast<long long>(plan_buffer_rows(r.out)) == buffers &&
                  static_cast<long long>(count_of(svg, "<rect ")) == buffers &&
                  static_cast<long long>(count_of(svg, "<rect class=\"buffer\"")) == buffers);
  // Each tooltip names what the buffer holds (in place and scratch included) and its numbers as plan prints them.
  expect_true(
      ctx, "tooltips name the tensors: " + svg,
      contains(svg, "<title>buffer 0: &apos;x&apos;, 128 bytes at offset ") &&
          contains(svg,
                   ": &apos;a&apos;, then &apos;b&apos; in place, then &apos;s&apos; in place, 128 bytes at offset ") &&
          contains(svg, ": scratch of Conv &apos;conv&apos;, ") && !contains(svg, ": ?, "));
  expect_true(ctx, "axes and the arena line: " + svg,
              contains(svg, ">execution step</text>") && contains(svg, ">arena offset (bytes)</text>") &&
                  contains(svg, ">arena_bytes " + std::to_string(plan_fields(r.out)["arena_bytes"]) + "</text>"));
  expect_usage_error(ctx, run_cli(ctx, {"plan", path, "--svg"}), "--svg needs FILE");
  const std::string unwritable = ctx.path("no/such/dir/plan.svg");
  expect_error(ctx, run_cli(ctx, {"plan", path, "--svg", unwritable}),
               "cannot create '" + unwritable + "': No such file or directory");
}

const std::map<std::string, std::function<void(Context&)>>& cases() {
  static const std::map<std::string, std::function<void(Context&)>> table = {
      {"version", case_version},
      {"help", case_help},
      {"graph_dot", case_graph_dot},
      {"graph_qdq", case_graph_qdq},
      {"graph_subgraph", case_graph_subgraph},
      {"graph_odd_names", case_graph_odd_names},
      {"graph_errors", case_graph_errors},
      {"graph_svg", case_graph_svg},
      {"plan_svg", case_plan_svg},
      {"usage_errors", case_usage_errors},
      {"inspect_text", case_inspect_text},
      {"inspect_json", case_inspect_json},
      {"json_escaping", case_json_escaping},
      {"inspect_errors", case_inspect_errors},
      {"odd_names", case_odd_names},
      {"check_supported", case_check_supported},
      {"check_unsupported", case_check_unsupported},
      {"check_kernel_ranges", case_check_kernel_ranges},
      {"check_errors", case_check_errors},
      {"run_pb", case_run_pb},
      {"run_pb_typed", case_run_pb_typed},
      {"run_npy", case_run_npy},
      {"run_npy_int64", case_run_npy_int64},
      {"run_print_truncation", case_run_print_truncation},
      {"run_bad_model", case_run_bad_model},
      {"run_bad_inputs", case_run_bad_inputs},
      {"run_sequence_input", case_run_sequence_input},
      {"run_sequence_output", case_run_sequence_output},
      {"run_optional", case_run_optional},
      {"run_strings", case_run_strings},
      {"plan", case_plan},
      {"kernels", case_kernels},
      {"optimize_for_size", case_optimize_for_size},
      {"plan_fused_activations", case_plan_fused_activations},
      {"bench", case_bench},
      {"bench_json", case_bench_json},
      {"bench_shape", case_bench_shape},
      {"threads", case_threads},
      {"bench_errors", case_bench_errors},
      {"compare", case_compare},
      {"compare_errors", case_compare_errors},
      {"compare_layerwise", case_compare_layerwise},
      {"run_dump", case_run_dump},
  };
  return table;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--list") {
    for (const auto& entry : cases()) std::cout << entry.first << "\n";
    return 0;
  }
  if (argc != 4 || cases().count(argv[1]) == 0) {
    std::cerr << "usage: onnxmicro_cli_tests CASE PATH_TO_CLI WORK_DIR   (cases: onnxmicro_cli_tests --list)\n";
    return 2;
  }
  Context ctx;
  ctx.cli = argv[2];
  ctx.dir = argv[3];
  // A fresh work directory per case, so cases can run in parallel and never see each other's files.
  std::error_code ec;
  std::filesystem::remove_all(ctx.dir, ec);
  std::filesystem::create_directories(ctx.dir, ec);
  if (ec) {
    std::cerr << "cannot create " << ctx.dir << ": " << ec.message() << "\n";
    return 2;
  }
  cases().at(argv[1])(ctx);
  if (ctx.failures == 0) {
    std::cout << "PASSED: " << argv[1] << "\n";
    return 0;
  }
  std::cerr << ctx.failures << " check(s) failed in " << argv[1] << "\n";
  return 1;
}
