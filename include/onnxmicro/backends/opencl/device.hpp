// SPDX-License-Identifier: MIT
// Finding the OpenCL device a session runs on, and building (or loading from the opt-in program cache) the
// program of kernel_source.hpp for it. Both happen once, in Backend::open(); nothing here runs during run().
#pragma once
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "onnxmicro/backends/opencl/cl_api.hpp"
#include "onnxmicro/backends/opencl/kernel_source.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace opencl {

/// One OpenCL device and the platform it belongs to.
struct DeviceChoice {
  cl::Platform platform;
  cl::Device device;
  std::string platform_name;
  std::string device_name;
  std::string description;  ///< "platform / device (type, OpenCL version, driver version)"
};

inline std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

inline std::string device_type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

/// Every device of every platform, in platform then device order; `why` says why there are none.
inline std::vector<DeviceChoice> list_devices(std::string& why) {
  std::vector<DeviceChoice> all;
  std::vector<cl::Platform> platforms;
  const cl_int code = cl::Platform::get(&platforms);
  if (code != CL_SUCCESS || platforms.empty()) {
    why = "no OpenCL platform (clGetPlatformIDs: " + cl_error_name(code) +
          "; is an ICD such as pocl-opencl-icd installed, and OCL_ICD_VENDORS unset?)";
    return all;
  }
  for (cl::Platform& platform : platforms) {
    std::vector<cl::Device> devices;
    if (platform.getDevices(CL_DEVICE_TYPE_ALL, &devices) != CL_SUCCESS) continue;
    for (cl::Device& device : devices) {
      DeviceChoice choice;
      choice.platform = platform;
      choice.device = device;
      platform.getInfo(CL_PLATFORM_NAME, &choice.platform_name);
      device.getInfo(CL_DEVICE_NAME, &choice.device_name);
      std::string version, driver;
      cl_device_type type = 0;
      device.getInfo(CL_DEVICE_VERSION, &version);
      device.getInfo(CL_DRIVER_VERSION, &driver);
      device.getInfo(CL_DEVICE_TYPE, &type);
      choice.description = choice.platform_name + " / " + choice.device_name + " (" + device_type_name(type) + ", " +
                           version + ", driver " + driver + ")";
      all.push_back(choice);
    }
  }
  if (all.empty()) why = "OpenCL platforms exist but report no device";
  return all;
}

/// Picks a device by `selector`: empty (the first GPU, else the first device), "N" (the N-th device over all
/// platforms), "P:D" (device D of platform P), or a case-insensitive substring of "platform / device".
inline bool select_device(const std::string& selector, DeviceChoice& chosen, std::string& why) {
  const std::vector<DeviceChoice> all = list_devices(why);
  if (all.empty()) return false;
  auto listing = [&all]() {
    std::string text;
    for (std::size_t i = 0; i < all.size(); ++i) text += " [" + std::to_string(i) + "] " + all[i].description + ";";
    return text;
  };
  if (selector.empty()) {
    for (const DeviceChoice& c : all) {
      cl_device_type type = 0;
      c.device.getInfo(CL_DEVICE_TYPE, &type);
      if (type & CL_DEVICE_TYPE_GPU) {
        chosen = c;
        return true;
      }
    }
    chosen = all.front();
    return true;
  }
  const bool digits = selector.find_first_not_of("0123456789:") == std::string::npos;
  const std::size_t colon = selector.find(':');
  if (digits && colon == std::string::npos) {
    const std::size_t index = static_cast<std::size_t>(std::stoul(selector));
    if (index < all.size()) {
      chosen = all[index];
      return true;
    }
  } else if (digits && colon != std::string::npos && colon > 0 && colon + 1 < selector.size()) {
    const std::size_t platform = static_cast<std::size_t>(std::stoul(selector.substr(0, colon)));
    const std::size_t device = static_cast<std::size_t>(std::stoul(selector.substr(colon + 1)));
    std::size_t platform_index = 0, device_index = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (i > 0 && all[i].platform() != all[i - 1].platform()) {
        ++platform_index;
        device_index = 0;
      }
      if (platform_index == platform && device_index == device) {
        chosen = all[i];
        return true;
      }
      ++device_index;
    }
  } else {
    const std::string wanted = lowercase(selector);
    for (const DeviceChoice& c : all) {
      if (lowercase(c.platform_name + " / " + c.device_name).find(wanted) != std::string::npos) {
        chosen = c;
        return true;
      }
    }
  }
  why = "no OpenCL device matches '" + selector + "' (index, platform:device, or name substring); devices:" + listing();
  return false;
}

