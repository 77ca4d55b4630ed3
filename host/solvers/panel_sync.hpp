// The panel engine's device threads in step (panel_engine.cpp): a barrier and
// the board on which several resident devices post and await each round's pivot
// and row panels. Both give up (CancelledError) once one thread failed.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

#include "cl/cl.hpp"
#include "util/cancel.hpp"

namespace ocl_sp::detail {

// A barrier for the device threads that gives up when one of them failed.
class Barrier {
 public:
  explicit Barrier(int n) : n_(n) {}
  void wait() {
    std::unique_lock<std::mutex> lock(m_);
    if (failed_) throw CancelledError();
    const long gen = gen_;
    if (++count_ == n_) {
      count_ = 0;
      ++gen_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return gen_ != gen || failed_; });
    if (gen_ == gen) throw CancelledError();  // another thread failed
  }
  void fail() {
    std::lock_guard<std::mutex> lock(m_);
    failed_ = true;
    cv_.notify_all();
  }

 private:
  int n_, count_ = 0;
  long gen_ = 0;
  bool failed_ = false;
  std::mutex m_;
  std::condition_variable cv_;
};

// Several devices, resident: how many of each round's pivot and row panels have
// reached host memory (in the order of send_order()), posted by the row's owner
// and awaited by the others, and how many devices have read them all from there;
// gives up when a device thread failed.
class Board {
 public:
  explicit Board(int64_t rounds)
      : count_(static_cast<size_t>(rounds), 0), read_(static_cast<size_t>(rounds), 0),
        made_(static_cast<size_t>(rounds)), copies_(static_cast<size_t>(rounds)) {}
  // One context over the devices: row r's panels posted at once as the events
  // of the launches that finished them (in send order), no host copy.
  void post_made(int64_t r, const std::vector<cl::Event>& made) {
    {
      std::lock_guard<std::mutex> lock(m_);
      made_[static_cast<size_t>(r)] = made;
      count_[static_cast<size_t>(r)] = static_cast<int64_t>(made.size());
    }
    cv_.notify_all();
  }
  std::vector<cl::Event> made(int64_t r) {
    std::lock_guard<std::mutex> lock(m_);
    return made_[static_cast<size_t>(r)];
  }
  // The copies a reader made of row r (one context), for its owner to wait on.
  std::vector<cl::Event> copies(int64_t r) {
    std::lock_guard<std::mutex> lock(m_);
    return copies_[static_cast<size_t>(r)];
  }
  void post(int64_t r, int64_t panels) {
    {
      std::lock_guard<std::mutex> lock(m_);
      count_[static_cast<size_t>(r)] = panels;
    }
    cv_.notify_all();
  }
  void wait(int64_t r, int64_t panels) {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return failed_ || count_[static_cast<size_t>(r)] >= panels; });
    if (count_[static_cast<size_t>(r)] < panels) throw CancelledError();
  }
  void read(int64_t r, const std::vector<cl::Event>& copies = {}) {
    {
      std::lock_guard<std::mutex> lock(m_);
      ++read_[static_cast<size_t>(r)];
      auto& c = copies_[static_cast<size_t>(r)];
      c.insert(c.end(), copies.begin(), copies.end());
    }
    cv_.notify_all();
  }
  void wait_read(int64_t r, int readers) {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return failed_ || read_[static_cast<size_t>(r)] >= readers; });
    if (read_[static_cast<size_t>(r)] < readers) throw CancelledError();
  }
  void fail() {
    {
      std::lock_guard<std::mutex> lock(m_);
      failed_ = true;
    }
    cv_.notify_all();
  }

 private:
  std::vector<int64_t> count_;
  std::vector<int> read_;
  std::vector<std::vector<cl::Event>> made_, copies_;
  bool failed_ = false;
  std::mutex m_;
  std::condition_variable cv_;
};

}  // namespace ocl_sp::detail
