// Progress line (see progress.hpp).
#include "util/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

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

namespace {
// OCL_SP_PROGRESS_AFTER=S (seconds before the line shows, default 2) and
// OCL_SP_PROGRESS_MS=M (redraw period, default 500): tests make a solve of a
// fraction of a second show its line whatever the machine's speed.
double env_number(const char* name, double fallback, double lo, double hi) {
  const char* e = std::getenv(name);
  if (!e || !*e) return fallback;
  char* end = nullptr;
  const double v = std::strtod(e, &end);
  return end && *end == '\0' ? std::clamp(v, lo, hi) : fallback;
}
}  // namespace

void Progress::loop() {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const double after = env_number("OCL_SP_PROGRESS_AFTER", 2.0, 0.0, 3600.0);
  const auto period = std::chrono::milliseconds(
      static_cast<long>(env_number("OCL_SP_PROGRESS_MS", 500.0, 1.0, 10000.0)));
  std::unique_lock<std::mutex> lock(m_);
  while (!cv_.wait_for(lock, period, [this] { return stop_; })) {
    const double el = std::chrono::duration<double>(clock::now() - t0).count();
    const double f = std::min(1.0, done_.load() / total_);
    if (callback_) callback_(f);
    if (!enabled_ || el < after) continue;
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
