// SPDX-License-Identifier: MIT
// The float GEMM at every instruction-set level this CPU has (core/isa.hpp; levels above it cannot run here and are
// named in the output): ragged shapes around every tile edge, transposed A, a C row stride wider than N whose
// padding must stay untouched, against a double-precision triple loop. The tolerance is relative to the sum of
// |a*b| terms: levels differ only in summation grouping and FMA rounding, never by more than a few float ulps per
// term. Also the session's choice: SessionOptions::max_isa caps it, Session::isa() reports it, kernels follow it,
// and a malformed ONNXMICRO_MAX_ISA fails prepare naming the variable.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "onnxmicro/kernels/common/byte_rows.hpp"
#include "onnxmicro/kernels/common/integer_gemm.hpp"
#include "onnxmicro/onnxmicro.hpp"
#include "onnxmicro/runtime/std_thread_pool.hpp"
#include "support/proto_writer.hpp"

namespace ONNXMICRO_TEST_FILE_SCOPE {

namespace om = onnxmicro;
using om::Isa;

constexpr Isa kLevels[] = {Isa::baseline, Isa::avx2, Isa::avx512};

struct GemmCase {
  std::int64_t m, n, k;
  bool transposed_a;
};

// Checks C = C0 + A * B for one case at one level; returns the number of wrong or clobbered elements.
int check_case(Isa isa, const GemmCase& g, std::mt19937& rng) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> a(static_cast<std::size_t>(g.m * g.k)), b(static_cast<std::size_t>(g.k * g.n));
  for (float& v : a) v = uniform(rng);
  for (float& v : b) v = uniform(rng);
  const std::int64_t ldc = g.n + 3;  // padding columns that must stay untouched
  constexpr float kPadding = 1234.5f;
  std::vector<float> c(static_cast<std::size_t>(g.m * ldc), kPadding), c0(c.size());
  for (std::int64_t i = 0; i < g.m; ++i)
    for (std::int64_t j = 0; j < g.n; ++j) c[static_cast<std::size_t>(i * ldc + j)] = uniform(rng);
  c0 = c;
  const std::int64_t a_row = g.transposed_a ? 1 : g.k;
  const std::int64_t a_col = g.transposed_a ? g.m : 1;
  om::kernels::gemm::accumulate<float>(isa, g.m, g.n, g.k, a.data(), a_row, a_col, b.data(), g.n, c.data(), ldc);
  int wrong = 0;
  for (std::int64_t i = 0; i < g.m; ++i) {
    for (std::int64_t j = 0; j < ldc; ++j) {
      const float got = c[static_cast<std::size_t>(i * ldc + j)];
      if (j >= g.n) {
        wrong += got != kPadding;
        continue;
      }
      double expected = c0[static_cast<std::size_t>(i * ldc + j)], magnitude = std::fabs(expected);
      for (std::int64_t p = 0; p < g.k; ++p) {
        const double term = static_cast<double>(a[static_cast<std::size_t>(i * a_row + p * a_col)]) *
                            b[static_cast<std::size_t>(p * g.n + j)];
        expected += term;
        magnitude += std::fabs(term);
      }
      wrong += std::fabs(got - expected) > 4.0 * 1.2e-7 * (static_cast<double>(g.k) + 1.0) * magnitude + 1e-30;
    }
  }
  return wrong;
}

TEST(GemmIsa, EveryLevelOfThisCpuMatchesATripleLoopOnRaggedShapes) {
  std::mt19937 rng(7);
  const Isa detected = om::detected_isa();
  int levels_run = 0;
  for (Isa isa : kLevels) {
    if (static_cast<int>(isa) > static_cast<int>(detected)) {
      std::printf("gemm level %s: not on this CPU, not run\n", std::string(om::isa_name(isa)).c_str());
      continue;
    }
    ++levels_run;
    int wrong = 0, cases = 0;
    for (std::int64_t m : {1, 2, 5, 6, 7, 8, 9, 13, 17})
      for (std::int64_t n : {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 49, 64, 100})
        for (std::int64_t k : {1, 3, 17, 129, 300})
          for (bool transposed : {false, true}) {
            wrong += check_case(isa, GemmCase{m, n, k, transposed}, rng);
            ++cases;
          }
    EXPECT_EQ(wrong, 0) << "level " << om::isa_name(isa);
    std::printf("gemm level %s: %d cases\n", std::string(om::isa_name(isa)).c_str(), cases);
  }
  EXPECT_GE(levels_run, 1);
}

