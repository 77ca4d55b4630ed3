// Tests of the graph layer: readers (every format, every malformed-input error
// path with its file and line/offset), the matrix conversion rules, the int32
// range guard, and the atomic bin/npy/csv writers.
#include <doctest/doctest.h>
#include <omp.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "graph/io.hpp"
#include "test_graph_common.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/sysinfo.hpp"

using namespace ocl_sp;
namespace fs = std::filesystem;

namespace {

// A fresh folder under /tmp per test case, removed afterwards.
struct TempDir {
  fs::path dir;
  TempDir() {
    std::random_device rd;
    dir = fs::temp_directory_path() /
          ("ocl_sp_graph_io_" + std::to_string(::getpid()) + "_" + std::to_string(rd()));
    fs::create_directories(dir);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  std::string write(const std::string& name, const std::string& content) const {
    const std::string p = path(name);
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
  size_t entries() const {
    return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
  }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string data_file(const char* name) { return std::string(OCL_SP_TEST_DATA) + "/" + name; }

// The message of the UsageError f throws, or a marker that makes checks fail.
template <typename F>
std::string usage_error(F&& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("<not a UsageError: ") + e.what() + ">";
  }
  return "<no exception>";
}

bool has(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

// Writes `content` to `name`, reads it and expects a UsageError naming the file,
// the location `where` ("line 3", "byte offset 8") and the phrase `what`.
void expect_read_error(const TempDir& t, const std::string& name, const std::string& content,
                       const std::string& where, const std::string& what) {
  const std::string p = t.write(name, content);
  const std::string msg = usage_error([&] { read_graph(p); });
  INFO("input: " << content);
  INFO("message: " << msg);
  CHECK(has(msg, p));
  CHECK(has(msg, where));
  CHECK(has(msg, what));
}

std::string le32(std::initializer_list<int32_t> values) {
  std::string s;
  for (int32_t v : values)
    for (int k = 0; k < 4; ++k) s += static_cast<char>((static_cast<uint32_t>(v) >> (8 * k)) & 0xff);
  return s;
}

constexpr int32_t kInf = ValueTraits<int32_t>::inf;

}  // namespace

TEST_SUITE("graph_io") {
  TEST_CASE("format names and detection") {
    CHECK(parse_input_format("AUTO") == InputFormat::automatic);
    CHECK(parse_input_format("mtx") == InputFormat::mtx);
    CHECK(parse_input_format("Edges") == InputFormat::edges);
    CHECK(has(usage_error([] { parse_input_format("csv"); }), "csv"));
    CHECK(parse_output_format("NPY") == OutputFormat::npy);
    CHECK(has(usage_error([] { parse_output_format("xml"); }), "xml"));
    CHECK(detect_input_format("a/b.BIN") == InputFormat::bin);
    CHECK(detect_input_format("x.gr") == InputFormat::gr);
    CHECK(detect_input_format("x.Mtx") == InputFormat::mtx);
    CHECK(detect_input_format("x.txt") == InputFormat::edges);
    CHECK(detect_input_format("x.edges") == InputFormat::edges);
    CHECK(detect_input_format("x.el") == InputFormat::edges);
    CHECK(detect_output_format("d.csv") == OutputFormat::csv);
    CHECK(detect_output_format("d.bin") == OutputFormat::bin);
    CHECK(detect_output_format("d.npy") == OutputFormat::npy);
    const std::string in_msg = usage_error([] { detect_input_format("graph.dat"); });
    CHECK(has(in_msg, "graph.dat"));
    CHECK(has(in_msg, "--format"));
    CHECK(has(usage_error([] { detect_output_format("dist.out"); }), "--output-format"));
    CHECK(std::string(to_string(InputFormat::gr)) == "gr");
    CHECK(std::string(to_string(OutputFormat::npy)) == "npy");
  }

  TEST_CASE("unknown extension with automatic format suggests --format; explicit format works") {
    TempDir t;
    const std::string p = t.write("graph.dat", "p sp 2 1\na 1 2 3\n");
    const std::string msg = usage_error([&] { read_graph(p); });
    CHECK(has(msg, p));
    CHECK(has(msg, "--format"));
    const Graph g = read_graph(p, InputFormat::gr);
    CHECK(g.n == 2);
    REQUIRE(g.edges.size() == 1);
    CHECK(g.edges[0].w == 3);
  }

  TEST_CASE("missing or unreadable file") {
    TempDir t;
    const std::string p = t.path("nope.gr");
    const std::string msg = usage_error([&] { read_graph(p); });
    CHECK(has(msg, "cannot open '" + p + "'"));
    CHECK(has(msg, std::strerror(ENOENT)));
    const std::string dir_msg = usage_error([&] { read_graph(t.dir.string(), InputFormat::gr); });
    CHECK(has(dir_msg, "cannot open '" + t.dir.string() + "'"));
  }

  TEST_CASE("gr sample: 1-based, comments, parallel arcs, zero weight, self-loop") {
    const Graph g = read_graph(data_file("small.gr"));
    CHECK(g.n == 4);
    REQUIRE(g.edges.size() == 6);
    CHECK(g.edges[0].u == 0);
    CHECK(g.edges[0].v == 1);
    CHECK(g.edges[0].w == 7);
    CHECK(g.edges[5].u == 3);
    CHECK(g.edges[5].v == 3);
    CHECK(!g.has_negative_weight());
    CHECK(g.integer_weights());
    const DistMatrix<int32_t> m = to_matrix<int32_t>(g);
    CHECK(m(0, 1) == 3);    // parallel arcs keep the minimum
    CHECK(m(1, 2) == 0);    // a zero-weight arc is an edge, not "no edge"
    CHECK(m(3, 3) == 0);    // non-negative self-loop ignored
    CHECK(m(0, 2) == kInf);  // no direct arc
    CHECK(m(2, 3) == 5);
  }

  TEST_CASE("mtx: integer general, symmetric pattern, real") {
    const Graph a = read_graph(data_file("small.mtx"));
    CHECK(a.n == 3);
    REQUIRE(a.edges.size() == 4);
    CHECK(a.edges[1].u == 1);
    CHECK(a.edges[1].v == 2);
    CHECK(a.edges[1].w == -1);
    CHECK(a.has_negative_weight());
    CHECK(a.integer_weights());

    const Graph s = read_graph(data_file("sym_pattern.mtx"));
    CHECK(s.n == 3);
    CHECK(s.edges.size() == 5);  // two off-diagonal entries both ways + the diagonal once
    const DistMatrix<int32_t> ms = to_matrix<int32_t>(s);
    CHECK(ms(0, 1) == 1);
    CHECK(ms(1, 0) == 1);
    CHECK(ms(1, 2) == 1);
    CHECK(ms(2, 1) == 1);
    CHECK(ms(0, 2) == kInf);
    CHECK(ms(1, 1) == 0);

    const Graph r = read_graph(data_file("real.mtx"));
    REQUIRE(r.edges.size() == 2);
    CHECK(r.edges[0].w == 0.25);
    CHECK(r.edges[1].w == -0.15);
    CHECK(!r.integer_weights());
    const std::string msg = usage_error([&] { to_matrix<int32_t>(r); });
    CHECK(has(msg, "float32"));
    const DistMatrix<float> mf = to_matrix<float>(r);
    CHECK(mf(0, 1) == 0.25f);
    CHECK(mf(1, 0) == -0.15f);
  }

  TEST_CASE("edges sample: comments, blank lines, default weight 1, reals, CRLF") {
    const Graph g = read_graph(data_file("small.edges"));
    CHECK(g.n == 5);  // largest id 4
    REQUIRE(g.edges.size() == 4);
    CHECK(g.edges[0].w == 2.5);
    CHECK(g.edges[1].w == 1);
    CHECK(g.edges[2].w == -1);
    CHECK(g.edges[3].u == 4);
    CHECK(g.edges[3].v == 3);
    CHECK(g.edges[3].w == 7);
  }

  TEST_CASE("edges: UTF-8 byte order mark and tabs are accepted") {
    TempDir t;
    const Graph g = read_graph(t.write("bom.txt", "\xEF\xBB\xBF" "0\t2\t-4\n"));
    CHECK(g.n == 3);
    REQUIRE(g.edges.size() == 1);
    CHECK(g.edges[0].w == -4);
  }

  TEST_CASE("bin sample (course format)") {
    const Graph g = read_graph(data_file("small.bin"));
    CHECK(g.n == 3);
    REQUIRE(g.edges.size() == 2);
    CHECK(g.edges[1].u == 2);
    CHECK(g.edges[1].v == 0);
    CHECK(g.edges[1].w == -4);
  }

  TEST_CASE("gr malformed inputs name the file and the line") {
    TempDir t;
    expect_read_error(t, "a.gr", "", "line 1", "no problem line");
    expect_read_error(t, "a.gr", "c only a comment\n", "line 1", "no problem line");
    expect_read_error(t, "a.gr", "a 1 2 3\np sp 2 1\n", "line 1", "before the problem line");
    expect_read_error(t, "a.gr", "c x\np sp 2\n", "line 2", "p sp N M");
    expect_read_error(t, "a.gr", "p max 2 1\n", "line 1", "p sp N M");
    expect_read_error(t, "a.gr", "p sp 0 0\n", "line 1", "vertex count");
    expect_read_error(t, "a.gr", "p sp -3 0\n", "line 1", "vertex count");
    expect_read_error(t, "a.gr", "p sp 300000 1\n", "line 1", "vertex count");
    expect_read_error(t, "a.gr", "p sp 2 -1\n", "line 1", "arc count");
    expect_read_error(t, "a.gr", "p sp 2 1\np sp 2 1\n", "line 2", "second problem line");
    expect_read_error(t, "a.gr", "p sp 2 1\na 0 1 5\n", "line 2", "outside [1, 2]");
    expect_read_error(t, "a.gr", "p sp 2 1\na 1 3 5\n", "line 2", "outside [1, 2]");
    expect_read_error(t, "a.gr", "p sp 2 1\na 1 x 5\n", "line 2", "not an integer");
    expect_read_error(t, "a.gr", "p sp 2 1\na 1 2 1.5\n", "line 2", "not an integer");
    expect_read_error(t, "a.gr", "p sp 2 1\na 1 2 99999999999999999999\n", "line 2",
                      "not representable");
    expect_read_error(t, "a.gr", "p sp 2 1\na 1 2 3 4\n", "line 2", "5 fields");
    expect_read_error(t, "a.gr", "p sp 2 1\na 1 2\n", "line 2", "3 fields");
    expect_read_error(t, "a.gr", "p sp 2 2\na 1 2 3\n", "line 1", "declares 2 arcs but the file has 1");
    expect_read_error(t, "a.gr", "p sp 2 1\na 1 2 3\na 2 1 3\n", "line 3", "more arcs");
    expect_read_error(t, "a.gr", "p sp 2 1\nx 1 2 3\n", "line 2", "unexpected line");
    expect_read_error(t, "a.gr", "p sp 2 1\na +-1 2 3\n", "line 2", "not an integer");
  }

  TEST_CASE("gr read in parallel: the serial reader's graph, and its errors with their lines") {
    // A body of a few MB (chunks on every core): comments, blank lines, tabs,
    // CRLF, leading blanks and a last line without its newline; the graph equals
    // the one-thread read edge for edge, in file order. Faults deep in the file
    // are named with their line as the one-thread reader names them.
    TempDir t;
    const int64_t n = 5000, m = 200000;
    std::mt19937_64 rng(11);
    std::vector<std::string> lines;
    lines.push_back("c road-like\n");
    lines.push_back("p sp " + std::to_string(n) + " " + std::to_string(m) + "\n");
    for (int64_t k = 0; k < m; ++k) {
      if (k % 997 == 0) lines.push_back("c a comment line\n");
      if (k % 1009 == 0) lines.push_back("\n");
      const std::string u = std::to_string(1 + rng() % n), v = std::to_string(1 + rng() % n),
                        w = std::to_string(rng() % 1000);
      switch (k % 5) {
        case 0: lines.push_back("a " + u + " " + v + " " + w + "\n"); break;
        case 1: lines.push_back("a\t" + u + "\t" + v + "\t" + w + "\r\n"); break;
        case 2: lines.push_back("  a " + u + "  " + v + " +" + w + "\n"); break;
        case 3: lines.push_back("a " + u + " " + v + " " + w + " \n"); break;
        default: lines.push_back("a " + u + " " + v + " " + w + "\n"); break;
      }
    }
    lines.back().pop_back();  // no newline at the end
    std::string text;
    for (const auto& l : lines) text += l;
    REQUIRE(text.size() > (size_t{3} << 20));
    const auto serial = [](const std::string& path) {
      const int threads = omp_get_max_threads();
      omp_set_num_threads(1);
      std::string msg;
      Graph g;
      try {
        g = read_graph(path);
      } catch (const UsageError& e) {
        msg = e.what();
      }
      omp_set_num_threads(threads);
      return std::pair{g, msg};
    };
    const int threads = omp_get_max_threads();
    omp_set_num_threads(std::max(threads, 4));  // chunks on several threads even on 1 core
    const std::string p = t.write("big.gr", text);
    const Graph par = read_graph(p);
    CHECK(par.n == n);
    CHECK(static_cast<int64_t>(par.edges.size()) == m);
    const auto [one, none] = serial(p);
    CHECK(none.empty());
    CHECK(same_edges(par, one));
    CHECK(par.edges.back().u == one.edges.back().u);
    // Faults, each at a line deep in the body: the message the serial reader gives.
    const auto line_of = [&](size_t i) { return "line " + std::to_string(i + 1) + ":"; };
    struct Fault {
      size_t line;
      std::string text, what;
    };
    size_t deep = lines.size() * 3 / 4;
    while (lines[deep][0] == 'c' || lines[deep] == "\n") ++deep;  // an arc line
    const size_t last = lines.size() - 1;
    for (const Fault& f : {Fault{deep, "a 1 0 5\n", "outside [1, " + std::to_string(n) + "]"},
                           Fault{deep, "a 1 2 x\n", "not an integer"},
                           Fault{deep, "p sp 3 3\n", "second problem line (first on line 2)"},
                           Fault{deep, "b 1 2 3\n", "unexpected line"},
                           Fault{last, "a 1 2 3 4", "5 fields"},
                           Fault{7, "a 1 2 99999999999999999999\n", "not representable"}}) {
      CAPTURE(f.text);
      std::vector<std::string> bad = lines;
      bad[f.line] = f.text;
      std::string b;
      for (const auto& l : bad) b += l;
      const std::string q = t.write("bad.gr", b);
      const std::string msg = usage_error([&] { read_graph(q); });
      CHECK(has(msg, q + ": " + line_of(f.line)));
      CHECK(has(msg, f.what));
      CHECK(msg == serial(q).second);
    }
    // An arc more than declared, and one fewer: the line of the first extra arc,
    // the problem line.
    std::vector<std::string> more = lines;
    more.insert(more.begin() + static_cast<long>(deep), "a 1 2 3\n");
    std::string b;
    for (const auto& l : more) b += l;
    std::string msg = usage_error([&] { read_graph(t.write("more.gr", b)); });
    CHECK(has(msg, "more arcs than the " + std::to_string(m) + " declared on line 2"));
    CHECK(msg == serial(t.path("more.gr")).second);
    std::vector<std::string> fewer = lines;
    fewer.erase(fewer.begin() + static_cast<long>(deep));
    b.clear();
    for (const auto& l : fewer) b += l;
    msg = usage_error([&] { read_graph(t.write("fewer.gr", b)); });
    CHECK(has(msg, "line 2: problem line declares " + std::to_string(m) + " arcs"));
    CHECK(msg == serial(t.path("fewer.gr")).second);
    omp_set_num_threads(threads);
    // Host memory planned from the problem line: the edge list and its CSR of m
    // arcs (at most one an 8 bytes of the file) refused with the numbers.
    set_host_memory_limit(size_t{4} << 20);
    const std::string refused = [&] {
      try {
        read_graph(p);
      } catch (const RuntimeError& e) {
        return std::string(e.what());
      }
      return std::string("<no RuntimeError>");
    }();
    set_host_memory_limit(0);
    CHECK(has(refused, p + ": line 2: 5000 vertices and 200000 arcs (the edge list and its CSR) needs"));
    CHECK(has(refused, "limited by --host-memory"));
    CHECK(same_edges(read_graph(p), one));
  }

  TEST_CASE("mtx malformed or unsupported inputs name the file and the line") {
    TempDir t;
    const std::string h = "%%MatrixMarket matrix coordinate integer general\n";
    expect_read_error(t, "a.mtx", "3 3 1\n1 2 3\n", "line 1", "not a Matrix Market file");
    expect_read_error(t, "a.mtx", "%%MatrixMarket matrix coordinate integer\n", "line 1",
                      "<symmetry>");
    expect_read_error(t, "a.mtx", "%%MatrixMarket matrix array real general\n3 3\n", "line 1",
                      "array");
    expect_read_error(t, "a.mtx", "%%MatrixMarket vector coordinate real general\n", "line 1",
                      "object");
    expect_read_error(t, "a.mtx", "%%MatrixMarket matrix coordinate complex general\n", "line 1",
                      "complex");
    expect_read_error(t, "a.mtx", "%%MatrixMarket matrix coordinate real hermitian\n", "line 1",
                      "hermitian");
    expect_read_error(t, "a.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n",
                      "line 1", "skew-symmetric");
    expect_read_error(t, "a.mtx", h + "% c\n3 4 1\n1 2 3\n", "line 3", "must be square");
    expect_read_error(t, "a.mtx", h + "3 3\n", "line 2", "ROWS COLS NNZ");
    expect_read_error(t, "a.mtx", h + "0 0 0\n", "line 2", "row count");
    expect_read_error(t, "a.mtx", h + "300000 300000 1\n", "line 2", "row count");
    expect_read_error(t, "a.mtx", h + "2 2 5\n", "line 2", "entry count");
    expect_read_error(t, "a.mtx", h + "% only comments\n", "line 2", "no size line");
    expect_read_error(t, "a.mtx", h + "3 3 2\n1 2 3\n", "line 2", "declares 2 entries but the file has 1");
    expect_read_error(t, "a.mtx", h + "3 3 1\n1 2 3\n2 3 4\n", "line 4", "more entries");
    expect_read_error(t, "a.mtx", h + "3 3 1\n0 2 3\n", "line 3", "outside [1, 3]");
    expect_read_error(t, "a.mtx", h + "3 3 1\n1 4 3\n", "line 3", "outside [1, 3]");
    expect_read_error(t, "a.mtx", h + "3 3 1\n1 2 3 9\n", "line 3", "4 fields");
    expect_read_error(t, "a.mtx", h + "3 3 1\n1 2 2.5\n", "line 3", "not an integer");
    expect_read_error(t, "a.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 3\n",
                      "line 3", "3 fields");
    const std::string r = "%%MatrixMarket matrix coordinate real general\n3 3 1\n";
    expect_read_error(t, "a.mtx", r + "1 2 abc\n", "line 3", "not a number");
    expect_read_error(t, "a.mtx", r + "1 2 nan\n", "line 3", "not a number");
    expect_read_error(t, "a.mtx", r + "1 2 inf\n", "line 3", "not a number");
    expect_read_error(t, "a.mtx", r + "1 2 0x10\n", "line 3", "not a number");
    expect_read_error(t, "a.mtx", r + "1 2 1e999\n", "line 3", "not representable");
  }

  TEST_CASE("edges malformed inputs name the file and the line") {
    TempDir t;
    expect_read_error(t, "a.txt", "# nothing\n\n", "line 2", "no edges");
    expect_read_error(t, "a.txt", "0 1 5 7\n", "line 1", "4 fields");
    expect_read_error(t, "a.txt", "0 1\n5\n", "line 2", "1 fields");
    expect_read_error(t, "a.txt", "0 1\n-1 2\n", "line 2", "outside [0, 199999]");
    expect_read_error(t, "a.el", "0 200000\n", "line 1", "outside [0, 199999]");
    expect_read_error(t, "a.edges", "0 x\n", "line 1", "not an integer");
    expect_read_error(t, "a.txt", "0 1.0 2\n", "line 1", "not an integer");
    expect_read_error(t, "a.txt", "0 1 inf\n", "line 1", "not a number");
    expect_read_error(t, "a.txt", "0 1 2w\n", "line 1", "not a number");
    expect_read_error(t, "a.txt", "0 1 1e400\n", "line 1", "not representable");
    expect_read_error(t, "a.txt", "0 1 9007199254740993\n", "line 1", "not representable");
  }

  TEST_CASE("bin malformed inputs name the file and the byte offset") {
    TempDir t;
    expect_read_error(t, "a.bin", std::string("\x03\x00\x00", 3), "byte offset 3", "truncated header");
    expect_read_error(t, "a.bin", le32({0, 0}), "byte offset 0", "must be positive");
    expect_read_error(t, "a.bin", le32({-5, 0}), "byte offset 0", "must be positive");
    expect_read_error(t, "a.bin", le32({200001, 0}), "byte offset 0", "too large");
    expect_read_error(t, "a.bin", le32({3, -1}), "byte offset 4", "must not be negative");
    expect_read_error(t, "a.bin", le32({3, 2, 0, 1, 5}), "byte offset 20", "truncated");
    expect_read_error(t, "a.bin", le32({3, 2, 0, 1, 5, 1, 2, 3}) + "\x07", "byte offset 32",
                      "1 extra bytes");
    expect_read_error(t, "a.bin", le32({3, 2, 0, 1, 5, -1, 2, 3}), "byte offset 20",
                      "source vertex -1 outside [0, 3)");
    expect_read_error(t, "a.bin", le32({3, 2, 0, 1, 5, 1, 3, 3}), "byte offset 24",
                      "target vertex 3 outside [0, 3)");
  }

  TEST_CASE("in-memory readers: a stream or a buffer reads as the file does") {
    for (const char* name : {"small.bin", "small.gr", "small.mtx", "real.mtx", "sym_pattern.mtx",
                             "small.edges"}) {
      INFO(name);
      const std::string path = data_file(name);
      const Graph from_file = read_graph(path);
      std::ifstream in(path, std::ios::binary);
      CHECK(same_edges(read_graph(in, path), from_file));
      CHECK(same_edges(parse_graph(slurp(path), path, InputFormat::automatic), from_file));
    }
    // The name picks the format and stands for the file in messages.
    std::istringstream gr("p sp 2 1\na 1 3 5\n");
    const std::string msg = usage_error([&] { read_graph(gr, "<stdin>", InputFormat::gr); });
    CHECK(msg == "<stdin>: line 2: vertex '3' outside [1, 2]");
    CHECK(has(usage_error([] { parse_graph("0 1\n", "noext", InputFormat::automatic); }),
              "--format"));
    CHECK(parse_graph("0 1\n", "noext", InputFormat::edges).n == 2);
  }

  // Declared sizes are checked against the limits and the contents; a header
  // alone never makes a reader allocate for what it declares (the fuzzers run
  // with a 256 MiB allocation limit; the matrix itself is only built after the
  // host memory check of the solve command).
  TEST_CASE("huge declared sizes: clean errors with the line, no allocation for them") {
    TempDir t;
    expect_read_error(t, "a.gr", "p sp 2000000000 1\n", "line 1",
                      "vertex count '2000000000' must be in [1, 200000]");
    expect_read_error(t, "a.gr", "p sp 99999999999999999999 1\n", "line 1", "vertex count");
    expect_read_error(t, "a.gr", "p sp 200000 4000000000000000000\na 1 2 3\n", "line 1",
                      "declares 4000000000000000000 arcs but the file has 1");
    const std::string h = "%%MatrixMarket matrix coordinate integer symmetric\n";
    expect_read_error(t, "a.mtx", h + "200000 200000 39999999999\n1 2 3\n", "line 2",
                      "declares 39999999999 entries but the file has 1");
    expect_read_error(t, "a.mtx", h + "200000 200000 40000000001\n", "line 2", "entry count");
    expect_read_error(t, "a.bin", le32({200000, 2147483647}), "byte offset 8",
                      "2147483647 edges need 25769803772 bytes");
    // The largest n is accepted as a graph (the solve command then refuses its
    // n x n matrix when it cannot fit, before building it).
    const Graph g = parse_graph("p sp 200000 1\na 200000 1 -4\n", "big.gr", InputFormat::gr);
    CHECK(g.n == kMaxVertices);
    REQUIRE(g.edges.size() == 1);
    CHECK(g.edges[0].u == 199999);
  }

  TEST_CASE("to_matrix: parallel edges, zero weights, self-loops, negative self-loop") {
    Graph g;
    g.n = 3;
    g.edges = {{0, 1, 9}, {0, 1, 4}, {0, 1, 6}, {1, 2, 0}, {2, 2, 5}, {2, 0, -3}};
    const DistMatrix<int32_t> m = to_matrix<int32_t>(g);
    CHECK(m(0, 1) == 4);
    CHECK(m(1, 2) == 0);
    CHECK(m(2, 2) == 0);
    CHECK(m(2, 0) == -3);
    CHECK(m(1, 0) == kInf);
    const DistMatrix<float> f = to_matrix<float>(g);
    CHECK(f(0, 1) == 4.0f);
    CHECK(std::isinf(f(1, 0)));
    CHECK(f(0, 0) == 0.0f);

    g.edges.push_back({1, 1, -1});
    try {
      to_matrix<int32_t>(g);
      FAIL("negative self-loop not reported");
    } catch (const NegativeCycleError& e) {
      CHECK(e.vertex == 1);
      CHECK(e.cycle == std::vector<long long>{1});  // the self-loop is the cycle
      CHECK(e.length == -1);
      CHECK(std::string(e.what()).find("1 -> 1 (length -1)") != std::string::npos);
    }
    CHECK_THROWS_AS(to_matrix<float>(g), NegativeCycleError);
  }

  // Found by tests/fuzz (regressions/edges/huge_negative_self_loop.txt,
  // regressions/mtx/...): the message of a negative self-loop of -1e308 cast the
  // length to long long (undefined behaviour, UBSan report).
  TEST_CASE("a huge negative self-loop is reported with its length, no undefined cast") {
    for (const char* w : {"-1e308", "-1.2e67", "-9.5e18", "-2.5"}) {
      INFO(w);
      const Graph g = parse_graph(std::string("\xEF\xBB\xBF\n2 2 ") + w + "\n", "x.txt",
                                  InputFormat::edges);
      try {
        to_matrix<float>(g);
        FAIL("no NegativeCycleError");
      } catch (const NegativeCycleError& e) {
        CHECK(e.cycle == std::vector<long long>{2});
        CHECK(e.length == std::stod(w));
        char want[64];
        std::snprintf(want, sizeof want, "2 -> 2 (length %.9g)", std::stod(w));
        CHECK(std::string(e.what()).find(want) != std::string::npos);
      }
    }
    const Graph m = parse_graph(
        "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 05\n2 2 -120000000.5e61\n",
        "x.mtx", InputFormat::mtx);
    CHECK_THROWS_AS(to_matrix<float>(m), NegativeCycleError);
    CHECK_THROWS_AS(to_matrix<int32_t>(m), NegativeCycleError);
  }

  TEST_CASE("to_matrix<int32_t> refuses weights beyond the exact range") {
    Graph g;
    g.n = 2;
    g.edges = {{0, 1, double(1 << 29)}};
    CHECK(has(usage_error([&] { to_matrix<int32_t>(g); }), "--type int64"));
    CHECK(has(usage_error([&] { check_int32_range(g); }), "--type int64"));
    CHECK(to_matrix<float>(g)(0, 1) == float(1 << 29));
    CHECK(to_matrix<int64_t>(g)(0, 1) == int64_t{1} << 29);
  }

  TEST_CASE("check_int32_range: sum of the n-1 largest |w|") {
    Graph g;
    g.n = 3;  // paths of at most 2 edges
    g.edges = {{0, 1, double(1 << 28) - 1}, {1, 2, double(1 << 28)}};
    CHECK_NOTHROW(check_int32_range(g));
    g.edges[0].w = double(1 << 28);  // 2^28 + 2^28 = 2^29 reaches the limit
    const std::string msg = usage_error([&] { check_int32_range(g); });
    CHECK(has(msg, "int32 range"));
    CHECK(has(msg, "--type int64"));
    g.edges[0].w = -double(1 << 28);  // magnitudes count: negative paths can underflow too
    CHECK(has(usage_error([&] { check_int32_range(g); }), "int32 range"));

    // Cheap bounds fail (max * 3 and the total both reach 2^29), the exact top-3
    // sum 2^28 + 2 * 2^26 does not.
    Graph h;
    h.n = 4;
    h.edges = {{0, 1, double(1 << 28)}};
    for (int i = 0; i < 5; ++i) h.edges.push_back({1, 2, double(1 << 26)});
    CHECK_NOTHROW(check_int32_range(h));
    h.edges.push_back({2, 3, double(1 << 28)});
    CHECK_THROWS_AS(check_int32_range(h), UsageError);

    // Self-loops never lie on a shortest path and do not count.
    Graph s;
    s.n = 2;
    s.edges = {{0, 0, double(1 << 28) * 1.5}, {0, 1, 5}};
    CHECK_NOTHROW(check_int32_range(s));
  }

  TEST_CASE("write_graph_bin round trip and refusal") {
    TempDir t;
    Graph g;
    g.n = 5;
    g.edges = {{0, 1, 3}, {4, 2, -7}, {2, 2, 0}, {3, 0, 2147483647}, {1, 4, -2147483647}};
    const std::string p = t.path("g.bin");
    write_graph_bin(g, p);
    CHECK(slurp(p).substr(0, 8) == le32({5, 5}));
    CHECK(same_edges(read_graph(p), g));

    // A weight the format cannot hold is refused before anything is written.
    const std::string before = slurp(p);
    Graph bad = g;
    bad.edges.push_back({0, 1, 0.5});
    CHECK(has(usage_error([&] { write_graph_bin(bad, p); }), "int32"));
    CHECK(slurp(p) == before);
    CHECK(t.entries() == 1);
  }

  TEST_CASE("matrix bin output: raw little-endian values, no header") {
    TempDir t;
    DistMatrix<int32_t> m(2);
    m(0, 0) = 0;
    m(0, 1) = -2;
    m(1, 0) = kInf;
    m(1, 1) = 258;
    write_matrix(m, t.path("d.bin"));
    CHECK(slurp(t.path("d.bin")) == le32({0, -2, kInf, 258}));

    DistMatrix<float> f(2);
    f(0, 0) = 0;
    f(0, 1) = 1.5f;
    f(1, 1) = -0.25f;
    write_matrix(f, t.path("f.dat"), OutputFormat::bin);  // explicit format wins
    const std::string bytes = slurp(t.path("f.dat"));
    REQUIRE(bytes.size() == 16);
    CHECK(bytes.substr(4, 4) == std::string("\x00\x00\xc0\x3f", 4));  // 1.5f
    CHECK(bytes.substr(8, 4) == std::string("\x00\x00\x80\x7f", 4));  // +inf
    CHECK(bytes.substr(12, 4) == std::string("\x00\x00\x80\xbe", 4));  // -0.25f
  }

  TEST_CASE("matrix npy output: exact v1.0 header, data after a 64-byte boundary") {
    TempDir t;
    DistMatrix<int32_t> m(3, 7);
    m(2, 1) = kInf;
    write_matrix(m, t.path("d.npy"));
    const std::string bytes = slurp(t.path("d.npy"));
    const std::string dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (3, 3), }";
    std::string header = std::string("\x93NUMPY\x01\x00", 8);
    const size_t hlen = 128 - 10;
    header += static_cast<char>(hlen);
    header += '\0';
    header += dict + std::string(hlen - dict.size() - 1, ' ') + "\n";
    REQUIRE(bytes.size() == 128 + 9 * 4);
    CHECK(bytes.substr(0, 128) == header);
    CHECK(bytes.substr(128) == le32({7, 7, 7, 7, 7, 7, 7, kInf, 7}));

    DistMatrix<float> f(12, 1.0f);
    write_matrix(f, t.path("f.npy"));
    const std::string fb = slurp(t.path("f.npy"));
    const std::string fdict = "{'descr': '<f4', 'fortran_order': False, 'shape': (12, 12), }";
    REQUIRE(fb.size() == 128 + 144 * 4);
    CHECK(fb.substr(10, fdict.size()) == fdict);
    CHECK(fb[127] == '\n');
    CHECK(fb.substr(128, 4) == std::string("\x00\x00\x80\x3f", 4));
  }

  TEST_CASE("matrix csv output: INF spellings and float round trip") {
    TempDir t;
    DistMatrix<int32_t> m(2);
    m(0, 0) = 0;
    m(0, 1) = -12;
    m(1, 1) = 0;
    write_matrix(m, t.path("d.csv"));
    CHECK(slurp(t.path("d.csv")) == "0,-12\n1073741823,0\n");

    const std::vector<float> values = {0.1f, 1e-7f, 3.4028235e38f, -2.5f, 16777216.0f,
                                       1.0f / 3.0f, ValueTraits<float>::inf, 0.0f, 123456.79f};
    DistMatrix<float> f(3);
    for (size_t i = 0; i < values.size(); ++i) f.values()[i] = values[i];
    write_matrix(f, t.path("f.csv"));
    std::istringstream text(slurp(t.path("f.csv")));
    std::string line;
    size_t k = 0, lines = 0;
    while (std::getline(text, line)) {
      ++lines;
      std::istringstream cells(line);
      std::string cell;
      while (std::getline(cells, cell, ',')) {
        REQUIRE(k < values.size());
        INFO("cell " << cell);
        if (std::isinf(values[k]))
          CHECK(cell == "inf");
        else
          CHECK(std::strtof(cell.c_str(), nullptr) == values[k]);
        ++k;
      }
    }
    CHECK(lines == 3);
    CHECK(k == 9);
  }

  TEST_CASE("write_int_matrix: path matrices in every format") {
    TempDir t;
    const std::vector<int32_t> via = {-1, 2, -1, 0};
    write_int_matrix(via, 2, t.path("via.csv"));
    CHECK(slurp(t.path("via.csv")) == "-1,2\n-1,0\n");
    write_int_matrix(via, 2, t.path("via.bin"));
    CHECK(slurp(t.path("via.bin")) == le32({-1, 2, -1, 0}));
    write_int_matrix(via, 2, t.path("via.out"), OutputFormat::npy);
    const std::string npy = slurp(t.path("via.out"));
    CHECK(npy.substr(0, 6) == "\x93NUMPY");
    CHECK(npy.substr(128) == le32({-1, 2, -1, 0}));
    CHECK_THROWS_AS(write_int_matrix(via, 3, t.path("x.bin")), RuntimeError);
    CHECK(has(usage_error([&] { write_int_matrix(via, 2, t.path("x.out")); }), "--output-format"));
  }

  TEST_CASE("atomic writes: nonexistent folder, failure during fill") {
    TempDir t;
    DistMatrix<int32_t> m(2, 1);
    const std::string missing = t.path("no_such_folder/d.bin");
    CHECK_THROWS_AS(write_matrix(m, missing), RuntimeError);
    CHECK(!fs::exists(missing));
    CHECK(!fs::exists(t.path("no_such_folder")));
    CHECK(t.entries() == 0);

    const std::string p = t.write("old.bin", "previous contents");
    CHECK_THROWS_AS(write_file_atomically(p,
                                          [](std::ostream& out) {
                                            out << "partial data";
                                            throw RuntimeError("disk on fire");
                                          }),
                    RuntimeError);
    CHECK(slurp(p) == "previous contents");
    CHECK(t.entries() == 1);  // no temporary left behind

    write_matrix(m, p);  // a successful write replaces it
    CHECK(slurp(p) == le32({1, 1, 1, 1}));
    CHECK(t.entries() == 1);
  }
}
