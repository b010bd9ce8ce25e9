// SPDX-License-Identifier: MIT
// The row-wise window engine (kernels/common/window_rows.hpp) behind depthwise Conv and MaxPool, at every
// instruction-set level this CPU has, with and without the padded planes' scratch: kernel sizes 1-5, strides 1-4,
// pads, dilation, planes from 1 to 56 wide (the narrow-plane, interior-vector, border and padded paths, the latter
// with its stride-2 phases), the padded path planned once for many planes, and MaxPool's
// separable planes up to 2100 wide, against a loop written here. Multiply-add is compared with a
// double-precision sum (levels differ by FMA rounding only); max must match bit for bit, NaN never winning and a
// window inside the padding giving the fill value.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "onnxmicro/kernels/common/window_rows.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
namespace wr = onnxmicro::kernels::window_rows;

constexpr om::Isa kLevels[] = {om::Isa::baseline, om::Isa::avx2, om::Isa::avx512};

bool level_available(om::Isa isa) { return static_cast<int>(isa) <= static_cast<int>(om::detected_isa()); }

// An instruction-set level, with or without the scratch that opens the padded-plane path.
struct Level {
  om::Isa isa;
  bool padded;
};

std::vector<Level> levels() {
  std::vector<Level> result;
  for (om::Isa isa : kLevels)
    if (level_available(isa))
      for (bool padded : {false, true}) result.push_back(Level{isa, padded});
  return result;
}

// Scratch for the padded path (poisoned with NaN: every read of it must be a value the copy wrote), or none.
std::vector<float> scratch_for(const Level& level, const wr::PlaneGeometry& g) {
  if (!level.padded || wr::padded_scratch_floats(g) == 0) return {};
  return std::vector<float>(static_cast<std::size_t>(wr::padded_scratch_floats(g)),
                            std::numeric_limits<float>::quiet_NaN());
}

// A plane of h x w with a square kernel k, stride s, pad p (both sides) and dilation d; false when empty.
bool make_plane(std::int64_t h, std::int64_t w, std::int64_t k, std::int64_t s, std::int64_t p, std::int64_t d,
                wr::PlaneGeometry& g) {
  const bool one_d = h == 1;
  const std::int64_t kh = one_d ? 1 : k, ph = one_d ? 0 : p, reach = (k - 1) * d + 1;
  g = wr::PlaneGeometry{h, w, 0, 0, kh, k, s, s, ph, p, d, d};
  g.out_h = (h + 2 * ph - ((kh - 1) * d + 1)) / s + 1;
  g.out_w = (w + 2 * p - reach) / s + 1;
  return w + 2 * p >= reach && h + 2 * ph >= (kh - 1) * d + 1 && g.out_h > 0 && g.out_w > 0;
}

// Visits the taps of output (oy, ox) that lie inside the plane, in row-major order.
template <typename Visit>
void for_each_tap(const wr::PlaneGeometry& g, std::int64_t oy, std::int64_t ox, Visit visit) {
  for (std::int64_t ky = 0; ky < g.kernel_h; ++ky)
    for (std::int64_t kx = 0; kx < g.kernel_w; ++kx) {
      const std::int64_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
      const std::int64_t ix = ox * g.stride_w - g.pad_left + kx * g.dilation_w;
      if (iy >= 0 && iy < g.in_h && ix >= 0 && ix < g.in_w) visit(iy * g.in_w + ix, ky * g.kernel_w + kx);
    }
}

TEST(WindowRows, DepthwiseMultiplyAddMatchesTheLoopAtEveryLevel) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  int cases = 0, wrong = 0;
  for (std::int64_t h : {1, 5, 17})
    for (std::int64_t w : {1, 3, 7, 8, 14, 16, 17, 33, 56})
      for (std::int64_t k : {1, 3, 5})
        for (std::int64_t s : {1, 2, 3, 4})
          for (std::int64_t p : {0, 1, 2})
            for (std::int64_t d : {1, 2}) {
              wr::PlaneGeometry g;
              if (!make_plane(h, w, k, s, p, d, g)) continue;
              std::vector<float> x(static_cast<std::size_t>(h * w)), weights(static_cast<std::size_t>(g.kernel_h * k));
              for (float& v : x) v = uniform(rng);
              for (float& v : weights) v = uniform(rng);
              for (const Level& level : levels()) {
                std::vector<float> y(static_cast<std::size_t>(g.out_h * g.out_w) + 8, 77.0f);
                std::vector<float> scratch = scratch_for(level, g);
                wr::window_plane<wr::RowOp::multiply_add>(level.isa, g, x.data(), weights.data(), 0.5f, y.data(),
                                                          scratch.empty() ? nullptr : scratch.data());
                ++cases;
                for (std::int64_t oy = 0; oy < g.out_h; ++oy)
                  for (std::int64_t ox = 0; ox < g.out_w; ++ox) {
                    double sum = 0.5;
                    for_each_tap(g, oy, ox, [&](std::int64_t at, std::int64_t tap) {
                      sum +=
                          static_cast<double>(weights[static_cast<std::size_t>(tap)]) * x[static_cast<std::size_t>(at)];
                    });
                    wrong += std::fabs(y[static_cast<std::size_t>(oy * g.out_w + ox)] - sum) > 1e-5;
                  }
                for (std::size_t i = static_cast<std::size_t>(g.out_h * g.out_w); i < y.size(); ++i)
                  wrong += y[i] != 77.0f;
              }
            }
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(cases, 1000);
}