// The integer GEMM's tiles at every level of this CPU (with AVX-512 VNNI, the avx512 level's tile is
// tile_avx512_vnni; the avx2 cap runs tile_avx2; one column, column_tile_avx2 at both) give exactly the wrapping int32
// sums of a scalar loop: Winograd's operand ranges, and operands of up to +-32767 deep enough that the sums wrap
// several times.
TEST(GemmIsa, IntegerTilesAtEveryLevelGiveTheWrappingSumsExactly) {
  namespace ig = om::kernels::integer_gemm;
  std::mt19937 rng(23);
  for (Isa isa : kLevels) {
    if (static_cast<int>(isa) > static_cast<int>(om::detected_isa())) continue;
#if ONNXMICRO_DETAIL_INTEGER_AVX2
    if (isa == Isa::avx512 && om::detected_avx512_vnni()) {
      EXPECT_EQ(ig::tile_for(isa), &ig::tile_avx512_vnni);
    } else if (isa != Isa::baseline) {
      EXPECT_EQ(ig::tile_for(isa), &ig::tile_avx2);
    }
    if (isa != Isa::baseline) {
      EXPECT_EQ(ig::tile_for_columns(isa, 1), &ig::column_tile_avx2);  // n = 1 below
    }
    const bool vnni = isa == Isa::avx512 && om::detected_avx512_vnni();
    EXPECT_EQ(ig::tall_tile_for(isa), vnni ? &ig::tall_tile_avx512_vnni : nullptr);
    EXPECT_EQ(ig::tiles_for_columns(isa, 1).tall, nullptr);
#endif
    for (int range : {2295, 32767}) {
      std::uniform_int_distribution<int> value(-range, range);
      for (std::int64_t m : {1, 4, 5, 11, 13})
        for (std::int64_t n : {1, 16, 17, 40})
          for (std::int64_t k : {1, 2, 3, 6, 31, 300}) {
            std::vector<std::int16_t> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n));
            for (std::int16_t& v : a) v = static_cast<std::int16_t>(value(rng));
            for (std::int16_t& v : b) v = static_cast<std::int16_t>(value(rng));
            std::vector<std::int16_t> packed_a(static_cast<std::size_t>(ig::packed_a_size(m, k)));
            std::vector<std::int16_t> packed_b(static_cast<std::size_t>(ig::packed_b_size(k, n)));
            for (std::int64_t i = 0; i < m; ++i)
              for (std::int64_t p = 0; p < ig::packed_depth(k); ++p)
                packed_a[static_cast<std::size_t>(ig::packed_a_index(i, p, ig::packed_depth(k)))] =
                    p < k ? a[static_cast<std::size_t>(i * k + p)] : std::int16_t(0);
            ig::pack_b(b.data(), n, k, n, packed_b.data());
            int wrong = 0;
            ig::multiply(isa, packed_a.data(), m, packed_b.data(), n, ig::packed_depth(k),
                         [&](std::int64_t row, std::int64_t column, std::int64_t rows, std::int64_t columns,
                             const std::int32_t(&acc)[ig::kRows][ig::kColumns]) {
                           for (std::int64_t r = 0; r < rows; ++r)
                             for (std::int64_t c = 0; c < columns; ++c) {
                               std::uint32_t sum = 0;
                               for (std::int64_t p = 0; p < k; ++p)
                                 sum += static_cast<std::uint32_t>(a[static_cast<std::size_t>((row + r) * k + p)] *
                                                                   b[static_cast<std::size_t>(p * n + column + c)]);
                               wrong += acc[r][c] != static_cast<std::int32_t>(sum);
                             }
                         });
            std::vector<std::int32_t> rows(static_cast<std::size_t>(ig::kTallRows * ig::round_up(n, ig::kColumns)));
            std::int64_t rows_done = 0;
            ig::multiply_rows(isa, packed_a.data(), m, packed_b.data(), n, ig::packed_depth(k), rows.data(),
                              [&](std::int64_t row, std::int64_t count, const std::int32_t* sums, std::int64_t ldc) {
                                EXPECT_EQ(row, rows_done);
                                rows_done += count;
                                for (std::int64_t r = 0; r < count; ++r)
                                  for (std::int64_t c = 0; c < n; ++c) {
                                    std::uint32_t sum = 0;
                                    for (std::int64_t p = 0; p < k; ++p)
                                      sum += static_cast<std::uint32_t>(a[static_cast<std::size_t>((row + r) * k + p)] *
                                                                        b[static_cast<std::size_t>(p * n + c)]);
                                    wrong += sums[r * ldc + c] != static_cast<std::int32_t>(sum);
                                  }
                              });
            EXPECT_EQ(rows_done, m);
            EXPECT_EQ(wrong, 0) << "level " << om::isa_name(isa) << " range " << range << " m" << m << " n" << n << " k"
                                << k;
          }
    }
  }
}

