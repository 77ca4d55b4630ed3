// The panel engine (see panel_engine.hpp). Round r of the outer blocked FW over a
// q x q grid of P x P panels, with the devices owning panel rows block-cyclically
// (row i belongs to device i mod D, as seed 001 splits tile rows between GPUs):
//  1. the owner of row r closes the pivot panel D[r][r] and updates the row panels
//     D[r][j] = D*[r][r] (x) D[r][j] (through a copy: a panel is never both an
//     operand and the output of one launch);
//  2. with several devices or out of core, the pivot and row panels go to host
//     memory and from there to every other device (they stay on the device for
//     the whole round: "pivot row/column panels kept resident");
//  3. every device, for each panel row i it owns: column panel
//     D[i][r] = D[i][r] (x) D*[r][r], then D[i][j] = min(D[i][j], D[i][r] (x) D[r][j]).
// Resident panels keep their own device buffers for the whole solve; out of core,
// panel (i, j) of step 3 streams through a few device slots: upload (own queue),
// GEMM (compute queue), download (own queue), chained by events so copies in both
// directions overlap with the kernels. Out of core on one device, the rounds run
// with look-ahead and without drains (panel_ooc.hpp); the code below serves it
// with several devices.
#include "solvers/panel_engine.hpp"
#include "solvers/panel_ooc.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <sstream>
#include <thread>

#include "util/cancel.hpp"
#include "util/errors.hpp"
#include "util/progress.hpp"
#include "util/strings.hpp"
#include "util/timer.hpp"

