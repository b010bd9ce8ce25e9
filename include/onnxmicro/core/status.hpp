// SPDX-License-Identifier: MIT
// Status: how every error travels in onnxmicro (no exceptions). A failed Status carries a code and a
// message built in place in a fixed buffer, so reporting an error never allocates.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "onnxmicro/core/version.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// What kind of failure a Status reports. The message says exactly what and where.
enum class StatusCode : std::uint8_t {
  ok = 0,
  invalid_argument,  ///< the caller passed something wrong (input name, dtype, shape, buffer)
  invalid_model,     ///< the model bytes or graph are malformed or inconsistent
  unsupported,       ///< valid ONNX that this build cannot run (no kernel, dtype, attribute value)
  out_of_memory,     ///< a caller-provided buffer is too small (the message names the size needed)
  io_error,          ///< a file could not be opened, mapped or read
  limit_exceeded,    ///< a configured limit (nesting, rank, tensor bytes, iterations) was crossed
  out_of_range,      ///< a run-time index or value outside its valid range
  internal,          ///< a bug in onnxmicro
  device_error,      ///< a device backend's call failed (the message names the call and its error code)
};

/// Name of a status code, e.g. "invalid_model".
constexpr const char* status_code_name(StatusCode code) noexcept {
  switch (code) {
    case StatusCode::ok: return "ok";
    case StatusCode::invalid_argument: return "invalid_argument";
    case StatusCode::invalid_model: return "invalid_model";
    case StatusCode::unsupported: return "unsupported";
    case StatusCode::out_of_memory: return "out_of_memory";
    case StatusCode::io_error: return "io_error";
    case StatusCode::limit_exceeded: return "limit_exceeded";
    case StatusCode::out_of_range: return "out_of_range";
    case StatusCode::internal: return "internal";
    case StatusCode::device_error: return "device_error";
  }
  return "unknown";
}

#if ONNXMICRO_ENABLE_ERROR_MESSAGES
/// Result of an operation: ok, or a code with a message. Build messages with <<:
///   return Status(StatusCode::invalid_model) << "tensor '" << name << "' has " << n << " elements";
/// Messages longer than ONNXMICRO_MAX_ERROR_MESSAGE - 1 bytes are truncated and end in "...".
class [[nodiscard]] Status {
 public:
  /// An ok status.
  constexpr Status() noexcept : code_(StatusCode::ok), length_(0), message_{} {}
  /// A failed status (or ok, for StatusCode::ok) with an empty message to be filled with <<.
  explicit Status(StatusCode code) noexcept : code_(code), length_(0) { message_[0] = '\0'; }
  Status(StatusCode code, std::string_view message) noexcept : Status(code) { append(message); }
  /// Copies only the message's bytes, not the whole buffer: every ONNXMICRO_RETURN_IF_ERROR copies a Status, and
  /// one call here is smaller firmware (and faster) than a full-size memcpy at each of them.
  Status(const Status& other) noexcept : code_(other.code_), truncated_(other.truncated_), length_(other.length_) {
    copy_message(other);
  }
  Status& operator=(const Status& other) noexcept {
    code_ = other.code_;
    truncated_ = other.truncated_;
    length_ = other.length_;
    copy_message(other);
    return *this;
  }

  bool ok() const noexcept { return code_ == StatusCode::ok; }
  StatusCode code() const noexcept { return code_; }
  /// The message, NUL-terminated; empty for ok.
  const char* message() const noexcept { return length_ == 0 ? "" : message_; }
  std::string_view message_view() const noexcept { return {message_, length_}; }

  Status& operator<<(std::string_view text) noexcept { return append(text); }
  Status& operator<<(const char* text) noexcept { return append(text ? std::string_view(text) : "(null)"); }
  Status& operator<<(char c) noexcept { return append(std::string_view(&c, 1)); }
  Status& operator<<(bool v) noexcept { return append(v ? "true" : "false"); }
  Status& operator<<(int v) noexcept { return append_signed(v); }
  Status& operator<<(long v) noexcept { return append_signed(v); }
  Status& operator<<(long long v) noexcept { return append_signed(v); }
  Status& operator<<(unsigned v) noexcept { return append_unsigned(v); }
  Status& operator<<(unsigned long v) noexcept { return append_unsigned(v); }
  Status& operator<<(unsigned long long v) noexcept { return append_unsigned(v); }
  Status& operator<<(double v) noexcept { return append_double(v); }
  Status& operator<<(float v) noexcept { return append_double(static_cast<double>(v)); }

