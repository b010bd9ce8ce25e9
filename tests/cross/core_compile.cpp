// SPDX-License-Identifier: MIT
// One translation unit that instantiates the whole runtime path (load, prepare with every kernel, set_input,
// run, output), so compiling it for a target, with -fno-exceptions -fno-rtti -Werror, compiles every kernel
// and the runtime the way a firmware would use them. On Cortex-M config.hpp selects ONNXMICRO_HAS_HEAP=0 and
// ONNXMICRO_HAS_FILESYSTEM=0: every buffer below is static, nothing may come from the heap.
// With ONNXMICRO_CROSS_REGISTRY_LIBRARY=1 (the aarch64 and armhf Linux builds, CMakeLists.txt) the kernels come
// from onnxmicro_all_kernels instead, which compiles them (with the same flags) one kernel set per unit.
#include "core_compile.hpp"

namespace onnxmicro_cross {
namespace {

onnxmicro::KernelRegistry every_kernel() noexcept {
#if ONNXMICRO_CROSS_REGISTRY_LIBRARY
  return onnxmicro::all_kernels_registry();
#else
  return onnxmicro::AllKernels::registry();
#endif
}

// Sized for the small models of the smoke tests; prepare() reports the bytes needed when they are too small.
constexpr std::size_t kModelMetadataBytes = 16 * 1024;
constexpr std::size_t kSessionMetadataBytes = 16 * 1024;
constexpr std::size_t kArenaBytes = 16 * 1024;

alignas(16) unsigned char model_metadata[kModelMetadataBytes];
alignas(16) unsigned char session_metadata[kSessionMetadataBytes];
alignas(ONNXMICRO_TENSOR_ALIGNMENT) unsigned char arena[kArenaBytes];

}  // namespace

onnxmicro::Status run_first_output(const unsigned char* model_data, std::size_t model_size,
                                   const onnxmicro::ConstTensorView& input, float* output, std::size_t output_capacity,
                                   std::size_t& output_count) noexcept {
  output_count = 0;
  onnxmicro::ModelBytes bytes = onnxmicro::ModelBytes::borrow(model_data, model_size);

  onnxmicro::BufferAllocator model_allocator(model_metadata, sizeof(model_metadata));
  onnxmicro::LoadOptions load_options;
  load_options.metadata_allocator = &model_allocator;
  onnxmicro::Model model;
  ONNXMICRO_RETURN_IF_ERROR(model.load(bytes.bytes(), load_options));

  onnxmicro::BufferAllocator session_allocator(session_metadata, sizeof(session_metadata));
  onnxmicro::SessionOptions session_options;
  session_options.arena = arena;
  session_options.arena_bytes = sizeof(arena);
  session_options.metadata_allocator = &session_allocator;
  onnxmicro::Session session;
  ONNXMICRO_RETURN_IF_ERROR(session.prepare(model, every_kernel(), session_options));

  ONNXMICRO_RETURN_IF_ERROR(session.set_input(0, input));
  ONNXMICRO_RETURN_IF_ERROR(session.run());

  const onnxmicro::ConstTensorView result = session.output(0);
  if (result.dtype != onnxmicro::DataType::float32) {
    return onnxmicro::Status(onnxmicro::StatusCode::invalid_argument)
           << "output 0 has dtype " << onnxmicro::dtype_name(result.dtype) << ", expected float32";
  }
  const std::int64_t count = result.element_count();
  if (count < 0 || static_cast<std::size_t>(count) > output_capacity) {
    return onnxmicro::Status(onnxmicro::StatusCode::out_of_memory)
           << "output 0 has " << static_cast<long long>(count) << " elements, room for "
           << static_cast<unsigned long long>(output_capacity);
  }
  const float* values = result.data_as<float>();
  for (std::int64_t i = 0; i < count; ++i) output[i] = values[i];
  output_count = static_cast<std::size_t>(count);
  return {};
}

#if ONNXMICRO_HAS_FILESYSTEM
onnxmicro::Status load_file(const char* path, std::size_t& node_count) noexcept {
  onnxmicro::ModelBytes bytes;
  ONNXMICRO_RETURN_IF_ERROR(onnxmicro::ModelBytes::from_file(path, bytes));
  onnxmicro::LoadOptions options;
  options.base_directory = bytes.directory();
  onnxmicro::Model model;
  ONNXMICRO_RETURN_IF_ERROR(model.load(bytes.bytes(), options));
  onnxmicro::Session session;
  ONNXMICRO_RETURN_IF_ERROR(session.prepare(model, every_kernel()));
  node_count = model.graph().nodes.size();
  return {};
}
#endif

}  // namespace onnxmicro_cross