// The quad layout (int8 weights, activation bytes, vpdpbusd where the CPU has AVX-512 VNNI): the tile of every level
// this CPU has (the portable one below avx512) gives exactly the wrapping sums of a scalar loop, from uint8 and from
// int8 activations (their sign bit flipped by the packer), with the row sums for the zero point's term; depths that
// leave 1-3 values of a last quad, partial row panels and column panels; a depth of 70000 at the extremes, whose sums
// wrap.
TEST(GemmIsa, QuadTilesGiveTheWrappingSumsExactly) {
  namespace ig = om::kernels::integer_gemm;
  std::mt19937 rng(29);
  struct Size {
    std::int64_t m, n, k;
  };
  std::vector<Size> sizes;
  for (std::int64_t m : {1, 4, 5, 11, 12, 13})  // (the tall tiles: 8 rows and 4, 8 and 5, 8 and 4 and 1)
    for (std::int64_t n : {1, 16, 17, 40})
      for (std::int64_t k : {1, 3, 4, 5, 31, 300}) sizes.push_back({m, n, k});
  sizes.push_back({4, 16, 70000});
  for (Isa isa : kLevels) {
    if (static_cast<int>(isa) > static_cast<int>(om::detected_isa())) continue;
    const bool vnni = isa == Isa::avx512 && om::detected_avx512_vnni();
    EXPECT_EQ(ig::quad_tiles_run(isa), vnni);
    if (!vnni) {
      EXPECT_EQ(ig::quad_tiles_for_columns(isa, 16).tile, &ig::quad_tile_portable);
      EXPECT_EQ(ig::quad_tiles_for_columns(isa, 16).tall, nullptr);
    }
#if ONNXMICRO_DETAIL_INTEGER_AVX2
    if (vnni) {
      EXPECT_EQ(ig::quad_tiles_for_columns(isa, 16).tall, &ig::quad_tall_tile_avx512_vnni);
    }
#endif
    for (bool signed_x : {false, true}) {
      for (const Size& size : sizes) {
        const std::int64_t m = size.m, n = size.n, k = size.k;
        const bool extremes = k == 70000;
        std::uniform_int_distribution<int> w_value(-128, 127), x_value(0, 255);
        std::vector<std::int8_t> a(static_cast<std::size_t>(m * k));
        std::vector<std::uint8_t> x(static_cast<std::size_t>(k * n));  // the bytes: uint8, or int8's bits
        for (std::int8_t& v : a) v = static_cast<std::int8_t>(extremes ? -128 : w_value(rng));
        for (std::uint8_t& v : x) v = static_cast<std::uint8_t>(extremes ? (signed_x ? 127 : 255) : x_value(rng));
        std::vector<std::int8_t> packed_a(static_cast<std::size_t>(ig::packed_a_quads_size(m, k)));
        std::vector<std::int32_t> row_sums(static_cast<std::size_t>(m));
        std::vector<std::uint8_t> packed_b(static_cast<std::size_t>(ig::packed_quad_depth(k) * ig::round_up(n, 16)));
        ig::pack_a_quads(a.data(), k, 1, m, k, packed_a.data(), row_sums.data());
        if (signed_x) {
          ig::pack_b_rows_quads(reinterpret_cast<const std::int8_t*>(x.data()), n, k, n, packed_b.data());
        } else {
          ig::pack_b_rows_quads(x.data(), n, k, n, packed_b.data());
        }
        std::vector<std::int32_t> rows(static_cast<std::size_t>(ig::kTallRows * ig::round_up(n, ig::kColumns)));
        int wrong = 0, wrong_sums = 0;
        std::int64_t rows_done = 0;  // the epilogues' rows, in order
        ig::multiply_rows_quads(
            isa, packed_a.data(), m, packed_b.data(), n, ig::packed_quad_depth(k), rows.data(),
            [&](std::int64_t row, std::int64_t count, const std::int32_t* sums, std::int64_t ldc) {
              EXPECT_EQ(row, rows_done);
              EXPECT_LE(count, vnni ? ig::kTallRows : ig::kRows);
              rows_done += count;
              for (std::int64_t r = 0; r < count; ++r) {
                std::uint32_t weight_sum = 0;
                for (std::int64_t c = 0; c < n; ++c) {
                  std::uint32_t sum = 0;
                  for (std::int64_t p = 0; p < k; ++p) {
                    const std::uint8_t bits = x[static_cast<std::size_t>(p * n + c)];
                    const int xv = signed_x ? static_cast<int>(static_cast<std::int8_t>(bits)) + 128 : bits;
                    sum += static_cast<std::uint32_t>(a[static_cast<std::size_t>((row + r) * k + p)] * xv);
                  }
                  wrong += sums[r * ldc + c] != static_cast<std::int32_t>(sum);
                }
                for (std::int64_t p = 0; p < k; ++p)
                  weight_sum += static_cast<std::uint32_t>(a[static_cast<std::size_t>((row + r) * k + p)]);
                wrong_sums += row_sums[static_cast<std::size_t>(row + r)] != static_cast<std::int32_t>(weight_sum);
              }
            });
        EXPECT_EQ(rows_done, m);
        EXPECT_EQ(wrong, 0) << "level " << om::isa_name(isa) << (signed_x ? " int8" : " uint8") << " m" << m << " n"
                            << n << " k" << k;
        EXPECT_EQ(wrong_sums, 0) << "m" << m << " k" << k;
      }
    }
  }
}

