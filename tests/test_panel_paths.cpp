// The panel engine's paths (DESIGN.md "Scale", --paths beyond one buffer): the
// host's recovery of via and hops from the distances, --paths in every placement
// on PoCL, the store hook the path solve reads the input through, and the path
// rebuild on the device against the host's recovery. Graphs print their seed.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>

#include "cpu/cpu_solvers.hpp"
#include "cl/device.hpp"
#include "solvers/opencl_fw.hpp"
#include "solvers/opencl_solvers.hpp"
#include "solvers/panel_engine.hpp"
#include "solvers/panel_paths.hpp"
#include "solvers/path_rebuild.hpp"
#include "graph/paths.hpp"
#include "test_opencl_common.hpp"
#include "test_panel_common.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;
using namespace ocl_sp::detail;

using namespace ocl_sp;
using namespace ocl_sp::detail;
using namespace ocl_sp_test::panels;

namespace {


// fw_serial's path matrix of w against the one recovered from its distances
// (solvers/panel_paths.hpp): the same hop counts, a via check_paths accepts.
template <typename T>
PathMatrix check_recovered(const DistMatrix<T>& w) {
  DistMatrix<T> d = w, ref = w;
  PathMatrix p, pref;
  fw_serial(d, nullptr);
  fw_serial(ref, &pref);
  REQUIRE(d == ref);
  recover_paths(input_edges(w), d, p);
  CHECK(p.hops == pref.hops);
  CHECK(check_paths(w, d, p) == "");
  return p;
}

// The host's path matrix of the solved distances d of input w (recover_paths):
// what the device rebuild must equal byte for byte.
template <typename T>
PathMatrix host_recovered(const DistMatrix<T>& w, const DistMatrix<T>& d) {
  PathMatrix p;
  recover_paths(input_edges(w), d, p);
  return p;
}


}  // namespace

