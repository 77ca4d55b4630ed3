// Repeated squaring on the panel engine's primitives (DESIGN.md "Scale": squaring
// uses the same GEMM, C = A (x) A over panels): for several devices (--device
// lists, gpu:all, --split K) or forced panels (--panel P). The matrix is a q x q
// grid of P x P panels; every device keeps all of L resident and computes the panel
// rows it owns of L (x) L (rows split across devices in proportion to nothing but
// their count: squaring's rows are equal work), C[i][j] = min_k L[i][k] (x) L[k][j]
// starting from C = L[i][j] (the diagonal is 0, so that term is in the min anyway).
// After each product the devices' rows meet in host memory, which also tells
// whether anything changed (stop), and go back to every device for the next one.
#include <algorithm>
#include <exception>
#include <thread>

#include "cpu/cpu_solvers.hpp"
#include "solvers/opencl_base.hpp"
#include "solvers/opencl_fw.hpp"
#include "solvers/opencl_solvers.hpp"
#include "solvers/panel_engine.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"
#include "util/timer.hpp"

namespace ocl_sp::detail {

namespace {

template <typename T>
class OpenClSquaringPanels final : public Solver<T> {
 public:
  explicit OpenClSquaringPanels(const SolverSpec& spec) : spec_(spec) {
    if (!spec.params.empty())
      throw UsageError(
          "squaring over several devices or panels runs the panel GEMM with the fw solver's "
          "tunables; --wg / --block / --param apply to one device (drop them, or use --algo fw)");
    Stopwatch sw;
    SolverSpec fw = spec;
    fw.algo = Algo::fw;
    for (const DeviceEntry& e : select_devices(spec.device, spec.split)) {
      SolverInfo info;
      devs_.push_back(make_fw_panel_device<T>(e, fw, &info));
      if (info_.device.empty()) {
        info_ = info;
      } else {
        info_.device += " + " + info.device;
      }
    }
    info_.algo = to_string(Algo::squaring);
    info_.params_source += " (panel GEMM)";
    info_.t_o = sw.seconds();
  }

  const SolverInfo& info() const override { return info_; }

  RunStats solve(DistMatrix<T>& d, PathMatrix* paths) override {
    if (paths)
      throw UsageError("--paths with squaring needs one device and one buffer; drop --paths, "
                       "or use --algo fw");
    Stopwatch sw;
    RunStats st;
    const int64_t n = d.n();
    if (n == 0) return st;
    const int64_t m = devs_[0]->panel_multiple();
    const int64_t dn = static_cast<int64_t>(devs_.size());
    p_ = spec_.panel ? round_up(spec_.panel, m)
                     : round_up((n + 2 * dn - 1) / (2 * dn), m);  // ~2 panel rows per device
    q_ = (n + p_ - 1) / p_;
    pbytes_ = static_cast<size_t>(p_ * p_) * sizeof(T);
    check_memory(n);
    const int max_p = max_products(n, has_negative_weights(d));
    int products = 0;
    for (auto& x : devs_) x->core().begin_solve();
    std::vector<std::vector<cl::Buffer>> lbuf(devs_.size()), cbuf(devs_.size());
    for (int prod = 0; prod < max_p; ++prod) {
      throw_if_cancelled();
      bool changed = false;
      run_devices([&](size_t k) { product(k, d, lbuf[k], cbuf[k], prod == 0); });
      // Gather: each device's rows into the matrix through its pinned stager,
      // noting any change.
      for (size_t k = 0; k < devs_.size(); ++k) {
        OpenClCore& core = devs_[k]->core();
        core.run_guarded("squaring over panels on '" + core.device().name + "' failed", [&] {
          Stager& st = panel_stager(core, p_, sizeof(T));
          for (int64_t i = static_cast<int64_t>(k); i < q_; i += dn)
            for (int64_t j = 0; j < q_; ++j)
              download_panel(st, OpenClCore::kCompute, cbuf[k][static_cast<size_t>((i / dn) * q_ + j)],
                             d, p_, i, j, {}, &changed);
          st.settle();
        });
      }
      ++products;
      if (!changed) break;
    }
    for (int64_t i = 0; i < n; ++i)
      if (d(i, i) < 0) throw NegativeCycleError(i);
    double max_tk = 0;
    for (auto& x : devs_) {
      RunStats part;
      x->core().finish(part);
      st.t_h += part.t_h;
      st.kernel_launches += part.kernel_launches;
      for (const auto& [name, t] : part.kernel_seconds) st.kernel_seconds[name] += t;
      max_tk = std::max(max_tk, part.t_k);
      st.bytes_moved += x->core().bytes_up() + x->core().bytes_down();
    }
    st.t_k = max_tk;
    st.products = products;
    st.panel = p_;
    st.devices = static_cast<int>(devs_.size());
    st.placement = "resident panels, P = " + std::to_string(p_) + " (" + std::to_string(q_) +
                   " x " + std::to_string(q_) + " panels, the whole matrix on every device)" +
                   (devs_.size() > 1 ? " on " + std::to_string(devs_.size()) + " devices" : "");
    st.relaxations = relaxation_count(Algo::squaring, n, products);
    st.total = sw.seconds();
    return st;
  }

