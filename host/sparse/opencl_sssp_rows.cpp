// The OpenCL multi-source engine's batches (opencl_sssp_engine.hpp): rows or row
// figures of a batch of sources on one device, the two pinned slots that keep a
// batch in flight while the host hands on the last, and the buffers of each mode.
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <thread>

#include "sparse/opencl_sssp_engine.hpp"
#include "util/env.hpp"
#include "util/errors.hpp"
#include "util/profile.hpp"
#include "util/timer.hpp"

namespace ocl_sp::detail {

template <typename T>
bool OpenClSsspEngine<T>::second_dist(Device& d) {
  if (d.mode != 0 || !d.dist_twice) return false;
  if (d.dist2()) return true;
  const Stopwatch t;
  d.dist2 = cl::Buffer(d.core->context(), CL_MEM_READ_WRITE,
                       std::max<size_t>(static_cast<size_t>(d.batch) * static_cast<size_t>(n_), 1) * sizeof(T));
  profile("sssp: a second distance buffer (rows read beside the next launch)", t.seconds());
  return true;
}

template <typename T>
bool OpenClSsspEngine<T>::slots(int64_t batch) {
  const bool several = devices_.size() > 1;
  // Several devices: rows in lanes only (the others run beside the host, run()).
  if (several && !lanes_rows_) return false;
  const uint64_t bytes = static_cast<uint64_t>(batch) * static_cast<uint64_t>(n_) * sizeof(T);
  ahead_ = nullptr;
  ahead_count_ = 0;
  ring_[0] = ring_[1] = nullptr;
  slot_tk_max_ = 0;
  int64_t smallest = 0;
  for (auto& d : devices_) {
    set_mode(d, lanes_rows_, 1, lanes_rows_);
    d.launch_first = d.next_first = -1;
    d.kernel_events.clear();
    d.slot_tk = 0;
    smallest = smallest ? std::min(smallest, d.batch) : d.batch;
  }
  if (bytes == 0 || bytes > kSlotBytes || batch > smallest) return false;
  // A launch: whole parts, what the smallest device holds.
  launch_per_ = std::max<int64_t>(batch, smallest / batch * batch);
  slot_part_ = batch;
  // Each device's slots pinned on a thread of its own (4 H200s: 321 ms one
  // device after another for 8 slots of 64 MiB).
  const auto pin = [&](Device& d) {
    settle_slots(d);
    for (auto& sl : d.slot) {
      if (sl.bytes == bytes) continue;
      release(d, sl);
      auto& q = d.core->queue(detail::OpenClCore::kCompute);
      sl.buf = cl::Buffer(d.core->context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes);
      sl.ptr = static_cast<T*>(q.enqueueMapBuffer(sl.buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
      sl.bytes = bytes;
    }
    second_dist(d);  // a source a group: slot 1's launches in a distance buffer of their own
  };
  try {  // no pinned memory to be had: run() instead
    if (several) {
      std::vector<std::exception_ptr> errors(devices_.size());
      std::vector<std::thread> threads;
      for (size_t i = 0; i < devices_.size(); ++i)
        threads.emplace_back([&, i] {
          try {
            pin(devices_[i]);
          } catch (...) {
            errors[i] = std::current_exception();
          }
        });
      for (auto& t : threads) t.join();
      for (auto& e : errors)
        if (e) std::rethrow_exception(e);
    } else {
      pin(devices_[0]);
    }
  } catch (const cl::Error&) {
    for (auto& d : devices_) {
      for (auto& sl : d.slot) release(d, sl);
      d.dist2 = cl::Buffer();
      if (d.mode == 0) {  // no second buffer: later batches whole launches (run())
        d.dist_twice = false;
        size_slot_parts(d);
      }
    }
    return false;
  }
  return true;
}

template <typename T>
void OpenClSsspEngine<T>::slot_sources(const int64_t* sources, int64_t count) {
  ahead_ = sources;
  ahead_count_ = count;
  if (devices_.size() < 2) return;
  // Launches (whole parts, at least half of what the smallest device holds) whose
  // deal loads the busiest device least: launches as large as the smallest device
  // holds dealt 100 000 sources to 4 devices as 4, 3, 3 and 3 launches (kernel
  // time 1.34x the mean on the busiest).
  const int64_t devs = static_cast<int64_t>(devices_.size()), part = std::max<int64_t>(slot_part_, 1);
  const auto loads = [&](int64_t per) {
    std::vector<int64_t> mine(static_cast<size_t>(devs), 0);
    for (int64_t first = 0, j = 0; first < count; first += per, ++j)
      mine[static_cast<size_t>(j % devs)] += std::min(per, count - first);
    return mine;
  };
  int64_t best = launch_per_, least = INT64_MAX;
  for (int64_t per = launch_per_; per >= part && 2 * per >= launch_per_; per -= part) {
    const std::vector<int64_t> mine = loads(per);
    const int64_t most = *std::max_element(mine.begin(), mine.end());
    if (most < least) {
      least = most;
      best = per;
    }
  }
  launch_per_ = best;
  if (profiling()) {
    std::cerr << "profile: sssp: rows in lanes, launches of " << launch_per_ << " sources over " << devs
              << " devices (";
    const std::vector<int64_t> mine = loads(launch_per_);
    for (size_t k = 0; k < mine.size(); ++k) std::cerr << (k ? " " : "") << mine[k];
    std::cerr << " sources)" << std::endl;
  }
  // Every device's first launch now (launch k on device k), as its next one.
  for (size_t k = 0; k < devices_.size(); ++k) {
    Device& d = devices_[k];
    const int64_t first = static_cast<int64_t>(k) * launch_per_;
    if (first >= count) break;
    d.core->run_guarded("sssp on '" + d.core->device().name + "' failed", [&] {
      d.next_first = first;
      d.next_count = std::min(launch_per_, count - first);
      enqueue_slot_launch(d, sources + first, d.next_count);
      d.core->queue(detail::OpenClCore::kCompute).flush();
    });
  }
}

template <typename T>
void OpenClSsspEngine<T>::submit(int slot, const int64_t* sources, int64_t count) {
  const size_t devs = devices_.size();
  if (devs > 1 && (!ahead_ || sources < ahead_ || sources + count > ahead_ + ahead_count_))
    throw std::logic_error("sssp: a batch on several devices' slots outside slot_sources()' list");
  // The device of the launch that holds these sources (several devices: in turn).
  Device& d = devs > 1 ? devices_[static_cast<size_t>((sources - ahead_) / launch_per_) % devs] : devices_[0];
  ring_[slot] = &d;
  Slot& sl = d.slot[slot];
  auto& core = *d.core;
  core.run_guarded("sssp on '" + core.device().name + "' failed", [&] {
    auto& q = core.queue(detail::OpenClCore::kCompute);
    sl.count = count;
    if (d.mode == 2) {
      // Rows in lanes: a launch takes d.batch sources of the list ahead (when
      // slot_sources gave it; else this batch), sssp_lanes and sssp_lanes_rows on
      // the compute queue, and each batch of it is read from d.rows on the download
      // queue. The next launch's sssp_lanes goes in right behind this one's
      // transpose, beside these reads; its transpose waits for the last of them.
      LaneSet& s = d.sets[0];
      int64_t off = -1;
      if (ahead_ && sources >= ahead_ && sources + count <= ahead_ + ahead_count_) off = sources - ahead_;
      const bool inside = off >= 0 && d.launch_first >= 0 && off >= d.launch_first &&
                          off + count <= d.launch_first + d.launch_count;
      if (!inside) {
        // A whole number of batches (d.slot_batch; the solver's, unless host
        // memory made them smaller): no batch straddles two launches.
        const int64_t per = devs > 1 ? launch_per_ : std::max<int64_t>(count, d.batch / std::max<int64_t>(count, 1) * count);
        const int64_t take = off >= 0 ? std::min(per, ahead_count_ - off) : count;
        if (!(off >= 0 && d.next_first == off && d.next_count == take)) enqueue_slot_launch(d, sources, take);
        std::vector<cl::Event> after;
        if (d.slot[1 - slot].pending) after.push_back(d.slot[1 - slot].read);
        q.enqueueNDRangeKernel(lanes_of(d).rows, cl::NullRange, cl::NDRange(lanes_rows_args(d, s, take)),
                               cl::NDRange(kLaneRowsWg), &after, &d.transposed);
        d.kernel_events.emplace_back("sssp_lanes_rows", d.transposed);
        d.launch_first = off;
        d.launch_count = take;
        d.next_first = -1;
        // This device's next launch: right after this one on one device, D
        // launches on with several.
        const int64_t next = off + (devs > 1 ? per * static_cast<int64_t>(devs) : take);
        if (off >= 0 && next < ahead_count_) {
          d.next_first = next;
          d.next_count = std::min(per, ahead_count_ - d.next_first);
          enqueue_slot_launch(d, ahead_ + d.next_first, d.next_count);
        }
      }
      const size_t row0 = off >= 0 ? static_cast<size_t>(off - d.launch_first) : 0;
      auto& dq = core.queue(detail::OpenClCore::kDownload);
      const std::vector<cl::Event> done{d.transposed};
      dq.enqueueReadBuffer(d.rows, CL_FALSE, row0 * static_cast<size_t>(n_) * sizeof(T),
                           static_cast<size_t>(count * n_) * sizeof(T), sl.ptr, &done, &sl.read);
      q.flush();
      dq.flush();
      sl.pending = true;
      return;
    }
    if (d.dist2()) {
      submit_part(d, slot, sources, count);
      return;
    }
    // One distance buffer: the launch and its read in order on one queue.
    sl.src.assign(sources, sources + count);
    sl.counts = true;
    enqueue_near_far(d, sl.src, d.dist, &sl.write, &sl.kernel, &sl.first);
    q.enqueueReadBuffer(d.dist, CL_FALSE, 0, static_cast<size_t>(count * n_) * sizeof(T), sl.ptr, nullptr,
                        &sl.read);
    q.flush();
    sl.pending = true;
  });
}

template <typename T>
void OpenClSsspEngine<T>::submit_part(Device& d, int slot, const int64_t* sources, int64_t count) {
  Slot& sl = d.slot[slot];
  const Slot& other = d.slot[1 - slot];
  auto& q = d.core->queue(detail::OpenClCore::kCompute);
  // A launch into buffer `at` goes behind the other slot's read of it (the
  // solver waited for this slot's; no other read is in flight).
  const auto launch = [&](int at, const int64_t* from, int64_t c) {
    if (other.pending && other.at == at) {
      const std::vector<cl::Event> reads{other.read};
      q.enqueueBarrierWithWaitList(&reads);
    }
    launch_ahead(d, at, from, c);
  };
  int64_t off = -1;
  if (ahead_ && sources >= ahead_ && sources + count <= ahead_ + ahead_count_) off = sources - ahead_;
  const bool inside = off >= 0 && d.launch_first >= 0 && off >= d.launch_first &&
                      off + count <= d.launch_first + d.launch_count;
  sl.counts = !inside;
  if (!inside) {
    // This part starts a launch: the one enqueued at the launch before (its
    // sources match), else one now (a whole number of parts, or this batch alone
    // outside the list).
    const int64_t take = off >= 0 ? std::max(count, std::min(launch_per_, ahead_count_ - off)) : count;
    if (!(off >= 0 && d.pre_pending && d.next_first == off && d.next_count == take))
      launch(1 - d.launch_at, sources, take);
    d.pre_pending = false;
    d.launch_at = d.pre_at;
    d.launch_kernel = d.pre_kernel;
    d.launch_first = off;
    d.launch_count = take;
    sl.kernel = d.pre_kernel;
    sl.first = d.pre_first;
    d.next_first = -1;
    const int64_t next = off + take;
    if (off >= 0 && next < ahead_count_) {
      d.next_first = next;
      d.next_count = std::min(launch_per_, ahead_count_ - next);
      launch(1 - d.launch_at, ahead_ + next, d.next_count);
    }
  }
  const size_t row = static_cast<size_t>(n_) * sizeof(T);
  const size_t row0 = off >= 0 ? static_cast<size_t>(off - d.launch_first) : 0;
  auto& dq = d.core->queue(detail::OpenClCore::kDownload);
  const std::vector<cl::Event> done{d.launch_kernel};
  sl.count = count;
  sl.at = d.launch_at;
  dq.enqueueReadBuffer(d.launch_at ? d.dist2 : d.dist, CL_FALSE, row0 * row, static_cast<size_t>(count) * row,
                       sl.ptr, &done, &sl.read);
  q.flush();
  dq.flush();
  sl.pending = true;
}

template <typename T>
void OpenClSsspEngine<T>::enqueue_slot_launch(Device& d, const int64_t* sources, int64_t count) {
  LaneSet& s = d.sets[0];
  auto& q = d.core->queue(detail::OpenClCore::kCompute);
  const int k = d.lay_at;
  d.lay_at = (d.lay_at + 1) % 3;
  lane_layout(d, sources, count, d.lay_src[k], d.lay_slot[k], d.lay_row[k]);
  q.enqueueWriteBuffer(s.src, CL_FALSE, 0, d.lay_src[k].size() * 4, d.lay_src[k].data());
  q.enqueueWriteBuffer(s.row_of, CL_FALSE, 0, d.lay_row[k].size() * 4, d.lay_row[k].data());
  const int64_t groups = lanes_args(d, s, count);
  LaneProgram& p = lanes_of(d);
  cl::Event e;
  q.enqueueNDRangeKernel(p.search, cl::NullRange, cl::NDRange(static_cast<size_t>(groups) * p.wg),
                         cl::NDRange(p.wg), nullptr, &e);
  d.kernel_events.emplace_back("sssp_lanes", e);
}

template <typename T>
void OpenClSsspEngine<T>::wait(int slot, RunStats& st) {
  Device& d = *ring_[slot];
  Slot& sl = d.slot[slot];
  d.core->run_guarded("sssp on '" + d.core->device().name + "' failed", [&] {
    sl.read.wait();
    sl.pending = false;
    if (d.mode == 2) {
      // Rows in lanes: the kernels finished by now (a launch ahead may still run).
      st.t_h += span(sl.read);
      auto& ev = d.kernel_events;
      size_t kept = 0;
      for (auto& [name, e] : ev) {
        if (e.template getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() != CL_COMPLETE) {
          ev[kept++] = {name, e};
          continue;
        }
        const double tk = span(e);
        d.slot_tk += tk;
        st.kernel_launches += 1;
        st.kernel_seconds[name] += tk;
      }
      ev.resize(kept);
      // T_k: the busiest device's kernels (their sum on one device).
      double most = 0;
      for (const auto& x : devices_) most = std::max(most, x.slot_tk);
      st.t_k += most - slot_tk_max_;
      slot_tk_max_ = most;
      st.bytes_moved += static_cast<double>(sl.count) * static_cast<double>(n_) * sizeof(T);
      return;
    }
    // A source a group: the launch's kernels counted at its first part.
    st.t_h += span(sl.read) + (sl.counts && sl.write() ? span(sl.write) : 0.0);
    if (sl.counts) {
      const double tk = span(sl.first, sl.kernel);
      st.t_k += tk;
      st.kernel_launches += 1;
      st.kernel_seconds[d.near_far_name()] += tk;
    }
    st.bytes_moved += static_cast<double>(sl.count) * (4.0 + static_cast<double>(n_) * sizeof(T));
  });
}

template <typename T>
void OpenClSsspEngine<T>::run(const int64_t* sources, int64_t count, T* out, RunStats& st) {
  for (auto& d : devices_) set_mode(d, lanes_rows_, 1, lanes_rows_);
  // Several devices, a source a group, the list known: each device's next part
  // starts before this one's rows are read (a second distance buffer each).
  bool ahead = devices_.size() > 1 && beside_ && sources >= beside_ && sources + count <= beside_ + beside_count_;
  for (auto& d : devices_) ahead = ahead && second_dist(d);
  if (ahead) {
    deal_shares(count, st, [&](Device& d, int64_t lo, int64_t hi) {
      run_rows_ahead(d, static_cast<size_t>(&d - devices_.data()), sources, count, lo, hi, out);
    });
    return;
  }
  deal(count, st, [&](Device& d, int64_t a, int64_t c) {
    run_on(d, sources + a, c, out + a * n_, false, nullptr);
  });
}

template <typename T>
void OpenClSsspEngine<T>::runs_ahead(const int64_t* sources, int64_t count, int64_t batch) {
  if (!sources && ahead_parts_ > 0 && profiling())
    std::cerr << "profile: sssp: parts whose launch started beside the rows before them: " << ahead_started_
              << " of " << ahead_parts_ << std::endl;
  ahead_parts_ = ahead_started_ = 0;
  beside_ = sources;
  beside_count_ = sources ? count : 0;
  beside_batch_ = sources ? batch : 0;
}

template <typename T>
void OpenClSsspEngine<T>::run_rows_ahead(Device& d, size_t i, const int64_t* sources, int64_t count, int64_t lo,
                                         int64_t hi, T* out) {
  auto& core = *d.core;
  core.run_guarded("sssp on '" + core.device().name + "' failed", [&] {
    for (int64_t a = lo; a < hi; a += d.batch) {
      const int64_t c = std::min(d.batch, hi - a);
      // This part: started by the part before it where its sources match.
      const std::vector<cl_int>& pre = d.pre_src[d.pre_at];
      const bool started = d.pre_pending && static_cast<int64_t>(pre.size()) == c &&
                           std::equal(pre.begin(), pre.end(), sources + a,
                                      [](cl_int x, int64_t y) { return static_cast<int64_t>(x) == y; });
      if (!started) launch_ahead(d, 1 - d.pre_at, sources + a, c);
      ahead_parts_ += 1;
      ahead_started_ += started ? 1 : 0;
      const int at = d.pre_at;
      const cl::Event kernel = d.pre_kernel, first = d.pre_first;
      d.pre_pending = false;
      // The next part: the rest of this share, else the device's share of the
      // list's next batch.
      const int64_t* next = nullptr;
      int64_t next_count = 0;
      if (a + c < hi) {
        next = sources + a + c;
        next_count = std::min(d.batch, hi - a - c);
      } else if (const int64_t after = (sources - beside_) + count; after < beside_count_) {
        const std::vector<int64_t> b = share_bounds(std::min(beside_batch_, beside_count_ - after));
        if (b[i + 1] > b[i]) {
          next = beside_ + after + b[i];
          next_count = std::min(d.batch, b[i + 1] - b[i]);
        }
      }
      if (next) launch_ahead(d, 1 - at, next, next_count);
      const size_t row = static_cast<size_t>(n_) * sizeof(T);
      const double th = core.download_rows(out + a * n_, static_cast<size_t>(c), row, at ? d.dist2 : d.dist,
                                           detail::OpenClCore::kDownload, {kernel});
      const double tk = span(first, kernel);
      d.st.t_k += tk;
      d.st.t_h += th;
      d.st.kernel_launches += 1;
      d.st.kernel_seconds[d.near_far_name()] += tk;
      d.st.bytes_moved += static_cast<double>(c) * (4.0 + static_cast<double>(row));
    }
  });
}

template <typename T>
void OpenClSsspEngine<T>::enqueue_near_far(Device& d, const std::vector<cl_int>& src, const cl::Buffer& dist,
                                           cl::Event* write, cl::Event* kernel, cl::Event* first) {
  auto& q = d.core->queue(detail::OpenClCore::kCompute);
  const auto count = static_cast<int64_t>(src.size());
  q.enqueueWriteBuffer(d.src, CL_FALSE, 0, src.size() * 4, src.data(), nullptr, write);
  if (d.renumbered) map_sources(d, count, first);
  const NearFar nf = solve_args(d, count, final_rows_, dist);
  q.enqueueNDRangeKernel(nf.kernel, cl::NullRange, cl::NDRange(src.size() * nf.wg), cl::NDRange(nf.wg), nullptr,
                         d.renumbered ? nullptr : kernel);
  if (d.renumbered)
    rows_in_order(d, count, dist, kernel);
  else
    *first = *kernel;
}

template <typename T>
void OpenClSsspEngine<T>::launch_ahead(Device& d, int at, const int64_t* sources, int64_t count) {
  std::vector<cl_int>& src = d.pre_src[at];
  // In order behind the launch before it (which read d.src); src stays until its
  // write is done (two launches on, or it is waited for here).
  if (d.pre_write[at]()) d.pre_write[at].wait();
  src.assign(sources, sources + count);
  enqueue_near_far(d, src, at ? d.dist2 : d.dist, &d.pre_write[at], &d.pre_kernel, &d.pre_first);
  d.core->queue(detail::OpenClCore::kCompute).flush();
  d.pre_at = at;
  d.pre_pending = true;
}

template <typename T>
void OpenClSsspEngine<T>::run_figures(const int64_t* sources, int64_t count, bool harmonic, RowFigures* out,
                 RunStats& st) {
  for (auto& d : devices_) set_mode(d, lanes_rows_);
  deal(count, st, [&](Device& d, int64_t a, int64_t c) {
    run_on(d, sources + a, c, nullptr, harmonic, out + a);
  });
}

// A batch left in flight (an exception in the solver) finishes before the
// device's buffers or slots are used again.
template <typename T>
void OpenClSsspEngine<T>::settle_slots(Device& d) {
  for (auto& sl : d.slot)
    if (sl.pending) {
      sl.read.wait();
      sl.pending = false;
    }
  if (d.pre_pending) {
    d.pre_kernel.wait();
    d.pre_pending = false;
  }
}

template <typename T>
void OpenClSsspEngine<T>::release(Device& d, Slot& sl) {
  if (sl.ptr) d.core->queue(detail::OpenClCore::kCompute).enqueueUnmapMemObject(sl.buf, sl.ptr);
  sl = Slot();
}

template <typename T>
typename OpenClSsspEngine<T>::NearFar OpenClSsspEngine<T>::solve_args(Device& d, int64_t count, bool final,
                                                                               const cl::Buffer& dist) {
  // Renumbered searches in groups of their own size where the plan gave one.
  const bool order = d.renumbered && d.order_wg;
  const size_t wg = order ? d.order_wg : static_cast<size_t>(d.t.at("WG"));
  if (d.one_scratch()) {
    // sssp_near_far, its row in __local memory (one more argument: its bytes)
    // where the prepared graph takes it.
    cl::Kernel& k = d.local_row ? d.kernel_local : order ? d.order_kernel : d.kernel;
    set_args(k, static_cast<cl_int>(n_), d.off, d.col, d.w, d.src, static_cast<cl_int>(count), d.delta,
             static_cast<cl_int>(d.vw_log), dist, d.scratch[0], out_inf(final));
    if (d.local_row) k.setArg(11, cl::Local(static_cast<size_t>(n_) * sizeof(T)));
    return {k, wg};
  }
  cl::Kernel& k = order ? d.order_kernel_bufs : d.kernel_bufs;
  set_args(k, static_cast<cl_int>(n_), d.off, d.col, d.w, d.src, static_cast<cl_int>(count), d.delta,
           static_cast<cl_int>(d.vw_log), dist, lane_buf(d.scratch, 0), lane_buf(d.scratch, 1),
           lane_buf(d.scratch, 2), lane_buf(d.scratch, 3), static_cast<cl_int>(d.source_per_buf), out_inf(final));
  return {k, wg};
}

// The device's distance and queue buffers sized for one source a group (lanes
// false) or a lanes program's sources a group in `sets` lane sets, each a launch
// of up to its groups (the sets share the memory that fits); d.batch follows.
// Buffers of the other mode go first (device memory holds one set).
template <typename T>
int64_t OpenClSsspEngine<T>::mode_batch(const Device& d, bool lanes, size_t sets, bool rows, int* program,
                                        int64_t* groups) const {
  rows = rows && lanes;
  const int on = rows && d.rows_own ? 1 : 0;
  const LaneProgram& p = d.prog[on];
  if (p.groups_max < static_cast<int64_t>(sets)) sets = 1;  // room for one group: one set
  const int64_t lane_groups =
      rows ? std::max<int64_t>(1, p.groups_rows)
           : std::max<int64_t>(1, std::min(p.groups, p.groups_max / static_cast<int64_t>(sets)));
  if (program) *program = on;
  if (groups) *groups = lane_groups;
  return lanes ? p.lanes * lane_groups : d.batch_sources;
}

template <typename T>
void OpenClSsspEngine<T>::set_mode(Device& d, bool lanes, size_t sets, bool rows) {
  if (lanes && d.renumbered) {  // lanes (--stats of floats, for instance) take the graph as given
    RunStats st;
    upload_graph(d, *graph_, false, st);
  }
  rows = rows && lanes;
  const int on = rows && d.rows_own ? 1 : 0;
  const LaneProgram& p = d.prog[on];
  if (p.groups_max < static_cast<int64_t>(sets)) sets = 1;  // room for one group: one set
  const int mode = rows ? 2 : static_cast<int>(lanes);
  if (d.mode == mode && (!lanes || (d.sets.size() == sets && d.on == on))) return;
  settle_slots(d);
  auto& core = *d.core;
  d.dist = d.dist2 = cl::Buffer();
  d.sets.clear();
  d.scratch.clear();
  d.fig = cl::Buffer();
  d.rows = cl::Buffer();
  d.mode = -1;
  d.on = on;
  int64_t lane_groups = 1;
  d.batch = mode_batch(d, lanes, sets, rows, nullptr, &lane_groups);
  const size_t b = static_cast<size_t>(d.batch), un = static_cast<size_t>(n_);
  const size_t groups = static_cast<size_t>(lane_groups);
  core.run_guarded("sssp: cannot allocate the batch buffers on '" + core.device().name + "'", [&] {
    const cl::Context& ctx = core.context();
    if (lanes) {
      const size_t group_bytes = static_cast<size_t>(p.lanes) * un * sizeof(T);
      const size_t scratch_bytes = un * 4 * kSsspScratchRows;
      uint64_t per_buf = std::min<uint64_t>(groups, d.max_alloc / p.buffer_unit);
      // OCL_SP_LANE_GROUPS_PER_BUFFER=K: at most K groups a buffer (tests of the
      // buffers' seams on devices whose largest allocation is roomy).
      if (const int k = env_int("OCL_SP_LANE_GROUPS_PER_BUFFER", 0, 1, INT_MAX))
        per_buf = std::min<uint64_t>(per_buf, static_cast<uint64_t>(k));
      per_buf = std::max<uint64_t>({per_buf, 1, (groups + kSsspLaneBuffers - 1) / kSsspLaneBuffers});
      d.per_buf = static_cast<int>(per_buf);
      d.sets.resize(sets);
      for (auto& s : d.sets) {
        for (size_t g = 0; g < groups; g += static_cast<size_t>(d.per_buf)) {
          const size_t here = std::min(groups - g, static_cast<size_t>(d.per_buf));
          s.dist.emplace_back(ctx, CL_MEM_READ_WRITE, here * group_bytes);
          s.scratch.emplace_back(ctx, CL_MEM_READ_WRITE, here * scratch_bytes);
        }
        s.src = cl::Buffer(ctx, CL_MEM_READ_ONLY, b * 4);
        s.slot_of = cl::Buffer(ctx, CL_MEM_READ_ONLY, b * 4);
        if (rows) s.row_of = cl::Buffer(ctx, CL_MEM_READ_ONLY, b * 4);
        if (reduces_) s.fig = cl::Buffer(ctx, CL_MEM_READ_WRITE, b * sizeof(RowFigures));
      }
      if (rows) d.rows = cl::Buffer(ctx, CL_MEM_READ_WRITE, b * un * sizeof(T));
      d.launch_first = d.next_first = -1;
    } else {
      d.dist = cl::Buffer(ctx, CL_MEM_READ_WRITE, std::max<size_t>(b * un, 1) * sizeof(T));
      // The queues in up to kSsspLaneBuffers buffers (the plan's batch fits them):
      // at n = 2^24 a source's are 400 MB, and one buffer of an H100 (20 GB) would
      // hold 50 of the ~130 sources its memory holds.
      const uint64_t queues = std::max<uint64_t>(un * 4 * kSsspScratchRows, 1);
      uint64_t per_buf = std::min<uint64_t>(b, d.max_alloc / queues);
      // OCL_SP_SOURCES_PER_BUFFER=K: at most K sources a buffer (tests of the
      // buffers' seams on devices whose largest allocation is roomy).
      if (const int k = env_int("OCL_SP_SOURCES_PER_BUFFER", 0, 1, INT_MAX))
        per_buf = std::min<uint64_t>(per_buf, static_cast<uint64_t>(k));
      per_buf = std::max<uint64_t>({per_buf, 1, (b + kSsspLaneBuffers - 1) / kSsspLaneBuffers});
      d.source_per_buf = static_cast<int>(per_buf);
      const size_t sources = std::max<size_t>(b, 1);
      for (size_t s = 0; s < sources; s += per_buf)
        d.scratch.emplace_back(ctx, CL_MEM_READ_WRITE, std::min<size_t>(sources - s, per_buf) * queues);
      if (reduces_) d.fig = cl::Buffer(ctx, CL_MEM_READ_WRITE, b * sizeof(RowFigures));
    }
  });
  d.mode = mode;
  size_slot_parts(d);
}

// Through the slots a launch comes back in parts of at most lane_part_bytes()
// (pinning is slow, ~1.3 GB/s on NVIDIA), equal ones: a launch through the slots
// takes a whole number of parts (submit), so no part straddles two. Rows of few
// sources take smaller parts (sssp_slot_part_bytes). OCL_SP_LANE_SLOT_SOURCES=K:
// at most K sources a part (tests). Rows in lanes, and a source a group's
// launches on one device with two distance buffers (in_parts).
template <typename T>
void OpenClSsspEngine<T>::size_slot_parts(Device& d) const {
  d.slot_batch = 0;
  if (d.mode != 2 && !in_parts(d)) return;
  const uint64_t row = static_cast<uint64_t>(n_) * sizeof(T), b = static_cast<uint64_t>(d.batch);
  uint64_t part = lane_part_bytes();
  if (sources_ > 0 && !lane_part_mib_) part = sssp_slot_part_bytes(static_cast<uint64_t>(sources_) * row, part);
  const uint64_t parts = std::max<uint64_t>(1, (b * row + part - 1) / part);
  d.slot_batch = static_cast<int64_t>(std::max<uint64_t>(1, b / parts));
  if (const int k = env_int("OCL_SP_LANE_SLOT_SOURCES", 0, 1, INT_MAX))
    d.slot_batch = std::min<int64_t>(d.slot_batch, k);
}

// One batch on one device: its rows into `out`, or (out null) their figures.
template <typename T>
void OpenClSsspEngine<T>::run_on(Device& d, const int64_t* sources, int64_t count, T* out, bool harmonic, RowFigures* fig) {
  auto& core = *d.core;
  settle_slots(d);
  core.run_guarded("sssp on '" + core.device().name + "' failed", [&] {
    core.begin_solve();
    const auto q = detail::OpenClCore::kCompute;
    double bytes = 4.0 * static_cast<double>(count);
    if (d.mode >= 1) {
      LaneSet& s = d.sets[0];
      enqueue_lanes(d, s, sources, count, !out, harmonic, q);
      if (out) {
        // The rows in source order on the device (sssp_lanes_rows), read back as
        // a source a group's are.
        core.write(s.row_of, 0, s.row_host.size() * 4, s.row_host.data(), false);
        core.launch(lanes_of(d).rows, cl::NDRange(lanes_rows_args(d, s, count)), cl::NDRange(kLaneRowsWg));
        core.download_rows(out, static_cast<size_t>(count), static_cast<size_t>(n_) * sizeof(T), d.rows);
        bytes += static_cast<double>(count) * static_cast<double>(n_) * sizeof(T);
      } else {
        s.to = fig;
        read_lane_figures(d, s, q);
        bytes += static_cast<double>(count) * sizeof(RowFigures);
        collect_lanes(d, s);
      }
    } else {
      std::vector<cl_int> src(sources, sources + count);
      core.write(d.src, 0, src.size() * 4, src.data(), false);
      if (d.renumbered) map_sources(d, count, nullptr);
      const NearFar nf = solve_args(d, count, out && final_rows_, d.dist);
      core.launch(nf.kernel, cl::NDRange(static_cast<size_t>(count) * nf.wg), cl::NDRange(nf.wg));
      if (d.renumbered) rows_in_order(d, count, d.dist, nullptr);
      if (out) {
        core.download_rows(out, static_cast<size_t>(count), static_cast<size_t>(n_) * sizeof(T), d.dist);
        bytes += static_cast<double>(count) * static_cast<double>(n_) * sizeof(T);
      } else {
        const size_t fwg = std::min<size_t>(static_cast<size_t>(d.t.at("WG")), 256);  // sssp_figures.cl FIG_WG
        set_args(d.figures, static_cast<cl_int>(n_), static_cast<cl_int>(count), d.dist,
                 static_cast<cl_int>(harmonic), d.fig);
        core.launch(d.figures, cl::NDRange(static_cast<size_t>(count) * fwg), cl::NDRange(fwg));
        core.read(d.fig, 0, static_cast<size_t>(count) * sizeof(RowFigures), fig);
        bytes += static_cast<double>(count) * sizeof(RowFigures);
      }
    }
    account(d, bytes);
  });
}

// Waits for the device's queues and adds what ran since begin_solve() to d.st.
template <typename T>
void OpenClSsspEngine<T>::account(Device& d, double bytes) {
  RunStats st;
  d.core->finish(st);
  d.st.t_k += st.t_k;
  d.st.t_h += st.t_h;
  d.st.kernel_launches += st.kernel_launches;
  d.st.bytes_moved += bytes;
  for (const auto& [k, v] : st.kernel_seconds) d.st.kernel_seconds[k] += v;
}

template class OpenClSsspEngine<int32_t>;
template class OpenClSsspEngine<float>;
template class OpenClSsspEngine<double>;
template class OpenClSsspEngine<int64_t>;

}  // namespace ocl_sp::detail
