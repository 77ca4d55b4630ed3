// OpenCL blocked Floyd-Warshall (kernels/fw_blocked.cl): per block round one
// launch each of phase 1 (pivot tile), phase 2 (pivot row and column tiles) and
// phase 3 (the rest). Three kernel families, chosen by the tunable TILED:
//  0: kernels/fw_blocked.cl, the seeds' design; BLOCK (tile edge) and WPT (rows per
//     work-item, so that a BLOCK x BLOCK tile fits the device's work-group limit);
//  1: kernels/minplus_tiled.cl, register-tiled: each work-item owns TM x TN
//     elements, phase 3 is a (min,+) GEMM staged KC values of k at a time;
//  2: kernels/fw_cpu.cl, CPU-shaped: one work-item (and work-group) per tile with
//     explicit 16-wide vectors, for PoCL; BLOCK only (32, 64, 128).
#include <algorithm>
#include <type_traits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <future>
#include <map>
#include <optional>

#include "solvers/opencl_base.hpp"
#include "solvers/opencl_fw.hpp"
#include "solvers/opencl_fw_device.hpp"
#include "solvers/opencl_paths.hpp"
#include "solvers/panel_paths.hpp"
#include "solvers/path_rebuild.hpp"
#include "solvers/panel_engine.hpp"
#include "util/env.hpp"
#include "util/sysinfo.hpp"
#include "util/errors.hpp"
#include "util/host_threads.hpp"

namespace ocl_sp::detail {

namespace {

template <typename T>
class OpenClFw final : public Solver<T> {
 public:
  explicit OpenClFw(const SolverSpec& spec)
      : spec_(spec), devs_(make_devices(spec)), core_(devs_[0]->core_), info_(devs_[0]->info_),
        t_(devs_[0]->t_), family_(devs_[0]->family_), block_(devs_[0]->block_) {
    if (devs_.size() > 1) {
      info_.device = "";
      for (const auto& d : devs_) info_.device += (info_.device.empty() ? "" : " + ") + d->core_.device().name;
      double t_o = 0;
      for (const auto& d : devs_) t_o += d->info_.t_o;
      info_.t_o = t_o;
    }
    // The single buffer's pinned chunks now, beside the graph's generation or
    // reading (pinning 128 MiB takes ~50-90 ms on NVIDIA); a failure here is
    // left to the first upload to report.
    const PanelPlan* pl = spec_.fw_plan.get();
    if (pl && devs_.size() == 1 && pl->placement == Placement::single_buffer) {
      try {
        core_.prepare_staging(pl->n);
      } catch (const std::exception&) {
      }
    }
  }

  static std::vector<std::unique_ptr<FwDevice<T>>> make_devices(const SolverSpec& spec) {
    std::vector<std::unique_ptr<FwDevice<T>>> out;
    const std::vector<DeviceEntry> entries = select_devices(spec.device, spec.split);
    // OCL_SP_SHARED_CONTEXT=1: one context, panels device to device (panel_engine.cpp).
    const char* shared = std::getenv("OCL_SP_SHARED_CONTEXT");
    share_context(entries, shared && std::string(shared) == "1");
    for (const DeviceEntry& e : entries) out.push_back(std::make_unique<FwDevice<T>>(e, spec));
    return out;
  }

  const SolverInfo& info() const override { return info_; }

  // Tiling of the path kernels (kernels/paths.cl, the seeds' 3-phase design with d
  // and hop tiles in __local memory): the solver's own BLOCK and WPT when it runs
  // the seeds' family (TILED=0) and four BLOCK x BLOCK tiles fit __local memory;
  // otherwise BLOCK=32 (16 where even that does not fit) with the default WPT. The
  // register-tiled and CPU-shaped families (TILED=1, 2) have no path version.
  Tunables path_tunables() const {
    const auto& dev = core_.device();
    const auto fits = [&](int b) { return 4ull * b * b * sizeof(T) <= dev.local_mem; };
    int b = family_ != 0 ? 32 : block_;
    if (!fits(b)) b = 32;
    if (!fits(b)) b = 16;
    const int wpt =
        family_ == 0 && b == block_ ? t_.at("WPT") : default_wpt(b, dev.max_work_group, core_.is_gpu());
    return {{"BLOCK", b}, {"WPT", wpt}};
  }

