// SPDX-License-Identifier: MIT
// Threads, through an interface the embedder implements: kernels split their output into at most
// Workers::count() tasks and hand them to the session's ThreadPool (SessionOptions::thread_pool). An application
// plugs in its own pool (RTOS tasks, a job system) or the ready std::thread one (runtime/std_thread_pool.hpp, a
// header of its own that the core never includes). Tasks split outputs only, never a reduction, so results are
// bit-identical for any number of threads; each task may use its own slice of scratch, planned at prepare, so
// run() still allocates nothing. ONNXMICRO_ENABLE_THREADS=0 (the default on bare metal) compiles the splitting out:
// Workers::count() is then the constant 1.
#pragma once
#include <cstddef>
#include <cstdint>

#include "onnxmicro/core/version.hpp"

#if ONNXMICRO_ENABLE_THREADS
#include <atomic>
#endif

/// Tells runtime/std_thread_pool.hpp that these declarations are already there (also inside the single header).
#define ONNXMICRO_DETAIL_THREADS_DECLARED 1

ONNXMICRO_NAMESPACE_BEGIN

/// A pool of threads the session's kernels run their tasks on. Implementations must be usable from any thread
/// that runs a session; sessions sharing one pool may call parallel_for concurrently (the std::thread pool
/// serialises such calls). A task never calls parallel_for on the same pool.
class ThreadPool {
 public:
  /// One task: `context` is the caller's, `task` its index in [0, tasks).
  using Task = void (*)(void* context, std::size_t task) noexcept;

  /// Threads that can run tasks at once, the calling thread included (>= 1). Read at prepare: kernels plan one
  /// scratch slice per thread and split their work into at most this many tasks.
  virtual std::size_t concurrency() const noexcept = 0;
  /// Runs task(context, i) once for every i in [0, tasks), on any threads in any order (the caller's thread may
  /// run some), and returns when all have finished. Must not allocate: run() calls it.
  virtual void parallel_for(std::size_t tasks, Task task, void* context) noexcept = 0;

 protected:
  ~ThreadPool() = default;
};

/// Operations (multiply-adds, compares) per task below which kernels do not split work further: waking a thread
/// costs microseconds, about what a core does in a million operations.
constexpr double kMinTaskWork = 1 << 20;

/// The range [begin, end) that part `part` of `parts` takes of [0, total), in whole multiples of `granule` except
/// the last part (which takes the rest). Parts past the end are empty.
struct SplitRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t size() const noexcept { return end - begin; }
};
constexpr SplitRange split_range(std::int64_t total, std::size_t parts, std::size_t part,
                                 std::int64_t granule = 1) noexcept {
  const std::int64_t count = parts == 0 ? 1 : static_cast<std::int64_t>(parts);
  const std::int64_t units = (total + granule - 1) / granule;
  const std::int64_t per_part = units / count, extra = units % count;
  const std::int64_t index = static_cast<std::int64_t>(part);
  std::int64_t begin = (index * per_part + (index < extra ? index : extra)) * granule;
  std::int64_t end = begin + (per_part + (index < extra ? 1 : 0)) * granule;
  if (begin > total) begin = total;
  if (end > total) end = total;
  return SplitRange{begin, end};
}

/// What a kernel may split its work over during run(): the session's pool and the number of tasks it planned
/// for at prepare (PrepareContext::workers()). Default: one task, run inline.
class Workers {
 public:
  constexpr Workers() noexcept = default;
  constexpr Workers(ThreadPool* pool, std::size_t count) noexcept : pool_(pool), count_(count < 1 ? 1 : count) {}

