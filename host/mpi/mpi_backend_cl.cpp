// The OpenCL backend of a rank (see mpi_backend.hpp): the fw solver's panel
// primitives on the rank's device, every panel resident. The received row and
// column panels have two sets of device buffers, by round parity: each block of
// round r + 1's is uploaded on the copy queue (kUpload) as soon as its broadcast
// arrived, while round r's GEMMs run on the compute queue; a GEMM of round r + 1
// waits for the uploads of the blocks it reads (a barrier on the compute queue),
// an upload into a set waits for the last GEMM of the round that used the set
// before. The owner's step 2 reads each block back (kDownload) as soon as its GEMM
// ran. The broadcast buffers are pinned host memory (host_buffer; pinned on a
// thread during the set-up), so uploads and read-backs run at DMA speed.
// OCL_SP_MPI_PINNED=0: pageable buffers instead (comparisons).
#ifdef OCL_SP_HAVE_MPI
#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <memory>
#include <functional>
#include <future>
#include <mutex>

#include "cl/cl.hpp"
#include "cl/cl_error.hpp"
#include "mpi/mpi_backend.hpp"
#include "mpi/mpi_env.hpp"
#include "solvers/opencl_base.hpp"
#include "util/errors.hpp"
#include "util/parallel_copy.hpp"
#include "util/strings.hpp"
#include "util/timer.hpp"

namespace ocl_sp::mpi {

namespace {

template <typename T>
class ClBackend final : public RankBackend<T> {
 public:
  ClBackend(const Layout& lay, std::vector<T>& local, std::unique_ptr<detail::PanelDevice> dev)
      : lay_(lay), d_(local), dev_(std::move(dev)), core_(dev_->core()),
        nr_(static_cast<int64_t>(lay.rows.size())), nc_(static_cast<int64_t>(lay.cols.size())) {
    const size_t pb = static_cast<size_t>(lay.p * lay.p) * sizeof(T);
    // A local row of panels (and a received row panel) is one buffer, its panels
    // sub-buffers P^2 values apart, so that several panels of a row are one GEMM
    // launch (gemm_acc_panels); where a row passes the device's largest allocation,
    // buffers of their own and a launch a panel.
    rows_batched_ = static_cast<unsigned long long>(nc_) * pb <= core_.device().max_alloc;
    const auto row_of_panels = [&](std::vector<cl::Buffer>& parents, std::vector<cl::Buffer>& panels) {
      if (!rows_batched_ || nc_ == 0) {  // (a rank without panel columns: nothing)
        for (int64_t k = 0; k < nc_; ++k) panels.emplace_back(core_.context(), CL_MEM_READ_WRITE, pb);
        parents.emplace_back();
        return;
      }
      parents.emplace_back(core_.context(), CL_MEM_READ_WRITE, static_cast<size_t>(nc_) * pb);
      for (int64_t k = 0; k < nc_; ++k) {
        const cl_buffer_region region{static_cast<size_t>(k) * pb, pb};
        panels.push_back(parents.back().createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region));
      }
    };
    detail::with_cl_errors("cannot allocate the panels on '" + core_.device().name + "'", [&] {
      for (int64_t k = 0; k < nr_; ++k) row_of_panels(own_rows_, own_);
      for (int set = 0; set < 2; ++set) {
        if (lay.pr > 1) row_of_panels(rowp_rows_[set], rowp_[set]);
        if (lay.pc > 1)
          for (int64_t k = 0; k < nr_; ++k) colp_[set].emplace_back(core_.context(), CL_MEM_READ_WRITE, pb);
      }
      if (lay.pr * lay.pc > 1) piv_ = cl::Buffer(core_.context(), CL_MEM_READ_WRITE, pb);
      tmp_ = cl::Buffer(core_.context(), CL_MEM_READ_WRITE, pb);
    });
    core_.begin_solve();
    // The load's and the store's staging ring sized for the whole local matrix: four
    // chunks of 32 MiB from 256 MiB on (two of 8 MiB below), as the single buffer's
    // upload. With the small ring a rank moved its panels at 12-15 GB/s against the
    // single buffer's 24-25 GB/s (one H200, n = 20 000, one rank: load 113 / store
    // 129 ms against 65 / 68 ms). Pinned here, before the set-up.
    core_.matrix_stager(pitch(), static_cast<size_t>(nr_ * nc_) * pb);
    // The broadcast buffers, pinned on a thread of their own while the rank
    // generates or receives its graph (pinning runs at ~1 GB/s on NVIDIA: ~11 GB
    // a rank at n = 100 000 on 2 x 2 took 12.8 s before the solve when pinned on
    // demand); host_buffer() waits for them.
    const char* e = std::getenv("OCL_SP_MPI_PINNED");
    if (!(e && std::string(e) == "0") && lay.pr * lay.pc > 1) {
      const size_t p = static_cast<size_t>(lay.p), mc = static_cast<size_t>(lay.mc()),
                   mr = static_cast<size_t>(lay.mr());
      // In the order the rounds take them (set 0's pivot, row and column buffers,
      // then set 1's: round 1 asks for its set only when it starts), each handed
      // out as soon as it is pinned; row panels only where they travel (several
      // process rows), column panels likewise (1 x 2 ranks at n = 100 000: 2.5 of
      // 7.8 GB a rank pinned for nothing, at ~0.6 GB/s beside the set-up and the solve).
      const size_t rows = lay.pr > 1 ? p * mc : 0, cols = lay.pc > 1 ? mr * p : 0;
      pinning_ = std::async(std::launch::async, [this, p, rows, cols] {
        Stopwatch sw;
        try {
          for (int k = 0; k < 2; ++k)
            for (const size_t values : {p * p, rows, cols}) {
              if (values == 0) continue;
              auto b = std::make_unique<detail::PinnedBuffer>(core_.context(), core_.queue(), values * sizeof(T));
              const std::lock_guard<std::mutex> lock(pin_mu_);
              moves_.pinned += static_cast<double>(b->bytes());
              pinned_.push_back(std::move(b));
              pin_cv_.notify_all();
            }
        } catch (...) {  // out of pinnable memory: the rest pageable
        }
        const std::lock_guard<std::mutex> lock(pin_mu_);
        moves_.pin = sw.seconds();
        pin_done_ = true;
        pin_cv_.notify_all();
      });
    }
  }
  ~ClBackend() override {
    if (pinning_.valid()) pinning_.wait();
  }
  std::string describe() const override { return core_.device().name; }