  // Builds the path kernels on the first solve that asks for paths; returns the
  // seconds it took.
  double build_paths() {
    const Tunables pt = path_tunables();
    const size_t b = static_cast<size_t>(pt.at("BLOCK"));
    const size_t ly = b / static_cast<size_t>(pt.at("WPT"));
    // Probe buffers: a 2 x 2 tile matrix, round 0 (see OpenClCore::kernel).
    const cl::Buffer pd(core_.context(), CL_MEM_READ_WRITE, 4 * b * b * sizeof(T));
    const cl::Buffer ph(core_.context(), CL_MEM_READ_WRITE, 4 * b * b * sizeof(cl_int));
    const cl::Buffer pv(core_.context(), CL_MEM_READ_WRITE, 4 * b * b * sizeof(cl_int));
    core_.check_group("path kernels BLOCK=" + std::to_string(b), {b, ly}, 4ull * b * b * sizeof(T));
    return paths_.build(core_, "paths.cl", pt,
                        {{"fw_paths_phase1", {b, ly}},
                         {"fw_paths_phase2", {b, ly}},
                         {"fw_paths_phase3", {b, ly}}},
                        "paths_init", [&](const std::string&, cl::Kernel& k) {
                          k.setArg(0, static_cast<cl_int>(2 * b));
                          k.setArg(1, 0);
                          k.setArg(2, pd);
                          k.setArg(3, ph);
                          k.setArg(4, pv);
                        });
  }

  // Field layout of the packed keys for an ld x ld matrix (kernels/fw_paths_packed.cl):
  // hop fields of hb bits hold the sum of two stored hop counts <= ld - 1, the tag
  // 7 bits, the distance field the rest; nullopt when too few bits remain.
  struct KeyLayout {
    int dshift = 0, satf = 0, inff = 0, hmax = 0;
  };
  static std::optional<KeyLayout> key_layout(int64_t ld) {
    int hb = 1;
    while ((int64_t{1} << (hb - 1)) < ld) ++hb;  // hmax = 2^(hb-1) - 1 >= ld - 1
    KeyLayout k;
    k.dshift = 7 + hb;
    const int dbits = 31 - k.dshift;  // two stored keys (+ a tag) must add below 2^31
    if (dbits < 5) return std::nullopt;
    k.inff = (1 << (dbits - 1)) - 1;
    k.satf = (k.inff - 1) / 2;  // SAT + SAT < INFF: two long paths stay finite
    k.hmax = (1 << (hb - 1)) - 1;
    return k;
  }

  // The packed fast path applies to graphs whose weights are non-negative integers
  // below the layout's exact range (int32, or float32 holding such integers: their
  // sums are exact, so the results are the float kernels' own); longer shortest
  // paths are detected on the device and rerun. Devices must take 16 x 16 and
  // 64 x 64/WPT work-groups. OCL_SP_NO_PACKED_PATHS=1 turns it off (comparisons).
  std::optional<KeyLayout> packed_layout(const DistMatrix<T>& d) const {
    if (env_flag("OCL_SP_NO_PACKED_PATHS")) return std::nullopt;
    // The keys overlay the distance buffer as 32-bit ints: 32-bit types only.
    if constexpr (sizeof(T) != 4) return std::nullopt;
    const auto& dev = core_.device();
    if (dev.max_work_group < 256 || dev.local_mem < 64ull * 68 * 4 + 64ull * 64 * 4)
      return std::nullopt;
    const int64_t n = d.n();
    const auto k = key_layout(round_up(std::max<int64_t>(n, 1), 64));
    if (!k) return std::nullopt;
    const T inf = ValueTraits<T>::inf, satf = static_cast<T>(k->satf);
    bool misfit = false;
    const int threads = copy_threads(static_cast<size_t>(n) * static_cast<size_t>(n) * sizeof(T));
#pragma omp parallel for reduction(|| : misfit) schedule(static) num_threads(threads) if (threads > 1)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const T w = d(i, j);
        // !(w >= 0) also catches NaN; floor() keeps float weights integral.
        misfit = misfit || (i != j && w != inf &&
                            (!(w >= 0) || w >= satf || static_cast<T>(std::floor(w)) != w));
      }
    if (misfit) return std::nullopt;
    return k;
  }

