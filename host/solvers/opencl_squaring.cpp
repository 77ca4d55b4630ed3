// OpenCL repeated squaring (the paper's OCL_SP): L <- L (x) L with the banded,
// __local-tiled kernel of kernels/minplus_square.cl on ping-pong buffers, at most
// max_products(n, negative weights) products, stopping after the first product
// that changes nothing (a device flag per product, read back each time: in T_h).
#include <cstdint>

#include "cpu/cpu_solvers.hpp"
#include "solvers/opencl_base.hpp"
#include "solvers/opencl_paths.hpp"
#include "util/errors.hpp"

namespace ocl_sp::detail {

namespace {

template <typename T>
class OpenClSquaring final : public Solver<T> {
 public:
  explicit OpenClSquaring(const SolverSpec& spec) : core_(spec, ValueTraits<T>::type) {
    with_cl_errors("cannot set up squaring on '" + core_.device().name + "'", [&] {
      const size_t max_wg = core_.device().max_work_group;
      const int def = max_wg >= 256 ? 16 : max_wg >= 64 ? 8 : 4;  // the paper's best: 16 x 16
      // GPUs default to the register-tiled product (docs/performance/dense.md); CPUs and the
      // paper's Table 1 use the paper's kernel (TILED=0, WG). NVIDIA stages KC = 16
      // (with its register prefetch: H100 squaring n = 10 000 300.2 ms against
      // 302.9 for KC = 32, n = 8192 161.8 against 163.9; docs/performance/dense.md).
      // NVIDIA sm_80+: the same with the cp.async staging ring (H100 n = 8192
      // 163.0 -> 151.5 ms, n = 10 000 302 -> 280 ms; docs/performance/dense.md "cp.async ring").
      const int kc = core_.device().vendor_key() == "nvidia" ? 16 : 32;
      const int stages = default_stages(core_.device());
      Tunables defaults =
          core_.is_gpu() ? Tunables{{"TILED", 1}, {"BLOCK", 128}, {"TM", 8}, {"TN", 8}, {"KC", kc}}
                         : Tunables{{"TILED", 0}, {"WG", def}};
      if (core_.is_gpu() && stages > 1) defaults["STAGES"] = stages;
      auto rules = tiled_rules();
      rules.push_back({"WG", {4, 8, 16, 32}, "work-group edge T of the paper's kernel (TILED=0)"});
      rules.push_back({"BLOCK", {32, 64, 128}, "output tile edge of the tiled product (TILED=1)"});
      t_ = core_.resolve(spec, defaults, rules, [&](Tunables& t, const Tunables& chosen) {
        // The family follows the tunables given (WG -> the paper's kernel, BLOCK,
        // TM, TN, KC -> tiled); then the other family's defaults are dropped.
        const int tiled = resolve_family(chosen, defaults.at("TILED"),
                                         {"BLOCK", "TM", "TN", "KC", "STAGES"}, {"WG"});
        t["TILED"] = tiled;
        if (tiled) {
          if (!t.count("BLOCK")) t["BLOCK"] = 64;
          t.erase("WG");
        } else {
          if (!t.count("WG")) t["WG"] = def;
          t.erase("BLOCK");
        }
        complete_tiled(t);
        fit_stages(t, chosen, core_.device().local_mem, sizeof(T));
      });
      tiled_ = t_.at("TILED") != 0;
      std::string what, kernel = "minplus_square", file = "minplus_square.cl";
      unsigned long long local_bytes = 0;
      if (tiled_) {
        const TiledShape shape = tiled_shape(t_, sizeof(T));
        what = shape.what;
        local_[0] = shape.local[0];
        local_[1] = shape.local[1];
        local_bytes = shape.local_bytes;
        tile_ = t_.at("BLOCK");
        kernel = "minplus_tiled_product";
        file = "minplus_tiled.cl";
      } else {
        wg_ = t_.at("WG");
        what = "WG=" + std::to_string(wg_);
        local_[0] = local_[1] = static_cast<size_t>(wg_);
        local_bytes = 2ull * local_[0] * local_[1] * sizeof(T);  // As + Bs
        tile_ = wg_;
      }
      core_.check_group(what, {local_[0], local_[1]}, local_bytes);
      core_.build(file, t_, tiled_ ? "-DTILED_PRODUCT" : "");
      // Probe (see OpenClCore::kernel): one work-group over a one-tile matrix; the
      // buffers must outlive the launch.
      const size_t w = static_cast<size_t>(tile_);
      const cl::Buffer a(core_.context(), CL_MEM_READ_WRITE, w * w * sizeof(T));
      const cl::Buffer c(core_.context(), CL_MEM_READ_WRITE, w * w * sizeof(T));
      const cl::Buffer f(core_.context(), CL_MEM_READ_WRITE, sizeof(cl_int));
      kernel_ = core_.kernel(kernel, what, {local_[0], local_[1]}, [&](cl::Kernel& k) {
        k.setArg(0, static_cast<cl_int>(w));
        k.setArg(1, a);
        k.setArg(2, c);
        k.setArg(3, f);
        k.setArg(4, 0);
      });
      core_.finish_info(info_, t_);
    });
  }

