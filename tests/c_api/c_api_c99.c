/* SPDX-License-Identifier: MIT */
/* The C API used from C99 (built with -std=c99 and the project's warnings): a whole run in caller storage, no
 * heap. c_api_test.cpp calls it with the hello CNN and checks what it returns. */
#include <onnxmicro/c/onnxmicro.h>

#include "c_api_c99.h"

static unsigned char model_storage[ONNXMICRO_MODEL_STORAGE_BYTES];
static unsigned char session_storage[ONNXMICRO_SESSION_STORAGE_BYTES];
static unsigned char model_metadata[16384];
static unsigned char session_metadata[32768];
static unsigned char arena[8192 + ONNXMICRO_ARENA_ALIGNMENT];

onnxmicro_status c99_run_model(const void* bytes, size_t size, const float* input, size_t input_count, float* output,
                               size_t output_capacity, size_t* output_count) {
  onnxmicro_model* model = NULL;
  onnxmicro_session* session = NULL;
  onnxmicro_tensor tensor;
  unsigned char* aligned =
      arena + (ONNXMICRO_ARENA_ALIGNMENT - (uintptr_t)arena % ONNXMICRO_ARENA_ALIGNMENT) % ONNXMICRO_ARENA_ALIGNMENT;
  const int64_t dims[4] = {1, 1, 8, 8};
  onnxmicro_status status;
  size_t i;
  *output_count = 0;
  status = onnxmicro_model_init(model_storage, sizeof model_storage, &model);
  if (status == ONNXMICRO_OK) status = onnxmicro_model_load(model, bytes, size, model_metadata, sizeof model_metadata);
  if (status == ONNXMICRO_OK) status = onnxmicro_session_init(session_storage, sizeof session_storage, &session);
  if (status == ONNXMICRO_OK) {
    status = onnxmicro_session_prepare(session, model, aligned, 8192, session_metadata, sizeof session_metadata);
  }
  if (status == ONNXMICRO_OK) {
    tensor.dtype = ONNXMICRO_DTYPE_FLOAT32;
    tensor.rank = 4;
    tensor.dims = dims;
    tensor.data = input;
    tensor.byte_size = input_count * sizeof(float);
    status = onnxmicro_session_set_input(session, 0, &tensor);
  }
  if (status == ONNXMICRO_OK) status = onnxmicro_session_run(session);
  if (status == ONNXMICRO_OK) status = onnxmicro_session_get_output(session, 0, &tensor);
  if (status == ONNXMICRO_OK && tensor.dtype == ONNXMICRO_DTYPE_FLOAT32) {
    const float* values = (const float*)tensor.data;
    for (i = 0; i < tensor.byte_size / sizeof(float) && i < output_capacity; ++i) output[i] = values[i];
    *output_count = i;
  }
  onnxmicro_session_destroy(session);
  onnxmicro_model_destroy(model);
  return status;
}