namespace ocl_sp::detail {

const char* to_string(Placement p) {
  switch (p) {
    case Placement::single_buffer: return "single buffer";
    case Placement::resident: return "resident panels";
    case Placement::out_of_core: return "out of core";
  }
  return "?";
}

namespace {

// Device buffers of the resident placement, in panels: the owned rows, plus with
// several devices the round's pivot and row panels from others, plus one copy.
int64_t resident_panels(int64_t q, int devices) {
  const int64_t rows = (q + devices - 1) / devices;
  return rows * q + (devices > 1 ? q : 0) + 1;
}
// Out of core: pivot, copy, q - 1 row panels, two column slots, streaming slots.
int64_t ooc_panels(int64_t q) { return q + 3 + kStreamSlots; }

}  // namespace

int64_t grid_resident_panels(int64_t q, const PanelGrid& g) {
  const int64_t rows = (q + g.rows - 1) / g.rows, cols = (q + g.cols - 1) / g.cols;
  return rows * cols + (g.rows > 1 ? 2 * cols : 0) + (g.cols > 1 ? 2 * rows : 0) +
         (g.rows * g.cols > 1 ? 1 : 0) + 1;
}

std::vector<DeviceBudget> device_budgets(const std::vector<DeviceEntry>& devices, uint64_t cap) {
  std::vector<DeviceBudget> out;
  for (const DeviceEntry& e : devices) {
    DeviceBudget b;
    b.name = e.name;
    b.memory = cap ? std::min<uint64_t>(cap, e.global_mem) : e.global_mem;
    b.max_alloc = std::min<uint64_t>(e.max_alloc, b.memory);
    b.host_backed = e.type == "cpu";  // PoCL: buffers are host memory
    out.push_back(b);
  }
  return out;
}

std::string PanelPlan::describe() const {
  std::ostringstream os;
  os << to_string(placement);
  if (placement != Placement::single_buffer)
    os << ", P = " << p << " (" << q << " x " << q << " panels"
       << (placement == Placement::out_of_core ? ", " + std::to_string(slots) + " streaming slots"
                                               : std::string())
       << (placement == Placement::out_of_core || devices > 1 ? ", pinned staging" : "")
       << ")";
  if (devices > 1) os << " on " << devices << " devices";
  return os.str();
}

PanelPlan plan_panels(int64_t n, size_t vs, const std::vector<DeviceBudget>& devs, int64_t panel,
                      int multiple, int64_t single_multiple, int single_buffers,
                      uint64_t host_spare, const PanelGrid& grid) {
  if (devs.empty()) throw RuntimeError("no device for the panel engine");
  const bool on_grid = grid.rows > 0;
  if (on_grid && (grid.cols < 1 || devs.size() != 1))
    throw RuntimeError("panel plan of a process grid: one device budget per rank");
  PanelPlan plan;
  plan.n = n;
  plan.devices = static_cast<int>(devs.size());
  const int d = plan.devices;
  uint64_t memory = devs[0].memory, max_alloc = devs[0].max_alloc;
  bool host_backed = false;
  for (const auto& x : devs) {
    memory = std::min(memory, x.memory);
    max_alloc = std::min(max_alloc, x.max_alloc);
    host_backed |= x.host_backed;
  }
  const auto bytes = [&](int64_t p) { return static_cast<uint64_t>(p) * p * vs; };
  if (d == 1 && panel == 0 && !on_grid) {
    const int64_t ld = round_up(std::max<int64_t>(n, 1), single_multiple);
    const uint64_t one = bytes(ld);
    if (one <= max_alloc && one * single_buffers <= memory) {
      plan.placement = Placement::single_buffer;
      plan.p = ld;
      plan.device_bytes = one * single_buffers;
      plan.host_bytes = host_backed ? plan.device_bytes : 0;
      return plan;
    }
  }
  const uint64_t matrix = static_cast<uint64_t>(n) * n * vs;
  const auto finish = [&](Placement pl, int64_t q, int64_t p) {
    plan.placement = pl;
    plan.q = q;
    plan.p = p;
    plan.slots = pl == Placement::out_of_core ? kStreamSlots : 0;
    plan.device_bytes =
        bytes(p) * static_cast<uint64_t>(on_grid                    ? grid_resident_panels(q, grid)
                                         : pl == Placement::resident ? resident_panels(q, d)
                                                                     : ooc_panels(q));
    plan.max_rows.clear();
    for (const auto& x : devs) {
      int64_t rows = q;
      if (pl == Placement::resident) {
        const int64_t fit = static_cast<int64_t>(x.memory / bytes(p)) - (d > 1 ? q : 0) - 1;
        rows = std::max<int64_t>((q + d - 1) / d, std::min<int64_t>(q, fit / q));
      }
      plan.max_rows.push_back(rows);
    }
    if (on_grid) {  // the ranks' host buffers are the driver's to count
      plan.host_bytes = host_backed ? plan.device_bytes : 0;
      if (plan.host_bytes > host_spare)
        throw RuntimeError("n = " + std::to_string(n) + ": " + plan.describe() + " needs " +
                           format_bytes(static_cast<double>(plan.host_bytes)) +
                           " of host memory per rank for the device's panels but only " +
                           format_bytes(static_cast<double>(host_spare)) +
                           " are free; use more ranks or --host-memory SIZE if the limit is wrong");
      return plan;
    }
    const uint64_t staging = std::min<uint64_t>(bytes(p), stage_bytes(kStageBytes)) * kStagingBuffers *
                             static_cast<uint64_t>(d);
    const uint64_t device_host = host_backed ? plan.device_bytes * static_cast<uint64_t>(d) : 0;
    // Every placement moves panels through pinned staging chunks. (A pinned copy
    // of the whole matrix lost to staging: pinning at ~1.4 GB/s on NVIDIA cost
    // more than the copies it saved; docs/performance/scale.md, n = 40 000 at 1/4 of the
    // matrix on the H200: 9.7 s against 6.9 s.)
    plan.host_bytes = staging + device_host;
    if (plan.host_bytes > host_spare)
      throw RuntimeError("n = " + std::to_string(n) + ": " + plan.describe() + " needs " +
                         format_bytes(static_cast<double>(plan.host_bytes)) +
                         " of host memory beside the matrix but only " +
                         format_bytes(static_cast<double>(host_spare)) +
                         " are free; try --host-memory SIZE if the limit is wrong, or "
                         "--type float32 is no smaller: reduce n");
    return plan;
  };
  const auto fits = [&](Placement pl, int64_t q, int64_t p) {
    if (bytes(p) > max_alloc) return false;
    const int64_t panels = on_grid                    ? grid_resident_panels(q, grid)
                           : pl == Placement::resident ? resident_panels(q, d)
                                                       : ooc_panels(q);
    return bytes(p) * static_cast<uint64_t>(panels) <= memory;
  };
  if (on_grid) {
    // Resident only: a rank's panels never stream (add ranks instead).
    const int64_t most = std::max(grid.rows, grid.cols);
    const int64_t q0 = grid.rows * grid.cols > 1 ? 4 * most : 1;
    const int64_t qmax = std::max<int64_t>(q0, (n + multiple - 1) / multiple);
    const auto refuse = [&](int64_t p, const std::string& what) {
      const int64_t q = (n + p - 1) / p;
      return RuntimeError(
          "n = " + std::to_string(n) + " on a " + std::to_string(grid.rows) + " x " +
          std::to_string(grid.cols) + " process grid: " + what + " " +
          std::to_string(grid_resident_panels(q, grid)) + " panels of P = " + std::to_string(p) +
          " (" + format_bytes(static_cast<double>(bytes(p) * grid_resident_panels(q, grid))) +
          ") per rank do not fit " + format_bytes(static_cast<double>(memory)) + " of device memory" +
          (bytes(p) > max_alloc ? " (one panel exceeds the " + format_bytes(static_cast<double>(max_alloc)) +
                                      " a single allocation may take)"
                                : std::string()) +
          "; use more ranks or a smaller --panel");
    };
    if (panel > 0) {
      const int64_t p = round_up(panel, multiple);
      if (!fits(Placement::resident, (n + p - 1) / p, p)) throw refuse(p, "--panel gives");
      return finish(Placement::resident, (n + p - 1) / p, p);
    }
    for (int64_t q = q0; q <= std::max<int64_t>(q0, std::min<int64_t>(qmax, 1024)); ++q) {
      const int64_t p = round_up((n + q - 1) / q, multiple);
      if (fits(Placement::resident, (n + p - 1) / p, p))
        return finish(Placement::resident, (n + p - 1) / p, p);
    }
    throw refuse(round_up((n + qmax - 1) / qmax, multiple), "even the smallest panels give");
  }
  if (panel > 0) {
    const int64_t p = round_up(panel, multiple);
    const int64_t q = (n + p - 1) / p;
    if (fits(Placement::resident, q, p)) return finish(Placement::resident, q, p);
    if (q >= 2 && fits(Placement::out_of_core, q, p)) return finish(Placement::out_of_core, q, p);
    throw RuntimeError("n = " + std::to_string(n) + " with --panel " + std::to_string(p) + ": " +
                       std::to_string(q) + " x " + std::to_string(q) + " panels of " +
                       format_bytes(static_cast<double>(bytes(p))) + " fit neither resident (" +
                       format_bytes(static_cast<double>(bytes(p) * resident_panels(q, d))) +
                       ") nor out of core (" +
                       format_bytes(static_cast<double>(bytes(p) * ooc_panels(q))) + ") in " +
                       format_bytes(static_cast<double>(memory)) + " of device memory" +
                       (bytes(p) > max_alloc ? " (and one panel exceeds the " +
                                                   format_bytes(static_cast<double>(max_alloc)) +
                                                   " a single allocation may take)"
                                             : std::string()) +
                       "; try a smaller --panel");
  }
  // Several devices: at least 4 panel rows per device, so the owner of the pivot
  // row (which also updates the row panels) is not the others' bottleneck.
  const int64_t q0 = d > 1 ? 4 * d : 1;
  const int64_t qmax = std::max<int64_t>(q0, (n + multiple - 1) / multiple);
  for (int64_t q = q0; q <= std::min<int64_t>(qmax, 256); ++q) {
    const int64_t p = round_up((n + q - 1) / q, multiple);
    if (fits(Placement::resident, q, p)) return finish(Placement::resident, (n + p - 1) / p, p);
  }
  for (int64_t q = std::max<int64_t>(2, q0); q <= std::min<int64_t>(qmax, 256); ++q) {
    const int64_t p = round_up((n + q - 1) / q, multiple);
    const int64_t qq = (n + p - 1) / p;
    if (qq >= 2 && fits(Placement::out_of_core, qq, p)) return finish(Placement::out_of_core, qq, p);
  }
  throw RuntimeError("n = " + std::to_string(n) + " (" + format_bytes(static_cast<double>(matrix)) +
                     ") cannot run even out of core: " + format_bytes(static_cast<double>(memory)) +
                     " of device memory leaves no room for the panels it streams; give more "
                     "--device-memory or more devices");
}

namespace {

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

template <typename T>
class FwPanels {
 public:
  FwPanels(const PanelPlan& plan, const std::vector<PanelDevice*>& devs, DistMatrix<T>& d,
           Progress& progress)
      : plan_(plan), d_(d), n_(d.n()), p_(plan.p), q_(plan.q),
        pbytes_(static_cast<size_t>(plan.p) * plan.p * sizeof(T)),
        resident_(plan.placement == Placement::resident), progress_(progress),
        barrier_(static_cast<int>(devs.size())) {
    for (size_t k = 0; k < devs.size(); ++k) {
      auto ds = std::make_unique<Dev>();
      ds->dev = devs[k];
      ds->core = &devs[k]->core();
      ds->index = static_cast<int>(k);
      devs_.push_back(std::move(ds));
    }
    share_rows();
    sync_rounds_ = devs_.size() > 1 || !resident_;
    lookahead_ = devs_.size() > 1 && resident_;
  }