  cl::Buffer& own(int64_t li, int64_t lj) { return own_[static_cast<size_t>(li * nc_ + lj)]; }
  T* host(int64_t li, int64_t lj) { return d_.data() + (li * lay_.mc() + lj) * lay_.p; }
  size_t pitch() const { return static_cast<size_t>(lay_.p) * sizeof(T); }
  // Whole panels between the rank's matrix and the device (load, store): through
  // the single buffer's pinned stager (small chunks: pinning the panel engine's
  // 4 x 256 MiB costs ~0.7 s at ~1.4 GB/s on NVIDIA), not rectangular pageable
  // copies (H200, one rank, n = 20 000: solve 1.60 s against 0.98 s for the
  // single-process solve; docs/performance/mpi.md).
  void put_staged(cl::Buffer& buf, const T* h, int64_t host_ld) {
    const size_t row = pitch();
    core_.matrix_stager(pitch())
        .upload(detail::OpenClCore::kCompute, buf, {static_cast<size_t>(lay_.p), row, row},
                [h, host_ld, row](void* chunk, size_t r0, size_t r1) {
                  copy_rows(chunk, row, h + static_cast<int64_t>(r0) * host_ld,
                            static_cast<size_t>(host_ld) * sizeof(T), r1 - r0, row);
                });
  }
  // (On the download queue after `after`.)
  void get_staged(cl::Buffer& buf, T* h, int64_t host_ld, const std::vector<cl::Event>& after) {
    const size_t row = pitch();
    core_.matrix_stager(pitch())
        .download(detail::OpenClCore::kDownload, buf, {static_cast<size_t>(lay_.p), row, row},
                  [h, host_ld, row](const void* chunk, size_t r0, size_t r1) {
                    copy_rows(h + static_cast<int64_t>(r0) * host_ld,
                              static_cast<size_t>(host_ld) * sizeof(T), chunk, row, r1 - r0, row);
                  },
                  after);
  }
  cl::CommandQueue& queue() { return core_.queue(detail::OpenClCore::kCompute); }
  void guarded(const std::function<void()>& f) {
    core_.run_guarded("rank solve on '" + core_.device().name + "' failed", f);
  }
  // Whether e has run; an error status throws.
  static bool complete(const cl::Event& e) {
    if (!e()) return true;
    const cl_int st = e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
    if (st < 0) throw RuntimeError("a command of the rank's solve failed (" + cl_error_name(st) + ")");
    return st == CL_COMPLETE;
  }
  bool ready(const cl::Event& e) {
    bool done = false;
    guarded([&] { done = complete(e); });
    return done;
  }

