// The MPI launch's arithmetic without MPI (host/mpi/mpi_env.hpp): the default
// process grid and --grid parsing, the multi-source engine's dealing of output
// rows to ranks (every row to exactly one rank, even shares, chunks of
// consecutive rows, independent of anything but the two counts) and of a node's
// devices to its ranks.
#include <doctest/doctest.h>

#include <stdlib.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "mpi/mpi_env.hpp"
#include "util/env.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;

TEST_SUITE("mpi_env") {
  TEST_CASE("default grid: the most square factorisation, rows <= columns") {
    CHECK(mpi::default_grid(1) == std::pair<int, int>{1, 1});
    CHECK(mpi::default_grid(3) == std::pair<int, int>{1, 3});
    CHECK(mpi::default_grid(4) == std::pair<int, int>{2, 2});
    CHECK(mpi::default_grid(6) == std::pair<int, int>{2, 3});
    CHECK(mpi::default_grid(64) == std::pair<int, int>{8, 8});
    CHECK(mpi::parse_grid("2x4") == std::pair<int, int>{2, 4});
    CHECK_THROWS_AS(mpi::parse_grid("2by4"), UsageError);
    CHECK_THROWS_AS(mpi::parse_grid("0x2"), UsageError);
  }

  TEST_CASE("source deal: every row once, even shares, runs of consecutive rows") {
    for (const int64_t rows : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{64}, int64_t{1000}, int64_t{100003}}) {
      for (const int ranks : {1, 2, 3, 4, 7}) {
        const mpi::SourceDeal deal(rows, ranks);
        CAPTURE(rows);
        CAPTURE(ranks);
        CHECK(deal.chunk >= 1);
        std::vector<int64_t> per(static_cast<size_t>(ranks), 0);
        for (int64_t r = 0; r < rows; ++r) {
          const int k = deal.owner(r);
          REQUIRE(k >= 0);
          REQUIRE(k < ranks);
          ++per[static_cast<size_t>(k)];
          if (r > 0 && r % deal.chunk != 0) CHECK(deal.owner(r - 1) == k);  // inside a chunk: one rank
        }
        int64_t total = 0;
        for (const int64_t x : per) total += x;
        CHECK(total == rows);
        // Shares differ by at most one chunk.
        const auto [lo, hi] = std::minmax_element(per.begin(), per.end());
        CHECK(*hi - *lo <= deal.chunk);
        // About 64 chunks a rank once there are enough rows.
        if (rows >= 64 * ranks) CHECK((rows + deal.chunk - 1) / deal.chunk >= 32 * ranks);
      }
    }
    // The chunk depends on the counts only: the same deal every time.
    CHECK(mpi::SourceDeal(100000, 4).chunk == 391);
    CHECK(mpi::SourceDeal(100000, 4).owner(391) == 1);
  }

  TEST_CASE("devices dealt to a node's ranks") {
    using V = std::vector<size_t>;
    CHECK(mpi::dealt_devices(4, 0, 4) == V{0});
    CHECK(mpi::dealt_devices(4, 3, 4) == V{3});
    CHECK(mpi::dealt_devices(4, 1, 2) == V{1, 3});
    CHECK(mpi::dealt_devices(4, 0, 1) == V{0, 1, 2, 3});
    CHECK(mpi::dealt_devices(1, 2, 4) == V{0});   // fewer devices than ranks: one each
    CHECK(mpi::dealt_devices(2, 3, 4) == V{1});
    CHECK(mpi::dealt_devices(3, 0, 0) == V{0, 1, 2});  // unknown local size: one rank
  }

  TEST_CASE("host threads: a rank's share of the CPUs its mask holds") {
    using M = std::vector<uint8_t>;
    const M all64(64, 1);
    // mpirun's default past 2 ranks: every rank may run on the whole socket.
    const std::vector<M> same = {all64, all64, all64, all64};
    for (int r = 0; r < 4; ++r) CHECK(mpi::shared_host_threads(same, r) == 16);
    // Bound to disjoint halves: each keeps its own 32.
    M lo(64, 0), hi(64, 0);
    for (int c = 0; c < 32; ++c) lo[c] = hi[c + 32] = 1;
    CHECK(mpi::shared_host_threads({lo, hi}, 0) == 32);
    CHECK(mpi::shared_host_threads({lo, hi}, 1) == 32);
    // Bound to one core each: one thread.
    M c0(64, 0), c1(64, 0);
    c0[0] = c1[1] = 1;
    CHECK(mpi::shared_host_threads({c0, c1}, 1) == 1);
    // One rank sharing its 8 CPUs with two others' 4 each: 4 + 4 / 3 ...
    M a(64, 0), b(64, 0);
    for (int c = 0; c < 8; ++c) a[c] = 1;
    for (int c = 0; c < 4; ++c) b[c] = 1;
    CHECK(mpi::shared_host_threads({a, b, b}, 0) == 5);  // 4 x 1/3 + 4 x 1 = 5.33
    CHECK(mpi::shared_host_threads({a, b, b}, 1) == 1);  // 4 x 1/3 = 1.33
    // More ranks than CPUs: at least one thread; a rank out of range: one.
    CHECK(mpi::shared_host_threads({c0, c0, c0}, 2) == 1);
    CHECK(mpi::shared_host_threads({c0}, 3) == 1);
  }
  // The launchers' rank variables and the OCL_SP_* sizes share one reader: a
  // whole decimal integer inside its range, else the fallback.
  TEST_CASE("env_int: whole numbers in range, the fallback otherwise") {
    const char* k = "OCL_SP_TEST_ENV_INT";
    ::unsetenv(k);
    CHECK(env_int(k, 7, 0, 100) == 7);
    for (const auto& [text, want] : std::vector<std::pair<const char*, int>>{
             {"", 7}, {"12", 12}, {"0", 0}, {"100", 100}, {"101", 7}, {"-1", 7}, {"3x", 7}, {"x3", 7}, {"1.5", 7}}) {
      ::setenv(k, text, 1);
      INFO("value '" << text << "'");
      CHECK(env_int(k, 7, 0, 100) == want);
    }
    ::setenv(k, "-5", 1);
    CHECK(env_int(k, 7, -10, 10) == -5);
    const char* was = std::getenv("OMPI_COMM_WORLD_SIZE");  // kept for a run under mpirun
    const std::string before = was ? was : "";
    ::setenv("OMPI_COMM_WORLD_SIZE", "16777216", 1);  // past the rank reader's 2^24 - 1
    CHECK(mpi::launched_world_size() == 1);
    ::setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
    CHECK(mpi::launched_world_size() == 4);
    if (was)
      ::setenv("OMPI_COMM_WORLD_SIZE", before.c_str(), 1);
    else
      ::unsetenv("OMPI_COMM_WORLD_SIZE");
    ::unsetenv(k);
  }
}