// byte_rows::copy_flipped (the quad grid's rows, the byte pools' output rows): every count from 0 to 40 at strides 1,
// 2 and 3, with and without the sign flip, gives the scalar loop's bytes and writes no byte past out[count - 1] (a
// guard byte stays); the source is a vector of exactly src[0 .. (count - 1) * stride], so the ASan build catches a
// read past the row.
TEST(GemmIsa, CopyingFlippedBytesGivesTheScalarBytesAndReadsOnlyTheRow) {
  namespace br = om::kernels::byte_rows;
  std::mt19937 rng(37);
  for (std::int64_t stride : {1, 2, 3})
    for (std::uint8_t flip : {std::uint8_t(0), std::uint8_t(0x80)})
      for (std::int64_t count = 0; count <= 40; ++count) {
        const std::size_t size = count > 0 ? static_cast<std::size_t>((count - 1) * stride + 1) : 1;
        std::vector<std::uint8_t> src(size);
        for (std::uint8_t& v : src) v = static_cast<std::uint8_t>(rng());
        std::vector<std::uint8_t> out(static_cast<std::size_t>(count) + 1, 0xA5), expected(out);
        for (std::int64_t i = 0; i < count; ++i)
          expected[static_cast<std::size_t>(i)] =
              static_cast<std::uint8_t>(src[static_cast<std::size_t>(i * stride)] ^ flip);
        br::copy_flipped(src.data(), count, stride, flip, out.data());
        EXPECT_EQ(out, expected) << "stride " << stride << " flip " << int(flip) << " count " << count;
      }
}

// byte_rows::split (a stride-2 pool row's even and odd bytes): every count from 0 to 40 gives the scalar split, each
// half's first `count` bytes (the rest is slack).
TEST(GemmIsa, SplittingBytesGivesTheEvenAndOddBytes) {
  namespace br = om::kernels::byte_rows;
  std::mt19937 rng(41);
  for (std::int64_t count = 0; count <= 40; ++count) {
    std::vector<std::uint8_t> row(static_cast<std::size_t>(2 * count + 32));
    for (std::uint8_t& v : row) v = static_cast<std::uint8_t>(rng());
    std::vector<std::uint8_t> even(static_cast<std::size_t>(count + 16)), odd(even.size());
    br::split(row.data(), count, even.data(), odd.data());
    for (std::int64_t i = 0; i < count; ++i) {
      ASSERT_EQ(even[static_cast<std::size_t>(i)], row[static_cast<std::size_t>(2 * i)]) << count << " " << i;
      ASSERT_EQ(odd[static_cast<std::size_t>(i)], row[static_cast<std::size_t>(2 * i + 1)]) << count << " " << i;
    }
  }
}

// requantize_float_row (the depthwise conv's sums as floats) gives requantize_row's bits at every level this CPU has:
// sums up to 2^24 in magnitude, biases that take them past 2^29 (the vector loops' limit) and past int32 (wrapping),
// multipliers above and below 1, every row length's tail, uint8 and int8 outputs with a clamp.
TEST(GemmIsa, RequantizingFloatSumsGivesTheIntegerRowsBits) {
  namespace ig = om::kernels::integer_gemm;
  std::mt19937 rng(31);
  std::uniform_int_distribution<int> sum_value(-(1 << 24), 1 << 24), small(-3000, 3000);
  const std::int32_t biases[] = {0, 1234, -(1 << 29) + 5000, (1 << 29) - 100, 2147480000, -2147480000};
  for (Isa isa : kLevels) {
    if (static_cast<int>(isa) > static_cast<int>(om::detected_isa())) continue;
    for (double multiplier : {0.000731, 0.0213, 1.37}) {
      const ig::Requant q = ig::make_requant(multiplier);
      for (std::int32_t bias : biases) {
        for (std::int64_t count : {1, 7, 8, 29, 64}) {
          std::vector<float> sums(static_cast<std::size_t>(count));
          std::vector<std::int32_t> ints(sums.size());
          for (std::size_t i = 0; i < sums.size(); ++i) {
            ints[i] = i % 3 == 0 ? sum_value(rng) : small(rng);
            sums[i] = static_cast<float>(ints[i]);
          }
          std::vector<std::uint8_t> want(sums.size()), got(sums.size());
          ig::requantize_row(isa, ints.data(), count, static_cast<std::uint32_t>(bias), q, 3, 0, 255, want.data());
          ig::requantize_float_row(isa, sums.data(), count, bias, q, 3, 0, 255, got.data());
          EXPECT_EQ(got, want) << "level " << om::isa_name(isa) << " multiplier " << multiplier << " bias " << bias
                               << " count " << count;
          std::vector<std::int8_t> want8(sums.size()), got8(sums.size());
          ig::requantize_row(isa, ints.data(), count, static_cast<std::uint32_t>(bias), q, -7, -100, 90, want8.data());
          ig::requantize_float_row(isa, sums.data(), count, bias, q, -7, -100, 90, got8.data());
          EXPECT_EQ(got8, want8) << "level " << om::isa_name(isa) << " int8, bias " << bias << " count " << count;
        }
      }
    }
  }
}

