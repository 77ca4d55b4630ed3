// OpenCL blocked Floyd-Warshall (kernels/fw_blocked.cl): per block round one
// launch each of phase 1 (pivot tile), phase 2 (pivot row and column tiles) and
// phase 3 (the rest). Two kernel families, chosen by the tunable TILED:
//  0: kernels/fw_blocked.cl, the seeds' design; BLOCK (tile edge) and WPT (rows per
//     work-item, so that a BLOCK x BLOCK tile fits the device's work-group limit);
//  1: kernels/minplus_tiled.cl, register-tiled: each work-item owns TM x TN
//     elements, phase 3 is a (min,+) GEMM staged KC values of k at a time.
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
      // Built-in defaults; `ocl_sp sweep` stores better ones per device. GPUs: the
      // register-tiled kernels (bench/NOTES.md). CPUs (PoCL, n = 800-1500): the
      // seeds' kernels with 32 x 32 tiles; 16 is on par, 64 1.5x and 8 2.5x slower.
      const Tunables defaults =
          core_.is_gpu() ? Tunables{{"TILED", 1}, {"BLOCK", 128}, {"TM", 8}, {"TN", 8}, {"KC", 16}}
                         : Tunables{{"TILED", 0}, {"BLOCK", 32}};
      auto rules = tiled_rules();
      rules.push_back({"BLOCK", {8, 16, 32, 64, 128}, "tile edge of blocked Floyd-Warshall"});
      rules.push_back({"WPT", {1, 2, 4, 8}, "rows of a tile each work-item computes (TILED=0)"});
      t_ = core_.resolve(spec, defaults, rules, [&](Tunables& t, const Tunables& chosen) {
        // The family follows the tunables given (WPT -> seeds', TM/TN/KC ->
        // tiled); then the other family's defaults are dropped.
        // A BLOCK below 32 exists only in the seeds' kernels.
        const bool small_block = chosen.count("BLOCK") && chosen.at("BLOCK") < 32;
        const int tiled = resolve_family(chosen, small_block ? 0 : defaults.at("TILED"),
                                         {"TM", "TN", "KC"}, {"WPT"});
        t["TILED"] = tiled;
        if (tiled) {
          if (!chosen.count("BLOCK") && !defaults.at("TILED")) t["BLOCK"] = 64;
          t.erase("WPT");
        } else {
          if (!chosen.count("BLOCK") && t.at("BLOCK") > 64) t["BLOCK"] = 32;
          if (!chosen.count("WPT"))
            t["WPT"] = default_wpt(t.at("BLOCK"), dev.max_work_group, core_.is_gpu());
        }
        complete_tiled(t);
      });
      tiled_ = t_.at("TILED") != 0;
      block_ = t_.at("BLOCK");
      const size_t b = static_cast<size_t>(block_);
      std::string what = "BLOCK=" + std::to_string(block_);
      std::string file = "fw_blocked.cl", prefix = "fw_phase";
      unsigned long long local_bytes = 2ull * b * b * sizeof(T);  // two staged tiles
      if (tiled_) {
        const TiledShape shape = tiled_shape(t_, sizeof(T));
        what = shape.what;
        local_[0] = shape.local[0];
        local_[1] = shape.local[1];
        local_bytes = shape.local_bytes;
        file = "minplus_tiled.cl";
        prefix = "fw_tiled_phase";
      } else {
        if (block_ > 64) throw UsageError(what + " needs TILED=1 (the seeds' kernels take <= 64)");
        what += " WPT=" + std::to_string(t_.at("WPT"));
        local_[0] = b;
        local_[1] = b / static_cast<size_t>(t_.at("WPT"));
      }
      core_.check_group(what, {local_[0], local_[1]}, local_bytes);
      core_.build(file, t_);
      // Probe (see OpenClCore::kernel): one work-group on a 2 x 2 tile matrix, round 0
      // (phase 2's group 0 is tile (0, 1), phase 3's is tile (1, 1)).
      const cl::Buffer probe(core_.context(), CL_MEM_READ_WRITE, 4 * b * b * sizeof(T));
      for (int i = 0; i < 3; ++i)
        k_[i] = core_.kernel(prefix + std::to_string(i + 1), what, {local_[0], local_[1]},
                             [&](cl::Kernel& k) {
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
        const size_t lx = local_[0], ly = local_[1];
        const size_t tiles = static_cast<size_t>(ld / block_), others = tiles - 1;
        for (auto& k : k_) {
          k.setArg(0, static_cast<cl_int>(ld));
          k.setArg(2, buf);
        }
        const cl::NDRange local(lx, ly);
        // Phase 2/3 grids: the seeds' kernels skip the pivot row/column in their
        // index maps; the tiled ones get the full grid and the pivot groups return.
        const size_t g2 = tiled_ ? 2 * tiles : 2 * others, g3 = tiled_ ? tiles : others;
        for (size_t kb = 0; kb < tiles; ++kb) {
          for (auto& k : k_) k.setArg(1, static_cast<cl_int>(kb));
          core_.launch(k_[0], cl::NDRange(lx, ly), local);
          if (others == 0) continue;
          core_.launch(k_[1], cl::NDRange(lx * g2, ly), local);
          core_.launch(k_[2], cl::NDRange(lx * g3, ly * g3), local);
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
  bool tiled_ = false;
  int block_ = 32;
  size_t local_[2] = {32, 32};
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
