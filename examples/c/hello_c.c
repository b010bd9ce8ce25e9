/* SPDX-License-Identifier: MIT */
/* onnxmicro's C API, step by step: every byte in static buffers (no heap), as a firmware would do it. The
 * program prints through a write function only (no printf: newlib's float formatting would bring in malloc), so
 * the same code runs on a host and on a Cortex-M. */
#include "hello_c.h"

#include <onnxmicro/c/onnxmicro.h>
#include <stddef.h>
#include <stdint.h>

#include "hello_model.h"

/* Buffer sizes, enough for the hello CNN on a 64-bit host with every kernel (the program prints what it uses; a
 * 32-bit target needs less, and the firmware defines smaller ones). */
#ifndef HELLO_C_MODEL_METADATA_BYTES
#define HELLO_C_MODEL_METADATA_BYTES 16384
#endif
#ifndef HELLO_C_SESSION_METADATA_BYTES
#define HELLO_C_SESSION_METADATA_BYTES 32768
#endif
#ifndef HELLO_C_ARENA_BYTES
#define HELLO_C_ARENA_BYTES 8192
#endif

/* numpy.allclose's tolerances, as examples/hello uses against onnxruntime's output. */
#define HELLO_C_RELATIVE_TOLERANCE 1e-3
#define HELLO_C_ABSOLUTE_TOLERANCE 1e-5

/* The handles live in caller storage: ONNXMICRO_*_STORAGE_BYTES is always enough, and the API aligns within it. */
static unsigned char model_storage[ONNXMICRO_MODEL_STORAGE_BYTES];
static unsigned char session_storage[ONNXMICRO_SESSION_STORAGE_BYTES];
/* Graph tables and kernel state (the API aligns these too). */
static unsigned char model_metadata[HELLO_C_MODEL_METADATA_BYTES];
static unsigned char session_metadata[HELLO_C_SESSION_METADATA_BYTES];
/* The tensors. The arena must be aligned to ONNXMICRO_ARENA_ALIGNMENT, which C99 cannot ask of an array:
 * over-allocate and align the pointer (C11 would say _Alignas(ONNXMICRO_ARENA_ALIGNMENT)). */
static unsigned char arena_storage[HELLO_C_ARENA_BYTES + ONNXMICRO_ARENA_ALIGNMENT - 1];

static hello_c_write_function out;

/* ---- Text output without printf ---- */

static void write_unsigned(size_t value) {
  char digits[24];
  char* p = digits + sizeof digits;
  *--p = '\0';
  do {
    *--p = (char)('0' + value % 10);
    value /= 10;
  } while (value != 0);
  out(p);
}

static void write_signed(int64_t value) {
  if (value < 0) {
    out("-");
    write_unsigned((size_t)(-value));
  } else {
    write_unsigned((size_t)value);
  }
}

/* Six decimals, enough to read probabilities. */
static void write_float(double value) {
  unsigned long scaled;
  char fraction[8];
  int i;
  if (value != value) {
    out("nan");
    return;
  }
  if (value < 0) {
    out("-");
    value = -value;
  }
  if (value >= 1e9) {
    out("huge");
    return;
  }
  scaled = (unsigned long)(value * 1e6 + 0.5);
  write_unsigned((size_t)(scaled / 1000000ul));
  for (i = 5; i >= 0; --i) {
    fraction[i] = (char)('0' + scaled % 10);
    scaled /= 10;
  }
  fraction[6] = '\0';
  out(".");
  out(fraction);
}

/* "NAME" from a name and its length (names are not NUL-terminated: they point into the model bytes). */
static void write_name(const char* name, size_t length) {
  char buffer[64];
  size_t i;
  if (length >= sizeof buffer) length = sizeof buffer - 1;
  for (i = 0; i < length; ++i) buffer[i] = name[i];
  buffer[length] = '\0';
  out(buffer);
}

static void write_tensor_type(const onnxmicro_tensor* tensor) {
  size_t i;
  out(onnxmicro_dtype_name(tensor->dtype));
  out(" [");
  for (i = 0; i < tensor->rank; ++i) {
    if (i > 0) out(",");
    write_signed(tensor->dims[i]);
  }
  out("]");
}

/* Prints the failure and turns the status into the exit code. */
static int fail(const char* step, onnxmicro_status status, const char* message) {
  out("hello_c: ");
  out(step);
  out(" failed (");
  out(onnxmicro_status_name(status));
  out("): ");
  out(message);
  out("\n");
  return status == ONNXMICRO_UNSUPPORTED ? 2 : 1;
}

/* ---- The steps ---- */

/* 1. Parse and validate the model, its bytes borrowed in place (flash on a microcontroller). */
static int load_model(onnxmicro_model** model) {
  onnxmicro_status status = onnxmicro_model_init(model_storage, sizeof model_storage, model);
  size_t i;
  const char* name;
  size_t length;
  if (status != ONNXMICRO_OK) return fail("onnxmicro_model_init", status, "storage too small");
  status = onnxmicro_model_load(*model, hello_model_bytes, hello_model_size, model_metadata, sizeof model_metadata);
  if (status != ONNXMICRO_OK) return fail("onnxmicro_model_load", status, onnxmicro_model_message(*model));
  out("model: ");
  write_unsigned(hello_model_size);
  out(" bytes, ");
  write_unsigned(onnxmicro_model_metadata_bytes(*model));
  out(" metadata bytes\n");
  for (i = 0; onnxmicro_model_output_name(*model, i, &name, &length) == ONNXMICRO_OK; ++i) {
    out("output ");
    write_unsigned(i);
    out(": '");
    write_name(name, length);
    out("'\n");
  }
  return 0;
}

