// Out of core on one device with look-ahead (see panel_ooc.hpp).
#include "solvers/panel_ooc.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <initializer_list>
#include <vector>

#include "util/cancel.hpp"

namespace ocl_sp::detail {

namespace {

template <typename T>
class OocLookahead {
 public:
  OocLookahead(PanelDevice& dev, DistMatrix<T>& d, int64_t p, int64_t q, Progress& progress,
               const Stopwatch& wall, std::function<void()> before_store)
      : dev_(dev), core_(dev.core()), d_(d), n_(d.n()), p_(p), q_(q),
        pbytes_(static_cast<size_t>(p) * static_cast<size_t>(p) * sizeof(T)),
        progress_(progress), wall_(wall), ticket_(static_cast<size_t>(q * q), 0),
        before_store_(std::move(before_store)) {}

  // The whole solve; returns the seconds before the first copy.
  double run() {
    allocate();
    for (int64_t r = 0; r < q_; ++r) {
      throw_if_cancelled();
      progress_.set_round(static_cast<int>(r), static_cast<int>(q_));
      pivot_row(r);
      // Rows r + 2, ..., r - 1 (mod q), then r + 1: handed over to round r + 1
      // (the last round has no next one: its row 0 is an ordinary row).
      for (int64_t k = 2; k <= q_; ++k) {
        throw_if_cancelled();
        update_row(r, (r + (k == q_ ? 1 : k)) % q_, k == q_ && r + 1 < q_);
      }
      end_round();
    }
    issue_later(0);
    st_->settle();
    for (auto id : {OpenClCore::kCompute, OpenClCore::kUpload, OpenClCore::kDownload})
      core_.queue(id).finish();
    keep_.clear();
    keep_prev_.clear();
    fence_.clear();
    return setup_;
  }

 private:
  // A streaming buffer: its last use (an event; a download may still be
  // deferred), when it was last taken or released, and whether a row holds it.
  struct Buf {
    cl::Buffer buf;
    cl::Event free;
    uint64_t used = 0;
    bool held = false;
  };
  // A download not issued yet: it sets *out; panel = i * q + j.
  struct Later {
    std::function<void()> issue;
    const cl::Event* out;
    int64_t panel;
  };

  int64_t real(int64_t i) const { return std::max<int64_t>(0, std::min(p_, n_ - i * p_)); }
  cl::Buffer new_panel() { return cl::Buffer(core_.context(), CL_MEM_READ_WRITE, pbytes_); }

  void allocate() {
    st_ = &panel_stager(core_, p_, sizeof(T));
    piv_ = new_panel();
    tmp_ = new_panel();
    row_.resize(static_cast<size_t>(q_));
    for (auto& b : row_) b = new_panel();
    row_down_.resize(static_cast<size_t>(q_));
    row_read_.resize(static_cast<size_t>(q_));
    pool_.resize(kOocPool);
    for (auto& b : pool_) b.buf = new_panel();
  }

  // Events other queues' commands wait on stay referenced until those commands
  // ran (PoCL 3.1 has crashed when one was dropped earlier): kept per round and
  // dropped one round later, after that round's fence.
  void hold(const std::vector<cl::Event>& w) { keep_.insert(keep_.end(), w.begin(), w.end()); }

  void issue_front() {
    Later l = std::move(later_.front());
    later_.pop_front();
    l.issue();
  }
  // Issues deferred downloads, oldest first, until `leave` remain.
  void issue_later(size_t leave) {
    while (later_.size() > leave) issue_front();
  }
  // The events among es that exist, after issuing the deferred downloads that set them.
  std::vector<cl::Event> ready(std::initializer_list<cl::Event*> es) {
    std::vector<cl::Event> out;
    for (cl::Event* e : es) {
      for (size_t k = later_.size(); k-- > 0;)
        if (later_[k].out == e) {
          for (size_t x = 0; x <= k; ++x) issue_front();
          break;
        }
      if ((*e)()) out.push_back(*e);
    }
    return out;
  }