  double build_packed() {
    const auto& dev = core_.device();
    // Rows per work-item of phases 1-2: 8 (512 items) where the device takes it.
    int wpt = 8;
    while (wpt < 16 && 64u * 64u / static_cast<unsigned>(wpt) > dev.max_work_group) wpt *= 2;
    const size_t ly = 64 / static_cast<size_t>(wpt);
    core_.check_group("packed path kernels WPT=" + std::to_string(wpt), {64, ly},
                      2ull * 64 * 64 * 4);
    core_.check_group("packed path kernel phase 3", {16, 16}, 64ull * 68 * 4 + 64ull * 64 * 4);
    const cl::Buffer pk(core_.context(), CL_MEM_READ_WRITE, 4 * 64 * 64 * sizeof(cl_int));
    const cl::Buffer pv(core_.context(), CL_MEM_READ_WRITE, 4 * 64 * 64 * sizeof(cl_int));
    const cl::Buffer pf(core_.context(), CL_MEM_READ_WRITE, sizeof(cl_int));
    return packed_.build(core_, "fw_paths_packed.cl", {{"WPT", wpt}},
                         {{"fwp_phase1", {64, ly}},
                          {"fwp_phase2", {64, ly}},
                          {"fwp_phase3", {16, 16}}},
                         "", [&](const std::string&, cl::Kernel& k) {
                           const KeyLayout kl = *key_layout(128);
                           k.setArg(0, static_cast<cl_int>(128));
                           k.setArg(1, 0);
                           k.setArg(2, kl.dshift);
                           k.setArg(3, kl.satf);
                           k.setArg(4, kl.inff);
                           k.setArg(5, kl.hmax);
                           k.setArg(6, pk);
                           k.setArg(7, pv);
                           k.setArg(8, pf);
                         });
  }

  // Blocked FW over packed keys; false when a value did not fit the layout (the
  // caller then runs the general kernels). Device work is added to st.
  bool run_packed(DistMatrix<T>& d, PathMatrix& p, const KeyLayout& kl, RunStats& st) {
    const int64_t n = d.n();
    const int64_t ld = round_up(n, 64);
    core_.check_memory(n, ld, 3);  // keys (in the distance buffer), hop, via
    bool fits = false;
    core_.run_guarded("fw with paths (packed) on '" + core_.device().name + "' failed", [&] {
      core_.begin_solve();
      const size_t bytes = static_cast<size_t>(ld) * ld * sizeof(cl_int);
      cl::Buffer key = core_.buffer(0, bytes), hop = core_.buffer(1, bytes),
                 via = core_.buffer(2, bytes);
      cl::Buffer flags = core_.buffer(3, sizeof(cl_int));
      const cl_int zero = 0;
      core_.write(flags, 0, sizeof zero, &zero, true);
      core_.upload(d.data(), n, ld, key);
      // The pack / unpack helpers: fixed 8 x 8 groups over ld (bounds checked).
      cl::Kernel& pack = packed_helper("fwp_pack");
      cl::Kernel& unpack = packed_helper("fwp_unpack");
      const size_t g = static_cast<size_t>(round_up(ld, 8));
      pack.setArg(0, static_cast<cl_int>(ld));
      pack.setArg(1, kl.dshift);
      pack.setArg(2, kl.satf);
      pack.setArg(3, kl.inff);
      pack.setArg(4, key);
      pack.setArg(5, via);
      core_.launch(pack, cl::NDRange(g, g), cl::NDRange(8, 8));
      cl::Kernel* k[3] = {&packed_["fwp_phase1"], &packed_["fwp_phase2"], &packed_["fwp_phase3"]};
      for (cl::Kernel* kk : k) {
        kk->setArg(0, static_cast<cl_int>(ld));
        kk->setArg(2, kl.dshift);
        kk->setArg(3, kl.satf);
        kk->setArg(4, kl.inff);
        kk->setArg(5, kl.hmax);
        kk->setArg(6, key);
        kk->setArg(7, via);
        kk->setArg(8, flags);
      }
      const size_t ly = 64 / static_cast<size_t>(packed_.params().at("WPT"));
      const size_t tiles = static_cast<size_t>(ld / 64), others = tiles - 1;
      for (size_t kb = 0; kb < tiles; ++kb) {
        for (cl::Kernel* kk : k) kk->setArg(1, static_cast<cl_int>(kb));
        core_.launch(*k[0], cl::NDRange(64, ly), cl::NDRange(64, ly));
        if (others == 0) continue;
        core_.launch(*k[1], cl::NDRange(64 * 2 * others, ly), cl::NDRange(64, ly));
        core_.launch(*k[2], cl::NDRange(16 * others, 16 * others), cl::NDRange(16, 16));
      }
      unpack.setArg(0, static_cast<cl_int>(n));
      unpack.setArg(1, static_cast<cl_int>(ld));
      unpack.setArg(2, kl.dshift);
      unpack.setArg(3, kl.satf);
      unpack.setArg(4, kl.inff);
      unpack.setArg(5, key);
      unpack.setArg(6, hop);
      unpack.setArg(7, flags);
      core_.launch(unpack, cl::NDRange(g, g), cl::NDRange(8, 8));
      cl_int flag = 0;
      core_.read(flags, 0, sizeof flag, &flag);
      fits = flag == 0;
      // No negative weights: no negative cycle to look for.
      if (fits) {
        core_.download(d.data(), n, ld, key);
        PathKernels::download(core_, n, ld, hop, via, p);
      }
      RunStats part;
      core_.finish(part);
      add_device_time(st, part);
    });
    return fits;
  }