  const SolverInfo& info() const override { return info_; }

  // The path kernel is the paper's product with hops and via (kernels/paths.cl):
  // the solver's WG when it runs the paper's kernel (TILED=0), else the paper's
  // default for the device (the register-tiled family has no path version).
  Tunables path_tunables() const {
    const size_t max_wg = core_.device().max_work_group;
    const int def = max_wg >= 256 ? 16 : max_wg >= 64 ? 8 : 4;
    return {{"WG", tiled_ ? def : wg_}};
  }

  double build_paths() {
    const Tunables pt = path_tunables();
    const size_t w = static_cast<size_t>(pt.at("WG"));
    // Probe buffers: one work-group over a one-tile matrix (see OpenClCore::kernel).
    const cl::Buffer a(core_.context(), CL_MEM_READ_WRITE, w * w * sizeof(T));
    const cl::Buffer ah(core_.context(), CL_MEM_READ_WRITE, w * w * sizeof(cl_int));
    const cl::Buffer c(core_.context(), CL_MEM_READ_WRITE, w * w * sizeof(T));
    const cl::Buffer ch(core_.context(), CL_MEM_READ_WRITE, w * w * sizeof(cl_int));
    const cl::Buffer v(core_.context(), CL_MEM_READ_WRITE, w * w * sizeof(cl_int));
    const cl::Buffer f(core_.context(), CL_MEM_READ_WRITE, sizeof(cl_int));
    core_.check_group("path kernel WG=" + std::to_string(w), {w, w}, 4ull * w * w * sizeof(T));
    return paths_.build(core_, "paths.cl", pt, {{"minplus_square_paths", {w, w}}}, "paths_init",
                        [&](const std::string&, cl::Kernel& k) {
                          k.setArg(0, static_cast<cl_int>(w));
                          k.setArg(1, a);
                          k.setArg(2, ah);
                          k.setArg(3, c);
                          k.setArg(4, ch);
                          k.setArg(5, v);
                          k.setArg(6, f);
                          k.setArg(7, 0);
                        });
  }

  // Repeated squaring in the lexicographic (distance, hops) order: d and hop
  // ping-pong, via is updated in place; stops once a product changes no (d, hop).
  RunStats solve_paths(DistMatrix<T>& d, PathMatrix& p) {
    Stopwatch sw;
    RunStats st;
    double setup = 0;
    if (!paths_.built())
      with_cl_errors("cannot set up the squaring path kernel on '" + core_.device().name + "'",
                     [&] { setup = build_paths(); });
    const int64_t n = d.n();
    const int w = paths_.params().at("WG");
    const int64_t ld = round_up(std::max<int64_t>(n, 1), w);
    paths_.fill_stats(st, ld, 3, setup);  // two hop matrices and via
    if (n == 0) {
      p = PathMatrix{};
      st.total = sw.seconds();
      return st;
    }
    core_.check_memory(n, ld, 5);
    const int max_p = max_products(n, any_negative(d.values()));  // a parallel scan
    const auto input = PathKernels::keep_input(d);
    core_.run_guarded("squaring with paths on '" + core_.device().name + "' failed", [&] {
      core_.begin_solve();
      const size_t bytes = static_cast<size_t>(ld) * ld * sizeof(T);
      cl::Buffer buf[2] = {core_.buffer(0, bytes), core_.buffer(1, bytes)};
      const std::vector<cl_int> zeros(static_cast<size_t>(std::max(max_p, 1)), 0);
      cl::Buffer flags = core_.buffer(2, zeros.size() * sizeof(cl_int));
      cl::Buffer hop[2] = {core_.buffer(3, bytes), core_.buffer(4, bytes)};
      cl::Buffer via = core_.buffer(5, bytes);
      core_.write(flags, 0, zeros.size() * sizeof(cl_int), zeros.data(), true);
      core_.upload(d.data(), n, ld, buf[0]);
      paths_.init(core_, ld, buf[0], hop[0], via);
      cl::Kernel& k = paths_["minplus_square_paths"];
      const size_t groups = static_cast<size_t>(ld / w), lw = static_cast<size_t>(w);
      int cur = 0;
      for (int q = 0; q < max_p; ++q) {
        k.setArg(0, static_cast<cl_int>(ld));
        k.setArg(1, buf[cur]);
        k.setArg(2, hop[cur]);
        k.setArg(3, buf[1 - cur]);
        k.setArg(4, hop[1 - cur]);
        k.setArg(5, via);
        k.setArg(6, flags);
        k.setArg(7, static_cast<cl_int>(q));
        core_.launch(k, cl::NDRange(groups * lw, groups * lw), cl::NDRange(lw, lw));
        cl_int changed = 0;
        core_.read(flags, static_cast<size_t>(q) * sizeof(cl_int), sizeof(cl_int), &changed);
        ++st.products;
        cur = 1 - cur;
        if (!changed) break;  // a fixed point in (d, hop): final
      }
      core_.check_negative_cycle(buf[cur], n, ld);
      core_.download(d.data(), n, ld, buf[cur]);
      PathKernels::download(core_, n, ld, hop[cur], via, p);
      core_.finish(st);
    });
    PathKernels::repair(input, d, p, st);
    st.relaxations = relaxation_count(Algo::squaring, n, st.products);
    st.total = sw.seconds();
    return st;
  }

