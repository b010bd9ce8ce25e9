// SPDX-License-Identifier: MIT
// onnxmicro without its kernels: models, sessions, kernel sets, and the kernel API. For a program that names the
// kernels it uses (a firmware's model-driven kernel set, see `onnxmicro kernels`): include this and the headers of
// those kernels (kernels/<family>/<op>.hpp, or a family's list kernels/<family>/<family>_kernels.hpp) instead of
// onnxmicro.hpp, which parses every kernel header as well.
#pragma once

// Layer order, as in DEVELOPERS.md (each header also includes what it uses).
// clang-format off
#include "onnxmicro/core/config.hpp"
#include "onnxmicro/core/version.hpp"
#include "onnxmicro/core/status.hpp"
#include "onnxmicro/core/dtype.hpp"
#include "onnxmicro/core/span.hpp"
#include "onnxmicro/core/shape.hpp"
#include "onnxmicro/core/tensor.hpp"
#include "onnxmicro/core/memory.hpp"
#include "onnxmicro/proto/wire.hpp"
#include "onnxmicro/proto/onnx_views.hpp"
#include "onnxmicro/model/graph.hpp"
#include "onnxmicro/model/model_bytes.hpp"
#include "onnxmicro/model/loader.hpp"
#include "onnxmicro/kernels/kernel_api.hpp"
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/runtime/planner.hpp"
#include "onnxmicro/runtime/session.hpp"
// clang-format on