/// How the program was obtained.
struct ProgramStats {
  int builds = 0;          ///< compiled from source
  int cache_hits = 0;      ///< loaded from the program cache
  int cache_rejected = 0;  ///< cache entries found corrupt or stale (then rebuilt and rewritten)
  /// Why the cache directory was not used although one was given (empty when it was): see program_cache_hazard.
  std::string cache_bypassed;
};

/// Why a program binary cache would be unsafe on this device, or empty. PoCL without its own kernel cache
/// (POCL_KERNEL_CACHE set to anything not starting with '1', as PoCL reads it) gives every program created from
/// one binary the scratch directory recorded in that binary, and deletes the directory when any of those programs
/// is released, while its worker threads may still be compiling into it for another session: an abort in PoCL
/// ("Can't get stat() on ...") when sessions overlap. Such programs are compiled from source instead.
inline std::string program_cache_hazard(const DeviceChoice& device) {
  std::string platform_version;
  device.platform.getInfo(CL_PLATFORM_VERSION, &platform_version);
  const std::string platform = lowercase(device.platform_name + " " + platform_version);
  const bool pocl =
      platform.find("pocl") != std::string::npos || platform.find("portable computing language") != std::string::npos;
  const char* kernel_cache = std::getenv("POCL_KERNEL_CACHE");
  if (!pocl || kernel_cache == nullptr || kernel_cache[0] == '1') return {};
  return std::string("program cache not used: PoCL runs with POCL_KERNEL_CACHE=") + kernel_cache +
         ", which deletes the build directory shared by every program loaded from one binary when any of them is "
         "released (an abort in PoCL when sessions overlap); unset POCL_KERNEL_CACHE or set it to 1 to use the cache";
}

/// FNV-1a, 64 bits: the cache key and the entry checksum (not security: the cache directory is the user's).
inline std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t hash = 1469598103934665603ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 1099511628211ull;
  return hash;
}

/// The program binary cache: one file per (source, options, platform, device, driver, onnxmicro version).
class ProgramCache {
 public:
  ProgramCache(std::string directory, const DeviceChoice& device, const std::string& options)
      : directory_(std::move(directory)) {
    std::string key = program_source();
    std::string version, driver, platform_version;
    device.device.getInfo(CL_DEVICE_VERSION, &version);
    device.device.getInfo(CL_DRIVER_VERSION, &driver);
    device.platform.getInfo(CL_PLATFORM_VERSION, &platform_version);
    key += "\n" + options + "\n" + device.platform_name + "\n" + platform_version + "\n" + device.device_name + "\n" +
           version + "\n" + driver + "\n" + std::to_string(ONNXMICRO_VERSION_MAJOR) + "." +
           std::to_string(ONNXMICRO_VERSION_MINOR) + "." + std::to_string(ONNXMICRO_VERSION_PATCH);
    key_ = fnv1a(key.data(), key.size());
    char name[64];
    std::snprintf(name, sizeof name, "onnxmicro-%016llx.clbin", static_cast<unsigned long long>(key_));
    path_ = directory_ + "/" + name;
  }
  const std::string& path() const noexcept { return path_; }

