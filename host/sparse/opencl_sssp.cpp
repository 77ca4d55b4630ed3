// The OpenCL engine of the multi-source solve (sssp.hpp, kernels/sssp.cl): the
// graph lives on every chosen device (one, a list, gpu:all or --split parts);
// each run() deals its sources to the devices in proportion to their batch sizes,
// one work-group per source, and reads the rows back. Tunables: WG (work-group
// size), DELTA (near-far bucket width, percent of the mean edge weight), BATCH
// (sources per launch per device; 0 = from device memory).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <numeric>
#include <thread>

#include "solvers/opencl_base.hpp"
#include "solvers/panel_engine.hpp"
#include "sparse/lane_order.hpp"
#include "sparse/sssp.hpp"
#include "sparse/sssp_plan.hpp"
#include "sparse/stats_sink.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"
#include "util/sysinfo.hpp"
#include "util/strings.hpp"
#include "util/timer.hpp"

namespace ocl_sp {
namespace {

constexpr size_t kColumnWg = 64;  // work-items a group of sssp_lanes_column_figures

template <typename T>
class OpenClSsspEngine final : public SsspEngine<T> {
  // A pinned host slot for a batch's rows (slots()), and the batch in it.
  struct Slot {
    cl::Buffer buf;
    T* ptr = nullptr;
    uint64_t bytes = 0;
    std::vector<cl_int> src;
    int64_t count = 0;
    cl::Event write, kernel, read;
    bool pending = false;
  };
  // Arguments of the kernels' probes (OpenClCore::kernel): one source on a
  // one-vertex graph.
  struct ProbeBuffers {
    cl::Buffer off, one, dist, lane, fig;
    ProbeBuffers(const cl::Context& ctx, int lanes) {
      cl_int zero[2] = {0, 0};
      off = cl::Buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero);
      one = cl::Buffer(ctx, CL_MEM_READ_WRITE, 4 * kSsspScratchRows);
      dist = cl::Buffer(ctx, CL_MEM_READ_WRITE, sizeof(T));
      lane = cl::Buffer(ctx, CL_MEM_READ_WRITE, sizeof(T) * static_cast<size_t>(lanes));
      fig = cl::Buffer(ctx, CL_MEM_READ_WRITE, sizeof(RowFigures));
    }
  };
  // Lanes mode: one launch's distances and queues (per_buf groups a buffer), its
  // sources, their lane slots and its row figures. --stats takes launches in turn
  // on two such sets (run_lanes_stats).
  struct LaneSet {
    std::vector<cl::Buffer> dist, scratch;
    cl::Buffer src, slot_of, fig;  // slot_of[r]: the lane slot (group x LANES + lane) of source r
    std::vector<cl_int> src_host, slot_host;  // what the launch's writes read
    std::vector<RowFigures> by_slot;          // its row figures as read, by lane slot
    RowFigures* to = nullptr;                 // where they go, in source order
    cl::Event read;
    bool pending = false;  // `read` enqueued, its figures not yet dealt to `to`
  };
  struct Device {
    std::unique_ptr<detail::OpenClCore> core;
    Tunables t;
    cl::Kernel kernel, figures;  // figures: sssp_row_figures (devices with fp64)
    cl::Kernel lanes, lanes_fig, lanes_col;  // sssp_lanes and its figures (with fp64)
    cl::Buffer off, col, w, src, dist, scratch, fig, acc;  // acc: column figures
    int64_t batch = 0;  // sources per launch for the prepared graph, in the current mode
    int64_t batch_sources = 0;  // the same, a group a source
    int64_t lane_groups = 0, lane_groups_max = 0;  // lanes: groups wanted a launch, and fitting
    uint64_t lane_buffer_unit = 1;  // lanes: what a buffer of per_buf groups is sized by (SsspPlan)
    int mode = -1;  // what dist/scratch are sized for: 0 a group a source, 1 lanes
    std::vector<LaneSet> sets;  // lanes mode
    int per_buf = 1;
    size_t lane_wg = 0;  // work-items of a sssp_lanes group (the prepared graph's)
    size_t lane_wg_built = 0;  // the one the solver's program has (LANE_WG)
    std::map<size_t, cl::Kernel> lanes_by_wg;  // sssp_lanes built so far, by group size
    std::string defines;  // the -D options sssp.cl was built with
    uint64_t budget = 0, max_alloc = 0;
    RunStats st;
    T delta = 1;     // near-far bucket width for the prepared graph
    T delta_lanes = 1;  // the same for sssp_lanes
    int vw_log = 0;  // log2 of the virtual warp
    Slot slot[2];
  };

