// SPDX-License-Identifier: MIT
// Sets an environment variable for one scope (a test's ONNXMICRO_SPLIT_512, PoCL's cache switch), restoring what was
// there. Not thread-safe: set it where no other thread reads the environment.
#pragma once
#include <cstdlib>
#include <string>

namespace onnxmicro_test {

class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnvironment() {
    if (had_) {
      ::setenv(name_, old_.c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

}  // namespace onnxmicro_test
