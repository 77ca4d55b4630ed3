// Tests of the rows layer (DESIGN.md "Sparse graphs and rows"): --sources /
// --targets SPECs, the selected block, the streamed file sink (same bytes as the
// matrix writers, nothing left behind when abandoned), AtomicOutput and the
// per-vertex stats reducer.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "cli/row_select.hpp"
#include "cli/solve_rows.hpp"
#include "graph/io.hpp"
#include "sparse/stats_sink.hpp"
#include "sparse/stream_sink.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/sysinfo.hpp"

using namespace ocl_sp;
namespace fs = std::filesystem;

namespace {

struct RowsDir {
  fs::path dir;
  RowsDir() {
    std::random_device rd;
    dir = fs::temp_directory_path() /
          ("ocl_sp_rows_" + std::to_string(::getpid()) + "_" + std::to_string(rd()));
    fs::create_directories(dir);
  }
  ~RowsDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  size_t entries() const {
    return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
  }
};

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string spec_error(const std::string& spec, int64_t n) {
  try {
    parse_vertex_spec(spec, n, "--sources");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST_SUITE("rows") {
  TEST_CASE("vertex SPECs: ids, ranges, order and repeats kept") {
    CHECK(parse_vertex_spec("3,7,10-12", 20, "--sources") == std::vector<int64_t>{3, 7, 10, 11, 12});
    CHECK(parse_vertex_spec("5, 1 ,5,0-0", 6, "--targets") == std::vector<int64_t>{5, 1, 5, 0});
    CHECK(parse_vertex_spec("19", 20, "--sources") == std::vector<int64_t>{19});
  }

  TEST_CASE("vertex SPECs: bad tokens named") {
    CHECK(spec_error("3,20", 20).find("'20' is out of range [0, 20)") != std::string::npos);
    CHECK(spec_error("-1", 20).find("'-1' is negative") != std::string::npos);
    CHECK(spec_error("1,9-4", 20).find("range '9-4' is reversed") != std::string::npos);
    CHECK(spec_error("1,x2", 20).find("'x2' is not a vertex id") != std::string::npos);
    CHECK(spec_error("1,,2", 20).find("empty item") != std::string::npos);
    CHECK(spec_error("1-", 20).find("'1-'") != std::string::npos);
    CHECK(spec_error("99999999999999999999999", 20).find("out of range") != std::string::npos);
    CHECK(spec_error("@/nonexistent/ids.txt", 20).find("cannot open '/nonexistent/ids.txt'") !=
          std::string::npos);
    CHECK(spec_error("", 20).find("empty") != std::string::npos);
  }

  TEST_CASE("vertex SPECs from a file: one id a line, comments, the bad line named") {
    RowsDir t;
    std::ofstream(t.path("ids")) << "4\n# comment\n\n2\n4 # again\n";
    CHECK(parse_vertex_spec("@" + t.path("ids"), 5, "--sources") == std::vector<int64_t>{4, 2, 4});
    std::ofstream(t.path("bad")) << "1\n7\n";
    const std::string e = spec_error("@" + t.path("bad"), 5);
    CHECK(e.find("line 2") != std::string::npos);
    CHECK(e.find("'7'") != std::string::npos);
  }

  TEST_CASE("selections: rows and columns in the given order, repeats kept (hand_rows + file sink)") {
    RowsDir t;
    DistMatrix<int32_t> d(3);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) d(i, j) = 10 * i + j;
    // The rows and columns the solve command writes for --sources / --targets.
    const auto block = [&](const std::vector<int64_t>& rows, const std::vector<int64_t>& cols) {
      const std::string path = t.path("sel.bin");
      const int64_t nr = rows.empty() ? 3 : static_cast<int64_t>(rows.size());
      StreamingFileSink<int32_t> s(resolve_output(path), OutputFormat::bin, nr, 3, cols);
      hand_rows(d, rows, s);
      s.finish();
      const std::string bytes = read_all(path);
      std::vector<int32_t> v(bytes.size() / 4);
      std::memcpy(v.data(), bytes.data(), bytes.size());
      return v;
    };
    CHECK(block({2, 0, 2}, {1}) == std::vector<int32_t>{21, 1, 21});
    CHECK(block({1}, {}) == std::vector<int32_t>{10, 11, 12});
    CHECK(block({}, {2, 2}) == std::vector<int32_t>{2, 2, 12, 12, 22, 22});
  }

  TEST_CASE("hand_rows: a dense result's rows in order, in blocks, selected rows copied") {
    struct Recorder final : RowSink<int32_t> {
      std::vector<int64_t> firsts, counts;
      std::vector<int32_t> values;
      void rows(int64_t first, int64_t count, int64_t n, const int32_t* d, const int32_t*,
                const int32_t*) override {
        firsts.push_back(first);
        counts.push_back(count);
        values.insert(values.end(), d, d + count * n);
      }
    };
    DistMatrix<int32_t> d(7);
    for (int64_t i = 0; i < 7; ++i)
      for (int64_t j = 0; j < 7; ++j) d(i, j) = static_cast<int32_t>(10 * i + j);
    Recorder all;
    hand_rows(d, {}, all, 3 * 7 * 4);  // three rows a block
    CHECK(all.firsts == std::vector<int64_t>{0, 3, 6});
    CHECK(all.counts == std::vector<int64_t>{3, 3, 1});
    CHECK(all.values == d.values());
    Recorder some;
    hand_rows(d, {5, 1, 5}, some, 2 * 7 * 4);
    CHECK(some.firsts == std::vector<int64_t>{0, 2});
    CHECK(some.counts == std::vector<int64_t>{2, 1});
    REQUIRE(some.values.size() == 21);
    for (int r = 0; r < 3; ++r)
      for (int j = 0; j < 7; ++j) CHECK(some.values[r * 7 + j] == d(r == 1 ? 1 : 5, j));
    Recorder tiny;
    hand_rows(d, {}, tiny, 1);  // below one row: a row a block
    CHECK(tiny.counts.size() == 7);
  }

  TEST_CASE("streamed sink: the bytes of the matrix writers, in every format") {
    RowsDir t;
    DistMatrix<float> d(5);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 5; ++j) d(i, j) = i == j + 1 ? ValueTraits<float>::inf : 0.5f * i + j;
    for (const char* ext : {"bin", "npy", "csv"}) {
      CAPTURE(ext);
      const OutputFormat fmt = detect_output_format(std::string("x.") + ext);
      write_matrix(d, t.path(std::string("ref.") + ext), fmt);
      {
        StreamingFileSink<float> s(resolve_output(t.path(std::string("s.") + ext)), fmt, 5, 5, {});
        s.rows(0, 2, 5, d.data(), nullptr, nullptr);
        s.rows(2, 3, 5, d.data() + 10, nullptr, nullptr);
        s.finish();
      }
      CHECK(read_all(t.path(std::string("s.") + ext)) == read_all(t.path(std::string("ref.") + ext)));
      // Columns 4, 0: the selected block's file.
      std::vector<float> block;
      for (int i = 0; i < 5; ++i) block.insert(block.end(), {d(i, 4), d(i, 0)});
      write_rect_matrix(block.data(), 5, 2, t.path(std::string("bref.") + ext), fmt);
      {
        StreamingFileSink<float> s(resolve_output(t.path(std::string("b.") + ext)), fmt, 5, 5, {4, 0});
        s.rows(0, 5, 5, d.data(), nullptr, nullptr);
        s.finish();
      }
      CHECK(read_all(t.path(std::string("b.") + ext)) == read_all(t.path(std::string("bref.") + ext)));
    }
  }

  TEST_CASE("streamed sink abandoned or out of order: nothing under the name, no temporary") {
    RowsDir t;
    DistMatrix<int32_t> d(4, 1);
    {
      StreamingFileSink<int32_t> s(resolve_output(t.path("out.bin")), OutputFormat::bin, 4, 4, {});
      CHECK(std::string(s.method()) == "O_TMPFILE");  // ext4/tmpfs/xfs have it
      s.rows(0, 2, 4, d.data(), nullptr, nullptr);
      CHECK_THROWS_AS(s.rows(3, 1, 4, d.data(), nullptr, nullptr), RuntimeError);
      CHECK_THROWS_AS(s.finish(), RuntimeError);
    }
    CHECK(t.entries() == 0);
  }

  TEST_CASE("AtomicOutput: unnamed until commit, replaces keeping the mode, fallback too") {
    RowsDir t;
    const std::string p = t.path("f.txt");
    for (const bool fallback : {false, true}) {
      CAPTURE(fallback);
      if (fallback) ::setenv("OCL_SP_NO_TMPFILE", "1", 1);
      {
        AtomicOutput out(resolve_output(p));
        out.stream() << "first";
        out.stream().flush();
        CHECK(!fs::exists(p));
        CHECK(t.entries() == (fallback ? 1u : 0u));  // the named temporary only in the fallback
        CHECK(std::string(out.method()) == (fallback ? "named temporary" : "O_TMPFILE"));
        out.commit();
      }
      CHECK(read_all(p) == "first");
      fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
      write_file_atomically(p, [](std::ostream& o) { o << "second"; });
      CHECK(read_all(p) == "second");
      CHECK((fs::status(p).permissions() & fs::perms::all) ==
            (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
      { AtomicOutput abandoned(resolve_output(t.path("gone.txt"))); abandoned.stream() << "x"; }
      CHECK(!fs::exists(t.path("gone.txt")));
      CHECK(t.entries() == 1u);
      fs::remove(p);
      ::unsetenv("OCL_SP_NO_TMPFILE");
    }
  }

  TEST_CASE("free disk check names the numbers") {
    RowsDir t;
    const OutputTarget o = resolve_output(t.path("big.bin"));
    CHECK(free_disk_bytes(o) > 0);
    CHECK_NOTHROW(check_free_disk(o, 1, "one byte"));
    try {
      check_free_disk(o, UINT64_MAX - 1, "a lot");
      CHECK(false);
    } catch (const RuntimeError& e) {
      CHECK(std::string(e.what()).find("not enough disk space") != std::string::npos);
    }
  }

  TEST_CASE("streamed plan: --betweenness leaves room for the transposed CSR (and its device copy)") {
    // A graph of 10^8 edges on 1 000 vertices: the in-edges (12 bytes an edge, 8
    // a vertex) take 1.2 GB that a batch of rows (8 016 bytes a source) must not.
    const int64_t n = 1000, m = 100000000;
    const double per_source = 8.0 * n + 16, in_edges = 12.0 * m + 8.0 * (n + 1);
    SolverSpec cpu, cl;
    cpu.algo = cl.algo = Algo::sssp;
    cpu.backend = Backend::openmp;
    cl.backend = Backend::opencl;
    set_host_memory_limit(uint64_t{64} << 30);
    const int64_t plain = plan_streamed_memory<int32_t>(cpu, n, m, true, false);
    const int64_t bc = plan_streamed_memory<int32_t>(cpu, n, m, true, true);
    const int64_t plain_cl = plan_streamed_memory<int32_t>(cl, n, m, true, false);
    const int64_t bc_cl = plan_streamed_memory<int32_t>(cl, n, m, true, true);
    set_host_memory_limit(0);
    CHECK(static_cast<double>(plain - bc) > 0.99 * in_edges / per_source);
    CHECK(static_cast<double>(plain - bc) < 1.01 * in_edges / per_source);
    // OpenCL: the device's int copy of them, or a second sink's for the sources
    // run again on the host
    CHECK(static_cast<double>(plain_cl - bc_cl) > 1.98 * in_edges / per_source);
  }

  TEST_CASE("stats: reach, eccentricity, closeness and harmonic on a small directed graph") {
    // 0 -> 1 (2), 1 -> 2 (3), 0 -> 2 (10); 3 isolated.
    const int32_t I = ValueTraits<int32_t>::inf;
    DistMatrix<int32_t> d(4, I);
    const int32_t v[4][4] = {{0, 2, 5, I}, {I, 0, 3, I}, {I, I, 0, I}, {I, I, I, 0}};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) d(i, j) = v[i][j];
    StatsSink<int32_t> s(4);
    stats_from_matrix(d, s);
    const VertexStats& x = s.vertices();
    CHECK(x.reach == std::vector<int64_t>{3, 2, 1, 1});
    CHECK(x.eccentricity == std::vector<double>{5, 3, 0, 0});
    // Vertex 2: reached from 0 (5) and 1 (3): (2 / 8) * (2 / 3).
    CHECK(x.closeness[2] == doctest::Approx(2.0 / 8 * (2.0 / 3)));
    CHECK(x.closeness[1] == doctest::Approx(1.0 / 2 * (1.0 / 3)));
    CHECK(x.closeness[0] == 0);
    CHECK(x.harmonic[2] == doctest::Approx(1.0 / 5 + 1.0 / 3));
    CHECK(x.harmonic[3] == 0);
    const GraphStats g = s.summary();
    CHECK(g.diameter == 5);
    CHECK(g.radius == 0);
    CHECK(g.reachable_pairs == 3);
    CHECK(g.average_shortest_path_length == doctest::Approx(10.0 / 3));
  }

  TEST_CASE("stats: stretches continued in order give exactly the whole row's figures") {
    // Negative and fractional distances, INF, zeros: the sums' rounding depends
    // on the order, so continued stretches must add in the row's order. The
    // distributed solve (host/mpi/mpi_rows.cpp) relies on it for its bytes.
    const double I = ValueTraits<double>::inf;
    std::mt19937 rng(26);
    std::uniform_real_distribution<double> w(-3.0, 50.0);
    const int64_t rows = 37, cols = 29;
    std::vector<double> a(static_cast<size_t>(rows * cols));
    for (auto& x : a) x = rng() % 7 == 0 ? I : (rng() % 11 == 0 ? 0.0 : w(rng));
    for (int64_t r = 0; r < rows; ++r) {
      const double* row = a.data() + r * cols;
      const RowFigures whole = row_figures(row, cols, true);
      RowFigures f;
      for (int64_t c0 = 0; c0 < cols; c0 += 5) continue_figures(f, row + c0, std::min<int64_t>(5, cols - c0), 1, true);
      CHECK(f.reach == whole.reach);
      CHECK(f.largest == whole.largest);
      CHECK(f.sum == whole.sum);  // exactly: the same additions in the same order
      CHECK(f.harmonic == whole.harmonic);
    }
    // Columns: blocks of rows continued down the columns = row_figures of the transpose.
    std::vector<RowFigures> colf(static_cast<size_t>(cols));
    for (int64_t r0 = 0; r0 < rows; r0 += 8)
      column_figures(a.data() + r0 * cols, std::min<int64_t>(8, rows - r0), cols, cols, true, colf.data());
    std::vector<double> col(static_cast<size_t>(rows));
    for (int64_t c = 0; c < cols; ++c) {
      for (int64_t r = 0; r < rows; ++r) col[static_cast<size_t>(r)] = a[static_cast<size_t>(r * cols + c)];
      const RowFigures t = row_figures(col.data(), rows, true);
      CHECK(colf[static_cast<size_t>(c)].reach == t.reach);
      CHECK(colf[static_cast<size_t>(c)].largest == t.largest);
      CHECK(colf[static_cast<size_t>(c)].sum == t.sum);
      CHECK(colf[static_cast<size_t>(c)].harmonic == t.harmonic);
    }
    // An all-INF stretch first, then negative values: largest is the negative
    // maximum, not the empty stretch's 0.
    const double neg[3] = {I, -4.0, -2.5};
    RowFigures f;
    continue_figures(f, neg, 1, 1, false);
    CHECK(f.reach == 0);
    continue_figures(f, neg + 1, 2, 1, false);
    CHECK(f.reach == 2);
    CHECK(f.largest == -2.5);
    CHECK(f.sum == -6.5);
  }
}