 public:
  explicit OpenClSsspEngine(const SolverSpec& spec) {
    const auto entries = select_devices(spec.device, spec.split);
    const auto budgets = detail::device_budgets(entries, spec.device_memory);
    for (size_t i = 0; i < entries.size(); ++i) {
      Device d;
      d.core = std::make_unique<detail::OpenClCore>(entries[i], Algo::sssp, ValueTraits<T>::type);
      d.budget = budgets[i].memory;
      d.max_alloc = budgets[i].max_alloc;
      auto& core = *d.core;
      detail::with_cl_errors("cannot set up sssp on '" + core.device().name + "'", [&] {
        // H100 (bench/NOTES.md "sssp"): 1024 work-items per source beat 256 on
        // random, geometric and 316 x 316 grids (fewer sources resident: their
        // distance rows stay in L2), 256 wins only on small grids (13 vs 18 ms).
        const int wg = core.is_gpu() ? (core.device().max_work_group >= 1024 ? 1024 : 256) : 64;
        // Lanes (H200, bench/NOTES.md "Sources side by side"): 8 sources a group
        // of 128 work-items beat 4, 16 and 32 sources, and groups of 256-1024.
        d.t = core.resolve(spec,
                           {{"WG", wg}, {"DELTA", 0}, {"BATCH", 0}, {"VW", 0}, {"LANES", 0}, {"LANE_WG", 0}},
                           sssp_rules());
        const size_t local = static_cast<size_t>(d.t.at("WG"));
        const int lanes_param = d.t.at("LANES");
        lanes_ = lanes_param >= 4 ? lanes_param : 8;
        const int lane_wg = d.t.at("LANE_WG") > 0 ? d.t.at("LANE_WG") : core.is_gpu() ? 128 : d.t.at("WG");
        d.lane_wg = d.lane_wg_built = static_cast<size_t>(lane_wg);
        lanes_rows_ = lanes_param >= 4;
        if (lanes_param == 1) lanes_stats_ = false;
        const std::string what = "WG=" + std::to_string(local);
        core.check_group(what, {local}, 0);
        std::string defines;
        if constexpr (sizeof(T) == 8) {
          // 64-bit distances need 64-bit atomics: atom_min where the device has it,
          // else a compare-and-swap loop (kernels/sssp.cl).
          const auto& dev = core.device();
          if (!dev.has_extension("cl_khr_int64_base_atomics"))
            throw UsageError("device '" + dev.name + "' has no 64-bit atomics (extension "
                             "cl_khr_int64_base_atomics): --algo sssp cannot run in " +
                             std::string(ValueTraits<T>::name()) +
                             " there; use --algo fw or --backend openmp");
          // OCL_SP_NO_ATOM_MIN64=1: the compare-and-swap loop anyway (tests, comparisons).
          const char* no_min = std::getenv("OCL_SP_NO_ATOM_MIN64");
          if (dev.has_extension("cl_khr_int64_extended_atomics") && !(no_min && *no_min == '1'))
            defines = "-DHAVE_ATOM_MIN64";
        }
        // --stats reduces rows on the device where it has doubles (the sums).
        const bool fp64 = core.device().has_extension("cl_khr_fp64");
        if (fp64) defines += " -DHAVE_FP64";
        // sssp_lanes keeps a round's queued heads in a __local set of 2^LANE_SET ids
        // (16 KiB at 12) instead of a tag a vertex in global memory (H100, 1000 x
        // 1000 grid --stats: sssp_lanes 72.0 -> 63.0 s; bench/NOTES.md). Devices
        // with little local memory keep the tags (0). OCL_SP_LANE_SET=K: 2^K ids (0:
        // the tags; tests, experiments).
        const auto local_mem = core.device().local_mem;
        int lane_set = local_mem >= (48u << 10) ? 12 : local_mem >= (16u << 10) ? 10 : 0;
        if (const char* e = std::getenv("OCL_SP_LANE_SET"); e && *e)
          lane_set = std::clamp(std::atoi(e), 0, 14);
        if (lane_set) defines += " -DLANE_SET=" + std::to_string(lane_set);
        d.defines = defines;
        core.check_group("LANE_WG=" + std::to_string(lane_wg), {d.lane_wg}, 0);
        core.build("sssp.cl", {{"WG", d.t.at("WG")}, {"LANES", lanes_}, {"LANE_WG", lane_wg}}, defines);
        const ProbeBuffers pb(core.context(), lanes_);
        d.kernel = core.kernel("sssp_near_far", what, {local}, [&](cl::Kernel& k) {
          set_args(k, 1, pb.off, pb.one, pb.one, pb.off, 1, T(1), 0, pb.dist, pb.one);
        });
        use_lane_wg(d, d.lane_wg);
        if (fp64) {
          const size_t fig_wg = std::min<size_t>(local, 256);  // sssp.cl FIG_WG
          d.figures = core.kernel("sssp_row_figures", what, {fig_wg}, [&](cl::Kernel& k) {
            set_args(k, 1, 1, pb.dist, 1, pb.fig);
          });
          d.lanes_fig = core.kernel("sssp_lanes_row_figures", what, {fig_wg}, [&](cl::Kernel& k) {
            set_args(k, 1, 1, pb.lane, pb.lane, pb.lane, pb.lane, 1, 1, pb.fig);
          });
          d.lanes_col = core.kernel("sssp_lanes_column_figures", what, {kColumnWg}, [&](cl::Kernel& k) {
            set_args(k, 1, 1, pb.lane, pb.lane, pb.lane, pb.lane, 1, pb.one, 1, pb.fig);
          });
        } else {
          reduces_ = false;
          lanes_stats_ = false;
        }
        core.finish_info(info_, d.t);
      });
      devices_.push_back(std::move(d));
    }
    if (devices_.size() > 1) {
      info_.device = std::to_string(devices_.size()) + " devices: " + devices_[0].core->device().name;
      for (size_t i = 1; i < devices_.size(); ++i)
        info_.device += ", " + devices_[i].core->device().name;
    }
    info_.algo = to_string(Algo::sssp);
  }

