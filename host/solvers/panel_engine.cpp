// The panel engine (see panel_engine.hpp; the plan: panel_plan.cpp). Round r of
// the outer blocked FW over a q x q grid of P x P panels, with the devices owning
// panel rows block-cyclically (row i belongs to device i mod D, as seed 001
// splits tile rows between GPUs):
//  1. the owner of row r closes the pivot panel D[r][r] and updates the row panels
//     D[r][j] = D*[r][r] (x) D[r][j] (through a copy: a panel is never both an
//     operand and the output of one launch);
//  2. with several devices or out of core, the pivot and row panels go to host
//     memory and from there to every other device (they stay on the device for
//     the whole round: "pivot row/column panels kept resident");
//  3. every device, for each panel row i it owns: column panel
//     D[i][r] = D[i][r] (x) D*[r][r], then D[i][j] = min(D[i][j], D[i][r] (x) D[r][j]).
// Resident panels keep their own device buffers for the whole solve; several
// devices resident run pipelined rounds (device_pipelined): round r + 1's pivot
// and row panels are made first by their owner and travel, panel by panel, into
// the others' receive sets of that round's parity while round r's GEMMs run, with
// no drain or barrier between rounds. Out of core, panel (i, j) of step 3 streams
// through a few device slots: upload (own queue), GEMM (compute queue), download
// (own queue), chained by events so copies in both directions overlap with the
// kernels; on one device the rounds run with look-ahead and without drains
// (panel_ooc.hpp), on several in step (round()).
#include "solvers/panel_engine.hpp"
#include "solvers/panel_ooc.hpp"
#include "solvers/panel_sync.hpp"

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

