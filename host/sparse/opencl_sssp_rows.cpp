// The OpenCL multi-source engine's batches (opencl_sssp_engine.hpp): rows or row
// figures of a batch of sources on one device, the two pinned slots that keep a
// batch in flight while the host hands on the last, and the buffers of each mode.
#include <algorithm>
#include <cstdlib>

#include "sparse/opencl_sssp_engine.hpp"
#include "util/errors.hpp"

namespace ocl_sp::detail {

template <typename T>
bool OpenClSsspEngine<T>::slots(int64_t batch) {
  if (devices_.size() != 1 || lanes_rows_) return false;
  const uint64_t bytes = static_cast<uint64_t>(batch) * static_cast<uint64_t>(n_) * sizeof(T);
  Device& d = devices_[0];
  if (bytes == 0 || bytes > kSlotBytes || batch > d.batch) return false;
  try {  // no pinned memory to be had: run() instead
    settle_slots(d);
    for (auto& sl : d.slot) {
      if (sl.bytes == bytes) continue;
      release(d, sl);
      auto& q = d.core->queue(detail::OpenClCore::kCompute);
      sl.buf = cl::Buffer(d.core->context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes);
      sl.ptr = static_cast<T*>(q.enqueueMapBuffer(sl.buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
      sl.bytes = bytes;
    }
  } catch (const cl::Error&) {
    for (auto& sl : d.slot) release(d, sl);
    return false;
  }
  return true;
}

template <typename T>
void OpenClSsspEngine<T>::submit(int slot, const int64_t* sources, int64_t count) {
  Device& d = devices_[0];
  Slot& sl = d.slot[slot];
  auto& core = *d.core;
  core.run_guarded("sssp on '" + core.device().name + "' failed", [&] {
    auto& q = core.queue(detail::OpenClCore::kCompute);
    sl.src.assign(sources, sources + count);
    sl.count = count;
    q.enqueueWriteBuffer(d.src, CL_FALSE, 0, sl.src.size() * 4, sl.src.data(), nullptr, &sl.write);
    const size_t wg = solve_args(d, count);
    q.enqueueNDRangeKernel(d.kernel, cl::NullRange, cl::NDRange(static_cast<size_t>(count) * wg),
                           cl::NDRange(wg), nullptr, &sl.kernel);
    q.enqueueReadBuffer(d.dist, CL_FALSE, 0, static_cast<size_t>(count * n_) * sizeof(T), sl.ptr,
                        nullptr, &sl.read);
    q.flush();
    sl.pending = true;
  });
}

template <typename T>
void OpenClSsspEngine<T>::wait(int slot, RunStats& st) {
  Device& d = devices_[0];
  Slot& sl = d.slot[slot];
  d.core->run_guarded("sssp on '" + d.core->device().name + "' failed", [&] {
    sl.read.wait();
    sl.pending = false;
    const auto span = [](const cl::Event& e) {
      return 1e-9 * static_cast<double>(e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                        e.getProfilingInfo<CL_PROFILING_COMMAND_START>());
    };
    const double tk = span(sl.kernel), th = span(sl.read) + span(sl.write);
    st.t_k += tk;
    st.t_h += th;
    st.kernel_launches += 1;
    st.kernel_seconds["sssp_near_far"] += tk;
    st.bytes_moved += static_cast<double>(sl.count) * (4.0 + static_cast<double>(n_) * sizeof(T));
  });
}

template <typename T>
void OpenClSsspEngine<T>::run(const int64_t* sources, int64_t count, T* out, RunStats& st) {
  for (auto& d : devices_) set_mode(d, lanes_rows_);
  deal(count, st, [&](Device& d, int64_t a, int64_t c) {
    run_on(d, sources + a, c, out + a * n_, false, nullptr);
  });
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
}

template <typename T>
void OpenClSsspEngine<T>::release(Device& d, Slot& sl) {
  if (sl.ptr) d.core->queue(detail::OpenClCore::kCompute).enqueueUnmapMemObject(sl.buf, sl.ptr);
  sl = Slot();
}

// sssp_near_far's arguments for a batch of `count` sources (in d.src); returns
// its work-group size.
template <typename T>
size_t OpenClSsspEngine<T>::solve_args(Device& d, int64_t count) {
  set_args(d.kernel, static_cast<cl_int>(n_), d.off, d.col, d.w, d.src, static_cast<cl_int>(count), d.delta,
           static_cast<cl_int>(d.vw_log), d.dist, d.scratch);
  return static_cast<size_t>(d.t.at("WG"));
}

// The device's distance and queue buffers sized for one source a group (lanes
// false) or lanes_ sources a group in `sets` lane sets, each a launch of up to
// d.lane_groups groups (the sets share the memory that fits); d.batch follows.
// Buffers of the other mode go first (device memory holds one set).
template <typename T>
void OpenClSsspEngine<T>::set_mode(Device& d, bool lanes, size_t sets) {
  if (d.lane_groups_max < static_cast<int64_t>(sets)) sets = 1;  // room for one group: one set
  if (d.mode == static_cast<int>(lanes) && (!lanes || d.sets.size() == sets)) return;
  settle_slots(d);
  auto& core = *d.core;
  d.dist = cl::Buffer();
  d.sets.clear();
  d.scratch = cl::Buffer();
  d.fig = cl::Buffer();
  d.mode = -1;
  const int64_t lane_groups =
      std::max<int64_t>(1, std::min(d.lane_groups, d.lane_groups_max / static_cast<int64_t>(sets)));
  d.batch = lanes ? lanes_ * lane_groups : d.batch_sources;
  const size_t b = static_cast<size_t>(d.batch), un = static_cast<size_t>(n_);
  const size_t groups = static_cast<size_t>(lane_groups);
  core.run_guarded("sssp: cannot allocate the batch buffers on '" + core.device().name + "'", [&] {
    const cl::Context& ctx = core.context();
    if (lanes) {
      const size_t group_bytes = static_cast<size_t>(lanes_) * un * sizeof(T);
      const size_t scratch_bytes = un * 4 * kSsspScratchRows;
      uint64_t per_buf = std::min<uint64_t>(groups, d.max_alloc / d.lane_buffer_unit);
      // OCL_SP_LANE_GROUPS_PER_BUFFER=K: at most K groups a buffer (tests of the
      // buffers' seams on devices whose largest allocation is roomy).
      if (const char* e = std::getenv("OCL_SP_LANE_GROUPS_PER_BUFFER"); e && std::atoi(e) > 0)
        per_buf = std::min<uint64_t>(per_buf, static_cast<uint64_t>(std::atoi(e)));
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
        if (reduces_) s.fig = cl::Buffer(ctx, CL_MEM_READ_WRITE, b * sizeof(RowFigures));
      }
    } else {
      d.dist = cl::Buffer(ctx, CL_MEM_READ_WRITE, std::max<size_t>(b * un, 1) * sizeof(T));
      d.scratch = cl::Buffer(ctx, CL_MEM_READ_WRITE, std::max<size_t>(b * un, 1) * 4 * kSsspScratchRows);
      if (reduces_) d.fig = cl::Buffer(ctx, CL_MEM_READ_WRITE, b * sizeof(RowFigures));
    }
  });
  d.mode = static_cast<int>(lanes);
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
    if (d.mode == 1) {
      LaneSet& s = d.sets[0];
      const int64_t groups = enqueue_lanes(d, s, sources, count, !out, harmonic, q);
      if (out) {
        // Lanes side by side come back as they are and are dealt into rows here,
        // a block of vertices at a time: a group's lanes of the block stay in
        // cache while its rows take them (each value read once, not lanes times).
        const size_t ln = static_cast<size_t>(lanes_), un = static_cast<size_t>(n_);
        std::vector<T>& raw = d.lane_rows;
        if (raw.size() < static_cast<size_t>(groups) * ln * un) raw.resize(static_cast<size_t>(groups) * ln * un);
        for (int64_t g = 0; g < groups; g += d.per_buf)
          core.download_rows(raw.data() + static_cast<size_t>(g) * ln * un,
                             static_cast<size_t>(std::min<int64_t>(d.per_buf, groups - g)), un * ln * sizeof(T),
                             s.dist[static_cast<size_t>(g / d.per_buf)]);
        std::vector<int64_t> row_of(static_cast<size_t>(count));  // slots are a permutation of the rows
        for (int64_t r = 0; r < count; ++r) row_of[static_cast<size_t>(s.slot_host[static_cast<size_t>(r)])] = r;
        constexpr size_t kBlock = 1024;
        const auto blocks = static_cast<int64_t>((un + kBlock - 1) / kBlock);
#pragma omp parallel for schedule(static) if (count * n_ >= 65536)
        for (int64_t b = 0; b < blocks; ++b) {
          const size_t v0 = static_cast<size_t>(b) * kBlock, v1 = std::min(un, v0 + kBlock);
          for (size_t slot = 0; slot < static_cast<size_t>(count); ++slot) {
            const T* from = raw.data() + slot / ln * un * ln + slot % ln;
            T* to = out + static_cast<size_t>(row_of[slot]) * un;
            for (size_t v = v0; v < v1; ++v) to[v] = from[v * ln];
          }
        }
        bytes += static_cast<double>(static_cast<size_t>(groups) * ln * un) * sizeof(T);
      } else {
        s.to = fig;
        read_lane_figures(d, s, q);
        bytes += static_cast<double>(count) * sizeof(RowFigures);
        collect_lanes(d, s);
      }
    } else {
      std::vector<cl_int> src(sources, sources + count);
      core.write(d.src, 0, src.size() * 4, src.data(), false);
      const size_t wg = solve_args(d, count);
      core.launch(d.kernel, cl::NDRange(static_cast<size_t>(count) * wg), cl::NDRange(wg));
      if (out) {
        core.download_rows(out, static_cast<size_t>(count), static_cast<size_t>(n_) * sizeof(T), d.dist);
        bytes += static_cast<double>(count) * static_cast<double>(n_) * sizeof(T);
      } else {
        const size_t fwg = std::min<size_t>(static_cast<size_t>(d.t.at("WG")), 256);  // sssp.cl FIG_WG
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