  std::function<void()> before_store;  // run_fw_panels'

  void run(RunStats& st) {
    for (auto& ds : devs_) ds->core->begin_solve();
    wall_.reset();
    if (devs_.size() == 1 && !resident_) {  // out of core on one device: look-ahead
      Dev& ds = *devs_[0];
      ds.core->run_guarded("panel engine on '" + ds.core->device().name + "' failed", [&] {
        run_ooc_lookahead<T>(*ds.dev, d_, p_, q_, progress_, wall_, setup_, before_store);
      });
    } else if (devs_.size() == 1) {
      device_main(*devs_[0]);
    } else {
      std::vector<std::thread> threads;
      std::vector<std::exception_ptr> errors(devs_.size());
      for (size_t k = 0; k < devs_.size(); ++k)
        threads.emplace_back([&, k] {
          try {
            device_main(*devs_[k]);
          } catch (...) {
            errors[k] = std::current_exception();
            barrier_.fail();
          }
        });
      for (auto& t : threads) t.join();
      // The first real error (others may only have been stopped by the barrier).
      std::exception_ptr first;
      for (auto& e : errors) {
        if (!e) continue;
        try {
          std::rethrow_exception(e);
        } catch (const CancelledError&) {
          if (!first) first = e;
        } catch (...) {
          first = e;
          break;
        }
      }
      if (first) std::rethrow_exception(first);
    }
    const double engine_wall = wall_.seconds();
    // Accounting: per device kernel time, transfers, bytes; the slowest device's
    // idle time is what copies (and waiting for the others) cost.
    st.placement = plan_.describe();
    st.panel = p_;
    st.devices = static_cast<int>(devs_.size());
    double max_tk = 0;
    for (auto& ds : devs_) {
      RunStats part;
      ds->core->finish(part);
      st.t_k += part.t_k;
      st.t_h += part.t_h;
      st.kernel_launches += part.kernel_launches;
      for (const auto& [k, t] : part.kernel_seconds) st.kernel_seconds[k] += t;
      const double moved = ds->core->bytes_up() + ds->core->bytes_down();
      st.bytes_moved += moved;
      max_tk = std::max(max_tk, part.t_k);
      std::ostringstream line;
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    ": %zu/%lld panel rows (weight %.2f), kernels %.3f s, transfers %.3f s, %s moved, idle %.3f s",
                    ds->rows.size(), static_cast<long long>(q_),
                    weights_[static_cast<size_t>(ds->index)] / weights_[0], part.t_k, part.t_h,
                    format_bytes(moved).c_str(), std::max(0.0, engine_wall - part.t_k));
      line << ds->core->device().name << buf;
      if (setup_ >= 0) {  // of which buffers and pinned staging before the first copy
        std::snprintf(buf, sizeof buf, " (setup %.3f s)", setup_);
        line << buf;
      }
      st.device_lines.push_back(line.str());
    }
    st.copy_exposed = std::max(0.0, engine_wall - max_tk);
    // Kernel seconds summed over devices would overstate T_k of a parallel solve.
    if (devs_.size() > 1) st.t_k = max_tk;
  }