  // A packed attempt and a rerun both count in the solve's device time.
  static void add_device_time(RunStats& st, const RunStats& part) {
    st.t_k += part.t_k;
    st.t_h += part.t_h;
    st.kernel_launches += part.kernel_launches;
    for (const auto& [name, t] : part.kernel_seconds) st.kernel_seconds[name] += t;
  }

  // The pack / unpack kernels of the packed program (created on first use).
  cl::Kernel& packed_helper(const std::string& name) {
    auto it = packed_helpers_.find(name);
    if (it == packed_helpers_.end())
      it = packed_helpers_.emplace(name, cl::Kernel(packed_.program(), name.c_str())).first;
    return it->second;
  }

  // Blocked FW in the lexicographic (distance, hops) order over d, hop and via:
  // the packed fast path where it applies, else (or when a value did not fit it)
  // the general kernels of paths.cl.
  RunStats solve_paths(DistMatrix<T>& d, PathMatrix& p) {
    Stopwatch sw;
    RunStats st;
    const int64_t n = d.n();
    double setup = 0;
    std::string fell_back;
    const auto input = PathKernels::keep_input(d);
    if (n > 0) {
      if (const auto kl = packed_layout(d)) {
        if (!packed_.built())
          with_cl_errors(
              "cannot set up the packed fw path kernels on '" + core_.device().name + "'",
              [&] { setup += build_packed(); });
        // run_packed leaves d alone unless it succeeds: the rerun starts from it.
        if (run_packed(d, p, *kl, st)) {
          packed_.fill_stats(st, round_up(n, 64), 2, setup);
          PathKernels::repair(input, d, p, st);
          st.relaxations = relaxation_count(Algo::fw, n, 0);
          st.total = sw.seconds();
          return st;
        }
        fell_back = " (after " + packed_.file() +
                    ": a shortest distance or hop count outgrew the packed keys)";
      }
    }
    if (!paths_.built())
      with_cl_errors("cannot set up the fw path kernels on '" + core_.device().name + "'",
                     [&] { setup += build_paths(); });
    const int b = paths_.params().at("BLOCK");
    const int64_t ld = round_up(std::max<int64_t>(n, 1), b);
    paths_.fill_stats(st, ld, 2, setup);
    st.paths_kernels += fell_back;
    if (n == 0) {
      p = PathMatrix{};
      st.total = sw.seconds();
      return st;
    }
    core_.check_memory(n, ld, 3);  // d, hop, via
    core_.run_guarded("fw with paths on '" + core_.device().name + "' failed", [&] {
      RunStats part;
      core_.begin_solve();
      const size_t bytes = static_cast<size_t>(ld) * ld * sizeof(T);
      cl::Buffer dbuf = core_.buffer(0, bytes), hop = core_.buffer(1, bytes),
                 via = core_.buffer(2, bytes);
      core_.upload(d.data(), n, ld, dbuf);
      paths_.init(core_, ld, dbuf, hop, via);
      cl::Kernel* k[3] = {&paths_["fw_paths_phase1"], &paths_["fw_paths_phase2"],
                          &paths_["fw_paths_phase3"]};
      for (cl::Kernel* kk : k) {
        kk->setArg(0, static_cast<cl_int>(ld));
        kk->setArg(2, dbuf);
        kk->setArg(3, hop);
        kk->setArg(4, via);
      }
      const size_t lx = static_cast<size_t>(b);
      const size_t ly = lx / static_cast<size_t>(paths_.params().at("WPT"));
      const cl::NDRange local(lx, ly);
      const size_t tiles = static_cast<size_t>(ld / b), others = tiles - 1;
      for (size_t kb = 0; kb < tiles; ++kb) {
        for (cl::Kernel* kk : k) kk->setArg(1, static_cast<cl_int>(kb));
        core_.launch(*k[0], cl::NDRange(lx, ly), local);
        if (others == 0) continue;
        core_.launch(*k[1], cl::NDRange(lx * 2 * others, ly), local);
        core_.launch(*k[2], cl::NDRange(lx * others, ly * others), local);
      }
      core_.check_negative_cycle(dbuf, n, ld);
      core_.download(d.data(), n, ld, dbuf);
      PathKernels::download(core_, n, ld, hop, via, p);
      core_.finish(part);
      add_device_time(st, part);
    });
    PathKernels::repair(input, d, p, st);
    st.relaxations = relaxation_count(Algo::fw, n, 0);
    st.total = sw.seconds();
    return st;
  }