// The clamp the bias-and-clamp tests fuse: [-0.5, 0.75].
om::kernels::OutputClamp test_clamp() {
  om::kernels::OutputClamp clamp;
  clamp.enabled = true;
  clamp.low = -0.5f;
  clamp.high = 0.75f;
  return clamp;
}

// The float GEMM's ends: C starts at the rows' bias (C's old values are ignored) and is clamped before it is stored
// (with K spanning several depth panels, so the clamp must wait for the last one).
TEST(GemmIsa, MultiplyStartsAtTheRowBiasAndClampsAtEveryLevel) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  const om::kernels::OutputClamp clamp = test_clamp();
  for (Isa isa : kLevels) {
    if (static_cast<int>(isa) > static_cast<int>(om::detected_isa())) continue;
    for (std::int64_t m : {1, 7, 9, 16})
      for (std::int64_t n : {2, 17, 33})
        for (std::int64_t k : {5, 300}) {
          std::vector<float> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)),
              bias(static_cast<std::size_t>(m)), c(static_cast<std::size_t>(m * n), 99.0f);
          for (float& v : a) v = uniform(rng);
          for (float& v : b) v = uniform(rng);
          for (float& v : bias) v = uniform(rng);
          om::kernels::gemm::multiply(isa, m, n, k, a.data(), k, 1, b.data(), n, c.data(), n, bias.data(), clamp);
          for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
              double sum = bias[static_cast<std::size_t>(i)], magnitude = std::fabs(sum);
              for (std::int64_t p = 0; p < k; ++p) {
                const double term = static_cast<double>(a[static_cast<std::size_t>(i * k + p)]) *
                                    b[static_cast<std::size_t>(p * n + j)];
                sum += term;
                magnitude += std::fabs(term);
              }
              const double expected = sum < -0.5 ? -0.5 : sum > 0.75 ? 0.75 : sum;
              EXPECT_NEAR(c[static_cast<std::size_t>(i * n + j)], expected, 4.8e-7 * (k + 1) * magnitude)
                  << "level " << om::isa_name(isa) << " m" << m << " n" << n << " k" << k;
            }
        }
  }
}

