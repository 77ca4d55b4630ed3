// Progress line (see progress.hpp).
#include "util/progress.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace ocl_sp {

bool Progress::stderr_is_terminal() { return ::isatty(2) == 1; }

namespace {
thread_local std::function<void(double)> t_callback;
}

void Progress::set_thread_callback(std::function<void(double)> cb) { t_callback = std::move(cb); }

Progress::Progress(bool enabled, double total, std::string what)
    : enabled_(enabled && total > 0),
      callback_(total > 0 ? t_callback : nullptr),
      total_(total),
      what_(std::move(what)) {
  if (enabled_ || callback_) thread_ = std::thread([this] { loop(); });
}

Progress::~Progress() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
  if (drawn_) std::fprintf(stderr, "\r\033[K");
}

void Progress::loop() {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  std::unique_lock<std::mutex> lock(m_);
  while (!cv_.wait_for(lock, std::chrono::milliseconds(500), [this] { return stop_; })) {
    const double el = std::chrono::duration<double>(clock::now() - t0).count();
    const double f = std::min(1.0, done_.load() / total_);
    if (callback_) callback_(f);
    if (!enabled_ || el < 2) continue;
    char eta[32] = "--:--";
    if (f > 0.01) {
      const long s = static_cast<long>(el / f - el + 0.5);
      std::snprintf(eta, sizeof eta, "%ld:%02ld", s / 60, s % 60);
    }
    char idle[48] = "";
    if (idle_.load() >= 0) std::snprintf(idle, sizeof idle, "  device idle %.1f s", idle_.load());
    std::fprintf(stderr, "\r\033[K%s: round %d/%d  %3.0f%%  elapsed %ld:%02ld  ETA %s%s",
                 what_.c_str(), round_.load() + 1, rounds_.load(), 100 * f,
                 static_cast<long>(el) / 60, static_cast<long>(el) % 60, eta, idle);
    std::fflush(stderr);
    drawn_ = true;
  }
}

}  // namespace ocl_sp