  // Where the matrix goes: the plan the CLI made for this n, else plan_fw now.
  PanelPlan plan(int64_t n) const {
    const PanelPlan* given = spec_.fw_plan.get();
    if (given && given->n == n && given->devices == static_cast<int>(devs_.size())) return *given;
    std::vector<DeviceEntry> entries;
    for (const auto& d : devs_) entries.push_back(d->core_.device());
    return plan_fw(n, sizeof(T), entries, spec_, host_memory_available());
  }

  RunStats solve(DistMatrix<T>& d, PathMatrix* paths) override {
    const int64_t n = d.n();
    if (paths) return solve_with_paths(d, *paths);
    if (n > 0) {
      const PanelPlan pl = plan(n);
      if (pl.placement != Placement::single_buffer) return solve_panels(d, pl);
    }
    return solve_single(d);
  }

  // --paths: the route choose_paths_route picks, its name and reason in the stats.
  RunStats solve_with_paths(DistMatrix<T>& d, PathMatrix& p) {
    const int64_t n = d.n();
    PanelPlan pl;
    if (n > 0) pl = plan(n);
    PathsChoice c = choose_paths_route(n, n == 0 || pl.placement == Placement::single_buffer,
                                       std::is_integral_v<T>, PathKernels::rebuild_mode(), two_fit(n));
    if (n > 0 && c.route == PathsRoute::panels_rebuild && c.panel > 0) {
      // Panels forced on a matrix that fits one buffer: where they do not fit as
      // resident panels, the single buffer's path kernels after all.
      SolverSpec s = spec_;
      s.panel = c.panel;
      std::vector<DeviceEntry> entries;
      for (const auto& x : devs_) entries.push_back(x->core_.device());
      PanelPlan forced;
      try {
        forced = plan_fw(n, sizeof(T), entries, s, host_memory_available());
      } catch (const RuntimeError&) {
      }
      if (forced.placement == Placement::resident) {
        pl = forced;
      } else {
        c.route = PathsRoute::lexicographic;
        c.why = "panels of " + std::to_string(c.panel) + " do not fit the device: the path kernels";
      }
    }
    RunStats st;
    if (c.route == PathsRoute::panels_rebuild) {
      st = solve_panels_paths(d, pl, p);
    } else {
      std::optional<RunStats> rebuilt;
      if (c.route == PathsRoute::single_rebuild) rebuilt = solve_paths_rebuilt(d, p);
      if (rebuilt) {
        st = *rebuilt;
      } else {
        st = solve_paths(d, p);
        c.route = PathsRoute::lexicographic;
      }
    }
    // The report's paths line (and JSON paths_kernels) opens with the route and why.
    const bool packed = c.route == PathsRoute::lexicographic && packed_.built() &&
                        st.paths_kernels.rfind(packed_.file(), 0) == 0;
    st.paths_kernels = std::string("route: ") + (packed ? "packed keys" : to_string(c.route)) + " (" +
                       c.why + "); " + st.paths_kernels;
    return st;
  }

  // Distances in the single buffer (ld x ld, buffer 0 of the core, which keeps it
  // until the next solve).
  RunStats solve_single(DistMatrix<T>& d, const std::function<void()>& before_store = {}) {
    const int64_t n = d.n();
    Stopwatch sw;
    RunStats st;
    if (n == 0) return st;
    const int64_t ld = round_up(n, block_);
    core_.check_memory(n, ld, 1);
    core_.run_guarded("fw on '" + core_.device().name + "' failed", [&] {
      core_.begin_solve();
      cl::Buffer buf = core_.buffer(0, static_cast<size_t>(ld) * ld * sizeof(T));
      core_.upload(d.data(), n, ld, buf);
      devs_[0]->enqueue_fw(buf, ld, n);
      core_.check_negative_cycle(buf, n, ld);
      if (before_store) before_store();
      core_.download(d.data(), n, ld, buf);
      core_.finish(st);
    });
    st.placement = "single buffer";
    st.bytes_moved = 2.0 * static_cast<double>(n) * n * sizeof(T);
    st.relaxations = relaxation_count(Algo::fw, n, 0);
    st.total = sw.seconds();
    return st;
  }