 private:
  struct Dev {
    PanelDevice* dev = nullptr;
    OpenClCore* core = nullptr;
    int index = 0;
    std::vector<int64_t> rows;                       // owned panel rows
    std::vector<std::vector<cl::Buffer>> own;        // resident: own[k][j] for rows[k]
    cl::Buffer piv, tmp, colslot[2];                 // round buffers
    std::vector<cl::Buffer> rowbuf;                  // round: row panels (r, j)
    std::vector<cl::Buffer> slot;                    // out of core: streaming slots
    std::vector<cl::Event> slot_free;                // last download from each slot
    cl::Event col_free[2];
    Stager* stager = nullptr;                        // the core's panel stager
    int64_t ahead = -1;                              // round whose phases 1-2 ran early
    // Events other queues' commands wait on, held until the round's queues are
    // drained: PoCL 3.1 has crashed (POclReleaseEvent on a worker thread) when the
    // application dropped an event a pending command still waited on.
    std::vector<cl::Event> keep;
  };

  // Panel (pi, pj) from host memory into dst, after `wait`; returns the event of
  // its last copy (packing of one staging chunk overlaps the DMA of the previous).
  cl::Event upload(Dev& ds, cl::Buffer& dst, int64_t pi, int64_t pj,
                   const std::vector<cl::Event>& wait) {
    ds.keep.insert(ds.keep.end(), wait.begin(), wait.end());
    return upload_panel(*ds.stager, OpenClCore::kUpload, dst, d_, p_, pi, pj, wait);
  }
  // Panel (pi, pj) from src back to host memory after `wait`; it reaches the
  // matrix when its staging chunks are settled (settle(), or when reused).
  cl::Event download(Dev& ds, cl::Buffer& src, int64_t pi, int64_t pj,
                     const std::vector<cl::Event>& wait) {
    if (before_store) std::call_once(stored_, before_store);
    ds.keep.insert(ds.keep.end(), wait.begin(), wait.end());
    return download_panel(*ds.stager, OpenClCore::kDownload, src, d_, p_, pi, pj, wait);
  }

