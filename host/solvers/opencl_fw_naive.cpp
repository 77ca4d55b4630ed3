// OpenCL naive Floyd-Warshall (kernels/fw_naive.cl): one launch per k over the
// unpadded n x n matrix, the global size rounded up to the WG x WG work-group.
#include <cstdint>

#include "solvers/opencl_base.hpp"
#include "solvers/opencl_paths.hpp"
#include "util/errors.hpp"

namespace ocl_sp::detail {

namespace {

template <typename T>
class OpenClFwNaive final : public Solver<T> {
 public:
  explicit OpenClFwNaive(const SolverSpec& spec) : core_(spec, ValueTraits<T>::type) {
    with_cl_errors("cannot set up fw-naive on '" + core_.device().name + "'", [&] {
      const size_t max_wg = core_.device().max_work_group;
      const int def = max_wg >= 256 ? 16 : max_wg >= 64 ? 8 : 4;
      t_ = core_.resolve(spec, {{"WG", def}},
                         {{"WG", {4, 8, 16, 32}, "work-group edge of the naive kernel"}});
      wg_ = t_.at("WG");
      const std::string what = "WG=" + std::to_string(wg_);
      const size_t w = static_cast<size_t>(wg_);
      core_.check_group(what, {w, w}, 0);
      core_.build("fw_naive.cl", t_);
      // Probe (see OpenClCore::kernel): one work-group over a WG x WG matrix.
      const cl::Buffer probe(core_.context(), CL_MEM_READ_WRITE, w * w * sizeof(T));
      kernel_ = core_.kernel("fw_naive", what, {w, w}, [&](cl::Kernel& k) {
        k.setArg(0, static_cast<cl_int>(w));
        k.setArg(1, 0);
        k.setArg(2, probe);
      });
      core_.finish_info(info_, t_);
    });
  }

  const SolverInfo& info() const override { return info_; }

  // One launch per k of fw_naive_paths (kernels/paths.cl) over d, hop and via, with
  // the solver's WG; the path program is built on the first solve with paths.
  RunStats solve_paths(DistMatrix<T>& d, PathMatrix& p) {
    Stopwatch sw;
    RunStats st;
    double setup = 0;
    const size_t w = static_cast<size_t>(wg_);
    if (!paths_.built())
      with_cl_errors("cannot set up the fw-naive path kernel on '" + core_.device().name + "'",
                     [&] {
                       const cl::Buffer pd(core_.context(), CL_MEM_READ_WRITE, w * w * sizeof(T));
                       const cl::Buffer ph(core_.context(), CL_MEM_READ_WRITE, w * w * 4);
                       const cl::Buffer pv(core_.context(), CL_MEM_READ_WRITE, w * w * 4);
                       setup = paths_.build(core_, "paths.cl", {{"WG", wg_}},
                                            {{"fw_naive_paths", {w, w}}}, "paths_init",
                                            [&](const std::string&, cl::Kernel& k) {
                                              k.setArg(0, static_cast<cl_int>(w));
                                              k.setArg(1, 0);
                                              k.setArg(2, pd);
                                              k.setArg(3, ph);
                                              k.setArg(4, pv);
                                            });
                     });
    const int64_t n = d.n();
    paths_.fill_stats(st, n, 2, setup);
    if (n == 0) {
      p = PathMatrix{};
      st.total = sw.seconds();
      return st;
    }
    core_.check_memory(n, n, 3);
    const auto input = PathKernels::keep_input(d);
    core_.run_guarded("fw-naive with paths on '" + core_.device().name + "' failed", [&] {
      core_.begin_solve();
      const size_t bytes = static_cast<size_t>(n) * n * sizeof(T);
      cl::Buffer buf = core_.buffer(0, bytes), hop = core_.buffer(1, bytes),
                 via = core_.buffer(2, bytes);
      core_.upload(d.data(), n, n, buf);
      paths_.init(core_, n, buf, hop, via);
      cl::Kernel& k = paths_["fw_naive_paths"];
      const size_t g = static_cast<size_t>(round_up(n, wg_));
      k.setArg(0, static_cast<cl_int>(n));
      k.setArg(2, buf);
      k.setArg(3, hop);
      k.setArg(4, via);
      for (int64_t kk = 0; kk < n; ++kk) {
        k.setArg(1, static_cast<cl_int>(kk));
        core_.launch(k, cl::NDRange(g, g), cl::NDRange(w, w));
      }
      core_.check_negative_cycle(buf, n, n);
      core_.download(d.data(), n, n, buf);
      PathKernels::download(core_, n, n, hop, via, p);
      core_.finish(st);
    });
    PathKernels::repair(input, d, p, st);
    st.relaxations = relaxation_count(Algo::fw_naive, n, 0);
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
    core_.check_memory(n, n, 1);
    core_.run_guarded("fw-naive on '" + core_.device().name + "' failed", [&] {
      core_.begin_solve();
      cl::Buffer buf = core_.buffer(0, static_cast<size_t>(n) * n * sizeof(T));
      core_.upload(d.data(), n, n, buf);
      const size_t g = static_cast<size_t>(round_up(n, wg_));
      const cl::NDRange global(g, g), local(static_cast<size_t>(wg_), static_cast<size_t>(wg_));
      kernel_.setArg(0, static_cast<cl_int>(n));
      kernel_.setArg(2, buf);
      for (int64_t k = 0; k < n; ++k) {
        kernel_.setArg(1, static_cast<cl_int>(k));
        core_.launch(kernel_, global, local);
      }
      core_.check_negative_cycle(buf, n, n);
      core_.download(d.data(), n, n, buf);
      core_.finish(st);
    });
    st.relaxations = relaxation_count(Algo::fw_naive, n, 0);
    st.total = sw.seconds();
    return st;
  }

 private:
  OpenClCore core_;
  SolverInfo info_;
  Tunables t_;
  int wg_ = 16;
  cl::Kernel kernel_;
  PathKernels paths_;  // built on the first solve with paths
};

}  // namespace

template <typename T>
std::unique_ptr<Solver<T>> make_opencl_fw_naive(const SolverSpec& spec) {
  return std::make_unique<OpenClFwNaive<T>>(spec);
}

template std::unique_ptr<Solver<int32_t>> make_opencl_fw_naive<int32_t>(const SolverSpec&);
template std::unique_ptr<Solver<float>> make_opencl_fw_naive<float>(const SolverSpec&);
template std::unique_ptr<Solver<double>> make_opencl_fw_naive<double>(const SolverSpec&);
template std::unique_ptr<Solver<int64_t>> make_opencl_fw_naive<int64_t>(const SolverSpec&);

}  // namespace ocl_sp::detail
