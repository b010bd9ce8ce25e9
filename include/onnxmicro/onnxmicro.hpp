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

// The runtime (everything but the kernels; include only it when naming the kernels you use), then every kernel.
#include "onnxmicro/runtime.hpp"
#include "onnxmicro/runtime/all_kernels.hpp"
