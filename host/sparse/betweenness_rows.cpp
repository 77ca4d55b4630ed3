// betweenness_rows (betweenness.hpp): Brandes' passes on the device where the
// engine runs them there, else the engine's rows into the host sink.
#include <cstdlib>
#include <string>
#include <type_traits>

#include "sparse/betweenness.hpp"
#include "sparse/johnson.hpp"
#include "sparse/sssp.hpp"
#include "sparse/stats_sink.hpp"
#include "sparse/stream_sink.hpp"
#include "util/errors.hpp"
#include "util/timer.hpp"

namespace ocl_sp {

namespace {

// betweenness_rows; with `stats` (every vertex a source) the stats' figures too
// where the device gives them beside Brandes' passes (*stats_done then true).
template <typename T>
RunStats bc_rows(SsspSolver<T>& solver, const Csr<T>& g, BetweennessSink<T>& sink, std::string* note,
                 StatsSink<T>* stats, bool* stats_done) {
  auto* dev = engine_capability<BetweennessEngine<T>>(&solver.engine());
  const char* e = std::getenv("OCL_SP_BETWEENNESS_ON_HOST");
  const bool on_host = e && *e == '1';
  const std::vector<int64_t>& listed = sink.sources();
  const int64_t count = listed.empty() ? g.n : static_cast<int64_t>(listed.size());
  const auto host_rows = [&](const char* why) {
    RunStats st = solver.solve_rows(g, listed, sink, false);
    if (note) *note = std::to_string(count) + " sources on the host (" + why + ")";
    return st;
  };
  if (!dev || g.n == 0) return host_rows("rows from the engine");
  if (on_host) return host_rows("OCL_SP_BETWEENNESS_ON_HOST=1");
  if (sink.edges()) return host_rows("edge sums: rows from the engine");
  if (!dev->betweenness_on_device()) return host_rows("the device has no doubles");
  const Stopwatch total;
  std::vector<int64_t> all;
  if (listed.empty()) {
    all.resize(static_cast<size_t>(g.n));
    for (int64_t i = 0; i < g.n; ++i) all[static_cast<size_t>(i)] = i;
  }
  const std::vector<int64_t>& sources = listed.empty() ? all : listed;
  for (int64_t s : sources)
    if (s < 0 || s >= g.n)
      throw UsageError("source " + std::to_string(s) + " is outside [0, " + std::to_string(g.n) + ")");
  // The engine's graph: +0 for -0 weights (floats), as solve_rows gives it.
  std::unique_ptr<Csr<T>> zeros;
  if constexpr (std::is_floating_point_v<T>) zeros = positive_zeros(g);
  RunStats st;
  if (!dev->prepare_betweenness(zeros ? *zeros : g, sink.in(), st))
    return host_rows("the device has no room for a source's scratch beside the rows");
  // A few sources: a source a group where lanes would leave compute units idle.
  if (auto* counted = engine_capability<SourceCountEngine>(&solver.engine())) counted->source_count(count, st);
  std::vector<Fixed> sums;
  std::vector<uint8_t> flags;
  const bool figures = stats && listed.empty() && dev->betweenness_figures() && !stats_on_host();
  std::vector<RowFigures> rows(figures ? static_cast<size_t>(g.n) : 0), cols(rows.size());
  dev->run_betweenness(sources.data(), count, sink.endpoints(), sums, flags, st, figures ? rows.data() : nullptr,
                       figures ? cols.data() : nullptr);
  if (figures) {
    stats->set_pass(StatsSink<T>::from);
    stats->figures(0, g.n, rows.data());
    stats->set_pass(StatsSink<T>::to);
    stats->figures(0, g.n, cols.data());
    stats->set_pass(StatsSink<T>::both);
    *stats_done = true;
  }
  std::vector<int64_t> again;
  for (int64_t r = 0; r < count; ++r)
    if (flags[static_cast<size_t>(r)]) again.push_back(sources[static_cast<size_t>(r)]);
  sink.add_sums(sums, count - static_cast<int64_t>(again.size()));
  if (!again.empty()) {
    // Counts past the device's wide range (the host's wide pass) or a zero-weight cycle (its error):
    // those sources' rows into a sink on the host, its sums added.
    BetweennessSink<T> wide(g, again, sink.endpoints(), false, sink.threads());
    const RunStats more = solver.solve_rows(g, again, wide, false);
    sink.add_sums(wide);
    st.add_pass(more);  // total and relaxations are set below for the whole call
  }
  if (note) {
    // Several devices: each one's share of the sources ("on 2 devices (a + b)").
    const std::vector<int64_t> shares = dev->betweenness_shares();
    std::string on = "on the device";
    if (shares.size() > 1) {
      on = "on " + std::to_string(shares.size()) + " devices (";
      for (size_t i = 0; i < shares.size(); ++i) on += (i ? " + " : "") + std::to_string(shares[i]);
      on += ")";
    }
    *note = std::to_string(count - static_cast<int64_t>(again.size())) + " sources " + on + ", " +
            std::to_string(again.size()) + " on the host (counts past the device's wide range)";
  }
  st.relaxations = sssp_relaxations(count, g.m());
  st.total = total.seconds();
  return st;
}

}  // namespace

template <typename T>
RunStats betweenness_rows(SsspSolver<T>& solver, const Csr<T>& g, BetweennessSink<T>& sink,
                          std::string* note) {
  return bc_rows<T>(solver, g, sink, note, nullptr, nullptr);
}

template <typename T>
RunStats stats_betweenness_rows(SsspSolver<T>& solver, const Csr<T>& g, StatsSink<T>& stats,
                                BetweennessSink<T>& sink, std::vector<std::string>& notes,
                                std::string& where) {
  if (!sink.sources().empty() || !stats.sources().empty())
    throw std::logic_error("stats_betweenness_rows: every vertex a source");
  auto* dev = engine_capability<BetweennessEngine<T>>(&solver.engine());
  if (!dev || !dev->betweenness_on_device()) {
    // Rows reaching the host (the CPU engines; devices without doubles, whose
    // rows the stats reduce on the host too): one pass into both sinks.
    TeeSink<T> both({&stats, &sink});
    RunStats st = solver.solve_stats_rows(g, {}, stats, both, notes);
    where = std::to_string(g.n) + " sources on the host (rows from the engine, with the stats' pass)";
    return st;
  }
  // The device: Brandes' passes beside the rows, their figures with them where
  // the rows run in lanes; else the stats' own pass first.
  bool done = false;
  RunStats st = bc_rows<T>(solver, g, sink, &where, &stats, &done);
  if (done) {
    notes.push_back("stats: rows and columns reduced on the device beside the betweenness pass (one pass)");
    return st;
  }
  RunStats first = solver.solve_stats_rows(g, {}, stats, stats, notes);
  first.add_pass(st);
  return first;
}

#define OCL_SP_BETWEENNESS_ROWS(T)                                                                     \
  template RunStats betweenness_rows<T>(SsspSolver<T>&, const Csr<T>&, BetweennessSink<T>&, std::string*); \
  template RunStats stats_betweenness_rows<T>(SsspSolver<T>&, const Csr<T>&, StatsSink<T>&, BetweennessSink<T>&, \
                                              std::vector<std::string>&, std::string&);
OCL_SP_BETWEENNESS_ROWS(int32_t)
OCL_SP_BETWEENNESS_ROWS(int64_t)
OCL_SP_BETWEENNESS_ROWS(float)
OCL_SP_BETWEENNESS_ROWS(double)
#undef OCL_SP_BETWEENNESS_ROWS

}  // namespace ocl_sp
