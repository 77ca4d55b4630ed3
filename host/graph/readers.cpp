// Strict graph readers for bin, DIMACS gr, Matrix Market mtx and edges text,
// plus format names and detection. Every complaint names the file and the line
// (text) or byte offset (bin), so a user can open the file at the culprit.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <omp.h>
#include <istream>
#include <memory>
#include <sstream>
#include <string_view>

#include "graph/io.hpp"
#include "util/errors.hpp"
#include "util/sysinfo.hpp"
#include "util/strings.hpp"

namespace ocl_sp {

namespace {

// Integers beyond 2^53 would silently lose digits in Edge::w (a double).
constexpr int64_t kMaxExactInteger = int64_t{1} << 53;

std::string read_whole_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw UsageError("cannot open '" + path + "': " + std::strerror(EISDIR));
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw UsageError("cannot open '" + path + "': " + std::strerror(errno));
  std::string data;
  // A regular file's size up front: one allocation and one read (a 1.2 GB road
  // network without the appends' copies); pipes and the like in blocks.
  const auto size = std::filesystem::is_regular_file(path, ec) ? std::filesystem::file_size(path, ec)
                                                               : std::uintmax_t{0};
  if (!ec && size > 0) {
    data.resize(static_cast<size_t>(size));
    data.resize(std::fread(data.data(), 1, data.size(), f.get()));
  }
  char buf[1 << 16];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f.get())) > 0) data.append(buf, got);
  if (std::ferror(f.get()))
    throw UsageError("cannot open '" + path + "': read failed: " + std::strerror(errno));
  return data;
}