  // Panel (i, j) from host memory into dst after `wait`, once its last download
  // reached host memory.
  cl::Event upload(cl::Buffer& dst, int64_t i, int64_t j, const std::vector<cl::Event>& wait) {
    const int64_t id = i * q_ + j;
    for (size_t k = later_.size(); k-- > 0;)
      if (later_[k].panel == id) {
        for (size_t x = 0; x <= k; ++x) issue_front();
        break;
      }
    st_->settle_through(ticket_[static_cast<size_t>(id)]);
    hold(wait);
    cl::Event ev = upload_panel(*st_, OpenClCore::kUpload, dst, d_, p_, i, j, wait);
    if (!first_()) {
      first_ = ev;
      setup_ = wall_.seconds();
    }
    return ev;
  }
  // Panel (i, j) from src back to host memory after `after`, deferred until the
  // next GEMM is queued (issue_later); *out: its event.
  void later_download(cl::Event* out, cl::Buffer* src, int64_t i, int64_t j, cl::Event after) {
    const int64_t id = i * q_ + j;
    later_.push_back({[this, out, src, i, j, id, after] {
                        hold({after});
                        if (before_store_) {  // once, before anything reaches d
                          before_store_();
                          before_store_ = nullptr;
                        }
                        *out = download_panel(*st_, OpenClCore::kDownload, *src, d_, p_, i, j,
                                              {after});
                        ticket_[static_cast<size_t>(id)] = st_->moves();
                      },
                      out, id});
  }
  // The compute queue waits for `wait`.
  void after(const std::vector<cl::Event>& wait) {
    if (wait.empty()) return;
    hold(wait);
    cl::Event m;
    core_.queue(OpenClCore::kCompute).enqueueMarkerWithWaitList(&wait, &m);
    keep_.push_back(m);
  }
  // The streaming buffer unused longest (not held by a row).
  Buf& take() {
    Buf* best = nullptr;
    for (Buf& b : pool_)
      if (!b.held && (!best || b.used < best->used)) best = &b;
    best->used = ++clock_;
    return *best;
  }

  // Phase 1: close the pivot, update the row panels, send them back.
  void pivot_row(int64_t r) {
    if (r == 0) after({upload(piv_, 0, 0, {})});
    cl::Event ev = dev_.close_panel(piv_, p_, real(r));
    progress_.add(1);
    later_download(&piv_down_, &piv_, r, r, ev);
    for (int64_t j = 0; j < q_; ++j) {
      if (j == r) continue;
      cl::Buffer& row = row_[static_cast<size_t>(j)];
      if (r == 0) after({upload(row, 0, j, {})});
      core_.copy_buffer(row, tmp_, pbytes_, {});
      ev = dev_.gemm_acc(row, piv_, tmp_, p_, real(r), real(j));
      progress_.add(1);
      core_.queue(OpenClCore::kCompute).flush();
      later_download(&row_down_[static_cast<size_t>(j)], &row, r, j, ev);
      issue_later(1);
    }
  }

  // Phase 2 for panel row i; handoff: i = r + 1, whose panels become round
  // r + 1's pivot and row panels on the device.
  void update_row(int64_t r, int64_t i, bool handoff) {
    const size_t rr = static_cast<size_t>(r);
    Buf* colbuf = nullptr;
    cl::Buffer* col = nullptr;
    if (handoff) {  // into the row buffer round r does not use: round r + 1's row panel r
      col = &row_[rr];
      after({upload(*col, i, r, ready({&row_read_[rr], &row_down_[rr]}))});
    } else {
      colbuf = &take();
      colbuf->held = true;
      col = &colbuf->buf;
      after({upload(*col, i, r, ready({&colbuf->free}))});
    }
    core_.copy_buffer(*col, tmp_, pbytes_, {});
    cl::Event ev = dev_.gemm_acc(*col, tmp_, piv_, p_, real(i), real(r));
    progress_.add(1);
    for (int64_t j = 0; j < q_; ++j) {
      if (j == r) continue;
      const size_t jj = static_cast<size_t>(j);
      Buf& s = take();
      after({upload(s.buf, i, j, ready({&s.free}))});
      ev = dev_.gemm_acc(s.buf, *col, row_[jj], p_, real(i), real(j));
      row_read_[jj] = ev;
      progress_.add(1);
      core_.queue(OpenClCore::kCompute).flush();
      if (handoff) {
        const std::vector<cl::Event> w = ready({j == i ? &piv_down_ : &row_down_[jj]});
        hold(w);
        s.free = core_.copy_buffer(s.buf, j == i ? piv_ : row_[jj], pbytes_, w);
      } else {
        later_download(&s.free, &s.buf, i, j, ev);
      }
      issue_later(1);
    }
    if (colbuf) {
      later_download(&colbuf->free, col, i, r, ev);
      colbuf->held = false;
      colbuf->used = ++clock_;  // released now: the next row's column takes another
      issue_later(1);
    }
    core_.queue(OpenClCore::kCompute).flush();
  }