TEST(WindowRows, PlannedPaddedPlanesGiveThePerPlaneBitsAndStride2TakesThePhases) {
  // Depthwise Conv plans the padded path once (plan_padded) and runs every plane of the node through it in one
  // scratch: each plane must give the bits of a call of its own with fresh scratch (nothing of the plane before it
  // may leak through the phases' spare rows), stride 2 must take the phases, and a 1x1 or dilated stride-2 window
  // must not (four phases copied to read one).
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  struct Geometry {
    std::int64_t in, k, s, pad_begin, out;  // square planes; the end's padding is what `out` leaves
  };
  const Geometry geometries[] = {{112, 3, 2, 1, 56}, {56, 3, 2, 1, 28}, {28, 3, 2, 0, 13}, {14, 3, 2, 1, 7},
                                 {9, 5, 2, 2, 5},    {7, 3, 1, 1, 7},   {20, 4, 2, 1, 10}, {33, 3, 2, 1, 16}};
  int planes = 0, wrong = 0;
  for (const Geometry& e : geometries) {
    const wr::PlaneGeometry g{e.in, e.in, e.out, e.out, e.k, e.k, e.s, e.s, e.pad_begin, e.pad_begin, 1, 1};
    std::vector<float> x(static_cast<std::size_t>(3 * e.in * e.in)), weights(static_cast<std::size_t>(3 * e.k * e.k));
    for (float& v : x) v = uniform(rng) * 4.0f;
    for (float& v : weights) v = uniform(rng);
    const om::kernels::OutputClamp clamp{true, -1.0f, 2.5f};
    for (om::Isa isa : {om::Isa::avx2, om::Isa::avx512}) {
      if (!level_available(isa)) continue;
      const wr::PaddedPlan plan = wr::plan_padded(isa, g);
      EXPECT_TRUE(plan.taken()) << e.in << " stride " << e.s;
      std::vector<float> shared(static_cast<std::size_t>(wr::padded_scratch_floats(g)),
                                std::numeric_limits<float>::quiet_NaN());
      const std::size_t outputs = static_cast<std::size_t>(e.out * e.out);
      for (std::int64_t p = 0; p < 3; ++p) {
        const float* plane = x.data() + p * e.in * e.in;
        const float* w = weights.data() + p * e.k * e.k;
        std::vector<float> planned(outputs + 8, 77.0f), alone(outputs + 8, 77.0f);
        std::vector<float> fresh(shared.size(), std::numeric_limits<float>::quiet_NaN());
        wr::window_plane<wr::RowOp::multiply_add>(plan, isa, g, plane, w, 0.25f, planned.data(), shared.data(), clamp);
        wr::window_plane<wr::RowOp::multiply_add>(isa, g, plane, w, 0.25f, alone.data(), fresh.data(), clamp);
        ++planes;
        wrong += std::memcmp(planned.data(), alone.data(), planned.size() * sizeof(float)) != 0;
        for (std::int64_t i = 0; i < e.out * e.out; ++i) {
          double sum = 0.25;
          for_each_tap(g, i / e.out, i % e.out,
                       [&](std::int64_t at, std::int64_t tap) { sum += static_cast<double>(w[tap]) * plane[at]; });
          sum = sum < -1.0 ? -1.0 : sum > 2.5 ? 2.5 : sum;
          wrong += std::fabs(planned[static_cast<std::size_t>(i)] - sum) > 1e-5;
        }
      }
    }
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(planes > 0, om::detected_isa() != om::Isa::baseline);
  const wr::PlaneGeometry pointwise_stride2{8, 8, 4, 4, 1, 1, 2, 2, 0, 0, 1, 1};
  const wr::PlaneGeometry dilated_stride2{16, 16, 6, 6, 3, 3, 2, 2, 0, 0, 2, 2};
  EXPECT_FALSE(wr::plan_padded(om::Isa::avx2, pointwise_stride2).taken());
  EXPECT_FALSE(wr::plan_padded(om::Isa::avx2, dilated_stride2).taken());
  EXPECT_FALSE(wr::plan_padded(om::Isa::baseline, wr::PlaneGeometry{14, 14, 7, 7, 3, 3, 2, 2, 1, 1, 1, 1}).taken());
}

TEST(WindowRows, MaxMatchesTheLoopBitForBitWithNaNAndInfinity) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  const float lowest = std::numeric_limits<float>::lowest();
  int cases = 0, wrong = 0;
  for (std::int64_t h : {1, 4, 9})
    for (std::int64_t w : {1, 3, 7, 8, 13, 16, 17, 40})
      for (std::int64_t k : {1, 2, 3})
        for (std::int64_t s : {1, 2, 3})
          for (std::int64_t p : {0, 1, 2}) {
            wr::PlaneGeometry g;
            if (!make_plane(h, w, k, s, p, 1, g)) continue;
            std::vector<float> x(static_cast<std::size_t>(h * w));
            for (float& v : x) v = uniform(rng);
            x[0] = std::numeric_limits<float>::quiet_NaN();
            if (x.size() > 3) x[3] = -std::numeric_limits<float>::infinity();
            std::vector<float> expected(static_cast<std::size_t>(g.out_h * g.out_w));
            for (std::int64_t oy = 0; oy < g.out_h; ++oy)
              for (std::int64_t ox = 0; ox < g.out_w; ++ox) {
                float best = lowest;  // a window inside the padding keeps the fill
                for_each_tap(g, oy, ox, [&](std::int64_t at, std::int64_t) {
                  const float v = x[static_cast<std::size_t>(at)];
                  best = v > best ? v : best;  // NaN never wins
                });
                expected[static_cast<std::size_t>(oy * g.out_w + ox)] = best;
              }
            for (const Level& level : levels()) {
              std::vector<float> y(expected.size());
              std::vector<float> scratch = scratch_for(level, g);
              wr::window_plane<wr::RowOp::max>(level.isa, g, x.data(), nullptr, lowest, y.data(),
                                               scratch.empty() ? nullptr : scratch.data());
              ++cases;
              wrong += std::memcmp(y.data(), expected.data(), y.size() * sizeof(float)) != 0;
            }
          }
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(cases, 300);
}