  SolverInfo& info() override { return info_; }

  ~OpenClSsspEngine() override {
    for (auto& d : devices_) {
      try {
        settle_slots(d);
        for (auto& sl : d.slot) release(d, sl);
        d.core->queue(detail::OpenClCore::kCompute).finish();
      } catch (...) {  // a lost device: nothing to give back
      }
    }
  }

  void prepare(const Csr<T>& g, RunStats& st) override {
    for (auto& d : devices_) settle_slots(d);
    if (g.m() >= (int64_t{1} << 31))
      throw RuntimeError("sssp on OpenCL: " + std::to_string(g.m()) +
                         " edges; the kernel indexes edges with 32-bit ints (at most 2^31 - 1)");
    n_ = g.n;
    graph_ = &g;
    lanes_fit_ = true;
    // The bucket widths and batches per device (sssp_plan.hpp).
    SsspGraphShape shape;
    shape.n = g.n;
    shape.m = g.m();
    shape.value_bytes = sizeof(T);
    double mean = 0;
    for (T x : g.w) mean += static_cast<double>(x);
    shape.mean_weight = g.m() ? mean / static_cast<double>(g.m()) : 1;
    std::vector<cl_int> off(g.off.begin(), g.off.end());
    for (auto& d : devices_) {
      const auto& dev = d.core->device();
      SsspDeviceShape ds;
      ds.budget = d.budget;
      ds.max_alloc = d.max_alloc;
      ds.compute_units = static_cast<int64_t>(dev.compute_units);
      ds.gpu = d.core->is_gpu();
      ds.max_work_group = dev.max_work_group;
      SsspPlan p = plan_sssp(shape, ds, d.t, lanes_, d.lane_wg_built);
      // DELTA percent of the mean weight: the near-far bucket width.
      const auto width_of = [&](double pct) -> T {
        const double width = std::max(shape.mean_weight, 1e-30) * pct / 100.0;
        if constexpr (std::is_integral_v<T>)
          return static_cast<T>(
              std::min(std::max(1.0, std::round(width)), static_cast<double>(ValueTraits<T>::inf)));
        else
          return static_cast<T>(width > 0 ? width : 1.0);
      };
      d.vw_log = p.vw_log;
      if (&d == &devices_.front())  // the report's placement line shows what runs
        chosen_ = "VW " + std::to_string(1 << p.vw_log) + ", buckets " +
                  std::to_string(static_cast<int>(std::lround(p.percent))) + "% of the mean weight";
      d.delta = width_of(p.percent);
      d.delta_lanes = width_of(p.percent_lanes);
      // Lanes that do not fit: --stats takes one source a group (two passes);
      // rows asked for in lanes (LANES >= 4) are refused here.
      if (p.lane_groups_max < 1) {
        lanes_fit_ = false;
        if (lanes_rows_)
          throw RuntimeError("sssp: n = " + std::to_string(n_) + " needs " +
                             format_bytes(static_cast<double>(p.graph_bytes + p.per_group)) + " on '" + dev.name +
                             "' for one group of " + std::to_string(lanes_) + " sources (LANES), which has " +
                             format_bytes(static_cast<double>(d.budget)) +
                             " to use; use fewer LANES, LANES=1, or --device-memory");
      }
      if (p.batch_sources < 1)
        throw RuntimeError("sssp: n = " + std::to_string(n_) + " needs " +
                           std::to_string((p.graph_bytes + p.per_source) >> 20) + " MiB on '" + dev.name +
                           "' for one source, which has " + std::to_string(d.budget >> 20) +
                           " MiB to use; use --backend openmp or --device-memory");
      d.batch_sources = p.batch_sources;
      try {
        use_lane_wg(d, p.lane_wg);
      } catch (const UsageError&) {  // the larger group exceeds the kernel's limits there
        d.lanes_by_wg.erase(p.lane_wg);
        Tunables built = d.t;
        built["LANE_WG"] = static_cast<int>(d.lane_wg_built);
        p = plan_sssp(shape, ds, built, lanes_, d.lane_wg_built);
        use_lane_wg(d, d.lane_wg_built);
      }
      d.lane_groups = p.lane_groups;
      d.lane_groups_max = p.lane_groups_max;
      d.lane_buffer_unit = p.lane_buffer_unit;
      const uint64_t graph_bytes = p.graph_bytes;
      d.mode = -1;
      auto& core = *d.core;
      core.run_guarded("sssp: cannot upload the graph to '" + dev.name + "'", [&] {
        core.begin_solve();
        const cl::Context& ctx = core.context();
        d.off = cl::Buffer(ctx, CL_MEM_READ_ONLY, off.size() * 4);
        d.col = cl::Buffer(ctx, CL_MEM_READ_ONLY, std::max<size_t>(g.col.size(), 1) * 4);
        d.w = cl::Buffer(ctx, CL_MEM_READ_ONLY, std::max<size_t>(g.w.size(), 1) * sizeof(T));
        core.write(d.off, 0, off.size() * 4, off.data(), false);
        if (g.m()) {
          core.write(d.col, 0, g.col.size() * 4, g.col.data(), false);
          core.write(d.w, 0, g.w.size() * sizeof(T), g.w.data(), false);
        }
        d.src = cl::Buffer(ctx, CL_MEM_READ_ONLY, static_cast<size_t>(d.batch_sources) * 4);
        RunStats upload;
        core.finish(upload);
        st.t_h += upload.t_h;
      });
      st.bytes_moved += static_cast<double>(graph_bytes);
      set_mode(d, lanes_rows_);
    }
    st.devices = static_cast<int>(devices_.size());
    st.placement = (devices_.size() > 1
                        ? "source batches on " + std::to_string(devices_.size()) + " devices"
                        : std::string("source batches")) +
                   " (" + chosen_ + (lanes_rows_ ? ", " + std::to_string(lanes_) + " sources a group" : "") +
                   ")";
  }

