// The OpenCL backend of a rank (see mpi_backend.hpp): the fw solver's panel
// primitives on the rank's device, every panel resident, the received pivot, row
// and column panels in their own buffers, everything on the in-order compute queue.
#ifdef OCL_SP_HAVE_MPI
#include <algorithm>
#include <deque>
#include <functional>

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
    detail::with_cl_errors("cannot allocate the panels on '" + core_.device().name + "'", [&] {
      for (int64_t k = 0; k < nr_ * nc_; ++k) own_.emplace_back(core_.context(), CL_MEM_READ_WRITE, pb);
      if (lay.pr > 1)
        for (int64_t k = 0; k < nc_; ++k) rowp_.emplace_back(core_.context(), CL_MEM_READ_WRITE, pb);
      if (lay.pc > 1)
        for (int64_t k = 0; k < nr_; ++k) colp_.emplace_back(core_.context(), CL_MEM_READ_WRITE, pb);
      if (lay.pr * lay.pc > 1) piv_ = cl::Buffer(core_.context(), CL_MEM_READ_WRITE, pb);
      tmp_ = cl::Buffer(core_.context(), CL_MEM_READ_WRITE, pb);
    });
    core_.begin_solve();
  }
  std::string describe() const override { return core_.device().name; }

  cl::Buffer& own(int64_t li, int64_t lj) { return own_[static_cast<size_t>(li * nc_ + lj)]; }
  T* host(int64_t li, int64_t lj) { return d_.data() + (li * lay_.mc() + lj) * lay_.p; }
  size_t pitch() const { return static_cast<size_t>(lay_.p) * sizeof(T); }
  void put(cl::Buffer& buf, const T* h, int64_t host_ld) {
    core_.write_rect(detail::OpenClCore::kCompute, buf, pitch(), h, static_cast<size_t>(host_ld) * sizeof(T),
                     pitch(), static_cast<size_t>(lay_.p));
  }
  cl::Event get(cl::Buffer& buf, T* h, int64_t host_ld) {
    return core_.read_rect(detail::OpenClCore::kCompute, buf, pitch(), h,
                           static_cast<size_t>(host_ld) * sizeof(T), pitch(), static_cast<size_t>(lay_.p));
  }
  // Whole panels between the rank's matrix and the device (load, store): through
  // the single buffer's pinned stager (small chunks: pinning the panel engine's
  // 4 x 256 MiB costs ~0.7 s at ~1.4 GB/s on NVIDIA), not rectangular pageable
  // copies (H200, one rank, n = 20 000: solve 1.60 s against 0.98 s for the
  // single-process solve; docs/performance/scale.md "MPI ranks").
  void put_staged(cl::Buffer& buf, const T* h, int64_t host_ld) {
    const size_t row = pitch();
    core_.matrix_stager(pitch())
        .upload(detail::OpenClCore::kCompute, buf, {static_cast<size_t>(lay_.p), row, row},
                [h, host_ld, row](void* chunk, size_t r0, size_t r1) {
                  copy_rows(chunk, row, h + static_cast<int64_t>(r0) * host_ld,
                            static_cast<size_t>(host_ld) * sizeof(T), r1 - r0, row);
                });
  }
  void get_staged(cl::Buffer& buf, T* h, int64_t host_ld) {
    const size_t row = pitch();
    core_.matrix_stager(pitch())
        .download(detail::OpenClCore::kCompute, buf, {static_cast<size_t>(lay_.p), row, row},
                  [h, host_ld, row](const void* chunk, size_t r0, size_t r1) {
                    copy_rows(h + static_cast<int64_t>(r0) * host_ld,
                              static_cast<size_t>(host_ld) * sizeof(T), chunk, row, r1 - r0, row);
                  });
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
  void close_pivot(int64_t r, T* out) override {
    guarded([&] {
      cl::Buffer& b = own(lay_.lrow(r), lay_.lcol(r));
      dev_->close_panel(b, lay_.p, std::max<int64_t>(1, lay_.real(r)));
      // The host copy is only for the other ranks of the pivot's process row and
      // column: none on a 1 x 1 grid.
      if (lay_.pr * lay_.pc > 1) piv_read_ = get(b, out, lay_.p);
      queue().flush();
    });
  }
  bool pivot_ready() override { return ready(piv_read_); }
  void set_pivot(int64_t, const T* piv) override {
    guarded([&] {
      put(piv_, piv, lay_.p);
      queue().flush();
    });
  }
  void phase2(int64_t r, const T*, T* row_out, T* col_out) override {
    guarded([&] {
      const size_t pb = static_cast<size_t>(lay_.p * lay_.p) * sizeof(T);
      const bool owner = lay_.has_row(r) && lay_.has_col(r);
      cl::Buffer& pv = owner ? own(lay_.lrow(r), lay_.lcol(r)) : piv_;
      if (lay_.has_row(r)) {
        const int64_t li = lay_.lrow(r);
        for (int64_t lj = 0; lj < nc_; ++lj) {
          if (owner && lj == lay_.lcol(r)) continue;
          core_.copy_buffer(own(li, lj), tmp_, pb, {});
          dev_->gemm_acc(own(li, lj), pv, tmp_, lay_.p, lay_.real(r));
        }
        // Row panels go down the process column: read back only if it has others.
        if (lay_.pr > 1)
          for (int64_t lj = 0; lj < nc_; ++lj) p2_read_ = get(own(li, lj), row_out + lj * lay_.p, lay_.mc());
      }
      if (lay_.has_col(r)) {
        const int64_t lj = lay_.lcol(r);
        for (int64_t li = 0; li < nr_; ++li) {
          const int64_t i = lay_.rows[static_cast<size_t>(li)];
          if (i == r) continue;
          core_.copy_buffer(own(li, lj), tmp_, pb, {});
          dev_->gemm_acc(own(li, lj), tmp_, pv, lay_.p, lay_.real(i));
        }
        if (lay_.pc > 1)  // column panels go along the process row
          for (int64_t li = 0; li < nr_; ++li)
            p2_read_ = get(own(li, lj), col_out + li * lay_.p * lay_.p, lay_.p);
      }
      queue().flush();
    });
  }
  bool phase2_ready() override { return ready(p2_read_); }
  void set_panels(int64_t r, const T* row, const T* col) override {
    guarded([&] {
      if (!lay_.has_row(r))
        for (int64_t lj = 0; lj < nc_; ++lj) put(rowp_[static_cast<size_t>(lj)], row + lj * lay_.p, lay_.mc());
      if (!lay_.has_col(r))
        for (int64_t li = 0; li < nr_; ++li) put(colp_[static_cast<size_t>(li)], col + li * lay_.p * lay_.p, lay_.p);
      queue().flush();
    });
  }
  void update(int64_t r, int64_t li, int64_t lj0, int64_t lj1) override {
    guarded([&] {
      cl::Buffer& a = lay_.has_col(r) ? own(li, lay_.lcol(r)) : colp_[static_cast<size_t>(li)];
      const int64_t rows = lay_.real(lay_.rows[static_cast<size_t>(li)]);
      for (int64_t lj = lj0; lj < lj1; ++lj) {
        cl::Buffer& b = lay_.has_row(r) ? own(lay_.lrow(r), lj) : rowp_[static_cast<size_t>(lj)];
        dev_->gemm_acc(own(li, lj), a, b, lay_.p, rows);
      }
      cl::Event m;
      queue().enqueueMarkerWithWaitList(nullptr, &m);
      marks_.push_back(m);
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
      for (int64_t li = 0; li < nr_; ++li)
        for (int64_t lj = 0; lj < nc_; ++lj) get_staged(own(li, lj), host(li, lj), lay_.mc());
      core_.matrix_stager(pitch()).settle();
      queue().finish();
      profile("rank store (pinned chunks)", sw.seconds());
      RunStats st;
      core_.finish(st);
      t_k_ = st.t_k;
      profile("rank kernels (T_k)", t_k_);
    });
  }
  double kernel_seconds() override { return t_k_; }

 private:
  const Layout& lay_;
  std::vector<T>& d_;
  std::unique_ptr<detail::PanelDevice> dev_;
  detail::OpenClCore& core_;
  int64_t nr_, nc_;
  std::vector<cl::Buffer> own_, rowp_, colp_;
  cl::Buffer piv_, tmp_;
  cl::Event piv_read_, p2_read_, marker_;
  std::deque<cl::Event> marks_;
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
