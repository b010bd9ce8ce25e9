/* SPDX-License-Identifier: MIT */
/* The hello CNN and its test case, for C: the bytes of tests/models/hello_cnn/model.onnx, one input and the output
 * onnxruntime computed for it. They come from examples/hello/default_model.hpp (tools/make_models.py makes it),
 * the one embedded copy, through hello_model.cpp; a C project embeds its own .onnx as a const byte array (e.g.
 * `xxd -i model.onnx`), 16-byte aligned so the runtime reads initializers in place. */
#ifndef ONNXMICRO_EXAMPLES_C_HELLO_MODEL_H
#define ONNXMICRO_EXAMPLES_C_HELLO_MODEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

extern const unsigned char* const hello_model_bytes; /**< the .onnx file's bytes (16-byte aligned) */
extern const size_t hello_model_size;

extern const float* const hello_input;        /**< the input tensor's elements */
extern const int64_t* const hello_input_dims; /**< its dims: [1, 1, 8, 8] */
extern const size_t hello_input_rank;
extern const size_t hello_input_count;     /**< elements */
extern const char* const hello_input_name; /**< the graph input's name, "input" */

extern const float* const hello_expected; /**< onnxruntime's output for that input, [1, 10] */
extern const size_t hello_expected_count;

#ifdef __cplusplus
}
#endif

#endif
