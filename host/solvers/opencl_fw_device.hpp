// One device of an OpenCL fw solve (opencl_fw.cpp): the context, the FW kernels
// of the chosen family (TILED 0, 1, 2: see opencl_fw.cpp) and the panel engine's
// primitives (close a panel, GEMM-accumulate). Used by the fw solver, the panel
// engine's device factory and the tests through them; kept apart from the
// solver's paths and placement so that each file is one concern.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <type_traits>

#include "solvers/opencl_base.hpp"
#include "solvers/panel_engine.hpp"
#include "util/env.hpp"
#include "util/errors.hpp"
#include "util/sysinfo.hpp"

namespace ocl_sp::detail {

// Tile edge of the CPU-shaped kernels (TILED=2) when not given: the default on
// CPU devices (PoCL, 2-core EPYC, n = 2000: 128 ran 10-25% faster than 64, on par
// at n = 500 and 5000; 32 slower; docs/performance/dense.md).
constexpr int kCpuBlock = 128;

// Tiles per outer block of the two-level order on NVIDIA (BLOCK = 128, P = 1024):
// H100 fw n = 10 000 87.8 ms against 100 ms for one level, 89.1 for 4 tiles, 90.2
// for 16; n = 20 000 651 ms against 764 (docs/performance/dense.md "Two-level fw"). Other
// GPUs keep one level (never timed there).
constexpr int kNvidiaOuter = 8;

// Rows per work-item when not given. GPUs: 8 (H200, n = 10000, BLOCK=32: WPT=8 ran
// 5.6 Trelax/s against 2.9 for WPT=1: each Rs(k, j) read from __local serves 8
// relaxations), 2 for BLOCK=8 to keep 32 items per group. CPUs (PoCL): 1, WPT
// hardly matters there. Never fewer rows than needed to fit the work-group limit.
inline int default_wpt(int block, size_t max_wg, bool gpu) {
  int wpt = gpu ? (block >= 16 ? 8 : 2) : 1;
  while (wpt < 8 && wpt<block&& static_cast<size_t>(block) * block / wpt> max_wg) wpt *= 2;
  return wpt;
}

// `part` of the register-tiled kernels beside phase 3's 0-2 (kernels/minplus_tiled.cl
// FW_PART_PHASE2, FW_PART_OUTER): the work of fw_tiled_phase2 and fw_tiled_outer,
// which with ONE_FW_KERNEL are parts of fw_tiled_phase3.
constexpr int kPartPhase2 = 3, kPartOuter = 4;

// One device of an fw solve: its context, the FW kernels of the chosen family and
// the panel engine's primitives (close a panel, GEMM-accumulate).
template <typename T>
class FwDevice final : public PanelDevice {
 public:
  FwDevice(const DeviceEntry& entry, const SolverSpec& spec)
      : core_(entry, Algo::fw, ValueTraits<T>::type) {
    with_cl_errors("cannot set up fw on '" + core_.device().name + "'", [&] {
      const auto& dev = core_.device();
      // Built-in defaults; `ocl_sp sweep` stores better ones per device. GPUs: the
      // register-tiled kernels (docs/performance/dense.md). CPUs (PoCL): the CPU-shaped
      // kernels (docs/performance/dense.md, "CPU-shaped FW"); the seeds' kernels there run
      // best with 32 x 32 tiles (n = 800-1500; 16 on par, 64 1.5x, 8 2.5x slower).
      // NVIDIA: 128 x 128 tiles, 8 x 8 per work-item (H200, n = 10000: 98 ms
      // against 108 ms for 64 x 64 / 4 x 8, which other GPUs keep: it needs half
      // the registers per work-item and was never timed on AMD hardware).
      // NVIDIA sm_80+: the cp.async staging ring with KC = 16 (two buffers of 16
      // fit the 48 KiB of __local memory; H100 n = 10 000 87.1 -> 76.4 ms).
      const bool gpu = core_.is_gpu();
      const int stages = default_stages(dev);
      // 64-bit types (H100 sweep at n = 10 000, docs/performance/dense.md "float64 and int64"):
      // BLOCK 64 keeps the ring within 48 KiB (2 x 16 x 2 x 64 x 8 B = 32 KiB);
      // int64 8 x 8 (T_k 334 ms), float64 4 x 8 (341 ms) per work-item.
      const bool wide = sizeof(T) == 8;
      Tunables defaults =
          !gpu ? Tunables{{"TILED", 2}, {"BLOCK", kCpuBlock}}
          : dev.vendor_key() == "nvidia"
              ? (wide ? Tunables{{"TILED", 1}, {"BLOCK", 64}, {"TM", std::is_integral_v<T> ? 8 : 4},
                                 {"TN", 8}, {"KC", 16}, {"OUTER", kNvidiaOuter}}
                      : Tunables{{"TILED", 1}, {"BLOCK", 128}, {"TM", 8}, {"TN", 8},
                                 {"KC", stages > 1 ? 16 : 32}, {"OUTER", kNvidiaOuter}})
              : Tunables{{"TILED", 1}, {"BLOCK", 64}, {"TM", 4}, {"TN", 8}, {"KC", 16}};
      if (gpu && stages > 1) defaults["STAGES"] = stages;
      auto rules = tiled_rules();
      for (auto& r : rules)
        if (r.name == "TILED") {
          r.allowed = {0, 1, 2};
          r.meaning = "kernel family: 0 = the seeds' kernels, 1 = register-tiled, 2 = CPU-shaped";
        }
      rules.push_back({"BLOCK", {8, 16, 32, 64, 128}, "tile edge of blocked Floyd-Warshall"});
      rules.push_back({"WPT", {1, 2, 4, 8}, "rows of a tile each work-item computes (TILED=0)"});
      rules.push_back({"OUTER", {1, 2, 4, 8, 16},
                       "tiles per outer block of the two-level order, 1 = one level (TILED=1)"});
      t_ = core_.resolve(spec, defaults, rules, [&](Tunables& t, const Tunables& chosen) {
        // The family follows the tunables given (WPT -> seeds', TM/TN/KC ->
        // register-tiled; TILED=2 takes none of them); then the other families'
        // defaults are dropped. A BLOCK below 32 exists only in the seeds' kernels.
        const bool small_block = chosen.count("BLOCK") && chosen.at("BLOCK") < 32;
        int family = 0;
        if (chosen.count("TILED") && chosen.at("TILED") == 2) {
          for (const char* k : {"WPT", "TM", "TN", "KC", "OUTER", "STAGES"})
            if (chosen.count(k))
              throw UsageError(std::string(k) + " belongs to the " +
                               (k == std::string("WPT") ? "seeds' kernels (TILED=0)"
                                                        : "register-tiled kernels (TILED=1)") +
                               ", not to the CPU-shaped ones (TILED=2), which take only BLOCK");
          family = 2;
        } else {
          family = resolve_family(chosen, small_block ? 0 : defaults.at("TILED"),
                                  {"TM", "TN", "KC", "OUTER", "STAGES"}, {"WPT"});
        }
        t["TILED"] = family;
        // Another family than the default: its own default tile edge.
        if (!chosen.count("BLOCK") && family != defaults.at("TILED"))
          t["BLOCK"] = family == 2 ? kCpuBlock : family == 1 ? 64 : gpu ? 64 : 32;
        if (family == 0) {
          if (!chosen.count("WPT"))
            t["WPT"] = default_wpt(t.at("BLOCK"), dev.max_work_group, gpu);
        } else {
          t.erase("WPT");
        }
        if (family == 2) {
          for (const char* k : {"TM", "TN", "KC", "STAGES"}) t.erase(k);
        } else {
          complete_tiled(t);
          fit_stages(t, chosen, dev.local_mem, sizeof(T));
        }
        // One level is the plain blocked FW: no OUTER in the parameters then.
        if (family != 1 || (t.count("OUTER") && t.at("OUTER") == 1)) t.erase("OUTER");
      });
      family_ = t_.at("TILED");
      block_ = t_.at("BLOCK");
      outer_ = t_.count("OUTER") ? t_.at("OUTER") : 1;
      const size_t b = static_cast<size_t>(block_);
      std::string what = "BLOCK=" + std::to_string(block_);
      std::string file = "fw_blocked.cl", prefix = "fw_phase";
      unsigned long long local_bytes = 2ull * b * b * sizeof(T);  // two staged tiles
      if (family_ == 1) {
        const TiledShape shape = tiled_shape(t_, sizeof(T));
        what = shape.what;
        local_[0] = shape.local[0];
        local_[1] = shape.local[1];
        local_bytes = shape.local_bytes;
        file = "minplus_tiled.cl";
        prefix = "fw_tiled_phase";
      } else if (family_ == 2) {
        what = "TILED=2 " + what;
        if (block_ < 32)
          throw UsageError(what + ": the CPU-shaped kernels (TILED=2) take BLOCK 32, 64 or 128");
        // One work-item per tile; the staged operand tiles (two up to BLOCK=64, the
        // row operand alone above: kernels/fw_cpu.cl, STAGE_A).
        local_[0] = local_[1] = 1;
        local_bytes = (block_ <= 64 ? 2ull : 1ull) * b * b * sizeof(T);
        file = "fw_cpu.cl";
        prefix = "fw_cpu_phase";
      } else {
        if (block_ > 64) throw UsageError(what + " needs TILED=1 or TILED=2 (the seeds' kernels take <= 64)");
        what += " WPT=" + std::to_string(t_.at("WPT"));
        local_[0] = b;
        local_[1] = b / static_cast<size_t>(t_.at("WPT"));
      }
      core_.check_group(what, {local_[0], local_[1]}, local_bytes);
      // OUTER is a run-time argument of the kernels, not part of the program.
      Tunables build_t = t_;
      build_t.erase("OUTER");
      // TILED=1 (kernels/minplus_tiled.cl, "cold start"): with the staging ring one
      // kernel does phases 2 and 3 and the outer GEMM (ONE_FW_KERNEL: the driver
      // compiles their code once); else each kernel is a program of its own, the
      // three compiled side by side. Integer types only: the one kernel's T_k is
      // 1.2 % (int32) and 0.4 % (int64) below the three kernels', but float32's 9.5 %
      // and float64's 3.6 % above (H100 n = 10 000: int32 75.3 / 76.2 ms, int64
      // 332.8 / 334.1, float32 103.4 / 94.5, float64 353.1 / 340.9 ms;
      // docs/performance/dense.md "One fw kernel by value type").
      // OCL_SP_FW_SEPARATE_KERNELS=1: the three kernels with the ring for every
      // type (comparisons).
      const bool one_kernel = family_ == 1 && std::is_integral_v<T> && build_t.count("STAGES") &&
                              build_t.at("STAGES") > 1 &&
                              !env_flag("OCL_SP_FW_SEPARATE_KERNELS");
      std::vector<std::string> parts;
      if (family_ == 1 && !one_kernel) parts = {"-DFW_ONLY=2", "-DFW_ONLY=3", "-DFW_ONLY=4"};
      core_.build(file, build_t,
                  family_ != 1 ? "" : one_kernel ? "-DTILED_FW -DONE_FW_KERNEL" : "-DTILED_FW",
                  parts);
      // Probe (see OpenClCore::kernel): one work-group on a 2 x 2 tile matrix, round 0
      // (phase 2's group 0 is tile (0, 1), phase 3's is tile (1, 1); the outer
      // GEMM's of block 0 with one tile is tile (1, 1)). TILED=1: every kernel
      // takes (ld, kb, d, n, o0, pt, part); `part` selects the work of the one
      // kernel and is set once here.
      const cl::Buffer probe(core_.context(), CL_MEM_READ_WRITE, 4 * b * b * sizeof(T));
      const auto tiled_args = [&](cl::Kernel& k, int pt, int part) {
        k.setArg(0, static_cast<cl_int>(2 * b));
        k.setArg(1, 0);
        k.setArg(2, probe);
        k.setArg(3, static_cast<cl_int>(2 * b));
        k.setArg(4, 0);
        k.setArg(5, pt);
        k.setArg(6, part);
      };
      for (int i = family_ == 1 ? 1 : 0; i < 3; ++i)  // TILED=1: no phase-1 kernel
        k_[i] = core_.kernel(one_kernel ? "fw_tiled_phase3" : prefix + std::to_string(i + 1),
                             what, {local_[0], local_[1]}, [&](cl::Kernel& k) {
                               if (family_ == 1) return tiled_args(k, 2, i == 1 ? kPartPhase2 : 0);
                               k.setArg(0, static_cast<cl_int>(2 * b));
                               k.setArg(1, 0);
                               k.setArg(2, probe);
                             });
      if (family_ == 1)
        outer_k_ = core_.kernel(one_kernel ? "fw_tiled_phase3" : "fw_tiled_outer", what,
                                {local_[0], local_[1]},
                                [&](cl::Kernel& k) { tiled_args(k, 1, kPartOuter); });
      if (family_ == 1) {  // the arguments enqueue_tiled leaves alone (a probe may not run)
        k_[1].setArg(4, 0);
        k_[1].setArg(5, 0);
        k_[1].setArg(6, kPartPhase2);
        outer_k_.setArg(6, kPartOuter);
      }
      core_.finish_info(info_, t_);
    });
  }


