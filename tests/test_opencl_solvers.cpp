// OpenCL solvers on PoCL against the serial CPU reference fw_serial: every
// algorithm x value type x tunable value, on random graphs (printed seeds) with
// negative edges (vertex potentials, so no negative cycle), zero weights and
// disconnected parts, for n around every tile boundary; one solver object per
// configuration reused across sizes (as bench does). Plus negative cycles, bad
// tunables, --paths, memory refusal and the SolverInfo / RunStats contract.
#include <doctest/doctest.h>

#include <cmath>

#include "cpu/cpu_solvers.hpp"
#include "solvers/opencl_base.hpp"
#include "solvers/opencl_solvers.hpp"
#include "test_opencl_common.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;
using ocl_sp_test::random_graph;

namespace {

const std::vector<int64_t> kSizes = {1, 2, 3, 15, 16, 17, 31, 33, 64, 65, 100, 257};
constexpr uint64_t kBaseSeed = 20261122;

template <typename T>
bool close(T a, T b, double rel) {
  if (a == b) return true;
  if (std::isinf(static_cast<double>(a)) || std::isinf(static_cast<double>(b))) return false;
  return std::fabs(static_cast<double>(a) - b) <=
         rel * std::max(1.0, std::fabs(static_cast<double>(b)));
}

// Solves random graphs of every size with `s` and compares with fw_serial:
// exact unless rel > 0.
template <typename T>
void check_against_reference(Solver<T>& s, double rel = 0, bool fraction = false) {
  for (int64_t n : kSizes) {
    const uint64_t seed = kBaseSeed + static_cast<uint64_t>(n);
    INFO("n = " << n << ", seed = " << seed << ", params " << to_string(s.info().params));
    DistMatrix<T> ref = random_graph<T>(n, seed, fraction);
    DistMatrix<T> got = ref;
    const bool negative = has_negative_weights(ref);
    fw_serial(ref, nullptr);
    const RunStats st = s.solve(got, nullptr);
    CHECK(st.kernel_launches > 0);
    CHECK(st.t_k > 0);
    CHECK(st.t_h > 0);
    CHECK(st.total >= st.t_k);
    if (s.info().algo == "squaring") {
      CHECK(st.products <= max_products(n, negative));
      CHECK(st.relaxations == doctest::Approx(relaxation_count(Algo::squaring, n, st.products)));
    } else {
      CHECK(st.relaxations == doctest::Approx(static_cast<double>(n) * n * n));
    }
    if (rel == 0) {
      int64_t bad = 0;
      for (int64_t i = 0; i < n && bad < 5; ++i)
        for (int64_t j = 0; j < n && bad < 5; ++j)
          if (!(got(i, j) == ref(i, j))) {
            ++bad;
            MESSAGE("d(" << i << "," << j << ") = " << got(i, j) << ", reference " << ref(i, j));
          }
      CHECK(bad == 0);
    } else {
      int64_t bad = 0;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) bad += !close(got(i, j), ref(i, j), rel);
      CHECK(bad == 0);
    }
  }
}

template <typename T>
void check_negative_cycles(Algo a, Tunables t = {}) {
  INFO("algo " << to_string(a) << " " << to_string(t) << ", type " << ValueTraits<T>::name());
  auto s = make_opencl_solver<T>(spec(a, t));
  // A self-loop of negative weight is a negative cycle (n = 1: no product at all).
  DistMatrix<T> one(1);
  one(0, 0) = -1;
  try {
    s->solve(one, nullptr);
    FAIL("no NegativeCycleError");
  } catch (const NegativeCycleError& e) {
    CHECK(e.vertex == 0);
  }
  // A negative 3-cycle hidden in a larger graph, far from vertex 0.
  for (int64_t n : {5, 17, 40, 70}) {
    const uint64_t seed = kBaseSeed * 3 + static_cast<uint64_t>(n);
    INFO("n = " << n << ", seed = " << seed);
    DistMatrix<T> d = random_graph<T>(n, seed);
    const int64_t a0 = n - 3, a1 = n / 2, a2 = n - 1;
    d(a0, a1) = 2;
    d(a1, a2) = 1;
    d(a2, a0) = -4;
    try {
      s->solve(d, nullptr);
      FAIL("no NegativeCycleError");
    } catch (const NegativeCycleError& e) {
      CHECK(e.vertex >= 0);
      CHECK(e.vertex < n);
    }
  }
  // The solver is still usable after the error.
  DistMatrix<T> ok = random_graph<T>(33, kBaseSeed), ref = ok;
  fw_serial(ref, nullptr);
  s->solve(ok, nullptr);
  CHECK(ok == ref);
}

}  // namespace