  RunStats solve(DistMatrix<T>& d, PathMatrix* paths) override {
    if (paths) {
      if (auto st = PathKernels::distances_then_paths(d, *paths, [&] { return solve(d, nullptr); })) return *st;
      return solve_paths(d, *paths);
    }
    Stopwatch sw;
    RunStats st;
    const int64_t n = d.n();
    if (n == 0) return st;
    const int64_t ld = round_up(n, tile_);
    core_.check_memory(n, ld, 2);
    const int max_p = max_products(n, any_negative(d.values()));  // a parallel scan
    core_.run_guarded("squaring on '" + core_.device().name + "' failed", [&] {
      core_.begin_solve();
      const size_t bytes = static_cast<size_t>(ld) * ld * sizeof(T);
      cl::Buffer buf[2] = {core_.buffer(0, bytes), core_.buffer(1, bytes)};
      // One "changed" slot per product, cleared once: no reset write per product.
      const std::vector<cl_int> zeros(static_cast<size_t>(std::max(max_p, 1)), 0);
      cl::Buffer flags = core_.buffer(2, zeros.size() * sizeof(cl_int));
      core_.write(flags, 0, zeros.size() * sizeof(cl_int), zeros.data(), true);
      core_.upload(d.data(), n, ld, buf[0]);
      int cur = 0;
      for (int p = 0; p < max_p; ++p) {
        kernel_.setArg(0, static_cast<cl_int>(ld));
        kernel_.setArg(1, buf[cur]);
        kernel_.setArg(2, buf[1 - cur]);
        kernel_.setArg(3, flags);
        kernel_.setArg(4, static_cast<cl_int>(p));
        // One work-item per element (paper) or per TM x TN block (tiled).
        const size_t groups = static_cast<size_t>(ld / tile_);
        core_.launch(kernel_, cl::NDRange(groups * local_[0], groups * local_[1]),
                     cl::NDRange(local_[0], local_[1]));
        cl_int changed = 0;
        core_.read(flags, static_cast<size_t>(p) * sizeof(cl_int), sizeof(cl_int), &changed);
        ++st.products;
        cur = 1 - cur;
        if (!changed) break;  // L (x) L == L: the distances are final
      }
      core_.check_negative_cycle(buf[cur], n, ld);
      core_.download(d.data(), n, ld, buf[cur]);
      core_.finish(st);
    });
    st.relaxations = relaxation_count(Algo::squaring, n, st.products);
    st.total = sw.seconds();
    return st;
  }

 private:
  OpenClCore core_;
  SolverInfo info_;
  Tunables t_;
  bool tiled_ = false;
  int wg_ = 16, tile_ = 16;  // paper's WG; edge of one work-group's output tile
  size_t local_[2] = {16, 16};
  cl::Kernel kernel_;
  PathKernels paths_;  // built on the first solve with paths
};

}  // namespace

template <typename T>
std::unique_ptr<Solver<T>> make_opencl_squaring(const SolverSpec& spec) {
  return std::make_unique<OpenClSquaring<T>>(spec);
}

template std::unique_ptr<Solver<int32_t>> make_opencl_squaring<int32_t>(const SolverSpec&);
template std::unique_ptr<Solver<float>> make_opencl_squaring<float>(const SolverSpec&);
template std::unique_ptr<Solver<double>> make_opencl_squaring<double>(const SolverSpec&);
template std::unique_ptr<Solver<int64_t>> make_opencl_squaring<int64_t>(const SolverSpec&);

}  // namespace ocl_sp::detail
