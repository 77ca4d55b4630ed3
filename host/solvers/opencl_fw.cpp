// OpenCL blocked Floyd-Warshall (kernels/fw_blocked.cl): per block round one
// launch each of phase 1 (pivot tile), phase 2 (pivot row and column tiles) and
// phase 3 (the rest). Tunables: BLOCK (tile edge) and WPT (rows per work-item, so
// that a BLOCK x BLOCK tile fits the device's work-group limit).
#include <algorithm>
#include <cstdint>

#include "solvers/opencl_base.hpp"
#include "util/errors.hpp"

namespace ocl_sp::detail {

namespace {

// Rows per work-item when not given. GPUs: 8 (H200, n = 10000, BLOCK=32: WPT=8 ran
// 5.6 Trelax/s against 2.9 for WPT=1: each Rs(k, j) read from __local serves 8
// relaxations), 2 for BLOCK=8 to keep 32 items per group. CPUs (PoCL): 1, WPT
// hardly matters there. Never fewer rows than needed to fit the work-group limit.
int default_wpt(int block, size_t max_wg, bool gpu) {
  int wpt = gpu ? (block >= 16 ? 8 : 2) : 1;
  while (wpt < 8 && wpt<block&& static_cast<size_t>(block) * block / wpt> max_wg) wpt *= 2;
  return wpt;
}

template <typename T>
class OpenClFw final : public Solver<T> {
 public:
  explicit OpenClFw(const SolverSpec& spec) : core_(spec, ValueTraits<T>::type) {
    with_cl_errors("cannot set up fw on '" + core_.device().name + "'", [&] {
      const auto& dev = core_.device();
      // 32 x 32 tiles on every device type. GPUs: the seeds' choice (H200: 64 with
      // WPT=8 was 8% faster still; `ocl_sp sweep` stores such a per-device best).
      // CPUs (PoCL, n = 800-1500): 16 and 32 are on par, 64 is 1.5x and 8 2.5x slower.
      const int def_block = 32;
      t_ = core_.resolve(spec, {{"BLOCK", def_block}, {"WPT", 1}},
                         {{"BLOCK", {8, 16, 32, 64}, "tile edge of blocked Floyd-Warshall"},
                          {"WPT", {1, 2, 4, 8}, "rows of a tile each work-item computes"}},
                         [&](Tunables& t, const Tunables& chosen) {
                           if (!chosen.count("WPT"))
                             t["WPT"] =
                                 default_wpt(t.at("BLOCK"), dev.max_work_group, core_.is_gpu());
                         });
      block_ = t_.at("BLOCK");
      wpt_ = t_.at("WPT");
      const std::string what = "BLOCK=" + std::to_string(block_) + " WPT=" + std::to_string(wpt_);
      const size_t b = static_cast<size_t>(block_), ty = b / static_cast<size_t>(wpt_);
      core_.check_group(what, {b, ty}, 2ull * b * b * sizeof(T));  // two staged tiles
      core_.build("fw_blocked.cl", t_);
      // Probe (see OpenClCore::kernel): one work-group on a 2 x 2 tile matrix, round 0
      // (phase 2's group 0 is tile (0, 1), phase 3's is tile (1, 1)).
      const cl::Buffer probe(core_.context(), CL_MEM_READ_WRITE, 4 * b * b * sizeof(T));
      for (int i = 0; i < 3; ++i)
        k_[i] = core_.kernel("fw_phase" + std::to_string(i + 1), what, {b, ty}, [&](cl::Kernel& k) {
          k.setArg(0, static_cast<cl_int>(2 * b));
          k.setArg(1, 0);
          k.setArg(2, probe);
        });
      core_.finish_info(info_, t_);
    });
  }

  const SolverInfo& info() const override { return info_; }

  RunStats solve(DistMatrix<T>& d, PathMatrix* paths) override {
    if (paths) throw UsageError("--paths is not available yet");
    Stopwatch sw;
    RunStats st;
    const int64_t n = d.n();
    if (n == 0) return st;
    const int64_t ld = round_up(n, block_);
    core_.check_memory(n, ld, 1);
    with_cl_errors("fw on '" + core_.device().name + "' failed", [&] {
      try {
        core_.begin_solve();
        cl::Buffer buf = core_.buffer(0, static_cast<size_t>(ld) * ld * sizeof(T));
        core_.upload(d.data(), n, ld, buf);
        const size_t b = static_cast<size_t>(block_), ty = b / static_cast<size_t>(wpt_);
        const size_t tiles = static_cast<size_t>(ld / block_), others = tiles - 1;
        for (auto& k : k_) {
          k.setArg(0, static_cast<cl_int>(ld));
          k.setArg(2, buf);
        }
        const cl::NDRange local(b, ty);
        for (size_t kb = 0; kb < tiles; ++kb) {
          for (auto& k : k_) k.setArg(1, static_cast<cl_int>(kb));
          core_.launch(k_[0], cl::NDRange(b, ty), local);
          if (others == 0) continue;
          core_.launch(k_[1], cl::NDRange(b * 2 * others, ty), local);
          core_.launch(k_[2], cl::NDRange(b * others, ty * others), local);
        }
        core_.check_negative_cycle(buf, n, ld);
        core_.download(d.data(), n, ld, buf);
        core_.finish(st);
      } catch (...) {
        core_.drain();
        throw;
      }
    });
    st.relaxations = relaxation_count(Algo::fw, n, 0);
    st.total = sw.seconds();
    return st;
  }

 private:
  OpenClCore core_;
  SolverInfo info_;
  Tunables t_;
  int block_ = 32, wpt_ = 1;
  cl::Kernel k_[3];
};

}  // namespace

template <typename T>
std::unique_ptr<Solver<T>> make_opencl_fw(const SolverSpec& spec) {
  return std::make_unique<OpenClFw<T>>(spec);
}

template std::unique_ptr<Solver<int32_t>> make_opencl_fw<int32_t>(const SolverSpec&);
template std::unique_ptr<Solver<float>> make_opencl_fw<float>(const SolverSpec&);

}  // namespace ocl_sp::detail