  // Paths in the single buffer from the fast distance kernels, then the path
  // matrix rebuilt on the device from the distances still in the buffer
  // (solvers/path_rebuild.hpp). nullopt, with d untouched, where the rebuild's
  // exact sums do not hold (float32 weights that are not small integers): the
  // lexicographic path kernels run then. Integer types read the edges on a thread
  // of their own while the matrix goes up and the kernels run (the download into
  // d waits for it), as the panels do.
  std::optional<RunStats> solve_paths_rebuilt(DistMatrix<T>& d, PathMatrix& p) {
    if (d.n() == 0) return std::nullopt;
    if constexpr (std::is_integral_v<T>) {
      if (two_fit(d.n()) && !env_flag_off("OCL_SP_PATHS_DEVICE_EDGES"))
        return solve_paths_device_edges(d, p);
    }
    Stopwatch sw;
    std::optional<InputEdges<T>> edges;
    std::future<void> scanned;
    if constexpr (std::is_integral_v<T>) {
      edges.emplace();
      scanned = std::async(std::launch::async, [&] {
        lower_thread_priority();
        const Stopwatch scan;
        *edges = input_edges(d);
        profile("paths: input edges (beside the solve)", scan.seconds());
      });
    } else {
      edges = exact_input_edges(d);  // float sums that could round: not for the rebuild
      if (!edges) return std::nullopt;
    }
    std::future<void> sized = size_path_matrix_async(p, d.n());  // while the distances run
    RunStats st;
    try {
      st = solve_single(d, [&] {
        if (scanned.valid()) scanned.wait();
      });
    } catch (...) {
      if (scanned.valid()) scanned.wait();
      if (sized.valid()) sized.wait();
      throw;
    }
    if (scanned.valid()) scanned.get();
    sized.get();
    const int64_t ld = round_up(d.n(), block_);
    cl::Buffer buf = core_.buffer(0, static_cast<size_t>(ld) * ld * sizeof(T));
    if (!rebuild_.run(core_, *edges, d, p, st, spec_.device_memory, &buf, ld))
      recover_on_host(*edges, d, p, st);
    st.total = sw.seconds();
    return st;
  }

  // Whether the single buffer, a copy of the input beside it and the rebuild's
  // bands (a few percent of one matrix) fit the device (and --device-memory).
  bool two_fit(int64_t n) const {
    if (n <= 0) return false;
    const auto& dev = core_.device();
    const uint64_t ld = static_cast<uint64_t>(round_up(n, block_));
    const uint64_t one = ld * ld * sizeof(T);
    const uint64_t budget = spec_.device_memory ? std::min<uint64_t>(spec_.device_memory, dev.global_mem)
                                                : dev.global_mem;
    return one <= dev.max_alloc && 2 * one + one / 8 <= budget / 10 * 9;
  }

  // OCL_SP_PATHS_DEVICE_EDGES=0 (comparisons): the single buffer's rebuild takes
  // the input's edges from a host scan, as before.
  static bool env_flag_off(const char* name) {
    const char* e = std::getenv(name);
    return e && std::string(e) == "0";
  }

  // The single buffer's rebuild with no host scan (integer types): the input goes
  // up once and is copied on the device before the distance kernels overwrite
  // it; the tight edges are then found on the device from the copy and the
  // distances, the distances come down while the first bands are rebuilt, and
  // via / hops follow band by band (PathRebuild::run_on_device). Where the tight
  // edges do not fit beside the two matrices, the host scans d (still the input)
  // and the rebuild reads the buffer as before.
  RunStats solve_paths_device_edges(DistMatrix<T>& d, PathMatrix& p) {
    Stopwatch sw;
    const int64_t n = d.n();
    const int64_t ld = round_up(n, block_);
    core_.check_memory(n, ld, 2);
    std::future<void> sized;
    RunStats st;
    bool done = false;
    try {
      core_.run_guarded("fw on '" + core_.device().name + "' failed", [&] {
        core_.begin_solve();
        const size_t bytes = static_cast<size_t>(ld) * static_cast<size_t>(ld) * sizeof(T);
        cl::Buffer buf = core_.buffer(0, bytes);
        cl::Buffer w(core_.context(), CL_MEM_READ_WRITE, bytes);
        core_.upload(d.data(), n, ld, buf);
        // The path matrix is zero-filled while the distance kernels run, not
        // beside the upload: with its two threads started first, the upload's
        // copies (32 MiB chunks on 16 threads) took 93-107 ms against 13-15 ms
        // alone at n = 10 000 on the H100 host (docs/performance/scale.md).
        sized = size_path_matrix_async(p, n);
        core_.copy_buffer(buf, w, bytes, {});
        devs_[0]->enqueue_fw(buf, ld, n);
        core_.check_negative_cycle(buf, n, ld);
        profile("paths: distances computed beside the input's copy", sw.seconds());
        done = rebuild_.run_on_device(core_, w, buf, ld, d, p, st, spec_.device_memory, [&] {
          if (sized.valid()) sized.get();
        });
      });
      if (sized.valid()) sized.get();
    } catch (...) {
      if (sized.valid()) sized.wait();
      throw;
    }
    if (!done) {  // the tight edges do not fit: d is still the input
      const InputEdges<T> edges = input_edges(d);
      cl::Buffer buf = core_.buffer(0, static_cast<size_t>(ld) * static_cast<size_t>(ld) * sizeof(T));
      core_.run_guarded("fw on '" + core_.device().name + "' failed", [&] {
        core_.begin_solve();
        core_.download(d.data(), n, ld, buf);
        RunStats part;
        core_.finish(part);
        add_device_time(st, part);
      });
      if (!rebuild_.run(core_, edges, d, p, st, spec_.device_memory, &buf, ld))
        recover_on_host(edges, d, p, st);
    }
    st.placement = "single buffer";
    st.bytes_moved += 2.0 * static_cast<double>(n) * n * sizeof(T) + st.paths_bytes;
    st.relaxations = relaxation_count(Algo::fw, n, 0);
    st.total = sw.seconds();
    return st;
  }