  /// The cached binary, or empty when absent; `corrupt` when a file exists but fails its checks.
  std::vector<unsigned char> load(bool& corrupt) const {
    corrupt = false;
    std::ifstream in(path_, std::ios::binary);
    if (!in) return {};
    std::vector<unsigned char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Header header;
    if (file.size() < sizeof header) {
      corrupt = true;
      return {};
    }
    std::memcpy(&header, file.data(), sizeof header);
    const unsigned char* body = file.data() + sizeof header;
    const std::size_t body_bytes = file.size() - sizeof header;
    if (std::memcmp(header.magic, kMagic, sizeof header.magic) != 0 || header.key != key_ ||
        header.bytes != body_bytes || header.checksum != fnv1a(body, body_bytes)) {
      corrupt = true;
      return {};
    }
    return std::vector<unsigned char>(body, body + body_bytes);
  }

  /// Writes `binary` atomically (a temporary file renamed over the entry); false when the directory is unwritable.
  bool store(const std::vector<unsigned char>& binary) const {
    Header header;
    std::memcpy(header.magic, kMagic, sizeof header.magic);
    header.key = key_;
    header.bytes = binary.size();
    header.checksum = fnv1a(binary.data(), binary.size());
    const std::string temporary = path_ + ".tmp" + std::to_string(static_cast<long>(::getpid()));
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      if (!out) return false;
      out.write(reinterpret_cast<const char*>(&header), sizeof header);
      out.write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(binary.size()));
      if (!out) return false;
    }
    return std::rename(temporary.c_str(), path_.c_str()) == 0;
  }

 private:
  static constexpr char kMagic[8] = {'O', 'M', 'C', 'L', 'B', 'I', 'N', '1'};
  struct Header {
    char magic[8];
    std::uint64_t key;
    std::uint64_t bytes;
    std::uint64_t checksum;
  };
  std::string directory_;
  std::string path_;
  std::uint64_t key_ = 0;
};

/// Builds `program` for `device`; a failure carries the build log.
inline Status build_program(cl::Program& program, const cl::Device& device, const std::string& options) {
  const cl_int code = program.build(std::vector<cl::Device>{device}, options.c_str());
  if (code == CL_SUCCESS) return {};
  std::string log;
  program.getBuildInfo(device, CL_PROGRAM_BUILD_LOG, &log);
  return Status(StatusCode::device_error)
         << "OpenCL clBuildProgram failed: " << cl_error_name(code).c_str() << "; build log: " << log.c_str();
}

/// The session program: from the cache directory when it holds a valid entry, else compiled (and stored there).
inline Status obtain_program(const cl::Context& context, const DeviceChoice& device, const std::string& options,
                             std::string cache_directory, cl::Program& program, ProgramStats& stats) {
  if (!cache_directory.empty()) {
    stats.cache_bypassed = program_cache_hazard(device);
    if (!stats.cache_bypassed.empty()) cache_directory.clear();
  }
  if (!cache_directory.empty()) {
    ProgramCache cache(cache_directory, device, options);
    bool corrupt = false;
    const std::vector<unsigned char> binary = cache.load(corrupt);
    if (!binary.empty()) {
      cl_int code = CL_SUCCESS;
      std::vector<cl_int> statuses;
      cl::Program::Binaries binaries{binary};
      cl::Program loaded(context, std::vector<cl::Device>{device.device}, binaries, &statuses, &code);
      if (code == CL_SUCCESS && build_program(loaded, device.device, options).ok()) {
        program = loaded;
        ++stats.cache_hits;
        return {};
      }
      corrupt = true;
    }
    if (corrupt) ++stats.cache_rejected;
  }
  cl_int code = CL_SUCCESS;
  program = cl::Program(context, std::string(program_source()), false, &code);
  ONNXMICRO_CL_CHECK("clCreateProgramWithSource", code);
  ONNXMICRO_RETURN_IF_ERROR(build_program(program, device.device, options));
  ++stats.builds;
  if (cache_directory.empty()) return {};
  std::vector<std::vector<unsigned char>> binaries;
  if (program.getInfo(CL_PROGRAM_BINARIES, &binaries) == CL_SUCCESS && binaries.size() == 1 && !binaries[0].empty()) {
    ProgramCache(cache_directory, device, options).store(binaries[0]);
  }
  return {};
}

}  // namespace opencl
ONNXMICRO_NAMESPACE_END