// Constant weights packed at prepare (gemm::pack_a) give the same bits as the strided A they came from, with the
// bias and clamp, on one thread and split over two at tile boundaries (6 rows on AVX2, 8 on AVX-512).
TEST(GemmIsa, PackedAAndStripedOrScatteredBGiveTheBitsOfTheUnpackedProductOnOneAndTwoThreads) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  const om::kernels::OutputClamp clamp = test_clamp();
  om::StdThreadPool pool(2);
  int levels = 0;
  for (Isa isa : {Isa::avx2, Isa::avx512}) {
    if (static_cast<int>(isa) > static_cast<int>(om::detected_isa())) continue;
    ++levels;
    EXPECT_GT(om::kernels::gemm::packed_tile_rows(isa), 0);
    const std::int64_t width = om::kernels::gemm::b_strip_columns(isa);
    EXPECT_EQ(width, isa == Isa::avx512 ? 32 : 16);
    for (std::int64_t m : {1, 5, 6, 7, 8, 9, 13, 64, 70})
      for (std::int64_t n : {2, 17, 30, 33, 49, 61, 200})  // last strips of 1-15 columns
        for (std::int64_t k : {1, 27, 300}) {
          std::vector<float> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)),
              bias(static_cast<std::size_t>(m));
          for (float& v : a) v = uniform(rng);
          for (float& v : b) v = uniform(rng);
          for (float& v : bias) v = uniform(rng);
          std::vector<float> packed(static_cast<std::size_t>(om::kernels::gemm::packed_a_floats(isa, m, k)), 99.0f);
          om::kernels::gemm::pack_a(isa, m, k, a.data(), k, 1, packed.data());
          std::vector<float> expected(static_cast<std::size_t>(m * n));
          om::kernels::gemm::multiply(isa, m, n, k, a.data(), k, 1, b.data(), n, expected.data(), n, bias.data(),
                                      clamp);
          for (std::size_t threads : {1, 2}) {
            const om::Workers workers(threads > 1 ? &pool : nullptr, threads);
            std::vector<float> got(expected.size(), -7.0f);
            om::kernels::gemm::multiply_packed(workers, isa, m, n, k, packed.data(), b.data(), n, got.data(), n,
                                               bias.data(), clamp);
            EXPECT_EQ(0, std::memcmp(got.data(), expected.data(), got.size() * sizeof(float)))
                << "level " << om::isa_name(isa) << " m" << m << " n" << n << " k" << k << " threads " << threads;
            // B striped as Conv's im2col writes it; the last strip's columns past n hold NaN, which must not be read.
            std::vector<float> striped(static_cast<std::size_t>(k * ((n + width - 1) / width * width)), NAN);
            std::vector<float> packed_b(striped.size(), NAN);
            ASSERT_EQ(static_cast<std::int64_t>(striped.size()), om::kernels::gemm::striped_b_floats(isa, k, n));
            om::kernels::gemm::pack_b_striped(isa, k, n, b.data(), n, 1, packed_b.data());
            for (std::int64_t p = 0; p < k; ++p)
              for (std::int64_t j = 0; j < n; ++j)
                striped[static_cast<std::size_t>(j / width * k * width + p * width + j % width)] =
                    b[static_cast<std::size_t>(p * n + j)];
            for (std::size_t i = 0; i < striped.size(); ++i)
              ASSERT_EQ(packed_b[i], std::isnan(striped[i]) ? 0.0f : striped[i]) << "pack_b_striped, float " << i;
            std::fill(got.begin(), got.end(), -7.0f);
            om::kernels::gemm::multiply_packed_striped(workers, isa, m, n, k, packed.data(), striped.data(), got.data(),
                                                       n, bias.data(), clamp);
            EXPECT_EQ(0, std::memcmp(got.data(), expected.data(), got.size() * sizeof(float)))
                << "striped B: level " << om::isa_name(isa) << " m" << m << " n" << n << " k" << k << " threads "
                << threads;
            // A plain, B striped (Gemm's constant weights), one- and two-row products included (their wide tiles).
            std::fill(got.begin(), got.end(), -7.0f);
            om::kernels::gemm::multiply_striped(workers, isa, m, n, k, a.data(), k, 1, striped.data(), got.data(), n,
                                                bias.data(), clamp);
            EXPECT_EQ(0, std::memcmp(got.data(), expected.data(), got.size() * sizeof(float)))
                << "plain A, striped B: level " << om::isa_name(isa) << " m" << m << " n" << n << " k" << k
                << " threads " << threads;
            if (!om::kernels::gemm::reads_b_through_offsets(isa)) continue;
            // B's rows anywhere (Conv's padded bands): here in reverse order, 3 NaN apart, which must not be read.
            const std::int64_t pitch = n + 3;
            std::vector<float> scattered(static_cast<std::size_t>(k * pitch + 1), NAN);
            std::vector<std::int32_t> offsets(static_cast<std::size_t>(k));
            for (std::int64_t p = 0; p < k; ++p) {
              offsets[static_cast<std::size_t>(p)] = static_cast<std::int32_t>((k - 1 - p) * pitch + 1);
              std::copy(b.begin() + p * n, b.begin() + (p + 1) * n,
                        scattered.begin() + offsets[static_cast<std::size_t>(p)]);
            }
            std::fill(got.begin(), got.end(), -7.0f);
            om::kernels::gemm::multiply_packed_offsets(workers, isa, m, n, k, packed.data(), scattered.data(),
                                                       offsets.data(), got.data(), n, bias.data(), clamp);
            EXPECT_EQ(0, std::memcmp(got.data(), expected.data(), got.size() * sizeof(float)))
                << "B rows through offsets: m" << m << " n" << n << " k" << k << " threads " << threads;
          }
        }
  }
  if (levels == 0) std::printf("packed gemm: no AVX2 on this CPU, not run\n");
}

// A (m x k), B (k x n), a bias per row and a starting C (m x n), uniform in [-1, 1].
struct RandomProduct {
  std::vector<float> a, b, bias, c0;
  RandomProduct(std::int64_t m, std::int64_t n, std::int64_t k, std::mt19937& rng)
      : a(static_cast<std::size_t>(m * k)),
        b(static_cast<std::size_t>(k * n)),
        bias(static_cast<std::size_t>(m)),
        c0(static_cast<std::size_t>(m * n)) {
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (std::vector<float>* values : {&a, &b, &bias, &c0})
      for (float& v : *values) v = uniform(rng);
  }
};