  void load() override {
    guarded([&] {
      Stopwatch sw;
      for (int64_t li = 0; li < nr_; ++li)
        for (int64_t lj = 0; lj < nc_; ++lj) put_staged(own(li, lj), host(li, lj), lay_.mc());
      queue().flush();
      if (profiling()) {  // OCL_SP_PROFILE=1: the rank's phases, waited for
        queue().finish();
        profile("rank load (pinned chunks)", sw.seconds());
      }
    });
  }
  // The next pinned buffer of that size not yet handed out, once pinned (waiting for
  // the pinning thread as far as needed); nullptr when pinning ended without one.
  T* host_buffer(size_t values) override {
    const size_t bytes = std::max<size_t>(values, 1) * sizeof(T);
    if (!pinning_.valid()) return nullptr;  // pageable (OCL_SP_MPI_PINNED=0, one rank)
    Stopwatch sw;
    std::unique_lock<std::mutex> lock(pin_mu_);
    for (;;) {
      for (size_t k = 0; k < pinned_.size(); ++k)
        if (!lent_[k] && pinned_[k]->bytes() == bytes) {
          lent_[k] = true;
          moves_.pin_wait += sw.seconds();
          return static_cast<T*>(pinned_[k]->data());
        }
      if (pin_done_) break;
      pin_cv_.wait(lock);
    }
    moves_.pin_wait += sw.seconds();
    return nullptr;
  }
  // A marker of everything enqueued on the compute queue so far.
  cl::Event mark() {
    cl::Event m;
    queue().enqueueMarkerWithWaitList(nullptr, &m);
    return m;
  }
  // Device -> host on the download queue after the compute queue's work so far.
  cl::Event read_back(cl::Buffer& buf, T* h, int64_t host_ld, const cl::Event& after) {
    cl::Event e = core_.read_rect(detail::OpenClCore::kDownload, buf, pitch(), 0, h,
                                  static_cast<size_t>(host_ld) * sizeof(T), pitch(),
                                  static_cast<size_t>(lay_.p), {after});
    down_.push_back(e);
    return e;
  }
  void flush_moves() {
    queue().flush();
    core_.queue(detail::OpenClCore::kDownload).flush();
    core_.queue(detail::OpenClCore::kUpload).flush();
  }
  void close_pivot(int64_t r, T* out) override {
    guarded([&] {
      cl::Buffer& b = own(lay_.lrow(r), lay_.lcol(r));
      dev_->close_panel(b, lay_.p, std::max<int64_t>(1, lay_.real(r)));
      // The host copy is only for the other ranks of the pivot's process row and
      // column: none on a 1 x 1 grid.
      if (lay_.pr * lay_.pc > 1) piv_read_ = read_back(b, out, lay_.p, mark());
      flush_moves();
    });
  }
  bool pivot_ready() override { return ready(piv_read_); }
  void set_pivot(int64_t r, const T* piv) override {
    guarded([&] {
      // On the compute queue (step 2 follows it there); the host buffer is read
      // until the write is done: release() waits for it.
      reads_[r % 2].push_back(core_.write_async(detail::OpenClCore::kCompute, piv_,
                                                static_cast<size_t>(lay_.p * lay_.p) * sizeof(T), piv, {}));
      queue().flush();
    });
  }
  void phase2(int64_t r, const T*, T* row_out, T* col_out) override {
    guarded([&] {
      const size_t pb = static_cast<size_t>(lay_.p * lay_.p) * sizeof(T);
      const bool owner = lay_.has_row(r) && lay_.has_col(r);
      cl::Buffer& pv = owner ? own(lay_.lrow(r), lay_.lcol(r)) : piv_;
      // Each block read back as soon as its GEMM ran, so that its broadcast starts
      // while the next blocks are computed (row panels go down the process column,
      // column panels along the process row: read back only where there are others),
      // in the order they are sent (Layout::block_order).
      const bool send_row = lay_.has_row(r) && lay_.pr > 1, send_col = lay_.has_col(r) && lay_.pc > 1;
      row_read_.assign(send_row ? static_cast<size_t>(nc_) : 0, cl::Event());
      col_read_.assign(send_col ? static_cast<size_t>(nr_) : 0, cl::Event());
      if (lay_.has_row(r)) {
        const int64_t li = lay_.lrow(r);
        for (const int64_t lj : lay_.block_order(r, true)) {
          if (!(owner && lj == lay_.lcol(r))) {
            core_.copy_buffer(own(li, lj), tmp_, pb, {});
            dev_->gemm_acc(own(li, lj), pv, tmp_, lay_.p, lay_.real(r));
          }
          if (send_row) row_read_[static_cast<size_t>(lj)] = read_back(own(li, lj), row_out + lj * lay_.p * lay_.p, lay_.p, mark());
        }
      }
      if (lay_.has_col(r)) {
        const int64_t lj = lay_.lcol(r);
        for (const int64_t li : lay_.block_order(r, false)) {
          const int64_t i = lay_.rows[static_cast<size_t>(li)];
          if (i != r) {
            core_.copy_buffer(own(li, lj), tmp_, pb, {});
            dev_->gemm_acc(own(li, lj), tmp_, pv, lay_.p, lay_.real(i));
          }
          if (send_col) col_read_[static_cast<size_t>(li)] = read_back(own(li, lj), col_out + li * lay_.p * lay_.p, lay_.p, mark());
        }
      }
      flush_moves();
    });
  }
  bool block_ready(bool row, int64_t k) override {
    const auto& v = row ? row_read_ : col_read_;
    const size_t i = static_cast<size_t>(k);
    if (i >= v.size()) return true;
    return ready(v[i]);
  }
  void receive_block(int64_t r, bool row, int64_t k, const T* data) override {
    guarded([&] {
      const int set = static_cast<int>(r % 2);
      // The set's buffers are free once the last GEMM of round r - 2 ran.
      std::vector<cl::Event> wait;
      if (last_use_[set]()) wait.push_back(last_use_[set]);
      auto& bufs = row ? rowp_[set] : colp_[set];
      auto& ev = row ? up_row_[set] : up_col_[set];
      ev.resize(bufs.size());
      const size_t i = static_cast<size_t>(k);
      ev[i] = core_.write_async(detail::OpenClCore::kUpload, bufs[i], static_cast<size_t>(lay_.p * lay_.p) * sizeof(T),
                                data, wait);
      reads_[set].push_back(ev[i]);
      uploads_.push_back(ev[i]);
      core_.queue(detail::OpenClCore::kUpload).flush();
    });
  }
  void set_panels(int64_t, const T*, const T*) override {}
  void release(int64_t r) override {
    guarded([&] {
      auto& v = reads_[r % 2];
      if (!v.empty()) {
        flush_moves();
        cl::Event::waitForEvents(v);
        for (const auto& e : v) complete(e);  // an error status throws
      }
      v.clear();
    });
  }
  void update(int64_t r, int64_t li, int64_t lj, int64_t count) override {
    guarded([&] {
      const size_t set = static_cast<size_t>(r % 2);
      cl::Buffer& a = lay_.has_col(r) ? own(li, lay_.lcol(r)) : colp_[set][static_cast<size_t>(li)];
      const int64_t rows = lay_.real(lay_.rows[static_cast<size_t>(li)]);
      // The GEMM after the uploads of the received blocks it reads (the compute
      // queue is in order: an upload waited for once is waited for).
      std::vector<cl::Event> wait;
      const auto need = [&wait](std::vector<cl::Event>& ev, int64_t k) {
        const size_t i = static_cast<size_t>(k);
        if (i < ev.size() && ev[i]()) {
          wait.push_back(ev[i]);
          ev[i] = cl::Event();
        }
      };
      if (!lay_.has_col(r)) need(up_col_[set], li);
      if (!lay_.has_row(r))
        for (int64_t k = lj; k < lj + count; ++k) need(up_row_[set], k);
      if (!wait.empty()) queue().enqueueBarrierWithWaitList(&wait);
      if (rows_batched_ && count > 1) {
        cl::Buffer& b = lay_.has_row(r) ? own_rows_[static_cast<size_t>(lay_.lrow(r))] : rowp_rows_[set][0];
        // This rank's own column block is a part of the row the launch writes: read
        // through a copy (a buffer and its sub-buffer in one launch, one written, is
        // undefined in OpenCL).
        if (lay_.has_col(r)) core_.copy_buffer(a, tmp_, static_cast<size_t>(lay_.p * lay_.p) * sizeof(T), {});
        dev_->gemm_acc_panels(own_rows_[static_cast<size_t>(li)], lay_.has_col(r) ? tmp_ : a, b, lay_.p, rows, lj,
                              count);
      } else {
        for (int64_t k = lj; k < lj + count; ++k) {
          cl::Buffer& b = lay_.has_row(r) ? own(lay_.lrow(r), k) : rowp_[set][static_cast<size_t>(k)];
          dev_->gemm_acc(own(li, k), a, b, lay_.p, rows);
        }
      }
      cl::Event m = mark();
      marks_.push_back(m);
      last_use_[set] = m;
      if (r == lay_.q - 1) final_[static_cast<size_t>(li)] = m;  // the last round: row li final once m ran (store())
      queue().flush();
    });
  }
  int backlog() override {
    while (!marks_.empty() && ready(marks_.front())) marks_.pop_front();
    return static_cast<int>(marks_.size());
  }
  bool idle() override {
    bool done = false;
    guarded([&] {
      if (!marker_()) {
        queue().enqueueMarkerWithWaitList(nullptr, &marker_);
        queue().flush();
      }
      done = complete(marker_);
      if (done) {
        queue().finish();
        marker_ = cl::Event();
        marks_.clear();
      }
    });
    return done;
  }
  void store() override {
    guarded([&] {
      Stopwatch sw;
      if (profiling()) {
        queue().finish();
        profile("rank rounds' queue drained", sw.seconds());
        sw.reset();
      }
      // Each local row of panels once the last round's last GEMM on it ran, in the
      // order they ran, while the rest of the round runs; then the rows that round
      // did not update and the row of panels every GEMM of it read (row q - 1), after
      // everything. A row's panels are sub-buffers of one buffer the GEMMs write
      // whole, so a row is read back only once no command uses that buffer.
      // (The last round's GEMMs run row after row, in local row order.)
      const int64_t last = lay_.has_row(lay_.q - 1) ? lay_.lrow(lay_.q - 1) : -1;
      const auto early = [&](int64_t li) { return li != last && final_[static_cast<size_t>(li)](); };
      const auto store_row = [&](int64_t li, const cl::Event& after) {
        for (int64_t lj = 0; lj < nc_; ++lj) get_staged(own(li, lj), host(li, lj), lay_.mc(), {after});
      };
      for (int64_t li = 0; li < nr_; ++li)
        if (early(li)) store_row(li, final_[static_cast<size_t>(li)]);
      const cl::Event all = mark();
      flush_moves();
      for (int64_t li = 0; li < nr_; ++li)
        if (!early(li)) store_row(li, all);
      core_.matrix_stager(pitch()).settle();
      queue().finish();
      profile("rank store (pinned chunks)", sw.seconds());
      for (auto& q : {detail::OpenClCore::kUpload, detail::OpenClCore::kDownload}) core_.queue(q).finish();
      moves_.upload = device_seconds(uploads_);
      moves_.readback = device_seconds(down_);
      profile("rank panel uploads (copy queue)", moves_.upload);
      profile("rank step-2 read-backs", moves_.readback);
      if (pinning_.valid()) pinning_.wait();  // moves_.pin written
      profile("rank pinning the broadcast buffers (beside the set-up)", moves_.pin);
      profile("rank waiting for the pinned buffers", moves_.pin_wait);
      RunStats st;
      core_.finish(st);
      t_k_ = st.t_k;
      profile("rank kernels (T_k)", t_k_);
      for (const auto& [name, sec] : st.kernel_seconds) profile("rank kernel " + name, sec);
    });
  }
  double kernel_seconds() override { return t_k_; }
  typename RankBackend<T>::Moves moves() override { return moves_; }
  static double device_seconds(const std::vector<cl::Event>& v) {
    double t = 0;
    for (const auto& e : v)
      t += 1e-9 * static_cast<double>(e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                      e.getProfilingInfo<CL_PROFILING_COMMAND_START>());
    return t;
  }

