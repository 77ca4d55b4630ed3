// The OpenCL multi-source engine's set-up (opencl_sssp_engine.hpp): the chosen
// devices, the kernels built and probed, and each graph's upload and plan
// (sssp_plan.hpp: bucket widths, batches, lane groups).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "graph/vertex_order.hpp"
#include "solvers/panel_engine.hpp"
#include "sparse/opencl_sssp_engine.hpp"
#include "sparse/sssp_plan.hpp"
#include "util/errors.hpp"
#include "util/strings.hpp"
#include "util/profile.hpp"
#include "util/sysinfo.hpp"
#include "util/timer.hpp"

namespace ocl_sp::detail {

template <typename T>
OpenClSsspEngine<T>::OpenClSsspEngine(const SolverSpec& spec) {
  const auto entries = select_devices(spec.device, spec.split);
  const auto budgets = detail::device_budgets(entries, spec.device_memory);
  for (size_t i = 0; i < entries.size(); ++i) {
    Device d;
    d.core = std::make_unique<detail::OpenClCore>(entries[i], Algo::sssp, ValueTraits<T>::type);
    d.budget = budgets[i].memory;
    d.max_alloc = budgets[i].max_alloc;
    auto& core = *d.core;
    detail::with_cl_errors("cannot set up sssp on '" + core.device().name + "'", [&] {
      // H100 (docs/performance/sparse.md "sssp"): 1024 work-items per source beat 256 on
      // random, geometric and 316 x 316 grids (fewer sources resident: their
      // distance rows stay in L2), 256 wins only on small grids (13 vs 18 ms).
      const int wg = core.is_gpu() ? (core.device().max_work_group >= 1024 ? 1024 : 256) : 64;
      // Lanes (H200, docs/performance/sparse.md "Sources side by side"): 8 sources a group
      // of 128 work-items beat 4, 16 and 32 sources, and groups of 256-1024.
      d.t = core.resolve(spec,
                         {{"WG", wg}, {"DELTA", 0}, {"BATCH", 0}, {"VW", 0}, {"LANES", 0}, {"LANE_WG", 0}, {"PULL", 0},
                          {"ROW_LANES", 0}, {"ORDER", 0}, {"ORDER_WG", 0}, {"LOCAL_ROW", 0}},
                         sssp_rules());
      const size_t local = static_cast<size_t>(d.t.at("WG"));
      const int lanes_param = d.t.at("LANES");
      lanes_ = lanes_param >= 4 ? lanes_param : 8;
      const int lane_wg = d.t.at("LANE_WG") > 0 ? d.t.at("LANE_WG") : core.is_gpu() ? 128 : d.t.at("WG");
      d.lane_wg_built = static_cast<size_t>(lane_wg);
      lanes_param_ = lanes_param;
      row_lanes_param_ = d.t.at("ROW_LANES");
      order_param_ = d.t.at("ORDER");
      lanes_rows_ = lanes_param >= 4 || row_lanes_param_ >= 4;
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
      // 1000 grid --stats: sssp_lanes 72.0 -> 63.0 s; docs/performance/sparse.md). Devices
      // with little local memory keep the tags (0). OCL_SP_LANE_SET=K: 2^K ids (0:
      // the tags; tests, experiments).
      const auto local_mem = core.device().local_mem;
      int lane_set = local_mem >= (48u << 10) ? 12 : local_mem >= (16u << 10) ? 10 : 0;
      if (const char* e = std::getenv("OCL_SP_LANE_SET"); e && *e)
        lane_set = std::clamp(std::atoi(e), 0, 14);
      if (lane_set) defines += " -DLANE_SET=" + std::to_string(lane_set);
      const size_t set_bytes = lane_set ? size_t{4} << lane_set : 0;
      d.pull_local = local_mem > set_bytes ? local_mem - set_bytes : 0;
      d.defines = defines;
      core.check_group("LANE_WG=" + std::to_string(lane_wg), {d.lane_wg_built}, 0);
      core.build(kSsspFiles, {{"WG", d.t.at("WG")}, {"LANES", lanes_}, {"LANE_WG", lane_wg}}, defines);
      const ProbeBuffers pb(core.context(), lanes_);
      near_far_kernels(core, pb, what, local, nullptr, d.kernel, d.kernel_bufs);
      d.map_sources = core.kernel("sssp_map_sources", what, {64}, [&](cl::Kernel& k) {
        set_args(k, 1, pb.off, pb.off);
      });
      d.to_scratch = core.kernel("sssp_rows_to_scratch", what, {kRowsInOrderWg}, {});
      d.in_order = core.kernel("sssp_rows_in_order", what, {kRowsInOrderWg}, {});
      // (Not built for a fixed group size: no probe launch.)
      d.order_hops = core.kernel("sssp_order_hops", what, {256}, {});
      d.order_renumber = core.kernel("sssp_order_renumber", what, {256}, {});
      use_lanes(d, d.prog[0], lanes_, d.lane_wg_built);
      if (fp64) {
        const size_t fig_wg = std::min<size_t>(local, 256);  // sssp_figures.cl FIG_WG
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

template <typename T>
OpenClSsspEngine<T>::~OpenClSsspEngine() {
  for (auto& d : devices_) {
    try {
      settle_slots(d);
      for (auto& sl : d.slot) release(d, sl);
      d.core->queue(detail::OpenClCore::kCompute).finish();
    } catch (...) {  // a lost device: nothing to give back
    }
  }
}

template <typename T>
void OpenClSsspEngine<T>::prepare_graph(const Csr<T>& g, RunStats& st, bool rows_own) {
  sources_ = 0;
  for (auto& d : devices_) {
    settle_slots(d);
    release_betweenness(d);
  }
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
  // LANES=0 above the low degrees: how deep the searches go (rows in lanes pay on
  // shallow ones, in a program of their own on GPUs), a breadth-first search that
  // stops at half the vertices or past the shallow levels.
  if (lanes_param_ == 0 && static_cast<double>(g.m()) > kSsspLanesRowsDegree * static_cast<double>(g.n))
    shape.depth = sssp_hop_depth(g.off.data(), g.col.data(), g.n, 0, sssp_shallow_levels(g.n), (g.n + 1) / 2);
  deep_ = sssp_deep_searches(shape);
  // Vertex ids with locality (ORDER, graph/vertex_order.hpp) where rows run a
  // source a group: deep searches by default (ORDER=0), every such graph with
  // ORDER=2; decided once the plan has placed the rows (below). Not for
  // betweenness (rows_own false: its kernels read the graph as given).
  shape.renumbered = rows_own && order_param_ != 1 && (deep_ || order_param_ == 2) && lanes_param_ < 4 &&
                     row_lanes_param_ < 4 && g.n > 1;
  // Pull rounds (the plan's pull, kernels/sssp_pull.cl) where the queue's bitmap
  // (n bits) fits the __local memory sssp_lanes leaves: the in-edges, tails in
  // order of their edges (a counting sort by head), made for the first device
  // that pulls.
  std::vector<cl_int> in_off, in_src;
  std::vector<T> in_w;
  const auto in_edges = [&] {
    if (!in_off.empty()) return;
    in_off.assign(static_cast<size_t>(g.n) + 1, 0);
    for (int32_t v : g.col) ++in_off[static_cast<size_t>(v) + 1];
    for (size_t v = 0; v < static_cast<size_t>(g.n); ++v) in_off[v + 1] += in_off[v];
    std::vector<cl_int> at(in_off.begin(), in_off.end() - 1);
    in_src.resize(g.col.size());
    in_w.resize(g.col.size());
    for (int64_t u = 0; u < g.n; ++u)
      for (int64_t e = g.off[static_cast<size_t>(u)]; e < g.off[static_cast<size_t>(u) + 1]; ++e) {
        const size_t k = static_cast<size_t>(at[static_cast<size_t>(g.col[static_cast<size_t>(e)])]++);
        in_src[k] = static_cast<cl_int>(u);
        in_w[k] = g.w[static_cast<size_t>(e)];
      }
  };
  // Rows in lanes: ROW_LANES or LANES >= 4 always, else LANES=1 never, LANES=0
  // where every device's plan chooses them (a low mean degree, or shallow
  // searches, and room for the rows beside them).
  const bool rows_forced = lanes_param_ >= 4 || row_lanes_param_ >= 4;
  bool rows_in_lanes = rows_forced || lanes_param_ == 0;
  // A lanes program's pull rounds for plan p: a near round pulls once its queue
  // holds more than p.pull % of the vertices, where its __local memory fits.
  const auto plan_pull = [&](Device& d, LaneProgram& lp, const SsspPlan& p) {
    const size_t bytes = static_cast<size_t>(sssp_pull_local_bytes(g.n, lp.lanes, sizeof(T)));
    lp.pull_min = lp.pull = 0;
    lp.pull_bytes = 4;
    if (p.pull > 0 && g.n > 0 && bytes + kLanesLocalRest <= d.pull_local) {
      lp.pull = p.pull;
      lp.pull_min = static_cast<int>(static_cast<int64_t>(p.pull) * g.n / 100 + 1);
      lp.pull_bytes = bytes;
      in_edges();
    }
  };
  // The plan's groups for a lanes program.
  const auto plan_groups = [](LaneProgram& lp, const SsspPlan& p) {
    lp.groups = p.lane_groups;
    lp.groups_max = p.lane_groups_max;
    lp.groups_rows = p.lane_groups_rows;
    lp.buffer_unit = p.lane_buffer_unit;
  };
  // Forced rows in lanes whose group and rows do not fit: refused.
  const auto too_big = [&](const Device& d, const SsspPlan& p, int lanes) {
    return RuntimeError("sssp: n = " + std::to_string(n_) + " needs " +
                        format_bytes(static_cast<double>(p.graph_bytes + p.per_group +
                                                         static_cast<uint64_t>(lanes) * static_cast<uint64_t>(n_) *
                                                             sizeof(T))) +
                        " on '" + d.core->device().name + "' for one group of " + std::to_string(lanes) +
                        " sources (" + (row_lanes_param_ >= 4 ? "ROW_LANES" : "LANES") +
                        ") and their rows, which has " + format_bytes(static_cast<double>(d.budget)) +
                        " to use; use fewer LANES, LANES=1, or --device-memory");
  };
  const auto device_shape = [](const Device& d) {
    const auto& dev = d.core->device();
    SsspDeviceShape ds;
    ds.budget = d.budget;
    ds.max_alloc = d.max_alloc;
    ds.compute_units = static_cast<int64_t>(dev.compute_units);
    ds.gpu = d.core->is_gpu();
    ds.max_work_group = dev.max_work_group;
    return ds;
  };
  for (auto& d : devices_) {
    const auto& dev = d.core->device();
    const SsspDeviceShape ds = device_shape(d);
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
    plan_pull(d, d.prog[0], p);
    if (&d == &devices_.front())  // the report's placement line shows what runs
      chosen_ = "VW " + std::to_string(1 << p.vw_log) + ", buckets " +
                std::to_string(static_cast<int>(std::lround(p.percent))) + "% of the mean weight";
    d.delta = width_of(p.percent);
    d.delta_lanes = width_of(p.percent_lanes);
    // Lanes that do not fit: --stats takes one source a group (two passes);
    // rows asked for in lanes' program (LANES >= 4) are refused here.
    if (p.lane_groups_max < 1) lanes_fit_ = false;
    if (lanes_param_ >= 4 && row_lanes_param_ < 4 && (p.lane_groups_max < 1 || p.lane_groups_rows < 1))
      throw too_big(d, p, lanes_);
    if (p.batch_sources < 1)
      throw RuntimeError("sssp: n = " + std::to_string(n_) + " needs " +
                         std::to_string((p.graph_bytes + p.per_source) >> 20) + " MiB on '" + dev.name +
                         "' for one source, which has " + std::to_string(d.budget >> 20) +
                         " MiB to use; use --backend openmp or --device-memory");
    d.batch_sources = p.batch_sources;
    d.dist_twice = p.dist_twice && env_int("OCL_SP_SSSP_DIST_BUFFERS", 2, 1, 2) == 2;
    try {
      use_lanes(d, d.prog[0], lanes_, p.lane_wg);
    } catch (const UsageError&) {  // the larger group exceeds the kernel's limits there
      d.lanes_built.erase({lanes_, p.lane_wg});
      Tunables built = d.t;
      built["LANE_WG"] = static_cast<int>(d.lane_wg_built);
      p = plan_sssp(shape, ds, built, lanes_, d.lane_wg_built);
      use_lanes(d, d.prog[0], lanes_, d.lane_wg_built);
    }
    plan_groups(d.prog[0], p);
    // A source a group's row in __local memory where it fits (LOCAL_ROW; the
    // queues' counters and the far minimum beside it).
    d.local_row = sssp_local_row(n_, sizeof(T), dev.local_mem, ds.gpu, d.t.at("LOCAL_ROW"));
    if (d.local_row) use_local_row(d);
    rows_in_lanes = rows_in_lanes && p.lanes_rows;
    if (&d == &devices_.front() || !p.lanes_rows) lanes_rows_reason_ = p.lanes_rows_reason;
    // Rows in lanes in a program of their own (sssp_row_program: ROW_LANES, or 16
    // lanes of 256 without pull rounds on GPUs for shallow searches): planned
    // with the graph's in-edges where the LANES program pulls. Where its rows do
    // not fit (or its group is too large for the device), rows take the LANES
    // program, unless ROW_LANES was given.
    d.rows_own = false;
    const SsspRowProgram rp = sssp_row_program(shape, ds, d.t, d.lane_wg_built);
    if (rows_own && p.lanes_rows && rp.lanes > 0) {
      SsspGraphShape rows_shape = shape;
      rows_shape.in_edges = d.prog[0].pull_min > 0;
      const SsspPlan pr = plan_sssp(rows_shape, ds, rp.t, rp.lanes, static_cast<size_t>(rp.t.at("LANE_WG")));
      if (pr.lane_groups_max >= 1 && pr.lane_groups_rows >= 1) {
        try {
          use_lanes(d, d.prog[1], rp.lanes, pr.lane_wg);
          plan_groups(d.prog[1], pr);
          plan_pull(d, d.prog[1], pr);
          d.rows_own = true;
        } catch (const UsageError&) {
          d.lanes_built.erase({rp.lanes, pr.lane_wg});
          if (row_lanes_param_ >= 4) throw;
        }
      } else if (row_lanes_param_ >= 4) {
        throw too_big(d, pr, rp.lanes);
      }
    }
    if (row_lanes_param_ >= 4 && !d.rows_own && (p.lane_groups_max < 1 || p.lane_groups_rows < 1))
      throw too_big(d, p, lanes_);
    d.mode = -1;
    st.bytes_moved += static_cast<double>(p.graph_bytes);
  }
  // Renumbered later (source_count: enough sources to pay for the order) where
  // the rows run a source a group.
  renumber_wanted_ = shape.renumbered && !rows_in_lanes;
  renumbered_ = false;
  new_id_.clear();
  // The renumbered searches' own group size (ORDER_WG) where it differs from
  // WG: their program and launches planned now, taken once the graph is
  // renumbered (take_order_wg, from source_count).
  for (auto& d : devices_) {
    d.order_wg = 0;
    const int wg = sssp_order_wg(n_, d.core->is_gpu(), d.t.at("WG"), d.t.at("ORDER_WG"));
    if (!renumber_wanted_ || d.local_row || wg == d.t.at("WG")) continue;
    Tunables t = d.t;
    t["WG"] = wg;
    const SsspPlan po = plan_sssp(shape, device_shape(d), t, lanes_, d.lane_wg_built);
    if (po.batch_sources < 1) continue;
    try {
      use_order_wg(d, static_cast<size_t>(wg));
    } catch (const UsageError&) {  // a group the device does not run: WG's kernels
      continue;
    }
    d.order_wg = static_cast<size_t>(wg);
    d.order_batch = po.batch_sources;
    d.order_dist_twice = po.dist_twice && env_int("OCL_SP_SSSP_DIST_BUFFERS", 2, 1, 2) == 2;
  }
  for (auto& d : devices_) {
    upload_graph(d, g, false, st);
    auto& core = *d.core;
    core.run_guarded("sssp: cannot upload the graph to '" + core.device().name + "'", [&] {
      core.begin_solve();
      const cl::Context& ctx = core.context();
      d.src = cl::Buffer(ctx, CL_MEM_READ_ONLY,
                         static_cast<size_t>(std::max(d.batch_sources, d.order_wg ? d.order_batch : 0)) * 4);
      d.pull_off = d.pull_src = d.pull_w = cl::Buffer();
      if (d.prog[0].pull_min || (d.rows_own && d.prog[1].pull_min)) {
        d.pull_off = cl::Buffer(ctx, CL_MEM_READ_ONLY, in_off.size() * 4);
        d.pull_src = cl::Buffer(ctx, CL_MEM_READ_ONLY, std::max<size_t>(in_src.size(), 1) * 4);
        d.pull_w = cl::Buffer(ctx, CL_MEM_READ_ONLY, std::max<size_t>(in_w.size(), 1) * sizeof(T));
        core.write(d.pull_off, 0, in_off.size() * 4, in_off.data(), false);
        if (g.m()) {
          core.write(d.pull_src, 0, in_src.size() * 4, in_src.data(), false);
          core.write(d.pull_w, 0, in_w.size() * sizeof(T), in_w.data(), false);
        }
      }
      RunStats upload;
      core.finish(upload);
      st.t_h += upload.t_h;
    });
  }
  lanes_rows_ = lanes_rows_graph_ = rows_in_lanes;
  for (auto& d : devices_) set_mode(d, lanes_rows_, 1, lanes_rows_);
  st.devices = static_cast<int>(devices_.size());
  st.placement = placement();
}

template <typename T>
void OpenClSsspEngine<T>::upload_graph(Device& d, const Csr<T>& g, bool renumbered, RunStats& st) {
  auto& core = *d.core;
  core.run_guarded("sssp: cannot upload the graph to '" + core.device().name + "'", [&] {
    core.begin_solve();
    const cl::Context& ctx = core.context();
    const std::vector<cl_int> off(g.off.begin(), g.off.end());
    d.off = d.col = d.w = d.new_id = cl::Buffer();  // a graph before: gone first
    d.off = cl::Buffer(ctx, CL_MEM_READ_ONLY, off.size() * 4);
    d.col = cl::Buffer(ctx, CL_MEM_READ_ONLY, std::max<size_t>(g.col.size(), 1) * 4);
    d.w = cl::Buffer(ctx, CL_MEM_READ_ONLY, std::max<size_t>(g.w.size(), 1) * sizeof(T));
    core.write(d.off, 0, off.size() * 4, off.data(), false);
    if (g.m()) {
      core.write(d.col, 0, g.col.size() * 4, g.col.data(), false);
      core.write(d.w, 0, g.w.size() * sizeof(T), g.w.data(), false);
    }
    if (renumbered) {
      d.new_id = cl::Buffer(ctx, CL_MEM_READ_ONLY, new_id_.size() * 4);
      core.write(d.new_id, 0, new_id_.size() * 4, new_id_.data(), false);
    }
    d.renumbered = renumbered;
    RunStats upload;
    core.finish(upload);
    st.t_h += upload.t_h;
  });
}

template <typename T>
void OpenClSsspEngine<T>::source_count(int64_t count, RunStats& st) {
  sources_ = count;
  for (auto& d : devices_) size_slot_parts(d);
  if (renumber_wanted_ && !renumbered_ && (order_param_ == 2 || count >= (order_min_sources_ ? order_min_sources_ : sssp_order_min_sources(n_)))) {
    order_vertices(st);
    for (auto& d : devices_) take_order_wg(d);
    st.placement = placement();
  }
  if (lanes_param_ != 0 || row_lanes_param_ >= 4 || !lanes_rows_graph_) return;
  // Fewer sources than a group of lanes on every compute unit leave units idle in
  // lanes, where a source a group spreads them over count groups.
  int64_t fill = 0;
  for (const auto& d : devices_)
    fill += static_cast<int64_t>(rows_program(d).lanes) * static_cast<int64_t>(d.core->device().compute_units);
  fill = std::max<int64_t>(fill, 1);
  const bool lanes = count >= fill;
  if (lanes != lanes_rows_) {
    lanes_rows_ = lanes;
    for (auto& d : devices_) set_mode(d, lanes_rows_, 1, lanes_rows_);
  }
  st.placement = placement();
  if (!lanes)
    st.placement.insert(st.placement.size() - 1, ", but " + std::to_string(count) + " sources fill fewer than " +
                                                     std::to_string(fill) + " (" +
                                                     std::to_string(rows_program(devices_[0]).lanes) +
                                                     " a compute unit)");
}

template <typename T>
std::string OpenClSsspEngine<T>::placement() const {
  // What the first device's rows take: "16 sources a group, rows transposed on the
  // device (the rows' own program, groups of 256 work-items; 8 for figures)".
  const Device& d0 = devices_[0];
  const LaneProgram& rp = rows_program(d0);
  const std::string own = d0.rows_own ? " (the rows' own program, groups of " + std::to_string(rp.wg) +
                                            " work-items; " + std::to_string(lanes_) + " for figures)"
                                      : std::string();
  return (devices_.size() > 1 ? "source batches on " + std::to_string(devices_.size()) + " devices"
                              : std::string("source batches")) +
         " (" + chosen_ + ", " +
         (lanes_rows_ ? std::to_string(rp.lanes) + " sources a group, rows transposed on the device" + own +
                            (rp.pull_min ? ", pull rounds past " + std::to_string(rp.pull) + "% of the vertices"
                                         : std::string())
                      : std::string("a source a group") +
                            (d0.local_row ? ", its row in __local memory" : std::string()) +
                            (d0.renumbered ? ", vertex ids with locality (the Hilbert order of two distances)"
                                         : std::string()) +
                            (d0.renumbered && d0.order_wg
                                 ? ", groups of " + std::to_string(d0.order_wg) + " work-items"
                                 : std::string())) +
         ": " + lanes_rows_reason_ + ")";
}

// sssp_lanes and sssp_lanes_rows of `lanes` sources a group of `wg` work-items
// into p: the solver program's (built for LANES and the resolved LANE_WG) or one
// built for them on the first graph that wants it (its own program and cache
// entry), kept for later graphs.
template <typename T>
void OpenClSsspEngine<T>::use_lanes(Device& d, LaneProgram& p, int lanes, size_t wg) {
  p.lanes = lanes;
  p.wg = wg;
  auto& core = *d.core;
  auto& [search, rows] = d.lanes_built[{lanes, wg}];
  if (!search()) {
    const std::string what = (lanes != lanes_ ? "LANES=" + std::to_string(lanes) + " " : std::string()) +
                             "LANE_WG=" + std::to_string(wg);
    BuiltProgram bp;
    const bool solver = lanes == lanes_ && wg == d.lane_wg_built;
    if (!solver) {  // the built size was checked before its build
      core.check_group(what, {wg}, 0);
      bp = core.build_separate(kSsspFiles, {{"WG", d.t.at("WG")}, {"LANES", lanes}, {"LANE_WG", static_cast<int>(wg)}},
                               d.defines);
    }
    const cl::Program* from = bp.program() ? &bp.program : nullptr;
    const ProbeBuffers pb(core.context(), lanes);
    search = core.kernel(
        "sssp_lanes", what, {wg},
        [&](cl::Kernel& pk) {
          set_args(pk, 1, pb.off, pb.one, pb.one, pb.off, 1, T(1), pb.lane, pb.lane, pb.lane, pb.lane, 1, pb.one,
                   pb.one, pb.one, pb.one, pb.off, pb.one, pb.dist, 0, cl::Local(4));
        },
        from);
    // sssp_lanes_rows does not depend on LANE_WG: the solver program's for its lanes.
    const auto built = d.lanes_built.find({lanes_, d.lane_wg_built});
    if (lanes == lanes_ && !solver && built != d.lanes_built.end()) {
      rows = built->second.second;
    } else {
      rows = core.kernel(
          "sssp_lanes_rows", what, {kLaneRowsWg},
          [&](cl::Kernel& k) {
            set_args(k, 1, 1, static_cast<cl_int>(kLaneRowsWg), pb.lane, pb.lane, pb.lane, pb.lane, 1, pb.off,
                     pb.dist, kRawInf<T>);
          },
          from);
    }
  }
  p.search = search;
  p.rows = rows;
}

// sssp_near_far with its row in __local memory (kernels/sssp.cl
// NEAR_FAR_LOCAL_ROW: sssp_near_far alone): a program of its own, built
// on the first graph that takes it and kept for later ones.
template <typename T>
void OpenClSsspEngine<T>::use_local_row(Device& d) {
  if (d.kernel_local()) return;
  auto& core = *d.core;
  const size_t wg = static_cast<size_t>(d.t.at("WG"));
  const BuiltProgram bp = core.build_separate("sssp.cl", {{"WG", d.t.at("WG")}}, d.defines + " -DNEAR_FAR_LOCAL_ROW");
  const ProbeBuffers pb(core.context(), lanes_);
  d.kernel_local = core.kernel(
      "sssp_near_far", "LOCAL_ROW WG=" + std::to_string(wg), {wg},
      [&](cl::Kernel& k) {
        set_args(k, 1, pb.off, pb.one, pb.one, pb.off, 1, T(1), 0, pb.dist, pb.one, kRawInf<T>, cl::Local(sizeof(T)));
      },
      &bp.program);
}

// sssp_near_far and sssp_near_far_bufs in groups of `wg` for renumbered
// searches (kernels/sssp.cl NEAR_FAR_ONLY): a program of their own, built on
// the first graph that takes it and kept for later ones.
template <typename T>
void OpenClSsspEngine<T>::use_order_wg(Device& d, size_t wg) {
  if (d.order_built == wg) return;
  auto& core = *d.core;
  const std::string what = "ORDER_WG=" + std::to_string(wg);
  core.check_group(what, {wg}, 0);
  const BuiltProgram bp =
      core.build_separate("sssp.cl", {{"WG", static_cast<int>(wg)}}, d.defines + " -DNEAR_FAR_ONLY");
  near_far_kernels(core, ProbeBuffers(core.context(), lanes_), what, wg, &bp.program, d.order_kernel,
                   d.order_kernel_bufs);
  d.order_built = wg;
}

// sssp_near_far and sssp_near_far_bufs of `wg` work-items from program `from`
// (null: the solver's), each probed on one source of a one-vertex graph.
template <typename T>
void OpenClSsspEngine<T>::near_far_kernels(detail::OpenClCore& core, const ProbeBuffers& pb, const std::string& what,
                                           size_t wg, const cl::Program* from, cl::Kernel& one, cl::Kernel& bufs) {
  one = core.kernel(
      "sssp_near_far", what, {wg},
      [&](cl::Kernel& k) { set_args(k, 1, pb.off, pb.one, pb.one, pb.off, 1, T(1), 0, pb.dist, pb.one, kRawInf<T>); },
      from);
  bufs = core.kernel(
      "sssp_near_far_bufs", what, {wg},
      [&](cl::Kernel& k) {
        set_args(k, 1, pb.off, pb.one, pb.one, pb.off, 1, T(1), 0, pb.dist, pb.one, pb.one, pb.one, pb.one, 1,
                 kRawInf<T>);
      },
      from);
}

// A renumbered device's launches in groups of order_wg: the plan's batch for
// them and the buffers again (one source a group).
template <typename T>
void OpenClSsspEngine<T>::take_order_wg(Device& d) {
  if (!d.order_wg || !d.renumbered || d.batch_sources == d.order_batch) return;
  d.batch_sources = d.order_batch;
  d.dist_twice = d.order_dist_twice;
  d.mode = -1;
  set_mode(d, false);
}

template class OpenClSsspEngine<int32_t>;
template class OpenClSsspEngine<float>;
template class OpenClSsspEngine<double>;
template class OpenClSsspEngine<int64_t>;

}  // namespace ocl_sp::detail

namespace ocl_sp {

template <typename T>
std::unique_ptr<SsspEngine<T>> make_opencl_sssp_engine(const SolverSpec& spec) {
  return std::make_unique<detail::OpenClSsspEngine<T>>(spec);
}

template std::unique_ptr<SsspEngine<int32_t>> make_opencl_sssp_engine<int32_t>(const SolverSpec&);
template std::unique_ptr<SsspEngine<float>> make_opencl_sssp_engine<float>(const SolverSpec&);
template std::unique_ptr<SsspEngine<double>> make_opencl_sssp_engine<double>(const SolverSpec&);
template std::unique_ptr<SsspEngine<int64_t>> make_opencl_sssp_engine<int64_t>(const SolverSpec&);

}  // namespace ocl_sp