  int64_t batch(int64_t) const override {
    int64_t b = 0;
    for (const auto& d : devices_) b += d.batch;
    return std::max<int64_t>(b, 1);
  }

  int host_threads() const override { return omp_get_max_threads(); }

  // Two batches in flight on one device: the rows come back into two pinned host
  // slots (mapped CL_MEM_ALLOC_HOST_PTR buffers: DMA at full speed, no staging
  // copy), one in-order queue (kernel k + 1 runs once rows k are read; their
  // device buffers are shared). At most kSlotBytes a slot, else run().
  static constexpr uint64_t kSlotBytes = uint64_t{1} << 30;
  bool slots(int64_t batch) override {
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
  void submit(int slot, const int64_t* sources, int64_t count) override {
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
  void wait(int slot, RunStats& st) override {
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
  T* slot_rows(int slot) override { return devices_[0].slot[slot].ptr; }
  void run(const int64_t* sources, int64_t count, T* out, RunStats& st) override {
    for (auto& d : devices_) set_mode(d, lanes_rows_);
    deal(count, st, [&](Device& d, int64_t a, int64_t c) {
      run_on(d, sources + a, c, out + a * n_, false, nullptr);
    });
  }

  bool reduces_rows() const override { return reduces_; }
  void run_figures(const int64_t* sources, int64_t count, bool harmonic, RowFigures* out,
                   RunStats& st) override {
    for (auto& d : devices_) set_mode(d, lanes_rows_);
    deal(count, st, [&](Device& d, int64_t a, int64_t c) {
      run_on(d, sources + a, c, nullptr, harmonic, out + a);
    });
  }

  // Every vertex a source, lanes_ side by side: each launch's row figures come
  // back, its column figures continue on the device (acc) in source order.
  bool reduces_columns() const override { return lanes_stats_ && lanes_fit_; }
  void run_all_figures(bool harmonic, RowFigures* rows, RowFigures* cols, RunStats& st) override {
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
    deal_shares(n_, st, [&](Device& d, int64_t lo, int64_t hi) {
      run_lanes_stats(d, all.data() + lo, hi - lo, harmonic, rows + lo);
    });
    // Devices took consecutive stretches of sources: their columns combine in order.
    std::vector<RowFigures> part(static_cast<size_t>(n_));
    for (size_t i = 0; i < devices_.size(); ++i) {
      Device& d = devices_[i];
      RowFigures* to = i == 0 ? cols : part.data();
      d.core->run_guarded("sssp: cannot read the column figures from '" + d.core->device().name + "'",
                          [&] {
                            d.core->read(d.acc, 0, acc_bytes, to);
                            RunStats rs;
                            d.core->finish(rs);
                            st.t_h += rs.t_h;
                          });
      if (i > 0)
        for (int64_t v = 0; v < n_; ++v) cols[v] = combine(cols[v], part[static_cast<size_t>(v)]);
      d.acc = cl::Buffer();
    }
    st.bytes_moved += static_cast<double>(acc_bytes * devices_.size());
    st.placement = "sources side by side, " + std::to_string(lanes_) + " a group of " +
                   std::to_string(devices_[0].lane_wg) + " work-items" +
                   (devices_.size() > 1 ? " on " + std::to_string(devices_.size()) + " devices" : "") +
                   "; rows and columns reduced on the device" +
                   (devices_[0].sets.size() > 1 ? ", " + std::to_string(devices_[0].sets.size()) + " launches in flight"
                                                : std::string());
  }

 private:
  // A batch left in flight (an exception in the solver) finishes before the
  // device's buffers or slots are used again.
  static void settle_slots(Device& d) {
    for (auto& sl : d.slot)
      if (sl.pending) {
        sl.read.wait();
        sl.pending = false;
      }
  }
  static void release(Device& d, Slot& sl) {
    if (sl.ptr) d.core->queue(detail::OpenClCore::kCompute).enqueueUnmapMemObject(sl.buf, sl.ptr);
    sl = Slot();
  }

  // Sources [0, count) dealt to the devices in proportion to their batches, each
  // share run in batches by `chunk(device, first, count)`, on a thread per device.
  template <typename F>
  void deal(int64_t count, RunStats& st, const F& chunk) {
    deal_shares(count, st, [&](Device& d, int64_t lo, int64_t hi) {
      for (int64_t a = lo; a < hi; a += d.batch) chunk(d, a, std::min(d.batch, hi - a));
    });
  }
  // The same with each device's whole share [lo, hi) to `share(device, lo, hi)`.
  template <typename F>
  void deal_shares(int64_t count, RunStats& st, const F& share) {
    const int64_t total = batch(n_);
    std::vector<int64_t> first(devices_.size() + 1, 0);
    for (size_t i = 0; i < devices_.size(); ++i)
      first[i + 1] = first[i] + (i + 1 == devices_.size()
                                     ? count - first[i]
                                     : std::min(count - first[i], (count * devices_[i].batch + total - 1) / total));
    std::vector<std::exception_ptr> errors(devices_.size());
    auto work = [&](size_t i) {
      try {
        share(devices_[i], first[i], first[i + 1]);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    };
    if (devices_.size() == 1) {
      work(0);
    } else {
      std::vector<std::thread> threads;
      for (size_t i = 0; i < devices_.size(); ++i) threads.emplace_back(work, i);
      for (auto& t : threads) t.join();
    }
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
    double tk = 0, th = 0;
    for (auto& d : devices_) {
      tk = std::max(tk, d.st.t_k);
      th = std::max(th, d.st.t_h);
      st.kernel_launches += d.st.kernel_launches;
      for (const auto& [k, v] : d.st.kernel_seconds) st.kernel_seconds[k] += v;
      st.bytes_moved += d.st.bytes_moved;
      d.st = RunStats();
    }
    st.t_k += tk;
    st.t_h += th;
  }

  template <typename... A>
  static void set_args(cl::Kernel& k, A&&... a) {
    cl_uint i = 0;
    (k.setArg(i++, std::forward<A>(a)), ...);
  }

  // sssp_near_far's arguments for a batch of `count` sources (in d.src); returns
  // its work-group size.
  size_t solve_args(Device& d, int64_t count) {
    set_args(d.kernel, static_cast<cl_int>(n_), d.off, d.col, d.w, d.src, static_cast<cl_int>(count), d.delta,
             static_cast<cl_int>(d.vw_log), d.dist, d.scratch);
    return static_cast<size_t>(d.t.at("WG"));
  }

  // Buffer i of a lane set's distances or queues (sssp.cl LANE_BUFFERS: unused
  // ones repeat the last).
  static const cl::Buffer& lane_buf(const std::vector<cl::Buffer>& v, size_t i) {
    return v[std::min(i, v.size() - 1)];
  }

  // A lanes launch of `count` sources into set s on queue q: their group order
  // (lane_order), the sources and slots written, sssp_lanes enqueued; the row
  // figures (with `figures`) after it. Returns the launch's groups.
  int64_t enqueue_lanes(Device& d, LaneSet& s, const int64_t* sources, int64_t count, bool figures,
                        bool harmonic, detail::OpenClCore::QueueId q) {
    auto& core = *d.core;
    std::vector<int32_t> order;
    if (!lanes_by_id_) {
      order = lane_order(graph_->off.data(), graph_->col.data(), n_, sources, count, lanes_, order_mark_);
    } else {
      order.resize(static_cast<size_t>(count));
      std::iota(order.begin(), order.end(), 0);
    }
    s.src_host.resize(static_cast<size_t>(count));
    s.slot_host.resize(static_cast<size_t>(count));
    for (size_t i = 0; i < order.size(); ++i) {
      s.src_host[i] = static_cast<cl_int>(sources[order[i]]);
      s.slot_host[static_cast<size_t>(order[i])] = static_cast<cl_int>(i);
    }
    core.write_async(q, s.src, s.src_host.size() * 4, s.src_host.data(), {});
    core.write_async(q, s.slot_of, s.slot_host.size() * 4, s.slot_host.data(), {});
    const int64_t groups = (count + lanes_ - 1) / lanes_;
    set_args(d.lanes, static_cast<cl_int>(n_), d.off, d.col, d.w, s.src, static_cast<cl_int>(count), d.delta_lanes,
             lane_buf(s.dist, 0), lane_buf(s.dist, 1), lane_buf(s.dist, 2), lane_buf(s.dist, 3), d.per_buf,
             lane_buf(s.scratch, 0), lane_buf(s.scratch, 1), lane_buf(s.scratch, 2), lane_buf(s.scratch, 3));
    core.launch_after(d.lanes, cl::NDRange(static_cast<size_t>(groups) * d.lane_wg), cl::NDRange(d.lane_wg), {}, q);
    if (figures) {
      const size_t fwg = std::min<size_t>(static_cast<size_t>(d.t.at("WG")), 256);  // sssp.cl FIG_WG
      set_args(d.lanes_fig, static_cast<cl_int>(n_), static_cast<cl_int>(count), lane_buf(s.dist, 0),
               lane_buf(s.dist, 1), lane_buf(s.dist, 2), lane_buf(s.dist, 3), d.per_buf,
               static_cast<cl_int>(harmonic), s.fig);
      core.launch_after(d.lanes_fig, cl::NDRange(static_cast<size_t>(groups) * fwg), cl::NDRange(fwg), {}, q);
    }
    return groups;
  }

  // Set s's row figures read back (the read enqueued after its kernels) into
  // s.to in source order.
  void read_lane_figures(Device& d, LaneSet& s, detail::OpenClCore::QueueId q) {
    static_assert(sizeof(RowFigures) == 4 * sizeof(double), "sssp.cl writes 4 doubles a row");
    s.by_slot.resize(s.slot_host.size());
    s.read = d.core->read_async(q, s.fig, s.by_slot.size() * sizeof(RowFigures), s.by_slot.data(), {});
    s.pending = true;
  }
  // Set s's finished launch, if any: its row figures dealt to s.to in source
  // order, its counters (lane_counters) shown.
  void collect_lanes(Device& d, LaneSet& s) {
    if (!s.pending) return;
    s.read.wait();
    s.pending = false;
    for (size_t r = 0; r < s.slot_host.size(); ++r) s.to[r] = s.by_slot[static_cast<size_t>(s.slot_host[r])];
    lane_counters(d, s);
  }

  // sssp_lanes for groups of `wg` work-items into d.lanes: the solver program's
  // (built for the resolved LANE_WG) or one built for `wg` on the first graph that
  // wants it (its own program and cache entry), kept for later graphs.
  void use_lane_wg(Device& d, size_t wg) {
    d.lane_wg = wg;
    auto& core = *d.core;
    auto& k = d.lanes_by_wg[wg];
    if (!k()) {
      const std::string what = "LANE_WG=" + std::to_string(wg);
      BuiltProgram bp;
      if (wg != d.lane_wg_built) {  // the built size was checked before its build
        core.check_group(what, {wg}, 0);
        bp = core.build_separate("sssp.cl",
                                 {{"WG", d.t.at("WG")}, {"LANES", lanes_}, {"LANE_WG", static_cast<int>(wg)}},
                                 d.defines);
      }
      const ProbeBuffers pb(core.context(), lanes_);
      k = core.kernel(
          "sssp_lanes", what, {wg},
          [&](cl::Kernel& pk) {
            set_args(pk, 1, pb.off, pb.one, pb.one, pb.off, 1, T(1), pb.lane, pb.lane, pb.lane, pb.lane, 1, pb.one,
                     pb.one, pb.one, pb.one);
          },
          bp.program() ? &bp.program : nullptr);
    }
    d.lanes = k;
  }


  // The device's distance and queue buffers sized for one source a group (lanes
  // false) or lanes_ sources a group in `sets` lane sets, each a launch of up to
  // d.lane_groups groups (the sets share the memory that fits); d.batch follows.
  // Buffers of the other mode go first (device memory holds one set).
  void set_mode(Device& d, bool lanes, size_t sets = 1) {
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
  void run_on(Device& d, const int64_t* sources, int64_t count, T* out, bool harmonic, RowFigures* fig) {
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
          // Lanes side by side come back as they are and are dealt into rows here.
          const size_t ln = static_cast<size_t>(lanes_), un = static_cast<size_t>(n_);
          std::vector<T> raw(static_cast<size_t>(groups) * ln * un);
          for (int64_t g = 0; g < groups; g += d.per_buf)
            core.download_rows(raw.data() + static_cast<size_t>(g) * ln * un,
                               static_cast<size_t>(std::min<int64_t>(d.per_buf, groups - g)), un * ln * sizeof(T),
                               s.dist[static_cast<size_t>(g / d.per_buf)]);
#pragma omp parallel for schedule(static) if (count * n_ >= 65536)
          for (int64_t r = 0; r < count; ++r) {
            const size_t slot = static_cast<size_t>(s.slot_host[static_cast<size_t>(r)]);
            const T* from = raw.data() + slot / ln * un * ln + slot % ln;
            T* to = out + static_cast<size_t>(r) * un;
            for (size_t v = 0; v < un; ++v) to[v] = from[v * ln];
          }
          bytes += static_cast<double>(raw.size()) * sizeof(T);
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

  // --stats, every source in lanes: launches take the device's lane sets in turn,
  // set i on queue i (kCompute, kSide), so one launch's search fills the SMs the
  // previous one's last groups leave idle and runs beside its figure kernels. The
  // column figures still continue in source order: each launch's waits for the
  // previous one's. Rows' figures to `rows`, columns' continued in d.acc.
  void run_lanes_stats(Device& d, const int64_t* sources, int64_t count, bool col_harmonic, RowFigures* rows) {
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

  // Waits for the device's queues and adds what ran since begin_solve() to d.st.
  static void account(Device& d, double bytes) {
    RunStats st;
    d.core->finish(st);
    d.st.t_k += st.t_k;
    d.st.t_h += st.t_h;
    d.st.kernel_launches += st.kernel_launches;
    d.st.bytes_moved += bytes;
    for (const auto& [k, v] : st.kernel_seconds) d.st.kernel_seconds[k] += v;
  }

  // OCL_SP_EXTRA_BUILD_OPTIONS=-DLANE_COUNTERS with OCL_SP_LANE_COUNTERS=1
  // (experiments): the first and the middle group's rounds, phases, vertex
  // expansions and idle work-item rounds of set s's finished launch to stderr.
  void lane_counters(Device& d, LaneSet& s) {
    const char* e = std::getenv("OCL_SP_LANE_COUNTERS");
    if (!e || *e != '1') return;
    const int64_t groups = (static_cast<int64_t>(s.slot_host.size()) + lanes_ - 1) / lanes_;
    for (int64_t g : {int64_t{0}, groups / 2}) {
      cl_int c[4];
      d.core->read(s.scratch[static_cast<size_t>(g / d.per_buf)],
                   static_cast<size_t>(g % d.per_buf) * kSsspScratchRows * static_cast<size_t>(n_) * 4, sizeof c, c);
      std::cerr << "lanes counters: group " << g << " of " << groups << ": rounds " << c[0] << ", phases " << c[1]
                << ", expansions " << c[2] << " (" << static_cast<double>(c[2]) / static_cast<double>(n_)
                << " n), idle item-rounds " << c[3] << "\n";
    }
  }

  std::vector<Device> devices_;
  const Csr<T>* graph_ = nullptr;  // the prepared graph (it outlives the runs after prepare)
  std::vector<int32_t> order_mark_;  // lane_order's scratch
  // OCL_SP_LANE_ORDER=ids: lanes groups take consecutive sources as they come
  // (experiments: the blocks' gain, bench/NOTES.md).
  const bool lanes_by_id_ = [] {
    const char* e = std::getenv("OCL_SP_LANE_ORDER");
    return e && std::string(e) == "ids";
  }();
  // Lane sets --stats takes in turn (run_lanes_stats): 2; OCL_SP_LANE_SETS=1 one
  // launch at a time (comparisons).
  const size_t lane_sets_ = [] {
    const char* e = std::getenv("OCL_SP_LANE_SETS");
    return e && std::string(e) == "1" ? size_t{1} : size_t{2};
  }();
  std::string chosen_;  // "VW 4, buckets 1006% of the mean weight"
  bool reduces_ = true;  // every device has doubles: --stats reduces rows there
  int lanes_ = 8;             // sources a group in lanes mode (LANES)
  bool lanes_rows_ = false;   // rows in lanes mode too (LANES >= 4)
  bool lanes_stats_ = true;   // --stats in one pass (LANES != 1, doubles)
  bool lanes_fit_ = true;     // a group of lanes fits every device (the prepared graph)
  SolverInfo info_;
  int64_t n_ = 0;
};

}  // namespace

template <typename T>
std::unique_ptr<SsspEngine<T>> make_opencl_sssp_engine(const SolverSpec& spec) {
  return std::make_unique<OpenClSsspEngine<T>>(spec);
}

template std::unique_ptr<SsspEngine<int32_t>> make_opencl_sssp_engine<int32_t>(const SolverSpec&);
template std::unique_ptr<SsspEngine<float>> make_opencl_sssp_engine<float>(const SolverSpec&);
template std::unique_ptr<SsspEngine<double>> make_opencl_sssp_engine<double>(const SolverSpec&);
template std::unique_ptr<SsspEngine<int64_t>> make_opencl_sssp_engine<int64_t>(const SolverSpec&);

}  // namespace ocl_sp