  OpenClCore& core() override { return core_; }

  // Blocked FW rounds over the ld x ld matrix in buf (n real vertices); returns
  // the last launch's event.
  cl::Event enqueue_fw(cl::Buffer& buf, int64_t ld, int64_t n) {
    const size_t lx = local_[0], ly = local_[1];
    const size_t tiles = static_cast<size_t>(ld / block_), others = tiles - 1;
    for (auto& k : k_) {
      if (!k()) continue;  // TILED=1 has no phase-1 kernel
      k.setArg(0, static_cast<cl_int>(ld));
      k.setArg(2, buf);
    }
    if (family_ == 1) return enqueue_tiled(buf, ld, n);
    const cl::NDRange local(lx, ly);
    // Phase 2/3 grids: the seeds' kernels skip the pivot row/column in their
    // index maps; the CPU-shaped ones get the full grid and the pivot groups return.
    const bool full = family_ != 0;
    const size_t g2 = full ? 2 * tiles : 2 * others, g3 = full ? tiles : others;
    cl::Event ev;
    for (size_t kb = 0; kb < tiles; ++kb) {
      for (auto& k : k_) k.setArg(1, static_cast<cl_int>(kb));
      ev = core_.launch_after(k_[0], cl::NDRange(lx, ly), local, {});
      if (others == 0) continue;
      ev = core_.launch_after(k_[1], cl::NDRange(lx * g2, ly), local, {});
      ev = core_.launch_after(k_[2], cl::NDRange(lx * g3, ly * g3), local, {});
    }
    return ev;
  }

