// StatsSink and the --stats file (stats_sink.hpp).
#include "sparse/stats_sink.hpp"

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <ostream>

#include "graph/io.hpp"
#include "report/json.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/host_threads.hpp"
#include "util/strings.hpp"
#include "util/timer.hpp"

namespace ocl_sp {

namespace {

template <typename T>
bool finite(T x) {
  return x != ValueTraits<T>::inf;
}

std::string extension_of(const std::string& path) {
  const auto dot = path.find_last_of('.');
  const auto slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return lower(path.substr(dot + 1));
}

// As printf's "%.17g" (exact round trip), through std::to_chars: the same
// characters about 4x faster (10^6 vertices' figures: ~0.7 s less), appended.
void put_num(std::string& s, double x) {
  char b[40];
  if (!std::isfinite(x)) {
    std::snprintf(b, sizeof b, "%.17g", x);
    s += b;
    return;
  }
  const auto r = std::to_chars(b, b + sizeof b, x, std::chars_format::general, 17);
  s.append(b, r.ptr);
}
void put_int(std::string& s, long long x) {
  char b[24];
  const auto r = std::to_chars(b, b + sizeof b, x);
  s.append(b, r.ptr);
}

// The CSV lines of vertices [0, n), formatted in blocks on every core and
// written in order (10^6 vertices: 0.40 s on one core of this machine).
void write_stats_csv(std::ostream& out, const VertexStats& v) {
  const bool bc = !v.betweenness.empty();
  out << (bc ? "vertex,reach,eccentricity,closeness,harmonic,betweenness\n"
             : "vertex,reach,eccentricity,closeness,harmonic\n");
  constexpr size_t kBlock = size_t{1} << 14;
  const size_t n = v.reach.size(), blocks = (n + kBlock - 1) / kBlock;
  // Formatting is compute: a thread per block (~1 MB of text), the pool at most.
  const int threads = threads_for(blocks, omp_get_max_threads(), 1, omp_get_max_threads());
  const size_t window = 4 * static_cast<size_t>(threads);
  std::vector<std::string> text(std::min(window, blocks));
  for (size_t b0 = 0; b0 < blocks; b0 += window) {
    const size_t nb = std::min(window, blocks - b0);
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1)
    for (size_t k = 0; k < nb; ++k) {
      std::string& t = text[k];
      t.clear();
      for (size_t i = (b0 + k) * kBlock, e = std::min(n, i + kBlock); i < e; ++i) {
        put_int(t, static_cast<long long>(v.vertex.empty() ? static_cast<int64_t>(i) : v.vertex[i]));
        t += ',';
        put_int(t, static_cast<long long>(v.reach[i]));
        t += ',';
        put_num(t, v.eccentricity[i]);
        t += ',';
        put_num(t, v.closeness[i]);
        t += ',';
        put_num(t, v.harmonic[i]);
        if (bc) {
          t += ',';
          put_num(t, v.betweenness[i]);
        }
        t += '\n';
      }
    }
    for (size_t k = 0; k < nb; ++k) out.write(text[k].data(), static_cast<std::streamsize>(text[k].size()));
  }
}

void put_le(std::string& s, uint64_t v, int bytes) {
  for (int k = 0; k < bytes; ++k) s += static_cast<char>((v >> (8 * k)) & 0xff);
}
void put_f64(std::string& s, double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  put_le(s, b, 8);
}

}  // namespace

template <typename T>
StatsSink<T>::StatsSink(int64_t n, std::vector<int64_t> sources) : n_(n) {
  for (int64_t v : sources)
    if (v < 0 || v >= n)
      throw UsageError("--stats: source " + std::to_string(v) + " is outside [0, " + std::to_string(n) + ")");
  const size_t k = sources.empty() ? static_cast<size_t>(n) : sources.size();
  s_.vertex = std::move(sources);
  s_.reach.assign(k, 0);
  s_.eccentricity.assign(k, 0);
  s_.closeness.assign(k, 0);
  s_.harmonic.assign(k, 0);
  s_.sum_from.assign(k, 0);
}

template <typename T>
void continue_figures(RowFigures& f, const T* x, int64_t len, int64_t stride, bool harmonic) {
  double reach = f.reach, sum = f.sum, harm = f.harmonic;
  double ecc = f.reach > 0 ? f.largest : -std::numeric_limits<double>::infinity();
  for (int64_t j = 0; j < len; ++j) {
    const T e = x[j * stride];
    if (!finite(e)) continue;
    ++reach;
    const double v = static_cast<double>(e);
    ecc = std::max(ecc, v);
    sum += v;
    if (harmonic && v != 0) harm += 1.0 / v;
  }
  f = {reach, reach > 0 ? ecc : 0.0, sum, harm};
}

template <typename T>
RowFigures row_figures(const T* row, int64_t len, bool harmonic) {
  RowFigures f;
  continue_figures(f, row, len, 1, harmonic);
  return f;
}

