// SPDX-License-Identifier: MIT
// Control flow: If, Loop and Scan run subgraphs as sessions of their own, so they live in the runtime layer
// (they need Session) rather than under kernels/.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/runtime/control_flow/if.hpp"
#include "onnxmicro/runtime/control_flow/loop.hpp"
#include "onnxmicro/runtime/control_flow/scan.hpp"
#include "onnxmicro/runtime/control_flow/sequence_map.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using ControlFlowKernels = KernelSet<If_1, Loop_1, Scan_8, Scan_9, SequenceMap_17>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
