// SPDX-License-Identifier: MIT
// The reduction family: the Reduce* ops (one shared engine, reduce_util.hpp) and ArgMax/ArgMin.
#pragma once
#include "onnxmicro/kernels/kernel_set.hpp"
#include "onnxmicro/kernels/reduction/arg_max.hpp"
#include "onnxmicro/kernels/reduction/arg_min.hpp"
#include "onnxmicro/kernels/reduction/reduce_l1.hpp"
#include "onnxmicro/kernels/reduction/reduce_l2.hpp"
#include "onnxmicro/kernels/reduction/reduce_log_sum.hpp"
#include "onnxmicro/kernels/reduction/reduce_log_sum_exp.hpp"
#include "onnxmicro/kernels/reduction/reduce_max.hpp"
#include "onnxmicro/kernels/reduction/reduce_mean.hpp"
#include "onnxmicro/kernels/reduction/reduce_min.hpp"
#include "onnxmicro/kernels/reduction/reduce_prod.hpp"
#include "onnxmicro/kernels/reduction/reduce_sum.hpp"
#include "onnxmicro/kernels/reduction/reduce_sum_square.hpp"

ONNXMICRO_NAMESPACE_BEGIN
namespace kernels {

using ReductionKernels =
    KernelSet<ReduceSum_1, ReduceSum_13, ReduceMean_1, ReduceMean_18, ReduceMax_1, ReduceMax_18, ReduceMin_1,
              ReduceMin_18, ReduceProd_1, ReduceProd_18, ReduceL1_1, ReduceL1_18, ReduceL2_1, ReduceL2_18,
              ReduceLogSum_1, ReduceLogSum_18, ReduceLogSumExp_1, ReduceLogSumExp_18, ReduceSumSquare_1,
              ReduceSumSquare_18, ArgMax_1, ArgMax_12, ArgMin_1, ArgMin_12>;

}  // namespace kernels
ONNXMICRO_NAMESPACE_END