  // Paths beyond one buffer: the panels' distances, then the path matrix rebuilt
  // on the first device from them and the input's edges (solvers/path_rebuild.hpp;
  // on the host where that does not fit, solvers/panel_paths.hpp). The edges are
  // read from d on a thread of its own while the panels go up and the kernels
  // run (integer types; the first download into d waits for it), and the path
  // matrix is sized on another; float types check their weights first, before
  // the solve, as the scan may refuse them.
  RunStats solve_panels_paths(DistMatrix<T>& d, const PanelPlan& pl, PathMatrix& p) {
    Stopwatch sw;
    InputEdges<T> edges;
    std::future<void> scanned;
    if constexpr (std::is_integral_v<T>) {
      scanned = std::async(std::launch::async, [&] {
        lower_thread_priority();  // the solve's own copies come first
        const Stopwatch scan;
        edges = input_edges(d);
        profile("paths: input edges (beside the solve)", scan.seconds());
      });
    } else {
      edges = input_edges(d);
      profile("paths: input edges", sw.seconds());
    }
    std::future<void> sized = size_path_matrix_async(p, d.n());  // while the distances run
    RunStats st = solve_panels(d, pl, [&] {
      if (scanned.valid()) scanned.wait();
    });
    const Stopwatch wait;
    if (scanned.valid()) scanned.get();  // its error, if any
    sized.get();
    profile("paths: edges and path matrix ready (waited)", wait.seconds());
    if (PathKernels::rebuild_mode() == "0" ||
        !rebuild_.run(core_, edges, d, p, st, spec_.device_memory, nullptr, 0,
                      &panel_stager(core_, pl.p, sizeof(T))))
      recover_on_host(edges, d, p, st);
    st.total = sw.seconds();
    return st;
  }

  static void recover_on_host(const InputEdges<T>& edges, const DistMatrix<T>& d, PathMatrix& p,
                              RunStats& st) {
    Stopwatch rec;
    const int64_t searched = recover_paths(edges, d, p);
    const double seconds = rec.seconds();
    st.paths = true;
    st.paths_bytes = 2.0 * static_cast<double>(d.n()) * static_cast<double>(d.n()) * 4.0 +
                     static_cast<double>(edges.bytes());
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "recovered on the host from the distances: %lld of %zu edges are shortest "
                  "paths, one search per source over them, %.3f s",
                  static_cast<long long>(searched), edges.dst.size(), seconds);
    st.paths_kernels = buf;
  }

  // before_store: run_fw_panels' (runs before the first download into d).
  RunStats solve_panels(DistMatrix<T>& d, const PanelPlan& pl,
                        const std::function<void()>& before_store = {}) {
    Stopwatch sw;
    RunStats st;
    std::vector<PanelDevice*> devs;
    for (auto& x : devs_) devs.push_back(x.get());  // (run_fw_panels prepares their GEMMs for pl.p)
    run_fw_panels(pl, devs, d, spec_.progress, st, before_store);
    st.relaxations = relaxation_count(Algo::fw, d.n(), 0);
    st.total = sw.seconds();
    return st;
  }

 private:
  SolverSpec spec_;
  std::vector<std::unique_ptr<FwDevice<T>>> devs_;
  OpenClCore& core_;  // the first device: paths and the single buffer run there
  SolverInfo info_;
  Tunables t_;
  int family_ = 0;  // TILED
  int block_ = 32;
  PathKernels paths_;   // general path kernels, built on the first solve that needs them
  PathKernels packed_;  // packed-key fast path (int32, no negative weights), likewise
  PathRebuild<T> rebuild_;  // the path matrix from the distances, on the device
  std::map<std::string, cl::Kernel> packed_helpers_;
};

}  // namespace