// Tokens quoted in messages: short and printable, whatever the file holds.
std::string quote(std::string_view tok) {
  std::string s = "'";
  for (size_t i = 0; i < tok.size() && i < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(tok[i]);
    s += (c >= 32 && c < 127) ? static_cast<char>(c) : '?';
  }
  if (tok.size() > 40) s += "...";
  return s + "'";
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

enum class Parse { ok, not_number, out_of_range };

// Optional sign, then decimal digits only: "1.0", "1e3" or "12abc" are not integers.
Parse parse_int(std::string_view tok, int64_t& out) {
  if (!tok.empty() && tok[0] == '+') {
    tok.remove_prefix(1);
    if (tok.empty() || tok[0] < '0' || tok[0] > '9') return Parse::not_number;
  }
  const char* end = tok.data() + tok.size();
  const auto r = std::from_chars(tok.data(), end, out);
  if (r.ec == std::errc::result_out_of_range) return Parse::out_of_range;
  if (r.ec != std::errc() || r.ptr != end) return Parse::not_number;
  return Parse::ok;
}

// Decimal reals only (no hex, inf or nan); must be finite as a double.
Parse parse_real(std::string_view tok, double& out) {
  if (tok.empty()) return Parse::not_number;
  for (char c : tok)
    if (!((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E'))
      return Parse::not_number;
  if (tok[0] == '+') {
    tok.remove_prefix(1);
    if (tok.empty() || tok[0] == '+' || tok[0] == '-') return Parse::not_number;
  }
  const char* end = tok.data() + tok.size();
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  const auto r = std::from_chars(tok.data(), end, out);
  if (r.ec == std::errc::result_out_of_range) return Parse::out_of_range;
  if (r.ec != std::errc() || r.ptr != end) return Parse::not_number;
#else
  const std::string copy(tok);
  char* stop = nullptr;
  errno = 0;
  out = std::strtod(copy.c_str(), &stop);
  if (stop != copy.c_str() + copy.size()) return Parse::not_number;
  if (errno == ERANGE) return Parse::out_of_range;
#endif
  return std::isfinite(out) ? Parse::ok : Parse::out_of_range;
}

// Walks a text buffer line by line, splitting each line into whitespace tokens.
class TextReader {
 public:
  TextReader(const std::string& path, const std::string& data)
      : path_(path), p_(data.data()), end_(data.data() + data.size()) {
    // Editors on Windows may prepend a UTF-8 byte order mark; it is not content.
    if (data.compare(0, 3, "\xEF\xBB\xBF") == 0) p_ += 3;
  }
  // The lines of [begin, end), the first of them numbered first_line.
  TextReader(const std::string& path, const char* begin, const char* end, int64_t first_line)
      : path_(path), p_(begin), end_(end), line_no_(first_line - 1) {}
  const char* pos() const { return p_; }

  // Next line (comment_char and everything after it removed when non-zero);
  // false at end of file.
  bool next_line(char comment_char = 0) {
    if (p_ >= end_) return false;
    const char* e = static_cast<const char*>(std::memchr(p_, '\n', static_cast<size_t>(end_ - p_)));
    if (!e) e = end_;
    line_ = std::string_view(p_, static_cast<size_t>(e - p_));
    p_ = e + 1;
    ++line_no_;
    if (comment_char) {
      const size_t c = line_.find(comment_char);
      if (c != std::string_view::npos) line_ = line_.substr(0, c);
    }
    tokens_.clear();
    size_t i = 0;
    while (i < line_.size()) {
      while (i < line_.size() && is_space(line_[i])) ++i;
      const size_t b = i;
      while (i < line_.size() && !is_space(line_[i])) ++i;
      if (i > b) tokens_.push_back(line_.substr(b, i - b));
    }
    return true;
  }
  std::string_view line() const { return line_; }
  const std::vector<std::string_view>& tokens() const { return tokens_; }
  int64_t line_no() const { return line_no_; }

  [[noreturn]] void fail(const std::string& msg) const { fail_at(line_no_, msg); }
  [[noreturn]] void fail_at(int64_t line, const std::string& msg) const {
    throw UsageError(path_ + ": line " + std::to_string(std::max<int64_t>(line, 1)) + ": " + msg);
  }

  // Vertex id in [base, hi]; `what` names the field in messages.
  int64_t vertex(std::string_view tok, int64_t base, int64_t hi, const char* what) const {
    int64_t v = 0;
    const Parse r = parse_int(tok, v);
    if (r == Parse::not_number) fail(std::string(what) + " " + quote(tok) + " is not an integer");
    if (r == Parse::out_of_range || v < base || v > hi)
      fail(std::string(what) + " " + quote(tok) + " outside [" + std::to_string(base) + ", " +
           std::to_string(hi) + "]");
    return v;
  }

  // Count in [lo, hi] from a header line.
  int64_t count(std::string_view tok, int64_t lo, int64_t hi, const char* what) const {
    int64_t v = 0;
    const Parse r = parse_int(tok, v);
    if (r == Parse::not_number) fail(std::string(what) + " " + quote(tok) + " is not an integer");
    if (r == Parse::out_of_range || v < lo || v > hi)
      fail(std::string(what) + " " + quote(tok) + " must be in [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "]");
    return v;
  }

  // Weight token: exact integers always; decimal reals when allow_real.
  double weight(std::string_view tok, bool allow_real) const {
    int64_t i = 0;
    const Parse r = parse_int(tok, i);
    if (r == Parse::ok) {
      if (i > kMaxExactInteger || i < -kMaxExactInteger)
        fail("weight " + quote(tok) + " is not representable exactly (|w| <= 2^53)");
      return static_cast<double>(i);
    }
    if (r == Parse::out_of_range) fail("weight " + quote(tok) + " is not representable");
    if (!allow_real) fail("weight " + quote(tok) + " is not an integer");
    double w = 0;
    const Parse rr = parse_real(tok, w);
    if (rr == Parse::not_number) fail("weight " + quote(tok) + " is not a number");
    if (rr == Parse::out_of_range) fail("weight " + quote(tok) + " is not representable");
    return w;
  }

 private:
  const std::string& path_;
  const char* p_;
  const char* end_;
  std::string_view line_;
  std::vector<std::string_view> tokens_;
  int64_t line_no_ = 0;
};

// Reserve from a header count, but never more than the file could hold, so a
// lying header cannot trigger a huge allocation.
void reserve_edges(Graph& g, int64_t declared, size_t file_bytes, size_t min_bytes_per_edge) {
  const int64_t cap = static_cast<int64_t>(file_bytes / min_bytes_per_edge) + 1;
  g.edges.reserve(static_cast<size_t>(std::min(declared, cap)));
}

// One arc line of a .gr body ("a U V W", ids 1-based up to n) into *e; false
// for a comment or blank line; UsageError for anything else (a second problem
// line names `problem_line`).
bool gr_arc(const TextReader& in, int64_t n, int64_t problem_line, Edge* e) {
  const auto& t = in.tokens();
  if (t.empty() || t[0][0] == 'c') return false;
  if (t[0] == "p") in.fail("second problem line (first on line " + std::to_string(problem_line) + ")");
  if (t[0] != "a") in.fail("unexpected line starting with " + quote(t[0]) + " (expected c, p or a)");
  if (t.size() != 4) in.fail("expected 'a U V W', found " + std::to_string(t.size()) + " fields");
  const int64_t u = in.vertex(t[1], 1, n, "vertex");
  const int64_t v = in.vertex(t[2], 1, n, "vertex");
  *e = Edge{u - 1, v - 1, in.weight(t[3], false)};
  return true;
}

// Whether the line at p (up to end) starts with the token "a": an arc line.
bool arc_line(const char* p, const char* end) {
  while (p < end && is_space(*p)) ++p;
  return p < end && *p == 'a' && (p + 1 == end || is_space(p[1]) || p[1] == '\n');
}

// Below this many bytes of arcs a .gr body is read on one thread.
constexpr size_t kParallelGrBytes = size_t{1} << 20;

// The arcs of a .gr body [body, end) (after the problem line, which is line
// `problem_line` and declares m arcs) in parallel: the body in chunks cut at line
// starts, each chunk's arc lines counted, then parsed into their places in file
// order. False (g untouched beyond a reserve) when a chunk finds anything wrong
// or the count differs from m: the serial reader then names the first culprit
// with its line, exactly as it always has.
bool read_gr_body_parallel(const std::string& path, const char* body, const char* end, int64_t n,
                           int64_t m, int64_t problem_line, Graph& g) {
  const int threads = std::max(1, omp_get_max_threads());
  const size_t bytes = static_cast<size_t>(end - body);
  if (threads < 2 || bytes < kParallelGrBytes) return false;
  const size_t chunks = std::min<size_t>(bytes / (kParallelGrBytes / 4) + 1, size_t(threads) * 8);
  std::vector<const char*> cut(chunks + 1, end);
  cut[0] = body;
  for (size_t c = 1; c < chunks; ++c) {
    const char* p = body + bytes / chunks * c;
    p = std::max(p, cut[c - 1]);
    const void* nl = p < end ? std::memchr(p, '\n', static_cast<size_t>(end - p)) : nullptr;
    cut[c] = nl ? static_cast<const char*>(nl) + 1 : end;
  }
  std::vector<int64_t> arcs(chunks + 1, 0), lines(chunks + 1, 0);
#pragma omp parallel for schedule(dynamic, 1)
  for (size_t c = 0; c < chunks; ++c) {
    int64_t a = 0, l = 0;
    for (const char* p = cut[c]; p < cut[c + 1];) {
      const void* nl = std::memchr(p, '\n', static_cast<size_t>(cut[c + 1] - p));
      const char* e = nl ? static_cast<const char*>(nl) : cut[c + 1];
      a += arc_line(p, e);
      ++l;
      p = e + 1;
    }
    arcs[c + 1] = a;
    lines[c + 1] = l;
  }
  for (size_t c = 0; c < chunks; ++c) {
    arcs[c + 1] += arcs[c];
    lines[c + 1] += lines[c];
  }
  if (arcs[chunks] != m) return false;
  g.edges.resize(static_cast<size_t>(m));
  bool bad = false;
#pragma omp parallel for schedule(dynamic, 1)
  for (size_t c = 0; c < chunks; ++c) {
    try {
      TextReader in(path, cut[c], cut[c + 1], problem_line + 1 + lines[c]);
      Edge* out = g.edges.data() + arcs[c];
      Edge* stop = g.edges.data() + arcs[c + 1];
      while (in.next_line())
        if (gr_arc(in, n, problem_line, out)) {
          if (out == stop) throw UsageError("arc count");  // cannot happen: counted above
          ++out;
        }
      if (out != stop) throw UsageError("arc count");
    } catch (...) {  // the serial reader names it
#pragma omp atomic write
      bad = true;
    }
  }
  if (bad) g.edges.clear();
  return !bad;
}

Graph read_gr(const std::string& path, const std::string& data, int64_t max_n) {
  TextReader in(path, data);
  Graph g;
  int64_t m = -1, problem_line = 0, arcs = 0;
  while (in.next_line()) {
    const auto& t = in.tokens();
    if (t.empty()) continue;
    const std::string_view first = t[0];
    if (first[0] == 'c') continue;  // "c ..." comment (also "c" glued to text)
    if (first == "p") {
      if (m >= 0) in.fail("second problem line (first on line " + std::to_string(problem_line) + ")");
      if (t.size() != 4 || t[1] != "sp")
        in.fail("expected problem line 'p sp N M', found " + quote(in.line()));
      g.n = in.count(t[2], 1, max_n, "vertex count");
      m = in.count(t[3], 0, INT64_MAX / 2, "arc count");
      problem_line = in.line_no();
      // The edge list and its CSR, planned from n and m (at most one arc an 8
      // bytes of the file, whatever the header claims) before any is made.
      const auto arcs_bound = static_cast<uint64_t>(std::min<int64_t>(m, static_cast<int64_t>(data.size() / 8) + 1));
      check_host_memory(arcs_bound * (sizeof(Edge) + 4 + 8) + static_cast<uint64_t>(g.n + 1) * 8,
                        path + ": line " + std::to_string(problem_line) + ": " + std::to_string(g.n) +
                            " vertices and " + std::to_string(m) + " arcs (the edge list and its CSR)");
      reserve_edges(g, m, data.size(), 8);
      // Arcs of a large file: on every core, in file order (any fault: this
      // loop goes on and names it).
      if (read_gr_body_parallel(path, in.pos(), data.data() + data.size(), g.n, m, problem_line, g))
        return g;
    } else if (first == "a") {
      if (m < 0) in.fail("arc before the problem line 'p sp N M'");
      if (t.size() != 4)
        in.fail("expected 'a U V W', found " + std::to_string(t.size()) + " fields");
      if (arcs == m)
        in.fail("more arcs than the " + std::to_string(m) + " declared on line " +
                std::to_string(problem_line));
      const int64_t u = in.vertex(t[1], 1, g.n, "vertex");
      const int64_t v = in.vertex(t[2], 1, g.n, "vertex");
      g.edges.push_back(Edge{u - 1, v - 1, in.weight(t[3], false)});
      ++arcs;
    } else {
      in.fail("unexpected line starting with " + quote(first) + " (expected c, p or a)");
    }
  }
  if (m < 0) in.fail("no problem line 'p sp N M'");
  if (arcs != m)
    in.fail_at(problem_line, "problem line declares " + std::to_string(m) +
                                 " arcs but the file has " + std::to_string(arcs));
  return g;
}

Graph read_mtx(const std::string& path, const std::string& data, int64_t max_n) {
  TextReader in(path, data);
  if (!in.next_line() || in.tokens().empty() || lower(std::string(in.tokens()[0])) != "%%matrixmarket")
    in.fail("not a Matrix Market file: the first line must start with '%%MatrixMarket'");
  std::vector<std::string> banner;
  for (auto tok : in.tokens()) banner.push_back(lower(std::string(tok)));
  if (banner.size() != 5)
    in.fail("expected '%%MatrixMarket matrix coordinate <field> <symmetry>', found " +
            quote(in.line()));
  if (banner[1] != "matrix") in.fail("unsupported Matrix Market object " + quote(banner[1]) + " (only 'matrix')");
  if (banner[2] == "array")
    in.fail("dense 'array' Matrix Market files are not supported; use 'coordinate'");
  if (banner[2] != "coordinate") in.fail("unsupported Matrix Market format " + quote(banner[2]));
  const std::string& field = banner[3];
  if (field != "integer" && field != "real" && field != "pattern")
    in.fail("unsupported Matrix Market field " + quote(field) +
            " (supported: integer, real, pattern)");
  const std::string& symmetry = banner[4];
  if (symmetry != "general" && symmetry != "symmetric")
    in.fail("unsupported Matrix Market symmetry " + quote(symmetry) +
            " (supported: general, symmetric)");
  const bool pattern = field == "pattern", symmetric = symmetry == "symmetric";

  Graph g;
  int64_t nnz = -1, size_line = 0, entries = 0;
  const size_t fields = pattern ? 2 : 3;
  while (in.next_line()) {
    const auto& t = in.tokens();
    if (t.empty() || t[0][0] == '%') continue;  // blank or comment
    if (nnz < 0) {
      if (t.size() != 3)
        in.fail("expected the size line 'ROWS COLS NNZ', found " + std::to_string(t.size()) + " fields");
      const int64_t rows = in.count(t[0], 1, max_n, "row count");
      const int64_t cols = in.count(t[1], 1, max_n, "column count");
      if (rows != cols)
        in.fail("matrix is " + std::to_string(rows) + " x " + std::to_string(cols) +
                "; an adjacency matrix must be square");
      g.n = rows;
      nnz = in.count(t[2], 0, rows * cols, "entry count");
      size_line = in.line_no();
      reserve_edges(g, symmetric ? 2 * nnz : nnz, data.size(), symmetric ? 2 : 4);
      continue;
    }
    if (t.size() != fields)
      in.fail("expected " + std::string(pattern ? "'I J'" : "'I J VALUE'") + ", found " +
              std::to_string(t.size()) + " fields");
    if (entries == nnz)
      in.fail("more entries than the " + std::to_string(nnz) + " declared on line " +
              std::to_string(size_line));
    const int64_t i = in.vertex(t[0], 1, g.n, "row index") - 1;
    const int64_t j = in.vertex(t[1], 1, g.n, "column index") - 1;
    const double w = pattern ? 1.0 : in.weight(t[2], field == "real");
    g.edges.push_back(Edge{i, j, w});
    if (symmetric && i != j) g.edges.push_back(Edge{j, i, w});
    ++entries;
  }
  if (nnz < 0) in.fail("no size line 'ROWS COLS NNZ'");
  if (entries != nnz)
    in.fail_at(size_line, "size line declares " + std::to_string(nnz) +
                              " entries but the file has " + std::to_string(entries));
  return g;
}

Graph read_edges(const std::string& path, const std::string& data, int64_t max_n) {
  TextReader in(path, data);
  Graph g;
  int64_t max_id = -1;
  while (in.next_line('#')) {
    const auto& t = in.tokens();
    if (t.empty()) continue;
    if (t.size() != 2 && t.size() != 3)
      in.fail("expected 'U V' or 'U V W', found " + std::to_string(t.size()) + " fields");
    const int64_t u = in.vertex(t[0], 0, max_n - 1, "vertex id");
    const int64_t v = in.vertex(t[1], 0, max_n - 1, "vertex id");
    const double w = t.size() == 3 ? in.weight(t[2], true) : 1.0;
    g.edges.push_back(Edge{u, v, w});
    max_id = std::max(max_id, std::max(u, v));
  }
  if (max_id < 0) in.fail("no edges in the file (need at least one 'U V [W]' line)");
  g.n = max_id + 1;
  return g;
}

int32_t load_i32(const std::string& data, size_t off) {
  const auto b = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(data[off + k])); };
  return static_cast<int32_t>(b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24);
}

class BinFail {
 public:
  explicit BinFail(const std::string& path) : path_(path) {}
  [[noreturn]] void operator()(size_t off, const std::string& msg) const {
    throw UsageError(path_ + ": byte offset " + std::to_string(off) + ": " + msg);
  }

 private:
  const std::string& path_;
};

Graph read_bin(const std::string& path, const std::string& data, int64_t max_n) {
  const BinFail fail(path);
  const size_t size = data.size();
  if (size < 8)
    fail(size, "truncated header: the file has " + std::to_string(size) +
                   " bytes, the header (int32 n, int32 m) needs 8");
  Graph g;
  g.n = load_i32(data, 0);
  if (g.n <= 0) fail(0, "vertex count n = " + std::to_string(g.n) + " must be positive");
  if (g.n > max_n)
    fail(0, "vertex count n = " + std::to_string(g.n) + " is too large (at most " +
                std::to_string(max_n) + ")");
  const int64_t m = load_i32(data, 4);
  if (m < 0) fail(4, "edge count m = " + std::to_string(m) + " must not be negative");
  const size_t expected = 8 + 12 * static_cast<size_t>(m);
  if (size < expected)
    fail(size, "truncated: " + std::to_string(m) + " edges need " + std::to_string(expected) +
                   " bytes, the file has " + std::to_string(size));
  if (size > expected)
    fail(expected, std::to_string(size - expected) + " extra bytes after the " +
                       std::to_string(m) + " edges");
  g.edges.resize(static_cast<size_t>(m));
  for (int64_t k = 0; k < m; ++k) {
    const size_t off = 8 + 12 * static_cast<size_t>(k);
    Edge& e = g.edges[static_cast<size_t>(k)];
    e.u = load_i32(data, off);
    e.v = load_i32(data, off + 4);
    e.w = load_i32(data, off + 8);
    if (e.u < 0 || e.u >= g.n)
      fail(off, "edge " + std::to_string(k) + ": source vertex " + std::to_string(e.u) +
                    " outside [0, " + std::to_string(g.n) + ")");
    if (e.v < 0 || e.v >= g.n)
      fail(off + 4, "edge " + std::to_string(k) + ": target vertex " + std::to_string(e.v) +
                        " outside [0, " + std::to_string(g.n) + ")");
  }
  return g;
}

std::string extension(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  return lower(ext);
}

}  // namespace

const char* to_string(InputFormat f) {
  switch (f) {
    case InputFormat::bin: return "bin";
    case InputFormat::gr: return "gr";
    case InputFormat::mtx: return "mtx";
    case InputFormat::edges: return "edges";
    case InputFormat::automatic: break;
  }
  return "auto";
}

const char* to_string(OutputFormat f) {
  switch (f) {
    case OutputFormat::bin: return "bin";
    case OutputFormat::npy: return "npy";
    case OutputFormat::csv: return "csv";
    case OutputFormat::automatic: break;
  }
  return "auto";
}

InputFormat parse_input_format(const std::string& s) {
  const std::string l = lower(s);
  if (l == "auto" || l == "automatic") return InputFormat::automatic;
  if (l == "bin") return InputFormat::bin;
  if (l == "gr" || l == "dimacs") return InputFormat::gr;
  if (l == "mtx") return InputFormat::mtx;
  if (l == "edges") return InputFormat::edges;
  throw UsageError("unknown input format '" + s + "' (expected auto, bin, gr, mtx or edges)");
}

OutputFormat parse_output_format(const std::string& s) {
  const std::string l = lower(s);
  if (l == "auto" || l == "automatic") return OutputFormat::automatic;
  if (l == "bin") return OutputFormat::bin;
  if (l == "npy") return OutputFormat::npy;
  if (l == "csv") return OutputFormat::csv;
  throw UsageError("unknown output format '" + s + "' (expected auto, bin, npy or csv)");
}

InputFormat detect_input_format(const std::string& path) {
  const std::string ext = extension(path);
  if (ext == ".bin") return InputFormat::bin;
  if (ext == ".gr") return InputFormat::gr;
  if (ext == ".mtx") return InputFormat::mtx;
  if (ext == ".txt" || ext == ".edges" || ext == ".el") return InputFormat::edges;
  throw UsageError("cannot tell the format of '" + path + "' from its extension" +
                   (ext.empty() ? "" : " '" + ext + "'") +
                   " (known: .bin, .gr, .mtx, .txt/.edges/.el); use --format bin|gr|mtx|edges");
}

OutputFormat detect_output_format(const std::string& path) {
  const std::string ext = extension(path);
  if (ext == ".bin") return OutputFormat::bin;
  if (ext == ".npy") return OutputFormat::npy;
  if (ext == ".csv") return OutputFormat::csv;
  throw UsageError("cannot tell the output format of '" + path + "' from its extension" +
                   (ext.empty() ? "" : " '" + ext + "'") +
                   " (known: .bin, .npy, .csv); use --output-format bin|npy|csv");
}

Graph read_graph(const std::string& path, InputFormat fmt, int64_t max_n) {
  // Open first: for a missing file "cannot open" is the more useful complaint.
  const std::string data = read_whole_file(path);
  return parse_graph(data, path, fmt, max_n);
}

Graph read_graph(std::istream& in, const std::string& name, InputFormat fmt, int64_t max_n) {
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw UsageError("cannot read '" + name + "': read failed");
  return parse_graph(s.str(), name, fmt, max_n);
}

Graph parse_graph(const std::string& data, const std::string& path, InputFormat fmt,
                  int64_t max_n) {
  if (fmt == InputFormat::automatic) fmt = detect_input_format(path);
  switch (fmt) {
    case InputFormat::bin: return read_bin(path, data, max_n);
    case InputFormat::gr: return read_gr(path, data, max_n);
    case InputFormat::mtx: return read_mtx(path, data, max_n);
    case InputFormat::edges: return read_edges(path, data, max_n);
    case InputFormat::automatic: break;
  }
  throw UsageError("no input format for '" + path + "'");
}

}  // namespace ocl_sp