 private:
  const Layout& lay_;
  std::vector<T>& d_;
  std::unique_ptr<detail::PanelDevice> dev_;
  detail::OpenClCore& core_;
  int64_t nr_, nc_;
  std::vector<cl::Buffer> own_, rowp_[2], colp_[2];  // received panels: one set per round parity
  std::vector<cl::Buffer> own_rows_, rowp_rows_[2];   // the rows own_ and rowp_ are parts of (rows_batched_)
  bool rows_batched_ = false;
  cl::Buffer piv_, tmp_;
  cl::Event piv_read_, marker_;
  std::vector<cl::Event> row_read_, col_read_;  // step 2's read-backs, by block
  std::deque<cl::Event> marks_;
  // The last round: per local row, the marker after its last GEMM (store()).
  std::vector<cl::Event> final_ = std::vector<cl::Event>(static_cast<size_t>(nr_));
  cl::Event last_use_[2];                 // per set: the last GEMM enqueued that read it
  std::vector<cl::Event> up_row_[2], up_col_[2];  // per set and block: uploads no GEMM waited for yet
  std::vector<cl::Event> reads_[2];               // per set: device reads of its host buffers
  std::vector<cl::Event> uploads_, down_;  // for the report's seconds
  std::vector<std::unique_ptr<detail::PinnedBuffer>> pinned_;
  std::vector<bool> lent_ = std::vector<bool>(6, false);
  typename RankBackend<T>::Moves moves_;
  std::mutex pin_mu_;  // pinned_, pin_done_ and moves_.pin between the pinning thread and the rounds
  std::condition_variable pin_cv_;
  bool pin_done_ = false;
  std::future<void> pinning_;  // last: waited for before the buffers go
  double t_k_ = 0;
};

}  // namespace