/* 2. Plan the session into the static arena. A first prepare with no arena bytes fails with
 *    ONNXMICRO_OUT_OF_MEMORY and tells the size the plan needs: how a program sizes its arena at run time. */
static int prepare_session(onnxmicro_model* model, onnxmicro_session** session) {
  unsigned char* arena =
      arena_storage +
      (ONNXMICRO_ARENA_ALIGNMENT - (uintptr_t)arena_storage % ONNXMICRO_ARENA_ALIGNMENT) % ONNXMICRO_ARENA_ALIGNMENT;
  size_t needed;
  onnxmicro_status status = onnxmicro_session_init(session_storage, sizeof session_storage, session);
  if (status != ONNXMICRO_OK) return fail("onnxmicro_session_init", status, "storage too small");
  status = onnxmicro_session_prepare(*session, model, arena, 0, session_metadata, sizeof session_metadata);
  if (status != ONNXMICRO_OUT_OF_MEMORY) {
    return fail("onnxmicro_session_prepare (no arena)", status, onnxmicro_session_message(*session));
  }
  needed = onnxmicro_session_required_arena_bytes(*session);
  out("arena: ");
  write_unsigned(needed);
  out(" bytes needed, ");
  write_unsigned(HELLO_C_ARENA_BYTES);
  out(" available\n");
  if (needed > HELLO_C_ARENA_BYTES) {
    return fail("sizing the arena", ONNXMICRO_OUT_OF_MEMORY, "HELLO_C_ARENA_BYTES is too small");
  }
  status = onnxmicro_session_prepare(*session, model, arena, needed, session_metadata, sizeof session_metadata);
  if (status != ONNXMICRO_OK) return fail("onnxmicro_session_prepare", status, onnxmicro_session_message(*session));
  out("session: ");
  write_unsigned(onnxmicro_session_metadata_bytes(*session));
  out(" metadata bytes\n");
  return 0;
}

/* 3. Bind the input by name (copied into the arena) and run; run() allocates nothing. */
static int run(onnxmicro_session* session) {
  onnxmicro_tensor input;
  onnxmicro_status status = onnxmicro_session_get_input(session, 0, &input);
  if (status != ONNXMICRO_OK) return fail("onnxmicro_session_get_input", status, onnxmicro_session_message(session));
  out("input 0: ");
  write_tensor_type(&input);
  out("\n");
  input.dtype = ONNXMICRO_DTYPE_FLOAT32;
  input.rank = hello_input_rank;
  input.dims = hello_input_dims;
  input.data = hello_input;
  input.byte_size = hello_input_count * sizeof(float);
  status = onnxmicro_session_set_input_by_name(session, hello_input_name, &input);
  if (status != ONNXMICRO_OK) return fail("onnxmicro_session_set_input", status, onnxmicro_session_message(session));
  status = onnxmicro_session_run(session);
  if (status != ONNXMICRO_OK) return fail("onnxmicro_session_run", status, onnxmicro_session_message(session));
  return 0;
}

/* 4. Read the output (it points into the arena) and compare it with onnxruntime's. */
static int check_output(onnxmicro_session* session) {
  onnxmicro_tensor output;
  const float* actual;
  size_t i;
  int matches = 1;
  onnxmicro_status status = onnxmicro_session_get_output(session, 0, &output);
  if (status != ONNXMICRO_OK) return fail("onnxmicro_session_get_output", status, onnxmicro_session_message(session));
  out("output 0: ");
  write_tensor_type(&output);
  out("\n");
  if (output.dtype != ONNXMICRO_DTYPE_FLOAT32 || output.byte_size != hello_expected_count * sizeof(float)) {
    out("MISMATCH: expected float32 with 10 elements\n");
    return 1;
  }
  actual = (const float*)output.data;
  for (i = 0; i < hello_expected_count; ++i) {
    const double a = actual[i];
    const double e = hello_expected[i];
    const double diff = a > e ? a - e : e - a;
    if (!(diff <= HELLO_C_ABSOLUTE_TOLERANCE + HELLO_C_RELATIVE_TOLERANCE * (e < 0 ? -e : e))) matches = 0;
    out("  ");
    write_unsigned(i);
    out(": ");
    write_float(a);
    out(" (expected ");
    write_float(e);
    out(")\n");
  }
  out(matches ? "MATCH: output agrees with onnxruntime\n" : "MISMATCH: output differs from onnxruntime\n");
  return matches ? 0 : 1;
}

int hello_c_run(hello_c_write_function write) {
  onnxmicro_model* model = NULL;
  onnxmicro_session* session = NULL;
  int result;
  out = write;
  out("onnxmicro ");
  out(onnxmicro_version_string());
  out(", C API\n");
  result = load_model(&model);
  if (result == 0) result = prepare_session(model, &session);
  if (result == 0) result = run(session);
  if (result == 0) result = check_output(session);
  /* The session before the model it was prepared with. */
  onnxmicro_session_destroy(session);
  onnxmicro_model_destroy(model);
  return result;
}