  // The register-tiled family (kernels/minplus_tiled.cl) in the two-level order:
  // outer blocks of outer_ tiles; for each, its rounds' phases 2 and 3 on the
  // cross of its rows and columns, then one GEMM k = outer_ * BLOCK deep for the
  // tiles outside (OUTER = 1 or >= tiles: plain blocked FW), phase 3 split over two
  // queues (below; OCL_SP_FW_ONE_QUEUE=1: one queue, whole). Round 0's pivot is
  // closed by the outer kernel with an empty product (one group), the later ones
  // by the phase 3 or outer GEMM before them.
  cl::Event enqueue_tiled(cl::Buffer& buf, int64_t ld, int64_t n) {
    const size_t lx = local_[0], ly = local_[1];
    const cl::NDRange local(lx, ly);
    const int tiles = static_cast<int>(ld / block_);
    // Arguments (ld, kb, d, n, o0, pt, part); part stays as the constructor set it,
    // except phase 3's. Phase 2 reads ld, kb, d (and n as a part of the one kernel).
    k_[1].setArg(3, static_cast<cl_int>(n));
    k_[2].setArg(3, static_cast<cl_int>(n));
    outer_k_.setArg(0, static_cast<cl_int>(ld));
    outer_k_.setArg(1, 0);
    outer_k_.setArg(2, buf);
    outer_k_.setArg(3, static_cast<cl_int>(n));
    outer_k_.setArg(4, 0);  // o0
    outer_k_.setArg(5, 0);  // pt
    cl::Event ev = core_.launch_after(outer_k_, cl::NDRange(lx, ly), local, {});
    if (tiles == 1) return ev;
    const int step = outer_ > 1 ? outer_ : tiles;  // OUTER = 1: one level
    const cl::NDRange pivots(lx * 2 * static_cast<size_t>(tiles), ly);  // phase 2, part 1
    // Phase 3 of a round whose next pivot lies in the same block runs in two parts
    // (kernels/minplus_tiled.cl): part 1, the next pivot row and column, on the
    // compute queue, then the next round's phase 2 there, beside part 2 (the rest)
    // on the side queue; the next part 1 waits for part 2 (the tiles it updates got
    // this round's update there). The last round of a block runs whole.
    cl::Event side;  // the side queue's last part 2
    for (int o0 = 0; o0 < tiles; o0 += step) {
      const int pt = std::min(step, tiles - o0), rest = tiles - pt;
      k_[2].setArg(4, static_cast<cl_int>(o0));
      k_[2].setArg(5, static_cast<cl_int>(pt));
      const size_t cross = static_cast<size_t>(pt) * tiles + static_cast<size_t>(rest) * pt;
      for (int kb = o0; kb < o0 + pt; ++kb) {
        k_[1].setArg(1, static_cast<cl_int>(kb));
        k_[2].setArg(1, static_cast<cl_int>(kb));
        const cl::Event p2 = core_.launch_after(k_[1], pivots, local, {});
        std::vector<cl::Event> after_side;
        if (side()) after_side.push_back(side);
        if (two_queues_ && kb + 1 < o0 + pt) {
          k_[2].setArg(6, 1);
          ev = core_.launch_after(k_[2], pivots, local, after_side);
          k_[2].setArg(6, 2);
          side = core_.launch_after(k_[2], cl::NDRange(lx * cross, ly), local, {p2},
                                    OpenClCore::kSide);
        } else {
          k_[2].setArg(6, 0);
          ev = core_.launch_after(k_[2], cl::NDRange(lx * cross, ly), local, after_side);
          side = cl::Event();
        }
      }
      if (rest == 0) continue;
      outer_k_.setArg(4, static_cast<cl_int>(o0));
      outer_k_.setArg(5, static_cast<cl_int>(pt));
      const size_t r = static_cast<size_t>(rest);
      ev = core_.launch_after(outer_k_, cl::NDRange(lx * r, ly * r), local, {});
    }
    return ev;
  }

