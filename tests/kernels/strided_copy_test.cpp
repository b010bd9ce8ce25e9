// SPDX-License-Identifier: MIT
// kernels/common/strided_copy.hpp: every count around the 8-lane blocks, strides 1 to 3, at every level this CPU has,
// equal to the element-by-element copy, with the source ending at the last value read (a read past it is a heap
// overflow under ASan) and the destination's next element untouched.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "onnxmicro/core/isa.hpp"
#include "onnxmicro/kernels/common/strided_copy.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;

TEST(StridedCopy, EveryCountAndStrideAtEveryLevelReadsNoFurtherThanItsLastValue) {
  int levels = 0;
  for (om::Isa isa : {om::Isa::baseline, om::Isa::avx2, om::Isa::avx512}) {
    if (static_cast<int>(isa) > static_cast<int>(om::detected_isa())) continue;
    ++levels;
    for (std::int64_t stride : {1, 2, 3})
      for (std::int64_t count = 1; count <= 41; ++count) {
        std::vector<float> src(static_cast<std::size_t>((count - 1) * stride + 1));
        for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i) * 0.5f - 3.0f;
        std::vector<float> dst(static_cast<std::size_t>(count + 1), -99.0f);
        om::kernels::strided_copy::copy(isa, dst.data(), src.data(), count, stride);
        for (std::int64_t i = 0; i < count; ++i)
          ASSERT_EQ(dst[static_cast<std::size_t>(i)], src[static_cast<std::size_t>(i * stride)])
              << om::isa_name(isa) << " stride " << stride << " count " << count << " element " << i;
        EXPECT_EQ(dst[static_cast<std::size_t>(count)], -99.0f) << "written past count " << count;
      }
  }
  EXPECT_GE(levels, 1);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