// One- and two-row products (a recurrent step at batch 1 or 2) take several strips at once; each row must keep
// the bits it gets inside a taller product (the 8- and 6-row tiles), from C or from the bias, clamped or not, over
// several depth panels and every column count around the wide blocks' edges.
TEST(GemmIsa, FewRowProductsGiveTheBitsOfTheSameRowsInsideATallProduct) {
  std::mt19937 rng(17);
  constexpr std::int64_t kTall = 9;
  int levels = 0;
  for (Isa isa : {Isa::avx2, Isa::avx512}) {
    if (static_cast<int>(isa) > static_cast<int>(om::detected_isa())) continue;
    ++levels;
    for (std::int64_t n : {1, 17, 63, 64, 65, 127, 128, 129, 200, 257, 513})
      for (std::int64_t k : {1, 27, 300})
        for (bool ends : {false, true}) {
          const RandomProduct r(kTall, n, k, rng);
          const std::vector<float>&a = r.a, &b = r.b, &c0 = r.c0;
          const om::kernels::OutputClamp clamp = ends ? test_clamp() : om::kernels::OutputClamp();
          const float* row_bias = ends ? r.bias.data() : nullptr;
          std::vector<float> tall = c0;
          om::kernels::gemm::multiply(isa, kTall, n, k, a.data(), k, 1, b.data(), n, tall.data(), n, row_bias, clamp);
          for (std::int64_t m : {1, 2}) {
            std::vector<float> few(c0.begin(), c0.begin() + m * n);
            om::kernels::gemm::multiply(isa, m, n, k, a.data(), k, 1, b.data(), n, few.data(), n, row_bias, clamp);
            EXPECT_EQ(0, std::memcmp(few.data(), tall.data(), few.size() * sizeof(float)))
                << "level " << om::isa_name(isa) << " m" << m << " n" << n << " k" << k << " ends " << ends;
          }
        }
  }
  if (levels == 0) std::printf("few-row gemm: no AVX2 on this CPU, not run\n");
}

// The last columns of a product, when at most 8 are left past the whole 16-column strips, take 12 x 8 tiles on AVX2
// (two row tiles of A at once); each column must keep the bits it gets inside a full strip of a wider product, for
// every row count around the 6- and 12-row tiles, plain and packed A, from C or from the bias, clamped or not.
TEST(GemmIsa, NarrowEdgeColumnsGiveTheBitsOfTheSameColumnsInsideAFullStrip) {
  if (static_cast<int>(om::detected_isa()) < static_cast<int>(Isa::avx2)) {
    std::printf("narrow edge: no AVX2 on this CPU, not run\n");
    return;
  }
  std::mt19937 rng(19);
  const Isa isa = Isa::avx2;
  constexpr std::int64_t kWide = 48;
  for (std::int64_t m : {1, 5, 6, 7, 11, 12, 13, 18, 23, 70})
    for (std::int64_t n : {2, 4, 8, 9, 17, 24, 33, 40})  // (one column takes the matrix-vector path)
      for (std::int64_t k : {3, 300})
        for (bool ends : {false, true}) {
          const RandomProduct r(m, kWide, k, rng);
          const std::vector<float>&a = r.a, &b = r.b, &c0 = r.c0;
          const om::kernels::OutputClamp clamp = ends ? test_clamp() : om::kernels::OutputClamp();
          const float* row_bias = ends ? r.bias.data() : nullptr;
          std::vector<float> wide = c0, narrow = c0;
          om::kernels::gemm::multiply(isa, m, kWide, k, a.data(), k, 1, b.data(), kWide, wide.data(), kWide, row_bias,
                                      clamp);
          om::kernels::gemm::multiply(isa, m, n, k, a.data(), k, 1, b.data(), kWide, narrow.data(), kWide, row_bias,
                                      clamp);
          std::vector<float> packed(static_cast<std::size_t>(om::kernels::gemm::packed_a_floats(isa, m, k)));
          om::kernels::gemm::pack_a(isa, m, k, a.data(), k, 1, packed.data());
          std::vector<float> from_packed(static_cast<std::size_t>(m * n), -7.0f);
          if (ends)
            om::kernels::gemm::multiply_packed(om::Workers(), isa, m, n, k, packed.data(), b.data(), kWide,
                                               from_packed.data(), n, row_bias, clamp);
          for (std::int64_t i = 0; i < m; ++i) {
            const std::size_t row = static_cast<std::size_t>(i * kWide);
            EXPECT_EQ(0,
                      std::memcmp(narrow.data() + row, wide.data() + row, static_cast<std::size_t>(n) * sizeof(float)))
                << "plain A: m" << m << " n" << n << " k" << k << " ends " << ends << " row " << i;
            EXPECT_EQ(narrow[row + static_cast<std::size_t>(n)], c0[row + static_cast<std::size_t>(n)])
                << "column n written: m" << m << " n" << n << " row " << i;
            if (ends) {
              EXPECT_EQ(0, std::memcmp(from_packed.data() + i * n, wide.data() + row,
                                       static_cast<std::size_t>(n) * sizeof(float)))
                  << "packed A: m" << m << " n" << n << " k" << k << " row " << i;
            }
          }
        }
}