  cl::Event close_panel(cl::Buffer& buf, int64_t p, int64_t real) override {
    return enqueue_fw(buf, p, std::max<int64_t>(real, 1));
  }

  // The GEMM-accumulate's shape (kernels/minplus_tiled.cl, -DTILED_PANEL) for
  // panels of edge p (0: not known): the solver's own register tiling when it runs
  // that family, else the GPU/CPU default shape. With the built-in tunables on
  // NVIDIA sm_80+, 4-byte values and panels below kSmallPanel: 64 x 64 tiles, 8 x 4
  // a work-item, a ring of three 16-deep chunks (one H200, n = 20 480, P = 2560:
  // 12.5 T relaxations/s against 11.1 for the 128 x 128 tiles, which stay ahead
  // at P = 5120 (13.9 against 13.8) and 6272 (14.4 against 13.9);
  // docs/performance/dense.md "The panel GEMM's shape by panel edge").
  static constexpr int64_t kSmallPanel = 4096;
  Tunables gemm_shape(int64_t p) const {
    const bool nvidia = core_.device().vendor_key() == "nvidia";
    const int stages = default_stages(core_.device());
    if (family_ == 1 && nvidia && sizeof(T) == 4 && stages > 1 && p > 0 && p < kSmallPanel &&
        core_.params_source() == "built-in")
      return {{"BLOCK", 64}, {"TM", 8}, {"TN", 4}, {"KC", 16}, {"STAGES", 3}, {"TILED", 1}};
    const int nv_kc = stages > 1 ? 16 : 32;
    Tunables t = family_ == 1 ? Tunables{{"BLOCK", block_}, {"TM", t_.at("TM")}, {"TN", t_.at("TN")},
                                         {"KC", t_.at("KC")}}
                 : nvidia     ? (sizeof(T) == 8 ? Tunables{{"BLOCK", 64}, {"TM", 8}, {"TN", 8}, {"KC", 16}}
                                                : Tunables{{"BLOCK", 128}, {"TM", 8}, {"TN", 8}, {"KC", nv_kc}})
                              : Tunables{{"BLOCK", 64}, {"TM", 4}, {"TN", 8}, {"KC", 16}};
    // The ring where the solver's own tiling has it, or by default (NVIDIA sm_80+).
    if (family_ == 1 ? t_.count("STAGES") > 0 : stages > 1)
      t["STAGES"] = family_ == 1 ? t_.at("STAGES") : stages;
    t["TILED"] = 1;
    return t;
  }
  void prepare_gemm(int64_t p) override { build_gemm(p); }
  // Builds the GEMM of gemm_shape(p), unless it is the one built.
  void build_gemm(int64_t p = 0) {
    Tunables want = gemm_shape(p);
    if (gemm_() && want == gemm_t_) return;
    gemm_t_ = std::move(want);
    const TiledShape shape = tiled_shape(gemm_t_, sizeof(T));
    gemm_local_[0] = shape.local[0];
    gemm_local_[1] = shape.local[1];
    core_.check_group("panel GEMM " + shape.what, {gemm_local_[0], gemm_local_[1]},
                      shape.local_bytes);
    with_cl_errors("cannot build the panel GEMM on '" + core_.device().name + "'", [&] {
      gemm_program_ = core_.build_separate("minplus_tiled.cl", gemm_t_, "-DTILED_PANEL").program;
      const size_t b = static_cast<size_t>(gemm_t_.at("BLOCK"));
      const cl::Buffer probe(core_.context(), CL_MEM_READ_WRITE, b * b * sizeof(T));
      gemm_ = core_.kernel("minplus_tiled_acc", shape.what, {gemm_local_[0], gemm_local_[1]},
                           [&](cl::Kernel& k) {
                             k.setArg(0, static_cast<cl_int>(b));
                             k.setArg(1, probe);
                             k.setArg(2, probe);
                             k.setArg(3, probe);
                             k.setArg(4, static_cast<cl_int>(b));
                             k.setArg(5, static_cast<cl_int>(0));
                           },
                           &gemm_program_);
    });
  }

