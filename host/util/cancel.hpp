// Cooperative cancellation: SIGINT/SIGTERM (CLI) or Ctrl-C in Python set a flag
// that long solves poll between rounds; they then throw CancelledError, the queue
// is drained and nothing partial is written. Exit code 130 (128 + SIGINT).
#pragma once
#include <atomic>
#include <stdexcept>

namespace ocl_sp {

inline std::atomic<int>& cancel_flag() {
  static std::atomic<int> flag{0};
  return flag;
}
// Asks running solves to stop (async-signal-safe: one lock-free store).
inline void request_cancel(int signal_number = 2) { cancel_flag().store(signal_number); }
inline void clear_cancel() { cancel_flag().store(0); }
inline bool cancel_requested() { return cancel_flag().load(std::memory_order_relaxed) != 0; }

struct CancelledError : std::runtime_error {
  CancelledError() : std::runtime_error("interrupted; no output written") {}
};
// Throws CancelledError when a stop was requested.
inline void throw_if_cancelled() {
  if (cancel_requested()) throw CancelledError();
}

}  // namespace ocl_sp