TEST(WindowRows, SeparableMaxMatchesTheLoopOnWideDilatedAndCeilModePlanes) {
  // MaxPool's AVX2 planes run separably (column maxima, then row maxima): wide rows (SqueezeNet's 111, ResNet's 112,
  // past the row buffers at 2100), dilation, kernels up to 5, and ceil_mode's last window reaching past the plane.
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> uniform(-4.0f, 4.0f);
  const float lowest = std::numeric_limits<float>::lowest();
  int cases = 0, wrong = 0, separable = 0;
  for (std::int64_t h : {5, 12})
    for (std::int64_t w : {8, 9, 31, 55, 111, 112, 224, 2100})
      for (std::int64_t k : {2, 3, 5})
        for (std::int64_t s : {1, 2})
          for (std::int64_t d : {1, 2})
            for (std::int64_t p : {0, 1})
              for (bool ceil_mode : {false, true}) {
                wr::PlaneGeometry g;
                if (p >= k || !make_plane(h, w, k, s, p, d, g)) continue;
                const std::int64_t reach = (k - 1) * d + 1;
                if (ceil_mode) {  // one more window where the last one would start inside the plane
                  if ((w + 2 * p - reach) % s == 0 || (g.out_w * s - p) >= w) continue;
                  ++g.out_w;
                }
                std::vector<float> x(static_cast<std::size_t>(h * w));
                for (float& v : x) v = uniform(rng);
                for (std::size_t i = 0; i < x.size(); i += 7) x[i] = std::numeric_limits<float>::quiet_NaN();
                for (std::size_t i = 3; i < x.size(); i += 11) x[i] = -std::numeric_limits<float>::infinity();
                std::vector<float> expected(static_cast<std::size_t>(g.out_h * g.out_w));
                for (std::int64_t oy = 0; oy < g.out_h; ++oy)
                  for (std::int64_t ox = 0; ox < g.out_w; ++ox) {
                    float best = lowest;
                    for_each_tap(g, oy, ox, [&](std::int64_t at, std::int64_t) {
                      const float v = x[static_cast<std::size_t>(at)];
                      best = v > best ? v : best;
                    });
                    expected[static_cast<std::size_t>(oy * g.out_w + ox)] = best;
                  }
                separable += wr::separable_max_plane(g);
                for (const Level& level : levels()) {
                  if (level.padded) continue;                       // (MaxPool gives no scratch)
                  std::vector<float> y(expected.size() + 1, 7.0f);  // the element past the end stays untouched
                  wr::window_plane<wr::RowOp::max>(level.isa, g, x.data(), nullptr, lowest, y.data());
                  ++cases;
                  wrong += std::memcmp(y.data(), expected.data(), expected.size() * sizeof(float)) != 0;
                  wrong += y.back() != 7.0f;
                }
              }
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(cases, 300);
  EXPECT_GT(separable, 200);
}

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