  cl::Event gemm_acc(cl::Buffer& c, cl::Buffer& a, cl::Buffer& b, int64_t p, int64_t rows,
                     int64_t cols = 0) override {
    const int64_t block = gemm_t_.at("BLOCK"), tiles = p / block;
    // Trimmed: the row and column tiles that hold real vertices (group ids stay
    // the tiles' indices, so the kernel is the same).
    const int64_t rt = cols > 0 ? std::min(tiles, (rows + block - 1) / block) : tiles;
    const int64_t ct = cols > 0 ? std::min(tiles, (cols + block - 1) / block) : tiles;
    gemm_.setArg(0, static_cast<cl_int>(p));
    gemm_.setArg(1, a);
    gemm_.setArg(2, b);
    gemm_.setArg(3, c);
    gemm_.setArg(4, static_cast<cl_int>(rows));
    gemm_.setArg(5, static_cast<cl_int>(0));
    return core_.launch_after(
        gemm_,
        cl::NDRange(gemm_local_[0] * static_cast<size_t>(ct), gemm_local_[1] * static_cast<size_t>(rt)),
        cl::NDRange(gemm_local_[0], gemm_local_[1]), {});
  }
  cl::Event gemm_acc_panels(cl::Buffer& c, cl::Buffer& a, cl::Buffer& b, int64_t p, int64_t rows, int64_t first,
                            int64_t count) override {
    const int64_t block = gemm_t_.at("BLOCK"), tiles = p / block;
    const int64_t rt = std::min(tiles, (rows + block - 1) / block);
    gemm_.setArg(0, static_cast<cl_int>(p));
    gemm_.setArg(1, a);
    gemm_.setArg(2, b);
    gemm_.setArg(3, c);
    gemm_.setArg(4, static_cast<cl_int>(rows));
    gemm_.setArg(5, static_cast<cl_int>(first));
    return core_.launch_after(gemm_,
                              cl::NDRange(gemm_local_[0] * static_cast<size_t>(tiles),
                                          gemm_local_[1] * static_cast<size_t>(rt), static_cast<size_t>(count)),
                              cl::NDRange(gemm_local_[0], gemm_local_[1], 1), {});
  }

  int panel_multiple() const override { return kFwPanelMultiple; }

  OpenClCore core_;
  SolverInfo info_;
  Tunables t_;
  int family_ = 0;  // TILED
  int block_ = 32;
  int outer_ = 1;  // OUTER: tiles per outer block (TILED=1)
  // TILED=1: phase 3's parts on two queues (enqueue_tiled); OCL_SP_FW_ONE_QUEUE=1
  // keeps everything on one (comparisons).
  bool two_queues_ = !env_flag("OCL_SP_FW_ONE_QUEUE");
  size_t local_[2] = {32, 32};
  cl::Kernel k_[3];
  cl::Kernel outer_k_;  // fw_tiled_outer (TILED=1)
  Tunables gemm_t_;
  size_t gemm_local_[2] = {16, 16};
  cl::Program gemm_program_;
  cl::Kernel gemm_;
};

}  // namespace ocl_sp::detail