template <typename T>
void column_figures(const T* block, int64_t rows, int64_t cols, int64_t ld, bool harmonic,
                    RowFigures* f) {
  const int threads = work_threads(static_cast<size_t>(rows) * static_cast<size_t>(cols) * sizeof(T));
#pragma omp parallel for schedule(static) num_threads(threads) if (cols > 1 && threads > 1)
  for (int64_t c = 0; c < cols; ++c) continue_figures(f[c], block + c, rows, ld, harmonic);
}

template <typename T>
void StatsSink<T>::rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t*,
                        const int32_t*) {
  const Stopwatch t;
  const bool harmonic = pass_ & to;  // the divisions only where they are used
  const int threads = work_threads(static_cast<size_t>(count) * static_cast<size_t>(n) * sizeof(T));
#pragma omp parallel for schedule(static) num_threads(threads) if (count > 1 && threads > 1)
  for (int64_t r = 0; r < count; ++r) store(first + r, row_figures(d + r * n, n, harmonic));
  host_rows_ += count;
  seconds_ += t.seconds();
}

template <typename T>
void StatsSink<T>::figures(int64_t first, int64_t count, const RowFigures* f) {
  for (int64_t r = 0; r < count; ++r) store(first + r, f[r]);
  engine_rows_ += count;
}

template <typename T>
void StatsSink<T>::host_figures(int64_t first, int64_t count, const RowFigures* f, double seconds) {
  for (int64_t r = 0; r < count; ++r) store(first + r, f[r]);
  host_rows_ += count;
  seconds_ += seconds;
}

template <typename T>
void StatsSink<T>::vertex_figures(const RowFigures* f) {
  const int64_t rows = row_count();
  for (int64_t r = 0; r < rows; ++r) store(r, f[vertex_of(r)]);
  engine_rows_ += rows;
}

template <typename T>
void StatsSink<T>::store(int64_t v, const RowFigures& f) {
  const int64_t reach = static_cast<int64_t>(f.reach);
  if (pass_ & from) {
    s_.reach[v] = reach;
    s_.eccentricity[v] = f.largest;
    s_.sum_from[v] = f.sum;
  }
  if (pass_ & to) {
    // networkx: (len(sp) - 1) / totsp * (len(sp) - 1) / (n - 1) when totsp > 0.
    const double k = static_cast<double>(reach - 1);
    const double others = static_cast<double>(n_ - 1);
    s_.closeness[v] = f.sum > 0 && n_ > 1 ? k / f.sum * (k / others) : 0.0;
    s_.harmonic[v] = f.harmonic;
  }
}

template <typename T>
GraphStats StatsSink<T>::summary() const {
  GraphStats g;
  double total = 0;
  // Rows in order; a source listed again is counted once (its first row).
  std::vector<bool> seen(s_.vertex.empty() ? 0 : static_cast<size_t>(n_));
  bool first = true;
  for (int64_t v = 0, rows = row_count(); v < rows; ++v) {
    if (!s_.vertex.empty()) {
      const size_t id = static_cast<size_t>(s_.vertex[static_cast<size_t>(v)]);
      if (seen[id]) continue;
      seen[id] = true;
      ++g.sources;
    }
    g.diameter = first ? s_.eccentricity[v] : std::max(g.diameter, s_.eccentricity[v]);
    g.radius = first ? s_.eccentricity[v] : std::min(g.radius, s_.eccentricity[v]);
    first = false;
    g.reachable_pairs += s_.reach[v] - 1;
    total += s_.sum_from[v];
  }
  g.average_shortest_path_length =
      g.reachable_pairs > 0 ? total / static_cast<double>(g.reachable_pairs) : 0.0;
  return g;
}

template <typename T>
void stats_from_matrix(const DistMatrix<T>& d, StatsSink<T>& sink) {
  const int64_t n = d.n();
  sink.set_pass(StatsSink<T>::from);
  if (sink.sources().empty())
    sink.rows(0, n, n, d.data(), nullptr, nullptr);
  else
    for (int64_t r = 0; r < sink.row_count(); ++r) sink.rows(r, 1, n, d.data() + sink.vertex_of(r) * n, nullptr, nullptr);
  stats_from_columns(d, sink);
}

template <typename T>
void stats_from_columns(const DistMatrix<T>& d, StatsSink<T>& sink) {
  const int64_t n = d.n(), rows = sink.row_count();
  // Columns as rows, a block at a time (the transpose of a slab): column
  // sink.vertex_of(r) for row r.
  const int64_t b = std::max<int64_t>(1, std::min<int64_t>(rows, (int64_t{16} << 20) / (sizeof(T) * std::max<int64_t>(n, 1))));
  std::vector<T> block(static_cast<size_t>(b * n));
  std::vector<int64_t> col(static_cast<size_t>(b));
  sink.set_pass(StatsSink<T>::to);
  for (int64_t c = 0; c < rows; c += b) {
    const int64_t k = std::min(b, rows - c);
    for (int64_t j = 0; j < k; ++j) col[static_cast<size_t>(j)] = sink.vertex_of(c + j);
    // A copy (each thread its own rows i): threads by its bytes, the same values.
    const int threads = copy_threads(static_cast<size_t>(k) * static_cast<size_t>(n) * sizeof(T));
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < k; ++j) block[static_cast<size_t>(j * n + i)] = d(i, col[static_cast<size_t>(j)]);
    sink.rows(c, k, n, block.data(), nullptr, nullptr);
  }
  sink.set_pass(StatsSink<T>::both);
}

