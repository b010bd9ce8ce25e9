// SPDX-License-Identifier: MIT
// A ready ThreadPool (core/threads.hpp) on std::thread, for hosted programs: include this header where the pool is
// made and hand it to SessionOptions::thread_pool. The core never includes it, so firmware and programs with a pool
// of their own do not pull in <thread>. With the single header, include single_include/onnxmicro/onnxmicro.hpp
// first and then this file (it needs nothing else of include/).
//
// Between nodes the workers spin for a short while (kernels of one session follow each other within microseconds)
// and then sleep on a condition variable, so an idle pool costs no CPU. A job is one 64-bit word (generation, task
// count, tasks claimed) that every thread claims from with compare-and-swap, so a late worker can never take a
// task of a job that has already ended. parallel_for allocates nothing.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#ifndef ONNXMICRO_DETAIL_THREADS_DECLARED
#include "onnxmicro/core/threads.hpp"
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

ONNXMICRO_NAMESPACE_BEGIN

class StdThreadPool final : public ThreadPool {
 public:
  /// A pool where `threads` run tasks at once: the caller of parallel_for and threads - 1 workers (0 or 1: no
  /// workers, every task runs on the caller). std::thread::hardware_concurrency() is a common choice.
  explicit StdThreadPool(std::size_t threads) {
    const std::size_t workers = threads > 1 ? threads - 1 : 0;
    workers_.reserve(workers);
    for (std::size_t i = 0; i < workers; ++i) workers_.emplace_back([this] { work(); });
  }
  ~StdThreadPool() {
    {
      std::lock_guard<std::mutex> lock(sleep_mutex_);
      stopping_.store(true, std::memory_order_seq_cst);
      job_.fetch_add(kGenerationOne, std::memory_order_seq_cst);  // a new generation wakes spinning workers
    }
    wake_.notify_all();
    for (std::thread& worker : workers_) worker.join();
  }
  StdThreadPool(const StdThreadPool&) = delete;
  StdThreadPool& operator=(const StdThreadPool&) = delete;

  std::size_t concurrency() const noexcept override { return workers_.size() + 1; }

  void parallel_for(std::size_t tasks, Task task, void* context) noexcept override {
    if (tasks == 0) return;
    if (tasks == 1 || workers_.empty()) {
      for (std::size_t t = 0; t < tasks; ++t) task(context, t);
      return;
    }
    std::lock_guard<std::mutex> serialise(submit_mutex_);  // sessions sharing the pool take turns
    for (std::size_t first = 0; first < tasks; first += kMaxTasksPerJob) {
      const std::size_t count = tasks - first < kMaxTasksPerJob ? tasks - first : kMaxTasksPerJob;
      run_job(count, first, task, context);
    }
  }

 private:
  // The job word: generation (bits 32-63), task count (16-31), tasks claimed (0-15).
  static constexpr std::uint64_t kGenerationOne = std::uint64_t(1) << 32;
  static constexpr std::size_t kMaxTasksPerJob = 0xffff;
  static constexpr int kSpinsBeforeSleep = 1 << 14;

  static std::uint64_t generation(std::uint64_t job) noexcept { return job >> 32; }
  static std::size_t task_count(std::uint64_t job) noexcept { return static_cast<std::size_t>((job >> 16) & 0xffff); }
  static std::size_t claimed(std::uint64_t job) noexcept { return static_cast<std::size_t>(job & 0xffff); }

  static void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
  }

  void run_job(std::size_t count, std::size_t first, Task task, void* context) noexcept {
    task_.store(task, std::memory_order_relaxed);
    context_.store(context, std::memory_order_relaxed);
    first_.store(first, std::memory_order_relaxed);
    done_.store(0, std::memory_order_relaxed);
    const std::uint64_t next_generation = generation(job_.load(std::memory_order_relaxed)) + 1;
    // Task 0 is claimed for the caller before the job is published: a split's first part then always runs on the
    // thread that submits it, so consecutive nodes split alike (a conv's channel halves, then the depthwise planes
    // of those channels) find their part in that core's cache instead of the other's half of the time.
    const std::uint64_t job = (next_generation << 32) | (static_cast<std::uint64_t>(count) << 16) | 1;
    job_.store(job, std::memory_order_seq_cst);  // publishes the fields above
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard<std::mutex> lock(sleep_mutex_);  // (a worker between its check and its wait holds it)
      wake_.notify_all();
    }
    task(context, first);
    done_.fetch_add(1, std::memory_order_release);
    run_claimed(next_generation);
    for (int spins = 0; done_.load(std::memory_order_acquire) < count; ++spins) {
      if (spins < kSpinsBeforeSleep) {
        pause();
      } else {
        std::this_thread::yield();
      }
    }
  }

  /// Claims and runs tasks of generation `wanted` until none is left.
  void run_claimed(std::uint64_t wanted) noexcept {
    std::uint64_t job = job_.load(std::memory_order_acquire);
    while (generation(job) == wanted && claimed(job) < task_count(job)) {
      if (!job_.compare_exchange_weak(job, job + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
      // The claim succeeded while the job was unfinished, so these fields are still this job's.
      const Task task = task_.load(std::memory_order_relaxed);
      void* context = context_.load(std::memory_order_relaxed);
      task(context, first_.load(std::memory_order_relaxed) + claimed(job));
      done_.fetch_add(1, std::memory_order_release);
      job = job_.load(std::memory_order_acquire);
    }
  }

  void work() noexcept {
    std::uint64_t seen = 0;  // generation 0 has no job: a worker that starts late still sees every later one
    for (;;) {
      std::uint64_t current = seen;
      for (int spins = 0; spins < kSpinsBeforeSleep && current == seen; ++spins) {
        pause();
        current = generation(job_.load(std::memory_order_acquire));
      }
      if (current == seen) {
        std::unique_lock<std::mutex> lock(sleep_mutex_);
        sleepers_.fetch_add(1, std::memory_order_seq_cst);
        wake_.wait(lock, [&] { return generation(job_.load(std::memory_order_seq_cst)) != seen; });
        sleepers_.fetch_sub(1, std::memory_order_seq_cst);
        current = generation(job_.load(std::memory_order_acquire));
      }
      if (stopping_.load(std::memory_order_acquire)) return;
      seen = current;
      run_claimed(seen);
    }
  }

  std::vector<std::thread> workers_;
  std::mutex submit_mutex_;
  std::mutex sleep_mutex_;
  std::condition_variable wake_;
  std::atomic<std::uint64_t> job_{0};
  std::atomic<Task> task_{nullptr};
  std::atomic<void*> context_{nullptr};
  std::atomic<std::size_t> first_{0};
  std::atomic<std::size_t> done_{0};
  std::atomic<int> sleepers_{0};
  std::atomic<bool> stopping_{false};
};

ONNXMICRO_NAMESPACE_END
