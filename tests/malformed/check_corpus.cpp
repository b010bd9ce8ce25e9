// SPDX-License-Identifier: MIT
// onnxmicro_check_malformed: runs every case of the malformed-model corpus (tests/malformed/make_corpus.py)
// through Model::load, Session::prepare (all kernels) and Session::run, and checks that the stage the manifest
// names fails with exactly its status code and a message containing its substring; the stages before it must
// succeed. Cases of stage "cli" hold a valid model and broken input files (a string where a float is declared, a
// sequence of the wrong element type, a malformed SequenceProto/OptionalProto/.npy): `onnxmicro run` (the CLI given
// by --cli) must exit 1 with exactly one error line containing the substring. Prints one line per case and a
// summary; exits non-zero on any mismatch.
//
//   onnxmicro_check_malformed CORPUS_DIR [--cli ONNXMICRO | --skip-cli] [--verbose] [--only CLASS]
//
// Each case runs in a forked child (POSIX), so a crash is reported as that case's failure instead of ending
// the run (the sanitizer build still prints its report).
#include <onnxmicro/onnxmicro.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/wait.h>
#include <unistd.h>
#define ONNXMICRO_MALFORMED_CAN_FORK 1
#else
#define ONNXMICRO_MALFORMED_CAN_FORK 0
#endif

namespace {

namespace om = onnxmicro;

struct Case {
  std::string name;
  std::string stage;  // load, prepare, run or cli
  std::string code;   // StatusCode name (cli: exit_1)
  std::string substring;
  std::string inputs;  // "name=v,v;name=v" or "-"; cli: the input files, "input_0.pb;..."
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream stream(text);
  while (std::getline(stream, part, separator)) parts.push_back(part);
  return parts;
}

bool read_manifest(const std::string& path, std::vector<Case>& cases) {
  std::ifstream file(path);
  if (!file) {
    std::fprintf(stderr, "check_malformed: cannot open %s\n", path.c_str());
    return false;
  }
  std::string line;
  int line_number = 0;
  while (std::getline(file, line)) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = split(line, '\t');
    if (fields.size() != 5) {
      std::fprintf(stderr, "check_malformed: %s:%d: expected 5 tab-separated fields, got %zu\n", path.c_str(),
                   line_number, fields.size());
      return false;
    }
    cases.push_back(Case{fields[0], fields[1], fields[2], fields[3], fields[4]});
  }
  return true;
}

/// Fills the prepared input `view` with `values` (its element count must match), converted to its dtype.
std::string fill_input(const om::TensorView& view, const std::vector<std::string>& values) {
  if (static_cast<std::int64_t>(values.size()) != view.element_count()) {
    return "given " + std::to_string(values.size()) + " values, the input has " + std::to_string(view.element_count()) +
           " elements";
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = std::strtod(values[i].c_str(), nullptr);
    switch (view.dtype) {
      case om::DataType::float32: static_cast<float*>(view.data)[i] = static_cast<float>(v); break;
      case om::DataType::int64:
        static_cast<std::int64_t*>(view.data)[i] = std::strtoll(values[i].c_str(), nullptr, 10);
        break;
      case om::DataType::int32: static_cast<std::int32_t*>(view.data)[i] = static_cast<std::int32_t>(v); break;
      case om::DataType::boolean: static_cast<bool*>(view.data)[i] = v != 0; break;
      default: return std::string("cannot fill an input of dtype ") + om::dtype_name(view.dtype);
    }
  }
  return {};
}

std::string describe(const om::Status& status) {
  return std::string(om::status_code_name(status.code())) + ": " + status.message();
}

#if ONNXMICRO_MALFORMED_CAN_FORK
/// A "cli" case: `CLI run model.onnx --inputs FILES` must exit 1 with one stderr line containing the substring.
std::string check_cli_case(const std::string& dir, const Case& c, const std::string& cli, std::string& actual) {
  if (cli.empty()) return "a cli case needs --cli ONNXMICRO";
  const std::string case_dir = dir + "/" + c.name + "/";
  std::vector<std::string> args = {cli, "run", case_dir + "model.onnx", "--inputs"};
  for (const std::string& file : split(c.inputs, ';')) args.push_back(case_dir + file);
  const std::string stderr_path = case_dir + "stderr.txt";
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    if (std::freopen("/dev/null", "w", stdout) == nullptr || std::freopen(stderr_path.c_str(), "w", stderr) == nullptr)
      _exit(127);
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int wait_status = 0;
  waitpid(child, &wait_status, 0);
  std::ifstream file(stderr_path);
  std::stringstream text;
  text << file.rdbuf();
  actual = text.str();
  if (WIFSIGNALED(wait_status)) return "the CLI crashed with signal " + std::to_string(WTERMSIG(wait_status));
  if (WEXITSTATUS(wait_status) != 1) return "the CLI exited with " + std::to_string(WEXITSTATUS(wait_status));
  if (actual.rfind("onnxmicro: error: ", 0) != 0 || actual.find('\n') != actual.size() - 1) {
    return "not exactly one error line";
  }
  if (actual.find(c.substring) == std::string::npos) return "message lacks '" + c.substring + "'";
  return {};
}
#endif