namespace {

template <typename T>
class FwPanels {
 public:
  FwPanels(const PanelPlan& plan, const std::vector<PanelDevice*>& devs, DistMatrix<T>& d,
           Progress& progress)
      : plan_(plan), d_(d), n_(d.n()), p_(plan.p), q_(plan.q),
        pbytes_(static_cast<size_t>(plan.p) * plan.p * sizeof(T)),
        resident_(plan.placement == Placement::resident), progress_(progress),
        barrier_(static_cast<int>(devs.size())), board_(plan.q) {
    for (size_t k = 0; k < devs.size(); ++k) {
      auto ds = std::make_unique<Dev>();
      ds->dev = devs[k];
      ds->core = &devs[k]->core();
      ds->index = static_cast<int>(k);
      devs_.push_back(std::move(ds));
    }
    share_rows();
    sync_rounds_ = devs_.size() > 1 || !resident_;
    pipelined_ = devs_.size() > 1 && resident_;
    for (const auto& ds : devs_) readers_ += ds->rows.empty() ? 0 : 1;
    readers_ = std::max(0, readers_ - 1);  // every device with rows but the owner
    direct_ = pipelined_;
    for (const auto& ds : devs_) direct_ = direct_ && ds->core->context()() == devs_[0]->core->context()();
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
            board_.fail();
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
    st.placement = plan_.describe() + (direct_ ? ", panels device to device (one context)" : "");
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
    // Several devices, resident (pipelined rounds): the pivot and row panels of
    // round r received into recv[r % 2] (recv[.][r]: the pivot), free again once
    // recv_free[r % 2] (the last GEMM of the round that read them) completed;
    // ready[j]: the upload of the next round's panel j, waited for at its first use;
    // sent[s]: the downloads of row s this device sent (row s is rewritten from
    // round s + 1 on).
    std::vector<cl::Buffer> recv[2];
    cl::Event recv_free[2];
    std::vector<cl::Event> ready;
    std::vector<std::vector<cl::Event>> sent;
    // own row k: its initial upload (waited for at its first use), its last GEMM.
    std::vector<cl::Event> row_up, row_last;
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

  // Panel rows to devices in proportion to their speeds (share_panel_rows).
  void share_rows() {
    std::vector<PanelDevice*> devs;
    for (const auto& ds : devs_) devs.push_back(ds->dev);
    weights_ = panel_device_weights<T>(devs, p_);
    owner_ = share_panel_rows(weights_, plan_.max_rows, q_);
    own_index_.assign(static_cast<size_t>(q_), 0);
    for (int64_t i = 0; i < q_; ++i) {
      auto& rows = devs_[static_cast<size_t>(owner_[static_cast<size_t>(i)])]->rows;
      own_index_[static_cast<size_t>(i)] = rows.size();
      rows.push_back(i);
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
        if (pipelined_) {
          for (auto& set : ds.recv)
            for (int64_t j = 0; j < q_; ++j) set.push_back(new_panel(ds));
          ds.ready.resize(static_cast<size_t>(q_));
          ds.sent.resize(static_cast<size_t>(q_));
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
    if (pipelined_) return device_pipelined(ds);
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
  cl::Buffer& pivot_view(Dev& ds, int64_t r) { return row_view(ds, r, r); }
  cl::Buffer& row_view(Dev& ds, int64_t r, int64_t j) {
    if (resident_ && owner(r) == ds.index) return ds.own[own_index(r)][static_cast<size_t>(j)];
    if (pipelined_) return ds.recv[r % 2][static_cast<size_t>(j)];
    return j == r ? ds.piv : ds.rowbuf[static_cast<size_t>(j)];
  }

  // Phase 1 and 2 of round r on the owner of row r: close the pivot, update the
  // row panels; with several devices or out of core, send them to host memory.
  // Returns with the downloads enqueued (settle() completes them; pipelined
  // rounds send them later, send_row) and the event of the last kernel; made:
  // when given, made[j] is the event of the launch that finished panel (r, j).
  cl::Event pivot_and_row(Dev& ds, int64_t r, std::vector<cl::Event>* made = nullptr) {
    OpenClCore& core = *ds.core;
    PanelDevice& dev = *ds.dev;
    cl::Buffer& piv = pivot_view(ds, r);
    if (resident_ && owner(r) == ds.index) use_own(ds, own_index(r));
    std::vector<cl::Event> up;
    if (!resident_) up.push_back(upload(ds, piv, r, r, {}));
    for (int64_t j = 0; j < q_; ++j)
      if (j != r && !resident_) up.push_back(upload(ds, row_view(ds, r, j), r, j, {}));
    after(ds, up);
    if (made) made->assign(static_cast<size_t>(q_), cl::Event());
    cl::Event ev = dev.close_panel(piv, p_, real(r));
    if (made) (*made)[static_cast<size_t>(r)] = ev;
    progress_.add(1);
    for (int64_t j = 0; j < q_; ++j) {
      if (j == r) continue;
      cl::Buffer& row = row_view(ds, r, j);
      core.copy_buffer(row, ds.tmp, pbytes_, {});
      ev = dev.gemm_acc(row, piv, ds.tmp, p_, real(r), real(j));
      if (made) (*made)[static_cast<size_t>(j)] = ev;
      progress_.add(1);
    }
    core.queue(OpenClCore::kCompute).flush();
    if (sync_rounds_ && !pipelined_) {
      download(ds, piv, r, r, {ev});
      for (int64_t j = 0; j < q_; ++j)
        if (j != r) download(ds, row_view(ds, r, j), r, j, {ev});
    }
    return ev;
  }

  // Step 3 for panel row i (k: its index in ds.rows): the column panel, then the
  // GEMM-accumulates with the round's row panels.
  cl::Event update_row(Dev& ds, int64_t r, size_t k, size_t& stream, int& col_alt) {
    OpenClCore& core = *ds.core;
    PanelDevice& dev = *ds.dev;
    const int64_t i = ds.rows[k];
    cl::Buffer& piv = pivot_view(ds, r);
    cl::Buffer* col = nullptr;
    use_received(ds, r);
    use_own(ds, k);
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
      use_received(ds, j);
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
    return ev;
  }

  // Several devices, resident: rounds without drains or barriers. The owner of
  // row r + 1 updates that row first in round r, closes round r + 1's pivot and
  // updates its row panels, queues the rest of round r and only then queues the
  // downloads of those panels (download queue, each after the launch that
  // finished it) into host memory, posting each on the board as it lands; every
  // other device, its round r queued, uploads each posted
  // panel (upload queue) into its receive set of parity r + 1, after the last
  // GEMM of round r - 1 that read that set; its compute queue waits for each
  // upload at the panel's first use. So the hand-over of round r + 1 runs
  // beside round r's GEMMs, and the devices keep in step only through it.
  void device_pipelined(Dev& ds) {
    OpenClCore& core = *ds.core;
    core.run_guarded("panel engine on '" + core.device().name + "' failed", [&] {
      allocate(ds);
      // Owned rows go up in order, each waited for where it is first used: the
      // first one, then row 0 is sent (by its owner, whose first row it is) or
      // received, then the others, so round 0 starts while they travel.
      ds.row_up.resize(ds.rows.size());
      ds.row_last.resize(ds.rows.size());
      const auto upload_rows = [&](size_t k0, size_t k1) {
        for (size_t k = k0; k < k1; ++k)
          for (int64_t j = 0; j < q_; ++j)
            ds.row_up[k] = upload(ds, ds.own[k][static_cast<size_t>(j)], ds.rows[k], j, {});
      };
      const size_t first = std::min<size_t>(1, ds.rows.size());
      upload_rows(0, first);
      if (owner(0) == ds.index) {
        std::vector<cl::Event> made;
        ds.row_last[0] = pivot_and_row(ds, 0, &made);
        send_row(ds, 0, made);
      } else if (!ds.rows.empty()) {
        receive_row(ds, 0);
      }
      upload_rows(first, ds.rows.size());
      for (int64_t r = 0; r < q_; ++r) {
        throw_if_cancelled();
        if (ds.index == 0) progress_.set_round(static_cast<int>(r), static_cast<int>(q_));
        round_pipelined(ds, r);
      }
      // Each owned row back to host memory after its last GEMM, once every other
      // device has read that row's round panels from there (row q - 1 is final
      // since its round and already there: sent for round q - 1; not with one
      // context, where the panels went device to device).
      for (size_t k = 0; k < ds.rows.size(); ++k) {
        const int64_t i = ds.rows[k];
        if (i == q_ - 1 && !direct_) continue;
        board_.wait_read(i, readers_);
        for (int64_t j = 0; j < q_; ++j)
          download(ds, ds.own[k][static_cast<size_t>(j)], i, j, {ds.row_last[k]});
      }
      settle(ds);
      release_kept(ds);
    });
  }

  void round_pipelined(Dev& ds, int64_t r) {
    OpenClCore& core = *ds.core;
    // Row r - 1 (if sent from here) is rewritten from this round on: after its
    // downloads, or with one context after every other device's copies of it.
    if (r > 0 && owner(r - 1) == ds.index) {
      if (direct_) {
        board_.wait_read(r - 1, readers_);
        after(ds, board_.copies(r - 1));
      } else {
        after(ds, ds.sent[static_cast<size_t>(r - 1)]);
      }
    }
    size_t stream = 0;
    int col_alt = 0;
    const int64_t next = r + 1;
    const bool ahead = next < q_ && owner(next) == ds.index;
    std::vector<cl::Event> made;  // the launches that finished row r + 1's panels
    if (ahead) {
      update_row(ds, r, own_index(next), stream, col_alt);
      ds.row_last[own_index(next)] = pivot_and_row(ds, next, &made);
    }
    for (size_t k = 0; k < ds.rows.size(); ++k) {
      const int64_t i = ds.rows[k];
      if (i == r || (ahead && i == next)) continue;
      throw_if_cancelled();
      ds.row_last[k] = update_row(ds, r, k, stream, col_alt);
    }
    // Panels received for this round not used by any GEMM (none owned but the
    // next row's) are still waited for before the set is reused.
    for (int64_t j = 0; j < q_; ++j) use_received(ds, j);
    if (owner(r) != ds.index) {
      cl::Event done;
      core.queue(OpenClCore::kCompute).enqueueMarkerWithWaitList(nullptr, &done);
      ds.keep.push_back(done);
      ds.recv_free[r % 2] = done;
    }
    core.queue(OpenClCore::kCompute).flush();
    if (ahead)
      send_row(ds, next, made);
    else if (next < q_ && !ds.rows.empty())
      receive_row(ds, next);
    if (ds.index == 0) {  // the progress line's device idle: wall time less kernels so far
      progress_.set_idle(std::max(0.0, wall_.seconds() - core.kernel_busy_now(nullptr)));
    }
  }

  // The order in which row s's panels travel: the pivot first.
  int64_t send_order(int64_t s, int64_t k) const { return k == 0 ? s : (k <= s ? k - 1 : k); }

  // Row s (its pivot and row panels, final for round s) from this device, its
  // owner, to host memory, each panel after the launch that finished it
  // (made[j]) and posted once it is there.
  void send_row(Dev& ds, int64_t s, const std::vector<cl::Event>& made) {
    if (direct_) {  // the others copy from this device's buffers after `made`
      std::vector<cl::Event> in_order;
      for (int64_t k = 0; k < q_; ++k) in_order.push_back(made[static_cast<size_t>(send_order(s, k))]);
      ds.keep.insert(ds.keep.end(), in_order.begin(), in_order.end());
      board_.post_made(s, in_order);
      return;
    }
    auto& sent = ds.sent[static_cast<size_t>(s)];
    uint64_t last = 0;
    for (int64_t k = 0; k < q_; ++k) {
      const int64_t j = send_order(s, k);
      sent.push_back(download(ds, ds.own[own_index(s)][static_cast<size_t>(j)], s, j,
                              {made[static_cast<size_t>(j)]}));
      const uint64_t ticket = ds.stager->moves();
      if (k > 0) {  // panel k - 1 lands while panel k is copied
        ds.stager->settle_through(last);
        board_.post(s, k);
      }
      last = ticket;
    }
    ds.stager->settle_through(last);
    board_.post(s, q_);
  }

  // Row s from host memory into the receive set of parity s, panel by panel as
  // its owner posts them; ready[j] for the compute queue to wait on.
  void receive_row(Dev& ds, int64_t s) {
    auto& set = ds.recv[s % 2];
    std::vector<cl::Event> w;
    if (ds.recv_free[s % 2]()) w.push_back(ds.recv_free[s % 2]);
    if (direct_) {  // device to device: each copy after the launch that made the panel
      board_.wait(s, q_);
      const std::vector<cl::Event> made = board_.made(s);
      Dev& from = *devs_[static_cast<size_t>(owner(s))];
      std::vector<cl::Event> copies;
      for (int64_t k = 0; k < q_; ++k) {
        const int64_t j = send_order(s, k);
        std::vector<cl::Event> wk = w;
        wk.push_back(made[static_cast<size_t>(k)]);
        cl::Event ev;
        ds.core->queue(OpenClCore::kUpload)
            .enqueueCopyBuffer(from.own[own_index(s)][static_cast<size_t>(j)],
                               set[static_cast<size_t>(j)], 0, 0, pbytes_, &wk, &ev);
        ds.keep.insert(ds.keep.end(), wk.begin(), wk.end());
        ds.keep.push_back(ev);
        ds.ready[static_cast<size_t>(j)] = ev;
        copies.push_back(ev);
      }
      ds.core->queue(OpenClCore::kUpload).flush();
      board_.read(s, copies);
      return;
    }
    for (int64_t k = 0; k < q_; ++k) {
      const int64_t j = send_order(s, k);
      board_.wait(s, k + 1);
      ds.ready[static_cast<size_t>(j)] = upload(ds, set[static_cast<size_t>(j)], s, j, w);
    }
    board_.read(s);  // packed from host memory: the uploads no longer read it
  }

  // The compute queue waits for owned row k's initial upload (once).
  void use_own(Dev& ds, size_t k) {
    if (k >= ds.row_up.size() || !ds.row_up[k]()) return;
    after(ds, {ds.row_up[k]});
    ds.row_up[k] = cl::Event();
  }

  // The compute queue waits for received panel j's upload (once).
  void use_received(Dev& ds, int64_t j) {
    if (!pipelined_) return;
    cl::Event& e = ds.ready[static_cast<size_t>(j)];
    if (!e()) return;
    after(ds, {e});
    e = cl::Event();
  }

  // One round of one device resident, or of several out of core: the owner's
  // pivot and row panels through host memory, drained and in step at each end.
  void round(Dev& ds, int64_t r) {
    OpenClCore& core = *ds.core;
    // 1. The owner of row r: pivot and row panels.
    if (owner(r) == ds.index) {
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
    // 3. Owned panel rows.
    size_t stream = 0;
    int col_alt = 0;
    for (size_t k = 0; k < ds.rows.size(); ++k) {
      if (ds.rows[k] == r) continue;
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
  bool pipelined_ = false;  // several devices, resident: device_pipelined()
  double setup_ = -1;  // out of core on one device: seconds before the first copy
  Progress& progress_;
  Stopwatch wall_;  // the engine's wall time (from run())
  Barrier barrier_;
  Board board_;
  int readers_ = 0;  // devices that receive each row (pipelined)
  // Pipelined, the devices in one context (share_context): panels copied device
  // to device (clEnqueueCopyBuffer on the receiver's upload queue), not through
  // host memory.
  bool direct_ = false;
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
  for (PanelDevice* dev : devices) dev->prepare_gemm(plan.p);
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