  /// Puts `prefix` in front of the message (used to add node/tensor context to a kernel's error).
  Status& prepend(std::string_view prefix) noexcept {
    char saved[kCapacity];
    std::size_t old = length_;
    for (std::size_t i = 0; i < old; ++i) saved[i] = message_[i];
    length_ = 0;
    truncated_ = false;
    append(prefix);
    append(std::string_view(saved, old));
    return *this;
  }

  Status& append(std::string_view text) noexcept {
    for (char c : text) {
      if (static_cast<std::size_t>(length_) + 1 >= kCapacity) {
        mark_truncated();
        break;
      }
      message_[length_++] = c;
    }
    message_[length_] = '\0';
    return *this;
  }

 private:
  static constexpr std::size_t kCapacity = ONNXMICRO_MAX_ERROR_MESSAGE;
  static_assert(kCapacity >= 16 && kCapacity < 65535, "ONNXMICRO_MAX_ERROR_MESSAGE out of range");

  void mark_truncated() noexcept {
    if (truncated_) return;
    truncated_ = true;
    if (kCapacity > 4) {
      length_ = static_cast<std::uint16_t>(kCapacity - 4);
      message_[length_++] = '.';
      message_[length_++] = '.';
      message_[length_++] = '.';
      message_[length_] = '\0';
    }
  }
  Status& append_unsigned(unsigned long long v) noexcept {
    char digits[24];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    char out[24];
    for (int i = 0; i < n; ++i) out[i] = digits[n - 1 - i];
    return append(std::string_view(out, static_cast<std::size_t>(n)));
  }
  Status& append_signed(long long v) noexcept {
    if (v < 0) {
      append("-");
      return append_unsigned(0ULL - static_cast<unsigned long long>(v));
    }
    return append_unsigned(static_cast<unsigned long long>(v));
  }
  // Enough for messages: sign, integer part, up to 6 significant fraction digits; no printf needed.
  Status& append_double(double v) noexcept {
    if (v != v) return append("nan");
    if (v < 0) {
      append("-");
      v = -v;
    }
    if (v > 1e18) return append("inf-or-huge");
    auto whole = static_cast<unsigned long long>(v);
    append_unsigned(whole);
    double frac = v - static_cast<double>(whole);
    if (frac <= 0) return *this;
    char out[8];
    int n = 0;
    for (int i = 0; i < 6; ++i) {
      frac *= 10;
      int d = static_cast<int>(frac);
      out[n++] = static_cast<char>('0' + d);
      frac -= d;
    }
    while (n > 0 && out[n - 1] == '0') --n;
    append(".");
    return append(std::string_view(out, static_cast<std::size_t>(n)));
  }

  void copy_message(const Status& other) noexcept {
    for (std::size_t i = 0; i <= length_; ++i) message_[i] = other.message_[i];  // with the terminating NUL
  }

  StatusCode code_;
  bool truncated_ = false;
  std::uint16_t length_;
  char message_[kCapacity];
};

#else
/// Result of an operation: ok, or a code. ONNXMICRO_ENABLE_ERROR_MESSAGES=0 (core/config.hpp) builds this
/// variant: the same interface, but << discards its operands (the compiler drops the strings and the
/// formatting), and message() is one fixed text that says how to get the full message on the host.
class [[nodiscard]] Status {
 public:
  constexpr Status() noexcept : code_(StatusCode::ok) {}
  constexpr explicit Status(StatusCode code) noexcept : code_(code) {}
  constexpr Status(StatusCode code, std::string_view) noexcept : code_(code) {}

  bool ok() const noexcept { return code_ == StatusCode::ok; }
  StatusCode code() const noexcept { return code_; }
  const char* message() const noexcept { return ok() ? "" : kStrippedMessage; }
  std::string_view message_view() const noexcept { return message(); }

  template <typename T>
  Status& operator<<(const T&) noexcept {
    return *this;
  }
  Status& prepend(std::string_view) noexcept { return *this; }
  Status& append(std::string_view) noexcept { return *this; }

  static constexpr const char* kStrippedMessage =
      "error messages compiled out (ONNXMICRO_ENABLE_ERROR_MESSAGES=0); load and prepare the model on the host "
      "(onnxmicro plan MODEL, same ONNXMICRO_ENABLE_* values) for the message naming node, op, input, dtype "
      "and shape";

 private:
  StatusCode code_;
};

#endif

/// The ok status.
inline Status ok_status() noexcept { return Status(); }

ONNXMICRO_NAMESPACE_END

/// Returns from the enclosing function when `expr` yields a failed Status.
#define ONNXMICRO_RETURN_IF_ERROR(expr)                    \
  do {                                                     \
    ::onnxmicro::Status onnxmicro_status_ = (expr);        \
    if (!onnxmicro_status_.ok()) return onnxmicro_status_; \
  } while (false)
