// SPDX-License-Identifier: MIT
// Kernel sets: a compile-time list of kernel types turned into a constant table. Only the listed kernels are
// instantiated, so the linker keeps only their code. A node resolves to the entry whose domain and op match
// and whose [since, until) range contains the model's imported opset version for that domain.
//
//   using MySet = onnxmicro::KernelSet<kernels::Conv_1, kernels::Relu_1>;   // hand-picked
//   using Opset13To17 = onnxmicro::KernelSetForOpsets<13, 17, onnxmicro::AllKernels>;  // a range of a preset
//   onnxmicro::Session session;
//   ONNXMICRO_RETURN_IF_ERROR(session.prepare(model, MySet::registry()));
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "onnxmicro/kernels/kernel_api.hpp"

ONNXMICRO_NAMESPACE_BEGIN

/// One row of a kernel registry (what the session sees; it is not templated on kernels).
struct KernelEntry {
  std::string_view domain;
  std::string_view op_type;
  int since_version;
  int until_version;  ///< exclusive
  int in_place_input;
  bool foldable;
  bool needs_input_data;
  kernels::PrepareFunction prepare;
  kernels::RunFunction run;

  constexpr bool covers(std::string_view d, std::string_view op, std::int64_t version) const noexcept {
    return domain == d && op_type == op && since_version <= version && version < until_version;
  }
};

/// A registry: the table of a kernel set.
using KernelRegistry = Span<const KernelEntry>;

/// The entry covering (domain, op_type, version), or nullptr.
inline const KernelEntry* find_kernel(KernelRegistry registry, std::string_view domain, std::string_view op_type,
                                      std::int64_t version) noexcept {
  for (const KernelEntry& e : registry)
    if (e.covers(domain, op_type, version)) return &e;
  return nullptr;
}

namespace detail {

template <typename K>
constexpr KernelEntry make_kernel_entry() noexcept {
  static_assert(K::kSinceVersion >= 1, "a kernel's kSinceVersion must be >= 1");
  static_assert(K::kSinceVersion < K::kUntilVersion, "a kernel's version range is empty");
  return KernelEntry{K::kDomain,   K::kOpType,         K::kSinceVersion, K::kUntilVersion, K::kInPlaceInput,
                     K::kFoldable, K::kNeedsInputData, &K::prepare,      &K::run};
}

// The overlap check runs over a constexpr array of version ranges, chained by a hash of (domain, op_type), rather
// than recursing over the pack: recursive templates instantiate a type per pair of kernels, quadratic in a set's
// size (gigabytes of compiler memory for AllKernels), and a pairwise loop would approach clang's constexpr step
// limit for larger sets. With the hash chains each kernel is compared only with the other versions of its op.
struct KernelVersionRange {
  std::string_view domain;
  std::string_view op_type;
  int since_version;
  int until_version;
};

constexpr std::uint32_t op_name_hash(std::string_view domain, std::string_view op_type) noexcept {
  std::uint32_t h = 2166136261u;  // FNV-1a
  for (char c : domain) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  h = (h ^ 0xffu) * 16777619u;
  for (char c : op_type) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}

constexpr bool ranges_overlap(const KernelVersionRange& a, const KernelVersionRange& b) noexcept {
  return a.since_version < b.until_version && b.since_version < a.until_version && a.domain == b.domain &&
         a.op_type == b.op_type;
}

template <typename... Ks>
constexpr bool no_overlap() noexcept {
  constexpr std::size_t kCount = sizeof...(Ks);
  if constexpr (kCount < 2) {
    return true;
  } else {
    constexpr KernelVersionRange ranges[] = {{Ks::kDomain, Ks::kOpType, Ks::kSinceVersion, Ks::kUntilVersion}...};
    constexpr std::size_t kBuckets = 2 * kCount;
    std::size_t chain_head[kBuckets] = {};  // 1 + index of the bucket's last kernel; 0: empty
    std::size_t chain_next[kCount] = {};    // 1 + index of the previous kernel in the same bucket; 0: none
    for (std::size_t i = 0; i < kCount; ++i) {
      const std::size_t bucket = op_name_hash(ranges[i].domain, ranges[i].op_type) % kBuckets;
      for (std::size_t k = chain_head[bucket]; k != 0; k = chain_next[k - 1])
        if (ranges_overlap(ranges[i], ranges[k - 1])) return false;
      chain_next[i] = chain_head[bucket];
      chain_head[bucket] = i + 1;
    }
    return true;
  }
}

}  // namespace detail

/// A compile-time set of kernel types. Two kernels for the same op with overlapping version ranges are
/// a compile error (the resolution would be ambiguous).
template <typename... Kernels>
struct KernelSet {
  static_assert(detail::no_overlap<Kernels...>(),
                "two kernels in this KernelSet implement the same op for overlapping opset versions");
  static constexpr std::size_t size = sizeof...(Kernels);

  /// The table; one row per kernel.
  static KernelRegistry registry() noexcept {
    if constexpr (sizeof...(Kernels) == 0) {
      return KernelRegistry();
    } else {
      static constexpr KernelEntry entries[] = {detail::make_kernel_entry<Kernels>()...};
      return KernelRegistry(entries, sizeof...(Kernels));
    }
  }
};

namespace detail {

template <typename Set, typename K>
struct AppendKernel;
template <typename... Ks, typename K>
struct AppendKernel<KernelSet<Ks...>, K> {
  using type = KernelSet<Ks..., K>;
};

template <typename... Sets>
struct ConcatSets;
template <>
struct ConcatSets<> {
  using type = KernelSet<>;
};
template <typename... A>
struct ConcatSets<KernelSet<A...>> {
  using type = KernelSet<A...>;
};
template <typename... A, typename... B, typename... Rest>
struct ConcatSets<KernelSet<A...>, KernelSet<B...>, Rest...> {
  using type = typename ConcatSets<KernelSet<A..., B...>, Rest...>::type;
};

template <int Min, int Max, typename Acc, typename... Ks>
struct FilterByOpset {
  using type = Acc;
};
template <int Min, int Max, typename Acc, typename K, typename... Rest>
struct FilterByOpset<Min, Max, Acc, K, Rest...> {
  // Default-domain kernels are kept when their range meets [Min, Max]; other domains are always kept
  // (their versions count differently).
  static constexpr bool keep = !K::kDomain.empty() || (K::kSinceVersion <= Max && K::kUntilVersion > Min);
  using next = std::conditional_t<keep, typename AppendKernel<Acc, K>::type, Acc>;
  using type = typename FilterByOpset<Min, Max, next, Rest...>::type;
};

template <int Min, int Max, typename Set>
struct OpsetFilter;
template <int Min, int Max, typename... Ks>
struct OpsetFilter<Min, Max, KernelSet<Ks...>> {
  using type = typename FilterByOpset<Min, Max, KernelSet<>, Ks...>::type;
};

}  // namespace detail

/// Concatenation of kernel sets.
template <typename... Sets>
using MergeKernelSets = typename detail::ConcatSets<Sets...>::type;

/// The kernels of `Set` that implement some default-domain opset version in [MinOpset, MaxOpset] (inclusive).
/// A model importing an opset outside the range gets a load-time error naming the op and version.
template <int MinOpset, int MaxOpset, typename Set>
using KernelSetForOpsets = typename detail::OpsetFilter<MinOpset, MaxOpset, Set>::type;

ONNXMICRO_NAMESPACE_END
