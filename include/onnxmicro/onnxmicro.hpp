// SPDX-License-Identifier: MIT
// onnxmicro: a header-only, embeddable ONNX runtime. Include this one header.
//
//   onnxmicro::ModelBytes bytes;                       // or ModelBytes::borrow(array, size) from flash
//   auto st = onnxmicro::ModelBytes::from_file("model.onnx", bytes);
//   onnxmicro::Model model;
//   st = model.load(bytes.bytes());
//   onnxmicro::Session session;
//   st = session.prepare(model, onnxmicro::AllKernels::registry());
//   st = session.set_input(0, input_view);
//   st = session.run();
//   onnxmicro::ConstTensorView y = session.output(0);
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
#include "onnxmicro/runtime/all_kernels.hpp"
#include "onnxmicro/runtime/planner.hpp"
#include "onnxmicro/runtime/session.hpp"
// clang-format on
