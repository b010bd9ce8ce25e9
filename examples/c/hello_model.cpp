// SPDX-License-Identifier: MIT
// hello_model.h's definitions, from the C++ header that embeds the hello CNN (see hello_model.h for why).
#include "hello_model.h"

#include "../hello/default_model.hpp"

extern "C" {
const unsigned char* const hello_model_bytes = hello_cnn_model;
const size_t hello_model_size = hello_cnn_model_size;
const float* const hello_input = hello_cnn_model_input;
const int64_t* const hello_input_dims = hello_cnn_model_input_shape;
const size_t hello_input_rank = hello_cnn_model_input_rank;
const size_t hello_input_count = hello_cnn_model_input_count;
const char* const hello_input_name = hello_cnn_model_input_name;
const float* const hello_expected = hello_cnn_model_expected;
const size_t hello_expected_count = hello_cnn_model_expected_count;
}