TEST_SUITE("panel_engine") {
  // The host side of paths beyond one buffer (solvers/panel_paths.hpp), no device:
  // from fw_serial's distances, the hop counts of fw_serial's own path matrix.
  TEST_CASE("panel paths: recovered from the distances, fw_serial's hops, sound vias") {
    for (int64_t n : {int64_t{1}, int64_t{2}, int64_t{37}, int64_t{130}}) {
      for (uint64_t seed : {kSeed, kSeed + 7}) {
        INFO("n = " << n << ", seed " << seed);
        const PathMatrix p = check_recovered(graph<int32_t>(n, seed));
        for (int64_t i = 0; i < n; ++i) CHECK(p.via[static_cast<size_t>(i * n + i)] == -1);
      }
    }
    // Zero-weight cycles (1 -> 2 -> 3 -> 1, 4 <-> 5), a negative edge, an
    // unreachable vertex (7) and ties between paths of different lengths.
    DistMatrix<int32_t> z(8);
    for (int64_t i = 0; i < 8; ++i) z(i, i) = 0;
    z(0, 1) = 1, z(1, 2) = 0, z(2, 3) = 0, z(3, 1) = 0, z(3, 4) = 2, z(0, 4) = 3;
    z(4, 5) = 0, z(5, 4) = 0, z(2, 6) = -1, z(6, 4) = 2, z(5, 0) = 4;
    CHECK(check_recovered(z).via[7] == -1);  // 0 -> 7: no path
    // float32: integral weights are exact; fractions, or sums past 2^24, are refused.
    const DistMatrix<float> wf = graph<float>(60, kSeed);
    check_recovered(wf);
    CHECK_THROWS_AS(input_edges(ocl_sp_test::random_graph<float>(60, kSeed, true)), UsageError);
    DistMatrix<float> big = wf;
    big(0, 1) = 1e6f;
    CHECK_THROWS_AS(input_edges(big), UsageError);
  }

  // Paths beyond one buffer: every placement gives the distances of
  // fw_serial bit-exactly, the hop counts of its path matrix (unique: fewest
  // edges among shortest paths) and a via matrix whose expansion check_paths
  // verifies against the input independently.
  TEST_CASE("PoCL: --paths in every panel placement: distances, hops, expansion") {
    struct Case {
      const char* word;
      int split;
      uint64_t memory;  // 0: no cap
    };
    const uint64_t panel = 128ull * 128 * 4;
    for (const Case c : {Case{"resident panels", 1, 0}, Case{"out of core", 1, panel * 9},
                         Case{"on 2 devices", 2, 0}, Case{"out of core", 2, panel * 9}}) {
      SolverSpec s = spec(Algo::fw);
      s.panel = 128;
      s.split = c.split;
      s.device_memory = c.memory;
      auto solver = make_opencl_solver<int32_t>(s);
      for (int64_t n : {int64_t{1}, int64_t{129}, int64_t{300}}) {
        const uint64_t seed = kSeed + static_cast<uint64_t>(n);
        INFO(c.word << ", split " << c.split << ", n = " << n << ", seed " << seed);
        const DistMatrix<int32_t> w = graph<int32_t>(n, seed);
        DistMatrix<int32_t> d = w, ref = w;
        PathMatrix p, pref;
        const RunStats st = solver->solve(d, &p);
        fw_serial(ref, &pref);
        if (n == 300) CHECK(st.placement.find(c.word) != std::string::npos);
        CHECK(st.paths);
        CHECK(d == ref);
        CHECK(p.hops == pref.hops);
        CHECK(check_paths(w, d, p) == "");
        // rebuilt on the device, the host's recovery byte for byte
        CHECK(st.paths_kernels.find("rebuilt on the device") != std::string::npos);
        CHECK(p.via == host_recovered(w, d).via);
      }
      DistMatrix<int32_t> cyc = graph_with_negative_cycle();
      PathMatrix p;
      CHECK_THROWS_AS(solver->solve(cyc, &p), NegativeCycleError);
    }
    // float32 holding integers: exact sums, the same paths; other weights are refused.
    SolverSpec s = spec(Algo::fw);
    s.panel = 128;
    auto solver = make_opencl_solver<float>(s);
    const DistMatrix<float> w = graph<float>(200, kSeed);
    DistMatrix<float> d = w, ref = w;
    PathMatrix p, pref;
    solver->solve(d, &p);
    fw_serial(ref, &pref);
    CHECK(d == ref);
    CHECK(p.hops == pref.hops);
    CHECK(check_paths(w, d, p) == "");
    CHECK(p.via == host_recovered(w, d).via);
    DistMatrix<float> frac = w;
    frac(0, 1) = 0.5f;
    CHECK_THROWS_AS(solver->solve(frac, &p), UsageError);
    // OCL_SP_PATHS_REBUILD=0: the host's recovery, the same bytes.
    {
      ocl_sp_test::EnvGuard host("OCL_SP_PATHS_REBUILD", std::string("0"));
      DistMatrix<float> d2 = w;
      PathMatrix p2;
      CHECK(solver->solve(d2, &p2).paths_kernels.find("recovered on the host") != std::string::npos);
      CHECK(p2.via == p.via);
      CHECK(p2.hops == p.hops);
    }
  }

  // run_fw_panels' before_store runs once, before the first download into d, in
  // each placement (one device, out of core, two devices): until then d holds the
  // input (solve_panels_paths reads its edges beside the solve). A device that
  // computes nothing (markers only) leaves the panels as uploaded.
  TEST_CASE("PoCL: panels: before_store runs once, before d is written") {
    // gemm_acc in both forms, with and without the real-column count (the
    // look-ahead work adds it), so that this fake fits either interface; hence no
    // `override` on any member.
    class Idle : public PanelDevice {
     public:
      explicit Idle(OpenClCore& c) : c_(c) {}
      OpenClCore& core() { return c_; }
      cl::Event close_panel(cl::Buffer&, int64_t, int64_t) { return marker(); }
      cl::Event gemm_acc(cl::Buffer&, cl::Buffer&, cl::Buffer&, int64_t, int64_t) {
        return marker();
      }
      cl::Event gemm_acc(cl::Buffer&, cl::Buffer&, cl::Buffer&, int64_t, int64_t, int64_t) {
        return marker();
      }
      cl::Event gemm_acc_panels(cl::Buffer&, cl::Buffer&, cl::Buffer&, int64_t, int64_t, int64_t, int64_t) {
        return marker();
      }
      int panel_multiple() const { return 32; }

     private:
      cl::Event marker() {
        cl::Event ev;
        c_.queue().enqueueMarkerWithWaitList(nullptr, &ev);
        return ev;
      }
      OpenClCore& c_;
    };
    const int64_t n = 300;
    const DistMatrix<int32_t> w = graph<int32_t>(n, kSeed);
    for (const auto& [devices, memory] : {std::pair<int, uint64_t>{1, 0}, {1, 128ull * 128 * 4 * 9},
                                          {2, 0}}) {
      SolverSpec s = spec(Algo::fw);
      s.panel = 128;
      s.device_memory = memory;
      s.split = devices;
      const auto entries = select_devices(s.device, devices);
      REQUIRE(static_cast<int>(entries.size()) == devices);
      const PanelPlan plan = plan_fw(n, 4, entries, s, 1ull << 40);
      INFO(plan.describe());
      CHECK(plan.placement == (memory ? Placement::out_of_core : Placement::resident));
      CHECK(plan.devices == devices);
      std::vector<std::unique_ptr<OpenClCore>> cores;
      std::vector<std::unique_ptr<Idle>> idle;
      std::vector<PanelDevice*> devs;
      for (const auto& e : entries) {
        cores.push_back(std::make_unique<OpenClCore>(e, Algo::fw, ValueType::int32));
        idle.push_back(std::make_unique<Idle>(*cores.back()));
        devs.push_back(idle.back().get());
      }
      DistMatrix<int32_t> d = w;
      int calls = 0;
      bool unchanged = false;
      RunStats st;
      run_fw_panels(plan, devs, d, false, st, [&] {
        ++calls;
        unchanged = d == w;
      });
      CHECK(calls == 1);
      CHECK(unchanged);
      CHECK(d == w);  // nothing computed: the panels came back as they went
    }
  }

  // The device rebuild itself (kernels/paths_rebuild.cl) against the host's
  // recover_paths, byte for byte (hops and via), and fw_serial's hop counts:
  // n = 1, 2, not a multiple of anything, negative edges, zero-weight cycles, an
  // unreachable part, an isolated vertex; a memory budget so small that the rows
  // go in many bands of two sets; distances from the host and from a device
  // buffer with a row pitch (the single buffer's way).
  TEST_CASE("PoCL: the path rebuild on the device equals the host's recovery") {
    OpenClCore core(spec(Algo::fw), ValueType::int32);
    PathRebuild<int32_t> rebuild;
    DistMatrix<int32_t> z(9);  // zero-weight cycles, a negative edge, 7 and 8 unreachable
    for (int64_t i = 0; i < 9; ++i) z(i, i) = 0;
    z(0, 1) = 1, z(1, 2) = 0, z(2, 3) = 0, z(3, 1) = 0, z(3, 4) = 2, z(0, 4) = 3;
    z(4, 5) = 0, z(5, 4) = 0, z(2, 6) = -1, z(6, 4) = 2, z(5, 0) = 4, z(8, 0) = 1;
    // Layers with many equal predecessors: 0 -> 1..5 -> 6..10 -> 11 (the smallest k wins).
    DistMatrix<int32_t> layers(13);
    for (int64_t i = 0; i < 13; ++i) layers(i, i) = 0;
    for (int64_t a = 1; a <= 5; ++a) {
      layers(0, a) = 1;
      for (int64_t b = 6; b <= 10; ++b) layers(a, b) = 1, layers(b, 11) = 0, layers(b, 12) = 5;
    }
    layers(0, 12) = 7;
    std::vector<std::pair<std::string, DistMatrix<int32_t>>> graphs = {{"hand-made", z},
                                                                       {"layers", layers}};
    for (int64_t n : {int64_t{1}, int64_t{2}, int64_t{37}, int64_t{333}})
      graphs.emplace_back("random n = " + std::to_string(n), graph<int32_t>(n, kSeed + 3 * n));
    for (const auto& [name, w] : graphs) {
      const int64_t n = w.n();
      DistMatrix<int32_t> d = w;
      PathMatrix pref;
      fw_serial(d, &pref);
      const PathMatrix host = host_recovered(w, d);
      const InputEdges<int32_t> e = input_edges(w);
      // budget: unlimited, then ~3 rows per band (the edges, queues and 2 x 3 rows)
      const InputEdges<int32_t> t = tight_edges(e, d);
      const uint64_t tight = (n + 1) * 8 + t.dst.size() * 8;
      const uint64_t queues = uint64_t{core.device().compute_units} * 2 * n * 4;
      for (uint64_t budget : {uint64_t{0}, (tight + queues + 6 * n * 12) * 10 / 9 + 64}) {
        INFO(name << ", device bytes " << budget);
        PathMatrix p;
        RunStats st;
        REQUIRE(rebuild.run(core, e, d, p, st, budget));
        CHECK(p.hops == pref.hops);
        CHECK(p.hops == host.hops);
        CHECK(p.via == host.via);
        CHECK(check_paths(w, d, p) == "");
        if (budget && n > 8) CHECK(st.paths_kernels.find("bands of 3 rows") != std::string::npos);
      }
      // Through a given stager: chunks of two rows (many chunks per band, the ring
      // reused by the uploads and downloads), then chunks below one row (the core's
      // matrix stager instead).
      for (const size_t chunk : {size_t(2 * n * 4), size_t(n * 4 - 1)}) {
        if (chunk == 0) continue;
        INFO(name << ", stager chunks of " << chunk << " bytes");
        Stager& sg = core.stager(OpenClCore::StageUse::kPanels, 3, chunk);
        PathMatrix p;
        RunStats st;
        REQUIRE(rebuild.run(core, e, d, p, st, (tight + queues + 6 * n * 12) * 10 / 9 + 64,
                            nullptr, 0, &sg));
        CHECK(p.hops == host.hops);
        CHECK(p.via == host.via);
      }
      // From a device buffer of ld x ld (padding never read).
      const int64_t ld = n + 5;
      std::vector<int32_t> padded(static_cast<size_t>(ld * ld), -7);
      for (int64_t i = 0; i < n; ++i)
        std::memcpy(padded.data() + i * ld, d.data() + i * n, static_cast<size_t>(n) * 4);
      cl::Buffer buf(core.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, padded.size() * 4,
                     padded.data());
      PathMatrix p;
      RunStats st;
      REQUIRE(rebuild.run(core, e, d, p, st, 0, &buf, ld));
      CHECK(p.hops == host.hops);
      CHECK(p.via == host.via);
    }
    // Nothing fits: the caller is told (and recovers on the host).
    const DistMatrix<int32_t> w = graph<int32_t>(100, kSeed);
    DistMatrix<int32_t> d = w;
    fw_serial(d, nullptr);
    PathMatrix p;
    RunStats st;
    CHECK_FALSE(rebuild.run(core, input_edges(w), d, p, st, 1000));
  }

  // GPUs rebuild in groups of 1024 (OCL_SP_REBUILD_WG / OCL_SP_REBUILD_GROUPS set the
  // shape for comparisons): the same via and hops in any shape, the report says which.
  TEST_CASE("PoCL: the path rebuild in other group shapes equals the host's recovery") {
    OpenClCore core(spec(Algo::fw), ValueType::int32);
    const std::vector<std::pair<const char*, const char*>> shapes = {{"1024", "1"}, {"64", "3"}, {"512", "2"}};
    for (const auto& [wg, groups] : shapes) {
      ::setenv("OCL_SP_REBUILD_WG", wg, 1);
      ::setenv("OCL_SP_REBUILD_GROUPS", groups, 1);
      PathRebuild<int32_t> rebuild;  // the shape is read when its kernels are built
      for (int64_t n : {int64_t{37}, int64_t{333}, int64_t{1100}}) {
        const DistMatrix<int32_t> w = graph<int32_t>(n, kSeed + 5 * n);
        DistMatrix<int32_t> d = w;
        fw_serial(d, nullptr);
        const PathMatrix host = host_recovered(w, d);
        PathMatrix p;
        RunStats st;
        INFO("WG=" << wg << ", groups " << groups << " per compute unit, n = " << n);
        REQUIRE(rebuild.run(core, input_edges(w), d, p, st, 0));
        CHECK(p.hops == host.hops);
        CHECK(p.via == host.via);
        CHECK(st.paths_kernels.find(std::string("WG=") + wg + ":") != std::string::npos);
        const int64_t want = std::min<int64_t>(n, core.device().compute_units * std::atoi(groups));
        CHECK(st.paths_kernels.find(" in " + std::to_string(want) + " groups") != std::string::npos);
      }
    }
    ::unsetenv("OCL_SP_REBUILD_WG");
    ::unsetenv("OCL_SP_REBUILD_GROUPS");
  }

  // The tight edges found on the device (run_on_device): from the input and the
  // distances in ld x ld buffers (padding never read), d receives the distances,
  // via and hops equal the host's recovery byte for byte; on graphs with many
  // ties (weights 0-2, so many equal shortest paths) and n no multiple of a tile
  // or of the work-group; where the tight edges do not fit, false with d untouched.
  TEST_CASE("PoCL: the tight edges found on the device: the host's via and hops") {
    OpenClCore core(spec(Algo::fw), ValueType::int32);
    PathRebuild<int32_t> rebuild;
    for (int64_t n : {int64_t{1}, int64_t{37}, int64_t{257}, int64_t{333}}) {
      DistMatrix<int32_t> w(n);
      uint64_t x = kSeed + static_cast<uint64_t>(n);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) {
          if (i == j) w(i, j) = 0;
          x = x * 6364136223846793005ull + 1442695040888963407ull;
          const uint64_t r = x >> 33;
          if (i != j && r % 100 < 8) w(i, j) = static_cast<int32_t>(r / 100 % 3);  // 0, 1, 2
        }
      DistMatrix<int32_t> dist = w;
      PathMatrix pref;
      fw_serial(dist, &pref);
      const PathMatrix host = host_recovered(w, dist);
      const int64_t ld = n + 5;
      const auto padded = [&](const DistMatrix<int32_t>& m) {
        std::vector<int32_t> v(static_cast<size_t>(ld * ld), -7);
        for (int64_t i = 0; i < n; ++i)
          std::memcpy(v.data() + i * ld, m.data() + i * n, static_cast<size_t>(n) * 4);
        return v;
      };
      std::vector<int32_t> pw = padded(w), pd = padded(dist);
      cl::Buffer bw(core.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, pw.size() * 4, pw.data());
      cl::Buffer bd(core.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, pd.size() * 4, pd.data());
      INFO("ties, n = " << n);
      {
        DistMatrix<int32_t> d = w;
        PathMatrix p;
        RunStats st;
        bool waited = false;
        REQUIRE(rebuild.run_on_device(core, bw, bd, ld, d, p, st, 0, [&] { waited = true; }));
        CHECK(waited);
        CHECK(d == dist);
        CHECK(p.hops == pref.hops);
        CHECK(p.hops == host.hops);
        CHECK(p.via == host.via);
        CHECK(check_paths(w, dist, p) == "");
        CHECK(st.paths_kernels.find("found on the device") != std::string::npos);
        CHECK(st.paths_kernels.find(std::to_string(input_edges(w).dst.size()) + " edges") !=
              std::string::npos);
      }
      // Two matrices and nothing more: the caller is told, d is still the input.
      DistMatrix<int32_t> d = w;
      PathMatrix p;
      RunStats st;
      CHECK_FALSE(rebuild.run_on_device(core, bw, bd, ld, d, p, st,
                                        2 * static_cast<uint64_t>(ld * ld) * 4));
      CHECK(d == w);
    }
  }

  // The matrix stager's shape: 4 chunks of whole rows (32 MiB at most) for a
  // matrix of 256 MiB on, 2 of 8 MiB below; rows of any size that fit reuse the
  // chunks already pinned (the rebuild's via / hops); OCL_SP_STAGE_CHUNKS sets the
  // count.
  TEST_CASE("PoCL: the matrix stager: more and larger chunks for large matrices") {
    OpenClCore core(spec(Algo::fw), ValueType::int32);
    const size_t row = 40000;  // n = 10 000, int32
    Stager& big = core.matrix_stager(row, row * 10000);
    CHECK(big.chunks() == 4);
    CHECK(big.chunk_bytes() % row == 0);
    CHECK(big.chunk_bytes() <= (size_t{32} << 20));
    CHECK(big.chunk_bytes() + row > (size_t{32} << 20));
    CHECK(&core.matrix_stager(row) == &big);
    CHECK(&core.matrix_stager(row / 2) == &big);
    Stager& small = core.matrix_stager(4000, 4000 * 4000);  // 16 MB
    CHECK(small.chunks() == 2);
    CHECK(small.chunk_bytes() <= (size_t{8} << 20));
    CHECK(small.chunk_bytes() + 4000 > (size_t{8} << 20));
    const ocl_sp_test::EnvGuard chunks("OCL_SP_STAGE_CHUNKS", std::string("3"));
    CHECK(core.matrix_stager(4000, 4000 * 4000).chunks() == 3);
  }

  // The single buffer with OCL_SP_PATHS_REBUILD=1: fast distances, then the rebuild
  // from the buffer itself; the same distances, hops and vias as the host's.
  TEST_CASE("PoCL: single buffer paths rebuilt from the buffer (OCL_SP_PATHS_REBUILD=1)") {
    ocl_sp_test::EnvGuard on("OCL_SP_PATHS_REBUILD", std::string("1"));
    auto solver = make_opencl_solver<int32_t>(spec(Algo::fw));
    for (int64_t n : {int64_t{1}, int64_t{129}, int64_t{300}}) {
      INFO("n = " << n);
      const DistMatrix<int32_t> w = graph<int32_t>(n, kSeed + 11 * n);
      DistMatrix<int32_t> d = w, ref = w;
      PathMatrix p, pref;
      const RunStats st = solver->solve(d, &p);
      fw_serial(ref, &pref);
      CHECK(st.placement == "single buffer");
      CHECK(st.paths_kernels.find("rebuilt on the device") != std::string::npos);
      CHECK(d == ref);
      CHECK(p.hops == pref.hops);
      CHECK(p.via == host_recovered(w, d).via);
      // The tight edges found on the device by default, from a host scan under
      // OCL_SP_PATHS_DEVICE_EDGES=0: the same bytes.
      CHECK(st.paths_kernels.find(n > 1 ? "found on the device" : "") != std::string::npos);
      ocl_sp_test::EnvGuard scan("OCL_SP_PATHS_DEVICE_EDGES", std::string("0"));
      DistMatrix<int32_t> d2 = w;
      PathMatrix p2;
      const RunStats st2 = solver->solve(d2, &p2);
      CHECK(st2.paths_kernels.find("found on the device") == std::string::npos);
      CHECK(d2 == ref);
      CHECK(p2.hops == p.hops);
      CHECK(p2.via == p.via);
    }
    // Fractional float32 weights: not exact, the lexicographic kernels instead.
    auto sf = make_opencl_solver<float>(spec(Algo::fw));
    DistMatrix<float> f = ocl_sp_test::random_graph<float>(60, kSeed, true);
    PathMatrix p;
    CHECK(sf->solve(f, &p).paths_kernels.rfind("route: path kernels", 0) == 0);
  }

}