TEST_SUITE("opencl_solvers") {
  TEST_CASE("squaring int32: every WG, bit-exact vs fw_serial") {
    for (int wg : {4, 8, 16, 32}) {
      auto s = make_opencl_solver<int32_t>(spec(Algo::squaring, {{"WG", wg}}));
      CHECK(s->info().params.at("WG") == wg);
      check_against_reference(*s);
    }
  }

  TEST_CASE("squaring float32: every WG, integral weights exact, fractional within 1e-5") {
    for (int wg : {4, 8, 16, 32}) {
      auto s = make_opencl_solver<float>(spec(Algo::squaring, {{"WG", wg}}));
      check_against_reference(*s);
      check_against_reference(*s, 1e-5, true);
    }
  }

  TEST_CASE("fw int32: every BLOCK (and WPT variants), bit-exact vs fw_serial") {
    for (int block : {8, 16, 32, 64}) {
      auto s = make_opencl_solver<int32_t>(spec(Algo::fw, {{"BLOCK", block}}));
      CHECK(s->info().params.at("BLOCK") == block);
      check_against_reference(*s);
    }
    // Several rows per work-item: the path of devices capped at 256 work-items
    // per group (BLOCK=32 then runs 32 x 8 items with 4 rows each).
    auto s = make_opencl_solver<int32_t>(spec(Algo::fw, {{"BLOCK", 32}, {"WPT", 4}}));
    CHECK(s->info().params.at("WPT") == 4);
    check_against_reference(*s);
  }

  TEST_CASE("fw float32: every BLOCK, exact vs fw_serial<float>") {
    for (int block : {8, 16, 32, 64}) {
      auto s = make_opencl_solver<float>(spec(Algo::fw, {{"BLOCK", block}}));
      check_against_reference(*s);
      check_against_reference(*s, 1e-5, true);
    }
  }

  // The register-tiled family: every BLOCK, every TM x TN shape, every KC appear.
  const std::vector<Tunables> kTiledShapes = {
      {{"TILED", 1}, {"BLOCK", 32}, {"TM", 4}, {"TN", 4}, {"KC", 8}},
      {{"TILED", 1}, {"BLOCK", 64}, {"TM", 8}, {"TN", 4}, {"KC", 16}},
      {{"TILED", 1}, {"BLOCK", 64}, {"TM", 4}, {"TN", 8}, {"KC", 32}},
      {{"TILED", 1}, {"BLOCK", 128}, {"TM", 8}, {"TN", 8}, {"KC", 16}}};

  TEST_CASE("tiled fw and squaring, int32: every shape bit-exact vs fw_serial") {
    for (Algo a : {Algo::fw, Algo::squaring})
      for (const auto& t : kTiledShapes) {
        INFO(to_string(a) << " " << to_string(t));
        auto s = make_opencl_solver<int32_t>(spec(a, t));
        CHECK(s->info().params == t);
        check_against_reference(*s);
      }
  }

  // NVIDIA builds the tiled kernels with FULL_UNROLL, which also selects phase 1's
  // statically indexed form (kernels/minplus_tiled.cl): checked here on any device.
  TEST_CASE("tiled fw built as on NVIDIA (FULL_UNROLL): bit-exact vs fw_serial") {
    const ocl_sp_test::EnvGuard env("OCL_SP_EXTRA_BUILD_OPTIONS", std::string("-DFULL_UNROLL"));
    for (const auto& t : {kTiledShapes.front(), kTiledShapes[2]}) {
      INFO(to_string(t));
      auto s = make_opencl_solver<int32_t>(spec(Algo::fw, t));
      check_against_reference(*s);
    }
    check_negative_cycles<int32_t>(Algo::fw, kTiledShapes.front());
  }

  // The two-level order (OUTER tiles per outer block): the cross of each outer
  // block's rows and columns round by round, then one long-k GEMM for the rest.
  // kSizes with BLOCK = 32 gives 1-9 tiles: one outer block, several, and a short
  // last one (9 tiles in blocks of 2 and of 4); with FULL_UNROLL the outer GEMM
  // stages through registers (PF_GEMM) and phase 1 is the statically indexed form.
  TEST_CASE("two-level tiled fw (OUTER): bit-exact vs fw_serial, negative cycles") {
    for (const char* extra : {"", "-DFULL_UNROLL"}) {
      const ocl_sp_test::EnvGuard env("OCL_SP_EXTRA_BUILD_OPTIONS", std::string(extra));
      for (int outer : {2, 4}) {
        Tunables t = kTiledShapes.front();
        t["OUTER"] = outer;
        INFO(extra << " " << to_string(t));
        auto s = make_opencl_solver<int32_t>(spec(Algo::fw, t));
        CHECK(s->info().params == t);
        check_against_reference(*s);
        auto f = make_opencl_solver<float>(spec(Algo::fw, t));
        check_against_reference(*f);
        check_against_reference(*f, 1e-5, true);
        check_negative_cycles<int32_t>(Algo::fw, t);
      }
      Tunables t = kTiledShapes[2];  // BLOCK 64, 4 x 8, KC 32
      t["OUTER"] = 2;
      INFO(extra << " " << to_string(t));
      auto s = make_opencl_solver<int32_t>(spec(Algo::fw, t));
      check_against_reference(*s);
    }
    // One level is the plain blocked FW: OUTER=1 is not kept in the parameters;
    // OUTER selects the register-tiled family and no other takes it.
    // Launches at n = 257, BLOCK 32 (9 tiles), beside the padding fill and the
    // negative-cycle scan: round 0's pivot close, phases 2 and 3 of 9 rounds; with
    // blocks of 2 tiles 5 outer GEMMs more; on two queues one launch more for each
    // round whose next pivot lies in its block (phase 3 in two parts): 8 / 4.
    for (const bool one_queue : {true, false}) {
      const ocl_sp_test::EnvGuard env("OCL_SP_FW_ONE_QUEUE", std::string(one_queue ? "1" : "0"));
      INFO("one queue: " << one_queue);
      Tunables one = kTiledShapes.front();
      one["OUTER"] = 1;
      auto plain = make_opencl_solver<int32_t>(spec(Algo::fw, one));
      CHECK(plain->info().params == kTiledShapes.front());
      Tunables two = kTiledShapes.front();
      two["OUTER"] = 2;
      auto twolevel = make_opencl_solver<int32_t>(spec(Algo::fw, two));
      DistMatrix<int32_t> g1 = random_graph<int32_t>(257, kBaseSeed), g2 = g1, ref = g1;
      fw_serial(ref, nullptr);
      const RunStats st1 = plain->solve(g1, nullptr), st2 = twolevel->solve(g2, nullptr);
      CHECK(st1.kernel_launches == 2 + 1 + 2 * 9 + (one_queue ? 0 : 8));
      CHECK(st2.kernel_launches == 2 + 1 + 2 * 9 + 5 + (one_queue ? 0 : 4));
      // T_k is the union of the kernels' device intervals: their sum on one
      // in-order queue, never more than it on two.
      for (const RunStats* st : {&st1, &st2}) {
        double sum = 0;
        for (const auto& [name, t] : st->kernel_seconds) sum += t;
        CHECK(st->t_k <= sum + 1e-6);
        if (one_queue) CHECK(st->t_k == doctest::Approx(sum).epsilon(1e-6));
      }
      CHECK(g1 == ref);
      CHECK(g2 == ref);
    }
    CHECK(make_opencl_solver<int32_t>(spec(Algo::fw, {{"OUTER", 2}}))->info().params.at("TILED") ==
          1);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::fw, {{"TILED", 2}, {"OUTER", 2}})),
                    UsageError);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::fw, {{"TILED", 0}, {"OUTER", 2}})),
                    UsageError);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::fw, {{"OUTER", 3}})), UsageError);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::squaring, {{"OUTER", 2}})), UsageError);
  }

  // On NVIDIA the product and the panel GEMM also stage their operands through
  // registers a chunk ahead (STAGE_PREFETCH, implied by FULL_UNROLL outside the fw
  // program): squaring and panels (n = 257 is three panels of 128) built that way.
  TEST_CASE("squaring and panel GEMM built as on NVIDIA (prefetch): bit-exact vs fw_serial") {
    const ocl_sp_test::EnvGuard env("OCL_SP_EXTRA_BUILD_OPTIONS", std::string("-DFULL_UNROLL"));
    for (const auto& t : {kTiledShapes.front(), kTiledShapes[2]}) {
      INFO(to_string(t));
      auto sq = make_opencl_solver<int32_t>(spec(Algo::squaring, t));
      check_against_reference(*sq);
      SolverSpec p = spec(Algo::fw, t);
      p.panel = 128;
      auto fw = make_opencl_solver<int32_t>(p);
      check_against_reference(*fw);
      auto fwf = make_opencl_solver<float>(p);
      check_against_reference(*fwf, 1e-5, true);
    }
    check_negative_cycles<int32_t>(Algo::squaring, kTiledShapes.front());
  }

  // The staging ring (STAGES 2-4, kernels/minplus_tiled.cl): on NVIDIA sm_80+ its
  // copies are PTX cp.async, here plain copies through the same ring slots and
  // barriers (issuing into the slot being read, or dropping the barrier, fails
  // this). fw one and two level, built as on NVIDIA too (the product's chunk fully
  // unrolled), squaring, the panel GEMM (int32 and float32), negative cycles.
  TEST_CASE("tiled kernels with the staging ring (STAGES): bit-exact vs fw_serial") {
    for (int stages : {2, 3, 4}) {
      Tunables t = kTiledShapes.front();
      t["STAGES"] = stages;
      INFO(to_string(t));
      auto s = make_opencl_solver<int32_t>(spec(Algo::fw, t));
      CHECK(s->info().params == t);
      check_against_reference(*s);
    }
    for (const char* extra : {"", "-DFULL_UNROLL"}) {
      const ocl_sp_test::EnvGuard env("OCL_SP_EXTRA_BUILD_OPTIONS", std::string(extra));
      Tunables t = kTiledShapes[2];  // BLOCK 64, 4 x 8, KC 32
      t["STAGES"] = 2;
      INFO(extra << " " << to_string(t));
      auto sq = make_opencl_solver<int32_t>(spec(Algo::squaring, t));
      check_against_reference(*sq);
      t["OUTER"] = 2;
      auto fw = make_opencl_solver<int32_t>(spec(Algo::fw, t));
      check_against_reference(*fw);
    }
    Tunables t = kTiledShapes.front();
    t["STAGES"] = 2;
    SolverSpec p = spec(Algo::fw, t);
    p.panel = 128;  // n = 257: three panels of 128
    auto fw = make_opencl_solver<int32_t>(p);
    check_against_reference(*fw);
    auto fwf = make_opencl_solver<float>(p);
    check_against_reference(*fwf, 1e-5, true);
    check_negative_cycles<int32_t>(Algo::fw, t);
    check_negative_cycles<int32_t>(Algo::squaring, t);
    // STAGES belongs to the register-tiled family; at most 4.
    CHECK(make_opencl_solver<int32_t>(spec(Algo::squaring, {{"STAGES", 2}}))
              ->info()
              .params.at("TILED") == 1);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::fw, {{"TILED", 0}, {"STAGES", 2}})),
                    UsageError);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::fw, {{"TILED", 2}, {"STAGES", 2}})),
                    UsageError);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::fw, {{"STAGES", 5}})), UsageError);
  }

  // Cold start (kernels/minplus_tiled.cl ONE_FW_KERNEL): with the ring one kernel
  // does fw's phases 2 and 3 and the outer GEMM, one program; without it (or with
  // OCL_SP_FW_SEPARATE_KERNELS=1) the three kernels are three programs built on
  // threads (OCL_SP_BUILD_SERIAL=1: one after another). All bit-exact, one and two
  // level, negative cycles; a second solver finds every program in the cache.
  TEST_CASE("fw's programs: one kernel with the ring, three parts without; cached") {
    struct Case {
      int stages;
      const char* separate;
      const char* serial;
      size_t programs;
    };
    for (const Case c :
         {Case{2, "0", "0", 1}, Case{2, "1", "0", 3}, Case{1, "0", "0", 3}, Case{1, "0", "1", 3}}) {
      const ocl_sp_test::EnvGuard sep("OCL_SP_FW_SEPARATE_KERNELS", std::string(c.separate));
      const ocl_sp_test::EnvGuard serial("OCL_SP_BUILD_SERIAL", std::string(c.serial));
      Tunables t = kTiledShapes.front();
      t["STAGES"] = c.stages;
      INFO("STAGES=" << c.stages << " separate=" << c.separate << " serial=" << c.serial);
      const SolverSpec one_level = spec(Algo::fw, t);  // spec() sets the suite's cache
      t["OUTER"] = 2;
      const SolverSpec two_levels = spec(Algo::fw, t);
      std::unique_ptr<Solver<int32_t>> fw, fw2;
      {
        const ocl_sp_test::TempDir dir("ocl_sp_fw_programs");
        const ocl_sp_test::EnvGuard cache("OCL_SP_CACHE_DIR", dir.path());
        fw = make_opencl_solver<int32_t>(one_level);
        CHECK(fw->info().cache == "miss");
        size_t files = 0;
        for (const auto& e : std::filesystem::directory_iterator(dir.path()))
          files += e.path().extension() == ".oclbin";
        CHECK(files == c.programs);
        fw2 = make_opencl_solver<int32_t>(two_levels);
        CHECK(fw2->info().cache == "hit");  // OUTER is no build option
      }
      check_against_reference(*fw);
      check_against_reference(*fw2);
      check_negative_cycles<int32_t>(Algo::fw, t);
      // Floating types take the three kernels with the ring as well (their T_k is
      // lower that way): three programs whatever STAGES.
      {
        const ocl_sp_test::TempDir dir("ocl_sp_fw_programs_float");
        const ocl_sp_test::EnvGuard cache("OCL_SP_CACHE_DIR", dir.path());
        auto ff = make_opencl_solver<float>(one_level);
        size_t files = 0;
        for (const auto& e : std::filesystem::directory_iterator(dir.path()))
          files += e.path().extension() == ".oclbin";
        CHECK(files == 3);
      }
    }
  }

  // Where the ring is the default (NVIDIA sm_80+) and what a KC chosen without
  // STAGES does to it: a ring that no longer fits __local memory falls back to one
  // buffer instead of refusing the KC (H100: 48 KiB; KC=32 needs 64 KiB in two).
  TEST_CASE("default STAGES: NVIDIA sm_80+ only; a chosen KC that does not fit drops it") {
    DeviceEntry d;
    d.vendor = "NVIDIA Corporation";
    d.nv_compute_major = 9;
    CHECK(detail::default_stages(d) == 2);
    d.nv_compute_major = 7;
    CHECK(detail::default_stages(d) == 1);
    d.vendor = "Advanced Micro Devices, Inc.";
    d.nv_compute_major = 0;
    CHECK(detail::default_stages(d) == 1);
    const Tunables ring{{"TILED", 1}, {"BLOCK", 128}, {"TM", 8}, {"TN", 8}, {"STAGES", 2}};
    const unsigned long long h100 = 49152;
    Tunables t = ring;
    t["KC"] = 32;
    detail::fit_stages(t, {{"KC", 32}}, h100, 4);
    CHECK(t.count("STAGES") == 0);
    t = ring;
    t["KC"] = 32;
    detail::fit_stages(t, {{"KC", 32}, {"STAGES", 2}}, h100, 4);  // chosen: kept (refused later)
    CHECK(t.at("STAGES") == 2);
    CHECK(detail::tiled_shape(t, 4).local_bytes == 65536);
    t = ring;
    t["KC"] = 16;
    detail::fit_stages(t, {}, h100, 4);
    CHECK(t.at("STAGES") == 2);
    CHECK(detail::tiled_shape(t, 4).local_bytes == 32768);
  }

  TEST_CASE("tiled fw and squaring, float32: integral exact, fractional within 1e-5") {
    for (Algo a : {Algo::fw, Algo::squaring})
      for (const auto& t : {kTiledShapes.front(), kTiledShapes.back()}) {
        INFO(to_string(a) << " " << to_string(t));
        auto s = make_opencl_solver<float>(spec(a, t));
        check_against_reference(*s);
        check_against_reference(*s, 1e-5, true);
      }
  }

  // TILED=2 BLOCK=128 stages a 64 KiB row operand: a device with less __local
  // memory (NVIDIA: 48 KiB) must refuse it with a usage error (asserted here);
  // otherwise the solver. The other BLOCKs fit every device.
  template <typename T>
  std::unique_ptr<Solver<T>> cpu_shaped(int block) {
    const SolverSpec sp = spec(Algo::fw, {{"TILED", 2}, {"BLOCK", block}});
    const auto local = detail::OpenClCore(sp, ValueTraits<T>::type).device().local_mem;
    if (block == 128 && local < 65536ull) {
      CHECK_THROWS_AS(make_opencl_solver<T>(sp), UsageError);
      return nullptr;
    }
    return make_opencl_solver<T>(sp);
  }

  // The CPU-shaped family (kernels/fw_cpu.cl): every BLOCK; 128 reads the column
  // operand in place instead of staging it (STAGE_A). kSizes covers n = 1, sizes
  // that are no multiple of BLOCK, one tile and many; the graphs have negative
  // edges and unreachable parts.
  TEST_CASE("CPU-shaped fw (TILED=2), int32: every BLOCK bit-exact vs fw_serial") {
    for (int block : {32, 64, 128}) {
      const Tunables t{{"TILED", 2}, {"BLOCK", block}};
      auto s = cpu_shaped<int32_t>(block);
      if (!s) continue;  // refused as asserted by cpu_shaped
      CHECK(s->info().params == t);  // no WPT / TM / TN / KC of the other families
      check_against_reference(*s);
    }
  }

  TEST_CASE("CPU-shaped fw (TILED=2), float32: integral exact, fractional within 1e-5") {
    for (int block : {32, 64, 128}) {
      auto s = cpu_shaped<float>(block);
      if (!s) continue;  // refused as asserted by cpu_shaped
      check_against_reference(*s);
      check_against_reference(*s, 1e-5, true);
    }
  }

  TEST_CASE("CPU-shaped fw (TILED=2): defaults, family selection and refusals") {
    // CPU devices default to it (BLOCK 128), GPUs keep the register-tiled family.
    auto d = make_opencl_solver<int32_t>(spec(Algo::fw));
    const bool gpu = detail::OpenClCore(spec(Algo::fw), ValueType::int32).is_gpu();
    CHECK(d->info().params.at("TILED") == (gpu ? 1 : 2));
    if (!gpu) {
      CHECK(d->info().params == Tunables{{"TILED", 2}, {"BLOCK", 128}});
      // A tunable of another family selects that family, with its own defaults.
      CHECK(make_opencl_solver<int32_t>(spec(Algo::fw, {{"WPT", 2}}))->info().params ==
            Tunables{{"TILED", 0}, {"BLOCK", 32}, {"WPT", 2}});
      CHECK(make_opencl_solver<int32_t>(spec(Algo::fw, {{"TILED", 1}}))->info().params.at(
                "BLOCK") == 64);
      // A BLOCK only the seeds' kernels take selects them; one TILED=2 takes keeps it.
      CHECK(make_opencl_solver<int32_t>(spec(Algo::fw, {{"BLOCK", 16}}))->info().params.at(
                "TILED") == 0);
      CHECK(make_opencl_solver<int32_t>(spec(Algo::fw, {{"BLOCK", 64}}))->info().params ==
            Tunables{{"TILED", 2}, {"BLOCK", 64}});
    }
    CHECK(make_opencl_solver<int32_t>(spec(Algo::fw, {{"TILED", 0}}))->info().params.count(
              "WPT") == 1);
    // Refusals name the family and what it takes.
    auto refused = [](Algo a, const Tunables& t, const std::string& part) {
      INFO(to_string(a) << " " << to_string(t));
      try {
        make_opencl_solver<int32_t>(spec(a, t));
        FAIL("no UsageError");
      } catch (const UsageError& e) {
        const std::string m = e.what();
        INFO(m);
        CHECK(m.find(part) != std::string::npos);
      }
    };
    refused(Algo::fw, {{"TILED", 2}, {"BLOCK", 16}}, "BLOCK 32, 64 or 128");
    refused(Algo::fw, {{"TILED", 2}, {"BLOCK", 8}}, "TILED=2");
    refused(Algo::fw, {{"TILED", 2}, {"WPT", 2}}, "WPT belongs to the seeds' kernels");
    refused(Algo::fw, {{"TILED", 2}, {"KC", 16}}, "not to the CPU-shaped ones (TILED=2)");
    refused(Algo::fw, {{"TILED", 3}}, "0, 1, 2");
    refused(Algo::squaring, {{"TILED", 2}}, "must be one of 0, 1");
    refused(Algo::fw_naive, {{"TILED", 2}}, "TILED does not apply");
  }

  TEST_CASE("fw-naive int32 and float32 (default WG)") {
    auto si = make_opencl_solver<int32_t>(spec(Algo::fw_naive));
    check_against_reference(*si);
    auto sf = make_opencl_solver<float>(spec(Algo::fw_naive));
    check_against_reference(*sf);
    check_against_reference(*sf, 1e-5, true);
  }

  TEST_CASE("negative cycles raise NegativeCycleError on every algorithm and type") {
    for (Algo a : {Algo::fw, Algo::squaring, Algo::fw_naive}) {
      check_negative_cycles<int32_t>(a);
      check_negative_cycles<float>(a);
    }
    for (Algo a : {Algo::fw, Algo::squaring}) {
      check_negative_cycles<int32_t>(a, {{"TILED", 1}, {"BLOCK", 32}});
      check_negative_cycles<float>(a, {{"TILED", 1}, {"BLOCK", 32}});
    }
    for (int block : {32, 128}) {  // CPU-shaped fw, column operand staged and in place
      if (!cpu_shaped<int32_t>(block)) continue;  // refused as asserted by cpu_shaped
      check_negative_cycles<int32_t>(Algo::fw, {{"TILED", 2}, {"BLOCK", block}});
      check_negative_cycles<float>(Algo::fw, {{"TILED", 2}, {"BLOCK", block}});
    }
  }

  TEST_CASE("bad tunables are usage errors, caught before anything runs") {
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::squaring, {{"WG", 5}})), UsageError);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::squaring, {{"WG", 64}})), UsageError);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::squaring, {{"WG", 0}})), UsageError);
    CHECK_THROWS_AS(make_opencl_solver<float>(spec(Algo::fw, {{"BLOCK", 12}})), UsageError);
    CHECK_THROWS_AS(make_opencl_solver<float>(spec(Algo::fw, {{"BLOCK", 256}})), UsageError);
    CHECK_THROWS_AS(make_opencl_solver<float>(spec(Algo::fw, {{"TILED", 0}, {"BLOCK", 128}})),
                    UsageError);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::fw, {{"BLOCK", 32}, {"WPT", 3}})),
                    UsageError);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::fw_naive, {{"WG", 7}})), UsageError);
    // A tunable of another algorithm is refused, not silently ignored.
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::fw, {{"WG", 16}})), UsageError);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::squaring, {{"WPT", 2}})), UsageError);
    // Tunables of the two kernel families do not mix.
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::squaring, {{"WG", 16}, {"TM", 4}})),
                    UsageError);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::fw, {{"WPT", 2}, {"KC", 16}})),
                    UsageError);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::fw, {{"TILED", 0}, {"TM", 8}})),
                    UsageError);
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(spec(Algo::fw, {{"TILED", 1}, {"BLOCK", 16}})),
                    UsageError);
    try {
      make_opencl_solver<int32_t>(spec(Algo::squaring, {{"WG", 5}}));
    } catch (const UsageError& e) {
      const std::string m = e.what();
      CHECK(m.find("WG=5") != std::string::npos);
      CHECK(m.find("4, 8, 16, 32") != std::string::npos);
    }
    // Path reconstruction (tests/test_paths.cpp) on a trivial graph: 3 isolated vertices.
    DistMatrix<int32_t> m(3);
    for (int64_t i = 0; i < 3; ++i) m(i, i) = 0;
    PathMatrix paths;
    CHECK(make_opencl_solver<int32_t>(spec(Algo::fw))->solve(m, &paths).paths);
    CHECK(paths.via == std::vector<int32_t>(9, -1));
  }

  TEST_CASE("limits: work-group, local memory and device memory are checked up front") {
    SolverSpec sp = spec(Algo::fw);
    detail::OpenClCore core(sp, ValueType::int32);
    const auto& dev = core.device();
    CHECK_THROWS_AS(core.check_group("X", {dev.max_work_group + 1}, 0), UsageError);
    CHECK_THROWS_AS(core.check_group("X", {1}, dev.local_mem + 1), UsageError);
    CHECK_NOTHROW(core.check_group("X", {16, 16}, 2048));
    try {
      core.check_memory(200000, 200000, 2);  // 2 x 149 GiB
      FAIL("no exception");
    } catch (const RuntimeError& e) {
      const std::string m = e.what();
      CHECK(m.find("n = 200000 needs") != std::string::npos);
      CHECK(m.find("MiB") != std::string::npos);
    }
    CHECK_NOTHROW(core.check_memory(1000, 1024, 2));
  }

  TEST_CASE("SolverInfo and reuse across sizes, repeated sizes and types") {
    auto s = make_opencl_solver<int32_t>(spec(Algo::fw, {{"BLOCK", 16}}));
    const SolverInfo& info = s->info();
    CHECK(info.algo == "fw");
    CHECK(info.backend == "opencl");
    CHECK(info.device == detail::OpenClCore(spec(Algo::fw), ValueType::int32).device().name);
    CHECK(!info.driver.empty());
    CHECK(info.params_source == "command line");
    CHECK((info.cache == "hit" || info.cache == "miss"));
    CHECK(info.t_o > 0);
    CHECK(info.params.count("WPT") == 1);  // derived from BLOCK and the device type
    // Built-in defaults.
    auto d = make_opencl_solver<int32_t>(spec(Algo::squaring));
    CHECK(d->info().params_source == "built-in");
    // GPUs default to the register-tiled product, CPU devices to the paper's WG=16.
    if (d->info().params.at("TILED") == 1)
      CHECK(d->info().params.at("BLOCK") >= 32);
    else
      CHECK(d->info().params.at("WG") == 16);
    CHECK(make_opencl_solver<int32_t>(spec(Algo::fw))->info().params.at("BLOCK") > 0);
    // Same object: large, small, the same size twice (buffers are reused).
    for (int64_t n : {100, 7, 100, 100, 33}) {
      INFO("n = " << n);
      DistMatrix<int32_t> g = random_graph<int32_t>(n, kBaseSeed + 7 * n), ref = g;
      fw_serial(ref, nullptr);
      s->solve(g, nullptr);
      CHECK(g == ref);
    }
    DistMatrix<int32_t> empty(0);
    CHECK_NOTHROW(s->solve(empty, nullptr));
  }

  TEST_CASE("single buffer through pinned chunks (OCL_SP_STAGING=1, small chunks), bit-exact") {
    // 3000-byte chunks: n = 257 moves in 129 chunks of 2 rows (the last of 1);
    // n = 100 into a 128-wide buffer takes the rectangular copies, n = 128 the
    // contiguous ones; paths download their hop and via matrices the same way.
    const ocl_sp_test::EnvGuard staging("OCL_SP_STAGING", std::string("1"));
    const ocl_sp_test::EnvGuard bytes("OCL_SP_STAGE_BYTES", std::string("3000"));
    for (Algo a : {Algo::fw, Algo::squaring, Algo::fw_naive}) {
      auto s = make_opencl_solver<int32_t>(spec(a));
      for (int64_t n : {1, 100, 128, 257}) {
        const uint64_t seed = kBaseSeed + 11 * static_cast<uint64_t>(n);
        INFO(to_string(a) << ", n = " << n << ", seed = " << seed);
        DistMatrix<int32_t> d = random_graph<int32_t>(n, seed), ref = d;
        fw_serial(ref, nullptr);
        s->solve(d, nullptr);
        CHECK(d == ref);
      }
    }
    auto fw = make_opencl_solver<float>(spec(Algo::fw));
    DistMatrix<float> d = random_graph<float>(100, kBaseSeed), ref = d;
    PathMatrix p, pref;
    fw_serial(ref, &pref);
    fw->solve(d, &p);
    CHECK(d == ref);
    CHECK(p.hops == pref.hops);
  }

  TEST_CASE("squaring stops early once a product changes nothing") {
    auto s = make_opencl_solver<int32_t>(spec(Algo::squaring, {{"WG", 8}}));
    // A complete graph: one product already gives the distances, the second changes nothing.
    DistMatrix<int32_t> g(64);
    for (int64_t i = 0; i < 64; ++i)
      for (int64_t j = 0; j < 64; ++j) g(i, j) = i == j ? 0 : 1;
    const RunStats st = s->solve(g, nullptr);
    CHECK(st.products == 1);  // no change at all: the first product is the last
    CHECK(max_products(64, false) == 6);
    // A path 0 -> 1 -> ... -> 63 needs all ceil(log2 63) = 6 products.
    DistMatrix<int32_t> path(64);
    for (int64_t i = 0; i < 64; ++i) path(i, i) = 0;
    for (int64_t i = 0; i + 1 < 64; ++i) path(i, i + 1) = 1;
    const RunStats st2 = s->solve(path, nullptr);
    CHECK(st2.products == 6);
    CHECK(path(0, 63) == 63);
    CHECK(path(63, 0) == ValueTraits<int32_t>::inf);
  }

  TEST_CASE("int32 saturation: INF stays INF, large finite sums stay exact") {
    for (Algo a : {Algo::fw, Algo::squaring, Algo::fw_naive}) {
      INFO(to_string(a));
      auto s = make_opencl_solver<int32_t>(spec(a));
      // Two hops of (2^29 - 1) / 2 each: the largest legal finite distance region.
      const int32_t big = ((1 << 29) - 2) / 2;
      DistMatrix<int32_t> g(20);
      for (int64_t i = 0; i < 20; ++i) g(i, i) = 0;
      g(0, 1) = big;
      g(1, 2) = big;
      g(3, 4) = -((1 << 28));
      DistMatrix<int32_t> ref = g;
      fw_serial(ref, nullptr);
      s->solve(g, nullptr);
      CHECK(g == ref);
      CHECK(g(0, 2) == 2 * big);
      CHECK(g(2, 0) == ValueTraits<int32_t>::inf);
      CHECK(g(3, 4) == -(1 << 28));
    }
  }
}