TEST(GemmIsa, ParsesAndNamesLevels) {
  Isa isa = Isa::best;
  ASSERT_TRUE(om::parse_isa("sse2", isa));
  EXPECT_EQ(isa, Isa::baseline);
  ASSERT_TRUE(om::parse_isa("avx2", isa));
  EXPECT_EQ(isa, Isa::avx2);
  ASSERT_TRUE(om::parse_isa("avx512", isa));
  EXPECT_EQ(isa, Isa::avx512);
  EXPECT_FALSE(om::parse_isa("avx9", isa));
  EXPECT_EQ(om::isa_name(Isa::avx2), "avx2");
  EXPECT_EQ(om::min_isa(Isa::avx512, Isa::avx2), Isa::avx2);
}

// ---- the session's choice ----

onnxmicro_test::ProtoWriter matmul_model() {
  using namespace onnxmicro_test;
  return make_model(make_graph("g", {make_node("MatMul", {"a", "b"}, {"y"}, {}, "mm")},
                               {make_value_info("a", om::DataType::float32, {5, 40}),
                                make_value_info("b", om::DataType::float32, {40, 37})},
                               {make_value_info("y", om::DataType::float32, {5, 37})}),
                    13);
}

// The cap a test run sets in the environment (ctest runs this suite once per level).
Isa environment_cap() {
  Isa cap = Isa::best;
  EXPECT_TRUE(om::isa_cap_from_environment(cap));
  return cap;
}

TEST(SessionIsa, MaxIsaCapsTheChoiceAndTheKernelsFollowIt) {
  std::vector<unsigned char> bytes = matmul_model().bytes();
  om::Model model;
  ASSERT_TRUE(model.load(om::ByteSpan(bytes.data(), bytes.size())).ok());
  std::vector<float> a(5 * 40), b(40 * 37);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = std::sin(static_cast<float>(i));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::cos(static_cast<float>(i));
  std::vector<float> reference;
  for (Isa cap : kLevels) {
    om::SessionOptions options;
    options.max_isa = cap;
    om::Session session;
    om::Status st = session.prepare(model, om::all_kernels_registry(), options);
    ASSERT_TRUE(st.ok()) << st.message();
#if ONNXMICRO_ENABLE_ISA_DISPATCH
    EXPECT_EQ(session.isa(), om::min_isa(om::detected_isa(), om::min_isa(cap, environment_cap())));
#else
    EXPECT_EQ(session.isa(), Isa::baseline);
#endif
    ASSERT_TRUE(session.set_input(0, {om::DataType::float32, {5, 40}, a.data()}).ok());
    ASSERT_TRUE(session.set_input(1, {om::DataType::float32, {40, 37}, b.data()}).ok());
    ASSERT_TRUE(session.run().ok());
    const float* y = session.output(0).data_as<float>();
    if (reference.empty()) {
      reference.assign(y, y + 5 * 37);
      continue;
    }
    for (int i = 0; i < 5 * 37; ++i) EXPECT_NEAR(y[i], reference[i], 1e-4f) << "cap " << om::isa_name(cap);
  }
}

#if ONNXMICRO_ENABLE_ISA_DISPATCH
TEST(SessionIsa, MalformedEnvironmentCapFailsPrepareNamingTheVariable) {
  const char* saved = std::getenv("ONNXMICRO_MAX_ISA");
  const std::string kept = saved != nullptr ? saved : "";
  ASSERT_EQ(setenv("ONNXMICRO_MAX_ISA", "avx9", 1), 0);
  std::vector<unsigned char> bytes = matmul_model().bytes();
  om::Model model;
  ASSERT_TRUE(model.load(om::ByteSpan(bytes.data(), bytes.size())).ok());
  om::Session session;
  const om::Status st = session.prepare(model, om::all_kernels_registry());
  if (saved != nullptr) {
    setenv("ONNXMICRO_MAX_ISA", kept.c_str(), 1);
  } else {
    unsetenv("ONNXMICRO_MAX_ISA");
  }
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("ONNXMICRO_MAX_ISA='avx9' is not an instruction set"), std::string::npos)
      << st.message();
}
#endif

}  // namespace ONNXMICRO_TEST_FILE_SCOPE
