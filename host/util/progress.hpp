// Progress line for long solves (DESIGN.md "Scale"): "round 3/8  41%  ETA 1:12" (and
// "device idle 0.4 s" where the solver reports it) on
// stderr, redrawn twice a second from a thread of its own, shown only when stderr
// is a terminal, not with --quiet / --json, and only once a solve has run 2 s.
#pragma once
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace ocl_sp {

class Progress {
 public:
  // enabled: the caller's decision (terminal, not quiet); total: work units.
  Progress(bool enabled, double total, std::string what);
  ~Progress();  // stops the thread and clears the line
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void add(double units) {
    double cur = done_.load();
    while (!done_.compare_exchange_weak(cur, cur + units)) {
    }
  }
  void set_round(int r, int rounds) {
    round_ = r;
    rounds_ = rounds;
  }
  // Seconds the device has sat idle so far (the panel engine: wall time less
  // kernel time), shown after the ETA once set.
  void set_idle(double seconds) { idle_ = seconds; }
  // Whether progress lines are wanted by default: stderr is a terminal.
  static bool stderr_is_terminal();
  // Every Progress created on this thread while a callback is set also hands it
  // the fraction done (0..1) twice a second, from its own thread (the C++ API's
  // Options::progress); an empty function clears it.
  static void set_thread_callback(std::function<void(double)> cb);

 private:
  void loop();
  bool enabled_;  // a line on stderr
  std::function<void(double)> callback_;
  double total_;
  std::string what_;
  std::atomic<double> done_{0};
  std::atomic<int> round_{0}, rounds_{0};
  std::atomic<double> idle_{-1};
  bool stop_ = false, drawn_ = false;
  std::mutex m_;
  std::condition_variable cv_;
  std::thread thread_;
};

}  // namespace ocl_sp