/// Runs the case's stages up to the one expected to fail. Returns "" when the case behaves as the manifest
/// says, else what happened instead; `actual` receives the status of the last stage that ran.
std::string check_case(const std::string& dir, const Case& c, const std::string& cli, std::string& actual) {
#if ONNXMICRO_MALFORMED_CAN_FORK
  if (c.stage == "cli") return check_cli_case(dir, c, cli, actual);
#else
  if (c.stage == "cli") return "cli cases need POSIX fork";
#endif
  const std::string path = dir + "/" + c.name + "/model.onnx";
  auto expect = [&](const char* stage, const om::Status& status) -> std::string {
    actual = status.ok() ? std::string(stage) + " succeeded" : std::string(stage) + ": " + describe(status);
    if (c.stage != stage) {
      return status.ok() ? std::string() : std::string("stage ") + stage + " failed before " + c.stage;
    }
    if (status.ok()) return std::string(stage) + " succeeded, expected " + c.code;
    if (c.code != om::status_code_name(status.code())) return std::string("wrong status code");
    if (status.message_view().find(c.substring) == std::string_view::npos) {
      return "message lacks '" + c.substring + "'";
    }
    return {};
  };
  std::string why;
  bool done = false;
  auto step = [&](const char* stage, const om::Status& status) {
    if (done) return;
    why = expect(stage, status);
    done = !why.empty() || c.stage == stage;
  };

  om::ModelBytes bytes;
  const om::Status read = om::ModelBytes::from_file(path.c_str(), bytes);
  if (!read.ok()) return "cannot read " + path + ": " + describe(read);
  om::LoadOptions load_options;
  load_options.base_directory = bytes.directory();
  om::Model model;
  step("load", model.load(bytes.bytes(), load_options));
  if (done) return why;
  om::Session session;
  step("prepare", session.prepare(model, om::all_kernels_registry()));
  if (done) return why;
  if (c.inputs != "-") {
    for (const std::string& entry : split(c.inputs, ';')) {
      const std::size_t equals = entry.find('=');
      if (equals == std::string::npos) return "manifest inputs: no '=' in '" + entry + "'";
      std::size_t index = 0;
      const om::Status found = session.input_index(entry.substr(0, equals), index);
      if (!found.ok()) return "manifest inputs: " + describe(found);
      const std::string error = fill_input(session.input(index), split(entry.substr(equals + 1), ','));
      if (!error.empty()) return "manifest inputs: '" + entry.substr(0, equals) + "': " + error;
    }
  }
  step("run", session.run());
  if (!done) return "unknown stage '" + c.stage + "'";
  return why;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  std::string only;
  std::string cli;
  bool skip_cli = false;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--verbose") {
      verbose = true;
    } else if (arg == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else if (arg == "--cli" && i + 1 < argc) {
      cli = argv[++i];
    } else if (arg == "--skip-cli") {
      skip_cli = true;
    } else if (dir.empty() && arg.substr(0, 2) != "--") {
      dir = argv[i];
    } else {
      std::fprintf(stderr, "usage: %s CORPUS_DIR [--cli ONNXMICRO | --skip-cli] [--verbose] [--only CLASS]\n", argv[0]);
      return 2;
    }
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR [--cli ONNXMICRO | --skip-cli] [--verbose] [--only CLASS]\n", argv[0]);
    return 2;
  }
  std::vector<Case> cases;
  if (!read_manifest(dir + "/manifest.tsv", cases)) return 2;

  int passed = 0, failed = 0, skipped = 0;
  for (const Case& c : cases) {
    if (!only.empty() && c.name != only) continue;
    if (skip_cli && c.stage == "cli") {
      ++skipped;
      continue;
    }
    std::string why, actual;
#if ONNXMICRO_MALFORMED_CAN_FORK
    // The child reports through a pipe: first line the verdict ("" = as expected), then the actual status.
    int fds[2];
    if (pipe(fds) != 0) return 2;
    std::fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
      close(fds[0]);
      const std::string result = check_case(dir, c, cli, actual);
      const std::string report = result + "\n" + actual;
      if (write(fds[1], report.data(), report.size()) < 0) _exit(3);
      _exit(0);
    }
    close(fds[1]);
    std::string report;
    char buffer[4096];
    for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) report.append(buffer, static_cast<std::size_t>(n));
    close(fds[0]);
    int wait_status = 0;
    waitpid(child, &wait_status, 0);
    if (WIFSIGNALED(wait_status)) {
      why = "crashed with signal " + std::to_string(WTERMSIG(wait_status));
    } else if (WEXITSTATUS(wait_status) != 0 || report.find('\n') == std::string::npos) {
      why = "checker child exited with " + std::to_string(WEXITSTATUS(wait_status));
    } else {
      why = report.substr(0, report.find('\n'));
      actual = report.substr(report.find('\n') + 1);
    }
#else
    why = check_case(dir, c, cli, actual);
#endif
    if (why.empty()) {
      ++passed;
      std::printf("ok    %-40s %s %s\n", c.name.c_str(), c.stage.c_str(), c.code.c_str());
      if (verbose) std::printf("      %s\n", actual.c_str());
    } else {
      ++failed;
      std::printf("FAIL  %-40s expected %s %s containing '%s': %s\n      got %s\n", c.name.c_str(), c.stage.c_str(),
                  c.code.c_str(), c.substring.c_str(), why.c_str(), actual.c_str());
    }
  }
  std::printf("malformed corpus: %d passed, %d failed (of %d cases)\n", passed, failed, passed + failed);
  if (skipped != 0) std::printf("malformed corpus: %d cli cases skipped (--skip-cli: no CLI in this build)\n", skipped);
  return failed == 0 && passed > 0 ? 0 : 1;
}
