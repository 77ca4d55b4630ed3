// The panel engine (DESIGN.md "Scale"): the placement planner as a pure function
// (single buffer / resident / out of core / refusal, several devices, host
// memory), and every placement run on PoCL bit-exactly against fw_serial: int32
// and float32, each fw kernel family, n not a multiple of the panel or the block
// (n = 1 included), negative edges, disconnected parts, negative cycles, several
// (sub-)devices. Graphs print their seed.
#include <doctest/doctest.h>

#include <algorithm>
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

TEST_SUITE("panel_engine") {
  TEST_CASE("plan: the single buffer while it fits one allocation") {
    const auto p = plan_panels(1000, 4, {budget(1024 * kMiB, 512 * kMiB)}, 0, 128, 64, 1, 1ull << 40);
    CHECK(p.placement == Placement::single_buffer);
    CHECK(p.p == 1024);  // round_up(1000, 64)
  }

  TEST_CASE("plan: resident panels past one allocation, out of core past the memory") {
    // 10000^2 x 4 = 381 MiB: more than one 100 MiB allocation, fits 1 GiB.
    const auto r = plan_panels(10000, 4, {budget(1024 * kMiB, 100 * kMiB)}, 0, 128, 64, 1, 1ull << 40);
    CHECK(r.placement == Placement::resident);
    CHECK(r.p % 128 == 0);
    CHECK(r.p * r.p * 4 <= 100 * kMiB);
    CHECK(r.q * r.p >= 10000);
    CHECK((r.q - 1) * r.p < 10000);  // no panel row of padding only
    CHECK(r.device_bytes <= 1024 * kMiB);
    // A quarter of the matrix: out of core, panels small enough for the streaming set.
    const auto o = plan_panels(10000, 4, {budget(96 * kMiB, 96 * kMiB)}, 0, 128, 64, 1, 1ull << 40);
    CHECK(o.placement == Placement::out_of_core);
    CHECK(o.slots == kStreamSlots);
    CHECK(o.device_bytes <= 96 * kMiB);
    // Host side: the pinned staging chunks, whatever host memory is free.
    CHECK(o.host_bytes == std::min<uint64_t>(static_cast<uint64_t>(o.p) * o.p * 4, kStageBytes) *
                              kStagingBuffers);
    CHECK(o.describe().find("pinned staging") != std::string::npos);
  }

  TEST_CASE("plan: --panel forces panels; what cannot fit is refused with numbers") {
    const auto f = plan_panels(300, 4, {budget(1024 * kMiB, 512 * kMiB)}, 100, 128, 64, 1, 1ull << 40);
    CHECK(f.placement == Placement::resident);
    CHECK(f.p == 128);  // rounded up to the multiple
    CHECK(f.q == 3);
    try {
      plan_panels(300, 4, {budget(100 * 1024, 100 * 1024)}, 128, 128, 64, 1, 1ull << 40);
      FAIL("no refusal");
    } catch (const RuntimeError& e) {
      const std::string m = e.what();
      CHECK(m.find("--panel") != std::string::npos);
      CHECK(m.find("MiB") != std::string::npos);
    }
    CHECK_THROWS_AS(plan_panels(1000000, 4, {budget(kMiB, kMiB)}, 0, 128, 64, 1, 1ull << 50),
                    RuntimeError);
    // Host memory too small even for the staging buffers.
    CHECK_THROWS_AS(plan_panels(10000, 4, {budget(96 * kMiB, 96 * kMiB)}, 0, 128, 64, 1, kMiB),
                    RuntimeError);
  }

  TEST_CASE("plan: several devices get at least four panel rows each") {
    const auto p = plan_panels(40000, 4, {budget(64ull << 30, 16ull << 30), budget(64ull << 30, 16ull << 30)},
                               0, 128, 64, 1, 1ull << 40);
    CHECK(p.devices == 2);
    CHECK(p.q >= 8);
    CHECK(p.placement == Placement::resident);
    // Each device: its ceil(q/2) panel rows, two sets (by round parity) of the q
    // pivot and row panels received from the other, one copy.
    const uint64_t panel = static_cast<uint64_t>(p.p) * static_cast<uint64_t>(p.p) * 4;
    CHECK(p.device_bytes == panel * static_cast<uint64_t>((p.q + 1) / 2 * p.q + 2 * p.q + 1));
  }

  TEST_CASE("plan: panel rows shared by device weight, interleaved, within each device's cap") {
    CHECK(share_panel_rows({1, 1, 1}, {}, 7) == std::vector<int>{0, 1, 2, 0, 1, 2, 0});
    // 1 : 3 -> 2 of 8 rows to the first device, spread out, not in a block
    const std::vector<int> w13 = share_panel_rows({1, 3}, {}, 8);
    CHECK(std::count(w13.begin(), w13.end(), 0) == 2);
    CHECK(w13 == std::vector<int>{1, 0, 1, 1, 1, 0, 1, 1});
    // the fast device's memory holds 3 rows: the rest go to the slow one
    const std::vector<int> capped = share_panel_rows({1, 3}, {8, 3}, 8);
    CHECK(std::count(capped.begin(), capped.end(), 1) == 3);
    CHECK(std::count(capped.begin(), capped.end(), 0) == 5);
    CHECK(share_panel_rows({1000, 1}, {}, 3) == std::vector<int>{0, 0, 0});
    CHECK(share_panel_rows({2}, {}, 1) == std::vector<int>{0});
  }

  TEST_CASE("plan: a process grid (MPI) gets resident panels, 4 to 8 per rank and dimension") {
    const PanelGrid g{2, 3};
    // Panels of one rank: ceil(q/2) x ceil(q/3) own, two sets (round parity) of
    // ceil(q/3) row + ceil(q/2) column panels received, pivot, copy.
    CHECK(grid_resident_panels(12, g) == 6 * 4 + 2 * (4 + 6) + 1 + 1);
    CHECK(grid_resident_panels(5, PanelGrid{1, 1}) == 25 + 1);
    CHECK(grid_resident_panels(5, PanelGrid{4, 1}) == 2 * 5 + 2 * 5 + 1 + 1);
    const auto p = plan_panels(40000, 4, {budget(64ull << 30, 16ull << 30)}, 0, 128, 128, 1,
                               1ull << 40, g);
    CHECK(p.placement == Placement::resident);
    CHECK(p.q >= 16);  // 40000 / kGridPanelEdge, between 4 and 8 x max(2, 3)
    CHECK(p.p % 128 == 0);
    CHECK(p.device_bytes == static_cast<uint64_t>(p.p) * p.p * 4 * grid_resident_panels(p.q, g));
    // 2 x 2 ranks: 8 panels a dimension where they stay >= 2560 (the measured
    // P = 6272 at n = 100 000 and 2560 at 40 000), 4 below.
    const PanelGrid g22{2, 2};
    const auto big = plan_panels(100000, 4, {budget(80ull << 30, 20ull << 30)}, 0, 128, 128, 1,
                                 1ull << 40, g22);
    CHECK(big.q == 16);
    CHECK(big.p == 6272);
    const auto mid = plan_panels(40000, 4, {budget(80ull << 30, 20ull << 30)}, 0, 128, 128, 1,
                                 1ull << 40, g22);
    CHECK(mid.q == 16);
    CHECK(mid.p == 2560);
    const auto small = plan_panels(5000, 4, {budget(80ull << 30, 20ull << 30)}, 0, 128, 128, 1,
                                   1ull << 40, g22);
    CHECK(small.q == 8);
    CHECK(small.p == 640);
    // One rank (1 x 1): one panel, never the single buffer.
    const auto one = plan_panels(1000, 4, {budget(1024 * kMiB, 512 * kMiB)}, 0, 32, 32, 1,
                                 1ull << 40, PanelGrid{1, 1});
    CHECK(one.placement == Placement::resident);
    CHECK(one.q == 1);
    CHECK(one.p == 1024);
    // n = 1 on 2 x 2: one panel of the multiple.
    const auto tiny = plan_panels(1, 4, {budget(kMiB, kMiB)}, 0, 32, 32, 1, 1ull << 40, PanelGrid{2, 2});
    CHECK(tiny.q == 1);
    CHECK(tiny.p == 32);
    // --panel is rounded up and kept.
    const auto f = plan_panels(300, 4, {budget(kMiB, kMiB)}, 30, 32, 32, 1, 1ull << 40, PanelGrid{2, 2});
    CHECK(f.p == 32);
    CHECK(f.q == 10);
    // Never out of core: a rank whose panels do not fit is refused with the numbers.
    try {
      plan_panels(100000, 4, {budget(256 * kMiB, 64 * kMiB)}, 0, 128, 128, 1, 1ull << 40,
                  PanelGrid{1, 2});
      FAIL("no refusal");
    } catch (const RuntimeError& e) {
      const std::string m = e.what();
      CHECK(m.find("1 x 2 process grid") != std::string::npos);
      CHECK(m.find("more ranks") != std::string::npos);
    }
    CHECK_THROWS_AS(plan_panels(300, 4, {budget(kMiB, 4096)}, 64, 32, 32, 1, 1ull << 40,
                                PanelGrid{2, 2}),
                    RuntimeError);
  }

  TEST_CASE("PoCL: the fw solver runs the plan it is given (the CLI's), else its own") {
    SolverSpec s = spec(Algo::fw);
    // plan_fw as `ocl_sp solve` calls it, with --panel 128; the solver is then
    // built without --panel, as if the two had planned apart.
    SolverSpec planned = s;
    planned.panel = 128;
    const auto entries = select_devices(s.device, 1);
    s.fw_plan = std::make_shared<const PanelPlan>(plan_fw(300, 4, entries, planned, 1ull << 40));
    REQUIRE(s.fw_plan->placement == Placement::resident);
    auto solver = make_opencl_solver<int32_t>(s);
    DistMatrix<int32_t> d = graph<int32_t>(300, kSeed), ref = d;
    fw_serial(ref, nullptr);
    CHECK(solver->solve(d, nullptr).placement.find("resident panels, P = 128") == 0);
    CHECK(d == ref);
    // Another n: the solver's own plan (the single buffer here).
    DistMatrix<int32_t> e = graph<int32_t>(200, kSeed), eref = e;
    fw_serial(eref, nullptr);
    CHECK(solver->solve(e, nullptr).placement == "single buffer");
    CHECK(e == eref);
  }

  TEST_CASE("PoCL: resident panels, every fw family, int32 and float32, bit-exact") {
    for (const Tunables& t : {Tunables{{"TILED", 2}}, Tunables{{"TILED", 1}, {"BLOCK", 64}},
                              Tunables{{"TILED", 0}, {"BLOCK", 32}}}) {
      SolverSpec s = spec(Algo::fw, t);
      s.panel = 128;
      INFO(to_string(t));
      check_solver<int32_t>(s, {1, 127, 128, 129, 300}, "resident panels");
      check_solver<float>(s, {1, 300}, "resident panels");
    }
  }

  TEST_CASE("PoCL: out of core (--device-memory), several panel edges, bit-exact") {
    for (int64_t panel : {128, 256}) {
      SolverSpec s = spec(Algo::fw);
      s.panel = panel;
      // Room for the streaming set of a 3 x 3 grid of these panels, not for all nine.
      s.device_memory = static_cast<uint64_t>(panel) * panel * 4 * (3 + 3 + kStreamSlots);
      check_solver<int32_t>(s, {panel * 2 + 44, panel * 3}, "out of core");
      check_solver<float>(s, {panel * 2 + 44}, "out of core");
    }
    // Chosen automatically from the memory alone.
    SolverSpec s = spec(Algo::fw);
    s.device_memory = 128ull * 128 * 4 * 10;  // n = 400: 4 x 4 panels of 128, 10 on the device
    check_solver<int32_t>(s, {400}, "out of core");
  }

  // The out-of-core look-ahead (panel_ooc.hpp) never drains between rounds: the
  // next round's pivot row moves on the device, downloads are issued late and
  // host memory is read only after a panel's last download reached it. Many
  // rounds of small panels (q = 3, 8), whole-panel and multi-chunk staging
  // (where a stale host read or an early buffer reuse would show), against the
  // single buffer's bytes and fw_serial.
  TEST_CASE("PoCL: out of core look-ahead over many rounds equals the single buffer") {
    for (const char* chunk : {"", "20000", "70000"}) {
      const ocl_sp_test::EnvGuard env("OCL_SP_STAGE_BYTES", std::string(chunk));
      for (int64_t n : {300, 3 * 128, 7 * 128 + 5}) {
        const int64_t q = (n + 127) / 128;
        const uint64_t seed = kSeed + static_cast<uint64_t>(n) * 7;
        INFO("chunk bytes '" << chunk << "', n = " << n << ", seed " << seed);
        SolverSpec s = spec(Algo::fw);
        auto single = make_opencl_solver<int32_t>(s);
        s.panel = 128;
        s.device_memory = 128ull * 128 * 4 * static_cast<uint64_t>(q + 3 + kStreamSlots);
        auto ooc = make_opencl_solver<int32_t>(s);
        DistMatrix<int32_t> a = graph<int32_t>(n, seed), b = a, ref = a;
        CHECK(single->solve(a, nullptr).placement == "single buffer");
        const RunStats st = ooc->solve(b, nullptr);
        REQUIRE(st.placement.find("out of core") == 0);
        CHECK(st.placement.find(std::to_string(q) + " x " + std::to_string(q)) !=
              std::string::npos);
        CHECK(std::memcmp(a.data(), b.data(), sizeof(int32_t) * static_cast<size_t>(n * n)) == 0);
        fw_serial(ref, nullptr);
        CHECK(b == ref);
        // Setup and idle are reported on the device line; idle = solve less kernels.
        REQUIRE(st.device_lines.size() == 1);
        CHECK(st.device_lines[0].find("(setup ") != std::string::npos);
        CHECK(st.copy_exposed >= 0);
      }
    }
    // float32, and a second solve on the same solver (kept stager, fresh tickets).
    SolverSpec s = spec(Algo::fw);
    s.panel = 128;
    s.device_memory = 128ull * 128 * 4 * (4 + 3 + kStreamSlots);
    auto solver = make_opencl_solver<float>(s);
    for (int k = 0; k < 2; ++k) {
      DistMatrix<float> d = graph<float>(450, kSeed + static_cast<uint64_t>(k)), ref = d;
      INFO("float32 solve " << k);
      CHECK(solver->solve(d, nullptr).placement.find("out of core") == 0);
      fw_serial(ref, nullptr);
      CHECK(d == ref);
    }
  }

  TEST_CASE("PoCL: panels in several staging chunks (ragged last chunk), bit-exact") {
    // OCL_SP_STAGE_BYTES shrinks the chunks: 20000 bytes = 39 rows of a 128-wide
    // panel, so each panel moves in 4 chunks, the last of 11 rows.
    const ocl_sp_test::EnvGuard env("OCL_SP_STAGE_BYTES", std::string("20000"));
    SolverSpec s = spec(Algo::fw);
    s.panel = 128;
    check_solver<int32_t>(s, {300}, "resident panels");
    s.device_memory = 128ull * 128 * 4 * 9;
    check_solver<int32_t>(s, {300}, "out of core");
    s.split = 2;
    s.device_memory = 0;
    check_solver<float>(s, {300}, "on 2 devices");
  }

  TEST_CASE("PoCL: squaring over panels in several staging chunks, bit-exact, fixed point seen") {
    // 20000-byte chunks: each 128-wide panel moves in 4 chunks (the last of 11
    // rows), up to L and back for every product.
    const ocl_sp_test::EnvGuard env("OCL_SP_STAGE_BYTES", std::string("20000"));
    for (int split : {1, 2}) {
      SolverSpec s = spec(Algo::squaring);
      s.split = split;
      s.panel = 128;
      INFO("split " << split);
      check_solver<int32_t>(s, {129, 300}, "whole matrix on every device");
      check_solver<float>(s, {300}, "whole matrix on every device");
      // The change that decides the next product may sit in any chunk: a path
      // 0 -> 1 -> ... -> 299 needs all ceil(log2 299) = 9 products.
      auto solver = make_opencl_solver<int32_t>(s);
      DistMatrix<int32_t> path(300);
      for (int64_t i = 0; i < 300; ++i) path(i, i) = 0;
      for (int64_t i = 0; i + 1 < 300; ++i) path(i, i + 1) = 1;
      CHECK(solver->solve(path, nullptr).products == 9);
      CHECK(path(0, 299) == 299);
    }
  }

  TEST_CASE("stager: rows through a ring of pinned chunks, contiguous and pitched") {
    OpenClCore core(spec(Algo::fw), ValueType::int32);
    core.begin_solve();
    const size_t n = 37, ld = 48, row = n * 4;
    std::vector<int32_t> host(n * n);
    std::iota(host.begin(), host.end(), -100);
    cl::Buffer buf(core.context(), CL_MEM_READ_WRITE, ld * ld * 4);
    // 5 rows per chunk: 8 chunks through 2 slots, the last of 2 rows.
    Stager& st = core.stager(OpenClCore::StageUse::kMatrix, 2, 5 * row);
    for (size_t pitch : {row, ld * 4}) {
      INFO("pitch " << pitch);
      int fills = 0, drains = 0;
      st.upload(OpenClCore::kUpload, buf, {n, row, pitch}, [&](void* chunk, size_t r0, size_t r1) {
        std::memcpy(chunk, host.data() + r0 * n, (r1 - r0) * row);
        ++fills;
      });
      st.settle();
      std::vector<int32_t> back(n * n, 0);
      st.download(OpenClCore::kDownload, buf, {n, row, pitch},
                  [&](const void* chunk, size_t r0, size_t r1) {
                    std::memcpy(back.data() + r0 * n, chunk, (r1 - r0) * row);
                    ++drains;
                  });
      st.settle();
      CHECK(fills == 8);
      CHECK(drains == 8);
      CHECK(back == host);
      // The device holds the rows `pitch` bytes apart.
      std::vector<int32_t> dev(ld * ld);
      core.queue().enqueueReadBuffer(buf, CL_TRUE, 0, ld * ld * 4, dev.data());
      CHECK(std::memcmp(dev.data() + 36 * (pitch / 4), host.data() + 36 * n, row) == 0);
    }
    // A chunk smaller than one row is an error, not an overflow.
    CHECK_THROWS_AS(st.upload(OpenClCore::kUpload, buf, {1, 6 * row, 6 * row},
                              [](void*, size_t, size_t) {}),
                    RuntimeError);
    // After an error (drain()), a pending download (one chunk, so still pending)
    // never reaches its host memory.
    bool ran = false;
    st.download(OpenClCore::kDownload, buf, {5, row, row},
                [&](const void*, size_t, size_t) { ran = true; });
    core.drain();
    st.settle();
    CHECK_FALSE(ran);
  }

  // gemm_acc(..., rows, cols): only the output tiles over the real rows x columns
  // run (every BLOCK divides 128, so with 100 real ones the tiles from 128 on are
  // skipped); cols = 0: every tile (squaring, MPI).
  TEST_CASE("PoCL: the panel GEMM trimmed to the real rows and columns") {
    SolverSpec s = spec(Algo::fw);
    const auto entries = select_devices(s.device, 1);
    REQUIRE(!entries.empty());
    auto dev = make_fw_panel_device<int32_t>(entries[0], s, nullptr);
    const int64_t p = 256, real = 100;
    const size_t cells = static_cast<size_t>(p * p), bytes = cells * sizeof(int32_t);
    std::vector<int32_t> a(cells), b(cells), c0(cells, 1000000);
    for (size_t x = 0; x < cells; ++x) {
      a[x] = static_cast<int32_t>((x * 7919) % 1000);
      b[x] = static_cast<int32_t>((x * 104729) % 997);
    }
    OpenClCore& core = dev->core();
    cl::CommandQueue& q = core.queue(OpenClCore::kCompute);
    cl::Buffer ab(core.context(), CL_MEM_READ_WRITE, bytes), bb(core.context(), CL_MEM_READ_WRITE, bytes);
    q.enqueueWriteBuffer(ab, CL_TRUE, 0, bytes, a.data());
    q.enqueueWriteBuffer(bb, CL_TRUE, 0, bytes, b.data());
    const auto run = [&](int64_t cols) {
      cl::Buffer cb(core.context(), CL_MEM_READ_WRITE, bytes);
      q.enqueueWriteBuffer(cb, CL_TRUE, 0, bytes, c0.data());
      dev->gemm_acc(cb, ab, bb, p, real, cols).wait();
      std::vector<int32_t> c(cells);
      q.enqueueReadBuffer(cb, CL_TRUE, 0, bytes, c.data());
      return c;
    };
    const std::vector<int32_t> trimmed = run(real), full = run(0);
    for (int64_t i = 0; i < real; ++i)
      for (int64_t j = 0; j < real; ++j) {
        int32_t m = c0[static_cast<size_t>(i * p + j)];
        for (int64_t k = 0; k < p; ++k)
          m = std::min(m, a[static_cast<size_t>(i * p + k)] + b[static_cast<size_t>(k * p + j)]);
        INFO("i " << i << ", j " << j);
        REQUIRE(trimmed[static_cast<size_t>(i * p + j)] == m);
        REQUIRE(full[static_cast<size_t>(i * p + j)] == m);
      }
    // Past the real part's tiles: untouched when trimmed, computed in full.
    CHECK(trimmed[static_cast<size_t>(200 * p + 10)] == 1000000);
    CHECK(trimmed[static_cast<size_t>(10 * p + 200)] == 1000000);
    CHECK(trimmed[static_cast<size_t>(255 * p + 255)] == 1000000);
    CHECK(full[static_cast<size_t>(10 * p + 200)] < 2000);
  }

  TEST_CASE("stager: settle_through hands over the downloads up to a ticket, no later ones") {
    OpenClCore core(spec(Algo::fw), ValueType::int32);
    core.begin_solve();
    const size_t row = 16 * 4;
    cl::Buffer buf(core.context(), CL_MEM_READ_WRITE, 16 * row);
    std::vector<int32_t> host(16 * 16);
    std::iota(host.begin(), host.end(), 7);
    core.queue().enqueueWriteBuffer(buf, CL_TRUE, 0, 16 * row, host.data());
    // 4 rows per chunk, 6 chunks: two downloads of 2 chunks each stay pending.
    Stager& st = core.stager(OpenClCore::StageUse::kMatrix, 6, 4 * row);
    std::vector<int> drained;
    const auto down = [&](int id) {
      st.download(OpenClCore::kDownload, buf, {8, row, row},
                  [&drained, id](const void*, size_t, size_t) { drained.push_back(id); });
      return st.moves();
    };
    const uint64_t t1 = down(1);
    const uint64_t t2 = down(2);
    CHECK(t2 == t1 + 2);
    CHECK(drained.empty());
    st.settle_through(t1);
    CHECK(drained == std::vector<int>{1, 1});
    st.settle_through(t1);  // already handed over: nothing again
    CHECK(drained.size() == 2);
    st.settle();
    CHECK(drained == std::vector<int>{1, 1, 2, 2});
    // Past the ring's size: the oldest drains ran when their chunks were reused.
    drained.clear();
    const uint64_t t3 = down(3);
    down(4);
    down(5);
    down(6);  // reuses the chunks of 3
    CHECK(drained == std::vector<int>{3, 3});
    st.settle_through(t3);
    CHECK(drained.size() == 2);
    st.settle();
    CHECK(drained.size() == 8);
  }

  TEST_CASE("PoCL split into 2 sub-devices: resident and out of core, bit-exact") {
    SolverSpec s = spec(Algo::fw);
    s.split = 2;
    s.panel = 128;
    check_solver<int32_t>(s, {1, 200, 513}, "on 2 devices");
    check_solver<float>(s, {300}, "on 2 devices");
    s.device_memory = 128ull * 128 * 4 * (5 + 3 + kStreamSlots);  // q = 5: 11 panels
    check_solver<int32_t>(s, {513}, "out of core");
  }

  // Solvers on sub-devices made and dropped one after another, each new one
  // building its programs while the last one's queues may still be winding down:
  // PoCL 3.1 crashed here (SIGSEGV in POclReleaseEvent) when a sub-device was
  // released with them; ocl_sp keeps sub-devices until exit (host/cl/device.cpp).
  TEST_CASE("PoCL split: solvers on sub-devices made and dropped in a row") {
    SolverSpec s = spec(Algo::fw);
    s.split = 2;
    s.panel = 128;
    s.device_memory = 128ull * 128 * 4 * (5 + 3 + kStreamSlots);  // out of core
    DistMatrix<int32_t> g = graph<int32_t>(513, kSeed), ref = g;
    fw_serial(ref, nullptr);
    for (int i = 0; i < 24; ++i) {
      INFO("solver " << i);
      SolverSpec t = s;
      t.params = {{"TILED", i % 2 ? 1 : 2}, {"BLOCK", 64}};  // programs built anew
      auto solver = make_opencl_solver<int32_t>(t);
      DistMatrix<int32_t> d = g;
      solver->solve(d, nullptr);
      CHECK(d == ref);
    }
  }

  TEST_CASE("PoCL split: rows shared by device weight (given or probed), bit-exact") {
    SolverSpec s = spec(Algo::fw);
    s.split = 2;
    s.panel = 128;
    {
      const ocl_sp_test::EnvGuard env("OCL_SP_DEVICE_WEIGHTS", std::string("1,3"));
      auto solver = make_opencl_solver<int32_t>(s);
      DistMatrix<int32_t> d = graph<int32_t>(1000, kSeed), ref = d;  // q = 8 panel rows
      const RunStats st = solver->solve(d, nullptr);
      fw_serial(ref, nullptr);
      CHECK(d == ref);
      REQUIRE(st.device_lines.size() == 2);
      CHECK(st.device_lines[0].find(": 2/8 panel rows") != std::string::npos);
      CHECK(st.device_lines[1].find(": 6/8 panel rows") != std::string::npos);
    }
    {
      const ocl_sp_test::EnvGuard env("OCL_SP_DEVICE_WEIGHTS", std::string("probe"));
      check_solver<int32_t>(s, {700}, "on 2 devices");
    }
  }

  // Several devices, resident: the pipelined rounds (round r + 1's panels sent
  // and received beside round r's GEMMs into receive sets by round parity).
  // Owners alternate every round (equal weights), keep rows in a row (1,3) or
  // leave a device without rows (1,1000); q = 1 (n = 1), 2, 3 and 8 rounds; panels
  // in one staging chunk or in 4 (the owner posts each panel as it lands).
  TEST_CASE("PoCL split: pipelined rounds, every owner pattern, bit-exact") {
    SolverSpec s = spec(Algo::fw);
    s.split = 2;
    s.panel = 128;
    for (const char* weights : {"", "1,3", "1,1000"}) {
      for (const char* stage : {"", "20000"}) {
        const ocl_sp_test::EnvGuard w("OCL_SP_DEVICE_WEIGHTS", std::string(weights));
        const ocl_sp_test::EnvGuard b("OCL_SP_STAGE_BYTES", std::string(stage));
        INFO("weights '" << weights << "', stage bytes '" << stage << "'");
        check_solver<int32_t>(s, {1, 129, 300, 1000}, "on 2 devices");
        check_solver<float>(s, {257}, "on 2 devices");
        auto solver = make_opencl_solver<int32_t>(s);
        DistMatrix<int32_t> d = graph_with_negative_cycle();
        CHECK_THROWS_AS(solver->solve(d, nullptr), NegativeCycleError);
      }
    }
    // One context over both sub-devices: the panels copied device to device.
    {
      const ocl_sp_test::EnvGuard c("OCL_SP_SHARED_CONTEXT", std::string("1"));
      for (const char* weights : {"", "1,3", "1,1000"}) {
        const ocl_sp_test::EnvGuard w("OCL_SP_DEVICE_WEIGHTS", std::string(weights));
        INFO("one context, weights '" << weights << "'");
        check_solver<int32_t>(s, {1, 129, 300, 1000}, "panels device to device (one context)");
        check_solver<float>(s, {257}, "panels device to device");
        auto solver = make_opencl_solver<int32_t>(s);
        DistMatrix<int32_t> d = graph_with_negative_cycle();
        CHECK_THROWS_AS(solver->solve(d, nullptr), NegativeCycleError);
      }
    }
    // A device without panel rows (weights 1,1000 over q = 2) still takes part.
    const ocl_sp_test::EnvGuard w("OCL_SP_DEVICE_WEIGHTS", std::string("1,1000"));
    auto solver = make_opencl_solver<int32_t>(s);
    DistMatrix<int32_t> d = graph<int32_t>(200, kSeed), ref = d;
    const RunStats st = solver->solve(d, nullptr);
    fw_serial(ref, nullptr);
    CHECK(d == ref);
    REQUIRE(st.device_lines.size() == 2);
    CHECK(st.device_lines[0].find(": 0/2 panel rows") != std::string::npos);
  }

  TEST_CASE("PoCL: squaring over panels and over 2 sub-devices, bit-exact") {
    for (int split : {1, 2}) {
      SolverSpec s = spec(Algo::squaring);
      s.split = split;
      s.panel = split == 1 ? 128 : 0;
      INFO("split " << split);
      check_solver<int32_t>(s, {1, 129, 333}, "whole matrix on every device");
      check_solver<float>(s, {200}, "whole matrix on every device");
      auto solver = make_opencl_solver<int32_t>(s);
      DistMatrix<int32_t> d = graph_with_negative_cycle();
      CHECK_THROWS_AS(solver->solve(d, nullptr), NegativeCycleError);
      PathMatrix p;
      DistMatrix<int32_t> e = graph<int32_t>(50, kSeed);
      CHECK_THROWS_AS(solver->solve(e, &p), UsageError);
    }
  }

  TEST_CASE("panels: a negative cycle is reported, the placement does not matter") {
    for (uint64_t mem : {uint64_t{0}, uint64_t{128} * 128 * 4 * 9}) {
      SolverSpec s = spec(Algo::fw);
      s.panel = 128;
      s.device_memory = mem;
      auto solver = make_opencl_solver<int32_t>(s);
      DistMatrix<int32_t> d = graph_with_negative_cycle();
      CHECK_THROWS_AS(solver->solve(d, nullptr), NegativeCycleError);
    }
  }

  TEST_CASE("panels: a device named twice is refused") {
    SolverSpec twice = spec(Algo::fw);
    twice.device = twice.device + "," + twice.device;
    CHECK_THROWS_AS(make_opencl_solver<int32_t>(twice), UsageError);
  }
}