void check_stats_path(const std::string& path) {
  const std::string e = extension_of(path);
  if (!(e == "csv" || e == "npy" || e == "json"))
    throw UsageError("--stats '" + path + "': expected a .csv, .npy or .json file name");
  resolve_output(path);
}

void write_stats_file(const std::string& path, const VertexStats& v, const GraphStats& g) {
  const std::string e = extension_of(path);
  const size_t n = v.reach.size();
  write_file_atomically(path, [&](std::ostream& out) {
    if (e == "npy") {
      const bool bc = !v.betweenness.empty();
      const std::string h = npy_record_header(
          std::string("[('vertex', '<i8'), ('reach', '<i8'), ('eccentricity', '<f8'), "
                      "('closeness', '<f8'), ('harmonic', '<f8')") +
              (bc ? ", ('betweenness', '<f8')]" : "]"),
          static_cast<int64_t>(n));
      out.write(h.data(), static_cast<std::streamsize>(h.size()));
      std::string rec;
      for (size_t i = 0; i < n; ++i) {
        rec.clear();
        put_le(rec, v.vertex.empty() ? i : static_cast<uint64_t>(v.vertex[i]), 8);
        put_le(rec, static_cast<uint64_t>(v.reach[i]), 8);
        put_f64(rec, v.eccentricity[i]);
        put_f64(rec, v.closeness[i]);
        put_f64(rec, v.harmonic[i]);
        if (bc) put_f64(rec, v.betweenness[i]);
        out.write(rec.data(), static_cast<std::streamsize>(rec.size()));
      }
    } else if (e == "json") {
      JsonWriter j(out);
      j.begin_object();
      j.key("vertex").begin_array();
      for (size_t i = 0; i < n; ++i) j.value(static_cast<long long>(v.vertex.empty() ? static_cast<int64_t>(i) : v.vertex[i]));
      j.end_array().key("reach").begin_array();
      for (size_t i = 0; i < n; ++i) j.value(static_cast<long long>(v.reach[i]));
      j.end_array();
      const std::pair<const char*, const std::vector<double>*> cols[] = {
          {"eccentricity", &v.eccentricity}, {"closeness", &v.closeness}, {"harmonic", &v.harmonic},
          {"betweenness", &v.betweenness}};
      for (const auto& c : cols) {
        if (c.second->empty() && c.second == &v.betweenness) continue;
        j.key(c.first).begin_array();
        for (double x : *c.second) j.exact(x);  // the csv's and npy's values
        j.end_array();
      }
      j.key("stats").begin_object();
      j.key("diameter").exact(g.diameter).key("radius").exact(g.radius);
      j.field("reachable_pairs", g.reachable_pairs);
      j.key("average_shortest_path_length").exact(g.average_shortest_path_length);
      if (g.sources > 0) j.field("sources", g.sources);
      j.end_object().end_object();
      out << "\n";
    } else {
      write_stats_csv(out, v);
    }
  });
}

#define OCL_SP_FIGURES(T)                                                                 \
  template void continue_figures(RowFigures&, const T*, int64_t, int64_t, bool);          \
  template void column_figures(const T*, int64_t, int64_t, int64_t, bool, RowFigures*);
OCL_SP_FIGURES(int32_t)
OCL_SP_FIGURES(float)
OCL_SP_FIGURES(double)
OCL_SP_FIGURES(int64_t)
#undef OCL_SP_FIGURES
template RowFigures row_figures(const int32_t*, int64_t, bool);
template RowFigures row_figures(const float*, int64_t, bool);
template RowFigures row_figures(const double*, int64_t, bool);
template RowFigures row_figures(const int64_t*, int64_t, bool);
template class StatsSink<int32_t>;
template class StatsSink<float>;
template class StatsSink<double>;
template class StatsSink<int64_t>;
template void stats_from_matrix(const DistMatrix<int32_t>&, StatsSink<int32_t>&);
template void stats_from_columns(const DistMatrix<int32_t>&, StatsSink<int32_t>&);
template void stats_from_matrix(const DistMatrix<float>&, StatsSink<float>&);
template void stats_from_columns(const DistMatrix<float>&, StatsSink<float>&);
template void stats_from_matrix(const DistMatrix<double>&, StatsSink<double>&);
template void stats_from_columns(const DistMatrix<double>&, StatsSink<double>&);
template void stats_from_matrix(const DistMatrix<int64_t>&, StatsSink<int64_t>&);
template void stats_from_columns(const DistMatrix<int64_t>&, StatsSink<int64_t>&);

}  // namespace ocl_sp