  // No drain: a fence per queue; the previous round's fences are long passed
  // (the host runs at most a few panels ahead), so its held events go.
  void end_round() {
    core_.flush_all();
    std::vector<cl::Event> fence;
    for (auto id : {OpenClCore::kCompute, OpenClCore::kUpload, OpenClCore::kDownload}) {
      cl::Event m;
      core_.queue(id).enqueueMarkerWithWaitList(nullptr, &m);
      fence.push_back(m);
    }
    core_.flush_all();
    if (!fence_.empty()) cl::Event::waitForEvents(fence_);
    keep_prev_ = std::move(keep_);
    keep_.clear();
    fence_ = std::move(fence);
    // Device idle so far: setup, then the device clock from the first copy's
    // enqueueing to the end of the last finished kernel, less the kernel time.
    cl_ulong last = 0;
    const double busy = core_.kernel_busy_now(&last);
    if (first_() && last > 0) {
      const cl_ulong q0 = first_.getProfilingInfo<CL_PROFILING_COMMAND_QUEUED>();
      if (last > q0)
        progress_.set_idle(
            std::max(0.0, setup_ + static_cast<double>(last - q0) * 1e-9 - busy));
    }
  }

  PanelDevice& dev_;
  OpenClCore& core_;
  DistMatrix<T>& d_;
  const int64_t n_, p_, q_;
  const size_t pbytes_;
  Progress& progress_;
  const Stopwatch& wall_;
  Stager* st_ = nullptr;
  cl::Buffer piv_, tmp_;
  std::vector<cl::Buffer> row_;       // row_[j]: the round's row panel (r, j); row_[r] idle
  std::vector<cl::Event> row_down_;   // row_[j]'s last download
  std::vector<cl::Event> row_read_;   // the last GEMM that read row_[j]
  cl::Event piv_down_;                // the pivot's last download
  std::vector<Buf> pool_;             // streaming buffers
  uint64_t clock_ = 0;
  std::vector<uint64_t> ticket_;      // per panel: the Stager ticket of its last download
  std::deque<Later> later_;
  std::vector<cl::Event> keep_, keep_prev_, fence_;
  cl::Event first_;                   // the first copy (the idle figure's device-clock origin)
  double setup_ = 0;
  std::function<void()> before_store_;  // run_fw_panels' hook, until it ran
};

}  // namespace

template <typename T>
void run_ooc_lookahead(PanelDevice& dev, DistMatrix<T>& d, int64_t p, int64_t q,
                       Progress& progress, const Stopwatch& wall, double& setup,
                       const std::function<void()>& before_store) {
  OocLookahead<T> run(dev, d, p, q, progress, wall, before_store);
  setup = run.run();
}

#define OCL_SP_OOC(T)                                                                          \
  template void run_ooc_lookahead<T>(PanelDevice&, DistMatrix<T>&, int64_t, int64_t, Progress&, \
                                     const Stopwatch&, double&, const std::function<void()>&);
OCL_SP_OOC(int32_t)
OCL_SP_OOC(float)
OCL_SP_OOC(double)
OCL_SP_OOC(int64_t)
#undef OCL_SP_OOC

}  // namespace ocl_sp::detail