  // Every download of this device has reached the matrix.
  void settle(Dev& ds) { ds.stager->settle(); }
  // Drops the held events once every queue of the device is idle.
  void release_kept(Dev& ds) {
    for (auto q : {OpenClCore::kCompute, OpenClCore::kUpload, OpenClCore::kDownload})
      ds.core->queue(q).finish();
    ds.keep.clear();
  }
  // The compute queue waits for `wait` (events of the copy queues).
  void after(Dev& ds, const std::vector<cl::Event>& wait) {
    if (wait.empty()) return;
    ds.keep.insert(ds.keep.end(), wait.begin(), wait.end());
    cl::Event marker;
    ds.core->queue(OpenClCore::kCompute).enqueueMarkerWithWaitList(&wait, &marker);
    ds.keep.push_back(marker);
  }

  cl::Buffer new_panel(Dev& ds) {
    return cl::Buffer(ds.core->context(), CL_MEM_READ_WRITE, pbytes_);
  }

  int64_t real(int64_t i) const { return std::max<int64_t>(0, std::min(p_, n_ - i * p_)); }
  int owner(int64_t i) const { return owner_[static_cast<size_t>(i)]; }
  size_t own_index(int64_t i) const { return own_index_[static_cast<size_t>(i)]; }

  // Relative speeds: OCL_SP_DEVICE_WEIGHTS ("1,3"), else equal for devices of one
  // kind (same name up to a sub-device suffix, same compute units), else a probe:
  // one (min,+) GEMM of S x S panels per device, S = min(P, 1024), timed by its
  // profiling event after a warm-up launch.
  std::vector<double> device_weights() {
    const size_t d = devs_.size();
    std::vector<double> w(d, 1.0);
    if (d == 1) return w;
    const char* e = std::getenv("OCL_SP_DEVICE_WEIGHTS");
    const bool probe = e && std::string(e) == "probe";  // tests: probe devices of one kind too
    if (e && *e && !probe) {
      std::string list = e;
      size_t k = 0, pos = 0;
      while (k < d && pos <= list.size()) {
        const size_t comma = list.find(',', pos);
        const double v = std::atof(list.substr(pos, comma - pos).c_str());
        if (v > 0) w[k] = v;
        ++k;
        if (comma == std::string::npos) break;
        pos = comma + 1;
      }
      return w;
    }
    const auto kind = [](const DeviceEntry& x) {
      return x.name.substr(0, x.name.find(" [part ")) + "/" + std::to_string(x.compute_units);
    };
    bool same = true;
    for (const auto& ds : devs_) same &= kind(ds->core->device()) == kind(devs_[0]->core->device());
    if (same && !probe) return w;
    const int64_t s = std::min<int64_t>(p_, 1024);
    for (size_t k = 0; k < d; ++k) {
      Dev& ds = *devs_[k];
      with_cl_errors("cannot probe '" + ds.core->device().name + "'", [&] {
        const size_t b = static_cast<size_t>(s * s) * sizeof(T);
        cl::Buffer a(ds.core->context(), CL_MEM_READ_WRITE, b), c(ds.core->context(), CL_MEM_READ_WRITE, b);
        const std::vector<T> inf(static_cast<size_t>(s * s), ValueTraits<T>::inf);
        ds.core->queue(OpenClCore::kCompute).enqueueWriteBuffer(a, CL_TRUE, 0, b, inf.data());
        ds.core->queue(OpenClCore::kCompute).enqueueWriteBuffer(c, CL_TRUE, 0, b, inf.data());
        ds.dev->gemm_acc(c, a, a, s, s);
        cl::Event ev = ds.dev->gemm_acc(c, a, a, s, s);
        ev.wait();
        const double t = static_cast<double>(ev.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                             ev.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-9;
        w[k] = t > 0 ? 1.0 / t : 1.0;
        ds.core->begin_solve();  // the probe is not part of the solve's accounting
      });
    }
    return w;
  }

  // Panel rows to devices in proportion to their weights, interleaved (smooth
  // weighted round robin: equal weights give row i to device i mod D), never more
  // rows than a device's memory holds (plan.max_rows).
  void share_rows() {
    const size_t d = devs_.size();
    weights_ = device_weights();
    double total = 0;
    for (double x : weights_) total += x;
    std::vector<double> credit(d, 0.0);
    owner_.assign(static_cast<size_t>(q_), 0);
    own_index_.assign(static_cast<size_t>(q_), 0);
    for (int64_t i = 0; i < q_; ++i) {
      size_t best = d;
      for (size_t k = 0; k < d; ++k) {
        credit[k] += weights_[k];
        const int64_t cap = k < plan_.max_rows.size() ? plan_.max_rows[k] : q_;
        if (static_cast<int64_t>(devs_[k]->rows.size()) >= cap) continue;
        if (best == d || credit[k] > credit[best]) best = k;
      }
      if (best == d) best = static_cast<size_t>(i) % d;  // cannot happen with a valid plan
      credit[best] -= total;
      owner_[static_cast<size_t>(i)] = static_cast<int>(best);
      own_index_[static_cast<size_t>(i)] = devs_[best]->rows.size();
      devs_[best]->rows.push_back(i);
    }
  }

  void allocate(Dev& ds) {
    with_cl_errors("cannot allocate the panels on '" + ds.core->device().name + "'", [&] {
      ds.stager = &panel_stager(*ds.core, p_, sizeof(T));
      ds.tmp = new_panel(ds);
      ds.rowbuf.resize(static_cast<size_t>(q_));
      if (resident_) {
        for (size_t k = 0; k < ds.rows.size(); ++k) {
          std::vector<cl::Buffer> row;
          for (int64_t j = 0; j < q_; ++j) row.push_back(new_panel(ds));
          ds.own.push_back(std::move(row));
        }
        if (devs_.size() > 1) {
          ds.piv = new_panel(ds);
          for (int64_t j = 0; j < q_; ++j) ds.rowbuf[static_cast<size_t>(j)] = new_panel(ds);
        }
      } else {
        ds.piv = new_panel(ds);
        for (int64_t j = 0; j < q_; ++j) ds.rowbuf[static_cast<size_t>(j)] = new_panel(ds);
        ds.colslot[0] = new_panel(ds);
        ds.colslot[1] = new_panel(ds);
        for (int k = 0; k < plan_.slots; ++k) ds.slot.push_back(new_panel(ds));
        ds.slot_free.resize(ds.slot.size());
      }
    });
  }

  void device_main(Dev& ds) {
    OpenClCore& core = *ds.core;
    core.run_guarded("panel engine on '" + core.device().name + "' failed", [&] {
      allocate(ds);
      if (resident_) {
        std::vector<cl::Event> up;
        for (size_t k = 0; k < ds.rows.size(); ++k)
          for (int64_t j = 0; j < q_; ++j)
            up.push_back(upload(ds, ds.own[k][static_cast<size_t>(j)], ds.rows[k], j, {}));
        after(ds, up);
      }
      for (int64_t r = 0; r < q_; ++r) {
        throw_if_cancelled();
        if (ds.index == 0) progress_.set_round(static_cast<int>(r), static_cast<int>(q_));
        round(ds, r);
      }
      if (resident_) {
        for (size_t k = 0; k < ds.rows.size(); ++k)
          for (int64_t j = 0; j < q_; ++j)
            download(ds, ds.own[k][static_cast<size_t>(j)], ds.rows[k], j, {});
      }
      settle(ds);
      release_kept(ds);
    });
  }

  // Buffers of the round's pivot and row panels on this device.
  cl::Buffer& pivot_view(Dev& ds, int64_t r) {
    if (resident_ && owner(r) == ds.index) return ds.own[own_index(r)][static_cast<size_t>(r)];
    return ds.piv;
  }
  cl::Buffer& row_view(Dev& ds, int64_t r, int64_t j) {
    if (resident_ && owner(r) == ds.index) return ds.own[own_index(r)][static_cast<size_t>(j)];
    return ds.rowbuf[static_cast<size_t>(j)];
  }

  // Phase 1 and 2 of round r on the owner of row r: close the pivot, update the
  // row panels; with several devices or out of core, send them to host memory.
  // Returns with the downloads enqueued (settle() completes them).
  void pivot_and_row(Dev& ds, int64_t r) {
    OpenClCore& core = *ds.core;
    PanelDevice& dev = *ds.dev;
    cl::Buffer& piv = pivot_view(ds, r);
    std::vector<cl::Event> up;
    if (!resident_) up.push_back(upload(ds, piv, r, r, {}));
    for (int64_t j = 0; j < q_; ++j)
      if (j != r && !resident_) up.push_back(upload(ds, row_view(ds, r, j), r, j, {}));
    after(ds, up);
    cl::Event ev = dev.close_panel(piv, p_, real(r));
    progress_.add(1);
    for (int64_t j = 0; j < q_; ++j) {
      if (j == r) continue;
      cl::Buffer& row = row_view(ds, r, j);
      core.copy_buffer(row, ds.tmp, pbytes_, {});
      ev = dev.gemm_acc(row, piv, ds.tmp, p_, real(r), real(j));
      progress_.add(1);
    }
    core.queue(OpenClCore::kCompute).flush();
    if (sync_rounds_) {
      download(ds, piv, r, r, {ev});
      for (int64_t j = 0; j < q_; ++j)
        if (j != r) download(ds, row_view(ds, r, j), r, j, {ev});
    }
  }

  // Step 3 for panel row i (k: its index in ds.rows): the column panel, then the
  // GEMM-accumulates with the round's row panels.
  void update_row(Dev& ds, int64_t r, size_t k, size_t& stream, int& col_alt) {
    OpenClCore& core = *ds.core;
    PanelDevice& dev = *ds.dev;
    const int64_t i = ds.rows[k];
    cl::Buffer& piv = pivot_view(ds, r);
    cl::Buffer* col = nullptr;
    if (resident_) {
      col = &ds.own[k][static_cast<size_t>(r)];
    } else {
      col = &ds.colslot[col_alt];
      std::vector<cl::Event> w;
      if (ds.col_free[col_alt]()) w.push_back(ds.col_free[col_alt]);
      after(ds, {upload(ds, *col, i, r, w)});
    }
    core.copy_buffer(*col, ds.tmp, pbytes_, {});
    cl::Event ev = dev.gemm_acc(*col, ds.tmp, piv, p_, real(i), real(r));
    progress_.add(1);
    for (int64_t j = 0; j < q_; ++j) {
      if (j == r) continue;
      cl::Buffer& rowj = row_view(ds, r, j);
      if (resident_) {
        ev = dev.gemm_acc(ds.own[k][static_cast<size_t>(j)], *col, rowj, p_, real(i), real(j));
      } else {
        const size_t s = stream++ % ds.slot.size();
        std::vector<cl::Event> w;
        if (ds.slot_free[s]()) w.push_back(ds.slot_free[s]);
        after(ds, {upload(ds, ds.slot[s], i, j, w)});
        ev = dev.gemm_acc(ds.slot[s], *col, rowj, p_, real(i), real(j));
        core.queue(OpenClCore::kCompute).flush();
        ds.slot_free[s] = download(ds, ds.slot[s], i, j, {ev});
      }
      progress_.add(1);
    }
    core.queue(OpenClCore::kCompute).flush();
    if (!resident_) {
      ds.col_free[col_alt] = download(ds, *col, i, r, {ev});
      col_alt = 1 - col_alt;
    }
  }

  void round(Dev& ds, int64_t r) {
    OpenClCore& core = *ds.core;
    // 1. The owner of row r: pivot and row panels (unless done ahead, below).
    if (owner(r) == ds.index && ds.ahead != r) {
      pivot_and_row(ds, r);
      if (sync_rounds_) settle(ds);
    }
    if (devs_.size() > 1) barrier_.wait();
    // 2. Others fetch the pivot and row panels.
    if (owner(r) != ds.index && !ds.rows.empty()) {
      std::vector<cl::Event> up;
      up.push_back(upload(ds, ds.piv, r, r, {}));
      for (int64_t j = 0; j < q_; ++j)
        if (j != r) up.push_back(upload(ds, ds.rowbuf[static_cast<size_t>(j)], r, j, {}));
      after(ds, up);
    }
    // 3. Owned panel rows. Look-ahead (several devices, resident): the owner of
    // row r + 1 updates that row first and then runs round r + 1's phases 1 and 2
    // at once, so its pivot and row panels travel while this round's GEMMs run
    // and the other devices do not wait for them.
    size_t stream = 0;
    int col_alt = 0;
    const int64_t next = r + 1;
    const bool ahead = lookahead_ && next < q_ && owner(next) == ds.index;
    if (ahead) {
      update_row(ds, r, own_index(next), stream, col_alt);
      pivot_and_row(ds, next);
      ds.ahead = next;
    }
    for (size_t k = 0; k < ds.rows.size(); ++k) {
      const int64_t i = ds.rows[k];
      if (i == r || (ahead && i == next)) continue;
      throw_if_cancelled();
      update_row(ds, r, k, stream, col_alt);
    }
    // The round's buffers are rewritten next round: wait for its kernels.
    core.queue(OpenClCore::kCompute).finish();
    if (sync_rounds_) settle(ds);
    release_kept(ds);
    if (ds.index == 0) {  // the progress line's device idle: wall time less T_k so far
      RunStats part;
      core.finish(part);
      progress_.set_idle(std::max(0.0, wall_.seconds() - part.t_k));
    }
    if (devs_.size() > 1) barrier_.wait();
  }

  const PanelPlan& plan_;
  DistMatrix<T>& d_;
  std::once_flag stored_;  // before_store has run
  const int64_t n_, p_, q_;
  const size_t pbytes_;
  const bool resident_;
  bool sync_rounds_ = true;
  bool lookahead_ = false;
  double setup_ = -1;  // out of core on one device: seconds before the first copy
  Progress& progress_;
  Stopwatch wall_;  // the engine's wall time (from run())
  Barrier barrier_;
  std::vector<std::unique_ptr<Dev>> devs_;
  std::vector<int> owner_;           // panel row -> device
  std::vector<size_t> own_index_;    // panel row -> its index in that device's rows
  std::vector<double> weights_;      // relative device speeds
};

}  // namespace

template <typename T>
void run_fw_panels(const PanelPlan& plan, const std::vector<PanelDevice*>& devices,
                   DistMatrix<T>& d, bool progress, RunStats& st,
                   const std::function<void()>& before_store) {
  const double q = static_cast<double>(plan.q);
  Progress meter(progress, q * q * q,
                 std::string("fw, ") + to_string(plan.placement) + ", P = " + std::to_string(plan.p) +
                     (plan.devices > 1 ? ", " + std::to_string(plan.devices) + " devices" : ""));
  FwPanels<T> run(plan, devices, d, meter);
  run.before_store = before_store;
  run.run(st);
  // The diagonal of the result: a negative entry means a negative cycle.
  const int64_t n = d.n();
  for (int64_t i = 0; i < n; ++i)
    if (d(i, i) < 0) throw NegativeCycleError(i);
}

template void run_fw_panels<int32_t>(const PanelPlan&, const std::vector<PanelDevice*>&,
                                     DistMatrix<int32_t>&, bool, RunStats&,
                                     const std::function<void()>&);
template void run_fw_panels<float>(const PanelPlan&, const std::vector<PanelDevice*>&,
                                   DistMatrix<float>&, bool, RunStats&,
                                   const std::function<void()>&);
template void run_fw_panels<double>(const PanelPlan&, const std::vector<PanelDevice*>&,
                                    DistMatrix<double>&, bool, RunStats&,
                                    const std::function<void()>&);
template void run_fw_panels<int64_t>(const PanelPlan&, const std::vector<PanelDevice*>&,
                                     DistMatrix<int64_t>&, bool, RunStats&,
                                     const std::function<void()>&);

}  // namespace ocl_sp::detail
