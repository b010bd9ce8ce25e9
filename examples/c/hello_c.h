/* SPDX-License-Identifier: MIT */
/* The C API example's program, apart from where its text goes: main.c runs it on a host (stdout),
 * examples/cortex-m/firmware_c_main.cpp on a Cortex-M under qemu (semihosting). */
#ifndef ONNXMICRO_EXAMPLES_C_HELLO_C_H
#define ONNXMICRO_EXAMPLES_C_HELLO_C_H

#ifdef __cplusplus
extern "C" {
#endif

/** Writes a NUL-terminated piece of text to the console. */
typedef void (*hello_c_write_function)(const char* text);

/** Loads the hello CNN, prepares it in static buffers, runs it on its test input and compares the output with
 *  onnxruntime's. Returns 0 when it matches, 1 on a mismatch or error, 2 when this build lacks a kernel the model
 *  needs (ONNXMICRO_UNSUPPORTED). */
int hello_c_run(hello_c_write_function write);

#ifdef __cplusplus
}
#endif

#endif
