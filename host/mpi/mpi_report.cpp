// The distributed solve's report (see mpi_report.hpp).
#ifdef OCL_SP_HAVE_MPI
#include "mpi/mpi_report.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "report/json.hpp"
#include "report/report.hpp"
#include "util/strings.hpp"

namespace ocl_sp::mpi {

void gather_rank_figures(const Session& s, const std::vector<double>& mine, const std::string& device,
                         const std::vector<std::vector<double>*>& into, std::vector<std::string>& devices) {
  const int per = static_cast<int>(mine.size());
  std::vector<double> all(static_cast<size_t>(per * s.size));
  MPI_Gather(mine.data(), per, MPI_DOUBLE, all.data(), per, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  char name[128] = {};
  std::snprintf(name, sizeof name, "%s", device.c_str());
  std::vector<char> names(static_cast<size_t>(128 * s.size));
  MPI_Gather(name, 128, MPI_CHAR, names.data(), 128, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (s.rank != 0) return;
  for (int k = 0; k < s.size; ++k) {
    for (size_t i = 0; i < into.size(); ++i) into[i]->push_back(all[static_cast<size_t>(per * k) + i]);
    devices.emplace_back(names.data() + 128 * k);
  }
}

void begin_report_json(JsonWriter& j, const char* algo, const std::string& choice, int ranks) {
  j.begin_object().field("command", "solve").field("algorithm", algo);
  j.key("algorithm_choice");
  if (choice.empty())
    j.null();
  else
    j.value(choice);
  j.field("mpi_ranks", ranks);
  // rank 0's OpenMP pool: its share of the host's CPUs (mpi_session.cpp)
  j.field("host_threads", omp_get_max_threads());
}

void write_report_head(std::ostream& os, const std::string& source, long long n, long long edges,
                       const char* type, const char* algo, const std::string& choice) {
  char buf[512];
  os << "source    " << source << "\n";
  std::snprintf(buf, sizeof buf, "graph     n = %lld, %lld edges, %s\n", n, edges, type);
  os << buf;
  os << "algorithm " << (choice.empty() ? algo : choice) << "\n";
}

void write_stats_line(std::ostream& os, const std::string& file, const GraphStats& g,
                      const std::string& how, double seconds) {
  if (file.empty()) return;
  const auto len = [](double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.9g", v);
    return std::string(b);
  };
  os << "stats     diameter " << len(g.diameter) << ", radius " << len(g.radius) << ", reachable pairs "
     << g.reachable_pairs << ", average shortest path " << len(g.average_shortest_path_length)
     << (g.sources > 0 ? " (" + std::to_string(g.sources) + " sources' rows: " : std::string(" (per vertex: "))
     << file << "; " << how << ", " << format_seconds(seconds) << ")\n";
}

void write_stats_json(JsonWriter& j, const std::string& file, const GraphStats& g, double seconds) {
  // The single-process report's stats object (report/report.cpp).
  j.key("stats");
  if (file.empty()) {
    j.null();
    return;
  }
  j.begin_object().field("diameter", g.diameter).field("radius", g.radius);
  j.field("reachable_pairs", g.reachable_pairs);
  j.field("average_shortest_path_length", g.average_shortest_path_length);
  if (g.sources > 0) j.field("sources", g.sources);
  j.field("file", file).end_object();
  j.field("stats_s", seconds);
}

void print_report(const MpiSolveOptions& o, const Report& rep, const Layout& lay, int ranks,
                  bool to_stderr, const char* type) {
  const double relax = static_cast<double>(lay.n) * lay.n * lay.n;
  double csum = 0, wsum = 0, wmax = 0;
  for (int k = 0; k < ranks; ++k) {
    csum += rep.compute[static_cast<size_t>(k)];
    wsum += rep.wait[static_cast<size_t>(k)];
    wmax = std::max(wmax, rep.wait[static_cast<size_t>(k)]);
  }
  const double eff = rep.t_solve > 0 ? csum / (ranks * rep.t_solve) : 0;
  std::string per_rank;
  for (int k = 0; k < ranks; ++k)
    per_rank += (k ? "/" : "") + std::to_string(lay.rows_of(k / lay.pc) * lay.cols_of(k % lay.pc));
  double rc_sum = 0, rc_max = 0, rw_sum = 0, rw_max = 0;
  for (size_t r = 0; r < rep.round_compute.size(); ++r) {
    rc_sum += rep.round_compute[r];
    rc_max = std::max(rc_max, rep.round_compute[r]);
    rw_sum += rep.round_wait[r];
    rw_max = std::max(rw_max, rep.round_wait[r]);
  }
  const double rounds = std::max<double>(1, static_cast<double>(rep.round_compute.size()));
  std::ostream& os = to_stderr ? std::cerr : std::cout;
  if (o.json) {
    JsonWriter j(os);
    begin_report_json(j, "fw", rep.choice, ranks);
    j.field("distribution", "2D block-cyclic").field("grid_rows", lay.pr).field("grid_cols", lay.pc);
    j.field("grid", std::to_string(lay.pr) + "x" + std::to_string(lay.pc));
    j.field("panel", static_cast<long long>(lay.p));
    j.field("panels_per_dim", static_cast<long long>(lay.q)).field("n", static_cast<long long>(lay.n));
    j.field("edges", rep.edges).field("type", type).field("source", rep.source);
    j.field("backend", rep.backend_kind).field("devices_per_rank", 1);
    j.array_field("rank_devices", rep.devices).array_field("rank_compute_s", rep.compute);
    j.array_field("rank_wait_s", rep.wait).array_field("rank_bytes_sent", rep.sent);
    j.array_field("round_compute_s", rep.round_compute).array_field("round_wait_s", rep.round_wait);
    j.array_field("round_pivot_s", rep.round_pivot).array_field("round_posted_s", rep.round_posted).array_field("round_arrived_s", rep.round_arrived);
    j.array_field("rank_upload_s", rep.upload).array_field("rank_readback_s", rep.readback);
    j.array_field("rank_pin_s", rep.pin).array_field("rank_pin_wait_s", rep.pin_wait);
    j.array_field("rank_pinned_bytes", rep.pinned);
    if (rep.backend_kind == "opencl") j.array_field("rank_kernels_s", rep.kernels);
    j.field("setup_s", rep.t_setup).field("solve_s", rep.t_solve).field("gather_s", rep.t_gather);
    j.field("write_s", rep.t_write).field("total_s", rep.wall);
    j.field("bytes_broadcast", rep.bytes_bcast).field("bytes_scatter", rep.bytes_scatter);
    j.field("bytes_gather", rep.bytes_gather).field("parallel_efficiency", eff);
    j.field("relaxations_per_s", rep.t_solve > 0 ? relax / rep.t_solve : 0.0);
    if (!rep.verify.empty()) j.field("verify", rep.verify);
    j.field("paths", rep.paths);
    if (rep.paths) {
      j.field("paths_kernels", rep.paths_detail).field("paths_output", rep.paths_output);
      if (!rep.paths_check.empty())
        j.field("paths_check", rep.paths_check).field("paths_check_detail", rep.paths_check_detail);
      write_queries(j, rep.queries);
    }
    if (!rep.output.empty())
      j.field("output", rep.output).field("output_mode", rep.output_mode);
    if (rep.rows > 0) j.field("rows", rep.rows).field("cols", rep.cols);
    write_stats_json(j, rep.stats_output, rep.graph_stats, rep.t_stats);
    j.field("bytes_output_to_rank0", rep.bytes_output);
    j.array_field("rank_peak_rss_bytes", rep.peak_rss);
    j.array_field("rank_setup_peak_rss_bytes", rep.setup_rss);
    j.array_field("rank_generated", rep.generated);
    j.end_object();
    os << "\n";
    os.flush();
    return;
  }
  write_report_head(os, rep.source, static_cast<long long>(lay.n), rep.edges, type, "fw", rep.choice);
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "mpi       %d ranks, %d x %d process grid (2D block-cyclic: panel (i,j) -> rank "
                "(i mod %d, j mod %d)), P = %lld, %lld x %lld panels, panels per rank %s\n",
                ranks, lay.pr, lay.pc, lay.pr, lay.pc, static_cast<long long>(lay.p),
                static_cast<long long>(lay.q), static_cast<long long>(lay.q), per_rank.c_str());
  os << buf;
  os << "backend   " << rep.backend_kind << ", 1 device per rank:";
  for (int k = 0; k < ranks; ++k) os << (k ? ", " : " ") << k << ": " << rep.devices[static_cast<size_t>(k)];
  os << "\n";
  std::snprintf(buf, sizeof buf,
                "rounds    %lld: compute %.3f s avg per rank, broadcast wait %.3f s avg (max %.3f s); "
                "per round (slowest rank) compute %.2f ms avg (max %.2f), wait %.2f ms avg (max %.2f)\n",
                static_cast<long long>(lay.q), csum / ranks, wsum / ranks, wmax, 1e3 * rc_sum / rounds,
                1e3 * rc_max, 1e3 * rw_sum / rounds, 1e3 * rw_max);
  os << buf;
  for (int k = 0; k < ranks; ++k) {
    const size_t x = static_cast<size_t>(k);
    std::snprintf(buf, sizeof buf, "  rank %d (%d,%d)  compute %.3f s, waited %.3f s, sent %s", k, k / lay.pc,
                  k % lay.pc, rep.compute[x], rep.wait[x], format_bytes(rep.sent[x]).c_str());
    os << buf;
    if (rep.backend_kind == "opencl") {
      std::snprintf(buf, sizeof buf,
                    ", kernels %.3f s, panel uploads %.3f s, read-backs %.3f s, pinning %.3f s (waited %.3f s)",
                    rep.kernels[x], rep.upload[x], rep.readback[x], rep.pin[x], rep.pin_wait[x]);
      os << buf;
    }
    os << "\n";
  }
  os << "bytes     pivot/row/column broadcasts " << format_bytes(rep.bytes_bcast) << " (sum over receivers)";
  if (rep.bytes_scatter > 0) os << ", scatter " << format_bytes(rep.bytes_scatter);
  if (rep.bytes_gather > 0) os << ", gather " << format_bytes(rep.bytes_gather);
  os << "\n";
  std::snprintf(buf, sizeof buf,
                "time      set-up %.3f s, solve %.3f s, gather %.3f s, write %.3f s, total %.3f s\n",
                rep.t_setup, rep.t_solve, rep.t_gather, rep.t_write, rep.wall);
  os << buf;
  std::snprintf(buf, sizeof buf, "rate      %.3g relax/s\n", rep.t_solve > 0 ? relax / rep.t_solve : 0.0);
  os << buf;
  std::snprintf(buf, sizeof buf,
                "efficiency %.2f (compute time summed over ranks / (ranks x solve time))\n", eff);
  os << buf;
  if (!rep.verify.empty()) os << "verify    " << rep.verify << " (" << rep.verify_detail << ")\n";
  if (rep.paths) {
    os << "paths     via + hops matrices (" << rep.paths_detail << ")\n";
    if (!rep.paths_check.empty())
      os << "check     paths " << rep.paths_check << " (" << rep.paths_check_detail << ")\n";
    if (!rep.paths_output.empty()) os << "via       " << rep.paths_output << "\n";
    for (const auto& q : rep.queries) os << format_query(q) << "\n";
  }
  if (!rep.output.empty()) {
    os << "output    " << rep.output << " (";
    if (rep.rows > 0) os << rep.rows << " x " << rep.cols << ", ";
    os << rep.output_mode;
    if (rep.bytes_output > 0) os << ", " << format_bytes(rep.bytes_output) << " to rank 0";
    os << ")\n";
  }
  write_stats_line(os, rep.stats_output, rep.graph_stats,
                   "reduced by the ranks holding the rows and columns", rep.t_stats);
  os << "memory    peak resident per rank:";
  for (size_t k = 0; k < rep.peak_rss.size(); ++k)
    os << (k ? ", " : " ") << format_bytes(rep.peak_rss[k]);
  os << "; after the set-up:";
  for (size_t k = 0; k < rep.setup_rss.size(); ++k)
    os << (k ? ", " : " ") << format_bytes(rep.setup_rss[k]);
  os << " (matrix " << format_bytes(static_cast<double>(lay.n) * lay.n * 4) << ")\n";
  os.flush();
}

void print_sssp_report(const MpiSolveOptions& o, const SsspReport& r, int ranks, bool to_stderr, const char* type) {
  double sum = 0;
  for (double x : r.solve) sum += x;
  const double eff = r.t_solve > 0 ? sum / (ranks * r.t_solve) : 0;
  const double rate = r.t_solve > 0 ? r.relaxations / r.t_solve : 0;
  std::ostream& os = to_stderr ? std::cerr : std::cout;
  const std::string dealing = "chunks of " + std::to_string(r.chunk) + " rows, chunk c to rank c mod " + std::to_string(ranks);
  if (o.json) {
    JsonWriter j(os);
    begin_report_json(j, "sssp", r.choice, ranks);
    j.field("distribution", "sources dealt: " + dealing);
    j.field("chunk", r.chunk).field("n", r.n).field("edges", r.edges).field("type", type).field("source", r.source);
    j.field("backend", r.backend).array_field("rank_devices", r.devices).array_field("rank_sources", r.sources);
    j.array_field("rank_solve_s", r.solve).array_field("rank_kernel_s", r.kernels);
    j.key("rank0_kernel_seconds").begin_object();
    for (const auto& [k, t] : r.kernel_seconds) j.field(k, t);
    j.end_object();
    j.field("setup_s", r.t_setup).field("solve_s", r.t_solve).field("write_s", r.t_write).field("total_s", r.wall);
    j.field("relaxations", r.relaxations).field("relaxations_per_s", rate).field("parallel_efficiency", eff);
    if (!r.output.empty()) j.field("output", r.output).field("output_mode", r.output_mode);
    if (r.selected) j.field("rows", r.rows).field("cols", r.cols);
    write_stats_json(j, r.stats_output, r.graph_stats, r.t_stats);
    j.field("paths", r.paths);
    if (r.paths) {
      j.field("paths_output", r.paths_output);
      write_queries(j, r.queries);
    }
    j.array_field("notes", r.notes);
    j.array_field("rank_peak_rss_bytes", r.peak_rss);
    j.end_object();
    os << "\n";
    os.flush();
    return;
  }
  write_report_head(os, r.source, r.n, r.edges, type, "sssp", r.choice);
  char buf[512];
  os << "mpi       " << ranks << " ranks, multi-source engine, the whole graph on every rank; sources dealt: "
     << dealing << "\n";
  os << "backend   " << r.backend << ", devices per rank:";
  for (int k = 0; k < ranks; ++k) os << (k ? ", " : " ") << k << ": " << r.devices[static_cast<size_t>(k)];
  os << "\n";
  for (int k = 0; k < ranks; ++k) {
    const size_t x = static_cast<size_t>(k);
    std::snprintf(buf, sizeof buf, "  rank %d  sources %.0f, solve %.3f s", k, r.sources[x], r.solve[x]);
    os << buf;
    if (r.backend == "opencl") {
      std::snprintf(buf, sizeof buf, ", kernels %.3f s", r.kernels[x]);
      os << buf;
    }
    os << "\n";
  }
  std::snprintf(buf, sizeof buf, "time      set-up %.3f s, solve %.3f s (slowest rank), write %.3f s, total %.3f s\n",
                r.t_setup, r.t_solve, r.t_write, r.wall);
  os << buf;
  std::snprintf(buf, sizeof buf, "rate      %.3g relax/s\n", rate);
  os << buf;
  std::snprintf(buf, sizeof buf, "efficiency %.2f (solve time summed over ranks / (ranks x slowest))\n", eff);
  os << buf;
  if (!r.output.empty()) {
    os << "output    " << r.output << " (";
    if (r.selected) os << r.rows << " x " << r.cols << ", ";
    os << r.output_mode << ")\n";
  }
  write_stats_line(os, r.stats_output, r.graph_stats,
                   r.graph_stats.sources > 0 ? "each rank reduced its sources' rows, gathered in the listed order"
                                             : "each rank reduced its sources' rows, gathered in vertex order",
                   r.t_stats);
  if (r.paths) {
    os << "paths     via matrix rows from each rank's shortest-path trees\n";
    if (!r.paths_output.empty()) os << "via       " << r.paths_output << "\n";
    for (const auto& q : r.queries) os << format_query(q) << "\n";
  }
  for (const auto& n : r.notes) os << "note      " << n << "\n";
  os << "memory    peak resident per rank:";
  for (size_t k = 0; k < r.peak_rss.size(); ++k) os << (k ? ", " : " ") << format_bytes(r.peak_rss[k]);
  os << "\n";
  os.flush();
}


}  // namespace ocl_sp::mpi

#endif  // OCL_SP_HAVE_MPI
