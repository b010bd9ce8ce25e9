/* SPDX-License-Identifier: MIT */
/* c_api_c99.c's one function, for c_api_test.cpp. */
#ifndef ONNXMICRO_TESTS_C_API_C99_H
#define ONNXMICRO_TESTS_C_API_C99_H

#include <onnxmicro/c/onnxmicro.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Loads the model in `bytes`, prepares it in static buffers, sets its input 0 ([1,1,8,8] float32) to `input`,
 *  runs it and copies output 0 (at most `output_capacity` floats) to `output`. Returns the first failure. */
onnxmicro_status c99_run_model(const void* bytes, size_t size, const float* input, size_t input_count, float* output,
                               size_t output_capacity, size_t* output_count);

#ifdef __cplusplus
}
#endif

#endif