const char* to_string(PathsRoute r) {
  switch (r) {
    case PathsRoute::panels_rebuild: return "panels, rebuilt on the device";
    case PathsRoute::single_rebuild: return "single buffer, rebuilt on the device";
    case PathsRoute::lexicographic: break;
  }
  return "path kernels";
}

PathsChoice choose_paths_route(int64_t n, bool single, bool exact, const std::string& mode,
                               bool two_fit) {
  PathsChoice c;
  if (!single) {
    c.route = PathsRoute::panels_rebuild;
    c.why = "the distances run on panels (the matrix is past one buffer or --panel asked for them)";
    return c;
  }
  if (mode == "0") {
    c.why = "OCL_SP_PATHS_REBUILD=0";
    return c;
  }
  if (!exact) {
    // The rebuild where the float weights are integers with exact sums (its search
    // needs them), else the path kernels (solve_paths_rebuilt falls back).
    c.route = PathsRoute::single_rebuild;
    c.why = "float weights: distance kernels, then the path matrix rebuilt from the distances where "
            "the sums are exact, else the path kernels";
    return c;
  }
  if (mode == "1") {
    c.route = PathsRoute::single_rebuild;
    c.why = "OCL_SP_PATHS_REBUILD=1";
    return c;
  }
  if (n >= kPanelPathsMinN && two_fit) {
    c.route = PathsRoute::single_rebuild;
    c.why = "fastest for n >= " + std::to_string(kPanelPathsMinN) +
            ": distance kernels in one buffer beside a copy of the input, then the tight edges "
            "and the path matrix found on the device";
    return c;
  }
  if (n >= kPanelPathsMinN) {
    c.route = PathsRoute::panels_rebuild;
    c.panel = round_up((n + 3) / 4, int64_t{kFwPanelMultiple});  // 4 x 4 panels
    c.why = "fastest for n >= " + std::to_string(kPanelPathsMinN) +
            ": distance kernels on 4 x 4 panels, then the path matrix rebuilt on the device";
    return c;
  }
  // Below that the path kernels were as fast, but their via names whichever equally
  // good vertex the blocking met first: the rebuild's is the one every placement,
  // backend and algorithm gives (the smallest predecessor on a fewest-edge path).
  c.route = PathsRoute::single_rebuild;
  c.why = "exact sums: distance kernels in one buffer, then the path matrix rebuilt from the distances "
          "(the same via on every placement)";
  return c;
}

PanelPlan plan_fw(int64_t n, size_t value_size, const std::vector<DeviceEntry>& devices,
                  const SolverSpec& spec, uint64_t host_spare) {
  // The single buffer's edge is rounded to kFwPanelMultiple too, not to the
  // solver's BLOCK (unknown before the solver exists): its own ld is never larger.
  return plan_panels(n, value_size, device_budgets(devices, spec.device_memory), spec.panel,
                     kFwPanelMultiple, kFwPanelMultiple, 1, host_spare);
}

template <typename T>
std::unique_ptr<PanelDevice> make_fw_panel_device(const DeviceEntry& entry, const SolverSpec& spec,
                                                  SolverInfo* info, int64_t p) {
  auto dev = std::make_unique<FwDevice<T>>(entry, spec);
  dev->build_gemm(p);
  if (info) *info = dev->info_;
  return dev;
}
template std::unique_ptr<PanelDevice> make_fw_panel_device<int32_t>(const DeviceEntry&,
                                                                    const SolverSpec&, SolverInfo*, int64_t);
template std::unique_ptr<PanelDevice> make_fw_panel_device<float>(const DeviceEntry&,
                                                                  const SolverSpec&, SolverInfo*, int64_t);
template std::unique_ptr<PanelDevice> make_fw_panel_device<double>(const DeviceEntry&,
                                                                  const SolverSpec&, SolverInfo*, int64_t);
template std::unique_ptr<PanelDevice> make_fw_panel_device<int64_t>(const DeviceEntry&,
                                                                  const SolverSpec&, SolverInfo*, int64_t);

template <typename T>
std::unique_ptr<Solver<T>> make_opencl_fw(const SolverSpec& spec) {
  return std::make_unique<OpenClFw<T>>(spec);
}

template std::unique_ptr<Solver<int32_t>> make_opencl_fw<int32_t>(const SolverSpec&);
template std::unique_ptr<Solver<float>> make_opencl_fw<float>(const SolverSpec&);
template std::unique_ptr<Solver<double>> make_opencl_fw<double>(const SolverSpec&);
template std::unique_ptr<Solver<int64_t>> make_opencl_fw<int64_t>(const SolverSpec&);

}  // namespace ocl_sp::detail