  /// Most tasks a split may have; task t may use scratch slice t. Always 1 without ONNXMICRO_ENABLE_THREADS.
  constexpr std::size_t count() const noexcept {
#if ONNXMICRO_ENABLE_THREADS
    return pool_ != nullptr ? count_ : 1;
#else
    return pool_ != nullptr && count_ > 0 ? 1 : 1;  // (reads the fields: no unused-field warning)
#endif
  }
  /// The pool (null: none, or threads compiled out).
  constexpr ThreadPool* pool() const noexcept { return count() > 1 ? pool_ : nullptr; }
  /// Calls body(task) for every task in [0, tasks) (tasks <= count()) and returns when all are done: on the pool
  /// when there are several, inline otherwise.
  template <typename Body>
  void run(std::size_t tasks, Body& body) const noexcept {
#if ONNXMICRO_ENABLE_THREADS
    if (tasks > 1 && pool_ != nullptr) {
      pool_->parallel_for(tasks, &call<Body>, &body);
      return;
    }
#endif
    for (std::size_t t = 0; t < tasks; ++t) body(t);
  }
  /// How many tasks to split `work` units of cost (e.g. multiply-adds) into: one per `work_per_task` (at least
  /// one), at most count() and at most `max_tasks`, so that small nodes do not pay for waking threads.
  constexpr std::size_t tasks_for(double work, double work_per_task, std::int64_t max_tasks) const noexcept {
    std::size_t tasks = count();
    if (tasks <= 1) return 1;  // (always without ONNXMICRO_ENABLE_THREADS: no floating point reaches a firmware)
    const double wanted = work / work_per_task;
    if (wanted < static_cast<double>(tasks)) tasks = wanted < 1.0 ? 1 : static_cast<std::size_t>(wanted);
    if (max_tasks < 1) return 1;
    if (static_cast<std::uint64_t>(max_tasks) < tasks) tasks = static_cast<std::size_t>(max_tasks);
    return tasks;
  }
  /// The common split: `total` independent units (planes, batches) of `work_per_unit` cost each, in contiguous
  /// ranges, one per task (tasks_for); calls body(first, end) for every non-empty range and returns when all are done.
  template <typename Body>
  void for_each_range(std::int64_t total, double work_per_unit, Body& body) const noexcept {
    auto range_body = [&](std::size_t, std::int64_t first, std::int64_t end) noexcept { body(first, end); };
    for_each_task_range(total, work_per_unit, range_body);
  }
  /// for_each_range for bodies that use scratch slice `task`: calls body(task, first, end). The ranges are fixed,
  /// not claimed (claim_ranges): the units here are cheap, and task t's range is the part of the data that task t
  /// of the node before it wrote when that node split alike (a pool that runs task t on the same thread each time,
  /// as runtime/std_thread_pool.hpp does for task 0, then finds it in that core's cache).
  template <typename Body>
  void for_each_task_range(std::int64_t total, double work_per_unit, Body& body) const noexcept {
    const std::size_t tasks = tasks_for(static_cast<double>(total) * work_per_unit, kMinTaskWork, total);
    auto task = [&](std::size_t t) noexcept {
      const SplitRange range = split_range(total, tasks, t);
      if (range.size() > 0) body(t, range.begin, range.end);
    };
    run(tasks, task);
  }
  /// Calls body(task, first, end) over [0, total) in ranges of `chunk` units (the last one shorter) that `tasks`
  /// tasks (at most count()) claim one after another, each the next one left: a task on a core that runs faster or
  /// is less busy takes more of them (the two cores of a shared host are often not equally fast, and an even split
  /// waits for the slower one). Task t may use scratch slice t. One task: body(0, 0, total).
  template <typename Body>
  void claim_ranges(std::size_t tasks, std::int64_t total, std::int64_t chunk, Body& body) const noexcept {
    if (total <= 0) return;
#if ONNXMICRO_ENABLE_THREADS
    if (tasks > 1 && pool_ != nullptr && chunk < total) {
      const std::size_t chunks = static_cast<std::size_t>((total + chunk - 1) / chunk);
      std::atomic<std::size_t> next{0};
      auto task = [&](std::size_t t) noexcept {
        for (std::size_t c = next.fetch_add(1, std::memory_order_relaxed); c < chunks;
             c = next.fetch_add(1, std::memory_order_relaxed)) {
          const std::int64_t first = static_cast<std::int64_t>(c) * chunk;
          body(t, first, total - first < chunk ? total : first + chunk);
        }
      };
      run(tasks, task);
      return;
    }
#endif
    static_cast<void>(tasks), static_cast<void>(chunk);
    body(std::size_t{0}, std::int64_t{0}, total);
  }

 private:
  template <typename Body>
  static void call(void* body, std::size_t task) noexcept {
    (*static_cast<Body*>(body))(task);
  }

  ThreadPool* pool_ = nullptr;
  std::size_t count_ = 1;
};

ONNXMICRO_NAMESPACE_END
