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

template <typename A, typename B>
constexpr bool kernels_overlap() noexcept {
  return A::kDomain == B::kDomain && A::kOpType == B::kOpType && A::kSinceVersion < B::kUntilVersion &&
         B::kSinceVersion < A::kUntilVersion;
}

// Recursion rather than a fold expression: a fold over a few hundred kernels exceeds clang's expression nesting
// limit (256).
template <typename K, typename... Rest>
struct OverlapsAny {
  static constexpr bool value = false;
};
template <typename K, typename R, typename... Rest>
struct OverlapsAny<K, R, Rest...> {
  static constexpr bool value = kernels_overlap<K, R>() || OverlapsAny<K, Rest...>::value;
};

template <typename... Ks>
struct NoOverlap;
template <>
struct NoOverlap<> {
  static constexpr bool value = true;
};
template <typename K, typename... Rest>
struct NoOverlap<K, Rest...> {
  static constexpr bool value = !OverlapsAny<K, Rest...>::value && NoOverlap<Rest...>::value;
};

}  // namespace detail

/// A compile-time set of kernel types. Two kernels for the same op with overlapping version ranges are
/// a compile error (the resolution would be ambiguous).
template <typename... Kernels>
struct KernelSet {
  static_assert(detail::NoOverlap<Kernels...>::value,
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
