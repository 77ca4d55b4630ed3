// The OpenCL multi-source engine's lanes (opencl_sssp_engine.hpp, kernels/sssp.cl
// sssp_lanes): sources side by side in a group, their groups ordered as blocks of
// the graph (lane_order), and --stats in one pass with the column figures
// continued on the device in source order.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <numeric>

#include "sparse/lane_order.hpp"
#include "sparse/opencl_sssp_engine.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"
#include "util/parallel_copy.hpp"

namespace ocl_sp::detail {

template <typename T>
void OpenClSsspEngine<T>::run_all_figures(bool harmonic, RowFigures* rows, RowFigures* cols, RunStats& st) {
  std::vector<int64_t> all(static_cast<size_t>(n_));
  std::iota(all.begin(), all.end(), int64_t{0});
  const size_t acc_bytes = static_cast<size_t>(n_) * sizeof(RowFigures);
  for (auto& d : devices_) {
    set_mode(d, true, lane_sets_);
    d.core->run_guarded("sssp: cannot set up the column figures on '" + d.core->device().name + "'",
                        [&] {
                          d.acc = cl::Buffer(d.core->context(), CL_MEM_READ_WRITE, std::max<size_t>(acc_bytes, 1));
                          const double zero = 0;
                          d.core->queue(detail::OpenClCore::kCompute)
                              .enqueueFillBuffer(d.acc, zero, 0, std::max<size_t>(acc_bytes, 8));
                        });
  }
  if (devices_.size() > 1) {
    // Several devices: launches dealt in turn, the column sums handed on in source order.
    run_lanes_stats_in_turn(all.data(), n_, harmonic, rows, cols, st);
  } else {
    deal_shares(n_, st, [&](Device& d, int64_t lo, int64_t hi) {
      run_lanes_stats(d, all.data() + lo, hi - lo, harmonic, rows + lo);
    });
    Device& d = devices_[0];
    d.core->run_guarded("sssp: cannot read the column figures from '" + d.core->device().name + "'",
                        [&] {
                          d.core->read(d.acc, 0, acc_bytes, cols);
                          RunStats rs;
                          d.core->finish(rs);
                          st.t_h += rs.t_h;
                        });
  }
  for (auto& d : devices_) d.acc = cl::Buffer();
  st.bytes_moved += static_cast<double>(acc_bytes * devices_.size());
  st.placement = "sources side by side, " + std::to_string(lanes_) + " a group of " +
                 std::to_string(devices_[0].prog[0].wg) + " work-items" +
                 (devices_.size() > 1 ? " on " + std::to_string(devices_.size()) + " devices" : "") +
                 "; rows and columns reduced on the device" +
                 (devices_[0].sets.size() > 1 ? ", " + std::to_string(devices_[0].sets.size()) + " launches in flight"
                                              : std::string());
}

// The group order of a launch's sources (lane_order, d's scratch).
template <typename T>
void OpenClSsspEngine<T>::lane_layout(Device& d, const int64_t* sources, int64_t count, std::vector<cl_int>& src,
                                      std::vector<cl_int>& slot_of, std::vector<cl_int>& row_of) {
  std::vector<int32_t> order;
  if (!lanes_by_id_) {
    order = lane_order(graph_->off.data(), graph_->col.data(), n_, sources, count, lanes_of(d).lanes, d.order_mark);
  } else {
    order.resize(static_cast<size_t>(count));
    std::iota(order.begin(), order.end(), 0);
  }
  src.resize(static_cast<size_t>(count));
  slot_of.resize(static_cast<size_t>(count));
  row_of.resize(static_cast<size_t>(count));
  for (size_t i = 0; i < order.size(); ++i) {
    src[i] = static_cast<cl_int>(sources[order[i]]);
    slot_of[static_cast<size_t>(order[i])] = static_cast<cl_int>(i);
    row_of[i] = order[i];
  }
}

template <typename T>
int64_t OpenClSsspEngine<T>::lanes_args(Device& d, LaneSet& s, int64_t count) {
  LaneProgram& p = lanes_of(d);
  set_args(p.search, static_cast<cl_int>(n_), d.off, d.col, d.w, s.src, static_cast<cl_int>(count), d.delta_lanes,
           lane_buf(s.dist, 0), lane_buf(s.dist, 1), lane_buf(s.dist, 2), lane_buf(s.dist, 3), d.per_buf,
           lane_buf(s.scratch, 0), lane_buf(s.scratch, 1), lane_buf(s.scratch, 2), lane_buf(s.scratch, 3),
           p.pull_min ? d.pull_off : d.off, p.pull_min ? d.pull_src : d.col, p.pull_min ? d.pull_w : d.w,
           static_cast<cl_int>(p.pull_min), cl::Local(p.pull_bytes));
  return (count + p.lanes - 1) / p.lanes;
}

template <typename T>
size_t OpenClSsspEngine<T>::lanes_rows_args(Device& d, LaneSet& s, int64_t count) {
  // A work-item a (group, vertex): each group's vertices padded to whole work-groups.
  const size_t n_pad = (static_cast<size_t>(n_) + kLaneRowsWg - 1) / kLaneRowsWg * kLaneRowsWg;
  LaneProgram& p = lanes_of(d);
  const int64_t groups = (count + p.lanes - 1) / p.lanes;
  set_args(p.rows, static_cast<cl_int>(n_), static_cast<cl_int>(count), static_cast<cl_int>(n_pad),
           lane_buf(s.dist, 0), lane_buf(s.dist, 1), lane_buf(s.dist, 2), lane_buf(s.dist, 3), d.per_buf, s.row_of,
           d.rows, out_inf(final_rows_));
  return static_cast<size_t>(groups) * n_pad;
}

// A lanes launch of `count` sources into set s on queue q: their group order
// (lane_order), the sources and slots written, sssp_lanes enqueued; the row
// figures (with `figures`) after it. Returns the launch's groups.
template <typename T>
int64_t OpenClSsspEngine<T>::enqueue_lanes(Device& d, LaneSet& s, const int64_t* sources, int64_t count, bool figures,
                      bool harmonic, detail::OpenClCore::QueueId q) {
  auto& core = *d.core;
  lane_layout(d, sources, count, s.src_host, s.slot_host, s.row_host);
  core.write_async(q, s.src, s.src_host.size() * 4, s.src_host.data(), {});
  core.write_async(q, s.slot_of, s.slot_host.size() * 4, s.slot_host.data(), {});
  const int64_t groups = lanes_args(d, s, count);
  LaneProgram& p = lanes_of(d);
  core.launch_after(p.search, cl::NDRange(static_cast<size_t>(groups) * p.wg), cl::NDRange(p.wg), {}, q);
  if (figures) {
    const size_t fwg = std::min<size_t>(static_cast<size_t>(d.t.at("WG")), 256);  // sssp_figures.cl FIG_WG
    set_args(d.lanes_fig, static_cast<cl_int>(n_), static_cast<cl_int>(count), lane_buf(s.dist, 0),
             lane_buf(s.dist, 1), lane_buf(s.dist, 2), lane_buf(s.dist, 3), d.per_buf,
             static_cast<cl_int>(harmonic), s.fig);
    core.launch_after(d.lanes_fig, cl::NDRange(static_cast<size_t>(groups) * fwg), cl::NDRange(fwg), {}, q);
  }
  return groups;
}

// Set s's row figures read back (the read enqueued after its kernels) into
// s.to in source order.
template <typename T>
void OpenClSsspEngine<T>::read_lane_figures(Device& d, LaneSet& s, detail::OpenClCore::QueueId q) {
  static_assert(sizeof(RowFigures) == 4 * sizeof(double), "sssp_figures.cl writes 4 doubles a row");
  s.by_slot.resize(s.slot_host.size());
  s.read = d.core->read_async(q, s.fig, s.by_slot.size() * sizeof(RowFigures), s.by_slot.data(), {});
  s.pending = true;
}

// Set s's finished launch, if any: its row figures dealt to s.to in source
// order, its counters (lane_counters) shown.
template <typename T>
void OpenClSsspEngine<T>::collect_lanes(Device& d, LaneSet& s) {
  if (!s.pending) return;
  s.read.wait();
  s.pending = false;
  for (size_t r = 0; r < s.slot_host.size(); ++r) s.to[r] = s.by_slot[static_cast<size_t>(s.slot_host[r])];
  lane_counters(d, s);
}

// --stats, every source in lanes: launches take the device's lane sets in turn,
// set i on queue i (kCompute, kSide), so one launch's search fills the SMs the
// previous one's last groups leave idle and runs beside its figure kernels. The
// column figures still continue in source order: each launch's waits for the
// previous one's. Rows' figures to `rows`, columns' continued in d.acc.
template <typename T>
void OpenClSsspEngine<T>::run_lanes_stats(Device& d, const int64_t* sources, int64_t count, bool col_harmonic, RowFigures* rows) {
  auto& core = *d.core;
  settle_slots(d);
  core.run_guarded("sssp on '" + core.device().name + "' failed", [&] {
    core.begin_solve();
    cl::Event columns_done;
    const size_t cg = (static_cast<size_t>(n_) + kColumnWg - 1) / kColumnWg * kColumnWg;
    size_t k = 0;
    for (int64_t a = 0; a < count; a += d.batch, ++k) {
      throw_if_cancelled();
      LaneSet& s = d.sets[k % d.sets.size()];
      const auto q = k % d.sets.size() ? detail::OpenClCore::kSide : detail::OpenClCore::kCompute;
      collect_lanes(d, s);  // the launch this set held before
      const int64_t c = std::min(d.batch, count - a);
      enqueue_lanes(d, s, sources + a, c, true, false, q);
      set_args(d.lanes_col, static_cast<cl_int>(n_), static_cast<cl_int>(c), lane_buf(s.dist, 0),
               lane_buf(s.dist, 1), lane_buf(s.dist, 2), lane_buf(s.dist, 3), d.per_buf, s.slot_of,
               static_cast<cl_int>(col_harmonic), d.acc);
      std::vector<cl::Event> after;
      if (columns_done()) after.push_back(columns_done);
      columns_done = core.launch_after(d.lanes_col, cl::NDRange(cg), cl::NDRange(kColumnWg), after, q);
      s.to = rows + a;
      read_lane_figures(d, s, q);
      core.flush_all();
    }
    for (auto& s : d.sets)
      collect_lanes(d, s);
    account(d, static_cast<double>(count) * (8.0 + sizeof(RowFigures)));
  });
}

template <typename T>
void OpenClSsspEngine<T>::run_lanes_stats_in_turn(const int64_t* sources, int64_t count, bool col_harmonic,
                                                  RowFigures* rows, RowFigures* cols, RunStats& st) {
  // Launch j: sources [first[j], first[j + 1]) on device j mod D, each device's
  // own batch long; launch j's column kernel starts from the sums launch j - 1
  // left (zero for the first), and leaves its own; the last ones go to `cols`.
  const size_t nd = devices_.size();
  std::vector<int64_t> first{0};
  for (size_t j = 0; first.back() < count; ++j)
    first.push_back(std::min(count, first.back() + std::max<int64_t>(1, devices_[j % nd].batch)));
  const size_t launches = first.size() - 1;
  const size_t acc_bytes = static_cast<size_t>(n_) * sizeof(RowFigures);
  std::fill(cols, cols + n_, RowFigures{});
  // The sums travel through each device's pinned copy (its DMA at the link's
  // rate: the chain of turns is one copy each way and a column kernel a launch,
  // hundreds of launches at n = 10^6); `latest` is the copy the last turn left.
  std::vector<std::unique_ptr<detail::PinnedBuffer>> hand(nd);
  const void* latest = nullptr;
  std::mutex m;
  std::condition_variable turn_cv;
  size_t turn = 0;  // the launch whose column kernel may run next
  std::atomic<bool> failed{false};
  const size_t cg = (static_cast<size_t>(n_) + kColumnWg - 1) / kColumnWg * kColumnWg;
  deal_shares(count, st, [&](Device& d, int64_t, int64_t) {
    const size_t k = static_cast<size_t>(&d - devices_.data());
    auto& core = *d.core;
    settle_slots(d);
    try {
      core.run_guarded("sssp on '" + core.device().name + "' failed", [&] {
        core.begin_solve();
        hand[k] = std::make_unique<detail::PinnedBuffer>(core.context(), core.queue(), std::max<size_t>(acc_bytes, 1));
        // Launch j's turn: launch j - 1's column sums (`latest`, or zeros) copied
        // into this device's pinned buffer, continued by launch j's column kernel,
        // read back there and handed to launch j + 1.
        const auto take_turn = [&](size_t j, LaneSet& s, detail::OpenClCore::QueueId q) {
          const void* from = nullptr;
          {
            std::unique_lock<std::mutex> lock(m);
            turn_cv.wait(lock, [&] { return turn == j || failed.load(); });
            from = latest;
          }
          if (failed.load()) throw RuntimeError("sssp: another device failed");
          void* mine = hand[k]->data();
          if (from != mine) {
            if (from)
              parallel_copy(mine, from, acc_bytes);
            else
              std::memset(mine, 0, acc_bytes);
          }
          const int64_t a = first[j], c = first[j + 1] - a;
          core.write_async(q, d.acc, 0, acc_bytes, mine, {});
          set_args(d.lanes_col, static_cast<cl_int>(n_), static_cast<cl_int>(c), lane_buf(s.dist, 0),
                   lane_buf(s.dist, 1), lane_buf(s.dist, 2), lane_buf(s.dist, 3), d.per_buf, s.slot_of,
                   static_cast<cl_int>(col_harmonic), d.acc);
          core.launch_after(d.lanes_col, cl::NDRange(cg), cl::NDRange(kColumnWg), {}, q);
          core.read_async(q, d.acc, 0, acc_bytes, mine, {}).wait();
          {
            std::lock_guard<std::mutex> lock(m);
            latest = mine;
            turn = j + 1;
          }
          turn_cv.notify_all();
          s.to = rows + a;
          read_lane_figures(d, s, q);
          core.flush_all();
        };
        // With two lane sets the device's next search is queued before it waits
        // for its turn (the sets alternate, so the next search does not touch the
        // distances the column kernel reads); with one, a launch's turn comes
        // before the next search.
        const size_t sets = d.sets.size();
        // The device's i-th launch: lane set i mod sets, on queue i mod sets.
        const auto queue_of = [&](size_t i) {
          return i % sets ? detail::OpenClCore::kSide : detail::OpenClCore::kCompute;
        };
        size_t i = 0;  // this device's launches: j = k, k + nd, ...
        size_t waiting = launches;  // a launch queued whose turn is still to come
        for (size_t j = k; j < launches; j += nd, ++i) {
          throw_if_cancelled();
          LaneSet& s = d.sets[i % sets];
          const auto q = queue_of(i);
          if (sets == 1 && waiting < launches) take_turn(waiting, s, q), waiting = launches;
          collect_lanes(d, s);
          const int64_t a = first[j], c = first[j + 1] - a;
          enqueue_lanes(d, s, sources + a, c, true, false, q);
          core.flush_all();
          if (waiting < launches) take_turn(waiting, d.sets[(i - 1) % sets], queue_of(i - 1));
          waiting = j;
        }
        if (waiting < launches) take_turn(waiting, d.sets[(i - 1) % sets], queue_of(i - 1));
        for (auto& s : d.sets) collect_lanes(d, s);
        account(d, static_cast<double>(first.back()) / static_cast<double>(nd) * (8.0 + sizeof(RowFigures)) +
                       2.0 * static_cast<double>(acc_bytes) * static_cast<double>(i));
      });
    } catch (...) {
      failed.store(true);
      turn_cv.notify_all();
      throw;
    }
  });
  if (latest) parallel_copy(cols, latest, acc_bytes);
}

// OCL_SP_EXTRA_BUILD_OPTIONS=-DLANE_COUNTERS with OCL_SP_LANE_COUNTERS=1
// (experiments): the first and the middle group's rounds, phases, vertex
// expansions and idle work-item rounds of set s's finished launch to stderr.
template <typename T>
void OpenClSsspEngine<T>::lane_counters(Device& d, LaneSet& s) {
  const char* e = std::getenv("OCL_SP_LANE_COUNTERS");
  if (!e || *e != '1') return;
  const int lanes = lanes_of(d).lanes;
  const int64_t groups = (static_cast<int64_t>(s.slot_host.size()) + lanes - 1) / lanes;
  for (int64_t g : {int64_t{0}, groups / 2}) {
    cl_int c[4];
    d.core->read(s.scratch[static_cast<size_t>(g / d.per_buf)],
                 static_cast<size_t>(g % d.per_buf) * kSsspScratchRows * static_cast<size_t>(n_) * 4, sizeof c, c);
    std::cerr << "lanes counters: group " << g << " of " << groups << ": rounds " << c[0] << ", phases " << c[1]
              << ", expansions " << c[2] << " (" << static_cast<double>(c[2]) / static_cast<double>(n_)
              << " n), idle item-rounds " << c[3] << "\n";
  }
}

template class OpenClSsspEngine<int32_t>;
template class OpenClSsspEngine<float>;
template class OpenClSsspEngine<double>;
template class OpenClSsspEngine<int64_t>;

}  // namespace ocl_sp::detail