// The --paths route (choose_paths_route): panels with the device rebuild from
// kPanelPathsMinN on and wherever the distances already run on panels, the single
// buffer's rebuild below it and for float weights (which fall back to the path
// kernels where the sums could round), and the OCL_SP_PATHS_REBUILD overrides;
// every choice says why.
TEST_CASE("choose_paths_route: the fastest route by n, exactness and the override") {
  // Exact sums below kPanelPathsMinN: the single buffer's rebuild (its via is every
  // placement's), with or without room for a copy of the input.
  const auto small = choose_paths_route(kPanelPathsMinN - 1, true, true, "");
  CHECK(small.route == PathsRoute::single_rebuild);
  CHECK(small.panel == 0);
  const auto big = choose_paths_route(kPanelPathsMinN, true, true, "");
  CHECK(big.route == PathsRoute::panels_rebuild);
  // A copy of the input fits beside the distances: the single buffer's rebuild.
  const auto beside = choose_paths_route(kPanelPathsMinN, true, true, "", true);
  CHECK(beside.route == PathsRoute::single_rebuild);
  CHECK(beside.panel == 0);
  CHECK(choose_paths_route(kPanelPathsMinN - 1, true, true, "", true).route ==
        PathsRoute::single_rebuild);
  CHECK(choose_paths_route(1, true, true, "").route == PathsRoute::single_rebuild);
  CHECK(choose_paths_route(50000, true, false, "", true).route == PathsRoute::single_rebuild);
  CHECK(choose_paths_route(300, false, true, "", true).route == PathsRoute::panels_rebuild);
  CHECK(big.panel % kFwPanelMultiple == 0);
  CHECK(big.panel * 4 >= kPanelPathsMinN);  // 4 x 4 panels
  CHECK((big.panel - kFwPanelMultiple) * 4 < kPanelPathsMinN);
  CHECK(choose_paths_route(30000, true, true, "").panel == 7552);
  // Floats: the single buffer's rebuild, which takes the path kernels itself where
  // the sums could round (no forced panels: those refuse inexact sums).
  CHECK(choose_paths_route(50000, true, false, "").route == PathsRoute::single_rebuild);
  CHECK(choose_paths_route(50000, true, false, "").panel == 0);
  // Already on panels (past one buffer, --panel): the panels' rebuild, no forced edge.
  const auto panels = choose_paths_route(300, false, true, "");
  CHECK(panels.route == PathsRoute::panels_rebuild);
  CHECK(panels.panel == 0);
  CHECK(choose_paths_route(300, true, true, "1").route == PathsRoute::single_rebuild);
  CHECK(choose_paths_route(300, true, false, "1").route == PathsRoute::single_rebuild);
  CHECK(choose_paths_route(300, true, false, "0").route == PathsRoute::lexicographic);
  CHECK(choose_paths_route(50000, true, true, "0").route == PathsRoute::lexicographic);
  CHECK(choose_paths_route(300, true, true, "0").route == PathsRoute::lexicographic);
  for (const auto& c : {small, big, beside, panels}) CHECK_FALSE(c.why.empty());
  CHECK(std::string(to_string(PathsRoute::panels_rebuild)) == "panels, rebuilt on the device");
}
