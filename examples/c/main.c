/* SPDX-License-Identifier: MIT */
/* onnxmicro_hello_c: the C API example on a host (hello_c.c), its text on stdout. Exit code as hello_c_run's. */
#include <stdio.h>

#include "hello_c.h"

static void write_stdout(const char* text) { fputs(text, stdout); }

int main(void) { return hello_c_run(write_stdout); }