 private:
  // Each device: all of L (q^2 panels) and its rows of the product.
  void check_memory(int64_t n) const {
    const int64_t dn = static_cast<int64_t>(devs_.size());
    const uint64_t panels = static_cast<uint64_t>(q_ * q_ + ((q_ + dn - 1) / dn) * q_);
    for (const auto& x : devs_) {
      const DeviceEntry& e = x->core().device();
      const uint64_t mem = spec_.device_memory ? std::min<uint64_t>(spec_.device_memory, e.global_mem)
                                               : e.global_mem;
      if (pbytes_ > e.max_alloc || panels * pbytes_ > mem)
        throw RuntimeError("squaring n = " + std::to_string(n) + " over panels needs " +
                           std::to_string((panels * pbytes_) >> 20) + " MiB on '" + e.name +
                           "' (the whole matrix and its share of the product) but it has " +
                           std::to_string(mem >> 20) + " MiB; use --algo fw, whose panel engine "
                           "also runs out of core");
    }
  }

  // One host thread per device; the first error is rethrown after all joined.
  void run_devices(const std::function<void(size_t)>& body) {
    if (devs_.size() == 1) {
      body(0);
      return;
    }
    std::vector<std::exception_ptr> errors(devs_.size());
    std::vector<std::thread> threads;
    for (size_t k = 0; k < devs_.size(); ++k)
      threads.emplace_back([&, k] {
        try {
          body(k);
        } catch (...) {
          errors[k] = std::current_exception();
        }
      });
    for (auto& t : threads) t.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
  }

  // Device k: upload L (all panels), then its rows of L (x) L.
  void product(size_t k, const DistMatrix<T>& d, std::vector<cl::Buffer>& l,
               std::vector<cl::Buffer>& c, bool first) {
    OpenClCore& core = devs_[k]->core();
    PanelDevice& dev = *devs_[k];
    const int64_t dn = static_cast<int64_t>(devs_.size());
    core.run_guarded("squaring over panels on '" + core.device().name + "' failed", [&] {
      if (first) {
        l.clear();
        c.clear();
        for (int64_t x = 0; x < q_ * q_; ++x)
          l.emplace_back(core.context(), CL_MEM_READ_WRITE, pbytes_);
        for (int64_t i = static_cast<int64_t>(k); i < q_; i += dn)
          for (int64_t j = 0; j < q_; ++j) c.emplace_back(core.context(), CL_MEM_READ_WRITE, pbytes_);
      }
      // L through the pinned stager (in order on the compute queue, before the GEMMs).
      Stager& st = panel_stager(core, p_, sizeof(T));
      for (int64_t i = 0; i < q_; ++i)
        for (int64_t j = 0; j < q_; ++j)
          upload_panel(st, OpenClCore::kCompute, l[static_cast<size_t>(i * q_ + j)], d, p_, i, j, {});
      for (int64_t i = static_cast<int64_t>(k); i < q_; i += dn) {
        const int64_t rows = std::min(p_, d.n() - i * p_);
        for (int64_t j = 0; j < q_; ++j) {
          cl::Buffer& out = c[static_cast<size_t>((i / dn) * q_ + j)];
          core.copy_buffer(l[static_cast<size_t>(i * q_ + j)], out, pbytes_, {});
          for (int64_t kk = 0; kk < q_; ++kk)
            dev.gemm_acc(out, l[static_cast<size_t>(i * q_ + kk)], l[static_cast<size_t>(kk * q_ + j)],
                         p_, rows);
        }
        throw_if_cancelled();
      }
      core.queue(OpenClCore::kCompute).finish();
    });
  }

  SolverSpec spec_;
  std::vector<std::unique_ptr<PanelDevice>> devs_;
  SolverInfo info_;
  int64_t p_ = 0, q_ = 0;
  size_t pbytes_ = 0;
};

}  // namespace

template <typename T>
std::unique_ptr<Solver<T>> make_opencl_squaring_panels(const SolverSpec& spec) {
  return std::make_unique<OpenClSquaringPanels<T>>(spec);
}

template std::unique_ptr<Solver<int32_t>> make_opencl_squaring_panels<int32_t>(const SolverSpec&);
template std::unique_ptr<Solver<float>> make_opencl_squaring_panels<float>(const SolverSpec&);
template std::unique_ptr<Solver<double>> make_opencl_squaring_panels<double>(const SolverSpec&);
template std::unique_ptr<Solver<int64_t>> make_opencl_squaring_panels<int64_t>(const SolverSpec&);

}  // namespace ocl_sp::detail