template <typename T>
std::unique_ptr<RankBackend<T>> make_cl_backend(const Layout& lay, std::vector<T>& local,
                                                std::unique_ptr<detail::PanelDevice> dev) {
  return std::make_unique<ClBackend<T>>(lay, local, std::move(dev));
}

template std::unique_ptr<RankBackend<int32_t>> make_cl_backend(const Layout&, std::vector<int32_t>&,
                                                               std::unique_ptr<detail::PanelDevice>);
template std::unique_ptr<RankBackend<float>> make_cl_backend(const Layout&, std::vector<float>&,
                                                             std::unique_ptr<detail::PanelDevice>);
template std::unique_ptr<RankBackend<double>> make_cl_backend(const Layout&, std::vector<double>&,
                                                             std::unique_ptr<detail::PanelDevice>);
template std::unique_ptr<RankBackend<int64_t>> make_cl_backend(const Layout&, std::vector<int64_t>&,
                                                             std::unique_ptr<detail::PanelDevice>);

namespace {

// The devices a spec names for the ranks of one node: a list or P:all as
// select_devices gives it, every device matching a word, all GPUs (else the
// default device) without a spec.
std::vector<DeviceEntry> rank_candidates(const std::string& spec) {
  std::vector<DeviceEntry> all;
  const bool list = spec.find(',') != std::string::npos || spec == "all" ||
                    (spec.size() > 4 && spec.compare(spec.size() - 4, 4, ":all") == 0);
  if (list) {
    all = select_devices(spec, 1);
  } else {
    const std::vector<DeviceEntry> installed = list_devices();
    const std::string word = spec.empty() ? (std::getenv("OCL_SP_DEVICE") ? std::getenv("OCL_SP_DEVICE") : "") : spec;
    if (!word.empty() && word.find(',') != std::string::npos) {
      all = select_devices(word, 1);
    } else if (word.empty()) {
      for (const auto& d : installed)
        if (d.type == "gpu") all.push_back(d);
      if (all.empty()) all.push_back(select_device(""));
    } else {
      all.push_back(select_from(installed, word));  // errors: nothing matches
      all.clear();
      for (const auto& d : installed) {
        bool ok = true;
        for (const auto& w : split(word, '+')) ok = ok && device_matches(d, w);
        if (ok) all.push_back(d);
      }
      if (all.empty()) all.push_back(select_from(installed, word));
    }
  }
  return all;
}

}  // namespace

DeviceEntry rank_device(const std::string& spec, int local_rank) {
  const std::vector<DeviceEntry> all = rank_candidates(spec);
  return all[static_cast<size_t>(local_rank) % all.size()];
}

std::string rank_devices(const std::string& spec, int local_rank, int local_size) {
  const std::vector<DeviceEntry> all = rank_candidates(spec);
  std::string out;
  for (const size_t i : dealt_devices(all.size(), local_rank, local_size))
    out += (out.empty() ? "" : ",") + std::to_string(all[i].platform_index) + ":" + std::to_string(all[i].device_index);
  return out;
}


}  // namespace ocl_sp::mpi

#endif  // OCL_SP_HAVE_MPI
